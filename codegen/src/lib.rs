//! `informer-gen`: generates typed informers, listers, a `SharedInformerFactory` and a typed
//! `Clientset` from resource definitions.
//!
//! A pipeline with three rooms:
//! - [`read`]: sources (k8s-openapi sources, OpenAPI v2/v3 specs, CRD manifests) → the neutral
//!   model: [`model::ResourceDef`]s whose Rust type is a [`model::TypeRef`], and the unnamed
//!   schemas of CRDs;
//! - [`model`]: naming, grouping, deduplication, validation;
//! - [`emit`]: model → tokens → formatted files.
//!
//! [`Config`] drives it from a `build.rs`; the `informer-gen` binary from the command line
//! (feature `cli`, which build scripts never need: `cargo install informer-gen --features cli`).
#![deny(missing_docs)]

pub mod config;
pub mod emit;
pub mod model;
pub mod read;

pub use config::{Config, GenerateError};
