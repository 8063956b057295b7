//! `informer-gen`: generates typed informers, listers and a `SharedInformerFactory`
//! from resource definitions.
//!
//! A pipeline with three rooms:
//! - [`read`]: sources (k8s-openapi sources, OpenAPI v2/v3 specs, CRD manifests) → [`model::ResourceDef`]s;
//! - [`model`]: naming, grouping, validation;
//! - [`emit`]: model → tokens → formatted files.
#![deny(missing_docs)]

pub mod emit;
pub mod model;
pub mod read;
