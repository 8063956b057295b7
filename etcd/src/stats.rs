//! Counters of what an etcd source had to skip.

use std::sync::atomic::{AtomicU64, Ordering};

/// Counters shared by a lister-watcher and every list and watch it starts.
#[derive(Debug, Default)]
pub struct EtcdStats {
    undecodable: AtomicU64,
}

impl EtcdStats {
    /// How many etcd values could not be decoded (or were missing) and were skipped.
    pub fn undecodable_values(&self) -> u64 {
        self.undecodable.load(Ordering::Relaxed)
    }

    pub(crate) fn count_undecodable(&self) {
        self.undecodable.fetch_add(1, Ordering::Relaxed);
    }
}
