//! The test API server in a child process (this same binary, `bench serve`), so the
//! server's heap and allocations never count in our memory figures.
//!
//! Protocol: the child prints `listening on URL`, then answers one line per command
//! read from stdin, each reply starting with `done` (or `error`):
//! - `modify M [RATE]`: M merge patches cycling over the seeded pods, each stamping the
//!   annotations [`SEQ_ANNOTATION`] and [`SENT_ANNOTATION`] (wall clock, ns), as fast as
//!   the server takes them or paced at RATE patches per second; reply
//!   `done modify M secs=S`. Slow (each patch parses, merges and re-encodes JSON): for
//!   latency at a steady rate, not for throughput.
//! - `prepare M`: builds M rewrites of the seeded pods (cycling over them; no
//!   annotations) without writing them; reply `done prepare M secs=S rv=R`, R the
//!   resourceVersion their events will follow. Any other write before `burst` voids them.
//! - `burst`: writes the prepared pods in one batch, so the M MODIFIED events reach the
//!   watches as fast as the server can stream them while it spends next to nothing on
//!   making them; reply `done burst M secs=S rv=R`, R the resourceVersion of the last one.
//! - `rv`: reply `done rv=R`, the latest resourceVersion handed out.
//! - `watches`: reply `done watches n=K`, the pod watches open on the server.
//! - `relist`: compacts the watch history and drops every watch, forcing clients to relist;
//! - `relist-changed`: keeps pod watchers out while every pod is patched, then as `relist`:
//!   the relist finds every pod changed;
//!   reply `done relist`.
//! - `soak-setup`, `soak-start`, `soak-stop`, `soak-state`: the soak's workload, random
//!   writes and faults in the child (see `sections::soak`).
//!
//! The child exits when its stdin closes.

use std::process::Stdio;
use std::time::Duration;

use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader, Lines};
use tokio::process::{Child, ChildStdin, ChildStdout, Command};

use crate::error::BenchError;

/// Annotation carrying the sequence number of a benchmark modification.
pub const SEQ_ANNOTATION: &str = "bench.informers.rs/seq";
/// Annotation carrying the wall-clock time (ns since the epoch) the server was asked to write.
pub const SENT_ANNOTATION: &str = "bench.informers.rs/sent-ns";

/// How the child server is seeded.
#[derive(Clone, Copy, Debug)]
pub struct ServerSpec {
    /// Pods to seed.
    pub pods: usize,
    /// Namespaces they spread over.
    pub namespaces: usize,
    /// Watch history window (events).
    pub history: usize,
}

/// A running child server.
pub struct ServerProcess {
    child: Child,
    stdin: ChildStdin,
    lines: Lines<BufReader<ChildStdout>>,
    url: String,
}

/// Generous limit for seeding and for one command.
const STEP_LIMIT: Duration = Duration::from_secs(600);
/// Limit for a client's watch to open, or for closed ones to be noticed.
const WATCH_LIMIT: Duration = Duration::from_secs(60);

impl ServerProcess {
    /// Starts `bench serve` seeded per `spec` and waits for its address.
    pub async fn start(spec: ServerSpec) -> Result<Self, BenchError> {
        Self::start_with(spec, &[]).await
    }

    /// [`start`](Self::start) with more `bench serve` flags (`--no-sharding`).
    pub async fn start_with(spec: ServerSpec, flags: &[&str]) -> Result<Self, BenchError> {
        let exe = std::env::current_exe()
            .map_err(|e| BenchError::Server(format!("locate own binary: {e}")))?;
        let mut child = Command::new(&exe)
            .arg("serve")
            .arg("--pods")
            .arg(spec.pods.to_string())
            .arg("--namespaces")
            .arg(spec.namespaces.to_string())
            .arg("--history")
            .arg(spec.history.to_string())
            .args(flags)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .kill_on_drop(true)
            .spawn()
            .map_err(|e| BenchError::Server(format!("spawn {} serve: {e}", exe.display())))?;
        let stdin = child
            .stdin
            .take()
            .ok_or_else(|| BenchError::Server("child has no stdin".into()))?;
        let stdout = child
            .stdout
            .take()
            .ok_or_else(|| BenchError::Server("child has no stdout".into()))?;
        let mut lines = BufReader::new(stdout).lines();
        let first = read_line(&mut lines, "startup").await?;
        let url = first
            .strip_prefix("listening on ")
            .ok_or_else(|| BenchError::Server(format!("unexpected first line {first:?}")))?
            .trim()
            .to_owned();
        Ok(Self {
            child,
            stdin,
            lines,
            url,
        })
    }

