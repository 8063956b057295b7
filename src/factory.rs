//! The shared informer factory core: one informer per type, started, synced and
//! shut down together. Generated `SharedInformerFactory` types wrap it.

use std::any::{Any, TypeId};
use std::collections::HashMap;
use std::future::Future;
use std::marker::PhantomData;
use std::sync::{Arc, Mutex, MutexGuard, OnceLock};
use std::time::Duration;

use futures_util::future::{BoxFuture, Shared};
use futures_util::FutureExt;
use k8s_openapi::apimachinery::pkg::apis::meta::v1::ObjectMeta;
use tokio::sync::watch;
use tokio::task::JoinHandle;
use tokio_util::sync::CancellationToken;

use crate::client::Client;
pub use crate::failure::SyncError;
use crate::failure::{ListFailure, SyncErrorKind, Unsynced};
use crate::informer::{InformerOptions, MetadataTransform, SharedIndexInformer};
use crate::list_options::TweakListOptions;
use crate::object::Object;
use crate::projection::{Projected, ProjectedInformer, Projection};
use crate::shard::ShardSelector;
use crate::sharding::{ShardAssignment, ShardBy};
use crate::source::{new_informer, InformerSource};
use crate::store::CacheMode;

/// Options shared by every informer of a factory.
#[derive(Clone, Default)]
pub struct FactoryOptions {
    /// Watch only this namespace (all when `None`).
    pub namespace: Option<String>,
    /// Edits every list/watch request.
    pub tweak_list_options: Option<TweakListOptions>,
    /// Every informer's shard ([`InformerOptions::shard_selector`]).
    pub shard_selector: Option<ShardSelector>,
    /// Every informer's moving share ([`InformerOptions::shard_assignments`]), in place of
    /// `shard_selector`.
    pub shard_assignments: Option<watch::Receiver<ShardAssignment>>,
    /// Whose fields place every informer's objects in the shard
    /// ([`InformerOptions::shard_by`]).
    pub shard_by: ShardBy,
    /// Resync period of informers without a per-type one (zero: never).
    pub default_resync: Duration,
    /// Per-type resync periods.
    pub custom_resync: HashMap<TypeId, Duration>,
    /// Factory-wide metadata transform: every informer's
    /// [`InformerOptions::metadata_transform`].
    pub metadata_transform: Option<MetadataTransform>,
    /// How every informer's cache holds its objects.
    pub cache_mode: CacheMode,
    /// Keep `metadata.managedFields` in cached objects (by default they are dropped; see
    /// [`FactoryBuilder::keep_managed_fields`]).
    pub keep_managed_fields: bool,
}

impl std::fmt::Debug for FactoryOptions {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("FactoryOptions")
            .field("namespace", &self.namespace)
            .field("tweak_list_options", &self.tweak_list_options.is_some())
            .field("shard_selector", &self.shard_selector)
            .field("shard_assignments", &self.shard_assignments.is_some())
            .field("shard_by", &self.shard_by)
            .field("default_resync", &self.default_resync)
            .field("custom_resync", &self.custom_resync.len())
            .field("metadata_transform", &self.metadata_transform.is_some())
            .field("cache_mode", &self.cache_mode)
            .field("keep_managed_fields", &self.keep_managed_fields)
            .finish()
    }
}

/// What the factory needs of an informer, whatever its object type.
trait FactoryInformer: Send + Sync {
    fn name(&self) -> String;
    fn has_synced(&self) -> bool;
    fn sync_blocker(&self) -> Option<SyncErrorKind>;
    fn last_failure(&self) -> Option<ListFailure>;
    fn subscribe(&self) -> watch::Receiver<()>;
    fn run(&self, cancel: CancellationToken) -> BoxFuture<'static, ()>;
    fn stop_unstarted(&self);
    fn as_any(&self) -> &dyn Any;
}

