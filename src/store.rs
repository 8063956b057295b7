//! The indexed, thread-safe store informers cache into (client-go's `cache.Indexer`).
//!
//! Objects are held as `Arc<K>` under their `object_key`. Every index maps an index
//! value to the set of keys whose objects produce it, so `by_index` costs time
//! proportional to the result, not to the size of the store.

use std::collections::{BTreeMap, HashMap, HashSet};
use std::sync::{Arc, RwLock, RwLockReadGuard, RwLockWriteGuard};

use crate::error::Error;
use crate::object::{object_key, Object};

/// The name of the default index: objects by namespace.
pub const NAMESPACE_INDEX: &str = "namespace";

/// Computes the index values of an object (client-go's `IndexFunc`).
pub type IndexFunc<K> = Arc<dyn Fn(&K) -> Vec<String> + Send + Sync>;

/// Named index functions (client-go's `cache.Indexers`).
pub struct Indexers<K> {
    funcs: BTreeMap<String, IndexFunc<K>>,
}

impl<K> Clone for Indexers<K> {
    fn clone(&self) -> Self {
        Self {
            funcs: self.funcs.clone(),
        }
    }
}

impl<K> Default for Indexers<K> {
    fn default() -> Self {
        Self {
            funcs: BTreeMap::new(),
        }
    }
}

impl<K> std::fmt::Debug for Indexers<K> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_list().entries(self.funcs.keys()).finish()
    }
}

/// The namespace of an object as its only index value; none for cluster-scoped objects
/// (client-go's `MetaNamespaceIndexFunc`).
pub fn namespace_index_func<K: Object>(obj: &K) -> Vec<String> {
    match obj.meta().namespace.as_deref() {
        Some(ns) if !ns.is_empty() => vec![ns.to_owned()],
        _ => Vec::new(),
    }
}

impl<K: Object> Indexers<K> {
    /// No indexers.
    pub fn new() -> Self {
        Self::default()
    }

    /// Only the `namespace` index (what generated informers use by default).
    pub fn namespace() -> Self {
        Self::new().with(NAMESPACE_INDEX, namespace_index_func::<K>)
    }

    /// Adds (or replaces) the index `name`.
    pub fn with(
        mut self,
        name: &str,
        func: impl Fn(&K) -> Vec<String> + Send + Sync + 'static,
    ) -> Self {
        self.funcs.insert(name.to_owned(), Arc::new(func));
        self
    }

    /// The names of the indexes, sorted.
    pub fn names(&self) -> impl Iterator<Item = &str> {
        self.funcs.keys().map(String::as_str)
    }

    /// True when there is no index.
    pub fn is_empty(&self) -> bool {
        self.funcs.is_empty()
    }
}

/// Index value → keys of the objects that produce it.
type Index = HashMap<String, HashSet<Arc<str>>>;

struct StoreInner<K> {
    items: HashMap<Arc<str>, Arc<K>>,
    indexers: BTreeMap<String, IndexFunc<K>>,
    indices: HashMap<String, Index>,
}

impl<K> StoreInner<K> {
    fn add_to_indices(&mut self, key: &Arc<str>, obj: &K) {
        for (name, func) in &self.indexers {
            let index = self.indices.entry(name.clone()).or_default();
            for value in func(obj) {
                index.entry(value).or_default().insert(key.clone());
            }
        }
    }

    fn remove_from_indices(&mut self, key: &str, obj: &K) {
        for (name, func) in &self.indexers {
            let Some(index) = self.indices.get_mut(name) else {
                continue;
            };
            for value in func(obj) {
                if let Some(keys) = index.get_mut(&value) {
                    keys.remove(key);
                    if keys.is_empty() {
                        index.remove(&value);
                    }
                }
            }
        }
    }
}

/// A thread-safe, indexed map of `Arc<K>` keyed `namespace/name` (or `name`). Cheap to clone;
/// clones share the same data.
///
/// Reads take a shared lock only; an informer is the only writer of its indexer.
pub struct Indexer<K> {
    inner: Arc<RwLock<StoreInner<K>>>,
}

