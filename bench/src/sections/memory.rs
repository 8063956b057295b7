//! Heap held per cached Pod after sync (counting allocator; the server is another
//! process), and the peak during forced relists of every pod: unchanged, and every pod changed.

use std::sync::Arc;
use std::time::Duration;

use informer_runtime::client::Config;
use informer_runtime::{
    CacheMode, Client, InformerFactory, MetadataSharedInformerFactory, Projection,
};
use informers::MetadataGroups;
use k8s_openapi::api::core::v1::Pod;
use k8s_openapi::NamespaceResourceScope;
use listers::core::v1::PodLister;

use super::{settle, wait_until, Ctx};
use crate::alloc;
use crate::error::BenchError;
use crate::kube_baseline::KubeReflector;
use crate::ours::{Ours, OursOptions};
use crate::projection::{OursProjected, PodView, PodViewObjectMeta};
use crate::raw_http;
use crate::results::{Record, Target};
use crate::server_process::{ServerProcess, ServerSpec};

const SECTION: &str = "memory";
const RELIST_LIMIT: Duration = Duration::from_secs(600);
/// Hot set of the compact cache measured (a quarter of the pods in small runs, so reads
/// of every pod still miss it).
const COMPACT_HOT: usize = 1024;

/// What one configuration holds.
struct Held {
    per_pod: f64,
    /// Peak during a relist over steady state, when measured.
    relist_peak_ratio: Option<f64>,
    /// Peak during a relist that finds every pod changed, over steady state (ours only).
    relist_changed_peak_ratio: Option<f64>,
    /// Compact mode: µs per `get` of a Pod outside the hot set.
    miss_us: Option<f64>,
}

/// Runs the section.
pub async fn run(ctx: Ctx) -> Result<Vec<Record>, BenchError> {
    let n = if ctx.quick { 1_000 } else { 10_000 };
    let mut server = ServerProcess::start(ServerSpec {
        pods: n,
        namespaces: super::sync::namespaces_for(n),
        history: 1_000,
    })
    .await?;
    let result = measure(&mut server, n).await;
    server.stop().await?;
    result
}

async fn ours(
    server: &mut ServerProcess,
    n: usize,
    options: OursOptions,
    relist: bool,
) -> Result<Held, BenchError> {
    settle().await;
    let base = alloc::live_bytes();
    let ours = Ours::start(server.url(), &options)?;
    ours.wait_synced().await?;
    settle().await;
    let held = alloc::live_bytes().saturating_sub(base);
    super::sync::check_count(
        ours.lister().list(&Default::default()).len(),
        n,
        "our cache",
    )?;
    let miss_us = match options.cache_mode {
        CacheMode::Compact { hot } => Some(miss_cost(ours.lister(), hot)?),
        _ => None,
    };
    let (relist_peak_ratio, relist_changed_peak_ratio) = if relist {
        let unchanged = relist_peak(server, &ours, "relist", base, held).await?;
        let changed = relist_peak(server, &ours, "relist-changed", base, held).await?;
        (Some(unchanged), Some(changed))
    } else {
        (None, None)
    };
    ours.stop().await;
    Ok(Held {
        per_pod: held as f64 / n as f64,
        relist_peak_ratio,
        relist_changed_peak_ratio,
        miss_us,
    })
}

/// Peak heap over `held` while `command` makes our informer relist, from `base`.
async fn relist_peak(
    server: &mut ServerProcess,
    ours: &Ours,
    command: &str,
    base: usize,
    held: usize,
) -> Result<f64, BenchError> {
    let lists_before = ours.lists();
    let watches_before = ours.watches();
    let window = alloc::PeakWindow::open();
    server.command(command).await?;
    // Dropped watch -> re-watch gets 410 -> relist -> new watch once the relist is applied.
    wait_until("our relist after a compaction", RELIST_LIMIT, || {
        ours.lists() > lists_before && ours.watches() >= watches_before + 2
    })
    .await?;
    settle().await;
    let peak = window.close().saturating_sub(base);
    Ok(peak as f64 / held as f64)
}

