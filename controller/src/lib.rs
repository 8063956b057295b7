//! The controller kit of kube-informers, on top of the informer runtime: a [`WorkQueue`]
//! with client-go's rate limiting and delays ([`workqueue`]), the controller runner below,
//! and leader election over a Lease ([`leader_election`]).
//!
//! Controllers: workers that reconcile the keys a [`WorkQueue`] holds, the handlers that
//! fill it from informers ([`enqueue`], [`enqueue_owner`]) and the filters in front of
//! them ([`filtered`]); client-go's controller loop, as sample-controller writes it. With
//! controller-runtime's 2025 additions: a priority queue
//! ([`workqueue::Config::priority_queue`]), a reconcile timeout
//! ([`Controller::reconcile_timeout`]), a per-key backoff the reconcile asks for
//! ([`Action::requeue_with_backoff`]), warm standbys under leader election
//! ([`Controller::run_leader_elected`]), and Kubernetes Events ([`events`]).
//!
//! ```no_run
//! # async fn demo(
//! #     deployments: informer_runtime::SharedIndexInformer<k8s_openapi::api::apps::v1::Deployment>,
//! #     replica_sets: informer_runtime::SharedIndexInformer<k8s_openapi::api::apps::v1::ReplicaSet>,
//! # ) -> Result<(), informer_controller::ControllerError> {
//! use std::time::Duration;
//! use informer_controller::{enqueue, enqueue_owner, Action, Controller, ObjectRef};
//! use informer_controller::WorkQueue;
//! use k8s_openapi::api::apps::v1::{Deployment, ReplicaSet};
//! use tokio_util::sync::CancellationToken;
//!
//! let queue = WorkQueue::<ObjectRef>::new();
//! deployments.add_event_handler(enqueue(queue.clone()));
//! replica_sets.add_event_handler(enqueue_owner::<Deployment, ReplicaSet>(queue.clone()));
//! let lister = deployments.indexer();
//! let cancel = CancellationToken::new();
//! Controller::new(queue, move |key: ObjectRef| {
//!     let found = lister.get_by_key(&key.to_string()).is_some();
//!     async move {
//!         if !found {
//!             return Ok::<_, std::io::Error>(Action::Done); // deleted: nothing to do
//!         }
//!         // ... make the world match the Deployment ...
//!         Ok(Action::RequeueAfter(Duration::from_secs(300)))
//!     }
//! })
//! .workers(2)
//! .wait_for(deployments.clone())
//! .wait_for(replica_sets.clone())
//! .run(cancel)
//! .await
//! # }
//! ```

#![deny(missing_docs)]

mod enqueue;
pub mod events;
mod filter;
pub mod leader_election;
mod object_ref;
pub mod read_your_writes;
pub mod sharding;
pub mod workqueue;

use std::collections::HashMap;
use std::fmt::Display;
use std::future::Future;
use std::hash::Hash;
use std::panic::AssertUnwindSafe;
use std::pin::Pin;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::Duration;

use futures_util::future::try_join_all;
use futures_util::FutureExt as _;
use tokio::task::JoinSet;
use tokio_util::sync::CancellationToken;
use tracing::Instrument as _;

use informer_runtime::informer::SharedIndexInformer;
use informer_runtime::object::Object;
use read_your_writes::Waited;

pub use enqueue::{enqueue, enqueue_owner, Enqueue, EnqueueOwner};
pub use filter::{
    filtered, generation_changed, label_selector, predicate, EventFilter, Filtered,
    GenerationChanged, Predicate,
};
pub use leader_election::{LeaderElectionConfig, LeaderElectionError, LeaderElector, LeaseLock};
pub use object_ref::{ObjectRef, ParseObjectRefError};
pub use read_your_writes::ReadYourWrites;
use sharding::ShardGate;
pub use sharding::{ShardRing, ShardRingConfig, ShardRingError, Shards};
pub use workqueue::WorkQueue;

/// What a successful reconcile asks for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Action {
    /// Nothing more: the key's failure count is reset.
    Done,
    /// Look again after this long (the failure count is reset too): for state that
    /// changes without an event, such as time passing.
    RequeueAfter(Duration),
    /// Look again after a backoff of this key's own: `base` the first time, doubling
    /// each time the key asks for it again, never above `max`. [`Done`](Self::Done) and
    /// [`RequeueAfter`](Self::RequeueAfter) start it over. For a reconcile that waits
    /// on something outside the cluster without that being a failure: it is not logged as
    /// an error and does not touch the queue's failure count.
    RequeueWithBackoff {
        /// The first delay.
        base: Duration,
        /// The longest delay.
        max: Duration,
    },
}

