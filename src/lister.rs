//! Generic listers: typed reads from an informer's indexer.
//!
//! CONTRACT STUB: filled in by the runtime work; signatures are the contract.

use std::sync::Arc;

use crate::object::Object;
use crate::selector::Selector;
use crate::store::Indexer;

/// Reads objects of `K` from an indexer (client-go's generated `XLister`, generically).
pub struct Lister<K> {
    indexer: Indexer<K>,
}

impl<K> Clone for Lister<K> {
    fn clone(&self) -> Self {
        Self {
            indexer: self.indexer.clone(),
        }
    }
}

/// Reads objects of `K` in one namespace.
pub struct NamespaceLister<K> {
    indexer: Indexer<K>,
    namespace: String,
}

impl<K: Object> Lister<K> {
    /// A lister over `indexer`.
    pub fn new(indexer: Indexer<K>) -> Self {
        Self { indexer }
    }

    /// Every object matching `selector`.
    pub fn list(&self, selector: &Selector) -> Vec<Arc<K>> {
        let _ = (selector, &self.indexer);
        todo!()
    }

    /// The cluster-scoped object named `name`.
    pub fn get(&self, name: &str) -> Option<Arc<K>> {
        let _ = name;
        todo!()
    }

    /// A lister for one namespace.
    pub fn namespaced(&self, namespace: &str) -> NamespaceLister<K> {
        NamespaceLister {
            indexer: self.indexer.clone(),
            namespace: namespace.to_owned(),
        }
    }
}

impl<K: Object> NamespaceLister<K> {
    /// Every object in the namespace matching `selector`.
    pub fn list(&self, selector: &Selector) -> Vec<Arc<K>> {
        let _ = (selector, &self.namespace);
        todo!()
    }

    /// The object `name` in the namespace.
    pub fn get(&self, name: &str) -> Option<Arc<K>> {
        let _ = name;
        todo!()
    }
}
