//! Storage of one resource: current objects, a bounded event history and the open watches.
//!
//! Objects are kept as their serialised bytes without `kind`/`apiVersion` (exactly the
//! form list items take), so lists and events are written from stored bytes, never
//! re-encoded. Every write takes a fresh value of the server's global resourceVersion
//! clock while holding this store's lock, so within a resource events reach watchers in
//! resourceVersion order, and a resourceVersion read under the lock covers every event
//! of this resource at or below it.

use std::collections::{BTreeMap, VecDeque};
use std::ops::Bound;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};

use bytes::Bytes;
use serde_json::Value;
use tokio::sync::mpsc::{unbounded_channel, UnboundedReceiver, UnboundedSender};

use crate::resource::selectable_fields;
use crate::status::StatusError;
use crate::template::ObjTemplate;

/// One stored object.
#[derive(Debug)]
pub(crate) struct Obj {
    pub key: String,
    pub name: String,
    pub namespace: Option<String>,
    /// `metadata.uid` (`""` when absent), which shard selectors may hash.
    pub uid: String,
    pub rv: u64,
    /// JSON without `kind` and `apiVersion`.
    pub bytes: Bytes,
    pub labels: BTreeMap<String, String>,
    /// Values of the resource's selectable fields (`""` when absent, as the real server reads them).
    pub fields: Vec<(&'static str, String)>,
    /// Its protobuf message, encoded by the first request that asks for it (an `Obj` never
    /// changes: a write stores a new one), as kube-apiserver's watch cache keeps each
    /// object's serializations; an encoding error is kept too.
    pub protobuf: std::sync::OnceLock<Result<Bytes, String>>,
}

impl Obj {
    /// Builds the stored form of `value`, whose `metadata.resourceVersion` is set to `rv`.
    fn build(
        value: Value,
        rv: u64,
        fields_spec: &[(&'static str, &'static [&'static str])],
    ) -> Result<Self, StatusError> {
        Self::build_stamped(value, rv, Some(rv.to_string()), fields_spec)
    }

    /// [`Obj::build`] with the text stamped into `metadata.resourceVersion` given (a
    /// template marker, for [`ObjTemplate`]), or no resourceVersion at all (what a dry-run
    /// create answers).
    pub fn build_stamped(
        mut value: Value,
        rv: u64,
        rv_text: Option<String>,
        fields_spec: &[(&'static str, &'static [&'static str])],
    ) -> Result<Self, StatusError> {
        let map = value
            .as_object_mut()
            .ok_or_else(|| StatusError::bad_request("the object is not a JSON object"))?;
        map.remove("kind");
        map.remove("apiVersion");
        let meta = map
            .entry("metadata")
            .or_insert_with(|| Value::Object(Default::default()))
            .as_object_mut()
            .ok_or_else(|| StatusError::bad_request("metadata is not a JSON object"))?;
        match rv_text {
            Some(text) => meta.insert("resourceVersion".into(), Value::String(text)),
            None => meta.remove("resourceVersion"),
        };
        let name = meta
            .get("name")
            .and_then(Value::as_str)
            .unwrap_or_default()
            .to_owned();
        let namespace = meta
            .get("namespace")
            .and_then(Value::as_str)
            .filter(|s| !s.is_empty())
            .map(str::to_owned);
        let uid = meta
            .get("uid")
            .and_then(Value::as_str)
            .unwrap_or_default()
            .to_owned();
        let labels = meta
            .get("labels")
            .and_then(Value::as_object)
            .map(|l| {
                l.iter()
                    .filter_map(|(k, v)| v.as_str().map(|v| (k.clone(), v.to_owned())))
                    .collect()
            })
            .unwrap_or_default();
        let fields = fields_spec
            .iter()
            .map(|(label, path)| {
                let v = path.iter().try_fold(&value, |v, seg| v.get(seg));
                let text = match v {
                    Some(Value::String(s)) => s.clone(),
                    Some(Value::Bool(b)) => b.to_string(),
                    Some(Value::Number(n)) => n.to_string(),
                    _ => String::new(),
                };
                (*label, text)
            })
            .collect();
        let key = object_key(namespace.as_deref(), &name);
        let bytes = Bytes::from(
            serde_json::to_vec(&value)
                .map_err(|e| StatusError::internal(&format!("cannot serialise {key}: {e}")))?,
        );
        Ok(Self {
            key,
            name,
            namespace,
            uid,
            rv,
            bytes,
            labels,
            fields,
            protobuf: std::sync::OnceLock::new(),
        })
    }

    /// The object as a JSON value (without `kind`/`apiVersion`).
    pub fn to_value(&self) -> Result<Value, StatusError> {
        serde_json::from_slice(&self.bytes).map_err(|e| {
            StatusError::internal(&format!("stored object {} is unreadable: {e}", self.key))
        })
    }

    /// The value of a field selector label.
    pub fn field(&self, label: &str) -> Option<&str> {
        match label {
            "metadata.name" => Some(&self.name),
            "metadata.namespace" => Some(self.namespace.as_deref().unwrap_or("")),
            _ => self
                .fields
                .iter()
                .find(|(l, _)| *l == label)
                .map(|(_, v)| v.as_str()),
        }
    }
}

/// `namespace/name`, or `name` for cluster-scoped objects.
pub(crate) fn object_key(namespace: Option<&str>, name: &str) -> String {
    match namespace {
        Some(ns) => format!("{ns}/{name}"),
        None => name.to_owned(),
    }
}

/// The type of a watch event.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum EventType {
    Added,
    Modified,
    Deleted,
}

impl EventType {
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Added => "ADDED",
            Self::Modified => "MODIFIED",
            Self::Deleted => "DELETED",
        }
    }
}

/// One change, kept in the history window.
#[derive(Debug)]
pub(crate) struct Event {
    pub rv: u64,
    pub kind: EventType,
    /// The object after the change (for a delete: the last state, stamped with the delete's RV).
    pub obj: Arc<Obj>,
    /// The object before the change.
    pub prev: Option<Arc<Obj>>,
}

/// What a store pushes into an open watch.
#[derive(Debug)]
pub(crate) enum WatchMsg {
    Event(Arc<Event>),
    /// Every event of this resource at or below this RV has been sent before it.
    Bookmark(u64),
    /// Fault injection: write a line that is not JSON.
    Malformed,
    /// Fault injection: cut the connection in the middle of a line.
    Cut,
}

struct Watcher {
    tx: UnboundedSender<WatchMsg>,
    bookmarks: bool,
}

/// What a write does to the object under its key.
pub(crate) enum Change {
    /// Store this value (create or replace); a value equal to the stored one changes
    /// nothing (no new resourceVersion, no event), as etcd's guaranteed update does.
    Put(Value),
    /// Delete the existing object.
    Delete,
    /// Delete the existing object, answering with this value stamped with the delete's
    /// resourceVersion (an update that removed the last finalizer answers with the
    /// object it asked for, while watchers see the stored one go).
    DeleteAnswering(Value),
}

/// What a write did.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Outcome {
    Created,
    Updated,
    /// A put equal to the stored object: nothing written.
    Unchanged,
    Deleted,
}

/// Which state a list reads.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Snapshot {
    Latest,
    At(u64),
}

/// Why a snapshot cannot be read.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum SnapshotError {
    /// Older than the history window, which starts after this RV.
    TooOld { window_start: u64 },
    /// Newer than the current RV.
    TooNew { current: u64 },
}

/// What one list page reads.
#[derive(Clone, Copy)]
pub(crate) struct ListQuery<'a> {
    pub snapshot: Snapshot,
    pub namespace: Option<&'a str>,
    /// Resume after this key (exclusive).
    pub after: Option<&'a str>,
    pub limit: Option<usize>,
    pub keep: &'a dyn Fn(&Obj) -> bool,
    /// Count the items after the page (`remainingItemCount`).
    pub count_remaining: bool,
}

