//! Lister reads from a synced cache: `get(ns, name)`, `list` by namespace and by label
//! selector, and `get` from 1 and 2 reader threads while the watch applies updates.

use std::collections::HashMap;
use std::sync::Arc;
use std::time::Instant;

use informer_runtime::Selector;
use k8s_openapi::api::core::v1::Pod;
use listers::core::v1::PodLister;

use super::Ctx;
use crate::error::BenchError;
use crate::ours::{Ours, OursOptions};
use crate::results::{Record, Target};
use crate::server_process::{ServerProcess, ServerSpec};

const SECTION: &str = "listers";

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

fn keys(pods: &[Arc<Pod>]) -> Vec<(String, String)> {
    pods.iter()
        .map(|p| {
            (
                p.metadata.namespace.clone().unwrap_or_default(),
                p.metadata.name.clone().unwrap_or_default(),
            )
        })
        .collect()
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

/// Nanoseconds per `get` over `ops` lookups striding through `keys`.
fn gets(
    lister: &PodLister,
    keys: &[(String, String)],
    ops: usize,
    seed: usize,
) -> Result<f64, BenchError> {
    let start = Instant::now();
    let mut found = 0usize;
    for i in 0..ops {
        // A large odd stride visits keys in a cache-unfriendly order.
        let (ns, name) = &keys[(seed + i.wrapping_mul(7919)) % keys.len()];
        found += usize::from(lister.pods(ns).get(name).is_some());
    }
    let ns = start.elapsed().as_nanos() as f64 / ops as f64;
    if found != ops {
        return Err(BenchError::Informer {
            who: "our lister".into(),
            reason: format!("found {found} of {ops} cached pods"),
        });
    }
    Ok(ns)
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
    let keys = keys(&all);
    let get_ops = if ctx.quick { 200_000 } else { 2_000_000 };
    let get_ns = gets(&lister, &keys, get_ops, 0)?;

    let mut namespaces: Vec<String> = keys.iter().map(|(ns, _)| ns.clone()).collect();
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
            .target(Target::value_at_most(200.0)),
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

    let updates = if ctx.quick { 5_000 } else { 100_000 };
    for threads in [1usize, 2] {
        let ops = get_ops / threads;
        let readers: Vec<_> = (0..threads)
            .map(|t| {
                let lister = lister.clone();
                let keys = keys.clone();
                std::thread::spawn(move || gets(&lister, &keys, ops, t * 104_729))
            })
            .collect();
        server.command(&format!("modify {updates}")).await?;
        let mut per_thread = Vec::new();
        for r in readers {
            let ns = r.join().map_err(|_| BenchError::Informer {
                who: "reader thread".into(),
                reason: "panicked".into(),
            })??;
            per_thread.push(ns);
        }
        let worst = per_thread.iter().copied().fold(0.0, f64::max);
        records.push(
            Record::new(
                SECTION,
                format!("listers.n{n}.get_{threads}_readers_during_updates"),
                worst,
                "ns",
            )
            .against("idle get", get_ns)
            .note(format!(
                "{updates} updates applied meanwhile; slowest reader thread"
            )),
        );
    }
    ours.stop().await;
    Ok(records)
}
