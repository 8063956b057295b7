//! The `Widget` custom resource (`widgets.example.com/v1`, namespaced), defined the kube-rs
//! way, and made cacheable by our informers with one line.

use kube::CustomResource;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// The desired state of a `Widget`.
#[derive(CustomResource, Clone, Debug, PartialEq, Deserialize, Serialize, JsonSchema)]
#[kube(
    group = "example.com",
    version = "v1",
    kind = "Widget",
    namespaced,
    status = "WidgetStatus"
)]
pub struct WidgetSpec {
    /// How big it is.
    pub size: u32,
    /// Its color, also its `color` label.
    pub color: String,
    /// The port it serves, by name.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub port: Option<String>,
}

/// The observed state of a `Widget`.
#[derive(Clone, Debug, Default, PartialEq, Deserialize, Serialize, JsonSchema)]
pub struct WidgetStatus {
    /// Whether it is ready.
    #[serde(default)]
    pub ready: bool,
}

// The one line per type: `Widget` can now be cached by shared informers and read through listers.
kube_informers::kube_resource!(Widget);
