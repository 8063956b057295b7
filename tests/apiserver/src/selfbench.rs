//! `--self-bench`: the server's own throughput over loopback HTTP, so benchmark readers
//! can see it is not the bottleneck. Not a timed test; a report.

use std::fmt;
use std::time::{Duration, Instant};

use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;

use crate::error::Error;
use crate::fixtures;
use crate::server::TestApiServer;

/// Rates measured by [`run`].
#[derive(Clone, Debug)]
pub struct SelfBenchReport {
    /// Pods seeded.
    pub pods: usize,
    /// Time to seed them.
    pub seed: Duration,
    /// Bytes of the full list response.
    pub list_bytes: usize,
    /// Time to read a full `resourceVersion=0` list of every Pod.
    pub list: Duration,
    /// Watch events read.
    pub events: usize,
    /// Time from the first write to reading the last event.
    pub watch: Duration,
}

fn per_sec(n: usize, d: Duration) -> f64 {
    n as f64 / d.as_secs_f64().max(1e-9)
}

impl fmt::Display for SelfBenchReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "test-apiserver self-bench ({} pods)", self.pods)?;
        writeln!(
            f,
            "  seed : {:>10.0} objects/s ({:.2?})",
            per_sec(self.pods, self.seed),
            self.seed
        )?;
        writeln!(
            f,
            "  list : {:>10.0} objects/s, {:.0} MB/s ({:.2?}, {} bytes)",
            per_sec(self.pods, self.list),
            per_sec(self.list_bytes, self.list) / 1e6,
            self.list,
            self.list_bytes
        )?;
        write!(
            f,
            "  watch: {:>10.0} events/s ({} events in {:.2?})",
            per_sec(self.events, self.watch),
            self.events,
            self.watch
        )
    }
}

fn io_err(what: &str) -> impl Fn(std::io::Error) -> Error + '_ {
    move |source| Error::Io {
        context: format!("self-bench {what}"),
        source,
    }
}

/// Seeds `pods` Pods, lists them all over HTTP, then streams as many ConfigMap writes
/// (at most 100 000) through a watch, and reports the rates.
pub async fn run(pods: usize) -> Result<SelfBenchReport, Error> {
    let started = Instant::now();
    let server = TestApiServer::builder()
        .seed_pods(pods)
        .seed_namespaces(10)
        .history(pods.max(1000))
        .start()
        .await?;
    let seed = started.elapsed();
    let addr = server.addr();

    let t = Instant::now();
    let mut conn = TcpStream::connect(addr)
        .await
        .map_err(io_err("list connection"))?;
    conn.write_all(
        b"GET /api/v1/pods?resourceVersion=0 HTTP/1.1\r\nHost: bench\r\nConnection: close\r\n\r\n",
    )
    .await
    .map_err(io_err("list request"))?;
    let mut body = Vec::new();
    conn.read_to_end(&mut body)
        .await
        .map_err(io_err("list response"))?;
    let list = t.elapsed();

    let events = pods.clamp(1, 100_000);
    let mut watch = TcpStream::connect(addr)
        .await
        .map_err(io_err("watch connection"))?;
    let rv = server.resource_version();
    let req = format!(
        "GET /api/v1/configmaps?watch=1&resourceVersion={rv} HTTP/1.1\r\nHost: bench\r\n\r\n"
    );
    watch
        .write_all(req.as_bytes())
        .await
        .map_err(io_err("watch request"))?;
    let t = Instant::now();
    let writer = {
        let values: Vec<_> = (0..events)
            .map(|i| fixtures::config_map("bench", &format!("cm-{i}"), i))
            .collect();
        let server_ref = &server;
        async move {
            for v in values {
                if server_ref.create("configmaps", Some("bench"), v).is_err() {
                    break;
                }
                tokio::task::yield_now().await;
            }
        }
    };
    let reader = async {
        let mut seen = 0usize;
        let mut buf = vec![0u8; 256 * 1024];
        let needle = b"\"type\":\"ADDED\"";
        let mut carry: Vec<u8> = Vec::new();
        while seen < events {
            let n = watch.read(&mut buf).await.map_err(io_err("watch stream"))?;
            if n == 0 {
                break;
            }
            carry.extend_from_slice(&buf[..n]);
            seen += carry.windows(needle.len()).filter(|w| w == needle).count();
            let keep = carry.len().saturating_sub(needle.len() - 1);
            carry.drain(..keep);
        }
        Ok::<usize, Error>(seen)
    };
    let ((), seen) = tokio::join!(writer, reader);
    let watch_time = t.elapsed();
    let report = SelfBenchReport {
        pods,
        seed,
        list_bytes: body.len(),
        list,
        events: seen?,
        watch: watch_time,
    };
    server.shutdown().await;
    Ok(report)
}
