//! A work queue of keys with client-go's `util/workqueue` semantics: the queue a
//! controller's event handlers fill and its workers drain.
//!
//! - **Dedup**: an item added N times before a worker takes it is handed out once.
//! - **One worker per item**: an item is never handed out again before [`done`]; one re-added
//!   while it is processed is queued again at `done`.
//! - **Delays**: [`add_after`] (an item waits at most once, at its earliest time) and
//!   [`add_rate_limited`] / [`forget`] / [`num_requeues`] over a [`RateLimiter`], by
//!   default client-go's: per item 5 ms doubling to 1000 s, overall 10/s with a burst of 100.
//! - **Priorities** (optional, [`Config::priority_queue`]; controller-runtime's priority
//!   queue): items added with [`Priority::Low`] (by [`enqueue`](crate::enqueue): the initial
//!   list and resyncs) are handed out after normal ones, so changes made while a controller
//!   starts are reconciled before its backlog; one low item goes after every five normal
//!   ones while both wait, so low items are never starved. A queued low item added again at
//!   normal priority moves up.
//! - **Shutdown**: [`shut_down`] stops adds; items already queued are still handed out, then
//!   [`get`] returns `None`. [`shut_down_with_drain`] also waits until every item handed
//!   out is done.
//!
//! Time is tokio's, so tests can pause the clock. Metrics are client-go's, as a
//! [`WorkQueueStats`] snapshot rendered by [`render_prometheus`].
//!
//! ```no_run
//! # async fn demo() {
//! use informer_controller::workqueue::WorkQueue;
//!
//! let queue = WorkQueue::<String>::new();
//! queue.add("shop/web".to_owned());
//! while let Some(key) = queue.get().await {
//!     // ... reconcile `key`; on failure `queue.add_rate_limited(key.clone())`,
//!     // on success `queue.forget(&key)` ...
//!     queue.done(&key);
//! }
//! # }
//! ```
//!
//! [`done`]: WorkQueue::done
//! [`add_after`]: WorkQueue::add_after
//! [`add_rate_limited`]: WorkQueue::add_rate_limited
//! [`forget`]: WorkQueue::forget
//! [`num_requeues`]: WorkQueue::num_requeues
//! [`shut_down`]: WorkQueue::shut_down
//! [`shut_down_with_drain`]: WorkQueue::shut_down_with_drain
//! [`get`]: WorkQueue::get

mod delaying;
mod metrics;
mod queue;
mod rate_limiter;

use std::hash::Hash;
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::Duration;

use tokio::sync::Notify;
use tokio::time::Instant;

pub use metrics::{render_prometheus, Histogram, WorkQueueStats, BUCKETS};
pub use rate_limiter::{
    default_rate_limiter, BucketRateLimiter, ItemExponentialFailureRateLimiter,
    ItemFastSlowRateLimiter, MaxOfRateLimiter, RateLimiter,
};

use queue::State;

/// What [`WorkQueue::get`] finds.
enum Next<T> {
    Item(T),
    Closed,
    /// Nothing to hand out; the next delayed item is due then.
    Wait(Option<Instant>),
}

/// How urgent an add is; only a queue built with [`Config::priority_queue`] tells them
/// apart.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Priority {
    /// A change to act on (every add unless said otherwise).
    #[default]
    Normal,
    /// Background work: an object of the initial list, a resync.
    Low,
}

/// How to build a [`WorkQueue`].
pub struct Config<T> {
    name: String,
    rate_limiter: Box<dyn RateLimiter<T>>,
    priority_queue: bool,
}

impl<T: Clone + Eq + Hash + Send + Sync + 'static> Default for Config<T> {
    /// Unnamed, with [`default_rate_limiter`].
    fn default() -> Self {
        Self {
            name: String::new(),
            rate_limiter: Box::new(default_rate_limiter()),
            priority_queue: false,
        }
    }
}

