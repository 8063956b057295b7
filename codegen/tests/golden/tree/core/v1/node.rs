//! Informers of Node (core/v1, kind Node).
/// The shared informer of [`Node`](k8s_openapi::api::core::v1::Node) objects (core/v1, kind Node) in a factory (client-go's `NodeInformer`).
#[derive(Clone)]
pub struct NodeInformer {
    ask: ::informer_runtime::InformerAsk<::k8s_openapi::api::core::v1::Node>,
}
impl NodeInformer {
    /// The Node informer of `factory`, asked for there (as `core/v1/nodes`), so that the factory's `start()` and `wait_for_cache_sync()` include it; built on first use (or when the factory starts), the same informer on every later call (what the version accessor returns).
    #[inline]
    pub fn new(factory: ::informer_runtime::SharedInformerFactoryCore) -> Self {
        Self {
            ask: ::informer_runtime::InformerAsk::new(
                factory,
                ::informer_runtime::source::typed::<::k8s_openapi::api::core::v1::Node>(),
            ),
        }
    }
    /// The factory's shared informer of Node objects, registered as `core/v1/nodes`.
    #[inline]
    pub fn informer(
        &self,
    ) -> ::informer_runtime::SharedIndexInformer<::k8s_openapi::api::core::v1::Node> {
        self.ask.informer()
    }
    /// A lister reading the shared Node informer's cache.
    #[inline]
    pub fn lister(&self) -> NodeLister {
        NodeLister::new(self.ask.informer().indexer())
    }
    /// The factory's shared informer of the projection `V` of Node objects: a struct of your own with only the fields you read (declared with `informer_runtime::projection!(View => Node)`), decoded straight from the list and watch bytes, cached and indexed instead of whole Node objects. One informer per view type, registered as `core/v1/nodes as <V>` on the first call and listing and watching as the Node informer does (the factory's namespace, `tweak_list_options`, resync and transforms apply). Asking for the projection does not build the full Node informer.
    #[inline]
    pub fn projected<
        V: ::informer_runtime::Projection<Of = ::k8s_openapi::api::core::v1::Node>,
    >(self) -> ::informer_runtime::ProjectedInformer<V> {
        self.ask.projected()
    }
}
/// A new, unshared informer of [`Node`](k8s_openapi::api::core::v1::Node) objects (core/v1, kind Node) (cluster-scoped) (client-go's `NewNodeInformer`).
///
/// Prefer the factory's shared informer; this one is for callers that need their own.
#[inline]
pub fn new_node_informer(
    client: ::informer_runtime::Client,
    resync: ::std::time::Duration,
    indexers: ::informer_runtime::Indexers<::k8s_openapi::api::core::v1::Node>,
) -> ::informer_runtime::SharedIndexInformer<::k8s_openapi::api::core::v1::Node> {
    new_filtered_node_informer(client, resync, indexers, ::std::option::Option::None)
}
/// A new, unshared informer of [`Node`](k8s_openapi::api::core::v1::Node) objects (core/v1, kind Node) (cluster-scoped), whose list and watch requests are first edited by `tweak_list_options` (client-go's `NewFilteredNodeInformer`). It lists and watches through the clientset's typed client of Node objects, as client-go's does.
#[inline]
pub fn new_filtered_node_informer(
    client: ::informer_runtime::Client,
    resync: ::std::time::Duration,
    indexers: ::informer_runtime::Indexers<::k8s_openapi::api::core::v1::Node>,
    tweak_list_options: ::std::option::Option<::informer_runtime::TweakListOptions>,
) -> ::informer_runtime::SharedIndexInformer<::k8s_openapi::api::core::v1::Node> {
    let mut options = ::informer_runtime::InformerOptions::default()
        .resync(resync)
        .indexers(indexers);
    options.tweak_list_options = tweak_list_options;
    ::informer_runtime::new_informer(
        &client,
        &::informer_runtime::source::typed::<::k8s_openapi::api::core::v1::Node>(),
        ::std::option::Option::None,
        options,
    )
}
/// Reads [`Node`](k8s_openapi::api::core::v1::Node) objects (core/v1, kind Node) from an informer's cache (client-go's `NodeLister`).
#[derive(Clone)]
pub struct NodeLister {
    lister: ::informer_runtime::Lister<::k8s_openapi::api::core::v1::Node>,
}
impl NodeLister {
    /// A lister of Node objects over `indexer` (usually an informer's).
    #[inline]
    pub fn new(
        indexer: ::informer_runtime::Indexer<::k8s_openapi::api::core::v1::Node>,
    ) -> Self {
        Self {
            lister: ::informer_runtime::Lister::new(indexer),
        }
    }
    /// Every Node (core/v1, kind Node) in the cache matching `selector`.
    #[inline]
    pub fn list(
        &self,
        selector: &::informer_runtime::Selector,
    ) -> ::std::vec::Vec<::std::sync::Arc<::k8s_openapi::api::core::v1::Node>> {
        self.lister.list(selector)
    }
}
impl NodeLister {
    /// The Node named `name`, if cached.
    #[inline]
    pub fn get(
        &self,
        name: &str,
    ) -> ::std::option::Option<::std::sync::Arc<::k8s_openapi::api::core::v1::Node>> {
        self.lister.get(name)
    }
}
