//! Garbage collection by `metadata.ownerReferences`, as kube-apiserver's deletion handling
//! and kube-controller-manager's garbage collector do it together: a DELETE adds the
//! `orphan` or `foregroundDeletion` finalizer its propagation policy asks for
//! (`deletionFinalizersForGarbageCollection`), and a background collector deletes the
//! dependents of deleted owners, waits for blocking dependents of owners deleted in the
//! foreground, strips the references to owners deleted with `Orphan`, and removes those
//! finalizers when their work is done. Every change goes through the same writes a
//! client's DELETE or PATCH takes, so watchers see the same events.
//!
//! The collector knows dependents by the writes that went through the API (create, update,
//! patch): the bulk writers (`create_pods`, `publish_pods`, seeding) skip it, as they skip
//! admission.

use std::collections::{HashMap, HashSet};
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::Duration;

use serde_json::{json, Value};
use tokio::sync::Notify;
use tokio_util::sync::CancellationToken;

use crate::meta::meta_str;
use crate::patch::Patch;
use crate::resource::ResourceSpec;
use crate::state::{DeleteOptions, Resolved, State, Sub, WriteOptions};
use crate::status::StatusError;
use crate::store::{object_key, Obj, Outcome};
use crate::strategy;

/// The finalizer that keeps an owner until its dependents' references to it are removed.
pub(crate) const ORPHAN: &str = "orphan";

/// The finalizer that keeps an owner until its blocking dependents are gone.
pub(crate) const FOREGROUND: &str = "foregroundDeletion";

/// How often the collector looks again at work that is waiting on something else (an
/// owner whose blocking dependents are held by their own finalizers, a write that hit a
/// conflict).
const RETRY: Duration = Duration::from_millis(50);

/// `DeleteOptions.propagationPolicy`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Propagation {
    /// Keep the dependents; remove their references to the owner first.
    Orphan,
    /// Delete the owner now, its dependents afterwards.
    Background,
    /// Delete the blocking dependents first, then the owner.
    Foreground,
}

impl Propagation {
    /// The policy a (validated) `propagationPolicy` value names.
    pub(crate) fn parse(text: &str) -> Option<Self> {
        match text {
            "Orphan" => Some(Self::Orphan),
            "Background" => Some(Self::Background),
            "Foreground" => Some(Self::Foreground),
            _ => None,
        }
    }

    fn as_str(self) -> &'static str {
        match self {
            Self::Orphan => "Orphan",
            Self::Background => "Background",
            Self::Foreground => "Foreground",
        }
    }
}

/// The registry strategy's `DefaultGarbageCollectionPolicy`: `Orphan` where the API
/// version keeps its old default (`v1` ReplicationControllers, `batch/v1` Jobs, the
/// `extensions` and `apps/v1beta*` workloads), `Background` everywhere else.
fn default_orphans(spec: &ResourceSpec) -> bool {
    matches!(
        (
            spec.group.as_str(),
            spec.version.as_str(),
            spec.plural.as_str()
        ),
        ("", "v1", "replicationcontrollers")
            | ("batch", "v1", "jobs")
            | ("extensions", _, _)
            | ("apps", "v1beta1" | "v1beta2", _)
    )
}

/// The `metadata.finalizers` a DELETE with `opts` leaves on `obj` (the store's
/// `deletionFinalizersForGarbageCollection`), or `None` when they do not change. An
/// explicit `orphanDependents` wins over `propagationPolicy`, which wins over a GC
/// finalizer already on the object, which wins over the resource's default.
pub(crate) fn deletion_finalizers(
    state: &State,
    spec: &ResourceSpec,
    obj: &Value,
    opts: &DeleteOptions,
) -> Option<Vec<String>> {
    if !state.config.garbage_collection {
        return None;
    }
    let current: Vec<&str> = strategy::finalizers(obj);
    let orphan = match (opts.orphan_dependents, opts.propagation) {
        (Some(o), _) => o,
        (None, Some(p)) => p == Propagation::Orphan,
        (None, None) if current.contains(&ORPHAN) => true,
        (None, None) if current.contains(&FOREGROUND) => false,
        (None, None) => default_orphans(spec),
    };
    let foreground = match (opts.orphan_dependents, opts.propagation) {
        (Some(_), _) => false,
        (None, Some(p)) => p == Propagation::Foreground,
        (None, None) => current.contains(&FOREGROUND),
    };
    let mut wanted: Vec<String> = current
        .iter()
        .filter(|f| **f != ORPHAN && **f != FOREGROUND)
        .map(|f| (*f).to_owned())
        .collect();
    if orphan {
        wanted.push(ORPHAN.to_owned());
    }
    if foreground {
        wanted.push(FOREGROUND.to_owned());
    }
    let before: HashSet<&str> = current.iter().copied().collect();
    let after: HashSet<&str> = wanted.iter().map(String::as_str).collect();
    (before != after).then_some(wanted)
}

