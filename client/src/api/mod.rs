//! `Api<K>`: typed reads and writes of one resource over a [`Client`] (client-go's typed
//! clientset, e.g. `CoreV1().Pods(namespace)`), with paths, query parameters and bodies
//! exactly as kube-apiserver expects them.
//!
//! The scope comes from `K`: [`Api::namespaced`] exists only for namespaced resources;
//! [`Api::all`] covers every namespace (list, watch, delete_collection) or a cluster-scoped
//! resource. The second type parameter says which subresources the resource has
//! ([`NoSubresources`], [`StatusSubresource`], [`ScaleSubresource`], [`StatusAndScale`]);
//! `get_status`/`update_status`/`patch_status` and `get_scale`/`update_scale`/`patch_scale`
//! exist only where it says so. A resource known only at run time (from discovery) gets an
//! `Api` of [`DynamicObject`](crate::DynamicObject)s or metadata-only objects through
//! [`Api::for_resource`]. Every call builds its request with a
//! [`RequestBuilder`] and sends it through the [`Client`].
//!
//! ```no_run
//! use informer_client::api::{Api, DeleteParams, Patch, PatchParams, PostParams, StatusSubresource};
//! use informer_client::{Client, ListOptions};
//! use k8s_openapi::api::core::v1::{ConfigMap, Pod};
//! use serde_json::json;
//!
//! # async fn run() -> Result<(), informer_client::Error> {
//! let client = Client::try_default().await?;
//! let config_maps: Api<ConfigMap> = Api::namespaced(client.clone(), "shop");
//! let mut cm = config_maps.get("settings").await?;
//! cm.data.get_or_insert_with(Default::default).insert("mode".into(), "fast".into());
//! match config_maps.update(&cm, &PostParams::default()).await {
//!     Err(e) if e.is_conflict() => { /* changed meanwhile: re-read and retry */ }
//!     other => { other?; }
//! }
//! let pods: Api<Pod, StatusSubresource> = Api::namespaced(client, "shop");
//! let patch = Patch::Merge(json!({"metadata": {"labels": {"tier": "web"}}}));
//! pods.patch("web-0", &patch, &PatchParams::default()).await?;
//! let web = pods.list(&ListOptions { label_selector: Some("tier=web".into()), ..Default::default() }).await?;
//! pods.delete("web-1", &DeleteParams::default().grace_period(0)).await?;
//! # Ok(()) }
//! ```

mod params;
mod patch;
mod subresource;

use std::future::Future;
use std::marker::PhantomData;
use std::sync::Arc;

use futures_util::future::{self, Either};
use k8s_openapi::apimachinery::pkg::apis::meta::v1::{ListMeta, ObjectMeta, Status};
use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};

pub use params::{
    DeleteParams, PatchParams, PostParams, Preconditions, PropagationPolicy, ValidationDirective,
};
pub use patch::Patch;
pub use subresource::{
    HasScale, HasStatus, NoSubresources, ScaleSubresource, StatusAndScale, StatusSubresource,
    Subresources,
};

use crate::apply::{ApplyConfiguration, ApplyParams};
use crate::client::Client;
use crate::discovery::ApiResource;
use crate::error::{Error, ErrorKind};
use crate::list_options::ListOptions;
use crate::object::Object;
use crate::protobuf::ProtobufDecoders;
use crate::request::{Request, RequestBuilder, Resource};
use crate::watch_event::{ObjectList, WatchStream};

/// Typed access to one resource `K` in one namespace, in all namespaces, or cluster-wide.
/// Cheap to clone. `S` names the subresources `K` has (see the [module docs](self)).
pub struct Api<K, S = NoSubresources> {
    client: Client,
    namespace: Option<String>,
    resource: Resource,
    /// The `Accept` of lists and of watches, when not `application/json`.
    accept: Option<Arc<(Option<String>, Option<String>)>>,
    /// Decoders that let gets, lists and watches ask for protobuf first.
    protobuf: Option<ProtobufDecoders<K>>,
    marker: PhantomData<fn() -> (K, S)>,
}

impl<K, S> Clone for Api<K, S> {
    fn clone(&self) -> Self {
        Self {
            client: self.client.clone(),
            namespace: self.namespace.clone(),
            resource: self.resource.clone(),
            accept: self.accept.clone(),
            protobuf: self.protobuf,
            marker: PhantomData,
        }
    }
}

