//! Informers of example.com/v1beta1.
mod widget;
pub use self::widget::*;
/// The informers of example.com/v1beta1 in a factory (client-go's `example.com/v1beta1` `Interface`).
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
    /// The shared informer of Widget objects (example.com/v1beta1, kind Widget), registered in the factory on the first call (so `start()` and `wait_for_cache_sync()` include it), the same on every later call.
    #[inline]
    pub fn widgets(&self) -> WidgetInformer {
        WidgetInformer::new(self.factory.clone())
    }
}
/// The typed clients of example.com/v1beta1, one accessor per resource.
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
    /// The typed client of [`Widget`](crate::crds::example_com::v1beta1::Widget) objects (example.com/v1beta1, kind Widget) in `namespace`. No status or scale subresource.
    #[inline]
    pub fn widgets(
        &self,
        namespace: &str,
    ) -> ::informer_runtime::api::Api<
        crate::crds::example_com::v1beta1::Widget,
        ::informer_runtime::api::NoSubresources,
    > {
        ::informer_runtime::api::Api::namespaced(self.client.clone(), namespace)
    }
    /// The typed client of [`Widget`](crate::crds::example_com::v1beta1::Widget) objects (example.com/v1beta1, kind Widget) in every namespace: list, watch and delete_collection span all namespaces, create and update take the object's namespace, by-name calls need [`Self::widgets`]. No status or scale subresource.
    #[inline]
    pub fn widgets_all(
        &self,
    ) -> ::informer_runtime::api::Api<
        crate::crds::example_com::v1beta1::Widget,
        ::informer_runtime::api::NoSubresources,
    > {
        ::informer_runtime::api::Api::all(self.client.clone())
    }
}
/// The metadata-only informers of example.com/v1beta1 in a `MetadataSharedInformerFactory`.
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
    /// The metadata-only informer of [`Widget`](crate::crds::example_com::v1beta1::Widget) objects (example.com/v1beta1, kind Widget): `PartialObjectMeta<Widget>`, made on the first call, the same on every later call (the factory's `typed::<Widget>()`).
    #[inline]
    pub fn widgets(
        &self,
    ) -> ::informer_runtime::metadata::MetadataInformer<
        crate::crds::example_com::v1beta1::Widget,
    > {
        self.factory.typed::<crate::crds::example_com::v1beta1::Widget>()
    }
}
