//! Watch throughput: M MODIFIED events written by the server child as fast as it can,
//! applied to the cache and delivered to 1 and to 10 handlers; latency from the server
//! being asked to write (wall clock stamped in an annotation) to the handler.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use k8s_openapi::api::core::v1::Pod;

use super::{now_ns, quantile, wait_until, Ctx};
use crate::error::BenchError;
use crate::kube_baseline::KubeReflector;
use crate::ours::{Ours, OursOptions};
use crate::results::{Record, Target};
use crate::server_process::{
    reply_field, ServerProcess, ServerSpec, SENT_ANNOTATION, SEQ_ANNOTATION,
};

const SECTION: &str = "watch";
const PODS: usize = 1_000;
const DELIVERY_LIMIT: Duration = Duration::from_secs(600);

/// What one run saw.
struct Run {
    events_per_s: f64,
    p50_ms: f64,
    p99_ms: f64,
    server_events_per_s: f64,
}

/// Counts benchmark updates per handler and samples handler 0's latency.
struct Probe {
    counts: Vec<AtomicUsize>,
    latencies_ns: Mutex<Vec<u64>>,
}

impl Probe {
    fn new(handlers: usize, m: usize) -> Arc<Self> {
        Arc::new(Self {
            counts: (0..handlers).map(|_| AtomicUsize::new(0)).collect(),
            latencies_ns: Mutex::new(Vec::with_capacity(m)),
        })
    }

    fn seen(&self, handler: usize, pod: &Pod) {
        let Some(annotations) = pod.metadata.annotations.as_ref() else {
            return;
        };
        if !annotations.contains_key(SEQ_ANNOTATION) {
            return;
        }
        if let Some(c) = self.counts.get(handler) {
            c.fetch_add(1, Ordering::Relaxed);
        }
        if handler == 0 {
            if let Some(sent) = annotations
                .get(SENT_ANNOTATION)
                .and_then(|s| s.parse::<u64>().ok())
            {
                if let Ok(mut l) = self.latencies_ns.lock() {
                    l.push(now_ns().saturating_sub(sent));
                }
            }
        }
    }

    fn all_reached(&self, m: usize) -> bool {
        self.counts.iter().all(|c| c.load(Ordering::Relaxed) >= m)
    }

    fn latency_ms(&self) -> (f64, f64) {
        let mut l = self
            .latencies_ns
            .lock()
            .map(|l| l.clone())
            .unwrap_or_default();
        let p50 = quantile(&mut l, 0.5).unwrap_or_default() as f64 / 1e6;
        let p99 = quantile(&mut l, 0.99).unwrap_or_default() as f64 / 1e6;
        (p50, p99)
    }
}

/// Sends `modify m` and waits until every handler of `probe` has seen m updates.
async fn drive(
    server: &mut ServerProcess,
    probe: &Probe,
    m: usize,
    who: &str,
) -> Result<Run, BenchError> {
    let start = Instant::now();
    let reply = server.command(&format!("modify {m}")).await?;
    wait_until(
        &format!("{who}: delivery of {m} watch events"),
        DELIVERY_LIMIT,
        || probe.all_reached(m),
    )
    .await?;
    let secs = start.elapsed().as_secs_f64();
    let (p50_ms, p99_ms) = probe.latency_ms();
    let server_secs = reply_field(&reply, "secs").unwrap_or(secs);
    Ok(Run {
        events_per_s: m as f64 / secs,
        p50_ms,
        p99_ms,
        server_events_per_s: m as f64 / server_secs.max(1e-9),
    })
}

async fn ours(server: &mut ServerProcess, m: usize, handlers: usize) -> Result<Run, BenchError> {
    let probe = Probe::new(handlers, m);
    let p = probe.clone();
    let ours = Ours::start(
        server.url(),
        &OursOptions {
            handlers,
            on_update: Some(Arc::new(move |i, pod| p.seen(i, pod))),
            ..Default::default()
        },
    )?;
    ours.wait_synced().await?;
    let run = drive(server, &probe, m, &format!("ours, {handlers} handlers")).await;
    ours.stop().await;
    run
}

async fn kube(server: &mut ServerProcess, m: usize) -> Result<Run, BenchError> {
    let probe = Probe::new(1, m);
    let p = probe.clone();
    let kube = KubeReflector::start(server.url(), Some(Arc::new(move |pod| p.seen(0, pod))))?;
    kube.wait_synced().await?;
    let run = drive(server, &probe, m, "kube-rs").await;
    kube.stop().await;
    run
}

/// Runs the section.
pub async fn run(ctx: Ctx) -> Result<Vec<Record>, BenchError> {
    let m = if ctx.quick { 5_000 } else { 100_000 };
    let mut server = ServerProcess::start(ServerSpec {
        pods: PODS,
        namespaces: 1,
        history: m + PODS,
    })
    .await?;
    let result = measure(&mut server, m).await;
    server.stop().await?;
    result
}

async fn measure(server: &mut ServerProcess, m: usize) -> Result<Vec<Record>, BenchError> {
    let kube = kube(server, m).await?;
    let one = ours(server, m, 1).await?;
    let ten = ours(server, m, 10).await?;
    let p = format!("watch.m{m}");
    let server_rate = one
        .server_events_per_s
        .min(ten.server_events_per_s)
        .min(kube.server_events_per_s);
    Ok(vec![
        Record::new(
            SECTION,
            format!("{p}.server_write_rate"),
            server_rate,
            "events/s",
        )
        .note("the slowest rate the server child wrote at; no client can go faster"),
        Record::new(
            SECTION,
            format!("{p}.kube-rs"),
            kube.events_per_s,
            "events/s",
        ),
        Record::new(
            SECTION,
            format!("{p}.ours_1_handler"),
            one.events_per_s,
            "events/s",
        )
        .against("kube-rs", kube.events_per_s)
        .target(Target::value_at_least(200_000.0)),
        Record::new(
            SECTION,
            format!("{p}.ours_1_handler_vs_kube-rs"),
            one.events_per_s,
            "events/s",
        )
        .against("kube-rs", kube.events_per_s)
        .target(Target::ratio_at_least(2.0)),
        Record::new(
            SECTION,
            format!("{p}.ours_10_handlers"),
            ten.events_per_s,
            "events/s",
        )
        .against("ours, 1 handler", one.events_per_s)
        .target(Target::ratio_at_least(0.5))
        .note("10 handlers cost <= 2x one handler, i.e. keep >= 0.5x its rate"),
        Record::new(SECTION, format!("{p}.ours_1_handler_p50"), one.p50_ms, "ms")
            .against("kube-rs", kube.p50_ms),
        Record::new(SECTION, format!("{p}.ours_1_handler_p99"), one.p99_ms, "ms")
            .against("kube-rs", kube.p99_ms),
        Record::new(
            SECTION,
            format!("{p}.ours_10_handlers_p50"),
            ten.p50_ms,
            "ms",
        )
        .against("kube-rs", kube.p50_ms),
        Record::new(
            SECTION,
            format!("{p}.ours_10_handlers_p99"),
            ten.p99_ms,
            "ms",
        )
        .against("kube-rs", kube.p99_ms),
    ])
}
