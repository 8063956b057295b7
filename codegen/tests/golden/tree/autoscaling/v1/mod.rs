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
    /// The shared informer of HorizontalPodAutoscaler objects (autoscaling/v1, kind HorizontalPodAutoscaler).
    #[inline]
    pub fn horizontal_pod_autoscalers(&self) -> HorizontalPodAutoscalerInformer {
        HorizontalPodAutoscalerInformer::new(self.factory.clone())
    }
}
