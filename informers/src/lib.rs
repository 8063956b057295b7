//! Typed shared informers for every listable built-in Kubernetes resource, the
//! `SharedInformerFactory` that shares them (client-go's `informers` package), and the typed
//! `Clientset` that writes them (client-go's `kubernetes.Clientset`).
//!
//! ```no_run
//! use std::sync::Arc;
//! use std::time::Duration;
//!
//! use informer_runtime::{Client, Deleted, InformerFactory, ResourceEventHandlerFuncs};
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
//! Asking for an accessor (`factory.core().v1().pods()`) registers its informer, so
//! `start()` and `wait_for_cache_sync()` include it even before `.informer()` or `.lister()`
//! is called.
//!
//! ## Typed projections
//!
//! Every accessor has `projected::<View>()`: the shared informer of a struct of your own with
//! only the fields you read, decoded straight from the list and watch bytes (no full object
//! is ever built), cached, indexed, and handed out as `Arc<View>`. One informer per view
//! type; asking for it does not build the full informer.
//!
//! ```no_run
//! use std::sync::Arc;
//!
//! use informer_runtime::{Client, InformerFactory, ResourceEventHandlerFuncs};
//! use informers::SharedInformerFactory;
//! use k8s_openapi::api::core::v1::Pod;
//! use k8s_openapi::apimachinery::pkg::apis::meta::v1::ObjectMeta;
//! use serde::{Deserialize, Serialize};
//!
//! #[derive(Clone, Debug, Deserialize, Serialize)]
//! struct PodView {
//!     #[serde(default)]
//!     metadata: ObjectMeta,
//!     spec: Option<PodViewSpec>,
//! }
//!
//! #[derive(Clone, Debug, Deserialize, Serialize)]
//! struct PodViewSpec {
//!     #[serde(rename = "nodeName")]
//!     node_name: Option<String>,
//! }
//!
//! informer_runtime::projection!(PodView => Pod);
//!
//! # async fn demo() -> Result<(), Box<dyn std::error::Error>> {
//! let factory = SharedInformerFactory::new(Client::try_default().await?);
//! let pods = factory.core().v1().pods().projected::<PodView>();
//! pods.informer().add_event_handler(ResourceEventHandlerFuncs::default().on_add(
//!     |pod: &Arc<PodView>, _| {
//!         let _ = pod.spec.as_ref().and_then(|s| s.node_name.as_deref());
//!     },
//! ));
//! factory.start();
//! factory.wait_for_cache_sync().await?;
//! let web: Vec<Arc<PodView>> = pods.lister().list(&"tier=web".parse()?);
//! # let _ = web;
//! factory.shutdown().await;
//! # Ok(())
//! # }
//! ```
//!
//! A view of another resource does not fit, at compile time:
//!
//! ```compile_fail,E0271
//! # use k8s_openapi::apimachinery::pkg::apis::meta::v1::ObjectMeta;
//! # #[derive(Clone, Debug, serde::Deserialize, serde::Serialize)]
//! # struct NodeView { metadata: ObjectMeta }
//! informer_runtime::projection!(NodeView => k8s_openapi::api::core::v1::Node);
//! # fn demo(factory: informers::SharedInformerFactory) {
//! let pods = factory.core().v1().pods().projected::<NodeView>(); // NodeView projects Nodes
//! # }
//! ```
//!
//! ## Writing: the clientset
//!
//! [`Clientset`] has the same groups and versions; each resource accessor is the runtime's
//! typed client, `informer_runtime::api::Api`. A namespaced resource takes the namespace
//! (`pods("shop")`) and has an all-namespaces twin (`pods_all()`, for list, watch and
//! delete_collection across namespaces); a cluster-scoped one takes none (`nodes()`).
//! Subresource methods exist only where the API serves the subresource: `update_status` on
//! Pods and Deployments, `get_scale` on Deployments, StatefulSets and ReplicaSets, neither on
//! ConfigMaps (the table of which resource has which comes from the Kubernetes OpenAPI
//! specs). The informers list and watch through the same `Api`.
//!
//! ```no_run
//! use informer_runtime::api::{Patch, PatchParams, PostParams};
//! use informer_runtime::{Client, ListOptions};
//! use informers::Clientset;
//! use k8s_openapi::api::core::v1::ConfigMap;
//! use k8s_openapi::apimachinery::pkg::apis::meta::v1::ObjectMeta;
//! use serde_json::json;
//!
//! # async fn demo() -> Result<(), informer_runtime::Error> {
//! let clientset = Clientset::new(Client::try_default().await?);
//! let config_maps = clientset.core().v1().config_maps("shop");
//! let cm = ConfigMap {
//!     metadata: ObjectMeta { name: Some("settings".into()), ..Default::default() },
//!     data: Some([("mode".to_owned(), "fast".to_owned())].into()),
//!     ..Default::default()
//! };
//! let mut cm = config_maps.create(&cm, &PostParams::default()).await?;
//! cm.data.get_or_insert_with(Default::default).insert("mode".into(), "safe".into());
//! match config_maps.update(&cm, &PostParams::default()).await {
//!     Err(e) if e.is_conflict() => { /* changed meanwhile: re-read and retry */ }
//!     other => { other?; }
//! }
//!
//! let deployments = clientset.apps().v1().deployments("shop");
//! let patch = Patch::Merge(json!({"spec": {"replicas": 3}}));
//! deployments.patch("web", &patch, &PatchParams::default()).await?;
//! let scale = deployments.get_scale("web").await?;
//! let mut web = deployments.get_status("web").await?;
//! if let Some(status) = web.status.as_mut() {
//!     status.observed_generation = web.metadata.generation;
//! }
//! deployments.update_status(&web, &PostParams::default()).await?;
//!
//! let node = clientset.core().v1().nodes().get("node-a").await?;
//! let every_pod = clientset.core().v1().pods_all().list(&ListOptions::default()).await?;
//! # let _ = (scale, node, every_pod);
//! # Ok(())
//! # }
//! ```
//!
//! A resource without a subresource has no method for it:
//!
//! ```compile_fail,E0599
//! # async fn demo(clientset: informers::Clientset) -> Result<(), informer_runtime::Error> {
//! let config_maps = clientset.core().v1().config_maps("shop");
//! let cm = config_maps.get("settings").await?;
//! config_maps.update_status(&cm, &Default::default()).await?; // ConfigMaps have no status
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
//! `metadata_factory.core().v1().pods()` is the factory's informer of `metadata::typed::<Pod>()`,
//! caching `PartialObjectMeta<Pod>` (only each Pod's `ObjectMeta`).
//!
//! Generated at build time by `informer-gen` from the resource table of the Kubernetes
//! version the final binary enables in k8s-openapi (this crate never picks one). One cargo
//! feature per API group, named like its accessor, all on by default.
#![deny(missing_docs)]
#![cfg_attr(docsrs, feature(doc_cfg))]

include!(concat!(env!("OUT_DIR"), "/informers.rs"));

/// Server-side apply configurations (client-go's `applyconfigurations`), laid out as
/// k8s-openapi's modules: `apply::api::apps::v1::DeploymentApply` configures a
/// `k8s_openapi::api::apps::v1::Deployment`. Every field is optional and only the set ones
/// are sent, so an apply claims exactly what it sets; `extract_<kind>` reads back what a
/// manager owns. With the `apply` feature.
#[cfg(feature = "apply")]
#[cfg_attr(docsrs, doc(cfg(feature = "apply")))]
pub mod apply {
    include!(concat!(env!("OUT_DIR"), "/apply.rs"));
}