impl<K> Clone for Indexer<K> {
    fn clone(&self) -> Self {
        Self {
            inner: self.inner.clone(),
        }
    }
}

impl<K: Object> Default for Indexer<K> {
    fn default() -> Self {
        Self::new(Indexers::new())
    }
}

impl<K: Object> std::fmt::Debug for Indexer<K> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let inner = self.read();
        f.debug_struct("Indexer")
            .field("len", &inner.items.len())
            .field("indexers", &inner.indexers.keys().collect::<Vec<_>>())
            .finish()
    }
}

impl<K: Object> Indexer<K> {
    /// An empty store with `indexers`.
    pub fn new(indexers: Indexers<K>) -> Self {
        let indices = indexers
            .funcs
            .keys()
            .map(|name| (name.clone(), Index::new()))
            .collect();
        Self {
            inner: Arc::new(RwLock::new(StoreInner {
                items: HashMap::new(),
                indexers: indexers.funcs,
                indices,
            })),
        }
    }

    // A panicking index function poisons the lock; the maps stay structurally valid,
    // so later readers and writers go on rather than propagating the panic.
    fn read(&self) -> RwLockReadGuard<'_, StoreInner<K>> {
        self.inner.read().unwrap_or_else(|e| e.into_inner())
    }

    fn write(&self) -> RwLockWriteGuard<'_, StoreInner<K>> {
        self.inner.write().unwrap_or_else(|e| e.into_inner())
    }

    /// The object stored under `key`.
    pub fn get_by_key(&self, key: &str) -> Option<Arc<K>> {
        self.read().items.get(key).cloned()
    }

    /// The stored object with the same key as `obj`.
    pub fn get(&self, obj: &K) -> Option<Arc<K>> {
        self.get_by_key(&object_key(obj))
    }

    /// Every stored object, in no particular order.
    pub fn list(&self) -> Vec<Arc<K>> {
        self.read().items.values().cloned().collect()
    }

    /// Every stored key, in no particular order.
    pub fn list_keys(&self) -> Vec<String> {
        self.read().items.keys().map(|k| k.to_string()).collect()
    }

    /// The number of stored objects.
    pub fn len(&self) -> usize {
        self.read().items.len()
    }

    /// True when the store holds no object.
    pub fn is_empty(&self) -> bool {
        self.read().items.is_empty()
    }

    /// The names of the indexes, sorted.
    pub fn indexer_names(&self) -> Vec<String> {
        self.read().indexers.keys().cloned().collect()
    }

    /// True when the index `index_name` exists.
    pub fn has_index(&self, index_name: &str) -> bool {
        self.read().indexers.contains_key(index_name)
    }

    /// The objects whose index `index_name` contains `value`.
    pub fn by_index(&self, index_name: &str, value: &str) -> Result<Vec<Arc<K>>, Error> {
        let inner = self.read();
        let index = inner
            .indices
            .get(index_name)
            .ok_or_else(|| unknown_index(index_name))?;
        Ok(index
            .get(value)
            .map(|keys| {
                keys.iter()
                    .filter_map(|k| inner.items.get(k).cloned())
                    .collect()
            })
            .unwrap_or_default())
    }

    /// The keys of the objects whose index `index_name` contains `value`.
    pub fn index_keys(&self, index_name: &str, value: &str) -> Result<Vec<String>, Error> {
        let inner = self.read();
        let index = inner
            .indices
            .get(index_name)
            .ok_or_else(|| unknown_index(index_name))?;
        Ok(index
            .get(value)
            .map(|keys| keys.iter().map(|k| k.to_string()).collect())
            .unwrap_or_default())
    }

    /// Every value the index `index_name` currently holds.
    pub fn list_index_func_values(&self, index_name: &str) -> Result<Vec<String>, Error> {
        let inner = self.read();
        let index = inner
            .indices
            .get(index_name)
            .ok_or_else(|| unknown_index(index_name))?;
        Ok(index.keys().cloned().collect())
    }

    /// The objects that share any value of index `index_name` with `obj`
    /// (client-go's `Index`).
    pub fn index(&self, index_name: &str, obj: &K) -> Result<Vec<Arc<K>>, Error> {
        let inner = self.read();
        let func = inner
            .indexers
            .get(index_name)
            .ok_or_else(|| unknown_index(index_name))?;
        let index = inner.indices.get(index_name);
        let mut keys: HashSet<&Arc<str>> = HashSet::new();
        for value in func(obj) {
            if let Some(set) = index.and_then(|i| i.get(&value)) {
                keys.extend(set.iter());
            }
        }
        Ok(keys
            .into_iter()
            .filter_map(|k| inner.items.get(k).cloned())
            .collect())
    }

    /// Adds indexes, also after the informer started: existing objects are indexed at once.
    /// Fails, changing nothing, when an index of the same name already exists.
    pub fn add_indexers(&self, indexers: Indexers<K>) -> Result<(), Error> {
        let mut inner = self.write();
        if let Some(dup) = indexers
            .funcs
            .keys()
            .find(|n| inner.indexers.contains_key(*n))
        {
            return Err(Error::Other(format!(
                "add_indexers: an index named {dup:?} already exists"
            )));
        }
        for (name, func) in indexers.funcs {
            let mut index = Index::new();
            for (key, obj) in &inner.items {
                for value in func(obj) {
                    index.entry(value).or_default().insert(key.clone());
                }
            }
            inner.indices.insert(name.clone(), index);
            inner.indexers.insert(name, func);
        }
        Ok(())
    }

    /// Stores `obj` under its key, replacing and returning the previous object.
    pub fn insert(&self, obj: Arc<K>) -> Option<Arc<K>> {
        let key = object_key(obj.as_ref());
        self.insert_with_key(key, obj)
    }

    /// Stores `obj` under `key`, replacing and returning the previous object.
    pub fn insert_with_key(&self, key: String, obj: Arc<K>) -> Option<Arc<K>> {
        let mut inner = self.write();
        let (key, old) = match inner.items.remove_entry(key.as_str()) {
            Some((k, old)) => {
                inner.remove_from_indices(&k, &old);
                (k, Some(old))
            }
            None => (Arc::<str>::from(key), None),
        };
        inner.add_to_indices(&key, &obj);
        inner.items.insert(key, obj);
        old
    }

    /// Removes and returns the object stored under `key`.
    pub fn remove(&self, key: &str) -> Option<Arc<K>> {
        let mut inner = self.write();
        let (k, old) = inner.items.remove_entry(key)?;
        inner.remove_from_indices(&k, &old);
        Some(old)
    }

    /// Replaces the whole content with `objs`.
    pub fn replace(&self, objs: impl IntoIterator<Item = Arc<K>>) {
        let mut inner = self.write();
        inner.items.clear();
        for index in inner.indices.values_mut() {
            index.clear();
        }
        for obj in objs {
            let key: Arc<str> = Arc::from(object_key(obj.as_ref()));
            if let Some(old) = inner.items.remove(&key) {
                inner.remove_from_indices(&key, &old);
            }
            inner.add_to_indices(&key, &obj);
            inner.items.insert(key, obj);
        }
    }
}

