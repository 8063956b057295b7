//! The README's typed projection: a Pod informer that decodes, caches and indexes only the
//! fields a controller reads. `cargo run -p demo --bin projection`: against the cluster of
//! your kubeconfig, or, with none configured, the embedded test API server with sample Pods.

use std::process::ExitCode;
use std::sync::Arc;

use kube_informers::informers::SharedInformerFactory;
use kube_informers::{InformerFactory, Selector};
use test_apiserver::{TestApiServer, TestEnv};

// README-PROJECTION-BEGIN
use kube_informers::k8s_openapi::api::core::v1::Pod;
use kube_informers::projection::ViewMeta;
use serde::{Deserialize, Serialize};

/// The fields of a Pod this controller reads; nothing else is decoded or kept.
#[derive(Clone, Debug, Deserialize, Serialize)]
struct PodView {
    #[serde(default)]
    metadata: ViewMeta,
    spec: Option<PodViewSpec>,
    status: Option<PodViewStatus>,
}

#[derive(Clone, Debug, Deserialize, Serialize)]
struct PodViewSpec {
    #[serde(rename = "nodeName")]
    node_name: Option<String>,
    #[serde(default)]
    containers: Vec<ContainerImage>,
}

#[derive(Clone, Debug, Deserialize, Serialize)]
struct ContainerImage {
    image: Option<String>,
}

#[derive(Clone, Debug, Deserialize, Serialize)]
struct PodViewStatus {
    phase: Option<String>,
}

// Group, version, plural and scope come from Pod; `metadata` is a ViewMeta.
kube_informers::projection!(PodView => Pod, metadata: ViewMeta);

async fn watch_views(factory: &SharedInformerFactory) -> Result<(), Box<dyn std::error::Error>> {
    // A ProjectedInformer<PodView>; handlers added to `pods.informer()` get `&Arc<PodView>`.
    let pods = factory.core().v1().pods().projected::<PodView>();
    factory.start();
    factory.wait_for_cache_sync().await?;

    let all: Vec<Arc<PodView>> = pods.lister().list(&Selector::everything());
    let web: Vec<Arc<PodView>> = pods.lister().list(&"tier=web".parse()?);
    println!(
        "{} pod views cached, {} with tier=web",
        all.len(),
        web.len()
    );
    if let Some(pod) = web.first() {
        let ns = pod.metadata.namespace.as_deref().unwrap_or_default();
        let name = pod.metadata.name.as_deref().unwrap_or_default();
        let again = pods.lister().namespaced(ns).get(name);
        let phase = pod.status.as_ref().and_then(|s| s.phase.as_deref());
        println!(
            "{ns}/{name}: phase {}, read back from the lister: {}",
            phase.unwrap_or("unknown"),
            again.is_some()
        );
    }
    Ok(())
}
// README-PROJECTION-END

#[tokio::main]
async fn main() -> ExitCode {
    match run().await {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::FAILURE
        }
    }
}

async fn run() -> Result<(), Box<dyn std::error::Error>> {
    let (client, embedded) = TestEnv::builder()
        .server(TestApiServer::builder().seed_pods(20).seed_namespaces(2))
        .client_or_embedded()
        .await?;
    let factory = SharedInformerFactory::builder(client).build();
    let watched = watch_views(&factory).await;
    factory.shutdown().await;
    embedded.shutdown().await;
    watched
}
