//! The controller work queue: add+get+done throughput with 1 and 8 workers against a
//! plain tokio mpsc channel in the same run, and event-to-reconcile latency at a steady
//! 1,000 events/s from the test API server.
//!
//! - **throughput**: one producer adds M distinct keys while the workers take each one
//!   and mark it done at once, so the figure is the queue's own cost per item (dedup
//!   set, one-worker-per-key set, metrics) next to a channel that has none of it. With 8
//!   workers the channel's receiver sits behind a tokio `Mutex`, the usual way to share
//!   one.
//! - **latency**: merge patches paced at 1,000/s by the server child, each stamped with
//!   the wall clock, flow through a pods informer → `enqueue` → the work queue → a
//!   `Controller` with 2 workers whose reconcile reads the pod from the informer's cache
//!   and takes its stamp. A plain handler on the same informer stamps the same events on
//!   delivery: the baseline, so the difference is what the queue and the workers add.
//! - **read your writes**: the same run again with [`ReadYourWrites`] on, each reconcile
//!   recording the pod version it read as its write, so every later reconcile of that key
//!   first checks that the cache holds it (what a controller that writes status pays when its
//!   cache is current). Off and on alternate; the best p50 of each counts.

use std::collections::HashSet;
use std::convert::Infallible;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use informer_controller::workqueue::{Config, WorkQueue};
use informer_controller::{enqueue, Action, Controller, ObjectRef, ReadYourWrites};
use informer_runtime::client::Config as ClientConfig;
use informer_runtime::resource_version::ResourceVersionOrder;
use informer_runtime::{Client, InformerFactory, ResourceEventHandlerFuncs};
use informers::SharedInformerFactory;
use k8s_openapi::api::core::v1::Pod;
use tokio::sync::mpsc;
use tokio_util::sync::CancellationToken;

use super::{now_ns, quantile, wait_until, Ctx};
use crate::error::BenchError;
use crate::results::{Record, Target};
use crate::server_process::{ServerProcess, ServerSpec, SENT_ANNOTATION};

const SECTION: &str = "workqueue";
/// Pods the paced patches cycle over.
const PODS: usize = 1_000;
/// Paced patches per second for the latency run.
const LATENCY_RATE: usize = 1_000;
/// Reconcile workers of the latency run.
const LATENCY_WORKERS: usize = 2;
const LIMIT: Duration = Duration::from_secs(600);

/// How much each part of the section does.
#[derive(Clone, Copy, Debug)]
struct Sizes {
    /// Keys per throughput run.
    m: u64,
    /// Throughput runs per client; the fastest counts, as the machine is shared and noisy.
    rounds: usize,
    /// Paced patches in the latency run.
    latency_writes: usize,
}

impl Sizes {
    fn new(quick: bool) -> Self {
        if quick {
            Self {
                m: 100_000,
                rounds: 1,
                latency_writes: 200,
            }
        } else {
            Self {
                m: 1_000_000,
                rounds: 3,
                latency_writes: 2_000,
            }
        }
    }
}

/// Adds `m` keys from one task while `workers` take and finish them; keys per second.
async fn queue_rate(m: u64, workers: usize) -> Result<f64, BenchError> {
    let queue = WorkQueue::<u64>::with_config(Config::default().name("bench"));
    let processed = Arc::new(AtomicU64::new(0));
    let start = Instant::now();
    let tasks: Vec<_> = (0..workers)
        .map(|_| {
            let (queue, processed) = (queue.clone(), processed.clone());
            tokio::spawn(async move {
                while let Some(key) = queue.get().await {
                    queue.done(&key);
                    if processed.fetch_add(1, Ordering::Relaxed) + 1 == m {
                        queue.shut_down();
                    }
                }
            })
        })
        .collect();
    for key in 0..m {
        queue.add(key);
        if key % 1024 == 0 {
            tokio::task::yield_now().await;
        }
    }
    for t in tasks {
        t.await
            .map_err(|e| BenchError::Server(format!("work queue worker task: {e}")))?;
    }
    let secs = start.elapsed().as_secs_f64();
    let done = processed.load(Ordering::Relaxed);
    if done != m {
        return Err(BenchError::Server(format!(
            "work queue handed out {done} of {m} keys"
        )));
    }
    Ok(m as f64 / secs.max(1e-9))
}

