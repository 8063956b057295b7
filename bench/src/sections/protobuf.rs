//! Protobuf against JSON, same server, same run (issue #35). For each of the sync section's
//! sizes: the size of a Pod list in each, its transfer, decoding each (informer-protobuf into
//! Pods against serde_json's floor on the JSON), and our informer's initial sync asking for
//! protobuf against the same informer told to ask for JSON (`Config::disable_protobuf`),
//! alternated: time, heap held per Pod and CPU per Pod, with the floor of the protobuf sync
//! (the larger of its list's transfer and its decode over the cores: the informer decodes a
//! list's items as they arrive, so the two overlap at best). The same syncs again, each in a
//! fresh child process, beside a child that only builds the same Pods by cloning: the memory
//! floor of a first sync. Then watch throughput: the watch section's bursts into each
//! informer, and the server's own streaming rate in each.

use std::sync::Arc;
use std::time::Instant;

use informer_protobuf::{decode_list, DecodeOptions};
use informer_runtime::protobuf::{decoders, ACCEPT};
use k8s_openapi::api::core::v1::Pod;

use super::sync::{check_count, decode_floor, namespaces_for, Floor};
use super::{settle, timed, watch, Ctx};
use crate::alloc;
use crate::cli::{ChildBuild, SyncChildArgs};
use crate::cpu;
use crate::error::BenchError;
use crate::ours::{Ours, OursOptions};
use crate::raw_http;
use crate::results::{Record, Target};
use crate::server_process::{ServerProcess, ServerSpec};

const SECTION: &str = "protobuf";
/// The target for the protobuf sync against our JSON sync.
const SYNC_TARGET: f64 = 0.6;
/// The target for protobuf watch events/s against JSON's.
const WATCH_TARGET: f64 = 1.3;
/// Syncs of each client at every size, alternated.
const SYNC_PAIRS: usize = 3;
/// Watch runs of each client, alternated; each times `rounds` bursts.
const WATCH_PAIRS: usize = 2;
/// The bound on heap per Pod, protobuf against JSON: unchanged within ±3%.
const HEAP_TOLERANCE: f64 = 0.03;
/// Decodes of each list per figure; the fastest counts.
const DECODE_PASSES: usize = 5;

/// Runs the section.
pub async fn run(ctx: Ctx) -> Result<Vec<Record>, BenchError> {
    let mut records = Vec::new();
    for &n in super::sync::sizes(ctx) {
        let server = ServerProcess::start(ServerSpec {
            pods: n,
            namespaces: namespaces_for(n),
            history: 1_000,
        })
        .await?;
        let result = list_and_sync(&server, n, ctx).await;
        server.stop().await?;
        records.extend(result?);
    }
    let sizes = watch::Sizes::new(ctx.quick);
    let mut server = ServerProcess::start(watch::server_spec(sizes)).await?;
    let result = watch_throughput(&mut server, sizes).await;
    server.stop().await?;
    records.extend(result?);
    Ok(records)
}

fn decode_err(who: &str, e: impl ToString) -> BenchError {
    BenchError::Informer {
        who: who.into(),
        reason: e.to_string(),
    }
}

/// Best of [`DECODE_PASSES`] decodes of a protobuf Pod list on this thread;
/// `keep_managed_fields` as the JSON floor does.
fn protobuf_decode(bytes: &[u8], keep_managed_fields: bool) -> Result<(f64, usize), BenchError> {
    let mut best = f64::INFINITY;
    let mut items = 0;
    for _ in 0..DECODE_PASSES {
        let start = Instant::now();
        let list = decode_list::<Pod>(
            bytes,
            DecodeOptions::default().keep_managed_fields(keep_managed_fields),
        )
        .map_err(|e| decode_err("protobuf decode", e))?;
        best = best.min(start.elapsed().as_secs_f64());
        items = list.items.len();
    }
    Ok((best, items))
}

