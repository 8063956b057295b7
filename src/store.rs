//! The indexed, thread-safe store informers cache into (client-go's `cache.Indexer`).
//!
//! Objects are held under their `object_key`, as `Arc<K>` or compressed (see [`CacheMode`]).
//! Every index maps an index value to the set of keys whose objects produce it, so
//! `by_index` costs time proportional to the result, not to the size of the store.
//!
//! Reads by key must not wait on the informer writing: objects are spread over shards,
//! each behind its own lock on its own cache line, and a write holds one shard only for a
//! map operation. Measured in the bench's listers section against one lock and against a
//! read-copy-update snapshot (readers lock nothing, writers copy a shard): sharding keeps a
//! reader's cost near idle like the snapshot does, without copying on every write.

use std::collections::{BTreeMap, HashMap, HashSet, VecDeque};
use std::hash::BuildHasher;
use std::sync::{Arc, Mutex, MutexGuard, RwLock, RwLockReadGuard, RwLockWriteGuard};

use tokio::sync::watch;

use crate::error::Error;
use crate::object::{object_key, Meta as _, Object};

/// The name of the default index: objects by namespace.
pub const NAMESPACE_INDEX: &str = "namespace";

/// The name of the label index: objects by each of their labels, as `key=value`. Lister
/// label selectors use it to visit only the objects an equality requirement can match.
pub const LABEL_INDEX: &str = "labels";

/// Computes the index values of an object (client-go's `IndexFunc`).
pub type IndexFunc<K> = Arc<dyn Fn(&K) -> Vec<String> + Send + Sync>;

/// Named index functions (client-go's `cache.Indexers`).
pub struct Indexers<K> {
    funcs: BTreeMap<String, IndexFn<K>>,
}

/// An index function as the store runs it. The two every generated informer has are known
/// to the store, which then moves an object between index values without building them:
/// on an update it compares the old and new namespace or labels, and on an insert it
/// visits the labels through one reused buffer. Allocating and comparing their `Vec<String>`
/// was a visible share of every watch event.
enum IndexFn<K> {
    /// [`namespace_index_func`].
    Namespace,
    /// [`label_index_func`].
    Labels,
    /// A function given to [`Indexers::with`].
    Custom(IndexFunc<K>),
}

impl<K> Clone for IndexFn<K> {
    fn clone(&self) -> Self {
        match self {
            IndexFn::Namespace => IndexFn::Namespace,
            IndexFn::Labels => IndexFn::Labels,
            IndexFn::Custom(f) => IndexFn::Custom(f.clone()),
        }
    }
}

impl<K: Object> IndexFn<K> {
    /// The object's index values.
    fn values(&self, obj: &K) -> Vec<String> {
        match self {
            IndexFn::Namespace => namespace_index_func(obj),
            IndexFn::Labels => label_index_func(obj),
            IndexFn::Custom(f) => f(obj),
        }
    }

    /// True when `old` and `new` have the same values of a built-in index, seen without
    /// building them; false for a custom one.
    fn same_values(&self, old: &K, new: &K) -> bool {
        let (old, new) = (old.meta(), new.meta());
        match self {
            IndexFn::Namespace => old.namespace() == new.namespace(),
            IndexFn::Labels => old.labels() == new.labels(),
            IndexFn::Custom(_) => false,
        }
    }

    /// Calls `f` with each of the object's index values.
    fn each_value(&self, obj: &K, mut f: impl FnMut(&str)) {
        match self {
            IndexFn::Namespace => namespace_value(obj).into_iter().for_each(f),
            IndexFn::Labels => each_label_value(obj, f),
            IndexFn::Custom(func) => func(obj).iter().for_each(|v| f(v)),
        }
    }
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
    namespace_value(obj)
        .map(str::to_owned)
        .into_iter()
        .collect()
}

/// Every label of an object as `key=value`.
pub fn label_index_func<K: Object>(obj: &K) -> Vec<String> {
    let mut values = Vec::new();
    each_label_value(obj, |value| values.push(value.to_owned()));
    values
}

/// The object's value of the namespace index: its namespace, unless it has none.
fn namespace_value<K: Object>(obj: &K) -> Option<&str> {
    obj.meta().namespace().filter(|ns| !ns.is_empty())
}

/// Calls `f` with each of the object's label index values, `key=value`, built in one
/// reused buffer.
fn each_label_value<K: Object>(obj: &K, mut f: impl FnMut(&str)) {
    let mut value = String::new();
    for (k, v) in obj.meta().labels().iter() {
        value.clear();
        value.push_str(k);
        value.push('=');
        value.push_str(v);
        f(&value);
    }
}

impl<K: Object> Indexers<K> {
    /// No indexers.
    pub fn new() -> Self {
        Self::default()
    }

    /// Only the `namespace` index (what generated informers use by default).
    pub fn namespace() -> Self {
        let mut indexers = Self::new();
        indexers
            .funcs
            .insert(NAMESPACE_INDEX.to_owned(), IndexFn::Namespace);
        indexers
    }

    /// The `namespace` and `labels` indexes (what generated informers use by default): lister
    /// reads by namespace and by label selector cost time proportional to their result.
    pub fn standard() -> Self {
        let mut indexers = Self::namespace();
        indexers
            .funcs
            .insert(LABEL_INDEX.to_owned(), IndexFn::Labels);
        indexers
    }

