//! A metadata-only informer: only each object's `ObjectMeta` is decoded and cached, through
//! the `MetadataGroups` accessors every generated resource has, plus one resource named by
//! GVR and resolved by discovery.
//!
//! `cargo run -p informers --example metadata`: against the cluster of your kubeconfig, or,
//! with none configured, against an embedded test API server seeded with sample Pods.

use std::process::ExitCode;

use informer_runtime::{
    GroupVersionResource, InformerFactory, MetadataSharedInformerFactory, Selector,
};
use informers::MetadataGroups;
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
    let meta = MetadataSharedInformerFactory::builder(client).build();
    let pods = meta.core().v1().pods();
    let namespaces = meta
        .for_resource(&GroupVersionResource::new("", "v1", "namespaces"))
        .await?;
    meta.start();
    meta.wait_for_cache_sync().await?;

    let all = pods.lister().list(&Selector::everything());
    println!(
        "{} pods and {} namespaces cached as metadata only",
        all.len(),
        namespaces.lister().list(&Selector::everything()).len()
    );
    if let Some(first) = all.first() {
        let (ns, name) = (
            first.metadata.namespace.as_deref().unwrap_or_default(),
            first.metadata.name.as_deref().unwrap_or_default(),
        );
        let again = pods.lister().namespaced(ns).get(name);
        println!(
            "{ns}/{name}: resourceVersion {:?}, labels {:?}",
            again
                .as_ref()
                .and_then(|p| p.metadata.resource_version.clone()),
            again.as_ref().and_then(|p| p.metadata.labels.clone())
        );
    }
    meta.shutdown().await;
    embedded.shutdown().await;
    Ok(())
}
