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
    /// The metadata-only informer of [`Node`](k8s_openapi::api::core::v1::Node) objects (core/v1, kind Node): `PartialObjectMeta<Node>`, made on the first call, the same on every later call (the factory's `typed::<Node>()`).
    #[inline]
    pub fn nodes(
        &self,
    ) -> ::informer_runtime::metadata::MetadataInformer<
        ::k8s_openapi::api::core::v1::Node,
    > {
        self.factory.typed::<::k8s_openapi::api::core::v1::Node>()
    }
    /// The metadata-only informer of [`Pod`](k8s_openapi::api::core::v1::Pod) objects (core/v1, kind Pod): `PartialObjectMeta<Pod>`, made on the first call, the same on every later call (the factory's `typed::<Pod>()`).
    #[inline]
    pub fn pods(
        &self,
    ) -> ::informer_runtime::metadata::MetadataInformer<
        ::k8s_openapi::api::core::v1::Pod,
    > {
        self.factory.typed::<::k8s_openapi::api::core::v1::Pod>()
    }
}
