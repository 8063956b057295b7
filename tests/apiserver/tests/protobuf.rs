//! `application/vnd.kubernetes.protobuf` over loopback: objects, lists and watch streams the
//! server encodes decode with `informer-protobuf` into what their JSON deserializes to; the
//! bytes are the ones `protoc` writes from Kubernetes' `.proto` files; custom resources get
//! kube-apiserver's 406 and objects the protobuf table cannot carry are answered in JSON.

use std::time::Duration;

use informer_protobuf::view::{Described, View};
use informer_protobuf::{
    decode_list, decode_object, decode_watch_event, DecodeOptions, FrameReader, Message, WatchEvent,
};
use k8s_openapi::api::batch::v1::{CronJob, Job};
use k8s_openapi::api::coordination::v1::Lease;
use k8s_openapi::api::core::v1::{ConfigMap, Namespace, Pod, Service, ServiceAccount};
use k8s_openapi::apimachinery::pkg::apis::meta::v1::{ListMeta, Status};
use scripted_server::protoc::{literal, protoc};
use serde_json::{json, Value};
use test_apiserver::{fixtures, RunningServer, TestApiServer};

const PROTOBUF: &str = "application/vnd.kubernetes.protobuf";
/// What client-go sends when protobuf is configured: protobuf first, JSON as the fallback.
const PROTOBUF_OR_JSON: &str = "application/vnd.kubernetes.protobuf, application/json";
const PATIENCE: Duration = Duration::from_secs(20);

fn options() -> DecodeOptions {
    DecodeOptions::default().keep_managed_fields(true)
}

fn http() -> reqwest::Client {
    // reqwest is built without a default TLS provider; plain HTTP still needs one chosen.
    let _ = rustls::crypto::ring::default_provider().install_default();
    reqwest::Client::builder()
        .no_proxy()
        .build()
        .expect("client")
}

/// Status code, `Content-Type` and body of a GET with `accept`.
async fn get(server: &RunningServer, path: &str, accept: &str) -> (u16, String, Vec<u8>) {
    let resp = http()
        .get(format!("{}{path}", server.url()))
        .header("accept", accept)
        .send()
        .await
        .expect("request");
    let code = resp.status().as_u16();
    let content_type = resp
        .headers()
        .get("content-type")
        .and_then(|v| v.to_str().ok())
        .unwrap_or_default()
        .to_owned();
    (
        code,
        content_type,
        resp.bytes().await.expect("body").to_vec(),
    )
}

/// The object at `path` fetched both ways: protobuf decoded, JSON deserialized.
async fn both_ways<M: Message + serde::de::DeserializeOwned>(
    server: &RunningServer,
    path: &str,
) -> (M, M) {
    let (code, content_type, body) = get(server, path, PROTOBUF_OR_JSON).await;
    assert_eq!((code, content_type.as_str()), (200, PROTOBUF), "{path}");
    let (_, from_protobuf) = decode_object::<M>(&body, options()).expect("decodes");
    let (code, content_type, body) = get(server, path, "application/json").await;
    assert_eq!((code, content_type.as_str()), (200, "application/json"));
    (from_protobuf, serde_json::from_slice(&body).expect("JSON"))
}

/// The object at `path` decoded from protobuf through its descriptor into a
/// `serde_json::Value` (the widest view there is), and its JSON without the envelope's
/// `apiVersion` and `kind`: the same document.
async fn view_is_its_json<K: Described>(server: &RunningServer, path: &str) {
    let (code, _, body) = get(server, path, PROTOBUF).await;
    assert_eq!(code, 200, "{path}");
    let keep = DecodeOptions::default().keep_managed_fields(true);
    let (_, view) = decode_object::<View<Value, K>>(&body, keep).expect("decodes as a view");
    let (_, _, body) = get(server, path, "application/json").await;
    let mut json: Value = serde_json::from_slice(&body).expect("JSON");
    let object = json.as_object_mut().expect("an object");
    object.remove("apiVersion");
    object.remove("kind");
    assert_eq!(view, json, "{path}");
}

