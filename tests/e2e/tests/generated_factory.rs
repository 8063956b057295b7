//! The generated `informers` crate against the test API server over loopback HTTP: the
//! factory syncs every generated resource type, `for_resource` resolves each of them,
//! typed listers answer `get`/`list`, and `pods()` asked for twice is one informer (one
//! list and one watch on the server).

use std::collections::BTreeMap;
use std::time::Duration;

use informer_runtime::client::Config;
use informer_runtime::{Client, GroupVersionResource, InformerFactory, Selector};
use informers::SharedInformerFactory;
use serde_json::{json, Value};
use test_apiserver::{fixtures, ResourceSpec, RunningServer, TestApiServer};

include!(concat!(env!("OUT_DIR"), "/generated_resources.rs"));

const NS: &str = "e2e";
const SYNC_TIMEOUT: Duration = Duration::from_secs(120);

/// One generated resource and the JSON of its type's `Default` value.
struct Entry {
    group: &'static str,
    version: &'static str,
    plural: &'static str,
    kind: String,
    namespaced: bool,
    default_object: Value,
}

macro_rules! scope_is_namespaced {
    (namespaced) => {
        true
    };
    (cluster) => {
        false
    };
}

macro_rules! entries {
    ($([$ty:path, $g:literal, $v:literal, $plural:literal, $gm:ident, $vm:ident, $m:ident, $scope:ident],)*) => {
        vec![$(Entry {
            group: $g,
            version: $v,
            plural: $plural,
            kind: <$ty as k8s_openapi::Resource>::KIND.to_owned(),
            namespaced: scope_is_namespaced!($scope),
            default_object: serde_json::to_value(<$ty>::default()).unwrap(),
        }),*]
    };
}

/// Adds every field of `from` missing in `into` (objects merged recursively; on a type
/// clash `into` wins), so one stored object decodes as every served version of a resource.
fn merge_missing(into: &mut Value, from: &Value) {
    if let (Value::Object(into), Value::Object(from)) = (into, from) {
        for (k, v) in from {
            match into.get_mut(k) {
                Some(existing) => merge_missing(existing, v),
                None => {
                    into.insert(k.clone(), v.clone());
                }
            }
        }
    }
}

fn object_name(plural: &str) -> String {
    match plural {
        // The server admits a CRD only under its `<plural>.<group>` name.
        "customresourcedefinitions" => "e2es.e2e.example.com".to_owned(),
        _ => format!("e2e-{plural}"),
    }
}

/// The test server's name for a resource: `pods`, `deployments.apps`.
fn resource_name(group: &str, plural: &str) -> String {
    if group.is_empty() {
        plural.to_owned()
    } else {
        format!("{plural}.{group}")
    }
}

/// A CRD the server admits (a `Default` one has no names, versions or schema).
fn valid_crd_spec() -> Value {
    json!({
        "group": "e2e.example.com",
        "names": {"plural": "e2es", "singular": "e2e", "kind": "E2e", "listKind": "E2eList"},
        "scope": "Namespaced",
        "versions": [{
            "name": "v1", "served": true, "storage": true,
            "schema": {"openAPIV3Schema": {"type": "object", "x-kubernetes-preserve-unknown-fields": true}}
        }]
    })
}

/// A spec the server admits for the built-ins it validates (a `Default` one has no
/// containers, selector or ports).
fn valid_workload_spec(group: &str, plural: &str) -> Option<Value> {
    let deployment = fixtures::deployment(NS, "e2e", 1)["spec"].clone();
    Some(match (group, plural) {
        ("", "pods") => fixtures::pod_spec("nginx"),
        ("", "services") => fixtures::service(NS, "e2e")["spec"].clone(),
        ("", "replicationcontrollers") => json!({
            "selector": {"app": "e2e"},
            "template": deployment["template"],
        }),
        ("apps", "deployments" | "replicasets" | "daemonsets") => deployment,
        ("apps", "statefulsets") => fixtures::stateful_set(NS, "e2e")["spec"].clone(),
        ("batch", "jobs") => fixtures::job(NS, "e2e")["spec"].clone(),
        ("batch", "cronjobs") => fixtures::cron_job(NS, "e2e")["spec"].clone(),
        _ => return None,
    })
}