/// Best of [`DECODE_PASSES`] decodes of a protobuf Pod list over the cores, managedFields
/// skipped: the item decoder the informer's client calls as items arrive, here over a
/// list already whole (the list decoder the client falls back to).
fn informer_decode(bytes: &[u8]) -> Result<(f64, usize), BenchError> {
    let list = decoders::<Pod>().list;
    let mut best = f64::INFINITY;
    let mut items = 0;
    for _ in 0..DECODE_PASSES {
        let start = Instant::now();
        let (_, pods) = list(bytes, false).map_err(|e| decode_err("the informer's decoder", e))?;
        best = best.min(start.elapsed().as_secs_f64());
        items = pods.len();
    }
    Ok((best, items))
}

/// Heap held per Pod by the Pods the informer's protobuf decoder gives, and by the same Pods
/// cloned, every `Vec` and `String` of a clone sized to its length: the difference is the
/// spare capacity the decoder leaves.
fn decoded_heap(bytes: &[u8], n: usize) -> Result<(f64, f64), BenchError> {
    let (_, decoded) = (decoders::<Pod>().list)(bytes, false)
        .map_err(|e| decode_err("the informer's decoder", e))?;
    check_count(decoded.len(), n, "the informer's protobuf decode")?;
    let exact = decoded.clone();
    // Measured as what dropping each gives back: only the Pods, whatever the decoding
    // threads allocated and freed around them.
    let held = |pods: Vec<Pod>| {
        let before = alloc::live_bytes();
        drop(pods);
        before.saturating_sub(alloc::live_bytes()) as f64 / n as f64
    };
    let exact = held(exact);
    Ok((held(decoded), exact))
}

/// One initial sync of our informer.
#[derive(Clone, Copy)]
struct Synced {
    /// Start to synced.
    secs: f64,
    /// CPU time of this process over those seconds (the server is another process).
    cpu_secs: f64,
    /// Heap held once synced and settled.
    heap: usize,
}

impl Synced {
    fn best(self, other: Self) -> Self {
        Self {
            secs: self.secs.min(other.secs),
            cpu_secs: self.cpu_secs.min(other.cpu_secs),
            heap: self.heap.min(other.heap),
        }
    }
}

/// Syncs our Pod informer, asking for JSON only when `disable_protobuf`, and checks it holds
/// `n` Pods.
async fn sync(url: &str, n: usize, disable_protobuf: bool) -> Result<Synced, BenchError> {
    let options = OursOptions {
        disable_protobuf,
        ..OursOptions::default()
    };
    // The previous informer's memory is given back before the base is read.
    settle().await;
    let base = alloc::live_bytes();
    let (secs, cpu_secs, ours) = start_synced(url, &options).await?;
    settle().await;
    let heap = alloc::live_bytes().saturating_sub(base);
    check_count(
        ours.lister().list(&Default::default()).len(),
        n,
        "our cache",
    )?;
    ours.stop().await;
    Ok(Synced {
        secs,
        cpu_secs,
        heap,
    })
}

/// Starts our Pod informer and waits for it to sync: seconds from start to synced, this
/// process's CPU seconds over them, and the informer.
async fn start_synced(url: &str, options: &OursOptions) -> Result<(f64, f64, Ours), BenchError> {
    let cpu_start = cpu::process_cpu_ns();
    let (secs, ours) = timed(async {
        let ours = Ours::start(url, options)?;
        ours.wait_synced().await?;
        Ok::<_, BenchError>(ours)
    })
    .await;
    let cpu_secs = cpu::process_cpu_ns().saturating_sub(cpu_start) as f64 / 1e9;
    Ok((secs, cpu_secs, ours?))
}

