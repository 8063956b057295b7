//! Our informers, listers and `Api` over a `kube::Client` built from the test API server's
//! kubeconfig, as a kube-rs user builds one: a kube-derive type and a k8s-openapi type sync,
//! list (by namespace index too) and deliver events; a 410 relist converges; writes go
//! through; the server's 403 and 404 come back as our `ApiError`.

use std::collections::BTreeMap;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use kube::config::{KubeConfigOptions, Kubeconfig};
use kube_informers::api::{Api, DeleteParams, Patch, PatchParams, PostParams};
use kube_informers::informers::SharedInformerFactory;
use kube_informers::k8s_openapi::api::core::v1::{ConfigMap, Pod};
use kube_informers::kube::resource;
use kube_informers::InformerSource as _;
use kube_informers::Meta as _;
use kube_informers::{
    Client, Deleted, Error, InformerFactory, Lister, ResourceEventHandlerFuncs, Selector,
    SharedIndexInformer, SyncErrorKind,
};
use kube_interop::Widget;
use serde_json::json;
use test_apiserver::{eventually, fixtures, FaultTarget, RunningServer, TestApiServer};

/// A kube::Client from `yaml`, a kubeconfig.
async fn kube_client_from(yaml: &str) -> kube::Client {
    let kubeconfig = Kubeconfig::from_yaml(yaml).unwrap();
    let config = kube::Config::from_custom_kubeconfig(kubeconfig, &KubeConfigOptions::default())
        .await
        .unwrap();
    kube::Client::try_from(config).unwrap()
}

/// Our client over a kube::Client from the server's kubeconfig.
async fn client(server: &RunningServer) -> Client {
    Client::from_kube(kube_client_from(&server.kubeconfig_yaml()).await)
}

/// Every event a handler saw, as text, in order.
#[derive(Clone, Default)]
struct Seen(Arc<Mutex<Vec<String>>>);

impl Seen {
    fn push(&self, event: String) {
        self.0.lock().unwrap().push(event);
    }
    fn all(&self) -> Vec<String> {
        self.0.lock().unwrap().clone()
    }
    fn live(&self) -> Vec<String> {
        self.all()
            .into_iter()
            .filter(|e| !e.starts_with("initial"))
            .collect()
    }
}

fn record<K>(informer: &SharedIndexInformer<K>, seen: &Seen)
where
    K: kube_informers::Object,
{
    let (a, u, d) = (seen.clone(), seen.clone(), seen.clone());
    informer.add_event_handler(
        ResourceEventHandlerFuncs::default()
            .on_add(move |o: &Arc<K>, initial| {
                let what = if initial { "initial" } else { "add" };
                a.push(format!("{what} {}", key(&**o)));
            })
            .on_update(move |_old: &Arc<K>, new: &Arc<K>| u.push(format!("update {}", key(&**new))))
            .on_delete(move |gone: &Deleted<K>| {
                d.push(format!("delete {}", gone.key()));
            }),
    );
}

fn key<K: kube_informers::Object>(o: &K) -> String {
    kube_informers::object::object_key(o)
}

/// `namespace/name` → resourceVersion of what the server holds.
fn server_state(server: &RunningServer, resource: &str) -> BTreeMap<String, String> {
    server
        .list(resource, None)
        .unwrap()
        .iter()
        .map(|o| {
            let meta = &o["metadata"];
            (
                format!(
                    "{}/{}",
                    meta["namespace"].as_str().unwrap(),
                    meta["name"].as_str().unwrap()
                ),
                meta["resourceVersion"].as_str().unwrap().to_owned(),
            )
        })
        .collect()
}

