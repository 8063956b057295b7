//! Initial sync: time from start to `has_synced` for N pods, against kube-rs and the
//! decode floor (serde_json decoding the very bytes the server sends for the full list).

use std::time::Instant;

use informer_runtime::Projection;
use k8s_openapi::api::core::v1::Pod;
use k8s_openapi::List;
use k8s_openapi::NamespaceResourceScope;

use super::{timed, Ctx};
use crate::error::BenchError;
use crate::kube_baseline::KubeReflector;
use crate::ours::{Ours, OursOptions};
use crate::projection::{OursProjected, PodView, PodViewObjectMeta};
use crate::raw_http;
use crate::results::{Record, Target};
use crate::server_process::{ServerProcess, ServerSpec};

const SECTION: &str = "sync";

/// Pod counts measured.
pub fn sizes(ctx: Ctx) -> &'static [usize] {
    if ctx.quick {
        &[1_000]
    } else {
        &[10_000, 100_000]
    }
}

/// Namespaces `n` pods spread over (about 1000 per namespace, at most 100).
pub fn namespaces_for(n: usize) -> usize {
    (n / 1000).clamp(1, 100)
}

/// Runs the section.
pub async fn run(ctx: Ctx) -> Result<Vec<Record>, BenchError> {
    let mut records = Vec::new();
    for &n in sizes(ctx) {
        let server = ServerProcess::start(ServerSpec {
            pods: n,
            namespaces: namespaces_for(n),
            history: 1_000,
        })
        .await?;
        let result = measure(&server, n, ctx).await;
        server.stop().await?;
        records.extend(result?);
    }
    Ok(records)
}

/// Seconds for serde_json to decode `bytes` as a `PodList`.
pub struct Floor {
    /// Best of 5: the allocator reuses the pages the previous decode freed.
    pub warm: f64,
    /// The first decode, which faults in fresh heap pages as an informer's first sync must.
    pub cold: f64,
    /// The items decoded.
    pub items: usize,
}

pub fn decode_floor(bytes: &[u8]) -> Result<Floor, BenchError> {
    let mut best = f64::INFINITY;
    let mut first = None;
    let mut items = 0;
    for _ in 0..5 {
        let start = Instant::now();
        let list: List<Pod> = serde_json::from_slice(bytes).map_err(|e| BenchError::Decode {
            what: "full pod list for the decode floor".into(),
            source: e,
        })?;
        let t = start.elapsed().as_secs_f64();
        best = best.min(t);
        first.get_or_insert(t);
        items = list.items.len();
        drop(list);
    }
    Ok(Floor {
        warm: best,
        cold: first.unwrap_or(best),
        items,
    })
}