    /// Adds (or replaces) the index `name`.
    pub fn with(
        mut self,
        name: &str,
        func: impl Fn(&K) -> Vec<String> + Send + Sync + 'static,
    ) -> Self {
        self.funcs
            .insert(name.to_owned(), IndexFn::Custom(Arc::new(func)));
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
#[derive(Default)]
struct Index(Map<Box<str>, Keys>);

/// The keys of the objects that produce one index value. Many values are produced by a
/// single object (a label naming the pod or its revision), so one key is held inline and a
/// set is allocated only for a second: a label index then costs about a third less per
/// object.
enum Keys {
    One(Arc<str>),
    Many(Box<Set<Arc<str>>>),
}

impl Keys {
    fn iter(&self) -> impl Iterator<Item = &Arc<str>> {
        let (one, many) = match self {
            Keys::One(key) => (Some(key), None),
            Keys::Many(keys) => (None, Some(keys.iter())),
        };
        one.into_iter().chain(many.into_iter().flatten())
    }

    #[cfg(test)]
    fn contains(&self, key: &str) -> bool {
        match self {
            Keys::One(one) => **one == *key,
            Keys::Many(keys) => keys.contains(key),
        }
    }

    fn insert(&mut self, key: &Arc<str>) {
        match self {
            Keys::One(one) if *one == *key => {}
            Keys::One(one) => {
                let mut keys = Set::default();
                keys.insert(one.clone());
                keys.insert(key.clone());
                *self = Keys::Many(Box::new(keys));
            }
            Keys::Many(keys) => {
                keys.insert(key.clone());
            }
        }
    }

    /// Removes `key`; true when no key is left.
    fn remove(&mut self, key: &str) -> bool {
        match self {
            Keys::One(one) => **one == *key,
            Keys::Many(keys) => {
                keys.remove(key);
                keys.is_empty()
            }
        }
    }
}

impl Index {
    fn get(&self, value: &str) -> Option<&Keys> {
        self.0.get(value)
    }

    fn insert(&mut self, value: &str, key: &Arc<str>) {
        match self.0.get_mut(value) {
            Some(keys) => keys.insert(key),
            None => {
                self.0.insert(value.into(), Keys::One(key.clone()));
            }
        }
    }

    fn remove(&mut self, value: &str, key: &str) {
        if self.0.get_mut(value).is_some_and(|keys| keys.remove(key)) {
            self.0.remove(value);
        }
    }

    /// Moves `key` from the `old` values (`None`: not indexed under any) to the `new` ones
    /// (`None`: removed), leaving it alone when they are the same.
    fn move_key(&mut self, key: &Arc<str>, old: Option<Vec<String>>, new: Option<Vec<String>>) {
        if old.is_some() && old == new {
            return;
        }
        for value in old.iter().flatten() {
            self.remove(value, key);
        }
        for value in new.iter().flatten() {
            self.insert(value, key);
        }
    }

    /// Removes `key` under every value (when its values are unknown).
    fn remove_everywhere(&mut self, key: &str) {
        self.0.retain(|_, keys| !keys.remove(key));
    }

    fn values(&self) -> impl Iterator<Item = &str> {
        self.0.keys().map(|v| &**v)
    }

    #[cfg(test)]
    fn iter(&self) -> impl Iterator<Item = (&str, &Keys)> {
        self.0.iter().map(|(v, keys)| (&**v, keys))
    }

    fn clear(&mut self) {
        self.0.clear();
    }
}

/// Store maps hash with foldhash: keys come from the API server, which already guarantees
/// their uniqueness, and SipHash would cost a large share of a lister `get`.
type Map<K, V> = HashMap<K, V, foldhash::fast::RandomState>;
type Set<T> = HashSet<T, foldhash::fast::RandomState>;

/// How an indexer holds its objects.
///
/// `Full` keeps every object decoded: a lister `get` is a hash lookup and a reference-count
/// increment, at the memory cost of a decoded object (tens of KB for a k8s-openapi `Pod`).
///
/// `Compact` (with the `compact` feature) keeps every object as LZ4-compressed JSON (about a
/// tenth of the decoded size) and only the `hot` most recently read objects decoded. In exchange, reads that miss the
/// hot set decode the object (tens of µs for a Pod), every change encodes the new object
/// and decodes the old one, and `list`/`by_index` decode what they return. Handlers are not
/// affected: they receive the decoded objects as they arrive. Suits large caches read by key
/// now and then, not controllers that list the whole cache on every reconcile.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[non_exhaustive]
pub enum CacheMode {
    /// Objects kept decoded, as `Arc<K>`.
    #[default]
    Full,
    /// Objects kept compressed, with at most `hot` of them also kept decoded.
    #[cfg(feature = "compact")]
    #[cfg_attr(docsrs, doc(cfg(feature = "compact")))]
    Compact {
        /// How many recently read objects stay decoded.
        hot: usize,
    },
}

impl CacheMode {
    /// Compact storage keeping the `hot` most recently read objects decoded.
    #[cfg(feature = "compact")]
    #[cfg_attr(docsrs, doc(cfg(feature = "compact")))]
    pub fn compact(hot: usize) -> Self {
        Self::Compact { hot }
    }
}

/// One stored object.
enum Slot<K> {
    Decoded(Arc<K>),
    /// LZ4 block of the object's JSON, prefixed with its length.
    #[cfg(feature = "compact")]
    Encoded(Box<[u8]>),
}

impl<K> Slot<K> {
    fn is_encoded(&self) -> bool {
        match self {
            Slot::Decoded(_) => false,
            #[cfg(feature = "compact")]
            Slot::Encoded(_) => true,
        }
    }
}

/// Recently read objects of a compact indexer, evicted oldest first.
struct HotSet<K> {
    // Only remembering an object reads it, and only compact caches remember objects.
    #[cfg_attr(not(feature = "compact"), allow(dead_code))]
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

    /// Keeps `obj` decoded, and returns what that evicted. The caller drops it after
    /// releasing the lock, which every compact read takes: freeing an object decoded long
    /// ago (for a Pod, a hundred allocations gone cold in the CPU caches) costs a good part
    /// of what decoding one does.
    #[must_use]
    #[cfg(feature = "compact")]
    fn remember(&mut self, key: &Arc<str>, obj: &Arc<K>) -> Option<Arc<K>> {
        if self.capacity == 0 || self.objects.insert(key.clone(), obj.clone()).is_some() {
            return None;
        }
        self.order.push_back(key.clone());
        // One insert evicts one object at most; keys forgotten since are passed over.
        let mut evicted = None;
        while self.objects.len() > self.capacity {
            match self.order.pop_front() {
                Some(oldest) => evicted = self.objects.remove(&oldest),
                None => break,
            }
        }
        // Keys forgotten by `forget` linger in `order`; drop them before it outgrows the set.
        if self.order.len() > 2 * self.capacity {
            let objects = &self.objects;
            self.order.retain(|k| objects.contains_key(k));
        }
        evicted
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

/// Objects by key are spread over this many shards, each behind its own lock, so readers
/// touch one shard's lock (not one lock word shared by every reader of the store) and a
/// write holds up only the readers of the one shard it changes, for the few µs of a map
/// insert.
const SHARDS: usize = 64;

/// Picks a key's shard. A seed of its own: the shard maps hash with their own states, and
/// sharing bits with them would crowd each shard's keys into few buckets.
const SHARD_HASH: foldhash::fast::FixedState = foldhash::fast::FixedState::with_seed(0x5eed_5a4d);

type Items<K> = Map<Arc<str>, Slot<K>>;

/// The map half of one change of a batch write.
enum Done<K> {
    /// Stored; what it replaced.
    Put(SlotChange<K, Option<Slot<K>>>),
    /// Removed, if it was there.
    Taken(Option<SlotChange<K, Slot<K>>>),
}

/// What a map operation on a shard replaced or removed: the key as held, the slot `S`
/// and the hot set's decoded copy of its object.
type SlotChange<K, S> = (Arc<str>, S, Option<Arc<K>>);

/// One shard of the objects, on its own cache line so readers of neighbouring shards do
/// not invalidate each other's lock word.
#[repr(align(64))]
struct Shard<K> {
    items: RwLock<Items<K>>,
}

/// What changes only under the store-wide lock: the indexes and how objects are held.
struct Indexing<K> {
    indexers: BTreeMap<String, IndexFn<K>>,
    indices: HashMap<String, Index>,
    mode: CacheMode,
}

/// The store. Lock order: `meta`, then shards in ascending order, then `hot`.
///
/// Every write holds `meta` for writing for its whole change (object and indexes), and takes
/// the one shard it changes only for the map operation. So a reader that holds `meta` (lists,
/// index reads) sees the objects and the indexes of one state, and a `get`, which takes only
/// its key's shard, never waits for index maintenance, decoding or other shards' writes.
struct Shared<K> {
    meta: RwLock<Indexing<K>>,
    shards: Box<[Shard<K>]>,
    hot: Mutex<HotSet<K>>,
    /// The resourceVersion the content is current at, announced to waiters.
    resource_version: watch::Sender<Arc<str>>,
}

fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}

// A panicking index function poisons a lock; the maps stay structurally valid, so later
// readers and writers go on rather than propagating the panic.
fn read<T>(l: &RwLock<T>) -> RwLockReadGuard<'_, T> {
    l.read().unwrap_or_else(|e| e.into_inner())
}

fn write<T>(l: &RwLock<T>) -> RwLockWriteGuard<'_, T> {
    l.write().unwrap_or_else(|e| e.into_inner())
}

// Behind a feature: the encoder is the only user of `K: Serialize` on an informer's path, and
// it would otherwise be compiled into every binary for every resource it watches (for a Pod,
// a sixth of an app's code), whether or not a cache is ever compact.
#[cfg(feature = "compact")]
fn encode<K: Object>(obj: &K) -> Result<Box<[u8]>, serde_json::Error> {
    let json = serde_json::to_vec(obj)?;
    Ok(lz4_flex::compress_prepend_size(&json).into_boxed_slice())
}

#[cfg(feature = "compact")]
fn decode<K: Object>(bytes: &[u8]) -> Result<K, String> {
    informer_client::json::from_lz4_block(bytes)
}

impl<K: Object> Shared<K> {
    fn shard(&self, key: &str) -> &Shard<K> {
        &self.shards[self.shard_index(key)]
    }

