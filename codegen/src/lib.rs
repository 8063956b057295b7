//! `informer-gen`: generates typed informers, listers, a `SharedInformerFactory` and a typed
//! `Clientset` from resource definitions.
//!
//! A pipeline with three rooms:
//! - [`read`]: sources (k8s-openapi sources, OpenAPI v2/v3 specs, CRD manifests) → [`model::ResourceDef`]s;
//! - [`model`]: naming, grouping, validation;
//! - [`emit`]: model → tokens → formatted files.
//!
//! [`Config`] drives it from a `build.rs`; the `informer-gen` binary from the command line.
#![deny(missing_docs)]

pub mod config;
pub mod emit;
pub mod model;
pub mod read;

pub use config::{Config, GenerateError};
