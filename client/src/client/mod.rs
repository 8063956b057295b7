//! The HTTP client informers list and watch with: hyper over rustls (HTTP/2 where the
//! server offers it), configured from a kubeconfig or the in-cluster service account.
//!
//! List bodies are split item by item while they stream in, and watch bodies line by
//! line, so neither is ever buffered whole; the pieces are decoded on every core, in order.
//! Every error names the step, the resource and the server
//! (`list pods at https://10.0.0.1:6443/api/v1/pods: ...`).
//!
//! Nothing a server sends is held without bound: one watch event or list item is at most
//! [`Config::max_object_bytes`], a body read whole or a list at most
//! [`Config::max_body_bytes`], both counted after decompression. Redirects are refused: the
//! Kubernetes API never redirects a client, and following one would re-send the request, its
//! body and its credentials and impersonation headers, to wherever the server points.

mod auth;
pub mod config;
mod connect;
mod decode;
mod decode_pool;
mod error_response;
#[cfg(feature = "kube")]
mod kube;
pub mod kubeconfig;
pub(crate) mod protobuf_list;
mod proxy;
mod tls;
mod transport;
mod url;
mod watch_body;

use std::future::Future;
use std::sync::Arc;
use std::time::Duration;

use bytes::Bytes;
use futures_util::future::BoxFuture;
use futures_util::{FutureExt, StreamExt};
use http::header::{
    HeaderMap, HeaderName, HeaderValue, ACCEPT_ENCODING, CONTENT_TYPE, LOCATION,
    PROXY_AUTHORIZATION, USER_AGENT as USER_AGENT_HEADER,
};
use http::{Method, Uri};
use hyper_util::rt::{TokioExecutor, TokioTimer};
use k8s_openapi::apimachinery::pkg::apis::meta::v1::ListMeta;
use serde::de::DeserializeOwned;

pub use config::{AuthConfig, Config, ExecConfig, Identity, Impersonate, SERVICE_ACCOUNT_DIR};
pub use kubeconfig::KubeConfigOptions;

use crate::api::DeleteResponse;
use crate::error::{ConfigErrorKind, Error, ErrorKind};
use crate::protobuf::{self, ProtobufDecoders};
use crate::request::Request;
use crate::shard_scan::ShardScan;
use crate::watch_event::{ObjectList, ShardInfo, WatchStream};
use auth::Authenticator;
use decode::{LineSplitter, ListDecoder, ListError, Oversized};
use decode_pool::{Batch, DecodePool, Erased, Job};
pub(crate) use transport::Body;
use transport::{Response, Transport};

/// The `User-Agent` of every request.
const USER_AGENT: &str = concat!("informer-runtime/", env!("CARGO_PKG_VERSION"));

/// TCP and HTTP/2 keep-alive interval, so a dead watch connection is noticed.
const KEEPALIVE: Duration = Duration::from_secs(30);

/// How long an idle pooled connection is kept (Go's `IdleConnTimeout` in client-go's
/// transport).
const POOL_IDLE_TIMEOUT: Duration = Duration::from_secs(90);

/// List item bytes decoded by one task: about 64 Pods, so a hand-off costs little next to
/// the decoding and every core gets work early in the body.
const LIST_BATCH_BYTES: usize = 256 * 1024;

/// A chunk bringing at most this many watch events, with none pending, is decoded by the
/// watch itself: a quiet watch pays no thread hand-off on its latency.
const INLINE_WATCH_EVENTS: usize = 2;

/// A Kubernetes API client. Cheap to clone; clones share connections and credentials.
/// It sends [`Request`]s built by a [`RequestBuilder`](crate::request::RequestBuilder);
/// for typed reads and writes of one resource, wrap it in an [`Api`](crate::api::Api).
///
/// `Debug` shows the server and default namespace, never credentials.
#[derive(Clone)]
pub struct Client {
    inner: Arc<Inner>,
    /// Lists and watches cut `metadata.managedFields` out before decoding.
    omit_managed_fields: bool,
}

struct Inner {
    transport: Transport,
    base_url: String,
    default_namespace: String,
    list_read_timeout: Option<Duration>,
    limits: Limits,
    /// Protobuf may be asked for (not [`Config::disable_protobuf`]).
    protobuf: bool,
}

/// How much of a response the client holds (see [`Config::max_object_bytes`] and
/// [`Config::max_body_bytes`]).
#[derive(Debug, Clone, Copy)]
pub(crate) struct Limits {
    /// The largest watch event or list item.
    pub(crate) object: usize,
    /// The largest body read whole, or list.
    pub(crate) body: u64,
}

impl std::fmt::Debug for Client {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Client")
            .field("base_url", &self.inner.base_url)
            .field("default_namespace", &self.inner.default_namespace)
            .field("omit_managed_fields", &self.omit_managed_fields)
            .finish_non_exhaustive()
    }
}

