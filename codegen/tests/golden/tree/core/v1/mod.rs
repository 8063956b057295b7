//! Informers of core/v1.
mod node;
pub use self::node::*;
mod pod;
pub use self::pod::*;
/// The informers of core/v1 in a factory (client-go's `core/v1` `Interface`).
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
    /// The shared informer of Node objects (core/v1, kind Node), registered in the factory on the first call (so `start()` and `wait_for_cache_sync()` include it), the same on every later call.
    #[inline]
    pub fn nodes(&self) -> NodeInformer {
        NodeInformer::new(self.factory.clone())
    }
    /// The shared informer of Pod objects (core/v1, kind Pod), registered in the factory on the first call (so `start()` and `wait_for_cache_sync()` include it), the same on every later call.
    #[inline]
    pub fn pods(&self) -> PodInformer {
        PodInformer::new(self.factory.clone())
    }
}
/// The typed clients of core/v1, one accessor per resource.
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
    /// The typed client of [`Node`](k8s_openapi::api::core::v1::Node) objects (core/v1, kind Node), cluster-scoped. With the status subresource (`get_status`, `update_status`, `patch_status`).
    #[inline]
    pub fn nodes(
        &self,
    ) -> ::informer_runtime::api::Api<
        ::k8s_openapi::api::core::v1::Node,
        ::informer_runtime::api::StatusSubresource,
    > {
        ::informer_runtime::api::Api::all(self.client.clone())
    }
    /// The typed client of [`Pod`](k8s_openapi::api::core::v1::Pod) objects (core/v1, kind Pod) in `namespace`. With the status subresource (`get_status`, `update_status`, `patch_status`).
    #[inline]
    pub fn pods(
        &self,
        namespace: &str,
    ) -> ::informer_runtime::api::Api<
        ::k8s_openapi::api::core::v1::Pod,
        ::informer_runtime::api::StatusSubresource,
    > {
        ::informer_runtime::api::Api::namespaced(self.client.clone(), namespace)
    }
    /// The typed client of [`Pod`](k8s_openapi::api::core::v1::Pod) objects (core/v1, kind Pod) in every namespace: list, watch and delete_collection span all namespaces, create and update take the object's namespace, by-name calls need [`Self::pods`]. With the status subresource (`get_status`, `update_status`, `patch_status`).
    #[inline]
    pub fn pods_all(
        &self,
    ) -> ::informer_runtime::api::Api<
        ::k8s_openapi::api::core::v1::Pod,
        ::informer_runtime::api::StatusSubresource,
    > {
        ::informer_runtime::api::Api::all(self.client.clone())
    }
}
/// The metadata-only informers of core/v1 in a `MetadataSharedInformerFactory`.
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
    /// The metadata-only informer of [`Node`](k8s_openapi::api::core::v1::Node) objects (core/v1, kind Node): `PartialObjectMeta<Node>`, made on the first call, the same on every later call (`metadata::typed::<Node>()` in the factory).
    #[inline]
    pub fn nodes(
        &self,
    ) -> ::informer_runtime::metadata::MetadataInformer<
        ::k8s_openapi::api::core::v1::Node,
    > {
        ::informer_runtime::dynamic::ResourceInformer::from_factory(
            ::informer_runtime::InformerFactory::factory_core(&self.factory),
            ::informer_runtime::metadata::typed::<::k8s_openapi::api::core::v1::Node>(),
        )
    }
    /// The metadata-only informer of [`Pod`](k8s_openapi::api::core::v1::Pod) objects (core/v1, kind Pod): `PartialObjectMeta<Pod>`, made on the first call, the same on every later call (`metadata::typed::<Pod>()` in the factory).
    #[inline]
    pub fn pods(
        &self,
    ) -> ::informer_runtime::metadata::MetadataInformer<
        ::k8s_openapi::api::core::v1::Pod,
    > {
        ::informer_runtime::dynamic::ResourceInformer::from_factory(
            ::informer_runtime::InformerFactory::factory_core(&self.factory),
            ::informer_runtime::metadata::typed::<::k8s_openapi::api::core::v1::Pod>(),
        )
    }
}