/// µs per lister `get` of a Pod the hot set does not hold: every cached Pod read once, in
/// the store's order, more of them than the hot set keeps, so every read decodes.
fn miss_cost(lister: &PodLister, hot: usize) -> Result<f64, BenchError> {
    let keys: Vec<(String, String)> = lister
        .list(&Default::default())
        .iter()
        .map(|p| {
            (
                p.metadata.namespace.clone().unwrap_or_default(),
                p.metadata.name.clone().unwrap_or_default(),
            )
        })
        .collect();
    if keys.len() <= hot {
        return Err(BenchError::Informer {
            who: "compact cache miss cost".into(),
            reason: format!("{} pods fit in a hot set of {hot}", keys.len()),
        });
    }
    let start = std::time::Instant::now();
    let found = keys
        .iter()
        .filter(|(ns, name)| lister.pods(ns).get(name).is_some())
        .count();
    let us = start.elapsed().as_secs_f64() * 1e6 / keys.len() as f64;
    super::sync::check_count(found, keys.len(), "compact cache gets")?;
    Ok(us)
}

/// What the metadata-only informer of the same pods holds, through the generated
/// `metadata_factory.core().v1().pods()`.
async fn metadata(server: &ServerProcess, n: usize) -> Result<f64, BenchError> {
    let err = |reason: String| BenchError::Informer {
        who: "our metadata informer".into(),
        reason,
    };
    settle().await;
    let base = alloc::live_bytes();
    let client = Client::new(Config::new(server.url())).map_err(|e| err(e.to_string()))?;
    let factory = MetadataSharedInformerFactory::new(client, Duration::ZERO);
    let pods = factory.core().v1().pods();
    factory.start();
    match tokio::time::timeout(RELIST_LIMIT, factory.wait_for_cache_sync()).await {
        Ok(synced) => synced.map_err(|e| err(e.to_string()))?,
        Err(_) => {
            return Err(BenchError::Timeout(
                "metadata informer sync".into(),
                RELIST_LIMIT,
            ))
        }
    }
    settle().await;
    let held = alloc::live_bytes().saturating_sub(base);
    super::sync::check_count(
        pods.lister().list(&Default::default()).len(),
        n,
        "metadata cache",
    )?;
    drop(pods);
    factory.shutdown().await;
    Ok(held as f64 / n as f64)
}

async fn kube(server: &mut ServerProcess, n: usize) -> Result<Held, BenchError> {
    settle().await;
    let base = alloc::live_bytes();
    let kube = KubeReflector::start(server.url(), None)?;
    kube.wait_synced().await?;
    settle().await;
    let held = alloc::live_bytes().saturating_sub(base);
    super::sync::check_count(kube.len(), n, "kube-rs store")?;
    let lists_before = kube.lists_done();
    let window = alloc::PeakWindow::open();
    server.command("relist").await?;
    wait_until("kube-rs relist after a compaction", RELIST_LIMIT, || {
        kube.lists_done() > lists_before
    })
    .await?;
    settle().await;
    let peak = window.close().saturating_sub(base);
    kube.stop().await;
    Ok(Held {
        per_pod: held as f64 / n as f64,
        relist_peak_ratio: Some(peak as f64 / held as f64),
        relist_changed_peak_ratio: None,
        miss_us: None,
    })
}

/// The JSON text of every item of a list body, each in its own buffer.
fn item_bytes(list: &[u8]) -> Result<Vec<Vec<u8>>, BenchError> {
    let decode = |e| BenchError::Decode {
        what: "full pod list, split into items".into(),
        source: e,
    };
    let value: serde_json::Value = serde_json::from_slice(list).map_err(decode)?;
    value["items"]
        .as_array()
        .into_iter()
        .flatten()
        .map(|item| serde_json::to_vec(item).map_err(decode))
        .collect()
}

/// Heap held by the pods of one full list decoded item by item with simd-json, as our
/// informer decodes them (exact `Vec` capacities), into `Vec<Arc<Pod>>`: what whole
/// k8s-openapi Pods cost by themselves, before any cache.
fn decoded(bytes: &[u8], n: usize) -> Result<f64, BenchError> {
    let mut items = item_bytes(bytes)?;
    let mut pods: Vec<Arc<Pod>> = Vec::with_capacity(items.len());
    for item in &mut items {
        let pod: Pod = simd_json::serde::from_slice(item).map_err(|e| BenchError::Informer {
            who: "simd-json decoding a listed pod".into(),
            reason: e.to_string(),
        })?;
        pods.push(Arc::new(pod));
    }
    drop(items);
    super::sync::check_count(pods.len(), n, "decoded list")?;
    // What dropping the pods gives back: the growth since `base` can be smaller, as
    // simd-json gives back buffers of its own while decoding.
    let before = alloc::live_bytes();
    drop(pods);
    let held = before.saturating_sub(alloc::live_bytes());
    Ok(held as f64 / n as f64)
}

