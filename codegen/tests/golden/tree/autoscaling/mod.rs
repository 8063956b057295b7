//! Informers of autoscaling.
pub mod v1;
pub mod v2;
/// The informers of autoscaling in a factory, by version.
#[derive(Clone)]
pub struct Group {
    factory: ::informer_runtime::SharedInformerFactoryCore,
}
impl Group {
    /// The accessor over `factory`.
    #[inline]
    pub fn new(factory: ::informer_runtime::SharedInformerFactoryCore) -> Self {
        Self { factory }
    }
    /// The informers of version v1.
    #[inline]
    pub fn v1(&self) -> v1::Version {
        v1::Version::new(self.factory.clone())
    }
    /// The informers of version v2.
    #[inline]
    pub fn v2(&self) -> v2::Version {
        v2::Version::new(self.factory.clone())
    }
}
/// The typed clients of autoscaling, by version.
#[derive(Clone)]
pub struct ClientsetGroup {
    client: ::informer_runtime::Client,
}
impl ClientsetGroup {
    /// The accessor over `client`.
    #[inline]
    pub fn new(client: ::informer_runtime::Client) -> Self {
        Self { client }
    }
    /// The typed clients of version v1.
    #[inline]
    pub fn v1(&self) -> v1::ClientsetVersion {
        v1::ClientsetVersion::new(self.client.clone())
    }
    /// The typed clients of version v2.
    #[inline]
    pub fn v2(&self) -> v2::ClientsetVersion {
        v2::ClientsetVersion::new(self.client.clone())
    }
}
/// The metadata-only informers of autoscaling in a `MetadataSharedInformerFactory`, by version.
#[derive(Clone, Debug)]
pub struct MetadataGroup {
    factory: ::informer_runtime::MetadataSharedInformerFactory,
}
impl MetadataGroup {
    /// The accessor over `factory`.
    #[inline]
    pub fn new(factory: ::informer_runtime::MetadataSharedInformerFactory) -> Self {
        Self { factory }
    }
    /// The metadata-only informers of version v1.
    #[inline]
    pub fn v1(&self) -> v1::MetadataVersion {
        v1::MetadataVersion::new(self.factory.clone())
    }
    /// The metadata-only informers of version v2.
    #[inline]
    pub fn v2(&self) -> v2::MetadataVersion {
        v2::MetadataVersion::new(self.factory.clone())
    }
}
