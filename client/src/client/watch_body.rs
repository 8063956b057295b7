//! The events of a watch body, JSON lines or protobuf frames alike: the whole events each
//! chunk completes are decoded as one batch (on the decode pool, or inline when the batch is
//! small and nothing is pending) and handed out in order while the connection reads on. The
//! stream ends after the first error.
//!
//! The two wire formats differ only in how a body is cut into events ([`Splitter`]) and how
//! one batch is decoded (a closure); the batching, ordering and error hand-off are shared.

use std::collections::VecDeque;
use std::sync::Arc;

use bytes::Bytes;
use futures_util::stream::BoxStream;
use futures_util::StreamExt;

use super::decode::{self, LineSplitter, Oversized};
use super::decode_pool::{self, Batch, DecodePool, Erased};
use super::{http_error, joined, oversized, Body};
use crate::error::{BoxError, Error, ErrorKind};
use crate::watch_event::{WatchEvent, WatchStream};

/// The events a batch decodes to, in order; an error, if any, is the last one.
pub(super) type Decoded<T> = Vec<Result<WatchEvent<T>, Error>>;

/// Cuts a watch body into its events as chunks arrive.
pub(super) trait Splitter: Send + 'static {
    /// Appends to `batch` every event `chunk` completes; fails on an event over its limit,
    /// before the bytes past the limit are held.
    fn feed(&mut self, chunk: &[u8], batch: &mut Batch) -> Result<(), Oversized>;

    /// The body has ended: appends a last event the format lets end without its terminator,
    /// or says why the body cannot end where it did.
    fn finish(&mut self, batch: &mut Batch) -> Result<(), &'static str>;
}

impl Splitter for LineSplitter {
    fn feed(&mut self, chunk: &[u8], batch: &mut Batch) -> Result<(), Oversized> {
        LineSplitter::feed(self, chunk, |line| push_unless_blank(batch, line))
    }

    fn finish(&mut self, batch: &mut Batch) -> Result<(), &'static str> {
        push_unless_blank(batch, &self.take_remainder());
        Ok(())
    }
}

/// Blank lines between JSON events are allowed and carry nothing.
fn push_unless_blank(batch: &mut Batch, line: &[u8]) {
    if !decode::is_blank(line) {
        batch.push(line);
    }
}

/// Splits a protobuf watch body into its frames: each a 4-byte big-endian length and that
/// many bytes. A length over the limit is refused before anything is buffered for it.
/// Frames a chunk holds whole are handed out from the chunk itself; only a frame cut by a
/// chunk's end is copied.
#[derive(Debug)]
pub(super) struct FrameSplitter {
    /// The start of a frame the last chunk cut: its length, maybe not all of it, and some of
    /// its bytes.
    pending: Vec<u8>,
    /// The longest frame taken, in bytes, without its length.
    max_frame: usize,
}

impl FrameSplitter {
    /// A splitter refusing frames over `max_frame` bytes.
    pub(super) fn new(max_frame: usize) -> Self {
        Self {
            pending: Vec::new(),
            max_frame,
        }
    }

    /// How many bytes of an unfinished frame are held.
    #[cfg(test)]
    fn pending_len(&self) -> usize {
        self.pending.len()
    }

    /// The length a frame's 4-byte `header` gives, checked against the limit.
    fn length(&self, header: &[u8]) -> Result<usize, Oversized> {
        let mut length = [0u8; 4];
        length.copy_from_slice(header);
        let length = usize::try_from(u32::from_be_bytes(length)).unwrap_or(usize::MAX);
        if length > self.max_frame {
            return Err(Oversized::object("a watch event", self.max_frame));
        }
        Ok(length)
    }

    /// Completes the pending frame from the front of `chunk`; returns what is left of it.
    fn complete_pending<'c>(
        &mut self,
        chunk: &'c [u8],
        batch: &mut Batch,
    ) -> Result<&'c [u8], Oversized> {
        let mut rest = chunk;
        let mut take = |pending: &mut Vec<u8>, wanted: usize| {
            let n = wanted.saturating_sub(pending.len()).min(rest.len());
            pending.extend_from_slice(&rest[..n]);
            rest = &rest[n..];
            pending.len() >= wanted
        };
        if !take(&mut self.pending, 4) {
            return Ok(rest);
        }
        let length = self.length(&self.pending[..4])?;
        if take(&mut self.pending, length.saturating_add(4)) {
            batch.push(&self.pending[4..]);
            self.pending.clear();
        }
        Ok(rest)
    }
}

