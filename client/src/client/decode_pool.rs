//! Decoding on every core. List items and watch events are independent JSON documents, so
//! batches of them are decoded on tokio's blocking pool while the connection task goes on
//! reading and splitting the body. Results are taken back in submission order: a list keeps
//! its item order and a watch its event order.
//!
//! JSON decoding is the bulk of an informer's CPU time (a ~4 KB Pod costs tens of µs), and
//! a single connection task would otherwise leave every other core idle during an initial
//! sync or a burst of watch events.

use std::any::Any;
use std::collections::VecDeque;
use std::num::NonZeroUsize;

use bytes::Bytes;
use futures_util::future::BoxFuture;
use tokio::task::JoinHandle;

/// Documents moved to another thread in one piece. A document lying whole in the chunk the
/// batch was made [`over`](Batch::over) is kept as a range of that chunk (the chunk is
/// shared, not copied); any other is copied into the batch's own buffer. A watch batch is
/// one chunk's events, so it copies only the event a chunk boundary cut; copying every
/// chunk instead cost a large allocation per chunk, and with it glibc's consolidation of
/// every small block the decoded objects freed since.
#[derive(Debug, Default)]
pub(crate) struct Batch {
    chunk: Bytes,
    copied: Vec<u8>,
    docs: Vec<Doc>,
    byte_len: usize,
}

/// Where one document of a batch is.
#[derive(Debug, Clone, Copy)]
enum Doc {
    /// At this range of the chunk.
    Chunk(usize, usize),
    /// At this range of the copied bytes.
    Copied(usize, usize),
}

impl Batch {
    /// An empty batch with room for `bytes` of copied documents.
    pub(crate) fn with_capacity(bytes: usize) -> Self {
        Self {
            copied: Vec::with_capacity(bytes),
            ..Self::default()
        }
    }

    /// An empty batch that keeps documents lying in `chunk` as ranges of it.
    pub(crate) fn over(chunk: Bytes) -> Self {
        Self {
            chunk,
            ..Self::default()
        }
    }

    /// Appends one document.
    pub(crate) fn push(&mut self, doc: &[u8]) {
        let base = self.chunk.as_ptr() as usize;
        let start = (doc.as_ptr() as usize).wrapping_sub(base);
        let in_chunk =
            !doc.is_empty() && start < self.chunk.len() && self.chunk.len() - start >= doc.len();
        let at = if in_chunk {
            Doc::Chunk(start, start + doc.len())
        } else {
            let start = self.copied.len();
            self.copied.extend_from_slice(doc);
            Doc::Copied(start, self.copied.len())
        };
        self.docs.push(at);
        self.byte_len += doc.len();
    }

    /// The number of documents.
    pub(crate) fn len(&self) -> usize {
        self.docs.len()
    }

    /// True when the batch holds no document.
    pub(crate) fn is_empty(&self) -> bool {
        self.docs.is_empty()
    }

    /// The bytes of every document together.
    pub(crate) fn byte_len(&self) -> usize {
        self.byte_len
    }

    /// Calls `f` with each document in order until it returns `false`.
    pub(crate) fn for_each(&self, mut f: impl FnMut(&[u8]) -> bool) {
        for &doc in &self.docs {
            let bytes = match doc {
                Doc::Chunk(start, end) => &self.chunk[start..end],
                Doc::Copied(start, end) => &self.copied[start..end],
            };
            if !f(bytes) {
                return;
            }
        }
    }
}

/// A batch decoded now, or still running on the blocking pool.
enum Slot {
    Done(Erased),
    Running(JoinHandle<Erased>),
}

/// What a batch returns, its type erased. The pool, and the list and watch decoding above
/// it, handle batches of one type whatever they decode, so their code (and tokio's task
/// machinery) is compiled once here instead of once per decoded type in every binary; the
/// typed ends take each batch back by [`typed`].
pub(crate) type Erased = Box<dyn Any + Send>;

/// A batch's work.
pub(crate) type Job = Box<dyn FnOnce() -> Erased + Send>;

