//! The queue of a [`QueuePolicy::CoalescePerObject`] handler: at most one pending entry per
//! object key. Each entry remembers the state of its object the handler saw last, so what
//! it hands out is still Add, Update*, Delete per object, only with fewer Updates.
//!
//! An entry is created by the first notification for a key with nothing pending; the
//! handler saw the state before that notification (the informer's notifications for one
//! key are consistent: an Update's `old` and a Delete's object are what came before), so
//! that state becomes the entry's `seen`. Later notifications for the key only move the
//! entry's `newest` (or mark a delete) until the handler thread takes it. An entry left
//! with nothing to deliver (an object created and deleted before the handler got to it)
//! is dropped at once, so entries exist only for objects the handler knows or that exist:
//! churn of short-lived objects cannot grow the queue.
//!
//! The same queue backs [`SharedIndexInformer::stream`], whose consumer is a task rather
//! than a thread: it takes with [`CoalescingQueue::try_take`] and waits on
//! [`CoalescingQueue::notified`].
//!
//! [`SharedIndexInformer::stream`]: crate::SharedIndexInformer::stream
//!
//! [`QueuePolicy::CoalescePerObject`]: crate::handler::QueuePolicy::CoalescePerObject

use std::collections::{BTreeMap, HashMap};
use std::sync::atomic::Ordering;
use std::sync::{Arc, Condvar, Mutex, MutexGuard};
use std::time::Instant;

use tokio::sync::Notify;

use super::ListenerShared;
use crate::handler::{Deleted, Event};

/// Keys come from the API server; foldhash as in the store.
type Entries<K> = HashMap<String, Entry<K>, foldhash::fast::RandomState>;

/// Above this many slots an emptied queue gives its memory back, so one burst does not
/// pin its peak for the handler's lifetime.
const KEEP_CAPACITY: usize = 64;

/// What is pending for one object.
struct Entry<K> {
    /// Its place in the queue.
    seq: u64,
    /// The state the handler saw last (`None`: it does not know the object).
    seen: Option<Arc<K>>,
    /// A deletion of the object the handler saw, to deliver first.
    deleted: Option<Deleted<K>>,
    /// The newest state, to deliver as an Add (after a delete, or when unseen) or an Update.
    newest: Option<Arc<K>>,
    /// The Add this entry will deliver belongs to the initial contents.
    initial: bool,
    /// When the oldest notification merged into this entry was queued.
    at: Instant,
}

fn deleted_object<K>(d: &Deleted<K>) -> &Arc<K> {
    match d {
        Deleted::Object(o) => o,
        Deleted::FinalStateUnknown { last_known, .. } | Deleted::LeftShard { last_known, .. } => {
            last_known
        }
    }
}

impl<K> Entry<K> {
    fn new(seq: u64, event: Event<K>, at: Instant) -> Self {
        let (seen, deleted, newest, initial) = match event {
            Event::Added {
                obj,
                in_initial_list,
            } => (None, None, Some(obj), in_initial_list),
            Event::Updated { old, new } => (Some(old), None, Some(new), false),
            Event::Deleted(d) => (Some(deleted_object(&d).clone()), Some(d), None, false),
        };
        Self {
            seq,
            seen,
            deleted,
            newest,
            initial,
            at,
        }
    }

    /// True when the entry has nothing left to deliver.
    fn is_empty(&self) -> bool {
        self.deleted.is_none() && self.newest.is_none()
    }

    /// True when the newest state would reach the handler as an Add.
    fn delivers_add(&self) -> bool {
        self.seen.is_none() || self.deleted.is_some()
    }

    /// Folds a later notification for the same object into this entry.
    fn merge(&mut self, event: Event<K>, shared: &ListenerShared) {
        match event {
            Event::Added {
                obj,
                in_initial_list,
            } => {
                if in_initial_list && self.newest.is_none() && self.delivers_add() && !self.initial
                {
                    self.initial = true;
                    shared.pending_initial.fetch_add(1, Ordering::AcqRel);
                }
                self.newest = Some(obj);
            }
            Event::Updated { new, .. } => self.newest = Some(new),
            Event::Deleted(d) => {
                self.newest = None;
                if std::mem::take(&mut self.initial) {
                    shared.pending_initial.fetch_sub(1, Ordering::AcqRel);
                }
                // A handler that never saw the object learns nothing of it; one that did
                // learns of its first deletion (a re-created object deleted again while
                // pending was never seen).
                if self.seen.is_some() && self.deleted.is_none() {
                    self.deleted = Some(d);
                }
            }
        }
    }

