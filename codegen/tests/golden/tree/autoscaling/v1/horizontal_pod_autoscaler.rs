//! Informers of HorizontalPodAutoscaler (autoscaling/v1, kind HorizontalPodAutoscaler).
/// The shared informer of [`HorizontalPodAutoscaler`](k8s_openapi::api::autoscaling::v1::HorizontalPodAutoscaler) objects (autoscaling/v1, kind HorizontalPodAutoscaler) in a factory (client-go's `HorizontalPodAutoscalerInformer`).
#[derive(Clone)]
pub struct HorizontalPodAutoscalerInformer {
    ask: ::informer_runtime::InformerAsk<
        ::k8s_openapi::api::autoscaling::v1::HorizontalPodAutoscaler,
    >,
}
impl HorizontalPodAutoscalerInformer {
    /// The HorizontalPodAutoscaler informer of `factory`, asked for there (as `autoscaling/v1/horizontalpodautoscalers`), so that the factory's `start()` and `wait_for_cache_sync()` include it; built on first use (or when the factory starts), the same informer on every later call (what the version accessor returns).
    #[inline]
    pub fn new(factory: ::informer_runtime::SharedInformerFactoryCore) -> Self {
        Self {
            ask: ::informer_runtime::InformerAsk::new(
                factory,
                ::informer_runtime::source::typed::<
                    ::k8s_openapi::api::autoscaling::v1::HorizontalPodAutoscaler,
                >(),
            ),
        }
    }
    /// The factory's shared informer of HorizontalPodAutoscaler objects, registered as `autoscaling/v1/horizontalpodautoscalers`.
    #[inline]
    pub fn informer(
        &self,
    ) -> ::informer_runtime::SharedIndexInformer<
        ::k8s_openapi::api::autoscaling::v1::HorizontalPodAutoscaler,
    > {
        self.ask.informer()
    }
    /// A lister reading the shared HorizontalPodAutoscaler informer's cache.
    #[inline]
    pub fn lister(&self) -> HorizontalPodAutoscalerLister {
        HorizontalPodAutoscalerLister::new(self.ask.informer().indexer())
    }
    /// The factory's shared informer of the projection `V` of HorizontalPodAutoscaler objects: a struct of your own with only the fields you read (declared with `informer_runtime::projection!(View => HorizontalPodAutoscaler)`), decoded straight from the list and watch bytes, cached and indexed instead of whole HorizontalPodAutoscaler objects. One informer per view type, registered as `autoscaling/v1/horizontalpodautoscalers as <V>` on the first call and listing and watching as the HorizontalPodAutoscaler informer does (the factory's namespace, `tweak_list_options`, resync and transforms apply). Asking for the projection does not build the full HorizontalPodAutoscaler informer.
    #[inline]
    pub fn projected<
        V: ::informer_runtime::Projection<
                Of = ::k8s_openapi::api::autoscaling::v1::HorizontalPodAutoscaler,
            >,
    >(self) -> ::informer_runtime::ProjectedInformer<V> {
        self.ask.projected()
    }
}
/// A new, unshared informer of [`HorizontalPodAutoscaler`](k8s_openapi::api::autoscaling::v1::HorizontalPodAutoscaler) objects (autoscaling/v1, kind HorizontalPodAutoscaler) in `namespace` (every namespace when `None`) (client-go's `NewHorizontalPodAutoscalerInformer`).
///
/// Prefer the factory's shared informer; this one is for callers that need their own.
#[inline]
pub fn new_horizontal_pod_autoscaler_informer(
    client: ::informer_runtime::Client,
    namespace: ::std::option::Option<&str>,
    resync: ::std::time::Duration,
    indexers: ::informer_runtime::Indexers<
        ::k8s_openapi::api::autoscaling::v1::HorizontalPodAutoscaler,
    >,
) -> ::informer_runtime::SharedIndexInformer<
    ::k8s_openapi::api::autoscaling::v1::HorizontalPodAutoscaler,