impl<K: Object> FactoryInformer for SharedIndexInformer<K> {
    fn name(&self) -> String {
        SharedIndexInformer::name(self)
    }
    fn has_synced(&self) -> bool {
        SharedIndexInformer::has_synced(self)
    }
    fn sync_blocker(&self) -> Option<SyncErrorKind> {
        SharedIndexInformer::sync_blocker(self)
    }
    fn last_failure(&self) -> Option<ListFailure> {
        SharedIndexInformer::last_failure(self)
    }
    fn subscribe(&self) -> watch::Receiver<()> {
        SharedIndexInformer::subscribe(self)
    }
    fn run(&self, cancel: CancellationToken) -> BoxFuture<'static, ()> {
        SharedIndexInformer::run(self, cancel).boxed()
    }
    fn stop_unstarted(&self) {
        SharedIndexInformer::stop_unstarted(self)
    }
    fn as_any(&self) -> &dyn Any {
        self
    }
}

struct Entry {
    informer: Arc<dyn FactoryInformer>,
    running: bool,
}

/// What identifies an informer in a factory: its object type, or for informers whose
/// type serves many resources (dynamic, metadata-only), a caller-chosen key such as a GVR.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
enum EntryKey {
    Type(TypeId),
    Named(TypeId, String),
}

/// Builds and registers an asked-for informer.
type Realize = Box<dyn FnOnce(&SharedInformerFactoryCore) + Send>;

/// Builds (or finds) the factory's informer of one source.
type Build<K> = Arc<dyn Fn(&SharedInformerFactoryCore) -> SharedIndexInformer<K> + Send + Sync>;

#[derive(Default)]
struct FactoryState {
    entries: HashMap<EntryKey, Entry>,
    /// Informers asked for through accessors and not built yet, by ask id (see [`InformerAsk`]).
    asked: HashMap<u64, Realize>,
    next_ask: u64,
    started: bool,
    shut_down: bool,
    tasks: Vec<JoinHandle<()>>,
    /// The end of every informer task, made by the first `shutdown()`; every caller awaits
    /// it, and any of them drives it, so a caller that gives up cannot strand the others.
    stopped: Option<Shared<BoxFuture<'static, ()>>>,
}

/// The type-keyed informer registry a generated factory wraps. Cheap to clone; clones
/// share the same informers.
#[derive(Clone)]
pub struct SharedInformerFactoryCore {
    client: Client,
    options: Arc<FactoryOptions>,
    state: Arc<Mutex<FactoryState>>,
    /// Bumped when informers start, so a wait includes informers started meanwhile.
    started: Arc<watch::Sender<()>>,
    cancel: CancellationToken,
}

impl std::fmt::Debug for SharedInformerFactoryCore {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let state = self.lock();
        f.debug_struct("SharedInformerFactoryCore")
            .field("options", &self.options)
            .field("informers", &state.entries.len())
            .field("started", &state.started)
            .field("shut_down", &state.shut_down)
            .finish()
    }
}

impl SharedInformerFactoryCore {
    /// A factory core.
    pub fn new(client: Client, options: FactoryOptions) -> Self {
        Self {
            client,
            options: Arc::new(options),
            state: Arc::new(Mutex::new(FactoryState::default())),
            started: Arc::new(watch::channel(()).0),
            cancel: CancellationToken::new(),
        }
    }

    fn lock(&self) -> MutexGuard<'_, FactoryState> {
        self.state.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// The client the factory was built with, for reads and writes of your own.
    pub fn client(&self) -> &Client {
        &self.client
    }

    /// The factory's options.
    pub fn options(&self) -> &FactoryOptions {
        &self.options
    }

    /// The factory's namespace (all when `None`).
    pub fn namespace(&self) -> Option<&str> {
        self.options.namespace.as_deref()
    }

    /// The factory's tweak hook.
    pub fn tweak_list_options(&self) -> Option<TweakListOptions> {
        self.options.tweak_list_options.clone()
    }