    /// The object in `slot`, decoded if need be; `remember` keeps it in the hot set.
    // Without the `compact` feature every slot is decoded, and what finds or makes an
    // encoded one goes unused.
    #[cfg_attr(not(feature = "compact"), allow(unused_variables))]
    fn object(&self, key: &Arc<str>, slot: &Slot<K>, remember: bool) -> Option<Arc<K>> {
        match slot {
            Slot::Decoded(obj) => Some(obj.clone()),
            #[cfg(feature = "compact")]
            Slot::Encoded(bytes) => self.decoded(key, bytes, remember),
        }
    }

    /// The object encoded as `bytes`, from the hot set when it is there.
    #[cfg(feature = "compact")]
    fn decoded(&self, key: &Arc<str>, bytes: &[u8], remember: bool) -> Option<Arc<K>> {
        if let Some(obj) = lock(&self.hot).get(key) {
            return Some(obj);
        }
        match decode::<K>(bytes) {
            Ok(obj) => {
                let obj = Arc::new(obj);
                if remember {
                    let evicted = lock(&self.hot).remember(key, &obj);
                    drop(evicted);
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
        let items = read(&self.shard(key).items);
        let (key, slot) = items.get_key_value(key)?;
        self.object(key, slot, remember)
    }

    // Without the `compact` feature every slot is decoded, and what finds or makes an
    // encoded one goes unused.
    #[cfg_attr(not(feature = "compact"), allow(unused_variables))]
    fn slot_for(&self, mode: CacheMode, key: &str, obj: &Arc<K>) -> Slot<K> {
        #[cfg(feature = "compact")]
        if let CacheMode::Compact { .. } = mode {
            match encode(obj.as_ref()) {
                Ok(bytes) => return Slot::Encoded(bytes),
                Err(e) => {
                    tracing::warn!(key, error = %e, "compact cache: cannot encode an object; keeping it decoded")
                }
            }
        }
        Slot::Decoded(obj.clone())
    }

    /// Brings the hot set in line with `key` now holding `new` (`None`: removed), and
    /// returns the decoded old object it held. Called under the key's shard write lock: a
    /// reader decodes and remembers only under that shard's read lock, so no reader can
    /// put back an older object for the key afterwards.
    fn rehot(&self, key: &str, old: Option<&Slot<K>>, new: Option<&Arc<K>>) -> Option<Arc<K>> {
        if !old.is_some_and(Slot::is_encoded) && new.is_none() {
            return None;
        }
        let mut hot = lock(&self.hot);
        let held = hot.get(key);
        match new {
            Some(new) => hot.refresh(key, new),
            None => hot.forget(key),
        }
        held
    }

    /// The object of a slot taken out of the store, from the hot set's copy when it had one.
    // Without the `compact` feature every slot is decoded, and what finds or makes an
    // encoded one goes unused.
    #[cfg_attr(not(feature = "compact"), allow(unused_variables))]
    fn taken(&self, key: &Arc<str>, slot: Slot<K>, hot: Option<Arc<K>>) -> Option<Arc<K>> {
        match slot {
            Slot::Decoded(obj) => Some(obj),
            #[cfg(feature = "compact")]
            Slot::Encoded(bytes) => hot.or_else(|| match decode::<K>(&bytes) {
                Ok(obj) => Some(Arc::new(obj)),
                Err(e) => {
                    tracing::error!(key = %key, error = %e, "compact cache: cannot decode a cached object");
                    None
                }
            }),
        }
    }

    /// Stores `obj` under `key`, replacing and returning what was there. The caller holds
    /// `meta` for writing; readers see the old object or the new one, never neither.
    fn put(&self, meta: &mut Indexing<K>, key: &str, obj: &Arc<K>) -> Option<Arc<K>> {
        let slot = self.slot_for(meta.mode, key, obj);
        let (key, old, hot) = self.put_slot(&mut write(&self.shard(key).items), key, slot, obj);
        self.reindex_put(meta, &key, old, hot, obj)
    }

    /// The map half of a put, under the key's shard write lock: the key as held, the slot
    /// replaced and the hot set's copy of its object.
    fn put_slot(
        &self,
        items: &mut Items<K>,
        key: &str,
        slot: Slot<K>,
        obj: &Arc<K>,
    ) -> SlotChange<K, Option<Slot<K>>> {
        let compact = slot.is_encoded();
        let (key, old) = match items.get_key_value(key).map(|(k, _)| k.clone()) {
            // The key already held keeps serving the indexes that name it.
            Some(held) => {
                let old = items.insert(held.clone(), slot);
                (held, old)
            }
            None => {
                let key = Arc::<str>::from(key);
                items.insert(key.clone(), slot);
                (key, None)
            }
        };
        let hot = if compact || old.as_ref().is_some_and(Slot::is_encoded) {
            self.rehot(&key, old.as_ref(), Some(obj))
        } else {
            None
        };
        (key, old, hot)
    }

    /// The index half of a put (decoding the old object if it was held encoded); returns
    /// the old object.
    fn reindex_put(
        &self,
        meta: &mut Indexing<K>,
        key: &Arc<str>,
        old: Option<Slot<K>>,
        hot: Option<Arc<K>>,
        obj: &Arc<K>,
    ) -> Option<Arc<K>> {
        let old = old.map(|slot| self.taken(key, slot, hot));
        meta.reindex(key, old.as_ref().map(Option::as_deref), Some(obj));
        old.flatten()
    }

    /// Takes `key`'s object out of the store and the indexes. The caller holds `meta` for
    /// writing.
    fn take(&self, meta: &mut Indexing<K>, key: &str) -> Option<Arc<K>> {
        let (key, slot, hot) = self.take_slot(&mut write(&self.shard(key).items), key)?;
        self.reindex_take(meta, &key, slot, hot)
    }

    /// The map half of a take, under the key's shard write lock.
    fn take_slot(&self, items: &mut Items<K>, key: &str) -> Option<SlotChange<K, Slot<K>>> {
        let (key, slot) = items.remove_entry(key)?;
        let hot = self.rehot(&key, Some(&slot), None);
        Some((key, slot, hot))
    }

    /// The index half of a take; returns the object taken.
    fn reindex_take(
        &self,
        meta: &mut Indexing<K>,
        key: &Arc<str>,
        slot: Slot<K>,
        hot: Option<Arc<K>>,
    ) -> Option<Arc<K>> {
        let old = self.taken(key, slot, hot);
        meta.reindex(key, Some(old.as_deref()), None);
        old
    }

    fn shard_index(&self, key: &str) -> usize {
        (SHARD_HASH.hash_one(key) as usize) % self.shards.len()
    }

    /// The number of objects (the caller holds `meta`, so no write is under way).
    fn count(&self) -> usize {
        self.shards.iter().map(|s| read(&s.items).len()).sum()
    }

    /// Every shard's items, read-locked in order (the caller holds `meta`).
    fn read_all(&self) -> Vec<RwLockReadGuard<'_, Items<K>>> {
        self.shards.iter().map(|s| read(&s.items)).collect()
    }
}

impl<K: Object> Indexing<K> {
    /// Moves `key` in every index from `old`'s values (`None`: unknown, the object could
    /// not be decoded) to `new`'s. An index whose values did not change is left alone, as
    /// for most updates (labels and namespace rarely change).
    fn reindex(&mut self, key: &Arc<str>, old: Option<Option<&K>>, new: Option<&K>) {
        let Indexing {
            indexers, indices, ..
        } = self;
        for (name, func) in indexers.iter() {
            let Some(index) = indices.get_mut(name) else {
                continue;
            };
            let old = match old {
                Some(Some(old)) => Some(old),
                Some(None) => {
                    // Without the object its index values are unknown: search them all.
                    index.remove_everywhere(key);
                    None
                }
                None => None,
            };
            if let IndexFn::Custom(func) = func {
                index.move_key(key, old.map(|old| func(old)), new.map(|new| func(new)));
                continue;
            }
            if let (Some(old), Some(new)) = (old, new) {
                if func.same_values(old, new) {
                    continue;
                }
            }
            if let Some(old) = old {
                func.each_value(old, |value| index.remove(value, key));
            }
            if let Some(new) = new {
                func.each_value(new, |value| index.insert(value, key));
            }
        }
    }
}

/// The read side of a thread-safe, indexed map of objects keyed `namespace/name` (or
/// `name`), held as `Arc<K>` or compactly (see [`CacheMode`]). Cheap to clone; clones
/// share the same data.
///
/// Read-only: only the [`StoreWriter`] made with it changes the contents, and an
/// informer keeps its writer to itself, so every change to its cache reaches its
/// handlers (kube-runtime's `Store` and `Writer`).
///
/// Reads by key do not wait on writes elsewhere in the store: objects are sharded, each
/// shard behind its own lock, held by a write only for one map operation. Reads of many
/// objects (`list`, `by_index`, ...) see one consistent state: every object an index names
/// is there, and every object is in the indexes its values put it in.
pub struct Indexer<K> {
    inner: Arc<Shared<K>>,
}

impl<K> Clone for Indexer<K> {
    fn clone(&self) -> Self {
        Self {
            inner: self.inner.clone(),
        }
    }
}

impl<K: Object> std::fmt::Debug for Indexer<K> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let meta = read(&self.inner.meta);
        f.debug_struct("Indexer")
            .field("len", &self.inner.count())
            .field("indexers", &meta.indexers.keys().collect::<Vec<_>>())
            .field("mode", &meta.mode)
            .finish()
    }
}

/// An empty store with `indexers`, holding objects decoded: its read side, for listers
/// and readers, and its only writer (kube-runtime's `reflector::store()`).
///
/// ```
/// use std::sync::Arc;
/// use informer_runtime::store::{store, Indexers};
/// use informer_runtime::{Lister, Selector};
/// use k8s_openapi::api::core::v1::ConfigMap;
/// use k8s_openapi::apimachinery::pkg::apis::meta::v1::ObjectMeta;
///
/// let (reader, mut writer) = store::<ConfigMap>(Indexers::namespace());
/// writer.insert(Arc::new(ConfigMap {
///     metadata: ObjectMeta { namespace: Some("a".into()), name: Some("cm".into()), ..Default::default() },
///     ..Default::default()
/// }));
/// let lister = Lister::new(reader);
/// assert_eq!(lister.namespaced("a").list(&Selector::everything()).len(), 1);
/// ```
pub fn store<K: Object>(indexers: Indexers<K>) -> (Indexer<K>, StoreWriter<K>) {
    store_with_mode(indexers, CacheMode::Full)
}

/// A store holding its objects as `mode` says, from the start.
pub(crate) fn store_with_mode<K: Object>(
    indexers: Indexers<K>,
    mode: CacheMode,
) -> (Indexer<K>, StoreWriter<K>) {
    let reader = Indexer::new(indexers, mode);
    let writer = StoreWriter {
        store: reader.clone(),
    };
    (reader, writer)
}

/// The only writer of a store made by [`store`]; not `Clone`, so one owner changes the
/// contents. Writes go through it; reads through its [`Indexer`].
pub struct StoreWriter<K> {
    store: Indexer<K>,
}

impl<K: Object> std::fmt::Debug for StoreWriter<K> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("StoreWriter")
            .field("store", &self.store)
            .finish()
    }
}

