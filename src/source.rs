//! What an informer lists and watches, and the one way to build an informer of it.
//!
//! An [`InformerSource`] says how to reach one resource's collection through a client:
//! [`typed`] for k8s-openapi and generated types (through [`Api`]), [`Collection`] for
//! a resource described at run time (dynamic and metadata-only objects, kube-rs types).
//! [`new_informer`] builds an informer of any source; factories build theirs through it
//! ([`SharedInformerFactoryCore::informer_for`](crate::SharedInformerFactoryCore::informer_for)),
//! and generated `new_filtered_x_informer` functions are shells over it.
//!
//! ```no_run
//! use std::time::Duration;
//!
//! use informer_runtime::informer::{new_informer, InformerOptions};
//! use informer_runtime::source::typed;
//! use informer_runtime::Client;
//! use k8s_openapi::api::apps::v1::Deployment;
//!
//! # async fn run() -> Result<(), Box<dyn std::error::Error>> {
//! let client = Client::try_default().await?;
//! let options = InformerOptions::default().resync(Duration::from_secs(300));
//! let deployments = new_informer(&client, &typed::<Deployment>(), None, options);
//! assert_eq!(deployments.name(), "apps/v1/deployments");
//! # Ok(())
//! # }
//! ```

use std::any::TypeId;
use std::future::Future;
use std::sync::Arc;

use futures_util::StreamExt;
use informer_client::protobuf::ProtobufDecoders;
use informer_client::request::{Request, RequestBuilder};
use k8s_openapi::apimachinery::pkg::apis::meta::v1::ObjectMeta;

use crate::api::Api;
use crate::client::Client;
use crate::discovery::ApiResource;
use crate::error::Error;
use crate::informer::{InformerOptions, SharedIndexInformer};
use crate::list_options::ListOptions;
use crate::lister_watcher::{ListWatch, ObjectList, WatchEvent, WatchStream};
use crate::object::Object;

/// How informers reach a resource whose objects are `K`: its name, what tells it from
/// other resources of `K` in a factory, and its list and watch requests.
pub trait InformerSource<K>: Send + Sync + 'static {
    /// The informer's name in logs, errors and stats: `core/v1/pods`,
    /// `apps/v1/deployments` ([`ApiResource::informer_name`]).
    fn informer_name(&self) -> String;

    /// What tells this resource from other resources of `K` in one factory: `None` (the
    /// default) when `K` is one resource's type, the resource (its GVR) when `K` serves
    /// many, as dynamic and metadata-only objects do.
    fn key(&self) -> Option<String> {
        None
    }

    /// The type whose resync period a factory applies
    /// ([`FactoryBuilder::resync_for`](crate::FactoryBuilder::resync_for)): `K` by default.
    fn resync_type(&self) -> TypeId
    where
        K: 'static,
    {
        TypeId::of::<K>()
    }

    /// The lists and watches of the resource in `namespace` (every namespace when `None`;
    /// ignored for a cluster-scoped resource) through `client`.
    fn list_watch(&self, client: Client, namespace: Option<&str>) -> ListWatch<K>;
}

/// A new informer of `source` in `namespace` (every namespace when `None`) through
/// `client`, configured by `options`: what every factory, generated
/// `new_filtered_x_informer` function, projection, dynamic and metadata-only informer
/// builds. Unless `options` names it, the informer is named after the resource. With
/// [`InformerOptions::drop_managed_fields`] the client leaves `metadata.managedFields` out
/// while decoding ([`Client::omitting_managed_fields`]), so they cost neither time nor memory.
pub fn new_informer<K: Object>(
    client: &Client,
    source: &impl InformerSource<K>,
    namespace: Option<&str>,
    mut options: InformerOptions<K>,
) -> SharedIndexInformer<K> {
    let client = if options.drop_managed_fields {
        client.omitting_managed_fields()
    } else {
        client.clone()
    };
    options.name.get_or_insert_with(|| source.informer_name());
    SharedIndexInformer::with_options(source.list_watch(client, namespace), options)
}

/// The scope of a k8s-openapi resource type, as informers need it: which [`Api`] lists
/// and watches the resource in a namespace.
pub trait ApiScope: sealed::Sealed + 'static {
    /// The `Api` of `K` in `namespace` (every namespace when `None`; the whole cluster
    /// for a cluster-scoped `K`).
    fn api<K>(client: Client, namespace: Option<&str>) -> Api<K>
    where
        K: k8s_openapi::Resource<Scope = Self>;
}

mod sealed {
    pub trait Sealed {}
    impl Sealed for k8s_openapi::NamespaceResourceScope {}
    impl Sealed for k8s_openapi::ClusterResourceScope {}
}

