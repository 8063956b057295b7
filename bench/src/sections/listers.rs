//! Lister reads from a synced cache: `get(ns, name)`, `list` by namespace and by label
//! selector, and `get` from 1 and 2 reader threads while the watch applies updates.

use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Instant;

use informer_runtime::Selector;
use k8s_openapi::api::core::v1::Pod;
use listers::core::v1::PodLister;

use super::{quantile, Ctx};
use crate::error::BenchError;
use crate::ours::{Ours, OursOptions};
use crate::results::{Record, Target};
use crate::server_process::{reply_field, ServerProcess, ServerSpec};

const SECTION: &str = "listers";
/// Updates per second while readers race the informer.
const UPDATE_RATE: f64 = 10_000.0;

/// Runs the section.
pub async fn run(ctx: Ctx) -> Result<Vec<Record>, BenchError> {
    let n = if ctx.quick { 2_000 } else { 100_000 };
    let mut server = ServerProcess::start(ServerSpec {
        pods: n,
        namespaces: super::sync::namespaces_for(n),
        history: 200_000,
    })
    .await?;
    let result = measure(&mut server, n, ctx).await;
    server.stop().await?;
    result
}

/// The label pair held by the fewest pods among those held by at least 1% of them (or
/// the most common one): a selective label query with a result worth timing.
fn selective_label(pods: &[Arc<Pod>]) -> Option<(String, usize)> {
    let mut counts: HashMap<(&str, &str), usize> = HashMap::new();
    for p in pods {
        for (k, v) in p.metadata.labels.iter().flatten() {
            *counts.entry((k.as_str(), v.as_str())).or_default() += 1;
        }
    }
    let want = (pods.len() / 100).max(1);
    counts
        .into_iter()
        .min_by_key(|(kv, c)| (*c < want, c.abs_diff(want), *kv))
        .map(|((k, v), c)| (format!("{k}={v}"), c))
}

/// Lookup keys laid out for a timing loop: namespace and name bytes packed into one
/// arena, one query after another in the order they are looked up, so the harness reads
/// its keys sequentially (the prefetcher hides that) and a timed `get` pays for the
/// lister's work alone.
///
/// Why: the keys used to be a `Vec<(String, String)>` visited with a large stride. The
/// stride is there to make the *store's* accesses cache-unfriendly, but it also made the
/// harness chase two pointers per lookup to strings scattered over the ~2.5 GB heap of a
/// 100k-pod cache: about 3 cache/TLB misses billed to the lister before it was called.
/// Laying the queries out in visiting order removes those misses and only those: the
/// store is visited in exactly the same order as before.
struct Queries {
    arena: String,
    /// Per query: start of the namespace, its end (= start of the name), end of the name.
    bounds: Vec<(usize, usize, usize)>,
}

impl Queries {
    /// `order` indexes into `keys` (namespace, name); queries are laid out in that order.
    fn new(keys: &[(&str, &str)], order: &[usize]) -> Self {
        let mut arena = String::new();
        let mut bounds = Vec::with_capacity(order.len());
        for (ns, name) in order.iter().filter_map(|&i| keys.get(i)) {
            let start = arena.len();
            arena.push_str(ns);
            let mid = arena.len();
            arena.push_str(name);
            bounds.push((start, mid, arena.len()));
        }
        Self { arena, bounds }
    }

    fn len(&self) -> usize {
        self.bounds.len()
    }

    fn iter(&self) -> impl Iterator<Item = (&str, &str)> + '_ {
        self.bounds.iter().map(|&(start, mid, end)| {
            (
                self.arena.get(start..mid).unwrap_or_default(),
                self.arena.get(mid..end).unwrap_or_default(),
            )
        })
    }
}

/// A large stride (prime, nudged to be coprime with `n` so one period visits every
/// key once): consecutive lookups land far apart in the store.
const STRIDE: usize = 7919;

