//! The indexed, thread-safe store informers cache into (client-go's `cache.Indexer`).
//!
//! Objects are held under their `object_key`, as `Arc<K>` or compressed (see [`CacheMode`]).
//! Every index maps an index value to the set of keys whose objects produce it, so
//! `by_index` costs time proportional to the result, not to the size of the store.

use std::collections::{BTreeMap, HashMap, HashSet, VecDeque};
use std::sync::{Arc, Mutex, MutexGuard, RwLock, RwLockReadGuard, RwLockWriteGuard};

use crate::error::Error;
use crate::object::{object_key, Object};

/// The name of the default index: objects by namespace.
pub const NAMESPACE_INDEX: &str = "namespace";

/// The name of the label index: objects by each of their labels, as `key=value`. Lister
/// label selectors use it to visit only the objects an equality requirement can match.
pub const LABEL_INDEX: &str = "labels";

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

/// Every label of an object as `key=value`.
pub fn label_index_func<K: Object>(obj: &K) -> Vec<String> {
    obj.meta()
        .labels
        .iter()
        .flatten()
        .map(|(k, v)| {
            let mut value = String::with_capacity(k.len() + 1 + v.len());
            value.push_str(k);
            value.push('=');
            value.push_str(v);
            value
        })
        .collect()
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

    /// The `namespace` and `labels` indexes (what generated informers use by default): lister
    /// reads by namespace and by label selector cost time proportional to their result.
    pub fn standard() -> Self {
        Self::namespace().with(LABEL_INDEX, label_index_func::<K>)
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
type Index = Map<String, Set<Arc<str>>>;

/// Store maps hash with foldhash: keys come from the API server, which already guarantees
/// their uniqueness, and SipHash would cost a large share of a lister `get`.
type Map<K, V> = HashMap<K, V, foldhash::fast::RandomState>;
type Set<T> = HashSet<T, foldhash::fast::RandomState>;

/// How an indexer holds its objects.
///
/// `Full` keeps every object decoded: a lister `get` is a hash lookup and a reference-count
/// increment, at the memory cost of a decoded object (tens of KB for a k8s-openapi `Pod`).
///
/// `Compact` keeps every object as LZ4-compressed JSON (about a tenth of the decoded size)
/// and only the `hot` most recently read objects decoded. In exchange, reads that miss the
/// hot set decode the object (tens of µs for a Pod), every change encodes the new object
/// and decodes the old one, and `list`/`by_index` decode what they return. Handlers are not
/// affected: they receive the decoded objects as they arrive. Suits large caches read by key
/// now and then, not controllers that list the whole cache on every reconcile.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum CacheMode {
    /// Objects kept decoded, as `Arc<K>`.
    #[default]
    Full,
    /// Objects kept compressed, with at most `hot` of them also kept decoded.
    Compact {
        /// How many recently read objects stay decoded.
        hot: usize,
    },
}

impl CacheMode {
    /// Compact storage keeping the `hot` most recently read objects decoded.
    pub fn compact(hot: usize) -> Self {
        Self::Compact { hot }
    }
}

/// One stored object.
enum Slot<K> {
    Decoded(Arc<K>),
    /// LZ4 block of the object's JSON, prefixed with its length.
    Encoded(Box<[u8]>),
}

/// Recently read objects of a compact indexer, evicted oldest first.
struct HotSet<K> {
    capacity: usize,
    objects: Map<Arc<str>, Arc<K>>,
    order: VecDeque<Arc<str>>,
}

impl<K> HotSet<K> {
    fn new(capacity: usize) -> Self {
        Self {
            capacity,
            objects: Map::default(),
            order: VecDeque::new(),
        }
    }

    fn get(&self, key: &str) -> Option<Arc<K>> {
        self.objects.get(key).cloned()
    }

    fn remember(&mut self, key: &Arc<str>, obj: &Arc<K>) {
        if self.capacity == 0 || self.objects.insert(key.clone(), obj.clone()).is_some() {
            return;
        }
        self.order.push_back(key.clone());
        while self.objects.len() > self.capacity {
            match self.order.pop_front() {
                Some(oldest) => {
                    self.objects.remove(&oldest);
                }
                None => break,
            }
        }
        // Keys forgotten by `forget` linger in `order`; drop them before it outgrows the set.
        if self.order.len() > 2 * self.capacity {
            let objects = &self.objects;
            self.order.retain(|k| objects.contains_key(k));
        }
    }

    /// Keeps a remembered object current when its key gets a new version.
    fn refresh(&mut self, key: &str, obj: &Arc<K>) {
        if let Some(held) = self.objects.get_mut(key) {
            *held = obj.clone();
        }
    }

    fn forget(&mut self, key: &str) {
        self.objects.remove(key);
    }

    fn clear(&mut self) {
        self.objects.clear();
        self.order.clear();
    }
}

struct StoreInner<K> {
    items: Map<Arc<str>, Slot<K>>,
    indexers: BTreeMap<String, IndexFunc<K>>,
    indices: HashMap<String, Index>,
    mode: CacheMode,
    /// Locked after the store's own lock, never before.
    hot: Mutex<HotSet<K>>,
}

fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}

