//! A dynamic informer: a resource known only at run time, by group, version and resource,
//! cached as `DynamicObject` and parsed into a typed object on demand.
//!
//! `cargo run -p informers --example dynamic [GROUP/VERSION/RESOURCE]` (default `apps/v1/deployments`
//! on a cluster, `/v1/pods` on the embedded server): against the cluster of your kubeconfig,
//! or, with none configured, against an embedded test API server seeded with sample Pods.

use std::process::ExitCode;

use informer_runtime::{
    DynamicSharedInformerFactory, GroupVersionResource, InformerFactory, Selector,
};
use k8s_openapi::api::core::v1::Pod;
use test_apiserver::{TestApiServer, TestEnv};

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
        .server(TestApiServer::builder().seed_pods(50).seed_namespaces(5))
        .client_or_embedded()
        .await?;
    let default = if embedded.is_embedded() {
        "/v1/pods"
    } else {
        "apps/v1/deployments"
    };
    let arg = std::env::args()
        .nth(1)
        .unwrap_or_else(|| default.to_owned());
    let parts: Vec<&str> = arg.split('/').collect();
    let [group, version, resource] = parts[..] else {
        return Err(
            format!("expected GROUP/VERSION/RESOURCE (core group: /v1/pods), got {arg:?}").into(),
        );
    };
    let gvr = GroupVersionResource::new(group, version, resource);

    let dynamic = DynamicSharedInformerFactory::builder(client).build();
    let informer = dynamic.for_resource(&gvr).await?;
    dynamic.start();
    dynamic.wait_for_cache_sync().await?;

    let objects = informer.lister().list(&Selector::everything());
    println!("{} {arg} cached as DynamicObject", objects.len());
    if gvr == GroupVersionResource::new("", "v1", "pods") {
        if let Some(first) = objects.first() {
            let pod: Pod = first.try_parse()?;
            println!(
                "first parsed as a typed Pod: {:?} on node {:?}",
                pod.metadata.name,
                pod.spec.and_then(|s| s.node_name)
            );
        }
    }
    dynamic.shutdown().await;
    embedded.shutdown().await;
    Ok(())
}
