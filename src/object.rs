//! What the runtime caches: any object with `ObjectMeta`, and its store key.

use k8s_openapi::apimachinery::pkg::apis::meta::v1::ObjectMeta;
use serde::de::DeserializeOwned;
use serde::Serialize;

/// An object an informer can cache: it decodes from and encodes to JSON (the compact cache
/// keeps it encoded) and carries `ObjectMeta`.
///
/// Every k8s-openapi resource type (and every generated CRD type) implements it
/// through the blanket impl; dynamic and metadata-only objects implement it by hand.
pub trait Object: DeserializeOwned + Serialize + Send + Sync + 'static {
    /// The object's metadata.
    fn meta(&self) -> &ObjectMeta;
    /// The object's metadata, mutably (used by transforms).
    fn meta_mut(&mut self) -> &mut ObjectMeta;
}

impl<K> Object for K
where
    K: k8s_openapi::Metadata<Ty = ObjectMeta>
        + DeserializeOwned
        + Serialize
        + Send
        + Sync
        + 'static,
{
    fn meta(&self) -> &ObjectMeta {
        k8s_openapi::Metadata::metadata(self)
    }

    fn meta_mut(&mut self) -> &mut ObjectMeta {
        k8s_openapi::Metadata::metadata_mut(self)
    }
}

/// The store key of an object: `namespace/name`, or `name` when it has no namespace
/// (client-go's `MetaNamespaceKeyFunc`).
pub fn object_key<K: Object>(obj: &K) -> String {
    let meta = obj.meta();
    let name = meta.name.as_deref().unwrap_or_default();
    match meta.namespace.as_deref() {
        Some(ns) if !ns.is_empty() => {
            let mut key = String::with_capacity(ns.len() + 1 + name.len());
            key.push_str(ns);
            key.push('/');
            key.push_str(name);
            key
        }
        _ => name.to_owned(),
    }
}

/// A resource named by API group, version and plural resource name
/// (client-go's `schema.GroupVersionResource`). The core group is `""`.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
pub struct GroupVersionResource {
    /// API group, `""` for the core group.
    pub group: String,
    /// API version, e.g. `v1`.
    pub version: String,
    /// Plural resource name, e.g. `pods`.
    pub resource: String,
}

impl GroupVersionResource {
    /// A GVR from its three parts.
    pub fn new(group: &str, version: &str, resource: &str) -> Self {
        Self {
            group: group.to_owned(),
            version: version.to_owned(),
            resource: resource.to_owned(),
        }
    }
}

impl std::fmt::Display for GroupVersionResource {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if self.group.is_empty() {
            write!(f, "{}/{}", self.version, self.resource)
        } else {
            write!(f, "{}/{}/{}", self.group, self.version, self.resource)
        }
    }
}
