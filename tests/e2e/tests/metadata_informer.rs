//! Metadata-only informers against the test API server: `PartialObjectMetadata`
//! negotiation (and its absence), typed, generated (`MetadataGroups`) and
//! discovery-driven factories, listers, the namespace index and label selectors.

mod common;

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::Duration;

use common::client;
use informer_runtime::dynamic::ResourceInformer;
use informer_runtime::metadata;
use informer_runtime::metadata::{
    MetadataSharedInformerFactory, LIST_ACCEPT, PARTIAL_OBJECT_METADATA, WATCH_ACCEPT,
};
use informer_runtime::{
    Api, ApiResource, GroupVersionResource, InformerFactory, ListOptions,
    ResourceEventHandlerFuncs, Selector, WatchEvent,
};
use informers::{MetadataGroups, SharedInformerFactory};
use k8s_openapi::api::apps::v1::Deployment;
use k8s_openapi::api::core::v1::Pod;
use serde_json::Value;
use test_apiserver::{eventually, fixtures, TestApiServer};

const SYNC: Duration = Duration::from_secs(60);

fn everything() -> Selector {
    Selector::everything()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn server_answers_partial_object_metadata_in_the_real_shapes() {
    let server = TestApiServer::builder().seed_pods(3).start().await.unwrap();
    let c = client(&server.url());
    let pods = Api::<Value>::for_resource(c.clone(), &ApiResource::of::<Pod>(), None)
        .with_accept(Some(LIST_ACCEPT), Some(WATCH_ACCEPT));
    let list = pods.list(&ListOptions::default()).await.unwrap();
    assert_eq!(list.items.len(), 3);
    for item in &list.items {
        assert_eq!(item["kind"], PARTIAL_OBJECT_METADATA);
        assert_eq!(item["apiVersion"], "meta.k8s.io/v1");
        assert!(item["metadata"]["name"].is_string());
        assert!(item.get("spec").is_none(), "not reduced: {item}");
    }
    let options = ListOptions {
        resource_version: list.metadata.resource_version.clone(),
        ..ListOptions::default()
    };
    let mut watch = pods.watch(&options).await.unwrap();
    server
        .create("pods", None, fixtures::pod("ns-0", "late", 7))
        .unwrap();
    let event = tokio::time::timeout(SYNC, futures_util::StreamExt::next(&mut watch))
        .await
        .unwrap()
        .unwrap()
        .unwrap();
    let WatchEvent::Added(obj) = event else {
        panic!("expected ADDED, got {event:?}");
    };
    assert_eq!(obj["kind"], PARTIAL_OBJECT_METADATA);
    assert_eq!(obj["metadata"]["name"], "late");
    assert!(obj.get("spec").is_none(), "not reduced: {obj}");
    server.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn typed_metadata_informer_syncs_pods_and_follows_changes() {
    let server = TestApiServer::builder()
        .seed_pods(30)
        .seed_namespaces(3)
        .start()
        .await
        .unwrap();
    let factory = MetadataSharedInformerFactory::new(client(&server.url()), Duration::ZERO);
    let pods = ResourceInformer::from_factory(factory.factory_core(), metadata::typed::<Pod>());
    let adds = Arc::new(AtomicUsize::new(0));
    let seen = adds.clone();
    pods.informer()
        .add_event_handler(ResourceEventHandlerFuncs::default().on_add(move |_, _| {
            seen.fetch_add(1, Ordering::SeqCst);
        }));
    assert_eq!(
        ResourceInformer::from_factory(factory.factory_core(), metadata::typed::<Pod>()).resource(),
        pods.resource(),
        "one informer per type"
    );
    factory.start();
    factory.wait_for_cache_sync_timeout(SYNC).await.unwrap();

    let lister = pods.lister();
    let all = lister.list(&everything());
    assert_eq!(all.len(), 30);
    for m in &all {
        assert_eq!((m.api_version.as_str(), m.kind.as_str()), ("v1", "Pod"));
        assert!(m
            .metadata
            .labels
            .as_ref()
            .is_some_and(|l| l.contains_key("tier")));
    }
    let web_in_ns0 = lister.namespaced("ns-0").list(&"tier=web".parse().unwrap());
    assert!(!web_in_ns0.is_empty());
    assert!(web_in_ns0.iter().all(|m| {
        m.metadata.namespace.as_deref() == Some("ns-0")
            && m.metadata.labels.as_ref().unwrap()["tier"] == "web"
    }));
    let ns1 = pods
        .informer()
        .indexer()
        .by_index("namespace", "ns-1")
        .unwrap();
    assert_eq!(ns1.len(), 10);
    eventually("30 adds delivered", || adds.load(Ordering::SeqCst) == 30).await;

    server
        .create("pods", None, fixtures::pod("ns-2", "late", 31))
        .unwrap();
    eventually("the new pod cached", || {
        lister.namespaced("ns-2").get("late").is_some()
    })
    .await;
    server.delete("pods", Some("ns-0"), "pod-0").unwrap();
    eventually("the deleted pod gone", || {
        lister.namespaced("ns-0").get("pod-0").is_none()
    })
    .await;
    factory.shutdown().await;
    server.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn metadata_informer_for_a_crd_shaped_resource() {
    let server = TestApiServer::builder()
        .namespaces(["ns-0"])
        .resource(fixtures::widget_spec())
        .start()
        .await
        .unwrap();
    for i in 0..6 {
        server
            .create(
                "widgets.example.com",
                None,
                fixtures::widget("ns-0", &format!("w-{i}"), i),
            )
            .unwrap();
    }
    let factory = MetadataSharedInformerFactory::builder(client(&server.url()))
        .namespace("ns-0")
        .build();
    let gvr = GroupVersionResource::new("example.com", "v1", "widgets");
    let widgets = factory.for_resource(&gvr).await.unwrap();
    assert!(widgets.resource().namespaced);
    factory.start();
    factory.wait_for_cache_sync_timeout(SYNC).await.unwrap();
    let lister = widgets.lister();
    assert_eq!(lister.list(&everything()).len(), 6);
    let red = lister
        .namespaced("ns-0")
        .list(&"color=red".parse().unwrap());
    assert_eq!(red.len(), 2);
    let w = lister.namespaced("ns-0").get("w-1").unwrap();
    assert_eq!(
        (w.api_version.as_str(), w.kind.as_str()),
        ("example.com/v1", "Widget")
    );
    server
        .patch_merge(
            "widgets.example.com",
            Some("ns-0"),
            "w-1",
            serde_json::json!({"metadata": {"labels": {"color": "red"}}}),
        )
        .unwrap();
    eventually("the relabelled widget", || {
        lister
            .namespaced("ns-0")
            .list(&"color=red".parse().unwrap())
            .len()
            == 3
    })
    .await;
    factory.shutdown().await;
    server.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_server_ignoring_partial_object_metadata_still_works() {
    let server = TestApiServer::builder()
        .partial_metadata(false)
        .seed_pods(9)
        .seed_namespaces(3)
        .start()
        .await
        .unwrap();
    let c = client(&server.url());
    let raw = Api::<Value>::for_resource(c.clone(), &ApiResource::of::<Pod>(), None)
        .with_accept(Some(LIST_ACCEPT), None)
        .list(&ListOptions::default())
        .await
        .unwrap();
    assert!(
        raw.items.iter().all(|i| i.get("spec").is_some()),
        "the server should have sent full objects"
    );

    let factory = MetadataSharedInformerFactory::new(c, Duration::ZERO);
    let pods = factory
        .for_resource(&GroupVersionResource::new("", "v1", "pods"))
        .await
        .unwrap();
    factory.start();
    factory.wait_for_cache_sync_timeout(SYNC).await.unwrap();
    let lister = pods.lister();
    assert_eq!(lister.list(&everything()).len(), 9);
    let p = lister.namespaced("ns-1").get("pod-1").unwrap();
    assert_eq!((p.api_version.as_str(), p.kind.as_str()), ("v1", "Pod"));
    assert!(p.metadata.labels.is_some());

    server
        .create("pods", None, fixtures::pod("ns-1", "late", 10))
        .unwrap();
    eventually("the watched pod cached", || {
        lister
            .namespaced("ns-1")
            .get("late")
            .is_some_and(|m| m.kind == "Pod")
    })
    .await;
    factory.shutdown().await;
    server.shutdown().await;
}

fn deployment(namespace: &str, name: &str, tier: &str) -> Value {
    serde_json::json!({
        "apiVersion": "apps/v1",
        "kind": "Deployment",
        "metadata": {"name": name, "namespace": namespace, "labels": {"tier": tier}},
        "spec": {
            "replicas": 2,
            "selector": {"matchLabels": {"app": name}},
            "template": {
                "metadata": {"labels": {"app": name}},
                "spec": {"containers": [{"name": "main", "image": "registry.example/shop:1"}]},
            },
        },
    })
}

/// Waits until `resource` has as many watches as lists, so that counting both afterwards
/// catches a second list+watch (the watch follows the list asynchronously).
async fn watches_caught_up(server: &test_apiserver::RunningServer, resource: &str) {
    eventually("the watches following the lists", || {
        server.request_count("watch", resource) >= server.request_count("list", resource)
    })
    .await;
    tokio::time::sleep(Duration::from_millis(300)).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn generated_metadata_accessors_share_one_informer_next_to_the_typed_factory() {
    let server = TestApiServer::builder()
        .seed_pods(12)
        .seed_namespaces(3)
        .start()
        .await
        .unwrap();
    for (i, tier) in ["web", "web", "db", "web", "db"].iter().enumerate() {
        let namespace = format!("ns-{}", i % 2);
        server
            .create(
                "deployments.apps",
                None,
                deployment(&namespace, &format!("deploy-{i}"), tier),
            )
            .unwrap();
    }
    let c = client(&server.url());
    let metadata_factory = MetadataSharedInformerFactory::new(c.clone(), Duration::ZERO);
    let typed_factory = SharedInformerFactory::new(c);

    let pods = metadata_factory.core().v1().pods();
    let deployments = metadata_factory.apps().v1().deployments();
    let typed_pods = typed_factory.core().v1().pods();
    let _ = typed_pods.informer();
    // The generated accessor is the factory's `metadata::typed::<K>()`: asking again, either way,
    // must not add an informer (checked below by counting lists and watches).
    let again = metadata_factory.core().v1().pods();
    let by_type =
        ResourceInformer::from_factory(metadata_factory.factory_core(), metadata::typed::<Pod>());
    assert_eq!(
        metadata_factory.apps().v1().deployments().resource(),
        ResourceInformer::from_factory(
            metadata_factory.factory_core(),
            metadata::typed::<Deployment>()
        )
        .resource()
    );

    metadata_factory.start();
    typed_factory.start();
    metadata_factory
        .wait_for_cache_sync_timeout(SYNC)
        .await
        .unwrap();
    tokio::time::timeout(SYNC, typed_factory.wait_for_cache_sync())
        .await
        .unwrap()
        .unwrap();

    let pod_lister = pods.lister();
    assert_eq!(pod_lister.list(&everything()).len(), 12);
    assert_eq!(again.lister().list(&everything()).len(), 12);
    assert_eq!(by_type.lister().list(&everything()).len(), 12);
    let p = pod_lister.namespaced("ns-1").get("pod-1").unwrap();
    assert_eq!((p.api_version.as_str(), p.kind.as_str()), ("v1", "Pod"));
    assert_eq!(p.metadata.namespace.as_deref(), Some("ns-1"));
    let web_in_ns0 = pod_lister
        .namespaced("ns-0")
        .list(&"tier=web".parse().unwrap());
    assert!(!web_in_ns0.is_empty());
    assert!(web_in_ns0.iter().all(|m| {
        m.metadata.namespace.as_deref() == Some("ns-0")
            && m.metadata.labels.as_ref().unwrap()["tier"] == "web"
    }));
    let ns2 = pods
        .informer()
        .indexer()
        .by_index("namespace", "ns-2")
        .unwrap();
    assert_eq!(ns2.len(), 4);
    assert_eq!(
        typed_pods.lister().list(&everything()).len(),
        12,
        "the typed factory on the same client caches full pods beside"
    );

    let deployment_lister = deployments.lister();
    assert_eq!(deployment_lister.list(&everything()).len(), 5);
    let d = deployment_lister
        .namespaced("ns-1")
        .get("deploy-3")
        .unwrap();
    assert_eq!(
        (d.api_version.as_str(), d.kind.as_str()),
        ("apps/v1", "Deployment")
    );
    let web_in_ns1 = deployment_lister
        .namespaced("ns-1")
        .list(&"tier=web".parse().unwrap());
    let mut names: Vec<_> = web_in_ns1
        .iter()
        .filter_map(|m| m.metadata.name.clone())
        .collect();
    names.sort();
    assert_eq!(names, ["deploy-1", "deploy-3"]);
    assert_eq!(deployment_lister.list(&"tier=db".parse().unwrap()).len(), 2);

    watches_caught_up(&server, "pods").await;
    watches_caught_up(&server, "deployments.apps").await;
    let counts = server.request_counts();
    // One list+watch of pods per factory, one of deployments for the metadata factory.
    assert_eq!(server.request_count("list", "pods"), 2, "{counts:?}");
    assert_eq!(server.request_count("watch", "pods"), 2, "{counts:?}");
    assert_eq!(
        server.request_count("list", "deployments.apps"),
        1,
        "{counts:?}"
    );
    assert_eq!(
        server.request_count("watch", "deployments.apps"),
        1,
        "{counts:?}"
    );

    server
        .create("pods", None, fixtures::pod("ns-2", "late", 13))
        .unwrap();
    eventually("the new pod in both caches", || {
        again.lister().namespaced("ns-2").get("late").is_some()
            && typed_pods.lister().pods("ns-2").get("late").is_some()
    })
    .await;
    server
        .delete("deployments.apps", Some("ns-0"), "deploy-0")
        .unwrap();
    eventually("the deleted deployment gone", || {
        deployment_lister
            .namespaced("ns-0")
            .get("deploy-0")
            .is_none()
    })
    .await;

    metadata_factory.shutdown().await;
    typed_factory.shutdown().await;
    server.shutdown().await;
}