/// One page of a list.
pub(crate) struct Page {
    pub items: Vec<Arc<Obj>>,
    pub rv: u64,
    /// Key of the last item when more items follow.
    pub continue_after: Option<String>,
    /// Items after this page (only without selectors, as the real server does).
    pub remaining: Option<u64>,
}

/// A new watch: what to send first, then the live channel.
pub(crate) struct Subscription {
    /// Current objects, for synthetic ADDED events (RV "" / "0" / sendInitialEvents).
    pub initial: Vec<Arc<Obj>>,
    /// History events after the requested RV.
    pub backlog: Vec<Arc<Event>>,
    /// The global RV when the watch was registered.
    pub rv: u64,
    pub rx: UnboundedReceiver<WatchMsg>,
}

/// Where a watch starts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum WatchFrom {
    /// Current objects as ADDED, then changes.
    Current,
    /// Changes strictly after this RV.
    Rv(u64),
}

struct Inner {
    objects: BTreeMap<String, Arc<Obj>>,
    history: VecDeque<Arc<Event>>,
    capacity: usize,
    /// Every event after this RV is in `history`.
    window_start: u64,
    watchers: Vec<Watcher>,
}

/// Storage of one group/plural.
pub(crate) struct Store {
    pub group: String,
    pub plural: String,
    fields_spec: &'static [(&'static str, &'static [&'static str])],
    inner: Mutex<Inner>,
}

