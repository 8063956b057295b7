//! Event handlers that turn an informer's notifications into queued keys.

use std::any::TypeId;
use std::marker::PhantomData;
use std::sync::Arc;

use crate::workqueue::{Priority, WorkQueue};
use informer_runtime::handler::{Deleted, ResourceEventHandler};
use informer_runtime::object::{Meta as _, Object};

use super::ObjectRef;

/// Queues the key of every added, updated and deleted object (client-go's usual
/// `AddFunc`/`UpdateFunc`/`DeleteFunc` calling `MetaNamespaceKeyFunc`, and
/// `DeletionHandlingMetaNamespaceKeyFunc` for deletes).
pub struct Enqueue<K> {
    queue: WorkQueue<ObjectRef>,
    _kind: PhantomData<fn(&K)>,
}

/// A handler that queues each notified object's `namespace/name` on `queue`; for a delete
/// the informer only inferred ([`Deleted::FinalStateUnknown`]), the key it carries.
/// Objects of the initial list and resyncs (an update that changed no resourceVersion)
/// are queued at [`Priority::Low`], which a queue built with
/// [`Config::priority_queue`](crate::workqueue::Config::priority_queue) hands out after
/// real changes.
///
/// ```no_run
/// # fn demo(deployments: informer_runtime::SharedIndexInformer<k8s_openapi::api::apps::v1::Deployment>) {
/// use informer_controller::{enqueue, ObjectRef};
/// use informer_controller::WorkQueue;
///
/// let queue = WorkQueue::<ObjectRef>::new();
/// deployments.add_event_handler(enqueue(queue.clone()));
/// # }
/// ```
pub fn enqueue<K: Object>(queue: WorkQueue<ObjectRef>) -> Enqueue<K> {
    Enqueue {
        queue,
        _kind: PhantomData,
    }
}

impl<K: Object> ResourceEventHandler<K> for Enqueue<K> {
    fn on_add(&self, obj: &Arc<K>, in_initial_list: bool) {
        self.queue
            .add_with_priority(ObjectRef::from_obj(obj.as_ref()), startup(in_initial_list));
    }

    fn on_update(&self, old: &Arc<K>, new: &Arc<K>) {
        self.queue.add_with_priority(
            ObjectRef::from_obj(new.as_ref()),
            resync(old.as_ref(), new.as_ref()),
        );
    }

    fn on_delete(&self, obj: &Deleted<K>) {
        let key = match obj {
            // Another replica owns it now: this one has nothing to do for it.
            Deleted::LeftShard { .. } => return,
            Deleted::Object(o) => ObjectRef::from_obj(o.as_ref()),
            Deleted::FinalStateUnknown { key, last_known } => match key.parse() {
                Ok(key) => key,
                Err(e) => {
                    tracing::warn!(error = %e, "tombstone key unreadable; queueing the last known object's key");
                    ObjectRef::from_obj(last_known.as_ref())
                }
            },
            // A kind of deletion this version does not know: queue the object to reconcile.
            other => ObjectRef::from_obj(other.object().as_ref()),
        };
        self.queue.add(key);
    }
}

/// Queues the controller owner of every notified object: the `ownerReferences` entry with
/// `controller: true`, when its kind and API group are `Owner`'s (client-go
/// sample-controller's `handleObject`, controller-runtime's `EnqueueRequestForOwner`).
pub struct EnqueueOwner<Owner, K> {
    queue: WorkQueue<ObjectRef>,
    _kinds: PhantomData<fn(&Owner, &K)>,
}