impl ApiScope for k8s_openapi::NamespaceResourceScope {
    fn api<K>(client: Client, namespace: Option<&str>) -> Api<K>
    where
        K: k8s_openapi::Resource<Scope = Self>,
    {
        match namespace {
            Some(namespace) => Api::namespaced(client, namespace),
            None => Api::all(client),
        }
    }
}

impl ApiScope for k8s_openapi::ClusterResourceScope {
    fn api<K>(client: Client, _namespace: Option<&str>) -> Api<K>
    where
        K: k8s_openapi::Resource<Scope = Self>,
    {
        Api::all(client)
    }
}

/// The source of a k8s-openapi or generated resource type `K` ([`typed`]): listed and
/// watched through [`Api<K>`](Api), one informer per type in a factory.
pub struct Typed<K> {
    /// Decoders of kube-apiserver's protobuf, asked for first when set.
    protobuf: Option<ProtobufDecoders<Cached<K>>>,
}

/// The source of the k8s-openapi or generated resource type `K`, e.g. `typed::<Pod>()`,
/// listed and watched as JSON.
pub fn typed<K>() -> Typed<K> {
    Typed { protobuf: None }
}

/// [`typed`], listed and watched as kube-apiserver's protobuf where the server answers it
/// (JSON otherwise): for the types informer-protobuf decodes. Generated informers of
/// built-in resources use it for every such type.
pub fn typed_protobuf<K>() -> Typed<K>
where
    K: informer_protobuf::Message + k8s_openapi::Metadata<Ty = ObjectMeta> + Send + Sync,
{
    Typed {
        protobuf: Some(crate::protobuf::cached_decoders()),
    }
}

impl<K> Typed<K> {
    /// The source of `K`, asking for protobuf first and decoding it with `protobuf` when
    /// given.
    pub(crate) fn with_decoders(protobuf: Option<ProtobufDecoders<Cached<K>>>) -> Self {
        Typed { protobuf }
    }
}

impl<K> Clone for Typed<K> {
    fn clone(&self) -> Self {
        Typed {
            protobuf: self.protobuf,
        }
    }
}

impl<K> std::fmt::Debug for Typed<K> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_tuple("Typed")
            .field(&std::any::type_name::<K>())
            .finish()
    }
}

impl<K> InformerSource<K> for Typed<K>
where
    K: Object + k8s_openapi::ListableResource + k8s_openapi::Metadata,
    K::Scope: ApiScope,
{
    fn informer_name(&self) -> String {
        ApiResource::of::<K>().informer_name()
    }

    fn list_watch(&self, client: Client, namespace: Option<&str>) -> ListWatch<K> {
        let api = K::Scope::api::<K>(client, namespace);
        let protobuf = self.protobuf;
        let lists = api.clone();
        ListWatch::new(
            move |options: ListOptions| uncached_list(lists.list_as(&options, protobuf)),
            move |options: ListOptions| uncached_watch(api.watch_as(&options, protobuf)),
        )
    }
}

/// Completes a decoded object, e.g. fills in the resource's `apiVersion` and `kind`
/// (list items arrive without them).
pub type FixUp<K> = Arc<dyn Fn(&mut K) + Send + Sync>;

/// The source of a resource described at run time by an [`ApiResource`]: its collection
/// path ([`ApiResource::collection_path`]), listed and watched with the `Accept` headers
/// given, each decoded object completed by a fix-up. For object types that serve many
/// resources (dynamic and metadata-only objects) and for kube-rs types.
pub struct Collection<K> {
    resource: ApiResource,
    keyed: bool,
    resync_type: TypeId,
    list_accept: Option<&'static str>,
    watch_accept: Option<&'static str>,
    fix_up: Option<FixUp<K>>,
}

impl<K> Clone for Collection<K> {
    fn clone(&self) -> Self {
        Self {
            resource: self.resource.clone(),
            keyed: self.keyed,
            resync_type: self.resync_type,
            list_accept: self.list_accept,
            watch_accept: self.watch_accept,
            fix_up: self.fix_up.clone(),
        }
    }
}

impl<K> std::fmt::Debug for Collection<K> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Collection")
            .field("resource", &self.resource)
            .field("keyed", &self.keyed)
            .field("list_accept", &self.list_accept)
            .field("watch_accept", &self.watch_accept)
            .field("fix_up", &self.fix_up.is_some())
            .finish()
    }
}

