//! `bench soak`: one factory with Pods, ConfigMaps and a CRD (`widgets.example.com`) runs
//! for minutes against the test server child while the child writes at random (updates,
//! and deletes each followed by a create, so every population stays the same size) and
//! injects every fault it has: dropped and cut watches, compaction (410s), 429/500/503,
//! stalls, malformed watch lines, lists cut mid-body and server restarts.
//!
//! Every informer has two handlers that replay what they are told into their own map and
//! check each object's sequence (Add of an unknown object, Update whose `old` is exactly
//! what the handler saw last, Delete of a known one): an unbounded one, and a coalescing
//! one slower than the event rate. At the end, once the writes and faults have stopped,
//! every cache and every handler's map must equal the server's state exactly.
//!
//! Heap and handler queue depths are sampled over time; the heap once everything has
//! converged must stay within 1.1x of the heap after the first sync, at the same object
//! counts: nothing may grow per relist or reconnect.
//!
//! The child side (`soak-*` commands of `bench serve`) lives here too, next to the client
//! side it serves.

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use informer_runtime::client::Config;
use informer_runtime::dynamic::ResourceObject as _;
use informer_runtime::handler::HandlerOptions;
use informer_runtime::object::{object_key, Meta as _};
use informer_runtime::{
    ApiResource, Client, Deleted, DynamicObject, HandlerRegistration, InformerFactory,
    InformerStats, Object, ResourceEventHandler, SharedIndexInformer,
};
use informers::SharedInformerFactory;
use rand::rngs::StdRng;
use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};
use serde_json::{json, Value};
use test_apiserver::{fixtures, FaultTarget, RunningServer};
use tokio::task::JoinHandle;
use tokio_util::sync::CancellationToken;

use super::{settle, Ctx};
use crate::alloc::live_bytes;
use crate::error::BenchError;
use crate::results::{Record, Series, Target};
use crate::server_process::{reply_field, ServerProcess, ServerSpec};

const SECTION: &str = "soak";
const NAMESPACES: usize = 10;
/// The resources soaked, as the child names them.
const RESOURCES: [&str; 3] = ["pods", "configmaps", "widgets.example.com"];
const MIB: f64 = 1024.0 * 1024.0;

/// Sizes and rates of one soak.
#[derive(Clone, Copy, Debug)]
struct Plan {
    duration: Duration,
    pods: usize,
    config_maps: usize,
    widgets: usize,
    /// Watch history per resource: small, so re-watches after faults often get 410.
    history: usize,
    writes_per_sec: u32,
    /// Mean time between two faults.
    fault_every: Duration,
    sample_every: Duration,
    /// What each callback of the coalescing handlers costs.
    slow_cost: Duration,
}

impl Plan {
    fn for_ctx(ctx: Ctx) -> Self {
        let minutes = ctx.soak_minutes;
        if ctx.quick && minutes.is_none() {
            return Self {
                duration: Duration::from_secs(30),
                pods: 300,
                config_maps: 200,
                widgets: 200,
                history: 400,
                writes_per_sec: 150,
                fault_every: Duration::from_millis(1500),
                sample_every: Duration::from_millis(500),
                slow_cost: Duration::from_millis(30),
            };
        }
        Self {
            duration: Duration::from_secs_f64(minutes.unwrap_or(10.0).max(0.1) * 60.0),
            pods: 2_000,
            config_maps: 1_000,
            widgets: 1_000,
            history: 2_000,
            writes_per_sec: 200,
            fault_every: Duration::from_secs(4),
            sample_every: Duration::from_secs(2),
            slow_cost: Duration::from_millis(20),
        }
    }

    fn objects(&self) -> usize {
        self.pods + self.config_maps + self.widgets
    }
}

/// Runs the soak and returns its records.
pub async fn run(ctx: Ctx) -> Result<Vec<Record>, BenchError> {
    let plan = Plan::for_ctx(ctx);
    let mut server = ServerProcess::start(ServerSpec {
        pods: plan.pods,
        namespaces: NAMESPACES,
        history: plan.history,
    })
    .await?;
    let result = soak(&mut server, &plan).await;
    let stopped = server.stop().await;
    let records = result?;
    stopped?;
    Ok(records)
}

fn informer_err(reason: impl ToString) -> BenchError {
    BenchError::Informer {
        who: "soak".into(),
        reason: reason.to_string(),
    }
}

/// One sample of the timeline.
#[derive(Clone, Copy, Debug)]
struct Sample {
    secs: f64,
    heap: usize,
    unbounded_depth: usize,
    coalescing_depth: usize,
}