impl Action {
    /// Nothing more until something changes: [`Action::Done`] (kube-rs's name).
    pub fn await_change() -> Self {
        Self::Done
    }

    /// [`Action::RequeueAfter`] (kube-rs's name).
    pub fn requeue(after: Duration) -> Self {
        Self::RequeueAfter(after)
    }

    /// [`Action::RequeueWithBackoff`]: a per-key exponential backoff from `base` to `max`.
    pub fn requeue_with_backoff(base: Duration, max: Duration) -> Self {
        Self::RequeueWithBackoff { base, max }
    }
}

/// Counts of what a [`Controller`]'s reconciles did: a cheap-to-clone handle from
/// [`Controller::metrics`], readable while the controller runs and after.
#[derive(Clone, Debug, Default)]
pub struct ControllerMetrics {
    counts: Arc<Counts>,
}

#[derive(Debug, Default)]
struct Counts {
    reconciles: AtomicU64,
    errors: AtomicU64,
    panics: AtomicU64,
    timeouts: AtomicU64,
    backoff_requeues: AtomicU64,
    read_your_writes_waits: AtomicU64,
    read_your_writes_timeouts: AtomicU64,
    shard_skips: AtomicU64,
}

/// A snapshot of [`ControllerMetrics`].
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ControllerStats {
    /// Reconciles finished, whatever their outcome.
    pub reconciles: u64,
    /// Reconciles that returned an error (retried rate-limited).
    pub errors: u64,
    /// Reconciles that panicked (retried rate-limited).
    pub panics: u64,
    /// Reconciles cancelled by the [reconcile timeout](Controller::reconcile_timeout)
    /// (retried rate-limited).
    pub timeouts: u64,
    /// Reconciles that asked for [`Action::RequeueWithBackoff`].
    pub backoff_requeues: u64,
    /// Reconciles that first waited for the caches to catch up with their key's last
    /// writes ([`Controller::read_your_writes`]).
    pub read_your_writes_waits: u64,
    /// Of those, the waits that ran out of time: the reconcile went on with the caches as
    /// they were.
    pub read_your_writes_timeouts: u64,
    /// Keys taken from the queue and dropped unreconciled because their object is outside
    /// this replica's share ([`Controller::run_sharded`]): it left the shard while queued.
    pub shard_skips: u64,
}

impl ControllerMetrics {
    /// The counts now.
    pub fn snapshot(&self) -> ControllerStats {
        let c = &self.counts;
        ControllerStats {
            reconciles: c.reconciles.load(Ordering::Relaxed),
            errors: c.errors.load(Ordering::Relaxed),
            panics: c.panics.load(Ordering::Relaxed),
            timeouts: c.timeouts.load(Ordering::Relaxed),
            backoff_requeues: c.backoff_requeues.load(Ordering::Relaxed),
            read_your_writes_waits: c.read_your_writes_waits.load(Ordering::Relaxed),
            read_your_writes_timeouts: c.read_your_writes_timeouts.load(Ordering::Relaxed),
            shard_skips: c.shard_skips.load(Ordering::Relaxed),
        }
    }

    fn count(&self, counter: impl Fn(&Counts) -> &AtomicU64) {
        counter(&self.counts).fetch_add(1, Ordering::Relaxed);
    }
}

/// Errors of [`Controller::run`].
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum ControllerError {
    /// A cache the workers read cannot sync; no worker started.
    #[error("cache {name} cannot sync, so the controller's workers never started: {source}")]
    CacheSync {
        /// The cache's name (the informer's).
        name: String,
        /// Why.
        #[source]
        source: informer_runtime::SyncError,
    },
    /// [`Controller::run_leader_elected`] could not stand for election.
    #[error("the controller cannot stand for election: {0}")]
    LeaderElection(#[from] LeaderElectionError),
    /// [`Controller::run_sharded`] could not take part in its shard ring.
    #[error("the controller cannot take part in its shard ring: {0}")]
    ShardRing(#[from] ShardRingError),
}

/// A future as [`CacheSync::wait_synced`] returns it.
pub type SyncFuture<'a> =
    Pin<Box<dyn Future<Output = Result<(), informer_runtime::SyncError>> + Send + 'a>>;

/// A cache the workers read, which must have synced before they start.
pub trait CacheSync: Send + Sync + 'static {
    /// The name errors give it.
    fn name(&self) -> String;
    /// Resolves once the cache has synced; fails if it never will.
    fn wait_synced(&self) -> SyncFuture<'_>;
}

impl<K: Object> CacheSync for SharedIndexInformer<K> {
    fn name(&self) -> String {
        SharedIndexInformer::name(self)
    }

    fn wait_synced(&self) -> SyncFuture<'_> {
        Box::pin(self.wait_for_sync())
    }
}