impl<K, S> std::fmt::Debug for Api<K, S> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Api")
            .field("resource", &self.resource.plural())
            .field("api_version", &self.resource.api_version())
            .field("namespace", &self.namespace)
            .field("server", &self.client.base_url())
            .finish()
    }
}

/// What a delete answers.
// A `Status` outweighs small objects, but most objects are larger and boxing either variant
// would cost an allocation on every delete.
#[allow(clippy::large_enum_variant)]
#[derive(Clone, Debug, PartialEq)]
pub enum DeleteResponse<K> {
    /// The server answered with the object: it still exists while finalizers or a grace
    /// period hold it (`metadata.deletionTimestamp` is set), or, for resources that return
    /// what they deleted (Pods), this is its last state.
    Object(K),
    /// The server answered with a success `Status`: the object is gone.
    Deleted(Status),
}

impl<K> DeleteResponse<K> {
    /// The object, if the server answered with one.
    pub fn object(self) -> Option<K> {
        match self {
            DeleteResponse::Object(o) => Some(o),
            DeleteResponse::Deleted(_) => None,
        }
    }
}

impl<K, S> Api<K, S>
where
    K: k8s_openapi::Resource,
    K::Scope: 'static,
    S: Subresources,
{
    /// An `Api` for `K` in `namespace`. Only namespaced resources have one. An empty
    /// `namespace` means all namespaces, as in client-go.
    ///
    /// ```no_run
    /// # use informer_client::api::{Api, StatusSubresource};
    /// # use k8s_openapi::api::core::v1::{ConfigMap, Pod};
    /// # async fn run(client: informer_client::Client) -> Result<(), informer_client::Error> {
    /// let config_maps = Api::<ConfigMap>::namespaced(client.clone(), "shop");
    /// let pods: Api<Pod, StatusSubresource> = Api::namespaced(client, "shop");
    /// let pod = pods.get_status("web-0").await?;
    /// # Ok(()) }
    /// ```
    pub fn namespaced(client: Client, namespace: &str) -> Self
    where
        K: k8s_openapi::Resource<Scope = k8s_openapi::NamespaceResourceScope>,
    {
        Self::new(client, Resource::of::<K>(), Some(namespace))
    }

    /// An `Api` for `K` in the client's default namespace (the kubeconfig context's, or the
    /// service account's).
    pub fn default_namespaced(client: Client) -> Self
    where
        K: k8s_openapi::Resource<Scope = k8s_openapi::NamespaceResourceScope>,
    {
        let namespace = client.default_namespace().to_owned();
        Self::namespaced(client, &namespace)
    }

    /// An `Api` for a cluster-scoped `K`, or for a namespaced `K` across all namespaces:
    /// list, watch and delete_collection cover every namespace; create and update take the
    /// namespace from the object; by-name calls need [`Api::namespaced`].
    ///
    /// ```no_run
    /// # use informer_client::api::Api;
    /// # use k8s_openapi::api::core::v1::{Namespace, Pod};
    /// # async fn run(client: informer_client::Client) -> Result<(), informer_client::Error> {
    /// let namespaces = Api::<Namespace>::all(client.clone());
    /// let shop = namespaces.get("shop").await?;
    /// let every_pod = Api::<Pod>::all(client).list(&Default::default()).await?;
    /// # Ok(()) }
    /// ```
    pub fn all(client: Client) -> Self {
        Self::new(client, Resource::of::<K>(), None)
    }
}

