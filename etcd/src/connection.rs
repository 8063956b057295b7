//! [`Etcd`]: an etcd client together with the endpoints it talks to, so that every
//! error can say which etcd failed.

use std::sync::Arc;
use std::time::Duration;

use etcd_client::{Client, ConnectOptions, KvClient, WatchClient};

use super::status::from_etcd;
use super::tls::EtcdTls;
use informer_client::error::{ConfigErrorKind, Error};

/// The default of [`Etcd::with_max_response_bytes`]: 64 MiB.
///
/// etcd refuses a request over `--max-request-bytes` (1.5 MiB by default; etcd warns above
/// 10 MiB), so no value is larger. Watches ask etcd to split responses at that size
/// (`fragment`), so a watch response holds at most about one value and its previous value
/// (3 MiB by default, 20 MiB at 10 MiB). A list reads at most 500 keys at a time: typical
/// objects (a few KiB; a 4.7 KiB Pod) make a read of a few MiB, and a read over the limit
/// is retried with half as many keys, down to one. So 64 MiB refuses no answer of an etcd
/// whose `--max-request-bytes` stays within etcd's advice, while bounding what one answer
/// can make this process allocate far below `i32::MAX` (2 GiB, the Go client's default).
pub const DEFAULT_MAX_RESPONSE_BYTES: usize = 64 << 20;

/// An etcd v3 connection. Cheap to clone; clones share the underlying gRPC channel.
#[derive(Clone)]
pub struct Etcd {
    client: Client,
    endpoints: Arc<str>,
    /// The endpoints and, when it explains failures, how we connect to them.
    description: Arc<str>,
    max_response_bytes: usize,
}

impl std::fmt::Debug for Etcd {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Etcd")
            .field("endpoints", &self.endpoints)
            .field("max_response_bytes", &self.max_response_bytes)
            .finish_non_exhaustive()
    }
}

/// The options [`Etcd::connect`] uses when given none.
fn default_options() -> ConnectOptions {
    ConnectOptions::new()
        .with_keep_alive(Duration::from_secs(30), Duration::from_secs(10))
        .with_keep_alive_while_idle(true)
        .with_connect_timeout(Duration::from_secs(5))
}

fn label<E: AsRef<str>>(endpoints: &[E]) -> String {
    endpoints
        .iter()
        .map(|e| e.as_ref())
        .collect::<Vec<_>>()
        .join(",")
}

impl Etcd {
    /// Connects to `endpoints` (e.g. `["127.0.0.1:2379"]` or `["http://10.0.0.1:2379"]`).
    ///
    /// Without `options`, gRPC keep-alive pings (every 30 s, 10 s timeout) are on so that a
    /// silently dead etcd ends watches instead of hanging them, and connecting times out
    /// after 5 s. With a user in `options`, this authenticates at once and fails with 401
    /// Unauthorized on bad credentials; without one, the connection is made lazily and an
    /// unreachable etcd surfaces as `Error::Http` on the first list or watch. For a
    /// long-running informer with a user, also set `with_auto_token_refresh(true)`: etcd's
    /// auth tokens expire.
    ///
    /// This sends everything, passwords included, in clear: use it only for an etcd on
    /// loopback or across a network where nobody untrusted can listen or redirect traffic.
    /// Elsewhere use [`Etcd::connect_tls`].
    pub async fn connect<E: AsRef<str>>(
        endpoints: &[E],
        options: Option<ConnectOptions>,
    ) -> Result<Self, Error> {
        let label = label(endpoints);
        let options = options.unwrap_or_else(default_options);
        let client = Client::connect(endpoints, Some(options))
            .await
            .map_err(|e| from_etcd(e, &format!("connect to etcd at {label}")))?;
        Ok(Self::from_client(client, &label))
    }

    /// Connects to `endpoints` over TLS, verifying etcd's certificate against `tls`'s CA
    /// and presenting its client certificate, if any (etcdctl's `--cacert`, `--cert`,
    /// `--key`). Endpoints are `https://HOST:PORT` or `HOST:PORT`; an `http://` one is
    /// refused. `options` as for [`Etcd::connect`] (TLS settings in them are replaced).
    ///
    /// Without a user in `options` the connection is made lazily, so a handshake failure
    /// (a certificate signed by another CA, a client certificate etcd refuses or none when
    /// etcd requires one) surfaces as `Error::Http` on the first list or watch, naming the
    /// endpoints and the TLS error.
    pub async fn connect_tls<E: AsRef<str>>(
        endpoints: &[E],
        tls: &EtcdTls,
        options: Option<ConnectOptions>,
    ) -> Result<Self, Error> {
        let label = label(endpoints);
        if let Some(plain) = endpoints
            .iter()
            .map(AsRef::as_ref)
            .find(|e| e.starts_with("http://"))
        {
            return Err(Error::config(
                ConfigErrorKind::Invalid,
                format!("connect to etcd at {label}"),
                format!("endpoint {plain} asks for plain gRPC: with TLS, give https://HOST:PORT or HOST:PORT"),
            ));
        }
        let options = options
            .unwrap_or_else(default_options)
            .with_tls(tls.tls_options());
        // With TLS 1.3 the server checks the client certificate after the handshake, so a
        // client without one sees only "connection closed": say there was none.
        let description = if tls.has_client_identity() {
            label.clone()
        } else {
            format!("{label} (TLS without a client certificate)")
        };
        let client = Client::connect(endpoints, Some(options))
            .await
            .map_err(|e| from_etcd(e, &format!("connect to etcd at {description}")))?;
        let mut etcd = Self::from_client(client, &label);
        etcd.description = Arc::from(description);
        Ok(etcd)
    }

    /// Wraps a client connected elsewhere; `endpoints` only labels errors.
    pub fn from_client(client: Client, endpoints: &str) -> Self {
        Self {
            client,
            endpoints: Arc::from(endpoints),
            description: Arc::from(endpoints),
            max_response_bytes: DEFAULT_MAX_RESPONSE_BYTES,
        }
    }

    /// The largest response accepted from etcd, in bytes ([`DEFAULT_MAX_RESPONSE_BYTES`]
    /// unless set). A larger one fails the read or the watch with a 500 `InternalError`
    /// naming both sizes, except that a list first retries with fewer keys per read. Raise
    /// it if etcd's `--max-request-bytes` exceeds about a third of it: a watch event carries
    /// a value and its previous value.
    #[must_use]
    pub fn with_max_response_bytes(mut self, bytes: usize) -> Self {
        self.max_response_bytes = bytes;
        self
    }

    /// The largest response accepted from etcd, in bytes.
    pub fn max_response_bytes(&self) -> usize {
        self.max_response_bytes
    }

    /// The etcd client (a cheap clone), for anything this crate does not wrap.
    pub fn client(&self) -> Client {
        self.client.clone()
    }

    /// A KV client accepting responses up to `max_response_bytes`.
    pub(crate) fn kv(&self) -> KvClient {
        self.client
            .kv_client()
            .max_decoding_message_size(self.max_response_bytes)
    }

    /// A watch client accepting responses up to `max_response_bytes`.
    pub(crate) fn watch_client(&self) -> WatchClient {
        self.client
            .watch_client()
            .max_decoding_message_size(self.max_response_bytes)
    }

    /// The endpoints, as given to [`Etcd::connect`] (comma-joined).
    pub fn endpoints(&self) -> &str {
        &self.endpoints
    }

    /// The endpoints for error contexts, with what helps explain a failure to reach them.
    pub(crate) fn description(&self) -> &str {
        &self.description
    }
}