/// A bare has-synced check, such as `move || informer.has_synced()`, polled every 10 ms
/// doubling to 1 s; it can only wait, never fail.
impl<F: Fn() -> bool + Send + Sync + 'static> CacheSync for F {
    fn name(&self) -> String {
        "has-synced check".to_owned()
    }

    fn wait_synced(&self) -> SyncFuture<'_> {
        Box::pin(async move {
            let mut pause = Duration::from_millis(10);
            while !self() {
                tokio::time::sleep(pause).await;
                pause = (pause * 2).min(Duration::from_secs(1));
            }
            Ok(())
        })
    }
}

/// Workers that take keys from a queue and reconcile them (client-go's controller
/// `Run` / `runWorker` / `processNextWorkItem`). See the [module docs](self).
///
/// For each key: `Ok(Action::Done)` forgets it, `Ok(Action::RequeueAfter(d))` forgets it
/// and adds it again after `d`, `Ok(Action::RequeueWithBackoff { .. })` forgets it and adds
/// it again after the key's next backoff, `Err(e)` (or a panic, or running past the
/// [reconcile timeout](Self::reconcile_timeout)) logs the key and the error and adds it
/// again rate-limited. The queue never hands one key to two workers at once.
pub struct Controller<T, R> {
    queue: WorkQueue<T>,
    reconcile: R,
    workers: usize,
    caches: Vec<Arc<dyn CacheSync>>,
    timeout: Option<Duration>,
    metrics: ControllerMetrics,
    read_your_writes: Option<ReadYourWrites<T>>,
    gate: Option<Arc<ShardGate>>,
}

/// Per-key backoff steps taken by [`Action::RequeueWithBackoff`] in a row.
struct Backoffs<T> {
    steps: Mutex<HashMap<T, u32, foldhash::fast::RandomState>>,
}

impl<T: Eq + Hash> Backoffs<T> {
    fn steps(&self) -> MutexGuard<'_, HashMap<T, u32, foldhash::fast::RandomState>> {
        self.steps.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// The delay of `key`'s next step, `base * 2^steps` capped at `max`; counts the step.
    fn next(&self, key: T, base: Duration, max: Duration) -> Duration {
        let mut steps = self.steps();
        let n = steps.entry(key).or_insert(0);
        let delay = base
            .checked_mul(1u32.checked_shl(*n).unwrap_or(u32::MAX))
            .unwrap_or(max)
            .min(max);
        *n = n.saturating_add(1);
        delay
    }

    fn reset(&self, key: &T) {
        self.steps().remove(key);
    }
}