impl<K, S: Subresources> Api<K, S> {
    /// An `Api` for a resource known only at run time, e.g. found by
    /// [`Discovery`](crate::Discovery), whose objects decode as `K`: a
    /// [`DynamicObject`](crate::DynamicObject), a
    /// [`PartialObjectMeta`](crate::PartialObjectMeta) (with
    /// [`with_accept`](Self::with_accept)), or any type of that resource. In `namespace`
    /// (all namespaces when `None` or empty; ignored when the resource is cluster-scoped).
    /// The namespace goes into paths percent-encoded, as in
    /// [`ApiResource::collection_path`].
    ///
    /// ```no_run
    /// # async fn run(client: informer_client::Client) -> Result<(), informer_client::Error> {
    /// use informer_client::{Api, ApiResource, Discovery, DynamicObject, GroupVersionResource, ListOptions};
    ///
    /// let gvr = GroupVersionResource::new("example.com", "v1", "widgets");
    /// let widgets = Discovery::new(client.clone()).resolve(&gvr).await?;
    /// let api: Api<DynamicObject> = Api::for_resource(client, &widgets, Some("shop"));
    /// for w in api.list(&ListOptions::default()).await?.items {
    ///     println!("{:?}: {:?}", w.metadata.name, w.rest.get("spec"));
    /// }
    /// # Ok(()) }
    /// ```
    pub fn for_resource(client: Client, resource: &ApiResource, namespace: Option<&str>) -> Self {
        Self::new(
            client,
            Resource::Described(Arc::new(resource.clone())),
            namespace,
        )
    }

    fn new(client: Client, resource: Resource, namespace: Option<&str>) -> Self {
        Self {
            namespace: namespace
                .filter(|ns| resource.namespaced() && !ns.is_empty())
                .map(str::to_owned),
            client,
            resource,
            accept: None,
            protobuf: None,
            marker: PhantomData,
        }
    }

    /// The same `Api` asking for other representations: `list` replaces the `Accept` of
    /// lists, `watch` that of watches (`None`: `application/json`). Metadata-only objects
    /// ask for a `PartialObjectMetadataList` this way
    /// ([`metadata::LIST_ACCEPT`](crate::metadata::LIST_ACCEPT),
    /// [`metadata::WATCH_ACCEPT`](crate::metadata::WATCH_ACCEPT)); a value that cannot be a
    /// header fails each list or watch with an
    /// [`ErrorKind::InvalidArgument`].
    ///
    /// ```no_run
    /// # async fn run(client: informer_client::Client) -> Result<(), informer_client::Error> {
    /// use informer_client::metadata::{LIST_ACCEPT, WATCH_ACCEPT};
    /// use informer_client::{Api, ApiResource, ListOptions, PartialObjectMeta};
    /// use k8s_openapi::api::core::v1::Pod;
    ///
    /// let pods: Api<PartialObjectMeta<Pod>> =
    ///     Api::for_resource(client, &ApiResource::of::<Pod>(), None)
    ///         .with_accept(Some(LIST_ACCEPT), Some(WATCH_ACCEPT));
    /// let labels: Vec<_> = pods.list(&ListOptions::default()).await?
    ///     .items.into_iter().map(|p| p.metadata.labels).collect();
    /// # Ok(()) }
    /// ```
    #[must_use]
    pub fn with_accept(mut self, list: Option<&str>, watch: Option<&str>) -> Self {
        self.accept = (list.is_some() || watch.is_some())
            .then(|| Arc::new((list.map(str::to_owned), watch.map(str::to_owned))));
        self
    }

    /// The same `Api` asking for kube-apiserver's protobuf first (JSON as the fallback) on
    /// gets, lists and watches, decoded by `decoders`; informer-runtime's
    /// `protobuf::decoders` builds them for every type informer-protobuf decodes.
    /// An `Accept` set by [`with_accept`](Self::with_accept) wins, and a list or watch with a
    /// shard selector stays on JSON (only JSON lists say whether the server applied it).
    #[must_use]
    pub fn with_protobuf(mut self, decoders: ProtobufDecoders<K>) -> Self {
        self.protobuf = Some(decoders);
        self
    }

    /// The same `Api` with other subresource methods: for resources whose subresources the
    /// types do not say (a hand-written CRD type). Calling one the server lacks answers 404.
    pub fn with_subresources<S2: Subresources>(self) -> Api<K, S2> {
        Api {
            client: self.client,
            namespace: self.namespace,
            resource: self.resource,
            accept: self.accept,
            protobuf: self.protobuf,
            marker: PhantomData,
        }
    }

    /// The namespace, or `None` for all namespaces and cluster-scoped resources.
    pub fn namespace(&self) -> Option<&str> {
        self.namespace.as_deref()
    }

    /// The client requests go through.
    pub fn client(&self) -> &Client {
        &self.client
    }

    /// The requests to the collection in `namespace` (all namespaces when `None`), whose
    /// errors name `verb`.
    fn builder_in(&self, namespace: Option<&str>, verb: &'static str) -> RequestBuilder {
        RequestBuilder::new(self.resource.clone(), namespace).with_verb(verb)
    }

