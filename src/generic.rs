//! `GenericInformer`: a type-erased informer, what a factory's `for_resource` returns.

use std::any::Any;
use std::sync::Arc;

use crate::error::Error;
use crate::informer::SharedIndexInformer;
use crate::object::{GroupVersionResource, Object};

/// A cached object whose type is known only at run time.
pub type AnyObject = Arc<dyn Any + Send + Sync>;

/// What the erased informer can do without knowing its type.
trait ErasedInformer: Send + Sync {
    fn as_any(&self) -> &dyn Any;
    fn has_synced(&self) -> bool;
    fn list(&self) -> Vec<AnyObject>;
    fn get_by_key(&self, key: &str) -> Option<AnyObject>;
    fn list_json(&self) -> Result<Vec<serde_json::Value>, Error>;
    fn get_json(&self, key: &str) -> Result<Option<serde_json::Value>, Error>;
}

struct Typed<K>(SharedIndexInformer<K>);

fn to_json<K: serde::Serialize>(obj: &K, key: &str) -> Result<serde_json::Value, Error> {
    serde_json::to_value(obj).map_err(|e| {
        Error::other(
            crate::error::ErrorKind::Encode,
            format!("encoding cached object {key} as JSON"),
            e.to_string(),
        )
    })
}

impl<K: Object + serde::Serialize> ErasedInformer for Typed<K> {
    fn as_any(&self) -> &dyn Any {
        &self.0
    }
    fn has_synced(&self) -> bool {
        self.0.has_synced()
    }
    fn list(&self) -> Vec<AnyObject> {
        self.0
            .indexer()
            .list()
            .into_iter()
            .map(|o| o as AnyObject)
            .collect()
    }
    fn get_by_key(&self, key: &str) -> Option<AnyObject> {
        self.0.indexer().get_by_key(key).map(|o| o as AnyObject)
    }
    fn list_json(&self) -> Result<Vec<serde_json::Value>, Error> {
        self.0
            .indexer()
            .list()
            .iter()
            .map(|o| to_json(o.as_ref(), &crate::object::object_key(o.as_ref())))
            .collect()
    }
    fn get_json(&self, key: &str) -> Result<Option<serde_json::Value>, Error> {
        self.0
            .indexer()
            .get_by_key(key)
            .map(|o| to_json(o.as_ref(), key))
            .transpose()
    }
}

/// An informer whose object type is known only at run time (client-go's `GenericInformer`).
#[derive(Clone)]
pub struct GenericInformer {
    gvr: GroupVersionResource,
    informer: Arc<dyn ErasedInformer>,
}

impl std::fmt::Debug for GenericInformer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("GenericInformer")
            .field("gvr", &self.gvr)
            .field("has_synced", &self.has_synced())
            .finish()
    }
}

fn key(namespace: Option<&str>, name: &str) -> String {
    match namespace {
        Some(ns) if !ns.is_empty() => format!("{ns}/{name}"),
        _ => name.to_owned(),
    }
}

impl GenericInformer {
    /// Erases the type of `informer`, which serves `gvr`.
    pub fn new<K: Object + serde::Serialize>(
        gvr: GroupVersionResource,
        informer: SharedIndexInformer<K>,
    ) -> Self {
        Self {
            gvr,
            informer: Arc::new(Typed(informer)),
        }
    }

    /// The resource this informer serves.
    pub fn gvr(&self) -> &GroupVersionResource {
        &self.gvr
    }

    /// The typed informer, when `K` is its object type.
    pub fn downcast<K: Object>(&self) -> Option<SharedIndexInformer<K>> {
        self.informer
            .as_any()
            .downcast_ref::<SharedIndexInformer<K>>()
            .cloned()
    }

    /// True once the informer's initial list is in its cache.
    pub fn has_synced(&self) -> bool {
        self.informer.has_synced()
    }

    /// Every cached object; downcast each with `Arc::downcast::<K>`.
    pub fn list(&self) -> Vec<AnyObject> {
        self.informer.list()
    }

    /// The cached object `name` in `namespace` (`None` for cluster-scoped objects).
    pub fn get(&self, namespace: Option<&str>, name: &str) -> Option<AnyObject> {
        self.informer.get_by_key(&key(namespace, name))
    }

    /// Every cached object as JSON.
    pub fn list_json(&self) -> Result<Vec<serde_json::Value>, Error> {
        self.informer.list_json()
    }

    /// The cached object `name` in `namespace` as JSON.
    pub fn get_json(
        &self,
        namespace: Option<&str>,
        name: &str,
    ) -> Result<Option<serde_json::Value>, Error> {
        self.informer.get_json(&key(namespace, name))
    }
}

/// A factory's `for_resource` was asked for a resource it does not generate.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("no informer for resource {gvr}: not a resource this factory generates")]
pub struct UnknownResource {
    /// The resource asked for.
    pub gvr: GroupVersionResource,
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lister_watcher::{ListWatch, ObjectList, WatchStream};
    use crate::store::Indexers;
    use futures_util::StreamExt;
    use k8s_openapi::api::core::v1::{ConfigMap, Pod};
    use k8s_openapi::apimachinery::pkg::apis::meta::v1::ListMeta;
    use k8s_openapi::apimachinery::pkg::apis::meta::v1::ObjectMeta;
    use std::time::Duration;

    /// A source whose list holds one ConfigMap and whose watch never ends.
    fn one_config_map() -> ListWatch<ConfigMap> {
        ListWatch::new(
            |_| {
                std::future::ready(Ok(ObjectList {
                    metadata: ListMeta {
                        resource_version: Some("1".into()),
                        ..Default::default()
                    },
                    items: vec![Arc::new(ConfigMap {
                        metadata: ObjectMeta {
                            namespace: Some("a".into()),
                            name: Some("cm".into()),
                            ..Default::default()
                        },
                        ..Default::default()
                    })],
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
    async fn erased_views_and_downcast() {
        let inf = SharedIndexInformer::new(one_config_map(), Duration::ZERO, Indexers::namespace());
        let g = GenericInformer::new(
            GroupVersionResource::new("", "v1", "configmaps"),
            inf.clone(),
        );
        assert!(!g.has_synced());
        let cancel = tokio_util::sync::CancellationToken::new();
        let task = tokio::spawn(inf.run(cancel.clone()));
        inf.wait_for_sync().await.unwrap();
        assert_eq!(g.gvr().to_string(), "v1/configmaps");
        assert!(g.has_synced());
        assert!(g.downcast::<Pod>().is_none());
        assert_eq!(g.downcast::<ConfigMap>().unwrap().indexer().len(), 1);
        let any = g.get(Some("a"), "cm").unwrap();
        assert!(any.downcast::<ConfigMap>().is_ok());
        assert!(g.get(None, "cm").is_none());
        assert_eq!(g.list().len(), 1);
        let json = g.get_json(Some("a"), "cm").unwrap().unwrap();
        assert_eq!(json["metadata"]["name"], "cm");
        assert_eq!(g.list_json().unwrap().len(), 1);
        cancel.cancel();
        task.await.unwrap();
    }
}
