//! Per-informer counters and the cheap snapshot users export as metrics.

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// Live counters an informer and its reflector update.
#[derive(Debug, Default)]
pub(crate) struct Counters {
    pub(crate) lists: AtomicU64,
    pub(crate) list_pages: AtomicU64,
    pub(crate) relists: AtomicU64,
    pub(crate) expired_relists: AtomicU64,
    pub(crate) watches: AtomicU64,
    pub(crate) errors: AtomicU64,
    pub(crate) added: AtomicU64,
    pub(crate) modified: AtomicU64,
    pub(crate) deleted: AtomicU64,
    pub(crate) bookmarks: AtomicU64,
    last_event: Mutex<Option<Instant>>,
}

impl Counters {
    pub(crate) fn bump(counter: &AtomicU64) {
        counter.fetch_add(1, Ordering::Relaxed);
    }

    pub(crate) fn saw_event(&self) {
        *self.last_event.lock().unwrap_or_else(|e| e.into_inner()) = Some(Instant::now());
    }

    pub(crate) fn since_last_event(&self) -> Option<Duration> {
        self.last_event
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .map(|t| t.elapsed())
    }
}

/// A snapshot of one handler's delivery state.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HandlerStats {
    /// The handler's id within its informer, in registration order.
    pub id: u64,
    /// Notifications queued and not yet handled.
    pub queue_depth: usize,
    /// Notifications handled so far.
    pub delivered: u64,
    /// Notifications whose handling panicked.
    pub panics: u64,
    /// How long the most recently handled notification waited in the queue.
    pub last_wait: Option<Duration>,
}

/// A snapshot of an informer's counters (cheap to take; plain data to export).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct InformerStats {
    /// The informer's name (e.g. `core/v1/pods`).
    pub name: String,
    /// Lists started (the initial one and every relist).
    pub lists: u64,
    /// List pages received.
    pub list_pages: u64,
    /// Lists after the first one.
    pub relists: u64,
    /// Relists caused by a 410 Expired.
    pub expired_relists: u64,
    /// Watch requests made.
    pub watches: u64,
    /// List and watch errors.
    pub errors: u64,
    /// ADDED events received.
    pub added: u64,
    /// MODIFIED events received.
    pub modified: u64,
    /// DELETED events received.
    pub deleted: u64,
    /// BOOKMARK events received.
    pub bookmarks: u64,
    /// The resourceVersion the cache reflects.
    pub last_sync_resource_version: String,
    /// Time since the last list item or watch event.
    pub since_last_event: Option<Duration>,
    /// Objects in the cache.
    pub cached_objects: usize,
    /// Every registered handler.
    pub handlers: Vec<HandlerStats>,
}

impl Counters {
    pub(crate) fn snapshot(
        &self,
        name: String,
        last_sync_resource_version: String,
        cached_objects: usize,
        handlers: Vec<HandlerStats>,
    ) -> InformerStats {
        let get = |c: &AtomicU64| c.load(Ordering::Relaxed);
        InformerStats {
            name,
            lists: get(&self.lists),
            list_pages: get(&self.list_pages),
            relists: get(&self.relists),
            expired_relists: get(&self.expired_relists),
            watches: get(&self.watches),
            errors: get(&self.errors),
            added: get(&self.added),
            modified: get(&self.modified),
            deleted: get(&self.deleted),
            bookmarks: get(&self.bookmarks),
            last_sync_resource_version,
            since_last_event: self.since_last_event(),
            cached_objects,
            handlers,
        }
    }
}
