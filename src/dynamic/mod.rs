//! Dynamic informers: informers for any resource known only at run time, caching
//! [`DynamicObject`]s (client-go's `dynamicinformer`). The resource's scope comes from
//! API discovery.

mod factory;
mod resource_informer;

pub use factory::{ResourceInformerFactory, ResourceObject, ResourceRef};
pub use informer_client::dynamic::DynamicObject;
pub use resource_informer::ResourceInformer;

use crate::discovery::ApiResource;
use crate::source::Collection;

/// An informer of [`DynamicObject`]s of one resource.
pub type DynamicInformer = ResourceInformer<DynamicObject>;

/// One informer of [`DynamicObject`]s per resource, started, synced and shut down together
/// (client-go's `DynamicSharedInformerFactory`). Cheap to clone.
///
/// ```no_run
/// # async fn run(client: informer_runtime::Client) -> Result<(), Box<dyn std::error::Error>> {
/// use std::time::Duration;
/// use informer_runtime::{DynamicSharedInformerFactory, GroupVersionResource, InformerFactory};
///
/// let factory = DynamicSharedInformerFactory::new(client, Duration::ZERO);
/// let widgets = factory
///     .for_resource(&GroupVersionResource::new("example.com", "v1", "widgets"))
///     .await?;
/// factory.start();
/// factory.wait_for_cache_sync().await?;
/// # let _ = widgets;
/// # Ok(())
/// # }
/// ```
pub type DynamicSharedInformerFactory = ResourceInformerFactory<DynamicObject>;

impl ResourceObject for DynamicObject {
    /// Every object gets the resource's `apiVersion` and `kind` (list items arrive without
    /// them).
    fn collection(resource: &ApiResource) -> Collection<Self> {
        let (api_version, kind) = (resource.api_version(), resource.kind.clone());
        Collection::new(resource.clone())
            .fix_up(move |o: &mut DynamicObject| o.fill_type_meta(&api_version, &kind))
    }
}
