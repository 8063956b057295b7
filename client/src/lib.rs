//! The Kubernetes API client informers list and watch with, and everything of the wire:
//! configuration from a kubeconfig or the in-cluster service account, the HTTP transport,
//! typed requests through [`Api`], discovery, list options, watch events and the errors a
//! server answers with. It knows nothing of informers: the `informer-runtime` crate builds
//! its caches on top of it, and the `kube-informers` facade re-exports both.
//!
//! One face, as in kube-rs: requests are values built without I/O ([`request`]), the
//! [`Client`] sends them and decodes what comes back (`request`, `request_status`,
//! `request_list`, `request_events`), and [`Api`] puts the two together for one resource,
//! typed or known only at run time ([`Api::for_resource`]).
//!
//! ```no_run
//! # async fn run() -> Result<(), informer_client::Error> {
//! use informer_client::{Api, Client, ListOptions};
//! use k8s_openapi::api::core::v1::ConfigMap;
//!
//! let client = Client::try_default().await?; // kubeconfig, else in-cluster
//! let config_maps: Api<ConfigMap> = Api::namespaced(client, "shop");
//! let list = config_maps.list(&ListOptions::default()).await?;
//! println!("{} config maps at resourceVersion {}", list.items.len(), list.metadata.resource_version.unwrap_or_default());
//! # Ok(())
//! # }
//! ```
#![deny(missing_docs)]
#![cfg_attr(docsrs, feature(doc_cfg))]

pub mod api;
pub mod apply;
pub mod client;
pub mod discovery;
pub mod dynamic;
pub mod error;
#[cfg(feature = "fuzzing")]
#[doc(hidden)]
pub mod fuzz;
pub mod json;
pub mod list_options;
pub mod metadata;
pub mod object;
pub mod protobuf;
pub mod request;
pub mod resource_version;
mod shard_scan;
pub mod watch_event;

pub use informer_selectors::{labels, selector, shard};

pub use api::{Api, DeleteParams, DeleteResponse, Patch, PatchParams, PostParams};
pub use client::{Client, Config};
pub use discovery::{ApiResource, Discovery};
pub use dynamic::DynamicObject;
pub use error::{ApiError, Error};
pub use list_options::{ListOptions, TweakListOptions};
pub use metadata::PartialObjectMeta;
pub use object::{GroupVersionResource, Meta, Object};
pub use resource_version::ResourceVersionOrder;
pub use selector::Selector;
pub use watch_event::{Bookmark, ObjectList, ShardInfo, WatchEvent, WatchStream};

/// Re-exported so that users and the crates above name one k8s-openapi.
pub use k8s_openapi;
