//! Server-side apply and `managedFields` over HTTP, as kube-apiserver answers them:
//! create-on-apply, ownership of exactly what was applied, shared ownership, conflicts
//! with appliers and updaters (409 with one cause per field), `force`, removal of what a
//! manager stops applying, map lists, sets, atomic maps and structs, `dryRun`, the
//! `status` subresource, custom resources; and the `Update` entries of creates, updates
//! and patches (under the `fieldManager`, else the User-Agent's prefix). `managedFields`
//! are compared byte for byte with the entries the real server writes, times set aside.

use reqwest::Method;
use serde_json::{json, Value};
use test_apiserver::{RunningServer, TestApiServer};

const APPLY: &str = "application/apply-patch+yaml";
const MERGE: &str = "application/merge-patch+json";
const CONFIG_MAPS: &str = "/api/v1/namespaces/shop/configmaps";
const DEPLOYMENTS: &str = "/apis/apps/v1/namespaces/shop/deployments";

async fn server() -> RunningServer {
    TestApiServer::builder()
        .namespaces(["shop"])
        .start()
        .await
        .unwrap()
}

/// Sends a request; `user_agent` as given (none when empty). Returns the code and body.
async fn send(
    server: &RunningServer,
    method: Method,
    path: &str,
    content_type: &str,
    user_agent: &str,
    body: &str,
) -> (u16, Value) {
    let _ = rustls::crypto::ring::default_provider().install_default();
    let client = reqwest::Client::builder().no_proxy().build().unwrap();
    let mut req = client
        .request(method, format!("{}{path}", server.url()))
        .header("content-type", content_type)
        .body(body.to_owned());
    if !user_agent.is_empty() {
        req = req.header("user-agent", user_agent);
    }
    let resp = req.send().await.unwrap();
    let code = resp.status().as_u16();
    let bytes = resp.bytes().await.unwrap();
    let v = serde_json::from_slice(&bytes).unwrap_or_else(|e| {
        panic!(
            "{path}: not JSON ({e}): {}",
            String::from_utf8_lossy(&bytes)
        )
    });
    (code, v)
}

/// Server-side apply of `config` (sent as JSON, which the YAML body type reads).
async fn apply(server: &RunningServer, path: &str, query: &str, config: &Value) -> (u16, Value) {
    send(
        server,
        Method::PATCH,
        &format!("{path}?{query}"),
        APPLY,
        "",
        &config.to_string(),
    )
    .await
}

async fn get(server: &RunningServer, path: &str) -> (u16, Value) {
    send(server, Method::GET, path, "", "", "").await
}

