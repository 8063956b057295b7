//! The controller's event handlers over informers on the test API server: `enqueue` keys,
//! `enqueue_owner` by controller ownerReference, and client-go's filtering handler with
//! the label-selector and generation-changed predicates.

use std::sync::{Arc, Mutex};
use std::time::Duration;

use informer_controller::WorkQueue;
use informer_controller::{
    enqueue, enqueue_owner, filtered, generation_changed, label_selector, predicate, ObjectRef,
};
use informer_runtime::client::Config;
use informer_runtime::lister_watcher::ListWatch;
use informer_runtime::Meta as _;
use informer_runtime::{
    Api, Client, Deleted, Indexers, ListOptions, ResourceEventHandler, ResourceEventHandlerFuncs,
    SharedIndexInformer,
};
use k8s_openapi::api::apps::v1::Deployment;
use k8s_openapi::api::core::v1::ConfigMap;
use k8s_openapi::api::rbac::v1::ClusterRole;
use k8s_openapi::apimachinery::pkg::apis::meta::v1::ObjectMeta;
use serde_json::{json, Value};
use test_apiserver::{eventually, RunningServer, TestApiServer};
use tokio::time::timeout;
use tokio_util::sync::CancellationToken;

fn informer<K>(url: &str) -> SharedIndexInformer<K>
where
    K: k8s_openapi::ListableResource
        + k8s_openapi::Metadata<Ty = ObjectMeta>
        + serde::de::DeserializeOwned
        + serde::Serialize
        + Clone
        + Send
        + Sync
        + 'static,
    K::Scope: 'static,
{
    let client = Client::new(Config::new(url)).unwrap();
    let (c1, c2) = (client.clone(), client);
    let lw = ListWatch::new(
        move |o: ListOptions| Api::<K>::all(c1.clone()).list_as(&o, None),
        move |o: ListOptions| Api::<K>::all(c2.clone()).watch_as(&o, None),
    );
    SharedIndexInformer::new(lw, Duration::ZERO, Indexers::namespace())
}

/// Every key the queue hands out until it stays empty for a moment.
async fn drain(queue: &WorkQueue<ObjectRef>) -> Vec<String> {
    let mut keys = Vec::new();
    while let Ok(Some(k)) = timeout(Duration::from_millis(300), queue.get()).await {
        keys.push(k.to_string());
        queue.done(&k);
    }
    keys.sort();
    keys
}

fn config_map(name: &str, labels: Value, owners: Value) -> Value {
    json!({"apiVersion": "v1", "kind": "ConfigMap",
           "metadata": {"name": name, "namespace": "a", "labels": labels, "ownerReferences": owners}})
}

fn owner(api_version: &str, kind: &str, name: &str, controller: bool) -> Value {
    json!({"apiVersion": api_version, "kind": kind, "name": name,
           "uid": format!("uid-{name}"), "controller": controller})
}

struct Running {
    cancel: CancellationToken,
    task: tokio::task::JoinHandle<()>,
}

async fn run<K: informer_runtime::object::Object>(inf: &SharedIndexInformer<K>) -> Running {
    let cancel = CancellationToken::new();
    let task = tokio::spawn(inf.run(cancel.clone()));
    inf.wait_for_sync().await.unwrap();
    Running { cancel, task }
}