/// The cold-sync child (`bench sync-child`): one sync in a process that has done nothing
/// else, so its heap grows from nothing as a controller's first sync's does; prints
/// `synced SECS SYSTEM_SECS` (start to synced, and the kernel's CPU time over it) and exits.
/// As the memory floor, it builds the same Pods by cloning instead ([`memory_floor`]).
pub async fn sync_child(args: SyncChildArgs) -> Result<(), BenchError> {
    let disable_protobuf = match args.build {
        ChildBuild::Protobuf => false,
        ChildBuild::Json => true,
        ChildBuild::MemoryFloor => return memory_floor(&args.url, args.pods).await,
    };
    let options = OursOptions {
        disable_protobuf,
        ..OursOptions::default()
    };
    let system_start = cpu::process_system_cpu_ns();
    let (secs, _, ours) = start_synced(&args.url, &options).await?;
    let system_secs = cpu::process_system_cpu_ns().saturating_sub(system_start) as f64 / 1e9;
    check_count(
        ours.lister().list(&Default::default()).len(),
        args.pods,
        "the cold-sync child's cache",
    )?;
    println!("synced {secs} {system_secs}");
    ours.stop().await;
    Ok(())
}

/// The Pods the memory floor fetches and decodes before its clock starts.
const FLOOR_SAMPLE: usize = 64;

/// The memory floor of a cold sync of `n` Pods: in this fresh process, fetches
/// [`FLOOR_SAMPLE`] Pods, then times building `n` of them, each cloned from the sample into
/// the `Arc` a cache keeps it in, on as many threads as there are cores. Whatever the wire, a
/// client's first sync allocates and writes these objects into memory the kernel has to
/// fault in; cloning does only that, with nothing to read or parse. Prints the same line as
/// a sync.
async fn memory_floor(url: &str, n: usize) -> Result<(), BenchError> {
    let sample_url = format!("{url}/api/v1/pods?limit={FLOOR_SAMPLE}");
    let body = raw_http::get_bytes_accepting(&sample_url, Some(ACCEPT)).await?;
    let (_, sample) = (decoders::<Pod>().list)(&body, false)
        .map_err(|e| decode_err("the memory floor's sample", e))?;
    drop(body);
    if sample.is_empty() {
        return Err(decode_err("the memory floor's sample", "no Pods listed"));
    }
    let cores = std::thread::available_parallelism().map_or(1, usize::from);
    let per_thread = n.div_ceil(cores);
    let system_start = cpu::process_system_cpu_ns();
    let start = Instant::now();
    let built = std::thread::scope(|scope| {
        let threads: Vec<_> = (0..cores)
            .map(|t| {
                let sample = &sample;
                scope.spawn(move || {
                    (t * per_thread..n.min((t + 1) * per_thread))
                        .map(|i| Arc::new(sample[i % sample.len()].clone()))
                        .collect::<Vec<_>>()
                })
            })
            .collect();
        threads
            .into_iter()
            .map(|t| t.join())
            .collect::<Result<Vec<_>, _>>()
    })
    .map_err(|_| decode_err("the memory floor", "a cloning thread panicked"))?;
    let secs = start.elapsed().as_secs_f64();
    let system_secs = cpu::process_system_cpu_ns().saturating_sub(system_start) as f64 / 1e9;
    check_count(
        built.iter().map(Vec::len).sum(),
        n,
        "the memory floor's Pods",
    )?;
    println!("synced {secs} {system_secs}");
    Ok(())
}

