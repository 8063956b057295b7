//! Typed projections: informers that decode, cache and index only the fields a controller
//! reads.
//!
//! A projection is a struct of your own with just the fields you need, any nesting,
//! k8s-openapi sub-types allowed, plus `metadata`: a whole `ObjectMeta`, the lighter
//! [`ViewMeta`] (the fields the runtime reads), or a type of yours implementing
//! [`Meta`]. One [`projection!`](crate::projection!)
//! line says which resource it projects; a generated accessor's `projected::<View>()` then
//! gives a shared informer that decodes list and watch bytes straight into the view (serde
//! skips every other field while parsing, so no full object is ever built), caches and
//! indexes it, and hands `Arc<View>` to handlers and listers. Namespace and label indexes,
//! label and field selectors, the factory's namespace and `tweak_list_options`, transforms
//! and the compact cache all work as for full objects. Dropping `managedFields` and the
//! factory's metadata transform edit a view's `ObjectMeta`; a lighter metadata type never
//! decodes what they would edit, and they leave it alone.
//!
//! ```
//! use informer_runtime::k8s_openapi::api::core::v1::Pod;
//! use informer_runtime::projection::{Projection, ViewMeta};
//! use serde::{Deserialize, Serialize};
//!
//! /// The fields of a Pod a scheduler-side controller reads.
//! #[derive(Clone, Debug, Default, Deserialize, Serialize)]
//! struct PodView {
//!     #[serde(default)]
//!     metadata: ViewMeta,
//!     spec: Option<PodViewSpec>,
//!     status: Option<PodViewStatus>,
//! }
//!
//! #[derive(Clone, Debug, Default, Deserialize, Serialize)]
//! struct PodViewSpec {
//!     #[serde(rename = "nodeName")]
//!     node_name: Option<String>,
//!     #[serde(default)]
//!     containers: Vec<ContainerImage>,
//! }
//!
//! #[derive(Clone, Debug, Default, Deserialize, Serialize)]
//! struct ContainerImage {
//!     image: Option<String>,
//! }
//!
//! #[derive(Clone, Debug, Default, Deserialize, Serialize)]
//! struct PodViewStatus {
//!     phase: Option<String>,
//! }
//!
//! // Group, version, kind, plural and scope come from Pod; `metadata` is a `ViewMeta`.
//! informer_runtime::projection!(PodView => Pod, metadata: ViewMeta);
//!
//! fn projects<V: Projection<Of = Pod>>() {}
//! projects::<PodView>();
//!
//! // With a generated factory (the `informers` crate, or your CRDs'):
//! // let pods = factory.core().v1().pods().projected::<PodView>();
//! // let web: Vec<Arc<PodView>> = pods.lister().list(&"app=web".parse()?);
//! ```

use informer_client::protobuf::ProtobufDecoders;
use k8s_openapi::apimachinery::pkg::apis::meta::v1::OwnerReference;
use serde::{Deserialize, Serialize};

use crate::client::Client;
use crate::informer::SharedIndexInformer;
use crate::labels::{CompactLabels, Labels};
use crate::lister::Lister;
use crate::lister_watcher::ListWatch;
use crate::object::{Meta, Object};
use crate::source::{typed, ApiScope, Cached, InformerSource, Typed};

/// A view of the resource [`Of`](Projection::Of): a struct with the fields a controller
/// reads and `metadata`, listed and watched at `Of`'s path and decoded straight into the
/// view. Implement it with [`projection!`](crate::projection!), which also implements
/// k8s-openapi's `Resource`, `ListableResource` and `Metadata` for the view by taking
/// group, version, kind, plural and scope from `Of`.
pub trait Projection:
    Object + k8s_openapi::ListableResource<Scope: ApiScope> + k8s_openapi::Metadata
{
    /// The resource this view projects, e.g. `k8s_openapi::api::core::v1::Pod`.
    type Of: k8s_openapi::ListableResource;
}

