//! Informers of autoscaling/v2.
mod horizontal_pod_autoscaler;
pub use self::horizontal_pod_autoscaler::*;
/// The informers of autoscaling/v2 in a factory (client-go's `autoscaling/v2` `Interface`).
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
    /// The shared informer of HorizontalPodAutoscaler objects (autoscaling/v2, kind HorizontalPodAutoscaler).
    #[inline]
    pub fn horizontal_pod_autoscalers(&self) -> HorizontalPodAutoscalerInformer {
        HorizontalPodAutoscalerInformer::new(self.factory.clone())
    }
}
/// The metadata-only informers of autoscaling/v2 in a `MetadataSharedInformerFactory`.
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
    /// The metadata-only informer of [`HorizontalPodAutoscaler`](k8s_openapi::api::autoscaling::v2::HorizontalPodAutoscaler) objects (autoscaling/v2, kind HorizontalPodAutoscaler): `PartialObjectMeta<HorizontalPodAutoscaler>`, made on the first call, the same on every later call (the factory's `typed::<HorizontalPodAutoscaler>()`).
    #[inline]
    pub fn horizontal_pod_autoscalers(
        &self,
    ) -> ::informer_runtime::metadata::MetadataInformer<
        ::k8s_openapi::api::autoscaling::v2::HorizontalPodAutoscaler,
    > {
        self.factory
            .typed::<::k8s_openapi::api::autoscaling::v2::HorizontalPodAutoscaler>()
    }
}
