//! Watches Pods with a shared informer: factory → `core().v1().pods()` → handlers →
//! `start()` → `wait_for_cache_sync()` → lister reads → `shutdown()`.
//!
//! `cargo run -p informers --example pods [namespace]`: against the cluster of your
//! kubeconfig, or, with none configured, against an embedded test API server seeded with
//! sample Pods (namespaces `ns-0` to `ns-4`).

use std::process::ExitCode;
use std::sync::Arc;
use std::time::Duration;

use informer_runtime::{Deleted, InformerFactory, ResourceEventHandlerFuncs, Selector};
use informers::SharedInformerFactory;
use k8s_openapi::api::core::v1::Pod;
use test_apiserver::{TestApiServer, TestEnv};

fn name_of(pod: &Pod) -> &str {
    pod.metadata.name.as_deref().unwrap_or("<unnamed>")
}

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
    let namespace = std::env::args().nth(1);
    let (client, embedded) = TestEnv::builder()
        .server(TestApiServer::builder().seed_pods(50).seed_namespaces(5))
        .client_or_embedded()
        .await?;
    let mut builder = SharedInformerFactory::builder(client).default_resync(Duration::ZERO);
    if let Some(ns) = &namespace {
        builder = builder.namespace(ns.clone());
    }
    let factory = builder.build();

    let pods = factory.core().v1().pods();
    pods.informer().add_event_handler(
        ResourceEventHandlerFuncs::default()
            .on_add(|pod: &Arc<Pod>, in_initial_list| {
                eprintln!("added {} (initial list: {in_initial_list})", name_of(pod));
            })
            .on_update(|_old: &Arc<Pod>, new: &Arc<Pod>| {
                eprintln!("updated {}", name_of(new));
            })
            .on_delete(|gone: &Deleted<Pod>| match gone {
                Deleted::Object(pod) => eprintln!("deleted {}", name_of(pod)),
                Deleted::FinalStateUnknown { key, .. } => eprintln!("deleted {key} (missed)"),
                Deleted::LeftShard { key, .. } => eprintln!("{key} left this replica's shard"),
                other => eprintln!("deleted {}", other.key()),
            }),
    );

    factory.start();
    factory.wait_for_cache_sync().await?;

    let lister = pods.lister();
    let all = lister.list(&Selector::everything());
    println!("{} pods cached", all.len());
    if let (Some(ns), Some(first)) = (&namespace, all.first()) {
        let again = lister.pods(ns).get(name_of(first));
        println!("lister get {}: {}", name_of(first), again.is_some());
    }

    if !embedded.is_embedded() {
        println!("watching for 5 s; changes in the cluster are printed as they come");
        tokio::time::sleep(Duration::from_secs(5)).await;
    }
    factory.shutdown().await;
    embedded.shutdown().await;
    Ok(())
}
