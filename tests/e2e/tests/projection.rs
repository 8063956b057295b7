//! Typed projections through the generated factory, against the test API server: a
//! `PodView` (metadata, spec.nodeName, spec.containers[].image, status.phase) decoded
//! straight from the server's Pods syncs, is indexed by namespace and label, sees the
//! factory's namespace, tweak_list_options, transform and cache mode, delivers Add → Update →
//! Delete as `Arc<PodView>`, and is one shared informer per view type, beside (not instead
//! of) the full Pod informer; asking for a projection never builds the full one. A view
//! with the lighter `ViewMeta` does all of it too.

mod common;

use std::sync::{Arc, Mutex};
use std::time::Duration;

use common::client;
use informer_runtime::client::Config;
use informer_runtime::projection::ViewMeta;
use informer_runtime::{
    CacheMode, Client, Deleted, InformerFactory, Meta, ResourceEventHandlerFuncs, Selector,
};
use informers::SharedInformerFactory;
use k8s_openapi::api::core::v1::Pod;
use k8s_openapi::apimachinery::pkg::apis::meta::v1::ObjectMeta;
use serde::{Deserialize, Serialize};
use serde_json::json;
use test_apiserver::{eventually, fixtures, RunningServer, TestApiServer};

const SYNC: Duration = Duration::from_secs(60);
/// Seeded Pods `pod-{i}`: in `ns-{i % 2}`, tier `["web", "api", "db"][i % 3]`.
const PODS: usize = 12;

/// The six fields of a Pod a node-local controller reads.
#[derive(Clone, Debug, Default, PartialEq, Deserialize, Serialize)]
struct PodView {
    #[serde(default)]
    metadata: ObjectMeta,
    spec: Option<PodViewSpec>,
    status: Option<PodViewStatus>,
}

#[derive(Clone, Debug, Default, PartialEq, Deserialize, Serialize)]
struct PodViewSpec {
    #[serde(rename = "nodeName")]
    node_name: Option<String>,
    #[serde(default)]
    containers: Vec<ContainerImage>,
}

#[derive(Clone, Debug, Default, PartialEq, Deserialize, Serialize)]
struct ContainerImage {
    image: Option<String>,
}

#[derive(Clone, Debug, Default, PartialEq, Deserialize, Serialize)]
struct PodViewStatus {
    phase: Option<String>,
}

informer_runtime::projection!(PodView => Pod);

/// A second view of Pods: its own informer, separate from `PodView`'s.
#[derive(Clone, Debug, Default, Deserialize, Serialize)]
struct PodName {
    #[serde(default)]
    metadata: ObjectMeta,
}

informer_runtime::projection!(PodName => Pod);

/// `PodView` keeping only the metadata the runtime reads.
#[derive(Clone, Debug, Default, PartialEq, Deserialize, Serialize)]
struct LeanPodView {
    metadata: ViewMeta,
    spec: Option<PodViewSpec>,
    status: Option<PodViewStatus>,
}

informer_runtime::projection!(LeanPodView => Pod, metadata: ViewMeta);

async fn server() -> RunningServer {
    TestApiServer::builder()
        .seed_pods(PODS)
        .seed_namespaces(2)
        .start()
        .await
        .unwrap()
}

async fn synced(factory: &SharedInformerFactory) {
    factory.start();
    tokio::time::timeout(SYNC, factory.wait_for_cache_sync())
        .await
        .expect("sync in time")
        .expect("sync");
}