/// Declares `View` a [`Projection`] of the resource `Of`:
/// `informer_runtime::projection!(PodView => k8s_openapi::api::core::v1::Pod);` for a view
/// whose `metadata` is a whole `ObjectMeta`, or
/// `informer_runtime::projection!(PodView => Pod, metadata: ViewMeta);` for one that keeps
/// a lighter metadata type: [`ViewMeta`], or any type of yours implementing
/// [`Meta`](crate::object::Meta).
///
/// `View` must derive `Clone` and serde's `Deserialize` and `Serialize` (see
/// [`Object`](crate::Object)) and have a field `metadata` of that type; every other field is up to
/// you. The macro implements k8s-openapi's `Resource` and `ListableResource` for `View`
/// with `Of`'s group, version, kind, plural and scope, `Metadata` through the `metadata`
/// field, and [`Projection`] with `Of` as its resource. See the [module docs](mod@crate::projection).
///
/// ```
/// use informer_runtime::k8s_openapi::api::apps::v1::Deployment;
/// use informer_runtime::k8s_openapi::apimachinery::pkg::apis::meta::v1::ObjectMeta;
/// use informer_runtime::k8s_openapi::Resource;
///
/// #[derive(Clone, serde::Deserialize, serde::Serialize)]
/// struct DeploymentReplicas {
///     #[serde(default)]
///     metadata: ObjectMeta,
///     spec: Option<Replicas>,
/// }
///
/// #[derive(Clone, serde::Deserialize, serde::Serialize)]
/// struct Replicas {
///     replicas: Option<i32>,
/// }
///
/// informer_runtime::projection!(DeploymentReplicas => Deployment);
/// assert_eq!(DeploymentReplicas::URL_PATH_SEGMENT, "deployments");
/// assert_eq!(DeploymentReplicas::API_VERSION, "apps/v1");
/// ```
///
/// A view must keep `metadata`:
///
/// ```compile_fail,E0609
/// # use informer_runtime::k8s_openapi::api::apps::v1::Deployment;
/// #[derive(Clone, serde::Deserialize, serde::Serialize)]
/// struct Replicas {
///     replicas: Option<i32>,
/// }
///
/// informer_runtime::projection!(Replicas => Deployment);
/// ```
#[macro_export]
macro_rules! projection {
    ($view:ty => $of:ty $(,)?) => {
        $crate::projection!(
            $view => $of,
            metadata: $crate::k8s_openapi::apimachinery::pkg::apis::meta::v1::ObjectMeta
        );
    };
    ($view:ty => $of:ty, metadata: $meta:ty $(,)?) => {
        impl $crate::k8s_openapi::Resource for $view {
            const API_VERSION: &'static str = <$of as $crate::k8s_openapi::Resource>::API_VERSION;
            const GROUP: &'static str = <$of as $crate::k8s_openapi::Resource>::GROUP;
            const KIND: &'static str = <$of as $crate::k8s_openapi::Resource>::KIND;
            const VERSION: &'static str = <$of as $crate::k8s_openapi::Resource>::VERSION;
            const URL_PATH_SEGMENT: &'static str =
                <$of as $crate::k8s_openapi::Resource>::URL_PATH_SEGMENT;
            type Scope = <$of as $crate::k8s_openapi::Resource>::Scope;
        }

        impl $crate::k8s_openapi::ListableResource for $view {
            const LIST_KIND: &'static str =
                <$of as $crate::k8s_openapi::ListableResource>::LIST_KIND;
        }

        impl $crate::k8s_openapi::Metadata for $view {
            type Ty = $meta;

            fn metadata(&self) -> &Self::Ty {
                &self.metadata
            }

            fn metadata_mut(&mut self) -> &mut Self::Ty {
                &mut self.metadata
            }
        }

        impl $crate::projection::Projection for $view {
            type Of = $of;
        }
    };
}