impl Client {
    /// A client for `config`: builds its TLS setup and credential sources (nothing is sent yet).
    pub fn new(config: Config) -> Result<Self, Error> {
        let raw_url = config.cluster_url.trim_end_matches('/').to_owned();
        // Every message and `Debug` names the server by this form: a URL's userinfo is a
        // credential, and it must not reach a log through an error.
        let base_url = config::redact_userinfo(&raw_url);
        let origin = format!("server URL {base_url:?}");
        let parsed = url::Url::parse(&raw_url).map_err(|e| {
            Error::config(
                ConfigErrorKind::Invalid,
                &origin,
                format!("invalid URL: {e}"),
            )
        })?;
        if parsed.scheme() != "https" && parsed.scheme() != "http" {
            return Err(Error::config(
                ConfigErrorKind::Invalid,
                origin,
                "scheme must be https or http",
            ));
        }
        let identity = Arc::new(tls::IdentitySlot::default());
        let tls = tls::client_config(&config, identity.clone())?;
        let auth = Authenticator::new(&config, identity, tls::provider())?;
        let mut headers = impersonation_headers(&config.impersonate, &base_url)?;
        headers.insert(USER_AGENT_HEADER, HeaderValue::from_static(USER_AGENT));
        if !config.disable_compression {
            headers.insert(ACCEPT_ENCODING, HeaderValue::from_static("gzip"));
        }
        let proxy = proxy::route(config.proxy_url.as_deref(), &parsed)?;
        if let Some(auth) = proxy.as_ref().and_then(|p| p.authorization.clone()) {
            // An http server's requests go to the proxy itself; an https server's through
            // a tunnel, whose CONNECT carries the credentials instead.
            if parsed.scheme() == "http" {
                headers.insert(PROXY_AUTHORIZATION, auth);
            }
        }
        let server_name = config
            .tls_server_name
            .as_deref()
            .map(|name| {
                rustls_pki_types::ServerName::try_from(name.to_owned()).map_err(|e| {
                    Error::config(
                        ConfigErrorKind::Invalid,
                        &origin,
                        format!("tls-server-name {name:?}: {e}"),
                    )
                })
            })
            .transpose()?;
        let connector =
            connect::Connector::new(tls, server_name, proxy, config.connect_timeout, KEEPALIVE);
        let pool = hyper_util::client::legacy::Client::builder(TokioExecutor::new())
            .timer(TokioTimer::new())
            .pool_timer(TokioTimer::new())
            .pool_idle_timeout(POOL_IDLE_TIMEOUT)
            .http2_keep_alive_interval(KEEPALIVE)
            .build(connector);
        let url_credentials = parsed
            .userinfo()
            .and_then(|(user, password)| auth::basic(user, password.unwrap_or_default()).ok());
        let request_base = format!(
            "{}{}",
            parsed.origin(),
            parsed.path_and_query().trim_end_matches('/')
        );
        Ok(Self {
            inner: Arc::new(Inner {
                transport: Transport::Hyper(Box::new(transport::Hyper {
                    pool,
                    request_base,
                    headers,
                    url_credentials,
                    gzip: !config.disable_compression,
                    auth,
                })),
                base_url,
                default_namespace: config.default_namespace,
                list_read_timeout: config.list_read_timeout,
                limits: Limits {
                    object: config.max_object_bytes,
                    body: config.max_body_bytes,
                },
                protobuf: !config.disable_protobuf,
            }),
            omit_managed_fields: false,
        })
    }

    /// This client, with lists and watches that leave `metadata.managedFields` out of every
    /// item and event object. The member is cut from the bytes before they are parsed, so it
    /// costs neither decoding time nor memory (it is about 40% of a typical Pod's JSON).
    /// Informer factories list and watch this way unless built with `keep_managed_fields()`.
    /// Gets and writes are unaffected, and the clone shares connections with this client.
    ///
    /// A key written with JSON escapes is not recognised; such a member is decoded.
    pub fn omitting_managed_fields(&self) -> Self {
        Self {
            inner: self.inner.clone(),
            omit_managed_fields: true,
        }
    }

    /// A client from the kubeconfig (`KUBECONFIG`, else `~/.kube/config`), else the in-cluster config.
    pub async fn try_default() -> Result<Self, Error> {
        Self::new(Config::infer()?)
    }

    /// The namespace of the kubeconfig context or service account (`default` if none).
    pub fn default_namespace(&self) -> &str {
        &self.inner.default_namespace
    }

    /// The server's base URL, without a trailing slash, as messages name it: userinfo in
    /// the configured URL shows as `redacted`.
    pub fn base_url(&self) -> &str {
        &self.inner.base_url
    }