/// An informer under soak with its two checking handlers.
struct Watched {
    name: &'static str,
    resource: &'static str,
    stats: Box<dyn Fn() -> InformerStats + Send + Sync>,
    cache: Box<dyn Fn() -> Digest + Send + Sync>,
    unbounded: (Checker, HandlerRegistration),
    coalescing: (Checker, HandlerRegistration),
}

fn watch<K: Object>(
    name: &'static str,
    resource: &'static str,
    informer: SharedIndexInformer<K>,
    slow_cost: Duration,
) -> Watched {
    let unbounded = Checker::new(Duration::ZERO);
    let coalescing = Checker::new(slow_cost);
    let unbounded_reg = informer.add_event_handler(unbounded.clone());
    let coalescing_reg =
        informer.add_event_handler_with(coalescing.clone(), HandlerOptions::coalescing());
    let stats_informer = informer.clone();
    Watched {
        name,
        resource,
        stats: Box::new(move || stats_informer.stats()),
        cache: Box::new(move || {
            Digest::of(
                informer
                    .indexer()
                    .list()
                    .iter()
                    .map(|o| (object_key(o.as_ref()), rv(o.as_ref()))),
            )
        }),
        unbounded: (unbounded, unbounded_reg),
        coalescing: (coalescing, coalescing_reg),
    }
}

async fn soak(server: &mut ServerProcess, plan: &Plan) -> Result<Vec<Record>, BenchError> {
    server
        .command(&format!(
            "soak-setup {} {} {} {NAMESPACES}",
            plan.pods, plan.config_maps, plan.widgets
        ))
        .await?;
    let client = Client::new(Config::new(server.url())).map_err(informer_err)?;
    let factory = SharedInformerFactory::builder(client.clone()).build();
    let widgets_resource = ApiResource::new("example.com", "v1", "Widget", "widgets", true);
    let widgets = factory.informer_for(DynamicObject::collection(&widgets_resource));
    let watched = [
        watch(
            "pods",
            RESOURCES[0],
            factory.core().v1().pods().informer(),
            plan.slow_cost,
        ),
        watch(
            "configmaps",
            RESOURCES[1],
            factory.core().v1().config_maps().informer(),
            plan.slow_cost,
        ),
        watch("widgets", RESOURCES[2], widgets, plan.slow_cost),
    ];
    factory.start();
    tokio::time::timeout(Duration::from_secs(300), factory.wait_for_cache_sync())
        .await
        .map_err(|_| BenchError::Timeout("soak: first sync".into(), Duration::from_secs(300)))?
        .map_err(informer_err)?;
    let objects = plan.objects();
    super::wait_until(
        "soak: handlers to take the initial lists",
        Duration::from_secs(300),
        || {
            watched
                .iter()
                .all(|w| idle(&w.unbounded.1) && idle(&w.coalescing.1))
                && watched.iter().map(|w| w.unbounded.0.len()).sum::<usize>() == objects
                && watched.iter().map(|w| w.coalescing.0.len()).sum::<usize>() == objects
        },
    )
    .await?;
    settle().await;
    let heap_after_sync = live_bytes();

    let started = Instant::now();
    server
        .command(&format!(
            "soak-start {} {} {}",
            0x50a6_u64,
            plan.writes_per_sec,
            plan.fault_every.as_millis()
        ))
        .await?;
    let mut samples = Vec::new();
    let mut next = started;
    while started.elapsed() < plan.duration {
        samples.push(sample(&watched, started));
        next += plan.sample_every;
        tokio::time::sleep_until(next.into()).await;
    }
    let stop_reply = server.command("soak-stop").await?;
    let soaked = started.elapsed();

    // Writes and faults have stopped: every cache and handler must reach the server's state.
    let stopped_at = Instant::now();
    let want = server_state(server).await?;
    // Reflectors may be backing off from the last faults (up to 45 s with jitter).
    let converge_limit = Duration::from_secs(240);
    let converged_after = loop {
        samples.push(sample(&watched, started));
        if converged(&watched, &want) {
            break Ok(stopped_at.elapsed());
        }
        if stopped_at.elapsed() > converge_limit {
            break Err(divergence(&watched, &want));
        }
        tokio::time::sleep(plan.sample_every.min(Duration::from_millis(500))).await;
    };
    settle().await;
    let heap_end = live_bytes();
    samples.push(sample(&watched, started));

    let stats: Vec<InformerStats> = watched.iter().map(|w| (w.stats)()).collect();
    let violations: Vec<String> = watched
        .iter()
        .flat_map(|w| {
            [&w.unbounded.0, &w.coalescing.0]
                .into_iter()
                .flat_map(move |c| {
                    c.violations()
                        .into_iter()
                        .map(move |v| format!("{}: {v}", w.name))
                })
        })
        .collect();
    let violation_count: u64 = watched
        .iter()
        .map(|w| w.unbounded.0.violation_count() + w.coalescing.0.violation_count())
        .sum();

    let shutdown_started = Instant::now();
    tokio::time::timeout(Duration::from_secs(30), factory.shutdown())
        .await
        .map_err(|_| {
            BenchError::Timeout("soak: factory shutdown".into(), Duration::from_secs(30))
        })?;
    let shutdown_ms = shutdown_started.elapsed().as_secs_f64() * 1000.0;

    Ok(records(&Outcome {
        plan: *plan,
        soaked,
        stop_reply,
        samples,
        heap_after_sync,
        heap_end,
        converged_after,
        stats,
        watched: &watched,
        violations,
        violation_count,
        shutdown_ms,
    }))
}

