//! What a write stores, per resource: kube-apiserver's `rest.BeforeCreate`/`BeforeUpdate`
//! and the registry strategies' `PrepareForCreate`/`PrepareForUpdate` (server-owned
//! metadata, `status` on create and on updates, `metadata.generation`), the status
//! subresource's update and the graceful-deletion marks of a delete held by finalizers.

use serde_json::{Map, Value};

use crate::meta::{new_uid, now_rfc3339};
use crate::resource::{Generation, ResourceSpec, StatusOnCreate};
use crate::status::StatusError;

fn meta(obj: &Value) -> Option<&Map<String, Value>> {
    obj.get("metadata")?.as_object()
}

fn meta_mut(obj: &mut Value) -> Result<&mut Map<String, Value>, StatusError> {
    obj.as_object_mut()
        .ok_or_else(|| StatusError::bad_request("the object is not a JSON object"))?
        .entry("metadata")
        .or_insert_with(|| Value::Object(Map::new()))
        .as_object_mut()
        .ok_or_else(|| StatusError::bad_request("metadata is not a JSON object"))
}

fn generation_of(obj: &Value) -> Option<i64> {
    meta(obj)?.get("generation")?.as_i64()
}

/// The strings of `metadata.finalizers`.
pub(crate) fn finalizers(obj: &Value) -> Vec<&str> {
    meta(obj)
        .and_then(|m| m.get("finalizers"))
        .and_then(Value::as_array)
        .map(|l| l.iter().filter_map(Value::as_str).collect())
        .unwrap_or_default()
}

/// True when `metadata.deletionTimestamp` is set.
pub(crate) fn being_deleted(obj: &Value) -> bool {
    meta(obj).is_some_and(|m| m.get("deletionTimestamp").is_some_and(|t| !t.is_null()))
}

/// The object without `kind`/`apiVersion`, `metadata` and, when `drop_status`, `status`.
fn content(obj: &Value, drop_status: bool) -> Value {
    let mut v = obj.clone();
    if let Some(m) = v.as_object_mut() {
        for k in ["kind", "apiVersion", "metadata"] {
            m.remove(k);
        }
        if drop_status {
            m.remove("status");
        }
    }
    v
}

/// A create: server-owned metadata (uid, creationTimestamp, no deletion marks, no
/// resourceVersion), generation 1 where kept, and the strategy's `status`.
pub(crate) fn prepare_create(spec: &ResourceSpec, obj: &mut Value) -> Result<(), StatusError> {
    let status = match &spec.status_on_create {
        StatusOnCreate::Keep => None,
        StatusOnCreate::Drop => Some(None),
        StatusOnCreate::Reset(zero) => Some(Some(serde_json::from_str(zero).map_err(|e| {
            StatusError::internal(&format!(
                "the zero status of {} is not JSON: {e}",
                spec.kind
            ))
        })?)),
        StatusOnCreate::PodPending => Some(Some(serde_json::json!({
            "phase": "Pending",
            "qosClass": pod_qos_class(obj.get("spec").unwrap_or(&Value::Null)),
        }))),
    };
    if let (Some(status), Some(map)) = (status, obj.as_object_mut()) {
        match status {
            Some(s) => map.insert("status".into(), s),
            None => map.remove("status"),
        };
    }
    let keeps_generation = spec.generation != Generation::None;
    let m = meta_mut(obj)?;
    m.insert("uid".into(), Value::String(new_uid()));
    m.insert("creationTimestamp".into(), Value::String(now_rfc3339()));
    for field in [
        "deletionTimestamp",
        "deletionGracePeriodSeconds",
        "resourceVersion",
    ] {
        m.remove(field);
    }
    if keeps_generation {
        m.insert("generation".into(), Value::from(1));
    }
    default_namespace_name_label(spec, m);
    clean_secret_references(spec, obj);
    Ok(())
}

/// The ServiceAccount strategy's `cleanSecretReferences` (create and update): each of
/// `secrets` keeps only its `name` (an empty one is not written, as Go omits it).
fn clean_secret_references(spec: &ResourceSpec, obj: &mut Value) {
    if !crate::serviceaccounts::is_service_accounts(spec) {
        return;
    }
    let Some(list) = obj.get_mut("secrets").and_then(Value::as_array_mut) else {
        return;
    };
    for item in list.iter_mut() {
        let mut cleaned = Map::new();
        if let Some(name) = item.get("name").filter(|n| n.as_str() != Some("")) {
            cleaned.insert("name".into(), name.clone());
        }
        *item = Value::Object(cleaned);
    }
}