/// One object the collector acts on: its resource (`plural.group`), place and uid.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
struct Target {
    resource: String,
    namespace: Option<String>,
    name: String,
    uid: String,
}

/// The collector's view of the store: dependents by owner uid, the uids of deleted
/// objects, and its work.
#[derive(Default)]
struct Graph {
    /// Owner uid → the objects written through the API that named it as an owner.
    dependents: HashMap<String, HashSet<Target>>,
    /// Every uid of an object this server deleted: a reference to one is dangling.
    deleted: HashSet<String>,
    /// Owners that went: their dependents are looked at next.
    gone: Vec<String>,
    /// Dependents to classify (`attemptToDeleteItem`).
    check: HashSet<Target>,
    /// Owners being deleted with the `orphan` or `foregroundDeletion` finalizer.
    finalizing: HashSet<Target>,
}

/// The collector's shared part: its graph and what wakes it.
#[derive(Default)]
pub(crate) struct Collector {
    graph: Mutex<Graph>,
    wake: Notify,
}

impl Collector {
    fn graph(&self) -> MutexGuard<'_, Graph> {
        self.graph.lock().unwrap_or_else(|p| p.into_inner())
    }
}

/// Called after every stored write that went through the API: a deleted object's
/// dependents are queued, a written object's owner references are recorded and checked,
/// an owner held by a GC finalizer is queued for finalization.
pub(crate) fn observe(state: &State, spec: &ResourceSpec, outcome: Outcome, obj: &Obj) {
    if !state.config.garbage_collection {
        return;
    }
    let deleted = outcome == Outcome::Deleted;
    if !deleted && !mentions(obj, b"\"ownerReferences\"") && !mentions(obj, b"\"finalizers\"") {
        return;
    }
    let Ok(value) = obj.to_value() else {
        return;
    };
    let Some(uid) = meta_str(&value, "uid").filter(|u| !u.is_empty()) else {
        return;
    };
    let target = Target {
        resource: qualified(spec),
        namespace: obj.namespace.clone(),
        name: obj.name.clone(),
        uid: uid.to_owned(),
    };
    let collector = &state.garbage_collector;
    {
        let mut graph = collector.graph();
        if deleted {
            graph.deleted.insert(target.uid.clone());
            graph.gone.push(target.uid.clone());
            graph.finalizing.remove(&target);
        } else {
            for owner in owner_uids(&value) {
                graph
                    .dependents
                    .entry(owner)
                    .or_default()
                    .insert(target.clone());
            }
            if !owner_references(&value).is_empty() {
                graph.check.insert(target.clone());
            }
            let finalizers = strategy::finalizers(&value);
            if strategy::being_deleted(&value)
                && (finalizers.contains(&ORPHAN) || finalizers.contains(&FOREGROUND))
            {
                graph.finalizing.insert(target);
            }
        }
    }
    collector.wake.notify_one();
}

/// Whether the stored bytes contain `needle`: most writes carry neither owner references
/// nor finalizers, and need not be parsed again.
fn mentions(obj: &Obj, needle: &[u8]) -> bool {
    obj.bytes.windows(needle.len()).any(|w| w == needle)
}

/// `plural.group` (`plural` for the core group), as [`State::resolve_name`] takes it.
fn qualified(spec: &ResourceSpec) -> String {
    if spec.group.is_empty() {
        spec.plural.clone()
    } else {
        format!("{}.{}", spec.plural, spec.group)
    }
}

fn owner_references(obj: &Value) -> Vec<Value> {
    obj.pointer("/metadata/ownerReferences")
        .and_then(Value::as_array)
        .cloned()
        .unwrap_or_default()
}

