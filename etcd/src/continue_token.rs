//! The opaque `continue` token of a paginated etcd list: the revision the first page was
//! read at, and the key (relative to the listed range) to resume after.

use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use base64::Engine;
use serde::{Deserialize, Serialize};

/// Where the next page of a list starts.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct ContinueToken {
    /// The etcd revision every page of the list is read at.
    pub revision: i64,
    /// The first key of the next page, relative to the start of the listed range.
    pub start: Vec<u8>,
}

/// The wire form, shaped like kube-apiserver's token (`v`, `rv`, `start`), except that the
/// key is base64 so that any byte string survives.
#[derive(Serialize, Deserialize)]
struct Wire {
    v: String,
    rv: i64,
    start: String,
}

const VERSION: &str = "meta.k8s.io/v1";

impl ContinueToken {
    /// The token resuming right after `last_key` (relative to the range start) at `revision`.
    pub fn after(revision: i64, last_key: &[u8]) -> Self {
        let mut start = last_key.to_vec();
        // The smallest key greater than `last_key`.
        start.push(0);
        Self { revision, start }
    }

    /// The token's text.
    pub fn encode(&self) -> String {
        let wire = Wire {
            v: VERSION.to_owned(),
            rv: self.revision,
            start: URL_SAFE_NO_PAD.encode(&self.start),
        };
        // Serializing a struct of strings and an integer cannot fail.
        let json = serde_json::to_vec(&wire).unwrap_or_default();
        URL_SAFE_NO_PAD.encode(json)
    }

    /// Parses a token; the error says what is wrong with it.
    pub fn decode(token: &str) -> Result<Self, String> {
        let json = URL_SAFE_NO_PAD
            .decode(token.trim_end_matches('='))
            .map_err(|e| format!("continue key is not valid base64: {e}"))?;
        let wire: Wire = serde_json::from_slice(&json)
            .map_err(|e| format!("continue key is not valid JSON: {e}"))?;
        if wire.v != VERSION {
            return Err(format!("continue key has unknown version {:?}", wire.v));
        }
        if wire.rv <= 0 {
            return Err(format!(
                "continue key has invalid resource version {}",
                wire.rv
            ));
        }
        let start = URL_SAFE_NO_PAD
            .decode(&wire.start)
            .map_err(|e| format!("continue key has an invalid start key: {e}"))?;
        if start.is_empty() {
            return Err("continue key has an empty start key".to_owned());
        }
        Ok(Self {
            revision: wire.rv,
            start,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trip() {
        let t = ContinueToken::after(42, b"ns/name");
        assert_eq!(t.start, b"ns/name\0");
        assert_eq!(ContinueToken::decode(&t.encode()).unwrap(), t);
    }

    #[test]
    fn rejects_garbage() {
        assert!(ContinueToken::decode("!!!").is_err());
        assert!(ContinueToken::decode(&URL_SAFE_NO_PAD.encode("{}")).is_err());
        let zero = URL_SAFE_NO_PAD.encode(r#"{"v":"meta.k8s.io/v1","rv":0,"start":"YQ"}"#);
        assert!(ContinueToken::decode(&zero).is_err());
        let other = URL_SAFE_NO_PAD.encode(r#"{"v":"x","rv":3,"start":"YQ"}"#);
        assert!(ContinueToken::decode(&other).is_err());
    }
}
