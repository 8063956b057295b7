//! Typed projections of Pods, as a controller that needs a handful of fields declares them
//! (issue 19): the informer decodes list and watch bytes straight into the view and caches
//! only that.
//!
//! A view is a serde struct and one `projection!` line; the generated accessor
//! (`factory.core().v1().pods().projected::<V>()`) shares one informer per view type.

use std::sync::Arc;
use std::time::Duration;

use informer_runtime::client::Config;
use informer_runtime::projection::ViewMeta;
use informer_runtime::{Client, InformerFactory, Lister, Object, Projection};
use informers::SharedInformerFactory;
use k8s_openapi::api::core::v1::Pod;
use k8s_openapi::apimachinery::pkg::apis::meta::v1::ObjectMeta;
use k8s_openapi::NamespaceResourceScope;
use serde::{Deserialize, Serialize};

use crate::error::BenchError;

/// `spec.nodeName` and the containers' images.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct PodViewSpec {
    /// `spec.nodeName`.
    #[serde(rename = "nodeName", default, skip_serializing_if = "Option::is_none")]
    pub node_name: Option<String>,
    /// `spec.containers[].image`.
    #[serde(default)]
    pub containers: Vec<ContainerImage>,
}

/// One container's image.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct ContainerImage {
    /// `image`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub image: Option<String>,
}

/// `status.phase`.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct PodViewStatus {
    /// `status.phase`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub phase: Option<String>,
}

/// The projection the issue sizes: name, namespace, labels, resourceVersion and
/// ownerReferences of the metadata (with generation: the runtime's [`ViewMeta`]),
/// `spec.nodeName`, `spec.containers[].image` and `status.phase`.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct PodView {
    /// The metadata the runtime reads.
    #[serde(default)]
    pub metadata: ViewMeta,
    /// The projected spec.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub spec: Option<PodViewSpec>,
    /// The projected status.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub status: Option<PodViewStatus>,
}

informer_runtime::projection!(PodView => Pod, metadata: ViewMeta);

/// [`PodView`] with the whole `ObjectMeta` (managedFields are dropped by default).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct PodViewObjectMeta {
    /// The Pod's metadata.
    #[serde(default)]
    pub metadata: ObjectMeta,
    /// The projected spec.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub spec: Option<PodViewSpec>,
    /// The projected status.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub status: Option<PodViewStatus>,
}

informer_runtime::projection!(PodViewObjectMeta => Pod);

fn err(reason: impl ToString) -> BenchError {
    BenchError::Informer {
        who: "our projected informer".into(),
        reason: reason.to_string(),
    }
}

const SYNC_LIMIT: Duration = Duration::from_secs(600);

/// A started factory with the shared informer of one projection of Pods.
pub struct OursProjected<V: Object> {
    factory: SharedInformerFactory,
    lister: Lister<V>,
}

impl<V> OursProjected<V>
where
    V: Projection<Of = Pod> + k8s_openapi::Resource<Scope = NamespaceResourceScope> + Clone,
{
    /// Builds a factory for the server at `url`, asks its generated Pods accessor for the
    /// projection `V`, and starts it.
    pub fn start(url: &str) -> Result<Self, BenchError> {
        let client = Client::new(Config::new(url)).map_err(err)?;
        let factory = SharedInformerFactory::builder(client).build();
        let lister = factory.core().v1().pods().projected::<V>().lister();
        factory.start();
        Ok(Self { factory, lister })
    }

    /// Waits until the initial list is in the store.
    pub async fn wait_synced(&self) -> Result<(), BenchError> {
        match tokio::time::timeout(SYNC_LIMIT, self.factory.wait_for_cache_sync()).await {
            Ok(r) => r.map_err(err),
            Err(_) => Err(BenchError::Timeout(
                "our projected initial sync".into(),
                SYNC_LIMIT,
            )),
        }
    }

    /// Every cached view.
    pub fn list(&self) -> Vec<Arc<V>> {
        self.lister.list(&Default::default())
    }

    /// Stops the informer and waits for its tasks.
    pub async fn stop(self) {
        self.factory.shutdown().await;
    }
}