    /// Sends `request` and decodes the JSON body as `T`: a get, create, update or patch,
    /// or a path such as discovery's `/apis` (kube-client's `Client::request`). The body is
    /// read whole, at most [`Config::max_body_bytes`] of it; a non-2xx answer is an
    /// [`Error::Api`] with the server's `Status`.
    ///
    /// ```no_run
    /// # async fn run(client: informer_client::Client) -> Result<(), informer_client::Error> {
    /// use informer_client::request::RequestBuilder;
    /// use k8s_openapi::api::core::v1::ConfigMap;
    ///
    /// let get = RequestBuilder::of::<ConfigMap>(Some("shop")).get("settings")?;
    /// let settings: ConfigMap = client.request(get).await?;
    /// # Ok(()) }
    /// ```
    pub async fn request<T: DeserializeOwned>(&self, request: Request) -> Result<T, Error> {
        let outgoing = self.prepare(request)?;
        let body = self.read_body(&outgoing).await?;
        decode_json(&body, &outgoing.context)
    }

    /// The server's version, its `/version` (the server half of `kubectl version`). Tells,
    /// among other things, whether its resourceVersions may be compared for order
    /// ([`ResourceVersionOrder::of_server`](crate::ResourceVersionOrder::of_server)).
    pub async fn apiserver_version(
        &self,
    ) -> Result<k8s_openapi::apimachinery::pkg::version::Info, Error> {
        self.request(Request::get_path("/version")?).await
    }

    /// Sends `request` and decodes the body as `T`, or as the `Status` a delete answers
    /// once the object is gone (kube-client's `Client::request_status`).
    ///
    /// ```no_run
    /// # async fn run(client: informer_client::Client) -> Result<(), informer_client::Error> {
    /// use informer_client::api::{DeleteParams, DeleteResponse};
    /// use informer_client::request::RequestBuilder;
    /// use k8s_openapi::api::core::v1::ConfigMap;
    ///
    /// let delete = RequestBuilder::of::<ConfigMap>(Some("shop")).delete("settings", &DeleteParams::default())?;
    /// match client.request_status::<ConfigMap>(delete).await? {
    ///     DeleteResponse::Object(cm) => println!("finalizers hold it: {:?}", cm.metadata.finalizers),
    ///     DeleteResponse::Deleted(_) => println!("gone"),
    /// }
    /// # Ok(()) }
    /// ```
    pub async fn request_status<T: DeserializeOwned>(
        &self,
        request: Request,
    ) -> Result<DeleteResponse<T>, Error> {
        #[derive(serde::Deserialize)]
        struct Kind {
            #[serde(default)]
            kind: Option<String>,
        }
        let outgoing = self.prepare(request)?;
        let body = self.read_body(&outgoing).await?;
        let kind: Kind = decode_json(&body, &outgoing.context)?;
        if kind.kind.as_deref() == Some("Status") {
            return Ok(DeleteResponse::Deleted(decode_json(
                &body,
                &outgoing.context,
            )?));
        }
        Ok(DeleteResponse::Object(decode_json(
            &body,
            &outgoing.context,
        )?))
    }

    /// Sends a list `request` and decodes its items as `T` while the body streams in, on
    /// every core, in order: the body is never held whole. Items are cut out at most
    /// [`Config::max_object_bytes`] each and the list at most [`Config::max_body_bytes`];
    /// a client made by [`omitting_managed_fields`](Self::omitting_managed_fields) leaves
    /// `metadata.managedFields` out of each item. The future does not borrow the client.
    ///
    /// ```no_run
    /// # async fn run(client: informer_client::Client) -> Result<(), informer_client::Error> {
    /// use informer_client::request::RequestBuilder;
    /// use informer_client::{ApiResource, DynamicObject, ListOptions};
    ///
    /// let widgets = ApiResource::new("example.com", "v1", "Widget", "widgets", true);
    /// let list = RequestBuilder::for_resource(&widgets, Some("shop")).list(&ListOptions::default())?;
    /// let page = client.request_list::<DynamicObject>(list).await?;
    /// println!("{} widgets at {:?}", page.items.len(), page.metadata.resource_version);
    /// # Ok(()) }
    /// ```
    pub fn request_list<T>(
        &self,
        request: Request,
    ) -> impl Future<Output = Result<ObjectList<T>, Error>> + Send + 'static
    where
        T: DeserializeOwned + Send + 'static,
    {
        self.request_list_negotiated(request, None)
    }

    /// [`Client::request_list`], asking for protobuf first when `protobuf` decoders are given.
    pub(crate) fn request_list_negotiated<T>(
        &self,
        request: Request,
        protobuf: Option<ProtobufDecoders<T>>,
    ) -> impl Future<Output = Result<ObjectList<T>, Error>> + Send + 'static
    where
        T: DeserializeOwned + Send + 'static,
    {
        let client = self.clone();
        async move {
            let (request, protobuf) = client.negotiate(request, protobuf)?;
            let outgoing = client.prepare(request)?;
            client.run_list(outgoing, protobuf).await
        }
    }