fn config_map(data: Value) -> Value {
    json!({"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "cm"}, "data": data})
}

/// `metadata.managedFields` of `obj` with each `time` replaced by `T`, serialised: what
/// the tests compare byte for byte.
fn managed_fields(obj: &Value) -> String {
    let mut managed = obj["metadata"]["managedFields"].clone();
    for entry in managed.as_array_mut().into_iter().flatten() {
        let time = entry["time"].as_str().unwrap_or_default();
        assert!(
            time.len() == 20 && time.ends_with('Z') && time.as_bytes()[10] == b'T',
            "time is RFC 3339 in seconds: {entry}"
        );
        entry["time"] = json!("T");
    }
    serde_json::to_string(&managed).unwrap()
}

/// The expected entries (written in kube-apiserver's field order), serialised as the
/// server's JSON is.
fn expected(entries: Value) -> String {
    serde_json::to_string(&entries).unwrap()
}

/// A failure `Status`: asserts code and reason, returns the message and the details.
fn failure(v: &Value, code: u16, reason: &str) -> (String, Value) {
    assert_eq!(v["kind"], "Status", "{v}");
    assert_eq!(v["code"], code, "{v}");
    assert_eq!(v["reason"], reason, "{v}");
    (
        v["message"].as_str().unwrap().to_owned(),
        v["details"].clone(),
    )
}

#[tokio::test]
async fn creates_and_patches_record_update_entries_under_the_manager_or_user_agent() {
    let server = server().await;
    let (code, created) = send(
        &server,
        Method::POST,
        CONFIG_MAPS,
        "application/json",
        "kubectl/v1.36.0 (linux/amd64) kubernetes/abcdef0",
        &config_map(json!({"a": "1"})).to_string(),
    )
    .await;
    assert_eq!(code, 201, "{created}");
    assert_eq!(
        managed_fields(&created),
        expected(json!([{
            "manager": "kubectl", "operation": "Update", "apiVersion": "v1", "time": "T",
            "fieldsType": "FieldsV1", "fieldsV1": {"f:data": {".": {}, "f:a": {}}},
        }]))
    );
    let (code, patched) = send(
        &server,
        Method::PATCH,
        &format!("{CONFIG_MAPS}/cm?fieldManager=patcher"),
        MERGE,
        "kubectl/v1.36.0",
        r#"{"metadata":{"labels":{"app":"web"}},"data":{"b":"2"}}"#,
    )
    .await;
    assert_eq!(code, 200, "{patched}");
    assert_eq!(
        managed_fields(&patched),
        expected(json!([
            {"manager": "kubectl", "operation": "Update", "apiVersion": "v1", "time": "T",
             "fieldsType": "FieldsV1", "fieldsV1": {"f:data": {".": {}, "f:a": {}}}},
            {"manager": "patcher", "operation": "Update", "apiVersion": "v1", "time": "T",
             "fieldsType": "FieldsV1", "fieldsV1": {
                "f:data": {"f:b": {}},
                "f:metadata": {"f:labels": {".": {}, "f:app": {}}},
            }},
        ]))
    );
    // A PUT without managedFields keeps them; an empty list resets them.
    let mut body = patched.clone();
    body["metadata"]
        .as_object_mut()
        .unwrap()
        .remove("managedFields");
    let (code, put) = send(
        &server,
        Method::PUT,
        &format!("{CONFIG_MAPS}/cm?fieldManager=patcher"),
        "application/json",
        "",
        &body.to_string(),
    )
    .await;
    assert_eq!(code, 200, "{put}");
    assert_eq!(managed_fields(&put), managed_fields(&patched));
    assert_eq!(
        put["metadata"]["resourceVersion"],
        patched["metadata"]["resourceVersion"]
    );
    let (code, reset) = send(
        &server,
        Method::PATCH,
        &format!("{CONFIG_MAPS}/cm"),
        MERGE,
        "",
        r#"{"metadata":{"managedFields":[]}}"#,
    )
    .await;
    assert_eq!(code, 200, "{reset}");
    assert!(reset["metadata"].get("managedFields").is_none(), "{reset}");
    // Entries a request sets replace the stored ones when they decode.
    let own = json!([{
        "manager": "someone", "operation": "Apply", "apiVersion": "v1",
        "time": "2020-01-01T00:00:00Z", "fieldsType": "FieldsV1",
        "fieldsV1": {"f:data": {"f:a": {}}},
    }]);
    let (code, set) = send(
        &server,
        Method::PATCH,
        &format!("{CONFIG_MAPS}/cm"),
        MERGE,
        "",
        &json!({"metadata": {"managedFields": own}}).to_string(),
    )
    .await;
    assert_eq!(code, 200, "{set}");
    assert_eq!(set["metadata"]["managedFields"], own);
    // Entries that do not decode leave the stored ones as they are.
    let (code, kept) = send(
        &server,
        Method::PATCH,
        &format!("{CONFIG_MAPS}/cm"),
        MERGE,
        "",
        r#"{"metadata":{"managedFields":[{"manager":"x","operation":"Bogus"}]}}"#,
    )
    .await;
    assert_eq!(code, 200, "{kept}");
    assert_eq!(kept["metadata"]["managedFields"], own);
}

#[tokio::test]
async fn apply_creates_the_object_and_owns_exactly_what_it_applied() {
    let server = server().await;
    let config = json!({
        "apiVersion": "v1", "kind": "ConfigMap",
        "metadata": {"name": "cm", "labels": {"app": "web"}},
        "data": {"a": "1"},
    });
    let path = format!("{CONFIG_MAPS}/cm");
    let (code, created) = apply(&server, &path, "fieldManager=mgr-1", &config).await;
    assert_eq!(code, 201, "{created}");
    assert_eq!(created["data"], json!({"a": "1"}));
    assert_eq!(
        managed_fields(&created),
        expected(json!([{
            "manager": "mgr-1", "operation": "Apply", "apiVersion": "v1", "time": "T",
            "fieldsType": "FieldsV1", "fieldsV1": {
                "f:data": {"f:a": {}},
                "f:metadata": {"f:labels": {"f:app": {}}},
            },
        }]))
    );
    // The same configuration again changes nothing, not even the resourceVersion.
    let (code, again) = apply(&server, &path, "fieldManager=mgr-1", &config).await;
    assert_eq!(code, 200, "{again}");
    assert_eq!(
        again["metadata"]["resourceVersion"],
        created["metadata"]["resourceVersion"]
    );
    assert_eq!(managed_fields(&again), managed_fields(&created));
    // YAML bodies are read as YAML.
    let yaml = "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: cm\n  labels:\n    app: web\ndata:\n  a: \"1\"\n  b: two\n";
    let (code, from_yaml) = send(
        &server,
        Method::PATCH,
        &format!("{path}?fieldManager=mgr-1"),
        APPLY,
        "",
        yaml,
    )
    .await;
    assert_eq!(code, 200, "{from_yaml}");
    assert_eq!(from_yaml["data"], json!({"a": "1", "b": "two"}));
}

#[tokio::test]
async fn conflicts_name_each_field_and_its_owner_applier_or_updater() {
    let server = server().await;
    let path = format!("{CONFIG_MAPS}/cm");
    let (code, _) = apply(
        &server,
        &path,
        "fieldManager=mgr-1",
        &config_map(json!({"a": "1"})),
    )
    .await;
    assert_eq!(code, 201);
    let (code, v) = send(
        &server,
        Method::PATCH,
        &format!("{path}?fieldManager=mgr-3"),
        MERGE,
        "",
        r#"{"data":{"b":"x"}}"#,
    )
    .await;
    assert_eq!(code, 200, "{v}");

    let (code, v) = apply(
        &server,
        &path,
        "fieldManager=mgr-2",
        &config_map(json!({"a": "2"})),
    )
    .await;
    assert_eq!(code, 409, "{v}");
    let (message, details) = failure(&v, 409, "Conflict");
    assert_eq!(
        message,
        "Apply failed with 1 conflict: conflict with \"mgr-1\": .data.a"
    );
    assert_eq!(
        details,
        json!({"causes": [{"reason": "FieldManagerConflict", "message": "conflict with \"mgr-1\"", "field": ".data.a"}]})
    );

    let (code, v) = apply(
        &server,
        &path,
        "fieldManager=mgr-2",
        &config_map(json!({"b": "y"})),
    )
    .await;
    assert_eq!(code, 409, "{v}");
    let (message, _) = failure(&v, 409, "Conflict");
    assert_eq!(
        message,
        "Apply failed with 1 conflict: conflict with \"mgr-3\" using v1: .data.b"
    );

    let both = config_map(json!({"a": "2", "b": "y"}));
    let (code, v) = apply(&server, &path, "fieldManager=mgr-2", &both).await;
    assert_eq!(code, 409, "{v}");
    let (message, details) = failure(&v, 409, "Conflict");
    assert_eq!(
        message,
        "Apply failed with 2 conflicts: conflicts with \"mgr-1\":\n- .data.a\nconflicts with \"mgr-3\" using v1:\n- .data.b"
    );
    assert_eq!(details["causes"].as_array().unwrap().len(), 2);

    // force takes both fields over; the losers keep nothing and their entries go.
    let (code, forced) = apply(&server, &path, "fieldManager=mgr-2&force=true", &both).await;
    assert_eq!(code, 200, "{forced}");
    assert_eq!(forced["data"], json!({"a": "2", "b": "y"}));
    assert_eq!(
        managed_fields(&forced),
        expected(json!([{
            "manager": "mgr-2", "operation": "Apply", "apiVersion": "v1", "time": "T",
            "fieldsType": "FieldsV1", "fieldsV1": {"f:data": {"f:a": {}, "f:b": {}}},
        }]))
    );
}

#[tokio::test]
async fn same_values_share_ownership_and_updates_take_fields_without_conflict() {
    let server = server().await;
    let path = format!("{CONFIG_MAPS}/cm");
    apply(
        &server,
        &path,
        "fieldManager=mgr-1",
        &config_map(json!({"a": "1", "b": "1"})),
    )
    .await;
    let (code, shared) = apply(
        &server,
        &path,
        "fieldManager=mgr-2",
        &config_map(json!({"a": "1"})),
    )
    .await;
    assert_eq!(code, 200, "{shared}");
    // The object did not change, so the new entry has no time (and sorts first).
    assert_eq!(
        serde_json::to_string(&shared["metadata"]["managedFields"][0]).unwrap(),
        expected(json!({
            "manager": "mgr-2", "operation": "Apply", "apiVersion": "v1",
            "fieldsType": "FieldsV1", "fieldsV1": {"f:data": {"f:a": {}}},
        }))
    );
    assert_eq!(shared["metadata"]["managedFields"][1]["manager"], "mgr-1");

    // An update that changes a field takes it from its appliers, without a conflict.
    let (code, updated) = send(
        &server,
        Method::PATCH,
        &format!("{path}?fieldManager=editor"),
        MERGE,
        "",
        r#"{"data":{"a":"9"}}"#,
    )
    .await;
    assert_eq!(code, 200, "{updated}");
    let owners: Vec<(String, Value)> = updated["metadata"]["managedFields"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| {
            (
                e["manager"].as_str().unwrap().to_owned(),
                e["fieldsV1"].clone(),
            )
        })
        .collect();
    assert_eq!(
        owners,
        [
            ("mgr-1".to_owned(), json!({"f:data": {"f:b": {}}})),
            ("editor".to_owned(), json!({"f:data": {"f:a": {}}})),
        ]
    );
}

#[tokio::test]
async fn fields_a_manager_stops_applying_are_removed_unless_someone_else_owns_them() {
    let server = server().await;
    let path = format!("{CONFIG_MAPS}/cm");
    apply(
        &server,
        &path,
        "fieldManager=mgr-1",
        &config_map(json!({"a": "1", "b": "1", "c": "1"})),
    )
    .await;
    apply(
        &server,
        &path,
        "fieldManager=mgr-2",
        &config_map(json!({"b": "1"})),
    )
    .await;
    let (code, v) = apply(
        &server,
        &path,
        "fieldManager=mgr-1",
        &config_map(json!({"a": "1"})),
    )
    .await;
    assert_eq!(code, 200, "{v}");
    assert_eq!(v["data"], json!({"a": "1", "b": "1"}));
    let (code, v) = apply(
        &server,
        &path,
        "fieldManager=mgr-1",
        &json!({"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "cm"}}),
    )
    .await;
    assert_eq!(code, 200, "{v}");
    assert_eq!(v["data"], json!({"b": "1"}));
}

fn deployment(containers: Value) -> Value {
    json!({
        "apiVersion": "apps/v1", "kind": "Deployment",
        "metadata": {"name": "web"},
        "spec": {
            "selector": {"matchLabels": {"app": "web"}},
            "template": {
                "metadata": {"labels": {"app": "web"}},
                "spec": {"containers": containers},
            },
        },
    })
}

#[tokio::test]
async fn map_lists_merge_by_key_and_atomic_maps_and_structs_conflict_whole() {
    let server = server().await;
    let path = format!("{DEPLOYMENTS}/web");
    let app = deployment(json!([{"name": "app", "image": "app:1"}]));
    let (code, created) = apply(&server, &path, "fieldManager=mgr-1", &app).await;
    assert_eq!(code, 201, "{created}");
    assert_eq!(
        created["metadata"]["managedFields"][0]["fieldsV1"],
        json!({"f:spec": {
            "f:selector": {},
            "f:template": {
                "f:metadata": {"f:labels": {"f:app": {}}},
                "f:spec": {"f:containers": {"k:{\"name\":\"app\"}": {".": {}, "f:image": {}, "f:name": {}}}},
            },
        }})
    );
    let sidecar = deployment(json!([{"name": "sidecar", "image": "proxy:1"}]));
    let (code, v) = apply(&server, &path, "fieldManager=mgr-2", &sidecar).await;
    assert_eq!(code, 200, "{v}");
    let names: Vec<&str> = v["spec"]["template"]["spec"]["containers"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["name"].as_str().unwrap())
        .collect();
    assert_eq!(names, ["app", "sidecar"]);

    let changed = deployment(json!([{"name": "app", "image": "app:2"}]));
    let (code, v) = apply(&server, &path, "fieldManager=mgr-2", &changed).await;
    assert_eq!(code, 409, "{v}");
    let (message, _) = failure(&v, 409, "Conflict");
    assert_eq!(
        message,
        "Apply failed with 1 conflict: conflict with \"mgr-1\": .spec.template.spec.containers[name=\"app\"].image"
    );

    // The selector is an atomic struct: a different one conflicts as a whole.
    let mut selector = sidecar.clone();
    selector["spec"]["selector"] = json!({"matchLabels": {"app": "web"}, "matchExpressions": [{"key": "app", "operator": "Exists"}]});
    let (code, v) = apply(&server, &path, "fieldManager=mgr-2", &selector).await;
    assert_eq!(code, 409, "{v}");
    assert_eq!(
        failure(&v, 409, "Conflict").0,
        "Apply failed with 1 conflict: conflict with \"mgr-1\": .spec.selector"
    );

    // nodeSelector is an atomic map: one manager's map replaces the other's.
    let mut node_a = app.clone();
    node_a["spec"]["template"]["spec"]["nodeSelector"] = json!({"zone": "a"});
    let (code, v) = apply(&server, &path, "fieldManager=mgr-1", &node_a).await;
    assert_eq!(code, 200, "{v}");
    let mut node_b = sidecar.clone();
    node_b["spec"]["template"]["spec"]["nodeSelector"] = json!({"disk": "ssd"});
    let (code, v) = apply(&server, &path, "fieldManager=mgr-2", &node_b).await;
    assert_eq!(
        failure(&v, 409, "Conflict").0,
        "Apply failed with 1 conflict: conflict with \"mgr-1\": .spec.template.spec.nodeSelector",
        "{code}"
    );
    let (code, v) = apply(&server, &path, "fieldManager=mgr-2&force=true", &node_b).await;
    assert_eq!(code, 200, "{v}");
    assert_eq!(
        v["spec"]["template"]["spec"]["nodeSelector"],
        json!({"disk": "ssd"})
    );
}

#[tokio::test]
async fn sets_merge_by_value() {
    let server = server().await;
    let path = format!("{CONFIG_MAPS}/cm");
    let with_finalizers = |list: Value| json!({"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "cm", "finalizers": list}});
    apply(
        &server,
        &path,
        "fieldManager=mgr-1",
        &with_finalizers(json!(["example.com/a"])),
    )
    .await;
    let (code, v) = apply(
        &server,
        &path,
        "fieldManager=mgr-2",
        &with_finalizers(json!(["example.com/b"])),
    )
    .await;
    assert_eq!(code, 200, "{v}");
    assert_eq!(
        v["metadata"]["finalizers"],
        json!(["example.com/a", "example.com/b"])
    );
    assert_eq!(
        v["metadata"]["managedFields"][1]["fieldsV1"],
        json!({"f:metadata": {"f:finalizers": {"v:\"example.com/b\"": {}}}})
    );
}

#[tokio::test]
async fn dry_run_applies_and_stores_nothing() {
    let server = server().await;
    let path = format!("{CONFIG_MAPS}/cm");
    let (code, v) = apply(
        &server,
        &path,
        "fieldManager=mgr-1&dryRun=All",
        &config_map(json!({"a": "1"})),
    )
    .await;
    assert_eq!(code, 201, "{v}");
    assert_eq!(v["data"], json!({"a": "1"}));
    assert_eq!(get(&server, &path).await.0, 404);

    let (_, created) = apply(
        &server,
        &path,
        "fieldManager=mgr-1",
        &config_map(json!({"a": "1"})),
    )
    .await;
    let (code, v) = apply(
        &server,
        &path,
        "fieldManager=mgr-1&dryRun=All",
        &config_map(json!({"a": "2"})),
    )
    .await;
    assert_eq!(code, 200, "{v}");
    assert_eq!(v["data"], json!({"a": "2"}));
    let (_, stored) = get(&server, &path).await;
    assert_eq!(stored["data"], json!({"a": "1"}));
    assert_eq!(
        stored["metadata"]["resourceVersion"],
        created["metadata"]["resourceVersion"]
    );
}

#[tokio::test]
async fn bad_applies_answer_as_kube_apiserver() {
    let server = server().await;
    let path = format!("{CONFIG_MAPS}/cm");
    let (code, v) = apply(&server, &path, "", &config_map(json!({}))).await;
    assert_eq!(code, 422, "{v}");
    assert_eq!(
        failure(&v, 422, "Invalid").0,
        "PatchOptions.meta.k8s.io \"\" is invalid: fieldManager: Required value: is required for apply patch"
    );
    let mut other = config_map(json!({}));
    other["metadata"]["name"] = json!("other");
    let (code, v) = apply(&server, &path, "fieldManager=m", &other).await;
    assert_eq!(code, 400, "{v}");
    assert_eq!(
        failure(&v, 400, "BadRequest").0,
        "the name of the object (other) does not match the name on the URL (cm)"
    );
    let mut managed = config_map(json!({}));
    managed["metadata"]["managedFields"] = json!([]);
    let (code, v) = apply(&server, &path, "fieldManager=m", &managed).await;
    assert_eq!(code, 400, "{v}");
    assert_eq!(
        failure(&v, 400, "BadRequest").0,
        "metadata.managedFields must be nil"
    );
    let mut version = config_map(json!({}));
    version["apiVersion"] = json!("v2");
    let (code, v) = apply(&server, &path, "fieldManager=m", &version).await;
    assert_eq!(code, 400, "{v}");
    assert_eq!(
        failure(&v, 400, "BadRequest").0,
        "Incorrect version specified in apply patch. Specified patch version: v2, expected: v1"
    );
    let (code, v) = send(
        &server,
        Method::PATCH,
        &format!("{path}?fieldManager=m"),
        APPLY,
        "",
        "[1]",
    )
    .await;
    assert_eq!(code, 400, "{v}");
    assert!(failure(&v, 400, "BadRequest")
        .0
        .starts_with("error decoding YAML: "));
    let (code, v) = send(
        &server,
        Method::PATCH,
        &format!("{path}?fieldManager=m&force=true"),
        MERGE,
        "",
        "{}",
    )
    .await;
    assert_eq!(code, 422, "{v}");
    assert_eq!(
        failure(&v, 422, "Invalid").0,
        "PatchOptions.meta.k8s.io \"\" is invalid: force: Forbidden: may not be specified for non-apply patch"
    );
}

#[tokio::test]
async fn status_applies_are_entries_of_the_status_subresource() {
    let server = server().await;
    let path = format!("{DEPLOYMENTS}/web");
    let (code, v) = apply(
        &server,
        &format!("{path}/status"),
        "fieldManager=ctrl",
        &json!({"apiVersion": "apps/v1", "kind": "Deployment", "metadata": {"name": "web"}, "status": {"replicas": 1}}),
    )
    .await;
    assert_eq!(code, 404, "{v}");
    let (code, _) = apply(
        &server,
        &path,
        "fieldManager=mgr-1",
        &deployment(json!([{"name": "app", "image": "app:1"}])),
    )
    .await;
    assert_eq!(code, 201);
    let status = json!({
        "apiVersion": "apps/v1", "kind": "Deployment", "metadata": {"name": "web"},
        "spec": {"replicas": 7},
        "status": {"observedGeneration": 1, "conditions": [{"type": "Available", "status": "True"}]},
    });
    let (code, v) = apply(
        &server,
        &format!("{path}/status"),
        "fieldManager=ctrl",
        &status,
    )
    .await;
    assert_eq!(code, 200, "{v}");
    assert_eq!(v["status"]["observedGeneration"], 1);
    assert_ne!(
        v["spec"]["replicas"], 7,
        "spec does not change through status"
    );
    let entry = v["metadata"]["managedFields"]
        .as_array()
        .unwrap()
        .iter()
        .find(|e| e["manager"] == "ctrl")
        .unwrap();
    assert_eq!(
        (
            &entry["manager"],
            &entry["operation"],
            &entry["subresource"]
        ),
        (&json!("ctrl"), &json!("Apply"), &json!("status")),
        "{v}"
    );
    assert_eq!(
        entry["fieldsV1"],
        json!({"f:status": {"f:conditions": {"k:{\"type\":\"Available\"}": {".": {}, "f:status": {}, "f:type": {}}}, "f:observedGeneration": {}}})
    );
}

fn gadget_crd() -> Value {
    json!({
        "apiVersion": "apiextensions.k8s.io/v1",
        "kind": "CustomResourceDefinition",
        "metadata": {"name": "gadgets.example.com"},
        "spec": {
            "group": "example.com",
            "scope": "Namespaced",
            "names": {"plural": "gadgets", "singular": "gadget", "kind": "Gadget", "listKind": "GadgetList"},
            "versions": [{
                "name": "v1", "served": true, "storage": true,
                "schema": {"openAPIV3Schema": {"type": "object", "properties": {
                    "spec": {"type": "object", "properties": {
                        "ports": {"type": "array", "x-kubernetes-list-type": "map", "x-kubernetes-list-map-keys": ["name"], "items": {
                            "type": "object", "required": ["name"], "properties": {
                                "name": {"type": "string"}, "number": {"type": "integer"},
                            },
                        }},
                        "args": {"type": "array", "items": {"type": "string"}},
                        "selector": {"type": "object", "x-kubernetes-map-type": "atomic", "additionalProperties": {"type": "string"}},
                    }},
                }}},
            }],
        },
    })
}

#[tokio::test]
async fn custom_resources_apply_by_their_structural_schema() {
    let server = TestApiServer::builder()
        .namespaces(["shop"])
        .crd(gadget_crd().to_string())
        .start()
        .await
        .unwrap();
    let path = "/apis/example.com/v1/namespaces/shop/gadgets/g";
    let gadget = |spec: Value| json!({"apiVersion": "example.com/v1", "kind": "Gadget", "metadata": {"name": "g"}, "spec": spec});
    let (code, v) = apply(
        &server,
        path,
        "fieldManager=mgr-1",
        &gadget(json!({"ports": [{"name": "http", "number": 80}], "args": ["a"], "selector": {"x": "1"}})),
    )
    .await;
    assert_eq!(code, 201, "{v}");
    assert_eq!(
        managed_fields(&v),
        expected(json!([{
            "manager": "mgr-1", "operation": "Apply", "apiVersion": "example.com/v1", "time": "T",
            "fieldsType": "FieldsV1", "fieldsV1": {"f:spec": {
                "f:args": {}, "f:selector": {},
                "f:ports": {"k:{\"name\":\"http\"}": {".": {}, "f:name": {}, "f:number": {}}},
            }},
        }]))
    );
    let (code, v) = apply(
        &server,
        path,
        "fieldManager=mgr-2",
        &gadget(json!({"ports": [{"name": "https", "number": 443}]})),
    )
    .await;
    assert_eq!(code, 200, "{v}");
    assert_eq!(
        v["spec"]["ports"],
        json!([{"name": "http", "number": 80}, {"name": "https", "number": 443}])
    );
    let (code, v) = apply(
        &server,
        path,
        "fieldManager=mgr-2",
        &gadget(json!({"args": ["b"]})),
    )
    .await;
    assert_eq!(code, 409, "{v}");
    assert_eq!(
        failure(&v, 409, "Conflict").0,
        "Apply failed with 1 conflict: conflict with \"mgr-1\": .spec.args"
    );
}

#[tokio::test]
async fn a_created_deployment_records_what_kubectl_create_would() {
    let server = server().await;
    let body = deployment(json!([{"name": "web", "image": "nginx:1.27"}]));
    let (code, created) = send(
        &server,
        Method::POST,
        &format!("{DEPLOYMENTS}?fieldManager=kubectl-create"),
        "application/json",
        "",
        &body.to_string(),
    )
    .await;
    assert_eq!(code, 201, "{created}");
    // The creator owns what it sent and what decoding defaulted; non-pointer structs of
    // the Go zero value (spec, strategy, template) are not added themselves, so they have
    // no ".".
    assert_eq!(
        managed_fields(&created),
        expected(json!([{
            "manager": "kubectl-create", "operation": "Update", "apiVersion": "apps/v1", "time": "T",
            "fieldsType": "FieldsV1", "fieldsV1": {"f:spec": {
                "f:progressDeadlineSeconds": {}, "f:replicas": {}, "f:revisionHistoryLimit": {},
                "f:selector": {},
                "f:strategy": {"f:rollingUpdate": {".": {}, "f:maxSurge": {}, "f:maxUnavailable": {}}, "f:type": {}},
                "f:template": {
                    "f:metadata": {"f:labels": {".": {}, "f:app": {}}},
                    "f:spec": {
                        "f:containers": {"k:{\"name\":\"web\"}": {
                            ".": {}, "f:image": {}, "f:imagePullPolicy": {}, "f:name": {}, "f:resources": {},
                            "f:terminationMessagePath": {}, "f:terminationMessagePolicy": {},
                        }},
                        "f:dnsPolicy": {}, "f:restartPolicy": {}, "f:schedulerName": {},
                        "f:securityContext": {}, "f:terminationGracePeriodSeconds": {},
                    },
                },
            }},
        }]))
    );
    // A status update is an entry of the status subresource, and changes to spec through
    // it are owned by no one.
    let mut status = created.clone();
    status["status"] = json!({"observedGeneration": 1, "replicas": 1});
    status["spec"]["replicas"] = json!(5);
    let (code, updated) = send(
        &server,
        Method::PUT,
        &format!("{DEPLOYMENTS}/web/status"),
        "application/json",
        "kube-controller-manager/v1.36.0 (linux/amd64) kubernetes/abcdef0/system:serviceaccount:kube-system:deployment-controller",
        &status.to_string(),
    )
    .await;
    assert_eq!(code, 200, "{updated}");
    let entry = updated["metadata"]["managedFields"]
        .as_array()
        .unwrap()
        .iter()
        .find(|e| e["subresource"] == "status")
        .unwrap();
    assert_eq!(
        serde_json::to_string(&{
            let mut e = entry.clone();
            e["time"] = json!("T");
            e
        })
        .unwrap(),
        expected(json!({
            "manager": "kube-controller-manager", "operation": "Update", "apiVersion": "apps/v1",
            "time": "T", "fieldsType": "FieldsV1",
            "fieldsV1": {"f:status": {"f:observedGeneration": {}, "f:replicas": {}}},
            "subresource": "status",
        }))
    );
}

#[tokio::test]
async fn map_list_keys_left_out_take_their_defaults() {
    let server = server().await;
    let path = format!("{DEPLOYMENTS}/web");
    let app =
        deployment(json!([{"name": "app", "image": "app:1", "ports": [{"containerPort": 80}]}]));
    let (code, v) = apply(&server, &path, "fieldManager=mgr-1", &app).await;
    assert_eq!(code, 201, "{v}");
    let container = &v["metadata"]["managedFields"][0]["fieldsV1"]["f:spec"]["f:template"]
        ["f:spec"]["f:containers"]["k:{\"name\":\"app\"}"];
    assert_eq!(
        container["f:ports"],
        json!({"k:{\"containerPort\":80,\"protocol\":\"TCP\"}": {".": {}, "f:containerPort": {}}}),
        "{v}"
    );
    assert_eq!(
        v["spec"]["template"]["spec"]["containers"][0]["ports"],
        json!([{"containerPort": 80, "protocol": "TCP"}])
    );
}