/// A server serving every generated resource, with one object per group and plural
/// (shared by that resource's versions, as the real apiserver's storage is).
async fn server_with_every_resource(entries: &[Entry]) -> RunningServer {
    let mut builder = TestApiServer::builder().namespaces([NS]).seed_namespaces(0);
    for e in entries {
        let mut spec = ResourceSpec::new(e.group, e.version, &e.kind, e.plural, e.namespaced);
        spec.list_kind = format!("{}List", e.kind);
        builder = builder.resource(spec);
    }
    let server = builder.start().await.unwrap();

    let mut objects: BTreeMap<(&str, &str), (bool, Value)> = BTreeMap::new();
    for e in entries {
        let slot = objects
            .entry((e.group, e.plural))
            .or_insert_with(|| (e.namespaced, json!({})));
        merge_missing(&mut slot.1, &e.default_object);
    }
    for ((group, plural), (namespaced, mut object)) in objects {
        let ns = namespaced.then_some(NS);
        object["metadata"] = json!({ "name": object_name(plural) });
        if let Some(ns) = ns {
            object["metadata"]["namespace"] = json!(ns);
        }
        if let Value::Object(map) = &mut object {
            map.remove("apiVersion");
            map.remove("kind");
            if plural == "customresourcedefinitions" {
                map.insert("spec".to_owned(), valid_crd_spec());
                map.remove("status");
            }
            if let Some(spec) = valid_workload_spec(group, plural) {
                map.insert("spec".to_owned(), spec);
            }
        }
        let resource = resource_name(group, plural);
        server
            .create(&resource, ns, object)
            .unwrap_or_else(|e| panic!("create {resource}: {e:?}"));
    }
    server
}

fn client(server: &RunningServer) -> Client {
    Client::new(Config::new(server.url())).unwrap()
}

macro_rules! request_every_informer {
    ($([$ty:path, $g:literal, $v:literal, $plural:literal, $gm:ident, $vm:ident, $m:ident, $scope:ident],)*) => {
        fn request_every_informer(factory: &SharedInformerFactory) {
            $(let _ = factory.$gm().$vm().$m().informer();)*
        }
    };
}
for_each_generated_resource!(request_every_informer);

macro_rules! lister_get {
    (namespaced, $lister:expr, $m:ident, $name:expr) => {
        $lister.$m(NS).get($name)
    };
    (cluster, $lister:expr, $m:ident, $name:expr) => {
        $lister.get($name)
    };
}

