//! Informers of apps.
pub mod v1;
/// The informers of apps in a factory, by version.
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
}