impl<K: Object> StoreWriter<K> {
    /// The read side of this writer's store.
    pub fn reader(&self) -> Indexer<K> {
        self.store.clone()
    }

    /// Reads of the store, without a clone of its handle.
    pub(crate) fn store(&self) -> &Indexer<K> {
        &self.store
    }

    /// Chooses how objects are held. Fails, changing nothing, once the store holds objects.
    pub fn set_cache_mode(&mut self, mode: CacheMode) -> Result<(), Error> {
        self.store.set_cache_mode(mode)
    }

    /// Stores `obj` under its key, replacing and returning the previous object.
    pub fn insert(&mut self, obj: Arc<K>) -> Option<Arc<K>> {
        let key = object_key(obj.as_ref());
        self.insert_with_key(key, obj)
    }

    /// Stores `obj` under `key`, replacing and returning the previous object.
    pub fn insert_with_key(&mut self, key: String, obj: Arc<K>) -> Option<Arc<K>> {
        let shared = &self.store.inner;
        let mut meta = write(&shared.meta);
        shared.put(&mut meta, &key, &obj)
    }

    /// Removes and returns the object stored under `key`.
    pub fn remove(&mut self, key: &str) -> Option<Arc<K>> {
        let shared = &self.store.inner;
        let mut meta = write(&shared.meta);
        shared.take(&mut meta, key)
    }

