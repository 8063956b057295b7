//! Requests built without I/O (kube-core's `Request`): a [`RequestBuilder`] names one resource
//! in one namespace, in every namespace, or cluster-wide, and builds each request to it as
//! a [`Request`] value — method, path, query, `Accept`, body with its `Content-Type`, and the
//! words its errors carry — which [`Client`](crate::Client) sends:
//! [`request`](crate::Client::request), [`request_status`](crate::Client::request_status),
//! [`request_list`](crate::Client::request_list) and
//! [`request_events`](crate::Client::request_events).
//!
//! Names, namespaces and subresources are checked before they go into a path
//! ([`check_segment`]), so a malformed one is an
//! [`ErrorKind::InvalidArgument`] and nothing is
//! sent. [`Api`](crate::Api) is built on these: reach for a `RequestBuilder` when the typed
//! methods do not fit, e.g. to ask for another representation.
//!
//! ```
//! use informer_client::request::RequestBuilder;
//! use informer_client::ListOptions;
//! use k8s_openapi::api::core::v1::Pod;
//!
//! let pods = RequestBuilder::of::<Pod>(Some("shop"));
//! let list = pods.list(&ListOptions { limit: Some(50), ..Default::default() })?;
//! assert_eq!(list.path(), "/api/v1/namespaces/shop/pods");
//! assert_eq!(list.query(), [("limit", "50".to_owned())]);
//! assert_eq!(list.context(), "list pods");
//! assert!(pods.get("web/0").is_err()); // a name may not hold '/'
//! # Ok::<(), informer_client::Error>(())
//! ```

use std::any::TypeId;
use std::sync::Arc;

use bytes::Bytes;
use http::{HeaderValue, Method};
use serde::Serialize;

use crate::api::{DeleteParams, Patch, PatchParams, PostParams};
use crate::discovery::ApiResource;
use crate::error::{Error, ErrorKind};
use crate::list_options::ListOptions;
use crate::shard_scan::ShardScan;

/// The `Accept` of every request unless it names another, and the `Content-Type` of bodies
/// other than patches.
const JSON: &str = "application/json";

/// One request, ready to send: what [`Client`](crate::Client)'s `request*` methods take.
///
/// Built by a [`RequestBuilder`], or by [`Request::get_path`] for paths outside any resource
/// (discovery). [`context`](Self::context) says what the request does (`list pods`,
/// `update configmaps shop/settings`); the client adds where it went, so every error of
/// the request reads e.g. `list pods at https://10.0.0.1:6443/api/v1/pods: ...`.
#[derive(Clone, Debug, PartialEq)]
pub struct Request {
    method: Method,
    path: String,
    query: Vec<(&'static str, String)>,
    accept: HeaderValue,
    body: Option<(Bytes, HeaderValue)>,
    context: String,
    /// The shard selector the client enforces on a list or watch the server may not filter.
    shard: Option<ShardScan>,
}

impl Request {
    /// A GET of `path`, e.g. `/apis` or `/apis/apps/v1` for discovery; its context names the
    /// path's last segment (`get v1`). The path must start with `/`.
    ///
    /// ```
    /// use informer_client::request::Request;
    ///
    /// let groups = Request::get_path("/apis")?;
    /// assert_eq!(groups.context(), "get apis");
    /// assert!(Request::get_path("apis").is_err());
    /// # Ok::<(), informer_client::Error>(())
    /// ```
    pub fn get_path(path: &str) -> Result<Self, Error> {
        let what = path
            .split(['?', '#'])
            .next()
            .unwrap_or_default()
            .trim_end_matches('/')
            .rsplit('/')
            .next()
            .filter(|r| !r.is_empty())
            .unwrap_or(path);
        let context = format!("get {what}");
        if !path.starts_with('/') {
            return Err(Error::other(
                ErrorKind::InvalidArgument,
                context,
                "the path must start with `/`",
            ));
        }
        Ok(Self::new(Method::GET, path.to_owned(), Vec::new(), context))
    }

