//! Read your writes: a key's next reconcile waits until the caches it reads have caught up
//! with that key's own last writes, so it never acts on the state from before them.
//!
//! The classic way a controller goes wrong: a reconcile creates a child object, the key
//! comes back (an event on the parent, a requeue) before the child's informer has seen the
//! create, the cache says "no child", and the reconcile creates a second one. client-go's
//! controllers guard against it with expectations; KEP-5647 (Kubernetes 1.36) moved the
//! DaemonSet, StatefulSet, ReplicaSet and Job controllers to comparing the store's
//! resourceVersion with their writes'. [`ReadYourWrites`] does the latter for any
//! [`Controller`](crate::Controller):
//!
//! - the reconcile tells it what it wrote ([`wrote`](ReadYourWrites::wrote), with the object
//!   the server returned, or [`deleted`](ReadYourWrites::deleted));
//! - before the key's next reconcile, the runner waits until the informer of each written
//!   type has caught up, at most [`timeout`](ReadYourWrites::timeout), then goes on anyway
//!   and counts it ([`ControllerStats::read_your_writes_timeouts`](crate::ControllerStats)).
//!
//! **When a cache has caught up.** With [`ResourceVersionOrder::Comparable`] (kube-apiserver
//! 1.35+, KEP-5504: ask the server with [`ReadYourWrites::for_server`]), when the store's
//! resourceVersion ([`Indexer::resource_version`]) is at least the write's: every change up
//! to the write, of every object of that type, is in the cache. Otherwise only equality is
//! known, as in client-go: the cache has caught up when it holds the written object at
//! exactly the written resourceVersion (or, for a delete, no longer holds it); a later write
//! by someone else that overtakes it makes the wait run to its timeout. Resource versions
//! of different types are never compared: each write is checked against the informer of
//! its own type.
//!
//! ```no_run
//! # async fn demo(
//! #     client: informer_runtime::Client,
//! #     config_maps: informer_runtime::SharedIndexInformer<k8s_openapi::api::core::v1::ConfigMap>,
//! # ) -> Result<(), Box<dyn std::error::Error>> {
//! use std::time::Duration;
//!
//! use informer_controller::{Action, Controller, ObjectRef, ReadYourWrites, WorkQueue};
//! use informer_runtime::{Api, PostParams};
//! use k8s_openapi::api::core::v1::ConfigMap;
//! use k8s_openapi::apimachinery::pkg::apis::meta::v1::ObjectMeta;
//! use tokio_util::sync::CancellationToken;
//!
//! let writes = ReadYourWrites::for_server(&client)
//!     .await?
//!     .reads(&config_maps)
//!     .timeout(Duration::from_secs(10));
//! let queue = WorkQueue::<ObjectRef>::new();
//! let reconcile = {
//!     let (writes, cache) = (writes.clone(), config_maps.indexer());
//!     move |key: ObjectRef| {
//!         let (writes, cache, client) = (writes.clone(), cache.clone(), client.clone());
//!         async move {
//!             let namespace = key.namespace.clone().unwrap_or_default();
//!             if cache.get_by_key(&format!("{namespace}/{}-settings", key.name)).is_none() {
//!                 let settings = ConfigMap {
//!                     metadata: ObjectMeta {
//!                         name: Some(format!("{}-settings", key.name)),
//!                         ..Default::default()
//!                     },
//!                     ..Default::default()
//!                 };
//!                 let created = Api::<ConfigMap>::namespaced(client, &namespace)
//!                     .create(&settings, &PostParams::default())
//!                     .await?;
//!                 // The next reconcile of `key` sees this ConfigMap in `cache`.
//!                 writes.wrote(&key, &created);
//!             }
//!             Ok::<_, informer_runtime::Error>(Action::Done)
//!         }
//!     }
//! };
//! Controller::new(queue, reconcile)
//!     .read_your_writes(writes)
//!     .wait_for(config_maps.clone())
//!     .run(CancellationToken::new())
//!     .await?;
//! # Ok(())
//! # }
//! ```

use std::any::{type_name, TypeId};
use std::collections::HashMap;
use std::hash::Hash;
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::Duration;

