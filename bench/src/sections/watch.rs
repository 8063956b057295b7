//! Watch throughput and latency: our informer with 1 and 10 handlers against kube-rs, on
//! the same server child and the same events.
//!
//! Throughput and latency are measured apart, because each needs a different load:
//! - **throughput** from bursts: the server child builds M rewrites of its pods beforehand
//!   (`prepare M`, untimed) and `burst` writes them in one batch, so during the timed
//!   window the server only streams events, far faster than a client decodes them (the
//!   section records the server's write and streaming rates so a reader can check) and
//!   leaves the CPU to the client: the figure is the client's, M / (time from `burst` to
//!   the last handler seeing the M-th update);
//! - **latency** from `modify L RATE`: merge patches paced at a steady rate well below any
//!   client's capacity, each stamped with the wall clock. Under saturation a latency is
//!   only the length of the queue in front of the event, so it would say nothing.
//!
//! The decode floor, serde_json decoding the very event lines the server sends on one
//! thread, shows how far one core can go at all on these ~4.8 KB Pods; the parallel floor, the same
//! decode on every core at once, how far the machine can.

use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use bytes::Bytes;
use futures_util::StreamExt;
use informer_runtime::client::Config;
use informer_runtime::protobuf::ACCEPT;
use informer_runtime::{Api, Client, ListOptions};
use k8s_openapi::api::core::v1::Pod;
use k8s_openapi::apimachinery::pkg::apis::meta::v1::WatchEvent;
use serde::de::DeserializeOwned;

use super::{now_ns, quantile, wait_until, Ctx};
use crate::cpu;
use crate::error::BenchError;
use crate::kube_baseline::KubeReflector;
use crate::ours::{Ours, OursOptions};
use crate::raw_http;
use crate::results::{Record, Target};
use crate::server_process::{reply_field, ServerProcess, ServerSpec, SENT_ANNOTATION};

const SECTION: &str = "watch";
/// Pods the events cycle over; few enough that a cache holds them all in a few MB, so the
/// figures are about moving events, not about a large store.
const PODS: usize = 1_000;
/// Paced patches per second for the latency runs: far below what any client here keeps up
/// with, so an event finds no queue in front of it.
const LATENCY_RATE: usize = 1_000;
const DELIVERY_LIMIT: Duration = Duration::from_secs(600);
/// Passes over the captured lines for the decode floor (the best one counts).
const DECODE_PASSES: usize = 3;

/// How much each part of the section does.
#[derive(Clone, Copy, Debug)]
pub struct Sizes {
    /// Events per burst.
    pub m: usize,
    /// Bursts per client; the fastest counts, as the machine is shared and noisy.
    pub rounds: usize,
    /// Paced patches per latency run.
    latency_writes: usize,
    /// Events decoded per decode-floor pass.
    decode_events: usize,
}

impl Sizes {
    /// The full sizes, or the small ones of a quick run.
    pub fn new(quick: bool) -> Self {
        if quick {
            Self {
                m: 5_000,
                rounds: 1,
                latency_writes: 200,
                decode_events: 2_000,
            }
        } else {
            Self {
                m: 100_000,
                rounds: 3,
                latency_writes: 2_000,
                decode_events: 20_000,
            }
        }
    }
}

/// One handler's tallies, on a cache line of its own: ten handlers on different threads
/// bumping counters that share a line would measure false sharing, not the informer.
#[repr(align(64))]
#[derive(Default)]
struct Tally {
    count: AtomicUsize,
    /// When the handler saw its `target`-th update (ns since the probe's epoch; 0: not yet).
    done_at_ns: AtomicU64,
}

/// What the handlers report to. It counts, per handler, the updates whose
/// resourceVersion is above the one armed (so the events of the run being timed, and no
/// others, without any per-event annotation), notes when each handler reached the
/// target, and samples handler 0's latency from the annotation the paced patches carry.
struct Probe {
    epoch: Instant,
    above_rv: AtomicU64,
    target: AtomicUsize,
    sample_latency: AtomicBool,
    tallies: Vec<Tally>,
    latencies_ns: Mutex<Vec<u64>>,
}