    /// Sends a watch `request` and hands out its events, decoded line by line as they
    /// stream in (kube-client's `Client::request_events`). One event is at most
    /// [`Config::max_object_bytes`]; the stream ends after the first error. The future does
    /// not borrow the client.
    ///
    /// ```no_run
    /// # async fn run(client: informer_client::Client) -> Result<(), informer_client::Error> {
    /// use futures_util::StreamExt;
    /// use informer_client::request::RequestBuilder;
    /// use informer_client::{ListOptions, WatchEvent};
    /// use k8s_openapi::api::core::v1::Pod;
    ///
    /// let from = ListOptions { resource_version: Some("0".into()), ..Default::default() };
    /// let watch = RequestBuilder::of::<Pod>(Some("shop")).watch(&from)?;
    /// let mut events = client.request_events::<Pod>(watch).await?;
    /// while let Some(event) = events.next().await {
    ///     if let WatchEvent::Added(pod) = event? { println!("{:?}", pod.metadata.name); }
    /// }
    /// # Ok(()) }
    /// ```
    pub fn request_events<T>(
        &self,
        request: Request,
    ) -> impl Future<Output = Result<WatchStream<T>, Error>> + Send + 'static
    where
        T: DeserializeOwned + Send + 'static,
    {
        self.request_events_negotiated(request, None)
    }

    /// [`Client::request_events`], asking for protobuf first when `protobuf` decoders are
    /// given.
    pub(crate) fn request_events_negotiated<T>(
        &self,
        request: Request,
        protobuf: Option<ProtobufDecoders<T>>,
    ) -> impl Future<Output = Result<WatchStream<T>, Error>> + Send + 'static
    where
        T: DeserializeOwned + Send + 'static,
    {
        let client = self.clone();
        async move {
            let (request, protobuf) = client.negotiate(request, protobuf)?;
            let outgoing = client.prepare(request)?;
            client.run_watch(outgoing, protobuf).await
        }
    }

    /// Where a request to `path` goes, for error contexts: the server URL and the path.
    fn location(&self, path: &str) -> String {
        match &self.inner.transport {
            Transport::Hyper(_) => format!("{}{path}", self.inner.base_url),
            // kube::Client does not say which server it talks to.
            #[cfg(feature = "kube")]
            Transport::Kube(_) => format!("{path} through kube::Client"),
        }
    }

    /// `request` with its URL on this client's server, and a context naming where it goes.
    fn prepare(&self, request: Request) -> Result<Outgoing, Error> {
        let context = format!("{} at {}", request.context(), self.location(request.path()));
        let mut target = format!(
            "{}{}",
            self.inner.transport.origin(),
            url::encode_path(request.path())
        );
        for (i, (key, value)) in request.query().iter().enumerate() {
            target.push(if i == 0 { '?' } else { '&' });
            url::encode_query_component(key, &mut target);
            target.push('=');
            url::encode_query_component(value, &mut target);
        }
        let url = Uri::try_from(target).map_err(|e| {
            Error::other(
                ErrorKind::InvalidArgument,
                &context,
                format!("invalid URL: {e}"),
            )
        })?;
        Ok(Outgoing {
            method: request.method().clone(),
            url,
            accept: request.accept_header().clone(),
            body: request.body_and_type().cloned(),
            shard: request.shard_scan().cloned(),
            context,
        })
    }

    /// Sends `request` and reads its whole body (with the list read timeout between chunks,
    /// and at most `max_body_bytes` of it), turning a non-2xx answer into `Error::Api`.
    async fn read_body(&self, request: &Outgoing) -> Result<Bytes, Error> {
        let timeout = self.inner.list_read_timeout;
        let response = self.respond(request, timeout).await?;
        self.collect_body(response.body, timeout, &request.context)
            .await
    }

