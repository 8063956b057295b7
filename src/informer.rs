//! `SharedIndexInformer`: one list+watch feeding one indexed cache and many handlers
//! (client-go's `cache.SharedIndexInformer`).
//!
//! The reflector pushes deltas into the in-order queue; one loop pops them, applies each to
//! the indexer and hands the resulting event to every handler's queue, all under one lock.
//! Adding a handler takes the same lock to snapshot the cache, so a late handler sees the
//! current contents as adds and then every later event: no gap, no duplicate.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::{Duration, Instant};

use futures_util::stream::BoxStream;
use k8s_openapi::apimachinery::pkg::apis::meta::v1::ObjectMeta;
use tokio_util::sync::CancellationToken;
use tracing::Instrument;

use crate::delta_apply::DeltaApplier;
use crate::delta_channel::{delta_queue, Delta, DeltaReceiver, Erased};
use crate::error::Error;
use crate::failure::{ListFailure, SyncError, SyncErrorKind};
use crate::handler::{Event, HandlerOptions, Origin, ResourceEventHandler};
use crate::list_options::{ListOptions, TweakListOptions};
use crate::lister_watcher::ListerWatcher;
use crate::object::{object_key, Meta as _, Object};
use crate::processor::Processor;
use crate::reflector::{
    Reflector, ReflectorConfig, ReflectorStatus, TypedUpstream, DEFAULT_INITIAL_EVENTS_TIMEOUT,
    DEFAULT_PAGE_SIZE,
};
use crate::shard::ShardSelector;
use crate::sharding::{ShardAssignment, ShardBy};
use crate::stats::InformerStats;
use crate::store::{store_with_mode, CacheMode, Indexer, Indexers};

pub use crate::source::new_informer;

pub use crate::processor::HandlerRegistration;

/// The most deltas applied under one hold of the dispatch lock before handlers are handed
/// their events, so registering a handler or reading stats never waits long.
const DRAIN_BATCH: usize = 256;

struct Dispatch<K> {
    applier: DeltaApplier<K>,
    processor: Processor<K>,
}

/// What the reflector is made of; taken by whoever decides the informer's lifecycle.
struct Setup<K> {
    lister_watcher: Arc<dyn ListerWatcher<K>>,
    prepare: Option<Prepare<K>>,
    config: ReflectorConfig,
}

struct Inner<K> {
    setup: Mutex<Option<Setup<K>>>,
    indexer: Indexer<K>,
    default_resync: Duration,
    name: String,
    dispatch: Mutex<Dispatch<K>>,
    synced: Arc<AtomicBool>,
    started: AtomicBool,
    stopped: AtomicBool,
    status: Arc<ReflectorStatus>,
}

/// A shared, indexed informer for `K` (client-go's `cache.SharedIndexInformer`). Cheap to
/// clone; clones share one cache, one watch and one set of handlers.
///
/// Factories make and run these for you; by hand, an informer lists and watches through
/// any [`ListerWatcher`], here the typed [`Api`](crate::Api):
///
/// ```no_run
/// use std::sync::Arc;
/// use std::time::Duration;
///
/// use informer_runtime::{Api, Client, Indexers, ListWatch, ResourceEventHandlerFuncs};
/// use informer_runtime::{Lister, SharedIndexInformer};
/// use k8s_openapi::api::core::v1::ConfigMap;
/// use tokio_util::sync::CancellationToken;
///
/// # async fn run() -> Result<(), Box<dyn std::error::Error>> {
/// let api = Api::<ConfigMap>::namespaced(Client::try_default().await?, "shop");
/// let (lists, watches) = (api.clone(), api);
/// let informer = SharedIndexInformer::new(
///     ListWatch::new(move |o| lists.list_as(&o, None), move |o| watches.watch_as(&o, None)),
///     Duration::ZERO,
///     Indexers::standard(),
/// );
/// informer.add_event_handler(
///     ResourceEventHandlerFuncs::default()
///         .on_add(|cm: &Arc<ConfigMap>, _initial| println!("{:?}", cm.metadata.name)),
/// );
/// let cancel = CancellationToken::new();
/// tokio::spawn(informer.run(cancel.clone()));
/// informer.wait_for_sync().await?;
/// let settings = Lister::new(informer.indexer()).namespaced("shop").get("settings");
/// # let _ = settings;
/// cancel.cancel();
/// # Ok(())
/// # }
/// ```
pub struct SharedIndexInformer<K> {
    inner: Arc<Inner<K>>,
}