fn idle(reg: &HandlerRegistration) -> bool {
    reg.queue_depth() == 0
}

fn sample(watched: &[Watched], started: Instant) -> Sample {
    Sample {
        secs: started.elapsed().as_secs_f64(),
        heap: live_bytes(),
        unbounded_depth: watched.iter().map(|w| w.unbounded.1.queue_depth()).sum(),
        coalescing_depth: watched.iter().map(|w| w.coalescing.1.queue_depth()).sum(),
    }
}

/// The server's state per resource, from the child.
async fn server_state(server: &mut ServerProcess) -> Result<BTreeMap<String, Digest>, BenchError> {
    let reply = server.command("soak-state").await?;
    RESOURCES
        .iter()
        .map(|r| {
            let d = reply_field::<String>(&reply, r)
                .and_then(|v| Digest::parse(&v))
                .ok_or_else(|| BenchError::Server(format!("no state of {r} in {reply:?}")))?;
            Ok(((*r).to_owned(), d))
        })
        .collect()
}

fn converged(watched: &[Watched], want: &BTreeMap<String, Digest>) -> bool {
    watched.iter().all(|w| {
        let Some(want) = want.get(w.resource) else {
            return false;
        };
        idle(&w.unbounded.1)
            && idle(&w.coalescing.1)
            && (w.cache)() == *want
            && w.unbounded.0.digest() == *want
            && w.coalescing.0.digest() == *want
    })
}

fn divergence(watched: &[Watched], want: &BTreeMap<String, Digest>) -> String {
    let mut out = String::new();
    for w in watched {
        let _ = write!(
            out,
            "{}: server {:?}, cache {:?}, unbounded handler {:?} (queue {}), coalescing handler {:?} (queue {}); ",
            w.name,
            want.get(w.resource),
            (w.cache)(),
            w.unbounded.0.digest(),
            w.unbounded.1.queue_depth(),
            w.coalescing.0.digest(),
            w.coalescing.1.queue_depth(),
        );
    }
    out
}

struct Outcome<'a> {
    plan: Plan,
    soaked: Duration,
    stop_reply: String,
    samples: Vec<Sample>,
    heap_after_sync: usize,
    heap_end: usize,
    /// How long convergence took, or how the states differ when they never met.
    converged_after: Result<Duration, String>,
    stats: Vec<InformerStats>,
    watched: &'a [Watched],
    violations: Vec<String>,
    violation_count: u64,
    shutdown_ms: f64,
}