impl Store {
    pub fn new(group: &str, plural: &str, capacity: usize, window_start: u64) -> Self {
        Self {
            group: group.to_owned(),
            plural: plural.to_owned(),
            fields_spec: selectable_fields(group, plural),
            inner: Mutex::new(Inner {
                objects: BTreeMap::new(),
                history: VecDeque::new(),
                capacity,
                window_start,
                watchers: Vec::new(),
            }),
        }
    }

    fn lock(&self) -> MutexGuard<'_, Inner> {
        // A panic while holding the lock leaves consistent data (every mutation is
        // completed before anything that can panic), so a poisoned lock is still usable.
        self.inner.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// True when `label` is a field selector this resource supports.
    pub fn supports_field(&self, label: &str) -> bool {
        label == "metadata.name"
            || label == "metadata.namespace"
            || self.fields_spec.iter().any(|(l, _)| *l == label)
    }

    /// The current object under `key`.
    pub fn get(&self, key: &str) -> Option<Arc<Obj>> {
        self.lock().objects.get(key).cloned()
    }

    /// Applies `decide`'s change to `key` at a fresh resourceVersion, records the event and
    /// sends it to every watch. Returns what happened and the object to answer with (for
    /// a delete, the deleted one at the delete's resourceVersion). With `dry_run` nothing
    /// is stored, no resourceVersion is taken and no event sent: the answer is the would-be
    /// object at the current resourceVersion (none for a create).
    pub fn write<F>(
        &self,
        clock: &AtomicU64,
        key: &str,
        dry_run: bool,
        decide: F,
    ) -> Result<(Outcome, Arc<Obj>), StatusError>
    where
        F: FnOnce(Option<&Arc<Obj>>) -> Result<Change, StatusError>,
    {
        let mut inner = self.lock();
        let existing = inner.objects.get(key).cloned();
        let change = decide(existing.as_ref())?;
        if let (Change::Put(value), Some(old)) = (&change, existing.as_ref()) {
            let mut stamped = value.clone();
            if let Some(meta) = stamped.get_mut("metadata").and_then(Value::as_object_mut) {
                meta.insert("resourceVersion".into(), Value::String(old.rv.to_string()));
            }
            if let Some(map) = stamped.as_object_mut() {
                map.remove("kind");
                map.remove("apiVersion");
            }
            if stamped == old.to_value()? {
                return Ok((Outcome::Unchanged, old.clone()));
            }
        }
        if dry_run {
            return self.dry_run(existing.as_ref(), key, change);
        }
        let rv = clock.fetch_add(1, Ordering::SeqCst) + 1;
        let (kind, outcome, obj, answer) = match change {
            Change::Put(value) => {
                let obj = Arc::new(Obj::build(value, rv, self.fields_spec)?);
                inner.objects.insert(obj.key.clone(), obj.clone());
                if existing.is_some() {
                    (EventType::Modified, Outcome::Updated, obj, None)
                } else {
                    (EventType::Added, Outcome::Created, obj, None)
                }
            }
            Change::Delete | Change::DeleteAnswering(_) => {
                let Some(old) = existing.as_ref() else {
                    return Err(StatusError::not_found(&self.group, &self.plural, key));
                };
                let obj = Arc::new(Obj::build(old.to_value()?, rv, self.fields_spec)?);
                let answer = match change {
                    Change::DeleteAnswering(v) => {
                        Some(Arc::new(Obj::build(v, rv, self.fields_spec)?))
                    }
                    _ => None,
                };
                inner.objects.remove(key);
                (EventType::Deleted, Outcome::Deleted, obj, answer)
            }
        };
        let event = Arc::new(Event {
            rv,
            kind,
            obj: obj.clone(),
            prev: existing,
        });
        inner.record(event);
        Ok((outcome, answer.unwrap_or(obj)))
    }