/// Namespaces carry their own name as the `kubernetes.io/metadata.name` label, set by
/// kube-apiserver's defaulting on every write (so a selector over namespaces can name one),
/// whatever the client sent in its place.
fn default_namespace_name_label(spec: &ResourceSpec, m: &mut Map<String, Value>) {
    if !(spec.group.is_empty() && spec.plural == "namespaces") {
        return;
    }
    let Some(name) = m.get("name").and_then(Value::as_str).map(str::to_owned) else {
        return;
    };
    if name.is_empty() {
        return;
    }
    let labels = m
        .entry("labels")
        .or_insert_with(|| Value::Object(Map::new()));
    if !labels.is_object() {
        *labels = Value::Object(Map::new());
    }
    if let Value::Object(labels) = labels {
        labels.insert("kubernetes.io/metadata.name".into(), Value::String(name));
    }
}

/// The QoS class kube-apiserver computes for a new Pod from its containers' cpu and
/// memory requests and limits (requests default to limits).
fn pod_qos_class(pod_spec: &Value) -> &'static str {
    let containers: Vec<&Value> = ["containers", "initContainers"]
        .iter()
        .filter_map(|k| pod_spec.get(k).and_then(Value::as_array))
        .flatten()
        .collect();
    let resource = |c: &Value, kind: &str, name: &str| -> Option<String> {
        c.get("resources")?
            .get(kind)?
            .get(name)?
            .as_str()
            .map(str::to_owned)
    };
    let mut any = false;
    let mut guaranteed = true;
    for c in &containers {
        for name in ["cpu", "memory"] {
            let request = resource(c, "requests", name);
            let limit = resource(c, "limits", name);
            any |= request.is_some() || limit.is_some();
            match (request, limit) {
                (Some(r), Some(l)) if r == l => {}
                (None, Some(_)) => {}
                _ => guaranteed = false,
            }
        }
    }
    match (any, guaranteed) {
        (false, _) => "BestEffort",
        (true, true) => "Guaranteed",
        (true, false) => "Burstable",
    }
}

/// An update of the object itself: server-owned metadata kept from `old` (uid when the
/// body has none, creationTimestamp, deletion marks, managedFields when the body has
/// none), `status` kept for resources with the status subresource, generation per the
/// resource's rule; no new finalizers once the object is being deleted.
pub(crate) fn prepare_update(
    spec: &ResourceSpec,
    old: &Value,
    new: &mut Value,
    name: &str,
) -> Result<(), StatusError> {
    if spec.status_subresource {
        if let Some(map) = new.as_object_mut() {
            match old.get("status") {
                Some(s) => map.insert("status".into(), s.clone()),
                None => map.remove("status"),
            };
        }
    }
    if being_deleted(old) {
        let before = finalizers(old);
        let added: Vec<&str> = finalizers(new)
            .into_iter()
            .filter(|f| !before.contains(f))
            .collect();
        if !added.is_empty() {
            let list = added
                .iter()
                .map(|f| format!("{f:?}"))
                .collect::<Vec<_>>()
                .join(", ");
            return Err(StatusError::invalid(
                &spec.kind,
                &spec.group,
                name,
                &[(
                    "metadata.finalizers",
                    format!("Forbidden: no new finalizers can be added if the object is being deleted, found new finalizers []string{{{list}}}"),
                )],
            ));
        }
    }
    let generation = next_generation(spec, old, new);
    let old_meta = meta(old).cloned().unwrap_or_default();
    let m = meta_mut(new)?;
    if m.get("uid")
        .and_then(Value::as_str)
        .is_none_or(str::is_empty)
    {
        copy_field(&old_meta, m, "uid");
    }
    copy_field(&old_meta, m, "creationTimestamp");
    if old_meta.contains_key("deletionTimestamp") {
        copy_field(&old_meta, m, "deletionTimestamp");
    }
    if !m.contains_key("deletionGracePeriodSeconds") {
        copy_field(&old_meta, m, "deletionGracePeriodSeconds");
    }
    if !m.contains_key("managedFields") {
        copy_field(&old_meta, m, "managedFields");
    }
    match generation {
        Some(g) => m.insert("generation".into(), Value::from(g)),
        None => m.remove("generation"),
    };
    default_namespace_name_label(spec, m);
    clean_secret_references(spec, new);
    Ok(())
}