fn encode<K: Object>(obj: &K) -> Result<Box<[u8]>, serde_json::Error> {
    let json = serde_json::to_vec(obj)?;
    Ok(lz4_flex::compress_prepend_size(&json).into_boxed_slice())
}

fn decode<K: Object>(bytes: &[u8]) -> Result<K, String> {
    let json = lz4_flex::decompress_size_prepended(bytes).map_err(|e| e.to_string())?;
    crate::json::from_slice(&json).map_err(|e| e.to_string())
}

impl<K: Object> StoreInner<K> {
    fn slot_for(&self, key: &str, obj: &Arc<K>) -> Slot<K> {
        if let CacheMode::Compact { .. } = self.mode {
            match encode(obj.as_ref()) {
                Ok(bytes) => return Slot::Encoded(bytes),
                Err(e) => {
                    tracing::warn!(key, error = %e, "compact cache: cannot encode an object; keeping it decoded")
                }
            }
        }
        Slot::Decoded(obj.clone())
    }

    /// The object in `slot`, decoded if need be; `remember` keeps it in the hot set.
    fn object(&self, key: &Arc<str>, slot: &Slot<K>, remember: bool) -> Option<Arc<K>> {
        let bytes = match slot {
            Slot::Decoded(obj) => return Some(obj.clone()),
            Slot::Encoded(bytes) => bytes,
        };
        if let Some(obj) = lock(&self.hot).get(key) {
            return Some(obj);
        }
        match decode::<K>(bytes) {
            Ok(obj) => {
                let obj = Arc::new(obj);
                if remember {
                    lock(&self.hot).remember(key, &obj);
                }
                Some(obj)
            }
            Err(e) => {
                tracing::error!(key = %key, error = %e, "compact cache: cannot decode a cached object");
                None
            }
        }
    }

    fn get(&self, key: &str, remember: bool) -> Option<Arc<K>> {
        let (key, slot) = self.items.get_key_value(key)?;
        self.object(key, slot, remember)
    }

    /// Moves `key` in every index from `old`'s values (`None`: unknown, the object could
    /// not be decoded) to `new`'s. An index whose values did not change is left alone, as
    /// for most updates (labels and namespace rarely change).
    fn reindex(&mut self, key: &Arc<str>, old: Option<Option<&K>>, new: Option<&K>) {
        let StoreInner {
            indexers, indices, ..
        } = self;
        for (name, func) in indexers.iter() {
            let Some(index) = indices.get_mut(name) else {
                continue;
            };
            let old_values = match old {
                Some(Some(old)) => Some(func(old)),
                Some(None) => {
                    // Without the object its index values are unknown: search them all.
                    index.retain(|_, keys| {
                        keys.remove(key);
                        !keys.is_empty()
                    });
                    None
                }
                None => None,
            };
            let new_values = new.map(|new| func(new));
            if old_values.is_some() && old_values == new_values {
                continue;
            }
            for value in old_values.into_iter().flatten() {
                if let Some(keys) = index.get_mut(&value) {
                    keys.remove(key);
                    if keys.is_empty() {
                        index.remove(&value);
                    }
                }
            }
            for value in new_values.into_iter().flatten() {
                index.entry(value).or_default().insert(key.clone());
            }
        }
    }

