//! Which keys a sharded controller's workers may reconcile, and the wait that makes a
//! release safe: a bucket is handed over only once no reconcile of its keys is in flight.
//!
//! A key is placed by its object's uid (or namespace) as the primary informer caches it.
//! An object no longer cached is placed by the uid last seen for it, so the queued key of
//! an object that [left the shard](informer_runtime::Deleted::LeftShard) is dropped, not
//! reconciled as a deletion while its new owner reconciles it. Only a key of an object never
//! seen here or deleted from the cluster has no place; it is reconciled, as a deletion.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, MutexGuard};

use tokio::sync::{watch, Notify};

use informer_runtime::informer::SharedIndexInformer;
use informer_runtime::object::{object_key, Meta as _, Object};
use informer_runtime::{Deleted, ResourceEventHandler};
use informer_selectors::shard::{fnv1a_64, ShardField};

use super::Shards;

type Map<V> = HashMap<String, V, foldhash::fast::RandomState>;

/// Finds the hash of a key's object in the primary cache.
type Locate = Box<dyn Fn(&str) -> Option<u64> + Send + Sync>;

/// The workers' side of a sharded controller. See the [module docs](self).
pub(crate) struct ShardGate {
    shards: watch::Receiver<Shards>,
    locate: Locate,
    state: Mutex<GateState>,
    /// Woken whenever a reconcile ends.
    finished: Notify,
}

#[derive(Default)]
struct GateState {
    /// The hash of every object of the primary informer seen by uid, by key, until it is
    /// deleted from the cluster (kept when it leaves the shard).
    last_seen: Map<u64>,
    /// The reconciles in flight and their hash (`None`: no place known).
    in_flight: Map<Option<u64>>,
}

impl ShardGate {
    /// A gate following `shards`, placing keys by the objects `primary` caches. With uid
    /// sharding it registers a handler on `primary` that remembers each object's uid.
    pub(crate) fn for_primary<K: Object>(
        shards: watch::Receiver<Shards>,
        primary: &SharedIndexInformer<K>,
    ) -> Arc<Self> {
        let field = shards.borrow().field();
        match field {
            ShardField::Namespace => Self::new(shards, Box::new(namespace_hash)),
            ShardField::Uid => {
                let indexer = primary.indexer();
                let gate = Self::new(
                    shards,
                    Box::new(move |key: &str| {
                        let obj = indexer.get_by_key(key)?;
                        obj.meta().uid().map(|uid| fnv1a_64(uid.as_bytes()))
                    }),
                );
                primary.add_event_handler(Remember(gate.clone()));
                gate
            }
        }
    }

    fn new(shards: watch::Receiver<Shards>, locate: Locate) -> Arc<Self> {
        Arc::new(Self {
            shards,
            locate,
            state: Mutex::default(),
            finished: Notify::new(),
        })
    }

    fn state(&self) -> MutexGuard<'_, GateState> {
        self.state.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Whether a worker may reconcile `key` now; if so it is in flight until
    /// [`finish`](Self::finish). Decided under the same lock [`drain`](Self::drain) reads, so
    /// a key admitted before its bucket was released is waited for, and one after is not
    /// admitted.
    pub(crate) fn admit(&self, key: &str) -> bool {
        let mut state = self.state();
        let hash = (self.locate)(key).or_else(|| state.last_seen.get(key).copied());
        let owned = hash.is_none_or(|h| self.shards.borrow().contains_hash(h));
        if owned {
            state.in_flight.insert(key.to_owned(), hash);
        }
        owned
    }

    /// The reconcile of `key` has ended.
    pub(crate) fn finish(&self, key: &str) {
        self.state().in_flight.remove(key);
        self.finished.notify_waiters();
    }

    /// Resolves once no reconcile of `released` (nor of a key with no known place) is in
    /// flight. The buckets have left [`Shards`] before, so no new one is admitted.
    pub(crate) async fn drain(&self, released: &Shards) {
        loop {
            let finished = self.finished.notified();
            tokio::pin!(finished);
            finished.as_mut().enable();
            let busy = self
                .state()
                .in_flight
                .values()
                .any(|h| h.is_none_or(|h| released.contains_hash(h)));
            if !busy {
                return;
            }
            finished.await;
        }
    }
}

/// The hash of a key's namespace: the key names it, nothing to look up.
fn namespace_hash(key: &str) -> Option<u64> {
    let namespace = key.split_once('/').map_or("", |(ns, _)| ns);
    Some(fnv1a_64(namespace.as_bytes()))
}

/// Remembers the uid hash of every object of the primary informer.
struct Remember(Arc<ShardGate>);

impl Remember {
    fn seen<K: Object>(&self, obj: &K) {
        let Some(uid) = obj.meta().uid() else {
            return;
        };
        let hash = fnv1a_64(uid.as_bytes());
        self.0.state().last_seen.insert(object_key(obj), hash);
    }
}

impl<K: Object> ResourceEventHandler<K> for Remember {
    fn on_add(&self, obj: &Arc<K>, _: bool) {
        self.seen(obj.as_ref());
    }

    fn on_update(&self, _: &Arc<K>, new: &Arc<K>) {
        self.seen(new.as_ref());
    }

    fn on_delete(&self, obj: &Deleted<K>) {
        // One that left the shard keeps its place: its queued key must be dropped.
        if !obj.left_shard() {
            self.0.state().last_seen.remove(&obj.key());
        }
    }
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeSet;
    use std::time::Duration;

    use super::*;

    #[tokio::test]
    async fn a_drain_waits_for_the_released_buckets_reconciles_only() {
        let ns = |n: &str| fnv1a_64(n.as_bytes());
        let all: BTreeSet<u32> = (0..4).collect();
        let (tx, rx) = watch::channel(Shards::new(ShardField::Namespace, 4, all));
        let gate = ShardGate::new(rx, Box::new(namespace_hash));
        let bucket = |n: &str| super::super::bucket_of(ns(n), 4);
        let (a, b) = (
            "a",
            (0..64)
                .map(|i| format!("ns-{i}"))
                .find(|n| bucket(n) != bucket("a"))
                .unwrap(),
        );
        assert!(gate.admit(&format!("{a}/x")));
        assert!(gate.admit(&format!("{b}/y")));

        // Release a's bucket: no new key of it is admitted, and the drain waits for x only.
        let released = Shards::new(ShardField::Namespace, 4, [bucket(a)].into());
        tx.send_modify(|s| {
            *s = Shards::new(
                ShardField::Namespace,
                4,
                s.owned()
                    .iter()
                    .copied()
                    .filter(|o| *o != bucket(a))
                    .collect(),
            )
        });
        assert!(!gate.admit(&format!("{a}/z")));
        let drain = gate.drain(&released);
        tokio::pin!(drain);
        assert!(
            tokio::time::timeout(Duration::from_millis(50), drain.as_mut())
                .await
                .is_err()
        );
        gate.finish(&format!("{a}/x"));
        tokio::time::timeout(Duration::from_secs(5), drain)
            .await
            .expect("the drain ends once x is done");
        gate.finish(&format!("{b}/y"));
    }
}