fn names(views: &[Arc<PodView>]) -> Vec<String> {
    let mut names: Vec<String> = views
        .iter()
        .map(|v| v.metadata.name.clone().unwrap_or_default())
        .collect();
    names.sort();
    names
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_projection_syncs_indexes_and_delivers_views() {
    let server = server().await;
    let factory = SharedInformerFactory::new(client(&server.url()));
    let pods = factory.core().v1().pods().projected::<PodView>();
    let events = Arc::new(Mutex::new(Vec::<String>::new()));
    let (on_add, on_update, on_delete) = (events.clone(), events.clone(), events.clone());
    pods.informer().add_event_handler(
        ResourceEventHandlerFuncs::default()
            .on_add(move |v: &Arc<PodView>, _| {
                let name = v.metadata.name.clone().unwrap_or_default();
                on_add.lock().unwrap().push(format!("add {name}"));
            })
            .on_update(move |old: &Arc<PodView>, new: &Arc<PodView>| {
                let node = |v: &PodView| v.spec.as_ref().and_then(|s| s.node_name.clone());
                on_update.lock().unwrap().push(format!(
                    "update {} {:?}->{:?}",
                    new.metadata.name.clone().unwrap_or_default(),
                    node(old),
                    node(new)
                ));
            })
            .on_delete(move |gone: &Deleted<PodView>| {
                let name = match gone {
                    Deleted::Object(v) => v.metadata.name.clone().unwrap_or_default(),
                    Deleted::FinalStateUnknown { key, .. } => format!("unknown {key}"),
                    Deleted::LeftShard { key, .. } => format!("left {key}"),
                    other => format!("unknown {}", other.key()),
                };
                on_delete.lock().unwrap().push(format!("delete {name}"));
            }),
    );
    synced(&factory).await;

    // Only the projection listed: asking for it did not build the full Pod informer.
    assert_eq!(server.request_count("list", "pods"), 1);
    let lister = pods.lister();
    let all = lister.list(&Selector::everything());
    assert_eq!(all.len(), PODS);

    // Every field the view names is there, as the server stored it; managedFields are
    // dropped as from full objects.
    let stored = server.get("pods", Some("ns-1"), "pod-5").unwrap();
    let view = lister
        .namespaced("ns-1")
        .get("pod-5")
        .expect("pod-5 cached");
    let spec = view.spec.as_ref().expect("spec");
    assert_eq!(
        spec.node_name.as_deref(),
        stored["spec"]["nodeName"].as_str()
    );
    assert_eq!(
        spec.containers
            .iter()
            .map(|c| c.image.as_deref())
            .collect::<Vec<_>>(),
        vec![stored["spec"]["containers"][0]["image"].as_str()]
    );
    assert_eq!(
        view.status.as_ref().and_then(|s| s.phase.as_deref()),
        Some("Running")
    );
    assert_eq!(
        view.metadata.labels.as_ref().map(|l| l["tier"].as_str()),
        Some("db")
    );
    assert!(stored["metadata"]["managedFields"].is_array());
    assert_eq!(view.metadata.managed_fields, None);

    // The namespace and label indexes.
    assert_eq!(
        lister
            .namespaced("ns-0")
            .list(&Selector::everything())
            .len(),
        6
    );
    assert_eq!(
        names(&lister.list(&"tier=web".parse().unwrap())),
        ["pod-0", "pod-3", "pod-6", "pod-9"]
    );
    assert_eq!(
        names(&lister.namespaced("ns-1").list(&"tier=web".parse().unwrap())),
        ["pod-3", "pod-9"]
    );

    // Add → Update → Delete, each seen as a view.
    let mut pod = fixtures::pod("ns-0", "late", 1);
    server.create("pods", None, pod.clone()).unwrap();
    eventually("late added", || {
        lister.namespaced("ns-0").get("late").is_some()
    })
    .await;
    pod["spec"]["nodeName"] = json!("node-moved");
    server.update("pods", None, pod).unwrap();
    eventually("late moved", || {
        lister
            .namespaced("ns-0")
            .get("late")
            .and_then(|v| v.spec.clone())
            .and_then(|s| s.node_name)
            .as_deref()
            == Some("node-moved")
    })
    .await;
    server.delete("pods", Some("ns-0"), "late").unwrap();
    eventually("late deleted", || {
        lister.namespaced("ns-0").get("late").is_none()
    })
    .await;
    // Handlers run after the cache is written: wait for them to have seen the delete.
    let late = || -> Vec<String> {
        events
            .lock()
            .unwrap()
            .iter()
            .filter(|e| e.contains("late"))
            .cloned()
            .collect()
    };
    eventually("the handler saw the delete", || {
        late().iter().any(|e| e.starts_with("delete"))
    })
    .await;
    let late = late();
    assert_eq!(late.len(), 3, "{late:?}");
    assert_eq!(late[0], "add late");
    assert!(
        late[1].starts_with("update late ") && late[1].ends_with("->Some(\"node-moved\")"),
        "{late:?}"
    );
    assert_eq!(late[2], "delete late");
    assert_eq!(
        events
            .lock()
            .unwrap()
            .iter()
            .filter(|e| e.starts_with("add pod-"))
            .count(),
        PODS
    );
    factory.shutdown().await;
    server.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn one_shared_informer_per_view_type_beside_the_full_one() {
    let server = server().await;

    // The same projection asked for twice: one informer, one list.
    let factory = SharedInformerFactory::new(client(&server.url()));
    let first = factory.core().v1().pods().projected::<PodView>();
    let second = factory.core().v1().pods().projected::<PodView>();
    synced(&factory).await;
    assert_eq!(server.request_count("list", "pods"), 1);
    assert_eq!(first.informer().name(), second.informer().name());
    assert!(first.informer().name().starts_with("core/v1/pods as "));
    assert_eq!(second.lister().list(&Selector::everything()).len(), PODS);
    factory.shutdown().await;

    // The full informer, two views and the projection asked for again: three informers,
    // three lists, each with its own cache.
    server.reset_request_counts();
    let factory = SharedInformerFactory::new(client(&server.url()));
    let full = factory.core().v1().pods();
    let view = factory.core().v1().pods().projected::<PodView>();
    let name_only = factory.core().v1().pods().projected::<PodName>();
    let again = factory.core().v1().pods().projected::<PodView>();
    synced(&factory).await;
    assert_eq!(server.request_count("list", "pods"), 3);
    let full_pod: Arc<Pod> = full.lister().pods("ns-0").get("pod-0").expect("full pod");
    assert!(full_pod.spec.as_ref().is_some_and(|s| !s
        .tolerations
        .as_deref()
        .unwrap_or_default()
        .is_empty()));
    assert_eq!(view.lister().list(&Selector::everything()).len(), PODS);
    assert_eq!(again.lister().list(&Selector::everything()).len(), PODS);
    assert_eq!(name_only.lister().list(&Selector::everything()).len(), PODS);
    assert_eq!(full.informer().name(), "core/v1/pods");
    assert_ne!(view.informer().name(), name_only.informer().name());
    factory.shutdown().await;
    server.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn factory_options_apply_to_projections() {
    let server = server().await;
    let factory = SharedInformerFactory::builder(client(&server.url()))
        .namespace("ns-1")
        .tweak_list_options(|o| o.label_selector = Some("tier=web".into()))
        .metadata_transform(|meta| meta.annotations = None)
        .cache_mode(CacheMode::compact(1))
        .build();
    let pods = factory.core().v1().pods().projected::<PodView>();
    synced(&factory).await;
    let all = pods.lister().list(&Selector::everything());
    assert_eq!(names(&all), ["pod-3", "pod-9"]);
    assert!(all.iter().all(|v| v.metadata.annotations.is_none()));
    assert!(all
        .iter()
        .all(|v| v.status.as_ref().and_then(|s| s.phase.as_deref()) == Some("Running")));

    // The watch is filtered too: a web Pod elsewhere and a db Pod here never arrive.
    server
        .create("pods", None, fixtures::pod("ns-0", "web-elsewhere", 0))
        .unwrap();
    server
        .create("pods", None, fixtures::pod("ns-1", "db-here", 2))
        .unwrap();
    server
        .create("pods", None, fixtures::pod("ns-1", "web-here", 3))
        .unwrap();
    eventually("web-here added", || {
        pods.lister().namespaced("ns-1").get("web-here").is_some()
    })
    .await;
    assert_eq!(
        names(&pods.lister().list(&Selector::everything())),
        ["pod-3", "pod-9", "web-here"]
    );
    factory.shutdown().await;
    server.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_accessor_is_an_ask_until_used_dropped_or_projected() {
    let server = server().await;
    let factory = SharedInformerFactory::new(client(&server.url()));
    // A clone of the ask outlives its projected twin: the full informer is still asked for.
    let full = factory.core().v1().pods();
    let view = full.clone().projected::<PodView>();
    synced(&factory).await;
    assert_eq!(server.request_count("list", "pods"), 2);
    assert_eq!(full.lister().list(&Selector::everything()).len(), PODS);
    assert_eq!(view.lister().list(&Selector::everything()).len(), PODS);
    factory.shutdown().await;

    // In a started factory, an accessor asked for and dropped unused starts its informer.
    server.reset_request_counts();
    let factory = SharedInformerFactory::new(client(&server.url()));
    factory.core().v1().config_maps();
    let view = factory.core().v1().pods().projected::<PodView>();
    synced(&factory).await;
    assert_eq!(server.request_count("list", "configmaps"), 1);
    assert_eq!(server.request_count("list", "pods"), 1);
    factory.core().v1().pods();
    eventually("the full Pod informer listed", || {
        server.request_count("list", "pods") == 2
    })
    .await;
    synced(&factory).await;
    assert_eq!(
        factory
            .core()
            .v1()
            .pods()
            .lister()
            .list(&Selector::everything())
            .len(),
        PODS
    );
    assert_eq!(view.lister().list(&Selector::everything()).len(), PODS);
    factory.shutdown().await;
    server.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_view_with_lean_metadata_syncs_indexes_and_follows_changes() {
    let server = server().await;
    // A factory metadata transform has no ObjectMeta to edit in a lean view, and the
    // compact cache round-trips it.
    let factory = SharedInformerFactory::builder(client(&server.url()))
        .metadata_transform(|meta| meta.labels = None)
        .cache_mode(CacheMode::compact(1))
        .build();
    let pods = factory.core().v1().pods().projected::<LeanPodView>();
    synced(&factory).await;
    let lister = pods.lister();
    assert_eq!(lister.list(&Selector::everything()).len(), PODS);

    // The metadata it keeps is the server's.
    let stored = server.get("pods", Some("ns-1"), "pod-5").unwrap();
    let view = lister
        .namespaced("ns-1")
        .get("pod-5")
        .expect("pod-5 cached");
    let meta = &view.metadata;
    assert_eq!(meta.name(), Some("pod-5"));
    assert_eq!(meta.namespace(), Some("ns-1"));
    assert_eq!(
        meta.resource_version(),
        stored["metadata"]["resourceVersion"].as_str()
    );
    assert_eq!(
        serde_json::to_value(&meta.labels).unwrap(),
        stored["metadata"]["labels"]
    );
    assert_eq!(
        serde_json::to_value(meta.owner_references()).unwrap(),
        stored["metadata"]["ownerReferences"]
    );
    assert_eq!(
        view.spec.as_ref().and_then(|s| s.node_name.as_deref()),
        stored["spec"]["nodeName"].as_str()
    );

    // Namespace and label indexes and selectors.
    let lean_names = |views: Vec<Arc<LeanPodView>>| {
        let mut names: Vec<String> = views
            .iter()
            .map(|v| v.metadata.name().unwrap_or_default().to_owned())
            .collect();
        names.sort();
        names
    };
    assert_eq!(
        lean_names(lister.namespaced("ns-1").list(&"tier=web".parse().unwrap())),
        ["pod-3", "pod-9"]
    );

    // A relabel moves it between selections; a delete removes it.
    let mut pod = server.get("pods", Some("ns-0"), "pod-0").unwrap();
    pod["metadata"]["labels"]["tier"] = json!("batch");
    server.update("pods", None, pod).unwrap();
    eventually("pod-0 relabelled", || {
        lean_names(lister.list(&"tier=batch".parse().unwrap())) == ["pod-0"]
    })
    .await;
    assert_eq!(
        lean_names(lister.list(&"tier=web".parse().unwrap())),
        ["pod-3", "pod-6", "pod-9"]
    );
    server.delete("pods", Some("ns-1"), "pod-5").unwrap();
    eventually("pod-5 deleted", || {
        lister.namespaced("ns-1").get("pod-5").is_none()
    })
    .await;
    assert_eq!(lister.list(&Selector::everything()).len(), PODS - 1);
    factory.shutdown().await;
    server.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn projections_read_protobuf_into_what_their_json_gives() {
    let server = server().await;
    let protobuf = SharedInformerFactory::builder(client(&server.url())).build();
    let mut config = Config::new(server.url());
    config.disable_protobuf = true;
    let json = SharedInformerFactory::builder(Client::new(config).unwrap()).build();
    let (views, json_views) = (
        protobuf.core().v1().pods().projected::<PodView>(),
        json.core().v1().pods().projected::<PodView>(),
    );
    let (lean, json_lean) = (
        protobuf.core().v1().pods().projected::<LeanPodView>(),
        json.core().v1().pods().projected::<LeanPodView>(),
    );
    synced(&protobuf).await;
    synced(&json).await;
    let sorted = |mut views: Vec<Arc<PodView>>| {
        views.sort_by(|a, b| a.metadata.name.cmp(&b.metadata.name));
        views
    };
    let lean_sorted = |mut views: Vec<Arc<LeanPodView>>| {
        views.sort_by(|a, b| a.metadata.name().cmp(&b.metadata.name()));
        views
    };
    let everything = Selector::everything();
    assert_eq!(views.lister().list(&everything).len(), PODS);
    assert_eq!(
        sorted(views.lister().list(&everything)),
        sorted(json_views.lister().list(&everything))
    );
    assert_eq!(
        lean_sorted(lean.lister().list(&everything)),
        lean_sorted(json_lean.lister().list(&everything))
    );

    // A change arrives over both watches alike.
    let mut pod = server.get("pods", Some("ns-0"), "pod-0").unwrap();
    pod["status"]["phase"] = json!("Succeeded");
    server.update_status("pods", None, pod).unwrap();
    let phase = |views: &informer_runtime::ProjectedInformer<PodView>| {
        views
            .lister()
            .namespaced("ns-0")
            .get("pod-0")
            .and_then(|v| v.status.as_ref()?.phase.clone())
    };
    eventually("the new phase in both", || {
        phase(&views).as_deref() == Some("Succeeded")
            && phase(&json_views).as_deref() == Some("Succeeded")
    })
    .await;
    assert_eq!(
        sorted(views.lister().list(&everything)),
        sorted(json_views.lister().list(&everything))
    );

    // One factory asked for protobuf, the other for JSON only.
    let accepts: std::collections::BTreeSet<String> = server
        .requests()
        .into_iter()
        .filter(|r| r.path == "/api/v1/pods")
        .filter_map(|r| r.accept)
        .collect();
    assert_eq!(
        accepts,
        [
            "application/json".to_owned(),
            "application/vnd.kubernetes.protobuf, application/json".to_owned(),
        ]
        .into()
    );
    protobuf.shutdown().await;
    json.shutdown().await;
    server.shutdown().await;
}