impl<K: 'static> Collection<K> {
    /// The collection of `resource`, one informer per resource in a factory (keyed by its
    /// GVR), resynced at the factory's period for `K`, asking for plain JSON.
    pub fn new(resource: ApiResource) -> Self {
        Self {
            resource,
            keyed: true,
            resync_type: TypeId::of::<K>(),
            list_accept: None,
            watch_accept: None,
            fix_up: None,
        }
    }

    /// One informer per type `K` in a factory rather than one per resource: for `K` that
    /// is one resource's type (a kube-rs type), so that it shares the informer a typed
    /// source of the same type would make.
    #[must_use]
    pub fn keyed_by_type(mut self) -> Self {
        self.keyed = false;
        self
    }

    /// Resynced at the factory's period for `T` rather than `K`'s (a metadata-only
    /// informer of Pods takes the period set for `Pod`).
    #[must_use]
    pub fn resync_as<T: 'static>(mut self) -> Self {
        self.resync_type = TypeId::of::<T>();
        self
    }

    /// The `Accept` headers of lists and watches (`None`: `application/json`).
    #[must_use]
    pub fn accept(mut self, list: Option<&'static str>, watch: Option<&'static str>) -> Self {
        self.list_accept = list;
        self.watch_accept = watch;
        self
    }

    /// Runs `fix_up` on every decoded list item and watch event object.
    #[must_use]
    pub fn fix_up(mut self, fix_up: impl Fn(&mut K) + Send + Sync + 'static) -> Self {
        self.fix_up = Some(Arc::new(fix_up));
        self
    }

    /// The resource listed and watched.
    pub fn resource(&self) -> &ApiResource {
        &self.resource
    }
}

impl<K> InformerSource<K> for Collection<K>
where
    K: serde::de::DeserializeOwned + Send + Sync + 'static,
{
    fn informer_name(&self) -> String {
        self.resource.informer_name()
    }

    fn key(&self) -> Option<String> {
        self.keyed.then(|| self.resource.gvr().to_string())
    }

    fn resync_type(&self) -> TypeId {
        self.resync_type
    }

    fn list_watch(&self, client: Client, namespace: Option<&str>) -> ListWatch<K> {
        let requests = RequestBuilder::for_resource(&self.resource, namespace);
        let (list_client, list_requests) = (client.clone(), requests.clone());
        let (list_accept, watch_accept) = (self.list_accept, self.watch_accept);
        let (list_fix, watch_fix) = (self.fix_up.clone(), self.fix_up.clone());
        ListWatch::new(
            move |o: ListOptions| {
                let response = with_accept(list_requests.list(&o), list_accept)
                    .map(|request| list_client.request_list::<Cached<K>>(request));
                let fix = list_fix.clone();
                async move {
                    let mut list = uncached_list(response?).await?;
                    if let Some(fix) = fix {
                        list.items.iter_mut().for_each(|i| fix_shared(&fix, i));
                    }
                    Ok(list)
                }
            },
            move |o: ListOptions| {
                let response = with_accept(requests.watch(&o), watch_accept)
                    .map(|request| client.request_events::<Cached<K>>(request));
                let fix = watch_fix.clone();
                async move {
                    let stream = uncached_watch(response?).await?;
                    let Some(fix) = fix else { return Ok(stream) };
                    Ok(stream
                        .map(move |event| {
                            event.map(|mut e| {
                                if let WatchEvent::Added(o)
                                | WatchEvent::Modified(o)
                                | WatchEvent::Deleted(o) = &mut e
                                {
                                    fix_shared(&fix, o);
                                }
                                e
                            })
                        })
                        .boxed())
                }
            },
        )
    }
}

/// An object decoded into the [`Arc`] an informer's cache keeps: what informer sources
/// decode lists and watches as. Protobuf decodes it in place there; JSON decodes the object,
/// then moves it in (serde's own `Arc<K>` would go through a `Box`: one more allocation and
/// copy of every object).
pub(crate) struct Cached<K>(pub(crate) Arc<K>);

impl<'de, K: serde::Deserialize<'de>> serde::Deserialize<'de> for Cached<K> {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        K::deserialize(deserializer).map(|object| Cached(Arc::new(object)))
    }
}

/// A list of cached objects as a [`ListerWatcher`](crate::ListerWatcher) hands it out.
async fn uncached_list<K>(
    list: impl Future<Output = Result<ObjectList<Cached<K>>, Error>>,
) -> Result<ObjectList<Arc<K>>, Error> {
    Ok(list.await?.map(|c| c.0))
}

/// A watch of cached objects as a [`ListerWatcher`](crate::ListerWatcher) hands it out.
async fn uncached_watch<K: 'static>(
    watch: impl Future<Output = Result<WatchStream<Cached<K>>, Error>>,
) -> Result<WatchStream<Arc<K>>, Error> {
    Ok(watch
        .await?
        .map(|event| event.map(|e| e.map(|c| c.0)))
        .boxed())
}

/// Runs `fix` on a just-decoded object, which nothing else holds yet.
fn fix_shared<K>(fix: &FixUp<K>, object: &mut Arc<K>) {
    if let Some(object) = Arc::get_mut(object) {
        fix(object);
    }
}

/// `request` asking for `accept` instead of plain JSON, when given.
fn with_accept(
    request: Result<Request, Error>,
    accept: Option<&'static str>,
) -> Result<Request, Error> {
    match accept {
        Some(accept) => request?.with_accept(accept),
        None => request,
    }
}