fn gcd(a: usize, b: usize) -> usize {
    if b == 0 {
        a
    } else {
        gcd(b, a % b)
    }
}

/// Indices `0..n` visited with [`STRIDE`] from `seed`: the cache-unfriendly order.
fn stride_order(n: usize, seed: usize) -> Vec<usize> {
    if n <= 1 {
        return (0..n).collect();
    }
    let stride = (STRIDE..).find(|s| gcd(*s, n) == 1).unwrap_or(1);
    (0..n)
        .map(|i| (seed + i.wrapping_mul(stride)) % n)
        .collect()
}

/// A random permutation of `0..n` (Fisher-Yates over splitmix64, fixed seed: the same
/// order on every run).
fn random_order(n: usize) -> Vec<usize> {
    let mut state = 0x9E37_79B9_7F4A_7C15u64;
    let mut next = move || {
        state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = state;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    };
    let mut order: Vec<usize> = (0..n).collect();
    for i in (1..n).rev() {
        let j = (next() % (i as u64 + 1)) as usize;
        order.swap(i, j);
    }
    order
}

fn not_found(found: usize, ops: usize) -> BenchError {
    BenchError::Informer {
        who: "our lister".into(),
        reason: format!("found {found} of {ops} cached pods"),
    }
}

/// Nanoseconds per `get` over `ops` lookups, cycling through `queries`.
fn gets(lister: &PodLister, queries: &Queries, ops: usize) -> Result<f64, BenchError> {
    if queries.len() == 0 {
        return Err(not_found(0, ops));
    }
    let start = Instant::now();
    let mut found = 0usize;
    let mut done = 0usize;
    while done < ops {
        for (ns, name) in queries.iter().take(ops - done) {
            found += usize::from(lister.pods(ns).get(name).is_some());
        }
        done += queries.len().min(ops - done);
    }
    let ns = start.elapsed().as_nanos() as f64 / ops.max(1) as f64;
    if found != ops {
        return Err(not_found(found, ops));
    }
    Ok(ns)
}

/// A bare hash map of the same `Arc<Pod>`s under `ns/name` keys (foldhash, as our store):
/// the floor of any hash-based cache's `get`.
type BareMap = HashMap<String, Arc<Pod>, foldhash::fast::RandomState>;

fn bare_map(all: &[Arc<Pod>]) -> BareMap {
    all.iter()
        .map(|p| {
            let ns = p.metadata.namespace.as_deref().unwrap_or_default();
            let name = p.metadata.name.as_deref().unwrap_or_default();
            (format!("{ns}/{name}"), p.clone())
        })
        .collect()
}

/// Nanoseconds per lookup in `map`, over `ops` lookups cycling through `queries`, each
/// building its `ns/name` key as a lister does.
fn bare_map_gets(map: &BareMap, queries: &Queries, ops: usize) -> Result<f64, BenchError> {
    let mut key = String::with_capacity(320);
    let start = Instant::now();
    let mut found = 0usize;
    let mut done = 0usize;
    while done < ops {
        for (ns, name) in queries.iter().take(ops - done) {
            key.clear();
            key.push_str(ns);
            key.push('/');
            key.push_str(name);
            found += usize::from(map.get(key.as_str()).cloned().is_some());
        }
        done += queries.len().min(ops - done);
    }
    let ns = start.elapsed().as_nanos() as f64 / ops.max(1) as f64;
    if found != ops {
        return Err(not_found(found, ops));
    }
    Ok(ns)
}

/// Rounds of the lister against the bare map, alternating.
const GET_ROUNDS: usize = 7;

