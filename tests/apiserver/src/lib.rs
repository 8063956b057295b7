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
//! answers. Conflicts, preconditions, finalizers, delete-collection, JSON and merge
//! patches, `dryRun` and option validation answer as kube-apiserver does.
//!
//! # Differences from kube-apiserver
//!
//! Strategic merge patch and server-side apply answer 415 (as a server without them);
//! no garbage collector (`propagationPolicy` is accepted, dependents stay) and no graceful
//! deletion (Pods go at once); `managedFields` are not tracked; namespaces need not
//! exist; no defaulting; an invalid `resourceVersion` is a 400 BadRequest (kube-apiserver
//! answers 500 with the same message). The README lists them all.
#![deny(missing_docs)]

mod body;
mod continue_token;
mod cut;
pub mod error;
pub mod faults;
mod filter;
pub mod fixtures;
#[doc(hidden)]
pub mod fuzz;
mod http;
#[path = "../../../src/labels.rs"]
pub mod labels;
mod meta;
mod partial_metadata;
mod patch;
mod recorded;
pub mod resource;
mod scale;
/// The runtime's label selectors (`informer_runtime::selector`) and the label sets they
/// match (`informer_runtime::labels`), compiled from the same source files: depending on
/// the runtime crate would pull in k8s-openapi, which needs a Kubernetes version feature
/// that only final binaries may pick.
#[path = "../../../src/selector.rs"]
pub mod selector;
pub mod selfbench;
mod server;
mod state;
pub mod status;
mod store;
mod strategy;
mod template;
mod tls;
mod watch;
mod wire;

pub use error::Error;
pub use faults::{FaultTarget, Faults};
pub use recorded::RecordedRequest;
pub use resource::{builtin_resources, Generation, ResourceSpec, ScaleSpec, StatusOnCreate};
pub use server::{PreparedPods, RunningServer, TestApiServer, TestApiServerBuilder};
pub use status::StatusError;
