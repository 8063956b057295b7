//! Namespaces as a cluster runs them: the `NamespaceLifecycle` admission plugin (writes
//! into a namespace that does not exist are 404, creates into one being deleted 403, the
//! immortal namespaces cannot be deleted), the namespace registry's two-step delete (the
//! first DELETE marks the namespace `Terminating`; it goes once `spec.finalizers` is
//! empty) and the namespace controller, which empties a terminating namespace in the
//! background and then finalizes and deletes it.

use std::collections::HashSet;
use std::sync::Arc;
use std::time::Duration;

use serde_json::{json, Value};
use tokio::sync::Notify;
use tokio_util::sync::CancellationToken;

use crate::meta::{meta_str, now_rfc3339};
use crate::resource::ResourceSpec;
use crate::state::{DeleteOptions, Resolved, State};
use crate::status::StatusError;
use crate::store::{object_key, Change, Obj, Outcome};
use crate::strategy;

/// The namespaces a fresh cluster has.
pub(crate) const INITIAL: [&str; 4] = ["default", "kube-node-lease", "kube-public", "kube-system"];

/// The namespaces the admission plugin refuses to delete.
const IMMORTAL: [&str; 3] = ["default", "kube-system", "kube-public"];

/// The finalizer the namespace registry puts in `spec.finalizers` and the namespace
/// controller removes once the namespace is empty.
const KUBERNETES_FINALIZER: &str = "kubernetes";

/// How often the controller retries a namespace whose content is still held by
/// finalizers.
const RETRY: Duration = Duration::from_millis(50);

/// Wakes the namespace controller when a namespace starts terminating.
#[derive(Default)]
pub(crate) struct Controller {
    wake: Notify,
}

/// True for the core `namespaces` resource.
pub(crate) fn is_namespaces(spec: &ResourceSpec) -> bool {
    spec.group.is_empty() && spec.plural == "namespaces"
}

/// The stored namespace `name`, if any.
fn namespace(state: &State, name: &str) -> Result<Option<Value>, StatusError> {
    let Ok(r) = state.resolve_name("namespaces") else {
        return Ok(None);
    };
    r.store
        .get(&object_key(None, name))
        .map(|o| o.to_value())
        .transpose()
}

/// The plugin's answer for a namespace that does not exist: the namespace registry's 404.
fn missing(namespace: &str) -> StatusError {
    StatusError::not_found("", "namespaces", namespace)
}

/// `NamespaceLifecycle` for a create of `spec` in `namespace` (a POST, or a PUT that
/// creates): the namespace must exist and not be terminating. `name` is the object's
/// name, else its `generateName` (names are generated after admission).
pub(crate) fn admit_create(
    state: &State,
    spec: &ResourceSpec,
    namespace: Option<&str>,
    name: &str,
) -> Result<(), StatusError> {
    let Some(ns) = namespace.filter(|_| spec.namespaced) else {
        return Ok(());
    };
    let found = namespace_of(state, ns)?;
    if found.pointer("/status/phase").and_then(Value::as_str) != Some("Terminating") {
        return Ok(());
    }
    let name = if name.is_empty() { "Unknown" } else { name };
    let resource = spec.group_resource();
    let mut details = json!({
        "name": name,
        "kind": spec.plural,
        "causes": [{
            "reason": "NamespaceTerminating",
            "message": format!("namespace {ns} is being terminated"),
            "field": "metadata.namespace",
        }],
    });
    if !spec.group.is_empty() {
        details["group"] = json!(spec.group);
    }
    Err(StatusError {
        code: 403,
        reason: "Forbidden".to_owned(),
        message: format!("{resource} \"{name}\" is forbidden: unable to create new content in namespace {ns} because it is being terminated"),
        details: Some(details),
        retry_after: None,
    })
}

/// `NamespaceLifecycle` for an update of an existing object: its namespace must exist
/// (one being terminated is fine).
pub(crate) fn admit_update(
    state: &State,
    spec: &ResourceSpec,
    namespace: Option<&str>,
) -> Result<(), StatusError> {
    match namespace.filter(|_| spec.namespaced) {
        Some(ns) => namespace_of(state, ns).map(|_| ()),
        None => Ok(()),
    }
}

