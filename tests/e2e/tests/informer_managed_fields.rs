//! Every kind of factory (generated typed, dynamic, metadata-only) drops
//! `metadata.managedFields` from what it caches, unless built with `keep_managed_fields()`,
//! against the test API server, whose Pods carry a `managedFields` entry as the real
//! server's do.

mod common;

use std::time::Duration;

use common::client;
use informer_runtime::dynamic::ResourceInformer;
use informer_runtime::metadata;
use informer_runtime::{
    DynamicSharedInformerFactory, GroupVersionResource, InformerFactory,
    MetadataSharedInformerFactory, Selector,
};
use informers::SharedInformerFactory;
use k8s_openapi::api::core::v1::Pod;
use test_apiserver::TestApiServer;

const SYNC: Duration = Duration::from_secs(60);
const PODS: usize = 5;

/// For each cached object, whether it still has managedFields.
fn kept(all: impl IntoIterator<Item = bool>) -> Vec<bool> {
    all.into_iter().collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn factories_drop_managed_fields_unless_kept() {
    let server = TestApiServer::builder()
        .seed_pods(PODS)
        .start()
        .await
        .unwrap();
    // The server's Pods do carry them: the check below is not vacuous.
    let stored = server.list("pods", None).unwrap();
    assert!(stored
        .iter()
        .all(|p| p["metadata"]["managedFields"].is_array()));
    let pods = GroupVersionResource::new("", "v1", "pods");

    for keep in [false, true] {
        let want = vec![keep; PODS];

        let typed = SharedInformerFactory::builder(client(&server.url()));
        let typed = if keep {
            typed.keep_managed_fields()
        } else {
            typed
        }
        .build();
        let typed_pods = typed.core().v1().pods().informer();

        let dynamic = DynamicSharedInformerFactory::builder(client(&server.url()));
        let dynamic = if keep {
            dynamic.keep_managed_fields()
        } else {
            dynamic
        }
        .build();
        let dynamic_pods = dynamic.for_resource(&pods).await.unwrap();

        let metadata = MetadataSharedInformerFactory::builder(client(&server.url()));
        let metadata = if keep {
            metadata.keep_managed_fields()
        } else {
            metadata
        }
        .build();
        let metadata_pods =
            ResourceInformer::from_factory(metadata.factory_core(), metadata::typed::<Pod>());

        typed.start();
        dynamic.start();
        metadata.start();
        tokio::time::timeout(SYNC, typed.wait_for_cache_sync())
            .await
            .expect("typed sync in time")
            .unwrap();
        dynamic.wait_for_cache_sync_timeout(SYNC).await.unwrap();
        metadata.wait_for_cache_sync_timeout(SYNC).await.unwrap();

        let all = Selector::everything();
        assert_eq!(
            kept(
                typed_pods
                    .indexer()
                    .list()
                    .iter()
                    .map(|p| p.metadata.managed_fields.is_some())
            ),
            want,
            "typed, keep: {keep}"
        );
        assert_eq!(
            kept(
                dynamic_pods
                    .lister()
                    .list(&all)
                    .iter()
                    .map(|p| p.metadata.managed_fields.is_some())
            ),
            want,
            "dynamic, keep: {keep}"
        );
        assert_eq!(
            kept(
                metadata_pods
                    .lister()
                    .list(&all)
                    .iter()
                    .map(|p| p.metadata.managed_fields.is_some())
            ),
            want,
            "metadata, keep: {keep}"
        );

        typed.shutdown().await;
        dynamic.shutdown().await;
        metadata.shutdown().await;
    }
    server.shutdown().await;
}

/// A client made with `omitting_managed_fields()` lists and watches objects without
/// managedFields, everything else as the server sent it; the client it came from still
/// gets them.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_omitting_client_lists_and_watches_without_managed_fields() {
    use informer_runtime::{Api, ListOptions};

    let server = TestApiServer::builder()
        .seed_pods(PODS)
        .start()
        .await
        .unwrap();
    let whole = client(&server.url());
    let omitting = whole.omitting_managed_fields();
    let all = ListOptions::default();
    let kept = Api::<Pod>::all(whole.clone()).list(&all).await.unwrap();
    let cut = Api::<Pod>::all(omitting.clone()).list(&all).await.unwrap();
    assert!(kept
        .items
        .iter()
        .all(|p| p.metadata.managed_fields.is_some()));
    let mut expected = kept.items.clone();
    for pod in &mut expected {
        pod.metadata.managed_fields = None;
    }
    assert_eq!(cut.items, expected);

    let from = ListOptions {
        resource_version: kept.metadata.resource_version.clone(),
        ..Default::default()
    };
    let mut whole_events = Api::<Pod>::all(whole.clone()).watch(&from).await.unwrap();
    let mut cut_events = Api::<Pod>::all(omitting.clone())
        .watch(&from)
        .await
        .unwrap();
    let pod = &stored_pod(&server);
    let (namespace, name) = (
        pod["metadata"]["namespace"].as_str().unwrap(),
        pod["metadata"]["name"].as_str().unwrap(),
    );
    server
        .patch_merge(
            "pods",
            Some(namespace),
            name,
            serde_json::json!({"metadata": {"labels": {"touched": "yes"}}}),
        )
        .unwrap();
    let whole_pod = next_modified(&mut whole_events).await;
    let mut cut_pod = next_modified(&mut cut_events).await;
    assert!(whole_pod.metadata.managed_fields.is_some());
    assert!(cut_pod.metadata.managed_fields.is_none());
    cut_pod.metadata.managed_fields = whole_pod.metadata.managed_fields.clone();
    assert_eq!(cut_pod, whole_pod);
    server.shutdown().await;
}

/// The next event of `events`, which must be a MODIFIED one.
async fn next_modified(events: &mut informer_runtime::WatchStream<Pod>) -> Pod {
    use futures_util::StreamExt;
    use informer_runtime::WatchEvent;
    match tokio::time::timeout(SYNC, events.next()).await {
        Ok(Some(Ok(WatchEvent::Modified(pod)))) => pod,
        other => panic!("expected a MODIFIED event, got {other:?}"),
    }
}

fn stored_pod(server: &test_apiserver::RunningServer) -> serde_json::Value {
    server.list("pods", None).unwrap().remove(0)
}
