//! Delivery of events to handlers (client-go's `sharedProcessor`): every handler has its
//! own unbounded queue and its own thread, so a slow handler delays only itself and a
//! panicking one is logged and skipped.
//!
//! Events go to a handler thread in batches: [`Processor::distribute`] collects them and
//! [`Processor::flush`] hands each thread what it collected, which the informer does
//! whenever its delta queue runs dry. Waking a thread costs a system call, so a burst of
//! events wakes each handler once per batch instead of once per event, while a lone event
//! is still delivered at once.
//!
//! Handlers get a dedicated OS thread rather than a tokio task because callbacks are
//! synchronous: a callback that blocks would otherwise stall a runtime worker, and with it
//! the reflector and every other handler.

use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::{mpsc as std_mpsc, Arc, Mutex};
use std::time::{Duration, Instant};

use futures_util::stream::BoxStream;
use futures_util::StreamExt;
use tokio::sync::{mpsc, oneshot};

use crate::handler::{Event, Origin, ResourceEventHandler};
use crate::stats::HandlerStats;

/// The shortest per-handler resync period; shorter ones are raised to it (as in client-go).
pub const MINIMUM_RESYNC_PERIOD: Duration = Duration::from_secs(1);

const NO_WAIT: u64 = u64::MAX;

/// The most events a handler thread is handed at once: the informer flushes sooner when its
/// delta queue runs dry, and a long burst still reaches handlers while it lasts.
const MAX_BATCH: usize = 256;

/// State shared by a listener, its delivery thread (or stream) and its registration.
#[derive(Debug)]
struct ListenerShared {
    id: u64,
    name: String,
    queued: AtomicUsize,
    pending_initial: AtomicUsize,
    delivered: AtomicU64,
    panics: AtomicU64,
    last_wait_nanos: AtomicU64,
    removed: AtomicBool,
    upstream_synced: Arc<AtomicBool>,
    finished: Mutex<Option<oneshot::Receiver<()>>>,
}

impl ListenerShared {
    fn handled(&self, initial: bool, enqueued_at: Instant) {
        let wait = u64::try_from(enqueued_at.elapsed().as_nanos()).unwrap_or(NO_WAIT - 1);
        self.last_wait_nanos.store(wait, Ordering::Relaxed);
        self.delivered.fetch_add(1, Ordering::Relaxed);
        if initial {
            self.pending_initial.fetch_sub(1, Ordering::AcqRel);
        }
        self.queued.fetch_sub(1, Ordering::AcqRel);
    }

    fn stats(&self) -> HandlerStats {
        let wait = self.last_wait_nanos.load(Ordering::Relaxed);
        HandlerStats {
            id: self.id,
            queue_depth: self.queued.load(Ordering::Acquire),
            delivered: self.delivered.load(Ordering::Relaxed),
            panics: self.panics.load(Ordering::Relaxed),
            last_wait: (wait != NO_WAIT).then(|| Duration::from_nanos(wait)),
        }
    }
}

/// The registration of one handler (client-go's `ResourceEventHandlerRegistration`).
#[derive(Debug, Clone)]
pub struct HandlerRegistration {
    shared: Arc<ListenerShared>,
}

impl HandlerRegistration {
    /// True once the informer has synced and this handler has handled every add of the
    /// initial contents.
    pub fn has_synced(&self) -> bool {
        self.shared.upstream_synced.load(Ordering::Acquire)
            && self.shared.pending_initial.load(Ordering::Acquire) == 0
    }

    /// Stops delivery to this handler; notifications still queued are dropped.
    pub fn remove(&self) {
        self.shared.removed.store(true, Ordering::Release);
    }

    /// True once [`remove`](Self::remove) was called or the informer stopped.
    pub fn is_removed(&self) -> bool {
        self.shared.removed.load(Ordering::Acquire)
    }

    /// The handler's id within its informer.
    pub fn id(&self) -> u64 {
        self.shared.id
    }

