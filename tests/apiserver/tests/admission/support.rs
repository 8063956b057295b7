//! The shared helpers ([`shared`]), short requests and watch events by name.

use serde_json::Value;
use test_apiserver::RunningServer;

#[allow(dead_code)] // Each suite uses a part of the shared helpers.
#[path = "../support/mod.rs"]
mod shared;

pub use shared::*;

pub async fn post(server: &RunningServer, path: &str, body: &Value) -> (u16, Value) {
    send(server, reqwest::Method::POST, path, JSON, body).await
}

pub async fn get(server: &RunningServer, path: &str) -> (u16, Value) {
    send(server, reqwest::Method::GET, path, JSON, &Value::Null).await
}

pub async fn delete(server: &RunningServer, path: &str) -> (u16, Value) {
    send(server, reqwest::Method::DELETE, path, JSON, &Value::Null).await
}

/// `(type, name)` of an event.
pub fn event_of(e: &Value) -> (String, String) {
    (
        e["type"].as_str().unwrap_or_default().to_owned(),
        e["object"]["metadata"]["name"]
            .as_str()
            .unwrap_or_default()
            .to_owned(),
    )
}