    /// Reads all of `body`, waiting at most `timeout` between chunks and taking at most
    /// `max_body_bytes`.
    fn collect_body<'a>(
        &'a self,
        mut body: Body,
        timeout: Option<Duration>,
        context: &'a str,
    ) -> BoxFuture<'a, Result<Bytes, Error>> {
        Box::pin(async move {
            let mut bytes = Vec::new();
            let mut counter = BodyCounter::new(self.inner.limits.body);
            while let Some(chunk) = read_with_timeout(body.next(), timeout, context)
                .await?
                .transpose()
                .map_err(|e| http_error(context, "reading the body", &*e))?
            {
                counter.add(chunk.len(), context)?;
                bytes.extend_from_slice(&chunk);
            }
            Ok(Bytes::from(bytes))
        })
    }

    /// `request` asking for protobuf first, with the decoders to read the answer, when
    /// decoders are given and [`Config::disable_protobuf`] is off; else as it is, for JSON.
    fn negotiate<T>(
        &self,
        request: Request,
        protobuf: Option<ProtobufDecoders<T>>,
    ) -> Result<(Request, Option<ProtobufDecoders<T>>), Error> {
        match protobuf.filter(|_| self.inner.protobuf) {
            Some(decoders) => Ok((request.with_accept(protobuf::ACCEPT)?, Some(decoders))),
            None => Ok((request, None)),
        }
    }

    /// Sends `request` asking for protobuf (JSON as the fallback) and decodes whichever the
    /// server answers.
    pub(crate) async fn request_negotiated<T: DeserializeOwned + Send + 'static>(
        &self,
        request: Request,
        protobuf: ProtobufDecoders<T>,
    ) -> Result<T, Error> {
        let (request, protobuf) = self.negotiate(request, Some(protobuf))?;
        let Some(protobuf) = protobuf else {
            return self.request(request).await;
        };
        let outgoing = self.prepare(request)?;
        let timeout = self.inner.list_read_timeout;
        let response = self.respond(&outgoing, timeout).await?;
        let answered_protobuf = protobuf::is_protobuf(response.headers.get(CONTENT_TYPE));
        let body = self
            .collect_body(response.body, timeout, &outgoing.context)
            .await?;
        if !answered_protobuf {
            return decode_json(&body, &outgoing.context);
        }
        // Gets keep managedFields, as their JSON does.
        (protobuf.object)(&body, true).map_err(|source| Error::Decode {
            context: outgoing.context.clone(),
            what: "the protobuf response body".to_owned(),
            source,
        })
    }

    /// Sends the request through the transport, turning non-2xx answers into `Error::Api`.
    ///
    /// Boxed, like [`collect_body`](Self::collect_body): the generic list, watch and get
    /// paths await it, and an `async fn` awaited from code compiled in another crate is
    /// compiled again there, with the transport, authentication and error parsing under it.
    fn respond<'a>(
        &'a self,
        request: &'a Outgoing,
        timeout: Option<Duration>,
    ) -> BoxFuture<'a, Result<Response, Error>> {
        Box::pin(async move {
            let response = self.inner.transport.send(request, timeout).await?;
            tracing::debug!(context = %request.context, status = %response.status, "response");
            if let Some(refusal) = refuse_redirect(&response, request) {
                return Err(refusal);
            }
            if !response.status.is_success() {
                return Err(error_response::api_error(response, &request.context).await);
            }
            Ok(response)
        })
    }

    async fn run_list<T: DeserializeOwned + Send + 'static>(
        &self,
        request: Outgoing,
        protobuf: Option<ProtobufDecoders<T>>,
    ) -> Result<ObjectList<T>, Error> {
        let timeout = self.inner.list_read_timeout;
        let response = self.respond(&request, timeout).await?;
        if let Some(decoders) =
            protobuf.filter(|_| protobuf::is_protobuf(response.headers.get(CONTENT_TYPE)))
        {
            return protobuf_list::decode(
                response.body,
                timeout,
                LIST_BATCH_BYTES,
                decoders,
                !self.omit_managed_fields,
                self.inner.limits,
                &request.context,
            )
            .await;
        }
        decode_list(
            response.body,
            timeout,
            LIST_BATCH_BYTES,
            self.omit_managed_fields,
            request.shard,
            self.inner.limits,
            &request.context,
        )
        .await
    }

    async fn run_watch<T: DeserializeOwned + Send + 'static>(
        &self,
        request: Outgoing,
        protobuf: Option<ProtobufDecoders<T>>,
    ) -> Result<WatchStream<T>, Error> {
        let response = self.respond(&request, None).await?;
        if let Some(decoders) =
            protobuf.filter(|_| protobuf::is_protobuf(response.headers.get(CONTENT_TYPE)))
        {
            return Ok(protobuf_watch_events(
                response.body,
                decoders,
                !self.omit_managed_fields,
                self.inner.limits.object,
                request.context.into(),
            ));
        }
        Ok(watch_events(
            response.body,
            INLINE_WATCH_EVENTS,
            self.omit_managed_fields,
            request.shard,
            self.inner.limits.object,
            request.context.into(),
        ))
    }
}

/// Decodes a list body as it arrives: items are cut out as their bytes come in, handed to
/// the decode pool in batches of at least `batch_bytes` and taken back in order. Waiting
/// longer than `read_timeout` for the next chunk fails, and so does an item or a body over
/// its limit. Items outside `shard` are left out undecoded unless the list's `shardInfo`
/// says the server applied its selector.
pub(crate) fn decode_list<T: DeserializeOwned + Send + 'static>(
    body: Body,
    read_timeout: Option<Duration>,
    batch_bytes: usize,
    omit_managed_fields: bool,
    shard: Option<ShardScan>,
    limits: Limits,
    context: &str,
) -> impl Future<Output = Result<ObjectList<T>, Error>> + Send + '_ {
    let list = ListBody {
        read_timeout,
        batch_bytes,
        limits,
        context,
    };
    decode_list_erased(
        body,
        list,
        omit_managed_fields,
        shard,
        decode_items_erased::<T>,
    )
    .map(|list| list?.typed(context))
}

