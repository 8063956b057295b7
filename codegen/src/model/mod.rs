//! The neutral model every reader produces and every emitter consumes:
//! [`ResourceDef`]s, validated and grouped into an [`Api`] tree with Rust names, and the
//! typed schemas of custom resources ([`schema`]), named and deduplicated by [`crd`].
//!
//! Readers say what a resource is, not how the output spells it: a resource's Rust type is
//! a [`TypeRef`], which only the emitters turn into a path.

mod api;
pub mod crd;
mod naming;
pub mod schema;

use std::fmt;

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

/// The Rust type of a resource's objects.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum TypeRef {
    /// A type of the k8s-openapi crate, wherever the output reaches that crate from.
    K8sOpenapi {
        /// Module path below the crate root, e.g. `["api", "core", "v1"]`.
        module: Vec<String>,
        /// Type name, e.g. `Pod`.
        name: String,
    },
    /// The type generated for a custom resource (one served version of a CRD), named by the
    /// API group, version and kind the CRD declares; [`crd`] decides its Rust name and module.
    Generated {
        /// API group, e.g. `cert-manager.io`.
        group: String,
        /// API version, e.g. `v1`.
        version: String,
        /// Kind as the CRD spells it, e.g. `Certificate`.
        kind: String,
    },
}

impl TypeRef {
    /// The k8s-openapi type written as `k8s_openapi::api::core::v1::Pod` (how resource
    /// tables spell it); `None` for anything else.
    pub fn parse_k8s_openapi(path: &str) -> Option<Self> {
        let mut segments: Vec<String> = path.split("::").map(str::to_owned).collect();
        let name = segments.pop()?;
        if segments.first().map(String::as_str) != Some("k8s_openapi") {
            return None;
        }
        segments.remove(0);
        Some(Self::K8sOpenapi {
            module: segments,
            name,
        })
    }

    /// A k8s-openapi type's path below the crate root, dotted (`api.core.v1.Pod`): how the
    /// protobuf table names its struct. `None` for a generated type.
    pub fn k8s_openapi_dotted(&self) -> Option<String> {
        match self {
            Self::K8sOpenapi { module, name } => Some(format!("{}.{name}", module.join("."))),
            Self::Generated { .. } => None,
        }
    }
}

/// `k8s_openapi::api::core::v1::Pod`, or `generated type of cert-manager.io/v1 Certificate`.
impl fmt::Display for TypeRef {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::K8sOpenapi { module, name } => {
                f.write_str("k8s_openapi")?;
                for segment in module {
                    write!(f, "::{segment}")?;
                }
                write!(f, "::{name}")
            }
            Self::Generated {
                group,
                version,
                kind,
            } => write!(f, "generated type of {group}/{version} {kind}"),
        }
    }
}

/// One listable, watchable resource, whatever source it was read from.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
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
    /// The Rust type of its objects.
    pub ty: TypeRef,
    /// Description for doc comments, if the source has one.
    pub doc: Option<String>,
    /// The subresources the API serves for it, of those a typed client offers methods for.
    pub subresources: Subresources,
    /// Its informers list and watch kube-apiserver's protobuf (JSON as the fallback):
    /// built-in resources whose type informer-protobuf decodes in the table's Kubernetes
    /// version ([`crate::read::protobuf_table`]).
    pub protobuf: bool,
}

/// Which of the `status` and `scale` subresources a resource has: built-ins as their
/// OpenAPI spec has `.../{name}/status` and `.../{name}/scale` paths, custom resources as
/// their CRD version declares `subresources.status` and `subresources.scale`.
#[derive(
    Clone,
    Copy,
    Debug,
    Default,
    PartialEq,
    Eq,
    PartialOrd,
    Ord,
    Hash,
    serde::Serialize,
    serde::Deserialize,
)]
pub struct Subresources {
    /// `/status`: read and write the status apart from the rest of the object.
    pub status: bool,
    /// `/scale`: an `autoscaling/v1` `Scale` view of the replica count.
    pub scale: bool,
}

impl Subresources {
    /// Neither.
    pub const NONE: Self = Self {
        status: false,
        scale: false,
    };

    /// From subresource names (`status`, `scale`; others are ignored).
    pub fn from_names<S: AsRef<str>>(names: impl IntoIterator<Item = S>) -> Self {
        names.into_iter().fold(Self::NONE, |mut s, name| {
            match name.as_ref() {
                "status" => s.status = true,
                "scale" => s.scale = true,
                _ => {}
            }
            s
        })
    }

    /// The names of those present, `status` first.
    pub fn names(self) -> Vec<&'static str> {
        let mut names = Vec::new();
        if self.status {
            names.push("status");
        }
        if self.scale {
            names.push("scale");
        }
        names
    }

    /// Whether it has neither.
    pub fn is_empty(self) -> bool {
        self == Self::NONE
    }
}
