//! Our informer, as a user builds it: the generated factory's `core().v1().pods()`.

use std::sync::Arc;
use std::time::Duration;

use informer_runtime::client::Config;
use informer_runtime::{
    CacheMode, Client, InformerFactory, ResourceEventHandlerFuncs, SharedIndexInformer,
};
use informers::SharedInformerFactory;
use k8s_openapi::api::core::v1::Pod;
use listers::core::v1::PodLister;

use crate::error::BenchError;

/// Called by handler `i` (0-based) for every update.
pub type OnUpdate = Arc<dyn Fn(usize, &Pod) + Send + Sync>;

/// How to configure the informer under test.
#[derive(Clone, Default)]
pub struct OursOptions {
    /// Keep `metadata.managedFields` (factories drop them by default).
    pub keep_managed_fields: bool,
    /// How the cache holds pods.
    pub cache_mode: CacheMode,
    /// Handlers to register (each gets `on_update`).
    pub handlers: usize,
    /// What each handler does on update.
    pub on_update: Option<OnUpdate>,
    /// Cache only this shard (KEP-5866).
    pub shard_selector: Option<informer_runtime::shard::ShardSelector>,
    /// List and watch as JSON even where protobuf is offered.
    pub disable_protobuf: bool,
}

/// A started factory with its pods informer.
pub struct Ours {
    factory: SharedInformerFactory,
    informer: SharedIndexInformer<Pod>,
    lister: PodLister,
}

fn err(reason: impl ToString) -> BenchError {
    BenchError::Informer {
        who: "ours".into(),
        reason: reason.to_string(),
    }
}

/// Generous limit for a sync of up to 100k pods on a loaded 2-core machine.
const SYNC_LIMIT: Duration = Duration::from_secs(600);

impl Ours {
    /// Builds the factory for the server at `url` and starts the pods informer.
    pub fn start(url: &str, options: &OursOptions) -> Result<Self, BenchError> {
        let mut config = Config::new(url);
        config.disable_protobuf = options.disable_protobuf;
        let client = Client::new(config).map_err(err)?;
        let mut builder = SharedInformerFactory::builder(client);
        if options.keep_managed_fields {
            builder = builder.keep_managed_fields();
        }
        if let Some(selector) = &options.shard_selector {
            builder = builder.shard_selector(selector.clone());
        }
        let factory = builder.cache_mode(options.cache_mode).build();
        let pods = factory.core().v1().pods();
        let informer = pods.informer();
        for i in 0..options.handlers {
            let on_update = options.on_update.clone();
            informer.add_event_handler(ResourceEventHandlerFuncs::default().on_update(
                move |_old, new: &Arc<Pod>| {
                    if let Some(f) = &on_update {
                        f(i, new);
                    }
                },
            ));
        }
        let lister = pods.lister();
        factory.start();
        Ok(Self {
            factory,
            informer,
            lister,
        })
    }

    /// Waits until the initial list is in the store.
    pub async fn wait_synced(&self) -> Result<(), BenchError> {
        match tokio::time::timeout(SYNC_LIMIT, self.factory.wait_for_cache_sync()).await {
            Ok(r) => r.map_err(err),
            Err(_) => Err(BenchError::Timeout("our initial sync".into(), SYNC_LIMIT)),
        }
    }

    /// Lists started so far (the initial one and every relist).
    pub fn lists(&self) -> u64 {
        self.informer.stats().lists
    }

    /// Watch requests made so far.
    pub fn watches(&self) -> u64 {
        self.informer.stats().watches
    }

    /// Objects skipped by filtering on the client so far.
    pub fn shard_skipped(&self) -> u64 {
        self.informer.stats().shard_skipped
    }

    /// The pods lister.
    pub fn lister(&self) -> &PodLister {
        &self.lister
    }

    /// Stops every informer and waits for their tasks.
    pub async fn stop(self) {
        self.factory.shutdown().await;
    }
}
