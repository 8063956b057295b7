//! Helpers: a plain HTTP client and a line reader for watch streams.

use std::time::Duration;

use serde_json::Value;
use test_apiserver::{RunningServer, TestApiServer};

/// Generous: only there so a broken server fails the test instead of hanging it.
pub const PATIENCE: Duration = Duration::from_secs(20);

pub fn client() -> reqwest::Client {
    let _ = rustls::crypto::ring::default_provider().install_default();
    reqwest::Client::builder()
        .no_proxy()
        .build()
        .expect("client")
}

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

pub fn name_of(v: &Value) -> &str {
    v["metadata"]["name"].as_str().unwrap_or_default()
}

pub fn rv_of(v: &Value) -> u64 {
    v["metadata"]["resourceVersion"]
        .as_str()
        .and_then(|s| s.parse().ok())
        .unwrap_or_else(|| panic!("no resourceVersion in {v}"))
}