/// A handler that queues the key of each notified object's controller owner of type
/// `Owner`, in the object's namespace (none for a cluster-scoped `Owner`). An update
/// queues the owners of the old and of the new object, so an owner that lost the object
/// hears of it too. Objects without such an owner are ignored. Priorities as
/// [`enqueue`]'s.
///
/// ```no_run
/// # fn demo(replica_sets: informer_runtime::SharedIndexInformer<k8s_openapi::api::apps::v1::ReplicaSet>) {
/// use informer_controller::{enqueue_owner, ObjectRef};
/// use informer_controller::WorkQueue;
/// use k8s_openapi::api::apps::v1::{Deployment, ReplicaSet};
///
/// // A Deployment controller hears of changes to the ReplicaSets its Deployments own.
/// let queue = WorkQueue::<ObjectRef>::new();
/// replica_sets.add_event_handler(enqueue_owner::<Deployment, ReplicaSet>(queue.clone()));
/// # }
/// ```
pub fn enqueue_owner<Owner, K>(queue: WorkQueue<ObjectRef>) -> EnqueueOwner<Owner, K>
where
    Owner: k8s_openapi::Resource + 'static,
    Owner::Scope: 'static,
    K: Object,
{
    EnqueueOwner {
        queue,
        _kinds: PhantomData,
    }
}

/// Low for an add of the initial list.
fn startup(in_initial_list: bool) -> Priority {
    if in_initial_list {
        Priority::Low
    } else {
        Priority::Normal
    }
}

/// Low for a resync: the informer redelivers what it has, so the resourceVersion is the
/// same (client-go's and controller-runtime's test for a resync).
fn resync<K: Object>(old: &K, new: &K) -> Priority {
    let (old, new) = (old.meta().resource_version(), new.meta().resource_version());
    if old.is_some() && old == new {
        Priority::Low
    } else {
        Priority::Normal
    }
}

/// The group of an `apiVersion`: `apps` of `apps/v1`, `""` of `v1`.
fn group_of(api_version: &str) -> &str {
    api_version.rsplit_once('/').map_or("", |(group, _)| group)
}

impl<Owner, K> EnqueueOwner<Owner, K>
where
    Owner: k8s_openapi::Resource + 'static,
    Owner::Scope: 'static,
    K: Object,
{
    fn enqueue_owner_of(&self, obj: &K, priority: Priority) {
        let meta = obj.meta();
        let Some(owner) = meta
            .owner_references()
            .iter()
            .find(|r| r.controller == Some(true))
        else {
            return;
        };
        if owner.kind != Owner::KIND || group_of(&owner.api_version) != Owner::GROUP {
            return;
        }
        let cluster_scoped =
            TypeId::of::<Owner::Scope>() == TypeId::of::<k8s_openapi::ClusterResourceScope>();
        let namespace = if cluster_scoped {
            None
        } else {
            meta.namespace()
                .filter(|ns| !ns.is_empty())
                .map(str::to_owned)
        };
        self.queue.add_with_priority(
            ObjectRef {
                namespace,
                name: owner.name.clone(),
            },
            priority,
        );
    }
}

impl<Owner, K> ResourceEventHandler<K> for EnqueueOwner<Owner, K>
where
    Owner: k8s_openapi::Resource + 'static,
    Owner::Scope: 'static,
    K: Object,
{
    fn on_add(&self, obj: &Arc<K>, in_initial_list: bool) {
        self.enqueue_owner_of(obj, startup(in_initial_list));
    }

    fn on_update(&self, old: &Arc<K>, new: &Arc<K>) {
        let priority = resync(old.as_ref(), new.as_ref());
        self.enqueue_owner_of(old, priority);
        self.enqueue_owner_of(new, priority);
    }

    fn on_delete(&self, obj: &Deleted<K>) {
        self.enqueue_owner_of(obj.object(), Priority::Normal);
    }
}

#[cfg(test)]
mod tests {
    use super::group_of;

    #[test]
    fn group_of_api_versions() {
        assert_eq!(group_of("apps/v1"), "apps");
        assert_eq!(
            group_of("samplecontroller.k8s.io/v1alpha1"),
            "samplecontroller.k8s.io"
        );
        assert_eq!(group_of("v1"), "");
    }
}
