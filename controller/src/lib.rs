//! The controller kit of kube-informers, on top of the informer runtime: a [`WorkQueue`]
//! with client-go's rate limiting and delays ([`workqueue`]), the controller runner below,
//! and leader election over a Lease ([`leader_election`]).
//!
//! Controllers: workers that reconcile the keys a [`WorkQueue`] holds, the handlers that
//! fill it from informers ([`enqueue`], [`enqueue_owner`]) and the filters in front of
//! them ([`filtered`]); client-go's controller loop, as sample-controller writes it.
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
mod filter;
pub mod leader_election;
mod object_ref;
pub mod workqueue;

use std::fmt::Display;
use std::future::Future;
use std::hash::Hash;
use std::panic::AssertUnwindSafe;
use std::pin::Pin;
use std::sync::Arc;
use std::time::Duration;

use futures_util::future::try_join_all;
use futures_util::FutureExt as _;
use tokio::task::JoinSet;
use tokio_util::sync::CancellationToken;
use tracing::Instrument as _;

use informer_runtime::informer::SharedIndexInformer;
use informer_runtime::object::Object;

pub use enqueue::{enqueue, enqueue_owner, Enqueue, EnqueueOwner};
pub use filter::{
    filtered, generation_changed, label_selector, predicate, EventFilter, Filtered,
    GenerationChanged, Predicate,
};
pub use leader_election::{LeaderElectionConfig, LeaderElector, LeaseLock};
pub use object_ref::{ObjectRef, ParseObjectRefError};
pub use workqueue::WorkQueue;

/// What a successful reconcile asks for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Action {
    /// Nothing more: the key's failure count is reset.
    Done,
    /// Look again after this long (the failure count is reset too): for state that
    /// changes without an event, such as time passing.
    RequeueAfter(Duration),
}

/// Errors of [`Controller::run`].
#[derive(Debug, thiserror::Error)]
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
/// and adds it again after `d`, `Err(e)` (or a panic) logs the key and the error and adds
/// it again rate-limited. The queue never hands one key to two workers at once.
pub struct Controller<T, R> {
    queue: WorkQueue<T>,
    reconcile: R,
    workers: usize,
    caches: Vec<Box<dyn CacheSync>>,
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
        }
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
        self.caches.push(Box::new(cache));
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
        } = self;
        let synced = try_join_all(caches.iter().map(|c| async move {
            c.wait_synced()
                .await
                .map_err(|source| ControllerError::CacheSync {
                    name: c.name(),
                    source,
                })
        }));
        tokio::select! {
            () = cancel.cancelled() => {
                queue.shut_down();
                return Ok(());
            }
            synced = synced => if let Err(e) = synced {
                queue.shut_down();
                return Err(e);
            },
        }
        tracing::info!(
            queue = queue.name(),
            workers,
            "caches synced; starting workers"
        );
        let reconcile = Arc::new(reconcile);
        let mut tasks = JoinSet::new();
        for _ in 0..workers {
            tasks.spawn(worker(queue.clone(), reconcile.clone(), cancel.clone()));
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
}

fn log_join(ended: Result<(), tokio::task::JoinError>) {
    if let Err(e) = ended {
        tracing::error!(error = %e, "controller worker task failed");
    }
}

async fn worker<T, R, F, E>(queue: WorkQueue<T>, reconcile: Arc<R>, cancel: CancellationToken)
where
    T: Clone + Eq + Hash + Display + Send + Sync + 'static,
    R: Fn(T) -> F + Send + Sync + 'static,
    F: Future<Output = Result<Action, E>> + Send + 'static,
    E: Display + Send + 'static,
{
    loop {
        let key = tokio::select! {
            biased;
            () = cancel.cancelled() => return,
            key = queue.get() => match key {
                Some(key) => key,
                None => return,
            },
        };
        let span = tracing::debug_span!("reconcile", key = %key);
        // The call is inside the guarded future too, so a reconcile that panics before it
        // returns its future is caught as well: the key must reach `done` whatever happens.
        let outcome = AssertUnwindSafe(async { reconcile(key.clone()).await })
            .catch_unwind()
            .instrument(span)
            .await;
        match outcome {
            Ok(Ok(Action::Done)) => queue.forget(&key),
            Ok(Ok(Action::RequeueAfter(after))) => {
                queue.forget(&key);
                queue.add_after(key.clone(), after);
            }
            Ok(Err(e)) => {
                tracing::error!(
                    key = %key,
                    error = %e,
                    retries = queue.num_requeues(&key),
                    "reconcile failed; retrying with backoff"
                );
                queue.add_rate_limited(key.clone());
            }
            Err(_) => {
                tracing::error!(key = %key, "reconcile panicked; retrying with backoff");
                queue.add_rate_limited(key.clone());
            }
        }
        queue.done(&key);
    }
}
