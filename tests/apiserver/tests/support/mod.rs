//! What the HTTP suites share: a plain client, requests with JSON bodies answered with
//! their code, `Warning` headers and JSON body, the `Status` bodies kube-apiserver answers
//! failures with, and a watch stream reader. Each suite's `support.rs` includes this
//! module and adds the helpers of its own.

use std::time::Duration;

use reqwest::Method;
use serde_json::{json, Value};
use test_apiserver::RunningServer;

/// Generous: only there so a broken server fails the test instead of hanging it.
pub const PATIENCE: Duration = Duration::from_secs(20);

pub const JSON: &str = "application/json";
pub const MERGE: &str = "application/merge-patch+json";

pub fn client() -> reqwest::Client {
    // reqwest is built without a default TLS provider; plain HTTP still needs one chosen.
    let _ = rustls::crypto::ring::default_provider().install_default();
    reqwest::Client::builder()
        .no_proxy()
        .build()
        .expect("client")
}

/// An answer: status code, `Warning` header values, JSON body.
pub struct Reply {
    pub code: u16,
    pub warnings: Vec<String>,
    pub body: Value,
}

/// Sends `method path` with `body` as `content_type` (no body when none).
pub async fn call(
    server: &RunningServer,
    method: Method,
    path: &str,
    content_type: &str,
    body: Option<&Value>,
) -> Reply {
    let mut req = client().request(method, format!("{}{path}", server.url()));
    if let Some(b) = body {
        req = req.header("content-type", content_type).body(b.to_string());
    }
    let resp = req.send().await.expect("request");
    let code = resp.status().as_u16();
    let warnings = resp
        .headers()
        .get_all("warning")
        .iter()
        .map(|v| v.to_str().expect("ascii warning").to_owned())
        .collect();
    let bytes = resp.bytes().await.expect("body");
    let body = serde_json::from_slice(&bytes).unwrap_or_else(|e| {
        panic!(
            "{path}: body is not JSON ({e}): {}",
            String::from_utf8_lossy(&bytes)
        )
    });
    Reply {
        code,
        warnings,
        body,
    }
}

/// Sends `method path` with `body` as `content_type` (no body when null): the status
/// code and the JSON answer.
pub async fn send(
    server: &RunningServer,
    method: Method,
    path: &str,
    content_type: &str,
    body: &Value,
) -> (u16, Value) {
    let reply = call(
        server,
        method,
        path,
        content_type,
        (!body.is_null()).then_some(body),
    )
    .await;
    (reply.code, reply.body)
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
/// `(reason, field, message)` causes, as `errors.NewInvalid` makes it: the message lists
/// each distinct error once, in brackets when there are several, as
/// `ErrorList.ToAggregate` prints them.
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

/// How a watch stream went on.
#[derive(Debug)]
pub enum Next {
    Line(String),
    /// The server ended the stream cleanly.
    End,
    /// The body failed (connection cut).
    Broken,
}

/// A watch response read line by line.
pub struct Watch {
    resp: reqwest::Response,
    buf: Vec<u8>,
    pub status: u16,
}

impl Watch {
    /// Opens a watch, whatever the answer.
    pub async fn open(server: &RunningServer, path: &str) -> Watch {
        let resp = client()
            .get(format!("{}{path}", server.url()))
            .send()
            .await
            .expect("watch request");
        let status = resp.status().as_u16();
        Watch {
            resp,
            buf: Vec::new(),
            status,
        }
    }

    /// Opens a watch that must be answered 200.
    pub async fn open_ok(server: &RunningServer, path: &str) -> Watch {
        let w = Self::open(server, path).await;
        assert_eq!(w.status, 200, "{path}");
        w
    }

    pub async fn next_raw(&mut self) -> Next {
        loop {
            if let Some(i) = self.buf.iter().position(|b| *b == b'\n') {
                let line: Vec<u8> = self.buf.drain(..=i).collect();
                return Next::Line(String::from_utf8_lossy(&line[..i]).into_owned());
            }
            match tokio::time::timeout(PATIENCE, self.resp.chunk()).await {
                Err(_) => panic!("watch stream stalled for {PATIENCE:?}"),
                Ok(Ok(Some(chunk))) => self.buf.extend_from_slice(&chunk),
                Ok(Ok(None)) => {
                    assert!(
                        self.buf.is_empty(),
                        "stream ended inside a line: {:?}",
                        String::from_utf8_lossy(&self.buf)
                    );
                    return Next::End;
                }
                Ok(Err(_)) => return Next::Broken,
            }
        }
    }

    /// The next event, panicking on anything else.
    pub async fn next(&mut self) -> Value {
        match self.next_raw().await {
            Next::Line(l) => {
                serde_json::from_str(&l).unwrap_or_else(|e| panic!("bad line ({e}): {l}"))
            }
            other => panic!("expected an event, got {other:?}"),
        }
    }

    /// The next event that is not a BOOKMARK.
    pub async fn next_event(&mut self) -> Value {
        loop {
            let e = self.next().await;
            if e["type"] != "BOOKMARK" {
                return e;
            }
        }
    }

    /// Asserts the stream ends cleanly (skipping bookmarks).
    pub async fn assert_end(&mut self) {
        loop {
            match self.next_raw().await {
                Next::End => return,
                Next::Line(l) if l.contains("\"BOOKMARK\"") => {}
                other => panic!("expected the end of the stream, got {other:?}"),
            }
        }
    }
}
