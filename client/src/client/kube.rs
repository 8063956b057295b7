//! Requests through a `kube::Client`: its kubeconfig handling, credentials, TLS and tower
//! layers carry them; our decoders read what comes back.

use std::sync::Arc;
use std::time::Duration;

use futures_util::{StreamExt, TryStreamExt};
use http::header::{ACCEPT, CONTENT_TYPE};
use http_body_util::BodyExt;

use super::transport::{Response, Transport};
use super::{chain, read_with_timeout, Client, Inner, Outgoing};
use crate::error::{BoxError, ConfigErrorKind, Error, ErrorKind};

/// What `Client::base_url` answers for a client over a `kube::Client`, which does not say
/// which server it talks to.
const BASE_URL: &str = "kube::Client";

/// The origin request URLs are built on before their path and query go to the
/// `kube::Client`, which puts its own cluster URL in front (its base-URI layer). It never
/// leaves the process (`.invalid` resolves nowhere).
pub(super) const ORIGIN: &str = "http://kube-client.invalid";

impl Client {
    /// A client whose requests (informers' lists and watches, [`Api`](crate::api::Api)
    /// reads and writes, discovery) go through `client`: its kubeconfig, credentials,
    /// TLS, proxy and tower layers apply, and this crate decodes the answers (list items
    /// and watch events on every core, as always). Clones share the `kube::Client`.
    ///
    /// Errors name the path and say `through kube::Client`, since it does not say which
    /// server it talks to; [`base_url`](Self::base_url) is `"kube::Client"`. The default
    /// namespace is the `kube::Client`'s. Responses are held within [`Config`](super::Config)'s
    /// default limits (16 MiB a watch event or list item, 2 GiB a body), and a redirect is
    /// refused as on any client (`kube::Client` does not follow redirects either: it hands
    /// the 3xx back, and this client fails naming its target).
    ///
    /// ```no_run
    /// # async fn run() -> Result<(), Box<dyn std::error::Error>> {
    /// use informer_client::api::Api;
    /// use informer_client::Client;
    /// use k8s_openapi::api::core::v1::Pod;
    ///
    /// let client = Client::from_kube(kube::Client::try_default().await?);
    /// let pods = Api::<Pod>::default_namespaced(client);
    /// let web = pods.get("web-0").await?;
    /// # Ok(()) }
    /// ```
    #[cfg_attr(docsrs, doc(cfg(feature = "kube")))]
    pub fn from_kube(client: ::kube::Client) -> Self {
        let default_namespace = client.default_namespace().to_owned();
        Self {
            inner: Arc::new(Inner {
                transport: Transport::Kube(client),
                base_url: BASE_URL.to_owned(),
                default_namespace,
                list_read_timeout: Some(super::config::DEFAULT_LIST_READ_TIMEOUT),
                limits: super::Limits {
                    object: super::config::DEFAULT_MAX_OBJECT_BYTES,
                    body: super::config::DEFAULT_MAX_BODY_BYTES,
                },
                protobuf: true,
            }),
            omit_managed_fields: false,
        }
    }
}

#[cfg_attr(docsrs, doc(cfg(feature = "kube")))]
impl From<::kube::Client> for Client {
    /// [`Client::from_kube`].
    fn from(client: ::kube::Client) -> Self {
        Self::from_kube(client)
    }
}

/// Sends `request` through `client`.
pub(super) async fn send(
    client: &::kube::Client,
    request: &Outgoing,
    timeout: Option<Duration>,
) -> Result<Response, Error> {
    let path_and_query = match request.url.query() {
        Some(query) => format!("{}?{query}", request.url.path()),
        None => request.url.path().to_owned(),
    };
    let builder = http::Request::builder()
        .method(request.method.clone())
        .uri(path_and_query)
        .header(ACCEPT, request.accept.clone());
    let built = match &request.body {
        Some((body, content_type)) => builder
            .header(CONTENT_TYPE, content_type.clone())
            .body(::kube::client::Body::from(body.clone())),
        None => builder.body(::kube::client::Body::empty()),
    };
    let http_request = built.map_err(|e| {
        Error::other(
            ErrorKind::InvalidArgument,
            &request.context,
            format!("cannot build the request: {e}"),
        )
    })?;
    let response = read_with_timeout(client.send(http_request), timeout, &request.context)
        .await?
        .map_err(|e| send_error(&request.context, e))?;
    let (parts, body) = response.into_parts();
    Ok(Response {
        status: parts.status,
        headers: parts.headers,
        body: body
            .into_data_stream()
            .map_err(|e| Box::new(e) as BoxError)
            .boxed(),
    })
}

/// Our error for a request the `kube::Client` could not send: its credentials failing
/// is a configuration problem (retrying will not fix it), anything else is transport.
fn send_error(context: &str, e: ::kube::Error) -> Error {
    let credentials = match &e {
        ::kube::Error::Auth(_) => true,
        ::kube::Error::Service(inner) => inner.is::<::kube::client::AuthError>(),
        _ => false,
    };
    if credentials {
        return Error::config_with_source(
            ConfigErrorKind::Credentials,
            format!("{context}: cannot authenticate through kube::Client"),
            "its credentials failed",
            e,
        );
    }
    Error::Http {
        context: context.to_owned(),
        source: format!("sending the request through kube::Client: {}", chain(&e)).into(),
    }
}