fn owner_uids(obj: &Value) -> Vec<String> {
    owner_references(obj)
        .iter()
        .filter_map(|r| r.get("uid").and_then(Value::as_str))
        .map(str::to_owned)
        .collect()
}

/// The collector, for as long as the server serves: after each wake it works through
/// what the writes queued, and while some owner still waits (or a write of its own hit a
/// conflict) it looks again every [`RETRY`].
pub(crate) async fn run(state: Arc<State>, cancel: CancellationToken) {
    if !state.config.garbage_collection {
        return;
    }
    loop {
        while pass(&state) {
            tokio::select! {
                _ = cancel.cancelled() => return,
                _ = state.garbage_collector.wake.notified() => {}
                _ = tokio::time::sleep(RETRY) => {}
            }
        }
        tokio::select! {
            _ = cancel.cancelled() => return,
            _ = state.garbage_collector.wake.notified() => {}
        }
    }
}

/// One pass: the dependents of gone owners, the queued dependents, then the owners being
/// finalized. True while work remains.
fn pass(state: &State) -> bool {
    let collector = &state.garbage_collector;
    let mut pending = false;
    let mut later = Vec::new();
    loop {
        let (gone, check) = {
            let mut graph = collector.graph();
            let gone = std::mem::take(&mut graph.gone);
            let mut check: Vec<Target> = graph.check.drain().collect();
            for uid in &gone {
                if let Some(deps) = graph.dependents.remove(uid) {
                    check.extend(deps);
                }
            }
            (gone, check)
        };
        if gone.is_empty() && check.is_empty() {
            break;
        }
        for target in check {
            if let Err(e) = attempt_to_delete(state, &target) {
                pending |= retry(&target, &e, &mut later);
            }
        }
    }
    let finalizing: Vec<Target> = collector.graph().finalizing.iter().cloned().collect();
    for target in finalizing {
        match finalize(state, &target) {
            Ok(true) => {
                collector.graph().finalizing.remove(&target);
            }
            Ok(false) => pending = true,
            Err(e) => pending |= retry(&target, &e, &mut later),
        }
    }
    collector.graph().check.extend(later);
    pending
}

/// Keeps `target` for the next pass after a failed write (a conflict with a client's
/// write): true when it is worth another look; a 404 (the object or its namespace went
/// meanwhile) is not.
fn retry(target: &Target, e: &StatusError, later: &mut Vec<Target>) -> bool {
    if e.code == 404 {
        return false;
    }
    tracing::debug!(object = %target.name, error = %e, "test-apiserver: garbage collector retries");
    later.push(target.clone());
    true
}

/// The current object `target` names, if it is still the same object (same uid).
fn current(state: &State, target: &Target) -> Option<(Resolved, Value)> {
    let r = state.resolve_name(&target.resource).ok()?;
    let obj = r
        .store
        .get(&object_key(target.namespace.as_deref(), &target.name))?;
    let value = obj.to_value().ok()?;
    (meta_str(&value, "uid") == Some(target.uid.as_str())).then_some((r, value))
}

/// What an owner reference points at, seen from its dependent.
enum Owner {
    /// The owner is there and not waiting for its dependents.
    Solid,
    /// The owner is gone (or another object has its name).
    Dangling,
    /// The owner is being deleted in the foreground.
    Waiting,
    /// Unknown kind, a cluster-scoped dependent of a namespaced owner, or (with
    /// `collect_unknown_owners(false)`) a uid this server never issued: the dependent is
    /// left alone.
    Unresolved,
}

fn classify(state: &State, dependent: &Target, reference: &Value) -> Owner {
    let api_version = reference
        .get("apiVersion")
        .and_then(Value::as_str)
        .unwrap_or_default();
    let group = api_version.rsplit_once('/').map_or("", |(g, _)| g);
    let kind = reference
        .get("kind")
        .and_then(Value::as_str)
        .unwrap_or_default();
    let name = reference
        .get("name")
        .and_then(Value::as_str)
        .unwrap_or_default();
    let uid = reference
        .get("uid")
        .and_then(Value::as_str)
        .unwrap_or_default();
    let Some(spec) = state
        .specs()
        .into_iter()
        .find(|s| s.group == group && s.kind == kind)
    else {
        return Owner::Unresolved;
    };
    if spec.namespaced && dependent.namespace.is_none() {
        return Owner::Unresolved;
    }
    let namespace = if spec.namespaced {
        dependent.namespace.as_deref()
    } else {
        None
    };
    let found = state
        .resolve(&spec.group, &spec.version, &spec.plural)
        .and_then(|r| r.store.get(&object_key(namespace, name)))
        .and_then(|o| o.to_value().ok());
    match found {
        Some(owner) if meta_str(&owner, "uid") != Some(uid) => Owner::Dangling,
        Some(owner)
            if strategy::being_deleted(&owner)
                && strategy::finalizers(&owner).contains(&FOREGROUND) =>
        {
            Owner::Waiting
        }
        Some(_) => Owner::Solid,
        None if state.config.collect_unknown_owners
            || state.garbage_collector.graph().deleted.contains(uid) =>
        {
            Owner::Dangling
        }
        None => Owner::Unresolved,
    }
}