/// Bytes per Pod of the listed JSON, and of its `metadata.managedFields`.
fn json_sizes(list: &[u8], n: usize) -> Result<(f64, f64), BenchError> {
    let decode = |e| BenchError::Decode {
        what: "full pod list, managedFields measured".into(),
        source: e,
    };
    let value: serde_json::Value = serde_json::from_slice(list).map_err(decode)?;
    let items = value["items"]
        .as_array()
        .map(Vec::as_slice)
        .unwrap_or_default();
    super::sync::check_count(items.len(), n, "listed pods")?;
    let mut pods = 0usize;
    let mut managed = 0usize;
    for item in items {
        pods += serde_json::to_vec(item).map_err(decode)?.len();
        managed += serde_json::to_vec(&item["metadata"]["managedFields"])
            .map_err(decode)?
            .len();
    }
    Ok((pods as f64 / n as f64, managed as f64 / n as f64))
}

/// µs per Pod to decode the listed Pods (managedFields dropped, as cached) from each
/// encoding a compact cache could keep: what a hot-set miss costs besides the lookup.
struct DecodeCosts {
    lz4_json_simd: f64,
    /// `lz4_json_simd`, each Pod kept among the last `hot` decoded and the one it pushes
    /// out freed, as a hot set does on a miss.
    lz4_json_simd_evicting: f64,
    json_simd: f64,
    lz4_json_serde: f64,
    lz4_msgpack: f64,
}

fn decode_costs(list: &[u8], hot: usize) -> Result<DecodeCosts, BenchError> {
    let fail = |what: &str, e: String| BenchError::Informer {
        who: format!("compact encoding: {what}"),
        reason: e,
    };
    let pods: Vec<Pod> = item_bytes(list)?
        .iter_mut()
        .map(|item| {
            let mut pod: Pod =
                simd_json::serde::from_slice(item).map_err(|e| fail("decode", e.to_string()))?;
            pod.metadata.managed_fields = None;
            Ok(pod)
        })
        .collect::<Result<_, BenchError>>()?;
    let json: Vec<Vec<u8>> = pods
        .iter()
        .map(|p| serde_json::to_vec(p).map_err(|e| fail("json", e.to_string())))
        .collect::<Result<_, _>>()?;
    let lz4_json: Vec<Vec<u8>> = json
        .iter()
        .map(|j| lz4_flex::compress_prepend_size(j))
        .collect();
    let lz4_msgpack: Vec<Vec<u8>> = pods
        .iter()
        .map(|p| {
            rmp_serde::to_vec_named(p)
                .map(|m| lz4_flex::compress_prepend_size(&m))
                .map_err(|e| fail("msgpack", e.to_string()))
        })
        .collect::<Result<_, _>>()?;
    let n = pods.len().max(1) as f64;
    let mut scratch = Vec::new();
    let time = |f: &mut dyn FnMut() -> Result<(), BenchError>| {
        let start = std::time::Instant::now();
        f().map(|()| start.elapsed().as_secs_f64() * 1e6 / n)
    };
    let simd = |bytes: &[u8], scratch: &mut Vec<u8>| -> Result<Pod, BenchError> {
        scratch.clear();
        scratch.extend_from_slice(bytes);
        simd_json::serde::from_slice(scratch).map_err(|e| fail("simd-json", e.to_string()))
    };
    let unlz4 =
        |b: &[u8]| lz4_flex::decompress_size_prepended(b).map_err(|e| fail("lz4", e.to_string()));
    let lz4_json_simd = time(&mut || {
        for b in &lz4_json {
            std::hint::black_box(simd(&unlz4(b)?, &mut scratch)?);
        }
        Ok(())
    })?;
    let mut kept = std::collections::VecDeque::with_capacity(hot + 1);
    let lz4_json_simd_evicting = time(&mut || {
        for b in &lz4_json {
            kept.push_back(simd(&unlz4(b)?, &mut scratch)?);
            if kept.len() > hot {
                kept.pop_front();
            }
        }
        Ok(())
    })?;
    // The last `hot` stay decoded in a hot set: freed after the clock stops.
    drop(kept);
    let json_simd = time(&mut || {
        for b in &json {
            std::hint::black_box(simd(b, &mut scratch)?);
        }
        Ok(())
    })?;
    let lz4_json_serde = time(&mut || {
        for b in &lz4_json {
            let pod: Pod = serde_json::from_slice(&unlz4(b)?)
                .map_err(|e| fail("serde_json", e.to_string()))?;
            std::hint::black_box(pod);
        }
        Ok(())
    })?;
    let lz4_msgpack = time(&mut || {
        for b in &lz4_msgpack {
            let pod: Pod = rmp_serde::from_slice(&unlz4(b)?)
                .map_err(|e| fail("msgpack decode", e.to_string()))?;
            std::hint::black_box(pod);
        }
        Ok(())
    })?;
    Ok(DecodeCosts {
        lz4_json_simd,
        lz4_json_simd_evicting,
        json_simd,
        lz4_json_serde,
        lz4_msgpack,
    })
}