async fn start() -> RunningServer {
    TestApiServer::builder()
        .namespaces(["shop"])
        .start()
        .await
        .expect("server starts")
}

fn config_map(name: &str) -> Value {
    json!({
        "apiVersion": "v1", "kind": "ConfigMap",
        "metadata": {
            "name": name, "namespace": "shop",
            "labels": {"tier": "web", "app": "shop", "empty": ""},
            "annotations": {"note": "quoted \"text\" and ü"},
        },
        "data": {"b": "2", "a": "1", "c": ""},
        "binaryData": {"blob": "AAEC/w=="},
    })
}

#[tokio::test]
async fn config_map_in_protobuf_is_its_json() {
    let server = start().await;
    server
        .create("configmaps", Some("shop"), config_map("settings"))
        .expect("created");
    let (proto, json) =
        both_ways::<ConfigMap>(&server, "/api/v1/namespaces/shop/configmaps/settings").await;
    assert_eq!(proto, json);
    assert_eq!(proto.data.as_ref().map(|d| d.len()), Some(3));
    view_is_its_json::<ConfigMap>(&server, "/api/v1/namespaces/shop/configmaps/settings").await;
    server.shutdown().await;
}

#[tokio::test]
async fn service_account_in_protobuf_is_its_json() {
    let server = start().await;
    let robot = json!({
        "apiVersion": "v1", "kind": "ServiceAccount",
        "metadata": {"name": "robot", "namespace": "shop", "labels": {"team": "a"}},
        "secrets": [{"name": "robot-token"}],
        "imagePullSecrets": [{"name": "regcred"}],
        "automountServiceAccountToken": false,
    });
    server
        .create("serviceaccounts", Some("shop"), robot)
        .expect("created");
    for path in [
        "/api/v1/namespaces/shop/serviceaccounts/robot",
        "/api/v1/namespaces/shop/serviceaccounts/default",
    ] {
        let (proto, json) = both_ways::<ServiceAccount>(&server, path).await;
        assert_eq!(proto, json, "{path}");
        view_is_its_json::<ServiceAccount>(&server, path).await;
    }
    server.shutdown().await;
}

#[tokio::test]
async fn lease_in_protobuf_is_its_json() {
    let server = start().await;
    let lease = json!({
        "apiVersion": "coordination.k8s.io/v1", "kind": "Lease",
        "metadata": {"name": "leader", "namespace": "shop"},
        "spec": {
            "holderIdentity": "pod-a", "leaseDurationSeconds": 15, "leaseTransitions": 0,
            "acquireTime": "2024-01-02T03:04:05.123456Z",
            "renewTime": "2024-01-02T03:04:20.000001Z",
        },
    });
    server
        .create("leases.coordination.k8s.io", Some("shop"), lease)
        .expect("created");
    let (proto, json) = both_ways::<Lease>(
        &server,
        "/apis/coordination.k8s.io/v1/namespaces/shop/leases/leader",
    )
    .await;
    assert_eq!(proto, json);
    let spec = proto.spec.expect("spec");
    assert_eq!(spec.lease_transitions, Some(0), "a pointer zero is kept");
    view_is_its_json::<Lease>(
        &server,
        "/apis/coordination.k8s.io/v1/namespaces/shop/leases/leader",
    )
    .await;
    server.shutdown().await;
}

