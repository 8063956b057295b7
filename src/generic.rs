//! `GenericInformer`: a type-erased informer, what a factory's `for_resource` returns.
//!
//! CONTRACT STUB: filled in by the runtime work; signatures are the contract.

use crate::informer::SharedIndexInformer;
use crate::object::{GroupVersionResource, Object};

/// An informer whose object type is known only at run time (client-go's `GenericInformer`).
#[derive(Clone)]
pub struct GenericInformer {
    gvr: GroupVersionResource,
}

impl GenericInformer {
    /// Erases the type of `informer`, which serves `gvr`.
    pub fn new<K: Object + serde::Serialize>(
        gvr: GroupVersionResource,
        informer: SharedIndexInformer<K>,
    ) -> Self {
        let _ = informer;
        Self { gvr }
    }

    /// The resource this informer serves.
    pub fn gvr(&self) -> &GroupVersionResource {
        &self.gvr
    }

    /// The typed informer, when `K` is its object type.
    pub fn downcast<K: Object>(&self) -> Option<SharedIndexInformer<K>> {
        todo!()
    }
}

/// A factory's `for_resource` was asked for a resource it does not generate.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("no informer for resource {gvr}: not a resource this factory generates")]
pub struct UnknownResource {
    /// The resource asked for.
    pub gvr: GroupVersionResource,
}