/// The same load over a tokio unbounded mpsc channel; keys per second.
async fn channel_rate(m: u64, workers: usize) -> Result<f64, BenchError> {
    let (tx, rx) = mpsc::unbounded_channel::<u64>();
    let processed = Arc::new(AtomicU64::new(0));
    let start = Instant::now();
    let tasks: Vec<_> = if workers == 1 {
        let processed = processed.clone();
        let mut rx = rx;
        vec![tokio::spawn(async move {
            while let Some(key) = rx.recv().await {
                std::hint::black_box(key);
                processed.fetch_add(1, Ordering::Relaxed);
            }
        })]
    } else {
        let rx = Arc::new(tokio::sync::Mutex::new(rx));
        (0..workers)
            .map(|_| {
                let (rx, processed) = (rx.clone(), processed.clone());
                tokio::spawn(async move {
                    loop {
                        let next = rx.lock().await.recv().await;
                        let Some(key) = next else { break };
                        std::hint::black_box(key);
                        processed.fetch_add(1, Ordering::Relaxed);
                    }
                })
            })
            .collect()
    };
    for key in 0..m {
        tx.send(key)
            .map_err(|_| BenchError::Server("mpsc receiver gone".into()))?;
        if key % 1024 == 0 {
            tokio::task::yield_now().await;
        }
    }
    drop(tx);
    for t in tasks {
        t.await
            .map_err(|e| BenchError::Server(format!("mpsc worker task: {e}")))?;
    }
    let secs = start.elapsed().as_secs_f64();
    Ok(processed.load(Ordering::Relaxed) as f64 / secs.max(1e-9))
}

/// Where the latency run's handler and reconciles report: stamps of pods whose
/// resourceVersion is above the armed one, each resourceVersion counted once.
struct Probe {
    above_rv: AtomicU64,
    handler_ns: Mutex<Vec<u64>>,
    reconcile_ns: Mutex<Vec<u64>>,
    reconciled_rvs: Mutex<HashSet<u64>>,
    max_reconciled_rv: AtomicU64,
}

fn rv_and_sent(pod: &Pod) -> Option<(u64, u64)> {
    let rv = pod.metadata.resource_version.as_deref()?.parse().ok()?;
    let sent = pod
        .metadata
        .annotations
        .as_ref()?
        .get(SENT_ANNOTATION)?
        .parse()
        .ok()?;
    Some((rv, sent))
}

impl Probe {
    fn new() -> Arc<Self> {
        Arc::new(Self {
            above_rv: AtomicU64::new(u64::MAX),
            handler_ns: Mutex::new(Vec::new()),
            reconcile_ns: Mutex::new(Vec::new()),
            reconciled_rvs: Mutex::new(HashSet::new()),
            max_reconciled_rv: AtomicU64::new(0),
        })
    }

    fn counted(&self, pod: &Pod) -> Option<(u64, u64)> {
        let (rv, sent) = rv_and_sent(pod)?;
        (rv > self.above_rv.load(Ordering::Acquire)).then_some((rv, now_ns().saturating_sub(sent)))
    }

    fn delivered(&self, pod: &Pod) {
        if let (Some((_, ns)), Ok(mut l)) = (self.counted(pod), self.handler_ns.lock()) {
            l.push(ns);
        }
    }

    fn reconciled(&self, pod: &Pod) {
        let Some((rv, ns)) = self.counted(pod) else {
            return;
        };
        let fresh = self
            .reconciled_rvs
            .lock()
            .map(|mut s| s.insert(rv))
            .unwrap_or(false);
        if fresh {
            if let Ok(mut l) = self.reconcile_ns.lock() {
                l.push(ns);
            }
            self.max_reconciled_rv.fetch_max(rv, Ordering::AcqRel);
        }
    }

    fn count(samples: &Mutex<Vec<u64>>) -> usize {
        samples.lock().map(|l| l.len()).unwrap_or_default()
    }

    fn p50_p99_ms(samples: &Mutex<Vec<u64>>) -> (f64, f64) {
        let mut l = samples.lock().map(|l| l.clone()).unwrap_or_default();
        let p50 = quantile(&mut l, 0.5).unwrap_or_default() as f64 / 1e6;
        let p99 = quantile(&mut l, 0.99).unwrap_or_default() as f64 / 1e6;
        (p50, p99)
    }
}

fn informer_err(reason: impl ToString) -> BenchError {
    BenchError::Informer {
        who: "work queue latency run".into(),
        reason: reason.to_string(),
    }
}

/// What the latency run measured.
struct Latency {
    handler: (f64, f64),
    reconcile: (f64, f64),
    reconciled: usize,
}

