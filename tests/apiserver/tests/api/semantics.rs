//! The write semantics of kube-apiserver's registry strategies, over raw HTTP: updates
//! and conflicts, the status and scale subresources, generation, JSON patch, deletes with
//! options and finalizers, delete-collection, dryRun and option validation.

use reqwest::Method;
use serde_json::{json, Value};
use test_apiserver::{fixtures, ResourceSpec, ScaleSpec, TestApiServer};

use crate::support::{assert_status, get, rv_of, send, Watch};

const JSON: &str = "application/json";
const MERGE: &str = "application/merge-patch+json";
const JSON_PATCH: &str = "application/json-patch+json";
const CM: &str = "/api/v1/namespaces/shop/configmaps";
const DEPLOY: &str = "/apis/apps/v1/namespaces/shop/deployments/web";

fn deployment() -> Value {
    json!({"metadata": {"name": "web", "labels": {"app": "web"}},
           "spec": {"replicas": 2, "selector": {"matchLabels": {"app": "web"}},
                    "template": {"metadata": {"labels": {"app": "web"}}, "spec": {"containers": [{"name": "c", "image": "i"}]}}},
           "status": {"replicas": 7}})
}

fn widgets() -> ResourceSpec {
    fixtures::widget_spec()
        .with_status_subresource()
        .with_scale(ScaleSpec::new(
            ".spec.size",
            ".status.size",
            Some(".status.selector"),
        ))
}

