//! `bench serve`: the test API server child (see `server_process` for the protocol).

use std::sync::Arc;
use std::time::{Duration, Instant};

use serde_json::json;
use test_apiserver::{fixtures, FaultTarget, PreparedPods, RunningServer, TestApiServer};
use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader};

use crate::cli::ServeArgs;
use crate::error::BenchError;
use crate::server_process::{SENT_ANNOTATION, SEQ_ANNOTATION};

fn server_err(step: &str, e: impl std::fmt::Display) -> BenchError {
    BenchError::Server(format!("{step}: {e}"))
}

/// Serves until stdin closes, answering commands.
pub async fn serve(args: ServeArgs) -> Result<(), BenchError> {
    let server = TestApiServer::builder()
        .seed_pods(args.pods)
        .seed_namespaces(args.namespaces)
        .history(args.history.max(1))
        .sharding(args.sharding)
        .start()
        .await
        .map_err(|e| server_err("start the test API server", e))?;
    let server = Arc::new(server);
    let mut out = tokio::io::stdout();
    reply(&mut out, &format!("listening on {}", server.url())).await?;
    let mut lines = BufReader::new(tokio::io::stdin()).lines();
    let mut seq = 0usize;
    let mut clock_ticks = 0usize;
    // Writes made by `prepare`, waiting for `burst`.
    let mut prepared: Option<PreparedPods> = None;
    let mut soak = crate::sections::soak::Child::default();
    while let Some(line) = lines
        .next_line()
        .await
        .map_err(|e| server_err("read command", e))?
    {
        let words: Vec<&str> = line.split_whitespace().collect();
        let answer = match words.as_slice() {
            ["modify", m] => run_modify(&server, &args, &mut seq, m, None).await?,
            ["modify", m, rate] => match rate.parse::<f64>() {
                Ok(r) if r.is_finite() && r > 0.0 => {
                    run_modify(&server, &args, &mut seq, m, Some(r)).await?
                }
                _ => format!("error bad rate {rate:?}"),
            },
            ["prepare", m] => match m.parse::<usize>() {
                Ok(m) => {
                    let s = server.clone();
                    let pods = args.pods.max(1);
                    let namespaces = args.namespaces.max(1);
                    let result = tokio::task::spawn_blocking(move || {
                        let start = Instant::now();
                        let p = s.prepare_pods(0..pods, namespaces, m);
                        (start.elapsed().as_secs_f64(), p)
                    })
                    .await
                    .map_err(|e| server_err("prepare task", e))?;
                    match result {
                        (secs, Ok(p)) => {
                            let rv = p.after_resource_version();
                            prepared = Some(p);
                            format!("done prepare {m} secs={secs} rv={rv}")
                        }
                        (_, Err(e)) => format!("error prepare: {e}"),
                    }
                }
                Err(_) => format!("error bad count {m:?}"),
            },
            ["burst"] => match prepared.take() {
                Some(p) => {
                    let s = server.clone();
                    let m = p.len();
                    let result = tokio::task::spawn_blocking(move || {
                        let start = Instant::now();
                        let rv = s.publish_pods(p);
                        (start.elapsed().as_secs_f64(), rv)
                    })
                    .await
                    .map_err(|e| server_err("burst task", e))?;
                    match result {
                        (secs, Ok(rv)) => format!("done burst {m} secs={secs} rv={rv}"),
                        (_, Err(e)) => format!("error burst: {e}"),
                    }
                }
                None => "error burst: nothing prepared".to_owned(),
            },
            ["rv"] => format!("done rv={}", server.resource_version()),
            ["watches"] => format!("done watches n={}", server.open_watches("pods")),
            ["relist"] => {
                clock_ticks += 1;
                match force_relist(&server, clock_ticks) {
                    Ok(()) => "done relist".to_owned(),
                    Err(e) => format!("error relist: {e}"),
                }
            }
            ["relist-changed"] => {
                // Watchers are kept out while every pod changes, so their relist finds
                // every pod at a new resourceVersion.
                clock_ticks += 1;
                let faults = server.faults();
                faults.fail_next(1_000, 503, FaultTarget::resource("pods").verb("watch"));
                faults.cut_watches();
                let pods = args.pods.to_string();
                let modified = run_modify(&server, &args, &mut seq, &pods, None).await?;
                faults.clear();
                match force_relist(&server, clock_ticks) {
                    Ok(()) if modified.starts_with("done") => "done relist-changed".to_owned(),
                    Ok(()) => modified,
                    Err(e) => format!("error relist-changed: {e}"),
                }
            }
            [first, ..] if first.starts_with("soak-") => soak.command(&server, &words).await,
            _ => format!("error unknown command {line:?}"),
        };
        reply(&mut out, &answer).await?;
    }
    if let Ok(server) = Arc::try_unwrap(server) {
        server.shutdown().await;
    }
    Ok(())
}

