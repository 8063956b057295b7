//! The queue's state under one lock: client-go's `dirty` / `processing` / `queue` sets,
//! the delayed items, and the metrics they feed.

use std::collections::{HashMap, VecDeque};
use std::hash::Hash;
use std::time::Duration;

use tokio::time::Instant;

use super::delaying::Waiting;
use super::metrics::{Histogram, WorkQueueStats};

type Map<K, V> = HashMap<K, V, foldhash::fast::RandomState>;

/// Every item is in at most one place of `queue`, and is in `queue` only if it is in
/// `dirty` and not in `processing` (client-go's invariant, which gives dedup and
/// one-worker-per-item).
pub(super) struct State<T> {
    queue: VecDeque<T>,
    /// Items that need processing, with when they were added (for queue latency).
    dirty: Map<T, Instant>,
    /// Items handed out and not yet done, with when they were handed out.
    processing: Map<T, Instant>,
    waiting: Waiting<T>,
    pub(super) shutting_down: bool,
    pub(super) drain: bool,
    adds: u64,
    retries: u64,
    queue_duration: Histogram,
    work_duration: Histogram,
}

impl<T: Clone + Eq + Hash> State<T> {
    pub(super) fn new() -> Self {
        Self {
            queue: VecDeque::new(),
            dirty: Map::default(),
            processing: Map::default(),
            waiting: Waiting::new(),
            shutting_down: false,
            drain: false,
            adds: 0,
            retries: 0,
            queue_duration: Histogram::default(),
            work_duration: Histogram::default(),
        }
    }

    /// Marks `item` dirty, added at `at`; true when it joined `queue` (a worker can take it).
    pub(super) fn add(&mut self, item: T, at: Instant) -> bool {
        if self.shutting_down || self.dirty.contains_key(&item) {
            return false;
        }
        self.adds += 1;
        let queue_now = !self.processing.contains_key(&item);
        if queue_now {
            self.queue.push_back(item.clone());
        }
        self.dirty.insert(item, at);
        queue_now
    }

    /// Schedules `item` for `at`; true when it is now the earliest delayed item.
    pub(super) fn add_at(&mut self, item: T, at: Instant) -> bool {
        self.retries += 1;
        self.waiting.insert(item, at)
    }

    pub(super) fn count_retry(&mut self) {
        self.retries += 1;
    }

    /// Moves delayed items that are due at `now` into the queue, as added when they were due
    /// (client-go's waiting loop adds them then). True if any joined `queue`.
    pub(super) fn promote(&mut self, now: Instant) -> bool {
        let mut queued = false;
        while let Some((item, at)) = self.waiting.pop_ready(now) {
            queued |= self.add(item, at);
        }
        queued
    }

    /// Hands out the next item, now in process.
    pub(super) fn take(&mut self, now: Instant) -> Option<T> {
        let item = self.queue.pop_front()?;
        if let Some(added) = self.dirty.remove(&item) {
            self.queue_duration
                .observe(now.saturating_duration_since(added));
        }
        self.processing.insert(item.clone(), now);
        Some(item)
    }

    /// Ends processing of `item`; true when it was re-added meanwhile and joined `queue`.
    pub(super) fn done(&mut self, item: &T, now: Instant) -> bool {
        let Some(started) = self.processing.remove(item) else {
            return false;
        };
        self.work_duration
            .observe(now.saturating_duration_since(started));
        if self.dirty.contains_key(item) {
            self.queue.push_back(item.clone());
            return true;
        }
        false
    }

    pub(super) fn shut_down(&mut self, drain: bool) {
        self.shutting_down = true;
        self.drain = drain;
        self.waiting.clear();
    }

    pub(super) fn queued(&self) -> usize {
        self.queue.len()
    }

    pub(super) fn in_flight(&self) -> usize {
        self.processing.len()
    }

    pub(super) fn next_ready(&mut self) -> Option<Instant> {
        self.waiting.next_ready()
    }

    pub(super) fn stats(&self, name: String, now: Instant) -> WorkQueueStats {
        let (unfinished, longest) = self.processing.values().fold(
            (Duration::ZERO, Duration::ZERO),
            |(sum, max), &started| {
                let d = now.saturating_duration_since(started);
                (sum + d, max.max(d))
            },
        );
        WorkQueueStats {
            name,
            depth: self.dirty.len(),
            adds: self.adds,
            retries: self.retries,
            queue_duration: self.queue_duration.clone(),
            work_duration: self.work_duration.clone(),
            unfinished_work: unfinished,
            longest_running_processor: longest,
            in_flight: self.processing.len(),
            waiting: self.waiting.len(),
        }
    }
}
