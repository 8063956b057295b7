//! Which notifications reach a handler (client-go's `FilteringResourceEventHandler`, and
//! controller-runtime's ready-made predicates).

use std::marker::PhantomData;
use std::sync::Arc;

use informer_runtime::handler::{Deleted, Event, ResourceEventHandler};
use informer_runtime::object::{Meta as _, Object};
use informer_runtime::selector::Selector;

/// Decides what becomes of a notification on its way to a handler: passed on, changed
/// (an update into an add or a delete), or dropped. A pair `(a, b)` applies `a`, then `b`.
pub trait EventFilter<K>: Send + Sync + 'static {
    /// The notification to deliver instead of `event`, or `None` to drop it.
    fn filter(&self, event: Event<K>) -> Option<Event<K>>;
}

impl<K, A: EventFilter<K>, B: EventFilter<K>> EventFilter<K> for (A, B) {
    fn filter(&self, event: Event<K>) -> Option<Event<K>> {
        self.0.filter(event).and_then(|e| self.1.filter(e))
    }
}

/// A handler behind a filter; see [`filtered`].
pub struct Filtered<K, F, H> {
    filter: F,
    handler: H,
    _kind: PhantomData<fn(&K)>,
}

/// `handler`, receiving only what `filter` lets through.
///
/// ```no_run
/// # fn demo(foos: informer_runtime::SharedIndexInformer<k8s_openapi::api::apps::v1::Deployment>) {
/// use informer_controller::{enqueue, filtered, generation_changed, label_selector, ObjectRef};
/// use informer_controller::WorkQueue;
///
/// let queue = WorkQueue::<ObjectRef>::new();
/// let selector = "app=web".parse().expect("a valid selector");
/// foos.add_event_handler(filtered(
///     (label_selector(selector), generation_changed()),
///     enqueue(queue.clone()),
/// ));
/// # }
/// ```
pub fn filtered<K, F, H>(filter: F, handler: H) -> Filtered<K, F, H>
where
    K: Send + Sync + 'static,
    F: EventFilter<K>,
    H: ResourceEventHandler<K>,
{
    Filtered {
        filter,
        handler,
        _kind: PhantomData,
    }
}

impl<K, F, H> Filtered<K, F, H>
where
    K: Send + Sync + 'static,
    F: EventFilter<K>,
    H: ResourceEventHandler<K>,
{
    fn deliver(&self, event: Event<K>) {
        if let Some(event) = self.filter.filter(event) {
            event.dispatch_to(&self.handler);
        }
    }
}

impl<K, F, H> ResourceEventHandler<K> for Filtered<K, F, H>
where
    K: Send + Sync + 'static,
    F: EventFilter<K>,
    H: ResourceEventHandler<K>,
{
    fn on_add(&self, obj: &Arc<K>, in_initial_list: bool) {
        self.deliver(Event::Added {
            obj: obj.clone(),
            in_initial_list,
        });
    }

    fn on_update(&self, old: &Arc<K>, new: &Arc<K>) {
        self.deliver(Event::Updated {
            old: old.clone(),
            new: new.clone(),
        });
    }

    fn on_delete(&self, obj: &Deleted<K>) {
        self.deliver(Event::Deleted(obj.clone()));
    }
}

/// An object predicate as a filter; see [`predicate`].
pub struct Predicate<P>(P);

/// client-go's `FilteringResourceEventHandler` over `f`: adds and deletes of objects
/// that pass, updates where both states pass. An update whose old state passes and new
/// does not becomes a delete of the old state; one whose new state passes and old does
/// not becomes an add of the new (`in_initial_list` false). A delete the informer only
/// inferred is judged by the last known state.
pub fn predicate<K, P>(f: P) -> Predicate<P>
where
    P: Fn(&K) -> bool + Send + Sync + 'static,
{
    Predicate(f)
}

impl<K, P> EventFilter<K> for Predicate<P>
where
    P: Fn(&K) -> bool + Send + Sync + 'static,
{
    fn filter(&self, event: Event<K>) -> Option<Event<K>> {
        let pass = &self.0;
        match event {
            Event::Added { ref obj, .. } => pass(obj).then_some(event),
            Event::Updated { old, new } => match (pass(&old), pass(&new)) {
                (true, true) => Some(Event::Updated { old, new }),
                (false, true) => Some(Event::Added {
                    obj: new,
                    in_initial_list: false,
                }),
                (true, false) => Some(Event::Deleted(Deleted::Object(old))),
                (false, false) => None,
            },
            Event::Deleted(d) => pass(d.object()).then_some(Event::Deleted(d)),
            // A kind of event this filter does not know carries no object it can judge.
            other => Some(other),
        }
    }
}

/// Objects whose labels match `selector`, as a [`predicate`]: an object relabelled into
/// the selection arrives as an add, one relabelled out of it as a delete.
pub fn label_selector<K: Object>(
    selector: Selector,
) -> Predicate<impl Fn(&K) -> bool + Send + Sync + 'static> {
    predicate(move |obj: &K| selector.matches(obj.meta().labels()))
}

/// Drops updates that leave `metadata.generation` as it was: status-only writes, metadata
/// edits and resyncs (controller-runtime's `GenerationChangedPredicate`). Adds and deletes
/// pass. Kinds the server keeps no generation for never change it, so every update of
/// them is dropped.
#[derive(Clone, Copy, Debug, Default)]
pub struct GenerationChanged;

/// See [`GenerationChanged`].
pub fn generation_changed() -> GenerationChanged {
    GenerationChanged
}

impl<K: Object> EventFilter<K> for GenerationChanged {
    fn filter(&self, event: Event<K>) -> Option<Event<K>> {
        match &event {
            Event::Updated { old, new } if old.meta().generation() == new.meta().generation() => {
                None
            }
            _ => Some(event),
        }
    }
}
