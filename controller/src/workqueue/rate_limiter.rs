//! How long a failed item waits before it is retried (client-go's
//! `workqueue/default_rate_limiters.go`).

use std::collections::HashMap;
use std::hash::Hash;
use std::sync::{Mutex, MutexGuard};
use std::time::Duration;

use tokio::time::Instant;

type Map<K, V> = HashMap<K, V, foldhash::fast::RandomState>;

fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}

/// Decides the delay of each retry of an item (client-go's `TypedRateLimiter`).
pub trait RateLimiter<T>: Send + Sync + 'static {
    /// The delay before `item` is retried; records one more failure of it.
    fn when(&self, item: &T) -> Duration;
    /// Stops tracking `item` (it succeeded or was given up): its next failure starts over.
    fn forget(&self, item: &T);
    /// Failures of `item` recorded since it was last forgotten.
    fn num_requeues(&self, item: &T) -> usize;
}

/// `base * 2^failures`, capped at `max`, per item (client-go's
/// `ItemExponentialFailureRateLimiter`).
pub struct ItemExponentialFailureRateLimiter<T> {
    base: Duration,
    max: Duration,
    failures: Mutex<Map<T, u32>>,
}

impl<T> ItemExponentialFailureRateLimiter<T> {
    /// Starts at `base`, doubles per failure, never above `max`.
    pub fn new(base: Duration, max: Duration) -> Self {
        Self {
            base,
            max,
            failures: Mutex::new(Map::default()),
        }
    }
}

impl<T: Clone + Eq + Hash + Send + Sync + 'static> RateLimiter<T>
    for ItemExponentialFailureRateLimiter<T>
{
    fn when(&self, item: &T) -> Duration {
        let exp = {
            let mut failures = lock(&self.failures);
            let n = failures.entry(item.clone()).or_insert(0);
            let exp = *n;
            *n = n.saturating_add(1);
            exp
        };
        // In floating point, as client-go, so a large exponent saturates instead of wrapping.
        let nanos = self.base.as_nanos() as f64 * 2f64.powi(i32::try_from(exp).unwrap_or(i32::MAX));
        if !nanos.is_finite() || nanos >= self.max.as_nanos() as f64 {
            return self.max;
        }
        Duration::from_nanos(nanos as u64)
    }

    fn forget(&self, item: &T) {
        lock(&self.failures).remove(item);
    }

    fn num_requeues(&self, item: &T) -> usize {
        lock(&self.failures).get(item).map_or(0, |&n| n as usize)
    }
}

/// `fast` for the first `max_fast_attempts` failures of an item, `slow` after (client-go's
/// `ItemFastSlowRateLimiter`).
pub struct ItemFastSlowRateLimiter<T> {
    fast: Duration,
    slow: Duration,
    max_fast_attempts: usize,
    failures: Mutex<Map<T, usize>>,
}

impl<T> ItemFastSlowRateLimiter<T> {
    /// `fast` for the first `max_fast_attempts` retries, then `slow`.
    pub fn new(fast: Duration, slow: Duration, max_fast_attempts: usize) -> Self {
        Self {
            fast,
            slow,
            max_fast_attempts,
            failures: Mutex::new(Map::default()),
        }
    }
}

impl<T: Clone + Eq + Hash + Send + Sync + 'static> RateLimiter<T> for ItemFastSlowRateLimiter<T> {
    fn when(&self, item: &T) -> Duration {
        let mut failures = lock(&self.failures);
        let n = failures.entry(item.clone()).or_insert(0);
        *n = n.saturating_add(1);
        if *n <= self.max_fast_attempts {
            self.fast
        } else {
            self.slow
        }
    }

    fn forget(&self, item: &T) {
        lock(&self.failures).remove(item);
    }

    fn num_requeues(&self, item: &T) -> usize {
        lock(&self.failures).get(item).copied().unwrap_or(0)
    }
}

/// A token bucket over all items together (client-go's `BucketRateLimiter` over
/// `golang.org/x/time/rate`): `burst` retries at once, then `qps` per second. Each call
/// reserves a token, so the delays of a burst grow by `1/qps` each.
pub struct BucketRateLimiter {
    qps: f64,
    burst: f64,
    bucket: Mutex<Bucket>,
}

struct Bucket {
    tokens: f64,
    last: Option<Instant>,
}

impl BucketRateLimiter {
    /// `qps` tokens per second, at most `burst` saved up (the bucket starts full). A `qps`
    /// of infinity never delays; zero, negative or NaN delays every retry beyond the
    /// burst for as long as a delay can be.
    pub fn new(qps: f64, burst: u32) -> Self {
        Self {
            qps,
            burst: f64::from(burst),
            bucket: Mutex::new(Bucket {
                tokens: f64::from(burst),
                last: None,
            }),
        }
    }

    fn reserve(&self) -> Duration {
        let now = Instant::now();
        let mut b = lock(&self.bucket);
        if let Some(last) = b.last {
            let refill = now.saturating_duration_since(last).as_secs_f64() * self.qps;
            if refill.is_finite() && refill > 0.0 {
                b.tokens = (b.tokens + refill).min(self.burst);
            } else if refill.is_infinite() {
                b.tokens = self.burst;
            }
        }
        b.last = Some(now);
        b.tokens -= 1.0;
        if b.tokens >= 0.0 || self.qps == f64::INFINITY {
            return Duration::ZERO;
        }
        let secs = -b.tokens / self.qps;
        if secs.is_finite() && secs >= 0.0 {
            Duration::try_from_secs_f64(secs).unwrap_or(Duration::MAX)
        } else {
            Duration::MAX
        }
    }
}

impl<T> RateLimiter<T> for BucketRateLimiter {
    fn when(&self, _item: &T) -> Duration {
        self.reserve()
    }