impl Running {
    async fn stop(self) {
        self.cancel.cancel();
        self.task.await.unwrap();
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn enqueue_queues_namespace_name_keys_on_add_update_and_delete() {
    let server = TestApiServer::builder()
        .namespaces(["a"])
        .start()
        .await
        .unwrap();
    server
        .create(
            "configmaps",
            Some("a"),
            config_map("one", json!({}), json!([])),
        )
        .unwrap();
    let inf = informer::<ConfigMap>(&server.url());
    let queue = WorkQueue::<ObjectRef>::new();
    let reg = inf.add_event_handler(enqueue(queue.clone()));
    let running = run(&inf).await;
    eventually("the initial add", || reg.stats().delivered == 1).await;
    assert_eq!(drain(&queue).await, ["a/one"]);

    server
        .create(
            "configmaps",
            Some("a"),
            config_map("two", json!({}), json!([])),
        )
        .unwrap();
    server
        .patch_merge("configmaps", Some("a"), "one", json!({"data": {"x": "1"}}))
        .unwrap();
    eventually("both keys", || queue.len() == 2).await;
    assert_eq!(drain(&queue).await, ["a/one", "a/two"]);
    server.delete("configmaps", Some("a"), "two").unwrap();
    eventually("the delete", || queue.len() == 1).await;
    assert_eq!(drain(&queue).await, ["a/two"]);
    assert!(inf.indexer().get_by_key("a/two").is_none());
    running.stop().await;
}

#[test]
fn a_tombstone_is_queued_under_its_key() {
    let queue = WorkQueue::<ObjectRef>::new();
    let handler = enqueue::<ConfigMap>(queue.clone());
    let mut last = ConfigMap::default();
    last.metadata.name = Some("gone".into());
    last.metadata.namespace = Some("a".into());
    handler.on_delete(&Deleted::FinalStateUnknown {
        key: "a/gone".into(),
        last_known: Arc::new(last.clone()),
    });
    handler.on_delete(&Deleted::FinalStateUnknown {
        key: "not/a/key".into(),
        last_known: Arc::new(last),
    });
    let s = queue.stats();
    assert_eq!((s.depth, s.adds), (1, 1), "both name a/gone");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn enqueue_owner_queues_the_controller_owner_of_the_right_kind() {
    // The owners are names only (no such Deployments exist): without the garbage collector,
    // which would delete their dependents as a real cluster's does.
    let server = TestApiServer::builder()
        .namespaces(["a"])
        .garbage_collection(false)
        .start()
        .await
        .unwrap();
    let inf = informer::<ConfigMap>(&server.url());
    let queue = WorkQueue::<ObjectRef>::new();
    let reg = inf.add_event_handler(enqueue_owner::<Deployment, ConfigMap>(queue.clone()));
    let cluster_owned = WorkQueue::<ObjectRef>::new();
    let cluster_reg = inf.add_event_handler(enqueue_owner::<ClusterRole, ConfigMap>(
        cluster_owned.clone(),
    ));
    let running = run(&inf).await;

    let cases = [
        (
            "owned",
            json!([owner("apps/v1", "Deployment", "web", true)]),
        ),
        (
            "second-of-web",
            json!([
                owner("v1", "ConfigMap", "x", false),
                owner("apps/v1", "Deployment", "web", true)
            ]),
        ),
        (
            "not-controller",
            json!([owner("apps/v1", "Deployment", "db", false)]),
        ),
        (
            "other-kind",
            json!([owner("apps/v1", "ReplicaSet", "rs", true)]),
        ),
        (
            "other-group",
            json!([owner("example.com/v1", "Deployment", "fake", true)]),
        ),
        ("orphan", json!([])),
        (
            "role-owned",
            json!([owner(
                "rbac.authorization.k8s.io/v1",
                "ClusterRole",
                "admin",
                true
            )]),
        ),
    ];
    for (name, owners) in cases {
        server
            .create("configmaps", Some("a"), config_map(name, json!({}), owners))
            .unwrap();
    }
    eventually("every add handled", || {
        reg.stats().delivered == 7 && cluster_reg.stats().delivered == 7
    })
    .await;
    assert_eq!(drain(&queue).await, ["a/web"], "one owner, queued once");
    assert_eq!(queue.stats().adds, 1);
    assert_eq!(
        drain(&cluster_owned).await,
        ["admin"],
        "a cluster-scoped owner has no namespace"
    );

    // The object moves to another owner: both hear of it.
    server
        .patch_merge(
            "configmaps",
            Some("a"),
            "owned",
            json!({"metadata": {"ownerReferences": [owner("apps/v1", "Deployment", "api", true)]}}),
        )
        .unwrap();
    eventually("the update", || queue.len() == 2).await;
    assert_eq!(drain(&queue).await, ["a/api", "a/web"]);
    server.delete("configmaps", Some("a"), "owned").unwrap();
    eventually("the delete", || queue.len() == 1).await;
    assert_eq!(drain(&queue).await, ["a/api"]);
    running.stop().await;
}

/// Records what reaches it as `add NAME`, `update NAME`, `delete NAME`.
fn recorder<K: informer_runtime::object::Object>(
) -> (Arc<Mutex<Vec<String>>>, ResourceEventHandlerFuncs<K>) {
    let log = Arc::new(Mutex::new(Vec::new()));
    let name = |k: &K| k.meta().name().unwrap_or_default().to_owned();
    let (l1, l2, l3) = (log.clone(), log.clone(), log.clone());
    let funcs = ResourceEventHandlerFuncs::default()
        .on_add(move |o: &Arc<K>, _| l1.lock().unwrap().push(format!("add {}", name(o))))
        .on_update(move |_, n: &Arc<K>| l2.lock().unwrap().push(format!("update {}", name(n))))
        .on_delete(move |d: &Deleted<K>| {
            l3.lock()
                .unwrap()
                .push(format!("delete {}", name(d.object())))
        });
    (log, funcs)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_label_selector_filter_turns_relabels_into_adds_and_deletes() {
    let server = TestApiServer::builder()
        .namespaces(["a"])
        .start()
        .await
        .unwrap();
    let inf = informer::<ConfigMap>(&server.url());
    let (log, funcs) = recorder::<ConfigMap>();
    inf.add_event_handler(filtered(label_selector("app=web".parse().unwrap()), funcs));
    let running = run(&inf).await;

    let label = |server: &RunningServer, name: &str, app: &str| {
        server
            .patch_merge(
                "configmaps",
                Some("a"),
                name,
                json!({"metadata": {"labels": {"app": app}}}),
            )
            .unwrap();
    };
    server
        .create(
            "configmaps",
            Some("a"),
            config_map("c1", json!({"app": "web"}), json!([])),
        )
        .unwrap();
    server
        .create(
            "configmaps",
            Some("a"),
            config_map("c2", json!({"app": "db"}), json!([])),
        )
        .unwrap();
    label(&server, "c1", "db");
    label(&server, "c2", "web");
    server
        .patch_merge("configmaps", Some("a"), "c2", json!({"data": {"k": "v"}}))
        .unwrap();
    server
        .patch_merge("configmaps", Some("a"), "c1", json!({"data": {"k": "v"}}))
        .unwrap();
    server.delete("configmaps", Some("a"), "c1").unwrap();
    server.delete("configmaps", Some("a"), "c2").unwrap();
    server
        .create(
            "configmaps",
            Some("a"),
            config_map("end", json!({"app": "web"}), json!([])),
        )
        .unwrap();
    eventually("the last add", || {
        log.lock().unwrap().last().map(String::as_str) == Some("add end")
    })
    .await;
    assert_eq!(
        *log.lock().unwrap(),
        [
            "add c1",
            "delete c1",
            "add c2",
            "update c2",
            "delete c2",
            "add end"
        ]
    );
    running.stop().await;
}

fn deployment(name: &str) -> Value {
    json!({"apiVersion": "apps/v1", "kind": "Deployment",
           "metadata": {"name": name},
           "spec": {"replicas": 1, "selector": {"matchLabels": {"app": name}},
                    "template": {"metadata": {"labels": {"app": name}},
                                 "spec": {"containers": [{"name": "app", "image": "nginx"}]}}}})
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn generation_changed_passes_only_spec_changes() {
    let server = TestApiServer::builder()
        .namespaces(["a"])
        .start()
        .await
        .unwrap();
    let inf = informer::<Deployment>(&server.url());
    let (log, funcs) = recorder::<Deployment>();
    inf.add_event_handler(filtered(generation_changed(), funcs));
    let (everything, all_funcs) = recorder::<Deployment>();
    inf.add_event_handler(all_funcs);
    let running = run(&inf).await;

    let patch = |p: Value| {
        server
            .patch_merge("deployments.apps", Some("a"), "d", p)
            .unwrap()
    };
    server
        .create("deployments.apps", Some("a"), deployment("d"))
        .unwrap();
    patch(json!({"metadata": {"labels": {"x": "1"}}}));
    patch(json!({"spec": {"replicas": 2}}));
    // Deployments have the status subresource: a status write goes there, and leaves the
    // generation alone.
    server
        .update_status(
            "deployments.apps",
            Some("a"),
            json!({"metadata": {"name": "d"}, "status": {"replicas": 2}}),
        )
        .unwrap();
    // Not an annotation: the real server bumps a Deployment's generation on those too.
    patch(json!({"metadata": {"labels": {"y": "2"}}}));
    patch(json!({"spec": {"replicas": 3}}));
    server.delete("deployments.apps", Some("a"), "d").unwrap();
    eventually("the delete", || {
        log.lock().unwrap().last().map(String::as_str) == Some("delete d")
    })
    .await;
    assert_eq!(
        *log.lock().unwrap(),
        ["add d", "update d", "update d", "delete d"]
    );
    eventually("every event", || everything.lock().unwrap().len() == 7).await;
    running.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn filters_chain_and_feed_enqueue() {
    let server = TestApiServer::builder()
        .namespaces(["a", "b"])
        .start()
        .await
        .unwrap();
    let inf = informer::<Deployment>(&server.url());
    let queue = WorkQueue::<ObjectRef>::new();
    let in_a = predicate(|d: &Deployment| d.metadata.namespace.as_deref() == Some("a"));
    let reg = inf.add_event_handler(filtered(
        (in_a, generation_changed()),
        enqueue(queue.clone()),
    ));
    let running = run(&inf).await;
    server
        .create("deployments.apps", Some("a"), deployment("d1"))
        .unwrap();
    server
        .create("deployments.apps", Some("b"), deployment("d2"))
        .unwrap();
    eventually("both adds handled", || reg.stats().delivered == 2).await;
    assert_eq!(drain(&queue).await, ["a/d1"]);
    let patch = |name: &str, ns: &str, p: Value| {
        server
            .patch_merge("deployments.apps", Some(ns), name, p)
            .unwrap();
    };
    patch("d1", "a", json!({"metadata": {"labels": {"l": "v"}}}));
    patch("d2", "b", json!({"spec": {"replicas": 4}}));
    patch("d1", "a", json!({"spec": {"replicas": 4}}));
    eventually("the spec change", || queue.len() == 1).await;
    assert_eq!(drain(&queue).await, ["a/d1"]);
    assert_eq!(
        queue.stats().adds,
        2,
        "the label patch and namespace b were filtered out"
    );
    running.stop().await;
}