fn namespace_of(state: &State, ns: &str) -> Result<Value, StatusError> {
    namespace(state, ns)?.ok_or_else(|| missing(ns))
}

/// The namespace strategy's `PrepareForCreate` beyond the status every create resets:
/// `spec.finalizers` gets `kubernetes` (appended when others are there).
pub(crate) fn prepare_create(spec: &ResourceSpec, obj: &mut Value) {
    if !is_namespaces(spec) {
        return;
    }
    let Some(map) = obj.as_object_mut() else {
        return;
    };
    let spec_value = map.entry("spec").or_insert_with(|| json!({}));
    if !spec_value.is_object() {
        *spec_value = json!({});
    }
    let list = spec_value
        .as_object_mut()
        .map(|s| s.entry("finalizers").or_insert_with(|| json!([])));
    if let Some(list) = list {
        if !list.is_array() {
            *list = json!([]);
        }
        if let Some(items) = list.as_array_mut() {
            if !items.iter().any(|f| f == KUBERNETES_FINALIZER) {
                items.push(json!(KUBERNETES_FINALIZER));
            }
        }
    }
}

/// The namespace strategy's `PrepareForUpdate`: `spec.finalizers` only change through
/// finalization.
pub(crate) fn prepare_update(spec: &ResourceSpec, old: &Value, new: &mut Value) {
    if !is_namespaces(spec) {
        return;
    }
    let kept = old.pointer("/spec/finalizers").cloned();
    let Some(map) = new.as_object_mut() else {
        return;
    };
    let spec_value = map.entry("spec").or_insert_with(|| json!({}));
    if let Some(s) = spec_value.as_object_mut() {
        match kept {
            Some(f) => s.insert("finalizers".into(), f),
            None => s.remove("finalizers"),
        };
    }
}

/// Whether `obj`, being deleted, may go once its last `metadata.finalizers` entry is
/// removed: a Namespace only when its `spec.finalizers` are empty too
/// (`ShouldDeleteNamespaceDuringUpdate`).
pub(crate) fn finalized(spec: &ResourceSpec, obj: &Value) -> bool {
    !is_namespaces(spec)
        || obj
            .pointer("/spec/finalizers")
            .and_then(Value::as_array)
            .is_none_or(Vec::is_empty)
}

/// The namespace registry's DELETE: preconditions (with its own messages), then the first
/// delete marks the namespace `Terminating` with a `deletionTimestamp` (refused for the
/// immortal namespaces) and wakes the controller; later ones answer with the namespace
/// until its `spec.finalizers` are empty, and then delete it as any object (unless
/// `metadata.finalizers` still hold it).
pub(crate) fn delete(
    state: &State,
    r: &Resolved,
    name: &str,
    opts: &DeleteOptions,
) -> Result<(Outcome, Arc<Obj>), StatusError> {
    let key = object_key(None, name);
    let mut marked = false;
    let result = r.store.write(&state.clock, &key, opts.dry_run, |existing| {
        let old = existing.ok_or_else(|| missing(name))?;
        let mut value = old.to_value()?;
        let conflict = |why: String| StatusError::conflict_because("", "namespaces", name, &why);
        let uid = meta_str(&value, "uid").unwrap_or_default().to_owned();
        if let Some(want) = opts.uid.as_deref().filter(|u| *u != uid) {
            return Err(conflict(format!(
                "Precondition failed: UID in precondition: {want}, UID in object meta: {uid}"
            )));
        }
        let rv = old.rv.to_string();
        if let Some(want) = opts.resource_version.as_deref().filter(|v| *v != rv) {
            return Err(conflict(format!(
                "Precondition failed: ResourceVersion in precondition: {want}, ResourceVersion in object meta: {rv}"
            )));
        }
        if !strategy::being_deleted(&value) {
            if IMMORTAL.contains(&name) {
                return Err(StatusError {
                    code: 403,
                    reason: "Forbidden".to_owned(),
                    message: format!(
                        "namespaces \"{name}\" is forbidden: this namespace may not be deleted"
                    ),
                    details: Some(json!({"name": name, "kind": "namespaces"})),
                    retry_after: None,
                });
            }
            if let Some(m) = value.get_mut("metadata").and_then(Value::as_object_mut) {
                m.insert("deletionTimestamp".into(), json!(now_rfc3339()));
            }
            if let Some(map) = value.as_object_mut() {
                let status = map.entry("status").or_insert_with(|| json!({}));
                if let Some(s) = status.as_object_mut() {
                    s.insert("phase".into(), json!("Terminating"));
                }
            }
            marked = true;
            return Ok(Change::Put(value));
        }
        let spec_finalizers = value
            .pointer("/spec/finalizers")
            .and_then(Value::as_array)
            .is_some_and(|l| !l.is_empty());
        if spec_finalizers {
            return Ok(Change::Put(value));
        }
        if strategy::finalizers(&value).is_empty() {
            Ok(Change::Delete)
        } else {
            strategy::mark_deleting(&mut value)?;
            Ok(Change::Put(value))
        }
    });
    if marked && !opts.dry_run && result.is_ok() {
        state.namespace_controller.wake.notify_one();
    }
    result
}

