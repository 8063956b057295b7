/// Shared informers of every resource of the golden fixture: one informer per type, started, synced and shut down together (client-go's `SharedInformerFactory`).
#[derive(Clone)]
#[allow(dead_code)]
pub struct SharedInformerFactory {
    factory: ::informer_runtime::SharedInformerFactoryCore,
}
#[allow(dead_code)]
impl ::std::convert::From<::informer_runtime::SharedInformerFactoryCore>
for SharedInformerFactory {
    fn from(factory: ::informer_runtime::SharedInformerFactoryCore) -> Self {
        Self { factory }
    }
}
/// `start()`, `wait_for_cache_sync()`, `wait_for_cache_sync_timeout()` and
/// `shutdown()`, as every factory of the runtime has them.
#[allow(dead_code)]
impl ::informer_runtime::InformerFactory for SharedInformerFactory {
    #[inline]
    fn factory_core(&self) -> &::informer_runtime::SharedInformerFactoryCore {
        &self.factory
    }
}
#[allow(dead_code)]
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
    /// The factory's shared informer of `source`, the same on every call (client-go's
    /// `InformerFor`): for types this factory does not generate, e.g. a kube-rs type's
    /// `informer_runtime::kube::resource::<Widget>()`.
    #[inline]
    pub fn informer_for<K: ::informer_runtime::Object>(
        &self,
        source: impl ::informer_runtime::InformerSource<K>,
    ) -> ::informer_runtime::SharedIndexInformer<K> {
        self.factory.informer_for(source)
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
            ("apps", "v1", "deployments") => {
                ::std::result::Result::Ok(
                    ::informer_runtime::GenericInformer::new(
                        gvr.clone(),
                        self.apps().v1().deployments().informer(),
                    ),
                )
            }
            ("autoscaling", "v1", "horizontalpodautoscalers") => {
                ::std::result::Result::Ok(
                    ::informer_runtime::GenericInformer::new(
                        gvr.clone(),
                        self.autoscaling().v1().horizontal_pod_autoscalers().informer(),
                    ),
                )
            }
            ("autoscaling", "v2", "horizontalpodautoscalers") => {
                ::std::result::Result::Ok(
                    ::informer_runtime::GenericInformer::new(
                        gvr.clone(),
                        self.autoscaling().v2().horizontal_pod_autoscalers().informer(),
                    ),
                )
            }
            ("", "v1", "nodes") => {
                ::std::result::Result::Ok(
                    ::informer_runtime::GenericInformer::new(
                        gvr.clone(),
                        self.core().v1().nodes().informer(),
                    ),
                )
            }
            ("", "v1", "pods") => {
                ::std::result::Result::Ok(
                    ::informer_runtime::GenericInformer::new(
                        gvr.clone(),
                        self.core().v1().pods().informer(),
                    ),
                )
            }
            ("flowcontrol.apiserver.k8s.io", "v1", "flowschemas") => {
                ::std::result::Result::Ok(
                    ::informer_runtime::GenericInformer::new(
                        gvr.clone(),
                        self.flowcontrol_apiserver().v1().flow_schemas().informer(),
                    ),
                )
            }
            ("rbac.authorization.k8s.io", "v1", "clusterroles") => {
                ::std::result::Result::Ok(
                    ::informer_runtime::GenericInformer::new(
                        gvr.clone(),
                        self.rbac_authorization().v1().cluster_roles().informer(),
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
    /// The informers of `apps`.
    #[inline]
    pub fn apps(&self) -> apps::Group {
        apps::Group::new(self.factory.clone())
    }
    /// The informers of `autoscaling`.
    #[inline]
    pub fn autoscaling(&self) -> autoscaling::Group {
        autoscaling::Group::new(self.factory.clone())
    }
    /// The informers of the core API group (`""`).
    #[inline]
    pub fn core(&self) -> core::Group {
        core::Group::new(self.factory.clone())
    }
    /// The informers of `flowcontrol.apiserver.k8s.io`.
    #[inline]
    pub fn flowcontrol_apiserver(&self) -> flowcontrol_apiserver::Group {
        flowcontrol_apiserver::Group::new(self.factory.clone())
    }
    /// The informers of `rbac.authorization.k8s.io`.
    #[inline]
    pub fn rbac_authorization(&self) -> rbac_authorization::Group {
        rbac_authorization::Group::new(self.factory.clone())
    }
}
/// Typed clients of every resource of the golden fixture, by group and version (client-go's `Clientset`): `clientset.<group>().<version>().<resources>(namespace)` is the runtime's `Api` of that resource in that namespace, `<resources>_all()` the same in every namespace, and `<resources>()` the `Api` of a cluster-scoped resource. Subresource methods (`update_status`, `get_scale`, ...) exist only where the resource has the subresource. Cheap to clone.
///
/// ```no_run
#[doc = concat!(" use ", module_path!(), "::Clientset;")]
/// # async fn run(client: ::informer_runtime::Client) -> ::std::result::Result<(), ::informer_runtime::Error> {
/// let clientset = Clientset::new(client);
/// let deployments = clientset.apps().v1().deployments("default");
/// let listed = deployments.list(&::informer_runtime::ListOptions::default()).await?;
/// match deployments.get("example").await {
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
    client: ::informer_runtime::Client,
}
#[allow(dead_code)]
impl Clientset {
    /// The clientset over `client` (its server, credentials and default namespace).
    #[inline]
    pub fn new(client: ::informer_runtime::Client) -> Self {
        Self { client }
    }
    /// The typed clients of `apps`.
    #[inline]
    pub fn apps(&self) -> apps::ClientsetGroup {
        apps::ClientsetGroup::new(self.client.clone())
    }
    /// The typed clients of `autoscaling`.
    #[inline]
    pub fn autoscaling(&self) -> autoscaling::ClientsetGroup {
        autoscaling::ClientsetGroup::new(self.client.clone())
    }
    /// The typed clients of the core API group (`""`).
    #[inline]
    pub fn core(&self) -> core::ClientsetGroup {
        core::ClientsetGroup::new(self.client.clone())
    }
    /// The typed clients of `flowcontrol.apiserver.k8s.io`.
    #[inline]
    pub fn flowcontrol_apiserver(&self) -> flowcontrol_apiserver::ClientsetGroup {
        flowcontrol_apiserver::ClientsetGroup::new(self.client.clone())
    }
    /// The typed clients of `rbac.authorization.k8s.io`.
    #[inline]
    pub fn rbac_authorization(&self) -> rbac_authorization::ClientsetGroup {
        rbac_authorization::ClientsetGroup::new(self.client.clone())
    }
}
/// Metadata-only informers of every resource of the golden fixture, by group and version: `metadata_factory.<group>().<version>().<resources>()` is the factory's `typed::<Kind>()` informer, caching only each object's `ObjectMeta` (`PartialObjectMeta<Kind>`), the same informer on every call.
///
/// Implemented for the runtime's `MetadataSharedInformerFactory`; bring it into scope to use the accessors.
#[allow(dead_code)]
pub trait MetadataGroups {
    /// The metadata-only informers of `apps`.
    fn apps(&self) -> apps::MetadataGroup;
    /// The metadata-only informers of `autoscaling`.
    fn autoscaling(&self) -> autoscaling::MetadataGroup;
    /// The metadata-only informers of the core API group (`""`).
    fn core(&self) -> core::MetadataGroup;
    /// The metadata-only informers of `flowcontrol.apiserver.k8s.io`.
    fn flowcontrol_apiserver(&self) -> flowcontrol_apiserver::MetadataGroup;
    /// The metadata-only informers of `rbac.authorization.k8s.io`.
    fn rbac_authorization(&self) -> rbac_authorization::MetadataGroup;
}
#[allow(dead_code)]
impl MetadataGroups for ::informer_runtime::MetadataSharedInformerFactory {
    #[inline]
    fn apps(&self) -> apps::MetadataGroup {
        apps::MetadataGroup::new(self.clone())
    }
    #[inline]
    fn autoscaling(&self) -> autoscaling::MetadataGroup {
        autoscaling::MetadataGroup::new(self.clone())
    }
    #[inline]
    fn core(&self) -> core::MetadataGroup {
        core::MetadataGroup::new(self.clone())
    }
    #[inline]
    fn flowcontrol_apiserver(&self) -> flowcontrol_apiserver::MetadataGroup {
        flowcontrol_apiserver::MetadataGroup::new(self.clone())
    }
    #[inline]
    fn rbac_authorization(&self) -> rbac_authorization::MetadataGroup {
        rbac_authorization::MetadataGroup::new(self.clone())
    }
}
/// Informers of apps.
#[allow(dead_code)]
pub mod apps {
    /// The informers of apps in a factory, by version.
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
    }
    /// The typed clients of apps, by version.
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
    }
    /// The metadata-only informers of apps in a `MetadataSharedInformerFactory`, by version.
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
    }
    /// Informers of apps/v1.
    pub mod v1 {
        /// The informers of apps/v1 in a factory (client-go's `apps/v1` `Interface`).
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
            /// The shared informer of Deployment objects (apps/v1, kind Deployment), registered in the factory on the first call (so `start()` and `wait_for_cache_sync()` include it), the same on every later call.
            #[inline]
            pub fn deployments(&self) -> DeploymentInformer {
                DeploymentInformer::new(self.factory.clone())
            }
        }
        /// The typed clients of apps/v1, one accessor per resource.
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
            /// The typed client of [`Deployment`](k8s_openapi::api::apps::v1::Deployment) objects (apps/v1, kind Deployment) in `namespace`. With the status and scale subresources (`get_status`, `update_status`, `patch_status`, `get_scale`, `update_scale`, `patch_scale`).
            #[inline]
            pub fn deployments(
                &self,
                namespace: &str,
            ) -> ::informer_runtime::api::Api<
                ::k8s_openapi::api::apps::v1::Deployment,
                ::informer_runtime::api::StatusAndScale,
            > {
                ::informer_runtime::api::Api::namespaced(self.client.clone(), namespace)
            }
            /// The typed client of [`Deployment`](k8s_openapi::api::apps::v1::Deployment) objects (apps/v1, kind Deployment) in every namespace: list, watch and delete_collection span all namespaces, create and update take the object's namespace, by-name calls need [`Self::deployments`]. With the status and scale subresources (`get_status`, `update_status`, `patch_status`, `get_scale`, `update_scale`, `patch_scale`).
            #[inline]
            pub fn deployments_all(
                &self,
            ) -> ::informer_runtime::api::Api<
                ::k8s_openapi::api::apps::v1::Deployment,
                ::informer_runtime::api::StatusAndScale,
            > {
                ::informer_runtime::api::Api::all(self.client.clone())
            }
        }
        /// The metadata-only informers of apps/v1 in a `MetadataSharedInformerFactory`.
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
            /// The metadata-only informer of [`Deployment`](k8s_openapi::api::apps::v1::Deployment) objects (apps/v1, kind Deployment): `PartialObjectMeta<Deployment>`, made on the first call, the same on every later call (`metadata::typed::<Deployment>()` in the factory).
            #[inline]
            pub fn deployments(
                &self,
            ) -> ::informer_runtime::metadata::MetadataInformer<
                ::k8s_openapi::api::apps::v1::Deployment,
            > {
                ::informer_runtime::dynamic::ResourceInformer::from_factory(
                    ::informer_runtime::InformerFactory::factory_core(&self.factory),
                    ::informer_runtime::metadata::typed::<
                        ::k8s_openapi::api::apps::v1::Deployment,
                    >(),
                )
            }
        }
        /// The shared informer of [`Deployment`](k8s_openapi::api::apps::v1::Deployment) objects (apps/v1, kind Deployment) in a factory (client-go's `DeploymentInformer`).
        #[derive(Clone)]
        pub struct DeploymentInformer {
            ask: ::informer_runtime::InformerAsk<
                ::k8s_openapi::api::apps::v1::Deployment,
            >,
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
            pub fn lister(&self) -> ::listers::apps::v1::DeploymentLister {
                ::listers::apps::v1::DeploymentLister::new(self.ask.informer().indexer())
            }
            /// The factory's shared informer of the projection `V` of Deployment objects: a struct of your own with only the fields you read (declared with `informer_runtime::projection!(View => Deployment)`), decoded straight from the list and watch bytes, cached and indexed instead of whole Deployment objects. One informer per view type, registered as `apps/v1/deployments as <V>` on the first call and listing and watching as the Deployment informer does (the factory's namespace, `tweak_list_options`, resync and transforms apply). Asking for the projection does not build the full Deployment informer.
            #[inline]
            pub fn projected<
                V: ::informer_runtime::Projection<
                        Of = ::k8s_openapi::api::apps::v1::Deployment,
                    >,
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
            indexers: ::informer_runtime::Indexers<
                ::k8s_openapi::api::apps::v1::Deployment,
            >,
        ) -> ::informer_runtime::SharedIndexInformer<
            ::k8s_openapi::api::apps::v1::Deployment,
        > {
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
            indexers: ::informer_runtime::Indexers<
                ::k8s_openapi::api::apps::v1::Deployment,
            >,
            tweak_list_options: ::std::option::Option<
                ::informer_runtime::TweakListOptions,
            >,
        ) -> ::informer_runtime::SharedIndexInformer<
            ::k8s_openapi::api::apps::v1::Deployment,
        > {
            let mut options = ::informer_runtime::InformerOptions::default()
                .resync(resync)
                .indexers(indexers);
            options.tweak_list_options = tweak_list_options;
            ::informer_runtime::new_informer(
                &client,
                &::informer_runtime::source::typed::<
                    ::k8s_openapi::api::apps::v1::Deployment,
                >(),
                namespace,
                options,
            )
        }
    }
}
/// Informers of autoscaling.
#[allow(dead_code)]
pub mod autoscaling {
    /// The informers of autoscaling in a factory, by version.
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
        /// The informers of version v2.
        #[inline]
        pub fn v2(&self) -> v2::Version {
            v2::Version::new(self.factory.clone())
        }
    }
    /// The typed clients of autoscaling, by version.
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
        /// The typed clients of version v2.
        #[inline]
        pub fn v2(&self) -> v2::ClientsetVersion {
            v2::ClientsetVersion::new(self.client.clone())
        }
    }
    /// The metadata-only informers of autoscaling in a `MetadataSharedInformerFactory`, by version.
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
        /// The metadata-only informers of version v2.
        #[inline]
        pub fn v2(&self) -> v2::MetadataVersion {
            v2::MetadataVersion::new(self.factory.clone())
        }
    }
    /// Informers of autoscaling/v1.
    pub mod v1 {
        /// The informers of autoscaling/v1 in a factory (client-go's `autoscaling/v1` `Interface`).
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
            /// The shared informer of HorizontalPodAutoscaler objects (autoscaling/v1, kind HorizontalPodAutoscaler), registered in the factory on the first call (so `start()` and `wait_for_cache_sync()` include it), the same on every later call.
            #[inline]
            pub fn horizontal_pod_autoscalers(&self) -> HorizontalPodAutoscalerInformer {
                HorizontalPodAutoscalerInformer::new(self.factory.clone())
            }
        }
        /// The typed clients of autoscaling/v1, one accessor per resource.
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
            /// The typed client of [`HorizontalPodAutoscaler`](k8s_openapi::api::autoscaling::v1::HorizontalPodAutoscaler) objects (autoscaling/v1, kind HorizontalPodAutoscaler) in `namespace`. With the status subresource (`get_status`, `update_status`, `patch_status`).
            #[inline]
            pub fn horizontal_pod_autoscalers(
                &self,
                namespace: &str,
            ) -> ::informer_runtime::api::Api<
                ::k8s_openapi::api::autoscaling::v1::HorizontalPodAutoscaler,
                ::informer_runtime::api::StatusSubresource,
            > {
                ::informer_runtime::api::Api::namespaced(self.client.clone(), namespace)
            }
            /// The typed client of [`HorizontalPodAutoscaler`](k8s_openapi::api::autoscaling::v1::HorizontalPodAutoscaler) objects (autoscaling/v1, kind HorizontalPodAutoscaler) in every namespace: list, watch and delete_collection span all namespaces, create and update take the object's namespace, by-name calls need [`Self::horizontal_pod_autoscalers`]. With the status subresource (`get_status`, `update_status`, `patch_status`).
            #[inline]
            pub fn horizontal_pod_autoscalers_all(
                &self,
            ) -> ::informer_runtime::api::Api<
                ::k8s_openapi::api::autoscaling::v1::HorizontalPodAutoscaler,
                ::informer_runtime::api::StatusSubresource,
            > {
                ::informer_runtime::api::Api::all(self.client.clone())
            }
        }
        /// The metadata-only informers of autoscaling/v1 in a `MetadataSharedInformerFactory`.
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
            /// The metadata-only informer of [`HorizontalPodAutoscaler`](k8s_openapi::api::autoscaling::v1::HorizontalPodAutoscaler) objects (autoscaling/v1, kind HorizontalPodAutoscaler): `PartialObjectMeta<HorizontalPodAutoscaler>`, made on the first call, the same on every later call (`metadata::typed::<HorizontalPodAutoscaler>()` in the factory).
            #[inline]
            pub fn horizontal_pod_autoscalers(
                &self,
            ) -> ::informer_runtime::metadata::MetadataInformer<
                ::k8s_openapi::api::autoscaling::v1::HorizontalPodAutoscaler,
            > {
                ::informer_runtime::dynamic::ResourceInformer::from_factory(
                    ::informer_runtime::InformerFactory::factory_core(&self.factory),
                    ::informer_runtime::metadata::typed::<
                        ::k8s_openapi::api::autoscaling::v1::HorizontalPodAutoscaler,
                    >(),
                )
            }
        }
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
            pub fn lister(
                &self,
            ) -> ::listers::autoscaling::v1::HorizontalPodAutoscalerLister {
                ::listers::autoscaling::v1::HorizontalPodAutoscalerLister::new(
                    self.ask.informer().indexer(),
                )
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
            tweak_list_options: ::std::option::Option<
                ::informer_runtime::TweakListOptions,
            >,
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
    }
    /// Informers of autoscaling/v2.
    pub mod v2 {
        /// The informers of autoscaling/v2 in a factory (client-go's `autoscaling/v2` `Interface`).
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
            /// The shared informer of HorizontalPodAutoscaler objects (autoscaling/v2, kind HorizontalPodAutoscaler), registered in the factory on the first call (so `start()` and `wait_for_cache_sync()` include it), the same on every later call.
            #[inline]
            pub fn horizontal_pod_autoscalers(&self) -> HorizontalPodAutoscalerInformer {
                HorizontalPodAutoscalerInformer::new(self.factory.clone())
            }
        }
        /// The typed clients of autoscaling/v2, one accessor per resource.
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
            /// The typed client of [`HorizontalPodAutoscaler`](k8s_openapi::api::autoscaling::v2::HorizontalPodAutoscaler) objects (autoscaling/v2, kind HorizontalPodAutoscaler) in `namespace`. With the status subresource (`get_status`, `update_status`, `patch_status`).
            #[inline]
            pub fn horizontal_pod_autoscalers(
                &self,
                namespace: &str,
            ) -> ::informer_runtime::api::Api<
                ::k8s_openapi::api::autoscaling::v2::HorizontalPodAutoscaler,
                ::informer_runtime::api::StatusSubresource,
            > {
                ::informer_runtime::api::Api::namespaced(self.client.clone(), namespace)
            }
            /// The typed client of [`HorizontalPodAutoscaler`](k8s_openapi::api::autoscaling::v2::HorizontalPodAutoscaler) objects (autoscaling/v2, kind HorizontalPodAutoscaler) in every namespace: list, watch and delete_collection span all namespaces, create and update take the object's namespace, by-name calls need [`Self::horizontal_pod_autoscalers`]. With the status subresource (`get_status`, `update_status`, `patch_status`).
            #[inline]
            pub fn horizontal_pod_autoscalers_all(
                &self,
            ) -> ::informer_runtime::api::Api<
                ::k8s_openapi::api::autoscaling::v2::HorizontalPodAutoscaler,
                ::informer_runtime::api::StatusSubresource,
            > {
                ::informer_runtime::api::Api::all(self.client.clone())
            }
        }
        /// The metadata-only informers of autoscaling/v2 in a `MetadataSharedInformerFactory`.
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
            /// The metadata-only informer of [`HorizontalPodAutoscaler`](k8s_openapi::api::autoscaling::v2::HorizontalPodAutoscaler) objects (autoscaling/v2, kind HorizontalPodAutoscaler): `PartialObjectMeta<HorizontalPodAutoscaler>`, made on the first call, the same on every later call (`metadata::typed::<HorizontalPodAutoscaler>()` in the factory).
            #[inline]
            pub fn horizontal_pod_autoscalers(
                &self,
            ) -> ::informer_runtime::metadata::MetadataInformer<
                ::k8s_openapi::api::autoscaling::v2::HorizontalPodAutoscaler,
            > {
                ::informer_runtime::dynamic::ResourceInformer::from_factory(
                    ::informer_runtime::InformerFactory::factory_core(&self.factory),
                    ::informer_runtime::metadata::typed::<
                        ::k8s_openapi::api::autoscaling::v2::HorizontalPodAutoscaler,
                    >(),
                )
            }
        }
        /// The shared informer of [`HorizontalPodAutoscaler`](k8s_openapi::api::autoscaling::v2::HorizontalPodAutoscaler) objects (autoscaling/v2, kind HorizontalPodAutoscaler) in a factory (client-go's `HorizontalPodAutoscalerInformer`).
        #[derive(Clone)]
        pub struct HorizontalPodAutoscalerInformer {
            ask: ::informer_runtime::InformerAsk<
                ::k8s_openapi::api::autoscaling::v2::HorizontalPodAutoscaler,
            >,
        }
        impl HorizontalPodAutoscalerInformer {
            /// The HorizontalPodAutoscaler informer of `factory`, asked for there (as `autoscaling/v2/horizontalpodautoscalers`), so that the factory's `start()` and `wait_for_cache_sync()` include it; built on first use (or when the factory starts), the same informer on every later call (what the version accessor returns).
            #[inline]
            pub fn new(factory: ::informer_runtime::SharedInformerFactoryCore) -> Self {
                Self {
                    ask: ::informer_runtime::InformerAsk::new(
                        factory,
                        ::informer_runtime::source::typed::<
                            ::k8s_openapi::api::autoscaling::v2::HorizontalPodAutoscaler,
                        >(),
                    ),
                }
            }
            /// The factory's shared informer of HorizontalPodAutoscaler objects, registered as `autoscaling/v2/horizontalpodautoscalers`.
            #[inline]
            pub fn informer(
                &self,
            ) -> ::informer_runtime::SharedIndexInformer<
                ::k8s_openapi::api::autoscaling::v2::HorizontalPodAutoscaler,
            > {
                self.ask.informer()
            }
            /// A lister reading the shared HorizontalPodAutoscaler informer's cache.
            #[inline]
            pub fn lister(
                &self,
            ) -> ::listers::autoscaling::v2::HorizontalPodAutoscalerLister {
                ::listers::autoscaling::v2::HorizontalPodAutoscalerLister::new(
                    self.ask.informer().indexer(),
                )
            }
            /// The factory's shared informer of the projection `V` of HorizontalPodAutoscaler objects: a struct of your own with only the fields you read (declared with `informer_runtime::projection!(View => HorizontalPodAutoscaler)`), decoded straight from the list and watch bytes, cached and indexed instead of whole HorizontalPodAutoscaler objects. One informer per view type, registered as `autoscaling/v2/horizontalpodautoscalers as <V>` on the first call and listing and watching as the HorizontalPodAutoscaler informer does (the factory's namespace, `tweak_list_options`, resync and transforms apply). Asking for the projection does not build the full HorizontalPodAutoscaler informer.
            #[inline]
            pub fn projected<
                V: ::informer_runtime::Projection<
                        Of = ::k8s_openapi::api::autoscaling::v2::HorizontalPodAutoscaler,
                    >,
            >(self) -> ::informer_runtime::ProjectedInformer<V> {
                self.ask.projected()
            }
        }
        /// A new, unshared informer of [`HorizontalPodAutoscaler`](k8s_openapi::api::autoscaling::v2::HorizontalPodAutoscaler) objects (autoscaling/v2, kind HorizontalPodAutoscaler) in `namespace` (every namespace when `None`) (client-go's `NewHorizontalPodAutoscalerInformer`).
        ///
        /// Prefer the factory's shared informer; this one is for callers that need their own.
        #[inline]
        pub fn new_horizontal_pod_autoscaler_informer(
            client: ::informer_runtime::Client,
            namespace: ::std::option::Option<&str>,
            resync: ::std::time::Duration,
            indexers: ::informer_runtime::Indexers<
                ::k8s_openapi::api::autoscaling::v2::HorizontalPodAutoscaler,
            >,
        ) -> ::informer_runtime::SharedIndexInformer<
            ::k8s_openapi::api::autoscaling::v2::HorizontalPodAutoscaler,
        > {
            new_filtered_horizontal_pod_autoscaler_informer(
                client,
                namespace,
                resync,
                indexers,
                ::std::option::Option::None,
            )
        }
        /// A new, unshared informer of [`HorizontalPodAutoscaler`](k8s_openapi::api::autoscaling::v2::HorizontalPodAutoscaler) objects (autoscaling/v2, kind HorizontalPodAutoscaler) in `namespace` (every namespace when `None`), whose list and watch requests are first edited by `tweak_list_options` (client-go's `NewFilteredHorizontalPodAutoscalerInformer`). It lists and watches through the clientset's typed client of HorizontalPodAutoscaler objects, as client-go's does.
        #[inline]
        pub fn new_filtered_horizontal_pod_autoscaler_informer(
            client: ::informer_runtime::Client,
            namespace: ::std::option::Option<&str>,
            resync: ::std::time::Duration,
            indexers: ::informer_runtime::Indexers<
                ::k8s_openapi::api::autoscaling::v2::HorizontalPodAutoscaler,
            >,
            tweak_list_options: ::std::option::Option<
                ::informer_runtime::TweakListOptions,
            >,
        ) -> ::informer_runtime::SharedIndexInformer<
            ::k8s_openapi::api::autoscaling::v2::HorizontalPodAutoscaler,
        > {
            let mut options = ::informer_runtime::InformerOptions::default()
                .resync(resync)
                .indexers(indexers);
            options.tweak_list_options = tweak_list_options;
            ::informer_runtime::new_informer(
                &client,
                &::informer_runtime::source::typed::<
                    ::k8s_openapi::api::autoscaling::v2::HorizontalPodAutoscaler,
                >(),
                namespace,
                options,
            )
        }
    }
}
/// Informers of the core API group.
#[allow(dead_code)]
pub mod core {
    /// The informers of the core API group in a factory, by version.
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
    }
    /// The typed clients of the core API group, by version.
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
    }
    /// The metadata-only informers of the core API group in a `MetadataSharedInformerFactory`, by version.
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
    }
    /// Informers of core/v1.
    pub mod v1 {
        /// The informers of core/v1 in a factory (client-go's `core/v1` `Interface`).
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
            /// The shared informer of Node objects (core/v1, kind Node), registered in the factory on the first call (so `start()` and `wait_for_cache_sync()` include it), the same on every later call.
            #[inline]
            pub fn nodes(&self) -> NodeInformer {
                NodeInformer::new(self.factory.clone())
            }
            /// The shared informer of Pod objects (core/v1, kind Pod), registered in the factory on the first call (so `start()` and `wait_for_cache_sync()` include it), the same on every later call.
            #[inline]
            pub fn pods(&self) -> PodInformer {
                PodInformer::new(self.factory.clone())
            }
        }
        /// The typed clients of core/v1, one accessor per resource.
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
            /// The typed client of [`Node`](k8s_openapi::api::core::v1::Node) objects (core/v1, kind Node), cluster-scoped. With the status subresource (`get_status`, `update_status`, `patch_status`).
            #[inline]
            pub fn nodes(
                &self,
            ) -> ::informer_runtime::api::Api<
                ::k8s_openapi::api::core::v1::Node,
                ::informer_runtime::api::StatusSubresource,
            > {
                ::informer_runtime::api::Api::all(self.client.clone())
            }
            /// The typed client of [`Pod`](k8s_openapi::api::core::v1::Pod) objects (core/v1, kind Pod) in `namespace`. With the status subresource (`get_status`, `update_status`, `patch_status`).
            #[inline]
            pub fn pods(
                &self,
                namespace: &str,
            ) -> ::informer_runtime::api::Api<
                ::k8s_openapi::api::core::v1::Pod,
                ::informer_runtime::api::StatusSubresource,
            > {
                ::informer_runtime::api::Api::namespaced(self.client.clone(), namespace)
            }
            /// The typed client of [`Pod`](k8s_openapi::api::core::v1::Pod) objects (core/v1, kind Pod) in every namespace: list, watch and delete_collection span all namespaces, create and update take the object's namespace, by-name calls need [`Self::pods`]. With the status subresource (`get_status`, `update_status`, `patch_status`).
            #[inline]
            pub fn pods_all(
                &self,
            ) -> ::informer_runtime::api::Api<
                ::k8s_openapi::api::core::v1::Pod,
                ::informer_runtime::api::StatusSubresource,
            > {
                ::informer_runtime::api::Api::all(self.client.clone())
            }
        }
        /// The metadata-only informers of core/v1 in a `MetadataSharedInformerFactory`.
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
            /// The metadata-only informer of [`Node`](k8s_openapi::api::core::v1::Node) objects (core/v1, kind Node): `PartialObjectMeta<Node>`, made on the first call, the same on every later call (`metadata::typed::<Node>()` in the factory).
            #[inline]
            pub fn nodes(
                &self,
            ) -> ::informer_runtime::metadata::MetadataInformer<
                ::k8s_openapi::api::core::v1::Node,
            > {
                ::informer_runtime::dynamic::ResourceInformer::from_factory(
                    ::informer_runtime::InformerFactory::factory_core(&self.factory),
                    ::informer_runtime::metadata::typed::<
                        ::k8s_openapi::api::core::v1::Node,
                    >(),
                )
            }
            /// The metadata-only informer of [`Pod`](k8s_openapi::api::core::v1::Pod) objects (core/v1, kind Pod): `PartialObjectMeta<Pod>`, made on the first call, the same on every later call (`metadata::typed::<Pod>()` in the factory).
            #[inline]
            pub fn pods(
                &self,
            ) -> ::informer_runtime::metadata::MetadataInformer<
                ::k8s_openapi::api::core::v1::Pod,
            > {
                ::informer_runtime::dynamic::ResourceInformer::from_factory(
                    ::informer_runtime::InformerFactory::factory_core(&self.factory),
                    ::informer_runtime::metadata::typed::<
                        ::k8s_openapi::api::core::v1::Pod,
                    >(),
                )
            }
        }
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
                        ::informer_runtime::source::typed::<
                            ::k8s_openapi::api::core::v1::Node,
                        >(),
                    ),
                }
            }
            /// The factory's shared informer of Node objects, registered as `core/v1/nodes`.
            #[inline]
            pub fn informer(
                &self,
            ) -> ::informer_runtime::SharedIndexInformer<
                ::k8s_openapi::api::core::v1::Node,
            > {
                self.ask.informer()
            }
            /// A lister reading the shared Node informer's cache.
            #[inline]
            pub fn lister(&self) -> ::listers::core::v1::NodeLister {
                ::listers::core::v1::NodeLister::new(self.ask.informer().indexer())
            }
            /// The factory's shared informer of the projection `V` of Node objects: a struct of your own with only the fields you read (declared with `informer_runtime::projection!(View => Node)`), decoded straight from the list and watch bytes, cached and indexed instead of whole Node objects. One informer per view type, registered as `core/v1/nodes as <V>` on the first call and listing and watching as the Node informer does (the factory's namespace, `tweak_list_options`, resync and transforms apply). Asking for the projection does not build the full Node informer.
            #[inline]
            pub fn projected<
                V: ::informer_runtime::Projection<
                        Of = ::k8s_openapi::api::core::v1::Node,
                    >,
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
        ) -> ::informer_runtime::SharedIndexInformer<
            ::k8s_openapi::api::core::v1::Node,
        > {
            new_filtered_node_informer(
                client,
                resync,
                indexers,
                ::std::option::Option::None,
            )
        }
        /// A new, unshared informer of [`Node`](k8s_openapi::api::core::v1::Node) objects (core/v1, kind Node) (cluster-scoped), whose list and watch requests are first edited by `tweak_list_options` (client-go's `NewFilteredNodeInformer`). It lists and watches through the clientset's typed client of Node objects, as client-go's does.
        #[inline]
        pub fn new_filtered_node_informer(
            client: ::informer_runtime::Client,
            resync: ::std::time::Duration,
            indexers: ::informer_runtime::Indexers<::k8s_openapi::api::core::v1::Node>,
            tweak_list_options: ::std::option::Option<
                ::informer_runtime::TweakListOptions,
            >,
        ) -> ::informer_runtime::SharedIndexInformer<
            ::k8s_openapi::api::core::v1::Node,
        > {
            let mut options = ::informer_runtime::InformerOptions::default()
                .resync(resync)
                .indexers(indexers);
            options.tweak_list_options = tweak_list_options;
            ::informer_runtime::new_informer(
                &client,
                &::informer_runtime::source::typed::<
                    ::k8s_openapi::api::core::v1::Node,
                >(),
                ::std::option::Option::None,
                options,
            )
        }
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
                        ::informer_runtime::source::typed::<
                            ::k8s_openapi::api::core::v1::Pod,
                        >(),
                    ),
                }
            }
            /// The factory's shared informer of Pod objects, registered as `core/v1/pods`.
            #[inline]
            pub fn informer(
                &self,
            ) -> ::informer_runtime::SharedIndexInformer<
                ::k8s_openapi::api::core::v1::Pod,
            > {
                self.ask.informer()
            }
            /// A lister reading the shared Pod informer's cache.
            #[inline]
            pub fn lister(&self) -> ::listers::core::v1::PodLister {
                ::listers::core::v1::PodLister::new(self.ask.informer().indexer())
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
            tweak_list_options: ::std::option::Option<
                ::informer_runtime::TweakListOptions,
            >,
        ) -> ::informer_runtime::SharedIndexInformer<::k8s_openapi::api::core::v1::Pod> {
            let mut options = ::informer_runtime::InformerOptions::default()
                .resync(resync)
                .indexers(indexers);
            options.tweak_list_options = tweak_list_options;
            ::informer_runtime::new_informer(
                &client,
                &::informer_runtime::source::typed::<
                    ::k8s_openapi::api::core::v1::Pod,
                >(),
                namespace,
                options,
            )
        }
    }
}
/// Informers of flowcontrol.apiserver.k8s.io.
#[allow(dead_code)]
pub mod flowcontrol_apiserver {
    /// The informers of flowcontrol.apiserver.k8s.io in a factory, by version.
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
    }
    /// The typed clients of flowcontrol.apiserver.k8s.io, by version.
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
    }
    /// The metadata-only informers of flowcontrol.apiserver.k8s.io in a `MetadataSharedInformerFactory`, by version.
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
    }
    /// Informers of flowcontrol.apiserver.k8s.io/v1.
    pub mod v1 {
        /// The informers of flowcontrol.apiserver.k8s.io/v1 in a factory (client-go's `flowcontrol.apiserver.k8s.io/v1` `Interface`).
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
            /// The shared informer of FlowSchema objects (flowcontrol.apiserver.k8s.io/v1, kind FlowSchema), registered in the factory on the first call (so `start()` and `wait_for_cache_sync()` include it), the same on every later call.
            #[inline]
            pub fn flow_schemas(&self) -> FlowSchemaInformer {
                FlowSchemaInformer::new(self.factory.clone())
            }
        }
        /// The typed clients of flowcontrol.apiserver.k8s.io/v1, one accessor per resource.
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
            /// The typed client of [`FlowSchema`](k8s_openapi::api::flowcontrol::v1::FlowSchema) objects (flowcontrol.apiserver.k8s.io/v1, kind FlowSchema), cluster-scoped. With the status subresource (`get_status`, `update_status`, `patch_status`).
            #[inline]
            pub fn flow_schemas(
                &self,
            ) -> ::informer_runtime::api::Api<
                ::k8s_openapi::api::flowcontrol::v1::FlowSchema,
                ::informer_runtime::api::StatusSubresource,
            > {
                ::informer_runtime::api::Api::all(self.client.clone())
            }
        }
        /// The metadata-only informers of flowcontrol.apiserver.k8s.io/v1 in a `MetadataSharedInformerFactory`.
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
            /// The metadata-only informer of [`FlowSchema`](k8s_openapi::api::flowcontrol::v1::FlowSchema) objects (flowcontrol.apiserver.k8s.io/v1, kind FlowSchema): `PartialObjectMeta<FlowSchema>`, made on the first call, the same on every later call (`metadata::typed::<FlowSchema>()` in the factory).
            #[inline]
            pub fn flow_schemas(
                &self,
            ) -> ::informer_runtime::metadata::MetadataInformer<
                ::k8s_openapi::api::flowcontrol::v1::FlowSchema,
            > {
                ::informer_runtime::dynamic::ResourceInformer::from_factory(
                    ::informer_runtime::InformerFactory::factory_core(&self.factory),
                    ::informer_runtime::metadata::typed::<
                        ::k8s_openapi::api::flowcontrol::v1::FlowSchema,
                    >(),
                )
            }
        }
        /// The shared informer of [`FlowSchema`](k8s_openapi::api::flowcontrol::v1::FlowSchema) objects (flowcontrol.apiserver.k8s.io/v1, kind FlowSchema) in a factory (client-go's `FlowSchemaInformer`).
        #[derive(Clone)]
        pub struct FlowSchemaInformer {
            ask: ::informer_runtime::InformerAsk<
                ::k8s_openapi::api::flowcontrol::v1::FlowSchema,
            >,
        }
        impl FlowSchemaInformer {
            /// The FlowSchema informer of `factory`, asked for there (as `flowcontrol.apiserver.k8s.io/v1/flowschemas`), so that the factory's `start()` and `wait_for_cache_sync()` include it; built on first use (or when the factory starts), the same informer on every later call (what the version accessor returns).
            #[inline]
            pub fn new(factory: ::informer_runtime::SharedInformerFactoryCore) -> Self {
                Self {
                    ask: ::informer_runtime::InformerAsk::new(
                        factory,
                        ::informer_runtime::source::typed::<
                            ::k8s_openapi::api::flowcontrol::v1::FlowSchema,
                        >(),
                    ),
                }
            }
            /// The factory's shared informer of FlowSchema objects, registered as `flowcontrol.apiserver.k8s.io/v1/flowschemas`.
            #[inline]
            pub fn informer(
                &self,
            ) -> ::informer_runtime::SharedIndexInformer<
                ::k8s_openapi::api::flowcontrol::v1::FlowSchema,
            > {
                self.ask.informer()
            }
            /// A lister reading the shared FlowSchema informer's cache.
            #[inline]
            pub fn lister(
                &self,
            ) -> ::listers::flowcontrol_apiserver::v1::FlowSchemaLister {
                ::listers::flowcontrol_apiserver::v1::FlowSchemaLister::new(
                    self.ask.informer().indexer(),
                )
            }
            /// The factory's shared informer of the projection `V` of FlowSchema objects: a struct of your own with only the fields you read (declared with `informer_runtime::projection!(View => FlowSchema)`), decoded straight from the list and watch bytes, cached and indexed instead of whole FlowSchema objects. One informer per view type, registered as `flowcontrol.apiserver.k8s.io/v1/flowschemas as <V>` on the first call and listing and watching as the FlowSchema informer does (the factory's namespace, `tweak_list_options`, resync and transforms apply). Asking for the projection does not build the full FlowSchema informer.
            #[inline]
            pub fn projected<
                V: ::informer_runtime::Projection<
                        Of = ::k8s_openapi::api::flowcontrol::v1::FlowSchema,
                    >,
            >(self) -> ::informer_runtime::ProjectedInformer<V> {
                self.ask.projected()
            }
        }
        /// A new, unshared informer of [`FlowSchema`](k8s_openapi::api::flowcontrol::v1::FlowSchema) objects (flowcontrol.apiserver.k8s.io/v1, kind FlowSchema) (cluster-scoped) (client-go's `NewFlowSchemaInformer`).
        ///
        /// Prefer the factory's shared informer; this one is for callers that need their own.
        #[inline]
        pub fn new_flow_schema_informer(
            client: ::informer_runtime::Client,
            resync: ::std::time::Duration,
            indexers: ::informer_runtime::Indexers<
                ::k8s_openapi::api::flowcontrol::v1::FlowSchema,
            >,
        ) -> ::informer_runtime::SharedIndexInformer<
            ::k8s_openapi::api::flowcontrol::v1::FlowSchema,
        > {
            new_filtered_flow_schema_informer(
                client,
                resync,
                indexers,
                ::std::option::Option::None,
            )
        }
        /// A new, unshared informer of [`FlowSchema`](k8s_openapi::api::flowcontrol::v1::FlowSchema) objects (flowcontrol.apiserver.k8s.io/v1, kind FlowSchema) (cluster-scoped), whose list and watch requests are first edited by `tweak_list_options` (client-go's `NewFilteredFlowSchemaInformer`). It lists and watches through the clientset's typed client of FlowSchema objects, as client-go's does.
        #[inline]
        pub fn new_filtered_flow_schema_informer(
            client: ::informer_runtime::Client,
            resync: ::std::time::Duration,
            indexers: ::informer_runtime::Indexers<
                ::k8s_openapi::api::flowcontrol::v1::FlowSchema,
            >,
            tweak_list_options: ::std::option::Option<
                ::informer_runtime::TweakListOptions,
            >,
        ) -> ::informer_runtime::SharedIndexInformer<
            ::k8s_openapi::api::flowcontrol::v1::FlowSchema,
        > {
            let mut options = ::informer_runtime::InformerOptions::default()
                .resync(resync)
                .indexers(indexers);
            options.tweak_list_options = tweak_list_options;
            ::informer_runtime::new_informer(
                &client,
                &::informer_runtime::source::typed::<
                    ::k8s_openapi::api::flowcontrol::v1::FlowSchema,
                >(),
                ::std::option::Option::None,
                options,
            )
        }
    }
}
/// Informers of rbac.authorization.k8s.io.
#[allow(dead_code)]
pub mod rbac_authorization {
    /// The informers of rbac.authorization.k8s.io in a factory, by version.
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
    }
    /// The typed clients of rbac.authorization.k8s.io, by version.
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
    }
    /// The metadata-only informers of rbac.authorization.k8s.io in a `MetadataSharedInformerFactory`, by version.
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
    }
    /// Informers of rbac.authorization.k8s.io/v1.
    pub mod v1 {
        /// The informers of rbac.authorization.k8s.io/v1 in a factory (client-go's `rbac.authorization.k8s.io/v1` `Interface`).
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
            /// The shared informer of ClusterRole objects (rbac.authorization.k8s.io/v1, kind ClusterRole), registered in the factory on the first call (so `start()` and `wait_for_cache_sync()` include it), the same on every later call.
            #[inline]
            pub fn cluster_roles(&self) -> ClusterRoleInformer {
                ClusterRoleInformer::new(self.factory.clone())
            }
        }
        /// The typed clients of rbac.authorization.k8s.io/v1, one accessor per resource.
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
            /// The typed client of [`ClusterRole`](k8s_openapi::api::rbac::v1::ClusterRole) objects (rbac.authorization.k8s.io/v1, kind ClusterRole), cluster-scoped. No status or scale subresource.
            #[inline]
            pub fn cluster_roles(
                &self,
            ) -> ::informer_runtime::api::Api<
                ::k8s_openapi::api::rbac::v1::ClusterRole,
                ::informer_runtime::api::NoSubresources,
            > {
                ::informer_runtime::api::Api::all(self.client.clone())
            }
        }
        /// The metadata-only informers of rbac.authorization.k8s.io/v1 in a `MetadataSharedInformerFactory`.
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
            /// The metadata-only informer of [`ClusterRole`](k8s_openapi::api::rbac::v1::ClusterRole) objects (rbac.authorization.k8s.io/v1, kind ClusterRole): `PartialObjectMeta<ClusterRole>`, made on the first call, the same on every later call (`metadata::typed::<ClusterRole>()` in the factory).
            #[inline]
            pub fn cluster_roles(
                &self,
            ) -> ::informer_runtime::metadata::MetadataInformer<
                ::k8s_openapi::api::rbac::v1::ClusterRole,
            > {
                ::informer_runtime::dynamic::ResourceInformer::from_factory(
                    ::informer_runtime::InformerFactory::factory_core(&self.factory),
                    ::informer_runtime::metadata::typed::<
                        ::k8s_openapi::api::rbac::v1::ClusterRole,
                    >(),
                )
            }
        }
        /// The shared informer of [`ClusterRole`](k8s_openapi::api::rbac::v1::ClusterRole) objects (rbac.authorization.k8s.io/v1, kind ClusterRole) in a factory (client-go's `ClusterRoleInformer`).
        #[derive(Clone)]
        pub struct ClusterRoleInformer {
            ask: ::informer_runtime::InformerAsk<
                ::k8s_openapi::api::rbac::v1::ClusterRole,
            >,
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
            pub fn lister(
                &self,
            ) -> ::listers::rbac_authorization::v1::ClusterRoleLister {
                ::listers::rbac_authorization::v1::ClusterRoleLister::new(
                    self.ask.informer().indexer(),
                )
            }
            /// The factory's shared informer of the projection `V` of ClusterRole objects: a struct of your own with only the fields you read (declared with `informer_runtime::projection!(View => ClusterRole)`), decoded straight from the list and watch bytes, cached and indexed instead of whole ClusterRole objects. One informer per view type, registered as `rbac.authorization.k8s.io/v1/clusterroles as <V>` on the first call and listing and watching as the ClusterRole informer does (the factory's namespace, `tweak_list_options`, resync and transforms apply). Asking for the projection does not build the full ClusterRole informer.
            #[inline]
            pub fn projected<
                V: ::informer_runtime::Projection<
                        Of = ::k8s_openapi::api::rbac::v1::ClusterRole,
                    >,
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
            indexers: ::informer_runtime::Indexers<
                ::k8s_openapi::api::rbac::v1::ClusterRole,
            >,
        ) -> ::informer_runtime::SharedIndexInformer<
            ::k8s_openapi::api::rbac::v1::ClusterRole,
        > {
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
            indexers: ::informer_runtime::Indexers<
                ::k8s_openapi::api::rbac::v1::ClusterRole,
            >,
            tweak_list_options: ::std::option::Option<
                ::informer_runtime::TweakListOptions,
            >,
        ) -> ::informer_runtime::SharedIndexInformer<
            ::k8s_openapi::api::rbac::v1::ClusterRole,
        > {
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
    }
}
