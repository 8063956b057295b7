//! kube-rs interop: shared informers, listers and factories for the types kube-rs users
//! already have, over the `kube::Client` they already configured.
//!
//! - [`Client::from_kube`](crate::Client::from_kube) (or `Client::from(kube_client)`) sends every request through a
//!   `kube::Client`: its kubeconfig handling, credentials, TLS and tower layers; this
//!   crate decodes the answers (on every core, as over its own transport).
//! - k8s-openapi types (`Pod`, ...) work as they are, with the generated factories too.
//! - A `#[derive(CustomResource)]` type, or a kopium-generated one (kopium emits the same
//!   derive), takes one line, [`kube_resource!`](crate::kube_resource), and then has shared
//!   informers (`factory.informer_for(kube::resource::<Widget>())` on any factory, see
//!   [`resource`]), listers and indexes. Its group, version, plural and scope come from
//!   its `kube::Resource` impl.
//!
//! ```no_run
//! use informer_runtime::{Client, InformerFactory, Lister, Selector, SharedInformerFactoryCore};
//! use kube::CustomResource;
//! use schemars::JsonSchema;
//! use serde::{Deserialize, Serialize};
//!
//! #[derive(CustomResource, Clone, Debug, Deserialize, Serialize, JsonSchema)]
//! #[kube(group = "example.com", version = "v1", kind = "Widget", namespaced)]
//! pub struct WidgetSpec {
//!     size: u32,
//! }
//! informer_runtime::kube_resource!(Widget);
//!
//! # async fn run() -> Result<(), Box<dyn std::error::Error>> {
//! let client = Client::from_kube(kube::Client::try_default().await?);
//! let factory = SharedInformerFactoryCore::new(client, Default::default());
//! // Shared: the same informer on every call.
//! let widgets = factory.informer_for(informer_runtime::kube::resource::<Widget>());
//! factory.start();
//! factory.wait_for_cache_sync().await?;
//! let lister = Lister::new(widgets.indexer());
//! let small = lister.namespaced("shop").list(&"size=small".parse::<Selector>()?);
//! # let _ = small;
//! # Ok(()) }
//! ```

use std::any::TypeId;

use crate::discovery::ApiResource;
use crate::object::Object;
use crate::source::Collection;

/// What [`kube_resource!`](crate::kube_resource) expands to needs, named through this
/// crate so the caller's `kube` dependency is not looked up by path.
#[doc(hidden)]
pub mod __private {
    pub use ::kube::Resource;
    pub use k8s_openapi::apimachinery::pkg::apis::meta::v1::ObjectMeta;
}

/// Makes kube-rs resource types cacheable: implements [`Object`](crate::Object) for each
/// type through its `kube::Resource` impl (its `metadata`). For `#[derive(CustomResource)]`
/// types and kopium-generated ones; k8s-openapi types need nothing.
///
/// ```
/// use kube::CustomResource;
/// use schemars::JsonSchema;
/// use serde::{Deserialize, Serialize};
///
/// #[derive(CustomResource, Clone, Debug, Deserialize, Serialize, JsonSchema)]
/// #[kube(group = "example.com", version = "v1", kind = "Widget", namespaced)]
/// pub struct WidgetSpec {
///     size: u32,
/// }
///
/// #[derive(CustomResource, Clone, Debug, Deserialize, Serialize, JsonSchema)]
/// #[kube(group = "example.com", version = "v1", kind = "Gadget")]
/// pub struct GadgetSpec {}
///
/// informer_runtime::kube_resource!(Widget, Gadget);
///
/// fn cacheable<K: informer_runtime::Object>() {}
/// cacheable::<Widget>();
/// cacheable::<Gadget>();
/// ```
#[cfg_attr(docsrs, doc(cfg(feature = "kube")))]
#[macro_export]
macro_rules! kube_resource {
    ($($ty:ty),+ $(,)?) => {$(
        impl $crate::Object for $ty {
            type Meta = $crate::kube::__private::ObjectMeta;

            fn meta(&self) -> &$crate::kube::__private::ObjectMeta {
                <$ty as $crate::kube::__private::Resource>::meta(self)
            }

            fn meta_mut(&mut self) -> &mut $crate::kube::__private::ObjectMeta {
                <$ty as $crate::kube::__private::Resource>::meta_mut(self)
            }
        }
    )+};
}

/// What informers need of a kube-rs type: it is an [`Object`] (see
/// [`kube_resource!`](crate::kube_resource)) and its `kube::Resource` impl names its
/// group, version, plural and scope without run-time information (`DynamicType = ()`),
/// as derived and k8s-openapi types do.
pub trait KubeObject: Object + ::kube::Resource<DynamicType = (), Scope: 'static> {}

impl<K> KubeObject for K where K: Object + ::kube::Resource<DynamicType = (), Scope: 'static> {}

/// The source of the kube-rs type `K` ([`InformerSource`](crate::source::InformerSource)):
/// its collection, from its `kube::Resource` impl's group, version, kind, plural and scope,
/// one informer per type in a factory (the same one a generated accessor gives for a
/// k8s-openapi type), named `group/version/plural` (`core` for the core group), e.g.
/// `example.com/v1/widgets`. For an unshared informer, give it to
/// [`new_informer`](crate::informer::new_informer).
pub fn resource<K: KubeObject>() -> Collection<K> {
    let namespaced =
        TypeId::of::<K::Scope>() == TypeId::of::<k8s_openapi::NamespaceResourceScope>();
    Collection::new(ApiResource::new(
        &K::group(&()),
        &K::version(&()),
        &K::kind(&()),
        &K::plural(&()),
        namespaced,
    ))
    .keyed_by_type()
}