    /// Takes `key`'s object out of the store (not out of the indices).
    fn take_slot(&mut self, key: &str) -> Option<(Arc<str>, Option<Arc<K>>)> {
        let (key, slot) = self.items.remove_entry(key)?;
        let old = self.object(&key, &slot, false);
        if let Slot::Encoded(_) = slot {
            lock(&self.hot).forget(&key);
        }
        Some((key, old))
    }

    /// Takes `key`'s object out of the store and the indices.
    fn take(&mut self, key: &str) -> Option<(Arc<str>, Option<Arc<K>>)> {
        let (key, old) = self.take_slot(key)?;
        self.reindex(&key, Some(old.as_deref()), None);
        Some((key, old))
    }

    /// Stores `obj` under `key`, replacing and returning what was there.
    fn put(&mut self, key: &str, obj: &Arc<K>) -> Option<Arc<K>> {
        let (key, old) = match self.take_slot(key) {
            Some((key, old)) => (key, Some(old)),
            None => (Arc::<str>::from(key), None),
        };
        self.reindex(&key, old.as_ref().map(Option::as_deref), Some(obj));
        let slot = self.slot_for(&key, obj);
        if let Slot::Encoded(_) = slot {
            lock(&self.hot).refresh(&key, obj);
        }
        self.items.insert(key, slot);
        old.flatten()
    }
}

/// A thread-safe, indexed map of objects keyed `namespace/name` (or `name`), held as
/// `Arc<K>` or compactly (see [`CacheMode`]). Cheap to clone; clones share the same data.
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
            .field("mode", &inner.mode)
            .finish()
    }
}