    fn new(
        method: Method,
        path: String,
        query: Vec<(&'static str, String)>,
        context: String,
    ) -> Self {
        Self {
            method,
            path,
            query,
            accept: HeaderValue::from_static(JSON),
            body: None,
            context,
            shard: None,
        }
    }

    /// This request asking for `accept` instead of `application/json`, e.g. a
    /// `PartialObjectMetadataList` by content negotiation. A value that cannot be a header
    /// is an [`ErrorKind::InvalidArgument`].
    ///
    /// ```
    /// use informer_client::request::RequestBuilder;
    /// use informer_client::ListOptions;
    /// use k8s_openapi::api::core::v1::Pod;
    ///
    /// let accept = "application/json;as=PartialObjectMetadataList;g=meta.k8s.io;v=v1,application/json";
    /// let list = RequestBuilder::of::<Pod>(None).list(&ListOptions::default())?.with_accept(accept)?;
    /// assert_eq!(list.accept(), accept);
    /// # Ok::<(), informer_client::Error>(())
    /// ```
    pub fn with_accept(mut self, accept: &str) -> Result<Self, Error> {
        self.accept = HeaderValue::from_str(accept).map_err(|_| {
            Error::other(
                ErrorKind::InvalidArgument,
                &self.context,
                format!("invalid Accept header {accept:?}"),
            )
        })?;
        Ok(self)
    }

    /// The HTTP method.
    pub fn method(&self) -> &Method {
        &self.method
    }

    /// The path, from the server's root: `/api/v1/namespaces/shop/pods/web-0`.
    pub fn path(&self) -> &str {
        &self.path
    }

    /// The query parameters, in the order they are sent (unencoded).
    pub fn query(&self) -> &[(&'static str, String)] {
        &self.query
    }

    /// The `Accept` header.
    pub fn accept(&self) -> &str {
        // Built from a `&str`, so it is always valid UTF-8.
        self.accept.to_str().unwrap_or(JSON)
    }

    /// The `Content-Type` of the body, if there is one.
    pub fn content_type(&self) -> Option<&str> {
        self.body.as_ref().and_then(|(_, ct)| ct.to_str().ok())
    }

    /// The body, if there is one.
    pub fn body(&self) -> Option<&[u8]> {
        self.body.as_ref().map(|(b, _)| &b[..])
    }

    /// What the request does, for its errors: `{verb} {what}`, e.g. `get configmaps shop/settings`.
    pub fn context(&self) -> &str {
        &self.context
    }

    /// The shard selector enforced on the client (see [`ListOptions::client_shard_filter`]).
    pub(crate) fn shard_scan(&self) -> Option<&ShardScan> {
        self.shard.as_ref()
    }

    pub(crate) fn accept_header(&self) -> &HeaderValue {
        &self.accept
    }

    pub(crate) fn body_and_type(&self) -> Option<&(Bytes, HeaderValue)> {
        self.body.as_ref()
    }

    fn with_body(mut self, body: Vec<u8>, content_type: &'static str) -> Self {
        self.body = Some((Bytes::from(body), HeaderValue::from_static(content_type)));
        self
    }

    /// This request with `value` as its JSON body.
    fn with_json<T: Serialize + ?Sized>(self, value: &T) -> Result<Self, Error> {
        match serde_json::to_vec(value) {
            Ok(body) => Ok(self.with_body(body, JSON)),
            Err(e) => Err(Error::other(
                ErrorKind::Encode,
                &self.context,
                format!("cannot encode the request body: {e}"),
            )),
        }
    }

    fn with_delete_options(self, params: &DeleteParams) -> Result<Self, Error> {
        match params.body() {
            Ok(body) => Ok(self.with_body(body, JSON)),
            Err(e) => Err(Error::other(
                ErrorKind::Encode,
                &self.context,
                format!("cannot encode DeleteOptions: {e}"),
            )),
        }
    }
}

/// The resource a [`RequestBuilder`] reaches: a type's constants, or a description found at
/// run time.
#[derive(Clone, Debug)]
pub(crate) enum Resource {
    Typed {
        group: &'static str,
        version: &'static str,
        plural: &'static str,
        namespaced: bool,
    },
    Described(Arc<ApiResource>),
}

impl Resource {
    /// The resource of the k8s-openapi or generated type `K`.
    pub(crate) fn of<K>() -> Self
    where
        K: k8s_openapi::Resource,
        K::Scope: 'static,
    {
        Resource::Typed {
            group: K::GROUP,
            version: K::VERSION,
            plural: K::URL_PATH_SEGMENT,
            namespaced: TypeId::of::<K::Scope>()
                == TypeId::of::<k8s_openapi::NamespaceResourceScope>(),
        }
    }

    /// The plural name in paths, e.g. `pods`.
    pub(crate) fn plural(&self) -> &str {
        match self {
            Resource::Typed { plural, .. } => plural,
            Resource::Described(r) => &r.plural,
        }
    }

    /// Whether objects live in namespaces.
    pub(crate) fn namespaced(&self) -> bool {
        match self {
            Resource::Typed { namespaced, .. } => *namespaced,
            Resource::Described(r) => r.namespaced,
        }
    }

    /// `v1` for the core group, else `group/version`.
    pub(crate) fn api_version(&self) -> String {
        match self {
            Resource::Typed { group, version, .. } => crate::discovery::api_version(group, version),
            Resource::Described(r) => r.api_version(),
        }
    }
}

/// The collection of one resource in one namespace, in every namespace, or cluster-wide:
/// builds the requests to it and to its objects (kube-core's `Request`), without I/O.
///
/// Each method checks what it puts into the path and answers the [`Request`], or an
/// [`ErrorKind::InvalidArgument`] naming the request (`get pods shop/web/0: invalid name
/// "web/0": ...`). Requests by name need a namespace for a namespaced resource.
///
/// ```
/// use informer_client::api::{Patch, PatchParams};
/// use informer_client::request::RequestBuilder;
/// use k8s_openapi::api::apps::v1::Deployment;
/// use serde_json::json;
///
/// let deployments = RequestBuilder::of::<Deployment>(Some("shop"));
/// let scale = Patch::Merge(json!({"spec": {"replicas": 3}}));
/// let patch = deployments.patch_subresource("scale", "web", &PatchParams::default(), &scale)?;
/// assert_eq!(patch.method(), "PATCH");
/// assert_eq!(patch.path(), "/apis/apps/v1/namespaces/shop/deployments/web/scale");
/// assert_eq!(patch.content_type(), Some("application/merge-patch+json"));
/// assert_eq!(patch.context(), "patch deployments shop/web (scale)");
/// # Ok::<(), informer_client::Error>(())
/// ```
#[derive(Clone, Debug)]
pub struct RequestBuilder {
    resource: Resource,
    /// The namespace in the path; `None` for every namespace or a cluster-scoped resource.
    namespace: Option<String>,
    /// The collection path, e.g. `/api/v1/namespaces/shop/pods`.
    path: String,
    /// Why the namespace cannot go into a path: every request fails with it.
    invalid_namespace: Option<String>,
    /// The verb errors name instead of the method's own.
    verb: Option<&'static str>,
}

impl RequestBuilder {
    /// The collection of the k8s-openapi or generated resource type `K` in `namespace`
    /// (every namespace when `None` or empty; ignored for a cluster-scoped `K`).
    pub fn of<K>(namespace: Option<&str>) -> Self
    where
        K: k8s_openapi::Resource,
        K::Scope: 'static,
    {
        Self::new(Resource::of::<K>(), namespace)
    }

    /// The collection of a resource known at run time, e.g. from
    /// [`Discovery`](crate::Discovery), in `namespace` (every namespace when `None` or empty;
    /// ignored for a cluster-scoped resource). Its path is
    /// [`ApiResource::collection_path`]'s: the namespace is percent-encoded, not refused.
    pub fn for_resource(resource: &ApiResource, namespace: Option<&str>) -> Self {
        Self::new(Resource::Described(Arc::new(resource.clone())), namespace)
    }

    pub(crate) fn new(resource: Resource, namespace: Option<&str>) -> Self {
        let namespace = namespace.filter(|ns| resource.namespaced() && !ns.is_empty());
        let mut invalid_namespace = None;
        let path = match &resource {
            Resource::Typed {
                group,
                version,
                plural,
                ..
            } => {
                let mut path = if group.is_empty() {
                    format!("/api/{version}")
                } else {
                    format!("/apis/{group}/{version}")
                };
                if let Some(ns) = namespace {
                    match check_segment(ns) {
                        Ok(()) => {
                            path.push_str("/namespaces/");
                            path.push_str(ns);
                        }
                        Err(why) => {
                            invalid_namespace = Some(format!("invalid namespace {ns:?}: {why}"))
                        }
                    }
                }
                path.push('/');
                path.push_str(plural);
                path
            }
            Resource::Described(r) => r.collection_path(namespace),
        };
        Self {
            resource,
            namespace: namespace.map(str::to_owned),
            path,
            invalid_namespace,
            verb: None,
        }
    }

    /// This collection with requests whose errors name `verb` instead of the method's own
    /// (`update` where the method is `replace`, `update_status`, ...).
    ///
    /// ```
    /// use informer_client::request::RequestBuilder;
    /// use k8s_openapi::api::core::v1::Pod;
    ///
    /// let get = RequestBuilder::of::<Pod>(Some("shop")).with_verb("get_status").get_subresource("status", "web-0")?;
    /// assert_eq!(get.context(), "get_status pods shop/web-0 (status)");
    /// # Ok::<(), informer_client::Error>(())
    /// ```
    #[must_use]
    pub fn with_verb(mut self, verb: &'static str) -> Self {
        self.verb = Some(verb);
        self
    }

    /// The collection path, e.g. `/api/v1/namespaces/shop/pods`.
    pub fn path(&self) -> &str {
        &self.path
    }

    /// The namespace requests go to: `None` for every namespace or a cluster-scoped resource.
    pub fn namespace(&self) -> Option<&str> {
        self.namespace.as_deref()
    }

    /// A list of one page (`limit`/`continue` in `options`).
    pub fn list(&self, options: &ListOptions) -> Result<Request, Error> {
        let what = self.resource.plural().to_owned();
        let mut request = self.to_collection(Method::GET, "list", what, options.list_query())?;
        request.shard = options.shard_scan();
        Ok(request)
    }

    /// A watch (`resourceVersion`, `allowWatchBookmarks`, `timeoutSeconds` in `options`).
    pub fn watch(&self, options: &ListOptions) -> Result<Request, Error> {
        let what = self.resource.plural().to_owned();
        let mut request = self.to_collection(Method::GET, "watch", what, options.watch_query())?;
        request.shard = options.shard_scan();
        Ok(request)
    }

    /// A GET of the object `name`.
    pub fn get(&self, name: &str) -> Result<Request, Error> {
        self.to_object(Method::GET, "get", name, None, Vec::new())
    }

    /// A POST of `object` to the collection, which creates it.
    pub fn create<T: Serialize + ?Sized>(
        &self,
        params: &PostParams,
        object: &T,
    ) -> Result<Request, Error> {
        self.to_collection(Method::POST, "create", self.in_namespace(), params.query())?
            .with_json(object)
    }

    /// A PUT of the whole `object` as `name` (client-go's `Update`).
    pub fn replace<T: Serialize + ?Sized>(
        &self,
        name: &str,
        params: &PostParams,
        object: &T,
    ) -> Result<Request, Error> {
        self.to_object(Method::PUT, "replace", name, None, params.query())?
            .with_json(object)
    }

    /// A PATCH of the object `name`, sent as the [`Patch`] type's content type. Apply
    /// needs a field manager, and only apply may force.
    pub fn patch<P: Serialize>(
        &self,
        name: &str,
        params: &PatchParams,
        patch: &Patch<P>,
    ) -> Result<Request, Error> {
        self.patch_at(name, None, params, patch)
    }

    /// A DELETE of the object `name`, with `params` as the `DeleteOptions` body.
    pub fn delete(&self, name: &str, params: &DeleteParams) -> Result<Request, Error> {
        self.to_object(Method::DELETE, "delete", name, None, Vec::new())?
            .with_delete_options(params)
    }

    /// A DELETE of every object `list` selects, with `params` as the `DeleteOptions` body.
    pub fn delete_collection(
        &self,
        params: &DeleteParams,
        list: &ListOptions,
    ) -> Result<Request, Error> {
        self.to_collection(
            Method::DELETE,
            "delete_collection",
            self.in_namespace(),
            list.list_query(),
        )?
        .with_delete_options(params)
    }

    /// A GET of the object `name`'s `subresource` (`status`, `scale`, ...).
    pub fn get_subresource(&self, subresource: &str, name: &str) -> Result<Request, Error> {
        self.to_object(Method::GET, "get", name, Some(subresource), Vec::new())
    }

    /// A PUT of `object` to the object `name`'s `subresource`.
    pub fn replace_subresource<T: Serialize + ?Sized>(
        &self,
        subresource: &str,
        name: &str,
        params: &PostParams,
        object: &T,
    ) -> Result<Request, Error> {
        self.to_object(
            Method::PUT,
            "replace",
            name,
            Some(subresource),
            params.query(),
        )?
        .with_json(object)
    }

    /// A PATCH of the object `name`'s `subresource`.
    pub fn patch_subresource<P: Serialize>(
        &self,
        subresource: &str,
        name: &str,
        params: &PatchParams,
        patch: &Patch<P>,
    ) -> Result<Request, Error> {
        self.patch_at(name, Some(subresource), params, patch)
    }

    fn patch_at<P: Serialize>(
        &self,
        name: &str,
        subresource: Option<&str>,
        params: &PatchParams,
        patch: &Patch<P>,
    ) -> Result<Request, Error> {
        let is_apply = matches!(patch, Patch::Apply(_));
        if is_apply && params.field_manager.as_deref().is_none_or(str::is_empty) {
            return Err(self.invalid(
                "patch",
                &self.describe(name),
                "server-side apply needs a field manager: use PatchParams::apply(\"name\")",
            ));
        }
        if params.force && !is_apply {
            return Err(self.invalid(
                "patch",
                &self.describe(name),
                format!(
                    "force applies to server-side apply only, not to a {} patch",
                    patch.kind()
                ),
            ));
        }
        let request = self.to_object(Method::PATCH, "patch", name, subresource, params.query())?;
        let body = patch.body().map_err(|message| {
            Error::other(ErrorKind::InvalidArgument, &request.context, message)
        })?;
        Ok(request.with_body(body, patch.content_type()))
    }

    /// `{plural} in {namespace}`, or `{plural}`, for messages about the collection.
    fn in_namespace(&self) -> String {
        match &self.namespace {
            Some(ns) => format!("{} in {ns}", self.resource.plural()),
            None => self.resource.plural().to_owned(),
        }
    }

    /// `{plural} {namespace}/{name}`, or `{plural} {name}`, for messages about one object.
    fn describe(&self, name: &str) -> String {
        match &self.namespace {
            Some(ns) => format!("{} {ns}/{name}", self.resource.plural()),
            None => format!("{} {name}", self.resource.plural()),
        }
    }

    fn invalid(&self, verb: &str, what: &str, message: impl Into<String>) -> Error {
        Error::other(
            ErrorKind::InvalidArgument,
            format!("{} {what}", self.verb.unwrap_or(verb)),
            message,
        )
    }

    fn to_collection(
        &self,
        method: Method,
        verb: &str,
        what: String,
        query: Vec<(&'static str, String)>,
    ) -> Result<Request, Error> {
        if let Some(why) = &self.invalid_namespace {
            return Err(self.invalid(verb, self.resource.plural(), why.clone()));
        }
        let context = format!("{} {what}", self.verb.unwrap_or(verb));
        Ok(Request::new(method, self.path.clone(), query, context))
    }

    fn to_object(
        &self,
        method: Method,
        verb: &str,
        name: &str,
        subresource: Option<&str>,
        query: Vec<(&'static str, String)>,
    ) -> Result<Request, Error> {
        let mut what = self.describe(name);
        if let Err(why) = check_segment(name) {
            return Err(self.invalid(verb, &what, format!("invalid name {name:?}: {why}")));
        }
        if self.resource.namespaced() && self.namespace.is_none() {
            return Err(self.invalid(
                verb,
                &what,
                format!(
                    "{} are namespaced and the request names no namespace",
                    self.resource.plural()
                ),
            ));
        }
        let mut path = format!("{}/{name}", self.path);
        if let Some(sub) = subresource {
            if let Err(why) = check_segment(sub) {
                return Err(self.invalid(
                    verb,
                    &what,
                    format!("invalid subresource {sub:?}: {why}"),
                ));
            }
            path.push('/');
            path.push_str(sub);
            what = format!("{what} ({sub})");
        }
        let mut request = self.to_collection(method, verb, what, query)?;
        request.path = path;
        Ok(request)
    }
}

/// Checks one path segment (a namespace or name) before it goes into a request path: non-empty, no `/`, `?`, `#` or `%`,
/// not `.` or `..` (which a URL would resolve away), as client-go's `IsValidPathSegmentName`.
pub fn check_segment(segment: &str) -> Result<(), &'static str> {
    if segment.is_empty() {
        return Err("it is empty");
    }
    if segment == "." || segment == ".." {
        return Err("it may not be '.' or '..'");
    }
    if segment.contains(['/', '%', '?', '#']) {
        return Err("it may not contain '/', '%', '?' or '#'");
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use k8s_openapi::api::core::v1::{ConfigMap, Namespace, Pod};
    use serde_json::json;

    fn body_json(request: &Request) -> serde_json::Value {
        serde_json::from_slice(request.body().unwrap()).unwrap()
    }

    fn invalid(built: Result<Request, Error>) -> String {
        let e = built.unwrap_err();
        assert_eq!(e.kind(), Some(ErrorKind::InvalidArgument), "{e}");
        e.to_string()
    }

    #[test]
    fn lists_and_watches_carry_their_query_and_json_accept() {
        let pods = RequestBuilder::of::<Pod>(Some("shop"));
        let options = ListOptions {
            label_selector: Some("tier=web".into()),
            resource_version: Some("7".into()),
            allow_watch_bookmarks: true,
            ..Default::default()
        };
        let list = pods.list(&options).unwrap();
        assert_eq!(list.method(), Method::GET);
        assert_eq!(list.path(), "/api/v1/namespaces/shop/pods");
        assert_eq!(list.query(), options.list_query());
        assert_eq!(list.accept(), "application/json");
        assert_eq!((list.body(), list.content_type()), (None, None));
        assert_eq!(list.context(), "list pods");
        let watch = pods.watch(&options).unwrap();
        assert_eq!(watch.query(), options.watch_query());
        assert_eq!(watch.context(), "watch pods");
    }

    #[test]
    fn paths_follow_group_version_and_scope() {
        let o = ListOptions::default();
        let path = |r: Result<Request, Error>| r.unwrap().path().to_owned();
        assert_eq!(
            path(RequestBuilder::of::<k8s_openapi::api::apps::v1::Deployment>(Some("a")).list(&o)),
            "/apis/apps/v1/namespaces/a/deployments"
        );
        assert_eq!(
            path(RequestBuilder::of::<Pod>(None).list(&o)),
            "/api/v1/pods"
        );
        assert_eq!(
            path(RequestBuilder::of::<Pod>(Some("")).list(&o)),
            "/api/v1/pods"
        );
        let namespaces = RequestBuilder::of::<Namespace>(Some("ignored"));
        assert_eq!(namespaces.namespace(), None);
        assert_eq!(path(namespaces.get("shop")), "/api/v1/namespaces/shop");
        assert_eq!(
            namespaces.get("shop").unwrap().context(),
            "get namespaces shop"
        );
    }

    #[test]
    fn writes_carry_their_method_params_and_json_body() {
        let cms = RequestBuilder::of::<ConfigMap>(Some("shop"));
        let cm = json!({"metadata": {"name": "settings"}});
        let params = PostParams::default().dry_run().field_manager("ctl");

        let create = cms.create(&params, &cm).unwrap();
        assert_eq!(create.method(), Method::POST);
        assert_eq!(create.path(), "/api/v1/namespaces/shop/configmaps");
        assert_eq!(create.query(), params.query());
        assert_eq!(create.content_type(), Some("application/json"));
        assert_eq!(body_json(&create), cm);
        assert_eq!(create.context(), "create configmaps in shop");

        let replace = cms.replace("settings", &params, &cm).unwrap();
        assert_eq!(replace.method(), Method::PUT);
        assert_eq!(
            replace.path(),
            "/api/v1/namespaces/shop/configmaps/settings"
        );
        assert_eq!(replace.context(), "replace configmaps shop/settings");

        let delete = cms
            .delete("settings", &DeleteParams::default().grace_period(0))
            .unwrap();
        assert_eq!(delete.method(), Method::DELETE);
        assert_eq!(body_json(&delete)["kind"], "DeleteOptions");
        assert_eq!(body_json(&delete)["gracePeriodSeconds"], 0);

        let selected = ListOptions {
            label_selector: Some("app=shop".into()),
            ..Default::default()
        };
        let all = cms
            .delete_collection(&DeleteParams::default(), &selected)
            .unwrap();
        assert_eq!(all.method(), Method::DELETE);
        assert_eq!(all.path(), "/api/v1/namespaces/shop/configmaps");
        assert_eq!(all.query(), selected.list_query());
        assert_eq!(all.context(), "delete_collection configmaps in shop");
    }

    #[test]
    fn each_patch_type_has_its_content_type() {
        let cms = RequestBuilder::of::<ConfigMap>(Some("shop"));
        let value = json!({"data": {"k": "v"}});
        for (patch, content_type) in [
            (Patch::Merge(value.clone()), "application/merge-patch+json"),
            (
                Patch::Strategic(value.clone()),
                "application/strategic-merge-patch+json",
            ),
            (
                Patch::Json(json!([{"op": "remove", "path": "/data"}])),
                "application/json-patch+json",
            ),
        ] {
            let request = cms
                .patch("settings", &PatchParams::default(), &patch)
                .unwrap();
            assert_eq!(request.method(), Method::PATCH);
            assert_eq!(request.content_type(), Some(content_type));
        }
        let apply = PatchParams::apply("ctl").force();
        let request = cms
            .patch("settings", &apply, &Patch::Apply(&value))
            .unwrap();
        assert_eq!(request.content_type(), Some("application/apply-patch+yaml"));
        assert_eq!(request.query(), apply.query());
        assert_eq!(body_json(&request), value);

        let message =
            invalid(cms.patch("settings", &PatchParams::default(), &Patch::Apply(&value)));
        assert!(message.contains("needs a field manager"), "{message}");
        let forced = PatchParams::default().force();
        let message = invalid(cms.patch("settings", &forced, &Patch::Merge(&value)));
        assert!(message.contains("not to a merge patch"), "{message}");
        let message = invalid(cms.patch("settings", &PatchParams::default(), &Patch::Json(&value)));
        assert!(message.contains("array of operations"), "{message}");
    }

    #[test]
    fn subresources_extend_the_object_path() {
        let pods = RequestBuilder::of::<Pod>(Some("shop"));
        let get = pods.get_subresource("status", "web-0").unwrap();
        assert_eq!(get.path(), "/api/v1/namespaces/shop/pods/web-0/status");
        assert_eq!(get.context(), "get pods shop/web-0 (status)");
        let put = pods
            .clone()
            .with_verb("update_status")
            .replace_subresource("status", "web-0", &PostParams::default(), &json!({}))
            .unwrap();
        assert_eq!(put.method(), Method::PUT);
        assert_eq!(put.context(), "update_status pods shop/web-0 (status)");
        let patch = pods
            .patch_subresource(
                "status",
                "web-0",
                &PatchParams::default(),
                &Patch::Merge(json!({})),
            )
            .unwrap();
        assert_eq!(patch.path(), "/api/v1/namespaces/shop/pods/web-0/status");
        let message = invalid(pods.get_subresource("status/../x", "web-0"));
        assert!(
            message.starts_with("get pods shop/web-0: invalid subresource"),
            "{message}"
        );
    }

    #[test]
    fn malformed_segments_are_refused_naming_the_request() {
        let pods = RequestBuilder::of::<Pod>(Some("shop"));
        for name in ["", ".", "..", "a/b", "a%2F", "a?b", "a#b"] {
            let message = invalid(pods.get(name));
            assert!(
                message.starts_with(&format!("get pods shop/{name}: invalid name")),
                "{message}"
            );
        }
        let bad_namespace = RequestBuilder::of::<Pod>(Some("a/b"));
        let message = invalid(bad_namespace.list(&ListOptions::default()));
        assert_eq!(
            message,
            "list pods: invalid namespace \"a/b\": it may not contain '/', '%', '?' or '#'"
        );
        invalid(bad_namespace.get("web-0"));
        let message = invalid(bad_namespace.with_verb("update").replace(
            "web-0",
            &PostParams::default(),
            &json!({}),
        ));
        assert!(
            message.starts_with("update pods: invalid namespace"),
            "{message}"
        );
        let message = invalid(RequestBuilder::of::<Pod>(None).get("web-0"));
        assert!(message.contains("names no namespace"), "{message}");
    }

    #[test]
    fn described_resources_percent_encode_their_namespace() {
        let widgets = ApiResource::new("example.com", "v1", "Widget", "widgets", true);
        let in_ns = RequestBuilder::for_resource(&widgets, Some("a b"));
        let list = in_ns.list(&ListOptions::default()).unwrap();
        assert_eq!(list.path(), "/apis/example.com/v1/namespaces/a%20b/widgets");
        let get = in_ns.get("w-1").unwrap();
        assert_eq!(
            get.path(),
            "/apis/example.com/v1/namespaces/a%20b/widgets/w-1"
        );
        assert_eq!(get.context(), "get widgets a b/w-1");
        let cluster = ApiResource::new("example.com", "v1", "Gizmo", "gizmos", false);
        let get = RequestBuilder::for_resource(&cluster, Some("ignored"))
            .get("g")
            .unwrap();
        assert_eq!(get.path(), "/apis/example.com/v1/gizmos/g");
    }

    #[test]
    fn accept_can_be_replaced_and_paths_read_directly() {
        let list = RequestBuilder::of::<Pod>(None)
            .list(&ListOptions::default())
            .unwrap();
        let accept = "application/json;as=PartialObjectMetadataList;g=meta.k8s.io;v=v1";
        assert_eq!(list.clone().with_accept(accept).unwrap().accept(), accept);
        let message = invalid(list.with_accept("a\nb"));
        assert!(
            message.starts_with("list pods: invalid Accept header"),
            "{message}"
        );

        let discovery = Request::get_path("/apis/apps/v1").unwrap();
        assert_eq!(discovery.path(), "/apis/apps/v1");
        assert_eq!(discovery.context(), "get v1");
        assert!(discovery.query().is_empty());
        invalid(Request::get_path("apis"));
    }
}
