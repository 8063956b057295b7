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
    /// The shared informer of Deployment objects (apps/v1, kind Deployment).
    #[inline]
    pub fn deployments(&self) -> DeploymentInformer {
        DeploymentInformer::new(self.factory.clone())
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
    /// The metadata-only informer of [`Deployment`](k8s_openapi::api::apps::v1::Deployment) objects (apps/v1, kind Deployment): `PartialObjectMeta<Deployment>`, made on the first call, the same on every later call (the factory's `typed::<Deployment>()`).
    #[inline]
    pub fn deployments(
        &self,
    ) -> ::informer_runtime::metadata::MetadataInformer<
        ::k8s_openapi::api::apps::v1::Deployment,
    > {
        self.factory.typed::<::k8s_openapi::api::apps::v1::Deployment>()
    }
}