    /// The resync period for `K`.
    pub fn resync_for<K: 'static>(&self) -> Duration {
        self.resync_of(TypeId::of::<K>())
    }

    fn resync_of(&self, ty: TypeId) -> Duration {
        self.options
            .custom_resync
            .get(&ty)
            .copied()
            .unwrap_or(self.options.default_resync)
    }

    /// The options the factory builds an informer of `source` with: named after the
    /// resource, the resync period for its type, the factory's list options and shard, metadata
    /// transform and cache mode, managedFields dropped unless the factory keeps them.
    pub fn informer_options<K: Object>(
        &self,
        source: &impl InformerSource<K>,
    ) -> InformerOptions<K> {
        let mut options = InformerOptions::default()
            .name(source.informer_name())
            .resync(self.resync_of(source.resync_type()))
            .drop_managed_fields(!self.options.keep_managed_fields)
            .cache_mode(self.options.cache_mode);
        options.tweak_list_options = self.options.tweak_list_options.clone();
        options.shard_selector = self.options.shard_selector.clone();
        options.shard_assignments = self.options.shard_assignments.clone();
        options.shard_by = self.options.shard_by;
        options.metadata_transform = self.options.metadata_transform.clone();
        options
    }

    /// The factory's shared informer of `source` (client-go's `InformerFor`), built on the
    /// first call with [`informer_options`](Self::informer_options) in the factory's
    /// namespace, the same on every later call. After `start()`, a new informer starts at once.
    ///
    /// ```no_run
    /// # fn demo(factory: &informer_runtime::SharedInformerFactoryCore) {
    /// use informer_runtime::source::typed;
    /// use k8s_openapi::api::core::v1::Pod;
    ///
    /// let pods = factory.informer_for(typed::<Pod>());
    /// assert_eq!(pods.name(), "core/v1/pods");
    /// # }
    /// ```
    pub fn informer_for<K: Object>(
        &self,
        source: impl InformerSource<K>,
    ) -> SharedIndexInformer<K> {
        self.informer_for_with(source, |options| options)
    }

    /// Like [`informer_for`](Self::informer_for), with the options the informer is built
    /// with first changed by `configure` (a transform of its own, a streaming list). The
    /// first call builds the informer, so only its `configure` applies.
    pub fn informer_for_with<K: Object>(
        &self,
        source: impl InformerSource<K>,
        configure: impl FnOnce(InformerOptions<K>) -> InformerOptions<K>,
    ) -> SharedIndexInformer<K> {
        let key = match source.key() {
            None => EntryKey::Type(TypeId::of::<K>()),
            Some(key) => EntryKey::Named(TypeId::of::<K>(), key),
        };
        if let Some(existing) = self.existing::<K>(&key) {
            return existing;
        }
        // Built outside the lock: `configure` may call back into the factory.
        let options = configure(self.informer_options(&source));
        let informer = new_informer(&self.client, &source, self.namespace(), options);
        let mut state = self.lock();
        if let Some(existing) = state
            .entries
            .get(&key)
            .and_then(|e| e.informer.as_any().downcast_ref::<SharedIndexInformer<K>>())
        {
            return existing.clone();
        }
        state.entries.insert(
            key,
            Entry {
                informer: Arc::new(informer.clone()),
                running: false,
            },
        );
        if state.shut_down {
            // Never to run: let its handler threads end now rather than when it is dropped.
            informer.stop_unstarted();
        } else if state.started {
            self.start_pending(&mut state);
        }
        informer
    }

    /// Builds the informer of the ask `id` unless it was built or withdrawn.
    fn realize_ask(&self, id: u64) {
        let realize = self.lock().asked.remove(&id);
        if let Some(realize) = realize {
            realize(self);
        }
    }

    /// Builds every asked-for informer not built yet.
    fn realize_asks(&self) {
        let asked: Vec<Realize> = self.lock().asked.drain().map(|(_, r)| r).collect();
        for realize in asked {
            realize(self);
        }
    }

    fn existing<K: Object>(&self, key: &EntryKey) -> Option<SharedIndexInformer<K>> {
        let state = self.lock();
        state
            .entries
            .get(key)
            .and_then(|e| e.informer.as_any().downcast_ref::<SharedIndexInformer<K>>())
            .cloned()
    }

    fn start_pending(&self, state: &mut FactoryState) {
        let handle = match tokio::runtime::Handle::try_current() {
            Ok(h) => h,
            Err(e) => {
                tracing::error!(error = %e, "SharedInformerFactory::start must be called inside a tokio runtime; nothing started");
                state.started = false;
                return;
            }
        };
        let mut tasks = Vec::new();
        for entry in state.entries.values_mut().filter(|e| !e.running) {
            entry.running = true;
            tasks.push(handle.spawn(entry.informer.run(self.cancel.child_token())));
        }
        if !tasks.is_empty() {
            self.started.send_replace(());
        }
        state.tasks.extend(tasks);
    }

    /// Starts every informer requested so far; later ones start at once. Idempotent.
    /// Must be called inside a tokio runtime.
    pub fn start(&self) {
        self.realize_asks();
        let mut state = self.lock();
        if state.shut_down {
            tracing::warn!("start called on a factory that was shut down");
            return;
        }
        state.started = true;
        self.start_pending(&mut state);
    }

    fn running(&self) -> (Vec<Arc<dyn FactoryInformer>>, usize) {
        let state = self.lock();
        let running = state
            .entries
            .values()
            .filter(|e| e.running)
            .map(|e| e.informer.clone())
            .collect();
        (running, state.entries.len())
    }

    /// Waits until every started informer has synced, or fails naming one that cannot:
    /// one whose last list failed terminally (400, 401, 403, 404, ..., an untrusted
    /// certificate, unusable credentials), or one that stopped. Informers started while it
    /// waits are waited for too. Woken by the informers' progress, not by polling.
    pub async fn wait_for_cache_sync(&self) -> Result<(), SyncError> {
        self.realize_asks();
        let mut started = self.started.subscribe();
        loop {
            let (informers, registered) = self.running();
            // Subscribed before looking, so no change between the look and the wait is lost.
            let mut changes: Vec<watch::Receiver<()>> =
                informers.iter().map(|i| i.subscribe()).collect();
            let mut all_synced = true;
            for i in &informers {
                if i.has_synced() {
                    continue;
                }
                all_synced = false;
                if let Some(kind) = i.sync_blocker() {
                    return Err(SyncError {
                        informer: i.name(),
                        kind,
                    });
                }
            }
            if all_synced {
                if informers.is_empty() {
                    self.log_empty_wait(registered);
                }
                return Ok(());
            }
            let any_change =
                futures_util::future::select_all(changes.iter_mut().map(|c| Box::pin(c.changed())));
            tokio::select! {
                _ = any_change => {}
                _ = started.changed() => {}
            }
        }
    }

    fn log_empty_wait(&self, registered: usize) {
        if registered == 0 {
            tracing::warn!(
                "wait_for_cache_sync waited for nothing: no informer is registered \
                 (asking the factory for one, e.g. factory.core().v1().pods(), registers it)"
            );
        } else {
            tracing::warn!(
                registered,
                "wait_for_cache_sync waited for nothing: informers are registered but not \
                 started (call start() first)"
            );
        }
    }

    /// Like [`wait_for_cache_sync`](Self::wait_for_cache_sync), failing after `timeout`
    /// with every informer that had not synced yet and its last list or watch failure.
    pub async fn wait_for_cache_sync_timeout(&self, timeout: Duration) -> Result<(), SyncError> {
        match tokio::time::timeout(timeout, self.wait_for_cache_sync()).await {
            Ok(r) => r,
            Err(_) => {
                let mut pending: Vec<Unsynced> = self
                    .running()
                    .0
                    .iter()
                    .filter(|i| !i.has_synced())
                    .map(|i| Unsynced {
                        informer: i.name(),
                        last_failure: i.last_failure(),
                    })
                    .collect();
                pending.sort_by(|a, b| a.informer.cmp(&b.informer));
                Err(SyncError {
                    informer: pending
                        .iter()
                        .map(|p| p.informer.as_str())
                        .collect::<Vec<_>>()
                        .join(", "),
                    kind: SyncErrorKind::Timeout {
                        after: timeout,
                        pending,
                    },
                })
            }
        }
    }

    /// Stops every informer and waits until all their work has ended: every informer task
    /// (list, watch and backoff are abandoned at once, mid-page or mid-request) and every
    /// handler thread. A handler callback in flight runs to its end, so once this returns
    /// no handler code runs any more; it cannot be interrupted, so a handler that blocks
    /// forever blocks this too. Notifications still queued are dropped. Informers
    /// registered but never started are stopped too (their handlers' threads end). Every
    /// call waits, also concurrent and later ones.
    pub async fn shutdown(&self) {
        let stopped = {
            let mut state = self.lock();
            state.shut_down = true;
            self.cancel.cancel();
            for entry in state.entries.values().filter(|e| !e.running) {
                entry.informer.stop_unstarted();
            }
            let tasks = std::mem::take(&mut state.tasks);
            state
                .stopped
                .get_or_insert_with(|| {
                    async move {
                        for task in tasks {
                            if let Err(e) = task.await {
                                tracing::error!(error = %e, "an informer task failed");
                            }
                        }
                    }
                    .boxed()
                    .shared()
                })
                .clone()
        };
        stopped.await;
    }
}