/// The namespace controller, for as long as the server serves: after each wake (and once
/// at start, for namespaces left terminating by a restart) it empties every terminating
/// namespace, retrying while finalizers hold content back, then finalizes and deletes it.
pub(crate) async fn run(state: Arc<State>, cancel: CancellationToken) {
    loop {
        while sweep(&state) {
            tokio::select! {
                _ = cancel.cancelled() => return,
                _ = tokio::time::sleep(RETRY) => {}
            }
        }
        tokio::select! {
            _ = cancel.cancelled() => return,
            _ = state.namespace_controller.wake.notified() => {}
        }
    }
}

/// One pass over the terminating namespaces; true while some are still there.
fn sweep(state: &State) -> bool {
    let Ok(namespaces) = state.resolve_name("namespaces") else {
        return false;
    };
    let (_, all) = namespaces.store.select(&state.clock, None, &|_| true);
    let mut pending = false;
    for ns in &all {
        let Ok(value) = ns.to_value() else {
            continue;
        };
        if !strategy::being_deleted(&value) {
            continue;
        }
        match finish(state, &namespaces, &ns.name) {
            Ok(true) => {}
            Ok(false) => pending = true,
            Err(e) => {
                tracing::warn!(namespace = %ns.name, error = %e, "test-apiserver: namespace controller");
                pending = true;
            }
        }
    }
    pending
}

/// Deletes what is left in the terminating namespace `ns`; once nothing is, removes the
/// `kubernetes` finalizer and deletes the namespace. True when the namespace is gone (or
/// only its own `metadata.finalizers` hold it).
fn finish(state: &State, namespaces: &Resolved, ns: &str) -> Result<bool, StatusError> {
    let mut seen = HashSet::new();
    let mut remaining = 0;
    for spec in state.specs() {
        if !spec.namespaced || !seen.insert((spec.group.clone(), spec.plural.clone())) {
            continue;
        }
        let Some(r) = state.resolve(&spec.group, &spec.version, &spec.plural) else {
            continue;
        };
        let (_, items) = r.store.select(&state.clock, Some(ns), &|_| true);
        for obj in items {
            match state.delete(&r, Some(ns), &obj.name, &DeleteOptions::default()) {
                Ok((Outcome::Deleted, _)) => {}
                Ok(_) => remaining += 1,
                Err(e) if e.code == 404 => {}
                Err(e) => return Err(e),
            }
        }
    }
    if remaining > 0 {
        return Ok(false);
    }
    let key = object_key(None, ns);
    namespaces
        .store
        .write(&state.clock, &key, false, |existing| {
            let old = existing.ok_or_else(|| missing(ns))?;
            let mut value = old.to_value()?;
            if let Some(list) = value
                .pointer_mut("/spec/finalizers")
                .and_then(Value::as_array_mut)
            {
                list.retain(|f| f != KUBERNETES_FINALIZER);
            }
            Ok(Change::Put(value))
        })?;
    match delete(state, namespaces, ns, &DeleteOptions::default()) {
        Ok(_) => Ok(true),
        Err(e) if e.code == 404 => Ok(true),
        Err(e) => Err(e),
    }
}
