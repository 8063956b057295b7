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
    /// The shared informer of Node objects (core/v1, kind Node).
    #[inline]
    pub fn nodes(&self) -> NodeInformer {
        NodeInformer::new(self.factory.clone())
    }
    /// The shared informer of Pod objects (core/v1, kind Pod).
    #[inline]
    pub fn pods(&self) -> PodInformer {
        PodInformer::new(self.factory.clone())
    }
}
