//! Informers of autoscaling/v1.
mod horizontal_pod_autoscaler;
pub use self::horizontal_pod_autoscaler::*;
/// The informers of autoscaling/v1 in a factory (client-go's `autoscaling/v1` `Interface`).
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
    /// The shared informer of HorizontalPodAutoscaler objects (autoscaling/v1, kind HorizontalPodAutoscaler), registered in the factory on the first call (so `start()` and `wait_for_cache_sync()` include it), the same on every later call.
    #[inline]
    pub fn horizontal_pod_autoscalers(&self) -> HorizontalPodAutoscalerInformer {
        HorizontalPodAutoscalerInformer::new(self.factory.clone())
    }
}
/// The typed clients of autoscaling/v1, one accessor per resource.
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
    /// The typed client of [`HorizontalPodAutoscaler`](k8s_openapi::api::autoscaling::v1::HorizontalPodAutoscaler) objects (autoscaling/v1, kind HorizontalPodAutoscaler) in `namespace`. With the status subresource (`get_status`, `update_status`, `patch_status`).
    #[inline]
    pub fn horizontal_pod_autoscalers(
        &self,
        namespace: &str,
    ) -> ::informer_runtime::api::Api<
        ::k8s_openapi::api::autoscaling::v1::HorizontalPodAutoscaler,
        ::informer_runtime::api::StatusSubresource,
    > {
        ::informer_runtime::api::Api::namespaced(self.client.clone(), namespace)
    }
    /// The typed client of [`HorizontalPodAutoscaler`](k8s_openapi::api::autoscaling::v1::HorizontalPodAutoscaler) objects (autoscaling/v1, kind HorizontalPodAutoscaler) in every namespace: list, watch and delete_collection span all namespaces, create and update take the object's namespace, by-name calls need [`Self::horizontal_pod_autoscalers`]. With the status subresource (`get_status`, `update_status`, `patch_status`).
    #[inline]
    pub fn horizontal_pod_autoscalers_all(
        &self,
    ) -> ::informer_runtime::api::Api<
        ::k8s_openapi::api::autoscaling::v1::HorizontalPodAutoscaler,
        ::informer_runtime::api::StatusSubresource,
    > {
        ::informer_runtime::api::Api::all(self.client.clone())
    }
}
/// The metadata-only informers of autoscaling/v1 in a `MetadataSharedInformerFactory`.
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
    /// The metadata-only informer of [`HorizontalPodAutoscaler`](k8s_openapi::api::autoscaling::v1::HorizontalPodAutoscaler) objects (autoscaling/v1, kind HorizontalPodAutoscaler): `PartialObjectMeta<HorizontalPodAutoscaler>`, made on the first call, the same on every later call (`metadata::typed::<HorizontalPodAutoscaler>()` in the factory).
    #[inline]
    pub fn horizontal_pod_autoscalers(
        &self,
    ) -> ::informer_runtime::metadata::MetadataInformer<
        ::k8s_openapi::api::autoscaling::v1::HorizontalPodAutoscaler,
    > {
        ::informer_runtime::dynamic::ResourceInformer::from_factory(
            ::informer_runtime::InformerFactory::factory_core(&self.factory),
            ::informer_runtime::metadata::typed::<
                ::k8s_openapi::api::autoscaling::v1::HorizontalPodAutoscaler,
            >(),
        )
    }
}
