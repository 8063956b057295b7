//! A kube-apiserver-compatible HTTP server for tests and benchmarks of informers and
//! controllers: list (with pagination, consistent snapshots and selectors), watch (with
//! history, 410 Expired, bookmarks, streaming lists), writes, discovery, optional TLS and
//! bearer tokens, and fault injection switchable at run time.
//!
//! # Testing your own controller
//!
//! ```no_run
//! # async fn demo() -> Result<(), Box<dyn std::error::Error>> {
//! use test_apiserver::{fixtures, FaultTarget, TestApiServer};
//!
//! let server = TestApiServer::builder().seed_pods(100).seed_namespaces(4).start().await?;
//! server.write_kubeconfig("/tmp/kubeconfig")?;        // point your controller's client at it
//! server.create("configmaps", Some("ns-0"), fixtures::config_map("ns-0", "settings", 0))?;
//! server.faults().fail_next(2, 503, FaultTarget::resource("pods").verb("list"));
//! server.faults().compact_history();                  // the next watch from an old RV gets 410
//! assert_eq!(server.request_count("watch", "pods"), 0);
//! server.shutdown().await;
//! # Ok(()) }
//! ```
//!
//! [`eventually`] waits in a test for what an informer, a controller or the server's
//! background work will have done.
//!
//! # Throughput
//!
//! Objects are stored as serialised bytes and lists and watch events are written from
//! them; `test-apiserver --self-bench N` seeds N Pods and prints the seeding, list and
//! watch rates over loopback HTTP.
//!
//! # Writes
//!
//! Each [`ResourceSpec`] carries the write semantics of its registry strategy: the
//! status and scale subresources, how `metadata.generation` moves, what a create stores
//! as `status`, whether a PUT needs a resourceVersion or may create, and what a delete
//! answers. Conflicts, preconditions, finalizers, delete-collection, JSON, merge and
//! (for built-ins) strategic merge patches, `dryRun` and option validation answer as
//! kube-apiserver does.
//!
//! # Metadata and namespaces
//!
//! Names (per resource: DNS subdomain, DNS label or DNS-1035 label), `generateName`,
//! labels, annotations, owner references and finalizers are validated on every write,
//! ConfigMap and Secret keys too, with kube-apiserver's 422 causes in its order. Writes
//! into a namespace that does not exist are 404; a server starts with `default`,
//! `kube-node-lease`, `kube-public` and `kube-system` (add others with
//! [`TestApiServerBuilder::namespaces`]). Deleting a namespace marks it `Terminating`
//! (creates in it are then 403) and a background namespace controller deletes its
//! objects, then the namespace.
//!
//! # ServiceAccounts
//!
//! Every active namespace has a `default` ServiceAccount, created with the namespace and
//! again when it is deleted, as kube-controller-manager's serviceaccounts controller keeps
//! it; a Pod create looks its account up (403 when it does not exist), as the
//! `ServiceAccount` admission plugin does. [`TestApiServerBuilder::service_account_controller`]
//! turns the controller off, as under envtest.
//!
//! # Garbage collection
//!
//! Deletes honour `propagationPolicy` as a cluster with kube-controller-manager does:
//! `Background` (the default for most resources) deletes the owner, then its dependents
//! (objects whose `metadata.ownerReferences` name it) in the background; `Foreground`
//! keeps the owner with the `foregroundDeletion` finalizer until its blocking dependents
//! are gone; `Orphan` strips the references, then deletes the owner. Dependents of deleted
//! owners are collected. [`TestApiServerBuilder::garbage_collection`] turns it off, as under
//! envtest.
//!
//! # Built-in objects
//!
//! Pods, workloads and Services are defaulted as kube-apiserver 1.37 defaults them (the
//! decoder's defaults on every write, a Job's generated selector, the default pod
//! admission plugins, cluster IPs from `10.96.0.0/12` and node ports allocated and freed),
//! and their `spec`s get the validations controllers trip over most (selectors matching
//! templates, immutable selectors, containers, ports), with kube-apiserver's 422 causes.
//!
//! # Custom resources
//!
//! CRDs written to `/apis/apiextensions.k8s.io/v1/customresourcedefinitions` (or given to
//! [`TestApiServerBuilder::crd`], [`TestApiServerBuilder::crd_file`],
//! [`RunningServer::install_crd`]) are validated, established and served at once; their
//! objects are pruned, defaulted and validated against the version's structural schema
//! with kube-apiserver's messages.
//!
//! # Differences from kube-apiserver
//!
//! Server-side apply is served (not on `scale`) and `managedFields` kept on every write
//! through the API, with `informer-merge`'s engine; no graceful deletion (Pods go
//! at once); built-ins are defaulted
//! and validated only as far as the README lists (custom resources of CRDs are pruned,
//! defaulted and validated, CEL rules included); an invalid `resourceVersion` is a 400 BadRequest
//! (kube-apiserver answers 500 with the same message). The README lists them all.
#![deny(missing_docs)]

mod body;
mod continue_token;
mod crd;
mod cut;
mod defaults;
pub mod error;
mod eventually;
pub mod faults;
mod filter;
pub mod fixtures;
#[doc(hidden)]
pub mod fuzz;
mod gc;
#[cfg(feature = "client")]
pub mod harness;
mod http;
pub use informer_selectors::labels;
mod managed_fields;
mod meta;
mod namespace_lifecycle;
mod partial_metadata;
mod patch;
mod protobuf;
mod recorded;
pub mod resource;
mod scale;
mod schema;
/// The label selectors the runtime matches with: one grammar on both sides of the wire.
pub use informer_selectors::selector;
pub mod selfbench;
mod server;
mod serviceaccounts;
mod state;
pub mod status;
mod store;
mod strategy;
mod template;
mod tls;
mod validation;
mod watch;
mod wire;

pub use crd::CrdSchema;
pub use error::Error;
pub use eventually::eventually;
pub use faults::{FaultTarget, Faults};
#[cfg(feature = "client")]
pub use harness::{client_or_embedded, Embedded, HarnessError, TestEnv, TestEnvBuilder};
pub use recorded::RecordedRequest;
pub use resource::{builtin_resources, Generation, ResourceSpec, ScaleSpec, StatusOnCreate};
pub use server::{PreparedPods, RunningServer, TestApiServer, TestApiServerBuilder};
pub use status::StatusError;
