//! Informers of rbac.authorization.k8s.io/v1.
mod cluster_role;
pub use self::cluster_role::*;
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
    /// The shared informer of ClusterRole objects (rbac.authorization.k8s.io/v1, kind ClusterRole).
    #[inline]
    pub fn cluster_roles(&self) -> ClusterRoleInformer {
        ClusterRoleInformer::new(self.factory.clone())
    }
}