impl<T> Config<T> {
    /// The name the metrics carry (label `name`).
    #[must_use]
    pub fn name(mut self, name: impl Into<String>) -> Self {
        self.name = name.into();
        self
    }

    /// Whether the queue honours [`Priority`] (off by default: one FIFO lane, as
    /// client-go's). See the [module docs](self).
    #[must_use]
    pub fn priority_queue(mut self, on: bool) -> Self {
        self.priority_queue = on;
        self
    }

    /// The limiter [`WorkQueue::add_rate_limited`] asks for delays.
    #[must_use]
    pub fn rate_limiter(mut self, limiter: impl RateLimiter<T>) -> Self {
        self.rate_limiter = Box::new(limiter);
        self
    }
}

/// A rate-limited, delaying work queue (client-go's `TypedRateLimitingInterface`); a
/// cheap-to-clone handle, every clone the same queue. See the [module docs](self).
pub struct WorkQueue<T> {
    inner: Arc<Inner<T>>,
}

struct Inner<T> {
    name: String,
    state: Mutex<State<T>>,
    /// Getters wait here for an item (or shutdown, or an earlier delayed item).
    ready: Notify,
    /// `shut_down_with_drain` waits here until nothing is in process.
    idle: Notify,
    limiter: Box<dyn RateLimiter<T>>,
}

impl<T> Clone for WorkQueue<T> {
    fn clone(&self) -> Self {
        Self {
            inner: self.inner.clone(),
        }
    }
}

impl<T> std::fmt::Debug for WorkQueue<T> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("WorkQueue")
            .field("name", &self.inner.name)
            .finish_non_exhaustive()
    }
}

impl<T: Clone + Eq + Hash + Send + Sync + 'static> Default for WorkQueue<T> {
    fn default() -> Self {
        Self::new()
    }
}