/// One sync of our Pod informer (or its memory floor) in a child process of its own (see
/// [`sync_child`]): its seconds from start to synced, and the kernel's CPU seconds over them.
async fn cold_sync(url: &str, n: usize, build: ChildBuild) -> Result<(f64, f64), BenchError> {
    let (what, flag) = match build {
        ChildBuild::Protobuf => ("protobuf", None),
        ChildBuild::Json => ("JSON", Some("--json")),
        ChildBuild::MemoryFloor => ("memory floor", Some("--memory-floor")),
    };
    let failed = |reason: String| BenchError::Informer {
        who: format!("the cold-sync child ({what})"),
        reason,
    };
    let exe = std::env::current_exe().map_err(|e| failed(format!("locate own binary: {e}")))?;
    let mut command = tokio::process::Command::new(exe);
    command.args(["sync-child", "--url", url, "--pods", &n.to_string()]);
    command.args(flag);
    let out = command
        .kill_on_drop(true)
        .output()
        .await
        .map_err(|e| failed(format!("spawn: {e}")))?;
    let stdout = String::from_utf8_lossy(&out.stdout);
    if !out.status.success() {
        return Err(failed(format!(
            "{}: {}",
            out.status,
            String::from_utf8_lossy(&out.stderr).trim()
        )));
    }
    stdout
        .lines()
        .find_map(|l| l.strip_prefix("synced "))
        .and_then(|figures| {
            let mut figures = figures.split(' ').map(str::parse::<f64>);
            Some((figures.next()?.ok()?, figures.next()?.ok()?))
        })
        .ok_or_else(|| failed(format!("no `synced SECS SYSTEM_SECS` line in {stdout:?}")))
}

