//! The shared informer factory core: one informer per type, started, synced and
//! shut down together. Generated `SharedInformerFactory` types wrap it.
//!
//! CONTRACT STUB: filled in by the runtime work; signatures are the contract.

use std::any::TypeId;
use std::collections::HashMap;
use std::marker::PhantomData;
use std::sync::Arc;
use std::time::Duration;

use k8s_openapi::apimachinery::pkg::apis::meta::v1::ObjectMeta;

use crate::client::Client;
use crate::informer::SharedIndexInformer;
use crate::list_options::TweakListOptions;
use crate::object::Object;

/// A transform applied to every object's metadata by every informer of a factory
/// (e.g. dropping `managedFields`); it runs before any per-informer transform.
pub type MetadataTransform = Arc<dyn Fn(&mut ObjectMeta) + Send + Sync>;

/// Options shared by every informer of a factory.
#[derive(Clone, Default)]
pub struct FactoryOptions {
    /// Watch only this namespace (all when `None`).
    pub namespace: Option<String>,
    /// Edits every list/watch request.
    pub tweak_list_options: Option<TweakListOptions>,
    /// Resync period of informers without a per-type one (zero: never).
    pub default_resync: Duration,
    /// Per-type resync periods.
    pub custom_resync: HashMap<TypeId, Duration>,
    /// Factory-wide metadata transform.
    pub transform: Option<MetadataTransform>,
}

/// Why `wait_for_cache_sync` failed: names the informer and the server's reason.
#[derive(Debug, thiserror::Error)]
#[error("informer {informer} cannot sync: {reason}")]
pub struct SyncError {
    /// The informer, e.g. `core/v1/pods`.
    pub informer: String,
    /// The server's reason.
    pub reason: String,
}

/// The type-keyed informer registry a generated factory wraps. Cheap to clone.
#[derive(Clone)]
pub struct SharedInformerFactoryCore {
    client: Client,
    options: Arc<FactoryOptions>,
}

impl SharedInformerFactoryCore {
    /// A factory core.
    pub fn new(client: Client, options: FactoryOptions) -> Self {
        Self {
            client,
            options: Arc::new(options),
        }
    }

    /// The client informers list and watch with.
    pub fn client(&self) -> &Client {
        &self.client
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
        self.options
            .custom_resync
            .get(&TypeId::of::<K>())
            .copied()
            .unwrap_or(self.options.default_resync)
    }

    /// The informer for `K`, made by `new_informer` on first request. `name` is used in
    /// errors and metrics (e.g. `core/v1/pods`).
    pub fn informer_for<K: Object>(
        &self,
        name: &str,
        new_informer: impl FnOnce(&Self) -> SharedIndexInformer<K>,
    ) -> SharedIndexInformer<K> {
        let _ = (name, new_informer);
        todo!()
    }

    /// Starts every informer requested so far; later ones start at once.
    pub fn start(&self) {
        todo!()
    }

    /// Waits until every started informer has synced, or fails naming one that cannot.
    pub async fn wait_for_cache_sync(&self) -> Result<(), SyncError> {
        todo!()
    }

    /// Stops every informer and waits for their tasks to end.
    pub async fn shutdown(&self) {
        todo!()
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

    /// A metadata transform every informer applies before caching.
    pub fn transform(
        mut self,
        transform: impl Fn(&mut ObjectMeta) + Send + Sync + 'static,
    ) -> Self {
        self.options.transform = Some(Arc::new(transform));
        self
    }

    /// The factory.
    pub fn build(self) -> F {
        F::from(SharedInformerFactoryCore::new(self.client, self.options))
    }
}
