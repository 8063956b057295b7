//! The shared helpers ([`shared`]), waits for the collector and builders of
//! owner/dependent objects.

use std::time::Duration;

use serde_json::{json, Value};
use test_apiserver::RunningServer;

#[allow(dead_code)] // Each suite uses a part of the shared helpers.
#[path = "../support/mod.rs"]
mod shared;

pub use shared::*;

/// POSTs `body` and returns the created object (asserting a 201).
pub async fn create(server: &RunningServer, path: &str, body: Value) -> Value {
    let (code, v) = send(server, reqwest::Method::POST, path, JSON, &body).await;
    assert_eq!(code, 201, "POST {path}: {v}");
    v
}

pub async fn get(server: &RunningServer, path: &str) -> (u16, Value) {
    send(server, reqwest::Method::GET, path, JSON, &Value::Null).await
}

/// DELETE with `options` as the `DeleteOptions` body (none when null).
pub async fn delete(server: &RunningServer, path: &str, options: Value) -> (u16, Value) {
    send(server, reqwest::Method::DELETE, path, JSON, &options).await
}

pub async fn merge_patch(server: &RunningServer, path: &str, patch: Value) -> (u16, Value) {
    send(server, reqwest::Method::PATCH, path, MERGE, &patch).await
}

/// Polls `path` until it answers 404 (within [`PATIENCE`]).
pub async fn wait_gone(server: &RunningServer, path: &str) {
    let deadline = tokio::time::Instant::now() + PATIENCE;
    loop {
        let (code, v) = get(server, path).await;
        if code == 404 {
            return;
        }
        assert!(
            tokio::time::Instant::now() < deadline,
            "{path} is still there: {v}"
        );
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
}

/// Polls `path` until `done` holds for the object (within [`PATIENCE`]); returns it.
pub async fn wait_for(server: &RunningServer, path: &str, done: impl Fn(&Value) -> bool) -> Value {
    let deadline = tokio::time::Instant::now() + PATIENCE;
    loop {
        let (code, v) = get(server, path).await;
        if code == 200 && done(&v) {
            return v;
        }
        assert!(
            tokio::time::Instant::now() < deadline,
            "{path} never got there: {code} {v}"
        );
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
}

/// An owner reference to `owner` (a created object with kind and apiVersion).
pub fn owner_ref(owner: &Value, block: bool) -> Value {
    json!({
        "apiVersion": owner["apiVersion"],
        "kind": owner["kind"],
        "name": owner["metadata"]["name"],
        "uid": owner["metadata"]["uid"],
        "controller": true,
        "blockOwnerDeletion": block,
    })
}

pub fn deployment(name: &str) -> Value {
    json!({
        "apiVersion": "apps/v1",
        "kind": "Deployment",
        "metadata": {"name": name, "labels": {"app": name}},
        "spec": {
            "replicas": 1,
            "selector": {"matchLabels": {"app": name}},
            "template": {
                "metadata": {"labels": {"app": name}},
                "spec": {"containers": [{"name": "c", "image": "nginx"}]},
            },
        },
    })
}

pub fn replica_set(name: &str, owners: Vec<Value>) -> Value {
    let mut rs = deployment(name);
    rs["kind"] = json!("ReplicaSet");
    rs["metadata"]["ownerReferences"] = json!(owners);
    rs
}

pub fn pod(name: &str, owners: Vec<Value>) -> Value {
    json!({
        "apiVersion": "v1",
        "kind": "Pod",
        "metadata": {"name": name, "ownerReferences": owners},
        "spec": {"containers": [{"name": "c", "image": "nginx"}]},
    })
}

/// The next `n` events of `watch` that are not BOOKMARKs, as `(type, name,
/// resourceVersion)`.
pub async fn take(watch: &mut Watch, n: usize) -> Vec<(String, String, u64)> {
    let mut out = Vec::new();
    for _ in 0..n {
        out.push(event_of(&watch.next_event().await));
    }
    out
}

/// `(type, name, resourceVersion)` of an event.
pub fn event_of(e: &Value) -> (String, String, u64) {
    let meta = &e["object"]["metadata"];
    (
        e["type"].as_str().unwrap_or_default().to_owned(),
        meta["name"].as_str().unwrap_or_default().to_owned(),
        meta["resourceVersion"]
            .as_str()
            .and_then(|s| s.parse().ok())
            .unwrap_or_default(),
    )
}

/// The server's current resourceVersion, to watch from.
pub async fn current_rv(server: &RunningServer) -> String {
    let (_, list) = get(server, "/api/v1/namespaces/default/configmaps?limit=1").await;
    list["metadata"]["resourceVersion"]
        .as_str()
        .unwrap_or_default()
        .to_owned()
}
