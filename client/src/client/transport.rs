//! Where requests go: reqwest with this crate's TLS, credential and proxy handling, or,
//! with the `kube` feature, a `kube::Client`'s tower stack. Either gives back a status,
//! headers and the body as a stream of chunks, which the list and watch decoders consume
//! whatever carried them.

use std::time::Duration;

use bytes::Bytes;
use futures_util::stream::BoxStream;
use futures_util::{StreamExt, TryStreamExt};
use reqwest::header::{HeaderMap, ACCEPT, AUTHORIZATION, CONTENT_TYPE};
use reqwest::StatusCode;

use super::auth::Authenticator;
use super::{http_error, read_with_timeout, Outgoing};
use crate::error::{BoxError, Error};

/// A response body: its chunks as they arrive.
pub(crate) type Body = BoxStream<'static, Result<Bytes, BoxError>>;

/// A response as the decoders see it. Non-2xx answers are responses too: the caller turns
/// them into `Error::Api`.
pub(super) struct Response {
    pub(super) status: StatusCode,
    pub(super) headers: HeaderMap,
    pub(super) body: Body,
}

/// What carries requests.
pub(super) enum Transport {
    Reqwest(Reqwest),
    #[cfg(feature = "kube")]
    Kube(::kube::Client),
}

impl Transport {
    /// The scheme and authority request URLs are built on.
    pub(super) fn origin(&self) -> &str {
        match self {
            Transport::Reqwest(r) => &r.request_base,
            #[cfg(feature = "kube")]
            Transport::Kube(_) => super::kube::ORIGIN,
        }
    }

    /// Sends `request` once (reqwest: once more after a 401 when its credentials can be
    /// refreshed), waiting at most `timeout` for the response head.
    pub(super) async fn send(
        &self,
        request: &Outgoing,
        timeout: Option<Duration>,
    ) -> Result<Response, Error> {
        match self {
            Transport::Reqwest(r) => r.send(request, timeout).await,
            #[cfg(feature = "kube")]
            Transport::Kube(client) => super::kube::send(client, request, timeout).await,
        }
    }
}

/// The transport of a client built from a [`Config`](super::Config).
pub(super) struct Reqwest {
    pub(super) http: reqwest::Client,
    /// Where requests go: the server URL, or with `tls-server-name` as its host (see `sni`).
    pub(super) request_base: String,
    /// `Impersonate-*` headers, added to each request (reqwest's default headers keep only
    /// the first value of a repeated header such as `Impersonate-Group`).
    pub(super) impersonation: HeaderMap,
    pub(super) auth: Authenticator,
}

impl Reqwest {
    async fn send(&self, request: &Outgoing, timeout: Option<Duration>) -> Result<Response, Error> {
        let mut refreshed = false;
        loop {
            let mut builder = self
                .http
                .request(request.method.clone(), request.url.clone())
                .header(ACCEPT, request.accept.clone());
            for (name, value) in &self.impersonation {
                builder = builder.header(name, value);
            }
            if let Some((body, content_type)) = &request.body {
                builder = builder
                    .header(CONTENT_TYPE, content_type.clone())
                    .body(body.clone());
            }
            let header = self.auth.header().await.map_err(|e| match e {
                Error::Config(mut c) => {
                    c.origin = format!("{}: cannot authenticate: {}", request.context, c.origin);
                    Error::Config(c)
                }
                other => other,
            })?;
            if let Some(header) = header {
                builder = builder.header(AUTHORIZATION, header);
            }
            let response = read_with_timeout(builder.send(), timeout, &request.context)
                .await?
                .map_err(|e| http_error(&request.context, "sending the request", &e))?;
            let status = response.status();
            if status == StatusCode::UNAUTHORIZED && !refreshed && self.auth.refreshable() {
                tracing::debug!(context = %request.context, "401 Unauthorized; refreshing credentials");
                refreshed = true;
                self.auth.invalidate().await;
                continue;
            }
            return Ok(Response {
                status,
                headers: response.headers().clone(),
                body: response
                    .bytes_stream()
                    .map_err(|e| Box::new(e) as BoxError)
                    .boxed(),
            });
        }
    }
}
