//! The shared helpers ([`shared`]: client, watch reader), requests with raw bodies and
//! `Status` checks.

use serde_json::Value;
use test_apiserver::{RunningServer, TestApiServer};

#[allow(dead_code)] // Each suite uses a part of the shared helpers.
#[path = "../support/mod.rs"]
mod shared;

pub use shared::*;

pub async fn seeded(pods: usize) -> RunningServer {
    TestApiServer::builder()
        .seed_pods(pods)
        .start()
        .await
        .expect("server starts")
}

/// GET `path`, returning the status code and the JSON body.
pub async fn get(server: &RunningServer, path: &str) -> (u16, Value) {
    let resp = client()
        .get(format!("{}{path}", server.url()))
        .send()
        .await
        .expect("request");
    let code = resp.status().as_u16();
    let body = resp.bytes().await.expect("body");
    let v = serde_json::from_slice(&body).unwrap_or_else(|e| {
        panic!(
            "{path}: body is not JSON ({e}): {}",
            String::from_utf8_lossy(&body)
        )
    });
    (code, v)
}

/// Sends `method path` with a JSON body and content type.
pub async fn send(
    server: &RunningServer,
    method: reqwest::Method,
    path: &str,
    content_type: &str,
    body: &str,
) -> (u16, Value) {
    let resp = client()
        .request(method, format!("{}{path}", server.url()))
        .header("content-type", content_type)
        .body(body.to_owned())
        .send()
        .await
        .expect("request");
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

/// Asserts `v` is a failure `Status` with this code and reason, returning its message.
pub fn assert_status(v: &Value, code: u16, reason: &str) -> String {
    assert_eq!(v["kind"], "Status", "{v}");
    assert_eq!(v["apiVersion"], "v1", "{v}");
    assert_eq!(v["metadata"], serde_json::json!({}), "{v}");
    assert_eq!(v["status"], "Failure", "{v}");
    assert_eq!(v["code"], code, "{v}");
    assert_eq!(v["reason"], reason, "{v}");
    v["message"].as_str().expect("message").to_owned()
}

pub fn name_of(v: &Value) -> &str {
    v["metadata"]["name"].as_str().unwrap_or_default()
}

pub fn rv_of(v: &Value) -> u64 {
    v["metadata"]["resourceVersion"]
        .as_str()
        .and_then(|s| s.parse().ok())
        .unwrap_or_else(|| panic!("no resourceVersion in {v}"))
}
