//! Cutting a TCP connection in the middle of a response: every connection's I/O goes
//! through [`CutIo`], which stops writing, and fails, once an armed byte budget runs out,
//! so the peer sees the connection end inside an HTTP chunk.

use std::io;
use std::pin::Pin;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use std::task::{Context, Poll};

use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};

const OFF: u64 = u64::MAX;

/// The switch of one connection, handed to its requests.
#[derive(Clone, Debug)]
pub(crate) struct CutSwitch(Arc<AtomicU64>);

impl Default for CutSwitch {
    fn default() -> Self {
        Self(Arc::new(AtomicU64::new(OFF)))
    }
}

impl CutSwitch {
    /// Lets `bytes` more bytes out, then cuts the connection.
    pub fn arm(&self, bytes: u64) {
        self.0.store(bytes.min(OFF - 1), Ordering::SeqCst);
    }

    fn budget(&self) -> u64 {
        self.0.load(Ordering::SeqCst)
    }

    fn consume(&self, n: usize) {
        let _ = self
            .0
            .fetch_update(Ordering::SeqCst, Ordering::SeqCst, |b| {
                (b != OFF).then(|| b.saturating_sub(n as u64))
            });
    }
}

fn aborted() -> io::Error {
    io::Error::new(
        io::ErrorKind::ConnectionAborted,
        "injected fault: connection cut mid-response",
    )
}

/// A connection's I/O with a [`CutSwitch`].
pub(crate) struct CutIo<T> {
    inner: T,
    switch: CutSwitch,
}

impl<T> CutIo<T> {
    pub fn new(inner: T, switch: CutSwitch) -> Self {
        Self { inner, switch }
    }
}

impl<T: AsyncRead + Unpin> AsyncRead for CutIo<T> {
    fn poll_read(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        Pin::new(&mut self.get_mut().inner).poll_read(cx, buf)
    }
}

impl<T: AsyncWrite + Unpin> AsyncWrite for CutIo<T> {
    fn poll_write(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<io::Result<usize>> {
        let this = self.get_mut();
        let budget = this.switch.budget();
        if budget == 0 {
            return Poll::Ready(Err(aborted()));
        }
        let allowed = usize::try_from(budget).unwrap_or(usize::MAX).min(buf.len());
        let written = Pin::new(&mut this.inner).poll_write(cx, &buf[..allowed]);
        if let Poll::Ready(Ok(n)) = written {
            this.switch.consume(n);
        }
        written
    }

    fn poll_write_vectored(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        bufs: &[io::IoSlice<'_>],
    ) -> Poll<io::Result<usize>> {
        if self.switch.budget() == OFF {
            return Pin::new(&mut self.get_mut().inner).poll_write_vectored(cx, bufs);
        }
        // Armed: one slice at a time keeps the budget exact.
        let first = bufs
            .iter()
            .find(|b| !b.is_empty())
            .map_or(&[][..], |b| &b[..]);
        self.poll_write(cx, first)
    }

    fn is_write_vectored(&self) -> bool {
        self.inner.is_write_vectored()
    }

    fn poll_flush(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.get_mut().inner).poll_flush(cx)
    }

    fn poll_shutdown(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.get_mut().inner).poll_shutdown(cx)
    }
}