impl<K> Clone for SharedIndexInformer<K> {
    fn clone(&self) -> Self {
        Self {
            inner: self.inner.clone(),
        }
    }
}

impl<K: Object> std::fmt::Debug for SharedIndexInformer<K> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("SharedIndexInformer")
            .field("name", &self.name())
            .field("has_synced", &self.has_synced())
            .field("is_stopped", &self.is_stopped())
            .field("cached", &self.inner.indexer.len())
            .finish()
    }
}

fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    // Handlers and transforms run outside these locks, so a poisoned lock only means a
    // panic elsewhere in this process; the data is still consistent enough to go on.
    m.lock().unwrap_or_else(|e| e.into_inner())
}

impl<K: Object> SharedIndexInformer<K> {
    /// A new informer over `lister_watcher`, resyncing every `default_resync` (zero: never),
    /// with `indexers` and every other option at its default (client-go's
    /// `NewSharedIndexInformer`); [`with_options`](Self::with_options) takes them all.
    pub fn new(
        lister_watcher: impl ListerWatcher<K>,
        default_resync: Duration,
        indexers: Indexers<K>,
    ) -> Self {
        Self::with_options(
            lister_watcher,
            InformerOptions::default()
                .resync(default_resync)
                .indexers(indexers),
        )
    }

    /// A new informer over `lister_watcher`, configured by `options` (client-go's
    /// `NewSharedIndexInformerWithOptions`). The options are fixed from here on.
    pub fn with_options(
        lister_watcher: impl ListerWatcher<K>,
        options: InformerOptions<K>,
    ) -> Self {
        let InformerOptions {
            name,
            resync,
            indexers,
            tweak_list_options,
            shard_selector,
            shard_assignments,
            shard_by,
            transform,
            metadata_transform,
            drop_managed_fields,
            streaming_list,
            initial_events_timeout,
            cache_mode,
            page_size,
            watch_error_handler,
        } = options;
        let name = name.unwrap_or_else(default_name::<K>);
        let (indexer, writer) = store_with_mode(indexers, cache_mode);
        let synced = Arc::new(AtomicBool::new(false));
        let lister_watcher: Arc<dyn ListerWatcher<K>> = Arc::new(lister_watcher);
        let scope = ShardAssignment::fixed(shard_selector.clone());
        let config = ReflectorConfig {
            name: name.clone(),
            shard_selector,
            shard_assignments,
            shard_by,
            tweak_list_options,
            page_size: page_size.max(1),
            streaming_list,
            initial_events_timeout,
            watch_error_handler,
            ..Default::default()
        };
        let prepare = compose_transforms(drop_managed_fields, metadata_transform, transform);
        Self {
            inner: Arc::new(Inner {
                setup: Mutex::new(Some(Setup {
                    lister_watcher,
                    prepare,
                    config,
                })),
                indexer,
                default_resync: resync,
                name: name.clone(),
                dispatch: Mutex::new(Dispatch {
                    applier: DeltaApplier::new(writer).sharded(scope, shard_by),
                    processor: Processor::new(name, synced.clone(), object_key::<K>),
                }),
                synced,
                started: AtomicBool::new(false),
                stopped: AtomicBool::new(false),
                status: Arc::new(ReflectorStatus::default()),
            }),
        }
    }

    /// The name used in logs, errors and stats.
    pub fn name(&self) -> String {
        self.inner.name.clone()
    }

    /// Adds a handler; it first receives the current contents as adds. Its queue is
    /// unbounded (every notification, in order); see
    /// [`add_event_handler_with`](Self::add_event_handler_with) for a bounded one. On an
    /// informer that already stopped the handler receives nothing and its registration
    /// reports [`is_removed`](HandlerRegistration::is_removed).
    pub fn add_event_handler(&self, handler: impl ResourceEventHandler<K>) -> HandlerRegistration {
        self.add_event_handler_with(handler, HandlerOptions::default())
    }

    /// Adds a handler that is re-sent every cached object as an update (old == new) every
    /// `resync_period` (zero: never; at least one second).
    pub fn add_event_handler_with_resync_period(
        &self,
        handler: impl ResourceEventHandler<K>,
        resync_period: Duration,
    ) -> HandlerRegistration {
        self.add_event_handler_with(
            handler,
            HandlerOptions::default().resync_period(resync_period),
        )
    }

