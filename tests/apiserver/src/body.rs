//! The response body: a whole buffer, or a stream of chunks fed by a task (lists and
//! watches), optionally cut short to simulate a connection lost mid-response.

use std::io;
use std::pin::Pin;
use std::task::{Context, Poll};

use bytes::Bytes;
use hyper::body::{Frame, SizeHint};
use tokio::sync::mpsc;

/// Capacity of a streamed body's channel, in chunks: enough to keep the socket busy,
/// small enough that a slow reader holds back the producer.
pub(crate) const STREAM_DEPTH: usize = 8;

/// A streamed body's producer side.
pub(crate) type ChunkSender = mpsc::Sender<Result<Bytes, io::Error>>;

/// A response body.
pub(crate) enum Body {
    Full(Option<Bytes>),
    Stream(mpsc::Receiver<Result<Bytes, io::Error>>),
    /// Sends half of the inner body's first chunk, then fails so the connection is dropped.
    Cut {
        inner: Box<Body>,
        done: bool,
    },
}

impl Body {
    pub fn full(bytes: impl Into<Bytes>) -> Self {
        Self::Full(Some(bytes.into()))
    }

    /// A streamed body and the sender that feeds it.
    pub fn channel() -> (ChunkSender, Self) {
        let (tx, rx) = mpsc::channel(STREAM_DEPTH);
        (tx, Self::Stream(rx))
    }

    pub fn cut(self) -> Self {
        Self::Cut {
            inner: Box::new(self),
            done: false,
        }
    }
}

impl hyper::body::Body for Body {
    type Data = Bytes;
    type Error = io::Error;

    fn poll_frame(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
    ) -> Poll<Option<Result<Frame<Bytes>, io::Error>>> {
        match self.get_mut() {
            Body::Full(b) => Poll::Ready(b.take().map(|b| Ok(Frame::data(b)))),
            Body::Stream(rx) => rx.poll_recv(cx).map(|o| o.map(|r| r.map(Frame::data))),
            Body::Cut { inner, done } => {
                if *done {
                    return Poll::Ready(Some(Err(io::Error::new(
                        io::ErrorKind::ConnectionAborted,
                        "injected fault: connection cut mid-response",
                    ))));
                }
                match Pin::new(inner.as_mut()).poll_frame(cx) {
                    Poll::Ready(Some(Ok(frame))) => {
                        *done = true;
                        let half = frame
                            .into_data()
                            .map(|mut d| d.split_to(d.len() / 2))
                            .unwrap_or_default();
                        Poll::Ready(Some(Ok(Frame::data(half))))
                    }
                    Poll::Ready(_) => {
                        *done = true;
                        Poll::Ready(Some(Err(io::Error::new(
                            io::ErrorKind::ConnectionAborted,
                            "injected fault: connection cut mid-response",
                        ))))
                    }
                    Poll::Pending => Poll::Pending,
                }
            }
        }
    }

    fn is_end_stream(&self) -> bool {
        matches!(self, Body::Full(None))
    }

    fn size_hint(&self) -> SizeHint {
        match self {
            Body::Full(Some(b)) => SizeHint::with_exact(b.len() as u64),
            Body::Full(None) => SizeHint::with_exact(0),
            _ => SizeHint::default(),
        }
    }
}
