//! Metadata-only informers: informers that cache only the `ObjectMeta` of each object
//! (client-go's `metadatainformer`), a fraction of the memory of full objects.
//!
//! Lists and watches ask for `PartialObjectMetadata` through content negotiation; a
//! server that ignores it sends full objects, which are reduced to metadata while decoded.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Duration;

pub use informer_client::metadata::{
    PartialObjectMeta, PartialObjectMetadata, Untyped, PARTIAL_OBJECT_METADATA,
};

use crate::client::Client;
use crate::discovery::{ApiResource, Discovery};
use crate::dynamic::{require_list_watch, PathListWatch, ResourceInformer};
use crate::error::Error;
use crate::factory::{FactoryBuilder, FactoryOptions, InformerFactory, SharedInformerFactoryCore};
use crate::informer::SharedIndexInformer;
use crate::list_options::TweakListOptions;
use crate::lister_watcher::ListWatch;
use crate::object::GroupVersionResource;
use crate::store::Indexers;

/// `Accept` of metadata-only lists: a `PartialObjectMetadataList`, else plain JSON.
pub const LIST_ACCEPT: &str =
    "application/json;as=PartialObjectMetadataList;g=meta.k8s.io;v=v1,application/json";

/// `Accept` of metadata-only watches: `PartialObjectMetadata` event objects, else plain JSON.
pub const WATCH_ACCEPT: &str =
    "application/json;as=PartialObjectMetadata;g=meta.k8s.io;v=v1,application/json";

/// An informer of the metadata of one resource's objects.
pub type MetadataInformer<K = Untyped> = ResourceInformer<PartialObjectMeta<K>>;

/// A `ListWatch` of the metadata of `resource`'s objects, in `namespace` (all when `None`;
/// ignored when cluster-scoped), with `tweak` applied to every request. Every object gets
/// the resource's `apiVersion` and `kind`, whether or not the server reduced it.
pub fn metadata_list_watch<K: 'static>(
    client: &Client,
    resource: &ApiResource,
    namespace: Option<&str>,
    tweak: Option<TweakListOptions>,
) -> ListWatch<PartialObjectMeta<K>> {
    let (api_version, kind) = (resource.api_version(), resource.kind.clone());
    let name = resource.informer_name();
    let fallback_logged = AtomicBool::new(false);
    PathListWatch {
        path: resource.collection_path(namespace),
        list_accept: Some(LIST_ACCEPT),
        watch_accept: Some(WATCH_ACCEPT),
        tweak,
        fix_up: Arc::new(move |o: &mut PartialObjectMeta<K>| {
            if o.kind != PARTIAL_OBJECT_METADATA && !fallback_logged.swap(true, Ordering::Relaxed)
            {
                tracing::debug!(
                    informer = %name,
                    "the server ignored the PartialObjectMetadata request; reducing full objects to metadata"
                );
            }
            api_version.clone_into(&mut o.api_version);
            kind.clone_into(&mut o.kind);
        }),
    }
    .build(client)
}

/// One metadata-only informer per resource, started, synced and shut down together
/// (client-go's `metadatainformer.SharedInformerFactory`). Cheap to clone.
#[derive(Clone, Debug)]
pub struct MetadataSharedInformerFactory {
    core: SharedInformerFactoryCore,
    discovery: Discovery,
}

impl From<SharedInformerFactoryCore> for MetadataSharedInformerFactory {
    fn from(core: SharedInformerFactoryCore) -> Self {
        let discovery = Discovery::new(core.client().clone());
        Self { core, discovery }
    }
}

impl InformerFactory for MetadataSharedInformerFactory {
    fn factory_core(&self) -> &SharedInformerFactoryCore {
        &self.core
    }
}

impl MetadataSharedInformerFactory {
    /// A factory for every namespace, resyncing every `default_resync` (zero: never).
    pub fn new(client: Client, default_resync: Duration) -> Self {
        Self::from(SharedInformerFactoryCore::new(
            client,
            FactoryOptions {
                default_resync,
                ..FactoryOptions::default()
            },
        ))
    }

    /// A builder for namespace, tweak, resync and transform options.
    pub fn builder(client: Client) -> FactoryBuilder<Self> {
        FactoryBuilder::new(client)
    }

    /// The discovery client resources are resolved with.
    pub fn discovery(&self) -> &Discovery {
        &self.discovery
    }

    /// The metadata informer of `gvr`, the same one on every call; kind and scope come
    /// from discovery. A resource the server does not serve, or cannot list and watch, is
    /// an error naming it and the server.
    pub async fn for_resource(
        &self,
        gvr: &GroupVersionResource,
    ) -> Result<MetadataInformer<Untyped>, Error> {
        let resource = self.discovery.resolve(gvr).await?;
        require_list_watch(&resource, self.core.client())?;
        Ok(self.for_api_resource(&resource))
    }

    /// The metadata informer of a resource described by hand (no discovery round trip).
    pub fn for_api_resource(&self, resource: &ApiResource) -> MetadataInformer<Untyped> {
        let resync = self.core.options().default_resync;
        let informer = self.core.informer_for_key(
            &resource.gvr().to_string(),
            &resource.informer_name(),
            |core| new_informer(core, resource, resync),
        );
        ResourceInformer::new(resource.clone(), informer)
    }

    /// The metadata informer of the k8s-openapi or generated resource type `K`, e.g.
    /// `factory.typed::<Pod>()`, yielding `PartialObjectMeta<Pod>`; the same one on every
    /// call. Kind and scope come from `K` (no discovery); the resync period is the one the
    /// builder set for `K`, else the default. Its object type differs from the untyped one
    /// [`for_resource`](Self::for_resource) caches, so the two are separate informers.
    pub fn typed<K>(&self) -> MetadataInformer<K>
    where
        K: k8s_openapi::Resource + 'static,
        K::Scope: 'static,
    {
        let resource = ApiResource::of::<K>();
        let resync = self.core.resync_for::<K>();
        let informer = self.core.informer_for(&resource.informer_name(), |core| {
            new_informer(core, &resource, resync)
        });
        ResourceInformer::new(resource, informer)
    }
}

fn new_informer<K: 'static>(
    core: &SharedInformerFactoryCore,
    resource: &ApiResource,
    resync: Duration,
) -> SharedIndexInformer<PartialObjectMeta<K>> {
    let lw = metadata_list_watch(
        &core.informer_client(),
        resource,
        core.namespace(),
        core.tweak_list_options(),
    );
    SharedIndexInformer::new(lw, resync, Indexers::standard())
}