    /// Adds a handler with `options`: its queue policy and resync period (the informer's
    /// default unless set). A handler that can fall behind the event rate and needs only
    /// the newest state of each object should coalesce, which bounds its queue by the
    /// number of objects:
    ///
    /// ```no_run
    /// # fn demo(informer: informer_runtime::SharedIndexInformer<k8s_openapi::api::core::v1::Pod>) {
    /// use informer_runtime::handler::HandlerOptions;
    /// use informer_runtime::ResourceEventHandlerFuncs;
    ///
    /// let reg = informer.add_event_handler_with(
    ///     ResourceEventHandlerFuncs::default().on_update(|_old, _new| { /* slow work */ }),
    ///     HandlerOptions::coalescing(),
    /// );
    /// println!("pending: {} (at most {})", reg.queue_depth(), reg.max_queue_depth());
    /// # }
    /// ```
    pub fn add_event_handler_with(
        &self,
        handler: impl ResourceEventHandler<K>,
        options: HandlerOptions,
    ) -> HandlerRegistration {
        let resync = options.resync().unwrap_or(self.inner.default_resync);
        let mut dispatch = lock(&self.inner.dispatch);
        let initial = self.inner.indexer.list();
        let reg = dispatch.processor.add_handler(
            Arc::new(handler),
            Some(resync),
            initial,
            options.queue(),
        );
        if self.inner.stopped.load(Ordering::Acquire) {
            // Nothing will follow the initial contents; let the handler thread end.
            drop(dispatch.processor.close());
        }
        reg
    }

    /// A stream of this informer's events, starting with the current contents as adds.
    /// The stream ends when the informer stops; dropping it unregisters it.
    ///
    /// The informer never waits for a stream, so its queue coalesces per object, as a
    /// handler's with [`HandlerOptions::coalescing`] does (see
    /// [`QueuePolicy::CoalescePerObject`](crate::handler::QueuePolicy::CoalescePerObject)):
    /// a consumer that falls behind finds at most one pending entry per object (two
    /// events for a delete followed by a re-creation) and, once it catches up, the newest
    /// state of every object, as a level-triggered controller needs. So with N objects a
    /// slow consumer holds at most 2N entries (N that exist, N whose delete is pending)
    /// however busy the informer is; [`HandlerRegistration::queue_depth`] tells how many.
    /// A consumer that must see every intermediate state should register a handler
    /// instead ([`add_event_handler`](Self::add_event_handler)).
    pub fn stream(&self) -> (HandlerRegistration, BoxStream<'static, Event<K>>) {
        let mut dispatch = lock(&self.inner.dispatch);
        let initial = self.inner.indexer.list();
        let (reg, stream) = dispatch.processor.add_stream(initial);
        if self.inner.stopped.load(Ordering::Acquire) {
            drop(dispatch.processor.close());
        }
        (reg, stream)
    }

    /// The informer's indexed store, read-only: only the informer writes it, so every
    /// change reaches the handlers.
    pub fn indexer(&self) -> Indexer<K> {
        self.inner.indexer.clone()
    }

    /// Adds indexes, also after start (existing objects are indexed at once).
    pub fn add_indexers(&self, indexers: Indexers<K>) -> Result<(), Error> {
        self.inner.indexer.add_indexers(indexers)
    }

    /// True once the initial list is fully in the store.
    pub fn has_synced(&self) -> bool {
        self.inner.synced.load(Ordering::Acquire)
    }

    /// True once the informer ran and stopped.
    pub fn is_stopped(&self) -> bool {
        self.inner.stopped.load(Ordering::Acquire)
    }

    /// True once [`run`](Self::run) was called.
    pub fn is_started(&self) -> bool {
        self.inner.started.load(Ordering::Acquire)
    }

    /// The resourceVersion of the last list, watch event or bookmark the reflector has
    /// received (client-go's `LastSyncResourceVersion`); the cache may not have applied it
    /// yet: see [`last_store_sync_resource_version`](Self::last_store_sync_resource_version).
    pub fn last_sync_resource_version(&self) -> String {
        self.inner.status.last_sync_resource_version()
    }

    /// The resourceVersion the cache is current at: the last list, watch event or bookmark
    /// applied to it (client-go's `LastStoreSyncResourceVersion`, KEP-5647). What a
    /// controller compares its own writes with before it trusts the cache, see
    /// [`Indexer::resource_version`].
    pub fn last_store_sync_resource_version(&self) -> String {
        self.inner.indexer.resource_version()
    }

    /// The failure of the current list, while listing fails (cleared by the next
    /// successful list); [`last_failure`](Self::last_failure) keeps the last failure of
    /// any request after the informer recovers.
    pub fn list_failure(&self) -> Option<ListFailure> {
        self.inner.status.list_failure()
    }

