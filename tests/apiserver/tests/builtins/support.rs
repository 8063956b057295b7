//! A plain HTTP client and the expected `Status` bodies.

use serde_json::{json, Value};
use test_apiserver::{RunningServer, TestApiServer};

pub const JSON: &str = "application/json";

fn client() -> reqwest::Client {
    // reqwest is built without a default TLS provider; plain HTTP still needs one chosen.
    let _ = rustls::crypto::ring::default_provider().install_default();
    reqwest::Client::builder()
        .no_proxy()
        .build()
        .expect("client")
}

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
    let mut req = client().request(method, format!("{}{path}", server.url()));
    if !body.is_null() {
        req = req.header("content-type", JSON).body(body.to_string());
    }
    let resp = req.send().await.expect("request");
    let code = resp.status().as_u16();
    let bytes = resp.bytes().await.expect("body");
    let v = serde_json::from_slice(&bytes).unwrap_or_else(|e| {
        panic!(
            "{path}: body is not JSON ({e}): {}",
            String::from_utf8_lossy(&bytes)
        )
    });
    (code, v)
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

/// `obj` with the server-owned metadata (uid, resourceVersion, creationTimestamp) that
/// `stored` has, for whole-object comparisons.
pub fn with_server_fields(mut obj: Value, stored: &Value) -> Value {
    for field in ["uid", "resourceVersion", "creationTimestamp"] {
        obj["metadata"][field] = stored["metadata"][field].clone();
    }
    obj
}

/// The 422 `Invalid` of `kind "name"` (`group` empty for the core group) with these
/// `(reason, field, message)` causes, as `errors.NewInvalid` makes it.
pub fn invalid(kind: &str, group: &str, name: &str, causes: &[(&str, &str, &str)]) -> Value {
    let mut lines: Vec<String> = Vec::new();
    for (_, field, msg) in causes {
        let line = format!("{field}: {msg}");
        if !lines.contains(&line) {
            lines.push(line);
        }
    }
    let list = if lines.len() == 1 {
        lines[0].clone()
    } else {
        format!("[{}]", lines.join(", "))
    };
    let qualified = if group.is_empty() {
        kind.to_owned()
    } else {
        format!("{kind}.{group}")
    };
    let mut details = json!({
        "name": name,
        "kind": kind,
        "causes": causes
            .iter()
            .map(|(reason, field, msg)| json!({"reason": reason, "message": msg, "field": field}))
            .collect::<Vec<_>>(),
    });
    if !group.is_empty() {
        details["group"] = json!(group);
    }
    json!({
        "kind": "Status",
        "apiVersion": "v1",
        "metadata": {},
        "status": "Failure",
        "message": format!("{qualified} \"{name}\" is invalid: {list}"),
        "reason": "Invalid",
        "details": details,
        "code": 422,
    })
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