    /// Notifications queued for this handler and not yet handled.
    pub fn queue_depth(&self) -> usize {
        self.shared.queued.load(Ordering::Acquire)
    }

    /// A snapshot of this handler's delivery state.
    pub fn stats(&self) -> HandlerStats {
        self.shared.stats()
    }
}

struct Queued<K> {
    event: Event<K>,
    at: Instant,
}

enum Sink<K> {
    /// A handler thread, handed batches.
    Thread(std_mpsc::Sender<Vec<Queued<K>>>),
    Stream(mpsc::UnboundedSender<Queued<K>>),
}

struct Listener<K> {
    shared: Arc<ListenerShared>,
    sink: Sink<K>,
    /// Events for a handler thread not handed over yet.
    pending: Vec<Queued<K>>,
    resync: Option<Duration>,
    next_resync: Option<Instant>,
    resync_due: bool,
}

impl<K> Listener<K> {
    /// Queues `event` (enqueued `at`); false when the receiving side is gone.
    fn send(&mut self, event: Event<K>, at: Instant) -> bool {
        let initial = event.is_initial();
        self.shared.queued.fetch_add(1, Ordering::AcqRel);
        if initial {
            self.shared.pending_initial.fetch_add(1, Ordering::AcqRel);
        }
        let q = Queued { event, at };
        match &self.sink {
            Sink::Thread(_) => {
                self.pending.push(q);
                self.pending.len() < MAX_BATCH || self.flush()
            }
            Sink::Stream(tx) => match tx.send(q) {
                Ok(()) => true,
                Err(mpsc::error::SendError(q)) => {
                    self.unqueue(&q);
                    false
                }
            },
        }
    }

    /// Hands the pending events to the handler thread; false when the handler is gone.
    fn flush(&mut self) -> bool {
        let Sink::Thread(tx) = &self.sink else {
            return true;
        };
        if self.pending.is_empty() {
            return true;
        }
        match tx.send(std::mem::take(&mut self.pending)) {
            Ok(()) => true,
            Err(std_mpsc::SendError(batch)) => {
                for q in &batch {
                    self.unqueue(q);
                }
                false
            }
        }
    }

    /// Takes back the counts of an event that could not be queued.
    fn unqueue(&self, q: &Queued<K>) {
        self.shared.queued.fetch_sub(1, Ordering::AcqRel);
        if q.event.is_initial() {
            self.shared.pending_initial.fetch_sub(1, Ordering::AcqRel);
        }
    }

    fn is_gone(&self) -> bool {
        self.shared.removed.load(Ordering::Acquire)
    }
}

/// The set of listeners of one informer.
pub(crate) struct Processor<K> {
    name: String,
    listeners: Vec<Listener<K>>,
    next_id: u64,
    upstream_synced: Arc<AtomicBool>,
}