    /// A snapshot of the informer's counters.
    pub fn stats(&self) -> InformerStats {
        let handlers = lock(&self.inner.dispatch).processor.stats();
        self.inner.status.counters.snapshot(
            self.name(),
            self.last_sync_resource_version(),
            self.inner.indexer.len(),
            handlers,
        )
    }

    /// The last list or watch failure, if any (kept after the informer recovers).
    pub fn last_failure(&self) -> Option<ListFailure> {
        self.inner.status.last_failure()
    }

    /// Why the informer cannot sync, if it cannot: its last list failed terminally (see
    /// [`ListFailure::terminal`]), or it stopped before syncing.
    pub(crate) fn sync_blocker(&self) -> Option<SyncErrorKind> {
        if self.has_synced() {
            return None;
        }
        if let Some(f) = self.list_failure().filter(|f| f.terminal) {
            return Some(SyncErrorKind::Failed(f));
        }
        self.is_stopped().then_some(SyncErrorKind::Stopped)
    }

    /// A receiver woken whenever this informer's sync progress may have changed.
    pub(crate) fn subscribe(&self) -> tokio::sync::watch::Receiver<()> {
        self.inner.status.subscribe()
    }

    /// Waits until the informer has synced. Fails with the list failure if the last list
    /// failed terminally (see [`ListFailure::terminal`]), or if the informer stopped
    /// before syncing. Woken by the informer's progress, not by polling.
    pub async fn wait_for_sync(&self) -> Result<(), SyncError> {
        let mut changed = self.subscribe();
        loop {
            if self.has_synced() {
                return Ok(());
            }
            if let Some(kind) = self.sync_blocker() {
                return Err(SyncError {
                    informer: self.name(),
                    kind,
                });
            }
            // The sender lives as long as this informer, so this only waits.
            let _ = changed.changed().await;
        }
    }

    /// Runs the informer until `cancel` fires: lists, watches, fills the cache and feeds
    /// the handlers. Returns after every handler thread ended. A second call returns at once.
    pub fn run(
        &self,
        cancel: CancellationToken,
    ) -> impl std::future::Future<Output = ()> + Send + 'static {
        let this = self.clone();
        let span = tracing::info_span!("informer", name = %self.name());
        async move {
            if this.inner.started.swap(true, Ordering::AcqRel) {
                tracing::warn!(informer = %this.name(), "run called on an informer that already started");
                return;
            }
            let Some(Setup {
                lister_watcher,
                prepare,
                config,
            }) = lock(&this.inner.setup).take()
            else {
                return;
            };
            let (tx, rx) = delta_queue(usize::try_from(config.page_size).unwrap_or(500).max(64));
            let upstream = Arc::new(TypedUpstream {
                lister_watcher,
                prepare,
            });
            let reflector = Reflector::new(upstream, tx, config, this.inner.status.clone());
            let run_cancel = cancel.child_token();
            tokio::join!(
                async {
                    reflector.run(run_cancel.clone()).await;
                    run_cancel.cancel();
                },
                this.process(rx, run_cancel.clone()),
            );
            this.inner.stopped.store(true, Ordering::Release);
            this.inner.status.notify();
            let finished = lock(&this.inner.dispatch).processor.close();
            for f in finished {
                let _ = f.await;
            }
            tracing::debug!(informer = %this.name(), "informer stopped");
        }
        .instrument(span)
    }

    /// Stops an informer that has not run and never will (its factory shut down): handler
    /// threads end, waits for its sync fail with [`SyncErrorKind::Stopped`], and a later
    /// [`run`](Self::run) returns at once. Does nothing to an informer that ran.
    pub(crate) fn stop_unstarted(&self) {
        // Whoever takes the setup owns the informer's lifecycle: `run` or this.
        if lock(&self.inner.setup).take().is_none() {
            return;
        }
        self.inner.stopped.store(true, Ordering::Release);
        self.inner.status.notify();
        // An informer that never ran delivered nothing: no callback is in flight to wait for.
        drop(lock(&self.inner.dispatch).processor.close());
        tracing::debug!(informer = %self.name(), "informer stopped before it ran");
    }

    async fn process(&self, mut rx: DeltaReceiver<Erased>, cancel: CancellationToken) {
        loop {
            let next_resync = lock(&self.inner.dispatch).processor.next_resync();
            let resync_at =
                next_resync.unwrap_or_else(|| Instant::now() + Duration::from_secs(3600));
            let delta = tokio::select! {
                _ = cancel.cancelled() => return,
                d = rx.pop() => match d {
                    Some(d) => d,
                    None => return,
                },
                // Re-checked at least every second so handlers added meanwhile get theirs.
                _ = tokio::time::sleep_until(resync_at.min(Instant::now() + Duration::from_secs(1)).into()) => {
                    let now = Instant::now();
                    let mut dispatch = lock(&self.inner.dispatch);
                    if dispatch.processor.begin_resync(now) {
                        // Before the first sync there is nothing to re-deliver, but the
                        // period still moves on so this branch does not fire in a loop.
                        if self.has_synced() {
                            self.apply(&mut dispatch, Delta::Sync);
                            dispatch.processor.flush();
                        }
                        dispatch.processor.end_resync(now);
                    }
                    continue;
                }
            };
            let mut dispatch = lock(&self.inner.dispatch);
            self.apply_erased(&mut dispatch, delta);
            // Apply what else is queued already, then hand handlers the lot at once.
            for _ in 1..DRAIN_BATCH {
                match rx.try_pop() {
                    Some(delta) => self.apply_erased(&mut dispatch, delta),
                    None => break,
                }
            }
            dispatch.processor.flush();
        }
    }

    /// Applies a delta of the reflector, which only ever queues `K`s (it lists and watches
    /// this informer's `ListerWatcher<K>`).
    fn apply_erased(&self, dispatch: &mut Dispatch<K>, delta: Delta<Erased>) {
        match delta.downcast::<K>() {
            Ok(delta) => self.apply(dispatch, delta),
            Err(_) => {
                tracing::error!(informer = %self.name(), "the reflector queued an object of another type; skipped")
            }
        }
    }

    fn apply(&self, dispatch: &mut Dispatch<K>, delta: Delta<K>) {
        let Dispatch { applier, processor } = dispatch;
        applier.apply(delta, &mut |event, origin: Origin| {
            processor.distribute(event, origin)
        });
        if applier.has_synced() && !self.inner.synced.load(Ordering::Acquire) {
            self.inner.synced.store(true, Ordering::Release);
            self.inner.status.notify();
            tracing::debug!(informer = %self.name(), "cache synced");
        }
    }
}

