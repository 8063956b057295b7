//! What the runtime caches: any object with metadata, and its store key.

use k8s_openapi::apimachinery::pkg::apis::meta::v1::{ObjectMeta, OwnerReference};
use serde::de::DeserializeOwned;
use serde::Serialize;

use crate::labels::Labels;

/// An object an informer can cache: it decodes from and encodes to JSON (the compact cache
/// keeps it encoded), can be copied (a transform edits its own copy of an object a
/// hand-written source still shares) and carries metadata the runtime can read through
/// [`Meta`].
///
/// Every k8s-openapi resource type (and every generated CRD type) implements it
/// through the blanket impl, with `ObjectMeta` as its [`Meta`](Object::Meta); dynamic and
/// metadata-only objects implement it by hand, and a projection (informer-runtime's
/// `projection` module) may carry a lighter metadata type such as its `ViewMeta`.
pub trait Object: DeserializeOwned + Serialize + Clone + Send + Sync + 'static {
    /// The type of the object's `metadata`: `ObjectMeta` for every full object.
    type Meta: Meta;
    /// The object's metadata.
    fn meta(&self) -> &Self::Meta;
    /// The object's metadata, mutably (used by transforms).
    fn meta_mut(&mut self) -> &mut Self::Meta;
}

impl<K> Object for K
where
    K: k8s_openapi::Metadata + DeserializeOwned + Serialize + Clone + Send + Sync + 'static,
    K::Ty: Meta,
{
    type Meta = K::Ty;

    fn meta(&self) -> &K::Ty {
        k8s_openapi::Metadata::metadata(self)
    }

    fn meta_mut(&mut self) -> &mut K::Ty {
        k8s_openapi::Metadata::metadata_mut(self)
    }
}

/// The metadata fields the runtime reads: the store key (`name`, `namespace`), label
/// indexes and selectors (`labels`), the reflector's position (`resourceVersion`), owner
/// lookups (`ownerReferences`) and the generation-changed filter (`generation`).
///
/// `ObjectMeta` implements it; so does informer-runtime's `projection::ViewMeta`, the
/// lighter metadata a projection may keep. A metadata type of your own implements the
/// fields it has: one without `ownerReferences` never maps to an owner, one without
/// `generation` looks unchanged to the controller kit's `GenerationChanged` filter.
///
/// ```
/// use std::collections::BTreeMap;
/// use informer_client::labels::Labels;
/// use informer_client::object::Meta;
///
/// /// Only what a controller of named, labelled objects needs.
/// #[derive(serde::Deserialize, serde::Serialize)]
/// #[serde(rename_all = "camelCase")]
/// struct NameAndLabels {
///     name: Option<String>,
///     namespace: Option<String>,
///     resource_version: Option<String>,
///     labels: Option<BTreeMap<String, String>>,
/// }
///
/// impl Meta for NameAndLabels {
///     fn name(&self) -> Option<&str> { self.name.as_deref() }
///     fn namespace(&self) -> Option<&str> { self.namespace.as_deref() }
///     fn resource_version(&self) -> Option<&str> { self.resource_version.as_deref() }
///     fn set_resource_version(&mut self, rv: Option<String>) { self.resource_version = rv; }
///     fn labels(&self) -> Labels<'_> { self.labels.as_ref().into() }
/// }
/// ```
pub trait Meta: Send + Sync + 'static {
    /// `metadata.name`.
    fn name(&self) -> Option<&str>;
    /// `metadata.namespace` (`None` or empty for cluster-scoped objects).
    fn namespace(&self) -> Option<&str>;
    /// `metadata.resourceVersion`.
    fn resource_version(&self) -> Option<&str>;
    /// Sets `metadata.resourceVersion` (the etcd backend stamps objects with revisions).
    fn set_resource_version(&mut self, resource_version: Option<String>);
    /// `metadata.labels` (empty when there are none).
    fn labels(&self) -> Labels<'_>;
    /// `metadata.generation`; `None` unless the type keeps it.
    fn generation(&self) -> Option<i64> {
        None
    }
    /// `metadata.uid`; `None` unless the type keeps it.
    fn uid(&self) -> Option<&str> {
        None
    }
    /// `metadata.ownerReferences`; empty unless the type keeps them.
    fn owner_references(&self) -> &[OwnerReference] {
        &[]
    }
    /// The whole `ObjectMeta`, when this is one: what dropping `managedFields` and a
    /// factory's metadata transform (informer-runtime's `FactoryBuilder::transform`)
    /// edit. A lighter type returns `None`, and both leave it alone (it never decoded the
    /// fields they would edit).
    fn as_object_meta_mut(&mut self) -> Option<&mut ObjectMeta> {
        None
    }
}

impl Meta for ObjectMeta {
    fn name(&self) -> Option<&str> {
        self.name.as_deref()
    }

    fn namespace(&self) -> Option<&str> {
        self.namespace.as_deref()
    }

    fn resource_version(&self) -> Option<&str> {
        self.resource_version.as_deref()
    }

    fn set_resource_version(&mut self, resource_version: Option<String>) {
        self.resource_version = resource_version;
    }

    fn labels(&self) -> Labels<'_> {
        self.labels.as_ref().into()
    }

    fn generation(&self) -> Option<i64> {
        self.generation
    }

    fn uid(&self) -> Option<&str> {
        self.uid.as_deref()
    }

    fn owner_references(&self) -> &[OwnerReference] {
        self.owner_references.as_deref().unwrap_or_default()
    }

    fn as_object_meta_mut(&mut self) -> Option<&mut ObjectMeta> {
        Some(self)
    }
}

/// The store key of an object: `namespace/name`, or `name` when it has no namespace
/// (client-go's `MetaNamespaceKeyFunc`).
pub fn object_key<K: Object>(obj: &K) -> String {
    let meta = obj.meta();
    let name = meta.name().unwrap_or_default();
    match meta.namespace() {
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
