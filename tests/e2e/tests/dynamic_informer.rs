//! Dynamic informers and discovery against the test API server: a resource registered
//! at run time, scope taken from discovery, typed access to dynamic objects, and clear
//! errors for resources the server does not serve.

mod common;

use std::sync::{Arc, Mutex};
use std::time::Duration;

use common::client;
use informer_runtime::discovery::Discovery;
use informer_runtime::dynamic::{DynamicObject, DynamicSharedInformerFactory};
use informer_runtime::{
    Deleted, Error, GroupVersionResource, InformerFactory, ResourceEventHandlerFuncs, Selector,
};
use k8s_openapi::api::core::v1::{Node, Pod};
use test_apiserver::resource::ResourceSpec;
use test_apiserver::{eventually, fixtures, TestApiServer};

const SYNC: Duration = Duration::from_secs(60);

fn widgets() -> GroupVersionResource {
    GroupVersionResource::new("example.com", "v1", "widgets")
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn dynamic_informer_serves_a_resource_registered_at_run_time() {
    let server = TestApiServer::builder()
        .seed_namespaces(2)
        .start()
        .await
        .unwrap();
    let factory = DynamicSharedInformerFactory::builder(client(&server.url()))
        .namespace("ns-0")
        .build();
    let before = factory.for_resource(&widgets()).await.unwrap_err();
    assert!(
        matches!(before, Error::UnknownResource { .. }),
        "{before:?}"
    );

    server.register(fixtures::widget_spec());
    for (ns, i) in [("ns-0", 0), ("ns-0", 1), ("ns-1", 2)] {
        server
            .create(
                "widgets.example.com",
                None,
                fixtures::widget(ns, &format!("w-{i}"), i),
            )
            .unwrap();
    }
    let informer = factory.for_resource(&widgets()).await.unwrap();
    assert_eq!(informer.resource().kind, "Widget");
    let events = Arc::new(Mutex::new(Vec::<String>::new()));
    let (a, u, d) = (events.clone(), events.clone(), events.clone());
    informer.informer().add_event_handler(
        ResourceEventHandlerFuncs::<DynamicObject>::default()
            .on_add(move |o, _| {
                a.lock().unwrap().push(format!(
                    "add {} {}",
                    o.kind,
                    o.metadata.name.clone().unwrap()
                ))
            })
            .on_update(move |_, new| {
                u.lock()
                    .unwrap()
                    .push(format!("update {}", new.rest["spec"]["size"]))
            })
            .on_delete(move |gone| {
                let Deleted::Object(o) = gone else {
                    panic!("unexpected {gone:?}")
                };
                d.lock()
                    .unwrap()
                    .push(format!("delete {}", o.metadata.name.clone().unwrap()))
            }),
    );
    factory.start();
    factory.wait_for_cache_sync_timeout(SYNC).await.unwrap();

    let lister = informer.lister();
    let all = lister.list(&Selector::everything());
    assert_eq!(all.len(), 2, "only the factory's namespace");
    let w0 = lister.namespaced("ns-0").get("w-0").unwrap();
    assert_eq!(
        (w0.api_version.as_str(), w0.kind.as_str()),
        ("example.com/v1", "Widget")
    );
    assert_eq!(w0.rest["spec"]["color"], "red");

    server
        .create(
            "widgets.example.com",
            None,
            fixtures::widget("ns-0", "w-3", 3),
        )
        .unwrap();
    server
        .patch_merge(
            "widgets.example.com",
            Some("ns-0"),
            "w-0",
            serde_json::json!({"spec": {"size": 42}}),
        )
        .unwrap();
    server
        .delete("widgets.example.com", Some("ns-0"), "w-1")
        .unwrap();
    eventually("watch events delivered", || {
        events.lock().unwrap().len() == 5
    })
    .await;
    let mut log = events.lock().unwrap().clone();
    log[..2].sort();
    assert_eq!(
        log,
        vec![
            "add Widget w-0",
            "add Widget w-1",
            "add Widget w-3",
            "update 42",
            "delete w-1"
        ]
    );
    let json = informer
        .generic()
        .get_json(Some("ns-0"), "w-3")
        .unwrap()
        .unwrap();
    assert_eq!(json["kind"], "Widget");
    factory.shutdown().await;
    server.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn scope_comes_from_discovery_and_objects_parse_into_typed_ones() {
    let server = TestApiServer::builder()
        .seed_pods(4)
        .seed_namespaces(2)
        .start()
        .await
        .unwrap();
    for i in 0..3 {
        server
            .create("nodes", None, fixtures::node(&format!("node-{i}"), i))
            .unwrap();
    }
    let factory = DynamicSharedInformerFactory::builder(client(&server.url()))
        .namespace("ns-1")
        .build();
    let nodes = factory
        .for_resource(&GroupVersionResource::new("", "v1", "nodes"))
        .await
        .unwrap();
    let pods = factory
        .for_resource(&GroupVersionResource::new("", "v1", "pods"))
        .await
        .unwrap();
    assert!(!nodes.resource().namespaced);
    factory.start();
    factory.wait_for_cache_sync_timeout(SYNC).await.unwrap();

    assert_eq!(nodes.lister().list(&Selector::everything()).len(), 3);
    let node: Node = nodes.lister().get("node-2").unwrap().try_parse().unwrap();
    assert_eq!(node.metadata.name.as_deref(), Some("node-2"));

    let in_ns1 = pods.lister().list(&Selector::everything());
    assert_eq!(in_ns1.len(), 2);
    let pod: Pod = in_ns1[0].try_parse().unwrap();
    assert!(!pod.spec.unwrap().containers.is_empty());
    let wrong = in_ns1[0].try_parse::<Node>().unwrap_err().to_string();
    assert!(
        wrong.contains("as v1 Node") && wrong.contains("Pod"),
        "{wrong}"
    );
    factory.shutdown().await;
    server.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn unknown_resources_give_errors_naming_resource_and_server() {
    let server = TestApiServer::builder().start().await.unwrap();
    let factory = DynamicSharedInformerFactory::new(client(&server.url()), Duration::ZERO);

    let gizmos = GroupVersionResource::new("example.com", "v1", "gizmos");
    let msg = factory.for_resource(&gizmos).await.unwrap_err().to_string();
    assert!(msg.contains("example.com/v1/gizmos"), "{msg}");
    assert!(msg.contains(&server.url()), "{msg}");

    let core_gizmos = GroupVersionResource::new("", "v1", "gizmos");
    let msg = factory
        .for_resource(&core_gizmos)
        .await
        .unwrap_err()
        .to_string();
    assert!(
        msg.contains("v1/gizmos") && msg.contains("no resource"),
        "{msg}"
    );

    let discovery = Discovery::new(client(&server.url()));
    let msg = discovery
        .resolve_kind("apps", None, "Gizmo")
        .await
        .unwrap_err()
        .to_string();
    assert!(
        msg.contains("Gizmo") && msg.contains(&server.url()),
        "{msg}"
    );
    server.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn discovery_lists_group_versions_and_refreshes_on_a_miss() {
    let server = TestApiServer::builder()
        .resource(fixtures::widget_spec())
        .start()
        .await
        .unwrap();
    let discovery = Discovery::new(client(&server.url()));
    let gvs = discovery.group_versions().await.unwrap();
    for (g, v) in [("", "v1"), ("apps", "v1"), ("example.com", "v1")] {
        assert!(
            gvs.iter()
                .any(|gv| gv.group == g && gv.version == v && gv.preferred),
            "{g}/{v} missing from {gvs:?}"
        );
    }
    let deployments = discovery
        .resolve_kind("apps", None, "Deployment")
        .await
        .unwrap();
    assert_eq!(deployments.plural, "deployments");
    assert!(deployments.namespaced && deployments.supports("watch"));
    let pods = discovery.resolve_kind("", Some("v1"), "Pod").await.unwrap();
    assert_eq!(pods.gvr(), GroupVersionResource::new("", "v1", "pods"));

    let w = discovery.resolve(&widgets()).await.unwrap();
    assert_eq!(w.kind, "Widget");
    server.register(ResourceSpec::new(
        "example.com",
        "v1",
        "Gadget",
        "gadgets",
        false,
    ));
    let gadgets = discovery
        .resolve(&GroupVersionResource::new("example.com", "v1", "gadgets"))
        .await
        .unwrap();
    assert_eq!(gadgets.kind, "Gadget");
    assert!(!gadgets.namespaced);
    let by_kind = discovery
        .resolve_kind("example.com", Some("v1"), "Gadget")
        .await
        .unwrap();
    assert_eq!(by_kind.plural, "gadgets");
    server.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn factory_options_apply_to_dynamic_informers() {
    let server = TestApiServer::builder()
        .seed_pods(12)
        .seed_namespaces(2)
        .start()
        .await
        .unwrap();
    let factory = DynamicSharedInformerFactory::builder(client(&server.url()))
        .namespace("ns-0")
        .tweak_list_options(|o| o.label_selector = Some("tier=web".into()))
        .metadata_transform(|m| m.annotations = None)
        .build();
    let pods_gvr = GroupVersionResource::new("", "v1", "pods");
    let pods = factory.for_resource(&pods_gvr).await.unwrap();
    factory.start();
    factory.wait_for_cache_sync_timeout(SYNC).await.unwrap();
    let cached = pods.lister().list(&Selector::everything());
    let expected = server
        .list("pods", Some("ns-0"))
        .unwrap()
        .iter()
        .filter(|p| p["metadata"]["labels"]["tier"] == "web")
        .count();
    assert!(expected > 0);
    assert_eq!(cached.len(), expected);
    assert!(cached.iter().all(|p| {
        p.metadata.namespace.as_deref() == Some("ns-0") && p.metadata.annotations.is_none()
    }));
    let again = factory.for_resource(&pods_gvr).await.unwrap();
    assert_eq!(again.lister().list(&Selector::everything()).len(), expected);
    assert_eq!(
        server.request_count("list", "pods"),
        1,
        "one informer per resource"
    );
    factory.shutdown().await;
    server.shutdown().await;
}