    /// The requests to this Api's collection, whose errors name `verb`.
    fn builder(&self, verb: &'static str) -> RequestBuilder {
        self.builder_in(self.namespace.as_deref(), verb)
    }

    /// The requests to the object `name`, whose errors name `verb`: refused when the
    /// resource is namespaced and this Api covers all namespaces.
    fn by_name(
        &self,
        namespace: Option<&str>,
        verb: &'static str,
        name: &str,
    ) -> Result<RequestBuilder, Error> {
        let collection = self.builder_in(namespace, verb);
        if self.resource.namespaced() && collection.namespace().is_none() {
            return Err(self.invalid(
                verb,
                &format!("{} {name}", self.resource.plural()),
                format!(
                    "{} are namespaced and this Api covers all namespaces: use Api::namespaced",
                    self.resource.plural()
                ),
            ));
        }
        Ok(collection)
    }

    fn invalid(&self, verb: &str, what: &str, message: impl Into<String>) -> Error {
        Error::other(
            ErrorKind::InvalidArgument,
            format!("{verb} {what} at {}", self.client.base_url()),
            message,
        )
    }

    /// A request the builder refused, its error naming the server as every other error of
    /// this Api does.
    fn at_server(&self, built: Result<Request, Error>) -> Result<Request, Error> {
        built.map_err(|e| match e {
            Error::Other {
                kind,
                context,
                message,
            } => Error::other(
                kind,
                format!("{context} at {}", self.client.base_url()),
                message,
            ),
            other => other,
        })
    }

    async fn send<T: DeserializeOwned>(&self, request: Result<Request, Error>) -> Result<T, Error> {
        self.client.request(self.at_server(request)?).await
    }

    async fn send_status<T: DeserializeOwned>(
        &self,
        request: Result<Request, Error>,
    ) -> Result<DeleteResponse<T>, Error> {
        self.client.request_status(self.at_server(request)?).await
    }

    /// PATCHes the object `name` (or its `subresource`), the error naming `verb`.
    async fn patch_at<P: Serialize, T: DeserializeOwned>(
        &self,
        verb: &'static str,
        name: &str,
        subresource: Option<&str>,
        patch: &Patch<P>,
        params: &PatchParams,
    ) -> Result<T, Error> {
        let collection = self.by_name(self.namespace.as_deref(), verb, name)?;
        let request = match subresource {
            Some(sub) => collection.patch_subresource(sub, name, params, patch),
            None => collection.patch(name, params, patch),
        };
        self.send(request).await
    }
}

