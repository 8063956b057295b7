//! The kube-rs baseline: `kube::runtime::reflector` + `watcher` over the same server,
//! with kube-rs's default watcher configuration (pages of 500, bookmarks on).

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;

use futures_util::StreamExt;
use k8s_openapi::api::core::v1::Pod;
use kube::runtime::reflector::{self, Store};
use kube::runtime::watcher;
use kube::Api;
use tokio::task::JoinHandle;

use crate::error::BenchError;
use crate::sections::sync::check_count;
use crate::sections::timed;

/// Called for every watch event after the initial list (kube-rs's `Event::Apply`).
pub type OnApply = Arc<dyn Fn(&Pod) + Send + Sync>;

/// A running kube-rs reflector.
pub struct KubeReflector {
    store: Store<Pod>,
    task: JoinHandle<()>,
    lists_done: Arc<AtomicUsize>,
}

fn err(reason: impl ToString) -> BenchError {
    BenchError::Informer {
        who: "kube-rs reflector".into(),
        reason: reason.to_string(),
    }
}

impl KubeReflector {
    /// Starts a reflector of every Pod at `url` (plain http).
    pub fn start(url: &str, on_apply: Option<OnApply>) -> Result<Self, BenchError> {
        let uri: http::Uri = url
            .parse()
            .map_err(|e| err(format!("server URL {url:?}: {e}")))?;
        let client = kube::Client::try_from(kube::Config::new(uri))
            .map_err(|e| err(format!("client for {url}: {e}")))?;
        let api: Api<Pod> = Api::all(client);
        let (store, writer) = reflector::store();
        let stream =
            reflector::reflector(writer, watcher::watcher(api, watcher::Config::default()));
        let lists_done = Arc::new(AtomicUsize::new(0));
        let lists = lists_done.clone();
        let task = tokio::spawn(async move {
            let mut stream = std::pin::pin!(stream);
            while let Some(event) = stream.next().await {
                match event {
                    Ok(watcher::Event::Apply(pod)) => {
                        if let Some(f) = &on_apply {
                            f(&pod);
                        }
                    }
                    Ok(watcher::Event::InitDone) => {
                        lists.fetch_add(1, Ordering::Relaxed);
                    }
                    Ok(_) => {}
                    Err(e) => tracing::warn!(error = %e, "kube-rs watcher error"),
                }
            }
        });
        Ok(Self {
            store,
            task,
            lists_done,
        })
    }

    /// Seconds from starting a reflector of the Pods at `url` until its store is ready; the
    /// store must then hold `n` Pods. The reflector is stopped afterwards.
    pub async fn sync_time(url: &str, n: usize) -> Result<f64, BenchError> {
        let (t, reflector) = timed(async {
            let reflector = Self::start(url, None)?;
            reflector.wait_synced().await?;
            Ok::<_, BenchError>(reflector)
        })
        .await;
        let reflector = reflector?;
        check_count(reflector.len(), n, "kube-rs store")?;
        reflector.stop().await;
        Ok(t)
    }

    /// Waits until the initial list is in the store.
    pub async fn wait_synced(&self) -> Result<(), BenchError> {
        self.store
            .wait_until_ready()
            .await
            .map_err(|e| err(format!("store never became ready: {e}")))
    }

    /// Objects in the store.
    pub fn len(&self) -> usize {
        self.store.len()
    }

    /// Full lists completed so far (the initial one and every relist).
    pub fn lists_done(&self) -> usize {
        self.lists_done.load(Ordering::Relaxed)
    }

    /// Stops the reflector and waits until its task (and the writer it owns) is gone.
    pub async fn stop(self) {
        self.task.abort();
        // The task was aborted on purpose: its JoinError says only that.
        let _ = self.task.await;
    }
}