    /// Applies every change in `changes` (an object to store under its key, or `None` to
    /// remove the key) in order, as one write: readers see the store as it was before all
    /// of them or after all of them, never in between (client-go's atomic `Replace` of
    /// KEP-5647, for the changes a relist found). Returns what each change replaced or
    /// removed, in the same order.
    pub(crate) fn apply_all(
        &mut self,
        changes: &[(String, Option<Arc<K>>)],
    ) -> Vec<Option<Arc<K>>> {
        if changes.is_empty() {
            return Vec::new();
        }
        let shared = &self.store.inner;
        // Encoded before any lock is taken: the mode changes only through this writer.
        let mode = read(&shared.meta).mode;
        let slots: Vec<Option<Slot<K>>> = changes
            .iter()
            .map(|(key, change)| change.as_ref().map(|obj| shared.slot_for(mode, key, obj)))
            .collect();
        let mut meta = write(&shared.meta);
        let done: Vec<Done<K>> = {
            // Every shard, not only the ones changed: a reader of two keys must not see one
            // before the write and the other after it.
            let mut shards: Vec<RwLockWriteGuard<'_, Items<K>>> =
                shared.shards.iter().map(|s| write(&s.items)).collect();
            changes
                .iter()
                .zip(slots)
                .map(|((key, change), slot)| {
                    let items = &mut shards[shared.shard_index(key)];
                    match (change, slot) {
                        (Some(obj), Some(slot)) => {
                            Done::Put(shared.put_slot(items, key, slot, obj))
                        }
                        _ => Done::Taken(shared.take_slot(items, key)),
                    }
                })
                .collect()
        };
        // The indexes follow under `meta` alone, which every reader of more than one key
        // holds; old objects held encoded are decoded here, outside the shard locks.
        changes
            .iter()
            .zip(done)
            .map(|((_, change), done)| match (change, done) {
                (Some(obj), Done::Put((key, old, hot))) => {
                    shared.reindex_put(&mut meta, &key, old, hot, obj)
                }
                (_, Done::Taken(Some((key, slot, hot)))) => {
                    shared.reindex_take(&mut meta, &key, slot, hot)
                }
                _ => None,
            })
            .collect()
    }

    /// Records that the content is now current at `resource_version` (see
    /// [`Indexer::resource_version`]) and wakes whoever waits for it. Empty values are
    /// ignored: a server always names the version it lists or watches at.
    pub(crate) fn set_resource_version(&mut self, resource_version: &str) {
        if resource_version.is_empty() {
            return;
        }
        self.store.inner.resource_version.send_if_modified(|held| {
            if **held == *resource_version {
                return false;
            }
            *held = Arc::from(resource_version);
            true
        });
    }

    /// Replaces the whole content with `objs`. Readers see the old content or the new one,
    /// never a mix.
    pub fn replace(&mut self, objs: impl IntoIterator<Item = Arc<K>>) {
        let shared = &self.store.inner;
        let mut meta = write(&shared.meta);
        let mut shards: Vec<RwLockWriteGuard<'_, Items<K>>> =
            shared.shards.iter().map(|s| write(&s.items)).collect();
        for items in &mut shards {
            items.clear();
        }
        for index in meta.indices.values_mut() {
            index.clear();
        }
        lock(&shared.hot).clear();
        for obj in objs {
            let key = object_key(obj.as_ref());
            let slot = shared.slot_for(meta.mode, &key, &obj);
            let i = shared.shard_index(&key);
            let key = Arc::<str>::from(key);
            // A duplicate key replaces the earlier object, as an insert would (the hot set
            // was cleared above and nothing is remembered while every shard is locked).
            let old = shards[i].insert(key.clone(), slot);
            let old = old.map(|slot| shared.taken(&key, slot, None));
            meta.reindex(&key, old.as_ref().map(Option::as_deref), Some(&obj));
        }
    }
}

/// How many decoded objects a cache in `mode` keeps beside its encoded ones.
fn hot_capacity(mode: CacheMode) -> usize {
    match mode {
        CacheMode::Full => 0,
        #[cfg(feature = "compact")]
        CacheMode::Compact { hot } => hot,
    }
}

impl<K: Object> Indexer<K> {
    fn new(indexers: Indexers<K>, mode: CacheMode) -> Self {
        let indices = indexers
            .funcs
            .keys()
            .map(|name| (name.clone(), Index::default()))
            .collect();
        Self {
            inner: Arc::new(Shared {
                meta: RwLock::new(Indexing {
                    indexers: indexers.funcs,
                    indices,
                    mode,
                }),
                shards: (0..SHARDS)
                    .map(|_| Shard {
                        items: RwLock::new(Items::default()),
                    })
                    .collect(),
                hot: Mutex::new(HotSet::new(hot_capacity(mode))),
                resource_version: watch::Sender::new(Arc::from("")),
            }),
        }
    }

