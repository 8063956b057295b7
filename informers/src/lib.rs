//! Typed shared informers for every listable built-in Kubernetes resource, and the
//! `SharedInformerFactory` that shares them (client-go's `informers` package).
//!
//! ```no_run
//! use std::sync::Arc;
//! use std::time::Duration;
//!
//! use informer_runtime::{Client, Deleted, ResourceEventHandlerFuncs};
//! use informers::SharedInformerFactory;
//! use k8s_openapi::api::core::v1::Pod;
//!
//! # async fn demo() -> Result<(), Box<dyn std::error::Error>> {
//! let client = Client::try_default().await?;
//! let factory = SharedInformerFactory::builder(client)
//!     .default_resync(Duration::ZERO)
//!     .namespace("shop")
//!     .build();
//!
//! let pods = factory.core().v1().pods(); // the same informer on every call
//! pods.informer().add_event_handler(
//!     ResourceEventHandlerFuncs::default()
//!         .on_add(|pod: &Arc<Pod>, in_initial_list| {
//!             let _ = (&pod.metadata.name, in_initial_list);
//!         })
//!         .on_update(|_old: &Arc<Pod>, _new: &Arc<Pod>| {})
//!         .on_delete(|_gone: &Deleted<Pod>| {}),
//! );
//!
//! factory.start();
//! factory.wait_for_cache_sync().await?;
//! let web0: Option<Arc<Pod>> = pods.lister().pods("shop").get("web-0");
//! let web: Vec<Arc<Pod>> = pods.lister().list(&"tier=web".parse()?);
//! # let _ = (web0, web);
//! factory.shutdown().await;
//! # Ok(())
//! # }
//! ```
//!
//! Accessors follow `factory.<group>().<version>().<resources>()`; group names come from
//! the API group by a fixed rule: the core group is `core()`, a `.k8s.io` suffix is dropped
//! and the remaining labels joined (`rbac_authorization()`, `flowcontrol_apiserver()`),
//! a dotless group is kept (`apps()`). Resources are the snake_cased, pluralised kind
//! (`replica_sets()`, `network_policies()`). [`SharedInformerFactory::for_resource`] resolves a
//! `GroupVersionResource` at run time.
//!
//! [`MetadataGroups`] gives the runtime's `MetadataSharedInformerFactory` the same
//! accessors for metadata-only informers: with it in scope,
//! `metadata_factory.core().v1().pods()` is the factory's `typed::<Pod>()` informer,
//! caching `PartialObjectMeta<Pod>` (only each Pod's `ObjectMeta`).
//!
//! Generated at build time by `informer-gen` from the resource table of the Kubernetes
//! version the final binary enables in k8s-openapi (this crate never picks one). One cargo
//! feature per API group, named like its accessor, all on by default.
#![deny(missing_docs)]
#![cfg_attr(docsrs, feature(doc_cfg))]

include!(concat!(env!("OUT_DIR"), "/informers.rs"));