/// An accessor's ask for the shared informer of `K` in a factory: the factory's `start()`
/// and `wait_for_cache_sync()` include it, yet nothing is built until it is used, so an
/// accessor can still be turned into something else (a projection of the resource) without
/// the full informer ever listing. Cheap to clone; clones are the same ask.
///
/// The informer is built (through [`SharedInformerFactoryCore::informer_for`]) when first
/// used, when the factory starts or waits for sync, or when the last handle of the ask is
/// dropped; unless the ask is withdrawn first ([`withdraw`](Self::withdraw)).
pub struct InformerAsk<K> {
    inner: Arc<Ask<K>>,
}

struct Ask<K> {
    core: SharedInformerFactoryCore,
    id: u64,
    name: String,
    build: Build<K>,
    informer: OnceLock<SharedIndexInformer<K>>,
}

impl<K> Drop for Ask<K> {
    // An ask nobody used nor withdrew still stands: `factory.core().v1().pods();` alone
    // registers the informer (and starts it at once in a started factory).
    fn drop(&mut self) {
        self.core.realize_ask(self.id);
    }
}

impl<K> Clone for InformerAsk<K> {
    fn clone(&self) -> Self {
        Self {
            inner: self.inner.clone(),
        }
    }
}

impl<K: Object> std::fmt::Debug for InformerAsk<K> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("InformerAsk")
            .field("name", &self.inner.name)
            .field("built", &self.inner.informer.get().is_some())
            .finish()
    }
}