    /// The resourceVersion this store is current at: the last list, watch event or bookmark
    /// its informer has applied (client-go's `LastStoreSyncResourceVersion`, KEP-5647); empty
    /// before the first list has been applied. Everything the server had at that version is
    /// in the store, and nothing from after it is yet. Whether another resourceVersion is
    /// older or newer is a question for
    /// [`ResourceVersionOrder`](crate::resource_version::ResourceVersionOrder).
    pub fn resource_version(&self) -> String {
        self.inner.resource_version.borrow().to_string()
    }

    /// A receiver that wakes when [`resource_version`](Self::resource_version) moves on, for
    /// waiting until the store has caught up with a write (the value is marked seen: only a
    /// later change wakes it).
    pub fn resource_version_changes(&self) -> watch::Receiver<Arc<str>> {
        self.inner.resource_version.subscribe()
    }

    /// How objects are held.
    pub fn cache_mode(&self) -> CacheMode {
        read(&self.inner.meta).mode
    }

    /// Chooses how objects are held (the writer's setting, before it writes). Fails,
    /// changing nothing, once the store holds objects.
    fn set_cache_mode(&self, mode: CacheMode) -> Result<(), Error> {
        let mut meta = write(&self.inner.meta);
        let held = self.inner.count();
        if held > 0 {
            return Err(Error::other(
                crate::error::ErrorKind::InvalidState,
                "set_cache_mode",
                format!("the indexer already holds {held} objects"),
            ));
        }
        meta.mode = mode;
        *lock(&self.inner.hot) = HotSet::new(hot_capacity(mode));
        Ok(())
    }

    /// The object stored under `key`.
    pub fn get_by_key(&self, key: &str) -> Option<Arc<K>> {
        self.inner.get(key, true)
    }

    /// The object stored under `key`, without remembering it in a compact cache's hot set
    /// (for the relist's comparison of every object, which would evict what readers use).
    pub(crate) fn peek(&self, key: &str) -> Option<Arc<K>> {
        self.inner.get(key, false)
    }

    /// The stored object with the same key as `obj`.
    pub fn get(&self, obj: &K) -> Option<Arc<K>> {
        self.get_by_key(&object_key(obj))
    }

    /// Every stored object, in no particular order.
    pub fn list(&self) -> Vec<Arc<K>> {
        let _meta = read(&self.inner.meta);
        let shards = self.inner.read_all();
        let mut out = Vec::with_capacity(shards.iter().map(|s| s.len()).sum());
        for items in &shards {
            out.extend(
                items
                    .iter()
                    .filter_map(|(k, slot)| self.inner.object(k, slot, false)),
            );
        }
        out
    }

    /// Every stored key, in no particular order.
    pub fn list_keys(&self) -> Vec<String> {
        let _meta = read(&self.inner.meta);
        let shards = self.inner.read_all();
        shards
            .iter()
            .flat_map(|items| items.keys().map(|k| k.to_string()))
            .collect()
    }

    /// The number of stored objects.
    pub fn len(&self) -> usize {
        let _meta = read(&self.inner.meta);
        self.inner.count()
    }

    /// True when the store holds no object.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The names of the indexes, sorted.
    pub fn indexer_names(&self) -> Vec<String> {
        read(&self.inner.meta).indexers.keys().cloned().collect()
    }

    /// True when the index `index_name` exists.
    pub fn has_index(&self, index_name: &str) -> bool {
        read(&self.inner.meta).indexers.contains_key(index_name)
    }

    /// The objects whose index `index_name` contains `value`.
    pub fn by_index(&self, index_name: &str, value: &str) -> Result<Vec<Arc<K>>, Error> {
        let meta = read(&self.inner.meta);
        let index = meta
            .indices
            .get(index_name)
            .ok_or_else(|| unknown_index(index_name))?;
        Ok(index
            .get(value)
            .map(|keys| self.objects(keys.iter()))
            .unwrap_or_default())
    }

