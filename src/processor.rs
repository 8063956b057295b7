//! Delivery of events to handlers (client-go's `sharedProcessor`): every handler has its
//! own queue and its own thread, so a slow handler delays only itself and a panicking one
//! is logged and skipped. A handler's queue is unbounded (every event, in order) or
//! coalesces per object ([`QueuePolicy`]), which bounds it by the number of objects. A
//! stream's queue always coalesces: its consumer is a task that may stop polling.
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

mod coalesce;

use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::{mpsc as std_mpsc, Arc, Mutex};
use std::time::{Duration, Instant};

use std::collections::VecDeque;

use futures_util::stream::BoxStream;
use futures_util::StreamExt;
use tokio::sync::oneshot;

use crate::handler::{Deleted, Event, Origin, QueuePolicy, ResourceEventHandler};
use crate::stats::HandlerStats;
use coalesce::{CoalescingQueue, TryTake};

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
    policy: QueuePolicy,
    queued: AtomicUsize,
    max_queued: AtomicUsize,
    pending_initial: AtomicUsize,
    delivered: AtomicU64,
    coalesced: AtomicU64,
    panics: AtomicU64,
    last_wait_nanos: AtomicU64,
    removed: AtomicBool,
    upstream_synced: Arc<AtomicBool>,
    finished: Mutex<Option<oneshot::Receiver<()>>>,
}

impl ListenerShared {
    /// Counts one more queue entry (an initial add when `initial`).
    fn enqueued(&self, initial: bool) {
        let depth = self.queued.fetch_add(1, Ordering::AcqRel) + 1;
        self.max_queued.fetch_max(depth, Ordering::Relaxed);
        if initial {
            self.pending_initial.fetch_add(1, Ordering::AcqRel);
        }
    }

    /// Takes back the counts of a queue entry that will never be handled.
    fn unqueued(&self, initial: bool) {
        self.queued.fetch_sub(1, Ordering::AcqRel);
        if initial {
            self.pending_initial.fetch_sub(1, Ordering::AcqRel);
        }
    }

    /// Counts a queue entry (enqueued `at`) as handled, after `dispatched` callbacks.
    fn handled(&self, initial: bool, enqueued_at: Instant, dispatched: u64) {
        let wait = u64::try_from(enqueued_at.elapsed().as_nanos()).unwrap_or(NO_WAIT - 1);
        self.last_wait_nanos.store(wait, Ordering::Relaxed);
        self.delivered.fetch_add(dispatched, Ordering::Relaxed);
        self.unqueued(initial);
    }

