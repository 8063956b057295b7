//! Informers of example.com.
pub mod v1;
pub mod v1beta1;
/// The informers of example.com in a factory, by version.
#[derive(Clone)]
pub struct Group {
    factory: ::kube_informers::SharedInformerFactoryCore,
}
impl Group {
    /// The accessor over `factory`.
    #[inline]
    pub fn new(factory: ::kube_informers::SharedInformerFactoryCore) -> Self {
        Self { factory }
    }
    /// The informers of version v1.
    #[inline]
    pub fn v1(&self) -> v1::Version {
        v1::Version::new(self.factory.clone())
    }
    /// The informers of version v1beta1.
    #[inline]
    pub fn v1beta1(&self) -> v1beta1::Version {
        v1beta1::Version::new(self.factory.clone())
    }
}
/// The typed clients of example.com, by version.
#[derive(Clone)]
pub struct ClientsetGroup {
    client: ::kube_informers::Client,
}
impl ClientsetGroup {
    /// The accessor over `client`.
    #[inline]
    pub fn new(client: ::kube_informers::Client) -> Self {
        Self { client }
    }
    /// The typed clients of version v1.
    #[inline]
    pub fn v1(&self) -> v1::ClientsetVersion {
        v1::ClientsetVersion::new(self.client.clone())
    }
    /// The typed clients of version v1beta1.
    #[inline]
    pub fn v1beta1(&self) -> v1beta1::ClientsetVersion {
        v1beta1::ClientsetVersion::new(self.client.clone())
    }
}
/// The metadata-only informers of example.com in a `MetadataSharedInformerFactory`, by version.
#[derive(Clone, Debug)]
pub struct MetadataGroup {
    factory: ::kube_informers::MetadataSharedInformerFactory,
}
impl MetadataGroup {
    /// The accessor over `factory`.
    #[inline]
    pub fn new(factory: ::kube_informers::MetadataSharedInformerFactory) -> Self {
        Self { factory }
    }
    /// The metadata-only informers of version v1.
    #[inline]
    pub fn v1(&self) -> v1::MetadataVersion {
        v1::MetadataVersion::new(self.factory.clone())
    }
    /// The metadata-only informers of version v1beta1.
    #[inline]
    pub fn v1beta1(&self) -> v1beta1::MetadataVersion {
        v1beta1::MetadataVersion::new(self.factory.clone())
    }
}
