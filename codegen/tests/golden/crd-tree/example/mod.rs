//! Informers of example.com.
pub mod v1;
pub mod v1beta1;
/// The informers of example.com in a factory, by version.
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
    /// The informers of version v1beta1.
    #[inline]
    pub fn v1beta1(&self) -> v1beta1::Version {
        v1beta1::Version::new(self.factory.clone())
    }
}
/// The metadata-only informers of example.com in a `MetadataSharedInformerFactory`, by version.
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
    /// The metadata-only informers of version v1beta1.
    #[inline]
    pub fn v1beta1(&self) -> v1beta1::MetadataVersion {
        v1beta1::MetadataVersion::new(self.factory.clone())
    }
}
