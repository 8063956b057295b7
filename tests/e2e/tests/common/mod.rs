//! Helpers shared by the informer end-to-end suites: an informer over the real client,
//! and a handler that replays its events into a map while checking each object's sequence.
#![allow(dead_code)]

use std::collections::BTreeMap;
use std::sync::{Arc, Mutex};

use informer_runtime::client::Config;
use informer_runtime::object::object_key;
use informer_runtime::source::ApiScope;
use informer_runtime::{
    new_informer, typed, Client, Deleted, Indexers, InformerOptions, ResourceEventHandler,
    SharedIndexInformer,
};
use k8s_openapi::apimachinery::pkg::apis::meta::v1::ObjectMeta;

/// A client for a test server URL.
pub fn client(url: &str) -> Client {
    Client::new(Config::new(url)).expect("client for the test server")
}

/// An informer for `K` in all namespaces, listing and watching with the real client.
pub fn informer<K>(client: &Client) -> SharedIndexInformer<K>
where
    K: k8s_openapi::ListableResource
        + k8s_openapi::Metadata<Ty = ObjectMeta>
        + serde::de::DeserializeOwned
        + serde::Serialize
        + Clone
        + Send
        + Sync
        + 'static,
    K::Scope: ApiScope,
{
    informer_with(client, InformerOptions::default())
}

/// Like [`informer`], with `options` (their indexers replaced by the namespace index).
pub fn informer_with<K>(client: &Client, options: InformerOptions<K>) -> SharedIndexInformer<K>
where
    K: k8s_openapi::ListableResource
        + k8s_openapi::Metadata<Ty = ObjectMeta>
        + serde::de::DeserializeOwned
        + serde::Serialize
        + Clone
        + Send
        + Sync
        + 'static,
    K::Scope: ApiScope,
{
    new_informer(
        client,
        &typed::<K>(),
        None,
        options.indexers(Indexers::namespace()),
    )
}

/// What a [`Replay`] handler has seen.
#[derive(Default, Debug)]
pub struct ReplayState {
    /// key → resourceVersion, rebuilt from the events alone.
    pub objects: BTreeMap<String, String>,
    /// Every event as a line, in order.
    pub log: Vec<String>,
    /// Sequence violations (an update or delete of an unknown key, an add of a known one).
    pub violations: Vec<String>,
    /// Deletions inferred by a relist.
    pub final_state_unknown: Vec<String>,
}

/// A handler that replays events into a key → resourceVersion map and checks that every
/// object's sequence is Add, Update*, Delete.
#[derive(Clone, Default)]
pub struct Replay(pub Arc<Mutex<ReplayState>>);

fn rv(meta: &ObjectMeta) -> String {
    meta.resource_version.clone().unwrap_or_default()
}

impl Replay {
    /// The replayed key → resourceVersion map.
    pub fn objects(&self) -> BTreeMap<String, String> {
        self.0.lock().unwrap().objects.clone()
    }

    /// The sequence violations seen so far.
    pub fn violations(&self) -> Vec<String> {
        self.0.lock().unwrap().violations.clone()
    }

    /// The event log.
    pub fn log(&self) -> Vec<String> {
        self.0.lock().unwrap().log.clone()
    }

    /// The keys deleted as `FinalStateUnknown`.
    pub fn final_state_unknown(&self) -> Vec<String> {
        self.0.lock().unwrap().final_state_unknown.clone()
    }
}

impl<K> ResourceEventHandler<K> for Replay
where
    K: k8s_openapi::Metadata<Ty = ObjectMeta>
        + serde::de::DeserializeOwned
        + serde::Serialize
        + Clone
        + Send
        + Sync
        + 'static,
{
    fn on_add(&self, obj: &Arc<K>, _in_initial_list: bool) {
        let key = object_key(obj.as_ref());
        let v = rv(obj.metadata());
        let mut s = self.0.lock().unwrap();
        s.log.push(format!("add {key}@{v}"));
        if s.objects.insert(key.clone(), v).is_some() {
            s.violations.push(format!("add of known {key}"));
        }
    }

    fn on_update(&self, old: &Arc<K>, new: &Arc<K>) {
        let key = object_key(new.as_ref());
        let v = rv(new.metadata());
        let mut s = self.0.lock().unwrap();
        s.log
            .push(format!("update {key}@{}->{v}", rv(old.metadata())));
        if s.objects.insert(key.clone(), v).is_none() {
            s.violations.push(format!("update of unknown {key}"));
        }
    }

    fn on_delete(&self, gone: &Deleted<K>) {
        let key = gone.key();
        let mut s = self.0.lock().unwrap();
        s.log.push(format!("delete {key}"));
        if let Deleted::FinalStateUnknown { .. } = gone {
            s.final_state_unknown.push(key.clone());
        }
        if s.objects.remove(&key).is_none() {
            s.violations.push(format!("delete of unknown {key}"));
        }
    }
}

/// key → resourceVersion of the objects in an informer's cache.
pub fn cache_state<K>(informer: &SharedIndexInformer<K>) -> BTreeMap<String, String>
where
    K: k8s_openapi::Metadata<Ty = ObjectMeta>
        + serde::de::DeserializeOwned
        + serde::Serialize
        + Clone
        + Send
        + Sync
        + 'static,
{
    informer
        .indexer()
        .list()
        .iter()
        .map(|o| (object_key(o.as_ref()), rv(o.metadata())))
        .collect()
}