fn default_name<K>() -> String {
    let full = std::any::type_name::<K>();
    full.rsplit("::").next().unwrap_or(full).to_owned()
}

/// A function applied to every object before it is cached and delivered.
pub type Transform<K> = Arc<dyn Fn(K) -> K + Send + Sync>;

/// What the reflector does to every object it hands on: the metadata transforms, in place,
/// then the [`Transform`].
pub(crate) type Prepare<K> = Arc<dyn Fn(Arc<K>) -> Arc<K> + Send + Sync>;

/// A function applied to every object's metadata before it is cached (a factory applies
/// one to every informer it makes, e.g. to drop annotations no controller reads).
pub type MetadataTransform = Arc<dyn Fn(&mut ObjectMeta) + Send + Sync>;

/// Called with every list and watch error instead of the default log line (client-go's
/// `WatchErrorHandler`).
pub type WatchErrorHandler = Arc<dyn Fn(&Error) + Send + Sync>;

/// How an informer lists, watches and caches, given when it is built (client-go's
/// `InformerOptions`, kube-runtime's `watcher::Config`) and fixed from then on.
///
/// Start from [`InformerOptions::default()`] and change what you need with the consuming
/// setters; a factory fills in its own settings (name, resync, namespace-wide options,
/// managedFields) before its informers are built.
///
/// ```no_run
/// use std::time::Duration;
///
/// use informer_runtime::informer::{self, InformerOptions};
/// use informer_runtime::source::typed;
/// use informer_runtime::{Client, Indexers};
/// use k8s_openapi::api::core::v1::ConfigMap;
///
/// # async fn run() -> Result<(), Box<dyn std::error::Error>> {
/// let options = InformerOptions::<ConfigMap>::default()
///     .resync(Duration::from_secs(600))
///     .indexers(Indexers::namespace())
///     .tweak_list_options(|o| o.label_selector = Some("app=web".into()))
///     .drop_managed_fields(true)
///     .streaming_list(true)
///     .page_size(200)
///     .watch_error_handler(|e| eprintln!("config maps: {e}"));
/// let client = Client::try_default().await?;
/// let config_maps = informer::new_informer(&client, &typed::<ConfigMap>(), Some("shop"), options);
/// # let _ = config_maps;
/// # Ok(())
/// # }
/// ```
#[non_exhaustive]
pub struct InformerOptions<K> {
    /// The name in logs, errors and stats, e.g. `core/v1/pods` (`None`: the type's name,
    /// or the resource's when built by [`new_informer`]).
    pub name: Option<String>,
    /// How often every handler without its own period is re-sent the cache (zero: never).
    pub resync: Duration,
    /// The cache's indexes (default: [`Indexers::standard`], namespace and labels).
    pub indexers: Indexers<K>,
    /// Edits every list and watch request (client-go's `tweakListOptions`).
    pub tweak_list_options: Option<TweakListOptions>,
    /// Cache only the objects of this shard (KEP-5866): the informer lists and watches with
    /// this `shardSelector`, and when the server does not apply it (no echo in the list's
    /// `metadata.shardInfo`: a server older than Kubernetes 1.36, or the
    /// `ShardedListAndWatch` feature gate off) it drops the objects outside the shard
    /// itself, before decoding them: their uid or namespace is found in the raw bytes and
    /// hashed. Either way the cache and the handlers see the same objects; what the server
    /// sent anyway is counted in [`InformerStats::shard_skipped`]. A shard selector set by
    /// [`tweak_list_options`](Self::tweak_list_options) instead is treated the same way.
    ///
    /// Client-side filtering needs a [`ListerWatcher`] that passes the options on to the
    /// client, as every [`InformerSource`](crate::InformerSource) does; a hand-made one
    /// sees the selector in [`ListOptions`] and must apply it itself.
    ///
    /// ```
    /// use informer_runtime::informer::InformerOptions;
    /// use informer_runtime::shard::{ShardRange, ShardSelector};
    /// use k8s_openapi::api::core::v1::Pod;
    ///
    /// // Replica 2 of 3 caches the Pods whose uid hashes into the middle third.
    /// let third = ShardRange::nth_of(1, 3).expect("1 < 3");
    /// let shard = ShardSelector::uid_range(third.start(), third.end())?;
    /// let options = InformerOptions::<Pod>::default().shard_selector(shard.clone());
    /// assert_eq!(options.shard_selector, Some(shard));
    /// # Ok::<(), informer_runtime::shard::ShardSelectorError>(())
    /// ```
    pub shard_selector: Option<ShardSelector>,
    /// Follow a share that moves (replicas of a sharded controller coming and going): each
    /// assignment sent replaces the last, and the informer relists with it, delivering the
    /// objects that left as [`Deleted::LeftShard`](crate::handler::Deleted::LeftShard). Takes
    /// the place of [`shard_selector`](Self::shard_selector). See [`crate::sharding`].
    pub shard_assignments: Option<tokio::sync::watch::Receiver<ShardAssignment>>,
    /// Whose fields place an object in the shard: its own (the default, filtered by the
    /// server) or its controller's, for the objects a sharded controller owns (filtered by
    /// the informer after decoding). See [`ShardBy`].
    pub shard_by: ShardBy,
    /// Applied to every object before it is cached and delivered, after
    /// [`metadata_transform`](Self::metadata_transform).
    pub transform: Option<Transform<K>>,
    /// Applied to every object's metadata before [`transform`](Self::transform).
    pub metadata_transform: Option<MetadataTransform>,
    /// Drop `metadata.managedFields` before any transform and before caching, and ask the
    /// client to leave them out while decoding when the informer is built by
    /// [`new_informer`] (factories do unless built with `keep_managed_fields()`).
    pub drop_managed_fields: bool,
    /// Try streaming lists (`sendInitialEvents`), falling back to list + watch for good
    /// when the server does not support them, or does not end the initial events with the
    /// `initial-events-end` bookmark within
    /// [`initial_events_timeout`](Self::initial_events_timeout) (counted in
    /// [`InformerStats::streaming_list_fallbacks`]).
    pub streaming_list: bool,
    /// How long a streaming list may take to reach its `initial-events-end` bookmark
    /// before the informer lists and watches instead, for good (default one minute: many
    /// times what kube-apiserver needs to stream even a very large resource from its
    /// watch cache, while a server or proxy that drops the bookmark delays the first sync
    /// by no more than that, once). Giving up early costs one redundant list, never a
    /// wrong cache.
    pub initial_events_timeout: Duration,
    /// How the cache holds objects (see [`CacheMode`]); by default decoded.
    pub cache_mode: CacheMode,
    /// The page size of lists (default 500; at least 1).
    pub page_size: i64,
    /// Receives every list and watch error instead of the default log line.
    pub watch_error_handler: Option<WatchErrorHandler>,
}