async fn list_and_sync(
    server: &ServerProcess,
    n: usize,
    ctx: Ctx,
) -> Result<Vec<Record>, BenchError> {
    let url = server.url();
    // The informer's first request: a server that serves resourceVersion=0 from its cache
    // (as this one does, like kube-apiserver's watch cache) sends every Pod at once.
    let list_url = format!("{url}/api/v1/pods?limit=500&resourceVersion=0");
    // The first protobuf list of a server encodes every Pod; it keeps each encoding, as
    // kube-apiserver's watch cache keeps its serializations, so later lists send them.
    let (first_protobuf_list, protobuf) =
        timed(raw_http::get_bytes_accepting(&list_url, Some(ACCEPT))).await;
    let protobuf = protobuf?;
    if !protobuf.starts_with(b"k8s\0") {
        return Err(BenchError::Informer {
            who: "the test server".into(),
            reason: "answered a protobuf-first Pod list without protobuf".into(),
        });
    }
    let json = raw_http::get_bytes_accepting(&list_url, Some("application/json")).await?;
    // Received whole and dropped: what the server and the loopback take for each, best of 3.
    let (mut json_transfer, mut protobuf_transfer) = (f64::INFINITY, f64::INFINITY);
    for _ in 0..3 {
        let (t, sent) = timed(raw_http::get_bytes_accepting(
            &list_url,
            Some("application/json"),
        ))
        .await;
        sent?;
        json_transfer = json_transfer.min(t);
        let (t, sent) = timed(raw_http::get_bytes_accepting(&list_url, Some(ACCEPT))).await;
        sent?;
        protobuf_transfer = protobuf_transfer.min(t);
    }
    let Floor {
        warm: json_floor,
        items,
        ..
    } = decode_floor(&json)?;
    check_count(items, n, "JSON decode floor list")?;
    let (protobuf_all, items) = protobuf_decode(&protobuf, true)?;
    check_count(items, n, "protobuf list")?;
    let (protobuf_skip, _) = protobuf_decode(&protobuf, false)?;
    let (as_informer, items) = informer_decode(&protobuf)?;
    check_count(items, n, "the informer's protobuf decode")?;
    let (decoded_per_pod, exact_per_pod) = decoded_heap(&protobuf, n)?;
    let (protobuf_len, json_len) = (protobuf.len(), json.len());
    drop((protobuf, json));

    // Alternated: the machine is shared and noisy. Best of 3, once when quick. At 100k the
    // first pairs also regrow the heap the decodes above gave back (about 1.5 GB), and the
    // protobuf informer, whose decoding costs less, feels that the more: over four pairs run
    // by hand its syncs kept getting faster (1.37, 1.09, 0.95, 0.87 s) where JSON's settled
    // by the third (1.90, 1.71, 1.62, 1.64 s). Every pair's times go into the note.
    let reps = if ctx.quick { 1 } else { SYNC_PAIRS };
    let mut pairs = Vec::with_capacity(reps);
    let mut with_protobuf = sync(url, n, false).await?;
    let mut with_json = sync(url, n, true).await?;
    pairs.push((with_protobuf.secs, with_json.secs));
    for _ in 1..reps {
        let (protobuf_run, json_run) = (sync(url, n, false).await?, sync(url, n, true).await?);
        pairs.push((protobuf_run.secs, json_run.secs));
        with_protobuf = with_protobuf.best(protobuf_run);
        with_json = with_json.best(json_run);
    }
    // The same, each sync in a fresh process: what a controller's one sync meets, and the
    // memory floor of such a sync beside them.
    let mut cold_runs = Vec::with_capacity(reps);
    for _ in 0..reps {
        let protobuf_run = cold_sync(url, n, ChildBuild::Protobuf).await?;
        let json_run = cold_sync(url, n, ChildBuild::Json).await?;
        cold_runs.push((
            protobuf_run,
            json_run,
            cold_sync(url, n, ChildBuild::MemoryFloor).await?,
        ));
    }
    let (cold_protobuf, cold_protobuf_system) = fastest(cold_runs.iter().map(|r| r.0));
    let (cold_json, cold_json_system) = fastest(cold_runs.iter().map(|r| r.1));
    let (memory_floor, memory_floor_system) = fastest(cold_runs.iter().map(|r| r.2));
    let cold_pairs: Vec<_> = cold_runs.iter().map(|(p, j, _)| (p.0, j.0)).collect();
    let floors = cold_runs
        .iter()
        .map(|r| format!("{:.3} s", r.2 .0))
        .collect::<Vec<_>>()
        .join(", ");
    let (pairs, cold_pairs) = (in_order(&pairs), in_order(&cold_pairs));

    let cores = std::thread::available_parallelism().map_or(1, usize::from);
    let floor = protobuf_transfer.max(as_informer);
    let floor_ratio = floor / with_json.secs;
    let reach = if floor_ratio > SYNC_TARGET {
        format!(": no protobuf sync against this server gets under {SYNC_TARGET}x here")
    } else {
        String::new()
    };
    let heap_ratio = with_protobuf.heap as f64 / with_json.heap.max(1) as f64;
    let heap_lower = if heap_ratio >= 1.0 - HEAP_TOLERANCE {
        "met too"
    } else {
        "missed: the protobuf informer holds less"
    };
    let p = format!("{SECTION}.n{n}");
    let per_pod = |x: f64| x / n as f64;
    Ok(vec![
        Record::new(
            SECTION,
            format!("{p}.list_bytes_per_pod"),
            per_pod(protobuf_len as f64),
            "B",
        )
        .against("JSON", per_pod(json_len as f64)),
        Record::new(
            SECTION,
            format!("{p}.server_first_protobuf_list"),
            first_protobuf_list,
            "s",
        )
        .against("later protobuf lists", protobuf_transfer)
        .note(format!(
            "the server child's first protobuf list encodes every Pod ({:.1} µs a Pod over the later lists) and keeps the encodings; every other figure here is served from them",
            per_pod(first_protobuf_list - protobuf_transfer) * 1e6
        )),
        Record::new(
            SECTION,
            format!("{p}.list_transfer"),
            protobuf_transfer,
            "s",
        )
        .against("the JSON list", json_transfer)
        .note("the informer's list request received whole without decoding, best of 3"),
        Record::new(
            SECTION,
            format!("{p}.decode_vs_json_floor"),
            protobuf_all,
            "s",
        )
        .against("serde_json floor on the JSON", json_floor)
        .note(format!(
            "every field decoded, managedFields included, on both sides; one thread; best of {DECODE_PASSES}"
        )),
        Record::new(
            SECTION,
            format!("{p}.decode_skipping_managed_fields"),
            protobuf_skip,
            "s",
        )
        .against("serde_json floor on the JSON", json_floor)
        .note("managedFields skipped unread, as our informers decode; one thread"),
        Record::new(SECTION, format!("{p}.decode_as_informer"), as_informer, "s")
            .against("one thread", protobuf_skip)
            .note(format!(
                "the list's items decoded over {cores} cores with managedFields skipped, as the informer's client decodes them; best of {DECODE_PASSES}"
            )),
        Record::new(SECTION, format!("{p}.sync_floor"), floor, "s")
            .against("ours asking for JSON", with_json.secs)
            .note(format!(
                "the larger of the protobuf list's transfer ({protobuf_transfer:.3} s) and its decode as the informer does it ({as_informer:.3} s): the informer decodes items as they arrive, so at best the two overlap whole; no protobuf sync against this server beats it, and its ratio is the least sync_vs_json can be here"
            )),
        Record::new(SECTION, format!("{p}.sync_vs_json"), with_protobuf.secs, "s")
            .against("ours asking for JSON", with_json.secs)
            .target(Target::ratio_at_most(SYNC_TARGET))
            .note(format!(
                "the default informer against the same with Config::disable_protobuf, same server, alternated, best of {reps} (protobuf/JSON in order: {pairs}); the floor of the protobuf sync (the larger of list {protobuf_transfer:.3} s and decode on {cores} cores {as_informer:.3} s) is {floor:.3} s, {floor_ratio:.2}x this JSON sync{reach}"
            )),
        Record::new(SECTION, format!("{p}.cold_sync_vs_json"), cold_protobuf, "s")
            .against("ours asking for JSON", cold_json)
            .note(format!(
                "each sync in a child process that does nothing else, so the heap grows from nothing as at a controller's start; alternated, best of {reps} (protobuf/JSON in order: {cold_pairs}); sync_vs_json, which carries the target, syncs in this process, whose heap the syncs before have grown"
            )),
        Record::new(SECTION, format!("{p}.cold_memory_floor"), memory_floor, "s")
            .against("ours asking for JSON, cold", cold_json)
            .note(format!(
                "a child process that does nothing else builds the same {n} Pods, each in the Arc a cache keeps it in, by cloning {FLOOR_SAMPLE} fetched before its clock starts, on {cores} threads: the memory every client's first sync of these objects allocates and writes, whichever wire, with nothing read or parsed; kernel CPU {memory_floor_system:.3} s; best of {reps} ({floors})"
            )),
        Record::new(
            SECTION,
            format!("{p}.cold_sync_above_floor"),
            (cold_protobuf - memory_floor).max(0.0),
            "s",
        )
        .against("ours asking for JSON, cold", (cold_json - memory_floor).max(0.0))
        .note("each format's fastest cold sync less the memory floor: what reading the wire and decoding it add to a first sync beyond the memory it must fill"),
        Record::new(
            SECTION,
            format!("{p}.cold_sync_system_cpu"),
            cold_protobuf_system,
            "s",
        )
        .against("ours asking for JSON", cold_json_system)
        .note(format!(
            "the kernel's CPU time in the fastest cold sync of each format, start to synced: mostly page faults of the heap growing from nothing, the same heap whichever format fills it; on {cores} cores it costs the sync at least 1/{cores} of itself in wall-clock time"
        )),
        Record::new(SECTION, format!("{p}.sync_vs_floor"), with_protobuf.secs, "s")
            .against("protobuf sync floor", floor)
            .note("what the informer adds to the floor: building the cache, and the part of transfer and decode that does not overlap (the two share the machine's cores with the server)"),
        Record::new(
            SECTION,
            format!("{p}.heap_per_pod"),
            per_pod(with_protobuf.heap as f64),
            "B",
        )
        .against("ours asking for JSON", per_pod(with_json.heap as f64))
        .target(Target::ratio_at_most(1.0 + HEAP_TOLERANCE))
        .note(format!(
            "heap held once synced (counting allocator), best of {reps}; the issue asks for ±{:.0}%: the target judges the upper side, the lower side (ratio >= {:.2}) is {heap_lower}; the protobuf decoder's Pods hold {:.0} B each of spare Vec and String capacity (decoded_heap_per_pod)",
            HEAP_TOLERANCE * 100.0,
            1.0 - HEAP_TOLERANCE,
            decoded_per_pod - exact_per_pod
        )),
        Record::new(SECTION, format!("{p}.decoded_heap_per_pod"), decoded_per_pod, "B")
            .against("the same Pods cloned", exact_per_pod)
            .note("the Pods of the informer's protobuf decoder (managedFields skipped), against clones of them, whose every Vec and String is sized to its length: repeated fields decoded by push keep the capacity they grew to"),
        Record::new(
            SECTION,
            format!("{p}.cpu_per_pod"),
            per_pod(with_protobuf.cpu_secs) * 1e6,
            "us",
        )
        .against("ours asking for JSON", per_pod(with_json.cpu_secs) * 1e6)
        .note(format!(
            "CPU time of the client process from start to synced over the Pods, on {cores} cores (the server is another process); best of {reps}"
        )),
    ])
}