/// `decode::decode_items`, its items erased, for [`decode_list_erased`].
fn decode_items_erased<T: DeserializeOwned + Send + 'static>(
    batch: &Batch,
    omit_managed_fields: bool,
    shard: Option<&ShardScan>,
) -> Result<Erased, serde_json::Error> {
    decode::decode_items::<T>(batch, omit_managed_fields, shard)
        .map(|items| Box::new(items) as Erased)
}

/// How a list body is read, JSON or protobuf: the longest wait for a chunk, the bytes of
/// items handed to the pool at once, the limits, and the context errors name.
struct ListBody<'a> {
    read_timeout: Option<Duration>,
    batch_bytes: usize,
    limits: Limits,
    context: &'a str,
}

/// A list decoded batch by batch, each batch's `Vec` of items still erased.
pub(crate) struct ErasedList {
    metadata: ListMeta,
    batches: Vec<Erased>,
    shard_info: Option<ShardInfo>,
}

impl ErasedList {
    pub(crate) fn new(
        metadata: ListMeta,
        batches: Vec<Erased>,
        shard_info: Option<ShardInfo>,
    ) -> Self {
        Self {
            metadata,
            batches,
            shard_info,
        }
    }

    /// The list with its items as `T`, the type their decoder made.
    pub(crate) fn typed<T: 'static>(self, context: &str) -> Result<ObjectList<T>, Error> {
        let mut batches = self
            .batches
            .into_iter()
            .map(|batch| joined(decode_pool::typed::<Vec<T>>(Ok(batch)), context))
            .collect::<Result<Vec<Vec<T>>, Error>>()?;
        let items = if batches.len() == 1 {
            batches.pop().unwrap_or_default()
        } else {
            let mut items = Vec::with_capacity(batches.iter().map(Vec::len).sum());
            for batch in batches {
                items.extend(batch);
            }
            items
        };
        Ok(ObjectList {
            metadata: self.metadata,
            items,
            shard_info: self.shard_info,
        })
    }
}

/// [`decode_list`] for items that `decode` makes, compiled once whatever they are.
fn decode_list_erased<'a>(
    mut body: Body,
    list: ListBody<'a>,
    omit_managed_fields: bool,
    shard: Option<ShardScan>,
    decode: fn(&Batch, bool, Option<&ShardScan>) -> Result<Erased, serde_json::Error>,
) -> BoxFuture<'a, Result<ErasedList, Error>> {
    Box::pin(async move {
        let context = list.context;
        let decode_error = |source: serde_json::Error| list_decode_error(context, source);
        let scan_error = |e| match e {
            ListError::Json(source) => decode_error(source),
            ListError::Oversized(what) => oversized(context, what),
        };
        let owned_context: Arc<str> = context.into();
        let job = |batch: Batch, filter: Option<ShardScan>| {
            let context = owned_context.clone();
            decode_pool::job(move || -> Result<Erased, Error> {
                decode(&batch, omit_managed_fields, filter.as_ref())
                    .map_err(|source| list_decode_error(&context, source))
            })
        };
        let mut decoder = ListDecoder::new(list.limits.object);
        let mut counter = BodyCounter::new(list.limits.body);
        let mut items = ListItems::new(context);
        loop {
            let chunk = read_with_timeout(body.next(), list.read_timeout, context)
                .await?
                .transpose()
                .map_err(|e| http_error(context, "reading the list body", &*e))?;
            let Some(chunk) = chunk else { break };
            counter.add(chunk.len(), context)?;
            decoder.feed(&chunk).map_err(scan_error)?;
            if let Some(batch) = decoder.take_items(list.batch_bytes) {
                let filter = decoder.shard_filter(shard.as_ref());
                items.submit(false, job(batch, filter)).await?;
            }
        }
        let filter = decoder.shard_filter(shard.as_ref());
        let (metadata, shard_info, rest) = decoder.finish().map_err(decode_error)?;
        if !rest.is_empty() {
            items.submit(true, job(rest, filter)).await?;
        }
        Ok(ErasedList::new(metadata, items.finish().await?, shard_info))
    })
}

/// The error of a JSON list body that does not decode.
fn list_decode_error(context: &str, source: serde_json::Error) -> Error {
    Error::Decode {
        context: context.to_owned(),
        what: "the list body".to_owned(),
        source: source.into(),
    }
}

/// A list's items decoded batch by batch on the pool and collected in list order, their type
/// erased: each job gives `Result<Erased, Error>`, its batch's `Vec` of items or why they do
/// not decode, and a batch that fails fails the list.
struct ListItems<'a> {
    pool: DecodePool,
    batches: Vec<Erased>,
    context: &'a str,
}

