//! Informers of apps/v1.
mod deployment;
pub use self::deployment::*;
/// The informers of apps/v1 in a factory (client-go's `apps/v1` `Interface`).
#[derive(Clone)]
pub struct Version {
    factory: ::informer_runtime::SharedInformerFactoryCore,
}
impl Version {
    /// The accessor over `factory`.
    #[inline]
    pub fn new(factory: ::informer_runtime::SharedInformerFactoryCore) -> Self {
        Self { factory }
    }
    /// The shared informer of Deployment objects (apps/v1, kind Deployment), registered in the factory on the first call (so `start()` and `wait_for_cache_sync()` include it), the same on every later call.
    #[inline]
    pub fn deployments(&self) -> DeploymentInformer {
        DeploymentInformer::new(self.factory.clone())
    }
}
/// The typed clients of apps/v1, one accessor per resource.
#[derive(Clone)]
pub struct ClientsetVersion {
    client: ::informer_runtime::Client,
}
impl ClientsetVersion {
    /// The accessor over `client`.
    #[inline]
    pub fn new(client: ::informer_runtime::Client) -> Self {
        Self { client }
    }
    /// The typed client of [`Deployment`](k8s_openapi::api::apps::v1::Deployment) objects (apps/v1, kind Deployment) in `namespace`. With the status and scale subresources (`get_status`, `update_status`, `patch_status`, `get_scale`, `update_scale`, `patch_scale`).
    #[inline]
    pub fn deployments(
        &self,
        namespace: &str,
    ) -> ::informer_runtime::api::Api<
        ::k8s_openapi::api::apps::v1::Deployment,
        ::informer_runtime::api::StatusAndScale,
    > {
        ::informer_runtime::api::Api::namespaced(self.client.clone(), namespace)
    }
    /// The typed client of [`Deployment`](k8s_openapi::api::apps::v1::Deployment) objects (apps/v1, kind Deployment) in every namespace: list, watch and delete_collection span all namespaces, create and update take the object's namespace, by-name calls need [`Self::deployments`]. With the status and scale subresources (`get_status`, `update_status`, `patch_status`, `get_scale`, `update_scale`, `patch_scale`).
    #[inline]
    pub fn deployments_all(
        &self,
    ) -> ::informer_runtime::api::Api<
        ::k8s_openapi::api::apps::v1::Deployment,
        ::informer_runtime::api::StatusAndScale,
    > {
        ::informer_runtime::api::Api::all(self.client.clone())
    }
}
/// The metadata-only informers of apps/v1 in a `MetadataSharedInformerFactory`.
#[derive(Clone, Debug)]
pub struct MetadataVersion {
    factory: ::informer_runtime::MetadataSharedInformerFactory,
}
impl MetadataVersion {
    /// The accessor over `factory`.
    #[inline]
    pub fn new(factory: ::informer_runtime::MetadataSharedInformerFactory) -> Self {
        Self { factory }
    }
    /// The metadata-only informer of [`Deployment`](k8s_openapi::api::apps::v1::Deployment) objects (apps/v1, kind Deployment): `PartialObjectMeta<Deployment>`, made on the first call, the same on every later call (`metadata::typed::<Deployment>()` in the factory).
    #[inline]
    pub fn deployments(
        &self,
    ) -> ::informer_runtime::metadata::MetadataInformer<
        ::k8s_openapi::api::apps::v1::Deployment,
    > {
        ::informer_runtime::dynamic::ResourceInformer::from_factory(
            ::informer_runtime::InformerFactory::factory_core(&self.factory),
            ::informer_runtime::metadata::typed::<
                ::k8s_openapi::api::apps::v1::Deployment,
            >(),
        )
    }
}