    /// The server's base URL, e.g. `http://127.0.0.1:34567`.
    pub fn url(&self) -> &str {
        &self.url
    }

    /// Sends one command and returns the child's `done ...` reply.
    pub async fn command(&mut self, command: &str) -> Result<String, BenchError> {
        self.stdin
            .write_all(format!("{command}\n").as_bytes())
            .await
            .map_err(|e| BenchError::Server(format!("send {command:?}: {e}")))?;
        self.stdin
            .flush()
            .await
            .map_err(|e| BenchError::Server(format!("send {command:?}: {e}")))?;
        let reply = read_line(&mut self.lines, command).await?;
        if reply.starts_with("done") {
            Ok(reply)
        } else {
            Err(BenchError::Server(format!(
                "{command:?} answered {reply:?}"
            )))
        }
    }

    /// The latest resourceVersion the server handed out.
    pub async fn resource_version(&mut self) -> Result<u64, BenchError> {
        let reply = self.command("rv").await?;
        reply_field(&reply, "rv")
            .ok_or_else(|| BenchError::Server(format!("no rv in the reply {reply:?}")))
    }

    /// Waits until exactly `n` pod watches are open on the server: a client's watch is
    /// registered (its events will not be missed or replayed from a list), and the watches
    /// of clients stopped earlier are gone (they would compete for the server's time).
    pub async fn wait_watches(&mut self, n: usize, who: &str) -> Result<(), BenchError> {
        let start = std::time::Instant::now();
        loop {
            let reply = self.command("watches").await?;
            let open: usize = reply_field(&reply, "n")
                .ok_or_else(|| BenchError::Server(format!("no n in the reply {reply:?}")))?;
            if open == n {
                return Ok(());
            }
            if start.elapsed() > WATCH_LIMIT {
                return Err(BenchError::Timeout(
                    format!("{who}: {n} open pod watches (the server has {open})"),
                    WATCH_LIMIT,
                ));
            }
            tokio::time::sleep(Duration::from_millis(5)).await;
        }
    }

    /// Closes the child's stdin and waits for it to exit.
    pub async fn stop(mut self) -> Result<(), BenchError> {
        drop(self.stdin);
        match tokio::time::timeout(Duration::from_secs(30), self.child.wait()).await {
            Ok(Ok(_)) => Ok(()),
            Ok(Err(e)) => Err(BenchError::Server(format!("wait for exit: {e}"))),
            Err(_) => self
                .child
                .kill()
                .await
                .map_err(|e| BenchError::Server(format!("kill after exit timeout: {e}"))),
        }
    }
}

async fn read_line(
    lines: &mut Lines<BufReader<ChildStdout>>,
    step: &str,
) -> Result<String, BenchError> {
    match tokio::time::timeout(STEP_LIMIT, lines.next_line()).await {
        Ok(Ok(Some(line))) => Ok(line),
        Ok(Ok(None)) => Err(BenchError::Server(format!("exited during {step:?}"))),
        Ok(Err(e)) => Err(BenchError::Server(format!("read reply to {step:?}: {e}"))),
        Err(_) => Err(BenchError::Timeout(
            format!("server step {step:?}"),
            STEP_LIMIT,
        )),
    }
}

/// A `key=value` field of a reply line, e.g. `secs` in `done modify 10 secs=0.5`.
pub fn reply_field<T: std::str::FromStr>(reply: &str, key: &str) -> Option<T> {
    reply
        .split_whitespace()
        .filter_map(|w| w.split_once('='))
        .find(|(k, _)| *k == key)
        .and_then(|(_, v)| v.parse().ok())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reply_fields_parse() {
        assert_eq!(
            reply_field("done modify 10 secs=0.5 rv=12", "secs"),
            Some(0.5)
        );
        assert_eq!(
            reply_field("done modify 10 secs=0.5 rv=12", "rv"),
            Some(12u64)
        );
        assert_eq!(reply_field::<f64>("done relist", "secs"), None);
        assert_eq!(reply_field::<u64>("done rv=1.5", "rv"), None);
    }
}