impl<T, R, F, E> Controller<T, R>
where
    T: Clone + Eq + Hash + Display + Send + Sync + 'static,
    R: Fn(T) -> F + Send + Sync + 'static,
    F: Future<Output = Result<Action, E>> + Send + 'static,
    E: Display + Send + 'static,
{
    /// One worker reconciling the keys of `queue`.
    pub fn new(queue: WorkQueue<T>, reconcile: R) -> Self {
        Self {
            queue,
            reconcile,
            workers: 1,
            caches: Vec::new(),
            timeout: None,
            metrics: ControllerMetrics::default(),
            read_your_writes: None,
            gate: None,
        }
    }

    /// Before reconciling a key, waits until the caches have caught up with the writes
    /// the key's earlier reconciles recorded in `writes` (bounded by its timeout; see
    /// [`read_your_writes` module](mod@crate::read_your_writes)). Counted in
    /// [`ControllerStats::read_your_writes_waits`] and
    /// [`read_your_writes_timeouts`](ControllerStats::read_your_writes_timeouts).
    #[must_use]
    pub fn read_your_writes(mut self, writes: ReadYourWrites<T>) -> Self {
        self.read_your_writes = Some(writes);
        self
    }

    /// Cancels a reconcile that runs longer than `timeout` (its future is dropped) and
    /// retries the key rate-limited, as a failure; counted in
    /// [`ControllerStats::timeouts`]. A reconcile must then be safe to stop at any await.
    #[must_use]
    pub fn reconcile_timeout(mut self, timeout: Duration) -> Self {
        self.timeout = Some(timeout);
        self
    }

    /// A handle on this controller's counts.
    pub fn metrics(&self) -> ControllerMetrics {
        self.metrics.clone()
    }

    /// Reconciles up to `n` keys at once (at least one).
    #[must_use]
    pub fn workers(mut self, n: usize) -> Self {
        self.workers = n.max(1);
        self
    }

    /// Starts the workers only after `cache` has synced: an informer the reconcile reads,
    /// or a `Fn() -> bool` has-synced check. Call once per cache.
    #[must_use]
    pub fn wait_for(mut self, cache: impl CacheSync) -> Self {
        self.caches.push(Arc::new(cache));
        self
    }

    /// Waits for the caches, then runs the workers until `cancel` fires (or the queue is
    /// shut down and empty). On cancel the queue is shut down, workers take no new key and
    /// the call returns once every reconcile in flight has finished.
    pub async fn run(self, cancel: CancellationToken) -> Result<(), ControllerError> {
        let Self {
            queue,
            reconcile,
            workers,
            caches,
            timeout,
            metrics,
            read_your_writes,
            gate,
        } = self;
        tokio::select! {
            () = cancel.cancelled() => {
                queue.shut_down();
                return Ok(());
            }
            synced = wait_synced(&caches) => if let Err(e) = synced {
                queue.shut_down();
                return Err(e);
            },
        }
        tracing::info!(
            queue = queue.name(),
            workers,
            "caches synced; starting workers"
        );
        let worker = Arc::new(Worker {
            queue: queue.clone(),
            reconcile,
            timeout,
            metrics,
            read_your_writes,
            gate,
            backoffs: Backoffs {
                steps: Mutex::new(HashMap::default()),
            },
        });
        let mut tasks = JoinSet::new();
        for _ in 0..workers {
            tasks.spawn(worker.clone().run(cancel.clone()));
        }
        loop {
            tokio::select! {
                () = cancel.cancelled() => break,
                next = tasks.join_next() => match next {
                    Some(ended) => log_join(ended),
                    None => break,
                },
            }
        }
        queue.shut_down_with_drain().await;
        while let Some(ended) = tasks.join_next().await {
            log_join(ended);
        }
        tracing::info!(queue = queue.name(), "workers stopped");
        Ok(())
    }

    /// Runs the controller as one replica of several under `elector`'s leader election,
    /// as a warm standby (controller-runtime's warm replicas): the informers it
    /// [waits for](Self::wait_for) must already be started, so while this replica stands by
    /// they list, sync and fill the queue through their handlers; on winning, the workers
    /// start at once on a full queue, without a list of their own. Replaces `elector`'s
    /// started-leading callback.
    ///
    /// Returns when `cancel` fires, when leadership once won is lost (the workers stop
    /// first and the Lease is released if so configured; as with client-go, a replica that
    /// lost should exit), or with the error of a cache that cannot sync, before or after
    /// winning.
    pub async fn run_leader_elected(
        self,
        elector: LeaderElector,
        cancel: CancellationToken,
    ) -> Result<(), ControllerError>
    where
        T: 'static,
    {
        let name = self.queue.name().to_owned();
        let caches = self.caches.clone();
        let election = cancel.child_token();
        let outcome: Arc<Mutex<Option<Result<(), ControllerError>>>> = Arc::default();
        let controller = Mutex::new(Some(self));
        let elector = elector.on_started_leading({
            let outcome = outcome.clone();
            let election = election.clone();
            move |leading: CancellationToken| {
                let taken = controller.lock().unwrap_or_else(|e| e.into_inner()).take();
                let outcome = outcome.clone();
                let election = election.clone();
                async move {
                    let Some(controller) = taken else { return };
                    let ran = controller.run(leading).await;
                    *outcome.lock().unwrap_or_else(|e| e.into_inner()) = Some(ran);
                    // Workers that stopped on their own (a cache that cannot sync) must
                    // not keep the Lease from a replica that can work.
                    election.cancel();
                }
            }
        });
        let standby = async {
            tokio::select! {
                () = election.cancelled() => None,
                synced = wait_synced(&caches) => match synced {
                    Ok(()) => {
                        tracing::info!(queue = %name, "caches synced; standing by warm");
                        None
                    }
                    Err(e) => {
                        election.cancel();
                        Some(e)
                    }
                },
            }
        };
        let (elected, standby) = tokio::join!(elector.run(election.clone()), standby);
        elected?;
        if let Some(e) = standby {
            return Err(e);
        }
        let ran = outcome.lock().unwrap_or_else(|e| e.into_inner()).take();
        ran.unwrap_or(Ok(()))
    }

    /// Runs the controller as one replica of a sharded controller on `ring`: the workers
    /// reconcile only keys whose object is in this replica's share, placed by the object
    /// `primary` caches under the key (the informer whose objects the keys name, following
    /// [`ShardRing::assignments`]). Runs the ring too, until `cancel` fires.
    ///
    /// When the ring releases buckets, the workers stop taking their keys (a queued key of an
    /// object that left is dropped when taken, counted in [`ControllerStats::shard_skips`])
    /// and the release waits for their reconciles in flight, after any
    /// [release callback](ShardRing::on_release) of the caller's, before the ring hands them
    /// over: no object is reconciled by two replicas at once. Objects the reconcile reads
    /// besides the primary must follow the same share: by namespace, or by their controller
    /// ([`ShardBy::ControllerOwner`](informer_runtime::sharding::ShardBy::ControllerOwner)).
    ///
    /// ```no_run
    /// # async fn demo(
    /// #     client: informer_runtime::Client,
    /// #     queue: informer_controller::WorkQueue<informer_controller::ObjectRef>,
    /// #     reconcile: impl Fn(informer_controller::ObjectRef) -> std::future::Ready<Result<informer_controller::Action, std::io::Error>> + Send + Sync + 'static,
    /// # ) -> Result<(), Box<dyn std::error::Error>> {
    /// use informer_controller::{enqueue, Controller, ShardRing, ShardRingConfig};
    /// use informer_runtime::informer::{new_informer, InformerOptions, SharedIndexInformer};
    /// use informer_runtime::source::typed;
    /// use k8s_openapi::api::core::v1::ConfigMap;
    /// use tokio_util::sync::CancellationToken;
    ///
    /// let ring = ShardRing::new(client.clone(), "default", "config-controller", "replica-0",
    ///     ShardRingConfig::default())?;
    /// let configs: SharedIndexInformer<ConfigMap> = new_informer(&client, &typed::<ConfigMap>(),
    ///     None, InformerOptions::default().shard_assignments(ring.assignments()));
    /// configs.add_event_handler(enqueue(queue.clone()));
    /// let cancel = CancellationToken::new();
    /// tokio::spawn(configs.clone().run(cancel.clone()));
    /// Controller::new(queue, reconcile)
    ///     .wait_for(configs.clone())
    ///     .run_sharded(ring, configs, cancel)
    ///     .await?;
    /// # Ok(()) }
    /// ```
    pub async fn run_sharded<K: Object>(
        mut self,
        ring: ShardRing,
        primary: SharedIndexInformer<K>,
        cancel: CancellationToken,
    ) -> Result<(), ControllerError> {
        let gate = ShardGate::for_primary(ring.subscribe(), &primary);
        let ring = ring.and_on_release({
            let gate = gate.clone();
            move |released| {
                let gate = gate.clone();
                async move { gate.drain(&released).await }
            }
        });
        self.gate = Some(gate);
        // A controller that cannot run must not keep claiming buckets.
        let stop = cancel.child_token();
        let controller = async {
            let ran = self.run(cancel.clone()).await;
            stop.cancel();
            ran
        };
        let (ringed, ran) = tokio::join!(ring.run(stop.clone()), controller);
        ringed?;
        ran
    }
}