/// The metadata fields every part of the runtime reads, and nothing else: what a
/// projection keeps when a whole `ObjectMeta` would be most of its size.
///
/// A whole `ObjectMeta` is 360 bytes before any field is set, holds labels in a `BTreeMap`
/// (room for 11 entries from the first), and decodes annotations, uid, timestamps and
/// finalizers a view may never read. `ViewMeta` keeps name,
/// namespace, resourceVersion and generation (the store key, the reflector's position,
/// the controller kit's `GenerationChanged`), labels (label indexes
/// and selectors; held as [`CompactLabels`]) and ownerReferences (its `enqueue_owner`).
/// Every other metadata field is skipped while decoding. A view that needs one more
/// (uid, annotations, deletionTimestamp) keeps `ObjectMeta`, or a type of its own that
/// implements [`Meta`].
///
/// ```
/// use informer_runtime::k8s_openapi::api::core::v1::Pod;
/// use informer_runtime::projection::ViewMeta;
/// use informer_runtime::Meta;
///
/// #[derive(Clone, serde::Deserialize, serde::Serialize)]
/// struct PodPhase {
///     metadata: ViewMeta,
///     status: Option<Phase>,
/// }
///
/// #[derive(Clone, serde::Deserialize, serde::Serialize)]
/// struct Phase {
///     phase: Option<String>,
/// }
///
/// informer_runtime::projection!(PodPhase => Pod, metadata: ViewMeta);
///
/// let pod: PodPhase = serde_json::from_str(
///     r#"{"metadata": {"name": "web-0", "namespace": "shop", "uid": "skipped",
///         "labels": {"app": "web"}, "annotations": {"skipped": "too"}},
///         "status": {"phase": "Running"}}"#,
/// )?;
/// assert_eq!(pod.metadata.name(), Some("web-0"));
/// assert_eq!(pod.metadata.labels.get("app"), Some("web"));
/// # Ok::<(), serde_json::Error>(())
/// ```
#[derive(Clone, Debug, Default, PartialEq, Deserialize, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ViewMeta {
    /// `metadata.name`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    /// `metadata.namespace`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub namespace: Option<String>,
    /// `metadata.resourceVersion`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub resource_version: Option<String>,
    /// `metadata.generation`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub generation: Option<i64>,
    /// `metadata.labels`, held compactly.
    #[serde(default, skip_serializing_if = "CompactLabels::is_empty")]
    pub labels: CompactLabels,
    /// `metadata.ownerReferences`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub owner_references: Option<Vec<OwnerReference>>,
}

impl Meta for ViewMeta {
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
        self.labels.as_labels()
    }

    fn generation(&self) -> Option<i64> {
        self.generation
    }

    fn owner_references(&self) -> &[OwnerReference] {
        self.owner_references.as_deref().unwrap_or_default()
    }
}

/// The shared informer of a projection `V` in a factory, and a lister over its cache: what a
/// generated accessor's `projected::<V>()` returns (`factory.core().v1().pods().projected::<PodView>()`).
/// One informer per view type in a factory, beside (never instead of) the full type's.
pub struct ProjectedInformer<V> {
    informer: SharedIndexInformer<V>,
}

impl<V> Clone for ProjectedInformer<V> {
    fn clone(&self) -> Self {
        Self {
            informer: self.informer.clone(),
        }
    }
}

impl<V: Projection> std::fmt::Debug for ProjectedInformer<V> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ProjectedInformer")
            .field("informer", &self.informer)
            .finish()
    }
}

impl<V: Projection> ProjectedInformer<V> {
    /// Wraps the factory's informer of `V`.
    pub fn new(informer: SharedIndexInformer<V>) -> Self {
        Self { informer }
    }

    /// The factory's shared informer of `V`.
    pub fn informer(&self) -> SharedIndexInformer<V> {
        self.informer.clone()
    }

    /// A lister reading the shared informer's cache: `list(&selector)`,
    /// `namespaced(ns).get(name)`, each an `Arc<V>`.
    pub fn lister(&self) -> Lister<V> {
        Lister::new(self.informer.indexer())
    }
}

/// The source of a projection `V` ([`InformerSource`]): listed and watched at the
/// projected resource's path, decoding into the view, one informer per view type in a
/// factory, named after the resource and the view (e.g. `core/v1/pods as my_crate::PodView`)
/// so errors and metrics tell it from the full one. [`Projected::protobuf`] reads
/// kube-apiserver's protobuf, as generated accessors' `projected` does for built-ins.
pub struct Projected<V> {
    protobuf: Option<ProtobufDecoders<Cached<V>>>,
}

impl<V> Projected<V> {
    /// The source of the projection `V`, listed and watched as JSON.
    pub fn new() -> Self {
        Self { protobuf: None }
    }
}

