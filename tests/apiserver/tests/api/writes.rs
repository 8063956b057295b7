use reqwest::Method;
use serde_json::json;
use test_apiserver::{fixtures, TestApiServer};

use crate::support::{assert_status, get, rv_of, send, Watch};

const JSON: &str = "application/json";
const MERGE: &str = "application/merge-patch+json";

#[tokio::test]
async fn create_sets_server_fields_and_refuses_duplicates() {
    let server = TestApiServer::builder()
        .namespaces(["shop", "other"])
        .start()
        .await
        .unwrap();
    let body = fixtures::config_map("shop", "settings", 0).to_string();
    let before = server.resource_version();
    let (code, created) = send(
        &server,
        Method::POST,
        "/api/v1/namespaces/shop/configmaps",
        JSON,
        &body,
    )
    .await;
    assert_eq!(code, 201, "{created}");
    assert_eq!(
        (created["kind"].as_str(), created["apiVersion"].as_str()),
        (Some("ConfigMap"), Some("v1"))
    );
    assert_eq!(rv_of(&created), before + 1);
    assert_eq!(created["metadata"]["namespace"], "shop");
    // kube-apiserver keeps no generation for ConfigMaps.
    assert!(created["metadata"].get("generation").is_none(), "{created}");
    assert!(created["metadata"]["uid"]
        .as_str()
        .is_some_and(|u| u.len() == 36));
    assert!(created["metadata"]["creationTimestamp"].is_string());

    let (code, status) = send(
        &server,
        Method::POST,
        "/api/v1/namespaces/shop/configmaps",
        JSON,
        &body,
    )
    .await;
    assert_eq!(code, 409);
    assert_eq!(
        assert_status(&status, 409, "AlreadyExists"),
        "configmaps \"settings\" already exists"
    );
    assert_eq!(
        status["details"],
        json!({"name": "settings", "kind": "configmaps"})
    );

    let (code, status) = send(
        &server,
        Method::POST,
        "/api/v1/namespaces/shop/configmaps",
        JSON,
        "{\"metadata\":",
    )
    .await;
    assert_eq!(code, 400);
    assert_status(&status, 400, "BadRequest");
    let (code, status) = send(
        &server,
        Method::POST,
        "/api/v1/namespaces/other/configmaps",
        JSON,
        &body,
    )
    .await;
    assert_eq!(code, 400);
    assert!(assert_status(&status, 400, "BadRequest").contains("does not match the namespace"));
    let (code, status) = send(
        &server,
        Method::POST,
        "/api/v1/namespaces/shop/configmaps",
        JSON,
        "{\"data\":{}}",
    )
    .await;
    assert_eq!(code, 422);
    assert!(assert_status(&status, 422, "Invalid").contains("metadata.name: Required value"));
    let (code, generated) = send(
        &server,
        Method::POST,
        "/api/v1/namespaces/shop/configmaps",
        JSON,
        "{\"metadata\":{\"generateName\":\"gen-\"}}",
    )
    .await;
    assert_eq!(code, 201);
    assert!(generated["metadata"]["name"]
        .as_str()
        .unwrap()
        .starts_with("gen-"));
}

#[tokio::test]
async fn update_checks_the_resource_version_and_bumps_generation_on_spec_changes() {
    let server = TestApiServer::builder()
        .namespaces(["shop"])
        .start()
        .await
        .unwrap();
    let created = server
        .create(
            "deployments.apps",
            Some("shop"),
            fixtures::deployment("shop", "web", 1),
        )
        .unwrap();
    assert_eq!(created["apiVersion"], "apps/v1");
    let path = "/apis/apps/v1/namespaces/shop/deployments/web";

    let mut labels_only = created.clone();
    labels_only["metadata"]["labels"] = json!({"a": "b"});
    let (code, updated) = send(&server, Method::PUT, path, JSON, &labels_only.to_string()).await;
    assert_eq!(code, 200, "{updated}");
    assert!(rv_of(&updated) > rv_of(&created));
    assert_eq!(updated["metadata"]["generation"], 1);
    assert_eq!(updated["metadata"]["uid"], created["metadata"]["uid"]);

    // The stale resourceVersion of `created` conflicts.
    let (code, status) = send(&server, Method::PUT, path, JSON, &labels_only.to_string()).await;
    assert_eq!(code, 409);
    assert_eq!(
        assert_status(&status, 409, "Conflict"),
        "Operation cannot be fulfilled on deployments.apps \"web\": the object has been modified; please apply your changes to the latest version and try again"
    );

    let mut scaled = updated.clone();
    scaled["spec"]["replicas"] = json!(3);
    let (code, scaled) = send(&server, Method::PUT, path, JSON, &scaled.to_string()).await;
    assert_eq!(code, 200);
    assert_eq!(scaled["metadata"]["generation"], 2);

    let (code, status) = send(
        &server,
        Method::PUT,
        "/apis/apps/v1/namespaces/shop/deployments/other",
        JSON,
        &scaled.to_string(),
    )
    .await;
    assert_eq!(code, 400);
    assert!(
        assert_status(&status, 400, "BadRequest").contains("does not match the name on the URL")
    );
    let mut missing = scaled.clone();
    missing["metadata"] = json!({"name": "ghost"});
    let (code, status) = send(
        &server,
        Method::PUT,
        "/apis/apps/v1/namespaces/shop/deployments/ghost",
        JSON,
        &missing.to_string(),
    )
    .await;
    assert_eq!(code, 404);
    assert_status(&status, 404, "NotFound");
}