fn unknown_index(name: &str) -> Error {
    Error::Other(format!("index {name:?} does not exist in this indexer"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use k8s_openapi::api::core::v1::ConfigMap;
    use k8s_openapi::apimachinery::pkg::apis::meta::v1::ObjectMeta;

    fn cm(ns: &str, name: &str, app: &str) -> Arc<ConfigMap> {
        Arc::new(ConfigMap {
            metadata: ObjectMeta {
                namespace: (!ns.is_empty()).then(|| ns.to_owned()),
                name: Some(name.to_owned()),
                labels: Some([("app".to_owned(), app.to_owned())].into()),
                ..Default::default()
            },
            ..Default::default()
        })
    }

    fn app_index(o: &ConfigMap) -> Vec<String> {
        o.metadata
            .labels
            .as_ref()
            .and_then(|l| l.get("app").cloned())
            .into_iter()
            .collect()
    }

    fn sorted(mut v: Vec<String>) -> Vec<String> {
        v.sort();
        v
    }

    #[test]
    fn insert_get_remove_by_key() {
        let s = Indexer::new(Indexers::namespace());
        assert!(s.insert(cm("a", "x", "web")).is_none());
        assert!(s.insert(cm("", "cluster", "web")).is_none());
        assert_eq!(s.len(), 2);
        assert!(s.get_by_key("a/x").is_some());
        assert!(s.get_by_key("cluster").is_some());
        assert!(s.get_by_key("x").is_none());
        let old = s.insert(cm("a", "x", "db")).unwrap();
        assert_eq!(app_index(&old), vec!["web"]);
        assert_eq!(s.len(), 2);
        assert!(s.remove("a/x").is_some());
        assert!(s.remove("a/x").is_none());
        assert_eq!(s.list_keys(), vec!["cluster"]);
    }

    #[test]
    fn namespace_index_follows_updates_and_deletes() {
        let s = Indexer::new(Indexers::namespace().with("app", app_index));
        s.insert(cm("a", "x", "web"));
        s.insert(cm("a", "y", "db"));
        s.insert(cm("b", "z", "web"));
        assert_eq!(s.by_index(NAMESPACE_INDEX, "a").unwrap().len(), 2);
        assert_eq!(
            sorted(s.index_keys("app", "web").unwrap()),
            vec!["a/x", "b/z"]
        );
        s.insert(cm("a", "x", "db"));
        assert_eq!(s.index_keys("app", "web").unwrap(), vec!["b/z"]);
        assert_eq!(
            sorted(s.list_index_func_values("app").unwrap()),
            vec!["db", "web"]
        );
        s.remove("b/z");
        assert_eq!(s.list_index_func_values("app").unwrap(), vec!["db"]);
        assert!(s.by_index(NAMESPACE_INDEX, "b").unwrap().is_empty());
        let err = s.by_index("nope", "a").unwrap_err().to_string();
        assert!(err.contains("\"nope\""), "{err}");
    }

    #[test]
    fn indexers_added_later_index_existing_items() {
        let s = Indexer::new(Indexers::namespace());
        s.insert(cm("a", "x", "web"));
        s.insert(cm("b", "y", "web"));
        s.add_indexers(Indexers::new().with("app", app_index))
            .unwrap();
        assert_eq!(s.by_index("app", "web").unwrap().len(), 2);
        s.insert(cm("c", "z", "web"));
        assert_eq!(s.by_index("app", "web").unwrap().len(), 3);
        let dup = s
            .add_indexers(Indexers::new().with("app", app_index))
            .unwrap_err();
        assert!(dup.to_string().contains("app"));
        let same = s.index("app", &cm("q", "q", "web")).unwrap();
        assert_eq!(same.len(), 3);
    }

    #[test]
    fn replace_resets_content_and_indices() {
        let s = Indexer::new(Indexers::namespace());
        s.insert(cm("a", "x", "web"));
        s.replace([cm("b", "y", "web"), cm("b", "z", "web")]);
        assert_eq!(sorted(s.list_keys()), vec!["b/y", "b/z"]);
        assert!(s.by_index(NAMESPACE_INDEX, "a").unwrap().is_empty());
        assert_eq!(s.by_index(NAMESPACE_INDEX, "b").unwrap().len(), 2);
    }

    #[test]
    fn cluster_scoped_objects_have_no_namespace_value() {
        let s = Indexer::new(Indexers::namespace());
        s.insert(cm("", "n", "web"));
        assert!(s
            .list_index_func_values(NAMESPACE_INDEX)
            .unwrap()
            .is_empty());
    }
}