use tokio::sync::watch;

use informer_runtime::informer::SharedIndexInformer;
use informer_runtime::object::{object_key, Meta as _, Object};
use informer_runtime::resource_version::ResourceVersionOrder;
use informer_runtime::store::Indexer;
use informer_runtime::Client;

/// How long a reconcile waits for its caches by default before it goes on anyway.
pub const DEFAULT_TIMEOUT: Duration = Duration::from_secs(5);

/// The writes each key's reconciles made, and the caches to wait on before its next
/// reconcile. See the [module docs](self). Cheap to clone; clones share the writes.
pub struct ReadYourWrites<T> {
    inner: Arc<Inner<T>>,
}

impl<T> Clone for ReadYourWrites<T> {
    fn clone(&self) -> Self {
        Self {
            inner: self.inner.clone(),
        }
    }
}

impl<T> std::fmt::Debug for ReadYourWrites<T> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ReadYourWrites")
            .field("order", &self.inner.order)
            .field("timeout", &self.inner.timeout)
            .field("caches", &self.inner.caches.len())
            .finish()
    }
}

struct Inner<T> {
    order: ResourceVersionOrder,
    timeout: Duration,
    caches: HashMap<TypeId, Arc<dyn Cache>>,
    pending: Mutex<HashMap<T, Vec<Pending>, foldhash::fast::RandomState>>,
}

/// A copy of the configuration, without the writes recorded so far.
impl<T> Clone for Inner<T> {
    fn clone(&self) -> Self {
        Self {
            order: self.order,
            timeout: self.timeout,
            caches: self.caches.clone(),
            pending: Mutex::default(),
        }
    }
}

/// One write a key's next reconcile must be able to read.
struct Pending {
    cache: Arc<dyn Cache>,
    type_id: TypeId,
    object_key: String,
    resource_version: String,
    deleted: bool,
}

/// What the wait needs of an informer's store, whatever its type.
trait Cache: Send + Sync {
    fn resource_version(&self) -> String;
    /// `None`: not cached; `Some(rv)`: cached at `rv`.
    fn object_version(&self, key: &str) -> Option<String>;
    fn changes(&self) -> watch::Receiver<Arc<str>>;
}

impl<K: Object> Cache for Indexer<K> {
    fn resource_version(&self) -> String {
        Indexer::resource_version(self)
    }

    fn object_version(&self, key: &str) -> Option<String> {
        self.get_by_key(key).map(|o| {
            o.meta()
                .resource_version()
                .map(str::to_owned)
                .unwrap_or_default()
        })
    }

    fn changes(&self) -> watch::Receiver<Arc<str>> {
        self.resource_version_changes()
    }
}

/// How a wait for a key's writes ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Waited {
    /// The key had no write to wait for, or the caches already had them.
    No,
    /// The caches caught up after a wait.
    CaughtUp,
    /// The timeout passed first; the reconcile goes on with what the caches hold.
    TimedOut,
}

