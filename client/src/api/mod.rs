//! `Api<K>`: typed reads and writes of one resource over a [`Client`] (client-go's typed
//! clientset, e.g. `CoreV1().Pods(namespace)`), with paths, query parameters and bodies
//! exactly as kube-apiserver expects them.
//!
//! The scope comes from `K`: [`Api::namespaced`] exists only for namespaced resources;
//! [`Api::all`] covers every namespace (list, watch, delete_collection) or a cluster-scoped
//! resource. The second type parameter says which subresources the resource has
//! ([`NoSubresources`], [`StatusSubresource`], [`ScaleSubresource`], [`StatusAndScale`]);
//! `get_status`/`update_status`/`patch_status` and `get_scale`/`update_scale`/`patch_scale`
//! exist only where it says so.
//!
//! ```no_run
//! use informer_runtime::api::{Api, DeleteParams, Patch, PatchParams, PostParams, StatusSubresource};
//! use informer_runtime::{Client, ListOptions};
//! use k8s_openapi::api::core::v1::{ConfigMap, Pod};
//! use serde_json::json;
//!
//! # async fn run() -> Result<(), informer_runtime::Error> {
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

use std::any::TypeId;
use std::future::Future;
use std::marker::PhantomData;

use k8s_openapi::apimachinery::pkg::apis::meta::v1::{ListMeta, ObjectMeta, Status};
use reqwest::Method;
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

use crate::client::{check_segment, Client, Request};
use crate::error::{Error, ErrorKind};
use crate::list_options::ListOptions;
use crate::watch_event::{ObjectList, WatchStream};

/// The content type of object bodies.
const JSON: &str = "application/json";

/// Typed access to one resource `K` in one namespace, in all namespaces, or cluster-wide.
/// Cheap to clone. `S` names the subresources `K` has (see the [module docs](self)).
pub struct Api<K, S = NoSubresources> {
    client: Client,
    namespace: Option<String>,
    marker: PhantomData<fn() -> (K, S)>,
}

impl<K, S> Clone for Api<K, S> {
    fn clone(&self) -> Self {
        Self {
            client: self.client.clone(),
            namespace: self.namespace.clone(),
            marker: PhantomData,
        }
    }
}