#[tokio::test]
async fn structs_without_default_and_empty_structs_in_protobuf_are_their_json() {
    // `meta.v1.Condition` has a required `Time`, so k8s-openapi derives no `Default` for it
    // nor for `ServiceStatus`; `JobSpec` holds Go structs without fields in 1.37
    // (`scheduling.disruptionMode.all`), which k8s-openapi keeps as JSON `{}`.
    let server = start().await;
    let service = json!({
        "apiVersion": "v1", "kind": "Service",
        "metadata": {"name": "web", "namespace": "shop"},
        "spec": {"selector": {"app": "web"}, "ports": [{"port": 80, "targetPort": "http"}]},
    });
    server
        .create("services", Some("shop"), service.clone())
        .expect("created");
    let mut with_status = service;
    with_status["status"] = json!({
        "loadBalancer": {},
        "conditions": [{
            "type": "Ready", "status": "True", "observedGeneration": 3,
            "lastTransitionTime": "2024-05-06T07:08:09Z", "reason": "Ok", "message": "ready",
        }],
    });
    server
        .update_status("services", Some("shop"), with_status)
        .expect("status written");
    let (proto, json) = both_ways::<Service>(&server, "/api/v1/namespaces/shop/services/web").await;
    assert_eq!(proto, json);
    let conditions = proto.status.and_then(|s| s.conditions).unwrap_or_default();
    assert_eq!(conditions.len(), 1, "the condition survives");
    assert_eq!(
        conditions[0].last_transition_time.0.as_second(),
        1_714_979_289
    );
    view_is_its_json::<Service>(&server, "/api/v1/namespaces/shop/services/web").await;

    let pod_template = json!({
        "spec": {"restartPolicy": "Never", "containers": [{"name": "c", "image": "busybox"}]},
    });
    let job = json!({
        "apiVersion": "batch/v1", "kind": "Job",
        "metadata": {"name": "once", "namespace": "shop"},
        "spec": {
            "template": pod_template,
            "scheduling": {"disruptionMode": {"all": {}}},
        },
    });
    server
        .create("jobs.batch", Some("shop"), job)
        .expect("created");
    let (proto, json) = both_ways::<Job>(&server, "/apis/batch/v1/namespaces/shop/jobs/once").await;
    assert_eq!(proto, json);
    let scheduling = proto.spec.and_then(|s| s.scheduling);
    assert_eq!(
        scheduling
            .and_then(|s| s.disruption_mode)
            .and_then(|d| d.all)
            .map(|a| a.0),
        Some(json!({})),
        "an empty Go struct is JSON's {{}}"
    );
    view_is_its_json::<Job>(&server, "/apis/batch/v1/namespaces/shop/jobs/once").await;
    let cron_job = json!({
        "apiVersion": "batch/v1", "kind": "CronJob",
        "metadata": {"name": "nightly", "namespace": "shop"},
        "spec": {"schedule": "0 3 * * *", "jobTemplate": {"spec": {"template": pod_template}}},
    });
    server
        .create("cronjobs.batch", Some("shop"), cron_job)
        .expect("created");
    let (proto, json) =
        both_ways::<CronJob>(&server, "/apis/batch/v1/namespaces/shop/cronjobs/nightly").await;
    assert_eq!(proto, json);
    view_is_its_json::<CronJob>(&server, "/apis/batch/v1/namespaces/shop/cronjobs/nightly").await;
    server.shutdown().await;
}

/// A list body's metadata and items, from JSON.
fn json_list<M: serde::de::DeserializeOwned>(body: &[u8]) -> (ListMeta, Vec<M>) {
    let v: Value = serde_json::from_slice(body).expect("JSON list");
    (
        serde_json::from_value(v["metadata"].clone()).expect("ListMeta"),
        serde_json::from_value(v["items"].clone()).expect("items"),
    )
}