async fn measure(server: &ServerProcess, n: usize, ctx: Ctx) -> Result<Vec<Record>, BenchError> {
    let url = server.url();
    let bytes = raw_http::get_bytes(&format!("{url}/api/v1/pods")).await?;
    let Floor {
        warm: floor,
        cold,
        items,
    } = decode_floor(&bytes)?;
    check_count(items, n, "decode floor list")?;
    let mb_per_s = bytes.len() as f64 / floor / 1e6;
    let per_pod = bytes.len() as f64 / n as f64;
    drop(bytes);

    // Small runs are noisy on a shared machine: best of 3; the large one runs once.
    let reps = if n <= 10_000 && !ctx.quick { 3 } else { 1 };
    let mut ours_best = f64::INFINITY;
    let mut kube_best = f64::INFINITY;
    let mut view_best = f64::INFINITY;
    let mut view_object_meta_best = f64::INFINITY;
    let mut transfer_best = f64::INFINITY;
    for _ in 0..reps {
        // The informer's first request; a server that serves resourceVersion=0 from its
        // cache (as this one does, like kube-apiserver's watch cache) sends every Pod at once.
        let (t, sent) = timed(raw_http::drain(&format!(
            "{url}/api/v1/pods?limit=500&resourceVersion=0"
        )))
        .await;
        if sent? == 0 {
            return Err(BenchError::Informer {
                who: "list transfer".into(),
                reason: "the server sent an empty list body".into(),
            });
        }
        transfer_best = transfer_best.min(t);
        view_best = view_best.min(projected_sync::<PodView>(url, n).await?);
        view_object_meta_best =
            view_object_meta_best.min(projected_sync::<PodViewObjectMeta>(url, n).await?);
        ours_best = ours_best.min(ours_sync_time(url, n, &OursOptions::default()).await?);

        kube_best = kube_best.min(KubeReflector::sync_time(url, n).await?);
    }

    let p = format!("sync.n{n}");
    // At 100k the cache is ~1 GB of new memory: the warm floor decodes into pages it has
    // already touched, so the cold floor is the one a first sync can be held to.
    let (warm_target, cold_target) = if n >= 100_000 {
        (None, Some(Target::ratio_at_most(1.3)))
    } else {
        (Some(Target::ratio_at_most(1.3)), None)
    };
    let with = |r: Record, t: Option<Target>| match t {
        Some(t) => r.target(t),
        None => r,
    };
    Ok(vec![
        Record::new(SECTION, format!("{p}.list_json_per_pod"), per_pod, "B"),
        Record::new(SECTION, format!("{p}.decode_floor"), floor, "s").note(format!(
            "serde_json, List<Pod>, best of 5: {mb_per_s:.0} MB/s; every byte decoded, managedFields included (our informer cuts them out before parsing)"
        )),
        Record::new(SECTION, format!("{p}.decode_floor_cold"), cold, "s")
            .note("the first of those 5 decodes: fresh heap pages, as in a first sync"),
        Record::new(SECTION, format!("{p}.kube-rs"), kube_best, "s"),
        Record::new(SECTION, format!("{p}.list_transfer"), transfer_best, "s").note(
            "the server child producing and sending the whole list, received and dropped without decoding: what no sync against this server can beat",
        ),
        with(
            Record::new(SECTION, format!("{p}.ours_vs_floor"), ours_best, "s")
                .against("decode floor", floor),
            warm_target,
        ),
        with(
            Record::new(SECTION, format!("{p}.ours_vs_cold_floor"), ours_best, "s")
                .against("cold decode floor", cold),
            cold_target,
        ),
        Record::new(SECTION, format!("{p}.ours_vs_kube-rs"), ours_best, "s")
            .against("kube-rs", kube_best)
            .target(Target::ratio_at_most(0.5)),
        Record::new(SECTION, format!("{p}.projection"), view_best, "s")
            .against("ours, whole Pods", ours_best)
            .target(Target::ratio_at_most(0.6))
            .note("PodView (ViewMeta, nodeName, images, phase), decoded straight from the list"),
        Record::new(SECTION, format!("{p}.projection_object_meta"), view_object_meta_best, "s")
            .against("ours, whole Pods", ours_best)
            .note("PodView keeping the whole ObjectMeta"),
        Record::new(SECTION, format!("{p}.projection_vs_transfer"), view_best, "s")
            .against("list transfer", transfer_best)
            .note("the PodView sync against receiving the list without decoding it"),
    ])
}

/// Seconds from start to synced for our Pod informer built with `options`, its cache checked
/// to hold `n` Pods.
pub async fn ours_sync_time(url: &str, n: usize, options: &OursOptions) -> Result<f64, BenchError> {
    let (t, ours) = timed(async {
        let ours = Ours::start(url, options)?;
        ours.wait_synced().await?;
        Ok::<_, BenchError>(ours)
    })
    .await;
    let ours = ours?;
    check_count(
        ours.lister().list(&Default::default()).len(),
        n,
        "our cache",
    )?;
    ours.stop().await;
    Ok(t)
}

/// Seconds from start to synced for the shared informer of the projection `V`.
async fn projected_sync<V>(url: &str, n: usize) -> Result<f64, BenchError>
where
    V: Projection<Of = Pod> + k8s_openapi::Resource<Scope = NamespaceResourceScope> + Clone,
{
    let (t, ours) = timed(async {
        let ours = OursProjected::<V>::start(url)?;
        ours.wait_synced().await?;
        Ok::<_, BenchError>(ours)
    })
    .await;
    let ours = ours?;
    check_count(ours.list().len(), n, "projected cache")?;
    ours.stop().await;
    Ok(t)
}

/// Fails when a cache or list holds other than `expected` objects.
pub fn check_count(got: usize, expected: usize, what: &str) -> Result<(), BenchError> {
    if got == expected {
        Ok(())
    } else {
        Err(BenchError::Informer {
            who: what.to_owned(),
            reason: format!("holds {got} pods, expected {expected}"),
        })
    }
}
