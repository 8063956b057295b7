//! Wire forms written from stored bytes: objects with `kind`/`apiVersion`, list
//! envelopes and watch event lines.

use bytes::{BufMut, Bytes, BytesMut};
use informer_selectors::shard::ShardSelector;
use serde_json::json;

use crate::resource::ResourceSpec;

/// `{"kind":"Pod","apiVersion":"v1"`: spliced before a stored object's fields.
pub(crate) fn type_prefix(spec: &ResourceSpec) -> String {
    format!(
        "{{\"kind\":{},\"apiVersion\":{}",
        json!(spec.kind),
        json!(spec.api_version())
    )
}

/// Appends the stored object (`{...}` without kind/apiVersion) with `prefix` spliced in.
pub(crate) fn put_typed(buf: &mut BytesMut, prefix: &str, stored: &[u8]) {
    buf.put_slice(prefix.as_bytes());
    let rest = stored.get(1..).unwrap_or(b"}");
    if rest.first().is_some_and(|c| *c != b'}') {
        buf.put_u8(b',');
    }
    buf.put_slice(rest);
}

/// The object as a GET returns it.
pub(crate) fn typed_object(spec: &ResourceSpec, stored: &[u8]) -> Bytes {
    let prefix = type_prefix(spec);
    let mut buf = BytesMut::with_capacity(prefix.len() + stored.len() + 1);
    put_typed(&mut buf, &prefix, stored);
    buf.freeze()
}

/// Appends one watch event line.
pub(crate) fn put_event(buf: &mut BytesMut, event_type: &str, prefix: &str, stored: &[u8]) {
    buf.put_slice(b"{\"type\":\"");
    buf.put_slice(event_type.as_bytes());
    buf.put_slice(b"\",\"object\":");
    put_typed(buf, prefix, stored);
    buf.put_slice(b"}\n");
}

/// A BOOKMARK line: the object has only kind, apiVersion and metadata.resourceVersion
/// (plus the `k8s.io/initial-events-end` annotation that ends a streaming list's initial events).
pub(crate) fn bookmark_line(spec: &ResourceSpec, rv: u64, initial_events_end: bool) -> Bytes {
    let mut metadata = json!({"resourceVersion": rv.to_string()});
    if initial_events_end {
        metadata["annotations"] = json!({"k8s.io/initial-events-end": "true"});
    }
    let line = json!({
        "type": "BOOKMARK",
        "object": {"kind": spec.kind, "apiVersion": spec.api_version(), "metadata": metadata},
    });
    Bytes::from(format!("{line}\n"))
}

/// `{"kind":"PodList","apiVersion":"v1","metadata":{...},"items":[`.
pub(crate) fn list_head(
    spec: &ResourceSpec,
    rv: u64,
    continue_token: Option<&str>,
    remaining: Option<u64>,
    shard: Option<&ShardSelector>,
) -> String {
    format!(
        "{{\"kind\":{},\"apiVersion\":{},\"metadata\":{},\"items\":[",
        json!(spec.list_kind),
        json!(spec.api_version()),
        list_metadata(rv, continue_token, remaining, shard)
    )
}

/// A list's `metadata` (`ListMeta`), the same in JSON and protobuf answers.
pub(crate) fn list_metadata(
    rv: u64,
    continue_token: Option<&str>,
    remaining: Option<u64>,
    shard: Option<&ShardSelector>,
) -> serde_json::Value {
    let mut metadata = json!({"resourceVersion": rv.to_string()});
    if let Some(token) = continue_token {
        metadata["continue"] = json!(token);
    }
    if let Some(n) = remaining {
        metadata["remainingItemCount"] = json!(n);
    }
    if let Some(selector) = shard {
        metadata["shardInfo"] = json!({"selector": selector.to_string()});
    }
    metadata
}