#[tokio::test]
async fn namespace_list_and_its_pages_in_protobuf_are_their_json() {
    let server = start().await;
    for path in ["/api/v1/namespaces", "/api/v1/namespaces?limit=2"] {
        let (code, content_type, body) = get(&server, path, PROTOBUF).await;
        assert_eq!((code, content_type.as_str()), (200, PROTOBUF), "{path}");
        let list = decode_list::<Namespace>(&body, options()).expect("decodes");
        assert_eq!(list.type_meta.kind, "NamespaceList");
        assert_eq!(list.type_meta.api_version, "v1");
        let (_, _, json) = get(&server, path, "application/json").await;
        let (metadata, items) = json_list::<Namespace>(&json);
        assert_eq!(list.metadata, metadata, "{path}");
        assert_eq!(list.items, items, "{path}");
        assert!(!list.items.is_empty());
    }
    // The second page, through the protobuf list's continue token.
    let (_, _, body) = get(&server, "/api/v1/namespaces?limit=2", PROTOBUF).await;
    let first = decode_list::<Namespace>(&body, options()).expect("decodes");
    let token = first.metadata.continue_.expect("a continue token");
    assert!(first.metadata.remaining_item_count.is_some());
    let next = format!("/api/v1/namespaces?limit=2&continue={token}");
    let (_, _, body) = get(&server, &next, PROTOBUF).await;
    let second = decode_list::<Namespace>(&body, options()).expect("decodes");
    let (_, _, json) = get(&server, &next, "application/json").await;
    assert_eq!(second.items, json_list::<Namespace>(&json).1);
    server.shutdown().await;
}

/// Reads watch frames until `n` events arrived, leaving out the periodic bookmarks unless
/// `bookmarks`.
async fn events(
    resp: &mut reqwest::Response,
    n: usize,
    bookmarks: bool,
) -> Vec<WatchEvent<ConfigMap>> {
    let mut reader = FrameReader::new(1 << 20);
    let mut out = Vec::new();
    while out.len() < n {
        while let Some(frame) = reader.next_frame().expect("frame") {
            let event = decode_watch_event::<ConfigMap>(&frame, options()).expect("event");
            if bookmarks || !matches!(event, WatchEvent::Bookmark(_)) {
                out.push(event);
            }
        }
        if out.len() >= n {
            break;
        }
        let chunk = tokio::time::timeout(PATIENCE, resp.chunk())
            .await
            .expect("an event in time")
            .expect("stream")
            .expect("stream open");
        reader.push(&chunk);
    }
    out
}

#[tokio::test]
async fn a_protobuf_watch_delivers_every_event_type() {
    let server = start().await;
    server
        .create("configmaps", Some("shop"), config_map("before"))
        .expect("created");
    let url = format!(
        "{}/api/v1/namespaces/shop/configmaps?watch=true&sendInitialEvents=true\
         &resourceVersionMatch=NotOlderThan&allowWatchBookmarks=true",
        server.url()
    );
    let mut resp = http()
        .get(url)
        .header("accept", PROTOBUF_OR_JSON)
        .send()
        .await
        .expect("watch");
    assert_eq!(
        resp.headers()["content-type"],
        "application/vnd.kubernetes.protobuf;stream=watch"
    );
    let initial = events(&mut resp, 2, true).await;
    assert!(
        matches!(&initial[0], WatchEvent::Added(cm) if cm.metadata.name.as_deref() == Some("before"))
    );
    let WatchEvent::Bookmark(bookmark) = &initial[1] else {
        panic!("the initial events end with a bookmark: {:?}", initial[1]);
    };
    let annotations = bookmark.metadata.annotations.clone().unwrap_or_default();
    assert_eq!(annotations["k8s.io/initial-events-end"], "true");
    assert!(bookmark.metadata.resource_version.is_some());

    let created = server
        .create("configmaps", Some("shop"), config_map("live"))
        .expect("created");
    let mut changed = created.clone();
    changed["data"] = json!({"a": "changed"});
    let updated = server
        .update("configmaps", Some("shop"), changed)
        .expect("updated");
    server
        .delete("configmaps", Some("shop"), "live")
        .expect("deleted");
    let live = events(&mut resp, 3, false).await;
    let as_cm = |v: &Value| serde_json::from_value::<ConfigMap>(v.clone()).expect("ConfigMap");
    assert_eq!(live[0], WatchEvent::Added(as_cm(&created)));
    assert_eq!(live[1], WatchEvent::Modified(as_cm(&updated)));
    assert!(
        matches!(&live[2], WatchEvent::Deleted(cm) if cm.metadata.name.as_deref() == Some("live"))
    );
    server.shutdown().await;
}

