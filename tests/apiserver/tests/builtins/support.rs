//! The shared helpers ([`shared`]), requests with JSON bodies and defaulted objects.

use serde_json::{json, Value};
use test_apiserver::{RunningServer, TestApiServer};

#[allow(dead_code)] // Each suite uses a part of the shared helpers.
#[path = "../support/mod.rs"]
mod shared;

pub use shared::*;

/// A server with the namespace `shop`.
pub async fn server() -> RunningServer {
    TestApiServer::builder()
        .namespaces(["shop"])
        .start()
        .await
        .expect("server")
}

/// Sends `method path` with `body` (JSON unless null), returning the status code and
/// the JSON answer.
pub async fn send(
    server: &RunningServer,
    method: reqwest::Method,
    path: &str,
    body: &Value,
) -> (u16, Value) {
    shared::send(server, method, path, JSON, body).await
}

pub async fn post(server: &RunningServer, path: &str, body: &Value) -> (u16, Value) {
    send(server, reqwest::Method::POST, path, body).await
}

pub async fn put(server: &RunningServer, path: &str, body: &Value) -> (u16, Value) {
    send(server, reqwest::Method::PUT, path, body).await
}

pub async fn get(server: &RunningServer, path: &str) -> (u16, Value) {
    send(server, reqwest::Method::GET, path, &Value::Null).await
}

pub async fn delete(server: &RunningServer, path: &str) -> (u16, Value) {
    send(server, reqwest::Method::DELETE, path, &Value::Null).await
}

/// `obj` with the server-owned metadata (uid, resourceVersion, creationTimestamp,
/// managedFields, which the `apply` suite checks) that `stored` has, for whole-object
/// comparisons.
pub fn with_server_fields(mut obj: Value, stored: &Value) -> Value {
    for field in [
        "uid",
        "resourceVersion",
        "creationTimestamp",
        "managedFields",
    ] {
        obj["metadata"][field] = stored["metadata"][field].clone();
    }
    obj
}

/// The defaulted form of a container `{name, image}` whose image has a tag.
pub fn defaulted_container(name: &str, image: &str) -> Value {
    json!({
        "name": name,
        "image": image,
        "imagePullPolicy": "IfNotPresent",
        "resources": {},
        "terminationMessagePath": "/dev/termination-log",
        "terminationMessagePolicy": "File",
    })
}

/// The `PodSpec` defaults every pod template gets, around `containers`.
pub fn defaulted_pod_spec(containers: Value, restart_policy: &str) -> Value {
    json!({
        "containers": containers,
        "restartPolicy": restart_policy,
        "terminationGracePeriodSeconds": 30,
        "dnsPolicy": "ClusterFirst",
        "securityContext": {},
        "schedulerName": "default-scheduler",
    })
}