#[tokio::test]
async fn put_conflicts_missing_objects_and_unconditional_updates() {
    let server = TestApiServer::builder()
        .namespaces(["shop"])
        .start()
        .await
        .unwrap();
    let created = server
        .create(
            "configmaps",
            Some("shop"),
            fixtures::config_map("shop", "c", 0),
        )
        .unwrap();
    let path = format!("{CM}/c");

    let mut stale = created.clone();
    stale["data"] = json!({"k": "1"});
    let (code, updated) = send(&server, Method::PUT, &path, JSON, &stale.to_string()).await;
    assert_eq!(code, 200, "{updated}");
    let (code, status) = send(&server, Method::PUT, &path, JSON, &stale.to_string()).await;
    assert_eq!(code, 409);
    assert_eq!(
        assert_status(&status, 409, "Conflict"),
        "Operation cannot be fulfilled on configmaps \"c\": the object has been modified; please apply your changes to the latest version and try again"
    );
    assert_eq!(
        status["details"],
        json!({"name": "c", "kind": "configmaps"})
    );

    // Without a resourceVersion a built-in's PUT overwrites.
    let unconditional = json!({"metadata": {"name": "c"}, "data": {"k": "2"}});
    let (code, over) = send(
        &server,
        Method::PUT,
        &path,
        JSON,
        &unconditional.to_string(),
    )
    .await;
    assert_eq!(code, 200, "{over}");
    assert_eq!(over["data"], json!({"k": "2"}));
    assert_eq!(over["metadata"]["uid"], created["metadata"]["uid"]);
    assert!(rv_of(&over) > rv_of(&updated));

    // A body naming another object, or none, is a bad request.
    let (code, status) = send(&server, Method::PUT, &path, JSON, r#"{"data":{}}"#).await;
    assert_eq!(code, 400);
    assert_eq!(
        assert_status(&status, 400, "BadRequest"),
        "the name of the object () does not match the name on the URL (c)"
    );
    let (code, status) = send(
        &server,
        Method::PUT,
        &path,
        JSON,
        r#"{"metadata":{"name":"c","namespace":"other"}}"#,
    )
    .await;
    assert_eq!(code, 400);
    assert_eq!(
        assert_status(&status, 400, "BadRequest"),
        "the namespace of the object (other) does not match the namespace on the URL (shop)"
    );
    // A uid that is not the stored one fails the storage precondition.
    let (code, status) = send(
        &server,
        Method::PUT,
        &path,
        JSON,
        r#"{"metadata":{"name":"c","uid":"not-it"}}"#,
    )
    .await;
    assert_eq!(code, 409);
    assert!(assert_status(&status, 409, "Conflict")
        .contains("Precondition failed: UID in precondition: not-it, UID in object meta: "));

    // No create on update for ConfigMaps; Leases allow it (201).
    let (code, status) = send(
        &server,
        Method::PUT,
        &format!("{CM}/ghost"),
        JSON,
        r#"{"metadata":{"name":"ghost"}}"#,
    )
    .await;
    assert_eq!(code, 404);
    assert_eq!(
        assert_status(&status, 404, "NotFound"),
        "configmaps \"ghost\" not found"
    );
    let (code, lease) = send(
        &server,
        Method::PUT,
        "/apis/coordination.k8s.io/v1/namespaces/shop/leases/leader",
        JSON,
        r#"{"metadata":{"name":"leader"},"spec":{"holderIdentity":"a"}}"#,
    )
    .await;
    assert_eq!(code, 201, "{lease}");
    assert_eq!(lease["kind"], "Lease");

    // Custom resources need the resourceVersion.
    server.register(fixtures::widget_spec());
    server
        .create(
            "widgets.example.com",
            Some("shop"),
            fixtures::widget("shop", "w", 1),
        )
        .unwrap();
    let (code, status) = send(
        &server,
        Method::PUT,
        "/apis/example.com/v1/namespaces/shop/widgets/w",
        JSON,
        r#"{"metadata":{"name":"w"},"spec":{"size":3}}"#,
    )
    .await;
    assert_eq!(code, 422);
    assert_eq!(
        assert_status(&status, 422, "Invalid"),
        "Widget.example.com \"w\" is invalid: metadata.resourceVersion: Invalid value: 0x0: must be specified for an update"
    );
    assert_eq!(
        status["details"]["causes"][0]["reason"],
        "FieldValueInvalid"
    );
}

#[tokio::test]
async fn generation_is_kept_only_where_the_real_server_keeps_it() {
    let server = TestApiServer::builder()
        .namespaces(["shop"])
        .start()
        .await
        .unwrap();
    server.register(widgets());
    let d = server
        .create("deployments.apps", Some("shop"), deployment())
        .unwrap();
    assert_eq!(d["metadata"]["generation"], 1);
    // Create resets a Deployment's status.
    assert_eq!(d["status"], json!({}));
    // Annotations bump a Deployment's generation, labels do not.
    let (_, d) = send(
        &server,
        Method::PATCH,
        DEPLOY,
        MERGE,
        r#"{"metadata":{"labels":{"x":"y"}}}"#,
    )
    .await;
    assert_eq!(d["metadata"]["generation"], 1);
    let (_, d) = send(
        &server,
        Method::PATCH,
        DEPLOY,
        MERGE,
        r#"{"metadata":{"annotations":{"x":"y"}}}"#,
    )
    .await;
    assert_eq!(d["metadata"]["generation"], 2);
    // A write to the object ignores status and keeps the stored one.
    let (_, d) = send(
        &server,
        Method::PATCH,
        DEPLOY,
        MERGE,
        r#"{"status":{"replicas":9}}"#,
    )
    .await;
    assert_eq!(d["status"], json!({}));
    assert_eq!(d["metadata"]["generation"], 2);

    // A Pod starts Pending with its QoS class and counts spec changes.
    let pod = server
        .create("pods", Some("shop"), fixtures::pod("shop", "p", 0))
        .unwrap();
    assert_eq!(
        pod["status"],
        json!({"phase": "Pending", "qosClass": "Burstable"})
    );
    assert_eq!(pod["metadata"]["generation"], 1);
    let (_, pod) = send(
        &server,
        Method::PATCH,
        "/api/v1/namespaces/shop/pods/p",
        MERGE,
        r#"{"spec":{"activeDeadlineSeconds":5}}"#,
    )
    .await;
    assert_eq!(pod["metadata"]["generation"], 2);

    // ConfigMaps never carry one, whatever changes.
    let cm = server
        .create(
            "configmaps",
            Some("shop"),
            fixtures::config_map("shop", "c", 0),
        )
        .unwrap();
    assert!(cm["metadata"].get("generation").is_none());
    let cm = server
        .patch_merge("configmaps", Some("shop"), "c", json!({"data": {"k": "v"}}))
        .unwrap();
    assert!(cm["metadata"].get("generation").is_none(), "{cm}");

    // A custom resource with the status subresource: status dropped on create, status
    // changes outside /status ignored, spec changes counted.
    let w = server
        .create(
            "widgets.example.com",
            Some("shop"),
            fixtures::widget("shop", "w", 0),
        )
        .unwrap();
    assert!(w.get("status").is_none(), "{w}");
    assert_eq!(w["metadata"]["generation"], 1);
    let w = server
        .patch_merge(
            "widgets.example.com",
            Some("shop"),
            "w",
            json!({"spec": {"size": 4}, "status": {"ready": true}}),
        )
        .unwrap();
    assert_eq!(w["metadata"]["generation"], 2);
    assert!(w.get("status").is_none());

    // A write that changes nothing takes no resourceVersion and sends no event.
    let rv = server.resource_version();
    let same = server
        .patch_merge(
            "widgets.example.com",
            Some("shop"),
            "w",
            json!({"spec": {"size": 4}}),
        )
        .unwrap();
    assert_eq!(rv_of(&same), rv_of(&w));
    assert_eq!(server.resource_version(), rv);
}

#[tokio::test]
async fn the_status_subresource_writes_only_status_and_checks_the_resource_version() {
    let server = TestApiServer::builder()
        .namespaces(["shop"])
        .start()
        .await
        .unwrap();
    server.register(widgets());
    let created = server
        .create(
            "widgets.example.com",
            Some("shop"),
            fixtures::widget("shop", "w", 0),
        )
        .unwrap();
    let path = "/apis/example.com/v1/namespaces/shop/widgets/w/status";
    let mut body = created.clone();
    body["status"] = json!({"ready": true, "size": 3, "selector": "color=red"});
    body["spec"]["size"] = json!(99);
    body["metadata"]["labels"] = json!({"changed": "yes"});
    let (code, updated) = send(&server, Method::PUT, path, JSON, &body.to_string()).await;
    assert_eq!(code, 200, "{updated}");
    assert_eq!(updated["status"]["ready"], true);
    assert_eq!(updated["spec"], created["spec"]);
    assert_eq!(updated["metadata"]["labels"], created["metadata"]["labels"]);
    assert_eq!(updated["metadata"]["generation"], 1);
    // The same body again carries a stale resourceVersion.
    let (code, status) = send(&server, Method::PUT, path, JSON, &body.to_string()).await;
    assert_eq!(code, 409);
    assert_eq!(
        status["details"],
        json!({"name": "w", "group": "example.com", "kind": "widgets"})
    );

    let (code, patched) = send(&server, Method::PATCH, path, JSON_PATCH,
        r#"[{"op":"replace","path":"/status/ready","value":false},{"op":"add","path":"/spec/size","value":1}]"#).await;
    assert_eq!(code, 200, "{patched}");
    assert_eq!(patched["status"]["ready"], false);
    assert_eq!(patched["spec"], created["spec"]);

    // ConfigMaps have no status subresource.
    server
        .create(
            "configmaps",
            Some("shop"),
            fixtures::config_map("shop", "c", 0),
        )
        .unwrap();
    let (code, _) = get(&server, &format!("{CM}/c/status")).await;
    assert_eq!(code, 404);
    let (_, discovery) = get(&server, "/api/v1").await;
    let names: Vec<&str> = discovery["resources"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|r| r["name"].as_str())
        .collect();
    assert!(names.contains(&"pods/status") && !names.contains(&"configmaps/status"));
    assert!(names.contains(&"replicationcontrollers/scale"));
}

#[tokio::test]
async fn the_scale_subresource_reads_and_writes_replicas() {
    let server = TestApiServer::builder()
        .namespaces(["shop"])
        .start()
        .await
        .unwrap();
    server.register(widgets());
    let d = server
        .create("deployments.apps", Some("shop"), deployment())
        .unwrap();
    let path = format!("{DEPLOY}/scale");
    let (code, scale) = get(&server, &path).await;
    assert_eq!(code, 200, "{scale}");
    assert_eq!(scale["kind"], "Scale");
    assert_eq!(scale["apiVersion"], "autoscaling/v1");
    assert_eq!(
        scale["metadata"]["resourceVersion"],
        d["metadata"]["resourceVersion"]
    );
    assert_eq!(scale["metadata"]["uid"], d["metadata"]["uid"]);
    assert_eq!(scale["spec"], json!({"replicas": 2}));
    assert_eq!(
        scale["status"],
        json!({"replicas": 0, "selector": "app=web"})
    );

    let (code, scaled) = send(
        &server,
        Method::PATCH,
        &path,
        MERGE,
        r#"{"spec":{"replicas":5}}"#,
    )
    .await;
    assert_eq!(code, 200, "{scaled}");
    assert_eq!(scaled["spec"]["replicas"], 5);
    let now = server.get("deployments.apps", Some("shop"), "web").unwrap();
    assert_eq!(now["spec"]["replicas"], 5);
    assert_eq!(now["metadata"]["generation"], 2);
    // A PUT with the stale Scale conflicts; a negative count is invalid.
    let (code, status) = send(&server, Method::PUT, &path, JSON, &scale.to_string()).await;
    assert_eq!(code, 409);
    assert_status(&status, 409, "Conflict");
    let mut bad = scaled.clone();
    bad["spec"]["replicas"] = json!(-1);
    let (code, status) = send(&server, Method::PUT, &path, JSON, &bad.to_string()).await;
    assert_eq!(code, 422);
    assert_eq!(
        assert_status(&status, 422, "Invalid"),
        "Scale.autoscaling \"web\" is invalid: spec.replicas: Invalid value: -1: must be greater than or equal to 0"
    );

    // A CRD-style scale reads its paths.
    server
        .create(
            "widgets.example.com",
            Some("shop"),
            fixtures::widget("shop", "w", 3),
        )
        .unwrap();
    let wpath = "/apis/example.com/v1/namespaces/shop/widgets/w/scale";
    let (code, ws) = get(&server, wpath).await;
    assert_eq!(code, 200, "{ws}");
    assert_eq!(ws["spec"]["replicas"], 3);
    let mut put = ws.clone();
    put["spec"]["replicas"] = json!(6);
    let (code, ws) = send(&server, Method::PUT, wpath, JSON, &put.to_string()).await;
    assert_eq!(code, 200, "{ws}");
    assert_eq!(
        server
            .get("widgets.example.com", Some("shop"), "w")
            .unwrap()["spec"]["size"],
        6
    );
    // Resources without it answer 404.
    let (code, _) = get(&server, "/apis/apps/v1/namespaces/shop/daemonsets/x/scale").await;
    assert_eq!(code, 404);
}

#[tokio::test]
async fn json_patch_applies_all_operations_or_answers_422() {
    let server = TestApiServer::builder()
        .namespaces(["shop"])
        .start()
        .await
        .unwrap();
    server
        .create(
            "configmaps",
            Some("shop"),
            fixtures::config_map("shop", "c", 0),
        )
        .unwrap();
    let path = format!("{CM}/c");
    let (code, patched) = send(
        &server,
        Method::PATCH,
        &path,
        JSON_PATCH,
        r#"[{"op":"test","path":"/data/LOG_LEVEL","value":"info"},
            {"op":"add","path":"/metadata/labels/a~1b","value":"x"},
            {"op":"remove","path":"/data/FEATURE_FLAGS"},
            {"op":"move","from":"/data/LOG_LEVEL","path":"/data/level"}]"#,
    )
    .await;
    assert_eq!(code, 200, "{patched}");
    assert_eq!(patched["metadata"]["labels"]["a/b"], "x");
    assert_eq!(patched["data"]["level"], "info");
    assert!(patched["data"].get("FEATURE_FLAGS").is_none());

    let rv = server.resource_version();
    let (code, status) = send(&server, Method::PATCH, &path, JSON_PATCH,
        r#"[{"op":"add","path":"/data/z","value":"1"},{"op":"test","path":"/data/level","value":"debug"}]"#).await;
    assert_eq!(code, 422);
    assert_eq!(
        assert_status(&status, 422, "Invalid"),
        "the server rejected our request due to an error in our request"
    );
    assert_eq!(status["details"], json!({}));
    assert_eq!(server.resource_version(), rv);
    assert!(server.get("configmaps", Some("shop"), "c").unwrap()["data"]
        .get("z")
        .is_none());

    let (code, status) = send(&server, Method::PATCH, &path, JSON_PATCH, r#"{"op":"add"}"#).await;
    assert_eq!(code, 400);
    assert_status(&status, 400, "BadRequest");
    // A patch that renames the object is a bad request.
    let (code, status) = send(
        &server,
        Method::PATCH,
        &path,
        MERGE,
        r#"{"metadata":{"name":"d"}}"#,
    )
    .await;
    assert_eq!(code, 400);
    assert_eq!(
        assert_status(&status, 400, "BadRequest"),
        "the name of the object (d) does not match the name on the URL (c)"
    );
}

#[tokio::test]
async fn deletes_answer_per_resource_and_check_preconditions() {
    let server = TestApiServer::builder()
        .namespaces(["shop"])
        .start()
        .await
        .unwrap();
    let cm = server
        .create(
            "configmaps",
            Some("shop"),
            fixtures::config_map("shop", "c", 0),
        )
        .unwrap();
    let path = format!("{CM}/c");
    let (code, status) = send(
        &server,
        Method::DELETE,
        &path,
        JSON,
        r#"{"preconditions":{"uid":"00000000-0000-0000-0000-000000000000"}}"#,
    )
    .await;
    assert_eq!(code, 409);
    assert_eq!(
        assert_status(&status, 409, "Conflict"),
        format!("Operation cannot be fulfilled on ConfigMap \"c\": the UID in the precondition (00000000-0000-0000-0000-000000000000) does not match the UID in record ({}). The object might have been deleted and then recreated", cm["metadata"]["uid"].as_str().unwrap())
    );
    assert_eq!(status["details"], json!({"name": "c", "kind": "ConfigMap"}));
    let (code, status) = send(
        &server,
        Method::DELETE,
        &path,
        JSON,
        r#"{"preconditions":{"resourceVersion":"1"}}"#,
    )
    .await;
    assert_eq!(code, 409);
    assert_eq!(
        assert_status(&status, 409, "Conflict"),
        format!("Operation cannot be fulfilled on ConfigMap \"c\": the ResourceVersion in the precondition (1) does not match the ResourceVersion in record ({}). The object might have been modified", rv_of(&cm))
    );
    let (code, status) = send(
        &server,
        Method::DELETE,
        &path,
        JSON,
        r#"{"propagationPolicy":"Sometimes"}"#,
    )
    .await;
    assert_eq!(code, 422);
    assert_eq!(
        assert_status(&status, 422, "Invalid"),
        "DeleteOptions.meta.k8s.io \"\" is invalid: propagationPolicy: Unsupported value: \"Sometimes\": supported values: \"Foreground\", \"Background\", \"Orphan\", \"nil\""
    );

    // A ConfigMap's delete answers with a Status; a Pod's with the Pod. (`Foreground`
    // would hold the ConfigMap with its finalizer for the garbage collector: see tests/gc.)
    let body = json!({"propagationPolicy": "Background", "gracePeriodSeconds": 0,
        "preconditions": {"uid": cm["metadata"]["uid"], "resourceVersion": cm["metadata"]["resourceVersion"]}});
    let (code, done) = send(&server, Method::DELETE, &path, JSON, &body.to_string()).await;
    assert_eq!(code, 200, "{done}");
    assert_eq!(
        done,
        json!({"kind": "Status", "apiVersion": "v1", "metadata": {}, "status": "Success",
               "details": {"name": "c", "kind": "configmaps", "uid": cm["metadata"]["uid"]}})
    );
    server
        .create("pods", Some("shop"), fixtures::pod("shop", "p", 0))
        .unwrap();
    let (code, pod) = send(
        &server,
        Method::DELETE,
        "/api/v1/namespaces/shop/pods/p?gracePeriodSeconds=0&propagationPolicy=Background",
        JSON,
        "",
    )
    .await;
    assert_eq!(code, 200);
    assert_eq!(pod["kind"], "Pod");
}

#[tokio::test]
async fn finalizers_hold_a_delete_until_the_last_one_is_removed() {
    let server = TestApiServer::builder()
        .namespaces(["shop"])
        .start()
        .await
        .unwrap();
    server.register(widgets());
    let mut w = fixtures::widget("shop", "w", 0);
    w["metadata"]["finalizers"] = json!(["example.com/cleanup"]);
    let created = server
        .create("widgets.example.com", Some("shop"), w)
        .unwrap();
    let base = "/apis/example.com/v1/namespaces/shop/widgets";
    let mut watch = Watch::open(
        &server,
        &format!("{base}?watch=1&resourceVersion={}", rv_of(&created)),
    )
    .await;
    let path = format!("{base}/w");

    let (code, held) = send(&server, Method::DELETE, &path, JSON, "").await;
    assert_eq!(code, 200, "{held}");
    assert!(held["metadata"]["deletionTimestamp"].is_string());
    assert_eq!(held["metadata"]["deletionGracePeriodSeconds"], 0);
    assert_eq!(held["metadata"]["generation"], 2);
    let e = watch.next_event().await;
    assert_eq!(e["type"], "MODIFIED");
    let (code, _) = get(&server, &path).await;
    assert_eq!(code, 200);

    // No new finalizers while being deleted.
    let (code, status) = send(
        &server,
        Method::PATCH,
        &path,
        MERGE,
        r#"{"metadata":{"finalizers":["example.com/cleanup","other"]}}"#,
    )
    .await;
    assert_eq!(code, 422);
    assert!(assert_status(&status, 422, "Invalid")
        .contains("no new finalizers can be added if the object is being deleted"));

    let (code, last) = send(
        &server,
        Method::PATCH,
        &path,
        MERGE,
        r#"{"metadata":{"finalizers":null}}"#,
    )
    .await;
    assert_eq!(code, 200, "{last}");
    assert!(last["metadata"].get("finalizers").is_none());
    let e = watch.next_event().await;
    assert_eq!(e["type"], "DELETED");
    let (code, _) = get(&server, &path).await;
    assert_eq!(code, 404);
}

#[tokio::test]
async fn delete_collection_deletes_what_the_selectors_select() {
    let server = TestApiServer::builder()
        .namespaces(["shop", "other"])
        .start()
        .await
        .unwrap();
    for i in 0..4 {
        server
            .create(
                "configmaps",
                Some("shop"),
                fixtures::config_map("shop", &format!("c{i}"), i),
            )
            .unwrap();
    }
    server
        .create(
            "configmaps",
            Some("other"),
            fixtures::config_map("other", "c1", 1),
        )
        .unwrap();
    let (code, list) = send(
        &server,
        Method::DELETE,
        &format!("{CM}?labelSelector=app%3Dapp-1"),
        JSON,
        "",
    )
    .await;
    assert_eq!(code, 200, "{list}");
    assert_eq!(list["kind"], "ConfigMapList");
    assert_eq!(list["items"].as_array().unwrap().len(), 1);
    assert_eq!(list["items"][0]["metadata"]["name"], "c1");
    assert_eq!(server.list("configmaps", Some("shop")).unwrap().len(), 3);
    assert_eq!(server.list("configmaps", Some("other")).unwrap().len(), 1);
    let (code, list) = send(
        &server,
        Method::DELETE,
        &format!("{CM}?dryRun=All"),
        JSON,
        "",
    )
    .await;
    assert_eq!(code, 200);
    assert_eq!(list["items"].as_array().unwrap().len(), 3);
    assert_eq!(server.list("configmaps", Some("shop")).unwrap().len(), 3);
    let (code, _) = send(&server, Method::DELETE, CM, JSON, "").await;
    assert_eq!(code, 200);
    assert_eq!(server.list("configmaps", Some("shop")).unwrap().len(), 0);
    let (code, _) = send(&server, Method::DELETE, "/api/v1/configmaps", JSON, "").await;
    assert_eq!(code, 405);
}

#[tokio::test]
async fn dry_run_validates_and_answers_but_stores_nothing() {
    let server = TestApiServer::builder()
        .namespaces(["shop"])
        .start()
        .await
        .unwrap();
    let cm = server
        .create(
            "configmaps",
            Some("shop"),
            fixtures::config_map("shop", "c", 0),
        )
        .unwrap();
    let rv = server.resource_version();
    let mut watch = Watch::open(
        &server,
        &format!("{CM}?watch=1&resourceVersion={rv}&allowWatchBookmarks=true"),
    )
    .await;
    let body = fixtures::config_map("shop", "new", 1).to_string();
    let (code, created) = send(
        &server,
        Method::POST,
        &format!("{CM}?dryRun=All"),
        JSON,
        &body,
    )
    .await;
    assert_eq!(code, 201, "{created}");
    assert!(created["metadata"]["uid"].is_string());
    assert!(created["metadata"].get("resourceVersion").is_none());
    let (code, _) = send(
        &server,
        Method::POST,
        &format!("{CM}?dryRun=All"),
        JSON,
        &fixtures::config_map("shop", "c", 0).to_string(),
    )
    .await;
    assert_eq!(code, 409);
    let (code, patched) = send(
        &server,
        Method::PATCH,
        &format!("{CM}/c?dryRun=All"),
        MERGE,
        r#"{"data":{"x":"y"}}"#,
    )
    .await;
    assert_eq!(code, 200);
    assert_eq!(patched["data"]["x"], "y");
    assert_eq!(rv_of(&patched), rv_of(&cm));
    let mut stale = cm.clone();
    stale["metadata"]["resourceVersion"] = json!("1");
    let (code, _) = send(
        &server,
        Method::PUT,
        &format!("{CM}/c?dryRun=All"),
        JSON,
        &stale.to_string(),
    )
    .await;
    assert_eq!(code, 409);
    let (code, gone) = send(
        &server,
        Method::DELETE,
        &format!("{CM}/c?dryRun=All"),
        JSON,
        "",
    )
    .await;
    assert_eq!(code, 200);
    assert_eq!(gone["status"], "Success");

    assert_eq!(server.resource_version(), rv);
    assert!(server.get("configmaps", Some("shop"), "new").is_err());
    assert_eq!(server.get("configmaps", Some("shop"), "c").unwrap(), cm);
    // The next event is a real write's.
    server
        .create(
            "configmaps",
            Some("shop"),
            fixtures::config_map("shop", "real", 2),
        )
        .unwrap();
    let e = watch.next_event().await;
    assert_eq!(e["object"]["metadata"]["name"], "real");

    let (code, status) = send(
        &server,
        Method::POST,
        &format!("{CM}?dryRun=Some"),
        JSON,
        &body,
    )
    .await;
    assert_eq!(code, 422);
    assert_eq!(
        assert_status(&status, 422, "Invalid"),
        "CreateOptions.meta.k8s.io \"\" is invalid: dryRun: Unsupported value: []string{\"Some\"}: supported values: \"All\""
    );
    assert_eq!(
        status["details"],
        json!({"group": "meta.k8s.io", "kind": "CreateOptions", "causes": [{"reason": "FieldValueNotSupported",
            "message": "Unsupported value: []string{\"Some\"}: supported values: \"All\"", "field": "dryRun"}]})
    );
}

#[tokio::test]
async fn field_manager_is_accepted_and_validated() {
    let server = TestApiServer::builder()
        .namespaces(["shop"])
        .start()
        .await
        .unwrap();
    let body = fixtures::config_map("shop", "c", 0).to_string();
    let (code, _) = send(
        &server,
        Method::POST,
        &format!("{CM}?fieldManager=my-controller&fieldValidation=Strict"),
        JSON,
        &body,
    )
    .await;
    assert_eq!(code, 201);
    let (code, status) = send(
        &server,
        Method::PUT,
        &format!("{CM}/c?fieldValidation=Loose"),
        JSON,
        &body,
    )
    .await;
    assert_eq!(code, 422);
    assert_eq!(
        assert_status(&status, 422, "Invalid"),
        "UpdateOptions.meta.k8s.io \"\" is invalid: fieldValidation: Unsupported value: \"Loose\": supported values: \"\", \"Ignore\", \"Strict\", \"Warn\""
    );
    let long = "m".repeat(129);
    let (code, status) = send(
        &server,
        Method::PATCH,
        &format!("{CM}/c?fieldManager={long}"),
        MERGE,
        "{}",
    )
    .await;
    assert_eq!(code, 422);
    assert_eq!(
        assert_status(&status, 422, "Invalid"),
        "PatchOptions.meta.k8s.io \"\" is invalid: fieldManager: Too long: may not be more than 128 bytes"
    );
    let (code, status) = send(
        &server,
        Method::PATCH,
        &format!("{CM}/c?force=true"),
        MERGE,
        "{}",
    )
    .await;
    assert_eq!(code, 422);
    assert_eq!(
        assert_status(&status, 422, "Invalid"),
        "PatchOptions.meta.k8s.io \"\" is invalid: force: Forbidden: may not be specified for non-apply patch"
    );
}
