//! kube-apiserver's protobuf (`application/vnd.kubernetes.protobuf`), negotiated per request.
//!
//! The client asks for protobuf with JSON as the fallback (client-go's
//! `ContentType`/`AcceptContentTypes` for built-in resources) and decodes whichever the
//! server answers. It cannot decode protobuf itself: the decoders are generated per
//! Kubernetes version by `informer-gen` (crate `informer-protobuf`), which reads clusters
//! through this client, so a layer above hands them in as a [`ProtobufDecoders`] value
//! ([`Api::with_protobuf`](crate::Api::with_protobuf)). Custom resources are never served as
//! protobuf, and the JSON fallback keeps the same request working against any server.

use k8s_openapi::apimachinery::pkg::apis::meta::v1::ListMeta;

use crate::error::BoxError;
use crate::watch_event::WatchEvent;

/// The protobuf media type.
pub const MEDIA_TYPE: &str = "application/vnd.kubernetes.protobuf";

/// The `Accept` of a request that prefers protobuf: protobuf first, JSON if the server
/// cannot (client-go sends the same for built-ins).
pub const ACCEPT: &str = "application/vnd.kubernetes.protobuf, application/json";

/// Decodes one protobuf body; `keep_managed_fields` false skips `metadata.managedFields`
/// without building it.
pub type DecodeFn<T> = fn(body: &[u8], keep_managed_fields: bool) -> Result<T, BoxError>;

/// The protobuf decoders of one object type, from a layer that has them (informer-runtime
/// builds them from informer-protobuf's generated decoders).
pub struct ProtobufDecoders<K> {
    /// A whole object body (`k8s\0` and its `runtime.Unknown` envelope).
    pub object: DecodeFn<K>,
    /// A whole list body: its metadata and items. The client decodes a list's items with
    /// `item` as they arrive, and the rest of the body (its metadata) with this decoder once
    /// they are cut out; a body the client's scan did not expect is read whole with it, so
    /// that its error names the field and byte.
    pub list: DecodeFn<(ListMeta, Vec<K>)>,
    /// One item of a list: the bytes of an `XxxList`'s `items` entry (a message, without
    /// an envelope).
    pub item: DecodeFn<K>,
    /// One watch frame's payload (a `meta.v1.WatchEvent`, without the frame's length).
    pub event: DecodeFn<WatchEvent<K>>,
}

impl<K> Clone for ProtobufDecoders<K> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<K> Copy for ProtobufDecoders<K> {}

impl<K> std::fmt::Debug for ProtobufDecoders<K> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_tuple("ProtobufDecoders")
            .field(&std::any::type_name::<K>())
            .finish()
    }
}

/// Whether a `Content-Type` names protobuf (parameters such as `;stream=watch` aside).
pub(crate) fn is_protobuf(content_type: Option<&http::HeaderValue>) -> bool {
    content_type
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.split(';').next())
        .is_some_and(|media| media.trim().eq_ignore_ascii_case(MEDIA_TYPE))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn content_types() {
        let v = |s: &'static str| http::HeaderValue::from_static(s);
        assert!(is_protobuf(Some(&v("application/vnd.kubernetes.protobuf"))));
        assert!(is_protobuf(Some(&v(
            "application/vnd.kubernetes.protobuf;stream=watch"
        ))));
        assert!(!is_protobuf(Some(&v("application/json"))));
        assert!(!is_protobuf(None));
    }
}
