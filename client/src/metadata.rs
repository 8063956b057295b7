//! `PartialObjectMeta<K>`: the metadata of an object, all an informer of
//! `PartialObjectMetadata` caches.

use std::marker::PhantomData;

use k8s_openapi::apimachinery::pkg::apis::meta::v1::ObjectMeta;
use serde::{Deserialize, Serialize};

use crate::object::Object;

/// The `kind` the server gives objects it reduced to metadata.
pub const PARTIAL_OBJECT_METADATA: &str = "PartialObjectMetadata";

/// The `Accept` of metadata-only lists: a `PartialObjectMetadataList`, else plain JSON
/// (see [`Api::with_accept`](crate::Api::with_accept)).
pub const LIST_ACCEPT: &str =
    "application/json;as=PartialObjectMetadataList;g=meta.k8s.io;v=v1,application/json";

/// The `Accept` of metadata-only watches: `PartialObjectMetadata` event objects, else plain
/// JSON.
pub const WATCH_ACCEPT: &str =
    "application/json;as=PartialObjectMetadata;g=meta.k8s.io;v=v1,application/json";

/// Marks a [`PartialObjectMeta`] whose resource is known only at run time.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Untyped {}

/// Only the metadata of an object of resource `K` (client-go's `PartialObjectMetadata`),
/// with the resource's `apiVersion` and `kind` (e.g. `v1`, `Pod`).
///
/// Decoding ignores every field but `apiVersion`, `kind` and `metadata`, so a full object
/// (from a server that ignored the `as=PartialObjectMetadata` request) is reduced to its
/// metadata while it is read, never held whole.
#[derive(Serialize, Deserialize)]
#[serde(rename_all = "camelCase", bound = "")]
pub struct PartialObjectMeta<K = Untyped> {
    /// The resource's `apiVersion`, e.g. `v1`.
    #[serde(default)]
    pub api_version: String,
    /// The resource's `kind`, e.g. `Pod`.
    #[serde(default)]
    pub kind: String,
    /// The object's metadata.
    #[serde(default)]
    pub metadata: ObjectMeta,
    #[serde(skip)]
    resource: PhantomData<fn() -> K>,
}

/// The metadata of an object of a resource known only at run time.
pub type PartialObjectMetadata = PartialObjectMeta<Untyped>;

impl<K> PartialObjectMeta<K> {
    /// Metadata of an object of `api_version`/`kind`.
    pub fn new(api_version: &str, kind: &str, metadata: ObjectMeta) -> Self {
        Self {
            api_version: api_version.to_owned(),
            kind: kind.to_owned(),
            metadata,
            resource: PhantomData,
        }
    }
}

impl<K> Clone for PartialObjectMeta<K> {
    fn clone(&self) -> Self {
        Self::new(&self.api_version, &self.kind, self.metadata.clone())
    }
}

impl<K> std::fmt::Debug for PartialObjectMeta<K> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("PartialObjectMeta")
            .field("api_version", &self.api_version)
            .field("kind", &self.kind)
            .field("metadata", &self.metadata)
            .finish()
    }
}

impl<K> PartialEq for PartialObjectMeta<K> {
    fn eq(&self, other: &Self) -> bool {
        self.api_version == other.api_version
            && self.kind == other.kind
            && self.metadata == other.metadata
    }
}

impl<K: 'static> Object for PartialObjectMeta<K> {
    type Meta = ObjectMeta;

    fn meta(&self) -> &ObjectMeta {
        &self.metadata
    }

    fn meta_mut(&mut self) -> &mut ObjectMeta {
        &mut self.metadata
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use k8s_openapi::api::core::v1::Pod;

    #[test]
    fn decodes_server_reduced_item() {
        let item = br#"{"kind":"PartialObjectMetadata","apiVersion":"meta.k8s.io/v1",
            "metadata":{"name":"web-0","namespace":"shop","labels":{"tier":"web"}}}"#;
        let m: PartialObjectMeta<Pod> = serde_json::from_slice(item).unwrap();
        assert_eq!(m.kind, PARTIAL_OBJECT_METADATA);
        assert_eq!(m.metadata.labels.unwrap()["tier"], "web");
    }

    #[test]
    fn reduces_a_full_object_while_decoding() {
        let item = br#"{"metadata":{"name":"web-0","namespace":"shop"},
            "spec":{"containers":[{"name":"app","image":"nginx"}]},"status":{"phase":"Running"}}"#;
        let m: PartialObjectMetadata = serde_json::from_slice(item).unwrap();
        assert!(m.kind.is_empty());
        assert_eq!(m.metadata.name.as_deref(), Some("web-0"));
        let back = serde_json::to_value(&m).unwrap();
        assert!(back.get("spec").is_none());
    }
}