/// `work` as a [`Job`].
pub(crate) fn job<R: Send + 'static>(work: impl FnOnce() -> R + Send + 'static) -> Job {
    Box::new(move || Box::new(work()) as Erased)
}

/// A batch's result as the type its job returned; a task failure stays an `Err`.
pub(crate) fn typed<R: 'static>(done: Result<Erased, String>) -> Result<R, String> {
    done.and_then(|r| {
        r.downcast::<R>()
            .map(|r| *r)
            .map_err(|_| "a batch returned another type than it was submitted with".to_owned())
    })
}

/// Work decoded in order, on the blocking pool when more than one core is available.
pub(crate) struct DecodePool {
    slots: VecDeque<Slot>,
    /// How many batches may run at once; 0 decodes everything inline.
    limit: usize,
}

impl DecodePool {
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
    pub(crate) fn submit(&mut self, inline: bool, work: Job) {
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
    pub(crate) fn next(&mut self) -> BoxFuture<'_, Option<Result<Erased, String>>> {
        Box::pin(async move {
            let joined = match self.slots.front_mut()? {
                Slot::Running(handle) => Some(handle.await.map_err(|e| e.to_string())),
                Slot::Done(_) => None,
            };
            match self.slots.pop_front()? {
                Slot::Done(r) => Some(Ok(r)),
                Slot::Running(_) => joined,
            }
        })
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

    #[test]
    fn documents_in_the_chunk_are_shared_and_others_copied() {
        let chunk = Bytes::from_static(b"{\"a\":1}\n{\"b\":2}");
        let mut b = Batch::over(chunk.clone());
        b.push(b"[0]");
        b.push(&chunk[..7]);
        b.push(&chunk[8..]);
        b.push(&chunk[..0]);
        let mut seen = Vec::new();
        b.for_each(|d| {
            seen.push(String::from_utf8(d.to_vec()).unwrap());
            true
        });
        assert_eq!(seen, ["[0]", "{\"a\":1}", "{\"b\":2}", ""]);
        assert_eq!((b.len(), b.byte_len(), b.copied.len()), (4, 17, 3));
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn results_come_back_in_submission_order() {
        let mut pool = DecodePool::new();
        pool.limit = 3;
        let mut seen = Vec::new();
        for i in 0..20u64 {
            if pool.is_full() {
                seen.push(typed::<u64>(pool.next().await.unwrap()).unwrap());
            }
            // Earlier batches take longer, so they finish last.
            pool.submit(
                i % 5 == 0,
                job(move || {
                    std::thread::sleep(std::time::Duration::from_millis(20 - i));
                    i
                }),
            );
        }
        while let Some(r) = pool.next().await {
            seen.push(typed::<u64>(r).unwrap());
        }
        assert_eq!(seen, (0..20).collect::<Vec<_>>());
        assert!(pool.is_empty());
    }

    #[tokio::test]
    async fn one_core_decodes_inline() {
        let mut pool = DecodePool::new();
        pool.limit = 0;
        pool.submit(false, job(|| 7u8));
        assert!(pool.is_full());
        assert_eq!(pool.next().await.map(|r| typed::<u8>(r).unwrap()), Some(7));
        assert!(pool.next().await.is_none());
    }

    #[tokio::test]
    async fn a_panicking_batch_is_an_error() {
        let mut pool = DecodePool::new();
        pool.limit = 2;
        pool.submit(false, job(|| -> u8 { panic!("bad Deserialize impl") }));
        let err = typed::<u8>(pool.next().await.unwrap()).unwrap_err();
        assert!(err.contains("panic"), "{err}");
    }

    #[tokio::test]
    async fn a_batch_of_another_type_is_an_error() {
        let mut pool = DecodePool::new();
        pool.submit(true, job(|| 7u8));
        let err = typed::<u16>(pool.next().await.unwrap()).unwrap_err();
        assert!(err.contains("another type"), "{err}");
    }
}
