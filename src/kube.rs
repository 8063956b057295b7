//! kube-rs interop: shared informers, listers and factories for the types kube-rs users
//! already have, over the `kube::Client` they already configured.
//!
//! - [`Client::from_kube`] (or `Client::from(kube_client)`) sends every request through a
//!   `kube::Client`: its kubeconfig handling, credentials, TLS and tower layers; this
//!   crate decodes the answers (on every core, as over its own transport).
//! - k8s-openapi types (`Pod`, ...) work as they are, with the generated factories too.
//! - A `#[derive(CustomResource)]` type, or a kopium-generated one (kopium emits the same
//!   derive), takes one line, [`kube_resource!`](crate::kube_resource), and then has shared
//!   informers ([`KubeInformers::kube_informer`] on any factory), listers and indexes.
//!   Its group, version, plural and scope come from its `kube::Resource` impl.
//!
//! ```no_run
//! use informer_runtime::kube::KubeInformers;
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
//! let widgets = factory.kube_informer::<Widget>(); // shared: the same informer on every call
//! factory.start();
//! factory.wait_for_cache_sync().await?;
//! let lister = Lister::new(widgets.indexer());
//! let small = lister.namespaced("shop").list(&"size=small".parse::<Selector>()?);
//! # let _ = small;
//! # Ok(()) }
//! ```

use std::any::TypeId;
use std::time::Duration;

use futures_util::future::{self, Either};

use crate::client::{check_segment, Client};
use crate::error::{Error, ErrorKind};
use crate::factory::{InformerFactory, SharedInformerFactoryCore};
use crate::informer::SharedIndexInformer;
use crate::list_options::TweakListOptions;
use crate::lister_watcher::ListWatch;
use crate::object::Object;
use crate::store::Indexers;

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

/// The informer name of `K`, as the generated factories name theirs: `group/version/plural`
/// (`core` for the core group), e.g. `example.com/v1/widgets`.
pub fn informer_name<K: KubeObject>() -> String {
    let group = K::group(&());
    let group = if group.is_empty() { "core" } else { &group };
    format!("{group}/{}/{}", K::version(&()), K::plural(&()))
}

/// The collection path of `K` in `namespace` (every namespace when `None` or empty;
/// none for cluster-scoped `K`).
fn collection_path<K: KubeObject>(namespace: Option<&str>, verb: &str) -> Result<String, Error> {
    let namespaced =
        TypeId::of::<K::Scope>() == TypeId::of::<k8s_openapi::NamespaceResourceScope>();
    let namespace = namespace.filter(|ns| namespaced && !ns.is_empty());
    if let Some(ns) = namespace {
        if let Err(why) = check_segment(ns) {
            return Err(Error::other(
                ErrorKind::InvalidArgument,
                format!("{verb} {}", K::plural(&())),
                format!("invalid namespace {ns:?}: {why}"),
            ));
        }
    }
    Ok(K::url_path(&(), namespace))
}

/// A [`ListWatch`] of `K` in `namespace` (every namespace when `None`) through `client`,
/// each request first edited by `tweak_list_options`.
pub fn list_watch<K: KubeObject>(
    client: Client,
    namespace: Option<&str>,
    tweak_list_options: Option<TweakListOptions>,
) -> ListWatch<K> {
    let namespace = namespace.map(str::to_owned);
    let (list_client, list_ns) = (client.clone(), namespace.clone());
    ListWatch::new(
        move |options| match collection_path::<K>(list_ns.as_deref(), "list") {
            Ok(path) => Either::Left(list_client.list_path::<K>(&path, &options, None)),
            Err(e) => Either::Right(future::ready(Err(e))),
        },
        move |options| match collection_path::<K>(namespace.as_deref(), "watch") {
            Ok(path) => Either::Left(client.watch_path::<K>(&path, &options, None)),
            Err(e) => Either::Right(future::ready(Err(e))),
        },
    )
    .tweaked(tweak_list_options)
}

/// A new, unshared informer of `K` in `namespace` (every namespace when `None`), with the
/// `namespace` and label indexes given in `indexers` (client-go's `NewFilteredXInformer`).
/// Prefer a factory's shared one ([`KubeInformers::kube_informer`]).
pub fn new_filtered_informer<K: KubeObject>(
    client: Client,
    namespace: Option<&str>,
    resync: Duration,
    indexers: Indexers<K>,
    tweak_list_options: Option<TweakListOptions>,
) -> SharedIndexInformer<K> {
    SharedIndexInformer::new(
        list_watch::<K>(client, namespace, tweak_list_options),
        resync,
        indexers,
    )
}

/// The informer a factory makes for `K`: the factory's client, namespace, resync for `K`
/// and list options, with the standard indexes. For
/// [`SharedInformerFactoryCore::informer_for`] and a generated factory's `informer_for`:
/// `factory.informer_for(&informer_name::<Widget>(), factory_informer::<Widget>)`.
pub fn factory_informer<K: KubeObject>(core: &SharedInformerFactoryCore) -> SharedIndexInformer<K> {
    new_filtered_informer(
        core.informer_client(),
        core.namespace(),
        core.resync_for::<K>(),
        Indexers::standard(),
        core.tweak_list_options(),
    )
}

/// Shared informers of kube-rs types on any factory: generated, dynamic, metadata-only or
/// the bare core.
pub trait KubeInformers: InformerFactory {
    /// The shared informer of `K`, registered in the factory on the first call (so
    /// `start()` and `wait_for_cache_sync()` include it), the same on every later call
    /// (and the same one a generated accessor gives for a k8s-openapi type).
    fn kube_informer<K: KubeObject>(&self) -> SharedIndexInformer<K> {
        self.factory_core()
            .informer_for(&informer_name::<K>(), factory_informer::<K>)
    }
}

impl<F: InformerFactory + ?Sized> KubeInformers for F {}
