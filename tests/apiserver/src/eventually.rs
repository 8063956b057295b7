//! [`eventually`]: wait in a test for something another task makes true.

use std::time::Duration;

/// How often [`eventually`] asks its condition again.
const POLL_INTERVAL: Duration = Duration::from_millis(10);

/// How long [`eventually`] waits before it gives up.
const TIMEOUT: Duration = Duration::from_secs(60);

/// Waits until `cond` returns `true`, asking it every 10 ms, as Gomega's `Eventually` does.
///
/// Informers, controllers and the server's background work (garbage collection, namespace
/// deletion, watches) change state in other tasks, so a test asserts what they *will*
/// have done: `eventually("…", || …).await`. `cond` is asked at once and then after each
/// 10 ms sleep; it should be cheap and must not block (it runs on the test's task).
///
/// The 60 s limit is a hang guard, not a speed check: a test that needs a bound on how
/// long something takes measures it itself.
///
/// The clock is tokio's: under a paused clock (`#[tokio::test(start_paused = true)]`) the
/// 10 ms sleeps and the 60 s limit are virtual time, which tokio advances while every task
/// is idle.
///
/// # Panics
///
/// This is a test helper and failing the test is its job: if `cond` is still `false`
/// after 60 s, it panics with `timed out waiting for {what}`, so name the awaited state
/// in `what` ("the deleted pod", "three handler threads").
///
/// It also needs a tokio runtime with the time driver enabled (as `#[tokio::test]` and
/// `#[tokio::main]` build), else the first sleep panics.
///
/// # Example
///
/// ```
/// use test_apiserver::{eventually, fixtures, TestApiServer};
///
/// # #[tokio::main] async fn main() -> Result<(), Box<dyn std::error::Error>> {
/// let server = TestApiServer::builder().namespaces(["shop"]).start().await?;
/// server.create("configmaps", Some("shop"), fixtures::config_map("shop", "settings", 0))?;
///
/// // The namespace controller empties a deleted namespace in the background, then removes it.
/// server.delete("namespaces", None, "shop")?;
/// eventually("the deleted namespace to be gone", || {
///     server.get("namespaces", None, "shop").is_err()
/// })
/// .await;
/// assert!(server.get("configmaps", Some("shop"), "settings").is_err());
/// # server.shutdown().await;
/// # Ok(()) }
/// ```
pub async fn eventually(what: &str, mut cond: impl FnMut() -> bool) {
    let deadline = tokio::time::Instant::now() + TIMEOUT;
    while !cond() {
        assert!(
            tokio::time::Instant::now() < deadline,
            "timed out waiting for {what}"
        );
        tokio::time::sleep(POLL_INTERVAL).await;
    }
}
