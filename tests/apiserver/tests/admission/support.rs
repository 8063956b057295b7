//! A plain HTTP client, a watch line reader and the expected `Status` bodies.

use std::time::Duration;

use serde_json::{json, Value};
use test_apiserver::RunningServer;

/// Generous: only there so a broken server fails the test instead of hanging it.
pub const PATIENCE: Duration = Duration::from_secs(20);

pub const JSON: &str = "application/json";
pub const MERGE: &str = "application/merge-patch+json";

fn client() -> reqwest::Client {
    // reqwest is built without a default TLS provider; plain HTTP still needs one chosen.
    let _ = rustls::crypto::ring::default_provider().install_default();
    reqwest::Client::builder()
        .no_proxy()
        .build()
        .expect("client")
}

/// Sends `method path` with `body` (JSON), returning the status code and the JSON answer.
pub async fn send(
    server: &RunningServer,
    method: reqwest::Method,
    path: &str,
    content_type: &str,
    body: &Value,
) -> (u16, Value) {
    let mut req = client().request(method, format!("{}{path}", server.url()));
    if !body.is_null() {
        req = req
            .header("content-type", content_type)
            .body(body.to_string());
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
    send(server, reqwest::Method::POST, path, JSON, body).await
}

pub async fn get(server: &RunningServer, path: &str) -> (u16, Value) {
    send(server, reqwest::Method::GET, path, JSON, &Value::Null).await
}

pub async fn delete(server: &RunningServer, path: &str) -> (u16, Value) {
    send(server, reqwest::Method::DELETE, path, JSON, &Value::Null).await
}

/// The `Status` kube-apiserver answers a failed request with.
pub fn failure(code: u16, reason: &str, message: &str, details: Value) -> Value {
    json!({
        "kind": "Status",
        "apiVersion": "v1",
        "metadata": {},
        "status": "Failure",
        "message": message,
        "reason": reason,
        "details": details,
        "code": code,
    })
}

/// A 422 `Invalid` for `kind "name"` (`group` empty for the core group) with these
/// `(reason, field, message)` causes; the message lists each distinct error once, in
/// brackets when there are several, as `ErrorList.ToAggregate` prints them.
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
        "kind": kind,
        "causes": causes
            .iter()
            .map(|(reason, field, msg)| json!({"reason": reason, "message": msg, "field": field}))
            .collect::<Vec<_>>(),
    });
    if !name.is_empty() {
        details["name"] = json!(name);
    }
    if !group.is_empty() {
        details["group"] = json!(group);
    }
    failure(
        422,
        "Invalid",
        &format!("{qualified} \"{name}\" is invalid: {list}"),
        details,
    )
}

/// A watch response read event by event.
pub struct Watch {
    resp: reqwest::Response,
    buf: Vec<u8>,
}

impl Watch {
    pub async fn open(server: &RunningServer, path: &str) -> Watch {
        let resp = client()
            .get(format!("{}{path}", server.url()))
            .send()
            .await
            .expect("watch request");
        assert_eq!(resp.status().as_u16(), 200, "{path}");
        Watch {
            resp,
            buf: Vec::new(),
        }
    }

    /// The next event that is not a BOOKMARK.
    pub async fn next(&mut self) -> Value {
        loop {
            if let Some(i) = self.buf.iter().position(|b| *b == b'\n') {
                let line: Vec<u8> = self.buf.drain(..=i).collect();
                let event: Value = serde_json::from_slice(&line[..i]).expect("a JSON event");
                if event["type"] != "BOOKMARK" {
                    return event;
                }
                continue;
            }
            match tokio::time::timeout(PATIENCE, self.resp.chunk()).await {
                Ok(Ok(Some(chunk))) => self.buf.extend_from_slice(&chunk),
                other => panic!("the watch ended or stalled: {other:?}"),
            }
        }
    }
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