/// The collector's `attemptToDeleteItem` for one dependent: with a solid owner left, the
/// references to gone owners (and to owners waiting on it) are removed; without one, it is
/// deleted: in the foreground when an owner waits for it and it has dependents of its
/// own, else as its own GC finalizer says (default `Background`).
fn attempt_to_delete(state: &State, target: &Target) -> Result<(), StatusError> {
    let Some((r, value)) = current(state, target) else {
        return Ok(());
    };
    let finalizers = strategy::finalizers(&value);
    if strategy::being_deleted(&value) {
        // Each pass ends with the owners being finalized: no wake needed (one here would
        // have the collector spin on an owner that waits).
        if finalizers.contains(&FOREGROUND) {
            state
                .garbage_collector
                .graph()
                .finalizing
                .insert(target.clone());
        }
        return Ok(());
    }
    let references = owner_references(&value);
    if references.is_empty() {
        return Ok(());
    }
    let mut solid = 0;
    let mut unwanted: Vec<String> = Vec::new();
    let mut waiting = false;
    for reference in &references {
        let uid = reference
            .get("uid")
            .and_then(Value::as_str)
            .unwrap_or_default()
            .to_owned();
        match classify(state, target, reference) {
            Owner::Solid => solid += 1,
            Owner::Dangling => unwanted.push(uid),
            Owner::Waiting => {
                waiting = true;
                unwanted.push(uid);
            }
            Owner::Unresolved => return Ok(()),
        }
    }
    if solid > 0 {
        if unwanted.is_empty() {
            return Ok(());
        }
        return remove_references(state, &r, target, &references, &unwanted);
    }
    let policy = if waiting && has_dependents(state, target) {
        Propagation::Foreground
    } else if finalizers.contains(&ORPHAN) {
        Propagation::Orphan
    } else if finalizers.contains(&FOREGROUND) {
        Propagation::Foreground
    } else {
        Propagation::Background
    };
    delete(state, &r, target, policy)
}

/// The live dependents of `owner` and, for each, whether its reference blocks the owner's
/// deletion.
fn dependents(state: &State, owner: &Target) -> Vec<(Target, bool)> {
    let known: Vec<Target> = state
        .garbage_collector
        .graph()
        .dependents
        .get(&owner.uid)
        .map(|s| s.iter().cloned().collect())
        .unwrap_or_default();
    let mut live = Vec::new();
    let mut stale = Vec::new();
    for dep in known {
        let reference = current(state, &dep).and_then(|(_, v)| {
            owner_references(&v)
                .into_iter()
                .find(|r| r.get("uid").and_then(Value::as_str) == Some(owner.uid.as_str()))
        });
        match reference {
            Some(r) => {
                let blocks = r.get("blockOwnerDeletion").and_then(Value::as_bool) == Some(true);
                live.push((dep, blocks));
            }
            None => stale.push(dep),
        }
    }
    if !stale.is_empty() {
        let mut graph = state.garbage_collector.graph();
        if let Some(set) = graph.dependents.get_mut(&owner.uid) {
            for dep in &stale {
                set.remove(dep);
            }
        }
    }
    live
}

fn has_dependents(state: &State, target: &Target) -> bool {
    !dependents(state, target).is_empty()
}

