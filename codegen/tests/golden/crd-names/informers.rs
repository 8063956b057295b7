/// Shared informers of every resource of CustomResourceDefinitions: one informer per type, started, synced and shut down together (client-go's `SharedInformerFactory`).
#[derive(Clone)]
#[allow(dead_code)]
pub struct SharedInformerFactory {
    factory: ::kube_informers::SharedInformerFactoryCore,
}
#[allow(dead_code)]
impl ::std::convert::From<::kube_informers::SharedInformerFactoryCore>
for SharedInformerFactory {
    fn from(factory: ::kube_informers::SharedInformerFactoryCore) -> Self {
        Self { factory }
    }
}
/// `start()`, `wait_for_cache_sync()`, `wait_for_cache_sync_timeout()` and
/// `shutdown()`, as every factory of the runtime has them.
#[allow(dead_code)]
impl ::kube_informers::InformerFactory for SharedInformerFactory {
    #[inline]
    fn factory_core(&self) -> &::kube_informers::SharedInformerFactoryCore {
        &self.factory
    }
}
#[allow(dead_code)]
impl SharedInformerFactory {
    /// A builder for a factory with options: namespace, tweak_list_options,
    /// default and per-type resync, transform.
    #[inline]
    pub fn builder(
        client: ::kube_informers::Client,
    ) -> ::kube_informers::FactoryBuilder<Self> {
        ::kube_informers::FactoryBuilder::new(client)
    }
    /// A factory with default options: every namespace, no resync.
    #[inline]
    pub fn new(client: ::kube_informers::Client) -> Self {
        Self::builder(client).build()
    }
    /// The factory's shared informer of `source`, the same on every call (client-go's
    /// `InformerFor`): for types this factory does not generate, e.g. a kube-rs type's
    /// `informer_runtime::kube::resource::<Widget>()`.
    #[inline]
    pub fn informer_for<K: ::kube_informers::Object>(
        &self,
        source: impl ::kube_informers::InformerSource<K>,
    ) -> ::kube_informers::SharedIndexInformer<K> {
        self.factory.informer_for(source)
    }
    /// The shared informer of the resource `gvr`, type-erased
    /// (client-go's `ForResource`).
    #[inline]
    pub fn for_resource(
        &self,
        gvr: &::kube_informers::GroupVersionResource,
    ) -> ::std::result::Result<
        ::kube_informers::GenericInformer,
        ::kube_informers::generic::UnknownResource,
    > {
        match (gvr.group.as_str(), gvr.version.as_str(), gvr.resource.as_str()) {
            ("example.com", "v1", "widgets") => {
                ::std::result::Result::Ok(
                    ::kube_informers::GenericInformer::new(
                        gvr.clone(),
                        self.shop().v1().widgets().informer(),
                    ),
                )
            }
            ("example.com", "v1beta1", "widgets") => {
                ::std::result::Result::Ok(
                    ::kube_informers::GenericInformer::new(
                        gvr.clone(),
                        self.shop().v1beta1().widgets().informer(),
                    ),
                )
            }
            ("tools.example.org", "v2", "gadgets") => {
                ::std::result::Result::Ok(
                    ::kube_informers::GenericInformer::new(
                        gvr.clone(),
                        self.tools().v2().gadgets().informer(),
                    ),
                )
            }
            _ => {
                ::std::result::Result::Err(::kube_informers::generic::UnknownResource {
                    gvr: gvr.clone(),
                })
            }
        }
    }
    /// The informers of `example.com`.
    #[inline]
    pub fn shop(&self) -> shop::Group {
        shop::Group::new(self.factory.clone())
    }
    /// The informers of `tools.example.org`.
    #[inline]
    pub fn tools(&self) -> tools::Group {
        tools::Group::new(self.factory.clone())
    }
}
/// Typed clients of every resource of CustomResourceDefinitions, by group and version (client-go's `Clientset`): `clientset.<group>().<version>().<resources>(namespace)` is the runtime's `Api` of that resource in that namespace, `<resources>_all()` the same in every namespace, and `<resources>()` the `Api` of a cluster-scoped resource. Subresource methods (`update_status`, `get_scale`, ...) exist only where the resource has the subresource. Cheap to clone.
///
/// ```no_run
#[doc = concat!(" use ", module_path!(), "::Clientset;")]
/// # async fn run(client: ::kube_informers::Client) -> ::std::result::Result<(), ::kube_informers::Error> {
/// let clientset = Clientset::new(client);
/// let widgets = clientset.shop().v1().widgets("default");
/// let listed = widgets.list(&::kube_informers::ListOptions::default()).await?;
/// match widgets.get("example").await {
///     Ok(found) => println!("{:?}", found.metadata.name),
///     Err(e) if e.is_not_found() => println!("not there"),
///     Err(e) => return Err(e),
/// }
/// # let _ = listed;
/// # Ok(()) }
/// ```
#[derive(Clone)]
#[allow(dead_code)]
pub struct Clientset {
    client: ::kube_informers::Client,
}
#[allow(dead_code)]
impl Clientset {
    /// The clientset over `client` (its server, credentials and default namespace).
    #[inline]
    pub fn new(client: ::kube_informers::Client) -> Self {
        Self { client }
    }
    /// The typed clients of `example.com`.
    #[inline]
    pub fn shop(&self) -> shop::ClientsetGroup {
        shop::ClientsetGroup::new(self.client.clone())
    }
    /// The typed clients of `tools.example.org`.
    #[inline]
    pub fn tools(&self) -> tools::ClientsetGroup {
        tools::ClientsetGroup::new(self.client.clone())
    }
}
/// Metadata-only informers of every resource of CustomResourceDefinitions, by group and version: `metadata_factory.<group>().<version>().<resources>()` is the factory's `typed::<Kind>()` informer, caching only each object's `ObjectMeta` (`PartialObjectMeta<Kind>`), the same informer on every call.
///
/// Implemented for the runtime's `MetadataSharedInformerFactory`; bring it into scope to use the accessors.
#[allow(dead_code)]
pub trait MetadataGroups {
    /// The metadata-only informers of `example.com`.
    fn shop(&self) -> shop::MetadataGroup;
    /// The metadata-only informers of `tools.example.org`.
    fn tools(&self) -> tools::MetadataGroup;
}
#[allow(dead_code)]
impl MetadataGroups for ::kube_informers::MetadataSharedInformerFactory {
    #[inline]
    fn shop(&self) -> shop::MetadataGroup {
        shop::MetadataGroup::new(self.clone())
    }
    #[inline]
    fn tools(&self) -> tools::MetadataGroup {
        tools::MetadataGroup::new(self.clone())
    }
}
/// Informers of example.com.
#[allow(dead_code)]
pub mod shop {
    /// The informers of example.com in a factory, by version.
    #[derive(Clone)]
    pub struct Group {
        factory: ::kube_informers::SharedInformerFactoryCore,
    }
    impl Group {
        /// The accessor over `factory`.
        #[inline]
        pub fn new(factory: ::kube_informers::SharedInformerFactoryCore) -> Self {
            Self { factory }
        }
        /// The informers of version v1.
        #[inline]
        pub fn v1(&self) -> v1::Version {
            v1::Version::new(self.factory.clone())
        }
        /// The informers of version v1beta1.
        #[inline]
        pub fn v1beta1(&self) -> v1beta1::Version {
            v1beta1::Version::new(self.factory.clone())
        }
    }
    /// The typed clients of example.com, by version.
    #[derive(Clone)]
    pub struct ClientsetGroup {
        client: ::kube_informers::Client,
    }
    impl ClientsetGroup {
        /// The accessor over `client`.
        #[inline]
        pub fn new(client: ::kube_informers::Client) -> Self {
            Self { client }
        }
        /// The typed clients of version v1.
        #[inline]
        pub fn v1(&self) -> v1::ClientsetVersion {
            v1::ClientsetVersion::new(self.client.clone())
        }
        /// The typed clients of version v1beta1.
        #[inline]
        pub fn v1beta1(&self) -> v1beta1::ClientsetVersion {
            v1beta1::ClientsetVersion::new(self.client.clone())
        }
    }
    /// The metadata-only informers of example.com in a `MetadataSharedInformerFactory`, by version.
    #[derive(Clone, Debug)]
    pub struct MetadataGroup {
        factory: ::kube_informers::MetadataSharedInformerFactory,
    }
    impl MetadataGroup {
        /// The accessor over `factory`.
        #[inline]
        pub fn new(factory: ::kube_informers::MetadataSharedInformerFactory) -> Self {
            Self { factory }
        }
        /// The metadata-only informers of version v1.
        #[inline]
        pub fn v1(&self) -> v1::MetadataVersion {
            v1::MetadataVersion::new(self.factory.clone())
        }
        /// The metadata-only informers of version v1beta1.
        #[inline]
        pub fn v1beta1(&self) -> v1beta1::MetadataVersion {
            v1beta1::MetadataVersion::new(self.factory.clone())
        }
    }
    /// Informers of example.com/v1.
    pub mod v1 {
        /// The informers of example.com/v1 in a factory (client-go's `example.com/v1` `Interface`).
        #[derive(Clone)]
        pub struct Version {
            factory: ::kube_informers::SharedInformerFactoryCore,
        }
        impl Version {
            /// The accessor over `factory`.
            #[inline]
            pub fn new(factory: ::kube_informers::SharedInformerFactoryCore) -> Self {
                Self { factory }
            }
            /// The shared informer of Widget objects (example.com/v1, kind Widget), registered in the factory on the first call (so `start()` and `wait_for_cache_sync()` include it), the same on every later call.
            #[inline]
            pub fn widgets(&self) -> WidgetInformer {
                WidgetInformer::new(self.factory.clone())
            }
        }
        /// The typed clients of example.com/v1, one accessor per resource.
        #[derive(Clone)]
        pub struct ClientsetVersion {
            client: ::kube_informers::Client,
        }
        impl ClientsetVersion {
            /// The accessor over `client`.
            #[inline]
            pub fn new(client: ::kube_informers::Client) -> Self {
                Self { client }
            }
            /// The typed client of [`Widget`](crate::crds::example_com::v1::Widget) objects (example.com/v1, kind Widget) in `namespace`. With the status and scale subresources (`get_status`, `update_status`, `patch_status`, `get_scale`, `update_scale`, `patch_scale`).
            #[inline]
            pub fn widgets(
                &self,
                namespace: &str,
            ) -> ::kube_informers::api::Api<
                crate::crds::example_com::v1::Widget,
                ::kube_informers::api::StatusAndScale,
            > {
                ::kube_informers::api::Api::namespaced(self.client.clone(), namespace)
            }
            /// The typed client of [`Widget`](crate::crds::example_com::v1::Widget) objects (example.com/v1, kind Widget) in every namespace: list, watch and delete_collection span all namespaces, create and update take the object's namespace, by-name calls need [`Self::widgets`]. With the status and scale subresources (`get_status`, `update_status`, `patch_status`, `get_scale`, `update_scale`, `patch_scale`).
            #[inline]
            pub fn widgets_all(
                &self,
            ) -> ::kube_informers::api::Api<
                crate::crds::example_com::v1::Widget,
                ::kube_informers::api::StatusAndScale,
            > {
                ::kube_informers::api::Api::all(self.client.clone())
            }
        }
        /// The metadata-only informers of example.com/v1 in a `MetadataSharedInformerFactory`.
        #[derive(Clone, Debug)]
        pub struct MetadataVersion {
            factory: ::kube_informers::MetadataSharedInformerFactory,
        }
        impl MetadataVersion {
            /// The accessor over `factory`.
            #[inline]
            pub fn new(
                factory: ::kube_informers::MetadataSharedInformerFactory,
            ) -> Self {
                Self { factory }
            }
            /// The metadata-only informer of [`Widget`](crate::crds::example_com::v1::Widget) objects (example.com/v1, kind Widget): `PartialObjectMeta<Widget>`, made on the first call, the same on every later call (`metadata::typed::<Widget>()` in the factory).
            #[inline]
            pub fn widgets(
                &self,
            ) -> ::kube_informers::metadata::MetadataInformer<
                crate::crds::example_com::v1::Widget,
            > {
                ::kube_informers::dynamic::ResourceInformer::from_factory(
                    ::kube_informers::InformerFactory::factory_core(&self.factory),
                    ::kube_informers::metadata::typed::<
                        crate::crds::example_com::v1::Widget,
                    >(),
                )
            }
        }
        /// The shared informer of [`Widget`](crate::crds::example_com::v1::Widget) objects (example.com/v1, kind Widget) in a factory (client-go's `WidgetInformer`).
        ///
        /// A Widget is a configurable gadget.
        #[derive(Clone)]
        pub struct WidgetInformer {
            ask: ::kube_informers::InformerAsk<crate::crds::example_com::v1::Widget>,
        }
        impl WidgetInformer {
            /// The Widget informer of `factory`, asked for there (as `example.com/v1/widgets`), so that the factory's `start()` and `wait_for_cache_sync()` include it; built on first use (or when the factory starts), the same informer on every later call (what the version accessor returns).
            #[inline]
            pub fn new(factory: ::kube_informers::SharedInformerFactoryCore) -> Self {
                Self {
                    ask: ::kube_informers::InformerAsk::new(
                        factory,
                        ::kube_informers::source::typed::<
                            crate::crds::example_com::v1::Widget,
                        >(),
                    ),
                }
            }
            /// The factory's shared informer of Widget objects, registered as `example.com/v1/widgets`.
            #[inline]
            pub fn informer(
                &self,
            ) -> ::kube_informers::SharedIndexInformer<
                crate::crds::example_com::v1::Widget,
            > {
                self.ask.informer()
            }
            /// A lister reading the shared Widget informer's cache.
            #[inline]
            pub fn lister(&self) -> WidgetLister {
                WidgetLister::new(self.ask.informer().indexer())
            }
            /// The factory's shared informer of the projection `V` of Widget objects: a struct of your own with only the fields you read (declared with `informer_runtime::projection!(View => Widget)`), decoded straight from the list and watch bytes, cached and indexed instead of whole Widget objects. One informer per view type, registered as `example.com/v1/widgets as <V>` on the first call and listing and watching as the Widget informer does (the factory's namespace, `tweak_list_options`, resync and transforms apply). Asking for the projection does not build the full Widget informer.
            #[inline]
            pub fn projected<
                V: ::kube_informers::Projection<
                        Of = crate::crds::example_com::v1::Widget,
                    >,
            >(self) -> ::kube_informers::ProjectedInformer<V> {
                self.ask.projected()
            }
        }
        /// A new, unshared informer of [`Widget`](crate::crds::example_com::v1::Widget) objects (example.com/v1, kind Widget) in `namespace` (every namespace when `None`) (client-go's `NewWidgetInformer`).
        ///
        /// Prefer the factory's shared informer; this one is for callers that need their own.
        #[inline]
        pub fn new_widget_informer(
            client: ::kube_informers::Client,
            namespace: ::std::option::Option<&str>,
            resync: ::std::time::Duration,
            indexers: ::kube_informers::Indexers<crate::crds::example_com::v1::Widget>,
        ) -> ::kube_informers::SharedIndexInformer<
            crate::crds::example_com::v1::Widget,
        > {
            new_filtered_widget_informer(
                client,
                namespace,
                resync,
                indexers,
                ::std::option::Option::None,
            )
        }
        /// A new, unshared informer of [`Widget`](crate::crds::example_com::v1::Widget) objects (example.com/v1, kind Widget) in `namespace` (every namespace when `None`), whose list and watch requests are first edited by `tweak_list_options` (client-go's `NewFilteredWidgetInformer`). It lists and watches through the clientset's typed client of Widget objects, as client-go's does.
        #[inline]
        pub fn new_filtered_widget_informer(
            client: ::kube_informers::Client,
            namespace: ::std::option::Option<&str>,
            resync: ::std::time::Duration,
            indexers: ::kube_informers::Indexers<crate::crds::example_com::v1::Widget>,
            tweak_list_options: ::std::option::Option<::kube_informers::TweakListOptions>,
        ) -> ::kube_informers::SharedIndexInformer<
            crate::crds::example_com::v1::Widget,
        > {
            let mut options = ::kube_informers::InformerOptions::default()
                .resync(resync)
                .indexers(indexers);
            options.tweak_list_options = tweak_list_options;
            ::kube_informers::new_informer(
                &client,
                &::kube_informers::source::typed::<
                    crate::crds::example_com::v1::Widget,
                >(),
                namespace,
                options,
            )
        }
        /// Reads [`Widget`](crate::crds::example_com::v1::Widget) objects (example.com/v1, kind Widget) from an informer's cache (client-go's `WidgetLister`).
        ///
        /// A Widget is a configurable gadget.
        #[derive(Clone)]
        pub struct WidgetLister {
            lister: ::kube_informers::Lister<crate::crds::example_com::v1::Widget>,
        }
        impl WidgetLister {
            /// A lister of Widget objects over `indexer` (usually an informer's).
            #[inline]
            pub fn new(
                indexer: ::kube_informers::Indexer<crate::crds::example_com::v1::Widget>,
            ) -> Self {
                Self {
                    lister: ::kube_informers::Lister::new(indexer),
                }
            }
            /// Every Widget (example.com/v1, kind Widget) in the cache matching `selector`, in every namespace.
            #[inline]
            pub fn list(
                &self,
                selector: &::kube_informers::Selector,
            ) -> ::std::vec::Vec<
                ::std::sync::Arc<crate::crds::example_com::v1::Widget>,
            > {
                self.lister.list(selector)
            }
        }
        impl WidgetLister {
            /// A lister of the Widget objects (example.com/v1, kind Widget) in one namespace.
            #[inline]
            pub fn widgets(&self, namespace: &str) -> WidgetNamespaceLister {
                WidgetNamespaceLister {
                    lister: self.lister.namespaced(namespace),
                }
            }
        }
        /// Reads [`Widget`](crate::crds::example_com::v1::Widget) objects (example.com/v1, kind Widget) of one namespace from an informer's cache (client-go's `WidgetNamespaceLister`).
        pub struct WidgetNamespaceLister {
            lister: ::kube_informers::NamespaceLister<
                crate::crds::example_com::v1::Widget,
            >,
        }
        impl WidgetNamespaceLister {
            /// Every Widget in this namespace matching `selector`.
            #[inline]
            pub fn list(
                &self,
                selector: &::kube_informers::Selector,
            ) -> ::std::vec::Vec<
                ::std::sync::Arc<crate::crds::example_com::v1::Widget>,
            > {
                self.lister.list(selector)
            }
            /// The Widget named `name` in this namespace, if cached.
            #[inline]
            pub fn get(
                &self,
                name: &str,
            ) -> ::std::option::Option<
                ::std::sync::Arc<crate::crds::example_com::v1::Widget>,
            > {
                self.lister.get(name)
            }
        }
    }
    /// Informers of example.com/v1beta1.
    pub mod v1beta1 {
        /// The informers of example.com/v1beta1 in a factory (client-go's `example.com/v1beta1` `Interface`).
        #[derive(Clone)]
        pub struct Version {
            factory: ::kube_informers::SharedInformerFactoryCore,
        }
        impl Version {
            /// The accessor over `factory`.
            #[inline]
            pub fn new(factory: ::kube_informers::SharedInformerFactoryCore) -> Self {
                Self { factory }
            }
            /// The shared informer of Widget objects (example.com/v1beta1, kind Widget), registered in the factory on the first call (so `start()` and `wait_for_cache_sync()` include it), the same on every later call.
            #[inline]
            pub fn widgets(&self) -> WidgetInformer {
                WidgetInformer::new(self.factory.clone())
            }
        }
        /// The typed clients of example.com/v1beta1, one accessor per resource.
        #[derive(Clone)]
        pub struct ClientsetVersion {
            client: ::kube_informers::Client,
        }
        impl ClientsetVersion {
            /// The accessor over `client`.
            #[inline]
            pub fn new(client: ::kube_informers::Client) -> Self {
                Self { client }
            }
            /// The typed client of [`Widget`](crate::crds::example_com::v1beta1::Widget) objects (example.com/v1beta1, kind Widget) in `namespace`. No status or scale subresource.
            #[inline]
            pub fn widgets(
                &self,
                namespace: &str,
            ) -> ::kube_informers::api::Api<
                crate::crds::example_com::v1beta1::Widget,
                ::kube_informers::api::NoSubresources,
            > {
                ::kube_informers::api::Api::namespaced(self.client.clone(), namespace)
            }
            /// The typed client of [`Widget`](crate::crds::example_com::v1beta1::Widget) objects (example.com/v1beta1, kind Widget) in every namespace: list, watch and delete_collection span all namespaces, create and update take the object's namespace, by-name calls need [`Self::widgets`]. No status or scale subresource.
            #[inline]
            pub fn widgets_all(
                &self,
            ) -> ::kube_informers::api::Api<
                crate::crds::example_com::v1beta1::Widget,
                ::kube_informers::api::NoSubresources,
            > {
                ::kube_informers::api::Api::all(self.client.clone())
            }
        }
        /// The metadata-only informers of example.com/v1beta1 in a `MetadataSharedInformerFactory`.
        #[derive(Clone, Debug)]
        pub struct MetadataVersion {
            factory: ::kube_informers::MetadataSharedInformerFactory,
        }
        impl MetadataVersion {
            /// The accessor over `factory`.
            #[inline]
            pub fn new(
                factory: ::kube_informers::MetadataSharedInformerFactory,
            ) -> Self {
                Self { factory }
            }
            /// The metadata-only informer of [`Widget`](crate::crds::example_com::v1beta1::Widget) objects (example.com/v1beta1, kind Widget): `PartialObjectMeta<Widget>`, made on the first call, the same on every later call (`metadata::typed::<Widget>()` in the factory).
            #[inline]
            pub fn widgets(
                &self,
            ) -> ::kube_informers::metadata::MetadataInformer<
                crate::crds::example_com::v1beta1::Widget,
            > {
                ::kube_informers::dynamic::ResourceInformer::from_factory(
                    ::kube_informers::InformerFactory::factory_core(&self.factory),
                    ::kube_informers::metadata::typed::<
                        crate::crds::example_com::v1beta1::Widget,
                    >(),
                )
            }
        }
        /// The shared informer of [`Widget`](crate::crds::example_com::v1beta1::Widget) objects (example.com/v1beta1, kind Widget) in a factory (client-go's `WidgetInformer`).
        ///
        /// Custom resource 'example.com/v1beta1' 'Widget' ('widgets', namespaced), from CRD 'widgets.example.com'.
        #[derive(Clone)]
        pub struct WidgetInformer {
            ask: ::kube_informers::InformerAsk<
                crate::crds::example_com::v1beta1::Widget,
            >,
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
                V: ::kube_informers::Projection<
                        Of = crate::crds::example_com::v1beta1::Widget,
                    >,
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
            indexers: ::kube_informers::Indexers<
                crate::crds::example_com::v1beta1::Widget,
            >,
        ) -> ::kube_informers::SharedIndexInformer<
            crate::crds::example_com::v1beta1::Widget,
        > {
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
            indexers: ::kube_informers::Indexers<
                crate::crds::example_com::v1beta1::Widget,
            >,
            tweak_list_options: ::std::option::Option<::kube_informers::TweakListOptions>,
        ) -> ::kube_informers::SharedIndexInformer<
            crate::crds::example_com::v1beta1::Widget,
        > {
            let mut options = ::kube_informers::InformerOptions::default()
                .resync(resync)
                .indexers(indexers);
            options.tweak_list_options = tweak_list_options;
            ::kube_informers::new_informer(
                &client,
                &::kube_informers::source::typed::<
                    crate::crds::example_com::v1beta1::Widget,
                >(),
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
                indexer: ::kube_informers::Indexer<
                    crate::crds::example_com::v1beta1::Widget,
                >,
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
            ) -> ::std::vec::Vec<
                ::std::sync::Arc<crate::crds::example_com::v1beta1::Widget>,
            > {
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
            lister: ::kube_informers::NamespaceLister<
                crate::crds::example_com::v1beta1::Widget,
            >,
        }
        impl WidgetNamespaceLister {
            /// Every Widget in this namespace matching `selector`.
            #[inline]
            pub fn list(
                &self,
                selector: &::kube_informers::Selector,
            ) -> ::std::vec::Vec<
                ::std::sync::Arc<crate::crds::example_com::v1beta1::Widget>,
            > {
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
    }
}
/// Informers of tools.example.org.
#[allow(dead_code)]
pub mod tools {
    /// The informers of tools.example.org in a factory, by version.
    #[derive(Clone)]
    pub struct Group {
        factory: ::kube_informers::SharedInformerFactoryCore,
    }
    impl Group {
        /// The accessor over `factory`.
        #[inline]
        pub fn new(factory: ::kube_informers::SharedInformerFactoryCore) -> Self {
            Self { factory }
        }
        /// The informers of version v2.
        #[inline]
        pub fn v2(&self) -> v2::Version {
            v2::Version::new(self.factory.clone())
        }
    }
    /// The typed clients of tools.example.org, by version.
    #[derive(Clone)]
    pub struct ClientsetGroup {
        client: ::kube_informers::Client,
    }
    impl ClientsetGroup {
        /// The accessor over `client`.
        #[inline]
        pub fn new(client: ::kube_informers::Client) -> Self {
            Self { client }
        }
        /// The typed clients of version v2.
        #[inline]
        pub fn v2(&self) -> v2::ClientsetVersion {
            v2::ClientsetVersion::new(self.client.clone())
        }
    }
    /// The metadata-only informers of tools.example.org in a `MetadataSharedInformerFactory`, by version.
    #[derive(Clone, Debug)]
    pub struct MetadataGroup {
        factory: ::kube_informers::MetadataSharedInformerFactory,
    }
    impl MetadataGroup {
        /// The accessor over `factory`.
        #[inline]
        pub fn new(factory: ::kube_informers::MetadataSharedInformerFactory) -> Self {
            Self { factory }
        }
        /// The metadata-only informers of version v2.
        #[inline]
        pub fn v2(&self) -> v2::MetadataVersion {
            v2::MetadataVersion::new(self.factory.clone())
        }
    }
    /// Informers of tools.example.org/v2.
    pub mod v2 {
        /// The informers of tools.example.org/v2 in a factory (client-go's `tools.example.org/v2` `Interface`).
        #[derive(Clone)]
        pub struct Version {
            factory: ::kube_informers::SharedInformerFactoryCore,
        }
        impl Version {
            /// The accessor over `factory`.
            #[inline]
            pub fn new(factory: ::kube_informers::SharedInformerFactoryCore) -> Self {
                Self { factory }
            }
            /// The shared informer of Gadget objects (tools.example.org/v2, kind Gadget), registered in the factory on the first call (so `start()` and `wait_for_cache_sync()` include it), the same on every later call.
            #[inline]
            pub fn gadgets(&self) -> GadgetInformer {
                GadgetInformer::new(self.factory.clone())
            }
        }
        /// The typed clients of tools.example.org/v2, one accessor per resource.
        #[derive(Clone)]
        pub struct ClientsetVersion {
            client: ::kube_informers::Client,
        }
        impl ClientsetVersion {
            /// The accessor over `client`.
            #[inline]
            pub fn new(client: ::kube_informers::Client) -> Self {
                Self { client }
            }
            /// The typed client of [`Gadget`](crate::crds::tools_example_org::v2::Gadget) objects (tools.example.org/v2, kind Gadget), cluster-scoped. No status or scale subresource.
            #[inline]
            pub fn gadgets(
                &self,
            ) -> ::kube_informers::api::Api<
                crate::crds::tools_example_org::v2::Gadget,
                ::kube_informers::api::NoSubresources,
            > {
                ::kube_informers::api::Api::all(self.client.clone())
            }
        }
        /// The metadata-only informers of tools.example.org/v2 in a `MetadataSharedInformerFactory`.
        #[derive(Clone, Debug)]
        pub struct MetadataVersion {
            factory: ::kube_informers::MetadataSharedInformerFactory,
        }
        impl MetadataVersion {
            /// The accessor over `factory`.
            #[inline]
            pub fn new(
                factory: ::kube_informers::MetadataSharedInformerFactory,
            ) -> Self {
                Self { factory }
            }
            /// The metadata-only informer of [`Gadget`](crate::crds::tools_example_org::v2::Gadget) objects (tools.example.org/v2, kind Gadget): `PartialObjectMeta<Gadget>`, made on the first call, the same on every later call (`metadata::typed::<Gadget>()` in the factory).
            #[inline]
            pub fn gadgets(
                &self,
            ) -> ::kube_informers::metadata::MetadataInformer<
                crate::crds::tools_example_org::v2::Gadget,
            > {
                ::kube_informers::dynamic::ResourceInformer::from_factory(
                    ::kube_informers::InformerFactory::factory_core(&self.factory),
                    ::kube_informers::metadata::typed::<
                        crate::crds::tools_example_org::v2::Gadget,
                    >(),
                )
            }
        }
        /// The shared informer of [`Gadget`](crate::crds::tools_example_org::v2::Gadget) objects (tools.example.org/v2, kind Gadget) in a factory (client-go's `GadgetInformer`).
        ///
        /// Custom resource 'tools.example.org/v2' 'Gadget' ('gadgets', cluster-scoped), from CRD 'gadgets.tools.example.org'.
        #[derive(Clone)]
        pub struct GadgetInformer {
            ask: ::kube_informers::InformerAsk<
                crate::crds::tools_example_org::v2::Gadget,
            >,
        }
        impl GadgetInformer {
            /// The Gadget informer of `factory`, asked for there (as `tools.example.org/v2/gadgets`), so that the factory's `start()` and `wait_for_cache_sync()` include it; built on first use (or when the factory starts), the same informer on every later call (what the version accessor returns).
            #[inline]
            pub fn new(factory: ::kube_informers::SharedInformerFactoryCore) -> Self {
                Self {
                    ask: ::kube_informers::InformerAsk::new(
                        factory,
                        ::kube_informers::source::typed::<
                            crate::crds::tools_example_org::v2::Gadget,
                        >(),
                    ),
                }
            }
            /// The factory's shared informer of Gadget objects, registered as `tools.example.org/v2/gadgets`.
            #[inline]
            pub fn informer(
                &self,
            ) -> ::kube_informers::SharedIndexInformer<
                crate::crds::tools_example_org::v2::Gadget,
            > {
                self.ask.informer()
            }
            /// A lister reading the shared Gadget informer's cache.
            #[inline]
            pub fn lister(&self) -> GadgetLister {
                GadgetLister::new(self.ask.informer().indexer())
            }
            /// The factory's shared informer of the projection `V` of Gadget objects: a struct of your own with only the fields you read (declared with `informer_runtime::projection!(View => Gadget)`), decoded straight from the list and watch bytes, cached and indexed instead of whole Gadget objects. One informer per view type, registered as `tools.example.org/v2/gadgets as <V>` on the first call and listing and watching as the Gadget informer does (the factory's namespace, `tweak_list_options`, resync and transforms apply). Asking for the projection does not build the full Gadget informer.
            #[inline]
            pub fn projected<
                V: ::kube_informers::Projection<
                        Of = crate::crds::tools_example_org::v2::Gadget,
                    >,
            >(self) -> ::kube_informers::ProjectedInformer<V> {
                self.ask.projected()
            }
        }
        /// A new, unshared informer of [`Gadget`](crate::crds::tools_example_org::v2::Gadget) objects (tools.example.org/v2, kind Gadget) (cluster-scoped) (client-go's `NewGadgetInformer`).
        ///
        /// Prefer the factory's shared informer; this one is for callers that need their own.
        #[inline]
        pub fn new_gadget_informer(
            client: ::kube_informers::Client,
            resync: ::std::time::Duration,
            indexers: ::kube_informers::Indexers<
                crate::crds::tools_example_org::v2::Gadget,
            >,
        ) -> ::kube_informers::SharedIndexInformer<
            crate::crds::tools_example_org::v2::Gadget,
        > {
            new_filtered_gadget_informer(
                client,
                resync,
                indexers,
                ::std::option::Option::None,
            )
        }
        /// A new, unshared informer of [`Gadget`](crate::crds::tools_example_org::v2::Gadget) objects (tools.example.org/v2, kind Gadget) (cluster-scoped), whose list and watch requests are first edited by `tweak_list_options` (client-go's `NewFilteredGadgetInformer`). It lists and watches through the clientset's typed client of Gadget objects, as client-go's does.
        #[inline]
        pub fn new_filtered_gadget_informer(
            client: ::kube_informers::Client,
            resync: ::std::time::Duration,
            indexers: ::kube_informers::Indexers<
                crate::crds::tools_example_org::v2::Gadget,
            >,
            tweak_list_options: ::std::option::Option<::kube_informers::TweakListOptions>,
        ) -> ::kube_informers::SharedIndexInformer<
            crate::crds::tools_example_org::v2::Gadget,
        > {
            let mut options = ::kube_informers::InformerOptions::default()
                .resync(resync)
                .indexers(indexers);
            options.tweak_list_options = tweak_list_options;
            ::kube_informers::new_informer(
                &client,
                &::kube_informers::source::typed::<
                    crate::crds::tools_example_org::v2::Gadget,
                >(),
                ::std::option::Option::None,
                options,
            )
        }
        /// Reads [`Gadget`](crate::crds::tools_example_org::v2::Gadget) objects (tools.example.org/v2, kind Gadget) from an informer's cache (client-go's `GadgetLister`).
        ///
        /// Custom resource 'tools.example.org/v2' 'Gadget' ('gadgets', cluster-scoped), from CRD 'gadgets.tools.example.org'.
        #[derive(Clone)]
        pub struct GadgetLister {
            lister: ::kube_informers::Lister<crate::crds::tools_example_org::v2::Gadget>,
        }
        impl GadgetLister {
            /// A lister of Gadget objects over `indexer` (usually an informer's).
            #[inline]
            pub fn new(
                indexer: ::kube_informers::Indexer<
                    crate::crds::tools_example_org::v2::Gadget,
                >,
            ) -> Self {
                Self {
                    lister: ::kube_informers::Lister::new(indexer),
                }
            }
            /// Every Gadget (tools.example.org/v2, kind Gadget) in the cache matching `selector`.
            #[inline]
            pub fn list(
                &self,
                selector: &::kube_informers::Selector,
            ) -> ::std::vec::Vec<
                ::std::sync::Arc<crate::crds::tools_example_org::v2::Gadget>,
            > {
                self.lister.list(selector)
            }
        }
        impl GadgetLister {
            /// The Gadget named `name`, if cached.
            #[inline]
            pub fn get(
                &self,
                name: &str,
            ) -> ::std::option::Option<
                ::std::sync::Arc<crate::crds::tools_example_org::v2::Gadget>,
            > {
                self.lister.get(name)
            }
        }
    }
}
/// Custom resources of API group `example.com`.
#[allow(dead_code)]
pub mod example_com {
    /// `example.com/v1`: `Widget`.
    pub mod v1 {
        /// A Widget is a configurable gadget.
        ///
        /// Validation rule: `self.metadata.name.size() <= 40` — the name has at most 40 characters
        ///
        /// Custom resource `example.com/v1` `Widget` (`widgets`, namespaced), from CRD `widgets.example.com`.
        ///
        /// This is the storage version.
        ///
        /// Subresources: `scale`, `status`.
        #[derive(Clone, Debug, PartialEq, ::kube_informers::serde::Deserialize)]
        #[serde(crate = "::kube_informers::serde")]
        pub struct Widget {
            /// Standard object metadata.
            #[serde(default)]
            pub metadata: ::kube_informers::k8s_openapi::apimachinery::pkg::apis::meta::v1::ObjectMeta,
            /// Desired state of the widget.
            /// - first point
            ///   continues here
            ///
            /// Validation rule: `!has(self.replicas) || self.replicas <= self.size` — replicas must not exceed size
            pub spec: WidgetSpec,
            /// Field `status`.
            #[serde(default, skip_serializing_if = "::std::option::Option::is_none")]
            pub status: ::std::option::Option<WidgetStatus>,
        }
        impl ::kube_informers::k8s_openapi::Resource for Widget {
            const API_VERSION: &'static str = "example.com/v1";
            const GROUP: &'static str = "example.com";
            const KIND: &'static str = "Widget";
            const VERSION: &'static str = "v1";
            const URL_PATH_SEGMENT: &'static str = "widgets";
            type Scope = ::kube_informers::k8s_openapi::NamespaceResourceScope;
        }
        impl ::kube_informers::k8s_openapi::ListableResource for Widget {
            const LIST_KIND: &'static str = "WidgetList";
        }
        impl ::kube_informers::k8s_openapi::Metadata for Widget {
            type Ty = ::kube_informers::k8s_openapi::apimachinery::pkg::apis::meta::v1::ObjectMeta;
            fn metadata(&self) -> &Self::Ty {
                &self.metadata
            }
            fn metadata_mut(&mut self) -> &mut Self::Ty {
                &mut self.metadata
            }
        }
        /// Writes `apiVersion` and `kind` first, like the built-in k8s-openapi types.
        impl ::kube_informers::serde::Serialize for Widget {
            fn serialize<S: ::kube_informers::serde::Serializer>(
                &self,
                serializer: S,
            ) -> ::std::result::Result<S::Ok, S::Error> {
                use ::kube_informers::serde::ser::SerializeMap as _;
                let mut map = serializer.serialize_map(::std::option::Option::None)?;
                map.serialize_entry(
                    "apiVersion",
                    <Self as ::kube_informers::k8s_openapi::Resource>::API_VERSION,
                )?;
                map.serialize_entry(
                    "kind",
                    <Self as ::kube_informers::k8s_openapi::Resource>::KIND,
                )?;
                map.serialize_entry("metadata", &self.metadata)?;
                map.serialize_entry("spec", &self.spec)?;
                if let ::std::option::Option::Some(value) = &self.status {
                    map.serialize_entry("status", value)?;
                }
                map.end()
            }
        }
        /// The apply configuration of [`Widget`]: every field optional, only the set ones sent; `new` sets what every apply needs.
        #[derive(Clone, Debug, Default, PartialEq, ::kube_informers::serde::Serialize)]
        #[serde(crate = "::kube_informers::serde")]
        pub struct WidgetApply {
            /// `apiVersion`: set by `new`.
            #[serde(
                rename = "apiVersion",
                default,
                skip_serializing_if = "Option::is_none"
            )]
            pub api_version: ::core::option::Option<::std::string::String>,
            /// `kind`: set by `new`.
            #[serde(rename = "kind", default, skip_serializing_if = "Option::is_none")]
            pub kind: ::core::option::Option<::std::string::String>,
            /// `metadata`: the name (and namespace) set by `new`, and what else this apply
            /// sets of the object's metadata.
            #[serde(
                rename = "metadata",
                default,
                skip_serializing_if = "Option::is_none"
            )]
            pub metadata: ::core::option::Option<
                ::kube_informers::apply::ObjectMetaApply,
            >,
            /// Desired state of the widget.
            /// - first point
            ///   continues here
            ///
            /// Validation rule: `!has(self.replicas) || self.replicas <= self.size` — replicas must not exceed size
            #[serde(rename = "spec", default, skip_serializing_if = "Option::is_none")]
            pub spec: ::core::option::Option<WidgetSpecApply>,
            /// Field `status`.
            #[serde(rename = "status", default, skip_serializing_if = "Option::is_none")]
            pub status: ::core::option::Option<WidgetStatusApply>,
        }
        impl<'de> ::kube_informers::serde::Deserialize<'de> for WidgetApply {
            fn deserialize<D: ::kube_informers::serde::Deserializer<'de>>(
                deserializer: D,
            ) -> ::core::result::Result<Self, D::Error> {
                let mut fields = <::kube_informers::apply::Fields as ::kube_informers::serde::Deserialize>::deserialize(
                    deserializer,
                )?;
                ::core::result::Result::Ok(Self {
                    api_version: fields.take("apiVersion")?,
                    kind: fields.take("kind")?,
                    metadata: fields.take("metadata")?,
                    spec: fields.take("spec")?,
                    status: fields.take("status")?,
                })
            }
        }
        impl WidgetApply {
            /// A `Widget` configuration of `name` in `namespace`, with `apiVersion` and `kind` set.
            #[inline]
            pub fn new(
                name: impl ::core::convert::Into<::std::string::String>,
                namespace: impl ::core::convert::Into<::std::string::String>,
            ) -> Self {
                Self {
                    api_version: ::core::option::Option::Some(
                        <Widget as ::kube_informers::k8s_openapi::Resource>::API_VERSION
                            .into(),
                    ),
                    kind: ::core::option::Option::Some(
                        <Widget as ::kube_informers::k8s_openapi::Resource>::KIND.into(),
                    ),
                    metadata: ::core::option::Option::Some(
                        ::kube_informers::apply::ObjectMetaApply::new()
                            .name(name)
                            .namespace(namespace),
                    ),
                    ..::core::default::Default::default()
                }
            }
            /// Adds `metadata.labels`.
            #[inline]
            #[must_use]
            pub fn labels(
                mut self,
                entries: impl ::core::iter::IntoIterator<
                    Item = (
                        impl ::core::convert::Into<::std::string::String>,
                        impl ::core::convert::Into<::std::string::String>,
                    ),
                >,
            ) -> Self {
                self.metadata = ::core::option::Option::Some(
                    self.metadata.take().unwrap_or_default().labels(entries),
                );
                self
            }
            /// Adds `metadata.annotations`.
            #[inline]
            #[must_use]
            pub fn annotations(
                mut self,
                entries: impl ::core::iter::IntoIterator<
                    Item = (
                        impl ::core::convert::Into<::std::string::String>,
                        impl ::core::convert::Into<::std::string::String>,
                    ),
                >,
            ) -> Self {
                self.metadata = ::core::option::Option::Some(
                    self.metadata.take().unwrap_or_default().annotations(entries),
                );
                self
            }
            /// Adds `metadata.ownerReferences`.
            #[inline]
            #[must_use]
            pub fn owner_references(
                mut self,
                values: impl ::core::iter::IntoIterator<
                    Item = ::kube_informers::apply::OwnerReferenceApply,
                >,
            ) -> Self {
                self.metadata = ::core::option::Option::Some(
                    self.metadata.take().unwrap_or_default().owner_references(values),
                );
                self
            }
            /// Adds `metadata.finalizers`.
            #[inline]
            #[must_use]
            pub fn finalizers(
                mut self,
                values: impl ::core::iter::IntoIterator<
                    Item = impl ::core::convert::Into<::std::string::String>,
                >,
            ) -> Self {
                self.metadata = ::core::option::Option::Some(
                    self.metadata.take().unwrap_or_default().finalizers(values),
                );
                self
            }
            /// Sets `spec`.
            #[inline]
            #[must_use]
            pub fn spec(mut self, value: WidgetSpecApply) -> Self {
                self.spec = ::core::option::Option::Some(value);
                self
            }
            /// Sets `status`.
            #[inline]
            #[must_use]
            pub fn status(mut self, value: WidgetStatusApply) -> Self {
                self.status = ::core::option::Option::Some(value);
                self
            }
        }
        impl ::kube_informers::apply::ApplyConfiguration for WidgetApply {
            type Resource = Widget;
        }
        /// The `Widget` configuration `field_manager` applied to `object`, read from its `managedFields` (client-go's `ExtractWidget`).
        #[inline]
        pub fn extract_widget(
            object: &Widget,
            field_manager: &str,
        ) -> ::core::result::Result<WidgetApply, ::kube_informers::apply::ExtractError> {
            ::kube_informers::apply::extract(object, field_manager, "")
        }
        /// The `Widget` status configuration `field_manager` applied through the `status` subresource (client-go's `ExtractWidgetStatus`).
        #[inline]
        pub fn extract_widget_status(
            object: &Widget,
            field_manager: &str,
        ) -> ::core::result::Result<WidgetApply, ::kube_informers::apply::ExtractError> {
            ::kube_informers::apply::extract(object, field_manager, "status")
        }
        /// Desired state of the widget.
        /// - first point
        ///   continues here
        #[derive(
            Clone,
            Debug,
            PartialEq,
            ::kube_informers::serde::Serialize,
            ::kube_informers::serde::Deserialize
        )]
        #[serde(crate = "::kube_informers::serde")]
        pub struct WidgetSpec {
            /// Field `config`.
            #[serde(default, skip_serializing_if = "::std::option::Option::is_none")]
            pub config: ::std::option::Option<::kube_informers::serde_json::Value>,
            /// Field `for`.
            #[serde(default, skip_serializing_if = "::std::option::Option::is_none")]
            pub r#for: ::std::option::Option<::std::string::String>,
            /// Free-form JSON: the `oneOf` branches of this schema share no single Rust type.
            #[serde(default, skip_serializing_if = "::std::option::Option::is_none")]
            pub free: ::std::option::Option<::kube_informers::serde_json::Value>,
            /// Field `hugepages-1Gi`.
            #[serde(
                rename = "hugepages-1Gi",
                default,
                skip_serializing_if = "::std::option::Option::is_none"
            )]
            pub hugepages_1gi: ::std::option::Option<
                ::kube_informers::k8s_openapi::apimachinery::pkg::util::intstr::IntOrString,
            >,
            /// Validation rule (each value): `self.size() <= 63`
            #[serde(default, skip_serializing_if = "::std::option::Option::is_none")]
            pub labels: ::std::option::Option<
                ::std::collections::BTreeMap<
                    ::std::string::String,
                    ::std::string::String,
                >,
            >,
            /// Field `matrix`.
            #[serde(default, skip_serializing_if = "::std::option::Option::is_none")]
            pub matrix: ::std::option::Option<
                ::std::vec::Vec<::std::vec::Vec<::std::string::String>>,
            >,
            /// Field `mode`.
            #[serde(default, skip_serializing_if = "::std::option::Option::is_none")]
            pub mode: ::std::option::Option<::std::string::String>,
            /// Field `port`.
            #[serde(default, skip_serializing_if = "::std::option::Option::is_none")]
            pub port: ::std::option::Option<
                ::kube_informers::k8s_openapi::apimachinery::pkg::util::intstr::IntOrString,
            >,
            /// Field `ratio`.
            #[serde(default, skip_serializing_if = "::std::option::Option::is_none")]
            pub ratio: ::std::option::Option<f64>,
            /// Validation rule: `!oldSelf.hasValue() || self >= oldSelf.value()` — replicas never decrease (`optionalOldSelf`: also checked on create)
            #[serde(default, skip_serializing_if = "::std::option::Option::is_none")]
            pub replicas: ::std::option::Option<i64>,
            /// Validation rule (each item): `self.name != ''` — names are not empty (reported at `.name`)
            #[serde(default, skip_serializing_if = "::std::option::Option::is_none")]
            pub rules: ::std::option::Option<::std::vec::Vec<WidgetSpecRules>>,
            /// Size in units.
            ///
            /// Default: `3`
            ///
            /// Validation rule: `self >= 0` — message: `self < -100 ? 'size is far below zero' : 'size is negative'` (reason `FieldValueForbidden`)
            pub size: i32,
            /// An embedded Kubernetes object (`apiVersion`, `kind`, `metadata`).
            #[serde(default, skip_serializing_if = "::std::option::Option::is_none")]
            pub template: ::std::option::Option<WidgetSpecTemplate>,
            /// The widget type.
            pub r#type: WidgetSpecType,
            /// Field `weight`.
            #[serde(default, skip_serializing_if = "::std::option::Option::is_none")]
            pub weight: ::std::option::Option<i64>,
        }
        /// The apply configuration of [`WidgetSpec`]: every field optional, only the set ones sent.
        #[derive(Clone, Debug, Default, PartialEq, ::kube_informers::serde::Serialize)]
        #[serde(crate = "::kube_informers::serde")]
        pub struct WidgetSpecApply {
            /// Field `config`.
            #[serde(rename = "config", default, skip_serializing_if = "Option::is_none")]
            pub config: ::core::option::Option<::kube_informers::serde_json::Value>,
            /// Field `for`.
            #[serde(rename = "for", default, skip_serializing_if = "Option::is_none")]
            pub r#for: ::core::option::Option<::std::string::String>,
            /// Free-form JSON: the `oneOf` branches of this schema share no single Rust type.
            #[serde(rename = "free", default, skip_serializing_if = "Option::is_none")]
            pub free: ::core::option::Option<::kube_informers::serde_json::Value>,
            /// Field `hugepages-1Gi`.
            #[serde(
                rename = "hugepages-1Gi",
                default,
                skip_serializing_if = "Option::is_none"
            )]
            pub hugepages_1gi: ::core::option::Option<
                ::kube_informers::k8s_openapi::apimachinery::pkg::util::intstr::IntOrString,
            >,
            /// Validation rule (each value): `self.size() <= 63`
            #[serde(rename = "labels", default, skip_serializing_if = "Option::is_none")]
            pub labels: ::core::option::Option<
                ::std::collections::BTreeMap<
                    ::std::string::String,
                    ::std::string::String,
                >,
            >,
            /// Field `matrix`.
            #[serde(rename = "matrix", default, skip_serializing_if = "Option::is_none")]
            pub matrix: ::core::option::Option<
                ::std::vec::Vec<::std::vec::Vec<::std::string::String>>,
            >,
            /// Field `mode`.
            #[serde(rename = "mode", default, skip_serializing_if = "Option::is_none")]
            pub mode: ::core::option::Option<::std::string::String>,
            /// Field `port`.
            #[serde(rename = "port", default, skip_serializing_if = "Option::is_none")]
            pub port: ::core::option::Option<
                ::kube_informers::k8s_openapi::apimachinery::pkg::util::intstr::IntOrString,
            >,
            /// Field `ratio`.
            #[serde(rename = "ratio", default, skip_serializing_if = "Option::is_none")]
            pub ratio: ::core::option::Option<f64>,
            /// Validation rule: `!oldSelf.hasValue() || self >= oldSelf.value()` — replicas never decrease (`optionalOldSelf`: also checked on create)
            #[serde(
                rename = "replicas",
                default,
                skip_serializing_if = "Option::is_none"
            )]
            pub replicas: ::core::option::Option<i64>,
            /// Validation rule (each item): `self.name != ''` — names are not empty (reported at `.name`)
            #[serde(rename = "rules", default, skip_serializing_if = "Option::is_none")]
            pub rules: ::core::option::Option<::std::vec::Vec<WidgetSpecRulesApply>>,
            /// Size in units.
            ///
            /// Default: `3`
            ///
            /// Validation rule: `self >= 0` — message: `self < -100 ? 'size is far below zero' : 'size is negative'` (reason `FieldValueForbidden`)
            #[serde(rename = "size", default, skip_serializing_if = "Option::is_none")]
            pub size: ::core::option::Option<i32>,
            /// An embedded Kubernetes object (`apiVersion`, `kind`, `metadata`).
            #[serde(
                rename = "template",
                default,
                skip_serializing_if = "Option::is_none"
            )]
            pub template: ::core::option::Option<WidgetSpecTemplateApply>,
            /// The widget type.
            #[serde(rename = "type", default, skip_serializing_if = "Option::is_none")]
            pub r#type: ::core::option::Option<WidgetSpecType>,
            /// Field `weight`.
            #[serde(rename = "weight", default, skip_serializing_if = "Option::is_none")]
            pub weight: ::core::option::Option<i64>,
        }
        impl<'de> ::kube_informers::serde::Deserialize<'de> for WidgetSpecApply {
            fn deserialize<D: ::kube_informers::serde::Deserializer<'de>>(
                deserializer: D,
            ) -> ::core::result::Result<Self, D::Error> {
                let mut fields = <::kube_informers::apply::Fields as ::kube_informers::serde::Deserialize>::deserialize(
                    deserializer,
                )?;
                ::core::result::Result::Ok(Self {
                    config: fields.take("config")?,
                    r#for: fields.take("for")?,
                    free: fields.take("free")?,
                    hugepages_1gi: fields.take("hugepages-1Gi")?,
                    labels: fields.take("labels")?,
                    matrix: fields.take("matrix")?,
                    mode: fields.take("mode")?,
                    port: fields.take("port")?,
                    ratio: fields.take("ratio")?,
                    replicas: fields.take("replicas")?,
                    rules: fields.take("rules")?,
                    size: fields.take("size")?,
                    template: fields.take("template")?,
                    r#type: fields.take("type")?,
                    weight: fields.take("weight")?,
                })
            }
        }
        impl WidgetSpecApply {
            /// A configuration with nothing set.
            #[inline]
            pub fn new() -> Self {
                ::core::default::Default::default()
            }
            /// Sets `config`.
            #[inline]
            #[must_use]
            pub fn config(mut self, value: ::kube_informers::serde_json::Value) -> Self {
                self.config = ::core::option::Option::Some(value);
                self
            }
            /// Sets `for`.
            #[inline]
            #[must_use]
            pub fn r#for(
                mut self,
                value: impl ::core::convert::Into<::std::string::String>,
            ) -> Self {
                self.r#for = ::core::option::Option::Some(value.into());
                self
            }
            /// Sets `free`.
            #[inline]
            #[must_use]
            pub fn free(mut self, value: ::kube_informers::serde_json::Value) -> Self {
                self.free = ::core::option::Option::Some(value);
                self
            }
            /// Sets `hugepages-1Gi`.
            #[inline]
            #[must_use]
            pub fn hugepages_1gi(
                mut self,
                value: ::kube_informers::k8s_openapi::apimachinery::pkg::util::intstr::IntOrString,
            ) -> Self {
                self.hugepages_1gi = ::core::option::Option::Some(value);
                self
            }
            /// Adds entries to `labels` (a key given again keeps its last value).
            #[inline]
            #[must_use]
            pub fn labels(
                mut self,
                entries: impl ::core::iter::IntoIterator<
                    Item = (
                        impl ::core::convert::Into<::std::string::String>,
                        impl ::core::convert::Into<::std::string::String>,
                    ),
                >,
            ) -> Self {
                self.labels
                    .get_or_insert_with(::std::collections::BTreeMap::new)
                    .extend(entries.into_iter().map(|(k, v)| (k.into(), v.into())));
                self
            }
            /// Adds items to `matrix`.
            #[inline]
            #[must_use]
            pub fn matrix(
                mut self,
                values: impl ::core::iter::IntoIterator<
                    Item = ::std::vec::Vec<::std::string::String>,
                >,
            ) -> Self {
                self.matrix.get_or_insert_with(::std::vec::Vec::new).extend(values);
                self
            }
            /// Sets `mode`.
            #[inline]
            #[must_use]
            pub fn mode(
                mut self,
                value: impl ::core::convert::Into<::std::string::String>,
            ) -> Self {
                self.mode = ::core::option::Option::Some(value.into());
                self
            }
            /// Sets `port`.
            #[inline]
            #[must_use]
            pub fn port(
                mut self,
                value: ::kube_informers::k8s_openapi::apimachinery::pkg::util::intstr::IntOrString,
            ) -> Self {
                self.port = ::core::option::Option::Some(value);
                self
            }
            /// Sets `ratio`.
            #[inline]
            #[must_use]
            pub fn ratio(mut self, value: f64) -> Self {
                self.ratio = ::core::option::Option::Some(value);
                self
            }
            /// Sets `replicas`.
            #[inline]
            #[must_use]
            pub fn replicas(mut self, value: i64) -> Self {
                self.replicas = ::core::option::Option::Some(value);
                self
            }
            /// Adds items to `rules`.
            #[inline]
            #[must_use]
            pub fn rules(
                mut self,
                values: impl ::core::iter::IntoIterator<Item = WidgetSpecRulesApply>,
            ) -> Self {
                self.rules.get_or_insert_with(::std::vec::Vec::new).extend(values);
                self
            }
            /// Sets `size`.
            #[inline]
            #[must_use]
            pub fn size(mut self, value: i32) -> Self {
                self.size = ::core::option::Option::Some(value);
                self
            }
            /// Sets `template`.
            #[inline]
            #[must_use]
            pub fn template(mut self, value: WidgetSpecTemplateApply) -> Self {
                self.template = ::core::option::Option::Some(value);
                self
            }
            /// Sets `type`.
            #[inline]
            #[must_use]
            pub fn r#type(mut self, value: WidgetSpecType) -> Self {
                self.r#type = ::core::option::Option::Some(value);
                self
            }
            /// Sets `weight`.
            #[inline]
            #[must_use]
            pub fn weight(mut self, value: i64) -> Self {
                self.weight = ::core::option::Option::Some(value);
                self
            }
        }
        /// Object at `spec.versions[0].schema.openAPIV3Schema.properties.spec.properties.rules.items`.
        #[derive(
            Clone,
            Debug,
            Default,
            PartialEq,
            ::kube_informers::serde::Serialize,
            ::kube_informers::serde::Deserialize
        )]
        #[serde(crate = "::kube_informers::serde")]
        pub struct WidgetSpecRules {
            /// Field `$ref`.
            #[serde(
                rename = "$ref",
                default,
                skip_serializing_if = "::std::option::Option::is_none"
            )]
            pub r#ref: ::std::option::Option<::std::string::String>,
            /// Field `name`.
            pub name: ::std::string::String,
            /// Field `nullableNote`.
            #[serde(
                rename = "nullableNote",
                default,
                skip_serializing_if = "::std::option::Option::is_none"
            )]
            pub nullable_note: ::std::option::Option<::std::string::String>,
        }
        /// The apply configuration of [`WidgetSpecRules`]: every field optional, only the set ones sent.
        #[derive(Clone, Debug, Default, PartialEq, ::kube_informers::serde::Serialize)]
        #[serde(crate = "::kube_informers::serde")]
        pub struct WidgetSpecRulesApply {
            /// Field `$ref`.
            #[serde(rename = "$ref", default, skip_serializing_if = "Option::is_none")]
            pub r#ref: ::core::option::Option<::std::string::String>,
            /// Field `name`.
            #[serde(rename = "name", default, skip_serializing_if = "Option::is_none")]
            pub name: ::core::option::Option<::std::string::String>,
            /// Field `nullableNote`.
            #[serde(
                rename = "nullableNote",
                default,
                skip_serializing_if = "Option::is_none"
            )]
            pub nullable_note: ::core::option::Option<::std::string::String>,
        }
        impl<'de> ::kube_informers::serde::Deserialize<'de> for WidgetSpecRulesApply {
            fn deserialize<D: ::kube_informers::serde::Deserializer<'de>>(
                deserializer: D,
            ) -> ::core::result::Result<Self, D::Error> {
                let mut fields = <::kube_informers::apply::Fields as ::kube_informers::serde::Deserialize>::deserialize(
                    deserializer,
                )?;
                ::core::result::Result::Ok(Self {
                    r#ref: fields.take("$ref")?,
                    name: fields.take("name")?,
                    nullable_note: fields.take("nullableNote")?,
                })
            }
        }
        impl WidgetSpecRulesApply {
            /// A configuration with nothing set.
            #[inline]
            pub fn new() -> Self {
                ::core::default::Default::default()
            }
            /// Sets `$ref`.
            #[inline]
            #[must_use]
            pub fn r#ref(
                mut self,
                value: impl ::core::convert::Into<::std::string::String>,
            ) -> Self {
                self.r#ref = ::core::option::Option::Some(value.into());
                self
            }
            /// Sets `name`.
            #[inline]
            #[must_use]
            pub fn name(
                mut self,
                value: impl ::core::convert::Into<::std::string::String>,
            ) -> Self {
                self.name = ::core::option::Option::Some(value.into());
                self
            }
            /// Sets `nullableNote`.
            #[inline]
            #[must_use]
            pub fn nullable_note(
                mut self,
                value: impl ::core::convert::Into<::std::string::String>,
            ) -> Self {
                self.nullable_note = ::core::option::Option::Some(value.into());
                self
            }
        }
        /// Object at `spec.versions[0].schema.openAPIV3Schema.properties.spec.properties.template`.
        ///
        /// Fields the schema does not declare are kept in `rest`.
        #[derive(
            Clone,
            Debug,
            Default,
            PartialEq,
            ::kube_informers::serde::Serialize,
            ::kube_informers::serde::Deserialize
        )]
        #[serde(crate = "::kube_informers::serde")]
        pub struct WidgetSpecTemplate {
            /// Field `apiVersion`.
            #[serde(
                rename = "apiVersion",
                default,
                skip_serializing_if = "::std::option::Option::is_none"
            )]
            pub api_version: ::std::option::Option<::std::string::String>,
            /// Field `kind`.
            #[serde(default, skip_serializing_if = "::std::option::Option::is_none")]
            pub kind: ::std::option::Option<::std::string::String>,
            /// Fields the schema does not declare, kept as they arrived.
            #[serde(flatten)]
            pub rest: ::std::collections::BTreeMap<
                ::std::string::String,
                ::kube_informers::serde_json::Value,
            >,
        }
        /// The apply configuration of [`WidgetSpecTemplate`]: every field optional, only the set ones sent.
        #[derive(Clone, Debug, Default, PartialEq, ::kube_informers::serde::Serialize)]
        #[serde(crate = "::kube_informers::serde")]
        pub struct WidgetSpecTemplateApply {
            /// Field `apiVersion`.
            #[serde(
                rename = "apiVersion",
                default,
                skip_serializing_if = "Option::is_none"
            )]
            pub api_version: ::core::option::Option<::std::string::String>,
            /// Field `kind`.
            #[serde(rename = "kind", default, skip_serializing_if = "Option::is_none")]
            pub kind: ::core::option::Option<::std::string::String>,
            /// Fields the schema does not declare, sent as they are.
            #[serde(flatten)]
            pub rest: ::std::collections::BTreeMap<
                ::std::string::String,
                ::kube_informers::serde_json::Value,
            >,
        }
        impl<'de> ::kube_informers::serde::Deserialize<'de> for WidgetSpecTemplateApply {
            fn deserialize<D: ::kube_informers::serde::Deserializer<'de>>(
                deserializer: D,
            ) -> ::core::result::Result<Self, D::Error> {
                let mut fields = <::kube_informers::apply::Fields as ::kube_informers::serde::Deserialize>::deserialize(
                    deserializer,
                )?;
                ::core::result::Result::Ok(Self {
                    api_version: fields.take("apiVersion")?,
                    kind: fields.take("kind")?,
                    rest: fields.rest()?,
                })
            }
        }
        impl WidgetSpecTemplateApply {
            /// A configuration with nothing set.
            #[inline]
            pub fn new() -> Self {
                ::core::default::Default::default()
            }
            /// Sets `apiVersion`.
            #[inline]
            #[must_use]
            pub fn api_version(
                mut self,
                value: impl ::core::convert::Into<::std::string::String>,
            ) -> Self {
                self.api_version = ::core::option::Option::Some(value.into());
                self
            }
            /// Sets `kind`.
            #[inline]
            #[must_use]
            pub fn kind(
                mut self,
                value: impl ::core::convert::Into<::std::string::String>,
            ) -> Self {
                self.kind = ::core::option::Option::Some(value.into());
                self
            }
            /// Adds fields the schema does not declare (a key given again keeps its last value).
            #[inline]
            #[must_use]
            pub fn rest(
                mut self,
                entries: impl ::core::iter::IntoIterator<
                    Item = (
                        impl ::core::convert::Into<::std::string::String>,
                        ::kube_informers::serde_json::Value,
                    ),
                >,
            ) -> Self {
                self.rest.extend(entries.into_iter().map(|(k, v)| (k.into(), v)));
                self
            }
        }
        /// The widget type.
        ///
        /// Values other than these decode as `Other(value)`, so new server values never fail decoding.
        #[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
        pub enum WidgetSpecType {
            /// `"round"`
            Round,
            /// `"square edged"`
            SquareEdged,
            /// `"="`
            Eq,
            /// `"!="`
            NotEq,
            /// `"*"`
            Star,
            /// `""`
            Empty,
            /// A value this version of the schema does not list.
            Other(::std::string::String),
        }
        impl WidgetSpecType {
            /// The value as it appears on the wire.
            pub fn as_str(&self) -> &str {
                match self {
                    Self::Round => "round",
                    Self::SquareEdged => "square edged",
                    Self::Eq => "=",
                    Self::NotEq => "!=",
                    Self::Star => "*",
                    Self::Empty => "",
                    Self::Other(value) => value,
                }
            }
        }
        impl ::std::convert::From<::std::string::String> for WidgetSpecType {
            fn from(value: ::std::string::String) -> Self {
                match value.as_str() {
                    "round" => Self::Round,
                    "square edged" => Self::SquareEdged,
                    "=" => Self::Eq,
                    "!=" => Self::NotEq,
                    "*" => Self::Star,
                    "" => Self::Empty,
                    _ => Self::Other(value),
                }
            }
        }
        impl ::kube_informers::serde::Serialize for WidgetSpecType {
            fn serialize<S: ::kube_informers::serde::Serializer>(
                &self,
                serializer: S,
            ) -> ::std::result::Result<S::Ok, S::Error> {
                serializer.serialize_str(self.as_str())
            }
        }
        impl<'de> ::kube_informers::serde::Deserialize<'de> for WidgetSpecType {
            fn deserialize<D: ::kube_informers::serde::Deserializer<'de>>(
                deserializer: D,
            ) -> ::std::result::Result<Self, D::Error> {
                <::std::string::String as ::kube_informers::serde::Deserialize<
                    'de,
                >>::deserialize(deserializer)
                    .map(Self::from)
            }
        }
        /// Object at `spec.versions[0].schema.openAPIV3Schema.properties.status`.
        #[derive(
            Clone,
            Debug,
            Default,
            PartialEq,
            ::kube_informers::serde::Serialize,
            ::kube_informers::serde::Deserialize
        )]
        #[serde(crate = "::kube_informers::serde")]
        pub struct WidgetStatus {
            /// Field `lastUpdated`.
            #[serde(
                rename = "lastUpdated",
                default,
                skip_serializing_if = "::std::option::Option::is_none"
            )]
            pub last_updated: ::std::option::Option<
                ::kube_informers::k8s_openapi::apimachinery::pkg::apis::meta::v1::Time,
            >,
            /// Field `phase`.
            #[serde(default, skip_serializing_if = "::std::option::Option::is_none")]
            pub phase: ::std::option::Option<WidgetStatusPhase>,
            /// Field `replicas`.
            #[serde(default, skip_serializing_if = "::std::option::Option::is_none")]
            pub replicas: ::std::option::Option<i32>,
        }
        /// The apply configuration of [`WidgetStatus`]: every field optional, only the set ones sent.
        #[derive(Clone, Debug, Default, PartialEq, ::kube_informers::serde::Serialize)]
        #[serde(crate = "::kube_informers::serde")]
        pub struct WidgetStatusApply {
            /// Field `lastUpdated`.
            #[serde(
                rename = "lastUpdated",
                default,
                skip_serializing_if = "Option::is_none"
            )]
            pub last_updated: ::core::option::Option<
                ::kube_informers::k8s_openapi::apimachinery::pkg::apis::meta::v1::Time,
            >,
            /// Field `phase`.
            #[serde(rename = "phase", default, skip_serializing_if = "Option::is_none")]
            pub phase: ::core::option::Option<WidgetStatusPhase>,
            /// Field `replicas`.
            #[serde(
                rename = "replicas",
                default,
                skip_serializing_if = "Option::is_none"
            )]
            pub replicas: ::core::option::Option<i32>,
        }
        impl<'de> ::kube_informers::serde::Deserialize<'de> for WidgetStatusApply {
            fn deserialize<D: ::kube_informers::serde::Deserializer<'de>>(
                deserializer: D,
            ) -> ::core::result::Result<Self, D::Error> {
                let mut fields = <::kube_informers::apply::Fields as ::kube_informers::serde::Deserialize>::deserialize(
                    deserializer,
                )?;
                ::core::result::Result::Ok(Self {
                    last_updated: fields.take("lastUpdated")?,
                    phase: fields.take("phase")?,
                    replicas: fields.take("replicas")?,
                })
            }
        }
        impl WidgetStatusApply {
            /// A configuration with nothing set.
            #[inline]
            pub fn new() -> Self {
                ::core::default::Default::default()
            }
            /// Sets `lastUpdated`.
            #[inline]
            #[must_use]
            pub fn last_updated(
                mut self,
                value: ::kube_informers::k8s_openapi::apimachinery::pkg::apis::meta::v1::Time,
            ) -> Self {
                self.last_updated = ::core::option::Option::Some(value);
                self
            }
            /// Sets `phase`.
            #[inline]
            #[must_use]
            pub fn phase(mut self, value: WidgetStatusPhase) -> Self {
                self.phase = ::core::option::Option::Some(value);
                self
            }
            /// Sets `replicas`.
            #[inline]
            #[must_use]
            pub fn replicas(mut self, value: i32) -> Self {
                self.replicas = ::core::option::Option::Some(value);
                self
            }
        }
        /// String enum at `spec.versions[0].schema.openAPIV3Schema.properties.status.properties.phase`.
        ///
        /// Values other than these decode as `Other(value)`, so new server values never fail decoding.
        #[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
        pub enum WidgetStatusPhase {
            /// `"round"`
            Round,
            /// `"square edged"`
            SquareEdged,
            /// `"="`
            Eq,
            /// `"!="`
            NotEq,
            /// `"*"`
            Star,
            /// `""`
            Empty,
            /// A value this version of the schema does not list.
            Other(::std::string::String),
        }
        impl WidgetStatusPhase {
            /// The value as it appears on the wire.
            pub fn as_str(&self) -> &str {
                match self {
                    Self::Round => "round",
                    Self::SquareEdged => "square edged",
                    Self::Eq => "=",
                    Self::NotEq => "!=",
                    Self::Star => "*",
                    Self::Empty => "",
                    Self::Other(value) => value,
                }
            }
        }
        impl ::std::convert::From<::std::string::String> for WidgetStatusPhase {
            fn from(value: ::std::string::String) -> Self {
                match value.as_str() {
                    "round" => Self::Round,
                    "square edged" => Self::SquareEdged,
                    "=" => Self::Eq,
                    "!=" => Self::NotEq,
                    "*" => Self::Star,
                    "" => Self::Empty,
                    _ => Self::Other(value),
                }
            }
        }
        impl ::kube_informers::serde::Serialize for WidgetStatusPhase {
            fn serialize<S: ::kube_informers::serde::Serializer>(
                &self,
                serializer: S,
            ) -> ::std::result::Result<S::Ok, S::Error> {
                serializer.serialize_str(self.as_str())
            }
        }
        impl<'de> ::kube_informers::serde::Deserialize<'de> for WidgetStatusPhase {
            fn deserialize<D: ::kube_informers::serde::Deserializer<'de>>(
                deserializer: D,
            ) -> ::std::result::Result<Self, D::Error> {
                <::std::string::String as ::kube_informers::serde::Deserialize<
                    'de,
                >>::deserialize(deserializer)
                    .map(Self::from)
            }
        }
    }
    /// `example.com/v1beta1`: `Widget`.
    pub mod v1beta1 {
        /// Custom resource `example.com/v1beta1` `Widget` (`widgets`, namespaced), from CRD `widgets.example.com`.
        ///
        /// Deprecated: example.com/v1beta1 Widget is deprecated; use example.com/v1 Widget
        #[derive(Clone, Debug, Default, PartialEq, ::kube_informers::serde::Deserialize)]
        #[serde(crate = "::kube_informers::serde")]
        pub struct Widget {
            /// Standard object metadata.
            #[serde(default)]
            pub metadata: ::kube_informers::k8s_openapi::apimachinery::pkg::apis::meta::v1::ObjectMeta,
            /// Field `spec`.
            #[serde(default, skip_serializing_if = "::std::option::Option::is_none")]
            pub spec: ::std::option::Option<WidgetSpec>,
        }
        impl ::kube_informers::k8s_openapi::Resource for Widget {
            const API_VERSION: &'static str = "example.com/v1beta1";
            const GROUP: &'static str = "example.com";
            const KIND: &'static str = "Widget";
            const VERSION: &'static str = "v1beta1";
            const URL_PATH_SEGMENT: &'static str = "widgets";
            type Scope = ::kube_informers::k8s_openapi::NamespaceResourceScope;
        }
        impl ::kube_informers::k8s_openapi::ListableResource for Widget {
            const LIST_KIND: &'static str = "WidgetList";
        }
        impl ::kube_informers::k8s_openapi::Metadata for Widget {
            type Ty = ::kube_informers::k8s_openapi::apimachinery::pkg::apis::meta::v1::ObjectMeta;
            fn metadata(&self) -> &Self::Ty {
                &self.metadata
            }
            fn metadata_mut(&mut self) -> &mut Self::Ty {
                &mut self.metadata
            }
        }
        /// Writes `apiVersion` and `kind` first, like the built-in k8s-openapi types.
        impl ::kube_informers::serde::Serialize for Widget {
            fn serialize<S: ::kube_informers::serde::Serializer>(
                &self,
                serializer: S,
            ) -> ::std::result::Result<S::Ok, S::Error> {
                use ::kube_informers::serde::ser::SerializeMap as _;
                let mut map = serializer.serialize_map(::std::option::Option::None)?;
                map.serialize_entry(
                    "apiVersion",
                    <Self as ::kube_informers::k8s_openapi::Resource>::API_VERSION,
                )?;
                map.serialize_entry(
                    "kind",
                    <Self as ::kube_informers::k8s_openapi::Resource>::KIND,
                )?;
                map.serialize_entry("metadata", &self.metadata)?;
                if let ::std::option::Option::Some(value) = &self.spec {
                    map.serialize_entry("spec", value)?;
                }
                map.end()
            }
        }
        /// The apply configuration of [`Widget`]: every field optional, only the set ones sent; `new` sets what every apply needs.
        #[derive(Clone, Debug, Default, PartialEq, ::kube_informers::serde::Serialize)]
        #[serde(crate = "::kube_informers::serde")]
        pub struct WidgetApply {
            /// `apiVersion`: set by `new`.
            #[serde(
                rename = "apiVersion",
                default,
                skip_serializing_if = "Option::is_none"
            )]
            pub api_version: ::core::option::Option<::std::string::String>,
            /// `kind`: set by `new`.
            #[serde(rename = "kind", default, skip_serializing_if = "Option::is_none")]
            pub kind: ::core::option::Option<::std::string::String>,
            /// `metadata`: the name (and namespace) set by `new`, and what else this apply
            /// sets of the object's metadata.
            #[serde(
                rename = "metadata",
                default,
                skip_serializing_if = "Option::is_none"
            )]
            pub metadata: ::core::option::Option<
                ::kube_informers::apply::ObjectMetaApply,
            >,
            /// Field `spec`.
            #[serde(rename = "spec", default, skip_serializing_if = "Option::is_none")]
            pub spec: ::core::option::Option<WidgetSpecApply>,
        }
        impl<'de> ::kube_informers::serde::Deserialize<'de> for WidgetApply {
            fn deserialize<D: ::kube_informers::serde::Deserializer<'de>>(
                deserializer: D,
            ) -> ::core::result::Result<Self, D::Error> {
                let mut fields = <::kube_informers::apply::Fields as ::kube_informers::serde::Deserialize>::deserialize(
                    deserializer,
                )?;
                ::core::result::Result::Ok(Self {
                    api_version: fields.take("apiVersion")?,
                    kind: fields.take("kind")?,
                    metadata: fields.take("metadata")?,
                    spec: fields.take("spec")?,
                })
            }
        }
        impl WidgetApply {
            /// A `Widget` configuration of `name` in `namespace`, with `apiVersion` and `kind` set.
            #[inline]
            pub fn new(
                name: impl ::core::convert::Into<::std::string::String>,
                namespace: impl ::core::convert::Into<::std::string::String>,
            ) -> Self {
                Self {
                    api_version: ::core::option::Option::Some(
                        <Widget as ::kube_informers::k8s_openapi::Resource>::API_VERSION
                            .into(),
                    ),
                    kind: ::core::option::Option::Some(
                        <Widget as ::kube_informers::k8s_openapi::Resource>::KIND.into(),
                    ),
                    metadata: ::core::option::Option::Some(
                        ::kube_informers::apply::ObjectMetaApply::new()
                            .name(name)
                            .namespace(namespace),
                    ),
                    ..::core::default::Default::default()
                }
            }
            /// Adds `metadata.labels`.
            #[inline]
            #[must_use]
            pub fn labels(
                mut self,
                entries: impl ::core::iter::IntoIterator<
                    Item = (
                        impl ::core::convert::Into<::std::string::String>,
                        impl ::core::convert::Into<::std::string::String>,
                    ),
                >,
            ) -> Self {
                self.metadata = ::core::option::Option::Some(
                    self.metadata.take().unwrap_or_default().labels(entries),
                );
                self
            }
            /// Adds `metadata.annotations`.
            #[inline]
            #[must_use]
            pub fn annotations(
                mut self,
                entries: impl ::core::iter::IntoIterator<
                    Item = (
                        impl ::core::convert::Into<::std::string::String>,
                        impl ::core::convert::Into<::std::string::String>,
                    ),
                >,
            ) -> Self {
                self.metadata = ::core::option::Option::Some(
                    self.metadata.take().unwrap_or_default().annotations(entries),
                );
                self
            }
            /// Adds `metadata.ownerReferences`.
            #[inline]
            #[must_use]
            pub fn owner_references(
                mut self,
                values: impl ::core::iter::IntoIterator<
                    Item = ::kube_informers::apply::OwnerReferenceApply,
                >,
            ) -> Self {
                self.metadata = ::core::option::Option::Some(
                    self.metadata.take().unwrap_or_default().owner_references(values),
                );
                self
            }
            /// Adds `metadata.finalizers`.
            #[inline]
            #[must_use]
            pub fn finalizers(
                mut self,
                values: impl ::core::iter::IntoIterator<
                    Item = impl ::core::convert::Into<::std::string::String>,
                >,
            ) -> Self {
                self.metadata = ::core::option::Option::Some(
                    self.metadata.take().unwrap_or_default().finalizers(values),
                );
                self
            }
            /// Sets `spec`.
            #[inline]
            #[must_use]
            pub fn spec(mut self, value: WidgetSpecApply) -> Self {
                self.spec = ::core::option::Option::Some(value);
                self
            }
        }
        impl ::kube_informers::apply::ApplyConfiguration for WidgetApply {
            type Resource = Widget;
        }
        /// The `Widget` configuration `field_manager` applied to `object`, read from its `managedFields` (client-go's `ExtractWidget`).
        #[inline]
        pub fn extract_widget(
            object: &Widget,
            field_manager: &str,
        ) -> ::core::result::Result<WidgetApply, ::kube_informers::apply::ExtractError> {
            ::kube_informers::apply::extract(object, field_manager, "")
        }
        /// Object at `spec.versions[1].schema.openAPIV3Schema.properties.spec`.
        #[derive(
            Clone,
            Debug,
            Default,
            PartialEq,
            ::kube_informers::serde::Serialize,
            ::kube_informers::serde::Deserialize
        )]
        #[serde(crate = "::kube_informers::serde")]
        pub struct WidgetSpec {
            /// Field `size`.
            #[serde(default, skip_serializing_if = "::std::option::Option::is_none")]
            pub size: ::std::option::Option<i64>,
        }
        /// The apply configuration of [`WidgetSpec`]: every field optional, only the set ones sent.
        #[derive(Clone, Debug, Default, PartialEq, ::kube_informers::serde::Serialize)]
        #[serde(crate = "::kube_informers::serde")]
        pub struct WidgetSpecApply {
            /// Field `size`.
            #[serde(rename = "size", default, skip_serializing_if = "Option::is_none")]
            pub size: ::core::option::Option<i64>,
        }
        impl<'de> ::kube_informers::serde::Deserialize<'de> for WidgetSpecApply {
            fn deserialize<D: ::kube_informers::serde::Deserializer<'de>>(
                deserializer: D,
            ) -> ::core::result::Result<Self, D::Error> {
                let mut fields = <::kube_informers::apply::Fields as ::kube_informers::serde::Deserialize>::deserialize(
                    deserializer,
                )?;
                ::core::result::Result::Ok(Self { size: fields.take("size")? })
            }
        }
        impl WidgetSpecApply {
            /// A configuration with nothing set.
            #[inline]
            pub fn new() -> Self {
                ::core::default::Default::default()
            }
            /// Sets `size`.
            #[inline]
            #[must_use]
            pub fn size(mut self, value: i64) -> Self {
                self.size = ::core::option::Option::Some(value);
                self
            }
        }
    }
}
/// Custom resources of API group `tools.example.org`.
#[allow(dead_code)]
pub mod tools_example_org {
    /// `tools.example.org/v2`: `Gadget`.
    pub mod v2 {
        /// Fields the schema does not declare are kept in `rest`.
        ///
        /// Custom resource `tools.example.org/v2` `Gadget` (`gadgets`, cluster-scoped), from CRD `gadgets.tools.example.org`.
        ///
        /// This is the storage version.
        #[derive(Clone, Debug, Default, PartialEq, ::kube_informers::serde::Deserialize)]
        #[serde(crate = "::kube_informers::serde")]
        pub struct Gadget {
            /// Standard object metadata.
            #[serde(default)]
            pub metadata: ::kube_informers::k8s_openapi::apimachinery::pkg::apis::meta::v1::ObjectMeta,
            /// Field `2fa`.
            #[serde(
                rename = "2fa",
                default,
                skip_serializing_if = "::std::option::Option::is_none"
            )]
            pub _2fa: ::std::option::Option<bool>,
            /// Arbitrary data by key.
            #[serde(default, skip_serializing_if = "::std::option::Option::is_none")]
            pub data: ::std::option::Option<
                ::std::collections::BTreeMap<
                    ::std::string::String,
                    ::kube_informers::serde_json::Value,
                >,
            >,
            /// Default: `true`
            #[serde(default, skip_serializing_if = "::std::option::Option::is_none")]
            pub enabled: ::std::option::Option<bool>,
            /// Field `self`.
            #[serde(
                rename = "self",
                default,
                skip_serializing_if = "::std::option::Option::is_none"
            )]
            pub self_: ::std::option::Option<::std::string::String>,
            /// Fields the schema does not declare, kept as they arrived.
            #[serde(flatten)]
            pub rest: ::std::collections::BTreeMap<
                ::std::string::String,
                ::kube_informers::serde_json::Value,
            >,
        }
        impl ::kube_informers::k8s_openapi::Resource for Gadget {
            const API_VERSION: &'static str = "tools.example.org/v2";
            const GROUP: &'static str = "tools.example.org";
            const KIND: &'static str = "Gadget";
            const VERSION: &'static str = "v2";
            const URL_PATH_SEGMENT: &'static str = "gadgets";
            type Scope = ::kube_informers::k8s_openapi::ClusterResourceScope;
        }
        impl ::kube_informers::k8s_openapi::ListableResource for Gadget {
            const LIST_KIND: &'static str = "GadgetList";
        }
        impl ::kube_informers::k8s_openapi::Metadata for Gadget {
            type Ty = ::kube_informers::k8s_openapi::apimachinery::pkg::apis::meta::v1::ObjectMeta;
            fn metadata(&self) -> &Self::Ty {
                &self.metadata
            }
            fn metadata_mut(&mut self) -> &mut Self::Ty {
                &mut self.metadata
            }
        }
        /// Writes `apiVersion` and `kind` first, like the built-in k8s-openapi types.
        impl ::kube_informers::serde::Serialize for Gadget {
            fn serialize<S: ::kube_informers::serde::Serializer>(
                &self,
                serializer: S,
            ) -> ::std::result::Result<S::Ok, S::Error> {
                use ::kube_informers::serde::ser::SerializeMap as _;
                let mut map = serializer.serialize_map(::std::option::Option::None)?;
                map.serialize_entry(
                    "apiVersion",
                    <Self as ::kube_informers::k8s_openapi::Resource>::API_VERSION,
                )?;
                map.serialize_entry(
                    "kind",
                    <Self as ::kube_informers::k8s_openapi::Resource>::KIND,
                )?;
                map.serialize_entry("metadata", &self.metadata)?;
                if let ::std::option::Option::Some(value) = &self._2fa {
                    map.serialize_entry("2fa", value)?;
                }
                if let ::std::option::Option::Some(value) = &self.data {
                    map.serialize_entry("data", value)?;
                }
                if let ::std::option::Option::Some(value) = &self.enabled {
                    map.serialize_entry("enabled", value)?;
                }
                if let ::std::option::Option::Some(value) = &self.self_ {
                    map.serialize_entry("self", value)?;
                }
                for (key, value) in &self.rest {
                    if !matches!(key.as_str(), "apiVersion" | "kind" | "metadata") {
                        map.serialize_entry(key, value)?;
                    }
                }
                map.end()
            }
        }
        /// The apply configuration of [`Gadget`]: every field optional, only the set ones sent; `new` sets what every apply needs.
        #[derive(Clone, Debug, Default, PartialEq, ::kube_informers::serde::Serialize)]
        #[serde(crate = "::kube_informers::serde")]
        pub struct GadgetApply {
            /// `apiVersion`: set by `new`.
            #[serde(
                rename = "apiVersion",
                default,
                skip_serializing_if = "Option::is_none"
            )]
            pub api_version: ::core::option::Option<::std::string::String>,
            /// `kind`: set by `new`.
            #[serde(rename = "kind", default, skip_serializing_if = "Option::is_none")]
            pub kind: ::core::option::Option<::std::string::String>,
            /// `metadata`: the name (and namespace) set by `new`, and what else this apply
            /// sets of the object's metadata.
            #[serde(
                rename = "metadata",
                default,
                skip_serializing_if = "Option::is_none"
            )]
            pub metadata: ::core::option::Option<
                ::kube_informers::apply::ObjectMetaApply,
            >,
            /// Field `2fa`.
            #[serde(rename = "2fa", default, skip_serializing_if = "Option::is_none")]
            pub _2fa: ::core::option::Option<bool>,
            /// Arbitrary data by key.
            #[serde(rename = "data", default, skip_serializing_if = "Option::is_none")]
            pub data: ::core::option::Option<
                ::std::collections::BTreeMap<
                    ::std::string::String,
                    ::kube_informers::serde_json::Value,
                >,
            >,
            /// Default: `true`
            #[serde(
                rename = "enabled",
                default,
                skip_serializing_if = "Option::is_none"
            )]
            pub enabled: ::core::option::Option<bool>,
            /// Field `self`.
            #[serde(rename = "self", default, skip_serializing_if = "Option::is_none")]
            pub self_: ::core::option::Option<::std::string::String>,
            /// Fields the schema does not declare, sent as they are.
            #[serde(flatten)]
            pub rest: ::std::collections::BTreeMap<
                ::std::string::String,
                ::kube_informers::serde_json::Value,
            >,
        }
        impl<'de> ::kube_informers::serde::Deserialize<'de> for GadgetApply {
            fn deserialize<D: ::kube_informers::serde::Deserializer<'de>>(
                deserializer: D,
            ) -> ::core::result::Result<Self, D::Error> {
                let mut fields = <::kube_informers::apply::Fields as ::kube_informers::serde::Deserialize>::deserialize(
                    deserializer,
                )?;
                ::core::result::Result::Ok(Self {
                    api_version: fields.take("apiVersion")?,
                    kind: fields.take("kind")?,
                    metadata: fields.take("metadata")?,
                    _2fa: fields.take("2fa")?,
                    data: fields.take("data")?,
                    enabled: fields.take("enabled")?,
                    self_: fields.take("self")?,
                    rest: fields.rest()?,
                })
            }
        }
        impl GadgetApply {
            /// A `Gadget` configuration of `name`, with `apiVersion` and `kind` set.
            #[inline]
            pub fn new(name: impl ::core::convert::Into<::std::string::String>) -> Self {
                Self {
                    api_version: ::core::option::Option::Some(
                        <Gadget as ::kube_informers::k8s_openapi::Resource>::API_VERSION
                            .into(),
                    ),
                    kind: ::core::option::Option::Some(
                        <Gadget as ::kube_informers::k8s_openapi::Resource>::KIND.into(),
                    ),
                    metadata: ::core::option::Option::Some(
                        ::kube_informers::apply::ObjectMetaApply::new().name(name),
                    ),
                    ..::core::default::Default::default()
                }
            }
            /// Adds `metadata.labels`.
            #[inline]
            #[must_use]
            pub fn labels(
                mut self,
                entries: impl ::core::iter::IntoIterator<
                    Item = (
                        impl ::core::convert::Into<::std::string::String>,
                        impl ::core::convert::Into<::std::string::String>,
                    ),
                >,
            ) -> Self {
                self.metadata = ::core::option::Option::Some(
                    self.metadata.take().unwrap_or_default().labels(entries),
                );
                self
            }
            /// Adds `metadata.annotations`.
            #[inline]
            #[must_use]
            pub fn annotations(
                mut self,
                entries: impl ::core::iter::IntoIterator<
                    Item = (
                        impl ::core::convert::Into<::std::string::String>,
                        impl ::core::convert::Into<::std::string::String>,
                    ),
                >,
            ) -> Self {
                self.metadata = ::core::option::Option::Some(
                    self.metadata.take().unwrap_or_default().annotations(entries),
                );
                self
            }
            /// Adds `metadata.ownerReferences`.
            #[inline]
            #[must_use]
            pub fn owner_references(
                mut self,
                values: impl ::core::iter::IntoIterator<
                    Item = ::kube_informers::apply::OwnerReferenceApply,
                >,
            ) -> Self {
                self.metadata = ::core::option::Option::Some(
                    self.metadata.take().unwrap_or_default().owner_references(values),
                );
                self
            }
            /// Adds `metadata.finalizers`.
            #[inline]
            #[must_use]
            pub fn finalizers(
                mut self,
                values: impl ::core::iter::IntoIterator<
                    Item = impl ::core::convert::Into<::std::string::String>,
                >,
            ) -> Self {
                self.metadata = ::core::option::Option::Some(
                    self.metadata.take().unwrap_or_default().finalizers(values),
                );
                self
            }
            /// Sets `2fa`.
            #[inline]
            #[must_use]
            pub fn _2fa(mut self, value: bool) -> Self {
                self._2fa = ::core::option::Option::Some(value);
                self
            }
            /// Adds entries to `data` (a key given again keeps its last value).
            #[inline]
            #[must_use]
            pub fn data(
                mut self,
                entries: impl ::core::iter::IntoIterator<
                    Item = (
                        impl ::core::convert::Into<::std::string::String>,
                        ::kube_informers::serde_json::Value,
                    ),
                >,
            ) -> Self {
                self.data
                    .get_or_insert_with(::std::collections::BTreeMap::new)
                    .extend(entries.into_iter().map(|(k, v)| (k.into(), v)));
                self
            }
            /// Sets `enabled`.
            #[inline]
            #[must_use]
            pub fn enabled(mut self, value: bool) -> Self {
                self.enabled = ::core::option::Option::Some(value);
                self
            }
            /// Sets `self`.
            #[inline]
            #[must_use]
            pub fn self_(
                mut self,
                value: impl ::core::convert::Into<::std::string::String>,
            ) -> Self {
                self.self_ = ::core::option::Option::Some(value.into());
                self
            }
            /// Adds fields the schema does not declare (a key given again keeps its last value).
            #[inline]
            #[must_use]
            pub fn rest(
                mut self,
                entries: impl ::core::iter::IntoIterator<
                    Item = (
                        impl ::core::convert::Into<::std::string::String>,
                        ::kube_informers::serde_json::Value,
                    ),
                >,
            ) -> Self {
                self.rest.extend(entries.into_iter().map(|(k, v)| (k.into(), v)));
                self
            }
        }
        impl ::kube_informers::apply::ApplyConfiguration for GadgetApply {
            type Resource = Gadget;
        }
        /// The `Gadget` configuration `field_manager` applied to `object`, read from its `managedFields` (client-go's `ExtractGadget`).
        #[inline]
        pub fn extract_gadget(
            object: &Gadget,
            field_manager: &str,
        ) -> ::core::result::Result<GadgetApply, ::kube_informers::apply::ExtractError> {
            ::kube_informers::apply::extract(object, field_manager, "")
        }
    }
}