impl<K: Object> InformerAsk<K> {
    /// Asks `factory` for its informer of `source`, as a generated accessor
    /// (`factory.core().v1().pods()`) does.
    pub fn new(factory: SharedInformerFactoryCore, source: impl InformerSource<K> + Clone) -> Self {
        let name = source.informer_name();
        let build: Build<K> = Arc::new(move |core| core.informer_for(source.clone()));
        let id = {
            let mut state = factory.lock();
            let id = state.next_ask;
            state.next_ask += 1;
            let realize_build = build.clone();
            let realize: Realize = Box::new(move |core: &SharedInformerFactoryCore| {
                realize_build(core);
            });
            state.asked.insert(id, realize);
            id
        };
        Self {
            inner: Arc::new(Ask {
                core: factory,
                id,
                name,
                build,
                informer: OnceLock::new(),
            }),
        }
    }

    /// The factory's shared informer of `K`, built and registered on the first call.
    pub fn informer(&self) -> SharedIndexInformer<K> {
        let ask = &*self.inner;
        ask.informer
            .get_or_init(|| {
                ask.core.lock().asked.remove(&ask.id);
                (ask.build)(&ask.core)
            })
            .clone()
    }

    /// The factory the ask is in.
    pub fn factory(&self) -> &SharedInformerFactoryCore {
        &self.inner.core
    }