fn records(o: &Outcome<'_>) -> Vec<Record> {
    let sum = |f: fn(&InformerStats) -> u64| o.stats.iter().map(f).sum::<u64>() as f64;
    let field = |k: &str| reply_field::<u64>(&o.stop_reply, k).unwrap_or(0) as f64;
    let fault_kinds: Vec<String> = FAULTS.iter().map(|k| format!("{k} {}", field(k))).collect();
    let max_depth = |coalescing: bool| {
        o.watched
            .iter()
            .map(|w| {
                let reg = if coalescing {
                    &w.coalescing.1
                } else {
                    &w.unbounded.1
                };
                reg.max_queue_depth()
            })
            .max()
            .unwrap_or(0) as f64
    };
    let delivered = |coalescing: bool| {
        o.watched
            .iter()
            .map(|w| {
                let reg = if coalescing {
                    &w.coalescing.1
                } else {
                    &w.unbounded.1
                };
                reg.stats().delivered
            })
            .sum::<u64>() as f64
    };
    let coalesced: u64 = o
        .watched
        .iter()
        .map(|w| w.coalescing.1.stats().coalesced)
        .sum();
    let heap_series: Vec<[f64; 2]> = o
        .samples
        .iter()
        .map(|s| [s.secs, s.heap as f64 / MIB])
        .collect();
    let depth_series = |f: fn(&Sample) -> usize| -> Vec<[f64; 2]> {
        o.samples.iter().map(|s| [s.secs, f(s) as f64]).collect()
    };
    let heap_peak = o.samples.iter().map(|s| s.heap).max().unwrap_or(0);
    let mut records = vec![
        Record::new(SECTION, "soak.duration", o.soaked.as_secs_f64() / 60.0, "min"),
        Record::new(SECTION, "soak.objects", o.plan.objects() as f64, "objects").note(format!(
            "{} pods, {} config maps, {} widgets (CRD), the same counts at the start and the end",
            o.plan.pods, o.plan.config_maps, o.plan.widgets
        )),
        Record::new(SECTION, "soak.writes", field("writes"), "writes").note(format!(
            "{} updates, {} deletes each followed by a create; {}/s",
            field("updates"),
            field("deletes"),
            o.plan.writes_per_sec
        )),
        Record::new(SECTION, "soak.faults", field("faults"), "faults")
            .note(format!("injected: {}", fault_kinds.join(", "))),
        Record::new(SECTION, "soak.relists", sum(|s| s.relists), "relists").note(format!(
            "{} after 410 Expired; {} lists, {} watches, {} list/watch errors in all",
            sum(|s| s.expired_relists),
            sum(|s| s.lists),
            sum(|s| s.watches),
            sum(|s| s.errors)
        )),
        Record::new(
            SECTION,
            "soak.delivered.unbounded",
            delivered(false),
            "notifications",
        ),
        Record::new(
            SECTION,
            "soak.delivered.coalescing",
            delivered(true),
            "notifications",
        )
        .note(format!(
            "{coalesced} more merged into pending ones; callbacks cost {:?}",
            o.plan.slow_cost
        )),
        Record::new(SECTION, "soak.queue_max.unbounded", max_depth(false), "notifications")
            .with_series(Series::new("queue depth, unbounded handlers", "notifications", depth_series(|s| s.unbounded_depth))),
        Record::new(SECTION, "soak.queue_max.coalescing", max_depth(true), "objects")
            .with_series(Series::new("queue depth, coalescing handlers", "objects", depth_series(|s| s.coalescing_depth)))
            .note("one handler's highest depth; entries exist only for objects that exist or whose Delete is pending: at most 2x its informer's objects"),
        Record::new(
            SECTION,
            "soak.queue_max.coalescing_of_bound",
            o.watched
                .iter()
                .map(|w| {
                    w.coalescing.1.max_queue_depth() as f64 / (2 * w.unbounded.0.len() + 1) as f64
                })
                .fold(0.0, f64::max),
            "ratio",
        )
        .target(Target::value_at_most(1.0))
        .note("each coalescing handler's highest depth over its bound, 2 x its informer's objects + 1"),
        Record::new(SECTION, "soak.heap_after_sync", o.heap_after_sync as f64 / MIB, "MiB"),
        Record::new(SECTION, "soak.heap_peak", heap_peak as f64 / MIB, "MiB")
            .with_series(Series::new("heap", "MiB", heap_series)),
        Record::new(SECTION, "soak.heap_end", o.heap_end as f64 / MIB, "MiB")
            .against("heap after first sync", o.heap_after_sync as f64 / MIB)
            .target(Target::ratio_at_most(1.1)),
        match &o.converged_after {
            Ok(after) => Record::new(SECTION, "soak.converged_after", after.as_secs_f64(), "s")
                .note("from the last write and fault until every cache and handler equals the server"),
            Err(_) => Record::skipped(SECTION, "soak.converged_after", "s", "never converged"),
        },
        Record::new(
            SECTION,
            "soak.caches_equal_server",
            if o.converged_after.is_ok() { 1.0 } else { 0.0 },
            "bool",
        )
        .target(Target::value_at_least(1.0))
        .note(match &o.converged_after {
            Ok(_) => "every cache and every handler's replayed state equal the server's, object by object".to_owned(),
            Err(diff) => format!("after 240 s: {diff}"),
        }),
        Record::new(
            SECTION,
            "soak.sequence_violations",
            o.violation_count as f64,
            "violations",
        )
        .target(Target::value_at_most(0.0)),
        Record::new(SECTION, "soak.shutdown", o.shutdown_ms, "ms")
            .target(Target::value_at_most(1000.0))
            .note("factory.shutdown() after the soak, handlers idle"),
    ];
    if !o.violations.is_empty() {
        let first: Vec<&str> = o.violations.iter().take(5).map(String::as_str).collect();
        if let Some(r) = records
            .iter_mut()
            .find(|r| r.name == "soak.sequence_violations")
        {
            r.note = Some(format!("first: {}", first.join("; ")));
        }
    }
    records
}

fn rv<K: Object>(o: &K) -> String {
    o.meta().resource_version().unwrap_or_default().to_owned()
}

