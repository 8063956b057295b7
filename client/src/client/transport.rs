//! Where requests go: hyper over this crate's connections (TLS, proxies: `connect`) with its
//! credential handling, or, with the `kube` feature, a `kube::Client`'s tower stack. Either
//! gives back a status, headers and the body as a stream of chunks, which the list and watch
//! decoders consume whatever carried them.

use std::io::Write as _;
use std::time::Duration;

use bytes::Bytes;
use flate2::write::GzDecoder;
use futures_util::stream::BoxStream;
use futures_util::{StreamExt, TryStreamExt};
use http::header::{
    HeaderMap, HeaderValue, ACCEPT, AUTHORIZATION, CONTENT_ENCODING, CONTENT_LENGTH, CONTENT_TYPE,
};
use http::StatusCode;
use http_body_util::{BodyDataStream, Full};
use hyper_util::client::legacy::Client as Pool;

use super::auth::Authenticator;
use super::connect::Connector;
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
    /// Boxed: the pool and headers are far larger than a `kube::Client`.
    Hyper(Box<Hyper>),
    #[cfg(feature = "kube")]
    Kube(::kube::Client),
}

impl Transport {
    /// The scheme and authority request URLs are built on.
    pub(super) fn origin(&self) -> &str {
        match self {
            Transport::Hyper(h) => &h.request_base,
            #[cfg(feature = "kube")]
            Transport::Kube(_) => super::kube::ORIGIN,
        }
    }

    /// Sends `request` once (hyper: once more after a 401 when its credentials can be
    /// refreshed), waiting at most `timeout` for the response head.
    pub(super) async fn send(
        &self,
        request: &Outgoing,
        timeout: Option<Duration>,
    ) -> Result<Response, Error> {
        match self {
            Transport::Hyper(h) => h.send(request, timeout).await,
            #[cfg(feature = "kube")]
            Transport::Kube(client) => super::kube::send(client, request, timeout).await,
        }
    }
}

/// The transport of a client built from a [`Config`](super::Config).
pub(super) struct Hyper {
    pub(super) pool: Pool<Connector, Full<Bytes>>,
    /// Where requests go: the server URL without its userinfo.
    pub(super) request_base: String,
    /// Added to each request: `User-Agent`, `Accept-Encoding` when compression is on, the
    /// `Impersonate-*` headers, and `Proxy-Authorization` for a proxy that forwards requests.
    pub(super) headers: HeaderMap,
    /// `Authorization: Basic …` from the server URL's userinfo, sent when no credential
    /// gives one (as Go's `http.Client` does).
    pub(super) url_credentials: Option<HeaderValue>,
    /// Gzip bodies are decompressed (`Accept-Encoding: gzip` was sent).
    pub(super) gzip: bool,
    pub(super) auth: Authenticator,
}

impl Hyper {
    async fn send(&self, request: &Outgoing, timeout: Option<Duration>) -> Result<Response, Error> {
        let mut refreshed = false;
        loop {
            let mut builder = http::Request::builder()
                .method(request.method.clone())
                .uri(request.url.clone())
                .header(ACCEPT, request.accept.clone());
            for (name, value) in &self.headers {
                builder = builder.header(name, value);
            }
            let header = self.auth.header().await.map_err(|e| match e {
                Error::Config(mut c) => {
                    c.origin = format!("{}: cannot authenticate: {}", request.context, c.origin);
                    Error::Config(c)
                }
                other => other,
            })?;
            if let Some(header) = header.or_else(|| self.url_credentials.clone()) {
                builder = builder.header(AUTHORIZATION, header);
            }
            let body = match &request.body {
                Some((body, content_type)) => {
                    builder = builder.header(CONTENT_TYPE, content_type.clone());
                    Full::new(body.clone())
                }
                None => Full::new(Bytes::new()),
            };
            let outgoing = builder
                .body(body)
                .map_err(|e| http_error(&request.context, "building the request", &e))?;
            let response =
                read_with_timeout(self.pool.request(outgoing), timeout, &request.context)
                    .await?
                    .map_err(|e| http_error(&request.context, "sending the request", &e))?;
            let status = response.status();
            if status == StatusCode::UNAUTHORIZED && !refreshed && self.auth.refreshable() {
                tracing::debug!(context = %request.context, "401 Unauthorized; refreshing credentials");
                refreshed = true;
                self.auth.invalidate().await;
                continue;
            }
            let (mut parts, incoming) = response.into_parts();
            let body = BodyDataStream::new(incoming)
                .map_err(|e| Box::new(e) as BoxError)
                .boxed();
            let gzipped = parts
                .headers
                .get(CONTENT_ENCODING)
                .is_some_and(|v| v.as_bytes().eq_ignore_ascii_case(b"gzip"));
            let body = if self.gzip && gzipped {
                // What the decoders see is the body itself, as Go's transport hands it over.
                parts.headers.remove(CONTENT_ENCODING);
                parts.headers.remove(CONTENT_LENGTH);
                gunzip(body)
            } else {
                body
            };
            return Ok(Response {
                status,
                headers: parts.headers,
                body,
            });
        }
    }
}

/// `body` decompressed as it streams in; a body that is not gzip, or ends early, fails.
fn gunzip(body: Body) -> Body {
    let decoder = Some(GzDecoder::new(Vec::new()));
    futures_util::stream::unfold((body, decoder), |(mut body, mut decoder)| async move {
        let gz = decoder.as_mut()?;
        loop {
            match body.next().await {
                Some(Ok(chunk)) => {
                    if let Err(e) = gz.write_all(&chunk) {
                        return Some((Err(gzip_error(e)), (body, None)));
                    }
                    let out = std::mem::take(gz.get_mut());
                    if !out.is_empty() {
                        return Some((Ok(Bytes::from(out)), (body, decoder)));
                    }
                }
                Some(Err(e)) => return Some((Err(e), (body, None))),
                None => {
                    let mut gz = decoder.take()?;
                    return match gz.try_finish() {
                        Ok(()) => {
                            let out = std::mem::take(gz.get_mut());
                            (!out.is_empty()).then(|| (Ok(Bytes::from(out)), (body, None)))
                        }
                        Err(e) => Some((Err(gzip_error(e)), (body, None))),
                    };
                }
            }
        }
    })
    .boxed()
}

fn gzip_error(e: std::io::Error) -> BoxError {
    format!("the gzip-encoded body does not decompress: {e}").into()
}