fn cache_state<K: kube_informers::Object>(
    informer: &SharedIndexInformer<K>,
) -> BTreeMap<String, String> {
    Lister::new(informer.indexer())
        .list(&Selector::everything())
        .iter()
        .map(|o| {
            (
                key(&**o),
                o.meta().resource_version().unwrap_or_default().to_owned(),
            )
        })
        .collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn kube_derive_type_and_pods_sync_list_and_deliver_events() {
    // HTTPS with the server's own CA and a bearer token: kube's TLS and auth carry it.
    let server = TestApiServer::builder()
        .tls(true)
        .token("interop-token")
        .seed_pods(1_500)
        .seed_namespaces(3)
        .resource(fixtures::widget_spec())
        .start()
        .await
        .unwrap();
    for i in 0..9 {
        let ns = format!("ns-{}", i % 3);
        server
            .create(
                "widgets.example.com",
                Some(&ns),
                fixtures::widget(&ns, &format!("w{i}"), i),
            )
            .unwrap();
    }
    let factory = SharedInformerFactory::new(client(&server).await);
    let pods = factory.core().v1().pods();
    let widgets = factory.informer_for(resource::<Widget>());
    assert_eq!(widgets.name(), "example.com/v1/widgets");
    assert_eq!(resource::<Pod>().informer_name(), "core/v1/pods");
    // The generated accessor and the kube-rs path share one informer per type.
    let pods_again = factory.informer_for(resource::<Pod>());
    let (seen_widgets, seen_pods) = (Seen::default(), Seen::default());
    record(&widgets, &seen_widgets);
    record(&pods.informer(), &seen_pods);
    assert_eq!(pods_again.name(), pods.informer().name());

    factory.start();
    tokio::time::timeout(Duration::from_secs(60), factory.wait_for_cache_sync())
        .await
        .expect("sync hung")
        .unwrap();

    // Lists through the pod lister and the widget lister, by namespace index and labels.
    assert_eq!(pods.lister().list(&Selector::everything()).len(), 1_500);
    assert_eq!(
        pods.lister()
            .pods("ns-1")
            .list(&Selector::everything())
            .len(),
        500
    );
    let widget_lister = Lister::new(widgets.indexer());
    assert_eq!(widget_lister.list(&Selector::everything()).len(), 9);
    let in_ns0 = widget_lister.namespaced("ns-0");
    let mut names: Vec<String> = in_ns0
        .list(&Selector::everything())
        .iter()
        .map(|w| w.metadata.name.clone().unwrap())
        .collect();
    names.sort();
    assert_eq!(names, ["w0", "w3", "w6"]);
    let w3 = in_ns0.get("w3").unwrap();
    assert_eq!((w3.spec.size, w3.spec.color.as_str()), (3, "red"));
    assert_eq!(w3.status.as_ref().map(|s| s.ready), Some(false));
    // The fixture colors widget i by i % 3: every widget in ns-0 is red, none in ns-1.
    let red: Selector = "color=red".parse().unwrap();
    assert_eq!(in_ns0.list(&red).len(), 3);
    assert!(widget_lister.namespaced("ns-1").list(&red).is_empty());
    assert_eq!(widget_lister.list(&red).len(), 3);
    assert_eq!(
        widgets
            .indexer()
            .by_index("namespace", "ns-2")
            .unwrap()
            .len(),
        3
    );
    eventually("the initial adds", || seen_widgets.all().len() == 9).await;
    // Asking the generated factory again hands out the same shared informer.
    let registered = factory.informer_for(resource::<Widget>());
    assert!(registered.has_synced());
    assert_eq!(registered.indexer().len(), 9);

    // Add, update, delete of the kube-derive type and of a Pod.
    server
        .create(
            "widgets.example.com",
            Some("ns-1"),
            fixtures::widget("ns-1", "fresh", 20),
        )
        .unwrap();
    server
        .patch_merge(
            "widgets.example.com",
            Some("ns-1"),
            "fresh",
            json!({"spec": {"size": 8}}),
        )
        .unwrap();
    server
        .delete("widgets.example.com", Some("ns-1"), "fresh")
        .unwrap();
    server
        .create("pods", Some("ns-2"), fixtures::pod("ns-2", "fresh-pod", 1))
        .unwrap();
    server
        .patch_merge(
            "pods",
            Some("ns-2"),
            "fresh-pod",
            json!({"metadata": {"labels": {"seen": "yes"}}}),
        )
        .unwrap();
    server.delete("pods", Some("ns-2"), "fresh-pod").unwrap();
    let expected = |key: &str| {
        vec![
            format!("add {key}"),
            format!("update {key}"),
            format!("delete {key}"),
        ]
    };
    eventually("widget events", || {
        seen_widgets.live() == expected("ns-1/fresh")
    })
    .await;
    eventually("pod events", || {
        seen_pods.live() == expected("ns-2/fresh-pod")
    })
    .await;
    factory.shutdown().await;
    server.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_expired_watch_relists_through_kube_and_converges() {
    let server = TestApiServer::builder()
        .namespaces(["a"])
        .resource(fixtures::widget_spec())
        .start()
        .await
        .unwrap();
    for i in 0..6 {
        server
            .create(
                "widgets.example.com",
                Some("a"),
                fixtures::widget("a", &format!("w{i}"), i),
            )
            .unwrap();
    }
    let factory = SharedInformerFactory::new(client(&server).await);
    let widgets = factory.informer_for(resource::<Widget>());
    let seen = Seen::default();
    record(&widgets, &seen);
    factory.start();
    factory.wait_for_cache_sync().await.unwrap();
    // Open, not only asked for: a watch still being set up when the watches are cut below
    // would miss the cut and see every change live, without a 410.
    eventually("an open watch", || {
        server.open_watches("widgets.example.com") >= 1
    })
    .await;

    // Keep the informer out while objects change, then expire its resourceVersion.
    server.faults().fail_next(
        10_000,
        503,
        FaultTarget::resource("widgets.example.com").verb("watch"),
    );
    server.faults().cut_watches();
    eventually("a failed re-watch", || widgets.stats().errors >= 1).await;
    server
        .delete("widgets.example.com", Some("a"), "w1")
        .unwrap();
    server
        .patch_merge(
            "widgets.example.com",
            Some("a"),
            "w2",
            json!({"spec": {"size": 9}}),
        )
        .unwrap();
    server
        .create(
            "widgets.example.com",
            Some("a"),
            fixtures::widget("a", "new", 7),
        )
        .unwrap();
    server.faults().compact_history();
    server.faults().clear();

    eventually("convergence", || {
        cache_state(&widgets) == server_state(&server, "widgets.example.com")
    })
    .await;
    let stats = widgets.stats();
    assert!(stats.expired_relists >= 1, "{stats:?}");
    // Handlers run after the cache is written: the cache can converge before the handler
    // has been told of the delete.
    eventually("the handler saw the delete", || {
        seen.live().contains(&"delete a/w1".to_owned())
    })
    .await;
    let lister = Lister::new(widgets.indexer());
    assert_eq!(lister.namespaced("a").get("w2").unwrap().spec.size, 9);
    factory.shutdown().await;
    server.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn writes_through_api_over_kube() {
    let server = TestApiServer::builder()
        .namespaces(["shop"])
        .start()
        .await
        .unwrap();
    let cms = Api::<ConfigMap>::namespaced(client(&server).await, "shop");
    let cm = ConfigMap {
        metadata: kube_informers::k8s_openapi::apimachinery::pkg::apis::meta::v1::ObjectMeta {
            name: Some("settings".into()),
            ..Default::default()
        },
        data: Some([("mode".to_owned(), "fast".to_owned())].into()),
        ..Default::default()
    };
    let created = cms.create(&cm, &PostParams::default()).await.unwrap();
    assert!(created.metadata.resource_version.is_some());
    let patched = cms
        .patch(
            "settings",
            &Patch::Merge(json!({"data": {"mode": "safe"}})),
            &PatchParams::default(),
        )
        .await
        .unwrap();
    assert_eq!(patched.data.unwrap()["mode"], "safe");
    let stored = server.get("configmaps", Some("shop"), "settings").unwrap();
    assert_eq!(stored["data"]["mode"], "safe");

    // A stale resourceVersion is a conflict, as the server answers it.
    let stale = cms
        .update(&created, &PostParams::default())
        .await
        .unwrap_err();
    assert!(stale.is_conflict(), "{stale}");

    cms.delete("settings", &DeleteParams::default())
        .await
        .unwrap();
    assert!(cms.get_opt("settings").await.unwrap().is_none());
    server.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn server_errors_come_back_as_api_errors() {
    let server = TestApiServer::builder()
        .token("admin")
        .token_with_access("pods-only", &["pods"])
        .start()
        .await
        .unwrap();

    // 404 for a missing object, with the path and transport in the context.
    let admin = client(&server).await;
    let missing = Api::<Pod>::namespaced(admin.clone(), "shop")
        .get("nope")
        .await
        .unwrap_err();
    assert!(missing.is_not_found(), "{missing}");
    let api = missing.api().unwrap();
    assert_eq!((api.code, api.reason.as_str()), (404, "NotFound"));
    assert!(
        api.context
            .contains("/api/v1/namespaces/shop/pods/nope through kube::Client"),
        "{}",
        api.context
    );

    // 403 for a resource the token may not touch; an informer of it fails to sync
    // naming the informer, instead of hanging.
    let yaml = server.kubeconfig_yaml().replace("admin", "pods-only");
    let limited = Client::from_kube(kube_client_from(&yaml).await);
    let forbidden = Api::<ConfigMap>::namespaced(limited.clone(), "shop")
        .get("settings")
        .await
        .unwrap_err();
    assert!(forbidden.is_forbidden(), "{forbidden}");
    assert!(matches!(&forbidden, Error::Api(e) if e.code == 403));
    Api::<Pod>::all(limited.clone())
        .list(&Default::default())
        .await
        .unwrap();

    let factory = SharedInformerFactory::new(limited);
    factory.core().v1().config_maps();
    factory.start();
    let failed = tokio::time::timeout(Duration::from_secs(30), factory.wait_for_cache_sync())
        .await
        .expect("sync hung")
        .unwrap_err();
    assert_eq!(failed.informer, "core/v1/configmaps");
    match &failed.kind {
        SyncErrorKind::Failed(f) => assert_eq!(f.code, Some(403)),
        other => panic!("unexpected {other:?}"),
    }
    factory.shutdown().await;
    server.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn transport_and_credential_failures_are_our_errors() {
    // Nothing listens here: a transport error naming the request.
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let config = kube::Config::new(format!("http://127.0.0.1:{port}").parse().unwrap());
    let refused = Client::from_kube(kube::Client::try_from(config).unwrap());
    let e = Api::<Pod>::all(refused)
        .list(&Default::default())
        .await
        .unwrap_err();
    match &e {
        Error::Http { context, .. } => {
            assert_eq!(context, "list pods at /api/v1/pods through kube::Client")
        }
        other => panic!("unexpected {other:?}"),
    }

    // kube's credentials failing at request time (an exec plugin whose credential has
    // expired, and which fails when run again) is a configuration error, so a sync fails
    // at once instead of retrying.
    let server = TestApiServer::builder().token("t").start().await.unwrap();
    let dir = tempfile::tempdir().unwrap();
    let plugin = dir.path().join("credential-plugin");
    std::fs::write(
        &plugin,
        "#!/bin/sh\nif [ -e \"$0.ran\" ]; then echo 'no more credentials' >&2; exit 1; fi\ntouch \"$0.ran\"\necho '{\"apiVersion\":\"client.authentication.k8s.io/v1\",\"kind\":\"ExecCredential\",\"status\":{\"token\":\"t\",\"expirationTimestamp\":\"2000-01-01T00:00:00Z\"}}'\n",
    )
    .unwrap();
    std::fs::set_permissions(&plugin, std::os::unix::fs::PermissionsExt::from_mode(0o755)).unwrap();
    let yaml = server.kubeconfig_yaml().replace(
        "token: \"t\"",
        &format!(
            "exec:\n      apiVersion: client.authentication.k8s.io/v1\n      command: {}\n      interactiveMode: Never",
            plugin.display()
        ),
    );
    assert!(yaml.contains("credential-plugin"), "{yaml}");
    let client = Client::from_kube(kube_client_from(&yaml).await);
    let e = Api::<Pod>::all(client.clone())
        .list(&Default::default())
        .await
        .unwrap_err();
    assert_eq!(
        e.config_kind(),
        Some(kube_informers::error::ConfigErrorKind::Credentials),
        "{e}"
    );
    let factory = SharedInformerFactory::new(client);
    factory.core().v1().pods();
    factory.start();
    let failed = tokio::time::timeout(Duration::from_secs(30), factory.wait_for_cache_sync())
        .await
        .expect("sync hung")
        .unwrap_err();
    assert!(matches!(failed.kind, SyncErrorKind::Failed(_)), "{failed}");
    factory.shutdown().await;
    server.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn protobuf_goes_over_kube_too() {
    // Through kube's transport, built-ins negotiate kube-apiserver's protobuf as over ours:
    // the generated informer of Pods and a typed `Api` with the decoders.
    let server = TestApiServer::builder()
        .tls(true)
        .token("interop-token")
        .seed_pods(300)
        .seed_namespaces(3)
        .start()
        .await
        .unwrap();
    let client = client(&server).await;
    let factory = SharedInformerFactory::new(client.clone());
    let pods = factory.core().v1().pods();
    factory.start();
    tokio::time::timeout(Duration::from_secs(60), factory.wait_for_cache_sync())
        .await
        .expect("sync hung")
        .unwrap();
    let from_protobuf = Api::<Pod>::namespaced(client.clone(), "ns-1")
        .with_protobuf(kube_informers::protobuf::decoders())
        .get("pod-1")
        .await
        .unwrap();
    let from_json = Api::<Pod>::namespaced(client, "ns-1")
        .get("pod-1")
        .await
        .unwrap();
    assert_eq!(from_protobuf, from_json);
    let cached = pods.lister().pods("ns-1").get("pod-1").expect("cached");
    assert_eq!(cached.spec, from_json.spec);
    assert_eq!(pods.lister().list(&Selector::everything()).len(), 300);

    let protobuf = "application/vnd.kubernetes.protobuf, application/json";
    let accepts: Vec<(String, String)> = server
        .requests()
        .into_iter()
        .filter(|r| r.path.contains("/pods"))
        .map(|r| (r.path, r.accept.unwrap_or_default()))
        .collect();
    assert!(
        accepts
            .iter()
            .any(|(path, accept)| path == "/api/v1/pods" && accept == protobuf),
        "{accepts:?}"
    );
    assert!(
        accepts.contains(&(
            "/api/v1/namespaces/ns-1/pods/pod-1".to_owned(),
            protobuf.to_owned()
        )),
        "{accepts:?}"
    );
    factory.shutdown().await;
    server.shutdown().await;
}