impl<K: Send + Sync + 'static> Processor<K> {
    pub(crate) fn new(name: String, upstream_synced: Arc<AtomicBool>) -> Self {
        Self {
            name,
            listeners: Vec::new(),
            next_id: 0,
            upstream_synced,
        }
    }

    pub(crate) fn set_name(&mut self, name: String) {
        self.name = name;
    }

    fn new_shared(&mut self) -> (Arc<ListenerShared>, oneshot::Sender<()>) {
        let (done_tx, done_rx) = oneshot::channel();
        let shared = Arc::new(ListenerShared {
            id: self.next_id,
            name: self.name.clone(),
            queued: AtomicUsize::new(0),
            pending_initial: AtomicUsize::new(0),
            delivered: AtomicU64::new(0),
            panics: AtomicU64::new(0),
            last_wait_nanos: AtomicU64::new(NO_WAIT),
            removed: AtomicBool::new(false),
            upstream_synced: self.upstream_synced.clone(),
            finished: Mutex::new(Some(done_rx)),
        });
        self.next_id += 1;
        (shared, done_tx)
    }

    fn push_listener(
        &mut self,
        shared: Arc<ListenerShared>,
        sink: Sink<K>,
        resync: Option<Duration>,
        initial: Vec<Arc<K>>,
    ) {
        let resync = resync
            .filter(|p| !p.is_zero())
            .map(|p| p.max(MINIMUM_RESYNC_PERIOD));
        let now = Instant::now();
        let mut listener = Listener {
            shared,
            sink,
            pending: Vec::new(),
            resync,
            next_resync: resync.map(|p| now + p),
            resync_due: false,
        };
        let mut open = true;
        for obj in initial {
            open &= listener.send(
                Event::Added {
                    obj,
                    in_initial_list: true,
                },
                now,
            );
        }
        if !(open && listener.flush()) {
            listener.shared.removed.store(true, Ordering::Release);
        }
        self.listeners.push(listener);
    }

    /// Registers `handler`, first queueing `initial` (the current contents) as adds.
    pub(crate) fn add_handler(
        &mut self,
        handler: Arc<dyn ResourceEventHandler<K>>,
        resync: Option<Duration>,
        initial: Vec<Arc<K>>,
    ) -> HandlerRegistration {
        let (shared, done_tx) = self.new_shared();
        let (tx, rx) = std_mpsc::channel::<Vec<Queued<K>>>();
        let thread_shared = shared.clone();
        let spawned = std::thread::Builder::new()
            .name(format!("informer-handler-{}", shared.id))
            .spawn(move || deliver(rx, handler, thread_shared, done_tx));
        if let Err(e) = spawned {
            tracing::error!(informer = %self.name, error = %e, "cannot start a handler thread; the handler receives nothing");
            shared.removed.store(true, Ordering::Release);
            return HandlerRegistration { shared };
        }
        self.push_listener(shared.clone(), Sink::Thread(tx), resync, initial);
        HandlerRegistration { shared }
    }

    /// Registers a stream listener, first queueing `initial` as adds.
    pub(crate) fn add_stream(
        &mut self,
        initial: Vec<Arc<K>>,
    ) -> (HandlerRegistration, BoxStream<'static, Event<K>>) {
        let (shared, done_tx) = self.new_shared();
        // A stream has no thread to wait for at shutdown: its consumer may never poll again.
        drop(done_tx);
        shared
            .finished
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .take();
        let (tx, rx) = mpsc::unbounded_channel::<Queued<K>>();
        self.push_listener(shared.clone(), Sink::Stream(tx), None, initial);
        let stream_shared = shared.clone();
        let stream =
            futures_util::stream::unfold((rx, stream_shared), |(mut rx, shared)| async move {
                if shared.removed.load(Ordering::Acquire) {
                    return None;
                }
                let q = rx.recv().await?;
                let initial = q.event.is_initial();
                shared.handled(initial, q.at);
                Some((q.event, (rx, shared)))
            })
            .boxed();
        (HandlerRegistration { shared }, stream)
    }

    /// Sends `event` to every live listener (resync events only to those due).
    pub(crate) fn distribute(&mut self, event: Event<K>, origin: Origin) {
        let at = Instant::now();
        let mut any_gone = false;
        for l in &mut self.listeners {
            if l.is_gone() {
                any_gone = true;
                continue;
            }
            if origin == Origin::Resync && !l.resync_due {
                continue;
            }
            if !l.send(event.clone(), at) {
                l.shared.removed.store(true, Ordering::Release);
                any_gone = true;
            }
        }
        if any_gone {
            self.listeners.retain(|l| !l.is_gone());
        }
    }

    /// Hands every handler thread the events distributed since the last flush.
    pub(crate) fn flush(&mut self) {
        let mut any_gone = false;
        for l in &mut self.listeners {
            if !l.flush() {
                l.shared.removed.store(true, Ordering::Release);
                any_gone = true;
            }
        }
        if any_gone {
            self.listeners.retain(|l| !l.is_gone());
        }
    }

    pub(crate) fn next_resync(&self) -> Option<Instant> {
        self.listeners.iter().filter_map(|l| l.next_resync).min()
    }

    /// Marks the listeners due for resync at `now`; true when any is.
    pub(crate) fn begin_resync(&mut self, now: Instant) -> bool {
        let mut any = false;
        for l in &mut self.listeners {
            l.resync_due = l.next_resync.is_some_and(|t| t <= now);
            any |= l.resync_due;
        }
        any
    }

    /// Schedules the next resync of the listeners that were due.
    pub(crate) fn end_resync(&mut self, now: Instant) {
        for l in &mut self.listeners {
            if l.resync_due {
                l.resync_due = false;
                l.next_resync = l.resync.map(|p| now + p);
            }
        }
    }

    pub(crate) fn stats(&self) -> Vec<HandlerStats> {
        self.listeners.iter().map(|l| l.shared.stats()).collect()
    }

    /// Stops every listener and returns what to await for their threads to end.
    pub(crate) fn close(&mut self) -> Vec<oneshot::Receiver<()>> {
        self.listeners
            .drain(..)
            .filter_map(|l| {
                l.shared.removed.store(true, Ordering::Release);
                l.shared
                    .finished
                    .lock()
                    .unwrap_or_else(|e| e.into_inner())
                    .take()
            })
            .collect()
    }
}

