//! Informers over etcd: a [`ListerWatcher`](informer_runtime::ListerWatcher) that lists and watches
//! objects stored as JSON under an etcd v3 key prefix, so the same informers, stores,
//! handlers and listers run without a kube-apiserver.
//!
//! ```no_run
//! # async fn run() -> Result<(), informer_runtime::Error> {
//! use std::time::Duration;
//! use informer_etcd::{Etcd, EtcdListerWatcher};
//! use informer_runtime::k8s_openapi::api::core::v1::ConfigMap;
//! use informer_runtime::{Indexers, SharedIndexInformer};
//!
//! let etcd = Etcd::connect(&["127.0.0.1:2379"], None).await?;
//! // ConfigMaps under /registry/configmaps/{namespace}/{name}.
//! let source = EtcdListerWatcher::<ConfigMap>::new(etcd);
//! let informer = SharedIndexInformer::new(source, Duration::ZERO, Indexers::default());
//! # Ok(()) }
//! ```
//!
//! Keys: [`KeyLayout`]. Values: a [`Codec`], JSON by default. Semantics of list, watch,
//! compaction and selectors: [`EtcdListerWatcher`]. Writes: [`EtcdWriter`].
//!
//! [`Etcd::connect`] speaks plain gRPC: credentials and objects cross the network in clear,
//! which is fine on loopback or a trusted private network only. [`Etcd::connect_tls`] with
//! an [`EtcdTls`] verifies etcd's certificate against its CA and can present a client
//! certificate, as etcdctl's `--cacert`, `--cert` and `--key` do.
//!
//! Building this crate needs `protoc` (Debian: `protobuf-compiler`): `etcd-client`
//! generates its gRPC code at build time.

#![deny(missing_docs)]

mod codec;
mod connection;
mod continue_token;
mod filter;
mod layout;
mod lister_watcher;
mod stats;
mod status;
mod tls;
mod watch;
mod writer;

pub use codec::{Codec, CodecError, JsonCodec};
pub use connection::{Etcd, DEFAULT_MAX_RESPONSE_BYTES};
pub use layout::KeyLayout;
pub use lister_watcher::EtcdListerWatcher;
pub use stats::EtcdStats;
pub use tls::EtcdTls;
pub use writer::EtcdWriter;

/// The etcd client crate, for [`ConnectOptions`](etcd_client::ConnectOptions) and direct access.
pub use etcd_client;