impl<T: Eq + Hash + Clone + Send + 'static> ReadYourWrites<T> {
    /// Waits for written objects' informers under `order`'s rule, at most
    /// [`DEFAULT_TIMEOUT`] per reconcile; add the informers with [`reads`](Self::reads).
    pub fn new(order: ResourceVersionOrder) -> Self {
        Self {
            inner: Arc::new(Inner {
                order,
                timeout: DEFAULT_TIMEOUT,
                caches: HashMap::new(),
                pending: Mutex::default(),
            }),
        }
    }

    /// [`new`](Self::new) with the order `client`'s server promises
    /// ([`ResourceVersionOrder::of_server`] of its `/version`): comparable on kube-apiserver
    /// 1.35 and later. Use [`new`](Self::new) with
    /// [`EqualityOnly`](ResourceVersionOrder::EqualityOnly) for resources an extension API
    /// server serves through the aggregator.
    pub async fn for_server(client: &Client) -> Result<Self, informer_runtime::Error> {
        let version = client.apiserver_version().await?;
        Ok(Self::new(ResourceVersionOrder::of_server(&version)))
    }

    /// Waits at most `timeout` before a reconcile (at least 1 ms).
    #[must_use]
    pub fn timeout(mut self, timeout: Duration) -> Self {
        self.configure().timeout = timeout.max(Duration::from_millis(1));
        self
    }

    /// Writes of `K` are waited for in `informer`'s cache (one informer per type).
    #[must_use]
    pub fn reads<K: Object>(mut self, informer: &SharedIndexInformer<K>) -> Self {
        self.configure()
            .caches
            .insert(TypeId::of::<K>(), Arc::new(informer.indexer()));
        self
    }

    /// The configuration to change: this value's own (a clone made before goes on with
    /// the old configuration).
    fn configure(&mut self) -> &mut Inner<T> {
        Arc::make_mut(&mut self.inner)
    }

    /// Records that `key`'s reconcile wrote `written` (the object the server returned from
    /// a create, update, patch or apply): `key`'s next reconcile waits until the informer
    /// of `K` holds it or something newer.
    pub fn wrote<K: Object>(&self, key: &T, written: &K) {
        self.record(key, written, false);
    }

    /// Records that `key`'s reconcile deleted `last` (its last state, as read or as the
    /// delete returned it): `key`'s next reconcile waits until the informer of `K` no
    /// longer holds that version. A delete that only marked the object (finalizers) and
    /// returned it is a write: use [`wrote`](Self::wrote) with what it returned.
    pub fn deleted<K: Object>(&self, key: &T, last: &K) {
        self.record(key, last, true);
    }

    fn record<K: Object>(&self, key: &T, obj: &K, deleted: bool) {
        let type_id = TypeId::of::<K>();
        let Some(cache) = self.inner.caches.get(&type_id) else {
            tracing::warn!(
                kind = type_name::<K>(),
                "read-your-writes: no informer of this type was given to `reads`, so this write is not waited for"
            );
            return;
        };
        let Some(resource_version) = obj.meta().resource_version().filter(|rv| !rv.is_empty())
        else {
            tracing::warn!(
                kind = type_name::<K>(),
                "read-your-writes: the written object has no resourceVersion to wait for"
            );
            return;
        };
        let write = Pending {
            cache: cache.clone(),
            type_id,
            object_key: object_key(obj),
            resource_version: resource_version.to_owned(),
            deleted,
        };
        let mut pending = self.pending();
        let writes = pending.entry(key.clone()).or_default();
        writes.retain(|w| w.type_id != type_id || w.object_key != write.object_key);
        writes.push(write);
    }

    fn pending(&self) -> MutexGuard<'_, HashMap<T, Vec<Pending>, foldhash::fast::RandomState>> {
        self.inner.pending.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Waits until the caches hold `key`'s recorded writes, or the timeout; forgets them.
    pub(crate) async fn wait(&self, key: &T) -> Waited {
        let Some(writes) = self.pending().remove(key) else {
            return Waited::No;
        };
        let order = self.inner.order;
        let deadline = tokio::time::Instant::now() + self.inner.timeout;
        let mut waited = false;
        for write in writes {
            // Subscribed before the check: a change between the two still wakes the wait.
            let mut changes = write.cache.changes();
            while !write.caught_up(order) {
                waited = true;
                match tokio::time::timeout_at(deadline, changes.changed()).await {
                    Ok(Ok(())) => {}
                    Ok(Err(_)) | Err(_) => return Waited::TimedOut,
                }
            }
        }
        if waited {
            Waited::CaughtUp
        } else {
            Waited::No
        }
    }
}

impl Pending {
    /// True when the cache shows this write (the rule of the module docs).
    fn caught_up(&self, order: ResourceVersionOrder) -> bool {
        let wanted = self.resource_version.as_str();
        let held = self.cache.object_version(&self.object_key);
        if self.deleted {
            // The delete's own resourceVersion is not known, only the last one before it:
            // the cache must have dropped that version.
            return held.is_none_or(|held| {
                order.compare(&held, wanted) == Some(std::cmp::Ordering::Greater)
            });
        }
        order.at_least(&self.cache.resource_version(), wanted)
            || held.is_some_and(|held| order.at_least(&held, wanted))
    }
}
