//! Informers over etcd, without an API server.
//!
//! ```text
//! etcd &                                    # Debian: apt-get install etcd-server
//! cargo run -p informer-etcd --example etcd # ETCD_ENDPOINTS=host:port,... to point elsewhere
//! ```
//!
//! Writes two ConfigMaps under `/registry/configmaps/`, starts a shared informer over that
//! prefix, prints what its handler sees, then reads the cache through a lister.

use std::process::ExitCode;
use std::sync::Arc;
use std::time::Duration;

use informer_etcd::{Etcd, EtcdListerWatcher};
use informer_runtime::k8s_openapi::api::core::v1::ConfigMap;
use informer_runtime::k8s_openapi::apimachinery::pkg::apis::meta::v1::ObjectMeta;
use informer_runtime::{
    Indexers, Lister, ResourceEventHandlerFuncs, Selector, SharedIndexInformer,
};
use tokio_util::sync::CancellationToken;

#[tokio::main]
async fn main() -> ExitCode {
    match run().await {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e}");
            eprintln!("if etcd is not running here: start `etcd` (Debian: apt-get install etcd-server), or set ETCD_ENDPOINTS=host:port to use another");
            ExitCode::FAILURE
        }
    }
}

async fn run() -> Result<(), Box<dyn std::error::Error>> {
    let endpoints = std::env::var("ETCD_ENDPOINTS").unwrap_or_else(|_| "127.0.0.1:2379".into());
    let endpoints: Vec<&str> = endpoints.split(',').collect();

    // The ten lines: connect, pick a prefix, build an informer, handle events, run it.
    let etcd = Etcd::connect(&endpoints, None).await?;
    let configmaps = EtcdListerWatcher::<ConfigMap>::new(etcd); // /registry/configmaps/{ns}/{name}
    let informer =
        SharedIndexInformer::new(configmaps.clone(), Duration::ZERO, Indexers::namespace());
    informer.add_event_handler(
        ResourceEventHandlerFuncs::default()
            .on_add(|cm: &Arc<ConfigMap>, initial| {
                println!("added {:?} (initial list: {initial})", cm.metadata.name)
            })
            .on_update(|_, new| {
                println!(
                    "updated {:?} to resourceVersion {:?}",
                    new.metadata.name, new.metadata.resource_version
                )
            })
            .on_delete(|gone| println!("deleted {}", gone.key())),
    );
    let stop = CancellationToken::new();
    let running = tokio::spawn(informer.run(stop.clone()));
    informer.wait_for_sync().await?;

    // Writes go through the writer, with optimistic concurrency on the etcd revision.
    let writer = configmaps.writer();
    for name in ["example-a", "example-b"] {
        let cm = ConfigMap {
            metadata: ObjectMeta {
                name: Some(name.into()),
                namespace: Some("default".into()),
                ..Default::default()
            },
            ..Default::default()
        };
        match writer.get(Some("default"), name).await? {
            Some(mut stored) => {
                stored.data = Some([("touched".to_owned(), "yes".to_owned())].into());
                writer.update(&stored).await?;
            }
            None => {
                writer.create(&cm).await?;
            }
        }
    }
    tokio::time::sleep(Duration::from_secs(1)).await;

    let lister = Lister::new(informer.indexer());
    for cm in lister.namespaced("default").list(&Selector::everything()) {
        println!(
            "cached default/{} at resourceVersion {}",
            cm.metadata.name.as_deref().unwrap_or_default(),
            cm.metadata.resource_version.as_deref().unwrap_or_default()
        );
    }
    stop.cancel();
    running.await?;
    Ok(())
}