    /// The answer of a dry-run write: what [`Store::write`] would store, stored nowhere.
    fn dry_run(
        &self,
        existing: Option<&Arc<Obj>>,
        key: &str,
        change: Change,
    ) -> Result<(Outcome, Arc<Obj>), StatusError> {
        let fields = self.fields_spec;
        let obj = match (&change, existing) {
            (Change::Put(value), Some(old)) => Obj::build(value.clone(), old.rv, fields)?,
            (Change::Put(value), None) => Obj::build_stamped(value.clone(), 0, None, fields)?,
            (Change::Delete, Some(old)) => Obj::build(old.to_value()?, old.rv, fields)?,
            (Change::DeleteAnswering(value), Some(old)) => {
                Obj::build(value.clone(), old.rv, fields)?
            }
            (_, None) => return Err(StatusError::not_found(&self.group, &self.plural, key)),
        };
        let outcome = match (change, existing) {
            (Change::Put(_), Some(_)) => Outcome::Updated,
            (Change::Put(_), None) => Outcome::Created,
            _ => Outcome::Deleted,
        };
        Ok((outcome, Arc::new(obj)))
    }

    /// The current objects for which `keep` holds, in key order, with the resourceVersion
    /// they were read at (for a delete-collection).
    pub fn select(
        &self,
        clock: &AtomicU64,
        namespace: Option<&str>,
        keep: &dyn Fn(&Obj) -> bool,
    ) -> (u64, Vec<Arc<Obj>>) {
        let inner = self.lock();
        let rv = clock.load(Ordering::SeqCst);
        let items = inner
            .objects
            .values()
            .filter(|o| namespace.is_none_or(|ns| o.namespace.as_deref() == Some(ns)))
            .filter(|o| keep(o))
            .cloned()
            .collect();
        (rv, items)
    }

    /// Rewrites the stored objects `f` changes, keeping their resourceVersions and
    /// sending no events: what a read from storage would return after the stored form's
    /// meaning changed (a CRD gained a default).
    pub fn rewrite_in_place(&self, f: &dyn Fn(&mut Value) -> bool) -> Result<(), StatusError> {
        let mut inner = self.lock();
        let mut changed = Vec::new();
        for obj in inner.objects.values() {
            let mut value = obj.to_value()?;
            if f(&mut value) {
                changed.push(Arc::new(Obj::build(value, obj.rv, self.fields_spec)?));
            }
        }
        for obj in changed {
            inner.objects.insert(obj.key.clone(), obj);
        }
        Ok(())
    }

    /// Creates `n` objects from `template` at once (seeding): one lock, consecutive
    /// resourceVersions, instantiation spread over the available cores. `vars(i)` gives
    /// object `i`'s variables; the resourceVersion is appended as the last one.
    pub fn create_many(
        &self,
        clock: &AtomicU64,
        n: usize,
        template: Value,
        vars: &(dyn Fn(usize) -> Vec<String> + Sync),
    ) -> Result<(), StatusError> {
        let compiled = self.compile(template, vars)?;
        let mut inner = self.lock();
        let first = clock.fetch_add(n as u64, Ordering::SeqCst) + 1;
        let built = instantiate_all(&compiled, first, n, vars)?;
        inner.insert_built(built);
        Ok(())
    }

    /// Makes, without writing anything, `n` objects from `template` stamped with
    /// resourceVersions `first..first + n`, as [`Store::create_many`] would, for
    /// [`Store::publish_built`] to write later.
    pub fn build_many(
        &self,
        first: u64,
        n: usize,
        template: Value,
        vars: &(dyn Fn(usize) -> Vec<String> + Sync),
    ) -> Result<Vec<Obj>, StatusError> {
        instantiate_all(&self.compile(template, vars)?, first, n, vars)
    }

    /// Writes objects from [`Store::build_many`] in one batch under one lock, provided
    /// `clock` still stands just before their first resourceVersion `first` (the clock
    /// moves past them atomically, so no other write can take one of their
    /// resourceVersions). Else 409 Conflict and nothing is written.
    pub fn publish_built(
        &self,
        clock: &AtomicU64,
        first: u64,
        objs: Vec<Obj>,
    ) -> Result<(), StatusError> {
        let mut inner = self.lock();
        let before = first.saturating_sub(1);
        clock
            .compare_exchange(
                before,
                before + objs.len() as u64,
                Ordering::SeqCst,
                Ordering::SeqCst,
            )
            .map_err(|now| {
                StatusError::new(
                    409,
                    "Conflict",
                    format!(
                        "the prepared writes follow resourceVersion {before}, but the server is at {now}: something was written since they were prepared"
                    ),
                )
            })?;
        inner.insert_built(objs);
        Ok(())
    }