    fn stats(&self) -> HandlerStats {
        let wait = self.last_wait_nanos.load(Ordering::Relaxed);
        HandlerStats {
            id: self.id,
            queue_policy: self.policy,
            queue_depth: self.queued.load(Ordering::Acquire),
            max_queue_depth: self.max_queued.load(Ordering::Relaxed),
            delivered: self.delivered.load(Ordering::Relaxed),
            coalesced: self.coalesced.load(Ordering::Relaxed),
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

    /// Notifications queued for this handler and not yet handled (the one being handled
    /// included). With [`QueuePolicy::CoalescePerObject`], objects with a notification
    /// pending, each an object that exists or that the handler knows (its Delete pending),
    /// plus the one being handled.
    pub fn queue_depth(&self) -> usize {
        self.shared.queued.load(Ordering::Acquire)
    }

    /// The highest [`queue_depth`](Self::queue_depth) since the handler was added.
    pub fn max_queue_depth(&self) -> usize {
        self.shared.max_queued.load(Ordering::Relaxed)
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
    /// A handler thread or a stream taking from a per-object coalescing queue.
    Coalescing(CoalescingSink<K>),
}

/// The informer's end of a coalescing queue; dropping it closes the queue, which ends
/// the handler thread once its callback in flight returns.
struct CoalescingSink<K> {
    queue: Arc<CoalescingQueue<K>>,
    shared: Arc<ListenerShared>,
}

impl<K> Drop for CoalescingSink<K> {
    fn drop(&mut self) {
        self.queue.close(&self.shared);
    }
}

/// The store key of the object `event` is about.
fn event_key<K>(event: &Event<K>, key: fn(&K) -> String) -> String {
    match event {
        Event::Added { obj, .. } => key(obj),
        Event::Updated { new, .. } => key(new),
        Event::Deleted(Deleted::Object(obj)) => key(obj),
        Event::Deleted(Deleted::FinalStateUnknown { key, .. } | Deleted::LeftShard { key, .. }) => {
            key.clone()
        }
    }
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
    /// Queues `event` (enqueued `at`) for an object whose store key `key` gives; false
    /// when the receiving side is gone.
    fn send(&mut self, event: Event<K>, at: Instant, key: fn(&K) -> String) -> bool {
        if let Sink::Coalescing(sink) = &self.sink {
            let key = event_key(&event, key);
            return match sink.queue.push(key, event, at, &self.shared) {
                Some(unannounced) => {
                    if unannounced >= MAX_BATCH {
                        sink.queue.announce();
                    }
                    true
                }
                None => false,
            };
        }
        self.shared.enqueued(event.is_initial());
        let q = Queued { event, at };
        match &self.sink {
            Sink::Thread(_) => {
                self.pending.push(q);
                self.pending.len() < MAX_BATCH || self.flush()
            }
            Sink::Coalescing(_) => true,
        }
    }

    /// Hands the pending events to the handler thread; false when the handler is gone.
    fn flush(&mut self) -> bool {
        let tx = match &self.sink {
            Sink::Thread(tx) => tx,
            Sink::Coalescing(sink) => {
                sink.queue.announce();
                return true;
            }
        };
        if self.pending.is_empty() {
            return true;
        }
        match tx.send(std::mem::take(&mut self.pending)) {
            Ok(()) => true,
            Err(std_mpsc::SendError(batch)) => {
                for q in &batch {
                    self.shared.unqueued(q.event.is_initial());
                }
                false
            }
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
    /// The store key of an object, which coalescing queues merge by.
    key: fn(&K) -> String,
}

impl<K: Send + Sync + 'static> Processor<K> {
    pub(crate) fn new(
        name: String,
        upstream_synced: Arc<AtomicBool>,
        key: fn(&K) -> String,
    ) -> Self {
        Self {
            name,
            listeners: Vec::new(),
            next_id: 0,
            upstream_synced,
            key,
        }
    }

    fn new_shared(&mut self, policy: QueuePolicy) -> (Arc<ListenerShared>, oneshot::Sender<()>) {
        let (done_tx, done_rx) = oneshot::channel();
        let shared = Arc::new(ListenerShared {
            id: self.next_id,
            name: self.name.clone(),
            policy,
            queued: AtomicUsize::new(0),
            max_queued: AtomicUsize::new(0),
            pending_initial: AtomicUsize::new(0),
            delivered: AtomicU64::new(0),
            coalesced: AtomicU64::new(0),
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
                self.key,
            );
        }
        if !(open && listener.flush()) {
            listener.shared.removed.store(true, Ordering::Release);
        }
        self.listeners.push(listener);
    }

    /// Registers `handler` with a `policy` queue, first queueing `initial` (the current
    /// contents) as adds.
    pub(crate) fn add_handler(
        &mut self,
        handler: Arc<dyn ResourceEventHandler<K>>,
        resync: Option<Duration>,
        initial: Vec<Arc<K>>,
        policy: QueuePolicy,
    ) -> HandlerRegistration {
        let (shared, done_tx) = self.new_shared(policy);
        let thread_shared = shared.clone();
        let builder = std::thread::Builder::new().name(format!("informer-handler-{}", shared.id));
        let (spawned, sink) = match policy {
            QueuePolicy::Unbounded => {
                let (tx, rx) = std_mpsc::channel::<Vec<Queued<K>>>();
                let spawned = builder.spawn(move || deliver(rx, handler, thread_shared, done_tx));
                (spawned, Sink::Thread(tx))
            }
            QueuePolicy::CoalescePerObject => {
                let queue = Arc::new(CoalescingQueue::new());
                let thread_queue = queue.clone();
                let spawned = builder.spawn(move || {
                    deliver_coalesced(&thread_queue, handler, thread_shared, done_tx)
                });
                let sink = CoalescingSink {
                    queue,
                    shared: shared.clone(),
                };
                (spawned, Sink::Coalescing(sink))
            }
        };
        if let Err(e) = spawned {
            tracing::error!(informer = %self.name, error = %e, "cannot start a handler thread; the handler receives nothing");
            shared.removed.store(true, Ordering::Release);
            return HandlerRegistration { shared };
        }
        self.push_listener(shared.clone(), sink, resync, initial);
        HandlerRegistration { shared }
    }

    /// Registers a stream listener with a coalescing queue, first queueing `initial` as
    /// adds.
    pub(crate) fn add_stream(
        &mut self,
        initial: Vec<Arc<K>>,
    ) -> (HandlerRegistration, BoxStream<'static, Event<K>>) {
        let (shared, done_tx) = self.new_shared(QueuePolicy::CoalescePerObject);
        // A stream has no thread to wait for at shutdown: its consumer may never poll again.
        drop(done_tx);
        shared
            .finished
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .take();
        let queue = Arc::new(CoalescingQueue::new());
        let sink = CoalescingSink {
            queue: queue.clone(),
            shared: shared.clone(),
        };
        self.push_listener(shared.clone(), Sink::Coalescing(sink), None, initial);
        let consumer = StreamConsumer {
            queue,
            shared: shared.clone(),
        };
        let stream = futures_util::stream::unfold(
            (consumer, VecDeque::new()),
            |(consumer, mut ready)| async move {
                loop {
                    if consumer.shared.removed.load(Ordering::Acquire) {
                        return None;
                    }
                    if let Some(event) = ready.pop_front() {
                        return Some((event, (consumer, ready)));
                    }
                    match consumer.queue.try_take() {
                        TryTake::Taken(taken) => {
                            let before = ready.len();
                            ready.extend(taken.events.into_iter().flatten());
                            let handed = u64::try_from(ready.len() - before).unwrap_or(u64::MAX);
                            consumer.shared.handled(taken.initial, taken.at, handed);
                        }
                        TryTake::Empty => consumer.queue.notified().await,
                        TryTake::Closed => return None,
                    }
                }
            },
        )
        .boxed();
        (HandlerRegistration { shared }, stream)
    }

    /// Sends `event` to every live listener (resync events only to those due).
    pub(crate) fn distribute(&mut self, event: Event<K>, origin: Origin) {
        let at = Instant::now();
        let mut any_gone = false;
        let key = self.key;
        for l in &mut self.listeners {
            if l.is_gone() {
                any_gone = true;
                continue;
            }
            if origin == Origin::Resync && !l.resync_due {
                continue;
            }
            if !l.send(event.clone(), at, key) {
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

/// Calls the handler with `event` unless it was removed meanwhile; a panic is counted and
/// logged. The number of callbacks made (0 or 1).
fn dispatch<K: 'static>(
    event: &Event<K>,
    handler: &dyn ResourceEventHandler<K>,
    shared: &ListenerShared,
) -> u64 {
    if shared.removed.load(Ordering::Acquire) {
        return 0;
    }
    let outcome = catch_unwind(AssertUnwindSafe(|| event.dispatch_to(handler)));
    if let Err(panic) = outcome {
        shared.panics.fetch_add(1, Ordering::Relaxed);
        let what = panic
            .downcast_ref::<&str>()
            .map(|s| (*s).to_owned())
            .or_else(|| panic.downcast_ref::<String>().cloned())
            .unwrap_or_else(|| "a non-string payload".to_owned());
        tracing::error!(informer = %shared.name, handler = shared.id, panic = %what, "event handler panicked; it keeps receiving later events");
    }
    1
}

/// The consumer's end of a stream's queue: dropping the stream unregisters it and frees
/// what it still holds.
struct StreamConsumer<K> {
    queue: Arc<CoalescingQueue<K>>,
    shared: Arc<ListenerShared>,
}

impl<K> Drop for StreamConsumer<K> {
    fn drop(&mut self) {
        self.shared.removed.store(true, Ordering::Release);
        self.queue.close(&self.shared);
    }
}

fn deliver<K: 'static>(
    rx: std_mpsc::Receiver<Vec<Queued<K>>>,
    handler: Arc<dyn ResourceEventHandler<K>>,
    shared: Arc<ListenerShared>,
    done: oneshot::Sender<()>,
) {
    for q in rx.iter().flatten() {
        let dispatched = dispatch(&q.event, handler.as_ref(), &shared);
        shared.handled(q.event.is_initial(), q.at, dispatched);
    }
    drop(done);
}

fn deliver_coalesced<K: 'static>(
    queue: &CoalescingQueue<K>,
    handler: Arc<dyn ResourceEventHandler<K>>,
    shared: Arc<ListenerShared>,
    done: oneshot::Sender<()>,
) {
    while let Some(taken) = queue.take() {
        let dispatched: u64 = taken
            .events
            .iter()
            .flatten()
            .map(|event| dispatch(event, handler.as_ref(), &shared))
            .sum();
        shared.handled(taken.initial, taken.at, dispatched);
    }
    drop(done);
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::handler::ResourceEventHandlerFuncs;

    fn key(n: &u32) -> String {
        n.to_string()
    }

    /// A listener's shared state, for the coalescing queue's own tests.
    pub(crate) fn shared_for_test() -> ListenerShared {
        ListenerShared {
            id: 0,
            name: "test".into(),
            policy: QueuePolicy::CoalescePerObject,
            queued: AtomicUsize::new(0),
            max_queued: AtomicUsize::new(0),
            pending_initial: AtomicUsize::new(0),
            delivered: AtomicU64::new(0),
            coalesced: AtomicU64::new(0),
            panics: AtomicU64::new(0),
            last_wait_nanos: AtomicU64::new(NO_WAIT),
            removed: AtomicBool::new(false),
            upstream_synced: Arc::new(AtomicBool::new(true)),
            finished: Mutex::new(None),
        }
    }

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
        let mut p = Processor::<u32>::new("test".into(), synced, key);
        let gate = Arc::new(Mutex::new(()));
        let held = gate.lock().unwrap();
        let slow_gate = gate.clone();
        let slow = p.add_handler(
            Arc::new(ResourceEventHandlerFuncs::default().on_add(move |_, _| {
                let _g = slow_gate.lock();
            })),
            None,
            vec![],
            QueuePolicy::Unbounded,
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
            QueuePolicy::Unbounded,
        );
        let panicky = p.add_handler(
            Arc::new(
                ResourceEventHandlerFuncs::default().on_add(|o: &Arc<u32>, _| {
                    assert!((**o).is_multiple_of(2), "odd object");
                }),
            ),
            None,
            vec![],
            QueuePolicy::Unbounded,
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
        let mut p = Processor::<u32>::new("test".into(), synced.clone(), key);
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
            QueuePolicy::Unbounded,
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
        let mut p = Processor::<u32>::new("test".into(), synced, key);
        let a = p.add_handler(
            Arc::new(ResourceEventHandlerFuncs::default()),
            Some(Duration::from_secs(1)),
            vec![],
            QueuePolicy::Unbounded,
        );
        let b = p.add_handler(
            Arc::new(ResourceEventHandlerFuncs::default()),
            None,
            vec![],
            QueuePolicy::Unbounded,
        );
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
        let mut p = Processor::<u32>::new("test".into(), synced, key);
        let seen = Arc::new(Mutex::new(Vec::new()));
        let seen2 = seen.clone();
        let reg = p.add_handler(
            Arc::new(
                ResourceEventHandlerFuncs::default()
                    .on_add(move |o: &Arc<u32>, _| seen2.lock().unwrap().push(**o)),
            ),
            None,
            vec![],
            QueuePolicy::Unbounded,
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

    #[test]
    fn a_coalescing_queue_holds_one_entry_per_object_and_ends_at_the_newest() {
        let synced = Arc::new(AtomicBool::new(true));
        let mut p = Processor::<u32>::new("test".into(), synced, |n: &u32| (n / 1000).to_string());
        let gate = Arc::new(Mutex::new(()));
        let held = gate.lock().unwrap();
        let slow_gate = gate.clone();
        let entered = Arc::new(AtomicUsize::new(0));
        let entered2 = entered.clone();
        let log = Arc::new(Mutex::new(Vec::new()));
        let (l1, l2, l3) = (log.clone(), log.clone(), log.clone());
        let reg = p.add_handler(
            Arc::new(
                ResourceEventHandlerFuncs::default()
                    .on_add(move |o: &Arc<u32>, _| {
                        entered2.fetch_add(1, Ordering::SeqCst);
                        let _g = slow_gate.lock();
                        l1.lock().unwrap().push(format!("add {o}"));
                    })
                    .on_update(move |old, new| {
                        l2.lock().unwrap().push(format!("update {old}->{new}"))
                    })
                    .on_delete(move |d| {
                        let obj = match d {
                            Deleted::Object(o) => o,
                            Deleted::FinalStateUnknown { last_known, .. }
                            | Deleted::LeftShard { last_known, .. } => last_known,
                        };
                        l3.lock().unwrap().push(format!("delete {obj}"))
                    }),
            ),
            None,
            vec![],
            QueuePolicy::CoalescePerObject,
        );
        // Objects 0..10 are `k * 1000 + version`; object 0 is added first and blocks the handler.
        for k in 0..10u32 {
            p.distribute(
                Event::Added {
                    obj: Arc::new(k * 1000),
                    in_initial_list: false,
                },
                Origin::Change,
            );
        }
        p.flush();
        wait_until(|| entered.load(Ordering::SeqCst) == 1);
        for v in 1..100u32 {
            for k in 0..10u32 {
                p.distribute(
                    Event::Updated {
                        old: Arc::new(k * 1000 + v - 1),
                        new: Arc::new(k * 1000 + v),
                    },
                    Origin::Change,
                );
            }
        }
        p.distribute(
            Event::Deleted(Deleted::Object(Arc::new(9099))),
            Origin::Change,
        );
        p.flush();
        assert!(reg.max_queue_depth() <= 11, "{}", reg.max_queue_depth());
        drop(held);
        wait_until(|| reg.queue_depth() == 0);
        let log = log.lock().unwrap().clone();
        // Object 0 was being handled, so its updates queue anew, behind the others; those
        // were still queued, so each arrives once, as an add of its newest state, but
        // object 9, created and deleted meanwhile, does not arrive at all.
        let mut expected = vec!["add 0".to_owned()];
        expected.extend((1..9).map(|k| format!("add {}", k * 1000 + 99)));
        expected.push("update 0->99".to_owned());
        assert_eq!(log, expected);
        let stats = reg.stats();
        assert_eq!(stats.delivered, 10);
        // 990 updates and a delete; only object 0's first update made a new entry.
        assert_eq!(stats.coalesced, 990);
        assert_eq!(stats.queue_policy, QueuePolicy::CoalescePerObject);
    }
}
