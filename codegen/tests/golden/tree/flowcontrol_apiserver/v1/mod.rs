//! Informers of flowcontrol.apiserver.k8s.io/v1.
mod flow_schema;
pub use self::flow_schema::*;
/// The informers of flowcontrol.apiserver.k8s.io/v1 in a factory (client-go's `flowcontrol.apiserver.k8s.io/v1` `Interface`).
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
    /// The shared informer of FlowSchema objects (flowcontrol.apiserver.k8s.io/v1, kind FlowSchema).
    #[inline]
    pub fn flow_schemas(&self) -> FlowSchemaInformer {
        FlowSchemaInformer::new(self.factory.clone())
    }
}