impl<K: Object> Indexer<K> {
    /// An empty store with `indexers`, holding objects decoded.
    pub fn new(indexers: Indexers<K>) -> Self {
        let indices = indexers
            .funcs
            .keys()
            .map(|name| (name.clone(), Index::default()))
            .collect();
        Self {
            inner: Arc::new(RwLock::new(StoreInner {
                items: Map::default(),
                indexers: indexers.funcs,
                indices,
                mode: CacheMode::Full,
                hot: Mutex::new(HotSet::new(0)),
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

    /// How objects are held.
    pub fn cache_mode(&self) -> CacheMode {
        self.read().mode
    }

    /// Chooses how objects are held. Fails, changing nothing, once the store holds objects.
    pub fn set_cache_mode(&self, mode: CacheMode) -> Result<(), Error> {
        let mut inner = self.write();
        if !inner.items.is_empty() {
            return Err(Error::other(
                crate::error::ErrorKind::InvalidState,
                "set_cache_mode",
                format!("the indexer already holds {} objects", inner.items.len()),
            ));
        }
        let hot = match mode {
            CacheMode::Full => 0,
            CacheMode::Compact { hot } => hot,
        };
        inner.mode = mode;
        inner.hot = Mutex::new(HotSet::new(hot));
        Ok(())
    }

    /// The object stored under `key`.
    pub fn get_by_key(&self, key: &str) -> Option<Arc<K>> {
        self.read().get(key, true)
    }

    /// The stored object with the same key as `obj`.
    pub fn get(&self, obj: &K) -> Option<Arc<K>> {
        self.get_by_key(&object_key(obj))
    }

    /// Every stored object, in no particular order.
    pub fn list(&self) -> Vec<Arc<K>> {
        let inner = self.read();
        inner
            .items
            .iter()
            .filter_map(|(k, slot)| inner.object(k, slot, false))
            .collect()
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
            .map(|keys| keys.iter().filter_map(|k| inner.get(k, false)).collect())
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
            .filter_map(|k| inner.get(k, false))
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
            return Err(Error::other(
                crate::error::ErrorKind::InvalidState,
                "add_indexers",
                format!("an index named {dup:?} already exists"),
            ));
        }
        for (name, func) in indexers.funcs {
            let mut index = Index::default();
            for (key, slot) in &inner.items {
                if let Some(obj) = inner.object(key, slot, false) {
                    for value in func(&obj) {
                        index.entry(value).or_default().insert(key.clone());
                    }
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
        self.write().put(&key, &obj)
    }

    /// Removes and returns the object stored under `key`.
    pub fn remove(&self, key: &str) -> Option<Arc<K>> {
        self.write().take(key).and_then(|(_, old)| old)
    }

    /// Replaces the whole content with `objs`.
    pub fn replace(&self, objs: impl IntoIterator<Item = Arc<K>>) {
        let mut inner = self.write();
        inner.items.clear();
        for index in inner.indices.values_mut() {
            index.clear();
        }
        lock(&inner.hot).clear();
        for obj in objs {
            inner.put(&object_key(obj.as_ref()), &obj);
        }
    }
}

fn unknown_index(name: &str) -> Error {
    Error::other(
        crate::error::ErrorKind::NotFound,
        format!("index {name:?}"),
        "does not exist in this indexer",
    )
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

    fn with_mode(mode: CacheMode) -> Indexer<ConfigMap> {
        let s = Indexer::new(Indexers::standard().with("app", app_index));
        s.set_cache_mode(mode).unwrap();
        s
    }

    #[test]
    fn compact_mode_reads_and_indexes_like_full_mode() {
        for mode in [
            CacheMode::Full,
            CacheMode::compact(0),
            CacheMode::compact(2),
        ] {
            let s = with_mode(mode);
            assert_eq!(s.cache_mode(), mode);
            for i in 0..10 {
                s.insert(cm(
                    if i % 2 == 0 { "a" } else { "b" },
                    &format!("x{i}"),
                    "web",
                ));
            }
            s.insert(cm("", "cluster", "db"));
            let old = s.insert(cm("a", "x0", "db")).unwrap();
            assert_eq!(app_index(&old), vec!["web"], "{mode:?}");
            assert_eq!(
                s.get_by_key("a/x0").unwrap(),
                cm("a", "x0", "db"),
                "{mode:?}"
            );
            assert_eq!(
                s.get_by_key("a/x0").unwrap(),
                cm("a", "x0", "db"),
                "{mode:?}"
            );
            assert_eq!(s.by_index("app", "web").unwrap().len(), 9, "{mode:?}");
            assert_eq!(
                s.by_index(LABEL_INDEX, "app=db").unwrap().len(),
                2,
                "{mode:?}"
            );
            assert_eq!(
                s.by_index(NAMESPACE_INDEX, "a").unwrap().len(),
                5,
                "{mode:?}"
            );
            assert_eq!(s.remove("b/x1").unwrap(), cm("b", "x1", "web"), "{mode:?}");
            assert!(s.get_by_key("b/x1").is_none(), "{mode:?}");
            assert_eq!(s.list().len(), 10, "{mode:?}");
            s.add_indexers(Indexers::new().with("again", app_index))
                .unwrap();
            assert_eq!(s.by_index("again", "db").unwrap().len(), 2, "{mode:?}");
            s.replace([cm("c", "y", "web")]);
            assert_eq!(s.list(), vec![cm("c", "y", "web")], "{mode:?}");
            assert!(s.get_by_key("a/x0").is_none(), "{mode:?}");
            assert!(s.by_index("app", "db").unwrap().is_empty(), "{mode:?}");
        }
    }

    #[test]
    fn the_hot_set_stays_bounded_and_current() {
        let s = with_mode(CacheMode::compact(2));
        for i in 0..5 {
            s.insert(cm("a", &format!("x{i}"), "web"));
        }
        for _ in 0..3 {
            for i in 0..5 {
                assert!(s.get_by_key(&format!("a/x{i}")).is_some());
            }
        }
        let held = s.read().hot.lock().unwrap().objects.len();
        assert!(held <= 2, "{held} decoded objects held");
        let order = s.read().hot.lock().unwrap().order.len();
        assert!(order <= 4, "{order} keys in the eviction order");
        let before = s.get_by_key("a/x4").unwrap();
        s.insert(cm("a", "x4", "db"));
        let after = s.get_by_key("a/x4").unwrap();
        assert_ne!(before, after);
        assert_eq!(app_index(&after), vec!["db"]);
    }

    #[test]
    fn the_cache_mode_is_chosen_while_empty() {
        let s = with_mode(CacheMode::Full);
        s.insert(cm("a", "x", "web"));
        let err = s.set_cache_mode(CacheMode::compact(8)).unwrap_err();
        assert!(err.to_string().contains("1 objects"), "{err}");
        assert_eq!(s.cache_mode(), CacheMode::Full);
    }
}