/// Median ns per `get` of the lister and of a bare map of the same Pods, over `ops`
/// lookups each, in [`GET_ROUNDS`] alternating rounds: measured one after the other, the
/// two would see different states of a shared machine (other processes, caches, clock).
fn gets_beside_bare_map(
    lister: &PodLister,
    all: &[Arc<Pod>],
    queries: &Queries,
    ops: usize,
) -> Result<(f64, f64), BenchError> {
    let map = bare_map(all);
    let per_round = (ops / GET_ROUNDS).max(queries.len().min(ops));
    let mut ours = Vec::with_capacity(GET_ROUNDS);
    let mut bare = Vec::with_capacity(GET_ROUNDS);
    for _ in 0..GET_ROUNDS {
        ours.push(gets(lister, queries, per_round)?);
        bare.push(bare_map_gets(&map, queries, per_round)?);
    }
    let median = |times: &mut [f64]| quantile(times, 0.5).unwrap_or(f64::NAN);
    Ok((median(&mut ours), median(&mut bare)))
}

/// One reader thread's cost per `get`.
#[derive(Clone, Copy, Debug)]
struct PerGet {
    /// Wall-clock ns per get: includes the time the thread waits for a core.
    wall: f64,
    /// The thread's own CPU ns per get: what the lookups cost it, lock and cache
    /// contention included, time spent descheduled excluded.
    cpu: f64,
}

/// Cost per `get`, cycling through `queries` in whole passes until `stop` is set
/// (checked between passes, so at least one pass runs).
fn gets_until(
    lister: &PodLister,
    queries: &Queries,
    stop: &AtomicBool,
) -> Result<PerGet, BenchError> {
    if queries.len() == 0 {
        return Err(not_found(0, 0));
    }
    let start = Instant::now();
    let cpu_start = crate::cpu::thread_cpu_ns();
    let mut found = 0usize;
    let mut ops = 0usize;
    loop {
        for (ns, name) in queries.iter() {
            found += usize::from(lister.pods(ns).get(name).is_some());
        }
        ops += queries.len();
        if stop.load(Ordering::Relaxed) {
            break;
        }
    }
    let cpu = crate::cpu::thread_cpu_ns().saturating_sub(cpu_start) as f64 / ops as f64;
    let wall = start.elapsed().as_nanos() as f64 / ops as f64;
    if found != ops {
        return Err(not_found(found, ops));
    }
    Ok(PerGet { wall, cpu })
}

/// The slowest of `threads` reader threads (wall and CPU apart) while `during` runs.
async fn readers_while<F, T>(
    lister: &PodLister,
    queries: &[Arc<Queries>],
    threads: usize,
    during: F,
) -> Result<(PerGet, T), BenchError>
where
    F: std::future::Future<Output = Result<T, BenchError>>,
{
    let stop = Arc::new(AtomicBool::new(false));
    let readers: Vec<_> = queries
        .iter()
        .take(threads)
        .map(|queries| {
            let lister = lister.clone();
            let queries = queries.clone();
            let stop = stop.clone();
            std::thread::spawn(move || gets_until(&lister, &queries, &stop))
        })
        .collect();
    let outcome = during.await;
    // Before any `?`: the readers spin until told to stop.
    stop.store(true, Ordering::Relaxed);
    let mut worst = PerGet {
        wall: 0.0,
        cpu: 0.0,
    };
    for r in readers {
        let got = r.join().map_err(|_| BenchError::Informer {
            who: "reader thread".into(),
            reason: "panicked".into(),
        })??;
        worst.wall = worst.wall.max(got.wall);
        worst.cpu = worst.cpu.max(got.cpu);
    }
    Ok((worst, outcome?))
}

