//! `continue` tokens in kube-apiserver's format: unpadded URL-safe base64 of
//! `{"v":"meta.k8s.io/v1","rv":N,"start":"<key>\u0000"}`, where N is the snapshot's
//! resourceVersion and the page resumes after `<key>`.

use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use base64::Engine;
use serde_json::{json, Value};

use crate::status::StatusError;

const VERSION: &str = "meta.k8s.io/v1";

/// A decoded `continue` token.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct ContinueToken {
    /// The resourceVersion of the list's snapshot.
    pub rv: u64,
    /// The key of the last item already returned.
    pub after: String,
}

impl ContinueToken {
    pub fn encode(&self) -> String {
        let start = format!("{}\u{0}", self.after);
        URL_SAFE_NO_PAD.encode(json!({"v": VERSION, "rv": self.rv, "start": start}).to_string())
    }

    /// Decodes a token, answering 400 like the real server for anything malformed.
    pub fn decode(token: &str) -> Result<Self, StatusError> {
        let invalid =
            |why: &str| StatusError::bad_request(format!("invalid continue token: {why}"));
        let raw = URL_SAFE_NO_PAD
            .decode(token.trim_end_matches('='))
            .map_err(|e| invalid(&format!("continue key is not valid: {e}")))?;
        let v: Value = serde_json::from_slice(&raw)
            .map_err(|e| invalid(&format!("continue key is not valid: {e}")))?;
        if v.get("v").and_then(Value::as_str) != Some(VERSION) {
            return Err(invalid(&format!(
                "continue key is not valid: server does not recognize this encoded version (want {VERSION})"
            )));
        }
        let rv = v
            .get("rv")
            .and_then(Value::as_u64)
            .filter(|rv| *rv > 0)
            .ok_or_else(|| invalid("continue key is not valid: incorrect encoded start resourceVersion (version meta.k8s.io/v1)"))?;
        let start = v
            .get("start")
            .and_then(Value::as_str)
            .filter(|s| !s.is_empty())
            .ok_or_else(|| invalid("continue key is not valid: encoded start key is empty"))?;
        Ok(Self {
            rv,
            after: start.trim_end_matches('\u{0}').to_owned(),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tokens_round_trip_and_garbage_is_rejected() {
        let t = ContinueToken {
            rv: 42,
            after: "ns-1/pod-7".into(),
        };
        assert_eq!(ContinueToken::decode(&t.encode()).unwrap(), t);
        for bad in ["%%%", "e30", "bm90LWpzb24"] {
            let e = ContinueToken::decode(bad).unwrap_err();
            assert_eq!((e.code, e.reason.as_str()), (400, "BadRequest"), "{bad}");
        }
    }
}