/// Count and FNV-1a hash of sorted `key=resourceVersion` lines: the same on both sides of
/// the child's pipe for the same state.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Digest {
    count: usize,
    hash: u64,
}

impl Digest {
    fn of(pairs: impl IntoIterator<Item = (String, String)>) -> Self {
        let mut lines: Vec<(String, String)> = pairs.into_iter().collect();
        lines.sort_unstable();
        let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
        for (k, v) in &lines {
            for b in k.bytes().chain([b'=']).chain(v.bytes()).chain([b'\n']) {
                hash ^= u64::from(b);
                hash = hash.wrapping_mul(0x0100_0000_01b3);
            }
        }
        Self {
            count: lines.len(),
            hash,
        }
    }

    /// `COUNT:HASH`, as the child writes it.
    fn parse(s: &str) -> Option<Self> {
        let (count, hash) = s.split_once(':')?;
        Some(Self {
            count: count.parse().ok()?,
            hash: u64::from_str_radix(hash, 16).ok()?,
        })
    }

    fn render(&self) -> String {
        format!("{}:{:x}", self.count, self.hash)
    }
}

#[derive(Default)]
struct CheckerState {
    objects: BTreeMap<String, String>,
    /// The first few violations, for the report.
    violations: Vec<String>,
}

/// A handler replaying notifications into a key → resourceVersion map, checking every
/// object's sequence; each callback costs `cost`.
#[derive(Clone)]
struct Checker {
    state: Arc<Mutex<CheckerState>>,
    violations: Arc<AtomicU64>,
    cost: Duration,
}

impl Checker {
    fn new(cost: Duration) -> Self {
        Self {
            state: Arc::default(),
            violations: Arc::default(),
            cost,
        }
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, CheckerState> {
        self.state.lock().unwrap_or_else(|e| e.into_inner())
    }

    fn len(&self) -> usize {
        self.lock().objects.len()
    }

    fn digest(&self) -> Digest {
        let s = self.lock();
        Digest::of(s.objects.iter().map(|(k, v)| (k.clone(), v.clone())))
    }

    fn violations(&self) -> Vec<String> {
        self.lock().violations.clone()
    }

    fn violation_count(&self) -> u64 {
        self.violations.load(Ordering::Relaxed)
    }

    fn violation(&self, s: &mut CheckerState, what: String) {
        self.violations.fetch_add(1, Ordering::Relaxed);
        if s.violations.len() < 10 {
            s.violations.push(what);
        }
    }

    fn pay(&self) {
        if !self.cost.is_zero() {
            std::thread::sleep(self.cost);
        }
    }
}

impl<K: Object> ResourceEventHandler<K> for Checker {
    fn on_add(&self, obj: &Arc<K>, _in_initial_list: bool) {
        self.pay();
        let key = object_key(obj.as_ref());
        let mut s = self.lock();
        if let Some(old) = s.objects.insert(key.clone(), rv(obj.as_ref())) {
            self.violation(&mut s, format!("add of {key}, known at {old}"));
        }
    }

    fn on_update(&self, old: &Arc<K>, new: &Arc<K>) {
        self.pay();
        let key = object_key(new.as_ref());
        let mut s = self.lock();
        let seen = s.objects.insert(key.clone(), rv(new.as_ref()));
        let old = rv(old.as_ref());
        if seen.as_deref() != Some(old.as_str()) {
            self.violation(
                &mut s,
                format!("update of {key} from {old}, last seen {seen:?}"),
            );
        }
    }

    fn on_delete(&self, gone: &Deleted<K>) {
        self.pay();
        let key = gone.key();
        let mut s = self.lock();
        if s.objects.remove(&key).is_none() {
            self.violation(&mut s, format!("delete of unknown {key}"));
        }
    }
}

// ---- the child side: `bench serve` commands ----

/// The faults the child injects, as named in its `soak-stop` reply.
const FAULTS: [&str; 9] = [
    "drop_watches",
    "compact",
    "throttle_429",
    "server_error_5xx",
    "stall",
    "malformed_line",
    "cut_watches",
    "cut_list",
    "restart",
];

/// The soak workload of a `bench serve` child.
#[derive(Default)]
pub struct Child {
    populations: Vec<Population>,
    running: Option<Running>,
}

struct Running {
    stop: CancellationToken,
    writer: JoinHandle<Result<WriteCounts, String>>,
    faulter: JoinHandle<Result<[u64; FAULTS.len()], String>>,
}

#[derive(Default)]
struct WriteCounts {
    updates: u64,
    deletes: u64,
}

/// The objects of one resource the writer keeps `names.len()` of.
#[derive(Clone)]
struct Population {
    resource: &'static str,
    /// (namespace, name) of every current object.
    names: Vec<(String, String)>,
}

fn make(resource: &str, ns: &str, name: &str, i: usize) -> Value {
    match resource {
        "pods" => fixtures::pod(ns, name, i),
        "configmaps" => fixtures::config_map(ns, name, i),
        _ => fixtures::widget(ns, name, i),
    }
}

impl Child {
    /// Answers a `soak-*` command.
    pub async fn command(&mut self, server: &Arc<RunningServer>, words: &[&str]) -> String {
        match self.answer(server, words).await {
            Ok(reply) => reply,
            Err(e) => format!("error {}: {e}", words.first().unwrap_or(&"soak")),
        }
    }

