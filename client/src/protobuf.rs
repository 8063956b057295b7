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
    /// A whole list body: its metadata and items.
    pub list: DecodeFn<(ListMeta, Vec<K>)>,
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

/// Splits a protobuf watch body into its frames: each a 4-byte big-endian length and that
/// many bytes. A length over the limit is refused before anything is buffered for it.
#[derive(Debug, Default)]
pub(crate) struct FrameSplitter {
    buffer: Vec<u8>,
    /// Bytes of `buffer` already handed out.
    consumed: usize,
}

/// A frame longer than the limit.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct FrameTooLarge(pub(crate) u64);

impl FrameSplitter {
    /// Appends what the body gave.
    pub(crate) fn push(&mut self, bytes: &[u8]) {
        if self.consumed > 0 && self.consumed == self.buffer.len() {
            self.buffer.clear();
            self.consumed = 0;
        }
        self.buffer.extend_from_slice(bytes);
    }

    /// The next whole frame's payload, if it has arrived.
    pub(crate) fn next_frame(&mut self, max: usize) -> Result<Option<Vec<u8>>, FrameTooLarge> {
        let pending = &self.buffer[self.consumed..];
        let Some(header) = pending.get(..4) else {
            return Ok(None);
        };
        let mut length = [0u8; 4];
        length.copy_from_slice(header);
        let length = u32::from_be_bytes(length);
        let len = usize::try_from(length).unwrap_or(usize::MAX);
        if len > max {
            return Err(FrameTooLarge(u64::from(length)));
        }
        let Some(payload) = pending.get(4..4 + len) else {
            return Ok(None);
        };
        let frame = payload.to_vec();
        self.consumed += 4 + len;
        if self.consumed == self.buffer.len() {
            self.buffer.clear();
            self.consumed = 0;
        }
        Ok(Some(frame))
    }

    /// Whether part of a frame is left over.
    pub(crate) fn has_partial(&self) -> bool {
        self.consumed < self.buffer.len()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn framed(payloads: &[&[u8]]) -> Vec<u8> {
        let mut out = Vec::new();
        for p in payloads {
            out.extend_from_slice(&u32::try_from(p.len()).unwrap().to_be_bytes());
            out.extend_from_slice(p);
        }
        out
    }

    #[test]
    fn frames_arrive_whole_however_the_body_is_cut() {
        let body = framed(&[b"one", b"", b"three!"]);
        for cut in 1..body.len() {
            let mut splitter = FrameSplitter::default();
            let mut frames = Vec::new();
            for chunk in body.chunks(cut) {
                splitter.push(chunk);
                while let Some(frame) = splitter.next_frame(16).unwrap() {
                    frames.push(frame);
                }
            }
            assert_eq!(frames, [b"one".to_vec(), Vec::new(), b"three!".to_vec()]);
            assert!(!splitter.has_partial());
        }
    }

    #[test]
    fn an_oversized_length_is_refused_before_buffering() {
        let mut splitter = FrameSplitter::default();
        splitter.push(&u32::MAX.to_be_bytes());
        assert_eq!(
            splitter.next_frame(1024),
            Err(FrameTooLarge(u64::from(u32::MAX)))
        );
        let mut splitter = FrameSplitter::default();
        splitter.push(&[0, 0, 0, 9, 1]);
        assert_eq!(splitter.next_frame(1024), Ok(None));
        assert!(splitter.has_partial());
    }

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
