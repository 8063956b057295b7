//! Items waiting for their time to join the queue (client-go's delaying queue heap).

use std::cmp::Ordering;
use std::collections::{BinaryHeap, HashMap};
use std::hash::Hash;

use tokio::time::Instant;

type Map<K, V> = HashMap<K, V, foldhash::fast::RandomState>;

/// One scheduled add. `seq` breaks ties in arrival order and tells a live entry from one
/// superseded by an earlier time for the same item.
struct Entry<T> {
    ready_at: Instant,
    seq: u64,
    item: T,
}

impl<T> PartialEq for Entry<T> {
    fn eq(&self, other: &Self) -> bool {
        self.ready_at == other.ready_at && self.seq == other.seq
    }
}

impl<T> Eq for Entry<T> {}

impl<T> PartialOrd for Entry<T> {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl<T> Ord for Entry<T> {
    /// Reversed, so the std max-heap pops the earliest entry first.
    fn cmp(&self, other: &Self) -> Ordering {
        (other.ready_at, other.seq).cmp(&(self.ready_at, self.seq))
    }
}

/// Each item at most once, at the earliest time it was asked for: as client-go, adding an
/// item that already waits only ever moves it earlier.
pub(super) struct Waiting<T> {
    heap: BinaryHeap<Entry<T>>,
    known: Map<T, (Instant, u64)>,
    seq: u64,
}

impl<T: Clone + Eq + Hash> Waiting<T> {
    pub(super) fn new() -> Self {
        Self {
            heap: BinaryHeap::new(),
            known: Map::default(),
            seq: 0,
        }
    }

    /// Schedules `item` for `ready_at`; true when this is now the earliest entry (so
    /// sleepers must look again).
    pub(super) fn insert(&mut self, item: T, ready_at: Instant) -> bool {
        if self.known.get(&item).is_some_and(|&(at, _)| at <= ready_at) {
            return false;
        }
        let earliest = self.next_ready().is_none_or(|next| ready_at < next);
        self.seq += 1;
        self.known.insert(item.clone(), (ready_at, self.seq));
        self.heap.push(Entry {
            ready_at,
            seq: self.seq,
            item,
        });
        earliest
    }

    /// The earliest item due at `now`, with the time it was due.
    pub(super) fn pop_ready(&mut self, now: Instant) -> Option<(T, Instant)> {
        self.drop_stale();
        if self.heap.peek().is_none_or(|top| top.ready_at > now) {
            return None;
        }
        let entry = self.heap.pop()?;
        self.known.remove(&entry.item);
        Some((entry.item, entry.ready_at))
    }

    /// When the next item is due.
    pub(super) fn next_ready(&mut self) -> Option<Instant> {
        self.drop_stale();
        self.heap.peek().map(|top| top.ready_at)
    }

    /// Items waiting.
    pub(super) fn len(&self) -> usize {
        self.known.len()
    }

    pub(super) fn clear(&mut self) {
        self.heap.clear();
        self.known.clear();
    }

    /// Pops entries superseded by an earlier time for the same item.
    fn drop_stale(&mut self) {
        while let Some(top) = self.heap.peek() {
            if self.known.get(&top.item).map(|&(_, seq)| seq) == Some(top.seq) {
                return;
            }
            self.heap.pop();
        }
    }
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use super::*;

    #[test]
    fn pops_in_time_order_and_only_when_due() {
        let t0 = Instant::now();
        let mut w = Waiting::new();
        assert!(w.insert("b", t0 + Duration::from_millis(20)));
        assert!(w.insert("a", t0 + Duration::from_millis(10)));
        assert!(!w.insert("c", t0 + Duration::from_millis(30)));
        assert_eq!(w.pop_ready(t0), None);
        assert_eq!(w.next_ready(), Some(t0 + Duration::from_millis(10)));
        let later = t0 + Duration::from_millis(25);
        assert_eq!(w.pop_ready(later).map(|(i, _)| i), Some("a"));
        assert_eq!(w.pop_ready(later).map(|(i, _)| i), Some("b"));
        assert_eq!(w.pop_ready(later), None);
        assert_eq!(w.len(), 1);
    }

    #[test]
    fn a_second_add_only_moves_an_item_earlier() {
        let t0 = Instant::now();
        let mut w = Waiting::new();
        w.insert("a", t0 + Duration::from_millis(50));
        assert!(!w.insert("a", t0 + Duration::from_millis(80)));
        assert_eq!(w.next_ready(), Some(t0 + Duration::from_millis(50)));
        assert!(w.insert("a", t0 + Duration::from_millis(5)));
        assert_eq!(w.len(), 1);
        let (item, at) = w.pop_ready(t0 + Duration::from_millis(5)).unwrap();
        assert_eq!((item, at), ("a", t0 + Duration::from_millis(5)));
        assert_eq!(w.next_ready(), None, "the superseded entry is gone too");
        assert_eq!(w.len(), 0);
    }
}