impl<'a> ListItems<'a> {
    fn new(context: &'a str) -> Self {
        Self {
            pool: DecodePool::new(),
            batches: Vec::new(),
            context,
        }
    }

    /// Sends `work` to the pool (decoded right here when `inline` and nothing is pending),
    /// taking the oldest batch back first when the pool is full, so that memory stays
    /// bounded however long the list.
    fn submit(&mut self, inline: bool, work: Job) -> BoxFuture<'_, Result<(), Error>> {
        Box::pin(async move {
            if self.pool.is_full() {
                if let Some(decoded) = self.pool.next().await {
                    self.take(decoded)?;
                }
            }
            self.pool.submit(inline, work);
            Ok(())
        })
    }

    fn take(&mut self, decoded: Result<Erased, String>) -> Result<(), Error> {
        let batch = joined(
            decode_pool::typed::<Result<Erased, Error>>(decoded),
            self.context,
        )??;
        self.batches.push(batch);
        Ok(())
    }

    /// Every batch, once every one is back.
    fn finish(mut self) -> BoxFuture<'a, Result<Vec<Erased>, Error>> {
        Box::pin(async move {
            while let Some(decoded) = self.pool.next().await {
                self.take(decoded)?;
            }
            Ok(self.batches)
        })
    }
}

/// The events of a watch body: split into lines, blank lines skipped, the lines each chunk
/// completes decoded as one batch (inline when it holds at most `inline_events`) and handed
/// out in order; the stream ends after the first error, such as a line over `max_line` bytes.
/// Events whose object is outside `shard` are left out undecoded.
pub(crate) fn watch_events<T: DeserializeOwned + Send + 'static>(
    body: Body,
    inline_events: usize,
    omit_managed_fields: bool,
    shard: Option<ShardScan>,
    max_line: usize,
    context: Arc<str>,
) -> WatchStream<T> {
    watch_body::events(
        body,
        LineSplitter::new(max_line),
        move |batch: &Batch, context: &str| {
            decode::decode_lines(batch, context, omit_managed_fields, shard.as_ref())
        },
        inline_events,
        context,
    )
}

/// The events of a watch answered as protobuf: its frames, each at most `max_frame` bytes,
/// decoded in batches as [`watch_events`] decodes lines.
fn protobuf_watch_events<T: Send + 'static>(
    body: Body,
    decoders: ProtobufDecoders<T>,
    keep_managed_fields: bool,
    max_frame: usize,
    context: Arc<str>,
) -> WatchStream<T> {
    watch_body::events(
        body,
        watch_body::FrameSplitter::new(max_frame),
        move |batch: &Batch, context: &str| {
            let mut events = Vec::with_capacity(batch.len());
            batch.for_each(|frame| {
                let event =
                    (decoders.event)(frame, keep_managed_fields).map_err(|source| Error::Decode {
                        context: context.to_owned(),
                        what: format!("a protobuf watch event of {} bytes", frame.len()),
                        source,
                    });
                let decoded = event.is_ok();
                events.push(event);
                decoded
            });
            events
        },
        INLINE_WATCH_EVENTS,
        context,
    )
}

/// A decoding task's result, or an error naming `context` when the task failed.
fn joined<R>(result: Result<R, String>, context: &str) -> Result<R, Error> {
    result.map_err(|reason| {
        Error::other(
            ErrorKind::Task,
            context,
            format!("a decoding task failed: {reason}"),
        )
    })
}

/// A request on its way: its URL on the server, and the context its errors carry
/// (`create pods at https://…/api/v1/namespaces/a/pods`).
struct Outgoing {
    method: Method,
    url: Uri,
    accept: HeaderValue,
    body: Option<(Bytes, HeaderValue)>,
    /// The shard selector a list or watch enforces on the client.
    shard: Option<ShardScan>,
    context: String,
}

/// `body` decoded as `T`, or an error naming `context`.
fn decode_json<T: DeserializeOwned>(body: &[u8], context: &str) -> Result<T, Error> {
    crate::json::from_slice(body).map_err(|source| Error::Decode {
        context: context.to_owned(),
        what: "the response body".to_owned(),
        source: source.into(),
    })
}

