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
    /// The shared informer of FlowSchema objects (flowcontrol.apiserver.k8s.io/v1, kind FlowSchema), registered in the factory on the first call (so `start()` and `wait_for_cache_sync()` include it), the same on every later call.
    #[inline]
    pub fn flow_schemas(&self) -> FlowSchemaInformer {
        FlowSchemaInformer::new(self.factory.clone())
    }
}
/// The typed clients of flowcontrol.apiserver.k8s.io/v1, one accessor per resource.
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
    /// The typed client of [`FlowSchema`](k8s_openapi::api::flowcontrol::v1::FlowSchema) objects (flowcontrol.apiserver.k8s.io/v1, kind FlowSchema), cluster-scoped. With the status subresource (`get_status`, `update_status`, `patch_status`).
    #[inline]
    pub fn flow_schemas(
        &self,
    ) -> ::informer_runtime::api::Api<
        ::k8s_openapi::api::flowcontrol::v1::FlowSchema,
        ::informer_runtime::api::StatusSubresource,
    > {
        ::informer_runtime::api::Api::all(self.client.clone())
    }
}
/// The metadata-only informers of flowcontrol.apiserver.k8s.io/v1 in a `MetadataSharedInformerFactory`.
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
    /// The metadata-only informer of [`FlowSchema`](k8s_openapi::api::flowcontrol::v1::FlowSchema) objects (flowcontrol.apiserver.k8s.io/v1, kind FlowSchema): `PartialObjectMeta<FlowSchema>`, made on the first call, the same on every later call (`metadata::typed::<FlowSchema>()` in the factory).
    #[inline]
    pub fn flow_schemas(
        &self,
    ) -> ::informer_runtime::metadata::MetadataInformer<
        ::k8s_openapi::api::flowcontrol::v1::FlowSchema,
    > {
        ::informer_runtime::dynamic::ResourceInformer::from_factory(
            ::informer_runtime::InformerFactory::factory_core(&self.factory),
            ::informer_runtime::metadata::typed::<
                ::k8s_openapi::api::flowcontrol::v1::FlowSchema,
            >(),
        )
    }
}