    /// The compiled form of `template`, whose last variable (after those `vars` gives) is
    /// the resourceVersion.
    fn compile(
        &self,
        template: Value,
        vars: &(dyn Fn(usize) -> Vec<String> + Sync),
    ) -> Result<ObjTemplate, StatusError> {
        let rv_var = vars(0).len();
        Ok(ObjTemplate::compile(&Obj::build_stamped(
            template,
            0,
            Some(crate::template::marker(rv_var)),
            self.fields_spec,
        )?))
    }

    /// Reads one page of the state at `q.snapshot`, in key order.
    pub fn list(&self, clock: &AtomicU64, q: &ListQuery<'_>) -> Result<Page, SnapshotError> {
        let ListQuery {
            snapshot,
            namespace,
            after,
            limit,
            keep,
            count_remaining,
        } = *q;
        let inner = self.lock();
        let current = clock.load(Ordering::SeqCst);
        let rv = match snapshot {
            Snapshot::Latest => current,
            Snapshot::At(rv) if rv > current => return Err(SnapshotError::TooNew { current }),
            Snapshot::At(rv) if rv < inner.window_start => {
                return Err(SnapshotError::TooOld {
                    window_start: inner.window_start,
                })
            }
            Snapshot::At(rv) => rv,
        };
        // Undo every change after `rv`: the state at `rv` of a key is the previous object of
        // the oldest event after `rv` touching it.
        let mut overrides: BTreeMap<&str, Option<&Arc<Obj>>> = BTreeMap::new();
        let newer = inner.history.partition_point(|e| e.rv <= rv);
        for event in inner.history.range(newer..).rev() {
            overrides.insert(event.obj.key.as_str(), event.prev.as_ref());
        }
        let ns_start = namespace.map(|ns| format!("{ns}/"));
        let ns_end = namespace.map(|ns| format!("{ns}0"));
        let lower: Bound<&str> = match (after, ns_start.as_deref()) {
            (Some(a), Some(s)) if a < s => Bound::Included(s),
            (Some(a), _) => Bound::Excluded(a),
            (None, Some(s)) => Bound::Included(s),
            (None, None) => Bound::Unbounded,
        };
        let upper: Bound<&str> = ns_end.as_deref().map_or(Bound::Unbounded, Bound::Excluded);
        // A token from another namespace can resume past the end: BTreeMap::range would panic.
        if let (Bound::Excluded(lo), Bound::Excluded(hi)) = (lower, upper) {
            if lo >= hi {
                return Ok(Page {
                    items: Vec::new(),
                    rv,
                    continue_after: None,
                    remaining: None,
                });
            }
        }
        let range = (lower, upper);
        let mut current_items = inner
            .objects
            .range::<str, _>(range)
            .map(|(k, v)| (k.as_str(), Some(v)))
            .peekable();
        let mut changed = overrides
            .range::<str, _>(range)
            .map(|(k, v)| (*k, *v))
            .peekable();
        let mut merged = std::iter::from_fn(|| loop {
            let next = match (current_items.peek(), changed.peek()) {
                (None, None) => return None,
                (Some(_), None) => current_items.next(),
                (None, Some(_)) => changed.next(),
                (Some((a, _)), Some((b, _))) => {
                    if a < b {
                        current_items.next()
                    } else if a == b {
                        current_items.next();
                        changed.next()
                    } else {
                        changed.next()
                    }
                }
            };
            if let Some((_, Some(obj))) = next {
                return Some(obj);
            }
        })
        .filter(|o| keep(o));
        let limit = limit.unwrap_or(usize::MAX);
        let mut items = Vec::new();
        for obj in merged.by_ref() {
            items.push(obj.clone());
            if items.len() >= limit {
                break;
            }
        }
        let (continue_after, remaining) = if items.len() >= limit {
            if count_remaining {
                let rest = merged.count() as u64;
                (
                    (rest > 0)
                        .then(|| items.last().map(|o| o.key.clone()))
                        .flatten(),
                    (rest > 0).then_some(rest),
                )
            } else {
                let more = merged.next().is_some();
                (
                    more.then(|| items.last().map(|o| o.key.clone())).flatten(),
                    None,
                )
            }
        } else {
            (None, None)
        };
        Ok(Page {
            items,
            rv,
            continue_after,
            remaining,
        })
    }