    fn into_taken(self) -> Taken<K> {
        let mut seen = self.seen;
        let first = self.deleted.map(|d| {
            seen = None;
            Event::Deleted(d)
        });
        let second = self.newest.map(|new| match seen {
            Some(old) => Event::Updated { old, new },
            None => Event::Added {
                obj: new,
                in_initial_list: self.initial,
            },
        });
        Taken {
            events: [first, second],
            initial: self.initial,
            at: self.at,
        }
    }
}

/// An entry taken by the handler thread: up to two events (a Delete, then an Add or
/// Update), in order.
pub(super) struct Taken<K> {
    pub(super) events: [Option<Event<K>>; 2],
    /// It delivers an Add of the initial contents.
    pub(super) initial: bool,
    /// When its oldest notification was queued.
    pub(super) at: Instant,
}

struct Pending<K> {
    /// Keys by the sequence number of their entry: the queue's order.
    order: BTreeMap<u64, String>,
    entries: Entries<K>,
    next_seq: u64,
    closed: bool,
    /// Entries created since the handler thread was last woken.
    unannounced: usize,
}

/// What [`CoalescingQueue::try_take`] found.
pub(super) enum TryTake<K> {
    Taken(Taken<K>),
    Empty,
    Closed,
}

/// The shared queue between the informer (pushing) and one handler thread or stream
/// (taking).
pub(super) struct CoalescingQueue<K> {
    state: Mutex<Pending<K>>,
    ready: Condvar,
    /// Wakes a stream's task as `ready` wakes a thread.
    ready_async: Notify,
}

impl<K> CoalescingQueue<K> {
    pub(super) fn new() -> Self {
        Self {
            state: Mutex::new(Pending {
                order: BTreeMap::new(),
                entries: Entries::default(),
                next_seq: 0,
                closed: false,
                unannounced: 0,
            }),
            ready: Condvar::new(),
            ready_async: Notify::new(),
        }
    }

    fn lock(&self) -> MutexGuard<'_, Pending<K>> {
        // Nothing panics while holding this lock; a poisoned one still holds whole entries.
        self.state.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Queues `event` for the object `key`; the number of entries created since the
    /// thread was last woken, or `None` once the queue is closed.
    pub(super) fn push(
        &self,
        key: String,
        event: Event<K>,
        at: Instant,
        shared: &ListenerShared,
    ) -> Option<usize> {
        let mut st = self.lock();
        if st.closed {
            return None;
        }
        if let Some(entry) = st.entries.get_mut(&key) {
            shared.coalesced.fetch_add(1, Ordering::Relaxed);
            entry.merge(event, shared);
            if entry.is_empty() {
                let seq = entry.seq;
                st.entries.remove(&key);
                st.order.remove(&seq);
                shared.unqueued(false);
            }
            return Some(st.unannounced);
        }
        let seq = st.next_seq;
        st.next_seq += 1;
        let entry = Entry::new(seq, event, at);
        shared.enqueued(entry.initial);
        st.entries.insert(key.clone(), entry);
        st.order.insert(seq, key);
        st.unannounced += 1;
        Some(st.unannounced)
    }

    /// Wakes the handler thread if entries were created since it was last woken.
    pub(super) fn announce(&self) {
        let mut st = self.lock();
        if st.unannounced > 0 {
            st.unannounced = 0;
            drop(st);
            self.ready.notify_one();
            self.ready_async.notify_one();
        }
    }

    /// The oldest entry, waiting for one; `None` once the queue is closed.
    pub(super) fn take(&self) -> Option<Taken<K>> {
        let mut st = self.lock();
        loop {
            if st.closed {
                return None;
            }
            if let Some(taken) = pop_oldest(&mut st) {
                return Some(taken);
            }
            st = self.ready.wait(st).unwrap_or_else(|e| e.into_inner());
        }
    }

    /// The oldest entry, without waiting.
    pub(super) fn try_take(&self) -> TryTake<K> {
        let mut st = self.lock();
        if st.closed {
            return TryTake::Closed;
        }
        match pop_oldest(&mut st) {
            Some(taken) => TryTake::Taken(taken),
            None => TryTake::Empty,
        }
    }

    /// Resolves once entries were announced or the queue closed since the last wake-up;
    /// one that came before this call counts, so a `try_take` that found nothing and
    /// then waits here misses nothing.
    pub(super) async fn notified(&self) {
        self.ready_async.notified().await;
    }

    /// Closes the queue: what is pending is dropped, and the thread's `take` returns `None`.
    pub(super) fn close(&self, shared: &ListenerShared) {
        let mut st = self.lock();
        st.closed = true;
        st.order = BTreeMap::new();
        for (_, entry) in std::mem::take(&mut st.entries) {
            shared.unqueued(entry.initial);
        }
        drop(st);
        self.ready.notify_all();
        self.ready_async.notify_one();
    }
}

