//! Informers of Widget (example.com/v1beta1, kind Widget).
/// The shared informer of [`Widget`](crate::crds::example_com::v1beta1::Widget) objects (example.com/v1beta1, kind Widget) in a factory (client-go's `WidgetInformer`).
///
/// Custom resource 'example.com/v1beta1' 'Widget' ('widgets', namespaced), from CRD 'widgets.example.com'.
#[derive(Clone)]
pub struct WidgetInformer {
    factory: ::informer_runtime::SharedInformerFactoryCore,
}
impl WidgetInformer {
    /// The Widget informer of `factory` (what the version accessor returns).
    #[inline]
    pub fn new(factory: ::informer_runtime::SharedInformerFactoryCore) -> Self {
        Self { factory }
    }
    /// The factory's shared informer of Widget objects: made on the first call (registered as `example.com/v1beta1/widgets`), the same on every later call.
    #[inline]
    pub fn informer(
        &self,
    ) -> ::informer_runtime::SharedIndexInformer<
        crate::crds::example_com::v1beta1::Widget,
    > {
        self.factory
            .informer_for::<
                crate::crds::example_com::v1beta1::Widget,
            >(
                "example.com/v1beta1/widgets",
                |core| {
                    new_filtered_widget_informer(
                        core.client().clone(),
                        core.namespace(),
                        core.resync_for::<crate::crds::example_com::v1beta1::Widget>(),
                        ::informer_runtime::Indexers::standard(),
                        core.tweak_list_options(),
                    )
                },
            )
    }
    /// A lister reading the shared Widget informer's cache.
    #[inline]
    pub fn lister(&self) -> WidgetLister {
        WidgetLister::new(self.informer().indexer())
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
/// A new, unshared informer of [`Widget`](crate::crds::example_com::v1beta1::Widget) objects (example.com/v1beta1, kind Widget) in `namespace` (every namespace when `None`), whose list and watch requests are first edited by `tweak_list_options` (client-go's `NewFilteredWidgetInformer`).
#[inline]
pub fn new_filtered_widget_informer(
    client: ::informer_runtime::Client,
    namespace: ::std::option::Option<&str>,
    resync: ::std::time::Duration,
    indexers: ::informer_runtime::Indexers<crate::crds::example_com::v1beta1::Widget>,
    tweak_list_options: ::std::option::Option<::informer_runtime::TweakListOptions>,
) -> ::informer_runtime::SharedIndexInformer<crate::crds::example_com::v1beta1::Widget> {
    let namespace: ::std::option::Option<::std::string::String> = namespace
        .map(::std::borrow::ToOwned::to_owned);
    let list = {
        let client = client.clone();
        let namespace = namespace.clone();
        let tweak_list_options = tweak_list_options.clone();
        move |mut options: ::informer_runtime::ListOptions| {
            if let ::std::option::Option::Some(tweak) = &tweak_list_options {
                tweak(&mut options);
            }
            client
                .list::<
                    crate::crds::example_com::v1beta1::Widget,
                >(namespace.as_deref(), &options)
        }
    };
    let watch = move |mut options: ::informer_runtime::ListOptions| {
        if let ::std::option::Option::Some(tweak) = &tweak_list_options {
            tweak(&mut options);
        }
        client
            .watch::<
                crate::crds::example_com::v1beta1::Widget,
            >(namespace.as_deref(), &options)
    };
    ::informer_runtime::SharedIndexInformer::new(
        ::informer_runtime::ListWatch::new(list, watch),
        resync,
        indexers,
    )
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