async fn reply(out: &mut tokio::io::Stdout, line: &str) -> Result<(), BenchError> {
    out.write_all(format!("{line}\n").as_bytes())
        .await
        .map_err(|e| server_err("write reply", e))?;
    out.flush().await.map_err(|e| server_err("write reply", e))
}

/// Answers `modify M [RATE]`: runs [`modify`] off the async runtime, numbering the
/// patches after those of earlier commands.
async fn run_modify(
    server: &Arc<RunningServer>,
    args: &ServeArgs,
    seq: &mut usize,
    m: &str,
    rate: Option<f64>,
) -> Result<String, BenchError> {
    let Ok(m) = m.parse::<usize>() else {
        return Ok(format!("error bad count {m:?}"));
    };
    let s = server.clone();
    let first = *seq;
    *seq += m;
    let pods = args.pods.max(1);
    let namespaces = args.namespaces.max(1);
    let result = tokio::task::spawn_blocking(move || modify(&s, first, m, pods, namespaces, rate))
        .await
        .map_err(|e| server_err("modify task", e))?;
    Ok(match result {
        Ok(secs) => format!("done modify {m} secs={secs}"),
        Err(e) => format!("error modify: {e}"),
    })
}

/// `m` merge patches over the seeded pods (`pod-{i}` in `ns-{i % namespaces}`), as fast
/// as the server takes them, or paced at `rate` patches per second (on a fixed schedule,
/// so a late patch does not shift the ones after it). Returns the seconds it took.
fn modify(
    server: &RunningServer,
    first: usize,
    m: usize,
    pods: usize,
    namespaces: usize,
    rate: Option<f64>,
) -> Result<f64, BenchError> {
    let start = Instant::now();
    for (k, seq) in (first..first + m).enumerate() {
        if let Some(rate) = rate {
            let offset = Duration::try_from_secs_f64(k as f64 / rate)
                .map_err(|e| server_err(&format!("schedule patch {k} at {rate}/s"), e))?;
            let due = start + offset;
            let now = Instant::now();
            if due > now {
                std::thread::sleep(due - now);
            }
        }
        let i = seq % pods;
        let ns = format!("ns-{}", i % namespaces);
        let patch = json!({"metadata": {"annotations": {
            SEQ_ANNOTATION: seq.to_string(),
            SENT_ANNOTATION: crate::sections::now_ns().to_string(),
        }}});
        server
            .patch_merge("pods", Some(&ns), &format!("pod-{i}"), patch)
            .map_err(|e| server_err(&format!("patch pod-{i} in {ns}"), e))?;
    }
    Ok(start.elapsed().as_secs_f64())
}

/// Makes every pod watcher relist: a write to another resource moves the global
/// resourceVersion past what pod watchers have seen, the pod history is compacted to it,
/// and their connections are cut, so their re-watch gets 410 Expired.
fn force_relist(server: &RunningServer, tick: usize) -> Result<(), BenchError> {
    server
        .create(
            "configmaps",
            Some("ns-0"),
            fixtures::config_map("ns-0", &format!("bench-clock-{tick}"), tick),
        )
        .map_err(|e| server_err("create a configmap to move the clock", e))?;
    let faults = server.faults();
    faults.compact_history();
    faults.cut_watches();
    Ok(())
}
