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