#[tokio::test]
async fn merge_patch_and_delete_behave_like_the_real_server() {
    let server = TestApiServer::builder().seed_pods(1).start().await.unwrap();
    let path = "/api/v1/namespaces/ns-0/pods/pod-0";
    let (code, patched) = send(
        &server,
        Method::PATCH,
        path,
        MERGE,
        r#"{"metadata":{"labels":{"tier":null,"new":"yes"}}}"#,
    )
    .await;
    assert_eq!(code, 200, "{patched}");
    assert_eq!(patched["metadata"]["labels"]["new"], "yes");
    assert!(patched["metadata"]["labels"].get("tier").is_none());
    assert_eq!(patched["kind"], "Pod");

    let stale = r#"{"metadata":{"resourceVersion":"1","labels":{"x":"y"}}}"#;
    let (code, status) = send(&server, Method::PATCH, path, MERGE, stale).await;
    assert_eq!(code, 409);
    assert_status(&status, 409, "Conflict");
    let (code, status) = send(&server, Method::PATCH, path, "text/plain", "{}").await;
    assert_eq!(code, 415);
    assert_eq!(
        assert_status(&status, 415, "UnsupportedMediaType"),
        "the body of the request was in an unknown format - accepted media types include: application/json-patch+json, application/merge-patch+json, application/strategic-merge-patch+json, application/apply-patch+yaml"
    );
    let (code, status) = send(
        &server,
        Method::PATCH,
        "/api/v1/namespaces/ns-0/pods/nope",
        MERGE,
        "{}",
    )
    .await;
    assert_eq!(code, 404);
    assert_status(&status, 404, "NotFound");

    let (code, deleted) = send(&server, Method::DELETE, path, JSON, "").await;
    assert_eq!(code, 200);
    assert_eq!(deleted["kind"], "Pod");
    assert_eq!(rv_of(&deleted), server.resource_version());
    let (code, _) = get(&server, path).await;
    assert_eq!(code, 404);
    let (code, status) = send(&server, Method::DELETE, path, JSON, "").await;
    assert_eq!(code, 404);
    assert_eq!(
        assert_status(&status, 404, "NotFound"),
        "pods \"pod-0\" not found"
    );
    let (code, status) = send(&server, Method::POST, "/api/v1/pods", JSON, "{}").await;
    assert_eq!(code, 405);
    assert_status(&status, 405, "MethodNotAllowed");
}

#[tokio::test]
async fn resource_versions_increase_across_resources_and_in_process_writes_are_watched() {
    let server = TestApiServer::builder()
        .namespaces(["a"])
        .start()
        .await
        .unwrap();
    let start = server.resource_version();
    let mut w = Watch::open(
        &server,
        &format!("/api/v1/nodes?watch=1&resourceVersion={start}"),
    )
    .await;
    let mut last = start;
    for i in 0..4 {
        let cm = server
            .create(
                "configmaps",
                Some("a"),
                fixtures::config_map("a", &format!("c{i}"), i),
            )
            .unwrap();
        let node = server
            .create("nodes", None, fixtures::node(&format!("node-{i}"), i))
            .unwrap();
        assert!(node["metadata"].get("namespace").is_none());
        assert!(rv_of(&cm) > last && rv_of(&node) > rv_of(&cm));
        last = rv_of(&node);
        let e = w.next_event().await;
        assert_eq!(rv_of(&e["object"]), rv_of(&node));
    }
    let (_, list) = get(&server, "/api/v1/nodes").await;
    assert_eq!(list["kind"], "NodeList");
    assert_eq!(list["items"].as_array().unwrap().len(), 4);
    assert_eq!(server.get("nodes", None, "node-2").unwrap()["kind"], "Node");
    assert_eq!(server.list("configmaps", Some("a")).unwrap().len(), 4);
    assert_eq!(server.get("nodes", None, "nope").unwrap_err().code, 404);
    assert_eq!(
        server.create("gadgets", None, json!({})).unwrap_err().code,
        404
    );
}

#[tokio::test]
async fn the_status_subresource_changes_only_status() {
    let server = TestApiServer::builder().seed_pods(1).start().await.unwrap();
    let path = "/api/v1/namespaces/ns-0/pods/pod-0/status";
    let (code, current) = get(&server, path).await;
    assert_eq!(code, 200);
    let mut body = current.clone();
    body["status"]["phase"] = json!("Succeeded");
    body["spec"]["nodeName"] = json!("elsewhere");
    body["metadata"]["labels"] = json!({});
    let (code, updated) = send(&server, Method::PUT, path, JSON, &body.to_string()).await;
    assert_eq!(code, 200, "{updated}");
    assert_eq!(updated["status"]["phase"], "Succeeded");
    assert_eq!(updated["spec"]["nodeName"], current["spec"]["nodeName"]);
    assert_eq!(updated["metadata"]["labels"], current["metadata"]["labels"]);
    assert_eq!(updated["metadata"]["generation"], 1);
    assert!(rv_of(&updated) > rv_of(&current));

    let (code, patched) = send(
        &server,
        Method::PATCH,
        path,
        MERGE,
        r#"{"status":{"phase":"Failed"},"spec":{"nodeName":"x"}}"#,
    )
    .await;
    assert_eq!(code, 200);
    assert_eq!(patched["status"]["phase"], "Failed");
    assert_eq!(patched["spec"]["nodeName"], current["spec"]["nodeName"]);
    let (code, _) = send(&server, Method::DELETE, path, JSON, "").await;
    assert_eq!(code, 405);
    let (code, _) = get(&server, "/api/v1/namespaces/ns-0/pods/pod-0/scale").await;
    assert_eq!(code, 404);

    let mut in_process = server.get("pods", Some("ns-0"), "pod-0").unwrap();
    in_process["status"]["phase"] = json!("Running");
    let stored = server.update_status("pods", None, in_process).unwrap();
    assert_eq!(stored["status"]["phase"], "Running");
}