impl<K: Object> Default for InformerOptions<K> {
    fn default() -> Self {
        Self {
            name: None,
            resync: Duration::ZERO,
            indexers: Indexers::standard(),
            tweak_list_options: None,
            shard_selector: None,
            shard_assignments: None,
            shard_by: ShardBy::Object,
            transform: None,
            metadata_transform: None,
            drop_managed_fields: false,
            streaming_list: false,
            initial_events_timeout: DEFAULT_INITIAL_EVENTS_TIMEOUT,
            cache_mode: CacheMode::Full,
            page_size: DEFAULT_PAGE_SIZE,
            watch_error_handler: None,
        }
    }
}

impl<K> Clone for InformerOptions<K> {
    fn clone(&self) -> Self {
        Self {
            name: self.name.clone(),
            resync: self.resync,
            indexers: self.indexers.clone(),
            tweak_list_options: self.tweak_list_options.clone(),
            shard_selector: self.shard_selector.clone(),
            shard_assignments: self.shard_assignments.clone(),
            shard_by: self.shard_by,
            transform: self.transform.clone(),
            metadata_transform: self.metadata_transform.clone(),
            drop_managed_fields: self.drop_managed_fields,
            streaming_list: self.streaming_list,
            initial_events_timeout: self.initial_events_timeout,
            cache_mode: self.cache_mode,
            page_size: self.page_size,
            watch_error_handler: self.watch_error_handler.clone(),
        }
    }
}