async fn latency(
    server: &mut ServerProcess,
    writes: usize,
    read_your_writes: bool,
) -> Result<Latency, BenchError> {
    let who = "work queue latency run";
    server.wait_watches(0, who).await?;
    let client = Client::new(ClientConfig::new(server.url())).map_err(informer_err)?;
    let factory = SharedInformerFactory::builder(client).build();
    let informer = factory.core().v1().pods().informer();
    let probe = Probe::new();
    let p = probe.clone();
    informer.add_event_handler(
        ResourceEventHandlerFuncs::default()
            .on_update(move |_old, new: &Arc<Pod>| p.delivered(new)),
    );
    let queue = WorkQueue::<ObjectRef>::with_config(Config::default().name("pods"));
    informer.add_event_handler(enqueue(queue.clone()));
    factory.start();
    let cancel = CancellationToken::new();
    let indexer = informer.indexer();
    let p = probe.clone();
    let writes_seen = read_your_writes
        .then(|| ReadYourWrites::new(ResourceVersionOrder::Comparable).reads(&informer));
    let recorder = writes_seen.clone();
    let mut controller = Controller::new(queue.clone(), move |key: ObjectRef| {
        if let Some(pod) = indexer.get_by_key(&key.to_string()) {
            p.reconciled(&pod);
            if let Some(recorder) = &recorder {
                recorder.wrote(&key, pod.as_ref());
            }
        }
        async { Ok::<_, Infallible>(Action::Done) }
    })
    .workers(LATENCY_WORKERS)
    .wait_for(informer.clone());
    if let Some(writes) = writes_seen {
        controller = controller.read_your_writes(writes);
    }
    let controller = tokio::spawn(controller.run(cancel.clone()));
    let run = async {
        match tokio::time::timeout(LIMIT, factory.wait_for_cache_sync()).await {
            Ok(r) => r.map_err(informer_err)?,
            Err(_) => return Err(BenchError::Timeout("pods informer sync".into(), LIMIT)),
        }
        server.wait_watches(1, who).await?;
        let rv = server.resource_version().await?;
        probe.above_rv.store(rv, Ordering::Release);
        let last_rv = rv + writes as u64;
        server
            .command(&format!("modify {writes} {LATENCY_RATE}"))
            .await?;
        // Every write reconciled, or (should two writes to one pod merge in the queue) the
        // last one reconciled and nothing left in the queue.
        wait_until(
            &format!("{who}: {writes} paced patches reconciled"),
            LIMIT,
            || {
                let s = queue.stats();
                Probe::count(&probe.reconcile_ns) >= writes
                    || (probe.max_reconciled_rv.load(Ordering::Acquire) >= last_rv
                        && s.depth + s.in_flight == 0)
            },
        )
        .await?;
        wait_until(&format!("{who}: {writes} patches delivered"), LIMIT, || {
            Probe::count(&probe.handler_ns) >= writes
        })
        .await?;
        Ok(())
    }
    .await;
    cancel.cancel();
    let stopped = controller.await;
    factory.shutdown().await;
    run?;
    stopped
        .map_err(|e| informer_err(format!("controller task: {e}")))?
        .map_err(informer_err)?;
    Ok(Latency {
        handler: Probe::p50_p99_ms(&probe.handler_ns),
        reconcile: Probe::p50_p99_ms(&probe.reconcile_ns),
        reconciled: Probe::count(&probe.reconcile_ns),
    })
}

