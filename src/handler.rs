//! Event handlers: what an informer tells its users about each object, and how each
//! handler's queue holds what it has not handled yet.

use std::sync::Arc;
use std::time::Duration;

use crate::object::{object_key, Object};

/// A deleted object: its last known state, or only its key and last cached state when
/// the deletion was inferred from a relist (client-go's `DeletedFinalStateUnknown`).
///
/// More variants may come (as [`Deleted::LeftShard`] did): a `match` needs a wildcard arm,
/// and [`object`](Deleted::object) and [`key`](Deleted::key) answer for every variant.
#[derive(Debug)]
#[non_exhaustive]
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
    /// Not deleted: the object left this informer's shard (its [`ShardAssignment`]
    /// changed, KEP-5866), so another replica holds it now. It is gone from this cache as
    /// a deleted object is, but a controller must not act on it as on a deletion (no
    /// finalizer logic, no cleanup of what it owns): only forget it.
    ///
    /// [`ShardAssignment`]: crate::sharding::ShardAssignment
    LeftShard {
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

impl<K> Clone for Deleted<K> {
    fn clone(&self) -> Self {
        match self {
            Deleted::Object(o) => Deleted::Object(o.clone()),
            Deleted::FinalStateUnknown { key, last_known } => Deleted::FinalStateUnknown {
                key: key.clone(),
                last_known: last_known.clone(),
            },
            Deleted::LeftShard { key, last_known } => Deleted::LeftShard {
                key: key.clone(),
                last_known: last_known.clone(),
            },
        }
    }
}

impl<K> Deleted<K> {
    /// The last known state of the deleted object.
    pub fn object(&self) -> &Arc<K> {
        match self {
            Deleted::Object(o) => o,
            Deleted::FinalStateUnknown { last_known, .. }
            | Deleted::LeftShard { last_known, .. } => last_known,
        }
    }

    /// True when the object was not deleted but left this informer's shard
    /// ([`Deleted::LeftShard`]).
    pub fn left_shard(&self) -> bool {
        matches!(self, Deleted::LeftShard { .. })
    }
}

impl<K: Object> Deleted<K> {
    /// The store key of the deleted object.
    pub fn key(&self) -> String {
        match self {
            Deleted::Object(o) => object_key(o.as_ref()),
            Deleted::FinalStateUnknown { key, .. } | Deleted::LeftShard { key, .. } => key.clone(),
        }
    }
}

/// One notification of an informer, as delivered to handlers and to [`stream`] users.
///
/// [`stream`]: crate::informer::SharedIndexInformer::stream
#[derive(Debug)]
#[non_exhaustive]
pub enum Event<K> {
    /// An object was added; `in_initial_list` is true for the initial contents.
    Added {
        /// The object.
        obj: Arc<K>,
        /// True while the informer delivers its initial contents.
        in_initial_list: bool,
    },
    /// An object changed; on a resync `old` and `new` are the same object.
    Updated {
        /// The previous state.
        old: Arc<K>,
        /// The new state.
        new: Arc<K>,
    },
    /// An object was deleted.
    Deleted(Deleted<K>),
}

impl<K> Clone for Event<K> {
    fn clone(&self) -> Self {
        match self {
            Event::Added {
                obj,
                in_initial_list,
            } => Event::Added {
                obj: obj.clone(),
                in_initial_list: *in_initial_list,
            },
            Event::Updated { old, new } => Event::Updated {
                old: old.clone(),
                new: new.clone(),
            },
            Event::Deleted(d) => Event::Deleted(d.clone()),
        }
    }
}

impl<K> Event<K> {
    /// True for an add that belongs to the initial contents.
    pub fn is_initial(&self) -> bool {
        matches!(
            self,
            Event::Added {
                in_initial_list: true,
                ..
            }
        )
    }

    /// Calls the matching method of `handler`.
    pub fn dispatch_to(&self, handler: &dyn ResourceEventHandler<K>)
    where
        K: 'static,
    {
        match self {
            Event::Added {
                obj,
                in_initial_list,
            } => handler.on_add(obj, *in_initial_list),
            Event::Updated { old, new } => handler.on_update(old, new),
            Event::Deleted(d) => handler.on_delete(d),
        }
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

/// How a handler's queue holds the notifications the handler has not handled yet.
///
/// Every handler has its own queue and thread, so a slow handler never delays the
/// informer or other handlers; the policy decides what a handler that falls behind costs.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[non_exhaustive]
pub enum QueuePolicy {
    /// Every notification, in order, as client-go delivers them. The queue grows without
    /// bound while the handler is slower than the event rate. The default: handlers that
    /// must see every intermediate state (audit logs, event counters, anything
    /// edge-triggered) keep working unchanged.
    #[default]
    Unbounded,
    /// At most one pending notification per object: a newer change of an object replaces
    /// the one still queued for it, and only objects that exist or that the handler knows
    /// (one whose Delete is pending) have an entry, plus the one being handled: with a
    /// steady count of N objects, at most 2N (N that exist, N whose Delete is pending)
    /// however fast objects change or come and go, and N when they only change. A handler
    /// that catches up sees the newest state of every object. For level-triggered handlers such as a
    /// controller's enqueue, which only need to know which objects changed.
    ///
    /// What a handler sees per object is still Add, Update*, Delete:
    /// - an object the handler has not seen arrives as an Add of its newest state (with
    ///   `in_initial_list` as the first queued add said);
    /// - an Update's `old` is the state the handler saw last, not the state before the
    ///   last change, and its `new` the newest;
    /// - a Delete of an object the handler saw is always delivered, with the object's
    ///   final state; a Delete followed by a re-creation under the same key is delivered
    ///   as that Delete, then an Add of the new object;
    /// - an object created and deleted before the handler got to it is delivered not at
    ///   all, as the informer already does for a delete it never saw an add for;
    /// - a resync of an object with a change pending is absorbed by that change.
    CoalescePerObject,
}

/// Options of one handler registration (see
/// [`add_event_handler_with`](crate::SharedIndexInformer::add_event_handler_with)).
///
/// ```
/// use std::time::Duration;
/// use informer_runtime::handler::{HandlerOptions, QueuePolicy};
///
/// let options = HandlerOptions::coalescing().resync_period(Duration::from_secs(600));
/// assert_eq!(options.queue(), QueuePolicy::CoalescePerObject);
/// assert_eq!(HandlerOptions::default().queue(), QueuePolicy::Unbounded);
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[must_use]
pub struct HandlerOptions {
    resync_period: Option<Duration>,
    queue: QueuePolicy,
}

impl HandlerOptions {
    /// Options with a [`QueuePolicy::CoalescePerObject`] queue.
    pub fn coalescing() -> Self {
        Self::default().queue_policy(QueuePolicy::CoalescePerObject)
    }

    /// How the handler's queue holds pending notifications (default
    /// [`QueuePolicy::Unbounded`]).
    pub fn queue_policy(mut self, policy: QueuePolicy) -> Self {
        self.queue = policy;
        self
    }

    /// Re-send every cached object as an update (old == new) every `period` (zero: never;
    /// at least one second). Without it the informer's default resync period applies.
    pub fn resync_period(mut self, period: Duration) -> Self {
        self.resync_period = Some(period);
        self
    }

    /// The queue policy.
    #[must_use]
    pub fn queue(&self) -> QueuePolicy {
        self.queue
    }

    /// The resync period, if set.
    #[must_use]
    pub fn resync(&self) -> Option<Duration> {
        self.resync_period
    }
}

/// Why an event is emitted: handlers receive resync events only when their period is due.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Origin {
    /// A change seen by the reflector.
    Change,
    /// A periodic resync.
    Resync,
}
