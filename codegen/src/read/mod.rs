//! Readers: each input format becomes [`crate::model::ResourceDef`]s.
//!
//! - [`k8s_openapi`]: the k8s-openapi crate's sources, parsed with `syn`, into [`table`]s;
//! - [`table`]: the checked-in per-version tables (and any table file);
//! - [`subresources`]: the checked-in table of built-in subresources, from the OpenAPI specs;
//! - [`openapi`]: Kubernetes OpenAPI v2 (`swagger.json`) and v3 per-group documents;
//! - [`crd`]: CustomResourceDefinition manifests, with their schemas typed;
//! - [`proto`]: Kubernetes `generated.proto` files;
//! - [`protobuf_table`]: the checked-in table of how each protobuf message fills its
//!   k8s-openapi struct, from the `.proto` files, k8s-openapi's sources and Go's field
//!   declarations.

pub mod crd;
pub mod k8s_openapi;
pub mod openapi;
pub mod proto;
pub mod protobuf_table;
pub mod subresources;
pub mod table;

use std::path::PathBuf;

/// Why an input could not be read. Every variant names the file.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum ReadError {
    /// The file or directory could not be read.
    #[error("{path}: cannot read: {source}")]
    Io {
        /// The file.
        path: PathBuf,
        /// The OS error.
        source: std::io::Error,
    },
    /// The file is not valid JSON (or not the expected shape).
    #[error("{path}: invalid JSON: {source}")]
    Json {
        /// The file.
        path: PathBuf,
        /// The parse error, with line and column.
        source: serde_json::Error,
    },
    /// A Rust source file does not parse.
    #[error("{path}: invalid Rust source: {source}")]
    Rust {
        /// The file.
        path: PathBuf,
        /// The parse error.
        source: syn::Error,
    },
    /// The input is well-formed but says something unusable.
    #[error("{path}: {problem}")]
    Invalid {
        /// The file.
        path: PathBuf,
        /// What is wrong.
        problem: String,
    },
    /// No built-in table for this Kubernetes version.
    #[error("no built-in resource table for Kubernetes version `{version}` (known: {known})")]
    UnknownVersion {
        /// The version asked for.
        version: String,
        /// The versions with a table.
        known: String,
    },
}