async fn measure(
    server: &mut ServerProcess,
    n: usize,
    ctx: Ctx,
) -> Result<Vec<Record>, BenchError> {
    let ours = Ours::start(server.url(), &OursOptions::default())?;
    ours.wait_synced().await?;
    let lister = ours.lister().clone();
    let all = lister.list(&Selector::everything());
    super::sync::check_count(all.len(), n, "our cache")?;
    // Keys in the order the store lists them; queries are built from them per order.
    let keys: Vec<(&str, &str)> = all
        .iter()
        .map(|p| {
            (
                p.metadata.namespace.as_deref().unwrap_or_default(),
                p.metadata.name.as_deref().unwrap_or_default(),
            )
        })
        .collect();
    let cores = std::thread::available_parallelism().map_or(1, usize::from);
    let get_ops = if ctx.quick { 200_000 } else { 2_000_000 };
    let stride_queries = Queries::new(&keys, &stride_order(n, 0));
    let (get_ns, bare_ns) = gets_beside_bare_map(&lister, &all, &stride_queries, get_ops)?;
    drop(stride_queries);
    let store_order: Vec<usize> = (0..n).collect();
    let store_order_ns = gets(&lister, &Queries::new(&keys, &store_order), get_ops)?;
    let random_ns = gets(&lister, &Queries::new(&keys, &random_order(n)), get_ops)?;
    // One query list per reader thread, each starting elsewhere in the stride order.
    let reader_queries: Vec<Arc<Queries>> = (0..2)
        .map(|t| Arc::new(Queries::new(&keys, &stride_order(n, t * 104_729))))
        .collect();

    let mut namespaces: Vec<String> = keys.iter().map(|(ns, _)| (*ns).to_owned()).collect();
    namespaces.sort();
    namespaces.dedup();
    let list_ops = if ctx.quick { 200 } else { 2_000 };
    let start = Instant::now();
    let mut items = 0usize;
    for i in 0..list_ops {
        items += lister
            .pods(&namespaces[i % namespaces.len()])
            .list(&Selector::everything())
            .len();
    }
    let ns_list_ns = start.elapsed().as_nanos() as f64 / list_ops as f64;
    let ns_list_per_item = start.elapsed().as_nanos() as f64 / items.max(1) as f64;

    let mut records = vec![
        Record::new(SECTION, format!("listers.n{n}.get"), get_ns, "ns")
            .against("bare HashMap", bare_ns)
            .target(Target::ratio_at_most(1.2))
            .note(format!(
                "keys visited with stride {STRIDE} over the store's order (cache-unfriendly), read sequentially by the harness; baseline: the same lookups in a bare HashMap<String, Arc<Pod>> (foldhash); medians of {GET_ROUNDS} rounds alternating between the two"
            )),
        Record::new(SECTION, format!("listers.n{n}.get_store_order"), store_order_ns, "ns")
            .against("stride order", get_ns)
            .note("keys in the order the store lists them"),
        Record::new(SECTION, format!("listers.n{n}.get_random_order"), random_ns, "ns")
            .against("stride order", get_ns)
            .note("keys in a random (fixed-seed) order"),
        Record::new(
            SECTION,
            format!("listers.n{n}.list_namespace"),
            ns_list_ns / 1e3,
            "us",
        )
        .note(format!(
            "{} pods per namespace; {:.0} ns per returned pod",
            items / list_ops,
            ns_list_per_item
        )),
    ];

    if let Some((label, matching)) = selective_label(&all) {
        let selector: Selector = label.parse().map_err(|e| BenchError::Informer {
            who: "label selector".into(),
            reason: format!("{e}"),
        })?;
        let ops = if ctx.quick { 20 } else { 50 };
        let start = Instant::now();
        let mut got = 0;
        for _ in 0..ops {
            got = lister.list(&selector).len();
        }
        let per_op = start.elapsed().as_nanos() as f64 / ops as f64;
        records.push(
            Record::new(SECTION, format!("listers.n{n}.list_label"), per_op / 1e3, "us").note(format!(
                "{label:?} matches {got} of {n} ({matching} expected); {:.0} ns per returned pod, {:.1} ns per cached pod",
                per_op / got.max(1) as f64,
                per_op / n as f64
            )),
        );
    }
    drop(all);

    // Readers run from before the first update until the server has applied the last,
    // so every timed lookup races the informer writing to the store; the same readers
    // with no writes, for as long, are the baseline.
    let updates = if ctx.quick { 2_000 } else { 20_000 };
    let window = std::time::Duration::from_secs_f64(updates as f64 / UPDATE_RATE);
    for threads in [1usize, 2] {
        let (idle, ()) = readers_while(&lister, &reader_queries, threads, async {
            tokio::time::sleep(window).await;
            Ok(())
        })
        .await?;
        let (busy, reply) = readers_while(
            &lister,
            &reader_queries,
            threads,
            server.command(&format!("modify {updates} {UPDATE_RATE}")),
        )
        .await?;
        let rate = reply_field::<f64>(&reply, "secs")
            .filter(|s| *s > 0.0)
            .map_or(UPDATE_RATE, |secs| updates as f64 / secs);
        let stem = format!("listers.n{n}.get_{threads}_readers");
        records.push(
            Record::new(SECTION, format!("{stem}_during_updates"), busy.wall, "ns")
                .against("same readers, idle", idle.wall)
                .note(format!(
                    "stride order; slowest reader thread, wall clock, while the server applied {updates} merge patches at {rate:.0}/s (asked {UPDATE_RATE:.0}/s); this {cores}-core machine also runs the server, the informer's decoding and other users, so the wall clock mostly measures who got a core"
                )),
        );
        let cpu = Record::new(SECTION, format!("{stem}_during_updates_cpu"), busy.cpu, "ns")
            .against("same readers, idle", idle.cpu)
            .note("the slowest reader thread's own CPU time per get: what contention with the writer costs it (lock word and cache lines), without the time it waited for a core; a get never sleeps on a lock for longer than one shard's map operation");
        records.push(if threads == 2 {
            cpu.target(Target::ratio_at_most(1.3))
        } else {
            cpu
        });
        records.push(
            Record::new(SECTION, format!("{stem}_idle"), idle.wall, "ns")
                .against("one reader", get_ns)
                .note("stride order; slowest reader thread, no writes"),
        );
    }
    // The same comparison for three designs of the map alone, on the same Pods and keys.
    let pods: Vec<(Arc<str>, Arc<Pod>)> = lister
        .list(&Selector::everything())
        .into_iter()
        .map(|p| {
            let ns = p.metadata.namespace.as_deref().unwrap_or_default();
            let name = p.metadata.name.as_deref().unwrap_or_default();
            (Arc::from(format!("{ns}/{name}")), p)
        })
        .collect();
    ours.stop().await;
    let orders: Vec<Arc<[usize]>> = (0..2)
        .map(|t| Arc::from(stride_order(pods.len(), t * 104_729)))
        .collect();
    let designs = tokio::task::spawn_blocking(move || {
        crate::store_designs::compare(SECTION, &pods, &orders, window, UPDATE_RATE)
    })
    .await
    .map_err(|e| BenchError::Informer {
        who: "store design comparison".into(),
        reason: e.to_string(),
    })??;
    records.extend(designs);
    Ok(records)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn queries_are_laid_out_in_visiting_order() {
        let keys = [("ns-0", "pod-0"), ("ns-1", "pod-1"), ("ns-0", "pod-2")];
        let q = Queries::new(&keys, &[2, 0, 1, 2]);
        assert_eq!(q.len(), 4);
        let got: Vec<_> = q.iter().collect();
        assert_eq!(got, [keys[2], keys[0], keys[1], keys[2]]);
        assert_eq!(q.arena, "ns-0pod-2ns-0pod-0ns-1pod-1ns-0pod-2");
    }

    #[test]
    fn every_order_visits_every_key_once() {
        for n in [0, 1, 2, 2_000, 2 * STRIDE, 100_000] {
            for mut order in [
                stride_order(n, 0),
                stride_order(n, 104_729),
                random_order(n),
            ] {
                order.sort_unstable();
                assert!(order.iter().copied().eq(0..n), "n = {n}");
            }
        }
        assert_eq!(stride_order(100_000, 0)[..3], [0, STRIDE, 2 * STRIDE]);
        assert_ne!(random_order(1_000), (0..1_000).collect::<Vec<_>>());
    }
}