    /// Opens a watch. `Err(window_start)` when `from` is older than the history window.
    pub fn watch(
        &self,
        clock: &AtomicU64,
        from: WatchFrom,
        bookmarks: bool,
    ) -> Result<Subscription, u64> {
        let mut inner = self.lock();
        let rv = clock.load(Ordering::SeqCst);
        let (initial, backlog) = match from {
            WatchFrom::Current => (inner.objects.values().cloned().collect(), Vec::new()),
            WatchFrom::Rv(since) => {
                if since < inner.window_start {
                    return Err(inner.window_start);
                }
                let start = inner.history.partition_point(|e| e.rv <= since);
                (Vec::new(), inner.history.range(start..).cloned().collect())
            }
        };
        let (tx, rx) = unbounded_channel();
        inner.watchers.push(Watcher { tx, bookmarks });
        Ok(Subscription {
            initial,
            backlog,
            rv,
            rx,
        })
    }

    /// Sends a BOOKMARK at the current RV to every watch that asked for bookmarks.
    pub fn bookmark(&self, clock: &AtomicU64) {
        let mut inner = self.lock();
        let rv = clock.load(Ordering::SeqCst);
        inner
            .watchers
            .retain(|w| !w.bookmarks || w.tx.send(WatchMsg::Bookmark(rv)).is_ok());
    }

    /// Sends a fault message to every open watch.
    pub fn broadcast_fault(&self, malformed: bool) {
        let mut inner = self.lock();
        inner.watchers.retain(|w| {
            let msg = if malformed {
                WatchMsg::Malformed
            } else {
                WatchMsg::Cut
            };
            w.tx.send(msg).is_ok()
        });
    }

    /// Forgets the history: a watch or snapshot read from before `clock`'s current value gets 410.
    pub fn compact(&self, clock: &AtomicU64) {
        let mut inner = self.lock();
        inner.history.clear();
        inner.window_start = clock.load(Ordering::SeqCst);
    }

    /// Closes every open watch (their channels end).
    pub fn close_watches(&self) {
        self.lock().watchers.clear();
    }

    /// Number of watches open on this resource.
    pub fn open_watches(&self) -> usize {
        let mut inner = self.lock();
        inner.watchers.retain(|w| !w.tx.is_closed());
        inner.watchers.len()
    }

    /// Number of stored objects.
    pub fn len(&self) -> usize {
        self.lock().objects.len()
    }
}

/// Instantiates objects `0..n` of `compiled` at resourceVersions `first..`, spread over
/// the available cores, in order.
fn instantiate_all(
    compiled: &ObjTemplate,
    first: u64,
    n: usize,
    vars: &(dyn Fn(usize) -> Vec<String> + Sync),
) -> Result<Vec<Obj>, StatusError> {
    let threads = std::thread::available_parallelism()
        .map_or(1, usize::from)
        .clamp(1, 8);
    let chunk = n.div_ceil(threads).max(1);
    let parts: Vec<Vec<Obj>> = std::thread::scope(|s| {
        let handles: Vec<_> = (0..n)
            .step_by(chunk)
            .map(|start| {
                s.spawn(move || {
                    (start..(start + chunk).min(n))
                        .map(|i| {
                            let rv = first + i as u64;
                            let mut v = vars(i);
                            v.push(rv.to_string());
                            compiled.instantiate(&v, rv)
                        })
                        .collect::<Vec<_>>()
                })
            })
            .collect();
        handles
            .into_iter()
            .map(|h| {
                h.join()
                    .map_err(|_| StatusError::internal("a seeding thread panicked"))
            })
            .collect::<Result<Vec<_>, _>>()
    })?;
    Ok(parts.into_iter().flatten().collect())
}

impl Inner {
    /// Stores built objects in order, recording an ADDED event for a new key and a
    /// MODIFIED one for an existing key.
    fn insert_built(&mut self, objs: Vec<Obj>) {
        for obj in objs {
            let obj = Arc::new(obj);
            let prev = self.objects.insert(obj.key.clone(), obj.clone());
            let kind = if prev.is_some() {
                EventType::Modified
            } else {
                EventType::Added
            };
            self.record(Arc::new(Event {
                rv: obj.rv,
                kind,
                obj,
                prev,
            }));
        }
    }

    fn record(&mut self, event: Arc<Event>) {
        self.watchers
            .retain(|w| w.tx.send(WatchMsg::Event(event.clone())).is_ok());
        self.history.push_back(event);
        while self.history.len() > self.capacity {
            if let Some(old) = self.history.pop_front() {
                self.window_start = old.rv;
            }
        }
    }
}