impl<K, S> Api<K, S>
where
    K: Object<Meta = ObjectMeta>,
    S: Subresources,
{
    /// The object's `metadata.name`, which update calls need.
    fn name_of(&self, object: &K, verb: &str) -> Result<String, Error> {
        let meta = object.meta();
        meta.name.clone().filter(|n| !n.is_empty()).ok_or_else(|| {
            self.invalid(
                verb,
                self.resource.plural(),
                "the object has no metadata.name",
            )
        })
    }

    /// The namespace a write of `object` goes to: this Api's, else the object's.
    fn namespace_for<'a>(&'a self, object: &'a K) -> Option<&'a str> {
        if !self.resource.namespaced() {
            return None;
        }
        self.namespace
            .as_deref()
            .or(object.meta().namespace.as_deref())
            .filter(|ns| !ns.is_empty())
    }

    /// PUTs `object` (or its `subresource`), the error naming `verb`.
    async fn put(
        &self,
        verb: &'static str,
        object: &K,
        subresource: Option<&str>,
        params: &PostParams,
    ) -> Result<K, Error> {
        let name = self.name_of(object, verb)?;
        let collection = self.by_name(self.namespace_for(object), verb, &name)?;
        let request = match subresource {
            Some(sub) => collection.replace_subresource(sub, &name, params, object),
            None => collection.replace(&name, params, object),
        };
        self.send(request).await
    }

    /// GETs the object `name`.
    ///
    /// ```no_run
    /// # use informer_client::api::Api;
    /// # use k8s_openapi::api::core::v1::ConfigMap;
    /// # async fn run(client: informer_client::Client) -> Result<(), informer_client::Error> {
    /// let config_maps = Api::<ConfigMap>::namespaced(client, "shop");
    /// match config_maps.get("settings").await {
    ///     Ok(cm) => println!("{:?}", cm.data),
    ///     Err(e) if e.is_not_found() => println!("no settings yet"),
    ///     Err(e) => return Err(e),
    /// }
    /// # Ok(()) }
    /// ```
    pub async fn get(&self, name: &str) -> Result<K, Error> {
        let request = self
            .by_name(self.namespace.as_deref(), "get", name)?
            .get(name);
        match self.protobuf.filter(|_| self.accept.is_none()) {
            Some(decoders) => {
                let request = self.at_server(request)?;
                self.client.request_negotiated(request, decoders).await
            }
            None => self.send(request).await,
        }
    }

    /// GETs the object `name`, `None` if it does not exist.
    pub async fn get_opt(&self, name: &str) -> Result<Option<K>, Error> {
        match self.get(name).await {
            Ok(object) => Ok(Some(object)),
            Err(e) if e.is_not_found() => Ok(None),
            Err(e) => Err(e),
        }
    }

    /// POSTs a new object; `metadata.name` (or `generateName`) names it. An existing name
    /// answers 409 [`AlreadyExists`](Error::is_already_exists).
    ///
    /// ```no_run
    /// # use informer_client::api::{Api, PostParams};
    /// # use k8s_openapi::api::core::v1::ConfigMap;
    /// # use k8s_openapi::apimachinery::pkg::apis::meta::v1::ObjectMeta;
    /// # async fn run(client: informer_client::Client) -> Result<(), informer_client::Error> {
    /// let config_maps = Api::<ConfigMap>::namespaced(client, "shop");
    /// let cm = ConfigMap {
    ///     metadata: ObjectMeta { name: Some("settings".into()), ..Default::default() },
    ///     data: Some([("mode".to_owned(), "fast".to_owned())].into()),
    ///     ..Default::default()
    /// };
    /// let created = config_maps.create(&cm, &PostParams::default().field_manager("shop-ctl")).await?;
    /// # Ok(()) }
    /// ```
    pub async fn create(&self, object: &K, params: &PostParams) -> Result<K, Error> {
        let namespace = self.namespace_for(object);
        if self.resource.namespaced() && namespace.is_none() {
            return Err(self.invalid(
                "create",
                self.resource.plural(),
                "the object has no metadata.namespace and this Api covers all namespaces",
            ));
        }
        let request = self.builder_in(namespace, "create").create(params, object);
        self.send(request).await
    }

    /// PUTs the whole object (client-go's `Update`). `metadata.resourceVersion` is sent as
    /// it is: a stale one answers 409 [`Conflict`](Error::is_conflict), so re-read and retry.
    pub async fn update(&self, object: &K, params: &PostParams) -> Result<K, Error> {
        self.put("update", object, None, params).await
    }

    /// PATCHes the object `name` with any of the four [`Patch`] types.
    ///
    /// ```no_run
    /// # use informer_client::api::{Api, Patch, PatchParams};
    /// # use k8s_openapi::api::apps::v1::Deployment;
    /// # async fn run(client: informer_client::Client, deploy: Deployment) -> Result<(), informer_client::Error> {
    /// let deployments = Api::<Deployment>::namespaced(client, "shop");
    /// let params = PatchParams::apply("my-controller").force();
    /// deployments.patch("web", &Patch::Apply(&deploy), &params).await?;
    /// # Ok(()) }
    /// ```
    pub async fn patch<P: Serialize>(
        &self,
        name: &str,
        patch: &Patch<P>,
        params: &PatchParams,
    ) -> Result<K, Error> {
        self.patch_at("patch", name, None, patch, params).await
    }

    /// Applies `config` to the object `name` (server-side apply, creating it when it does
    /// not exist): its manager then owns exactly the fields `config` sets, and fields it set
    /// before and leaves out now are removed unless another manager holds them. A field
    /// another manager holds with another value fails with a 409 `Conflict` naming each one,
    /// unless [`ApplyParams::force`](crate::apply::ApplyParams::force).
    ///
    /// ```no_run
    /// # use informer_client::{Api, Client};
    /// # use informer_client::apply::{ApplyConfiguration, ApplyParams};
    /// # use k8s_openapi::api::core::v1::ConfigMap;
    /// # async fn run<C: ApplyConfiguration<Resource = ConfigMap>>(client: Client, config: C) -> Result<(), informer_client::Error> {
    /// let config_maps = Api::<ConfigMap>::namespaced(client, "shop");
    /// // `config`: a generated `ConfigMapApply`, e.g.
    /// // ConfigMapApply::new("settings", "shop").data([("mode", "fast")])
    /// let applied = config_maps.apply("settings", &config, &ApplyParams::new("my-controller")).await?;
    /// # Ok(()) }
    /// ```
    pub async fn apply<C>(&self, name: &str, config: &C, params: &ApplyParams) -> Result<K, Error>
    where
        C: ApplyConfiguration<Resource = K>,
    {
        self.patch_at(
            "apply",
            name,
            None,
            &Patch::Apply(config),
            &params.patch_params(),
        )
        .await
    }

    /// DELETEs the object `name`, with `DeleteOptions` in the body.
    ///
    /// ```no_run
    /// # use informer_client::api::{Api, DeleteParams, DeleteResponse};
    /// # use k8s_openapi::api::core::v1::ConfigMap;
    /// # async fn run(client: informer_client::Client) -> Result<(), informer_client::Error> {
    /// let config_maps = Api::<ConfigMap>::namespaced(client, "shop");
    /// let params = DeleteParams::foreground().precondition_resource_version("42");
    /// match config_maps.delete("settings", &params).await? {
    ///     DeleteResponse::Object(cm) => println!("deleting; finalizers: {:?}", cm.metadata.finalizers),
    ///     DeleteResponse::Deleted(_) => println!("gone"),
    /// }
    /// # Ok(()) }
    /// ```
    pub async fn delete(
        &self,
        name: &str,
        params: &DeleteParams,
    ) -> Result<DeleteResponse<K>, Error> {
        let request = self
            .by_name(self.namespace.as_deref(), "delete", name)?
            .delete(name, params);
        self.send_status(request).await
    }

    /// DELETEs every object `list` selects (label and field selectors) in this Api's
    /// namespace, or in all of them. Answers the deleted objects, or a `Status`.
    ///
    /// With a [shard selector](ListOptions::shard_selector), a list of one object with the
    /// same selectors is sent first, and the delete only when its `metadata.shardInfo` shows
    /// the server applies the shard selector: a server without KEP-5866 ignores it, and would
    /// delete every object of every shard. Such a server gets no delete, and the call fails
    /// with [`ErrorKind::InvalidState`].
    pub async fn delete_collection(
        &self,
        params: &DeleteParams,
        list: &ListOptions,
    ) -> Result<DeleteResponse<ObjectList<K>>, Error> {
        if let Some(selector) = &list.shard_selector {
            let probe = ListOptions {
                label_selector: list.label_selector.clone(),
                field_selector: list.field_selector.clone(),
                limit: Some(1),
                shard_selector: Some(selector.clone()),
                ..ListOptions::default()
            };
            let page = self.list(&probe).await?;
            if !page
                .shard_info
                .as_ref()
                .is_some_and(|i| i.applies(selector))
            {
                return Err(Error::other(
                    ErrorKind::InvalidState,
                    format!("delete collection of {}", self.resource.plural()),
                    format!(
                        "the server does not apply shard selectors (a list with shardSelector={selector} did not echo it in metadata.shardInfo: it predates KEP-5866 or has the ShardedListAndWatch feature gate off), so it would delete the objects of every shard; nothing was deleted"
                    ),
                ));
            }
        }
        let request = self
            .builder("delete_collection")
            .delete_collection(params, list);
        Ok(match self.send_status::<WireList<K>>(request).await? {
            DeleteResponse::Object(list) => DeleteResponse::Object(ObjectList {
                metadata: list.metadata,
                items: list.items,
                shard_info: None,
            }),
            DeleteResponse::Deleted(status) => DeleteResponse::Deleted(status),
        })
    }
}