impl Splitter for FrameSplitter {
    fn feed(&mut self, chunk: &[u8], batch: &mut Batch) -> Result<(), Oversized> {
        let mut rest = chunk;
        if !self.pending.is_empty() {
            rest = self.complete_pending(rest, batch)?;
            if !self.pending.is_empty() {
                return Ok(());
            }
        }
        while let Some(header) = rest.get(..4) {
            let length = self.length(header)?;
            let Some(frame) = rest.get(4..length.saturating_add(4)) else {
                break;
            };
            batch.push(frame);
            rest = &rest[4 + frame.len()..];
        }
        self.pending.extend_from_slice(rest);
        Ok(())
    }

    fn finish(&mut self, _: &mut Batch) -> Result<(), &'static str> {
        if self.pending.is_empty() {
            Ok(())
        } else {
            Err("the watch stream ended inside a protobuf frame")
        }
    }
}

/// Decodes one batch of events (given the batch and the request's context) into its
/// [`Decoded`] events, erased; runs on the pool.
type DecodeBatch = Arc<dyn Fn(&Batch, &str) -> Erased + Send + Sync>;

/// A watch response being decoded, its batches of events erased: this part is compiled once
/// whatever the events hold.
struct State {
    body: Body,
    splitter: Box<dyn Splitter>,
    decode: DecodeBatch,
    pool: DecodePool,
    /// Decoded batches not handed out yet, in order.
    ready: VecDeque<Result<Erased, Error>>,
    /// The body has ended, cleanly or with `failure`.
    body_done: bool,
    /// Why reading the body failed: handed out after every event read before it.
    failure: Option<Error>,
    /// An error was handed out: the stream is over.
    ended: bool,
    /// Batches of at most this many events are decoded inline, not on the pool.
    inline_events: usize,
    context: Arc<str>,
}

/// The events of `body`, cut by `splitter` and decoded batch by batch by `decode` (given the
/// batch and the request's context); batches of at most `inline_events` are decoded by the
/// watch itself, so a quiet watch pays no thread hand-off on its latency.
pub(super) fn events<T: Send + 'static>(
    body: Body,
    splitter: impl Splitter,
    decode: impl Fn(&Batch, &str) -> Decoded<T> + Send + Sync + 'static,
    inline_events: usize,
    context: Arc<str>,
) -> WatchStream<T> {
    let state = State {
        body,
        splitter: Box::new(splitter),
        decode: Arc::new(move |batch, context| Box::new(decode(batch, context)) as Erased),
        pool: DecodePool::new(),
        ready: VecDeque::new(),
        body_done: false,
        failure: None,
        ended: false,
        inline_events,
        context: context.clone(),
    };
    typed(batches(state), context)
}

/// The decoded batches of the watch `state` reads, each a [`Decoded`] erased, or the error
/// that ends them.
fn batches(state: State) -> BoxStream<'static, Result<Erased, Error>> {
    futures_util::stream::unfold(state, next).boxed()
}

/// The events of `batches`, each batch taken back as the `Decoded<T>` it is; the stream ends
/// after the first error, whether a batch's or the watch's.
fn typed<T: Send + 'static>(
    batches: BoxStream<'static, Result<Erased, Error>>,
    context: Arc<str>,
) -> WatchStream<T> {
    batches
        .flat_map(move |batch| {
            let events = batch
                .and_then(|b| joined(decode_pool::typed::<Decoded<T>>(Ok(b)), &context))
                .unwrap_or_else(|e| vec![Err(e)]);
            futures_util::stream::iter(events)
        })
        .scan(false, |ended, event| {
            let next = (!*ended).then_some(event);
            *ended = next.as_ref().is_some_and(Result::is_err);
            std::future::ready(next)
        })
        .boxed()
}

