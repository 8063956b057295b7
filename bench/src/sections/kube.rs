//! Initial sync through a `kube::Client` (`Client::from_kube`): the same generated factory
//! and decoders over kube-rs's hyper and tower stack, against our own transport and against
//! kube-rs's reflector, on the same server in the same run.

use std::time::Duration;

use informer_runtime::client::Config;
use informer_runtime::{Client, InformerFactory};
use informers::SharedInformerFactory;

use super::sync::{check_count, namespaces_for};
use super::{timed, Ctx};
use crate::error::BenchError;
use crate::kube_baseline::KubeReflector;
use crate::results::Record;
use crate::server_process::{ServerProcess, ServerSpec};

const SECTION: &str = "kube";

/// Generous limit for one sync on a loaded 2-core machine.
const SYNC_LIMIT: Duration = Duration::from_secs(600);

/// Pods synced.
fn size(ctx: Ctx) -> usize {
    if ctx.quick {
        1_000
    } else {
        10_000
    }
}

/// Runs the section.
pub async fn run(ctx: Ctx) -> Result<Vec<Record>, BenchError> {
    let n = size(ctx);
    let server = ServerProcess::start(ServerSpec {
        pods: n,
        namespaces: namespaces_for(n),
        history: 1_000,
    })
    .await?;
    let result = measure(&server, n, ctx).await;
    server.stop().await?;
    result
}

fn err(who: &str, reason: impl ToString) -> BenchError {
    BenchError::Informer {
        who: who.to_owned(),
        reason: reason.to_string(),
    }
}

/// Our client over a kube::Client for the plain-HTTP server at `url`, built as kube-rs
/// builds its own (the baseline's).
fn over_kube(url: &str) -> Result<Client, BenchError> {
    const WHO: &str = "ours over kube::Client";
    let uri: http::Uri = url
        .parse()
        .map_err(|e| err(WHO, format!("server URL {url:?}: {e}")))?;
    let kube_client = kube::Client::try_from(kube::Config::new(uri))
        .map_err(|e| err(WHO, format!("client for {url}: {e}")))?;
    Ok(Client::from_kube(kube_client))
}

/// Syncs the generated factory's Pod informer through `client` and checks the cache.
async fn sync_pods(client: Client, n: usize, who: &str) -> Result<(), BenchError> {
    let factory = SharedInformerFactory::new(client);
    let pods = factory.core().v1().pods();
    factory.start();
    let synced = tokio::time::timeout(SYNC_LIMIT, factory.wait_for_cache_sync()).await;
    let checked = match synced {
        Ok(Ok(())) => check_count(pods.lister().list(&Default::default()).len(), n, who),
        Ok(Err(e)) => Err(err(who, e)),
        Err(_) => Err(BenchError::Timeout(
            format!("{who}: initial sync"),
            SYNC_LIMIT,
        )),
    };
    factory.shutdown().await;
    checked
}

async fn measure(server: &ServerProcess, n: usize, ctx: Ctx) -> Result<Vec<Record>, BenchError> {
    let url = server.url();
    // Small runs are noisy on a shared machine: best of 3, in turns.
    let reps = if ctx.quick { 1 } else { 3 };
    let (mut own, mut through_kube, mut kube_rs) = (f64::MAX, f64::MAX, f64::MAX);
    for _ in 0..reps {
        let (t, synced) = timed(async {
            let client = Client::new(Config::new(url))
                .map_err(|e| err("ours", format!("client for {url}: {e}")))?;
            sync_pods(client, n, "ours").await
        })
        .await;
        synced?;
        own = own.min(t);

        let (t, synced) =
            timed(async { sync_pods(over_kube(url)?, n, "ours over kube::Client").await }).await;
        synced?;
        through_kube = through_kube.min(t);

        kube_rs = kube_rs.min(KubeReflector::sync_time(url, n).await?);
    }

    let p = format!("kube.n{n}");
    Ok(vec![
        Record::new(SECTION, format!("{p}.ours"), own, "s")
            .note("our own transport (hyper over rustls), the generated factory's Pod informer"),
        Record::new(SECTION, format!("{p}.kube-rs"), kube_rs, "s")
            .note("kube-rs reflector + watcher, default configuration"),
        Record::new(SECTION, format!("{p}.over_kube_vs_ours"), through_kube, "s")
            .against("ours, own transport", own)
            .note("the same informer with Client::from_kube(kube::Client)"),
        Record::new(
            SECTION,
            format!("{p}.over_kube_vs_kube-rs"),
            through_kube,
            "s",
        )
        .against("kube-rs", kube_rs),
    ])
}
