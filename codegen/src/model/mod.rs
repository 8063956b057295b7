//! The neutral model every reader produces and every emitter consumes:
//! [`ResourceDef`]s, validated and grouped into an [`Api`] tree with Rust names.

mod api;
mod naming;
pub mod schema;

pub use api::{
    AccessorProblem, Api, ApiGroup, ApiResource, ApiVersion, GroupAccessorError, ModelError,
};
pub use naming::{escape_ident, group_module_name, is_snake_case_ident, resource_method_name};

/// Whether a resource lives in a namespace or in the cluster.
#[derive(
    Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, serde::Serialize, serde::Deserialize,
)]
pub enum Scope {
    /// Namespaced (e.g. Pods).
    Namespaced,
    /// Cluster-scoped (e.g. Nodes).
    Cluster,
}

/// One listable, watchable resource, whatever source it was read from.
#[derive(
    Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, serde::Serialize, serde::Deserialize,
)]
pub struct ResourceDef {
    /// API group, `""` for the core group.
    pub group: String,
    /// API version, e.g. `v1`.
    pub version: String,
    /// Kind, e.g. `Pod`.
    pub kind: String,
    /// Plural resource name as in URLs, e.g. `pods`.
    pub plural: String,
    /// Namespaced or cluster-scoped.
    pub scope: Scope,
    /// Kind of the list, e.g. `PodList`.
    pub list_kind: String,
    /// Rust path of the resource type, e.g. `k8s_openapi::api::core::v1::Pod`
    /// (for CRDs, a path inside the generated module tree).
    pub rust_type_path: String,
    /// Description for doc comments, if the source has one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub doc: Option<String>,
}