#[tokio::test]
async fn an_expired_protobuf_watch_gets_a_protobuf_410() {
    let server = start().await;
    server
        .create("configmaps", Some("shop"), config_map("a"))
        .expect("created");
    server.faults().compact_history();
    let url = format!(
        "{}/api/v1/namespaces/shop/configmaps?watch=true&resourceVersion=1",
        server.url()
    );
    let mut resp = http()
        .get(url)
        .header("accept", PROTOBUF)
        .send()
        .await
        .expect("watch");
    let event = events(&mut resp, 1, true).await.remove(0);
    let WatchEvent::Error(status) = event else {
        panic!("an ERROR event: {event:?}");
    };
    assert_eq!(status.code, Some(410));
    assert_eq!(status.reason.as_deref(), Some("Expired"));
    server.shutdown().await;
}

#[tokio::test]
async fn errors_are_protobuf_statuses_when_protobuf_is_preferred() {
    let server = start().await;
    let (code, content_type, body) = get(
        &server,
        "/api/v1/namespaces/shop/configmaps/missing",
        PROTOBUF_OR_JSON,
    )
    .await;
    assert_eq!((code, content_type.as_str()), (404, PROTOBUF));
    let (type_meta, status) = decode_object::<Status>(&body, options()).expect("a Status");
    assert_eq!(
        (type_meta.api_version.as_str(), type_meta.kind.as_str()),
        ("v1", "Status")
    );
    assert_eq!(status.code, Some(404));
    assert_eq!(status.reason.as_deref(), Some("NotFound"));
    assert_eq!(
        status.message.as_deref(),
        Some("configmaps \"missing\" not found")
    );
    server.shutdown().await;
}

#[tokio::test]
async fn custom_resources_are_never_protobuf() {
    let server = start().await;
    server.register(fixtures::widget_spec());
    server
        .create(
            "widgets.example.com",
            Some("shop"),
            fixtures::widget("shop", "w", 0),
        )
        .expect("created");
    let path = "/apis/example.com/v1/namespaces/shop/widgets";
    // With JSON as a fallback: JSON.
    let (code, content_type, body) = get(&server, path, PROTOBUF_OR_JSON).await;
    assert_eq!((code, content_type.as_str()), (200, "application/json"));
    let list: Value = serde_json::from_slice(&body).expect("JSON");
    assert_eq!(list["items"].as_array().map(Vec::len), Some(1));
    // Protobuf only: kube-apiserver's 406, itself written in protobuf (errors are negotiated
    // with serializers that all write a Status in protobuf).
    for path in [path, "/apis/example.com/v1/namespaces/shop/widgets/w"] {
        let (code, content_type, body) = get(&server, path, PROTOBUF).await;
        assert_eq!((code, content_type.as_str()), (406, PROTOBUF), "{path}");
        let (_, status) = decode_object::<Status>(&body, options()).expect("a Status");
        assert_eq!(status.reason.as_deref(), Some("NotAcceptable"));
        assert_eq!(
            status.message.as_deref(),
            Some(
                "only the following media types are accepted: application/json, \
                 application/yaml, application/vnd.kubernetes.protobuf"
            )
        );
    }
    server.shutdown().await;
}

