//! The benchmark sections. Each returns its records; a section owns its servers.

pub mod codegen;
pub mod controller_takeover;
pub mod kube;
pub mod listers;
pub mod memory;
pub mod protobuf;
pub mod server;
pub mod sharding;
pub mod soak;
pub mod sync;
pub mod watch;
pub mod workqueue;
pub mod writes;

use std::future::Future;
use std::time::{Duration, Instant};

use crate::cli::Section;
use crate::error::BenchError;
use crate::results::Record;

/// Settings shared by every section.
#[derive(Clone, Copy, Debug)]
pub struct Ctx {
    /// Small sizes, no clean builds.
    pub quick: bool,
    /// How long the soak runs (`--minutes`; default 10, or a short run with `--quick`).
    pub soak_minutes: Option<f64>,
}

/// Runs one section.
pub async fn run(section: Section, ctx: Ctx) -> Result<Vec<Record>, BenchError> {
    match section {
        Section::Sync => sync::run(ctx).await,
        Section::Memory => memory::run(ctx).await,
        Section::Watch => watch::run(ctx).await,
        Section::Listers => listers::run(ctx).await,
        Section::Server => server::run(ctx).await,
        Section::Writes => writes::run(ctx).await,
        Section::Codegen => codegen::run(ctx).await,
        Section::Workqueue => workqueue::run(ctx).await,
        Section::Kube => kube::run(ctx).await,
        Section::Sharding => sharding::run(ctx).await,
        Section::Protobuf => protobuf::run(ctx).await,
        Section::Soak => soak::run(ctx).await,
    }
}

/// Seconds elapsed while `f` runs, with its output.
pub async fn timed<T, F: Future<Output = T>>(f: F) -> (f64, T) {
    let start = Instant::now();
    let out = f.await;
    (start.elapsed().as_secs_f64(), out)
}

/// Polls `done` every few milliseconds until it holds; fails after `limit`.
pub async fn wait_until(
    what: &str,
    limit: Duration,
    mut done: impl FnMut() -> bool,
) -> Result<(), BenchError> {
    let start = Instant::now();
    while !done() {
        if start.elapsed() > limit {
            return Err(BenchError::Timeout(what.to_owned(), limit));
        }
        tokio::time::sleep(Duration::from_millis(2)).await;
    }
    Ok(())
}

/// The `q`-quantile (0..=1) of `samples`, sorting them; `None` when empty.
pub fn quantile<T: Copy + PartialOrd>(samples: &mut [T], q: f64) -> Option<T> {
    if samples.is_empty() {
        return None;
    }
    samples.sort_unstable_by(|a, b| a.partial_cmp(b).unwrap_or(std::cmp::Ordering::Equal));
    let idx = ((samples.len() - 1) as f64 * q.clamp(0.0, 1.0)).round() as usize;
    samples.get(idx).copied()
}

/// Nanoseconds since the Unix epoch (the clock the server child stamps events with).
pub fn now_ns() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_nanos() as u64)
        .unwrap_or_default()
}

/// Lets freed memory and finished tasks settle before a heap reading.
pub async fn settle() {
    tokio::time::sleep(Duration::from_millis(300)).await;
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quantiles() {
        let mut v: Vec<u64> = (1..=100).rev().collect();
        assert_eq!(quantile(&mut v, 0.5), Some(51));
        assert_eq!(quantile(&mut v, 0.99), Some(99));
        assert_eq!(quantile(&mut v, 1.0), Some(100));
        assert_eq!(quantile::<u64>(&mut [], 0.5), None);
    }
}