    /// The objects under `keys`, read while the caller holds `meta`: one shard lock per
    /// key, and every key an index names is in its shard.
    fn objects<'a>(&self, keys: impl Iterator<Item = &'a Arc<str>>) -> Vec<Arc<K>> {
        keys.filter_map(|k| self.inner.get(k, false)).collect()
    }

    /// The keys of the objects whose index `index_name` contains `value`.
    pub fn index_keys(&self, index_name: &str, value: &str) -> Result<Vec<String>, Error> {
        let meta = read(&self.inner.meta);
        let index = meta
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
        let meta = read(&self.inner.meta);
        let index = meta
            .indices
            .get(index_name)
            .ok_or_else(|| unknown_index(index_name))?;
        Ok(index.values().map(str::to_owned).collect())
    }

    /// The objects that share any value of index `index_name` with `obj`
    /// (client-go's `Index`).
    pub fn index(&self, index_name: &str, obj: &K) -> Result<Vec<Arc<K>>, Error> {
        let meta = read(&self.inner.meta);
        let func = meta
            .indexers
            .get(index_name)
            .ok_or_else(|| unknown_index(index_name))?;
        let index = meta.indices.get(index_name);
        let mut keys: HashSet<&Arc<str>> = HashSet::new();
        for value in func.values(obj) {
            if let Some(set) = index.and_then(|i| i.get(&value)) {
                keys.extend(set.iter());
            }
        }
        Ok(self.objects(keys.into_iter()))
    }

    /// Adds indexes, also after the informer started: existing objects are indexed at once.
    /// Fails, changing nothing, when an index of the same name already exists.
    pub fn add_indexers(&self, indexers: Indexers<K>) -> Result<(), Error> {
        let mut meta = write(&self.inner.meta);
        if let Some(dup) = indexers
            .funcs
            .keys()
            .find(|n| meta.indexers.contains_key(*n))
        {
            return Err(Error::other(
                crate::error::ErrorKind::InvalidState,
                "add_indexers",
                format!("an index named {dup:?} already exists"),
            ));
        }
        let shards = self.inner.read_all();
        for (name, func) in indexers.funcs {
            let mut index = Index::default();
            for items in &shards {
                for (key, slot) in items.iter() {
                    if let Some(obj) = self.inner.object(key, slot, false) {
                        func.each_value(&obj, |value| index.insert(value, key));
                    }
                }
            }
            meta.indices.insert(name.clone(), index);
            meta.indexers.insert(name, func);
        }
        Ok(())
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
impl<K: Object> Indexer<K> {
    /// Every way the indexes and the objects disagree, seen in one state: index entries
    /// naming a missing object or one without that value, and objects missing from an
    /// index entry of theirs.
    fn inconsistencies(&self) -> Vec<String> {
        let meta = read(&self.inner.meta);
        let shards = self.inner.read_all();
        let object = |key: &str| {
            let shard = (SHARD_HASH.hash_one(key) as usize) % shards.len();
            shards[shard]
                .get_key_value(key)
                .and_then(|(k, slot)| self.inner.object(k, slot, false))
        };
        let mut found = Vec::new();
        for (name, func) in &meta.indexers {
            let Some(index) = meta.indices.get(name) else {
                found.push(format!("index {name} missing"));
                continue;
            };
            for (value, keys) in index.iter() {
                for key in keys.iter() {
                    match object(key) {
                        None => found.push(format!("{name}={value} names missing {key}")),
                        Some(obj) if !func.values(&obj).iter().any(|v| v == value) => found.push(
                            format!("{name}={value} names {key}, which has other values"),
                        ),
                        Some(_) => {}
                    }
                }
            }
            for items in &shards {
                for (key, slot) in items.iter() {
                    let Some(obj) = self.inner.object(key, slot, false) else {
                        continue;
                    };
                    for value in func.values(&obj) {
                        if !index.get(&value).is_some_and(|keys| keys.contains(key)) {
                            found.push(format!("{key} missing from {name}={value}"));
                        }
                    }
                }
            }
        }
        found
    }
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
        let (s, mut w) = store(Indexers::namespace());
        assert!(w.insert(cm("a", "x", "web")).is_none());
        assert!(w.insert(cm("", "cluster", "web")).is_none());
        assert_eq!(s.len(), 2);
        assert!(s.get_by_key("a/x").is_some());
        assert!(s.get_by_key("cluster").is_some());
        assert!(s.get_by_key("x").is_none());
        let old = w.insert(cm("a", "x", "db")).unwrap();
        assert_eq!(app_index(&old), vec!["web"]);
        assert_eq!(s.len(), 2);
        assert!(w.remove("a/x").is_some());
        assert!(w.remove("a/x").is_none());
        assert_eq!(s.list_keys(), vec!["cluster"]);
    }

    #[test]
    fn namespace_index_follows_updates_and_deletes() {
        let (s, mut w) = store(Indexers::namespace().with("app", app_index));
        w.insert(cm("a", "x", "web"));
        w.insert(cm("a", "y", "db"));
        w.insert(cm("b", "z", "web"));
        assert_eq!(s.by_index(NAMESPACE_INDEX, "a").unwrap().len(), 2);
        assert_eq!(
            sorted(s.index_keys("app", "web").unwrap()),
            vec!["a/x", "b/z"]
        );
        w.insert(cm("a", "x", "db"));
        assert_eq!(s.index_keys("app", "web").unwrap(), vec!["b/z"]);
        assert_eq!(
            sorted(s.list_index_func_values("app").unwrap()),
            vec!["db", "web"]
        );
        w.remove("b/z");
        assert_eq!(s.list_index_func_values("app").unwrap(), vec!["db"]);
        assert!(s.by_index(NAMESPACE_INDEX, "b").unwrap().is_empty());
        let err = s.by_index("nope", "a").unwrap_err().to_string();
        assert!(err.contains("\"nope\""), "{err}");
    }

    #[test]
    fn indexers_added_later_index_existing_items() {
        let (s, mut w) = store(Indexers::namespace());
        w.insert(cm("a", "x", "web"));
        w.insert(cm("b", "y", "web"));
        s.add_indexers(Indexers::new().with("app", app_index))
            .unwrap();
        assert_eq!(s.by_index("app", "web").unwrap().len(), 2);
        w.insert(cm("c", "z", "web"));
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
        let (s, mut w) = store(Indexers::namespace());
        w.insert(cm("a", "x", "web"));
        w.replace([cm("b", "y", "web"), cm("b", "z", "web")]);
        assert_eq!(sorted(s.list_keys()), vec!["b/y", "b/z"]);
        assert!(s.by_index(NAMESPACE_INDEX, "a").unwrap().is_empty());
        assert_eq!(s.by_index(NAMESPACE_INDEX, "b").unwrap().len(), 2);
    }

    #[test]
    fn cluster_scoped_objects_have_no_namespace_value() {
        let (s, mut w) = store(Indexers::namespace());
        w.insert(cm("", "n", "web"));
        assert!(s
            .list_index_func_values(NAMESPACE_INDEX)
            .unwrap()
            .is_empty());
    }

    fn with_mode(mode: CacheMode) -> (Indexer<ConfigMap>, StoreWriter<ConfigMap>) {
        let (s, mut w) = store(Indexers::standard().with("app", app_index));
        w.set_cache_mode(mode).unwrap();
        (s, w)
    }

    /// Every cache mode this build has, compact ones keeping `hot` objects decoded.
    #[cfg(feature = "compact")]
    fn modes(hot: &[usize]) -> Vec<CacheMode> {
        let compact = hot.iter().map(|&hot| CacheMode::compact(hot));
        std::iter::once(CacheMode::Full).chain(compact).collect()
    }

    #[cfg(not(feature = "compact"))]
    fn modes(_hot: &[usize]) -> Vec<CacheMode> {
        vec![CacheMode::Full]
    }

    #[test]
    fn compact_mode_reads_and_indexes_like_full_mode() {
        for mode in modes(&[0, 2]) {
            let (s, mut w) = with_mode(mode);
            assert_eq!(s.cache_mode(), mode);
            for i in 0..10 {
                w.insert(cm(
                    if i % 2 == 0 { "a" } else { "b" },
                    &format!("x{i}"),
                    "web",
                ));
            }
            w.insert(cm("", "cluster", "db"));
            let old = w.insert(cm("a", "x0", "db")).unwrap();
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
            assert_eq!(w.remove("b/x1").unwrap(), cm("b", "x1", "web"), "{mode:?}");
            assert!(s.get_by_key("b/x1").is_none(), "{mode:?}");
            assert_eq!(s.list().len(), 10, "{mode:?}");
            s.add_indexers(Indexers::new().with("again", app_index))
                .unwrap();
            assert_eq!(s.by_index("again", "db").unwrap().len(), 2, "{mode:?}");
            w.replace([cm("c", "y", "web")]);
            assert_eq!(s.list(), vec![cm("c", "y", "web")], "{mode:?}");
            assert!(s.get_by_key("a/x0").is_none(), "{mode:?}");
            assert!(s.by_index("app", "db").unwrap().is_empty(), "{mode:?}");
        }
    }

    #[test]
    #[cfg(feature = "compact")]
    fn the_hot_set_stays_bounded_and_current() {
        let (s, mut w) = with_mode(CacheMode::compact(2));
        for i in 0..5 {
            w.insert(cm("a", &format!("x{i}"), "web"));
        }
        let mut read = Vec::new();
        for _ in 0..3 {
            for i in 0..5 {
                let obj = s.get_by_key(&format!("a/x{i}")).unwrap();
                read.push(Arc::downgrade(&obj));
            }
        }
        // Evicted objects are freed, not kept anywhere: only the last two read live on.
        let live = read.iter().filter(|w| w.strong_count() > 0).count();
        assert_eq!(live, 2);
        let held = s.inner.hot.lock().unwrap().objects.len();
        assert!(held <= 2, "{held} decoded objects held");
        let order = s.inner.hot.lock().unwrap().order.len();
        assert!(order <= 4, "{order} keys in the eviction order");
        let before = s.get_by_key("a/x4").unwrap();
        w.insert(cm("a", "x4", "db"));
        let after = s.get_by_key("a/x4").unwrap();
        assert_ne!(before, after);
        assert_eq!(app_index(&after), vec!["db"]);
    }

    #[test]
    #[cfg(feature = "compact")]
    fn the_cache_mode_is_chosen_while_empty() {
        let (s, mut w) = with_mode(CacheMode::Full);
        w.insert(cm("a", "x", "web"));
        let err = s.set_cache_mode(CacheMode::compact(8)).unwrap_err();
        assert!(err.to_string().contains("1 objects"), "{err}");
        assert_eq!(s.cache_mode(), CacheMode::Full);
    }

    #[test]
    fn reads_during_writes_see_one_consistent_state() {
        use std::sync::atomic::{AtomicBool, Ordering};
        for mode in modes(&[4]) {
            let (s, mut w) = with_mode(mode);
            // `a/stable` is only ever updated: every read by key must find it.
            w.insert(cm("a", "stable", "a"));
            let stop = Arc::new(AtomicBool::new(false));
            let readers: Vec<_> = (0..2)
                .map(|_| {
                    let s = s.clone();
                    let stop = stop.clone();
                    std::thread::spawn(move || {
                        let mut rounds = 0;
                        while !stop.load(Ordering::Relaxed) || rounds < 20 {
                            let broken = s.inconsistencies();
                            assert!(broken.is_empty(), "{mode:?}: {broken:?}");
                            for obj in s.by_index("app", "a").unwrap() {
                                assert_eq!(app_index(&obj), vec!["a"], "{mode:?}");
                            }
                            for obj in s.by_index(NAMESPACE_INDEX, "b").unwrap() {
                                assert_eq!(obj.metadata.namespace.as_deref(), Some("b"));
                            }
                            assert!(s.get_by_key("a/stable").is_some(), "{mode:?}");
                            rounds += 1;
                        }
                        rounds
                    })
                })
                .collect();
            for i in 0..3_000 {
                let name = format!("x{}", i % 50);
                let app = if i % 3 == 0 { "a" } else { "b" };
                let ns = if i % 2 == 0 { "a" } else { "b" };
                match i % 7 {
                    // Removed from wherever it is, added back elsewhere later.
                    0 => {
                        w.remove(&format!("a/{name}"));
                        w.remove(&format!("b/{name}"));
                    }
                    _ => {
                        w.insert(cm(ns, &name, app));
                    }
                }
                w.insert(cm("a", "stable", app));
            }
            stop.store(true, Ordering::Relaxed);
            for r in readers {
                assert!(r.join().unwrap() >= 20);
            }
            assert!(s.inconsistencies().is_empty());
        }
    }

    #[test]
    fn a_replace_is_seen_whole() {
        use std::sync::atomic::{AtomicBool, Ordering};
        let (s, mut w) = with_mode(CacheMode::Full);
        let generation =
            |g: usize| (0..100).map(move |i| cm("a", &format!("x{i}"), &g.to_string()));
        w.replace(generation(0));
        let stop = Arc::new(AtomicBool::new(false));
        let reader = {
            let s = s.clone();
            let stop = stop.clone();
            std::thread::spawn(move || {
                while !stop.load(Ordering::Relaxed) {
                    let all = s.list();
                    assert_eq!(all.len(), 100);
                    let first = app_index(&all[0]);
                    assert!(
                        all.iter().all(|o| app_index(o) == first),
                        "a mix of replaces"
                    );
                }
            })
        };
        for g in 1..200 {
            w.replace(generation(g));
        }
        stop.store(true, Ordering::Relaxed);
        reader.join().unwrap();
        assert_eq!(s.by_index("app", "199").unwrap().len(), 100);
    }

    #[test]
    fn a_batch_write_is_seen_whole_and_indexed_like_single_writes() {
        use std::sync::atomic::{AtomicBool, Ordering};
        for mode in modes(&[2]) {
            let (s, mut w) = with_mode(mode);
            for i in 0..100 {
                w.insert(cm("a", &format!("x{i}"), "0"));
            }
            let stop = Arc::new(AtomicBool::new(false));
            let reader = {
                let s = s.clone();
                let stop = stop.clone();
                std::thread::spawn(move || {
                    while !stop.load(Ordering::Relaxed) {
                        let apps: Vec<String> =
                            s.list().iter().flat_map(|o| app_index(o)).collect();
                        assert!(
                            apps.windows(2).all(|w| w[0] == w[1]),
                            "a mix of batches: {apps:?}"
                        );
                        let (first, last) = (s.get_by_key("a/x0"), s.get_by_key("a/x99"));
                        if let (Some(first), Some(last)) = (first, last) {
                            // Read in this order, the first can only be as new as the last.
                            let generation =
                                |o: &ConfigMap| app_index(o)[0].parse::<u32>().unwrap();
                            assert!(generation(&first) <= generation(&last));
                        }
                    }
                })
            };
            for g in 1..50 {
                let changes: Vec<(String, Option<Arc<ConfigMap>>)> = (0..100)
                    .map(|i| {
                        (
                            format!("a/x{i}"),
                            Some(cm("a", &format!("x{i}"), &g.to_string())),
                        )
                    })
                    .collect();
                let olds = w.apply_all(&changes);
                assert!(olds.iter().all(|o| o
                    .as_ref()
                    .is_some_and(|o| app_index(o) == vec![(g - 1).to_string()])));
            }
            stop.store(true, Ordering::Relaxed);
            reader.join().unwrap();
            let olds = w.apply_all(&[
                ("a/x1".to_owned(), None),
                ("a/new".to_owned(), Some(cm("a", "new", "49"))),
                ("a/missing".to_owned(), None),
            ]);
            assert_eq!(
                olds.iter().map(Option::is_some).collect::<Vec<_>>(),
                [true, false, false]
            );
            assert_eq!(s.len(), 100);
            assert!(s.get_by_key("a/x1").is_none());
            assert_eq!(s.by_index("app", "49").unwrap().len(), 100);
            assert_eq!(s.inconsistencies(), Vec::<String>::new(), "{mode:?}");
        }
    }
}