/// Runs the section.
pub async fn run(ctx: Ctx) -> Result<Vec<Record>, BenchError> {
    let sizes = Sizes::new(ctx.quick);
    let m = sizes.m;
    let rounds = sizes.rounds;
    let mut records = Vec::new();
    for workers in [1, 8] {
        let (mut ours, mut channel) = (0.0f64, 0.0f64);
        for _ in 0..rounds {
            channel = channel.max(channel_rate(m, workers).await?);
            ours = ours.max(queue_rate(m, workers).await?);
        }
        let (name, baseline) = if workers == 1 {
            ("1_worker", "tokio mpsc")
        } else {
            ("8_workers", "tokio mpsc, receiver behind a Mutex")
        };
        records.push(
            Record::new(SECTION, format!("workqueue.m{m}.{name}"), ours, "keys/s")
                .against(baseline, channel)
                .note(format!(
                    "{m} distinct keys added by one task, get+done by {workers} worker task(s); best of {rounds}"
                )),
        );
    }

    let l = sizes.latency_writes;
    let runs = if ctx.quick { 1 } else { 2 };
    let mut server = ServerProcess::start(ServerSpec {
        pods: PODS,
        namespaces: 1,
        history: 2 * runs * l + PODS + 1_000,
    })
    .await?;
    let measured = async {
        let (mut off, mut on): (Option<Latency>, Option<Latency>) = (None, None);
        for _ in 0..runs {
            let o = latency(&mut server, l, false).await?;
            if off.as_ref().is_none_or(|b| o.reconcile.0 < b.reconcile.0) {
                off = Some(o);
            }
            let o = latency(&mut server, l, true).await?;
            if on.as_ref().is_none_or(|b| o.reconcile.0 < b.reconcile.0) {
                on = Some(o);
            }
        }
        match (off, on) {
            (Some(off), Some(on)) => Ok((off, on)),
            _ => Err(informer_err("no latency run")),
        }
    }
    .await;
    server.stop().await?;
    let (lat, ryw) = measured?;
    let p = format!("workqueue.paced{LATENCY_RATE}");
    records.extend([
        Record::new(SECTION, format!("{p}.reconcile_p50"), lat.reconcile.0, "ms")
            .against("handler on the same informer", lat.handler.0)
            .note(format!(
                "{l} merge patches paced at {LATENCY_RATE}/s: server write → informer → enqueue → work queue → reconcile ({LATENCY_WORKERS} workers) reading the pod from the cache; {} reconciles sampled",
                lat.reconciled
            )),
        Record::new(SECTION, format!("{p}.reconcile_p99"), lat.reconcile.1, "ms")
            .against("handler on the same informer", lat.handler.1),
        Record::new(
            SECTION,
            format!("{p}.read_your_writes_p50"),
            ryw.reconcile.0,
            "ms",
        )
        .against("read-your-writes off", lat.reconcile.0)
        .target(Target::ratio_at_most(1.1))
        .note(format!(
            "the same run with ReadYourWrites on, every reconcile recording the pod version it read as its write; best p50 of {runs} alternating runs each; {} reconciles sampled",
            ryw.reconciled
        )),
        Record::new(
            SECTION,
            format!("{p}.read_your_writes_p99"),
            ryw.reconcile.1,
            "ms",
        )
        .against("read-your-writes off", lat.reconcile.1),
    ]);
    // Warm vs cold standby (issue 33): the time from winning the Lease to the first
    // reconcile, the Lease wait itself excluded.
    let foos = if ctx.quick { 500 } else { 10_000 };
    let takeover = super::controller_takeover::controller_takeover(foos)
        .await
        .map_err(|e| BenchError::Informer {
            who: "controller takeover".to_owned(),
            reason: e.to_string(),
        })?;
    records.push(
        Record::new(
            SECTION,
            format!("workqueue.takeover.n{foos}.warm"),
            takeover.warm.takeover.as_secs_f64() * 1e3,
            "ms",
        )
        .against("cold standby", takeover.cold.takeover.as_secs_f64() * 1e3)
        .target(Target::ratio_at_most(0.2))
        .note(format!(
            "{foos} Foos; from acquiring the Lease to the first reconcile (lease waits: warm {:?}, cold {:?}, excluded)",
            takeover.warm.lease_wait, takeover.cold.lease_wait
        )),
    );
    Ok(records)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn both_throughput_loads_hand_out_every_key() {
        for workers in [1, 8] {
            assert!(queue_rate(2_000, workers).await.unwrap() > 0.0);
            assert!(channel_rate(2_000, workers).await.unwrap() > 0.0);
        }
    }

    #[test]
    fn the_probe_counts_each_resource_version_once_above_the_armed_one() {
        let probe = Probe::new();
        let pod = |rv: u64| {
            let mut pod = Pod::default();
            pod.metadata.resource_version = Some(rv.to_string());
            pod.metadata.annotations =
                Some([(SENT_ANNOTATION.to_owned(), now_ns().to_string())].into());
            pod
        };
        probe.reconciled(&pod(5));
        assert_eq!(
            Probe::count(&probe.reconcile_ns),
            0,
            "nothing counts before arming"
        );
        probe.above_rv.store(10, Ordering::Release);
        for rv in [9, 10, 11, 11, 12] {
            probe.reconciled(&pod(rv));
            probe.delivered(&pod(rv));
        }
        assert_eq!(Probe::count(&probe.reconcile_ns), 2);
        assert_eq!(Probe::count(&probe.handler_ns), 3);
        assert_eq!(probe.max_reconciled_rv.load(Ordering::Acquire), 12);
    }
}
