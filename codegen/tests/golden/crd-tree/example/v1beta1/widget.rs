//! Informers of Widget (example.com/v1beta1, kind Widget).
/// The shared informer of [`Widget`](crate::crds::example_com::v1beta1::Widget) objects (example.com/v1beta1, kind Widget) in a factory (client-go's `WidgetInformer`).
///
/// Custom resource 'example.com/v1beta1' 'Widget' ('widgets', namespaced), from CRD 'widgets.example.com'.
#[derive(Clone)]
pub struct WidgetInformer {
    ask: ::kube_informers::InformerAsk<crate::crds::example_com::v1beta1::Widget>,
}
impl WidgetInformer {
    /// The Widget informer of `factory`, asked for there (as `example.com/v1beta1/widgets`), so that the factory's `start()` and `wait_for_cache_sync()` include it; built on first use (or when the factory starts), the same informer on every later call (what the version accessor returns).
    #[inline]
    pub fn new(factory: ::kube_informers::SharedInformerFactoryCore) -> Self {
        Self {
            ask: ::kube_informers::InformerAsk::new(
                factory,
                ::kube_informers::source::typed::<
                    crate::crds::example_com::v1beta1::Widget,
                >(),
            ),
        }
    }
    /// The factory's shared informer of Widget objects, registered as `example.com/v1beta1/widgets`.
    #[inline]
    pub fn informer(
        &self,
    ) -> ::kube_informers::SharedIndexInformer<
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
    pub fn projected<
        V: ::kube_informers::Projection<Of = crate::crds::example_com::v1beta1::Widget>,
    >(self) -> ::kube_informers::ProjectedInformer<V> {
        self.ask.projected()
    }
}
/// A new, unshared informer of [`Widget`](crate::crds::example_com::v1beta1::Widget) objects (example.com/v1beta1, kind Widget) in `namespace` (every namespace when `None`) (client-go's `NewWidgetInformer`).
///
/// Prefer the factory's shared informer; this one is for callers that need their own.
#[inline]
pub fn new_widget_informer(
    client: ::kube_informers::Client,
    namespace: ::std::option::Option<&str>,
    resync: ::std::time::Duration,
    indexers: ::kube_informers::Indexers<crate::crds::example_com::v1beta1::Widget>,
) -> ::kube_informers::SharedIndexInformer<crate::crds::example_com::v1beta1::Widget> {
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
    client: ::kube_informers::Client,
    namespace: ::std::option::Option<&str>,
    resync: ::std::time::Duration,
    indexers: ::kube_informers::Indexers<crate::crds::example_com::v1beta1::Widget>,
    tweak_list_options: ::std::option::Option<::kube_informers::TweakListOptions>,
) -> ::kube_informers::SharedIndexInformer<crate::crds::example_com::v1beta1::Widget> {
    let mut options = ::kube_informers::InformerOptions::default()
        .resync(resync)
        .indexers(indexers);
    options.tweak_list_options = tweak_list_options;
    ::kube_informers::new_informer(
        &client,
        &::kube_informers::source::typed::<crate::crds::example_com::v1beta1::Widget>(),
        namespace,
        options,
    )
}
/// Reads [`Widget`](crate::crds::example_com::v1beta1::Widget) objects (example.com/v1beta1, kind Widget) from an informer's cache (client-go's `WidgetLister`).
///
/// Custom resource 'example.com/v1beta1' 'Widget' ('widgets', namespaced), from CRD 'widgets.example.com'.
#[derive(Clone)]
pub struct WidgetLister {
    lister: ::kube_informers::Lister<crate::crds::example_com::v1beta1::Widget>,
}
impl WidgetLister {
    /// A lister of Widget objects over `indexer` (usually an informer's).
    #[inline]
    pub fn new(
        indexer: ::kube_informers::Indexer<crate::crds::example_com::v1beta1::Widget>,
    ) -> Self {
        Self {
            lister: ::kube_informers::Lister::new(indexer),
        }
    }
    /// Every Widget (example.com/v1beta1, kind Widget) in the cache matching `selector`, in every namespace.
    #[inline]
    pub fn list(
        &self,
        selector: &::kube_informers::Selector,
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
    lister: ::kube_informers::NamespaceLister<crate::crds::example_com::v1beta1::Widget>,
}
impl WidgetNamespaceLister {
    /// Every Widget in this namespace matching `selector`.
    #[inline]
    pub fn list(
        &self,
        selector: &::kube_informers::Selector,
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
