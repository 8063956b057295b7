//! [`Etcd`]: an etcd client together with the endpoints it talks to, so that every
//! error can say which etcd failed.

use std::sync::Arc;
use std::time::Duration;

use etcd_client::{Client, ConnectOptions, KvClient, WatchClient};

use super::status::from_etcd;
use crate::error::Error;

/// The largest gRPC response accepted. etcd caps a value at 1.5 MiB by default and a
/// read returns at most 500 keys, so this bounds what the runtime asks for, not what a
/// well-configured etcd sends (gRPC's default, 4 MiB, is hit by a few hundred large objects).
const MAX_RESPONSE_BYTES: usize = 1 << 30;

/// An etcd v3 connection. Cheap to clone; clones share the underlying gRPC channel.
#[derive(Clone)]
pub struct Etcd {
    client: Client,
    endpoints: Arc<str>,
}

impl std::fmt::Debug for Etcd {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Etcd")
            .field("endpoints", &self.endpoints)
            .finish_non_exhaustive()
    }
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
    /// auth tokens expire. TLS needs `etcd-client`'s `tls` feature, off here by default.
    pub async fn connect<E: AsRef<str>>(
        endpoints: &[E],
        options: Option<ConnectOptions>,
    ) -> Result<Self, Error> {
        let label = endpoints
            .iter()
            .map(|e| e.as_ref())
            .collect::<Vec<_>>()
            .join(",");
        let options = options.unwrap_or_else(|| {
            ConnectOptions::new()
                .with_keep_alive(Duration::from_secs(30), Duration::from_secs(10))
                .with_keep_alive_while_idle(true)
                .with_connect_timeout(Duration::from_secs(5))
        });
        let client = Client::connect(endpoints, Some(options))
            .await
            .map_err(|e| from_etcd(e, &format!("connect to etcd at {label}")))?;
        Ok(Self::from_client(client, &label))
    }

    /// Wraps a client connected elsewhere; `endpoints` only labels errors.
    pub fn from_client(client: Client, endpoints: &str) -> Self {
        Self {
            client,
            endpoints: Arc::from(endpoints),
        }
    }

    /// The etcd client (a cheap clone), for anything this crate does not wrap.
    pub fn client(&self) -> Client {
        self.client.clone()
    }

    /// A KV client accepting responses up to `MAX_RESPONSE_BYTES`.
    pub(crate) fn kv(&self) -> KvClient {
        self.client
            .kv_client()
            .max_decoding_message_size(MAX_RESPONSE_BYTES)
    }

    /// A watch client accepting responses up to `MAX_RESPONSE_BYTES`.
    pub(crate) fn watch_client(&self) -> WatchClient {
        self.client
            .watch_client()
            .max_decoding_message_size(MAX_RESPONSE_BYTES)
    }

    /// The endpoints, as given to [`Etcd::connect`] (comma-joined).
    pub fn endpoints(&self) -> &str {
        &self.endpoints
    }
}
