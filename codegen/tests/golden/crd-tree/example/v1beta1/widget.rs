//! Informers of Widget (example.com/v1beta1, kind Widget).
/// The shared informer of [`Widget`](crate::crds::example_com::v1beta1::Widget) objects (example.com/v1beta1, kind Widget) in a factory (client-go's `WidgetInformer`).
///
/// Custom resource 'example.com/v1beta1' 'Widget' ('widgets', namespaced), from CRD 'widgets.example.com'.
#[derive(Clone)]
pub struct WidgetInformer {
    ask: ::informer_runtime::InformerAsk<crate::crds::example_com::v1beta1::Widget>,
}
impl WidgetInformer {
    /// The Widget informer of `factory`, asked for there (as `example.com/v1beta1/widgets`), so that the factory's `start()` and `wait_for_cache_sync()` include it; built on first use (or when the factory starts), the same informer on every later call (what the version accessor returns).
    #[inline]
    pub fn new(factory: ::informer_runtime::SharedInformerFactoryCore) -> Self {
        let ask = factory
            .ask_for::<
                crate::crds::example_com::v1beta1::Widget,
            >(
                "example.com/v1beta1/widgets",
                |core| {
                    new_filtered_widget_informer(
                        core.informer_client(),
                        core.namespace(),
                        core.resync_for::<crate::crds::example_com::v1beta1::Widget>(),
                        ::informer_runtime::Indexers::standard(),
                        core.tweak_list_options(),
                    )
                },
            );
        Self { ask }
    }
    /// The factory's shared informer of Widget objects, registered as `example.com/v1beta1/widgets`.
    #[inline]
    pub fn informer(
        &self,
    ) -> ::informer_runtime::SharedIndexInformer<
        crate::crds::example_com::v1beta1::Widget,
    > {
        self.ask.informer()
    }
    /// A lister reading the shared Widget informer's cache.
    #[inline]
    pub fn lister(&self) -> WidgetLister {
        WidgetLister::new(self.ask.informer().indexer())
    }
    /// The factory's shared informer of the projection `V` of Widget objects: a struct of your own with only the fields you read (declared with `informer_runtime::projection!(View => Widget)`), decoded straight from the list and watch bytes, cached and indexed instead of whole Widget objects. One informer per view type, registered as `example.com/v1beta1/widgets as <V>` on the first call and listing and watching as the Widget informer does (the factory's namespace, `tweak_list_options`, resync and transforms apply). Asking for the projection does not build the full Widget informer.
    #[inline]
    pub fn projected<V>(self) -> ::informer_runtime::ProjectedInformer<V>
    where
        V: ::informer_runtime::Projection<Of = crate::crds::example_com::v1beta1::Widget>
            + ::informer_runtime::k8s_openapi::Resource<
                Scope = ::informer_runtime::k8s_openapi::NamespaceResourceScope,
            >,
    {
        let factory = self.ask.withdraw();
        let informer = factory
            .informer_for::<
                V,
            >(
                &::informer_runtime::projection::informer_name::<
                    V,
                >("example.com/v1beta1/widgets"),
                |core| {
                    let api: ::informer_runtime::api::Api<V> = match core.namespace() {
                        ::std::option::Option::Some(namespace) => {
                            ::informer_runtime::api::Api::namespaced(
                                core.informer_client(),
                                namespace,
                            )
                        }
                        ::std::option::Option::None => {
                            ::informer_runtime::api::Api::all(core.informer_client())
                        }
                    };
                    ::informer_runtime::projection::new_filtered_informer(
                        api,
                        core.resync_for::<V>(),
                        ::informer_runtime::Indexers::standard(),
                        core.tweak_list_options(),
                    )
                },
            );
        ::informer_runtime::ProjectedInformer::new(informer)
    }
}
/// A new, unshared informer of [`Widget`](crate::crds::example_com::v1beta1::Widget) objects (example.com/v1beta1, kind Widget) in `namespace` (every namespace when `None`) (client-go's `NewWidgetInformer`).
///
/// Prefer the factory's shared informer; this one is for callers that need their own.
#[inline]
pub fn new_widget_informer(
    client: ::informer_runtime::Client,
    namespace: ::std::option::Option<&str>,
    resync: ::std::time::Duration,
    indexers: ::informer_runtime::Indexers<crate::crds::example_com::v1beta1::Widget>,
) -> ::informer_runtime::SharedIndexInformer<crate::crds::example_com::v1beta1::Widget> {
    new_filtered_widget_informer(
        client,
        namespace,
        resync,
        indexers,
        ::std::option::Option::None,
    )
}
/// A new, unshared informer of [`Widget`](crate::crds::example_com::v1beta1::Widget) objects (example.com/v1beta1, kind Widget) in `namespace` (every namespace when `None`), whose list and watch requests are first edited by `tweak_list_options` (client-go's `NewFilteredWidgetInformer`). It lists and watches through the clientset's typed client of Widget objects, as client-go's does.
#[inline]
pub fn new_filtered_widget_informer(
    client: ::informer_runtime::Client,
    namespace: ::std::option::Option<&str>,
    resync: ::std::time::Duration,
    indexers: ::informer_runtime::Indexers<crate::crds::example_com::v1beta1::Widget>,
    tweak_list_options: ::std::option::Option<::informer_runtime::TweakListOptions>,
) -> ::informer_runtime::SharedIndexInformer<crate::crds::example_com::v1beta1::Widget> {
    let api: ::informer_runtime::api::Api<
        crate::crds::example_com::v1beta1::Widget,
        ::informer_runtime::api::NoSubresources,
    > = match namespace {
        ::std::option::Option::Some(namespace) => {
            ::informer_runtime::api::Api::namespaced(client, namespace)
        }
        ::std::option::Option::None => ::informer_runtime::api::Api::all(client),
    };
    let list = {
        let api = api.clone();
        move |options: ::informer_runtime::ListOptions| api.list(&options)
    };
    let watch = move |options: ::informer_runtime::ListOptions| api.watch(&options);
    let list_watch = ::informer_runtime::ListWatch::new(list, watch)
        .tweaked(tweak_list_options);
    ::informer_runtime::SharedIndexInformer::new(list_watch, resync, indexers)
}
/// Reads [`Widget`](crate::crds::example_com::v1beta1::Widget) objects (example.com/v1beta1, kind Widget) from an informer's cache (client-go's `WidgetLister`).
///
/// Custom resource 'example.com/v1beta1' 'Widget' ('widgets', namespaced), from CRD 'widgets.example.com'.
#[derive(Clone)]
pub struct WidgetLister {
    lister: ::informer_runtime::Lister<crate::crds::example_com::v1beta1::Widget>,
}
impl WidgetLister {
    /// A lister of Widget objects over `indexer` (usually an informer's).
    #[inline]
    pub fn new(
        indexer: ::informer_runtime::Indexer<crate::crds::example_com::v1beta1::Widget>,
    ) -> Self {
        Self {
            lister: ::informer_runtime::Lister::new(indexer),
        }
    }
    /// Every Widget (example.com/v1beta1, kind Widget) in the cache matching `selector`, in every namespace.
    #[inline]
    pub fn list(
        &self,
        selector: &::informer_runtime::Selector,
    ) -> ::std::vec::Vec<::std::sync::Arc<crate::crds::example_com::v1beta1::Widget>> {
        self.lister.list(selector)
    }
}
impl WidgetLister {
    /// A lister of the Widget objects (example.com/v1beta1, kind Widget) in one namespace.
    #[inline]
    pub fn widgets(&self, namespace: &str) -> WidgetNamespaceLister {
        WidgetNamespaceLister {
            lister: self.lister.namespaced(namespace),
        }
    }
}
/// Reads [`Widget`](crate::crds::example_com::v1beta1::Widget) objects (example.com/v1beta1, kind Widget) of one namespace from an informer's cache (client-go's `WidgetNamespaceLister`).
pub struct WidgetNamespaceLister {
    lister: ::informer_runtime::NamespaceLister<
        crate::crds::example_com::v1beta1::Widget,
    >,
}
impl WidgetNamespaceLister {
    /// Every Widget in this namespace matching `selector`.
    #[inline]
    pub fn list(
        &self,
        selector: &::informer_runtime::Selector,
    ) -> ::std::vec::Vec<::std::sync::Arc<crate::crds::example_com::v1beta1::Widget>> {
        self.lister.list(selector)
    }
    /// The Widget named `name` in this namespace, if cached.
    #[inline]
    pub fn get(
        &self,
        name: &str,
    ) -> ::std::option::Option<
        ::std::sync::Arc<crate::crds::example_com::v1beta1::Widget>,
    > {
        self.lister.get(name)
    }
}
