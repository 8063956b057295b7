//! `SharedIndexInformer`: one list+watch feeding one indexed cache and many handlers.
//!
//! CONTRACT STUB: filled in by the runtime work; signatures are the contract.

use std::time::Duration;

use crate::handler::ResourceEventHandler;
use crate::lister_watcher::ListerWatcher;
use crate::object::Object;
use crate::store::{Indexer, Indexers};

/// A shared, indexed informer for `K` (client-go's `cache.SharedIndexInformer`). Cheap to clone.
pub struct SharedIndexInformer<K> {
    _k: std::marker::PhantomData<fn() -> K>,
}

impl<K> Clone for SharedIndexInformer<K> {
    fn clone(&self) -> Self {
        Self {
            _k: std::marker::PhantomData,
        }
    }
}

/// The registration of one handler (client-go's `ResourceEventHandlerRegistration`).
pub struct HandlerRegistration {
    _private: (),
}

impl<K: Object> SharedIndexInformer<K> {
    /// A new informer over `lister_watcher`, resyncing every `default_resync` (zero: never).
    pub fn new(
        lister_watcher: impl ListerWatcher<K>,
        default_resync: Duration,
        indexers: Indexers<K>,
    ) -> Self {
        let _ = (lister_watcher, default_resync, indexers);
        todo!()
    }

    /// Adds a handler; it first receives the current contents as adds.
    pub fn add_event_handler(&self, handler: impl ResourceEventHandler<K>) -> HandlerRegistration {
        let _ = handler;
        todo!()
    }

    /// The informer's indexed store.
    pub fn indexer(&self) -> Indexer<K> {
        todo!()
    }

    /// True once the initial list is fully in the store.
    pub fn has_synced(&self) -> bool {
        todo!()
    }
}