impl<K> std::fmt::Debug for InformerOptions<K> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("InformerOptions")
            .field("name", &self.name)
            .field("resync", &self.resync)
            .field("indexers", &self.indexers)
            .field("tweak_list_options", &self.tweak_list_options.is_some())
            .field("shard_selector", &self.shard_selector)
            .field("shard_assignments", &self.shard_assignments.is_some())
            .field("shard_by", &self.shard_by)
            .field("transform", &self.transform.is_some())
            .field("metadata_transform", &self.metadata_transform.is_some())
            .field("drop_managed_fields", &self.drop_managed_fields)
            .field("streaming_list", &self.streaming_list)
            .field("initial_events_timeout", &self.initial_events_timeout)
            .field("cache_mode", &self.cache_mode)
            .field("page_size", &self.page_size)
            .field("watch_error_handler", &self.watch_error_handler.is_some())
            .finish()
    }
}

impl<K> InformerOptions<K> {
    /// Names the informer in logs, errors and stats.
    #[must_use]
    pub fn name(mut self, name: impl Into<String>) -> Self {
        self.name = Some(name.into());
        self
    }

    /// The default resync period of handlers (zero: never).
    #[must_use]
    pub fn resync(mut self, period: Duration) -> Self {
        self.resync = period;
        self
    }

    /// The cache's indexes.
    #[must_use]
    pub fn indexers(mut self, indexers: Indexers<K>) -> Self {
        self.indexers = indexers;
        self
    }

    /// Edits every list and watch request.
    #[must_use]
    pub fn tweak_list_options(
        mut self,
        tweak: impl Fn(&mut ListOptions) + Send + Sync + 'static,
    ) -> Self {
        self.tweak_list_options = Some(Arc::new(tweak));
        self
    }

    /// Cache only the objects of this shard (see the field's docs).
    #[must_use]
    pub fn shard_selector(mut self, selector: ShardSelector) -> Self {
        self.shard_selector = Some(selector);
        self
    }

    /// Follow the share `assignments` says, as it moves (see the field's docs).
    #[must_use]
    pub fn shard_assignments(
        mut self,
        assignments: tokio::sync::watch::Receiver<ShardAssignment>,
    ) -> Self {
        self.shard_assignments = Some(assignments);
        self
    }

    /// Place objects in the shard by their own fields or their controller's (see the
    /// field's docs).
    #[must_use]
    pub fn shard_by(mut self, by: ShardBy) -> Self {
        self.shard_by = by;
        self
    }

    /// A function applied to every object before it is cached and delivered.
    #[must_use]
    pub fn transform(mut self, transform: impl Fn(K) -> K + Send + Sync + 'static) -> Self {
        self.transform = Some(Arc::new(transform));
        self
    }

    /// A function applied to every object's metadata, before [`transform`](Self::transform)'s.
    #[must_use]
    pub fn metadata_transform(
        mut self,
        transform: impl Fn(&mut ObjectMeta) + Send + Sync + 'static,
    ) -> Self {
        self.metadata_transform = Some(Arc::new(transform));
        self
    }

    /// Whether to drop `metadata.managedFields` (see the field's docs).
    #[must_use]
    pub fn drop_managed_fields(mut self, drop: bool) -> Self {
        self.drop_managed_fields = drop;
        self
    }