impl State {
    /// Cuts what the body gave into events and sends them to be decoded, in order.
    fn take_chunk(&mut self, chunk: Option<Result<Bytes, BoxError>>) {
        let mut batch = Batch::default();
        match chunk {
            Some(Ok(bytes)) => {
                // Events lying whole in the chunk are decoded from it, not copied.
                batch = Batch::over(bytes.clone());
                if let Err(what) = self.splitter.feed(&bytes, &mut batch) {
                    // The events before it are decoded and handed out first.
                    self.body_done = true;
                    self.failure = Some(oversized(&self.context, what));
                }
            }
            Some(Err(e)) => {
                self.body_done = true;
                self.failure = Some(http_error(&self.context, "reading the watch stream", &*e));
            }
            None => {
                self.body_done = true;
                if let Err(why) = self.splitter.finish(&mut batch) {
                    self.failure = Some(Error::other(ErrorKind::Protocol, &*self.context, why));
                }
            }
        }
        if !batch.is_empty() {
            let context = self.context.clone();
            let decode = self.decode.clone();
            let inline = batch.len() <= self.inline_events;
            self.pool
                .submit(inline, Box::new(move || decode(&batch, &context)));
        }
    }
}

async fn next(mut st: State) -> Option<(Result<Erased, Error>, State)> {
    loop {
        if st.ended {
            return None;
        }
        if let Some(batch) = st.ready.pop_front() {
            st.ended = batch.is_err();
            return Some((batch, st));
        }
        if st.body_done && st.pool.is_empty() {
            let failure = st.failure.take()?;
            st.ended = true;
            return Some((Err(failure), st));
        }
        // Take decoded events back as soon as they are ready, and read on meanwhile while
        // the pool has room.
        tokio::select! {
            biased;
            Some(decoded) = st.pool.next(), if !st.pool.is_empty() => {
                st.ready.push_back(joined(decoded, &st.context));
            }
            chunk = st.body.next(), if !st.body_done && !st.pool.is_full() => st.take_chunk(chunk),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn framed(payloads: &[&[u8]]) -> Vec<u8> {
        let mut out = Vec::new();
        for p in payloads {
            out.extend_from_slice(&u32::try_from(p.len()).unwrap().to_be_bytes());
            out.extend_from_slice(p);
        }
        out
    }

    fn frames_of(batch: &Batch) -> Vec<Vec<u8>> {
        let mut frames = Vec::new();
        batch.for_each(|f| {
            frames.push(f.to_vec());
            true
        });
        frames
    }

    #[test]
    fn frames_arrive_whole_however_the_body_is_cut() {
        let body = framed(&[b"one", b"", b"three!"]);
        for cut in 1..=body.len() {
            let mut splitter = FrameSplitter::new(16);
            let mut batch = Batch::default();
            for chunk in body.chunks(cut) {
                splitter.feed(chunk, &mut batch).unwrap();
            }
            assert_eq!(
                frames_of(&batch),
                [b"one".to_vec(), Vec::new(), b"three!".to_vec()],
                "cut every {cut} bytes"
            );
            assert_eq!(splitter.pending_len(), 0);
            assert_eq!(splitter.finish(&mut batch), Ok(()));
        }
    }

    #[test]
    fn an_oversized_length_is_refused_before_buffering() {
        let mut splitter = FrameSplitter::new(1024);
        let err = splitter
            .feed(&u32::MAX.to_be_bytes(), &mut Batch::default())
            .unwrap_err();
        assert_eq!(err, Oversized::object("a watch event", 1024));
        // Cut inside its length, the same frame fails once the length is whole.
        let mut splitter = FrameSplitter::new(1024);
        let mut batch = Batch::default();
        splitter.feed(&[0xff, 0xff], &mut batch).unwrap();
        assert!(splitter.feed(&[0xff, 0xff, 1], &mut batch).is_err());
    }

    #[test]
    fn a_body_ending_inside_a_frame_says_so() {
        let mut splitter = FrameSplitter::new(1024);
        let mut batch = Batch::default();
        splitter.feed(&[0, 0, 0, 9, 1], &mut batch).unwrap();
        assert!(batch.is_empty());
        assert_eq!(splitter.pending_len(), 5);
        assert_eq!(
            splitter.finish(&mut batch),
            Err("the watch stream ended inside a protobuf frame")
        );
    }

    #[test]
    fn blank_lines_are_left_out_and_the_last_line_needs_no_newline() {
        let mut splitter = LineSplitter::new(64);
        let mut batch = Batch::default();
        Splitter::feed(&mut splitter, b"{\"a\":1}\n \n{\"b\"", &mut batch).unwrap();
        Splitter::feed(&mut splitter, b":2}", &mut batch).unwrap();
        Splitter::finish(&mut splitter, &mut batch).unwrap();
        assert_eq!(
            frames_of(&batch),
            [b"{\"a\":1}".to_vec(), b"{\"b\":2}".to_vec()]
        );
    }
}
