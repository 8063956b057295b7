//! Informers of example.com/v1beta1.
mod widget;
pub use self::widget::*;
/// The informers of example.com/v1beta1 in a factory (client-go's `example.com/v1beta1` `Interface`).
#[derive(Clone)]
pub struct Version {
    factory: ::kube_informers::SharedInformerFactoryCore,
}
impl Version {
    /// The accessor over `factory`.
    #[inline]
    pub fn new(factory: ::kube_informers::SharedInformerFactoryCore) -> Self {
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
    client: ::kube_informers::Client,
}
impl ClientsetVersion {
    /// The accessor over `client`.
    #[inline]
    pub fn new(client: ::kube_informers::Client) -> Self {
        Self { client }
    }
    /// The typed client of [`Widget`](crate::crds::example_com::v1beta1::Widget) objects (example.com/v1beta1, kind Widget) in `namespace`. No status or scale subresource.
    #[inline]
    pub fn widgets(
        &self,
        namespace: &str,
    ) -> ::kube_informers::api::Api<
        crate::crds::example_com::v1beta1::Widget,
        ::kube_informers::api::NoSubresources,
    > {
        ::kube_informers::api::Api::namespaced(self.client.clone(), namespace)
    }
    /// The typed client of [`Widget`](crate::crds::example_com::v1beta1::Widget) objects (example.com/v1beta1, kind Widget) in every namespace: list, watch and delete_collection span all namespaces, create and update take the object's namespace, by-name calls need [`Self::widgets`]. No status or scale subresource.
    #[inline]
    pub fn widgets_all(
        &self,
    ) -> ::kube_informers::api::Api<
        crate::crds::example_com::v1beta1::Widget,
        ::kube_informers::api::NoSubresources,
    > {
        ::kube_informers::api::Api::all(self.client.clone())
    }
}
/// The metadata-only informers of example.com/v1beta1 in a `MetadataSharedInformerFactory`.
#[derive(Clone, Debug)]
pub struct MetadataVersion {
    factory: ::kube_informers::MetadataSharedInformerFactory,
}
impl MetadataVersion {
    /// The accessor over `factory`.
    #[inline]
    pub fn new(factory: ::kube_informers::MetadataSharedInformerFactory) -> Self {
        Self { factory }
    }
    /// The metadata-only informer of [`Widget`](crate::crds::example_com::v1beta1::Widget) objects (example.com/v1beta1, kind Widget): `PartialObjectMeta<Widget>`, made on the first call, the same on every later call (`metadata::typed::<Widget>()` in the factory).
    #[inline]
    pub fn widgets(
        &self,
    ) -> ::kube_informers::metadata::MetadataInformer<
        crate::crds::example_com::v1beta1::Widget,
    > {
        ::kube_informers::dynamic::ResourceInformer::from_factory(
            ::kube_informers::InformerFactory::factory_core(&self.factory),
            ::kube_informers::metadata::typed::<
                crate::crds::example_com::v1beta1::Widget,
            >(),
        )
    }
}
