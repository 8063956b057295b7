//! Informers of rbac.authorization.k8s.io/v1.
mod cluster_role;
pub use self::cluster_role::*;
/// The informers of rbac.authorization.k8s.io/v1 in a factory (client-go's `rbac.authorization.k8s.io/v1` `Interface`).
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
    /// The shared informer of ClusterRole objects (rbac.authorization.k8s.io/v1, kind ClusterRole), registered in the factory on the first call (so `start()` and `wait_for_cache_sync()` include it), the same on every later call.
    #[inline]
    pub fn cluster_roles(&self) -> ClusterRoleInformer {
        ClusterRoleInformer::new(self.factory.clone())
    }
}
/// The typed clients of rbac.authorization.k8s.io/v1, one accessor per resource.
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
    /// The typed client of [`ClusterRole`](k8s_openapi::api::rbac::v1::ClusterRole) objects (rbac.authorization.k8s.io/v1, kind ClusterRole), cluster-scoped. No status or scale subresource.
    #[inline]
    pub fn cluster_roles(
        &self,
    ) -> ::informer_runtime::api::Api<
        ::k8s_openapi::api::rbac::v1::ClusterRole,
        ::informer_runtime::api::NoSubresources,
    > {
        ::informer_runtime::api::Api::all(self.client.clone())
    }
}
/// The metadata-only informers of rbac.authorization.k8s.io/v1 in a `MetadataSharedInformerFactory`.
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
    /// The metadata-only informer of [`ClusterRole`](k8s_openapi::api::rbac::v1::ClusterRole) objects (rbac.authorization.k8s.io/v1, kind ClusterRole): `PartialObjectMeta<ClusterRole>`, made on the first call, the same on every later call (`metadata::typed::<ClusterRole>()` in the factory).
    #[inline]
    pub fn cluster_roles(
        &self,
    ) -> ::informer_runtime::metadata::MetadataInformer<
        ::k8s_openapi::api::rbac::v1::ClusterRole,
    > {
        ::informer_runtime::dynamic::ResourceInformer::from_factory(
            ::informer_runtime::InformerFactory::factory_core(&self.factory),
            ::informer_runtime::metadata::typed::<
                ::k8s_openapi::api::rbac::v1::ClusterRole,
            >(),
        )
    }
}