/// One step for an owner held by a GC finalizer; true when it no longer needs the
/// collector. `orphan`: strip every dependent's reference to it, then drop the finalizer.
/// `foregroundDeletion`: drop the finalizer once no dependent blocks it; until then,
/// delete its dependents.
fn finalize(state: &State, target: &Target) -> Result<bool, StatusError> {
    let Some((r, value)) = current(state, target) else {
        return Ok(true);
    };
    if !strategy::being_deleted(&value) {
        return Ok(true);
    }
    let finalizers = strategy::finalizers(&value);
    if finalizers.contains(&ORPHAN) {
        for (dep, _) in dependents(state, target) {
            if let Some((dr, dv)) = current(state, &dep) {
                remove_references(
                    state,
                    &dr,
                    &dep,
                    &owner_references(&dv),
                    std::slice::from_ref(&target.uid),
                )?;
            }
        }
        remove_finalizer(state, &r, target, &value, ORPHAN)?;
        return Ok(true);
    }
    if !finalizers.contains(&FOREGROUND) {
        return Ok(true);
    }
    let deps = dependents(state, target);
    if deps.iter().all(|(_, blocks)| !blocks) {
        remove_finalizer(state, &r, target, &value, FOREGROUND)?;
        return Ok(true);
    }
    for (dep, _) in deps {
        attempt_to_delete(state, &dep)?;
    }
    Ok(false)
}

/// A DELETE of `target` (uid precondition) with `policy`, as the collector sends it.
fn delete(
    state: &State,
    r: &Resolved,
    target: &Target,
    policy: Propagation,
) -> Result<(), StatusError> {
    tracing::debug!(object = %target.name, policy = policy.as_str(), "test-apiserver: garbage collector deletes");
    let opts = DeleteOptions {
        uid: Some(target.uid.clone()),
        propagation: Some(policy),
        ..DeleteOptions::default()
    };
    state
        .delete(r, target.namespace.as_deref(), &target.name, &opts)
        .map(|_| ())
}

/// A merge patch of `target` (uid precondition) that keeps only the owner references
/// whose uid is not in `drop` (the field goes when none is left).
fn remove_references(
    state: &State,
    r: &Resolved,
    target: &Target,
    references: &[Value],
    drop: &[String],
) -> Result<(), StatusError> {
    let kept: Vec<Value> = references
        .iter()
        .filter(|r| {
            !r.get("uid")
                .and_then(Value::as_str)
                .is_some_and(|u| drop.iter().any(|d| d == u))
        })
        .cloned()
        .collect();
    if kept.len() == references.len() {
        return Ok(());
    }
    let kept = if kept.is_empty() {
        Value::Null
    } else {
        Value::Array(kept)
    };
    let patch = json!({"metadata": {"uid": target.uid, "ownerReferences": kept}});
    patch_object(state, r, target, patch)
}

/// Removes `finalizer` from the owner (with its resourceVersion as precondition): the
/// last one deletes it, as a client's update removing it would.
fn remove_finalizer(
    state: &State,
    r: &Resolved,
    target: &Target,
    value: &Value,
    finalizer: &str,
) -> Result<(), StatusError> {
    let kept: Vec<&str> = strategy::finalizers(value)
        .into_iter()
        .filter(|f| *f != finalizer)
        .collect();
    let rv = meta_str(value, "resourceVersion").unwrap_or_default();
    let patch = json!({"metadata": {"uid": target.uid, "resourceVersion": rv, "finalizers": kept}});
    patch_object(state, r, target, patch)
}

fn patch_object(
    state: &State,
    r: &Resolved,
    target: &Target,
    patch: Value,
) -> Result<(), StatusError> {
    state
        .patch(
            r,
            target.namespace.as_deref(),
            &target.name,
            &Patch::Merge(patch),
            Sub::Main,
            &WriteOptions::default(),
        )
        .map(|_| ())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn spec(group: &str, version: &str, plural: &str) -> ResourceSpec {
        ResourceSpec::new(group, version, "K", plural, true)
    }

    #[test]
    fn old_api_versions_orphan_by_default() {
        assert!(default_orphans(&spec("", "v1", "replicationcontrollers")));
        assert!(default_orphans(&spec("batch", "v1", "jobs")));
        assert!(default_orphans(&spec("apps", "v1beta2", "deployments")));
        assert!(!default_orphans(&spec("apps", "v1", "deployments")));
        assert!(!default_orphans(&spec("", "v1", "pods")));
        assert!(!default_orphans(&spec("example.com", "v1", "widgets")));
    }
}
