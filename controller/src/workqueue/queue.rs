//! The queue's state under one lock: client-go's `dirty` / `processing` / `queue` sets,
//! the delayed items, and the metrics they feed. The `queue` is two lanes, normal and low
//! priority (controller-runtime's priority queue); a queue without priorities only ever
//! uses the normal one, which is then client-go's FIFO.

use std::collections::{HashMap, VecDeque};
use std::hash::Hash;
use std::time::Duration;

use tokio::time::Instant;

use super::delaying::Waiting;
use super::metrics::{Histogram, WorkQueueStats};
use super::Priority;

type Map<K, V> = HashMap<K, V, foldhash::fast::RandomState>;

/// Normal-priority items handed out in a row while low-priority ones wait, before one
/// low-priority item goes: low-priority work gets at least a sixth of the workers' turns,
/// so a steady stream of changes cannot starve it.
pub(super) const NORMAL_STREAK: u32 = 5;

/// An item that needs processing.
struct Dirty {
    /// When it was added (for queue latency).
    added: Instant,
    priority: Priority,
    /// The lane entry that stands for it; 0 while it has none (it is in process).
    entry: u64,
}

/// The two lanes. An entry is live only while the item's `Dirty::entry` names it: moving
/// an item up to the normal lane, or taking it, leaves its old entry behind as stale, to
/// be skipped when it reaches the front.
struct Lanes<T> {
    normal: VecDeque<(T, u64)>,
    low: VecDeque<(T, u64)>,
    live_normal: usize,
    live_low: usize,
    /// Normal items handed out in a row while low ones waited.
    streak: u32,
    seq: u64,
}

/// Every item has at most one live entry in the lanes, and has one only if it is in
/// `dirty` and not in `processing` (client-go's invariant, which gives dedup and
/// one-worker-per-item).
pub(super) struct State<T> {
    queue: Lanes<T>,
    /// Whether adds keep their priority; off, every item goes to the normal lane.
    prioritized: bool,
    /// Items that need processing.
    dirty: Map<T, Dirty>,
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

impl<T> Lanes<T> {
    /// Appends a live entry for `item`; returns its number.
    fn push(&mut self, item: T, priority: Priority) -> u64 {
        self.seq += 1;
        match priority {
            Priority::Normal => {
                self.normal.push_back((item, self.seq));
                self.live_normal += 1;
            }
            Priority::Low => {
                self.low.push_back((item, self.seq));
                self.live_low += 1;
            }
        }
        self.seq
    }
}

impl<T: Clone + Eq + Hash> State<T> {
    pub(super) fn new(prioritized: bool) -> Self {
        Self {
            queue: Lanes {
                normal: VecDeque::new(),
                low: VecDeque::new(),
                live_normal: 0,
                live_low: 0,
                streak: 0,
                seq: 0,
            },
            prioritized,
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

    /// Marks `item` dirty, added at `at` with `priority`; true when it joined a lane (a
    /// worker can take it). A low-priority item queued again at normal priority moves up.
    pub(super) fn add(&mut self, item: T, at: Instant, priority: Priority) -> bool {
        if self.shutting_down {
            return false;
        }
        let priority = if self.prioritized {
            priority
        } else {
            Priority::Normal
        };
        let in_process = self.processing.contains_key(&item);
        if let Some(dirty) = self.dirty.get_mut(&item) {
            if priority == Priority::Normal && dirty.priority == Priority::Low {
                dirty.priority = Priority::Normal;
                if !in_process {
                    self.queue.live_low -= 1;
                    dirty.entry = self.queue.push(item, Priority::Normal);
                }
            }
            return false;
        }
        self.adds += 1;
        let entry = if in_process {
            0
        } else {
            self.queue.push(item.clone(), priority)
        };
        self.dirty.insert(
            item,
            Dirty {
                added: at,
                priority,
                entry,
            },
        );
        !in_process
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
            queued |= self.add(item, at, Priority::Normal);
        }
        queued
    }

    /// Hands out the next item, now in process.
    pub(super) fn take(&mut self, now: Instant) -> Option<T> {
        let lanes = &mut self.queue;
        let low = if lanes.live_low == 0 {
            lanes.streak = 0;
            false
        } else if lanes.live_normal == 0 || lanes.streak >= NORMAL_STREAK {
            lanes.streak = 0;
            true
        } else {
            lanes.streak += 1;
            false
        };
        let item = loop {
            let (item, seq) = if low {
                lanes.low.pop_front()?
            } else {
                lanes.normal.pop_front()?
            };
            if let Some(dirty) = self.dirty.get(&item).filter(|d| d.entry == seq) {
                self.queue_duration
                    .observe(now.saturating_duration_since(dirty.added));
                break item;
            }
        };
        if low {
            lanes.live_low -= 1;
        } else {
            lanes.live_normal -= 1;
        }
        self.dirty.remove(&item);
        self.processing.insert(item.clone(), now);
        Some(item)
    }

    /// Ends processing of `item`; true when it was re-added meanwhile and joined a lane.
    pub(super) fn done(&mut self, item: &T, now: Instant) -> bool {
        let Some(started) = self.processing.remove(item) else {
            return false;
        };
        self.work_duration
            .observe(now.saturating_duration_since(started));
        if let Some(dirty) = self.dirty.get_mut(item) {
            dirty.entry = self.queue.push(item.clone(), dirty.priority);
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
        self.queue.live_normal + self.queue.live_low
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