#[tokio::test]
async fn objects_the_table_cannot_carry_are_answered_in_json() {
    // Kinds whose 1.37 struct has a field the protobuf table maps to nothing (at the time of
    // writing Nodes: `NodeSystemInfo.runningInUserNamespace`) are answered in JSON; the others
    // in protobuf, a realistic seeded Pod included.
    let table = informer_gen::read::protobuf_table::ProtobufTable::builtin().expect("table");
    let decodable = table.faithful(37);
    let server = TestApiServer::builder()
        .seed_pods(2)
        .seed_namespaces(1)
        .start()
        .await
        .expect("server starts");
    let node = json!({"apiVersion": "v1", "kind": "Node", "metadata": {"name": "node-a"}});
    server.create("nodes", None, node).expect("created");
    let kinds = [
        ("api.core.v1.Pod", "/api/v1/namespaces/ns-0/pods", "/pod-0"),
        ("api.core.v1.Node", "/api/v1/nodes", "/node-a"),
    ];
    assert!(
        kinds
            .iter()
            .any(|(message, ..)| !decodable.contains(*message)),
        "no served kind left to test the fallback with"
    );
    for (message, list, object) in kinds {
        let want = if decodable.contains(message) {
            PROTOBUF
        } else {
            "application/json"
        };
        for path in [list.to_owned(), format!("{list}{object}")] {
            let (code, content_type, _) = get(&server, &path, PROTOBUF_OR_JSON).await;
            assert_eq!((code, content_type.as_str()), (200, want), "{path}");
        }
    }
    if decodable.contains("api.core.v1.Pod") {
        let (proto, json) = both_ways::<Pod>(&server, "/api/v1/namespaces/ns-0/pods/pod-0").await;
        assert_eq!(proto, json);
        // A realistic Pod, managedFields, times, quantities and all.
        view_is_its_json::<Pod>(&server, "/api/v1/namespaces/ns-0/pods/pod-0").await;
    }
    // One object with a field its message lacks makes its whole list JSON, the others stay
    // protobuf one by one.
    let mut odd = config_map("odd");
    odd["metadata"]["namespace"] = json!("ns-0");
    odd["notAField"] = json!(1);
    server
        .create("configmaps", Some("ns-0"), odd)
        .expect("created");
    let mut plain = config_map("plain");
    plain["metadata"]["namespace"] = json!("ns-0");
    server
        .create("configmaps", Some("ns-0"), plain)
        .expect("created");
    let (_, content_type, _) = get(&server, "/api/v1/namespaces/ns-0/configmaps", PROTOBUF).await;
    assert_eq!(content_type, "application/json");
    let (_, content_type, _) =
        get(&server, "/api/v1/namespaces/ns-0/configmaps/odd", PROTOBUF).await;
    assert_eq!(content_type, "application/json");
    let (_, content_type, _) = get(
        &server,
        "/api/v1/namespaces/ns-0/configmaps/plain",
        PROTOBUF,
    )
    .await;
    assert_eq!(content_type, PROTOBUF);
    server.shutdown().await;
}

#[tokio::test]
async fn yaml_for_gets_and_lists_not_for_watches_and_406_for_what_is_not_served() {
    let server = start().await;
    server
        .create("configmaps", Some("shop"), config_map("settings"))
        .expect("created");
    let object = "/api/v1/namespaces/shop/configmaps/settings";
    let list = "/api/v1/namespaces/shop/configmaps";
    for path in [object, list] {
        let (code, content_type, body) = get(&server, path, "application/yaml").await;
        assert_eq!(
            (code, content_type.as_str()),
            (200, "application/yaml"),
            "{path}"
        );
        let (_, _, json) = get(&server, path, "application/json").await;
        let from_yaml: Value = serde_yaml_ng::from_slice(&body).expect("the answer is YAML");
        let from_json: Value = serde_json::from_slice(&json).expect("JSON");
        assert_eq!(from_yaml, from_json, "{path}");
    }
    let (_, _, body) = get(&server, object, "application/yaml").await;
    let text = String::from_utf8(body).expect("UTF-8");
    assert!(text.starts_with("apiVersion: v1\nbinaryData:\n"), "{text}");

    // An error answered in YAML is the same Status.
    let (code, content_type, body) = get(
        &server,
        "/api/v1/namespaces/shop/configmaps/missing",
        "application/yaml",
    )
    .await;
    assert_eq!((code, content_type.as_str()), (404, "application/yaml"));
    let status: Value = serde_yaml_ng::from_slice(&body).expect("YAML");
    assert_eq!(status["reason"], "NotFound");

    // No stream serializer for YAML (the error itself is negotiated as any error is, so it is
    // YAML); nothing served for text/plain (a JSON error).
    let watch = format!("{list}?watch=true");
    let not_acceptable = "only the following media types are accepted: application/json, \
                          application/yaml, application/vnd.kubernetes.protobuf";
    for (path, accept, error_type) in [
        (watch.as_str(), "application/yaml", "application/yaml"),
        (object, "text/plain", "application/json"),
        (list, "text/html, image/png", "application/json"),
    ] {
        let (code, content_type, body) = get(&server, path, accept).await;
        assert_eq!((code, content_type.as_str()), (406, error_type), "{accept}");
        let status: Value = serde_yaml_ng::from_slice(&body).expect("a Status");
        assert_eq!(status["reason"], "NotAcceptable", "{accept}");
        assert_eq!(status["message"], not_acceptable, "{accept}");
    }
    server.shutdown().await;
}

