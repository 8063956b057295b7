//! Typed, code-generated Kubernetes informers for Rust, in one dependency: what client-go's
//! `informers`, `listers` and `tools/cache` are to Go, plus the controller kit.
//!
//! This crate re-exports the layers, each its own crate, so the compiler keeps them apart:
//!
//! | layer | crate | here |
//! |---|---|---|
//! | HTTP client: config, kubeconfig, transport, [`Api`], discovery, wire errors | `informer-client` | [`client`], [`api`], [`error`], ... |
//! | informer runtime: reflector, store, [`SharedIndexInformer`], listers, factories | `informer-runtime` | the crate root, [`runtime`] |
//! | generated informers, listers and clientset of every built-in resource (feature `all-groups`, or one feature per API group) | `informers`, `listers` | [`informers`], [`listers`] |
//! | controller kit: work queue, controller runner, leader election (feature `controller`) | `informer-controller` | [`controller`], [`workqueue`], [`leader_election`] |
//! | informers over etcd (feature `etcd`) | `informer-etcd` | [`etcd`] |
//!
//! Code that `informer-gen` generates for your CRDs names everything through this crate, so
//! a crate with generated informers needs this one dependency (and `informer-gen` as a
//! build dependency).
//!
//! ```no_run
//! use std::sync::Arc;
//!
//! use kube_informers::informers::SharedInformerFactory;
//! use kube_informers::k8s_openapi::api::core::v1::Pod;
//! use kube_informers::{Client, InformerFactory, ResourceEventHandlerFuncs};
//!
//! # async fn run() -> Result<(), Box<dyn std::error::Error>> {
//! let factory = SharedInformerFactory::builder(Client::try_default().await?).build();
//! let pods = factory.core().v1().pods(); // registers the Pod informer
//! pods.informer().add_event_handler(
//!     ResourceEventHandlerFuncs::default().on_add(|pod: &Arc<Pod>, _initial| {
//!         println!("{:?}", pod.metadata.name);
//!     }),
//! );
//! factory.start();
//! factory.wait_for_cache_sync().await?;
//! println!("{} pods", pods.lister().list(&Default::default()).len());
//! factory.shutdown().await;
//! # Ok(())
//! # }
//! ```
#![deny(missing_docs)]
#![cfg_attr(docsrs, feature(doc_cfg))]

pub use informer_runtime::*;

/// The informer runtime (`informer-runtime`), whose items are also at this crate's root.
pub use informer_runtime as runtime;

/// The generated informers, `SharedInformerFactory` and `Clientset` of the built-in resources
/// (the `informers` crate), for the API groups whose feature is on.
#[cfg(feature = "builtins")]
pub use informers;

/// The generated listers of the built-in resources (the `listers` crate).
#[cfg(feature = "builtins")]
pub use listers;

/// The controller kit (`informer-controller`): the controller runner, enqueue handlers and
/// event filters.
#[cfg(feature = "controller")]
pub use informer_controller as controller;

#[cfg(feature = "controller")]
pub use informer_controller::{
    leader_election, workqueue, Action, Controller, LeaderElectionConfig, LeaderElector, LeaseLock,
    ObjectRef, ReadYourWrites, WorkQueue,
};

/// Informers over etcd v3 (`informer-etcd`).
#[cfg(feature = "etcd")]
pub use informer_etcd as etcd;
