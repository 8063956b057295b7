//! Runtime for typed, generated Kubernetes informers: the Rust counterpart of
//! client-go's `tools/cache`, plus the HTTP client it lists and watches with.
//!
//! Start from a factory: a generated `SharedInformerFactory` (the `informers` crate, or
//! your CRDs' through `informer-gen`), or [`DynamicSharedInformerFactory`] and
//! [`MetadataSharedInformerFactory`] for resources known at run time. Every factory is an
//! [`InformerFactory`]: `start()`, `wait_for_cache_sync()`, `shutdown()`. Its informers
//! are [`SharedIndexInformer`]s: add [`ResourceEventHandler`]s, read the cache through a
//! [`Lister`].
//!
//! ```no_run
//! # async fn run() -> Result<(), Box<dyn std::error::Error>> {
//! use std::time::Duration;
//! use informer_runtime::{Client, DynamicSharedInformerFactory, GroupVersionResource};
//! use informer_runtime::{InformerFactory, Selector};
//!
//! let factory = DynamicSharedInformerFactory::new(Client::try_default().await?, Duration::ZERO);
//! let pods = factory.for_resource(&GroupVersionResource::new("", "v1", "pods")).await?;
//! factory.start();
//! factory.wait_for_cache_sync().await?;
//! println!("{} pods", pods.lister().list(&Selector::everything()).len());
//! factory.shutdown().await;
//! # Ok(())
//! # }
//! ```
//!
//! Data flows one way: a [`ListerWatcher`] → the reflector → a bounded channel of deltas
//! → ([store](mod@store), [handlers](handler)) → [listers](lister).
#![deny(missing_docs)]
#![cfg_attr(docsrs, feature(doc_cfg))]

pub mod api;
mod backoff;
pub mod client;
pub mod controller;
mod delta_apply;
mod delta_channel;
pub mod discovery;
pub mod dynamic;
pub mod error;
#[cfg(feature = "etcd")]
pub mod etcd;
pub mod factory;
pub mod failure;
pub mod generic;
pub mod handler;
pub mod informer;
mod json;
#[cfg(feature = "kube")]
#[cfg_attr(docsrs, doc(cfg(feature = "kube")))]
pub mod kube;
pub mod labels;
pub mod leader_election;
pub mod list_options;
pub mod lister;
pub mod lister_watcher;
pub mod metadata;
pub mod object;
mod processor;
pub mod projection;
mod reflector;
pub mod selector;
pub mod stats;
pub mod store;
pub mod watch_event;
pub mod workqueue;

pub use api::{Api, DeleteParams, DeleteResponse, Patch, PatchParams, PostParams};
pub use client::Client;
pub use controller::{Action, Controller, ObjectRef};
pub use discovery::{ApiResource, Discovery};
pub use dynamic::{DynamicObject, DynamicSharedInformerFactory};
pub use error::{ApiError, Error};
pub use factory::{
    FactoryBuilder, FactoryOptions, InformerAsk, InformerFactory, SharedInformerFactoryCore,
};
pub use failure::{ListFailure, SyncError, SyncErrorKind};
pub use generic::GenericInformer;
pub use handler::{
    Deleted, Event, HandlerOptions, QueuePolicy, ResourceEventHandler, ResourceEventHandlerFuncs,
};
pub use informer::{HandlerRegistration, SharedIndexInformer};
pub use leader_election::{LeaderElectionConfig, LeaderElector, LeaseLock};
pub use list_options::{ListOptions, TweakListOptions};
pub use lister::{Lister, NamespaceLister};
pub use lister_watcher::{ListWatch, ListerWatcher};
pub use metadata::{MetadataSharedInformerFactory, PartialObjectMeta};
pub use object::{GroupVersionResource, Meta, Object};
pub use projection::{ProjectedInformer, Projection};
pub use selector::Selector;
pub use stats::{render_prometheus, HandlerStats, InformerStats};
pub use store::{store, CacheMode, IndexFunc, Indexer, Indexers, StoreWriter};
pub use watch_event::{Bookmark, ObjectList, WatchEvent, WatchStream};
pub use workqueue::WorkQueue;

/// Re-exported so generated crates and users name one k8s-openapi.
pub use k8s_openapi;