/// What the shared informer of the projection `V` of the same pods holds.
async fn projected<V>(server: &ServerProcess, n: usize) -> Result<f64, BenchError>
where
    V: Projection<Of = Pod> + k8s_openapi::Resource<Scope = NamespaceResourceScope> + Clone,
{
    settle().await;
    let base = alloc::live_bytes();
    let ours = OursProjected::<V>::start(server.url())?;
    ours.wait_synced().await?;
    settle().await;
    let held = alloc::live_bytes().saturating_sub(base);
    super::sync::check_count(ours.list().len(), n, "projected cache")?;
    ours.stop().await;
    Ok(held as f64 / n as f64)
}

async fn measure(server: &mut ServerProcess, n: usize) -> Result<Vec<Record>, BenchError> {
    let hot = COMPACT_HOT.min(n / 4);
    let list = raw_http::get_bytes(&format!("{}/api/v1/pods", server.url())).await?;
    let (json_per_pod, managed_json_per_pod) = json_sizes(&list, n)?;
    let decoded_exact = decoded(&list, n)?;
    let costs = decode_costs(&list, hot)?;
    drop(list);
    let kube = kube(server, n).await?;
    let default = ours(server, n, OursOptions::default(), true).await?;
    let kept = ours(
        server,
        n,
        OursOptions {
            keep_managed_fields: true,
            ..Default::default()
        },
        false,
    )
    .await?;
    let compact = ours(
        server,
        n,
        OursOptions {
            cache_mode: CacheMode::compact(hot),
            ..Default::default()
        },
        false,
    )
    .await?;
    let metadata = metadata(server, n).await?;
    let view = projected::<PodView>(server, n).await?;
    let view_object_meta = projected::<PodViewObjectMeta>(server, n).await?;
    let p = format!("memory.n{n}");
    let mut records = vec![
        Record::new(SECTION, format!("{p}.pod_json"), json_per_pod, "B")
            .note("JSON of one Pod as the server lists it"),
        Record::new(SECTION, format!("{p}.managed_fields_json"), managed_json_per_pod, "B")
            .against("whole Pod JSON", json_per_pod)
            .note("JSON of its metadata.managedFields: kubectl-client-side-apply, kube-controller-manager and kubelet (status subresource), as a real server keeps them"),
        Record::new(SECTION, format!("{p}.kube-rs_per_pod"), kube.per_pod, "B")
            .note("kube-rs reflector: whole Pods, managedFields kept"),
        Record::new(SECTION, format!("{p}.ours_default_per_pod"), default.per_pod, "B")
            .against("kube-rs", kube.per_pod)
            .target(Target::ratio_at_most(0.45))
            .note("factory defaults: whole Pods, managedFields dropped"),
        Record::new(SECTION, format!("{p}.ours_projection_per_pod"), view, "B")
            .against("kube-rs", kube.per_pod)
            .target(Target::value_at_most(1_500.0))
            .note("PodView: name, namespace, labels, resourceVersion, ownerReferences and generation of the metadata (ViewMeta), spec.nodeName, spec.containers[].image, status.phase"),
        Record::new(
            SECTION,
            format!("{p}.ours_projection_object_meta_per_pod"),
            view_object_meta,
            "B",
        )
        .against("kube-rs", kube.per_pod)
        .note("PodView keeping the whole ObjectMeta (managedFields dropped)"),
        Record::new(SECTION, format!("{p}.ours_metadata_only_per_pod"), metadata, "B")
            .against("kube-rs", kube.per_pod)
            .note("MetadataSharedInformerFactory, core().v1().pods(): PartialObjectMetadata, managedFields dropped"),
        Record::new(SECTION, format!("{p}.ours_compact_per_pod"), compact.per_pod, "B")
            .against("kube-rs", kube.per_pod)
            .target(Target::value_at_most(3_000.0))
            .note(format!(
                "CacheMode::compact({hot}): LZ4-compressed JSON, decoded hot set empty after sync"
            )),
        Record::new(SECTION, format!("{p}.ours_keep_managed_fields_per_pod"), kept.per_pod, "B")
            .against("kube-rs", kube.per_pod)
            .note("keep_managed_fields(): whole Pods as the server sends them, like kube-rs"),
        Record::new(SECTION, format!("{p}.decoded_pod_exact"), decoded_exact, "B")
            .against("kube-rs", kube.per_pod)
            .note("simd-json with exact Vec capacities, as we decode, held as Vec<Arc<Pod>>, managedFields kept: the least any cache of whole decoded Pods holds when it keeps them"),
    ];
    if let Some(us) = compact.miss_us {
        records.push(
            Record::new(SECTION, format!("{p}.compact_miss"), us, "us")
                .against("decode-and-evict floor", costs.lz4_json_simd_evicting)
                .target(Target::ratio_at_most(1.25))
                .note("lister get of a Pod outside the compact cache's hot set: LZ4 decompression, simd-json decode, hot-set update; the floor decodes the same bytes and frees the Pod it pushes out of a ring of the hot set's size, as any miss must"),
        );
    }
    for (name, us, note) in [
        (
            "lz4_json_simd",
            costs.lz4_json_simd,
            "LZ4-compressed JSON decoded with simd-json: the compact cache's encoding",
        ),
        (
            "lz4_json_simd_evicting",
            costs.lz4_json_simd_evicting,
            &format!("the same, each decoded Pod kept among the last {hot} and the one it pushes out freed, as the hot set does on a miss: the least a miss costs"),
        ),
        ("json_simd", costs.json_simd, "uncompressed JSON, simd-json"),
        (
            "lz4_json_serde",
            costs.lz4_json_serde,
            "LZ4-compressed JSON, serde_json",
        ),
        (
            "lz4_msgpack",
            costs.lz4_msgpack,
            "LZ4-compressed MessagePack (rmp-serde, named fields)",
        ),
    ] {
        records.push(
            Record::new(SECTION, format!("{p}.compact_decode.{name}"), us, "us")
                .against("LZ4 JSON, simd-json", costs.lz4_json_simd)
                .note(format!(
                    "{note}; µs per Pod, managedFields dropped, every listed Pod once"
                )),
        );
    }
    if let (Some(ours), Some(theirs)) = (default.relist_peak_ratio, kube.relist_peak_ratio) {
        records.push(
            Record::new(SECTION, format!("{p}.relist_peak_over_steady"), ours, "x")
                .against("kube-rs", theirs)
                .target(Target::value_at_most(1.3))
                .note("a relist after a 410 that finds every pod unchanged: applied as one write (KEP-5647), staging only what changed"),
        );
    }
    if let Some(ours) = default.relist_changed_peak_ratio {
        records.push(
            Record::new(SECTION, format!("{p}.relist_all_changed_peak_over_steady"), ours, "x")
                .note("a relist after a 410 that finds every pod changed: the atomic relist holds the cache and every new pod until it applies them in one write (an atomic replace cannot hold less: client-go's holds the whole new list)"),
        );
    }
    Ok(records)
}