impl<K, S> Api<K, S>
where
    K: DeserializeOwned + Send + 'static,
    S: Subresources,
{
    /// Lists one page (`limit`/`continue` in `options`), decoded while it streams in.
    /// The future does not borrow `self`, so a `ListWatch` closure can return it.
    pub fn list(
        &self,
        options: &ListOptions,
    ) -> impl Future<Output = Result<ObjectList<K>, Error>> + Send + 'static {
        self.list_as(options, self.protobuf)
    }

    /// [`list`](Self::list), decoding the items as `T` (JSON) or with `protobuf`'s decoders
    /// (where the server answers protobuf): e.g. `Arc<K>`, as an informer's
    /// `ListerWatcher` hands items out. informer-runtime's typed informers list this way,
    /// with decoders that build each object inside the `Arc` their cache keeps.
    pub fn list_as<T>(
        &self,
        options: &ListOptions,
        protobuf: Option<ProtobufDecoders<T>>,
    ) -> impl Future<Output = Result<ObjectList<T>, Error>> + Send + 'static
    where
        T: DeserializeOwned + Send + 'static,
    {
        match self.negotiated(self.builder("list").list(options), |a| &a.0) {
            Ok(request) => Either::Left(
                self.client
                    .request_list_negotiated(request, self.protobuf_for(options, protobuf)),
            ),
            Err(e) => Either::Right(future::ready(Err(e))),
        }
    }

    /// Starts a watch (`resource_version`, `allow_watch_bookmarks`, `timeout_seconds` in
    /// `options`). The future does not borrow `self`.
    ///
    /// ```no_run
    /// # use futures_util::StreamExt;
    /// # use informer_client::api::Api;
    /// # use informer_client::{ListOptions, WatchEvent};
    /// # use k8s_openapi::api::core::v1::Pod;
    /// # async fn run(client: informer_client::Client) -> Result<(), informer_client::Error> {
    /// let pods = Api::<Pod>::namespaced(client, "shop");
    /// let list = pods.list(&ListOptions::default()).await?;
    /// let from = ListOptions { resource_version: list.metadata.resource_version, ..Default::default() };
    /// let mut events = pods.watch(&from).await?;
    /// while let Some(event) = events.next().await {
    ///     if let WatchEvent::Added(pod) = event? { println!("{:?}", pod.metadata.name); }
    /// }
    /// # Ok(()) }
    /// ```
    pub fn watch(
        &self,
        options: &ListOptions,
    ) -> impl Future<Output = Result<WatchStream<K>, Error>> + Send + 'static {
        self.watch_as(options, self.protobuf)
    }

    /// [`watch`](Self::watch), decoding the objects as `T` with `protobuf`'s decoders where
    /// the server answers protobuf, as [`list_as`](Self::list_as) decodes a list.
    pub fn watch_as<T>(
        &self,
        options: &ListOptions,
        protobuf: Option<ProtobufDecoders<T>>,
    ) -> impl Future<Output = Result<WatchStream<T>, Error>> + Send + 'static
    where
        T: DeserializeOwned + Send + 'static,
    {
        match self.negotiated(self.builder("watch").watch(options), |a| &a.1) {
            Ok(request) => Either::Left(
                self.client
                    .request_events_negotiated(request, self.protobuf_for(options, protobuf)),
            ),
            Err(e) => Either::Right(future::ready(Err(e))),
        }
    }

    /// The `protobuf` decoders a list or watch with `options` may use: none under an
    /// `Accept` of [`with_accept`](Self::with_accept) or with a shard selector.
    fn protobuf_for<T>(
        &self,
        options: &ListOptions,
        protobuf: Option<ProtobufDecoders<T>>,
    ) -> Option<ProtobufDecoders<T>> {
        protobuf.filter(|_| self.accept.is_none() && options.shard_selector.is_none())
    }

    /// `built` with the `Accept` [`with_accept`](Self::with_accept) chose for it, if any.
    fn negotiated(
        &self,
        built: Result<Request, Error>,
        pick: impl Fn(&(Option<String>, Option<String>)) -> &Option<String>,
    ) -> Result<Request, Error> {
        let request = self.at_server(built)?;
        match self.accept.as_deref().and_then(|a| pick(a).as_deref()) {
            Some(accept) => self.at_server(request.with_accept(accept)),
            None => Ok(request),
        }
    }
}

/// A `*List` body as delete_collection answers it.
#[derive(Deserialize)]
struct WireList<K> {
    #[serde(default)]
    metadata: ListMeta,
    #[serde(default = "Vec::new")]
    items: Vec<K>,
}
