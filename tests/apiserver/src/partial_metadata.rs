//! `PartialObjectMetadata` content negotiation, as kube-apiserver does it: a list or watch
//! whose `Accept` asks for `application/json;as=PartialObjectMetadataList;g=meta.k8s.io;v=v1`
//! (lists) or `...;as=PartialObjectMetadata;...` (watches) gets objects reduced to
//! `{"kind":"PartialObjectMetadata","apiVersion":"meta.k8s.io/v1","metadata":{...}}`
//! inside a `PartialObjectMetadataList`.

use bytes::Bytes;
use serde_json::{json, Value};

use crate::resource::ResourceSpec;

/// The `as=` a list asks for.
pub(crate) const LIST: &str = "PartialObjectMetadataList";
/// The `as=` a watch (or get) asks for.
pub(crate) const OBJECT: &str = "PartialObjectMetadata";

/// True when the first media range of `accept` that this server can produce is JSON
/// `as=wanted` in `meta.k8s.io` `v1` or `v1beta1` (later ranges are fallbacks).
pub(crate) fn requested(accept: &str, wanted: &str) -> bool {
    for range in accept.split(',') {
        let mut parts = range.split(';').map(str::trim);
        let media = parts.next().unwrap_or_default();
        if media != "application/json" && media != "*/*" && media != "application/*" {
            continue;
        }
        let (mut as_, mut group, mut version) = (None, None, None);
        for param in parts {
            match param.split_once('=') {
                Some(("as", v)) => as_ = Some(v),
                Some(("g", v)) => group = Some(v),
                Some(("v", v)) => version = Some(v),
                _ => {}
            }
        }
        return match as_ {
            None => false,
            Some(a) => {
                a == wanted
                    && group == Some("meta.k8s.io")
                    && matches!(version, Some("v1") | Some("v1beta1"))
            }
        };
    }
    false
}

/// The spec whose kind, list kind and apiVersion reduced objects and lists carry.
pub(crate) fn spec(served: &ResourceSpec) -> ResourceSpec {
    ResourceSpec::new(
        "meta.k8s.io",
        "v1",
        OBJECT,
        &served.plural,
        served.namespaced,
    )
}

/// A stored object (`{...}` without kind/apiVersion) reduced to `{"metadata":{...}}`.
pub(crate) fn reduce(stored: &[u8]) -> Bytes {
    let metadata = serde_json::from_slice::<Value>(stored)
        .ok()
        .and_then(|mut v| v.get_mut("metadata").map(Value::take))
        .unwrap_or_else(|| json!({}));
    Bytes::from(json!({ "metadata": metadata }).to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_accept_like_kube_apiserver() {
        let list =
            "application/json;as=PartialObjectMetadataList;g=meta.k8s.io;v=v1,application/json";
        assert!(requested(list, LIST));
        assert!(!requested(list, OBJECT));
        assert!(requested(
            "application/json;as=PartialObjectMetadata;g=meta.k8s.io;v=v1beta1",
            OBJECT
        ));
        assert!(!requested("application/json", LIST));
        assert!(!requested(
            "application/json;as=Table;g=meta.k8s.io;v=v1,application/json",
            LIST
        ));
        assert!(requested(
            "application/vnd.kubernetes.protobuf;as=PartialObjectMetadataList;g=meta.k8s.io;v=v1,application/json;as=PartialObjectMetadataList;g=meta.k8s.io;v=v1",
            LIST
        ));
    }

    #[test]
    fn keeps_only_metadata() {
        let out = reduce(br#"{"metadata":{"name":"a","labels":{"x":"y"}},"spec":{"big":1}}"#);
        let v: Value = serde_json::from_slice(&out).unwrap();
        assert_eq!(v, json!({"metadata": {"name": "a", "labels": {"x": "y"}}}));
    }
}