/// `from[field]` into `to`, or `field` removed from `to` when `from` lacks it.
fn copy_field(from: &Map<String, Value>, to: &mut Map<String, Value>, field: &str) {
    match from.get(field) {
        Some(v) => to.insert(field.to_owned(), v.clone()),
        None => to.remove(field),
    };
}

/// The generation after an update from `old` to `new` (whose status is already settled).
fn next_generation(spec: &ResourceSpec, old: &Value, new: &Value) -> Option<i64> {
    let current = generation_of(old);
    let changed = match spec.generation {
        Generation::None => false,
        Generation::Spec => old.get("spec") != new.get("spec"),
        Generation::SpecOrAnnotations => {
            let annotations = |o: &Value| meta(o).and_then(|m| m.get("annotations")).cloned();
            old.get("spec") != new.get("spec") || annotations(old) != annotations(new)
        }
        Generation::Content => {
            content(old, spec.status_subresource) != content(new, spec.status_subresource)
        }
    };
    if changed {
        Some(current.unwrap_or(0) + 1)
    } else {
        current
    }
}

/// An update through the `status` subresource: the stored object with the body's
/// `status` (everything else in the body is ignored).
pub(crate) fn status_update(old: &Value, body: &Value) -> Value {
    let mut merged = old.clone();
    if let Some(map) = merged.as_object_mut() {
        match body.get("status") {
            Some(status) => map.insert("status".into(), status.clone()),
            None => map.remove("status"),
        };
    }
    merged
}

/// The marks of a delete that finalizers hold up (`markAsDeleting`): deletionTimestamp
/// now (unless already set), deletionGracePeriodSeconds 0, and one more generation the
/// first time, for resources that keep it.
pub(crate) fn mark_deleting(obj: &mut Value) -> Result<(), StatusError> {
    let first = !being_deleted(obj);
    let generation = generation_of(obj);
    let m = meta_mut(obj)?;
    if first {
        if let Some(g) = generation.filter(|g| *g > 0) {
            m.insert("generation".into(), Value::from(g + 1));
        }
        m.insert("deletionTimestamp".into(), Value::String(now_rfc3339()));
    }
    m.insert("deletionGracePeriodSeconds".into(), Value::from(0));
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn pod_qos_classes() {
        let c = |res: Value| json!({"containers": [{"name": "a", "resources": res}]});
        assert_eq!(pod_qos_class(&c(json!({}))), "BestEffort");
        assert_eq!(
            pod_qos_class(&c(json!({"limits": {"cpu": "1", "memory": "1Gi"}}))),
            "Guaranteed"
        );
        assert_eq!(
            pod_qos_class(&c(json!({"requests": {"cpu": "1"}}))),
            "Burstable"
        );
    }

    #[test]
    fn generation_rules_per_resource() {
        let old = json!({"metadata": {"generation": 3, "annotations": {"a": "1"}}, "spec": {"x": 1}, "status": {"s": 1}});
        let annotated =
            json!({"metadata": {"annotations": {"a": "2"}}, "spec": {"x": 1}, "status": {"s": 1}});
        let restatused = json!({"metadata": {"generation": 3}, "spec": {"x": 1}, "status": {"s": 2}, "kind": "W"});
        let deploy = crate::builtin_resources()
            .into_iter()
            .find(|s| s.plural == "deployments")
            .unwrap();
        let pods = crate::builtin_resources()
            .into_iter()
            .find(|s| s.plural == "pods")
            .unwrap();
        let cm = crate::builtin_resources()
            .into_iter()
            .find(|s| s.plural == "configmaps")
            .unwrap();
        let cr = ResourceSpec::new("example.com", "v1", "W", "ws", true);
        let cr_status = cr.clone().with_status_subresource();
        assert_eq!(next_generation(&deploy, &old, &annotated), Some(4));
        assert_eq!(next_generation(&pods, &old, &annotated), Some(3));
        assert_eq!(next_generation(&cr, &old, &restatused), Some(4));
        assert_eq!(next_generation(&cr_status, &old, &restatused), Some(3));
        assert_eq!(next_generation(&cm, &json!({}), &json!({"data": {}})), None);
    }
}
