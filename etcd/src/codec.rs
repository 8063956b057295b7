//! How objects are turned into etcd values and back: the [`Codec`] trait and its JSON default.

use std::marker::PhantomData;

use serde::de::DeserializeOwned;
use serde::Serialize;

/// Why a value could not be encoded or decoded, as the codec reports it.
pub type CodecError = Box<dyn std::error::Error + Send + Sync>;

/// Encodes objects into etcd values and decodes them back.
///
/// The lister-watcher only decodes; the [`EtcdWriter`](super::EtcdWriter) also encodes.
/// A codec never sees `metadata.resourceVersion` as meaningful: the runtime sets it from
/// the key's `mod_revision` after decoding and clears it before encoding.
pub trait Codec<K>: Send + Sync + 'static {
    /// The bytes stored in etcd for `object`.
    fn encode(&self, object: &K) -> Result<Vec<u8>, CodecError>;
    /// The object stored as `value`.
    fn decode(&self, value: &[u8]) -> Result<K, CodecError>;
}

/// The default codec: `serde_json`, the same JSON the API server speaks.
pub struct JsonCodec<K> {
    _k: PhantomData<fn() -> K>,
}

impl<K> JsonCodec<K> {
    /// The JSON codec.
    pub fn new() -> Self {
        Self { _k: PhantomData }
    }
}

impl<K> Default for JsonCodec<K> {
    fn default() -> Self {
        Self::new()
    }
}

impl<K> Clone for JsonCodec<K> {
    fn clone(&self) -> Self {
        Self::new()
    }
}

impl<K> std::fmt::Debug for JsonCodec<K> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("JsonCodec")
    }
}

impl<K: Serialize + DeserializeOwned + 'static> Codec<K> for JsonCodec<K> {
    fn encode(&self, object: &K) -> Result<Vec<u8>, CodecError> {
        Ok(serde_json::to_vec(object)?)
    }

    fn decode(&self, value: &[u8]) -> Result<K, CodecError> {
        Ok(serde_json::from_slice(value)?)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use k8s_openapi::api::core::v1::ConfigMap;
    use k8s_openapi::apimachinery::pkg::apis::meta::v1::ObjectMeta;

    #[test]
    fn json_round_trips_and_rejects_garbage() {
        let codec = JsonCodec::<ConfigMap>::new();
        let cm = ConfigMap {
            metadata: ObjectMeta {
                name: Some("a".into()),
                ..Default::default()
            },
            ..Default::default()
        };
        let bytes = codec.encode(&cm).unwrap();
        assert_eq!(codec.decode(&bytes).unwrap(), cm);
        assert!(codec.decode(b"k8s\0\x0a\x02v1").is_err());
    }
}
