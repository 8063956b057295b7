//! Decoding on every core. List items and watch events are independent JSON documents, so
//! batches of them are decoded on tokio's blocking pool while the connection task goes on
//! reading and splitting the body. Results are taken back in submission order: a list keeps
//! its item order and a watch its event order.
//!
//! JSON decoding is the bulk of an informer's CPU time (a ~4 KB Pod costs tens of µs), and
//! a single connection task would otherwise leave every other core idle during an initial
//! sync or a burst of watch events.

use std::collections::VecDeque;
use std::num::NonZeroUsize;

use tokio::task::JoinHandle;

/// JSON documents packed into one buffer, so a batch moves to another thread in one piece.
#[derive(Debug, Default)]
pub(crate) struct Batch {
    bytes: Vec<u8>,
    ends: Vec<usize>,
}

impl Batch {
    /// An empty batch with room for `bytes` of documents.
    pub(crate) fn with_capacity(bytes: usize) -> Self {
        Self {
            bytes: Vec::with_capacity(bytes),
            ends: Vec::new(),
        }
    }

    /// Appends one document.
    pub(crate) fn push(&mut self, doc: &[u8]) {
        self.bytes.extend_from_slice(doc);
        self.ends.push(self.bytes.len());
    }

    /// The number of documents.
    pub(crate) fn len(&self) -> usize {
        self.ends.len()
    }

    /// True when the batch holds no document.
    pub(crate) fn is_empty(&self) -> bool {
        self.ends.is_empty()
    }

    /// The bytes of every document together.
    pub(crate) fn byte_len(&self) -> usize {
        self.bytes.len()
    }

    /// Calls `f` with each document in order until it returns `false`.
    pub(crate) fn for_each(&self, mut f: impl FnMut(&[u8]) -> bool) {
        let mut start = 0;
        for &end in &self.ends {
            if !f(&self.bytes[start..end]) {
                return;
            }
            start = end;
        }
    }
}

/// A batch decoded now, or still running on the blocking pool.
enum Slot<R> {
    Done(R),
    Running(JoinHandle<R>),
}

/// Work decoded in order, on the blocking pool when more than one core is available.
pub(crate) struct DecodePool<R> {
    slots: VecDeque<Slot<R>>,
    /// How many batches may run at once; 0 decodes everything inline.
    limit: usize,
}

impl<R: Send + 'static> DecodePool<R> {
    /// A pool using every available core.
    pub(crate) fn new() -> Self {
        let cores = std::thread::available_parallelism().map_or(1, NonZeroUsize::get);
        // With one core a hand-off only adds latency; with more, two batches per core keep
        // every core busy while the connection task takes results back.
        let limit = if cores > 1 { 2 * cores } else { 0 };
        Self {
            slots: VecDeque::new(),
            limit,
        }
    }

    /// True when no batch is pending.
    pub(crate) fn is_empty(&self) -> bool {
        self.slots.is_empty()
    }

    /// True when as many batches are pending as may run at once: take one back before
    /// submitting another, so memory stays bounded.
    pub(crate) fn is_full(&self) -> bool {
        self.slots.len() >= self.limit.max(1)
    }

    /// Runs `work` on the blocking pool, or right here when this machine has one core or
    /// `inline` asks for it (work too small to be worth a hand-off, with nothing pending).
    pub(crate) fn submit(&mut self, inline: bool, work: impl FnOnce() -> R + Send + 'static) {
        let slot = if self.limit == 0 || (inline && self.slots.is_empty()) {
            Slot::Done(work())
        } else {
            Slot::Running(tokio::task::spawn_blocking(work))
        };
        self.slots.push_back(slot);
    }

    /// The result of the oldest pending batch; `None` when nothing is pending. A batch whose
    /// task failed (it panicked, or the runtime is shutting down) gives `Err` with the reason.
    /// Cancel-safe: a batch stays pending until its result is returned.
    pub(crate) async fn next(&mut self) -> Option<Result<R, String>> {
        let joined = match self.slots.front_mut()? {
            Slot::Running(handle) => Some(handle.await.map_err(|e| e.to_string())),
            Slot::Done(_) => None,
        };
        match self.slots.pop_front()? {
            Slot::Done(r) => Some(Ok(r)),
            Slot::Running(_) => joined,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn batches_hand_out_each_document_in_order() {
        let mut b = Batch::default();
        assert!(b.is_empty());
        for doc in ["{}", "[1]", "\"x\""] {
            b.push(doc.as_bytes());
        }
        assert_eq!((b.len(), b.byte_len()), (3, 8));
        let mut seen = Vec::new();
        b.for_each(|d| {
            seen.push(String::from_utf8(d.to_vec()).unwrap());
            seen.len() < 2
        });
        assert_eq!(seen, ["{}", "[1]"]);
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn results_come_back_in_submission_order() {
        let mut pool = DecodePool::new();
        pool.limit = 3;
        let mut seen = Vec::new();
        for i in 0..20u64 {
            if pool.is_full() {
                seen.push(pool.next().await.unwrap().unwrap());
            }
            // Earlier batches take longer, so they finish last.
            pool.submit(i % 5 == 0, move || {
                std::thread::sleep(std::time::Duration::from_millis(20 - i));
                i
            });
        }
        while let Some(r) = pool.next().await {
            seen.push(r.unwrap());
        }
        assert_eq!(seen, (0..20).collect::<Vec<_>>());
        assert!(pool.is_empty());
    }

    #[tokio::test]
    async fn one_core_decodes_inline() {
        let mut pool = DecodePool::new();
        pool.limit = 0;
        pool.submit(false, || 7);
        assert!(pool.is_full());
        assert_eq!(pool.next().await.map(Result::unwrap), Some(7));
        assert!(pool.next().await.is_none());
    }

    #[tokio::test]
    async fn a_panicking_batch_is_an_error() {
        let mut pool: DecodePool<u8> = DecodePool::new();
        pool.limit = 2;
        pool.submit(false, || panic!("bad Deserialize impl"));
        let err = pool.next().await.unwrap().unwrap_err();
        assert!(err.contains("panic"), "{err}");
    }
}