    /// Takes the ask back: unless another clone of it is alive, or it was used or realized
    /// meanwhile, the informer of `K` is not built. Returns the factory.
    pub fn withdraw(self) -> SharedInformerFactoryCore {
        let core = self.inner.core.clone();
        if let Some(ask) = Arc::into_inner(self.inner) {
            core.lock().asked.remove(&ask.id);
        }
        core
    }

    /// Turns the ask into the factory's shared informer of the projection `V` of `K`
    /// (see [`projection`](mod@crate::projection)): the full informer is not built unless
    /// asked for elsewhere.
    pub fn projected<V: Projection<Of = K>>(self) -> ProjectedInformer<V> {
        self.projected_from(Projected::new())
    }

    /// [`projected`](Self::projected) from `source`: [`Projected::protobuf`] for a type
    /// informer-protobuf decodes, as generated accessors of built-ins pass.
    pub fn projected_from<V: Projection<Of = K>>(
        self,
        source: Projected<V>,
    ) -> ProjectedInformer<V> {
        ProjectedInformer::new(self.withdraw().informer_for(source))
    }
}

/// What every informer factory does, typed (generated), dynamic or metadata-only: start
/// its informers, wait for their caches, shut them down. One implementation over the
/// factory core serves them all; a factory only says where its core is.
///
/// ```no_run
/// # async fn run(client: informer_runtime::Client) -> Result<(), Box<dyn std::error::Error>> {
/// use std::time::Duration;
/// use informer_runtime::{DynamicSharedInformerFactory, InformerFactory};
///
/// let factory = DynamicSharedInformerFactory::new(client, Duration::ZERO);
/// factory.start();
/// factory.wait_for_cache_sync_timeout(Duration::from_secs(30)).await?;
/// factory.shutdown().await;
/// # Ok(())
/// # }
/// ```
pub trait InformerFactory {
    /// The factory core (client, options, registry).
    fn factory_core(&self) -> &SharedInformerFactoryCore;

    /// The factory's shared informer of `source`, the same on every call (see
    /// [`SharedInformerFactoryCore::informer_for`]): e.g. of a kube-rs type,
    /// `factory.informer_for(informer_runtime::kube::resource::<Widget>())`.
    fn informer_for<K: Object>(&self, source: impl InformerSource<K>) -> SharedIndexInformer<K> {
        self.factory_core().informer_for(source)
    }

    /// Starts every informer requested so far; later ones start at once. Idempotent.
    /// Must be called inside a tokio runtime.
    fn start(&self) {
        self.factory_core().start();
    }

    /// Waits until every started informer has synced, or fails naming one that cannot
    /// (see [`SharedInformerFactoryCore::wait_for_cache_sync`]).
    fn wait_for_cache_sync(&self) -> impl Future<Output = Result<(), SyncError>> + Send {
        self.factory_core().wait_for_cache_sync()
    }

    /// Like [`wait_for_cache_sync`](Self::wait_for_cache_sync), failing after `timeout`
    /// with every informer not synced and its last list or watch failure.
    fn wait_for_cache_sync_timeout(
        &self,
        timeout: Duration,
    ) -> impl Future<Output = Result<(), SyncError>> + Send {
        self.factory_core().wait_for_cache_sync_timeout(timeout)
    }

    /// Stops every informer and waits for their tasks to end.
    fn shutdown(&self) -> impl Future<Output = ()> + Send {
        self.factory_core().shutdown()
    }
}