> {
    new_filtered_horizontal_pod_autoscaler_informer(
        client,
        namespace,
        resync,
        indexers,
        ::std::option::Option::None,
    )
}
/// A new, unshared informer of [`HorizontalPodAutoscaler`](k8s_openapi::api::autoscaling::v1::HorizontalPodAutoscaler) objects (autoscaling/v1, kind HorizontalPodAutoscaler) in `namespace` (every namespace when `None`), whose list and watch requests are first edited by `tweak_list_options` (client-go's `NewFilteredHorizontalPodAutoscalerInformer`). It lists and watches through the clientset's typed client of HorizontalPodAutoscaler objects, as client-go's does.
#[inline]
pub fn new_filtered_horizontal_pod_autoscaler_informer(
    client: ::informer_runtime::Client,
    namespace: ::std::option::Option<&str>,
    resync: ::std::time::Duration,
    indexers: ::informer_runtime::Indexers<
        ::k8s_openapi::api::autoscaling::v1::HorizontalPodAutoscaler,
    >,
    tweak_list_options: ::std::option::Option<::informer_runtime::TweakListOptions>,
) -> ::informer_runtime::SharedIndexInformer<
    ::k8s_openapi::api::autoscaling::v1::HorizontalPodAutoscaler,
> {
    let mut options = ::informer_runtime::InformerOptions::default()
        .resync(resync)
        .indexers(indexers);
    options.tweak_list_options = tweak_list_options;
    ::informer_runtime::new_informer(
        &client,
        &::informer_runtime::source::typed::<
            ::k8s_openapi::api::autoscaling::v1::HorizontalPodAutoscaler,
        >(),
        namespace,
        options,
    )
}
/// Reads [`HorizontalPodAutoscaler`](k8s_openapi::api::autoscaling::v1::HorizontalPodAutoscaler) objects (autoscaling/v1, kind HorizontalPodAutoscaler) from an informer's cache (client-go's `HorizontalPodAutoscalerLister`).
#[derive(Clone)]
pub struct HorizontalPodAutoscalerLister {
    lister: ::informer_runtime::Lister<
        ::k8s_openapi::api::autoscaling::v1::HorizontalPodAutoscaler,
    >,
}
impl HorizontalPodAutoscalerLister {
    /// A lister of HorizontalPodAutoscaler objects over `indexer` (usually an informer's).
    #[inline]
    pub fn new(
        indexer: ::informer_runtime::Indexer<
            ::k8s_openapi::api::autoscaling::v1::HorizontalPodAutoscaler,
        >,
    ) -> Self {
        Self {
            lister: ::informer_runtime::Lister::new(indexer),
        }
    }
    /// Every HorizontalPodAutoscaler (autoscaling/v1, kind HorizontalPodAutoscaler) in the cache matching `selector`, in every namespace.
    #[inline]
    pub fn list(
        &self,
        selector: &::informer_runtime::Selector,
    ) -> ::std::vec::Vec<
        ::std::sync::Arc<::k8s_openapi::api::autoscaling::v1::HorizontalPodAutoscaler>,
    > {
        self.lister.list(selector)
    }
}
impl HorizontalPodAutoscalerLister {
    /// A lister of the HorizontalPodAutoscaler objects (autoscaling/v1, kind HorizontalPodAutoscaler) in one namespace.
    #[inline]
    pub fn horizontal_pod_autoscalers(
        &self,
        namespace: &str,
    ) -> HorizontalPodAutoscalerNamespaceLister {
        HorizontalPodAutoscalerNamespaceLister {
            lister: self.lister.namespaced(namespace),
        }
    }
}
/// Reads [`HorizontalPodAutoscaler`](k8s_openapi::api::autoscaling::v1::HorizontalPodAutoscaler) objects (autoscaling/v1, kind HorizontalPodAutoscaler) of one namespace from an informer's cache (client-go's `HorizontalPodAutoscalerNamespaceLister`).
pub struct HorizontalPodAutoscalerNamespaceLister {
    lister: ::informer_runtime::NamespaceLister<
        ::k8s_openapi::api::autoscaling::v1::HorizontalPodAutoscaler,
    >,
}
impl HorizontalPodAutoscalerNamespaceLister {
    /// Every HorizontalPodAutoscaler in this namespace matching `selector`.
    #[inline]
    pub fn list(
        &self,
        selector: &::informer_runtime::Selector,
    ) -> ::std::vec::Vec<
        ::std::sync::Arc<::k8s_openapi::api::autoscaling::v1::HorizontalPodAutoscaler>,
    > {
        self.lister.list(selector)
    }
    /// The HorizontalPodAutoscaler named `name` in this namespace, if cached.
    #[inline]
    pub fn get(
        &self,
        name: &str,
    ) -> ::std::option::Option<
        ::std::sync::Arc<::k8s_openapi::api::autoscaling::v1::HorizontalPodAutoscaler>,
    > {
        self.lister.get(name)
    }
}
