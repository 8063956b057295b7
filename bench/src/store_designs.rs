//! How a cache's reads fare while a writer changes it, for three designs of the map behind
//! an informer's store, on the same cached Pods, keys and machine: the evidence for the
//! store's design (issue 19: reads that never wait on writes).
//!
//! - **one lock**: one `RwLock<HashMap>`, the store before; every reader bumps one shared
//!   lock word, so two readers bounce its cache line between cores even with no writer.
//! - **sharded**: 64 `RwLock<HashMap>`s on cache lines of their own, by key hash, the store
//!   now; a write holds up the readers of one shard for one map operation.
//! - **snapshot**: read-copy-update: readers load an immutable snapshot through
//!   `arc_swap::ArcSwap` (no shared write per read); a writer copies the one shard it
//!   changes (structural sharing of the other 255) and publishes a new snapshot.
//!
//! Each design runs 2 reader threads for a window with no writer, then for the same window
//! beside a writer making `rate` updates per second.

use std::collections::HashMap;
use std::hash::BuildHasher;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, RwLock};
use std::time::{Duration, Instant};

use arc_swap::ArcSwap;
use k8s_openapi::api::core::v1::Pod;

use crate::error::BenchError;
use crate::results::Record;

type Map = HashMap<Arc<str>, Arc<Pod>, foldhash::fast::RandomState>;

const PICK: foldhash::fast::FixedState = foldhash::fast::FixedState::with_seed(0x5eed_5a4d);

trait Design: Send + Sync {
    fn get(&self, key: &str) -> Option<Arc<Pod>>;
    fn put(&self, key: Arc<str>, pod: Arc<Pod>);
}

fn read<T>(l: &RwLock<T>) -> std::sync::RwLockReadGuard<'_, T> {
    l.read().unwrap_or_else(|e| e.into_inner())
}

fn write<T>(l: &RwLock<T>) -> std::sync::RwLockWriteGuard<'_, T> {
    l.write().unwrap_or_else(|e| e.into_inner())
}

struct OneLock(RwLock<Map>);

impl Design for OneLock {
    fn get(&self, key: &str) -> Option<Arc<Pod>> {
        read(&self.0).get(key).cloned()
    }
    fn put(&self, key: Arc<str>, pod: Arc<Pod>) {
        write(&self.0).insert(key, pod);
    }
}

#[repr(align(64))]
struct Padded(RwLock<Map>);

struct Sharded(Box<[Padded]>);

impl Sharded {
    fn shard(&self, key: &str) -> &RwLock<Map> {
        &self.0[(PICK.hash_one(key) as usize) % self.0.len()].0
    }
}

impl Design for Sharded {
    fn get(&self, key: &str) -> Option<Arc<Pod>> {
        read(self.shard(key)).get(key).cloned()
    }
    fn put(&self, key: Arc<str>, pod: Arc<Pod>) {
        write(self.shard(&key)).insert(key, pod);
    }
}

struct Snapshot(ArcSwap<Vec<Arc<Map>>>);

impl Snapshot {
    fn pick(&self, shards: usize, key: &str) -> usize {
        (PICK.hash_one(key) as usize) % shards
    }
}

impl Design for Snapshot {
    fn get(&self, key: &str) -> Option<Arc<Pod>> {
        let snapshot = self.0.load();
        snapshot
            .get(self.pick(snapshot.len(), key))
            .and_then(|m| m.get(key).cloned())
    }
    // One writer, as in an informer: no compare-and-swap loop needed.
    fn put(&self, key: Arc<str>, pod: Arc<Pod>) {
        let current = self.0.load_full();
        let i = self.pick(current.len(), &key);
        let mut shards: Vec<Arc<Map>> = current.as_ref().clone();
        if let Some(shard) = shards.get_mut(i) {
            let mut copy: Map = shard.as_ref().clone();
            copy.insert(key, pod);
            *shard = Arc::new(copy);
        }
        self.0.store(Arc::new(shards));
    }
}

fn sharded_maps(pods: &[(Arc<str>, Arc<Pod>)], shards: usize) -> Vec<Map> {
    let mut maps: Vec<Map> = (0..shards).map(|_| Map::default()).collect();
    for (k, p) in pods {
        let i = (PICK.hash_one(k.as_ref()) as usize) % shards;
        maps[i].insert(k.clone(), p.clone());
    }
    maps
}

fn build(name: &str, pods: &[(Arc<str>, Arc<Pod>)]) -> Box<dyn Design> {
    match name {
        "one_lock" => Box::new(OneLock(RwLock::new(pods.iter().cloned().collect()))),
        "sharded" => Box::new(Sharded(
            sharded_maps(pods, 64)
                .into_iter()
                .map(|m| Padded(RwLock::new(m)))
                .collect(),
        )),
        _ => Box::new(Snapshot(ArcSwap::from_pointee(
            sharded_maps(pods, 256).into_iter().map(Arc::new).collect(),
        ))),
    }
}

/// Worst reader's (wall, CPU) ns per get, and the writer's µs per update.
struct Run {
    wall: f64,
    cpu: f64,
    update_us: Option<f64>,
}

