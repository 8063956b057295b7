//! Informers of example.com/v1.
mod widget;
pub use self::widget::*;
/// The informers of example.com/v1 in a factory (client-go's `example.com/v1` `Interface`).
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
    /// The shared informer of Widget objects (example.com/v1, kind Widget).
    #[inline]
    pub fn widgets(&self) -> WidgetInformer {
        WidgetInformer::new(self.factory.clone())
    }
}
/// The metadata-only informers of example.com/v1 in a `MetadataSharedInformerFactory`.
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
    /// The metadata-only informer of [`Widget`](crate::crds::example_com::v1::Widget) objects (example.com/v1, kind Widget): `PartialObjectMeta<Widget>`, made on the first call, the same on every later call (the factory's `typed::<Widget>()`).
    #[inline]
    pub fn widgets(
        &self,
    ) -> ::informer_runtime::metadata::MetadataInformer<
        crate::crds::example_com::v1::Widget,
    > {
        self.factory.typed::<crate::crds::example_com::v1::Widget>()
    }
}