impl InformerFactory for SharedInformerFactoryCore {
    fn factory_core(&self) -> &SharedInformerFactoryCore {
        self
    }
}

/// Builds a generated factory `F` (client-go's `NewSharedInformerFactoryWithOptions`).
pub struct FactoryBuilder<F> {
    client: Client,
    options: FactoryOptions,
    _f: PhantomData<fn() -> F>,
}

impl<F: From<SharedInformerFactoryCore>> FactoryBuilder<F> {
    /// A builder with default options.
    pub fn new(client: Client) -> Self {
        Self {
            client,
            options: FactoryOptions::default(),
            _f: PhantomData,
        }
    }

    /// Watch only `namespace`.
    pub fn namespace(mut self, namespace: impl Into<String>) -> Self {
        self.options.namespace = Some(namespace.into());
        self
    }

    /// Edit every list and watch request.
    pub fn tweak_list_options(
        mut self,
        tweak: impl Fn(&mut crate::ListOptions) + Send + Sync + 'static,
    ) -> Self {
        self.options.tweak_list_options = Some(Arc::new(tweak));
        self
    }

    /// Every informer caches only the objects of `selector`'s shard, filtered by the server
    /// or, when it ignores the selector, by the client before decoding (see
    /// [`InformerOptions::shard_selector`]).
    pub fn shard_selector(mut self, selector: ShardSelector) -> Self {
        self.options.shard_selector = Some(selector);
        self
    }

    /// Every informer follows the share `assignments` says, as it moves: a replica of a
    /// sharded controller gives its shard ring's `assignments()` (see
    /// [`InformerOptions::shard_assignments`]).
    pub fn shard_assignments(mut self, assignments: watch::Receiver<ShardAssignment>) -> Self {
        self.options.shard_assignments = Some(assignments);
        self
    }

    /// Every informer places objects in the shard by their own fields or by their
    /// controller's ([`InformerOptions::shard_by`]): a factory of the objects a sharded
    /// controller owns uses [`ShardBy::ControllerOwner`].
    pub fn shard_by(mut self, by: ShardBy) -> Self {
        self.options.shard_by = by;
        self
    }

    /// Resync period of every informer (zero: never).
    pub fn default_resync(mut self, period: Duration) -> Self {
        self.options.default_resync = period;
        self
    }

    /// Resync period of the informer for `K`.
    pub fn resync_for<K: 'static>(mut self, period: Duration) -> Self {
        self.options.custom_resync.insert(TypeId::of::<K>(), period);
        self
    }

    /// Keep `metadata.managedFields` in every informer's cache.
    ///
    /// By default every informer of a factory drops them before any transform and before
    /// caching: on real objects they are often most of the metadata (62% of a decoded Pod
    /// with a few field managers), and controllers do not read them. Dropping them is
    /// safe for writes too: an update or merge patch that omits `managedFields` leaves the
    /// server's as they are (only a request that sets them replaces them), and only
    /// server-side apply's own bookkeeping reads them. Keep them to read field ownership
    /// from the cache: a controller that applies reads back what it owns
    /// (`extract_<kind>`) to skip an apply that would change nothing.
    pub fn keep_managed_fields(mut self) -> Self {
        self.options.keep_managed_fields = true;
        self
    }

    /// A metadata transform every informer applies before caching (after managedFields
    /// are dropped, before any per-informer transform).
    pub fn metadata_transform(
        mut self,
        transform: impl Fn(&mut ObjectMeta) + Send + Sync + 'static,
    ) -> Self {
        self.options.metadata_transform = Some(Arc::new(transform));
        self
    }

    /// How every informer's cache holds objects, e.g. `CacheMode::compact` (the `compact`
    /// feature) to trade read speed for a fraction of the memory.
    pub fn cache_mode(mut self, mode: CacheMode) -> Self {
        self.options.cache_mode = mode;
        self
    }

    /// The factory.
    pub fn build(self) -> F {
        F::from(SharedInformerFactoryCore::new(self.client, self.options))
    }
}