/// Removes and returns the oldest entry, if any.
fn pop_oldest<K>(st: &mut Pending<K>) -> Option<Taken<K>> {
    while let Some((_, key)) = st.order.pop_first() {
        let entry = st.entries.remove(&key);
        if st.entries.is_empty() && st.entries.capacity() > KEEP_CAPACITY {
            st.entries = Entries::default();
        }
        if let Some(entry) = entry {
            return Some(entry.into_taken());
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::processor::tests::shared_for_test;

    fn added(v: u32) -> Event<u32> {
        Event::Added {
            obj: Arc::new(v),
            in_initial_list: false,
        }
    }

    fn updated(old: u32, new: u32) -> Event<u32> {
        Event::Updated {
            old: Arc::new(old),
            new: Arc::new(new),
        }
    }

    fn deleted(v: u32) -> Event<u32> {
        Event::Deleted(Deleted::Object(Arc::new(v)))
    }

    /// What the queue hands out until it is empty, as short text.
    fn drain(q: &CoalescingQueue<u32>) -> Vec<String> {
        q.announce();
        let mut out = Vec::new();
        while !q.lock().order.is_empty() {
            let taken = q.take().unwrap();
            for e in taken.events.into_iter().flatten() {
                out.push(match e {
                    Event::Added {
                        obj,
                        in_initial_list,
                    } => format!("add {obj} {in_initial_list}"),
                    Event::Updated { old, new } => format!("update {old}->{new}"),
                    Event::Deleted(d) => format!("delete {}", deleted_object(&d)),
                });
            }
        }
        out
    }

    #[test]
    fn updates_collapse_to_seen_then_newest() {
        let shared = shared_for_test();
        let q = CoalescingQueue::new();
        let now = Instant::now();
        q.push("a".into(), added(1), now, &shared);
        assert_eq!(drain(&q), ["add 1 false"]);
        q.push("a".into(), updated(1, 2), now, &shared);
        q.push("a".into(), updated(2, 3), now, &shared);
        q.push("a".into(), updated(3, 4), now, &shared);
        assert_eq!(shared.coalesced.load(Ordering::Relaxed), 2);
        assert_eq!(drain(&q), ["update 1->4"]);
    }

    #[test]
    fn deletes_reach_only_handlers_that_saw_the_object() {
        let shared = shared_for_test();
        let q = CoalescingQueue::new();
        let now = Instant::now();
        // Created and deleted before the handler got to it: nothing.
        q.push("a".into(), added(1), now, &shared);
        q.push("a".into(), updated(1, 2), now, &shared);
        q.push("a".into(), deleted(2), now, &shared);
        // Seen, updated, deleted: the delete with the final state.
        q.push("b".into(), updated(10, 11), now, &shared);
        q.push("b".into(), deleted(11), now, &shared);
        // Seen, deleted, re-created, updated: delete, then add of the newest.
        q.push("c".into(), deleted(20), now, &shared);
        q.push("c".into(), added(30), now, &shared);
        q.push("c".into(), updated(30, 31), now, &shared);
        // ... and a re-created object deleted again is not seen either.
        q.push("d".into(), deleted(40), now, &shared);
        q.push("d".into(), added(50), now, &shared);
        q.push("d".into(), deleted(50), now, &shared);
        assert_eq!(
            drain(&q),
            ["delete 11", "delete 20", "add 31 false", "delete 40"]
        );
    }

    #[test]
    fn initial_adds_are_counted_until_taken_or_collapsed() {
        let shared = shared_for_test();
        let q = CoalescingQueue::new();
        let now = Instant::now();
        let initial = |v| Event::Added {
            obj: Arc::new(v),
            in_initial_list: true,
        };
        q.push("a".into(), initial(1), now, &shared);
        q.push("b".into(), initial(2), now, &shared);
        q.push("a".into(), updated(1, 3), now, &shared);
        assert_eq!(shared.pending_initial.load(Ordering::Acquire), 2);
        q.push("b".into(), deleted(2), now, &shared);
        assert_eq!(shared.pending_initial.load(Ordering::Acquire), 1);
        // The collapsed entry is gone at once.
        assert_eq!(shared.queued.load(Ordering::Acquire), 1);
        let taken = q.take().unwrap();
        assert!(taken.initial);
        assert_eq!(drain(&q), Vec::<String>::new());
        q.close(&shared);
        assert!(q.take().is_none());
        assert!(q.push("c".into(), added(5), now, &shared).is_none());
    }
}
