//! Metadata-only informers: informers that cache only the `ObjectMeta` of each object
//! (client-go's `metadatainformer`), a fraction of the memory of full objects.
//!
//! Lists and watches ask for `PartialObjectMetadata` through content negotiation; a
//! server that ignores it sends full objects, which are reduced to metadata while decoded.

use std::sync::atomic::{AtomicBool, Ordering};

pub use informer_client::metadata::{
    PartialObjectMeta, PartialObjectMetadata, Untyped, LIST_ACCEPT, PARTIAL_OBJECT_METADATA,
    WATCH_ACCEPT,
};

use crate::discovery::ApiResource;
use crate::dynamic::{ResourceInformer, ResourceInformerFactory, ResourceObject};
use crate::source::Collection;

/// An informer of the metadata of one resource's objects.
pub type MetadataInformer<K = Untyped> = ResourceInformer<PartialObjectMeta<K>>;

/// One metadata-only informer per resource, started, synced and shut down together
/// (client-go's `metadatainformer.SharedInformerFactory`). Cheap to clone. Besides
/// [`for_resource`](ResourceInformerFactory::for_resource), which caches
/// `PartialObjectMeta<Untyped>`, the metadata of a k8s-openapi or generated type `K` is
/// cached as `PartialObjectMeta<K>` through [`typed`]:
///
/// ```no_run
/// # async fn run(client: informer_runtime::Client) -> Result<(), Box<dyn std::error::Error>> {
/// use std::time::Duration;
/// use informer_runtime::dynamic::ResourceInformer;
/// use informer_runtime::{metadata, InformerFactory, MetadataSharedInformerFactory};
/// use k8s_openapi::api::core::v1::Pod;
///
/// let factory = MetadataSharedInformerFactory::new(client, Duration::ZERO);
/// let pods = ResourceInformer::from_factory(factory.factory_core(), metadata::typed::<Pod>());
/// factory.start();
/// factory.wait_for_cache_sync().await?;
/// # let _ = pods;
/// # Ok(())
/// # }
/// ```
pub type MetadataSharedInformerFactory = ResourceInformerFactory<PartialObjectMeta<Untyped>>;

impl<K: Send + Sync + 'static> ResourceObject for PartialObjectMeta<K> {
    /// Every object gets the resource's `apiVersion` and `kind`, whether or not the server
    /// reduced it.
    fn collection(resource: &ApiResource) -> Collection<Self> {
        let (api_version, kind) = (resource.api_version(), resource.kind.clone());
        let name = resource.informer_name();
        let fallback_logged = AtomicBool::new(false);
        Collection::new(resource.clone())
            .accept(Some(LIST_ACCEPT), Some(WATCH_ACCEPT))
            .fix_up(move |o: &mut PartialObjectMeta<K>| {
                if o.kind != PARTIAL_OBJECT_METADATA
                    && !fallback_logged.swap(true, Ordering::Relaxed)
                {
                    tracing::debug!(
                        informer = %name,
                        "the server ignored the PartialObjectMetadata request; reducing full objects to metadata"
                    );
                }
                api_version.clone_into(&mut o.api_version);
                kind.clone_into(&mut o.kind);
            })
    }
}

/// The source of the metadata of the k8s-openapi or generated resource type `K`'s objects,
/// as `PartialObjectMeta<K>`: kind and scope come from `K` (no discovery), the resync
/// period is the one a factory's builder set for `K`, one informer per `K` in a factory
/// (separate from the untyped one of the same resource, whose object type differs).
pub fn typed<K>() -> Collection<PartialObjectMeta<K>>
where
    K: k8s_openapi::Resource + Send + Sync + 'static,
    K::Scope: 'static,
{
    PartialObjectMeta::<K>::collection(&ApiResource::of::<K>())
        .keyed_by_type()
        .resync_as::<K>()
}