impl<T: Clone + Eq + Hash + Send + Sync + 'static> WorkQueue<T> {
    /// An unnamed queue with [`default_rate_limiter`].
    pub fn new() -> Self {
        Self::with_config(Config::default())
    }

    /// An unnamed queue with `limiter`.
    pub fn rate_limited(limiter: impl RateLimiter<T>) -> Self {
        Self::with_config(Config::default().rate_limiter(limiter))
    }

    /// A queue as `config` says.
    pub fn with_config(config: Config<T>) -> Self {
        Self {
            inner: Arc::new(Inner {
                name: config.name,
                state: Mutex::new(State::new(config.priority_queue)),
                ready: Notify::new(),
                idle: Notify::new(),
                limiter: config.rate_limiter,
            }),
        }
    }

    fn state(&self) -> MutexGuard<'_, State<T>> {
        self.inner.state.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// The queue's name, as its metrics carry it.
    pub fn name(&self) -> &str {
        &self.inner.name
    }

    /// Queues `item` unless it is already queued; one in process is queued again at
    /// [`done`](Self::done). Ignored once shut down.
    pub fn add(&self, item: T) {
        self.add_with_priority(item, Priority::Normal);
    }

    /// [`add`](Self::add) at `priority`: a queued low-priority item added again at normal
    /// priority moves up; one queued at normal priority stays there.
    pub fn add_with_priority(&self, item: T, priority: Priority) {
        let queued = {
            let mut s = self.state();
            let now = Instant::now();
            let promoted = s.promote(now);
            s.add(item, now, priority) || promoted
        };
        if queued {
            self.inner.ready.notify_one();
        }
    }

    /// Adds `item` once `delay` has passed; at once when `delay` is zero. An item already
    /// waiting keeps the earlier of its two times. Ignored once shut down.
    pub fn add_after(&self, item: T, delay: Duration) {
        let mut s = self.state();
        if s.shutting_down {
            return;
        }
        let now = Instant::now();
        s.promote(now);
        if delay.is_zero() {
            s.count_retry();
            let queued = s.add(item, now, Priority::Normal);
            drop(s);
            if queued {
                self.inner.ready.notify_one();
            }
            return;
        }
        // A delay too long for the clock waits as long as tokio's own "never" does.
        let at = now
            .checked_add(delay)
            .unwrap_or_else(|| now + Duration::from_secs(86_400 * 365 * 30));
        if s.add_at(item, at) {
            drop(s);
            // Sleepers wait for the earliest delayed item: they must look at the new one.
            self.inner.ready.notify_waiters();
        }
    }

    /// Adds `item` after the delay the rate limiter gives it (one more failure of it).
    pub fn add_rate_limited(&self, item: T) {
        let delay = self.inner.limiter.when(&item);
        self.add_after(item, delay);
    }

    /// Tells the rate limiter to stop tracking `item` (it succeeded, or was given up).
    pub fn forget(&self, item: &T) {
        self.inner.limiter.forget(item);
    }

    /// Times `item` was rate-limited since it was last forgotten.
    pub fn num_requeues(&self, item: &T) -> usize {
        self.inner.limiter.num_requeues(item)
    }

    /// Waits for the next item and marks it in process: the caller must call
    /// [`done`](Self::done) with it. `None` once the queue is shut down and empty.
    /// Cancel-safe: dropping the future takes nothing out of the queue.
    pub async fn get(&self) -> Option<T> {
        loop {
            // Fast path first: registering as a waiter costs two more locks.
            match self.next() {
                Next::Item(item) => return Some(item),
                Next::Closed => return None,
                Next::Wait(_) => {}
            }
            let notified = self.inner.ready.notified();
            tokio::pin!(notified);
            notified.as_mut().enable();
            let next_ready = match self.next() {
                Next::Item(item) => return Some(item),
                Next::Closed => return None,
                Next::Wait(at) => at,
            };
            match next_ready {
                Some(at) => {
                    tokio::select! {
                        () = &mut notified => {}
                        () = tokio::time::sleep_until(at) => {}
                    }
                }
                None => notified.await,
            }
        }
    }

    /// Takes the next item if there is one.
    fn next(&self) -> Next<T> {
        let mut s = self.state();
        let now = Instant::now();
        let promoted = s.promote(now);
        if let Some(item) = s.take(now) {
            let more = promoted && s.queued() > 0;
            drop(s);
            if more {
                // Several delayed items came due at once: wake another worker for them.
                self.inner.ready.notify_one();
            }
            return Next::Item(item);
        }
        if s.shutting_down {
            return Next::Closed;
        }
        Next::Wait(s.next_ready())
    }

    /// Ends processing of `item`; if it was added meanwhile it is queued again.
    pub fn done(&self, item: &T) {
        let (queued, idle) = {
            let mut s = self.state();
            let now = Instant::now();
            // A delayed re-add that came due while the item was in process must count as
            // added before `done`, as client-go's waiting loop would have added it.
            let promoted = s.promote(now);
            let queued = s.done(item, now);
            (queued || promoted, s.in_flight() == 0)
        };
        if queued {
            self.inner.ready.notify_one();
        }
        if idle {
            self.inner.idle.notify_waiters();
        }
    }

    /// Stops the queue: adds are ignored, delayed items dropped; items already queued are
    /// still handed out, then [`get`](Self::get) returns `None`. Ends a
    /// [`shut_down_with_drain`](Self::shut_down_with_drain) wait.
    pub fn shut_down(&self) {
        self.state().shut_down(false);
        self.inner.ready.notify_waiters();
        self.inner.idle.notify_waiters();
    }

    /// Like [`shut_down`](Self::shut_down), then waits until every item handed out is
    /// [`done`](Self::done) (or until [`shut_down`](Self::shut_down) is called).
    pub async fn shut_down_with_drain(&self) {
        self.state().shut_down(true);
        self.inner.ready.notify_waiters();
        loop {
            let idle = self.inner.idle.notified();
            tokio::pin!(idle);
            idle.as_mut().enable();
            {
                let s = self.state();
                if !s.drain || s.in_flight() == 0 {
                    return;
                }
            }
            idle.await;
        }
    }

    /// True once shut down.
    pub fn is_shutting_down(&self) -> bool {
        self.state().shutting_down
    }

    /// Items ready to be handed out (not those in process or waiting for a delay).
    pub fn len(&self) -> usize {
        let mut s = self.state();
        s.promote(Instant::now());
        s.queued()
    }

    /// True when no item is ready to be handed out.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// A snapshot of the queue's metrics.
    pub fn stats(&self) -> WorkQueueStats {
        let mut s = self.state();
        let now = Instant::now();
        s.promote(now);
        s.stats(self.inner.name.clone(), now)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    async fn take<T: Clone + Eq + Hash + Send + Sync + 'static>(q: &WorkQueue<T>) -> T {
        let item = q.get().await.expect("an item is queued");
        q.done(&item);
        item
    }

    #[tokio::test]
    async fn normal_items_go_before_low_ones_without_starving_them() {
        let q = WorkQueue::with_config(Config::default().priority_queue(true));
        for i in 0..3 {
            q.add_with_priority(format!("low-{i}"), Priority::Low);
        }
        for i in 0..12 {
            q.add(format!("n-{i}"));
        }
        let mut order = Vec::new();
        for _ in 0..15 {
            order.push(take(&q).await);
        }
        let low_at: Vec<usize> = order
            .iter()
            .enumerate()
            .filter(|(_, k)| k.starts_with("low"))
            .map(|(i, _)| i)
            .collect();
        assert_eq!(low_at, [5, 11, 14], "{order:?}");
        assert!(q.is_empty());
    }

    #[tokio::test]
    async fn a_low_item_added_again_at_normal_priority_moves_up_once() {
        let q = WorkQueue::with_config(Config::default().priority_queue(true));
        q.add_with_priority("a", Priority::Low);
        q.add_with_priority("b", Priority::Low);
        q.add("c");
        q.add("b");
        q.add_with_priority("c", Priority::Low);
        assert_eq!(q.len(), 3);
        assert_eq!(take(&q).await, "c");
        assert_eq!(take(&q).await, "b");
        assert_eq!(take(&q).await, "a");
        assert!(q.is_empty(), "b's old low entry is not handed out again");
        assert_eq!(q.stats().adds, 3);
    }

    #[tokio::test]
    async fn without_the_option_priorities_are_ignored() {
        let q = WorkQueue::new();
        q.add_with_priority(1u8, Priority::Low);
        q.add(2);
        assert_eq!(take(&q).await, 1);
        assert_eq!(take(&q).await, 2);
    }

    #[tokio::test(start_paused = true)]
    async fn metrics_follow_an_item_through_the_queue() {
        let q = WorkQueue::with_config(Config::default().name("t"));
        q.add(1u32);
        q.add(1);
        q.add(2);
        tokio::time::advance(Duration::from_millis(3)).await;
        let s = q.stats();
        assert_eq!((s.name.as_str(), s.depth, s.adds), ("t", 2, 2));
        let one = q.get().await;
        assert_eq!(one, Some(1));
        tokio::time::advance(Duration::from_millis(40)).await;
        let s = q.stats();
        assert_eq!((s.depth, s.in_flight), (1, 1));
        assert_eq!(s.unfinished_work, Duration::from_millis(40));
        assert_eq!(s.longest_running_processor, Duration::from_millis(40));
        assert_eq!(s.queue_duration.count, 1);
        assert!((s.queue_duration.sum - 0.003).abs() < 1e-9);
        q.done(&1);
        q.add_rate_limited(1);
        let s = q.stats();
        assert_eq!((s.retries, s.waiting, s.in_flight), (1, 1, 0));
        assert_eq!(s.work_duration.count, 1);
        assert!((s.work_duration.sum - 0.040).abs() < 1e-9);
    }
}