/// The `Impersonate-*` headers every request carries.
fn impersonation_headers(imp: &Impersonate, server: &str) -> Result<HeaderMap, Error> {
    let mut headers = HeaderMap::new();
    let origin = format!("impersonation for {server}");
    let value = |v: &str| {
        HeaderValue::from_str(v).map_err(|_| {
            Error::config(
                ConfigErrorKind::Invalid,
                &origin,
                // The value is not quoted: user extras may carry secrets.
                "a user, uid, group or extra value is not a valid HTTP header value \
                 (control characters or non-ASCII bytes)",
            )
        })
    };
    if let Some(user) = &imp.user {
        headers.insert("impersonate-user", value(user)?);
    }
    if let Some(uid) = &imp.uid {
        headers.insert("impersonate-uid", value(uid)?);
    }
    for group in &imp.groups {
        headers.append("impersonate-group", value(group)?);
    }
    for (key, values) in &imp.extra {
        let name = HeaderName::from_bytes(
            format!("impersonate-extra-{}", escape_header_key(key)).as_bytes(),
        )
        .map_err(|_| {
            Error::config(
                ConfigErrorKind::Invalid,
                &origin,
                format!("user extra key {key:?} cannot be a header name"),
            )
        })?;
        for v in values {
            headers.append(name.clone(), value(v)?);
        }
    }
    Ok(headers)
}

/// client-go's `headerKeyEscape`: bytes that may not appear in a header name, and `%`,
/// become `%XX`, so keys such as `example.org/scopes` survive the trip.
fn escape_header_key(key: &str) -> String {
    let mut out = String::with_capacity(key.len());
    for &b in key.as_bytes() {
        let legal = b.is_ascii_alphanumeric() || b"!#$&'*+-.^_`|~".contains(&b);
        if legal {
            out.push(char::from(b));
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    out
}

/// Counts the bytes of a body against its limit.
struct BodyCounter {
    received: u64,
    limit: u64,
}

impl BodyCounter {
    fn new(limit: u64) -> Self {
        Self { received: 0, limit }
    }

    /// Counts `len` more bytes; fails, naming `context`, once they pass the limit.
    fn add(&mut self, len: usize, context: &str) -> Result<(), Error> {
        let len = u64::try_from(len).unwrap_or(u64::MAX);
        self.received = self.received.saturating_add(len);
        if self.received > self.limit {
            return Err(oversized(
                context,
                Oversized {
                    what: "the response body",
                    limit: self.limit,
                    setting: "max_body_bytes",
                },
            ));
        }
        Ok(())
    }
}

/// The error for something in the response to `context` over its limit.
fn oversized(context: &str, what: Oversized) -> Error {
    Error::other(
        ErrorKind::TooLarge,
        context,
        format!(
            "{} is larger than the client's limit of {} bytes (Config::{}); the rest was not read",
            what.what, what.limit, what.setting
        ),
    )
}

/// The error refusing `response` when it redirects: following it would re-send `request`,
/// with its body, credentials and impersonation headers, wherever the server points. The
/// target is named without its userinfo.
fn refuse_redirect(response: &Response, request: &Outgoing) -> Option<Error> {
    if !response.status.is_redirection() {
        return None;
    }
    let location = response.headers.get(LOCATION)?;
    let target = location
        .to_str()
        .ok()
        .and_then(|l| redirect_target(&request.url, l))
        .unwrap_or_else(|| "a Location that is not a valid URL".to_owned());
    Some(Error::other(
        ErrorKind::Protocol,
        &request.context,
        format!(
            "the server redirected ({}) to {target}; redirects are refused, as the Kubernetes API never redirects a client",
            response.status
        ),
    ))
}

/// Where `location` points, relative to `from`, without userinfo.
fn redirect_target(from: &Uri, location: &str) -> Option<String> {
    if location.contains("://") {
        return url::Url::parse(location)
            .ok()
            .map(|u| u.without_userinfo().to_string());
    }
    // Request URLs are built on an origin without userinfo.
    let origin = format!("{}://{}", from.scheme_str()?, from.authority()?);
    if location.starts_with('/') {
        return Some(format!("{origin}{location}"));
    }
    let directory = from.path().rsplit_once('/').map_or("", |(dir, _)| dir);
    Some(format!("{origin}{directory}/{location}"))
}

/// Awaits `fut`, failing with an `Error::Http` naming `context` if it takes longer than `timeout`.
async fn read_with_timeout<F: Future>(
    fut: F,
    timeout: Option<Duration>,
    context: &str,
) -> Result<F::Output, Error> {
    match timeout {
        None => Ok(fut.await),
        Some(t) => tokio::time::timeout(t, fut).await.map_err(|_| Error::Http {
            context: context.to_owned(),
            source: format!("no data from the server for {t:?}").into(),
        }),
    }
}

/// An `Error::Http` whose message carries the whole cause chain (e.g. the TLS failure
/// under hyper's "client error (Connect)").
fn http_error(context: &str, step: &str, e: &(dyn std::error::Error + 'static)) -> Error {
    Error::Http {
        context: context.to_owned(),
        source: format!("{step}: {}", chain(e)).into(),
    }
}

fn chain(e: &dyn std::error::Error) -> String {
    let mut message = e.to_string();
    let mut source = e.source();
    while let Some(s) = source {
        let text = s.to_string();
        if !message.contains(&text) {
            message.push_str(": ");
            message.push_str(&text);
        }
        source = s.source();
    }
    message
}