impl<K: k8s_openapi::Resource, S> std::fmt::Debug for Api<K, S> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Api")
            .field("resource", &K::URL_PATH_SEGMENT)
            .field("api_version", &K::API_VERSION)
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
    /// # use informer_runtime::api::{Api, StatusSubresource};
    /// # use k8s_openapi::api::core::v1::{ConfigMap, Pod};
    /// # async fn run(client: informer_runtime::Client) -> Result<(), informer_runtime::Error> {
    /// let config_maps = Api::<ConfigMap>::namespaced(client.clone(), "shop");
    /// let pods: Api<Pod, StatusSubresource> = Api::namespaced(client, "shop");
    /// let pod = pods.get_status("web-0").await?;
    /// # Ok(()) }
    /// ```
    pub fn namespaced(client: Client, namespace: &str) -> Self
    where
        K: k8s_openapi::Resource<Scope = k8s_openapi::NamespaceResourceScope>,
    {
        Self {
            client,
            namespace: Some(namespace.to_owned()).filter(|ns| !ns.is_empty()),
            marker: PhantomData,
        }
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
    /// # use informer_runtime::api::Api;
    /// # use k8s_openapi::api::core::v1::{Namespace, Pod};
    /// # async fn run(client: informer_runtime::Client) -> Result<(), informer_runtime::Error> {
    /// let namespaces = Api::<Namespace>::all(client.clone());
    /// let shop = namespaces.get("shop").await?;
    /// let every_pod = Api::<Pod>::all(client).list(&Default::default()).await?;
    /// # Ok(()) }
    /// ```
    pub fn all(client: Client) -> Self {
        Self {
            client,
            namespace: None,
            marker: PhantomData,
        }
    }

    /// The same `Api` with other subresource methods: for resources whose subresources the
    /// types do not say (a hand-written CRD type). Calling one the server lacks answers 404.
    pub fn with_subresources<S2: Subresources>(self) -> Api<K, S2> {
        Api {
            client: self.client,
            namespace: self.namespace,
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

    fn is_namespaced() -> bool {
        TypeId::of::<K::Scope>() == TypeId::of::<k8s_openapi::NamespaceResourceScope>()
    }

    /// `{plural} {namespace}/{name}` or `{plural} {name}`, for messages.
    fn describe(namespace: Option<&str>, name: &str) -> String {
        match namespace {
            Some(ns) => format!("{} {ns}/{name}", K::URL_PATH_SEGMENT),
            None => format!("{} {name}", K::URL_PATH_SEGMENT),
        }
    }

    fn invalid(&self, verb: &str, what: &str, message: impl Into<String>) -> Error {
        Error::other(
            ErrorKind::InvalidArgument,
            format!("{verb} {what} at {}", self.client.base_url()),
            message,
        )
    }

    /// A request to one object (or its `subresource`) in `namespace`.
    fn request_in(
        &self,
        method: Method,
        verb: &str,
        namespace: Option<&str>,
        name: &str,
        subresource: Option<&str>,
        query: Vec<(&'static str, String)>,
    ) -> Result<Request, Error> {
        let what = Self::describe(namespace, name);
        if let Err(why) = check_segment(name) {
            return Err(self.invalid(verb, &what, format!("invalid name {name:?}: {why}")));
        }
        if Self::is_namespaced() && namespace.is_none() {
            return Err(self.invalid(
                verb,
                &what,
                format!(
                    "{} are namespaced and this Api covers all namespaces: use Api::namespaced",
                    K::URL_PATH_SEGMENT
                ),
            ));
        }
        let mut path = self.client.collection_path::<K>(namespace, verb)?;
        path.push('/');
        path.push_str(name);
        let what = match subresource {
            Some(sub) => {
                path.push('/');
                path.push_str(sub);
                format!("{what} ({sub})")
            }
            None => what,
        };
        self.client.request_to(method, &path, &what, verb, query)
    }

    /// A request to the object `name` in this Api's namespace.
    fn object_request(
        &self,
        method: Method,
        verb: &str,
        name: &str,
        subresource: Option<&str>,
        query: Vec<(&'static str, String)>,
    ) -> Result<Request, Error> {
        self.request_in(
            method,
            verb,
            self.namespace.as_deref(),
            name,
            subresource,
            query,
        )
    }

    /// A request to the collection in `namespace` (all namespaces when `None`).
    fn collection_request(
        &self,
        method: Method,
        verb: &str,
        namespace: Option<&str>,
        query: Vec<(&'static str, String)>,
    ) -> Result<Request, Error> {
        let path = self.client.collection_path::<K>(namespace, verb)?;
        let what = match namespace.filter(|_| Self::is_namespaced()) {
            Some(ns) => format!("{} in {ns}", K::URL_PATH_SEGMENT),
            None => K::URL_PATH_SEGMENT.to_owned(),
        };
        self.client.request_to(method, &path, &what, verb, query)
    }

    async fn send_bytes(&self, request: &Request) -> Result<bytes::Bytes, Error> {
        let (_, body) = self.client.call(request).await?;
        Ok(body)
    }

    async fn send_decode<T: DeserializeOwned>(&self, request: Request) -> Result<T, Error> {
        let body = self.send_bytes(&request).await?;
        decode(&body, &request.context)
    }

    fn patch_request<P: Serialize>(
        &self,
        verb: &str,
        name: &str,
        subresource: Option<&str>,
        patch: &Patch<P>,
        params: &PatchParams,
    ) -> Result<Request, Error> {
        let what = Self::describe(self.namespace.as_deref(), name);
        let is_apply = matches!(patch, Patch::Apply(_));
        if is_apply && params.field_manager.as_deref().is_none_or(str::is_empty) {
            return Err(self.invalid(
                verb,
                &what,
                "server-side apply needs a field manager: use PatchParams::apply(\"name\")",
            ));
        }
        if params.force && !is_apply {
            return Err(self.invalid(
                verb,
                &what,
                format!(
                    "force applies to server-side apply only, not to a {} patch",
                    patch.kind()
                ),
            ));
        }
        let request =
            self.object_request(Method::PATCH, verb, name, subresource, params.query())?;
        let body = patch.body().map_err(|message| {
            Error::other(ErrorKind::InvalidArgument, &request.context, message)
        })?;
        Ok(request.with_body(body, patch.content_type()))
    }
}

impl<K, S> Api<K, S>
where
    K: k8s_openapi::Resource
        + k8s_openapi::Metadata<Ty = ObjectMeta>
        + Serialize
        + DeserializeOwned
        + Send
        + 'static,
    K::Scope: 'static,
    S: Subresources,
{
    /// The object's `metadata.name`, which update calls need.
    fn name_of(&self, object: &K, verb: &str) -> Result<String, Error> {
        let meta = object.metadata();
        meta.name.clone().filter(|n| !n.is_empty()).ok_or_else(|| {
            self.invalid(verb, K::URL_PATH_SEGMENT, "the object has no metadata.name")
        })
    }

    /// The namespace a write of `object` goes to: this Api's, else the object's.
    fn namespace_for<'a>(&'a self, object: &'a K) -> Option<&'a str> {
        if !Self::is_namespaced() {
            return None;
        }
        self.namespace
            .as_deref()
            .or(object.metadata().namespace.as_deref())
            .filter(|ns| !ns.is_empty())
    }

    fn object_request_for(
        &self,
        method: Method,
        verb: &str,
        object: &K,
        name: &str,
        subresource: Option<&str>,
        query: Vec<(&'static str, String)>,
    ) -> Result<Request, Error> {
        self.request_in(
            method,
            verb,
            self.namespace_for(object),
            name,
            subresource,
            query,
        )
    }

    /// GETs the object `name`.
    ///
    /// ```no_run
    /// # use informer_runtime::api::Api;
    /// # use k8s_openapi::api::core::v1::ConfigMap;
    /// # async fn run(client: informer_runtime::Client) -> Result<(), informer_runtime::Error> {
    /// let config_maps = Api::<ConfigMap>::namespaced(client, "shop");
    /// match config_maps.get("settings").await {
    ///     Ok(cm) => println!("{:?}", cm.data),
    ///     Err(e) if e.is_not_found() => println!("no settings yet"),
    ///     Err(e) => return Err(e),
    /// }
    /// # Ok(()) }
    /// ```
    pub async fn get(&self, name: &str) -> Result<K, Error> {
        let request = self.object_request(Method::GET, "get", name, None, Vec::new())?;
        self.send_decode(request).await
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
    /// # use informer_runtime::api::{Api, PostParams};
    /// # use k8s_openapi::api::core::v1::ConfigMap;
    /// # use k8s_openapi::apimachinery::pkg::apis::meta::v1::ObjectMeta;
    /// # async fn run(client: informer_runtime::Client) -> Result<(), informer_runtime::Error> {
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
        if Self::is_namespaced() && namespace.is_none() {
            return Err(self.invalid(
                "create",
                K::URL_PATH_SEGMENT,
                "the object has no metadata.namespace and this Api covers all namespaces",
            ));
        }
        let request = self.collection_request(Method::POST, "create", namespace, params.query())?;
        let request = with_json(request, object)?;
        self.send_decode(request).await
    }

    /// PUTs the whole object (client-go's `Update`). `metadata.resourceVersion` is sent as
    /// it is: a stale one answers 409 [`Conflict`](Error::is_conflict), so re-read and retry.
    pub async fn update(&self, object: &K, params: &PostParams) -> Result<K, Error> {
        let name = self.name_of(object, "update")?;
        let request =
            self.object_request_for(Method::PUT, "update", object, &name, None, params.query())?;
        let request = with_json(request, object)?;
        self.send_decode(request).await
    }

    /// PATCHes the object `name` with any of the four [`Patch`] types.
    ///
    /// ```no_run
    /// # use informer_runtime::api::{Api, Patch, PatchParams};
    /// # use k8s_openapi::api::apps::v1::Deployment;
    /// # async fn run(client: informer_runtime::Client, deploy: Deployment) -> Result<(), informer_runtime::Error> {
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
        let request = self.patch_request("patch", name, None, patch, params)?;
        self.send_decode(request).await
    }

    /// DELETEs the object `name`, with `DeleteOptions` in the body.
    ///
    /// ```no_run
    /// # use informer_runtime::api::{Api, DeleteParams, DeleteResponse};
    /// # use k8s_openapi::api::core::v1::ConfigMap;
    /// # async fn run(client: informer_runtime::Client) -> Result<(), informer_runtime::Error> {
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
        let request = self.object_request(Method::DELETE, "delete", name, None, Vec::new())?;
        let body = params.body().map_err(|e| {
            Error::other(
                ErrorKind::Encode,
                &request.context,
                format!("cannot encode DeleteOptions: {e}"),
            )
        })?;
        let request = request.with_body(body, JSON);
        let bytes = self.send_bytes(&request).await?;
        object_or_status(&bytes, &request.context)
    }

    /// DELETEs every object `list` selects (label and field selectors) in this Api's
    /// namespace, or in all of them. Answers the deleted objects, or a `Status`.
    pub async fn delete_collection(
        &self,
        params: &DeleteParams,
        list: &ListOptions,
    ) -> Result<DeleteResponse<ObjectList<K>>, Error> {
        let request = self.collection_request(
            Method::DELETE,
            "delete_collection",
            self.namespace.as_deref(),
            list.list_query(),
        )?;
        let body = params.body().map_err(|e| {
            Error::other(
                ErrorKind::Encode,
                &request.context,
                format!("cannot encode DeleteOptions: {e}"),
            )
        })?;
        let request = request.with_body(body, JSON);
        let bytes = self.send_bytes(&request).await?;
        Ok(
            match object_or_status::<WireList<K>>(&bytes, &request.context)? {
                DeleteResponse::Object(list) => DeleteResponse::Object(ObjectList {
                    metadata: list.metadata,
                    items: list.items,
                }),
                DeleteResponse::Deleted(status) => DeleteResponse::Deleted(status),
            },
        )
    }
}

impl<K, S> Api<K, S>
where
    K: k8s_openapi::ListableResource + k8s_openapi::Metadata + DeserializeOwned + Send + 'static,
    K::Scope: 'static,
    S: Subresources,
{
    /// Lists one page (`limit`/`continue` in `options`), decoded while it streams in.
    /// The future does not borrow `self`, so a `ListWatch` closure can return it.
    pub fn list(
        &self,
        options: &ListOptions,
    ) -> impl Future<Output = Result<ObjectList<K>, Error>> + Send + 'static {
        self.client.list::<K>(self.namespace.as_deref(), options)
    }

    /// Starts a watch (`resource_version`, `allow_watch_bookmarks`, `timeout_seconds` in
    /// `options`). The future does not borrow `self`.
    ///
    /// ```no_run
    /// # use futures_util::StreamExt;
    /// # use informer_runtime::api::Api;
    /// # use informer_runtime::{ListOptions, WatchEvent};
    /// # use k8s_openapi::api::core::v1::Pod;
    /// # async fn run(client: informer_runtime::Client) -> Result<(), informer_runtime::Error> {
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
        self.client.watch::<K>(self.namespace.as_deref(), options)
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

/// `request` with `value` as its JSON body.
fn with_json<T: Serialize>(request: Request, value: &T) -> Result<Request, Error> {
    match serde_json::to_vec(value) {
        Ok(body) => Ok(request.with_body(body, JSON)),
        Err(e) => Err(Error::other(
            ErrorKind::Encode,
            &request.context,
            format!("cannot encode the request body: {e}"),
        )),
    }
}

fn decode<T: DeserializeOwned>(body: &[u8], context: &str) -> Result<T, Error> {
    crate::json::from_slice(body).map_err(|source| Error::Decode {
        context: context.to_owned(),
        what: "the response body".to_owned(),
        source,
    })
}

/// The answer to a delete: a `Status` (by its `kind`), else the object.
fn object_or_status<T: DeserializeOwned>(
    body: &[u8],
    context: &str,
) -> Result<DeleteResponse<T>, Error> {
    #[derive(Deserialize)]
    struct Kind {
        #[serde(default)]
        kind: Option<String>,
    }
    let kind: Kind = decode(body, context)?;
    if kind.kind.as_deref() == Some("Status") {
        return Ok(DeleteResponse::Deleted(decode(body, context)?));
    }
    Ok(DeleteResponse::Object(decode(body, context)?))
}
