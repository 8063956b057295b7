//! Informers of ClusterRole (rbac.authorization.k8s.io/v1, kind ClusterRole).
/// The shared informer of [`ClusterRole`](k8s_openapi::api::rbac::v1::ClusterRole) objects (rbac.authorization.k8s.io/v1, kind ClusterRole) in a factory (client-go's `ClusterRoleInformer`).
#[derive(Clone)]
pub struct ClusterRoleInformer {
    ask: ::informer_runtime::InformerAsk<::k8s_openapi::api::rbac::v1::ClusterRole>,
}
impl ClusterRoleInformer {
    /// The ClusterRole informer of `factory`, asked for there (as `rbac.authorization.k8s.io/v1/clusterroles`), so that the factory's `start()` and `wait_for_cache_sync()` include it; built on first use (or when the factory starts), the same informer on every later call (what the version accessor returns).
    #[inline]
    pub fn new(factory: ::informer_runtime::SharedInformerFactoryCore) -> Self {
        Self {
            ask: ::informer_runtime::InformerAsk::new(
                factory,
                ::informer_runtime::source::typed::<
                    ::k8s_openapi::api::rbac::v1::ClusterRole,
                >(),
            ),
        }
    }
    /// The factory's shared informer of ClusterRole objects, registered as `rbac.authorization.k8s.io/v1/clusterroles`.
    #[inline]
    pub fn informer(
        &self,
    ) -> ::informer_runtime::SharedIndexInformer<
        ::k8s_openapi::api::rbac::v1::ClusterRole,
    > {
        self.ask.informer()
    }
    /// A lister reading the shared ClusterRole informer's cache.
    #[inline]
    pub fn lister(&self) -> ClusterRoleLister {
        ClusterRoleLister::new(self.ask.informer().indexer())
    }
    /// The factory's shared informer of the projection `V` of ClusterRole objects: a struct of your own with only the fields you read (declared with `informer_runtime::projection!(View => ClusterRole)`), decoded straight from the list and watch bytes, cached and indexed instead of whole ClusterRole objects. One informer per view type, registered as `rbac.authorization.k8s.io/v1/clusterroles as <V>` on the first call and listing and watching as the ClusterRole informer does (the factory's namespace, `tweak_list_options`, resync and transforms apply). Asking for the projection does not build the full ClusterRole informer.
    #[inline]
    pub fn projected<
        V: ::informer_runtime::Projection<Of = ::k8s_openapi::api::rbac::v1::ClusterRole>,
    >(self) -> ::informer_runtime::ProjectedInformer<V> {
        self.ask.projected()
    }
}
/// A new, unshared informer of [`ClusterRole`](k8s_openapi::api::rbac::v1::ClusterRole) objects (rbac.authorization.k8s.io/v1, kind ClusterRole) (cluster-scoped) (client-go's `NewClusterRoleInformer`).
///
/// Prefer the factory's shared informer; this one is for callers that need their own.
#[inline]
pub fn new_cluster_role_informer(
    client: ::informer_runtime::Client,
    resync: ::std::time::Duration,
    indexers: ::informer_runtime::Indexers<::k8s_openapi::api::rbac::v1::ClusterRole>,
) -> ::informer_runtime::SharedIndexInformer<::k8s_openapi::api::rbac::v1::ClusterRole> {
    new_filtered_cluster_role_informer(
        client,
        resync,
        indexers,
        ::std::option::Option::None,
    )
}
/// A new, unshared informer of [`ClusterRole`](k8s_openapi::api::rbac::v1::ClusterRole) objects (rbac.authorization.k8s.io/v1, kind ClusterRole) (cluster-scoped), whose list and watch requests are first edited by `tweak_list_options` (client-go's `NewFilteredClusterRoleInformer`). It lists and watches through the clientset's typed client of ClusterRole objects, as client-go's does.
#[inline]
pub fn new_filtered_cluster_role_informer(
    client: ::informer_runtime::Client,
    resync: ::std::time::Duration,
    indexers: ::informer_runtime::Indexers<::k8s_openapi::api::rbac::v1::ClusterRole>,
    tweak_list_options: ::std::option::Option<::informer_runtime::TweakListOptions>,
) -> ::informer_runtime::SharedIndexInformer<::k8s_openapi::api::rbac::v1::ClusterRole> {
    let mut options = ::informer_runtime::InformerOptions::default()
        .resync(resync)
        .indexers(indexers);
    options.tweak_list_options = tweak_list_options;
    ::informer_runtime::new_informer(
        &client,
        &::informer_runtime::source::typed::<
            ::k8s_openapi::api::rbac::v1::ClusterRole,
        >(),
        ::std::option::Option::None,
        options,
    )
}
/// Reads [`ClusterRole`](k8s_openapi::api::rbac::v1::ClusterRole) objects (rbac.authorization.k8s.io/v1, kind ClusterRole) from an informer's cache (client-go's `ClusterRoleLister`).
#[derive(Clone)]
pub struct ClusterRoleLister {
    lister: ::informer_runtime::Lister<::k8s_openapi::api::rbac::v1::ClusterRole>,
}
impl ClusterRoleLister {
    /// A lister of ClusterRole objects over `indexer` (usually an informer's).
    #[inline]
    pub fn new(
        indexer: ::informer_runtime::Indexer<::k8s_openapi::api::rbac::v1::ClusterRole>,
    ) -> Self {
        Self {
            lister: ::informer_runtime::Lister::new(indexer),
        }
    }
    /// Every ClusterRole (rbac.authorization.k8s.io/v1, kind ClusterRole) in the cache matching `selector`.
    #[inline]
    pub fn list(
        &self,
        selector: &::informer_runtime::Selector,
    ) -> ::std::vec::Vec<::std::sync::Arc<::k8s_openapi::api::rbac::v1::ClusterRole>> {
        self.lister.list(selector)
    }
}
impl ClusterRoleLister {
    /// The ClusterRole named `name`, if cached.
    #[inline]
    pub fn get(
        &self,
        name: &str,
    ) -> ::std::option::Option<
        ::std::sync::Arc<::k8s_openapi::api::rbac::v1::ClusterRole>,
    > {
        self.lister.get(name)
    }
}