/// The cold sync with the fewest seconds, and its kernel CPU seconds.
fn fastest(runs: impl Iterator<Item = (f64, f64)>) -> (f64, f64) {
    runs.fold((f64::INFINITY, 0.0), |best, run| {
        if run.0 < best.0 {
            run
        } else {
            best
        }
    })
}

/// Protobuf/JSON seconds of each pair, in order, for a note.
fn in_order(pairs: &[(f64, f64)]) -> String {
    pairs
        .iter()
        .map(|(p, j)| format!("{p:.3}/{j:.3} s"))
        .collect::<Vec<_>>()
        .join(", ")
}

async fn watch_throughput(
    server: &mut ServerProcess,
    sizes: watch::Sizes,
) -> Result<Vec<Record>, BenchError> {
    let json_stream = watch::server_stream_rate(server, sizes, false).await?;
    let protobuf_stream = watch::server_stream_rate(server, sizes, true).await?;
    // Alternated, as the syncs are: the machine is shared, and whichever client ran in a
    // quieter minute would otherwise win.
    let mut with_protobuf = watch::ours(server, sizes, 1, false).await?;
    let mut with_json = watch::ours(server, sizes, 1, true).await?;
    let pairs = if sizes.rounds > 1 { WATCH_PAIRS } else { 1 };
    for _ in 1..pairs {
        with_protobuf = with_protobuf.faster(watch::ours(server, sizes, 1, false).await?);
        with_json = with_json.faster(watch::ours(server, sizes, 1, true).await?);
    }
    let (m, rounds) = (sizes.m, sizes.rounds);
    let p = format!("{SECTION}.watch.m{m}");
    Ok(vec![
        Record::new(
            SECTION,
            format!("{p}.server_stream_rate"),
            protobuf_stream,
            "events/s",
        )
        .against("JSON", json_stream)
        .note(format!(
            "the watch section's bursts of {m} MODIFIED events streamed to a raw watch that only counts protobuf frames or JSON lines; best of {rounds}; the server encodes each event's protobuf when it first streams it, its JSON when it is written"
        )),
        Record::new(
            SECTION,
            format!("{p}.events_per_s_vs_json"),
            with_protobuf.events_per_s,
            "events/s",
        )
        .against("ours asking for JSON", with_json.events_per_s)
        .target(Target::ratio_at_least(WATCH_TARGET))
        .note(format!(
            "our informer with 1 handler, default against Config::disable_protobuf, {pairs} runs each alternated, best of their {rounds} bursts each; the server alone streams {protobuf_stream:.0} protobuf events/s and {json_stream:.0} JSON events/s to a client that only counts them, so the protobuf rate can be at most {:.2}x this JSON one here",
            protobuf_stream / with_json.events_per_s.max(1e-9)
        )),
        Record::new(
            SECTION,
            format!("{p}.cpu_per_event"),
            with_protobuf.cpu_us_per_event,
            "us",
        )
        .against("ours asking for JSON", with_json.cpu_us_per_event)
        .note("CPU time of the client process per event in its fastest burst (the server is another process)"),
    ])
}
