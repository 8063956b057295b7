//! Runtime for typed, generated Kubernetes informers: the Rust counterpart of
//! client-go's `tools/cache`, plus the HTTP client it lists and watches with.
//!
//! Data flows one way:
//! [`ListerWatcher`](lister_watcher::ListerWatcher) → [`Reflector`](reflector::Reflector)
//! → [delta queue](delta_fifo) → ([store](store), [handlers](handler)) → [listers](lister).
#![deny(missing_docs)]

pub mod api;
pub mod backoff;
pub mod client;
pub mod delta_apply;
pub mod delta_fifo;
pub mod discovery;
pub mod dynamic;
pub mod error;
#[cfg(feature = "etcd")]
pub mod etcd;
pub mod factory;
pub mod generic;
pub mod handler;
pub mod informer;
mod json;
pub mod list_options;
pub mod lister;
pub mod lister_watcher;
pub mod metadata;
pub mod object;
pub mod processor;
pub mod reflector;
pub mod selector;
pub mod stats;
pub mod store;

pub use api::{Api, DeleteParams, DeleteResponse, Patch, PatchParams, PostParams};
pub use client::Client;
pub use discovery::{ApiResource, Discovery};
pub use dynamic::{DynamicObject, DynamicSharedInformerFactory};
pub use error::{ApiError, Error};
pub use factory::{FactoryBuilder, FactoryOptions, SharedInformerFactoryCore, SyncError};
pub use generic::GenericInformer;
pub use handler::{Deleted, Event, ResourceEventHandler, ResourceEventHandlerFuncs};
pub use informer::{HandlerRegistration, SharedIndexInformer};
pub use list_options::{ListOptions, TweakListOptions};
pub use lister::{Lister, NamespaceLister};
pub use lister_watcher::{ListWatch, ListerWatcher, ObjectList, WatchEvent, WatchStream};
pub use metadata::{MetadataSharedInformerFactory, PartialObjectMeta};
pub use object::{GroupVersionResource, Object};
pub use selector::Selector;
pub use stats::{render_prometheus, InformerStats};
pub use store::{CacheMode, IndexFunc, Indexer, Indexers};

/// Re-exported so generated crates and users name one k8s-openapi.
pub use k8s_openapi;
