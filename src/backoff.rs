//! Exponential backoff with jitter for the reflector's retries (client-go's
//! `wait.Backoff` with the reflector's defaults: 800 ms doubling to 30 s, reset after
//! two minutes without failures).

use std::time::{Duration, Instant};

/// Parameters of a [`Backoff`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct BackoffConfig {
    /// The first delay.
    pub(crate) initial: Duration,
    /// The largest delay (before jitter).
    pub(crate) max: Duration,
    /// A failure this long after the previous one starts again from `initial`.
    pub(crate) reset_after: Duration,
}

impl Default for BackoffConfig {
    fn default() -> Self {
        Self {
            initial: Duration::from_millis(800),
            max: Duration::from_secs(30),
            reset_after: Duration::from_secs(120),
        }
    }
}

/// The delay sequence of consecutive failures.
#[derive(Debug, Clone)]
pub(crate) struct Backoff {
    config: BackoffConfig,
    current: Duration,
    last_failure: Option<Instant>,
}

impl Backoff {
    /// A backoff at its first step.
    pub(crate) fn new(config: BackoffConfig) -> Self {
        Self {
            config,
            current: config.initial,
            last_failure: None,
        }
    }

    /// The delay before the next retry after a failure at `now`: the current step plus up
    /// to 50% jitter, so many informers failing together do not retry in lockstep.
    pub(crate) fn next_delay(&mut self, now: Instant) -> Duration {
        let healthy_long_enough = self
            .last_failure
            .is_none_or(|t| now.saturating_duration_since(t) >= self.config.reset_after);
        if healthy_long_enough {
            self.current = self.config.initial;
        }
        self.last_failure = Some(now);
        let base = self.current.min(self.config.max);
        self.current = self.current.saturating_mul(2).min(self.config.max);
        let jitter = crate::jitter::fraction() * 0.5;
        base.saturating_add(base.mul_f64(jitter))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn doubles_to_the_cap_and_resets_after_a_healthy_period() {
        let cfg = BackoffConfig::default();
        let mut b = Backoff::new(cfg);
        let t0 = Instant::now();
        let bases = [800u64, 1600, 3200, 6400, 12800, 25600, 30000, 30000];
        for (i, base) in bases.iter().enumerate() {
            let d = b.next_delay(t0 + Duration::from_secs(i as u64));
            let base = Duration::from_millis(*base);
            assert!(d >= base && d < base.mul_f64(1.5), "step {i}: {d:?}");
        }
        let later = t0 + Duration::from_secs(10 + 120);
        let d = b.next_delay(later);
        assert!(d < Duration::from_millis(1200), "{d:?}");
    }
}