impl Probe {
    /// A probe counting nothing until armed (the initial list's events go by unseen).
    fn new(handlers: usize) -> Arc<Self> {
        Arc::new(Self {
            epoch: Instant::now(),
            above_rv: AtomicU64::new(u64::MAX),
            target: AtomicUsize::new(usize::MAX),
            sample_latency: AtomicBool::new(false),
            tallies: (0..handlers).map(|_| Tally::default()).collect(),
            latencies_ns: Mutex::new(Vec::new()),
        })
    }

    /// Starts a run: count updates above `above_rv` until `target` per handler. Called
    /// only once the previous run was fully delivered, so no handler is counting.
    fn arm(&self, above_rv: u64, target: usize, sample_latency: bool) {
        for t in &self.tallies {
            t.count.store(0, Ordering::Relaxed);
            t.done_at_ns.store(0, Ordering::Relaxed);
        }
        self.target.store(target, Ordering::Relaxed);
        self.sample_latency.store(sample_latency, Ordering::Relaxed);
        if let Ok(mut l) = self.latencies_ns.lock() {
            l.clear();
            l.reserve(target);
        }
        // Last, with Release: a handler that sees the new RV sees everything above.
        self.above_rv.store(above_rv, Ordering::Release);
    }

    fn since_epoch_ns(&self) -> u64 {
        (self.epoch.elapsed().as_nanos() as u64).max(1)
    }

    fn seen(&self, handler: usize, pod: &Pod) {
        let rv = pod
            .metadata
            .resource_version
            .as_deref()
            .and_then(|s| s.parse::<u64>().ok());
        if rv.is_none_or(|rv| rv <= self.above_rv.load(Ordering::Acquire)) {
            return;
        }
        let Some(tally) = self.tallies.get(handler) else {
            return;
        };
        let n = tally.count.fetch_add(1, Ordering::Relaxed) + 1;
        if n == self.target.load(Ordering::Relaxed) {
            tally
                .done_at_ns
                .store(self.since_epoch_ns(), Ordering::Release);
        }
        if handler == 0 && self.sample_latency.load(Ordering::Relaxed) {
            let sent = pod
                .metadata
                .annotations
                .as_ref()
                .and_then(|a| a.get(SENT_ANNOTATION))
                .and_then(|s| s.parse::<u64>().ok());
            if let (Some(sent), Ok(mut l)) = (sent, self.latencies_ns.lock()) {
                l.push(now_ns().saturating_sub(sent));
            }
        }
    }

    fn all_done(&self) -> bool {
        self.tallies
            .iter()
            .all(|t| t.done_at_ns.load(Ordering::Acquire) != 0)
    }

