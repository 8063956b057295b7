//! Event handlers: what an informer tells its users about each object.
//!
//! CONTRACT STUB: filled in by the runtime work; signatures are the contract.

use std::sync::Arc;

/// A deleted object: its last known state, or only its key and last cached state when
/// the deletion was inferred from a relist (client-go's `DeletedFinalStateUnknown`).
#[derive(Debug)]
pub enum Deleted<K> {
    /// The object as the DELETED event carried it.
    Object(Arc<K>),
    /// The deletion was missed; this is the last state the cache held.
    FinalStateUnknown {
        /// The store key.
        key: String,
        /// The last cached state.
        last_known: Arc<K>,
    },
}

/// Receives an informer's notifications (client-go's `ResourceEventHandler`).
pub trait ResourceEventHandler<K>: Send + Sync + 'static {
    /// An object was added; `in_initial_list` is true for the initial contents.
    fn on_add(&self, obj: &Arc<K>, in_initial_list: bool) {
        let _ = (obj, in_initial_list);
    }
    /// An object changed (or a resync re-delivered it: then `old` and `new` are the same object).
    fn on_update(&self, old: &Arc<K>, new: &Arc<K>) {
        let _ = (old, new);
    }
    /// An object was deleted.
    fn on_delete(&self, obj: &Deleted<K>) {
        let _ = obj;
    }
}

type AddFn<K> = Box<dyn Fn(&Arc<K>, bool) + Send + Sync>;
type UpdateFn<K> = Box<dyn Fn(&Arc<K>, &Arc<K>) + Send + Sync>;
type DeleteFn<K> = Box<dyn Fn(&Deleted<K>) + Send + Sync>;

/// A handler made of optional closures (client-go's `ResourceEventHandlerFuncs`).
pub struct ResourceEventHandlerFuncs<K> {
    add: Option<AddFn<K>>,
    update: Option<UpdateFn<K>>,
    delete: Option<DeleteFn<K>>,
}

impl<K> Default for ResourceEventHandlerFuncs<K> {
    fn default() -> Self {
        Self {
            add: None,
            update: None,
            delete: None,
        }
    }
}

impl<K> ResourceEventHandlerFuncs<K> {
    /// Sets the add callback.
    pub fn on_add(mut self, f: impl Fn(&Arc<K>, bool) + Send + Sync + 'static) -> Self {
        self.add = Some(Box::new(f));
        self
    }
    /// Sets the update callback.
    pub fn on_update(mut self, f: impl Fn(&Arc<K>, &Arc<K>) + Send + Sync + 'static) -> Self {
        self.update = Some(Box::new(f));
        self
    }
    /// Sets the delete callback.
    pub fn on_delete(mut self, f: impl Fn(&Deleted<K>) + Send + Sync + 'static) -> Self {
        self.delete = Some(Box::new(f));
        self
    }
}

impl<K: Send + Sync + 'static> ResourceEventHandler<K> for ResourceEventHandlerFuncs<K> {
    fn on_add(&self, obj: &Arc<K>, in_initial_list: bool) {
        if let Some(f) = &self.add {
            f(obj, in_initial_list)
        }
    }
    fn on_update(&self, old: &Arc<K>, new: &Arc<K>) {
        if let Some(f) = &self.update {
            f(old, new)
        }
    }
    fn on_delete(&self, obj: &Deleted<K>) {
        if let Some(f) = &self.delete {
            f(obj)
        }
    }
}
