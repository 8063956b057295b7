//! The informer runtime of kube-informers, the Rust counterpart of client-go's
//! `tools/cache`: a [`ListerWatcher`] feeds a reflector, whose deltas reach an indexed
//! [store](mod@store) and the [handlers](handler); [listers](lister) read the cache. It
//! lists and watches through the [`informer-client`](informer_client) crate, whose
//! modules it re-exports ([`client`], [`api`], [`error`], ...), and knows nothing of
//! controllers (the `informer-controller` crate builds on it).
//!
//! Start from a factory: a generated `SharedInformerFactory` (the `informers` crate, or
//! your CRDs' through `informer-gen`), or [`DynamicSharedInformerFactory`] and
//! [`MetadataSharedInformerFactory`] for resources known at run time. Every factory is an
//! [`InformerFactory`]: `start()`, `wait_for_cache_sync()`, `shutdown()`, and
//! `informer_for(source)` for the shared informer of any [`InformerSource`]. Its informers
//! are [`SharedIndexInformer`]s: add [`ResourceEventHandler`]s, read the cache through a
//! [`Lister`]. Without a factory, [`new_informer`] builds one informer of a source, with
//! [`InformerOptions`].
//!
//! # How it fits together
//!
//! Data flows one way, and each step is one module:
//!
//! 1. **What to list and watch**: an [`InformerSource`] ([`source`]) turns into a
//!    [`ListerWatcher`] ([`lister_watcher`]): the client's list and watch of one collection,
//!    with the factory's namespace and `tweak_list_options` applied.
//! 2. **Reflector** (private, client-go's `Reflector`): lists in pages, then watches from the
//!    list's resourceVersion; a 410 relists (never back in time), other failures back off.
//!    It is the only part that talks to the server.
//! 3. **Delta channel** (private, client-go's `RealFIFO`): a bounded, in-order queue of
//!    deltas, so a fast decoder waits instead of piling up pages.
//! 4. **Apply and distribute** (private): one loop applies each delta to the [store](mod@store)
//!    and turns it into the event it means for handlers (a relist is applied as one write
//!    when it ends, its missing keys becoming [`Deleted::FinalStateUnknown`]; the store's
//!    [resourceVersion](store::Indexer::resource_version) follows), under the lock a newly
//!    added handler takes to
//!    snapshot the cache: every handler sees Add → Update* → Delete per object, with no gap
//!    and no duplicate.
//! 5. **Handlers** ([`handler`], delivered by a private processor): each handler has its own
//!    queue and thread, so a slow one delays only itself.
//! 6. **Listers** ([`lister`]) read the store without waiting on the informer's writes.
//!
//! Nothing reaches back up: the store knows no reflector, the client knows no informer, and
//! the controller kit (`informer-controller`) is a layer above this crate. What an informer
//! did is counted in [`stats`]; why a list failed is a [`ListFailure`] ([`failure`]).
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
#![deny(missing_docs)]
#![cfg_attr(docsrs, feature(doc_cfg))]

mod backoff;
mod delta_apply;
mod delta_channel;
pub mod dynamic;
pub mod factory;
pub mod failure;
pub mod generic;
pub mod handler;
pub mod informer;
mod jitter;
#[cfg(feature = "kube")]
#[cfg_attr(docsrs, doc(cfg(feature = "kube")))]
pub mod kube;
pub mod lister;
pub mod lister_watcher;
pub mod metadata;
mod processor;
pub mod projection;
pub mod protobuf;
mod reflector;
pub mod sharding;
pub mod source;
pub mod stats;
pub mod store;

// The client layer, re-exported so that one path names everything an informer user reads.
pub use informer_client::{
    api, apply, client, discovery, error, labels, list_options, object, request, resource_version,
    selector, shard, watch_event,
};

pub use api::{Api, DeleteParams, DeleteResponse, Patch, PatchParams, PostParams};
pub use client::Client;
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
pub use informer::{
    new_informer, HandlerRegistration, InformerOptions, MetadataTransform, SharedIndexInformer,
};
pub use informer_client::{Config, PartialObjectMeta};
pub use list_options::{ListOptions, TweakListOptions};
pub use lister::{Lister, NamespaceLister};
pub use lister_watcher::{ListWatch, ListerWatcher};
pub use metadata::MetadataSharedInformerFactory;
pub use object::{GroupVersionResource, Meta, Object};
pub use projection::{Projected, ProjectedInformer, Projection};
pub use selector::Selector;
pub use source::{typed, Collection, InformerSource};
pub use stats::{render_prometheus, HandlerStats, InformerStats};
pub use store::{store, CacheMode, IndexFunc, Indexer, Indexers, StoreWriter};
pub use watch_event::{Bookmark, ObjectList, WatchEvent, WatchStream};

/// Re-exported so generated crates and users name one k8s-openapi.
pub use informer_client::k8s_openapi;
/// Re-exported for code generated by `informer-gen`, which names serde through the runtime so
/// that a crate with generated types needs no serde dependency of its own.
#[doc(hidden)]
pub use serde;
/// Re-exported for code generated by `informer-gen` (free-form JSON fields are
/// `serde_json::Value`), so that a crate with generated types needs no serde_json dependency.
#[doc(hidden)]
pub use serde_json;