    /// When the last handler saw its target (ns since the epoch).
    fn last_done_ns(&self) -> u64 {
        self.tallies
            .iter()
            .map(|t| t.done_at_ns.load(Ordering::Acquire))
            .max()
            .unwrap_or_default()
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

/// What one client's runs saw.
pub struct Run {
    /// Best burst: events per second into every handler.
    pub events_per_s: f64,
    /// CPU time of this process per event in the best burst, in µs.
    pub cpu_us_per_event: f64,
    /// The server's write rate in its slowest burst.
    slowest_write_per_s: f64,
    p50_ms: f64,
    p99_ms: f64,
}

impl Run {
    /// Whichever of the two had the faster best burst.
    pub fn faster(self, other: Self) -> Self {
        if other.events_per_s > self.events_per_s {
            other
        } else {
            self
        }
    }
}

/// Times `sizes.rounds` bursts, then the paced latency run, against a client whose
/// handlers report to `probe` and whose watch is open.
async fn drive(
    server: &mut ServerProcess,
    probe: &Probe,
    sizes: Sizes,
    who: &str,
) -> Result<Run, BenchError> {
    let m = sizes.m;
    let mut fastest = Fastest::default();
    let mut slowest_write = f64::INFINITY;
    for _ in 0..sizes.rounds {
        let rv = prepare(server, m).await?;
        probe.arm(rv, m, false);
        let start_ns = probe.since_epoch_ns();
        let cpu_start = cpu::process_cpu_ns();
        let reply = server.command("burst").await?;
        wait_until(
            &format!("{who}: delivery of a burst of {m} watch events"),
            DELIVERY_LIMIT,
            || probe.all_done(),
        )
        .await?;
        let secs = probe.last_done_ns().saturating_sub(start_ns) as f64 / 1e9;
        fastest.offer(m, secs, cpu::process_cpu_ns() - cpu_start);
        let write_secs: f64 = reply_field(&reply, "secs").unwrap_or(secs);
        slowest_write = slowest_write.min(m as f64 / write_secs.max(1e-9));
    }
    let l = sizes.latency_writes;
    let rv = server.resource_version().await?;
    probe.arm(rv, l, true);
    server
        .command(&format!("modify {l} {LATENCY_RATE}"))
        .await?;
    wait_until(
        &format!("{who}: delivery of {l} paced patches"),
        DELIVERY_LIMIT,
        || probe.all_done(),
    )
    .await?;
    let (p50_ms, p99_ms) = probe.latency_ms();
    Ok(Run {
        events_per_s: fastest.events_per_s,
        cpu_us_per_event: fastest.cpu_us_per_event,
        slowest_write_per_s: slowest_write,
        p50_ms,
        p99_ms,
    })
}

/// Has the server child build a burst of `m` pod rewrites (untimed); returns the
/// resourceVersion its events will follow.
async fn prepare(server: &mut ServerProcess, m: usize) -> Result<u64, BenchError> {
    let reply = server.command(&format!("prepare {m}")).await?;
    reply_field(&reply, "rv")
        .ok_or_else(|| BenchError::Server(format!("no rv in the reply {reply:?}")))
}

/// A relist would deliver the listed pods as updates above the armed resourceVersion
/// and mix them into the figures; the history window is sized so it never happens.
fn listed_once(who: &str, lists: u64) -> Result<(), BenchError> {
    if lists == 1 {
        Ok(())
    } else {
        Err(BenchError::Informer {
            who: who.to_owned(),
            reason: format!(
                "listed {lists} times during the watch benchmark (a 410 relist?): figures discarded"
            ),
        })
    }
}

/// Our informer with `handlers` handlers, asking for JSON only when `disable_protobuf`
/// (the protobuf section compares the two), through bursts and the paced run.
pub async fn ours(
    server: &mut ServerProcess,
    sizes: Sizes,
    handlers: usize,
    disable_protobuf: bool,
) -> Result<Run, BenchError> {
    let who = format!("ours, {handlers} handlers");
    server.wait_watches(0, &who).await?;
    let probe = Probe::new(handlers);
    let p = probe.clone();
    let ours = Ours::start(
        server.url(),
        &OursOptions {
            handlers,
            on_update: Some(Arc::new(move |i, pod| p.seen(i, pod))),
            disable_protobuf,
            ..Default::default()
        },
    )?;
    let run = async {
        ours.wait_synced().await?;
        server.wait_watches(1, &who).await?;
        let run = drive(server, &probe, sizes, &who).await?;
        listed_once(&who, ours.lists())?;
        Ok(run)
    }
    .await;
    ours.stop().await;
    run
}

async fn kube(server: &mut ServerProcess, sizes: Sizes) -> Result<Run, BenchError> {
    let who = "kube-rs";
    server.wait_watches(0, who).await?;
    let probe = Probe::new(1);
    let p = probe.clone();
    let kube = KubeReflector::start(server.url(), Some(Arc::new(move |pod| p.seen(0, pod))))?;
    let run = async {
        kube.wait_synced().await?;
        server.wait_watches(1, who).await?;
        let run = drive(server, &probe, sizes, who).await?;
        listed_once(who, kube.lists_done() as u64)?;
        Ok(run)
    }
    .await;
    kube.stop().await;
    run
}

/// Opens a raw watch of every pod from the current resourceVersion, asking for `accept`
/// (JSON when `None`), and waits until the server has registered it.
async fn raw_watch(
    server: &mut ServerProcess,
    accept: Option<&str>,
) -> Result<hyper::body::Incoming, BenchError> {
    server.wait_watches(0, "raw watch").await?;
    let rv = server.resource_version().await?;
    // No allowWatchBookmarks: every line is an event of the burst.
    let url = format!("{}/api/v1/pods?watch=1&resourceVersion={rv}", server.url());
    let watch = raw_http::open_watch_accepting(&url, accept).await?;
    server.wait_watches(1, "raw watch").await?;
    Ok(watch)
}

/// The server's own rate: bursts streamed to a raw HTTP watch that only counts events
/// (JSON lines, or protobuf frames when `protobuf`), from the command to the M-th event;
/// the best of `sizes.rounds`.
pub async fn server_stream_rate(
    server: &mut ServerProcess,
    sizes: Sizes,
    protobuf: bool,
) -> Result<f64, BenchError> {
    let m = sizes.m;
    let mut fastest = Fastest::default();
    for _ in 0..sizes.rounds {
        prepare(server, m).await?;
        let watch = raw_watch(server, protobuf.then_some(ACCEPT)).await?;
        let counter = tokio::spawn(async move {
            let stop = move |events| events >= m;
            let events = if protobuf {
                raw_http::count_frames(watch, stop).await?
            } else {
                raw_http::count_lines(watch, stop).await?
            };
            Ok((events, Instant::now()))
        });
        timed_burst(server, m, "raw watch", counter, &mut fastest).await?;
    }
    Ok(fastest.events_per_s)
}

/// The fastest of a client's bursts: its events per second, and the CPU time this process
/// spent per event in it.
#[derive(Clone, Copy, Default)]
struct Fastest {
    events_per_s: f64,
    /// µs.
    cpu_us_per_event: f64,
}

impl Fastest {
    /// Keeps a burst of `events` that took `secs` and `cpu_ns` of CPU, if it is the fastest.
    fn offer(&mut self, events: usize, secs: f64, cpu_ns: u64) {
        let rate = events as f64 / secs.max(1e-9);
        if rate > self.events_per_s {
            self.events_per_s = rate;
            self.cpu_us_per_event = cpu_ns as f64 / 1e3 / events.max(1) as f64;
        }
    }
}

/// Sends `burst` and times it into `counter`: a task that counts the events `who` receives
/// until `m` and answers how many it saw and when it saw the last. Fewer than `m` is an
/// error; the burst is offered to `fastest`.
async fn timed_burst(
    server: &mut ServerProcess,
    m: usize,
    who: &str,
    counter: tokio::task::JoinHandle<Result<(usize, Instant), BenchError>>,
    fastest: &mut Fastest,
) -> Result<(), BenchError> {
    let start = Instant::now();
    let cpu_start = cpu::process_cpu_ns();
    server.command("burst").await?;
    let (seen, end) = counter
        .await
        .map_err(|e| BenchError::Server(format!("{who} counter task: {e}")))??;
    if seen < m {
        return Err(BenchError::Server(format!(
            "{who} ended after {seen} of {m} events"
        )));
    }
    fastest.offer(
        m,
        end.duration_since(start).as_secs_f64(),
        cpu::process_cpu_ns() - cpu_start,
    );
    Ok(())
}

/// Our client's decoded watch stream alone, no informer: bursts counted as they come out of
/// `Api::watch` (managedFields omitted, as informers get it), from the command to the
/// M-th event. Best of `sizes.rounds`: events/s and the process's CPU µs per event.
async fn ours_stream_rate(server: &mut ServerProcess, sizes: Sizes) -> Result<Fastest, BenchError> {
    let who = "our watch stream";
    let fail = |e: informer_runtime::Error| BenchError::Informer {
        who: who.into(),
        reason: e.to_string(),
    };
    let client = Client::new(Config::new(server.url()))
        .map_err(fail)?
        .omitting_managed_fields();
    let m = sizes.m;
    let mut fastest = Fastest::default();
    for _ in 0..sizes.rounds {
        prepare(server, m).await?;
        server.wait_watches(0, who).await?;
        let options = ListOptions {
            resource_version: Some(server.resource_version().await?.to_string()),
            ..Default::default()
        };
        let mut stream = Api::<Pod>::all(client.clone())
            .watch(&options)
            .await
            .map_err(fail)?;
        server.wait_watches(1, who).await?;
        let counter = tokio::spawn(async move {
            let mut seen = 0;
            while seen < m {
                match stream.next().await {
                    Some(Ok(_)) => seen += 1,
                    _ => break,
                }
            }
            Ok((seen, Instant::now()))
        });
        timed_burst(server, m, who, counter, &mut fastest).await?;
    }
    Ok(fastest)
}

/// `n` event lines exactly as the server streams them, one per pod.
async fn capture_lines(server: &mut ServerProcess, n: usize) -> Result<Vec<Bytes>, BenchError> {
    prepare(server, n).await?;
    let watch = raw_watch(server, None).await?;
    let reader = tokio::spawn(raw_http::read_lines(watch, n));
    server.command("burst").await?;
    reader
        .await
        .map_err(|e| BenchError::Server(format!("raw watch reader task: {e}")))?
}

/// An event decoded in one pass straight into the typed Pod, the way a decoder written
/// for speed does it (k8s-openapi's `WatchEvent` goes through `serde_json::Value`).
#[derive(serde::Deserialize)]
struct OnePassEvent {
    #[serde(rename = "type")]
    kind: String,
    object: Pod,
}

/// Best of [`DECODE_PASSES`]: events per second for serde_json decoding `events` of
/// `lines` (cycling over them) into `T` on this thread. Every line must decode and pass
/// `check` first.
fn decode_rate<T: DeserializeOwned>(
    lines: &[Bytes],
    events: usize,
    check: impl Fn(&T) -> bool,
    what: &str,
) -> Result<f64, BenchError> {
    let decode = |line: &Bytes| {
        serde_json::from_slice::<T>(line).map_err(|e| BenchError::Decode {
            what: format!("a captured watch event line as {what}"),
            source: e,
        })
    };
    if lines.is_empty() {
        return Err(BenchError::Server("no watch event lines captured".into()));
    }
    for line in lines {
        if !check(&decode(line)?) {
            return Err(BenchError::Server(format!(
                "a captured line is not a MODIFIED Pod event: {:?}",
                String::from_utf8_lossy(&line[..line.len().min(80)])
            )));
        }
    }
    let mut best = 0.0f64;
    for _ in 0..DECODE_PASSES {
        let start = Instant::now();
        let mut done = 0;
        while done < events {
            for line in lines.iter().take(events - done) {
                std::hint::black_box(decode(line)?);
                done += 1;
            }
        }
        best = best.max(events as f64 / start.elapsed().as_secs_f64().max(1e-9));
    }
    Ok(best)
}

/// What a thread of the holding decode floor keeps: the last event of each line.
type Held<T> = Vec<Option<T>>;

/// Best of [`DECODE_PASSES`]: events per second for serde_json decoding `events` of
/// `lines` into `T` on every core at once, each thread its share of the events: the most
/// any decoder of this kind gets out of the machine, the ceiling of an informer's rate.
///
/// `holding` keeps, on each thread, the last event decoded for every line (every pod), so
/// each decode frees the one it replaces, decoded a thousand events before and cold in the
/// CPU caches by then, as a cache frees the object an update replaces. Without it, each
/// event is freed as soon as it is decoded.
fn parallel_decode_rate<T: DeserializeOwned + Send>(
    lines: &[Bytes],
    events: usize,
    threads: usize,
    holding: bool,
) -> Result<f64, BenchError> {
    if lines.is_empty() {
        return Err(BenchError::Server("no watch event lines captured".into()));
    }
    let threads = threads.max(1);
    let share = events.div_ceil(threads);
    let mut best = 0.0f64;
    for _ in 0..DECODE_PASSES {
        let start = Instant::now();
        let decoded: Result<(usize, Vec<Held<T>>), BenchError> = std::thread::scope(|scope| {
            let workers: Vec<_> = (0..threads)
                .map(|t| {
                    scope.spawn(move || {
                        let mut held: Held<T> = Vec::new();
                        if holding {
                            held.resize_with(lines.len(), || None);
                        }
                        let mut done = 0usize;
                        for i in (0..lines.len()).cycle().skip(t * 7).take(share) {
                            let event = serde_json::from_slice::<T>(&lines[i]).map_err(|e| {
                                BenchError::Decode {
                                    what: "a captured watch event line, decoded in parallel".into(),
                                    source: e,
                                }
                            })?;
                            match held.get_mut(i) {
                                Some(slot) => *slot = Some(event),
                                None => drop(std::hint::black_box(event)),
                            }
                            done += 1;
                        }
                        Ok::<_, BenchError>((done, held))
                    })
                })
                .collect();
            workers
                .into_iter()
                .try_fold((0, Vec::new()), |(sum, mut kept), w| {
                    let (done, held) = w.join().map_err(|_| BenchError::Informer {
                        who: "decode floor thread".into(),
                        reason: "panicked".into(),
                    })??;
                    kept.push(held);
                    Ok((sum + done, kept))
                })
        });
        let elapsed = start.elapsed().as_secs_f64();
        // What the threads held is freed after the clock stops: the cache keeps it.
        let (decoded, held) = decoded?;
        drop(held);
        best = best.max(decoded as f64 / elapsed.max(1e-9));
    }
    Ok(best)
}

/// Runs the section.
pub async fn run(ctx: Ctx) -> Result<Vec<Record>, BenchError> {
    let sizes = Sizes::new(ctx.quick);
    let mut server = ServerProcess::start(server_spec(sizes)).await?;
    let result = measure(&mut server, sizes).await;
    server.stop().await?;
    result
}

/// The server child the bursts of `sizes` run against.
pub fn server_spec(sizes: Sizes) -> ServerSpec {
    ServerSpec {
        pods: PODS,
        namespaces: 1,
        // Every client lags the server by less than one run's events, so with this window a
        // re-watch (after a timeout, say) never gets 410 Expired.
        history: sizes.m + sizes.latency_writes + PODS,
    }
}

async fn measure(server: &mut ServerProcess, sizes: Sizes) -> Result<Vec<Record>, BenchError> {
    let lines = capture_lines(server, PODS).await?;
    let line_bytes = lines.iter().map(Bytes::len).sum::<usize>() as f64 / lines.len().max(1) as f64;
    let lines_held = lines.len();
    let floor = decode_rate::<WatchEvent<Pod>>(
        &lines,
        sizes.decode_events,
        |e| matches!(e, WatchEvent::Modified(_)),
        "k8s-openapi WatchEvent<Pod>",
    )?;
    let one_pass = decode_rate::<OnePassEvent>(
        &lines,
        sizes.decode_events,
        |e| e.kind == "MODIFIED" && e.object.metadata.name.is_some(),
        "{type, object: Pod}",
    )?;
    let cores = std::thread::available_parallelism().map_or(1, usize::from);
    let parallel = parallel_decode_rate::<OnePassEvent>(&lines, sizes.decode_events, cores, false)?;
    let holding = parallel_decode_rate::<OnePassEvent>(&lines, sizes.decode_events, cores, true)?;
    drop(lines);
    let stream = server_stream_rate(server, sizes, false).await?;
    let ours_stream = ours_stream_rate(server, sizes).await?;
    let kube = kube(server, sizes).await?;
    let one = ours(server, sizes, 1, false).await?;
    let ten = ours(server, sizes, 10, false).await?;

    let m = sizes.m;
    let p = format!("watch.m{m}");
    let l = format!("watch.paced{LATENCY_RATE}");
    let rounds = sizes.rounds;
    let write_rate = one
        .slowest_write_per_s
        .min(ten.slowest_write_per_s)
        .min(kube.slowest_write_per_s);
    // What decoding alone costs a core per event, as the one-thread one-pass floor does it.
    let decode_us = 1e6 / one_pass.max(1e-9);
    let cpu_note = format!(
        "CPU time of the whole client process per event in its fastest burst, on {cores} cores; baseline: the one-thread serde_json decode's time per event"
    );
    let latency_note = format!(
        "{} merge patches paced at {LATENCY_RATE}/s; server write to handler 0",
        sizes.latency_writes
    );
    Ok(vec![
        Record::new(SECTION, format!("{p}.server_write_rate"), write_rate, "events/s").note(
            format!(
                "slowest of {} bursts of {m} MODIFIED events over {PODS} pods: the batch write, objects built beforehand",
                3 * rounds
            ),
        ),
        Record::new(SECTION, format!("{p}.server_stream_rate"), stream, "events/s").note(
            format!("from `burst` to the M-th line of one raw HTTP watch that only counts lines; best of {rounds}"),
        ),
        Record::new(SECTION, "watch.decode_floor", floor, "events/s").note(format!(
            "serde_json into k8s-openapi WatchEvent<Pod> (via serde_json::Value), one thread, the server's own lines ({line_bytes:.0} B each, {:.0} MB/s); best of {DECODE_PASSES}",
            floor * line_bytes / 1e6
        )),
        Record::new(SECTION, "watch.decode_floor_one_pass", one_pass, "events/s")
            .against("decode floor", floor)
            .note(format!(
                "serde_json straight into {{type, object: Pod}}, one thread, same lines ({:.0} MB/s); best of {DECODE_PASSES}",
                one_pass * line_bytes / 1e6
            )),
        Record::new(SECTION, "watch.parallel_decode_floor", parallel, "events/s")
            .against("one thread", one_pass)
            .note(format!(
                "the one-pass decode on {cores} threads at once (the cores available), same lines; best of {DECODE_PASSES}"
            )),
        Record::new(SECTION, "watch.parallel_holding_decode_floor", holding, "events/s")
            .against("parallel decode floor", parallel)
            .note(format!(
                "the parallel decode floor keeping the last event of each of the {lines_held} pods on each thread, so each decode frees the one it replaces, as a cache does; best of {DECODE_PASSES}"
            )),
        Record::new(SECTION, format!("{p}.kube-rs"), kube.events_per_s, "events/s")
            .note(format!("best of {rounds} bursts")),
        Record::new(SECTION, format!("{p}.ours_stream"), ours_stream.events_per_s, "events/s")
            .against("parallel decode floor", parallel)
            .note(format!(
                "Client::watch alone, no informer, managedFields omitted as informers get them; best of {rounds} bursts"
            )),
        Record::new(SECTION, format!("{p}.ours_stream_cpu_per_event"), ours_stream.cpu_us_per_event, "us")
            .against("decoding alone", decode_us)
            .note(cpu_note),
        Record::new(SECTION, format!("{p}.ours_1_handler_cpu_per_event"), one.cpu_us_per_event, "us")
            .against("decoding alone", decode_us)
            .note("the informer with 1 handler: transport, decode, store and indexes, handler, dropping the replaced Pod"),
        Record::new(SECTION, format!("{p}.kube-rs_cpu_per_event"), kube.cpu_us_per_event, "us")
            .against("decoding alone", decode_us),
        Record::new(
            SECTION,
            format!("{p}.ours_1_handler"),
            one.events_per_s,
            "events/s",
        )
        .against("parallel decode floor", parallel)
        .note(format!("best of {rounds} bursts; the floor decodes on all {cores} cores and does nothing else")),
        Record::new(
            SECTION,
            format!("{p}.ours_1_handler_vs_holding_floor"),
            one.events_per_s,
            "events/s",
        )
        .against("holding decode floor", holding)
        .target(Target::ratio_at_least(1.0))
        .note("the same rate against the decode floor that also holds what it decodes and frees what an update replaces, as any cache must"),
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
        .note("10 handlers cost <= 2x one handler, i.e. keep >= 0.5x its rate; every handler sees all M"),
        Record::new(SECTION, format!("{l}.ours_1_handler_p50"), one.p50_ms, "ms")
            .against("kube-rs", kube.p50_ms)
            .note(latency_note.clone()),
        Record::new(SECTION, format!("{l}.ours_1_handler_p99"), one.p99_ms, "ms")
            .against("kube-rs", kube.p99_ms),
        Record::new(SECTION, format!("{l}.ours_10_handlers_p50"), ten.p50_ms, "ms")
            .against("kube-rs", kube.p50_ms),
        Record::new(SECTION, format!("{l}.ours_10_handlers_p99"), ten.p99_ms, "ms")
            .against("kube-rs", kube.p99_ms),
    ])
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pod(rv: u64, sent: Option<u64>) -> Pod {
        let mut pod = Pod::default();
        pod.metadata.resource_version = Some(rv.to_string());
        pod.metadata.annotations =
            sent.map(|s| [(SENT_ANNOTATION.to_owned(), s.to_string())].into());
        pod
    }

    #[test]
    fn probe_counts_only_updates_above_the_armed_rv() {
        let probe = Probe::new(2);
        probe.seen(0, &pod(5, None));
        assert!(!probe.all_done(), "nothing counts before arming");
        probe.arm(10, 2, false);
        for rv in [9, 10, 11, 12] {
            probe.seen(0, &pod(rv, None));
        }
        assert!(!probe.all_done(), "handler 1 saw nothing yet");
        probe.seen(1, &pod(11, None));
        probe.seen(1, &pod(13, None));
        assert!(probe.all_done());
        assert!(probe.last_done_ns() > 0);
        probe.arm(20, 1, true);
        assert!(!probe.all_done(), "arming starts over");
        probe.seen(0, &pod(21, Some(now_ns())));
        probe.seen(1, &pod(21, Some(now_ns())));
        assert!(probe.all_done());
        let (p50, p99) = probe.latency_ms();
        assert!(p50 >= 0.0 && p99 >= p50);
    }

    #[test]
    fn decode_rate_rejects_lines_that_are_not_modified_pods() {
        let modified = Bytes::from_static(
            br#"{"type":"MODIFIED","object":{"kind":"Pod","apiVersion":"v1","metadata":{"name":"p","resourceVersion":"3"}}}"#,
        );
        let added = Bytes::from_static(
            br#"{"type":"ADDED","object":{"kind":"Pod","apiVersion":"v1","metadata":{"name":"p"}}}"#,
        );
        let is_modified = |e: &WatchEvent<Pod>| matches!(e, WatchEvent::Modified(_));
        assert!(
            decode_rate(std::slice::from_ref(&modified), 10, is_modified, "event")
                .is_ok_and(|r| r > 0.0)
        );
        assert!(decode_rate(&[modified, added], 10, is_modified, "event").is_err());
        assert!(decode_rate(&[], 10, is_modified, "event").is_err());
        assert!(decode_rate(&[Bytes::from_static(b"{")], 10, is_modified, "event").is_err());
    }
}