#[tokio::test]
async fn a_protobuf_request_body_is_unsupported() {
    let server = start().await;
    let resp = http()
        .post(format!(
            "{}/api/v1/namespaces/shop/configmaps",
            server.url()
        ))
        .header("content-type", PROTOBUF)
        .body(b"k8s\0".to_vec())
        .send()
        .await
        .expect("request");
    assert_eq!(resp.status().as_u16(), 415);
    let status: Value = resp.json().await.expect("JSON Status");
    assert_eq!(
        status["message"],
        "the body of the request was in an unknown format - accepted media types include: \
         application/json, application/yaml, application/vnd.kubernetes.protobuf"
    );
    server.shutdown().await;
}

// Byte for byte against protoc.

fn s(v: &Value) -> String {
    literal(v.as_str().expect("a string").as_bytes())
}

/// RFC 3339 with whole seconds → Unix seconds.
fn unix(time: &Value) -> i64 {
    let text = time.as_str().expect("a time");
    let parsed: k8s_openapi::jiff::Timestamp = text.parse().expect("RFC 3339");
    parsed.as_second()
}

#[tokio::test]
async fn a_config_map_is_byte_for_byte_what_go_writes() {
    let server = start().await;
    server
        .create("configmaps", Some("shop"), config_map("exact"))
        .expect("created");
    let path = "/api/v1/namespaces/shop/configmaps/exact";
    let (_, _, json) = get(&server, path, "application/json").await;
    let cm: Value = serde_json::from_slice(&json).expect("JSON");
    let meta = &cm["metadata"];
    assert!(
        meta.get("managedFields").is_none(),
        "in-process writes record no manager"
    );
    let labels: String = meta["labels"]
        .as_object()
        .expect("labels")
        .iter()
        .map(|(k, v)| {
            format!(
                "labels {{ key: {} value: {} }} ",
                literal(k.as_bytes()),
                s(v)
            )
        })
        .collect();
    let annotations: String = meta["annotations"]
        .as_object()
        .expect("annotations")
        .iter()
        .map(|(k, v)| {
            format!(
                "annotations {{ key: {} value: {} }} ",
                literal(k.as_bytes()),
                s(v)
            )
        })
        .collect();
    let data: String = cm["data"]
        .as_object()
        .expect("data")
        .iter()
        .map(|(k, v)| format!("data {{ key: {} value: {} }} ", literal(k.as_bytes()), s(v)))
        .collect();
    // What Go holds: every non-pointer string of ObjectMeta written, empty or not, generation
    // 0, the creation time in seconds with nanos 0; `immutable` (a pointer) absent.
    let text = format!(
        "metadata {{ name: {} generateName: \"\" namespace: {} selfLink: \"\" uid: {} \
         resourceVersion: {} generation: 0 creationTimestamp {{ seconds: {} nanos: 0 }} \
         {labels} {annotations} }} {data} \
         binaryData {{ key: \"blob\" value: \"\\000\\001\\002\\377\" }}",
        s(&meta["name"]),
        s(&meta["namespace"]),
        s(&meta["uid"]),
        s(&meta["resourceVersion"]),
        unix(&meta["creationTimestamp"]),
    );
    let raw = protoc(
        "api/core/v1/generated.proto",
        "api.core.v1.ConfigMap",
        &text,
    );
    let unknown = format!(
        "typeMeta {{ apiVersion: \"v1\" kind: \"ConfigMap\" }} raw: {} \
         contentEncoding: \"\" contentType: \"\"",
        literal(&raw)
    );
    let mut want = b"k8s\0".to_vec();
    want.extend(protoc(
        "apimachinery/pkg/runtime/generated.proto",
        "apimachinery.pkg.runtime.Unknown",
        &unknown,
    ));
    let (code, _, body) = get(&server, path, PROTOBUF).await;
    assert_eq!(code, 200);
    assert_eq!(body, want, "the server's bytes differ from protoc's");
    server.shutdown().await;
}