impl<V: Projection> Projected<V>
where
    V::Of: informer_protobuf::view::Described,
{
    /// The source of the projection `V` of a type informer-protobuf decodes, listed and
    /// watched as protobuf where the server answers it (JSON otherwise), decoding only the
    /// fields `V` names.
    pub fn protobuf() -> Self {
        Self {
            protobuf: Some(crate::protobuf::cached_view_decoders::<V, V::Of>()),
        }
    }
}

impl<V> Default for Projected<V> {
    fn default() -> Self {
        Self::new()
    }
}

impl<V> Clone for Projected<V> {
    fn clone(&self) -> Self {
        Self {
            protobuf: self.protobuf,
        }
    }
}

impl<V> std::fmt::Debug for Projected<V> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Projected")
            .field("view", &std::any::type_name::<V>())
            .field("protobuf", &self.protobuf.is_some())
            .finish()
    }
}

impl<V: Projection> InformerSource<V> for Projected<V> {
    fn informer_name(&self) -> String {
        format!(
            "{} as {}",
            typed::<V>().informer_name(),
            std::any::type_name::<V>()
        )
    }

    fn list_watch(&self, client: Client, namespace: Option<&str>) -> ListWatch<V> {
        Typed::with_decoders(self.protobuf).list_watch(client, namespace)
    }
}

#[cfg(test)]
mod tests {
    use k8s_openapi::api::core::v1::{Container, Pod, PodSpec, PodStatus};
    use k8s_openapi::apimachinery::pkg::apis::meta::v1::ObjectMeta;

    use super::*;

    #[derive(Clone, Debug, Default, PartialEq, Deserialize, Serialize)]
    struct PodView {
        #[serde(default)]
        metadata: ObjectMeta,
        spec: Option<ViewSpec>,
        status: Option<ViewStatus>,
    }

    #[derive(Clone, Debug, Default, PartialEq, Deserialize, Serialize)]
    struct ViewSpec {
        #[serde(rename = "nodeName")]
        node_name: Option<String>,
        #[serde(default)]
        containers: Vec<Image>,
    }

    #[derive(Clone, Debug, Default, PartialEq, Deserialize, Serialize)]
    struct Image {
        image: Option<String>,
    }

    #[derive(Clone, Debug, Default, PartialEq, Deserialize, Serialize)]
    struct ViewStatus {
        phase: Option<String>,
    }

    crate::projection!(PodView => Pod);

    /// The same view with the lighter metadata.
    #[derive(Clone, Debug, Default, PartialEq, Deserialize, Serialize)]
    struct LeanView {
        metadata: ViewMeta,
        status: Option<ViewStatus>,
    }

    crate::projection!(LeanView => Pod, metadata: ViewMeta);

    fn pod(name: &str) -> Pod {
        Pod {
            metadata: ObjectMeta {
                name: Some(name.into()),
                namespace: Some("shop".into()),
                labels: Some([("app".to_owned(), "web".to_owned())].into()),
                annotations: Some([("note".to_owned(), "{\"a\":[1,{}]}".to_owned())].into()),
                uid: Some("4f1c".into()),
                generation: Some(3),
                resource_version: Some("42".into()),
                owner_references: Some(vec![OwnerReference {
                    api_version: "apps/v1".into(),
                    kind: "ReplicaSet".into(),
                    name: "web-7d4b".into(),
                    uid: "9a1e".into(),
                    controller: Some(true),
                    ..Default::default()
                }]),
                ..Default::default()
            },
            spec: Some(PodSpec {
                node_name: Some("node-a".into()),
                containers: vec![
                    Container {
                        name: "app".into(),
                        image: Some("web:1".into()),
                        args: Some(vec!["--x".into(), "[{\"y\":1}]".into()]),
                        ..Default::default()
                    },
                    Container {
                        name: "sidecar".into(),
                        image: Some("proxy:2".into()),
                        ..Default::default()
                    },
                ],
                ..Default::default()
            }),
            status: Some(PodStatus {
                phase: Some("Running".into()),
                host_ip: Some("10.0.0.1".into()),
                ..Default::default()
            }),
        }
    }

    fn view(name: &str) -> PodView {
        PodView {
            metadata: pod(name).metadata,
            spec: Some(ViewSpec {
                node_name: Some("node-a".into()),
                containers: vec![
                    Image {
                        image: Some("web:1".into()),
                    },
                    Image {
                        image: Some("proxy:2".into()),
                    },
                ],
            }),
            status: Some(ViewStatus {
                phase: Some("Running".into()),
            }),
        }
    }