macro_rules! check_every_resource {
    ($([$ty:path, $g:literal, $v:literal, $plural:literal, $gm:ident, $vm:ident, $m:ident, $scope:ident],)*) => {
        /// Problems found, one line each (empty when every resource is right).
        fn check_every_resource(factory: &SharedInformerFactory, server: &RunningServer) -> Vec<String> {
            let mut problems = Vec::new();
            $({
                let what = format!("{}/{}/{}", $g, $v, $plural);
                let name = object_name($plural);
                let lister = factory.$gm().$vm().$m().lister();
                match lister_get!($scope, lister, $m, &name) {
                    Some(obj) if obj.metadata.name.as_deref() == Some(name.as_str()) => {}
                    other => problems.push(format!("{what}: lister get({name}) gave {:?}", other.map(|o| o.metadata.name.clone()))),
                }
                // One object of the test's own, beside what the server holds from the start
                // (the namespaces of a fresh cluster).
                let listed = lister.list(&Selector::everything());
                let stored = server.count(&resource_name($g, $plural));
                if listed.len() != stored {
                    problems.push(format!("{what}: lister list gave {} objects, the server holds {stored}", listed.len()));
                }
                let gvr = GroupVersionResource::new($g, $v, $plural);
                match factory.for_resource(&gvr) {
                    Ok(generic) => {
                        if generic.gvr() != &gvr {
                            problems.push(format!("{what}: for_resource answered {}", generic.gvr()));
                        }
                        if generic.downcast::<$ty>().is_none() {
                            problems.push(format!("{what}: for_resource informer is not a {}", stringify!($ty)));
                        }
                        if !generic.has_synced() {
                            problems.push(format!("{what}: for_resource informer has not synced"));
                        }
                    }
                    Err(e) => problems.push(format!("{what}: for_resource: {e}")),
                }
            })*
            problems
        }
    };
}
for_each_generated_resource!(check_every_resource);

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn factory_syncs_every_generated_resource() {
    let entries = for_each_generated_resource!(entries);
    assert!(
        entries.len() > 80,
        "the table lists every built-in resource"
    );
    let server = server_with_every_resource(&entries).await;
    let factory = SharedInformerFactory::new(client(&server));

    request_every_informer(&factory);
    factory.start();
    tokio::time::timeout(SYNC_TIMEOUT, factory.wait_for_cache_sync())
        .await
        .expect("every informer syncs in time")
        .expect("every informer syncs");

    let problems = check_every_resource(&factory, &server);
    assert!(problems.is_empty(), "{}", problems.join("\n"));

    let unknown = GroupVersionResource::new("example.com", "v1", "widgets");
    let Err(err) = factory.for_resource(&unknown) else {
        panic!("{unknown} is not generated, yet for_resource resolved it");
    };
    assert_eq!(err.gvr, unknown);

    factory.shutdown().await;
    server.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn pods_twice_is_one_informer_with_one_list_and_one_watch() {
    let server = TestApiServer::builder()
        .namespaces([NS])
        .seed_namespaces(0)
        .start()
        .await
        .unwrap();
    server
        .create(
            "pods",
            Some(NS),
            json!({"metadata": {"name": "web-0", "labels": {"tier": "web"}}, "spec": {"containers": [{"name": "app", "image": "nginx"}]}}),
        )
        .unwrap();
    server
        .create(
            "pods",
            Some(NS),
            json!({"metadata": {"name": "db-0", "labels": {"tier": "db"}}, "spec": {"containers": [{"name": "app", "image": "nginx"}]}}),
        )
        .unwrap();
    let factory = SharedInformerFactory::new(client(&server));

    let first = factory.core().v1().pods();
    let second = factory.core().v1().pods();
    let _ = first.informer();
    let _ = second.informer();
    factory.start();
    tokio::time::timeout(SYNC_TIMEOUT, factory.wait_for_cache_sync())
        .await
        .expect("sync in time")
        .expect("sync");

    // The second accessor sees what the first one's informer cached: one cache.
    let web: Selector = "tier=web".parse().unwrap();
    let by_second = second.lister().pods(NS).list(&web);
    assert_eq!(by_second.len(), 1);
    assert_eq!(by_second[0].metadata.name.as_deref(), Some("web-0"));
    assert!(first.lister().pods(NS).get("db-0").is_some());
    assert!(first.lister().pods("elsewhere").get("db-0").is_none());
    assert_eq!(second.lister().list(&Selector::everything()).len(), 2);

    // The watch follows the list asynchronously: wait for it (generously), then check that
    // the two accessors did not open a second list or watch.
    let deadline = tokio::time::Instant::now() + SYNC_TIMEOUT;
    while server.request_count("watch", "pods") == 0 && tokio::time::Instant::now() < deadline {
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    tokio::time::sleep(Duration::from_millis(300)).await;
    assert_eq!(
        server.request_count("list", "pods"),
        1,
        "{:?}",
        server.request_counts()
    );
    assert_eq!(
        server.request_count("watch", "pods"),
        1,
        "{:?}",
        server.request_counts()
    );

    factory.shutdown().await;
    server.shutdown().await;
}
