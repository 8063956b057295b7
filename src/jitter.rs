//! Randomness for spreading retries and watch timeouts: a per-thread splitmix64 generator
//! seeded from std's randomly keyed `RandomState`. Nothing here needs cryptographic quality,
//! only that many informers (and many processes) do not retry in lockstep.

use std::cell::Cell;
use std::collections::hash_map::RandomState;
use std::hash::{BuildHasher, Hasher};

thread_local! {
    static STATE: Cell<u64> = Cell::new(seed());
}

/// A seed that differs between processes and threads: `RandomState`'s keys are random per
/// process and advance for every instance.
fn seed() -> u64 {
    let mut hasher = RandomState::new().build_hasher();
    hasher.write_u64(0x9e37_79b9_7f4a_7c15);
    hasher.finish()
}

/// The next value of the thread's generator (splitmix64).
fn next() -> u64 {
    STATE.with(|state| {
        let s = state.get().wrapping_add(0x9e37_79b9_7f4a_7c15);
        state.set(s);
        let mut z = s;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    })
}

/// A uniformly distributed fraction in `[0, 1)`.
pub(crate) fn fraction() -> f64 {
    // The top 53 bits fill an f64's mantissa exactly.
    (next() >> 11) as f64 / (1u64 << 53) as f64
}

/// A uniformly distributed integer in `[low, high)`; `low` when the range is empty.
pub(crate) fn between(low: i64, high: i64) -> i64 {
    let span = high.saturating_sub(low);
    if span <= 0 {
        return low;
    }
    // `span` is positive, so the remainder fits; the modulo bias over 2^64 is negligible.
    low + (next() % span as u64) as i64
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stays_in_range_and_spreads() {
        let fractions: Vec<f64> = (0..10_000).map(|_| fraction()).collect();
        assert!(fractions.iter().all(|f| (0.0..1.0).contains(f)));
        let low = fractions.iter().filter(|f| **f < 0.5).count();
        assert!(
            (4_000..6_000).contains(&low),
            "{low} of 10000 below one half"
        );
        let ints: Vec<i64> = (0..10_000).map(|_| between(300, 600)).collect();
        assert!(ints.iter().all(|i| (300..600).contains(i)));
        assert!(ints.contains(&300) && ints.contains(&599));
        assert_eq!(between(5, 5), 5);
    }
}
