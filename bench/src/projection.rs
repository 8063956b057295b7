//! Typed projections of Pods, as a controller that needs a handful of fields declares them
//! (issue 19): the informer decodes list and watch bytes straight into the view and caches
//! only that.
//!
//! The runtime caches any type that is a `k8s_openapi::Resource` (here: Pod's group,
//! version, kind and plural) with `k8s_openapi::Metadata<Ty = ObjectMeta>`, so a view is a
//! serde struct and two short impls; the generated factory shares one informer per type.

use std::sync::Arc;
use std::time::Duration;

use informer_runtime::api::Api;
use informer_runtime::client::Config;
use informer_runtime::{
    Client, Indexers, InformerFactory, ListOptions, ListWatch, Lister, Object, SharedIndexInformer,
};
use informers::SharedInformerFactory;
use k8s_openapi::api::core::v1::Pod;
use k8s_openapi::apimachinery::pkg::apis::meta::v1::{ObjectMeta, OwnerReference};
use serde::{Deserialize, Deserializer, Serialize};

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

/// Implements what the runtime needs of a projection of Pods: Pod's resource constants and
/// access to the view's `metadata`.
macro_rules! pod_projection {
    ($view:ty) => {
        impl k8s_openapi::Resource for $view {
            const API_VERSION: &'static str = <Pod as k8s_openapi::Resource>::API_VERSION;
            const GROUP: &'static str = <Pod as k8s_openapi::Resource>::GROUP;
            const KIND: &'static str = <Pod as k8s_openapi::Resource>::KIND;
            const VERSION: &'static str = <Pod as k8s_openapi::Resource>::VERSION;
            const URL_PATH_SEGMENT: &'static str = <Pod as k8s_openapi::Resource>::URL_PATH_SEGMENT;
            type Scope = <Pod as k8s_openapi::Resource>::Scope;
        }

        impl k8s_openapi::ListableResource for $view {
            const LIST_KIND: &'static str = <Pod as k8s_openapi::ListableResource>::LIST_KIND;
        }

        impl k8s_openapi::Metadata for $view {
            type Ty = ObjectMeta;
            fn metadata(&self) -> &ObjectMeta {
                &self.metadata
            }
            fn metadata_mut(&mut self) -> &mut ObjectMeta {
                &mut self.metadata
            }
        }
    };
}

/// The projection the issue sizes: the whole `ObjectMeta` (managedFields are dropped by
/// default), `spec.nodeName`, `spec.containers[].image` and `status.phase`.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct PodView {
    /// The Pod's metadata.
    pub metadata: ObjectMeta,
    /// The projected spec.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub spec: Option<PodViewSpec>,
    /// The projected status.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub status: Option<PodViewStatus>,
}

pod_projection!(PodView);

/// The metadata fields a controller of Pods typically reads; everything else in
/// `metadata` (annotations, managedFields, uid, ...) is skipped while decoding.
#[derive(Deserialize)]
struct MetaFields {
    name: Option<String>,
    namespace: Option<String>,
    #[serde(rename = "resourceVersion")]
    resource_version: Option<String>,
    labels: Option<std::collections::BTreeMap<String, String>>,
    #[serde(rename = "ownerReferences")]
    owner_references: Option<Vec<OwnerReference>>,
}

fn meta_fields<'de, D: Deserializer<'de>>(d: D) -> Result<ObjectMeta, D::Error> {
    let m = MetaFields::deserialize(d)?;
    Ok(ObjectMeta {
        name: m.name,
        namespace: m.namespace,
        resource_version: m.resource_version,
        labels: m.labels,
        owner_references: m.owner_references,
        ..Default::default()
    })
}

/// [`PodView`] with only name, namespace, labels, resourceVersion and ownerReferences of
/// the metadata: the fields the issue names.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct PodViewMetaFields {
    /// The Pod's name, namespace, labels, resourceVersion and ownerReferences.
    #[serde(deserialize_with = "meta_fields")]
    pub metadata: ObjectMeta,
    /// The projected spec.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub spec: Option<PodViewSpec>,
    /// The projected status.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub status: Option<PodViewStatus>,
}

pod_projection!(PodViewMetaFields);

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
    V: Object + k8s_openapi::ListableResource + k8s_openapi::Metadata<Ty = ObjectMeta> + Clone,
    V::Scope: 'static,
{
    /// Builds a factory for the server at `url`, registers the informer of `V` in it the
    /// way the generated pods informer registers itself, and starts it.
    pub fn start(url: &str) -> Result<Self, BenchError> {
        let client = Client::new(Config::new(url)).map_err(err)?;
        let factory = SharedInformerFactory::builder(client).build();
        let informer = factory.factory_core().informer_for::<V>(
            &format!("core/v1/pods as {}", std::any::type_name::<V>()),
            |core| {
                let api: Api<V> = Api::all(core.client().clone());
                let list = {
                    let api = api.clone();
                    move |options: ListOptions| api.list(&options)
                };
                let watch = move |options: ListOptions| api.watch(&options);
                SharedIndexInformer::new(
                    ListWatch::new(list, watch),
                    core.resync_for::<V>(),
                    Indexers::standard(),
                )
            },
        );
        let lister = Lister::new(informer.indexer());
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