fn run(
    design: &dyn Design,
    pods: &[(Arc<str>, Arc<Pod>)],
    order: &[Arc<[usize]>],
    window: Duration,
    rate: Option<f64>,
) -> Result<Run, BenchError> {
    let stop = AtomicBool::new(false);
    let writer_ns = AtomicU64::new(0);
    let writes = AtomicU64::new(0);
    let results: Vec<Result<(f64, f64), BenchError>> = std::thread::scope(|scope| {
        let readers: Vec<_> = order
            .iter()
            .map(|order| {
                let stop = &stop;
                scope.spawn(move || {
                    let start = Instant::now();
                    let cpu_start = crate::cpu::thread_cpu_ns();
                    let (mut ops, mut found) = (0usize, 0usize);
                    while !stop.load(Ordering::Relaxed) {
                        for &i in order.iter() {
                            if let Some((key, _)) = pods.get(i) {
                                found += usize::from(design.get(key).is_some());
                            }
                        }
                        ops += order.len();
                    }
                    let cpu = crate::cpu::thread_cpu_ns().saturating_sub(cpu_start) as f64;
                    if found != ops || ops == 0 {
                        return Err(BenchError::Informer {
                            who: "store design comparison".into(),
                            reason: format!("found {found} of {ops}"),
                        });
                    }
                    Ok((
                        start.elapsed().as_nanos() as f64 / ops as f64,
                        cpu / ops as f64,
                    ))
                })
            })
            .collect();
        if let Some(rate) = rate {
            // Updates in batches every millisecond: `rate` per second on average.
            let start = Instant::now();
            let mut done = 0usize;
            while start.elapsed() < window {
                let due = (start.elapsed().as_secs_f64() * rate) as usize;
                let t = Instant::now();
                while done < due {
                    let (key, pod) = &pods[done % pods.len()];
                    design.put(key.clone(), pod.clone());
                    done += 1;
                }
                writer_ns.fetch_add(t.elapsed().as_nanos() as u64, Ordering::Relaxed);
                std::thread::sleep(Duration::from_millis(1));
            }
            writes.store(done as u64, Ordering::Relaxed);
        } else {
            std::thread::sleep(window);
        }
        stop.store(true, Ordering::Relaxed);
        readers
            .into_iter()
            .map(|r| {
                r.join().map_err(|_| BenchError::Informer {
                    who: "store design reader".into(),
                    reason: "panicked".into(),
                })?
            })
            .collect()
    });
    let mut out = Run {
        wall: 0.0,
        cpu: 0.0,
        update_us: None,
    };
    for r in results {
        let (wall, cpu) = r?;
        out.wall = out.wall.max(wall);
        out.cpu = out.cpu.max(cpu);
    }
    let writes = writes.load(Ordering::Relaxed);
    if writes > 0 {
        out.update_us = Some(writer_ns.load(Ordering::Relaxed) as f64 / writes as f64 / 1e3);
    }
    Ok(out)
}

/// Compares the designs over `pods` (key, object), readers visiting them in `orders` (one
/// per reader thread), for `window` idle and `window` beside `rate` updates per second.
pub fn compare(
    section: &str,
    pods: &[(Arc<str>, Arc<Pod>)],
    orders: &[Arc<[usize]>],
    window: Duration,
    rate: f64,
) -> Result<Vec<Record>, BenchError> {
    let readers = orders.len();
    let mut records = Vec::new();
    for name in ["one_lock", "sharded", "snapshot"] {
        let design = build(name, pods);
        let idle = run(design.as_ref(), pods, orders, window, None)?;
        let busy = run(design.as_ref(), pods, orders, window, Some(rate))?;
        let p = format!("listers.design.{name}");
        records.push(
            Record::new(
                section,
                format!("{p}.get_{readers}_readers_idle"),
                idle.wall,
                "ns",
            )
            .note(format!(
                "{} Pods; slowest of {readers} reader threads, no writer",
                pods.len()
            )),
        );
        records.push(
            Record::new(
                section,
                format!("{p}.get_{readers}_readers_during_updates"),
                busy.wall,
                "ns",
            )
            .against("same design, idle", idle.wall)
            .note(format!("wall clock beside a writer at {rate:.0} updates/s")),
        );
        records.push(
            Record::new(
                section,
                format!("{p}.get_{readers}_readers_during_updates_cpu"),
                busy.cpu,
                "ns",
            )
            .against("same design, idle", idle.cpu)
            .note("the reader threads' own CPU time per get"),
        );
        if let Some(us) = busy.update_us {
            records.push(
                Record::new(section, format!("{p}.update"), us, "us")
                    .note("the writer's time per update while the readers run"),
            );
        }
    }
    Ok(records)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_design_reads_what_was_written() {
        let pods: Vec<(Arc<str>, Arc<Pod>)> = (0..300)
            .map(|i| (Arc::from(format!("ns/p{i}")), Arc::new(Pod::default())))
            .collect();
        for name in ["one_lock", "sharded", "snapshot"] {
            let d = build(name, &pods);
            assert!(d.get("ns/p7").is_some(), "{name}");
            assert!(d.get("ns/nope").is_none(), "{name}");
            let mut pod = Pod::default();
            pod.metadata.name = Some("new".into());
            d.put(Arc::from("ns/p7"), Arc::new(pod));
            assert_eq!(
                d.get("ns/p7")
                    .and_then(|p| p.metadata.name.clone())
                    .as_deref(),
                Some("new"),
                "{name}"
            );
            assert!(d.get("ns/p8").is_some(), "{name}");
        }
    }
}
