//! A counting global allocator: live heap bytes and, inside a window, their high-water mark.
//!
//! Memory figures are differences of [`live_bytes`] around an action, so they count
//! exactly what the measured code keeps on the heap, whatever allocator sits below.
//!
//! The counts are sharded per thread: one shared counter would be a cache line every
//! decoding thread writes on every allocation, and would slow a multi-threaded informer
//! (not a single-threaded baseline) in the timed sections. A global count, and with it the
//! peak, is kept only inside a peak window, which memory sections open around a relist.

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;
use std::sync::atomic::{AtomicBool, AtomicIsize, AtomicUsize, Ordering};

/// Wraps the system allocator and counts live and peak bytes.
pub struct CountingAllocator;

const SHARDS: usize = 64;

/// One shard's count, alone on its cache lines. It goes negative on a thread that frees
/// more than it allocated; only the sum of all shards means anything.
#[repr(align(128))]
struct Shard(AtomicIsize);

static SHARD: [Shard; SHARDS] = [const { Shard(AtomicIsize::new(0)) }; SHARDS];
static NEXT_SHARD: AtomicUsize = AtomicUsize::new(0);
static IN_WINDOW: AtomicBool = AtomicBool::new(false);
static WINDOW_LIVE: AtomicIsize = AtomicIsize::new(0);
static WINDOW_PEAK: AtomicIsize = AtomicIsize::new(0);

thread_local! {
    // A `const` initialiser and no destructor: safe to touch from inside the allocator.
    static MY_SHARD: Cell<usize> = const { Cell::new(usize::MAX) };
}

fn shard() -> &'static AtomicIsize {
    let i = MY_SHARD
        .try_with(|s| {
            if s.get() == usize::MAX {
                s.set(NEXT_SHARD.fetch_add(1, Ordering::Relaxed) % SHARDS);
            }
            s.get()
        })
        // A thread being torn down: any shard keeps the sum right.
        .unwrap_or(0);
    &SHARD[i].0
}

fn count(delta: isize) {
    shard().fetch_add(delta, Ordering::Relaxed);
    if IN_WINDOW.load(Ordering::Relaxed) {
        let now = WINDOW_LIVE.fetch_add(delta, Ordering::Relaxed) + delta;
        WINDOW_PEAK.fetch_max(now, Ordering::Relaxed);
    }
}

fn grew(bytes: usize) {
    count(isize::try_from(bytes).unwrap_or(isize::MAX));
}

fn shrank(bytes: usize) {
    count(-isize::try_from(bytes).unwrap_or(isize::MAX));
}

// SAFETY: every call is forwarded unchanged to `System`; the counters only observe sizes.
unsafe impl GlobalAlloc for CountingAllocator {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        // SAFETY: same contract as the caller's.
        let p = unsafe { System.alloc(layout) };
        if !p.is_null() {
            grew(layout.size());
        }
        p
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        // SAFETY: same contract as the caller's.
        let p = unsafe { System.alloc_zeroed(layout) };
        if !p.is_null() {
            grew(layout.size());
        }
        p
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: same contract as the caller's.
        unsafe { System.dealloc(ptr, layout) };
        shrank(layout.size());
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        // SAFETY: same contract as the caller's.
        let p = unsafe { System.realloc(ptr, layout, new_size) };
        if !p.is_null() {
            if new_size >= layout.size() {
                grew(new_size - layout.size());
            } else {
                shrank(layout.size() - new_size);
            }
        }
        p
    }
}

/// Bytes currently allocated on the heap by this process.
pub fn live_bytes() -> usize {
    let sum: isize = SHARD.iter().map(|s| s.0.load(Ordering::Relaxed)).sum();
    usize::try_from(sum).unwrap_or(0)
}

/// A peak window: while one is open, every allocation also updates one global count and
/// its high-water mark. Closed by [`PeakWindow::close`] or when dropped.
pub struct PeakWindow(());

impl PeakWindow {
    /// Opens a window at the current live size.
    pub fn open() -> Self {
        let now = isize::try_from(live_bytes()).unwrap_or(isize::MAX);
        WINDOW_LIVE.store(now, Ordering::Relaxed);
        WINDOW_PEAK.store(now, Ordering::Relaxed);
        IN_WINDOW.store(true, Ordering::SeqCst);
        Self(())
    }

    /// Closes the window; the highest live size seen in it.
    pub fn close(self) -> usize {
        usize::try_from(WINDOW_PEAK.load(Ordering::Relaxed)).unwrap_or(0)
    }
}

impl Drop for PeakWindow {
    fn drop(&mut self) {
        IN_WINDOW.store(false, Ordering::SeqCst);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const BIG: usize = 64 << 20;
    // Other tests run in parallel; they allocate far less than this.
    const SLACK: usize = 8 << 20;

    #[test]
    fn counts_a_large_allocation_and_its_release_across_threads() {
        let before = live_bytes();
        let window = PeakWindow::open();
        let block = std::thread::spawn(|| vec![7u8; BIG]).join().unwrap();
        let during = live_bytes();
        assert!(
            during + SLACK >= before + BIG,
            "live {during} before {before}"
        );
        drop(block);
        let after = live_bytes();
        assert!(after < before + SLACK, "live {after} before {before}");
        let peak = window.close();
        assert!(peak + SLACK >= before + BIG, "peak {peak}");
    }
}
