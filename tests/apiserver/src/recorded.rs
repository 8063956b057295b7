//! The requests a server received, newest last, so tests can check what a client sent
//! (method, path, query parameters, content type) even when the server refused it.

use std::collections::VecDeque;
use std::sync::Mutex;

/// Requests kept; older ones are forgotten.
const KEPT: usize = 1_000;

/// One request as it arrived.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RecordedRequest {
    /// `GET`, `PATCH`, ...
    pub method: String,
    /// The path, e.g. `/api/v1/namespaces/ns/pods/p`.
    pub path: String,
    /// The decoded query parameters, in order.
    pub query: Vec<(String, String)>,
    /// The `Content-Type` header, when sent.
    pub content_type: Option<String>,
    /// The `Accept` header, when sent.
    pub accept: Option<String>,
}

impl RecordedRequest {
    /// The last value of query parameter `name`.
    pub fn param(&self, name: &str) -> Option<&str> {
        self.query
            .iter()
            .rev()
            .find(|(k, _)| k == name)
            .map(|(_, v)| v.as_str())
    }
}

/// The last [`KEPT`] requests.
#[derive(Default)]
pub(crate) struct Recorder {
    requests: Mutex<VecDeque<RecordedRequest>>,
}

impl Recorder {
    pub fn record(&self, request: RecordedRequest) {
        let mut q = self.requests.lock().unwrap_or_else(|p| p.into_inner());
        if q.len() == KEPT {
            q.pop_front();
        }
        q.push_back(request);
    }

    pub fn all(&self) -> Vec<RecordedRequest> {
        self.requests
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .iter()
            .cloned()
            .collect()
    }
}
