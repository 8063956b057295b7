//! The README's quick start, built and run by `tests/readme.rs` exactly as the
//! README shows it.

// README-QUICKSTART-BEGIN
use std::process::ExitCode;
use std::sync::Arc;

use kube_informers::informers::SharedInformerFactory;
use kube_informers::k8s_openapi::api::core::v1::Pod;
use kube_informers::{Client, Deleted, InformerFactory, ResourceEventHandlerFuncs, Selector};

#[tokio::main]
async fn main() -> ExitCode {
    match run().await {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            // Every error of the crate is a sentence (Display); `?` out of `main` would print
            // its Debug form instead.
            eprintln!("error: {e}");
            ExitCode::FAILURE
        }
    }
}

async fn run() -> Result<(), Box<dyn std::error::Error>> {
    // KUBECONFIG, else ~/.kube/config, else the Pod's service account.
    let client = Client::try_default().await?;
    let factory = SharedInformerFactory::builder(client).build();

    // Asking registers the informer: `start` and `wait_for_cache_sync` include it.
    let pods = factory.core().v1().pods();
    pods.informer().add_event_handler(
        ResourceEventHandlerFuncs::default()
            .on_add(|pod: &Arc<Pod>, in_initial_list| {
                if !in_initial_list {
                    println!("added {:?}", pod.metadata.name);
                }
            })
            .on_delete(|gone: &Deleted<Pod>| println!("deleted {}", gone.key())),
    );

    factory.start();
    factory.wait_for_cache_sync().await?;

    // Reads come from the cache: no request to the server, no copy of the Pod.
    let all = pods.lister().list(&Selector::everything());
    println!("{} pods in the cache", all.len());
    let web: Selector = "tier=web".parse()?;
    for pod in pods.lister().list(&web) {
        let node = pod.spec.as_ref().and_then(|s| s.node_name.as_deref());
        println!("  {:?} on {:?}", pod.metadata.name, node);
    }

    factory.shutdown().await;
    Ok(())
}
// README-QUICKSTART-END