/// Resolves once every cache has synced; the first that cannot fails it.
async fn wait_synced(caches: &[Arc<dyn CacheSync>]) -> Result<(), ControllerError> {
    try_join_all(caches.iter().map(|c| async move {
        c.wait_synced()
            .await
            .map_err(|source| ControllerError::CacheSync {
                name: c.name(),
                source,
            })
    }))
    .await
    .map(drop)
}

fn log_join(ended: Result<(), tokio::task::JoinError>) {
    if let Err(e) = ended {
        tracing::error!(error = %e, "controller worker task failed");
    }
}

/// What every worker task shares.
struct Worker<T, R> {
    queue: WorkQueue<T>,
    reconcile: R,
    timeout: Option<Duration>,
    metrics: ControllerMetrics,
    read_your_writes: Option<ReadYourWrites<T>>,
    gate: Option<Arc<ShardGate>>,
    backoffs: Backoffs<T>,
}

impl<T, R, F, E> Worker<T, R>
where
    T: Clone + Eq + Hash + Display + Send + Sync + 'static,
    R: Fn(T) -> F + Send + Sync + 'static,
    F: Future<Output = Result<Action, E>> + Send + 'static,
    E: Display + Send + 'static,
{
    async fn run(self: Arc<Self>, cancel: CancellationToken) {
        let queue = &self.queue;
        loop {
            let key = tokio::select! {
                biased;
                () = cancel.cancelled() => return,
                key = queue.get() => match key {
                    Some(key) => key,
                    None => return,
                },
            };
            match &self.gate {
                None => self.process(&key).await,
                Some(gate) => {
                    let name = key.to_string();
                    if gate.admit(&name) {
                        self.process(&key).await;
                        gate.finish(&name);
                    } else {
                        tracing::debug!(key = %key, "outside this replica's share; dropped");
                        self.metrics.count(|c| &c.shard_skips);
                        queue.forget(&key);
                        self.backoffs.reset(&key);
                    }
                }
            }
            queue.done(&key);
        }
    }

    async fn process(&self, key: &T) {
        let queue = &self.queue;
        if let Some(writes) = &self.read_your_writes {
            match writes.wait(key).await {
                Waited::No => {}
                Waited::CaughtUp => self.metrics.count(|c| &c.read_your_writes_waits),
                Waited::TimedOut => {
                    self.metrics.count(|c| &c.read_your_writes_waits);
                    self.metrics.count(|c| &c.read_your_writes_timeouts);
                    tracing::warn!(key = %key, "the caches did not catch up with this key's last writes in time; reconciling with what they hold");
                }
            }
        }
        let span = tracing::debug_span!("reconcile", key = %key);
        // The call is inside the guarded future too, so a reconcile that panics before it
        // returns its future is caught as well: the key must reach `done` whatever happens.
        let call = AssertUnwindSafe(async { (self.reconcile)(key.clone()).await })
            .catch_unwind()
            .instrument(span);
        let outcome = match self.timeout {
            Some(limit) => tokio::time::timeout(limit, call).await,
            None => Ok(call.await),
        };
        self.metrics.count(|c| &c.reconciles);
        match outcome {
            Ok(Ok(Ok(Action::Done))) => {
                queue.forget(key);
                self.backoffs.reset(key);
            }
            Ok(Ok(Ok(Action::RequeueAfter(after)))) => {
                queue.forget(key);
                self.backoffs.reset(key);
                queue.add_after(key.clone(), after);
            }
            Ok(Ok(Ok(Action::RequeueWithBackoff { base, max }))) => {
                queue.forget(key);
                self.metrics.count(|c| &c.backoff_requeues);
                let after = self.backoffs.next(key.clone(), base, max);
                tracing::debug!(key = %key, ?after, "reconcile asked for a backoff");
                queue.add_after(key.clone(), after);
            }
            Ok(Ok(Err(e))) => {
                self.metrics.count(|c| &c.errors);
                tracing::error!(
                    key = %key,
                    error = %e,
                    retries = queue.num_requeues(key),
                    "reconcile failed; retrying with backoff"
                );
                queue.add_rate_limited(key.clone());
            }
            Ok(Err(_)) => {
                self.metrics.count(|c| &c.panics);
                tracing::error!(key = %key, "reconcile panicked; retrying with backoff");
                queue.add_rate_limited(key.clone());
            }
            Err(_) => {
                self.metrics.count(|c| &c.timeouts);
                tracing::error!(
                    key = %key,
                    timeout = ?self.timeout,
                    "reconcile timed out and was cancelled; retrying with backoff"
                );
                queue.add_rate_limited(key.clone());
            }
        }
    }
}