#[tokio::test]
async fn a_lease_is_byte_for_byte_what_go_writes() {
    let server = start().await;
    let lease = json!({
        "apiVersion": "coordination.k8s.io/v1", "kind": "Lease",
        "metadata": {"name": "exact", "namespace": "shop"},
        "spec": {
            "holderIdentity": "", "leaseDurationSeconds": 15,
            "renewTime": "2024-01-02T03:04:20.000001Z", "leaseTransitions": 3,
        },
    });
    server
        .create("leases.coordination.k8s.io", Some("shop"), lease)
        .expect("created");
    let path = "/apis/coordination.k8s.io/v1/namespaces/shop/leases/exact";
    let (_, _, json) = get(&server, path, "application/json").await;
    let stored: Value = serde_json::from_slice(&json).expect("JSON");
    let meta = &stored["metadata"];
    // Pointer fields are written when set, an empty string too; MicroTime keeps its
    // microseconds as nanoseconds.
    let text = format!(
        "metadata {{ name: \"exact\" generateName: \"\" namespace: \"shop\" selfLink: \"\" \
         uid: {} resourceVersion: {} generation: 0 creationTimestamp {{ seconds: {} nanos: 0 }} }} \
         spec {{ holderIdentity: \"\" leaseDurationSeconds: 15 \
         renewTime {{ seconds: 1704164660 nanos: 1000 }} leaseTransitions: 3 }}",
        s(&meta["uid"]),
        s(&meta["resourceVersion"]),
        unix(&meta["creationTimestamp"]),
    );
    let raw = protoc(
        "api/coordination/v1/generated.proto",
        "api.coordination.v1.Lease",
        &text,
    );
    let (code, _, body) = get(&server, path, PROTOBUF).await;
    assert_eq!(code, 200);
    let (_, _, got) = split_envelope(&body);
    assert_eq!(got, raw);
    server.shutdown().await;
}

/// `k8s\0` + Unknown{1: typeMeta, 2: raw, 3: "", 4: ""} → (typeMeta bytes, trailer, raw).
fn split_envelope(body: &[u8]) -> (&[u8], &[u8], &[u8]) {
    let rest = body.strip_prefix(b"k8s\0").expect("magic");
    assert_eq!(rest[0], 0x0a);
    let type_len = usize::from(rest[1]);
    let type_meta = &rest[2..2 + type_len];
    let rest = &rest[2 + type_len..];
    assert_eq!(rest[0], 0x12);
    // The raw length varint.
    let (mut len, mut shift, mut at) = (0usize, 0, 1);
    loop {
        let b = rest[at];
        len |= usize::from(b & 0x7f) << shift;
        shift += 7;
        at += 1;
        if b < 0x80 {
            break;
        }
    }
    let raw = &rest[at..at + len];
    let trailer = &rest[at + len..];
    assert_eq!(
        trailer, b"\x1a\x00\x22\x00",
        "empty contentEncoding and contentType"
    );
    (type_meta, trailer, raw)
}
