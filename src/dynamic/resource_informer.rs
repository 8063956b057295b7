//! `ResourceInformer`: a shared informer together with the resource it serves, what the
//! dynamic and metadata-only factories hand out.

use crate::discovery::ApiResource;
use crate::factory::SharedInformerFactoryCore;
use crate::generic::GenericInformer;
use crate::informer::SharedIndexInformer;
use crate::lister::Lister;
use crate::object::Object;
use crate::source::Collection;

/// A shared informer of `T` objects of one resource, with its lister.
#[derive(Clone)]
pub struct ResourceInformer<T> {
    resource: ApiResource,
    informer: SharedIndexInformer<T>,
}

impl<T: Object> std::fmt::Debug for ResourceInformer<T> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ResourceInformer")
            .field("resource", &self.resource)
            .field("informer", &self.informer)
            .finish()
    }
}

impl<T: Object> ResourceInformer<T> {
    /// Pairs `informer` with the resource it lists and watches.
    pub fn new(resource: ApiResource, informer: SharedIndexInformer<T>) -> Self {
        Self { resource, informer }
    }

    /// The shared informer of `source` in `factory` (built on the first call, see
    /// [`SharedInformerFactoryCore::informer_for`]), with the resource it lists and watches.
    pub fn from_factory(factory: &SharedInformerFactoryCore, source: Collection<T>) -> Self {
        let resource = source.resource().clone();
        Self::new(resource, factory.informer_for(source))
    }

    /// The resource served.
    pub fn resource(&self) -> &ApiResource {
        &self.resource
    }

    /// The shared informer (add handlers and indexers here).
    pub fn informer(&self) -> &SharedIndexInformer<T> {
        &self.informer
    }

    /// A lister over the informer's cache.
    pub fn lister(&self) -> Lister<T> {
        Lister::new(self.informer.indexer())
    }

    /// The type-erased informer (client-go's `GenericInformer`).
    pub fn generic(&self) -> GenericInformer {
        GenericInformer::new(self.resource.gvr(), self.informer.clone())
    }
}
