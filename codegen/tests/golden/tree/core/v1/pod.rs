//! Informers of Pod (core/v1, kind Pod).
/// The shared informer of [`Pod`](k8s_openapi::api::core::v1::Pod) objects (core/v1, kind Pod) in a factory (client-go's `PodInformer`).
///
/// Pod is a collection of containers that can run on a host. This resource is created by clients and scheduled onto hosts. Indented text \[with brackets\] and &lt;tags&gt; must not become doctests or links.
#[derive(Clone)]
pub struct PodInformer {
    ask: ::informer_runtime::InformerAsk<::k8s_openapi::api::core::v1::Pod>,
}
impl PodInformer {
    /// The Pod informer of `factory`, asked for there (as `core/v1/pods`), so that the factory's `start()` and `wait_for_cache_sync()` include it; built on first use (or when the factory starts), the same informer on every later call (what the version accessor returns).
    #[inline]
    pub fn new(factory: ::informer_runtime::SharedInformerFactoryCore) -> Self {
        Self {
            ask: ::informer_runtime::InformerAsk::new(
                factory,
                ::informer_runtime::source::typed::<::k8s_openapi::api::core::v1::Pod>(),
            ),
        }
    }
    /// The factory's shared informer of Pod objects, registered as `core/v1/pods`.
    #[inline]
    pub fn informer(
        &self,
    ) -> ::informer_runtime::SharedIndexInformer<::k8s_openapi::api::core::v1::Pod> {
        self.ask.informer()
    }
    /// A lister reading the shared Pod informer's cache.
    #[inline]
    pub fn lister(&self) -> PodLister {
        PodLister::new(self.ask.informer().indexer())
    }
    /// The factory's shared informer of the projection `V` of Pod objects: a struct of your own with only the fields you read (declared with `informer_runtime::projection!(View => Pod)`), decoded straight from the list and watch bytes, cached and indexed instead of whole Pod objects. One informer per view type, registered as `core/v1/pods as <V>` on the first call and listing and watching as the Pod informer does (the factory's namespace, `tweak_list_options`, resync and transforms apply). Asking for the projection does not build the full Pod informer.
    #[inline]
    pub fn projected<
        V: ::informer_runtime::Projection<Of = ::k8s_openapi::api::core::v1::Pod>,
    >(self) -> ::informer_runtime::ProjectedInformer<V> {
        self.ask.projected()
    }
}
/// A new, unshared informer of [`Pod`](k8s_openapi::api::core::v1::Pod) objects (core/v1, kind Pod) in `namespace` (every namespace when `None`) (client-go's `NewPodInformer`).
///
/// Prefer the factory's shared informer; this one is for callers that need their own.
#[inline]
pub fn new_pod_informer(
    client: ::informer_runtime::Client,
    namespace: ::std::option::Option<&str>,
    resync: ::std::time::Duration,
    indexers: ::informer_runtime::Indexers<::k8s_openapi::api::core::v1::Pod>,
) -> ::informer_runtime::SharedIndexInformer<::k8s_openapi::api::core::v1::Pod> {
    new_filtered_pod_informer(
        client,
        namespace,
        resync,
        indexers,
        ::std::option::Option::None,
    )
}
/// A new, unshared informer of [`Pod`](k8s_openapi::api::core::v1::Pod) objects (core/v1, kind Pod) in `namespace` (every namespace when `None`), whose list and watch requests are first edited by `tweak_list_options` (client-go's `NewFilteredPodInformer`). It lists and watches through the clientset's typed client of Pod objects, as client-go's does.
#[inline]
pub fn new_filtered_pod_informer(
    client: ::informer_runtime::Client,
    namespace: ::std::option::Option<&str>,
    resync: ::std::time::Duration,
    indexers: ::informer_runtime::Indexers<::k8s_openapi::api::core::v1::Pod>,
    tweak_list_options: ::std::option::Option<::informer_runtime::TweakListOptions>,
) -> ::informer_runtime::SharedIndexInformer<::k8s_openapi::api::core::v1::Pod> {
    let mut options = ::informer_runtime::InformerOptions::default()
        .resync(resync)
        .indexers(indexers);
    options.tweak_list_options = tweak_list_options;
    ::informer_runtime::new_informer(
        &client,
        &::informer_runtime::source::typed::<::k8s_openapi::api::core::v1::Pod>(),
        namespace,
        options,
    )
}
/// Reads [`Pod`](k8s_openapi::api::core::v1::Pod) objects (core/v1, kind Pod) from an informer's cache (client-go's `PodLister`).
///
/// Pod is a collection of containers that can run on a host. This resource is created by clients and scheduled onto hosts. Indented text \[with brackets\] and &lt;tags&gt; must not become doctests or links.
#[derive(Clone)]
pub struct PodLister {
    lister: ::informer_runtime::Lister<::k8s_openapi::api::core::v1::Pod>,
}
impl PodLister {
    /// A lister of Pod objects over `indexer` (usually an informer's).
    #[inline]
    pub fn new(
        indexer: ::informer_runtime::Indexer<::k8s_openapi::api::core::v1::Pod>,
    ) -> Self {
        Self {
            lister: ::informer_runtime::Lister::new(indexer),
        }
    }
    /// Every Pod (core/v1, kind Pod) in the cache matching `selector`, in every namespace.
    #[inline]
    pub fn list(
        &self,
        selector: &::informer_runtime::Selector,
    ) -> ::std::vec::Vec<::std::sync::Arc<::k8s_openapi::api::core::v1::Pod>> {
        self.lister.list(selector)
    }
}
impl PodLister {
    /// A lister of the Pod objects (core/v1, kind Pod) in one namespace.
    #[inline]
    pub fn pods(&self, namespace: &str) -> PodNamespaceLister {
        PodNamespaceLister {
            lister: self.lister.namespaced(namespace),
        }
    }
}
/// Reads [`Pod`](k8s_openapi::api::core::v1::Pod) objects (core/v1, kind Pod) of one namespace from an informer's cache (client-go's `PodNamespaceLister`).
pub struct PodNamespaceLister {
    lister: ::informer_runtime::NamespaceLister<::k8s_openapi::api::core::v1::Pod>,
}
impl PodNamespaceLister {
    /// Every Pod in this namespace matching `selector`.
    #[inline]
    pub fn list(
        &self,
        selector: &::informer_runtime::Selector,
    ) -> ::std::vec::Vec<::std::sync::Arc<::k8s_openapi::api::core::v1::Pod>> {
        self.lister.list(selector)
    }
    /// The Pod named `name` in this namespace, if cached.
    #[inline]
    pub fn get(
        &self,
        name: &str,
    ) -> ::std::option::Option<::std::sync::Arc<::k8s_openapi::api::core::v1::Pod>> {
        self.lister.get(name)
    }
}