    #[test]
    fn the_view_takes_its_resource_from_the_projected_type() {
        use k8s_openapi::{ListableResource, Resource};
        assert_eq!(PodView::API_VERSION, "v1");
        assert_eq!(PodView::GROUP, "");
        assert_eq!(PodView::KIND, "Pod");
        assert_eq!(PodView::URL_PATH_SEGMENT, "pods");
        assert_eq!(PodView::LIST_KIND, "PodList");
        assert_eq!(
            std::any::TypeId::of::<<PodView as Resource>::Scope>(),
            std::any::TypeId::of::<k8s_openapi::NamespaceResourceScope>()
        );
        assert_eq!(
            Projected::<PodView>::new().informer_name(),
            format!("core/v1/pods as {}", std::any::type_name::<PodView>())
        );
    }

    #[test]
    fn an_object_decodes_into_the_view_skipping_everything_else() {
        // Through the decoder every list item and watch object goes through (simd-json's
        // serde): unknown fields, nested objects, arrays and strings full of brackets are
        // skipped, and the view keeps only what it names.
        let mut json = serde_json::to_value(pod("web-0")).unwrap();
        json["apiVersion"] = "v1".into();
        json["kind"] = "Pod".into();
        json["metadata"]["managedFields"] = serde_json::json!([{"manager": "kubelet", "fieldsV1": {"f:status": {"k:{\"type\":\"Ready\"}": {}}}}]);
        let bytes = serde_json::to_vec(&json).unwrap();
        let mut decoded: PodView = informer_client::json::from_slice(&bytes).unwrap();
        assert_eq!(
            decoded.metadata.managed_fields.take().map(|m| m.len()),
            Some(1)
        );
        assert_eq!(decoded, view("web-0"));
    }

    #[test]
    fn a_view_is_an_object_keyed_and_indexed_like_the_full_one() {
        let v = view("web-0");
        assert_eq!(crate::object::object_key(&v), "shop/web-0");
        assert_eq!(crate::store::namespace_index_func(&v), vec!["shop"]);
        assert_eq!(crate::store::label_index_func(&v), vec!["app=web"]);
    }

    #[test]
    fn a_lean_view_keeps_only_the_metadata_the_runtime_reads() {
        let mut json = serde_json::to_value(pod("web-0")).unwrap();
        json["metadata"]["managedFields"] = serde_json::json!([{"manager": "kubelet"}]);
        let decoded: LeanView =
            informer_client::json::from_slice(&serde_json::to_vec(&json).unwrap()).unwrap();
        let full = pod("web-0").metadata;
        assert_eq!(
            decoded.metadata,
            ViewMeta {
                name: full.name.clone(),
                namespace: full.namespace.clone(),
                resource_version: full.resource_version.clone(),
                generation: full.generation,
                labels: full.labels.clone().unwrap_or_default().into(),
                owner_references: full.owner_references.clone(),
            }
        );
        let meta = &decoded.metadata;
        assert_eq!(
            (meta.name(), meta.namespace(), meta.resource_version()),
            (Some("web-0"), Some("shop"), Some("42"))
        );
        assert_eq!(meta.generation(), Some(3));
        assert_eq!(
            meta.owner_references(),
            full.owner_references.as_deref().unwrap()
        );
        assert_eq!(crate::object::object_key(&decoded), "shop/web-0");
        assert_eq!(crate::store::label_index_func(&decoded), vec!["app=web"]);

        // What the compact cache and the etcd backend write reads back the same, without
        // the fields it never had.
        let encoded = serde_json::to_value(&decoded).unwrap();
        assert_eq!(encoded["metadata"].as_object().unwrap().len(), 6);
        assert_eq!(
            serde_json::from_value::<LeanView>(encoded).unwrap(),
            decoded
        );
        let mut stamped = decoded.clone();
        stamped.meta_mut().set_resource_version(Some("43".into()));
        assert_eq!(stamped.metadata.resource_version.as_deref(), Some("43"));
        assert!(stamped.meta_mut().as_object_meta_mut().is_none());
    }
}
