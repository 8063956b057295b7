//! The indexed, thread-safe store informers cache into (client-go's `cache.Indexer`).
//!
//! CONTRACT STUB: filled in by the runtime work; signatures are the contract.

use std::collections::BTreeMap;
use std::sync::Arc;

use crate::object::Object;

/// The name of the default index: objects by namespace.
pub const NAMESPACE_INDEX: &str = "namespace";

/// Computes the index values of an object (client-go's `IndexFunc`).
pub type IndexFunc<K> = Arc<dyn Fn(&K) -> Vec<String> + Send + Sync>;

/// Named index functions (client-go's `cache.Indexers`).
pub struct Indexers<K> {
    funcs: BTreeMap<String, IndexFunc<K>>,
}

impl<K> Clone for Indexers<K> {
    fn clone(&self) -> Self {
        Self {
            funcs: self.funcs.clone(),
        }
    }
}

impl<K> Default for Indexers<K> {
    fn default() -> Self {
        Self {
            funcs: BTreeMap::new(),
        }
    }
}

impl<K: Object> Indexers<K> {
    /// No indexers.
    pub fn new() -> Self {
        Self::default()
    }

    /// Only the `namespace` index (what generated informers use by default).
    pub fn namespace() -> Self {
        todo!()
    }

    /// Adds (or replaces) the index `name`.
    pub fn with(
        mut self,
        name: &str,
        func: impl Fn(&K) -> Vec<String> + Send + Sync + 'static,
    ) -> Self {
        self.funcs.insert(name.to_owned(), Arc::new(func));
        self
    }
}

/// A thread-safe, indexed map of `Arc<K>` keyed `namespace/name` (or `name`). Cheap to clone.
pub struct Indexer<K> {
    _k: std::marker::PhantomData<fn() -> K>,
}

impl<K> Clone for Indexer<K> {
    fn clone(&self) -> Self {
        Self {
            _k: std::marker::PhantomData,
        }
    }
}

impl<K: Object> Indexer<K> {
    /// The object stored under `key`.
    pub fn get_by_key(&self, key: &str) -> Option<Arc<K>> {
        let _ = key;
        todo!()
    }

    /// Every stored object.
    pub fn list(&self) -> Vec<Arc<K>> {
        todo!()
    }

    /// The objects whose index `index_name` contains `value`.
    pub fn by_index(&self, index_name: &str, value: &str) -> Result<Vec<Arc<K>>, crate::Error> {
        let _ = (index_name, value);
        todo!()
    }
}
