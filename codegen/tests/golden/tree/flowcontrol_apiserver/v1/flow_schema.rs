//! Informers of FlowSchema (flowcontrol.apiserver.k8s.io/v1, kind FlowSchema).
/// The shared informer of [`FlowSchema`](k8s_openapi::api::flowcontrol::v1::FlowSchema) objects (flowcontrol.apiserver.k8s.io/v1, kind FlowSchema) in a factory (client-go's `FlowSchemaInformer`).
#[derive(Clone)]
pub struct FlowSchemaInformer {
    ask: ::informer_runtime::InformerAsk<
        ::k8s_openapi::api::flowcontrol::v1::FlowSchema,
    >,
}
impl FlowSchemaInformer {
    /// The FlowSchema informer of `factory`, asked for there (as `flowcontrol.apiserver.k8s.io/v1/flowschemas`), so that the factory's `start()` and `wait_for_cache_sync()` include it; built on first use (or when the factory starts), the same informer on every later call (what the version accessor returns).
    #[inline]
    pub fn new(factory: ::informer_runtime::SharedInformerFactoryCore) -> Self {
        Self {
            ask: ::informer_runtime::InformerAsk::new(
                factory,
                ::informer_runtime::source::typed::<
                    ::k8s_openapi::api::flowcontrol::v1::FlowSchema,
                >(),
            ),
        }
    }
    /// The factory's shared informer of FlowSchema objects, registered as `flowcontrol.apiserver.k8s.io/v1/flowschemas`.
    #[inline]
    pub fn informer(
        &self,
    ) -> ::informer_runtime::SharedIndexInformer<
        ::k8s_openapi::api::flowcontrol::v1::FlowSchema,
    > {
        self.ask.informer()
    }
    /// A lister reading the shared FlowSchema informer's cache.
    #[inline]
    pub fn lister(&self) -> FlowSchemaLister {
        FlowSchemaLister::new(self.ask.informer().indexer())
    }
    /// The factory's shared informer of the projection `V` of FlowSchema objects: a struct of your own with only the fields you read (declared with `informer_runtime::projection!(View => FlowSchema)`), decoded straight from the list and watch bytes, cached and indexed instead of whole FlowSchema objects. One informer per view type, registered as `flowcontrol.apiserver.k8s.io/v1/flowschemas as <V>` on the first call and listing and watching as the FlowSchema informer does (the factory's namespace, `tweak_list_options`, resync and transforms apply). Asking for the projection does not build the full FlowSchema informer.
    #[inline]
    pub fn projected<
        V: ::informer_runtime::Projection<
                Of = ::k8s_openapi::api::flowcontrol::v1::FlowSchema,
            >,
    >(self) -> ::informer_runtime::ProjectedInformer<V> {
        self.ask.projected()
    }
}
/// A new, unshared informer of [`FlowSchema`](k8s_openapi::api::flowcontrol::v1::FlowSchema) objects (flowcontrol.apiserver.k8s.io/v1, kind FlowSchema) (cluster-scoped) (client-go's `NewFlowSchemaInformer`).
///
/// Prefer the factory's shared informer; this one is for callers that need their own.
#[inline]
pub fn new_flow_schema_informer(
    client: ::informer_runtime::Client,
    resync: ::std::time::Duration,
    indexers: ::informer_runtime::Indexers<
        ::k8s_openapi::api::flowcontrol::v1::FlowSchema,
    >,
) -> ::informer_runtime::SharedIndexInformer<
    ::k8s_openapi::api::flowcontrol::v1::FlowSchema,
> {
    new_filtered_flow_schema_informer(
        client,
        resync,
        indexers,
        ::std::option::Option::None,
    )
}
/// A new, unshared informer of [`FlowSchema`](k8s_openapi::api::flowcontrol::v1::FlowSchema) objects (flowcontrol.apiserver.k8s.io/v1, kind FlowSchema) (cluster-scoped), whose list and watch requests are first edited by `tweak_list_options` (client-go's `NewFilteredFlowSchemaInformer`). It lists and watches through the clientset's typed client of FlowSchema objects, as client-go's does.
#[inline]
pub fn new_filtered_flow_schema_informer(
    client: ::informer_runtime::Client,
    resync: ::std::time::Duration,
    indexers: ::informer_runtime::Indexers<
        ::k8s_openapi::api::flowcontrol::v1::FlowSchema,
    >,
    tweak_list_options: ::std::option::Option<::informer_runtime::TweakListOptions>,
) -> ::informer_runtime::SharedIndexInformer<
    ::k8s_openapi::api::flowcontrol::v1::FlowSchema,
> {
    let mut options = ::informer_runtime::InformerOptions::default()
        .resync(resync)
        .indexers(indexers);
    options.tweak_list_options = tweak_list_options;
    ::informer_runtime::new_informer(
        &client,
        &::informer_runtime::source::typed::<
            ::k8s_openapi::api::flowcontrol::v1::FlowSchema,
        >(),
        ::std::option::Option::None,
        options,
    )
}
/// Reads [`FlowSchema`](k8s_openapi::api::flowcontrol::v1::FlowSchema) objects (flowcontrol.apiserver.k8s.io/v1, kind FlowSchema) from an informer's cache (client-go's `FlowSchemaLister`).
#[derive(Clone)]
pub struct FlowSchemaLister {
    lister: ::informer_runtime::Lister<::k8s_openapi::api::flowcontrol::v1::FlowSchema>,
}
impl FlowSchemaLister {
    /// A lister of FlowSchema objects over `indexer` (usually an informer's).
    #[inline]
    pub fn new(
        indexer: ::informer_runtime::Indexer<
            ::k8s_openapi::api::flowcontrol::v1::FlowSchema,
        >,
    ) -> Self {
        Self {
            lister: ::informer_runtime::Lister::new(indexer),
        }
    }
    /// Every FlowSchema (flowcontrol.apiserver.k8s.io/v1, kind FlowSchema) in the cache matching `selector`.
    #[inline]
    pub fn list(
        &self,
        selector: &::informer_runtime::Selector,
    ) -> ::std::vec::Vec<
        ::std::sync::Arc<::k8s_openapi::api::flowcontrol::v1::FlowSchema>,
    > {
        self.lister.list(selector)
    }
}
impl FlowSchemaLister {
    /// The FlowSchema named `name`, if cached.
    #[inline]
    pub fn get(
        &self,
        name: &str,
    ) -> ::std::option::Option<
        ::std::sync::Arc<::k8s_openapi::api::flowcontrol::v1::FlowSchema>,
    > {
        self.lister.get(name)
    }
}