    /// Whether to try streaming lists (see the field's docs).
    #[must_use]
    pub fn streaming_list(mut self, enabled: bool) -> Self {
        self.streaming_list = enabled;
        self
    }

    /// How long a streaming list may take to end its initial events.
    #[must_use]
    pub fn initial_events_timeout(mut self, timeout: Duration) -> Self {
        self.initial_events_timeout = timeout;
        self
    }

    /// How the cache holds objects.
    #[must_use]
    pub fn cache_mode(mut self, mode: CacheMode) -> Self {
        self.cache_mode = mode;
        self
    }

    /// The page size of lists (at least 1).
    #[must_use]
    pub fn page_size(mut self, page_size: i64) -> Self {
        self.page_size = page_size;
        self
    }

    /// Receives every list and watch error instead of the default log line.
    #[must_use]
    pub fn watch_error_handler(mut self, handler: impl Fn(&Error) + Send + Sync + 'static) -> Self {
        self.watch_error_handler = Some(Arc::new(handler));
        self
    }
}

/// One transform out of the three steps, in their order: managedFields go first, so
/// neither transform ever sees them; then the metadata transform, then the object's own.
fn compose_transforms<K: Object>(
    drop_managed_fields: bool,
    metadata_transform: Option<MetadataTransform>,
    transform: Option<Transform<K>>,
) -> Option<Prepare<K>> {
    let meta: Option<MetadataTransform> = match (drop_managed_fields, metadata_transform) {
        (false, t) => t,
        (true, None) => Some(Arc::new(|m: &mut ObjectMeta| m.managed_fields = None)),
        (true, Some(t)) => Some(Arc::new(move |m: &mut ObjectMeta| {
            m.managed_fields = None;
            t(m)
        })),
    };
    if meta.is_none() && transform.is_none() {
        return None;
    }
    // A hand-written source may still share the object it handed out: it is then copied,
    // so that the source's stays as it was.
    Some(Arc::new(move |mut obj: Arc<K>| {
        if let Some(meta) = &meta {
            if let Some(m) = Arc::make_mut(&mut obj).meta_mut().as_object_meta_mut() {
                meta(m);
            }
        }
        match &transform {
            Some(transform) => Arc::new(transform(Arc::unwrap_or_clone(obj))),
            None => obj,
        }
    }))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lister_watcher::{ListWatch, ObjectList, WatchStream};
    use futures_util::StreamExt;
    use k8s_openapi::api::core::v1::ConfigMap;
    use k8s_openapi::apimachinery::pkg::apis::meta::v1::{ListMeta, ManagedFieldsEntry};

    /// A source that keeps the `Arc` it hands out, as a hand-written one may.
    fn sharing(kept: Arc<ConfigMap>) -> ListWatch<ConfigMap> {
        ListWatch::new(
            move |_| {
                std::future::ready(Ok(ObjectList {
                    metadata: ListMeta {
                        resource_version: Some("1".into()),
                        ..Default::default()
                    },
                    items: vec![kept.clone()],
                    shard_info: None,
                }))
            },
            |_| {
                let pending: WatchStream<Arc<ConfigMap>> = futures_util::stream::pending().boxed();
                std::future::ready(Ok(pending))
            },
        )
    }

    #[tokio::test]
    async fn transforms_never_touch_an_object_the_source_still_holds() {
        let kept = Arc::new(ConfigMap {
            metadata: ObjectMeta {
                namespace: Some("a".into()),
                name: Some("cm".into()),
                managed_fields: Some(vec![ManagedFieldsEntry::default()]),
                ..Default::default()
            },
            ..Default::default()
        });
        let informer = SharedIndexInformer::with_options(
            sharing(kept.clone()),
            InformerOptions::default()
                .drop_managed_fields(true)
                .transform(|mut cm: ConfigMap| {
                    cm.data = Some([("seen".to_owned(), "yes".to_owned())].into());
                    cm
                }),
        );
        let cancel = CancellationToken::new();
        tokio::spawn(informer.clone().run(cancel.clone()));
        informer.wait_for_sync().await.unwrap();
        let cached = informer.indexer().get_by_key("a/cm").unwrap();
        assert_eq!(cached.metadata.managed_fields, None);
        assert_eq!(cached.data.as_ref().unwrap()["seen"], "yes");
        assert_eq!(kept.metadata.managed_fields.as_ref().map(Vec::len), Some(1));
        assert_eq!(kept.data, None);
        cancel.cancel();
    }
}
