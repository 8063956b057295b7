//! Server-side apply with typed apply configurations (client-go's `applyconfigurations`):
//! a configuration holds only the fields its manager sets, so applying it claims exactly
//! those; [`extract`] reads back the configuration a manager owns in a live object.
//!
//! informer-gen generates one configuration type per struct (`DeploymentApply`,
//! `PodSpecApply`, …) and, per resource, `extract_<kind>` and `extract_<kind>_status`
//! over [`extract`]; [`Api::apply`](crate::Api::apply) and
//! [`Api::apply_status`](crate::Api::apply_status) send them. This module holds what every
//! configuration shares: the [`ApplyConfiguration`] trait, [`ObjectMetaApply`],
//! [`ApplyParams`] and [`extract`].
//!
//! ```
//! use informer_client::apply::{ObjectMetaApply, OwnerReferenceApply};
//!
//! let metadata = ObjectMetaApply::new()
//!     .name("web")
//!     .namespace("shop")
//!     .labels([("app", "web")])
//!     .owner_references([OwnerReferenceApply::new()
//!         .api_version("example.com/v1")
//!         .kind("Foo")
//!         .name("web")
//!         .uid("7d1a")
//!         .controller(true)]);
//! assert_eq!(
//!     serde_json::to_value(&metadata)?,
//!     serde_json::json!({
//!         "name": "web",
//!         "namespace": "shop",
//!         "labels": {"app": "web"},
//!         "ownerReferences": [{"apiVersion": "example.com/v1", "kind": "Foo", "name": "web", "uid": "7d1a", "controller": true}],
//!     })
//! );
//! # Ok::<(), serde_json::Error>(())
//! ```

mod extract;
mod fields;
mod metadata;
mod params;

pub use extract::{extract, ExtractError};
pub use fields::Fields;
pub use metadata::{ObjectMetaApply, OwnerReferenceApply};
pub use params::ApplyParams;

use serde::de::DeserializeOwned;
use serde::Serialize;

/// An apply configuration: the fields of one resource a field manager sets, every one of
/// them optional so that an unset field is left out of the request (and so not claimed).
///
/// Generated for every resource; [`Api::apply`](crate::Api::apply) only takes the
/// configuration of its own resource.
pub trait ApplyConfiguration: Serialize + DeserializeOwned {
    /// The resource this configures.
    type Resource;
}
