/// Listers of apps.
#[allow(dead_code)]
pub mod apps {
    /// Listers of apps/v1.
    pub mod v1 {
        /// Reads [`Deployment`](k8s_openapi::api::apps::v1::Deployment) objects (apps/v1, kind Deployment) from an informer's cache (client-go's `DeploymentLister`).
        #[derive(Clone)]
        pub struct DeploymentLister {
            lister: ::informer_runtime::Lister<::k8s_openapi::api::apps::v1::Deployment>,
        }
        impl DeploymentLister {
            /// A lister of Deployment objects over `indexer` (usually an informer's).
            #[inline]
            pub fn new(
                indexer: ::informer_runtime::Indexer<
                    ::k8s_openapi::api::apps::v1::Deployment,
                >,
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
            ) -> ::std::vec::Vec<
                ::std::sync::Arc<::k8s_openapi::api::apps::v1::Deployment>,
            > {
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
            ) -> ::std::vec::Vec<
                ::std::sync::Arc<::k8s_openapi::api::apps::v1::Deployment>,
            > {
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
    }
}
/// Listers of autoscaling.
#[allow(dead_code)]
pub mod autoscaling {
    /// Listers of autoscaling/v1.
    pub mod v1 {
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
                ::std::sync::Arc<
                    ::k8s_openapi::api::autoscaling::v1::HorizontalPodAutoscaler,
                >,
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
                ::std::sync::Arc<
                    ::k8s_openapi::api::autoscaling::v1::HorizontalPodAutoscaler,
                >,
            > {
                self.lister.list(selector)
            }
            /// The HorizontalPodAutoscaler named `name` in this namespace, if cached.
            #[inline]
            pub fn get(
                &self,
                name: &str,
            ) -> ::std::option::Option<
                ::std::sync::Arc<
                    ::k8s_openapi::api::autoscaling::v1::HorizontalPodAutoscaler,
                >,
            > {
                self.lister.get(name)
            }
        }
    }
    /// Listers of autoscaling/v2.
    pub mod v2 {
        /// Reads [`HorizontalPodAutoscaler`](k8s_openapi::api::autoscaling::v2::HorizontalPodAutoscaler) objects (autoscaling/v2, kind HorizontalPodAutoscaler) from an informer's cache (client-go's `HorizontalPodAutoscalerLister`).
        #[derive(Clone)]
        pub struct HorizontalPodAutoscalerLister {
            lister: ::informer_runtime::Lister<
                ::k8s_openapi::api::autoscaling::v2::HorizontalPodAutoscaler,
            >,
        }
        impl HorizontalPodAutoscalerLister {
            /// A lister of HorizontalPodAutoscaler objects over `indexer` (usually an informer's).
            #[inline]
            pub fn new(
                indexer: ::informer_runtime::Indexer<
                    ::k8s_openapi::api::autoscaling::v2::HorizontalPodAutoscaler,
                >,
            ) -> Self {
                Self {
                    lister: ::informer_runtime::Lister::new(indexer),
                }
            }
            /// Every HorizontalPodAutoscaler (autoscaling/v2, kind HorizontalPodAutoscaler) in the cache matching `selector`, in every namespace.
            #[inline]
            pub fn list(
                &self,
                selector: &::informer_runtime::Selector,
            ) -> ::std::vec::Vec<
                ::std::sync::Arc<
                    ::k8s_openapi::api::autoscaling::v2::HorizontalPodAutoscaler,
                >,
            > {
                self.lister.list(selector)
            }
        }
        impl HorizontalPodAutoscalerLister {
            /// A lister of the HorizontalPodAutoscaler objects (autoscaling/v2, kind HorizontalPodAutoscaler) in one namespace.
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
        /// Reads [`HorizontalPodAutoscaler`](k8s_openapi::api::autoscaling::v2::HorizontalPodAutoscaler) objects (autoscaling/v2, kind HorizontalPodAutoscaler) of one namespace from an informer's cache (client-go's `HorizontalPodAutoscalerNamespaceLister`).
        pub struct HorizontalPodAutoscalerNamespaceLister {
            lister: ::informer_runtime::NamespaceLister<
                ::k8s_openapi::api::autoscaling::v2::HorizontalPodAutoscaler,
            >,
        }
        impl HorizontalPodAutoscalerNamespaceLister {
            /// Every HorizontalPodAutoscaler in this namespace matching `selector`.
            #[inline]
            pub fn list(
                &self,
                selector: &::informer_runtime::Selector,
            ) -> ::std::vec::Vec<
                ::std::sync::Arc<
                    ::k8s_openapi::api::autoscaling::v2::HorizontalPodAutoscaler,
                >,
            > {
                self.lister.list(selector)
            }
            /// The HorizontalPodAutoscaler named `name` in this namespace, if cached.
            #[inline]
            pub fn get(
                &self,
                name: &str,
            ) -> ::std::option::Option<
                ::std::sync::Arc<
                    ::k8s_openapi::api::autoscaling::v2::HorizontalPodAutoscaler,
                >,
            > {
                self.lister.get(name)
            }
        }
    }
}
/// Listers of the core API group.
#[allow(dead_code)]
pub mod core {
    /// Listers of core/v1.
    pub mod v1 {
        /// Reads [`Node`](k8s_openapi::api::core::v1::Node) objects (core/v1, kind Node) from an informer's cache (client-go's `NodeLister`).
        #[derive(Clone)]
        pub struct NodeLister {
            lister: ::informer_runtime::Lister<::k8s_openapi::api::core::v1::Node>,
        }
        impl NodeLister {
            /// A lister of Node objects over `indexer` (usually an informer's).
            #[inline]
            pub fn new(
                indexer: ::informer_runtime::Indexer<::k8s_openapi::api::core::v1::Node>,
            ) -> Self {
                Self {
                    lister: ::informer_runtime::Lister::new(indexer),
                }
            }
            /// Every Node (core/v1, kind Node) in the cache matching `selector`.
            #[inline]
            pub fn list(
                &self,
                selector: &::informer_runtime::Selector,
            ) -> ::std::vec::Vec<::std::sync::Arc<::k8s_openapi::api::core::v1::Node>> {
                self.lister.list(selector)
            }
        }
        impl NodeLister {
            /// The Node named `name`, if cached.
            #[inline]
            pub fn get(
                &self,
                name: &str,
            ) -> ::std::option::Option<
                ::std::sync::Arc<::k8s_openapi::api::core::v1::Node>,
            > {
                self.lister.get(name)
            }
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
            lister: ::informer_runtime::NamespaceLister<
                ::k8s_openapi::api::core::v1::Pod,
            >,
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
            ) -> ::std::option::Option<
                ::std::sync::Arc<::k8s_openapi::api::core::v1::Pod>,
            > {
                self.lister.get(name)
            }
        }
    }
}
/// Listers of flowcontrol.apiserver.k8s.io.
#[allow(dead_code)]
pub mod flowcontrol_apiserver {
    /// Listers of flowcontrol.apiserver.k8s.io/v1.
    pub mod v1 {
        /// Reads [`FlowSchema`](k8s_openapi::api::flowcontrol::v1::FlowSchema) objects (flowcontrol.apiserver.k8s.io/v1, kind FlowSchema) from an informer's cache (client-go's `FlowSchemaLister`).
        #[derive(Clone)]
        pub struct FlowSchemaLister {
            lister: ::informer_runtime::Lister<
                ::k8s_openapi::api::flowcontrol::v1::FlowSchema,
            >,
        }
        impl FlowSchemaLister {
            /// A lister of FlowSchema objects over `indexer` (usually an informer's).
            #[inline]
            pub fn new(
                indexer: ::informer_runtime::Indexer<
                    ::k8s_openapi::api::flowcontrol::v1::FlowSchema,
                >,
            ) -> Self {
                Self {
                    lister: ::informer_runtime::Lister::new(indexer),
                }
            }
            /// Every FlowSchema (flowcontrol.apiserver.k8s.io/v1, kind FlowSchema) in the cache matching `selector`.
            #[inline]
            pub fn list(
                &self,
                selector: &::informer_runtime::Selector,
            ) -> ::std::vec::Vec<
                ::std::sync::Arc<::k8s_openapi::api::flowcontrol::v1::FlowSchema>,
            > {
                self.lister.list(selector)
            }
        }
        impl FlowSchemaLister {
            /// The FlowSchema named `name`, if cached.
            #[inline]
            pub fn get(
                &self,
                name: &str,
            ) -> ::std::option::Option<
                ::std::sync::Arc<::k8s_openapi::api::flowcontrol::v1::FlowSchema>,
            > {
                self.lister.get(name)
            }
        }
    }
}
/// Listers of rbac.authorization.k8s.io.
#[allow(dead_code)]
pub mod rbac_authorization {
    /// Listers of rbac.authorization.k8s.io/v1.
    pub mod v1 {
        /// Reads [`ClusterRole`](k8s_openapi::api::rbac::v1::ClusterRole) objects (rbac.authorization.k8s.io/v1, kind ClusterRole) from an informer's cache (client-go's `ClusterRoleLister`).
        #[derive(Clone)]
        pub struct ClusterRoleLister {
            lister: ::informer_runtime::Lister<
                ::k8s_openapi::api::rbac::v1::ClusterRole,
            >,
        }
        impl ClusterRoleLister {
            /// A lister of ClusterRole objects over `indexer` (usually an informer's).
            #[inline]
            pub fn new(
                indexer: ::informer_runtime::Indexer<
                    ::k8s_openapi::api::rbac::v1::ClusterRole,
                >,
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
            ) -> ::std::vec::Vec<
                ::std::sync::Arc<::k8s_openapi::api::rbac::v1::ClusterRole>,
            > {
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
    }
}
