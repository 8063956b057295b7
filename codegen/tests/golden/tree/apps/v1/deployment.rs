//! Informers of Deployment (apps/v1, kind Deployment).
/// The shared informer of [`Deployment`](k8s_openapi::api::apps::v1::Deployment) objects (apps/v1, kind Deployment) in a factory (client-go's `DeploymentInformer`).
#[derive(Clone)]
pub struct DeploymentInformer {
    ask: ::informer_runtime::InformerAsk<::k8s_openapi::api::apps::v1::Deployment>,
}
impl DeploymentInformer {
    /// The Deployment informer of `factory`, asked for there (as `apps/v1/deployments`), so that the factory's `start()` and `wait_for_cache_sync()` include it; built on first use (or when the factory starts), the same informer on every later call (what the version accessor returns).
    #[inline]
    pub fn new(factory: ::informer_runtime::SharedInformerFactoryCore) -> Self {
        Self {
            ask: ::informer_runtime::InformerAsk::new(
                factory,
                ::informer_runtime::source::typed::<
                    ::k8s_openapi::api::apps::v1::Deployment,
                >(),
            ),
        }
    }
    /// The factory's shared informer of Deployment objects, registered as `apps/v1/deployments`.
    #[inline]
    pub fn informer(
        &self,
    ) -> ::informer_runtime::SharedIndexInformer<
        ::k8s_openapi::api::apps::v1::Deployment,
    > {
        self.ask.informer()
    }
    /// A lister reading the shared Deployment informer's cache.
    #[inline]
    pub fn lister(&self) -> DeploymentLister {
        DeploymentLister::new(self.ask.informer().indexer())
    }
    /// The factory's shared informer of the projection `V` of Deployment objects: a struct of your own with only the fields you read (declared with `informer_runtime::projection!(View => Deployment)`), decoded straight from the list and watch bytes, cached and indexed instead of whole Deployment objects. One informer per view type, registered as `apps/v1/deployments as <V>` on the first call and listing and watching as the Deployment informer does (the factory's namespace, `tweak_list_options`, resync and transforms apply). Asking for the projection does not build the full Deployment informer.
    #[inline]
    pub fn projected<
        V: ::informer_runtime::Projection<Of = ::k8s_openapi::api::apps::v1::Deployment>,
    >(self) -> ::informer_runtime::ProjectedInformer<V> {
        self.ask.projected()
    }
}
/// A new, unshared informer of [`Deployment`](k8s_openapi::api::apps::v1::Deployment) objects (apps/v1, kind Deployment) in `namespace` (every namespace when `None`) (client-go's `NewDeploymentInformer`).
///
/// Prefer the factory's shared informer; this one is for callers that need their own.
#[inline]
pub fn new_deployment_informer(
    client: ::informer_runtime::Client,
    namespace: ::std::option::Option<&str>,
    resync: ::std::time::Duration,
    indexers: ::informer_runtime::Indexers<::k8s_openapi::api::apps::v1::Deployment>,
) -> ::informer_runtime::SharedIndexInformer<::k8s_openapi::api::apps::v1::Deployment> {
    new_filtered_deployment_informer(
        client,
        namespace,
        resync,
        indexers,
        ::std::option::Option::None,
    )
}
/// A new, unshared informer of [`Deployment`](k8s_openapi::api::apps::v1::Deployment) objects (apps/v1, kind Deployment) in `namespace` (every namespace when `None`), whose list and watch requests are first edited by `tweak_list_options` (client-go's `NewFilteredDeploymentInformer`). It lists and watches through the clientset's typed client of Deployment objects, as client-go's does.
#[inline]
pub fn new_filtered_deployment_informer(
    client: ::informer_runtime::Client,
    namespace: ::std::option::Option<&str>,
    resync: ::std::time::Duration,
    indexers: ::informer_runtime::Indexers<::k8s_openapi::api::apps::v1::Deployment>,
    tweak_list_options: ::std::option::Option<::informer_runtime::TweakListOptions>,
) -> ::informer_runtime::SharedIndexInformer<::k8s_openapi::api::apps::v1::Deployment> {
    let mut options = ::informer_runtime::InformerOptions::default()
        .resync(resync)
        .indexers(indexers);
    options.tweak_list_options = tweak_list_options;
    ::informer_runtime::new_informer(
        &client,
        &::informer_runtime::source::typed::<::k8s_openapi::api::apps::v1::Deployment>(),
        namespace,
        options,
    )
}
/// Reads [`Deployment`](k8s_openapi::api::apps::v1::Deployment) objects (apps/v1, kind Deployment) from an informer's cache (client-go's `DeploymentLister`).
#[derive(Clone)]
pub struct DeploymentLister {
    lister: ::informer_runtime::Lister<::k8s_openapi::api::apps::v1::Deployment>,
}
impl DeploymentLister {
    /// A lister of Deployment objects over `indexer` (usually an informer's).
    #[inline]
    pub fn new(
        indexer: ::informer_runtime::Indexer<::k8s_openapi::api::apps::v1::Deployment>,
    ) -> Self {
        Self {
            lister: ::informer_runtime::Lister::new(indexer),
        }
    }
    /// Every Deployment (apps/v1, kind Deployment) in the cache matching `selector`, in every namespace.
    #[inline]
    pub fn list(
        &self,
        selector: &::informer_runtime::Selector,
    ) -> ::std::vec::Vec<::std::sync::Arc<::k8s_openapi::api::apps::v1::Deployment>> {
        self.lister.list(selector)
    }
}
impl DeploymentLister {
    /// A lister of the Deployment objects (apps/v1, kind Deployment) in one namespace.
    #[inline]
    pub fn deployments(&self, namespace: &str) -> DeploymentNamespaceLister {
        DeploymentNamespaceLister {
            lister: self.lister.namespaced(namespace),
        }
    }
}
/// Reads [`Deployment`](k8s_openapi::api::apps::v1::Deployment) objects (apps/v1, kind Deployment) of one namespace from an informer's cache (client-go's `DeploymentNamespaceLister`).
pub struct DeploymentNamespaceLister {
    lister: ::informer_runtime::NamespaceLister<
        ::k8s_openapi::api::apps::v1::Deployment,
    >,
}
impl DeploymentNamespaceLister {
    /// Every Deployment in this namespace matching `selector`.
    #[inline]
    pub fn list(
        &self,
        selector: &::informer_runtime::Selector,
    ) -> ::std::vec::Vec<::std::sync::Arc<::k8s_openapi::api::apps::v1::Deployment>> {
        self.lister.list(selector)
    }
    /// The Deployment named `name` in this namespace, if cached.
    #[inline]
    pub fn get(
        &self,
        name: &str,
    ) -> ::std::option::Option<
        ::std::sync::Arc<::k8s_openapi::api::apps::v1::Deployment>,
    > {
        self.lister.get(name)
    }
}
