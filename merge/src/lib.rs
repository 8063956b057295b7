//! The merge rules of Kubernetes objects, shared by clients and the test API server:
//!
//! - [`schema`]: for each built-in type, the patch strategy, merge key, list type and map
//!   type of its fields, derived from the Kubernetes OpenAPI document
//!   ([`schema::builtin`]).
//! - [`strategic`]: strategic merge patch (`application/strategic-merge-patch+json`) as
//!   kube-apiserver applies it, with its directives and its error messages.
//! - Server-side apply: [`fieldpath`] (field sets and their `fieldsV1` form), [`typed`]
//!   (the structure apply merges by, for built-ins and for CRDs' structural schemas),
//!   [`apply`] (field sets, comparison, merge and removal of typed values) and
//!   [`managed`] (`metadata.managedFields`: what applies and updates do to them, and
//!   apply conflicts), and [`extract`] (the part of an object a manager owns).
//!
//! ```
//! use informer_merge::schema::{self, SchemaRef};
//! use serde_json::json;
//!
//! let deployment = json!({
//!     "metadata": {"name": "web"},
//!     "spec": {"template": {"spec": {"containers": [
//!         {"name": "app", "image": "app:1"},
//!         {"name": "sidecar", "image": "proxy:1"},
//!     ]}}},
//! });
//! let patch = json!({"spec": {"template": {"spec": {"containers": [
//!     {"name": "app", "image": "app:2"},
//!     {"name": "sidecar", "$patch": "delete"},
//! ]}}}});
//! let root = SchemaRef::root(schema::builtin(), "apps/v1", "Deployment").unwrap();
//! let patched = informer_merge::strategic::apply(&deployment, &patch, root)?;
//! assert_eq!(
//!     patched["spec"]["template"]["spec"]["containers"],
//!     json!([{"name": "app", "image": "app:2"}])
//! );
//! # Ok::<(), informer_merge::strategic::Error>(())
//! ```
#![deny(missing_docs)]
#![cfg_attr(docsrs, feature(doc_cfg))]

#[cfg(feature = "patch")]
#[cfg_attr(docsrs, doc(cfg(feature = "patch")))]
pub mod apply;
pub mod extract;
pub mod fieldpath;
pub mod go;
#[cfg(feature = "patch")]
#[cfg_attr(docsrs, doc(cfg(feature = "patch")))]
pub mod managed;
#[cfg(feature = "patch")]
#[cfg_attr(docsrs, doc(cfg(feature = "patch")))]
pub mod schema;
#[cfg(feature = "patch")]
#[cfg_attr(docsrs, doc(cfg(feature = "patch")))]
pub mod strategic;
#[cfg(feature = "patch")]
#[cfg_attr(docsrs, doc(cfg(feature = "patch")))]
pub mod typed;

#[cfg(feature = "patch")]
#[cfg_attr(docsrs, doc(cfg(feature = "patch")))]
pub use go::{GoPanic, UncomparableType};