    fn forget(&self, _item: &T) {}

    fn num_requeues(&self, _item: &T) -> usize {
        0
    }
}

/// The longest delay of several limiters; every one of them records each failure
/// (client-go's `MaxOfRateLimiter`).
pub struct MaxOfRateLimiter<T> {
    limiters: Vec<Box<dyn RateLimiter<T>>>,
}

impl<T> MaxOfRateLimiter<T> {
    /// The maximum of `limiters`.
    pub fn new(limiters: Vec<Box<dyn RateLimiter<T>>>) -> Self {
        Self { limiters }
    }
}

impl<T: 'static> RateLimiter<T> for MaxOfRateLimiter<T> {
    fn when(&self, item: &T) -> Duration {
        self.limiters
            .iter()
            .map(|l| l.when(item))
            .max()
            .unwrap_or(Duration::ZERO)
    }

    fn forget(&self, item: &T) {
        for l in &self.limiters {
            l.forget(item);
        }
    }

    fn num_requeues(&self, item: &T) -> usize {
        self.limiters
            .iter()
            .map(|l| l.num_requeues(item))
            .max()
            .unwrap_or(0)
    }
}

/// client-go's `DefaultControllerRateLimiter`: per item 5 ms doubling to 1000 s, and
/// overall 10 retries per second with a burst of 100, whichever waits longer.
pub fn default_rate_limiter<T: Clone + Eq + Hash + Send + Sync + 'static>() -> MaxOfRateLimiter<T> {
    MaxOfRateLimiter::new(vec![
        Box::new(ItemExponentialFailureRateLimiter::new(
            Duration::from_millis(5),
            Duration::from_secs(1000),
        )),
        Box::new(BucketRateLimiter::new(10.0, 100)),
    ])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn exponential_doubles_per_item_up_to_the_cap_and_forget_resets() {
        let r = ItemExponentialFailureRateLimiter::new(
            Duration::from_millis(1),
            Duration::from_secs(1),
        );
        let got: Vec<_> = (0..12).map(|_| r.when(&"a").as_millis()).collect();
        assert_eq!(got, [1, 2, 4, 8, 16, 32, 64, 128, 256, 512, 1000, 1000]);
        assert_eq!(r.num_requeues(&"a"), 12);
        assert_eq!(r.when(&"b"), Duration::from_millis(1), "items are apart");
        r.forget(&"a");
        assert_eq!(r.num_requeues(&"a"), 0);
        assert_eq!(r.when(&"a"), Duration::from_millis(1));
    }

    #[test]
    fn exponential_saturates_at_the_cap_for_huge_exponents() {
        let r = ItemExponentialFailureRateLimiter::new(Duration::from_secs(1), Duration::MAX);
        for _ in 0..2000 {
            r.when(&1u8);
        }
        assert_eq!(r.when(&1u8), Duration::MAX);
    }

    #[test]
    fn fast_slow_switches_after_the_fast_attempts() {
        let r = ItemFastSlowRateLimiter::new(Duration::from_millis(5), Duration::from_secs(10), 3);
        let got: Vec<_> = (0..5).map(|_| r.when(&"x")).collect();
        assert_eq!(got[..3], [Duration::from_millis(5); 3]);
        assert_eq!(got[3..], [Duration::from_secs(10); 2]);
        assert_eq!(r.num_requeues(&"x"), 5);
        r.forget(&"x");
        assert_eq!(r.when(&"x"), Duration::from_millis(5));
    }

    #[tokio::test(start_paused = true)]
    async fn bucket_allows_the_burst_then_spaces_by_one_over_qps() {
        let r = BucketRateLimiter::new(10.0, 3);
        let when = |r: &BucketRateLimiter| RateLimiter::<u8>::when(r, &0);
        assert_eq!([when(&r), when(&r), when(&r)], [Duration::ZERO; 3]);
        assert_eq!(when(&r), Duration::from_millis(100));
        assert_eq!(when(&r), Duration::from_millis(200));
        tokio::time::advance(Duration::from_secs(10)).await;
        assert_eq!(
            when(&r),
            Duration::ZERO,
            "refilled, but never above the burst"
        );
        assert_eq!(when(&r), Duration::ZERO);
        assert_eq!(when(&r), Duration::ZERO);
        assert_eq!(when(&r), Duration::from_millis(100));
    }

    #[test]
    fn bucket_with_no_rate_waits_as_long_as_possible() {
        let r = BucketRateLimiter::new(0.0, 1);
        assert_eq!(RateLimiter::<u8>::when(&r, &0), Duration::ZERO);
        assert_eq!(RateLimiter::<u8>::when(&r, &0), Duration::MAX);
        let unlimited = BucketRateLimiter::new(f64::INFINITY, 0);
        assert_eq!(RateLimiter::<u8>::when(&unlimited, &0), Duration::ZERO);
    }

    #[test]
    fn max_of_takes_the_longest_and_forgets_everywhere() {
        let r: MaxOfRateLimiter<&str> = MaxOfRateLimiter::new(vec![
            Box::new(ItemFastSlowRateLimiter::new(
                Duration::from_millis(3),
                Duration::from_secs(1),
                2,
            )),
            Box::new(ItemExponentialFailureRateLimiter::new(
                Duration::from_millis(1),
                Duration::from_secs(60),
            )),
        ]);
        let got: Vec<_> = (0..4).map(|_| r.when(&"k").as_millis()).collect();
        assert_eq!(got, [3, 3, 1000, 1000]);
        assert_eq!(r.num_requeues(&"k"), 4);
        r.forget(&"k");
        assert_eq!(r.num_requeues(&"k"), 0);
        assert_eq!(
            MaxOfRateLimiter::<u8>::new(Vec::new()).when(&0),
            Duration::ZERO
        );
    }
}
