/// Shared informers of every resource of CustomResourceDefinitions: one informer per type, started, synced and shut down together (client-go's `SharedInformerFactory`).
#[derive(Clone)]
pub struct SharedInformerFactory {
    factory: ::informer_runtime::SharedInformerFactoryCore,
}
impl ::std::convert::From<::informer_runtime::SharedInformerFactoryCore>
for SharedInformerFactory {
    fn from(factory: ::informer_runtime::SharedInformerFactoryCore) -> Self {
        Self { factory }
    }
}
/// `start()`, `wait_for_cache_sync()`, `wait_for_cache_sync_timeout()` and
/// `shutdown()`, as every factory of the runtime has them.
impl ::informer_runtime::InformerFactory for SharedInformerFactory {
    #[inline]
    fn factory_core(&self) -> &::informer_runtime::SharedInformerFactoryCore {
        &self.factory
    }
}
impl SharedInformerFactory {
    /// A builder for a factory with options: namespace, tweak_list_options,
    /// default and per-type resync, transform.
    #[inline]
    pub fn builder(
        client: ::informer_runtime::Client,
    ) -> ::informer_runtime::FactoryBuilder<Self> {
        ::informer_runtime::FactoryBuilder::new(client)
    }
    /// A factory with default options: every namespace, no resync.
    #[inline]
    pub fn new(client: ::informer_runtime::Client) -> Self {
        Self::builder(client).build()
    }
    /// The informer of `K`, made by `new_informer` on first request (for types this
    /// factory does not generate).
    #[inline]
    pub fn informer_for<K: ::informer_runtime::Object>(
        &self,
        name: &str,
        new_informer: impl ::std::ops::FnOnce(
            &::informer_runtime::SharedInformerFactoryCore,
        ) -> ::informer_runtime::SharedIndexInformer<K>,
    ) -> ::informer_runtime::SharedIndexInformer<K> {
        self.factory.informer_for(name, new_informer)
    }
    /// The shared informer of the resource `gvr`, type-erased
    /// (client-go's `ForResource`).
    #[inline]
    pub fn for_resource(
        &self,
        gvr: &::informer_runtime::GroupVersionResource,
    ) -> ::std::result::Result<
        ::informer_runtime::GenericInformer,
        ::informer_runtime::generic::UnknownResource,
    > {
        match (gvr.group.as_str(), gvr.version.as_str(), gvr.resource.as_str()) {
            ("example.com", "v1", "widgets") => {
                ::std::result::Result::Ok(
                    ::informer_runtime::GenericInformer::new(
                        gvr.clone(),
                        self.shop().v1().widgets().informer(),
                    ),
                )
            }
            ("example.com", "v1beta1", "widgets") => {
                ::std::result::Result::Ok(
                    ::informer_runtime::GenericInformer::new(
                        gvr.clone(),
                        self.shop().v1beta1().widgets().informer(),
                    ),
                )
            }
            ("tools.example.org", "v2", "gadgets") => {
                ::std::result::Result::Ok(
                    ::informer_runtime::GenericInformer::new(
                        gvr.clone(),
                        self.tools().v2().gadgets().informer(),
                    ),
                )
            }
            _ => {
                ::std::result::Result::Err(::informer_runtime::generic::UnknownResource {
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
/// # async fn run(client: ::informer_runtime::Client) -> ::std::result::Result<(), ::informer_runtime::Error> {
/// let clientset = Clientset::new(client);
/// let widgets = clientset.shop().v1().widgets("default");
/// let listed = widgets.list(&::informer_runtime::ListOptions::default()).await?;
/// match widgets.get("example").await {
///     Ok(found) => println!("{:?}", found.metadata.name),
///     Err(e) if e.is_not_found() => println!("not there"),
///     Err(e) => return Err(e),
/// }
/// # let _ = listed;
/// # Ok(()) }
/// ```
#[derive(Clone)]
pub struct Clientset {
    client: ::informer_runtime::Client,
}
impl Clientset {
    /// The clientset over `client` (its server, credentials and default namespace).
    #[inline]
    pub fn new(client: ::informer_runtime::Client) -> Self {
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
pub trait MetadataGroups {
    /// The metadata-only informers of `example.com`.
    fn shop(&self) -> shop::MetadataGroup;
    /// The metadata-only informers of `tools.example.org`.
    fn tools(&self) -> tools::MetadataGroup;
}
impl MetadataGroups for ::informer_runtime::MetadataSharedInformerFactory {
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
pub mod shop {
    /// The informers of example.com in a factory, by version.
    #[derive(Clone)]
    pub struct Group {
        factory: ::informer_runtime::SharedInformerFactoryCore,
    }
    impl Group {
        /// The accessor over `factory`.
        #[inline]
        pub fn new(factory: ::informer_runtime::SharedInformerFactoryCore) -> Self {
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
        client: ::informer_runtime::Client,
    }
    impl ClientsetGroup {
        /// The accessor over `client`.
        #[inline]
        pub fn new(client: ::informer_runtime::Client) -> Self {
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
        factory: ::informer_runtime::MetadataSharedInformerFactory,
    }
    impl MetadataGroup {
        /// The accessor over `factory`.
        #[inline]
        pub fn new(factory: ::informer_runtime::MetadataSharedInformerFactory) -> Self {
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
            factory: ::informer_runtime::SharedInformerFactoryCore,
        }
        impl Version {
            /// The accessor over `factory`.
            #[inline]
            pub fn new(factory: ::informer_runtime::SharedInformerFactoryCore) -> Self {
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
            client: ::informer_runtime::Client,
        }
        impl ClientsetVersion {
            /// The accessor over `client`.
            #[inline]
            pub fn new(client: ::informer_runtime::Client) -> Self {
                Self { client }
            }
            /// The typed client of [`Widget`](crate::crds::example_com::v1::Widget) objects (example.com/v1, kind Widget) in `namespace`. With the status and scale subresources (`get_status`, `update_status`, `patch_status`, `get_scale`, `update_scale`, `patch_scale`).
            #[inline]
            pub fn widgets(
                &self,
                namespace: &str,
            ) -> ::informer_runtime::api::Api<
                crate::crds::example_com::v1::Widget,
                ::informer_runtime::api::StatusAndScale,
            > {
                ::informer_runtime::api::Api::namespaced(self.client.clone(), namespace)
            }
            /// The typed client of [`Widget`](crate::crds::example_com::v1::Widget) objects (example.com/v1, kind Widget) in every namespace: list, watch and delete_collection span all namespaces, create and update take the object's namespace, by-name calls need [`Self::widgets`]. With the status and scale subresources (`get_status`, `update_status`, `patch_status`, `get_scale`, `update_scale`, `patch_scale`).
            #[inline]
            pub fn widgets_all(
                &self,
            ) -> ::informer_runtime::api::Api<
                crate::crds::example_com::v1::Widget,
                ::informer_runtime::api::StatusAndScale,
            > {
                ::informer_runtime::api::Api::all(self.client.clone())
            }
        }
        /// The metadata-only informers of example.com/v1 in a `MetadataSharedInformerFactory`.
        #[derive(Clone, Debug)]
        pub struct MetadataVersion {
            factory: ::informer_runtime::MetadataSharedInformerFactory,
        }
        impl MetadataVersion {
            /// The accessor over `factory`.
            #[inline]
            pub fn new(
                factory: ::informer_runtime::MetadataSharedInformerFactory,
            ) -> Self {
                Self { factory }
            }
            /// The metadata-only informer of [`Widget`](crate::crds::example_com::v1::Widget) objects (example.com/v1, kind Widget): `PartialObjectMeta<Widget>`, made on the first call, the same on every later call (the factory's `typed::<Widget>()`).
            #[inline]
            pub fn widgets(
                &self,
            ) -> ::informer_runtime::metadata::MetadataInformer<
                crate::crds::example_com::v1::Widget,
            > {
                self.factory.typed::<crate::crds::example_com::v1::Widget>()
            }
        }
        /// The shared informer of [`Widget`](crate::crds::example_com::v1::Widget) objects (example.com/v1, kind Widget) in a factory (client-go's `WidgetInformer`).
        ///
        /// A Widget is a configurable gadget.
        #[derive(Clone)]
        pub struct WidgetInformer {
            ask: ::informer_runtime::InformerAsk<crate::crds::example_com::v1::Widget>,
        }
        impl WidgetInformer {
            /// The Widget informer of `factory`, asked for there (as `example.com/v1/widgets`), so that the factory's `start()` and `wait_for_cache_sync()` include it; built on first use (or when the factory starts), the same informer on every later call (what the version accessor returns).
            #[inline]
            pub fn new(factory: ::informer_runtime::SharedInformerFactoryCore) -> Self {
                let ask = factory
                    .ask_for::<
                        crate::crds::example_com::v1::Widget,
                    >(
                        "example.com/v1/widgets",
                        |core| {
                            new_filtered_widget_informer(
                                core.informer_client(),
                                core.namespace(),
                                core.resync_for::<crate::crds::example_com::v1::Widget>(),
                                ::informer_runtime::Indexers::standard(),
                                core.tweak_list_options(),
                            )
                        },
                    );
                Self { ask }
            }
            /// The factory's shared informer of Widget objects, registered as `example.com/v1/widgets`.
            #[inline]
            pub fn informer(
                &self,
            ) -> ::informer_runtime::SharedIndexInformer<
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
            pub fn projected<V>(self) -> ::informer_runtime::ProjectedInformer<V>
            where
                V: ::informer_runtime::Projection<
                        Of = crate::crds::example_com::v1::Widget,
                    >
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
                        >("example.com/v1/widgets"),
                        |core| {
                            let api: ::informer_runtime::api::Api<V> = match core
                                .namespace()
                            {
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
        /// A new, unshared informer of [`Widget`](crate::crds::example_com::v1::Widget) objects (example.com/v1, kind Widget) in `namespace` (every namespace when `None`) (client-go's `NewWidgetInformer`).
        ///
        /// Prefer the factory's shared informer; this one is for callers that need their own.
        #[inline]
        pub fn new_widget_informer(
            client: ::informer_runtime::Client,
            namespace: ::std::option::Option<&str>,
            resync: ::std::time::Duration,
            indexers: ::informer_runtime::Indexers<crate::crds::example_com::v1::Widget>,
        ) -> ::informer_runtime::SharedIndexInformer<
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
            client: ::informer_runtime::Client,
            namespace: ::std::option::Option<&str>,
            resync: ::std::time::Duration,
            indexers: ::informer_runtime::Indexers<crate::crds::example_com::v1::Widget>,
            tweak_list_options: ::std::option::Option<
                ::informer_runtime::TweakListOptions,
            >,
        ) -> ::informer_runtime::SharedIndexInformer<
            crate::crds::example_com::v1::Widget,
        > {
            let api: ::informer_runtime::api::Api<
                crate::crds::example_com::v1::Widget,
                ::informer_runtime::api::StatusAndScale,
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
            let watch = move |options: ::informer_runtime::ListOptions| {
                api.watch(&options)
            };
            let list_watch = ::informer_runtime::ListWatch::new(list, watch)
                .tweaked(tweak_list_options);
            ::informer_runtime::SharedIndexInformer::new(list_watch, resync, indexers)
        }
        /// Reads [`Widget`](crate::crds::example_com::v1::Widget) objects (example.com/v1, kind Widget) from an informer's cache (client-go's `WidgetLister`).
        ///
        /// A Widget is a configurable gadget.
        #[derive(Clone)]
        pub struct WidgetLister {
            lister: ::informer_runtime::Lister<crate::crds::example_com::v1::Widget>,
        }
        impl WidgetLister {
            /// A lister of Widget objects over `indexer` (usually an informer's).
            #[inline]
            pub fn new(
                indexer: ::informer_runtime::Indexer<
                    crate::crds::example_com::v1::Widget,
                >,
            ) -> Self {
                Self {
                    lister: ::informer_runtime::Lister::new(indexer),
                }
            }
            /// Every Widget (example.com/v1, kind Widget) in the cache matching `selector`, in every namespace.
            #[inline]
            pub fn list(
                &self,
                selector: &::informer_runtime::Selector,
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
            lister: ::informer_runtime::NamespaceLister<
                crate::crds::example_com::v1::Widget,
            >,
        }
        impl WidgetNamespaceLister {
            /// Every Widget in this namespace matching `selector`.
            #[inline]
            pub fn list(
                &self,
                selector: &::informer_runtime::Selector,
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
            factory: ::informer_runtime::SharedInformerFactoryCore,
        }
        impl Version {
            /// The accessor over `factory`.
            #[inline]
            pub fn new(factory: ::informer_runtime::SharedInformerFactoryCore) -> Self {
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
            client: ::informer_runtime::Client,
        }
        impl ClientsetVersion {
            /// The accessor over `client`.
            #[inline]
            pub fn new(client: ::informer_runtime::Client) -> Self {
                Self { client }
            }
            /// The typed client of [`Widget`](crate::crds::example_com::v1beta1::Widget) objects (example.com/v1beta1, kind Widget) in `namespace`. No status or scale subresource.
            #[inline]
            pub fn widgets(
                &self,
                namespace: &str,
            ) -> ::informer_runtime::api::Api<
                crate::crds::example_com::v1beta1::Widget,
                ::informer_runtime::api::NoSubresources,
            > {
                ::informer_runtime::api::Api::namespaced(self.client.clone(), namespace)
            }
            /// The typed client of [`Widget`](crate::crds::example_com::v1beta1::Widget) objects (example.com/v1beta1, kind Widget) in every namespace: list, watch and delete_collection span all namespaces, create and update take the object's namespace, by-name calls need [`Self::widgets`]. No status or scale subresource.
            #[inline]
            pub fn widgets_all(
                &self,
            ) -> ::informer_runtime::api::Api<
                crate::crds::example_com::v1beta1::Widget,
                ::informer_runtime::api::NoSubresources,
            > {
                ::informer_runtime::api::Api::all(self.client.clone())
            }
        }
        /// The metadata-only informers of example.com/v1beta1 in a `MetadataSharedInformerFactory`.
        #[derive(Clone, Debug)]
        pub struct MetadataVersion {
            factory: ::informer_runtime::MetadataSharedInformerFactory,
        }
        impl MetadataVersion {
            /// The accessor over `factory`.
            #[inline]
            pub fn new(
                factory: ::informer_runtime::MetadataSharedInformerFactory,
            ) -> Self {
                Self { factory }
            }
            /// The metadata-only informer of [`Widget`](crate::crds::example_com::v1beta1::Widget) objects (example.com/v1beta1, kind Widget): `PartialObjectMeta<Widget>`, made on the first call, the same on every later call (the factory's `typed::<Widget>()`).
            #[inline]
            pub fn widgets(
                &self,
            ) -> ::informer_runtime::metadata::MetadataInformer<
                crate::crds::example_com::v1beta1::Widget,
            > {
                self.factory.typed::<crate::crds::example_com::v1beta1::Widget>()
            }
        }
        /// The shared informer of [`Widget`](crate::crds::example_com::v1beta1::Widget) objects (example.com/v1beta1, kind Widget) in a factory (client-go's `WidgetInformer`).
        ///
        /// Custom resource 'example.com/v1beta1' 'Widget' ('widgets', namespaced), from CRD 'widgets.example.com'.
        #[derive(Clone)]
        pub struct WidgetInformer {
            ask: ::informer_runtime::InformerAsk<
                crate::crds::example_com::v1beta1::Widget,
            >,
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
                                core
                                    .resync_for::<crate::crds::example_com::v1beta1::Widget>(),
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
                V: ::informer_runtime::Projection<
                        Of = crate::crds::example_com::v1beta1::Widget,
                    >
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
                            let api: ::informer_runtime::api::Api<V> = match core
                                .namespace()
                            {
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
            indexers: ::informer_runtime::Indexers<
                crate::crds::example_com::v1beta1::Widget,
            >,
        ) -> ::informer_runtime::SharedIndexInformer<
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
            client: ::informer_runtime::Client,
            namespace: ::std::option::Option<&str>,
            resync: ::std::time::Duration,
            indexers: ::informer_runtime::Indexers<
                crate::crds::example_com::v1beta1::Widget,
            >,
            tweak_list_options: ::std::option::Option<
                ::informer_runtime::TweakListOptions,
            >,
        ) -> ::informer_runtime::SharedIndexInformer<
            crate::crds::example_com::v1beta1::Widget,
        > {
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
            let watch = move |options: ::informer_runtime::ListOptions| {
                api.watch(&options)
            };
            let list_watch = ::informer_runtime::ListWatch::new(list, watch)
                .tweaked(tweak_list_options);
            ::informer_runtime::SharedIndexInformer::new(list_watch, resync, indexers)
        }
        /// Reads [`Widget`](crate::crds::example_com::v1beta1::Widget) objects (example.com/v1beta1, kind Widget) from an informer's cache (client-go's `WidgetLister`).
        ///
        /// Custom resource 'example.com/v1beta1' 'Widget' ('widgets', namespaced), from CRD 'widgets.example.com'.
        #[derive(Clone)]
        pub struct WidgetLister {
            lister: ::informer_runtime::Lister<
                crate::crds::example_com::v1beta1::Widget,
            >,
        }
        impl WidgetLister {
            /// A lister of Widget objects over `indexer` (usually an informer's).
            #[inline]
            pub fn new(
                indexer: ::informer_runtime::Indexer<
                    crate::crds::example_com::v1beta1::Widget,
                >,
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
pub mod tools {
    /// The informers of tools.example.org in a factory, by version.
    #[derive(Clone)]
    pub struct Group {
        factory: ::informer_runtime::SharedInformerFactoryCore,
    }
    impl Group {
        /// The accessor over `factory`.
        #[inline]
        pub fn new(factory: ::informer_runtime::SharedInformerFactoryCore) -> Self {
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
        client: ::informer_runtime::Client,
    }
    impl ClientsetGroup {
        /// The accessor over `client`.
        #[inline]
        pub fn new(client: ::informer_runtime::Client) -> Self {
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
        factory: ::informer_runtime::MetadataSharedInformerFactory,
    }
    impl MetadataGroup {
        /// The accessor over `factory`.
        #[inline]
        pub fn new(factory: ::informer_runtime::MetadataSharedInformerFactory) -> Self {
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
            factory: ::informer_runtime::SharedInformerFactoryCore,
        }
        impl Version {
            /// The accessor over `factory`.
            #[inline]
            pub fn new(factory: ::informer_runtime::SharedInformerFactoryCore) -> Self {
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
            client: ::informer_runtime::Client,
        }
        impl ClientsetVersion {
            /// The accessor over `client`.
            #[inline]
            pub fn new(client: ::informer_runtime::Client) -> Self {
                Self { client }
            }
            /// The typed client of [`Gadget`](crate::crds::tools_example_org::v2::Gadget) objects (tools.example.org/v2, kind Gadget), cluster-scoped. No status or scale subresource.
            #[inline]
            pub fn gadgets(
                &self,
            ) -> ::informer_runtime::api::Api<
                crate::crds::tools_example_org::v2::Gadget,
                ::informer_runtime::api::NoSubresources,
            > {
                ::informer_runtime::api::Api::all(self.client.clone())
            }
        }
        /// The metadata-only informers of tools.example.org/v2 in a `MetadataSharedInformerFactory`.
        #[derive(Clone, Debug)]
        pub struct MetadataVersion {
            factory: ::informer_runtime::MetadataSharedInformerFactory,
        }
        impl MetadataVersion {
            /// The accessor over `factory`.
            #[inline]
            pub fn new(
                factory: ::informer_runtime::MetadataSharedInformerFactory,
            ) -> Self {
                Self { factory }
            }
            /// The metadata-only informer of [`Gadget`](crate::crds::tools_example_org::v2::Gadget) objects (tools.example.org/v2, kind Gadget): `PartialObjectMeta<Gadget>`, made on the first call, the same on every later call (the factory's `typed::<Gadget>()`).
            #[inline]
            pub fn gadgets(
                &self,
            ) -> ::informer_runtime::metadata::MetadataInformer<
                crate::crds::tools_example_org::v2::Gadget,
            > {
                self.factory.typed::<crate::crds::tools_example_org::v2::Gadget>()
            }
        }
        /// The shared informer of [`Gadget`](crate::crds::tools_example_org::v2::Gadget) objects (tools.example.org/v2, kind Gadget) in a factory (client-go's `GadgetInformer`).
        ///
        /// Custom resource 'tools.example.org/v2' 'Gadget' ('gadgets', cluster-scoped), from CRD 'gadgets.tools.example.org'.
        #[derive(Clone)]
        pub struct GadgetInformer {
            ask: ::informer_runtime::InformerAsk<
                crate::crds::tools_example_org::v2::Gadget,
            >,
        }
        impl GadgetInformer {
            /// The Gadget informer of `factory`, asked for there (as `tools.example.org/v2/gadgets`), so that the factory's `start()` and `wait_for_cache_sync()` include it; built on first use (or when the factory starts), the same informer on every later call (what the version accessor returns).
            #[inline]
            pub fn new(factory: ::informer_runtime::SharedInformerFactoryCore) -> Self {
                let ask = factory
                    .ask_for::<
                        crate::crds::tools_example_org::v2::Gadget,
                    >(
                        "tools.example.org/v2/gadgets",
                        |core| {
                            new_filtered_gadget_informer(
                                core.informer_client(),
                                core
                                    .resync_for::<crate::crds::tools_example_org::v2::Gadget>(),
                                ::informer_runtime::Indexers::standard(),
                                core.tweak_list_options(),
                            )
                        },
                    );
                Self { ask }
            }
            /// The factory's shared informer of Gadget objects, registered as `tools.example.org/v2/gadgets`.
            #[inline]
            pub fn informer(
                &self,
            ) -> ::informer_runtime::SharedIndexInformer<
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
            pub fn projected<V>(self) -> ::informer_runtime::ProjectedInformer<V>
            where
                V: ::informer_runtime::Projection<
                    Of = crate::crds::tools_example_org::v2::Gadget,
                >,
            {
                let factory = self.ask.withdraw();
                let informer = factory
                    .informer_for::<
                        V,
                    >(
                        &::informer_runtime::projection::informer_name::<
                            V,
                        >("tools.example.org/v2/gadgets"),
                        |core| {
                            let api: ::informer_runtime::api::Api<V> = ::informer_runtime::api::Api::all(
                                core.informer_client(),
                            );
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
        /// A new, unshared informer of [`Gadget`](crate::crds::tools_example_org::v2::Gadget) objects (tools.example.org/v2, kind Gadget) (cluster-scoped) (client-go's `NewGadgetInformer`).
        ///
        /// Prefer the factory's shared informer; this one is for callers that need their own.
        #[inline]
        pub fn new_gadget_informer(
            client: ::informer_runtime::Client,
            resync: ::std::time::Duration,
            indexers: ::informer_runtime::Indexers<
                crate::crds::tools_example_org::v2::Gadget,
            >,
        ) -> ::informer_runtime::SharedIndexInformer<
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
            client: ::informer_runtime::Client,
            resync: ::std::time::Duration,
            indexers: ::informer_runtime::Indexers<
                crate::crds::tools_example_org::v2::Gadget,
            >,
            tweak_list_options: ::std::option::Option<
                ::informer_runtime::TweakListOptions,
            >,
        ) -> ::informer_runtime::SharedIndexInformer<
            crate::crds::tools_example_org::v2::Gadget,
        > {
            let api: ::informer_runtime::api::Api<
                crate::crds::tools_example_org::v2::Gadget,
                ::informer_runtime::api::NoSubresources,
            > = ::informer_runtime::api::Api::all(client);
            let list = {
                let api = api.clone();
                move |options: ::informer_runtime::ListOptions| api.list(&options)
            };
            let watch = move |options: ::informer_runtime::ListOptions| {
                api.watch(&options)
            };
            let list_watch = ::informer_runtime::ListWatch::new(list, watch)
                .tweaked(tweak_list_options);
            ::informer_runtime::SharedIndexInformer::new(list_watch, resync, indexers)
        }
        /// Reads [`Gadget`](crate::crds::tools_example_org::v2::Gadget) objects (tools.example.org/v2, kind Gadget) from an informer's cache (client-go's `GadgetLister`).
        ///
        /// Custom resource 'tools.example.org/v2' 'Gadget' ('gadgets', cluster-scoped), from CRD 'gadgets.tools.example.org'.
        #[derive(Clone)]
        pub struct GadgetLister {
            lister: ::informer_runtime::Lister<
                crate::crds::tools_example_org::v2::Gadget,
            >,
        }
        impl GadgetLister {
            /// A lister of Gadget objects over `indexer` (usually an informer's).
            #[inline]
            pub fn new(
                indexer: ::informer_runtime::Indexer<
                    crate::crds::tools_example_org::v2::Gadget,
                >,
            ) -> Self {
                Self {
                    lister: ::informer_runtime::Lister::new(indexer),
                }
            }
            /// Every Gadget (tools.example.org/v2, kind Gadget) in the cache matching `selector`.
            #[inline]
            pub fn list(
                &self,
                selector: &::informer_runtime::Selector,
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
        #[derive(Clone, Debug, PartialEq, ::informer_runtime::serde::Deserialize)]
        #[serde(crate = "::informer_runtime::serde")]
        pub struct Widget {
            /// Standard object metadata.
            #[serde(default)]
            pub metadata: ::informer_runtime::k8s_openapi::apimachinery::pkg::apis::meta::v1::ObjectMeta,
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
        impl ::informer_runtime::k8s_openapi::Resource for Widget {
            const API_VERSION: &'static str = "example.com/v1";
            const GROUP: &'static str = "example.com";
            const KIND: &'static str = "Widget";
            const VERSION: &'static str = "v1";
            const URL_PATH_SEGMENT: &'static str = "widgets";
            type Scope = ::informer_runtime::k8s_openapi::NamespaceResourceScope;
        }
        impl ::informer_runtime::k8s_openapi::ListableResource for Widget {
            const LIST_KIND: &'static str = "WidgetList";
        }
        impl ::informer_runtime::k8s_openapi::Metadata for Widget {
            type Ty = ::informer_runtime::k8s_openapi::apimachinery::pkg::apis::meta::v1::ObjectMeta;
            fn metadata(&self) -> &Self::Ty {
                &self.metadata
            }
            fn metadata_mut(&mut self) -> &mut Self::Ty {
                &mut self.metadata
            }
        }
        /// Writes `apiVersion` and `kind` first, like the built-in k8s-openapi types.
        impl ::informer_runtime::serde::Serialize for Widget {
            fn serialize<S: ::informer_runtime::serde::Serializer>(
                &self,
                serializer: S,
            ) -> ::std::result::Result<S::Ok, S::Error> {
                use ::informer_runtime::serde::ser::SerializeMap as _;
                let mut map = serializer.serialize_map(::std::option::Option::None)?;
                map.serialize_entry(
                    "apiVersion",
                    <Self as ::informer_runtime::k8s_openapi::Resource>::API_VERSION,
                )?;
                map.serialize_entry(
                    "kind",
                    <Self as ::informer_runtime::k8s_openapi::Resource>::KIND,
                )?;
                map.serialize_entry("metadata", &self.metadata)?;
                map.serialize_entry("spec", &self.spec)?;
                if let ::std::option::Option::Some(value) = &self.status {
                    map.serialize_entry("status", value)?;
                }
                map.end()
            }
        }
        /// Desired state of the widget.
        /// - first point
        ///   continues here
        #[derive(
            Clone,
            Debug,
            PartialEq,
            ::informer_runtime::serde::Serialize,
            ::informer_runtime::serde::Deserialize
        )]
        #[serde(crate = "::informer_runtime::serde")]
        pub struct WidgetSpec {
            /// Field `config`.
            #[serde(default, skip_serializing_if = "::std::option::Option::is_none")]
            pub config: ::std::option::Option<::informer_runtime::serde_json::Value>,
            /// Field `for`.
            #[serde(default, skip_serializing_if = "::std::option::Option::is_none")]
            pub r#for: ::std::option::Option<::std::string::String>,
            /// Free-form JSON: the `oneOf` branches of this schema share no single Rust type.
            #[serde(default, skip_serializing_if = "::std::option::Option::is_none")]
            pub free: ::std::option::Option<::informer_runtime::serde_json::Value>,
            /// Field `hugepages-1Gi`.
            #[serde(
                rename = "hugepages-1Gi",
                default,
                skip_serializing_if = "::std::option::Option::is_none"
            )]
            pub hugepages_1gi: ::std::option::Option<
                ::informer_runtime::k8s_openapi::apimachinery::pkg::util::intstr::IntOrString,
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
                ::informer_runtime::k8s_openapi::apimachinery::pkg::util::intstr::IntOrString,
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
            /// Validation rule: `self >= 0` — message: `'size ' + string(self) + ' is negative'` (reason `FieldValueForbidden`)
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
        /// Object at `spec.versions[0].schema.openAPIV3Schema.properties.spec.properties.rules.items`.
        #[derive(
            Clone,
            Debug,
            Default,
            PartialEq,
            ::informer_runtime::serde::Serialize,
            ::informer_runtime::serde::Deserialize
        )]
        #[serde(crate = "::informer_runtime::serde")]
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
        /// Object at `spec.versions[0].schema.openAPIV3Schema.properties.spec.properties.template`.
        ///
        /// Fields the schema does not declare are kept in `rest`.
        #[derive(
            Clone,
            Debug,
            Default,
            PartialEq,
            ::informer_runtime::serde::Serialize,
            ::informer_runtime::serde::Deserialize
        )]
        #[serde(crate = "::informer_runtime::serde")]
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
                ::informer_runtime::serde_json::Value,
            >,
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
        impl ::informer_runtime::serde::Serialize for WidgetSpecType {
            fn serialize<S: ::informer_runtime::serde::Serializer>(
                &self,
                serializer: S,
            ) -> ::std::result::Result<S::Ok, S::Error> {
                serializer.serialize_str(self.as_str())
            }
        }
        impl<'de> ::informer_runtime::serde::Deserialize<'de> for WidgetSpecType {
            fn deserialize<D: ::informer_runtime::serde::Deserializer<'de>>(
                deserializer: D,
            ) -> ::std::result::Result<Self, D::Error> {
                <::std::string::String as ::informer_runtime::serde::Deserialize<
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
            ::informer_runtime::serde::Serialize,
            ::informer_runtime::serde::Deserialize
        )]
        #[serde(crate = "::informer_runtime::serde")]
        pub struct WidgetStatus {
            /// Field `lastUpdated`.
            #[serde(
                rename = "lastUpdated",
                default,
                skip_serializing_if = "::std::option::Option::is_none"
            )]
            pub last_updated: ::std::option::Option<
                ::informer_runtime::k8s_openapi::apimachinery::pkg::apis::meta::v1::Time,
            >,
            /// Field `phase`.
            #[serde(default, skip_serializing_if = "::std::option::Option::is_none")]
            pub phase: ::std::option::Option<WidgetStatusPhase>,
            /// Field `replicas`.
            #[serde(default, skip_serializing_if = "::std::option::Option::is_none")]
            pub replicas: ::std::option::Option<i32>,
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
        impl ::informer_runtime::serde::Serialize for WidgetStatusPhase {
            fn serialize<S: ::informer_runtime::serde::Serializer>(
                &self,
                serializer: S,
            ) -> ::std::result::Result<S::Ok, S::Error> {
                serializer.serialize_str(self.as_str())
            }
        }
        impl<'de> ::informer_runtime::serde::Deserialize<'de> for WidgetStatusPhase {
            fn deserialize<D: ::informer_runtime::serde::Deserializer<'de>>(
                deserializer: D,
            ) -> ::std::result::Result<Self, D::Error> {
                <::std::string::String as ::informer_runtime::serde::Deserialize<
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
        #[derive(
            Clone,
            Debug,
            Default,
            PartialEq,
            ::informer_runtime::serde::Deserialize
        )]
        #[serde(crate = "::informer_runtime::serde")]
        pub struct Widget {
            /// Standard object metadata.
            #[serde(default)]
            pub metadata: ::informer_runtime::k8s_openapi::apimachinery::pkg::apis::meta::v1::ObjectMeta,
            /// Field `spec`.
            #[serde(default, skip_serializing_if = "::std::option::Option::is_none")]
            pub spec: ::std::option::Option<WidgetSpec>,
        }
        impl ::informer_runtime::k8s_openapi::Resource for Widget {
            const API_VERSION: &'static str = "example.com/v1beta1";
            const GROUP: &'static str = "example.com";
            const KIND: &'static str = "Widget";
            const VERSION: &'static str = "v1beta1";
            const URL_PATH_SEGMENT: &'static str = "widgets";
            type Scope = ::informer_runtime::k8s_openapi::NamespaceResourceScope;
        }
        impl ::informer_runtime::k8s_openapi::ListableResource for Widget {
            const LIST_KIND: &'static str = "WidgetList";
        }
        impl ::informer_runtime::k8s_openapi::Metadata for Widget {
            type Ty = ::informer_runtime::k8s_openapi::apimachinery::pkg::apis::meta::v1::ObjectMeta;
            fn metadata(&self) -> &Self::Ty {
                &self.metadata
            }
            fn metadata_mut(&mut self) -> &mut Self::Ty {
                &mut self.metadata
            }
        }
        /// Writes `apiVersion` and `kind` first, like the built-in k8s-openapi types.
        impl ::informer_runtime::serde::Serialize for Widget {
            fn serialize<S: ::informer_runtime::serde::Serializer>(
                &self,
                serializer: S,
            ) -> ::std::result::Result<S::Ok, S::Error> {
                use ::informer_runtime::serde::ser::SerializeMap as _;
                let mut map = serializer.serialize_map(::std::option::Option::None)?;
                map.serialize_entry(
                    "apiVersion",
                    <Self as ::informer_runtime::k8s_openapi::Resource>::API_VERSION,
                )?;
                map.serialize_entry(
                    "kind",
                    <Self as ::informer_runtime::k8s_openapi::Resource>::KIND,
                )?;
                map.serialize_entry("metadata", &self.metadata)?;
                if let ::std::option::Option::Some(value) = &self.spec {
                    map.serialize_entry("spec", value)?;
                }
                map.end()
            }
        }
        /// Object at `spec.versions[1].schema.openAPIV3Schema.properties.spec`.
        #[derive(
            Clone,
            Debug,
            Default,
            PartialEq,
            ::informer_runtime::serde::Serialize,
            ::informer_runtime::serde::Deserialize
        )]
        #[serde(crate = "::informer_runtime::serde")]
        pub struct WidgetSpec {
            /// Field `size`.
            #[serde(default, skip_serializing_if = "::std::option::Option::is_none")]
            pub size: ::std::option::Option<i64>,
        }
    }
}
/// Custom resources of API group `tools.example.org`.
pub mod tools_example_org {
    /// `tools.example.org/v2`: `Gadget`.
    pub mod v2 {
        /// Fields the schema does not declare are kept in `rest`.
        ///
        /// Custom resource `tools.example.org/v2` `Gadget` (`gadgets`, cluster-scoped), from CRD `gadgets.tools.example.org`.
        ///
        /// This is the storage version.
        #[derive(
            Clone,
            Debug,
            Default,
            PartialEq,
            ::informer_runtime::serde::Deserialize
        )]
        #[serde(crate = "::informer_runtime::serde")]
        pub struct Gadget {
            /// Standard object metadata.
            #[serde(default)]
            pub metadata: ::informer_runtime::k8s_openapi::apimachinery::pkg::apis::meta::v1::ObjectMeta,
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
                    ::informer_runtime::serde_json::Value,
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
                ::informer_runtime::serde_json::Value,
            >,
        }
        impl ::informer_runtime::k8s_openapi::Resource for Gadget {
            const API_VERSION: &'static str = "tools.example.org/v2";
            const GROUP: &'static str = "tools.example.org";
            const KIND: &'static str = "Gadget";
            const VERSION: &'static str = "v2";
            const URL_PATH_SEGMENT: &'static str = "gadgets";
            type Scope = ::informer_runtime::k8s_openapi::ClusterResourceScope;
        }
        impl ::informer_runtime::k8s_openapi::ListableResource for Gadget {
            const LIST_KIND: &'static str = "GadgetList";
        }
        impl ::informer_runtime::k8s_openapi::Metadata for Gadget {
            type Ty = ::informer_runtime::k8s_openapi::apimachinery::pkg::apis::meta::v1::ObjectMeta;
            fn metadata(&self) -> &Self::Ty {
                &self.metadata
            }
            fn metadata_mut(&mut self) -> &mut Self::Ty {
                &mut self.metadata
            }
        }
        /// Writes `apiVersion` and `kind` first, like the built-in k8s-openapi types.
        impl ::informer_runtime::serde::Serialize for Gadget {
            fn serialize<S: ::informer_runtime::serde::Serializer>(
                &self,
                serializer: S,
            ) -> ::std::result::Result<S::Ok, S::Error> {
                use ::informer_runtime::serde::ser::SerializeMap as _;
                let mut map = serializer.serialize_map(::std::option::Option::None)?;
                map.serialize_entry(
                    "apiVersion",
                    <Self as ::informer_runtime::k8s_openapi::Resource>::API_VERSION,
                )?;
                map.serialize_entry(
                    "kind",
                    <Self as ::informer_runtime::k8s_openapi::Resource>::KIND,
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
    }
}