fn deliver<K: 'static>(
    rx: std_mpsc::Receiver<Vec<Queued<K>>>,
    handler: Arc<dyn ResourceEventHandler<K>>,
    shared: Arc<ListenerShared>,
    done: oneshot::Sender<()>,
) {
    for q in rx.iter().flatten() {
        let initial = q.event.is_initial();
        if shared.removed.load(Ordering::Acquire) {
            shared.handled(initial, q.at);
            continue;
        }
        let outcome = catch_unwind(AssertUnwindSafe(|| q.event.dispatch_to(handler.as_ref())));
        if let Err(panic) = outcome {
            shared.panics.fetch_add(1, Ordering::Relaxed);
            let what = panic
                .downcast_ref::<&str>()
                .map(|s| (*s).to_owned())
                .or_else(|| panic.downcast_ref::<String>().cloned())
                .unwrap_or_else(|| "a non-string payload".to_owned());
            tracing::error!(informer = %shared.name, handler = shared.id, panic = %what, "event handler panicked; it keeps receiving later events");
        }
        shared.handled(initial, q.at);
    }
    drop(done);
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::handler::ResourceEventHandlerFuncs;

    fn wait_until(cond: impl Fn() -> bool) {
        let deadline = Instant::now() + Duration::from_secs(20);
        while !cond() {
            assert!(Instant::now() < deadline, "condition not reached in time");
            std::thread::sleep(Duration::from_millis(2));
        }
    }

    #[test]
    fn slow_and_panicking_handlers_do_not_affect_others() {
        let synced = Arc::new(AtomicBool::new(true));
        let mut p = Processor::<u32>::new("test".into(), synced);
        let gate = Arc::new(Mutex::new(()));
        let held = gate.lock().unwrap();
        let slow_gate = gate.clone();
        let slow = p.add_handler(
            Arc::new(ResourceEventHandlerFuncs::default().on_add(move |_, _| {
                let _g = slow_gate.lock();
            })),
            None,
            vec![],
        );
        let seen = Arc::new(Mutex::new(Vec::new()));
        let seen2 = seen.clone();
        let fast = p.add_handler(
            Arc::new(
                ResourceEventHandlerFuncs::default()
                    .on_add(move |o: &Arc<u32>, _| seen2.lock().unwrap().push(**o)),
            ),
            None,
            vec![],
        );
        let panicky = p.add_handler(
            Arc::new(
                ResourceEventHandlerFuncs::default().on_add(|o: &Arc<u32>, _| {
                    assert!((**o).is_multiple_of(2), "odd object");
                }),
            ),
            None,
            vec![],
        );
        for i in 0..10u32 {
            p.distribute(
                Event::Added {
                    obj: Arc::new(i),
                    in_initial_list: false,
                },
                Origin::Change,
            );
        }
        p.flush();
        wait_until(|| seen.lock().unwrap().len() == 10);
        assert_eq!(*seen.lock().unwrap(), (0..10).collect::<Vec<_>>());
        wait_until(|| panicky.stats().delivered == 10);
        assert_eq!(panicky.stats().panics, 5);
        assert_eq!(fast.queue_depth(), 0);
        assert!(slow.queue_depth() >= 9, "{}", slow.queue_depth());
        drop(held);
        wait_until(|| slow.queue_depth() == 0);
        let waits = p.close();
        assert_eq!(waits.len(), 3);
    }

    #[test]
    fn initial_adds_gate_has_synced_and_removed_handlers_get_nothing() {
        let synced = Arc::new(AtomicBool::new(false));
        let mut p = Processor::<u32>::new("test".into(), synced.clone());
        let count = Arc::new(AtomicUsize::new(0));
        let c2 = count.clone();
        let reg = p.add_handler(
            Arc::new(
                ResourceEventHandlerFuncs::default().on_add(move |_, initial| {
                    assert!(initial);
                    c2.fetch_add(1, Ordering::SeqCst);
                }),
            ),
            None,
            vec![Arc::new(1), Arc::new(2)],
        );
        assert!(!reg.has_synced());
        synced.store(true, Ordering::SeqCst);
        wait_until(|| reg.has_synced());
        assert_eq!(count.load(Ordering::SeqCst), 2);
        reg.remove();
        p.distribute(
            Event::Added {
                obj: Arc::new(3),
                in_initial_list: true,
            },
            Origin::Change,
        );
        assert!(p.listeners.is_empty());
        assert_eq!(count.load(Ordering::SeqCst), 2);
    }

    #[test]
    fn resync_goes_only_to_due_listeners() {
        let synced = Arc::new(AtomicBool::new(true));
        let mut p = Processor::<u32>::new("test".into(), synced);
        let a = p.add_handler(
            Arc::new(ResourceEventHandlerFuncs::default()),
            Some(Duration::from_secs(1)),
            vec![],
        );
        let b = p.add_handler(Arc::new(ResourceEventHandlerFuncs::default()), None, vec![]);
        let due = p.next_resync().unwrap();
        assert!(p.begin_resync(due));
        p.distribute(
            Event::Updated {
                old: Arc::new(1),
                new: Arc::new(1),
            },
            Origin::Resync,
        );
        p.flush();
        p.end_resync(due);
        assert!(p.next_resync().unwrap() > due);
        wait_until(|| a.stats().delivered == 1);
        assert_eq!(b.stats().delivered, 0);
    }

    #[test]
    fn a_burst_reaches_handlers_in_bounded_batches_even_without_a_flush() {
        let synced = Arc::new(AtomicBool::new(true));
        let mut p = Processor::<u32>::new("test".into(), synced);
        let seen = Arc::new(Mutex::new(Vec::new()));
        let seen2 = seen.clone();
        let reg = p.add_handler(
            Arc::new(
                ResourceEventHandlerFuncs::default()
                    .on_add(move |o: &Arc<u32>, _| seen2.lock().unwrap().push(**o)),
            ),
            None,
            vec![],
        );
        let n = u32::try_from(MAX_BATCH * 2 + 3).unwrap();
        for i in 0..n {
            p.distribute(
                Event::Added {
                    obj: Arc::new(i),
                    in_initial_list: false,
                },
                Origin::Change,
            );
        }
        let handed = 2 * MAX_BATCH;
        wait_until(|| seen.lock().unwrap().len() == handed);
        assert_eq!(reg.queue_depth(), 3, "the tail waits for a flush");
        p.flush();
        wait_until(|| seen.lock().unwrap().len() == n as usize);
        assert_eq!(*seen.lock().unwrap(), (0..n).collect::<Vec<_>>());
    }
}