    async fn answer(
        &mut self,
        server: &Arc<RunningServer>,
        words: &[&str],
    ) -> Result<String, String> {
        let num = |i: usize| -> Result<u64, String> {
            words
                .get(i)
                .ok_or_else(|| format!("argument {i} missing"))?
                .parse::<u64>()
                .map_err(|e| format!("argument {i}: {e}"))
        };
        match words.first().copied() {
            Some("soak-setup") => {
                let (pods, cms, widgets, namespaces) = (num(1)?, num(2)?, num(3)?, num(4)?.max(1));
                server.register(fixtures::widget_spec());
                let ns = |i: usize| format!("ns-{}", i % namespaces as usize);
                let mut populations = vec![Population {
                    resource: "pods",
                    names: (0..pods as usize)
                        .map(|i| (ns(i), format!("pod-{i}")))
                        .collect(),
                }];
                for (resource, count, prefix) in [
                    ("configmaps", cms, "cm"),
                    ("widgets.example.com", widgets, "w"),
                ] {
                    let mut names = Vec::new();
                    for i in 0..count as usize {
                        let (ns, name) = (ns(i), format!("{prefix}-{i}"));
                        server
                            .create(resource, Some(&ns), make(resource, &ns, &name, i))
                            .map_err(|e| format!("create {resource} {ns}/{name}: {e}"))?;
                        names.push((ns, name));
                    }
                    populations.push(Population { resource, names });
                }
                self.populations = populations;
                Ok("done soak-setup".into())
            }
            Some("soak-start") => {
                if self.running.is_some() {
                    return Err("already running".into());
                }
                let (seed, rate, fault_ms) = (num(1)?, num(2)?.max(1), num(3)?.max(1));
                let stop = CancellationToken::new();
                let writer = tokio::spawn(write(
                    server.clone(),
                    self.populations.clone(),
                    seed,
                    rate,
                    stop.clone(),
                ));
                let faulter = tokio::spawn(inject(
                    server.clone(),
                    seed ^ 0xfa17,
                    Duration::from_millis(fault_ms),
                    stop.clone(),
                ));
                self.running = Some(Running {
                    stop,
                    writer,
                    faulter,
                });
                Ok("done soak-start".into())
            }
            Some("soak-stop") => {
                let running = self.running.take().ok_or("not running")?;
                running.stop.cancel();
                let writes = running.writer.await.map_err(|e| e.to_string())??;
                let faults = running.faulter.await.map_err(|e| e.to_string())??;
                server.faults().clear();
                let mut reply = format!(
                    "done soak-stop writes={} updates={} deletes={} faults={}",
                    writes.updates + 2 * writes.deletes,
                    writes.updates,
                    writes.deletes,
                    faults.iter().sum::<u64>()
                );
                for (name, n) in FAULTS.iter().zip(faults) {
                    let _ = write!(reply, " {name}={n}");
                }
                Ok(reply)
            }
            Some("soak-state") => {
                let mut reply = "done soak-state".to_owned();
                for resource in RESOURCES {
                    let items = server
                        .list(resource, None)
                        .map_err(|e| format!("list {resource}: {e}"))?;
                    let digest = Digest::of(items.iter().map(|o| {
                        let m = &o["metadata"];
                        let (ns, name) = (
                            m["namespace"].as_str().unwrap_or_default(),
                            m["name"].as_str().unwrap_or_default(),
                        );
                        let key = if ns.is_empty() {
                            name.to_owned()
                        } else {
                            format!("{ns}/{name}")
                        };
                        (
                            key,
                            m["resourceVersion"].as_str().unwrap_or_default().to_owned(),
                        )
                    }));
                    let _ = write!(reply, " {resource}={}", digest.render());
                }
                Ok(reply)
            }
            _ => Err(format!("unknown soak command {words:?}")),
        }
    }
}

/// Writes at `rate` per second until stopped: an update (a merge patch of an annotation)
/// three times in four, else a delete of a random object followed by a create of a new
/// one, so every population keeps its size whenever the writer is between two steps.
async fn write(
    server: Arc<RunningServer>,
    mut populations: Vec<Population>,
    seed: u64,
    rate: u64,
    stop: CancellationToken,
) -> Result<WriteCounts, String> {
    let mut rng = StdRng::seed_from_u64(seed);
    let mut counts = WriteCounts::default();
    let mut tick = tokio::time::interval(Duration::from_secs_f64(1.0 / rate as f64));
    tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    let mut seq = 0usize;
    loop {
        tokio::select! {
            _ = stop.cancelled() => return Ok(counts),
            _ = tick.tick() => {}
        }
        if populations.is_empty() {
            return Err("soak-setup was not run".into());
        }
        let which = rng.random_range(0..populations.len());
        let p = &mut populations[which];
        if p.names.is_empty() {
            continue;
        }
        seq += 1;
        let i = rng.random_range(0..p.names.len());
        if rng.random_bool(0.75) {
            let (ns, name) = &p.names[i];
            let patch = json!({"metadata": {"annotations": {"soak/seq": seq.to_string()}}});
            server
                .patch_merge(p.resource, Some(ns), name, patch)
                .map_err(|e| format!("patch {} {ns}/{name}: {e}", p.resource))?;
            counts.updates += 1;
        } else {
            let (ns, name) = p.names.swap_remove(i);
            server
                .delete(p.resource, Some(&ns), &name)
                .map_err(|e| format!("delete {} {ns}/{name}: {e}", p.resource))?;
            let new = format!("soak-{seq}");
            server
                .create(p.resource, Some(&ns), make(p.resource, &ns, &new, seq))
                .map_err(|e| format!("create {} {ns}/{new}: {e}", p.resource))?;
            p.names.push((ns, new));
            counts.deletes += 1;
        }
    }
}

/// Injects a fault every `every` on average until stopped, every kind once per round in a
/// random order (so even a short soak sees each); counts per kind.
async fn inject(
    server: Arc<RunningServer>,
    seed: u64,
    every: Duration,
    stop: CancellationToken,
) -> Result<[u64; FAULTS.len()], String> {
    let mut rng = StdRng::seed_from_u64(seed);
    let mut counts = [0u64; FAULTS.len()];
    let faults = server.faults();
    let verb = |rng: &mut StdRng| {
        if rng.random_bool(0.5) {
            "list"
        } else {
            "watch"
        }
    };
    let mut round: Vec<usize> = Vec::new();
    loop {
        let pause = every.mul_f64(rng.random_range(0.5..1.5));
        tokio::select! {
            _ = stop.cancelled() => return Ok(counts),
            _ = tokio::time::sleep(pause) => {}
        }
        // A watch drop lasts until the next fault.
        faults.drop_watches_after(0);
        if round.is_empty() {
            round = (0..FAULTS.len()).collect();
            round.shuffle(&mut rng);
        }
        let Some(kind) = round.pop() else {
            continue;
        };
        counts[kind] += 1;
        match kind {
            0 => faults.drop_watches_after(rng.random_range(1..50)),
            1 => faults.compact_history(),
            2 => faults.fail_next(
                rng.random_range(1..4),
                429,
                FaultTarget::any().verb(verb(&mut rng)),
            ),
            3 => {
                let code = if rng.random_bool(0.5) { 500 } else { 503 };
                faults.fail_next(
                    rng.random_range(1..4),
                    code,
                    FaultTarget::any().verb(verb(&mut rng)),
                );
            }
            4 => faults.stall_next(
                1,
                Duration::from_millis(rng.random_range(500..5_000)),
                FaultTarget::any().verb(verb(&mut rng)),
            ),
            5 => faults.malformed_watch_line(),
            6 => faults.cut_watches(),
            7 => faults.cut_next(1, FaultTarget::any().verb("list")),
            _ => server
                .restart(rng.random_bool(0.5))
                .await
                .map_err(|e| format!("restart the server: {e}"))?,
        }
    }
}

/// The soak chart: heap (left axis, MiB) and handler queue depths (right axis) over time,
/// from the records' series; `None` without series.
pub fn chart(title: &str, records: &[Record]) -> Option<String> {
    let series: Vec<&Series> = records.iter().filter_map(|r| r.series.as_ref()).collect();
    let heap = series.iter().find(|s| s.unit == "MiB")?;
    let depths: Vec<&&Series> = series.iter().filter(|s| s.unit != "MiB").collect();
    let (w, h, left, right, top, bottom) = (900.0, 440.0, 70.0, 70.0, 50.0, 80.0);
    let (pw, ph) = (w - left - right, h - top - bottom);
    let all_t = series.iter().flat_map(|s| s.points.iter().map(|p| p[0]));
    let t_max = all_t.fold(0.0_f64, f64::max).max(1.0);
    let heap_max = heap
        .points
        .iter()
        .map(|p| p[1])
        .fold(0.0_f64, f64::max)
        .max(1.0)
        * 1.1;
    let depth_max = depths
        .iter()
        .flat_map(|s| s.points.iter().map(|p| p[1]))
        .fold(0.0_f64, f64::max)
        .max(1.0)
        * 1.1;
    let esc = |s: &str| {
        s.replace('&', "&amp;")
            .replace('<', "&lt;")
            .replace('>', "&gt;")
    };
    let mut svg = format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{w}\" height=\"{h}\" font-family=\"sans-serif\" font-size=\"12\">\n\
         <rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n\
         <text x=\"10\" y=\"22\" font-size=\"16\" font-weight=\"bold\">{}</text>\n\
         <rect x=\"{left}\" y=\"{top}\" width=\"{pw}\" height=\"{ph}\" fill=\"none\" stroke=\"#999\"/>\n",
        esc(title)
    );
    for i in 0..=4 {
        let f = f64::from(i) / 4.0;
        let y = top + ph * (1.0 - f);
        let _ = writeln!(
            svg,
            "<text x=\"{}\" y=\"{}\" text-anchor=\"end\">{:.1}</text>\
             <text x=\"{}\" y=\"{}\">{:.0}</text>\
             <text x=\"{}\" y=\"{}\" text-anchor=\"middle\">{:.0}</text>",
            left - 6.0,
            y + 4.0,
            heap_max * f,
            w - right + 6.0,
            y + 4.0,
            depth_max * f,
            left + pw * f,
            h - bottom + 18.0,
            t_max * f
        );
    }
    let _ = writeln!(
        svg,
        "<text x=\"{left}\" y=\"{}\">heap MiB (left)</text>\
         <text x=\"{}\" y=\"{}\" text-anchor=\"middle\">seconds</text>\
         <text x=\"{}\" y=\"{}\" text-anchor=\"end\">queue depth (right)</text>",
        top - 8.0,
        left + pw / 2.0,
        h - bottom + 34.0,
        w - right,
        top - 8.0
    );
    let colours = ["#2b6cb0", "#c05621", "#2f855a", "#6b46c1"];
    let lines = std::iter::once((*heap, heap_max)).chain(depths.iter().map(|s| (**s, depth_max)));
    for (i, (s, max)) in lines.enumerate() {
        let colour = colours[i % colours.len()];
        let points: Vec<String> = s
            .points
            .iter()
            .map(|p| {
                format!(
                    "{:.1},{:.1}",
                    left + pw * p[0] / t_max,
                    top + ph * (1.0 - p[1] / max)
                )
            })
            .collect();
        let _ = write!(
            svg,
            "<polyline fill=\"none\" stroke=\"{colour}\" stroke-width=\"1.5\" points=\"{}\"/>\n\
             <rect x=\"{}\" y=\"{}\" width=\"12\" height=\"10\" fill=\"{colour}\"/><text x=\"{}\" y=\"{}\">{}</text>\n",
            points.join(" "),
            left + 250.0 * i as f64,
            h - 20.0,
            left + 16.0 + 250.0 * i as f64,
            h - 11.0,
            esc(&s.label)
        );
    }
    svg.push_str("</svg>\n");
    Some(svg)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn digests_ignore_order_and_round_trip() {
        let a = Digest::of([("b".into(), "2".into()), ("a".into(), "1".into())]);
        let b = Digest::of([("a".into(), "1".into()), ("b".into(), "2".into())]);
        assert_eq!(a, b);
        assert_eq!(Digest::parse(&a.render()), Some(a));
        assert_ne!(
            a,
            Digest::of([("a".into(), "1".into()), ("b".into(), "3".into())])
        );
        assert_eq!(Digest::parse("x"), None);
    }

    #[test]
    fn the_chart_draws_heap_and_depths_from_series() {
        let records = [
            Record::new(SECTION, "h", 1.0, "MiB").with_series(Series::new(
                "heap",
                "MiB",
                vec![[0.0, 10.0], [1.0, 11.0]],
            )),
            Record::new(SECTION, "q", 3.0, "objects").with_series(Series::new(
                "queue <depth>",
                "objects",
                vec![[0.0, 0.0], [1.0, 3.0]],
            )),
        ];
        let svg = chart("soak", &records).unwrap();
        assert_eq!(svg.matches("<polyline").count(), 2);
        assert!(svg.contains("queue &lt;depth&gt;"));
        assert!(chart("soak", &records[1..]).is_none());
    }
}
