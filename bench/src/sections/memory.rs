//! Heap held per cached Pod after sync (counting allocator; the server is another
//! process), and the peak during a forced relist of every pod.

use std::sync::Arc;
use std::time::Duration;

use informer_runtime::client::Config;
use informer_runtime::{CacheMode, Client, InformerFactory, MetadataSharedInformerFactory};
use informers::MetadataGroups;
use k8s_openapi::api::core::v1::Pod;
use k8s_openapi::List;

use super::{settle, wait_until, Ctx};
use crate::alloc;
use crate::error::BenchError;
use crate::kube_baseline::KubeReflector;
use crate::ours::{Ours, OursOptions};
use crate::raw_http;
use crate::results::{Record, Target};
use crate::server_process::{ServerProcess, ServerSpec};

const SECTION: &str = "memory";
const RELIST_LIMIT: Duration = Duration::from_secs(600);
/// Hot set of the compact cache measured.
const COMPACT_HOT: usize = 1024;

/// What one configuration holds.
struct Held {
    per_pod: f64,
    /// Peak during a relist over steady state, when measured.
    relist_peak_ratio: Option<f64>,
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
    let relist_peak_ratio = if relist {
        let lists_before = ours.lists();
        let watches_before = ours.watches();
        let window = alloc::PeakWindow::open();
        server.command("relist").await?;
        // Dropped watch -> re-watch gets 410 -> relist -> new watch once the relist is applied.
        wait_until("our relist after a compaction", RELIST_LIMIT, || {
            ours.lists() > lists_before && ours.watches() >= watches_before + 2
        })
        .await?;
        settle().await;
        let peak = window.close().saturating_sub(base);
        Some(peak as f64 / held as f64)
    } else {
        None
    };
    ours.stop().await;
    Ok(Held {
        per_pod: held as f64 / n as f64,
        relist_peak_ratio,
    })
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
    })
}

/// The JSON decoder a floor figure uses.
#[derive(Clone, Copy)]
enum Decoder {
    /// serde_json, as kube-rs decodes: vectors grow by doubling.
    SerdeJson,
    /// simd-json, as our informer decodes: vectors get their exact length.
    SimdJson,
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

/// Heap held by the pods of one full list decoded into `Vec<Arc<Pod>>`: what k8s-openapi's
/// `Pod` costs by itself, before any cache. With simd-json's exact capacities, it is the
/// least any cache holding whole, decoded k8s-openapi Pods can hold.
async fn decoded(server: &ServerProcess, n: usize, decoder: Decoder) -> Result<f64, BenchError> {
    let bytes = raw_http::get_bytes(&format!("{}/api/v1/pods", server.url())).await?;
    let pods: Vec<Arc<Pod>> = match decoder {
        Decoder::SerdeJson => {
            let list: List<Pod> =
                serde_json::from_slice(&bytes).map_err(|e| BenchError::Decode {
                    what: "full pod list for the decoded floor".into(),
                    source: e,
                })?;
            list.items.into_iter().map(Arc::new).collect()
        }
        // Item by item, as our informer decodes list items.
        Decoder::SimdJson => {
            let mut items = item_bytes(&bytes)?;
            let mut pods = Vec::with_capacity(items.len());
            for item in &mut items {
                let pod: Pod =
                    simd_json::serde::from_slice(item).map_err(|e| BenchError::Informer {
                        who: "simd-json decoding a listed pod".into(),
                        reason: e.to_string(),
                    })?;
                pods.push(Arc::new(pod));
            }
            pods
        }
    };
    super::sync::check_count(pods.len(), n, "decoded list")?;
    // What dropping the pods gives back: the growth since `base` can be smaller, as
    // simd-json gives back buffers of its own while decoding.
    let before = alloc::live_bytes();
    drop(pods);
    let held = before.saturating_sub(alloc::live_bytes());
    Ok(held as f64 / n as f64)
}

async fn measure(server: &mut ServerProcess, n: usize) -> Result<Vec<Record>, BenchError> {
    let decoded_exact = decoded(server, n, Decoder::SimdJson).await?;
    let decoded = decoded(server, n, Decoder::SerdeJson).await?;
    let kube = kube(server, n).await?;
    let default = ours(server, n, OursOptions::default(), true).await?;
    let compact = ours(
        server,
        n,
        OursOptions {
            cache_mode: CacheMode::compact(COMPACT_HOT),
            ..Default::default()
        },
        false,
    )
    .await?;
    let metadata = metadata(server, n).await?;
    let dropped = ours(
        server,
        n,
        OursOptions {
            drop_managed_fields: true,
            ..Default::default()
        },
        false,
    )
    .await?;
    let p = format!("memory.n{n}");
    let mut records = vec![
        Record::new(SECTION, format!("{p}.decoded_pod"), decoded, "B")
            .note("a serde_json-decoded List<Pod> held as Vec<Arc<Pod>>: k8s-openapi's own size"),
        Record::new(SECTION, format!("{p}.decoded_pod_exact"), decoded_exact, "B")
            .against("kube-rs", kube.per_pod)
            .note("simd-json with exact Vec capacities, as we decode, held as Vec<Arc<Pod>>: the least any cache of whole decoded k8s-openapi Pods holds, so a faithful default cache cannot go below this ratio"),
        Record::new(SECTION, format!("{p}.kube-rs_per_pod"), kube.per_pod, "B"),
        Record::new(
            SECTION,
            format!("{p}.ours_default_per_pod"),
            default.per_pod,
            "B",
        )
        .against("kube-rs", kube.per_pod)
        .target(Target::ratio_at_most(0.5)),
        Record::new(
            SECTION,
            format!("{p}.ours_drop_managed_fields_per_pod"),
            dropped.per_pod,
            "B",
        )
        .against("kube-rs", kube.per_pod),
        Record::new(SECTION, format!("{p}.ours_compact_per_pod"), compact.per_pod, "B")
            .against("kube-rs", kube.per_pod)
            .target(Target::value_at_most(3_000.0))
            .note(format!(
                "CacheMode::compact({COMPACT_HOT}): LZ4-compressed JSON, decoded hot set empty after sync"
            )),
        Record::new(SECTION, format!("{p}.ours_metadata_only_per_pod"), metadata, "B")
            .against("kube-rs", kube.per_pod)
            .note("MetadataSharedInformerFactory, core().v1().pods(): PartialObjectMetadata"),
    ];
    if let (Some(ours), Some(theirs)) = (default.relist_peak_ratio, kube.relist_peak_ratio) {
        records.push(
            Record::new(SECTION, format!("{p}.relist_peak_over_steady"), ours, "x")
                .against("kube-rs", theirs)
                .target(Target::value_at_most(1.3)),
        );
    }
    Ok(records)
}
