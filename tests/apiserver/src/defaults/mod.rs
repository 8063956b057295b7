//! Built-in objects as kube-apiserver 1.37 stores them: the defaults its decoder applies
//! (`pkg/apis/{core,apps,batch}/v1/defaults.go` and the generated defaulters), what the
//! registry strategies add on create (a Job's generated selector and labels), the pod
//! admission plugins of a default cluster, and the Service registry's cluster IP and
//! node port allocation.

pub(crate) mod apps;
pub(crate) mod batch;
pub(crate) mod ipalloc;
pub(crate) mod pod;
pub(crate) mod service;

use serde_json::{json, Map, Value};

use crate::resource::ResourceSpec;
use crate::state::State;
use crate::status::StatusError;
use crate::store::{Obj, Outcome};
use ipalloc::Allocator;

/// The built-in kinds this server defaults and validates beyond their metadata.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) enum Kind {
    Pod,
    ReplicationController,
    Service,
    Deployment,
    ReplicaSet,
    StatefulSet,
    DaemonSet,
    Job,
    CronJob,
}

/// The built-in kind `spec` serves, if it is one of [`Kind`].
pub(crate) fn kind(spec: &ResourceSpec) -> Option<Kind> {
    Some(match (spec.group.as_str(), spec.plural.as_str()) {
        ("", "pods") => Kind::Pod,
        ("", "replicationcontrollers") => Kind::ReplicationController,
        ("", "services") => Kind::Service,
        ("apps", "deployments") => Kind::Deployment,
        ("apps", "replicasets") => Kind::ReplicaSet,
        ("apps", "statefulsets") => Kind::StatefulSet,
        ("apps", "daemonsets") => Kind::DaemonSet,
        ("batch", "jobs") => Kind::Job,
        ("batch", "cronjobs") => Kind::CronJob,
        _ => return None,
    })
}

/// What decoding found that a create still needs.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Decoded {
    /// A Job's `metadata.labels` were defaulted to its template's: in Go both are then
    /// one map, so the labels the strategy generates into the template show in both.
    job_labels_are_template_labels: bool,
}

/// The decoder's defaulting of a built-in object (every write: create, update, the
/// result of a patch).
pub(crate) fn decode(spec: &ResourceSpec, obj: &mut Value) -> Decoded {
    let mut decoded = Decoded::default();
    match kind(spec) {
        Some(Kind::Pod) => {
            pod::default_pod(obj);
            if let Some(s) = child(obj, "spec") {
                pod::convert_service_account(s);
            }
        }
        Some(Kind::ReplicationController) => apps::default_replication_controller(obj),
        Some(Kind::Service) => service::default_service(obj),
        Some(Kind::Deployment) => apps::default_deployment(obj),
        Some(Kind::ReplicaSet) => apps::default_replica_set(obj),
        Some(Kind::StatefulSet) => apps::default_stateful_set(obj),
        Some(Kind::DaemonSet) => apps::default_daemon_set(obj),
        Some(Kind::Job) => {
            decoded.job_labels_are_template_labels = batch::default_job(obj);
        }
        Some(Kind::CronJob) => batch::default_cron_job(obj),
        None => {}
    }
    decoded
}

/// A create after the strategy's `PrepareForCreate` (the object has its name and uid):
/// the pod admission plugins, a Job's generated selector, a Service's IP families.
/// `admitted_as` is the name admission knows the object by: its name, else its
/// `generateName` (kube-apiserver generates names after admission).
pub(crate) fn prepare_create(
    state: &State,
    spec: &ResourceSpec,
    obj: &mut Value,
    decoded: Decoded,
    admitted_as: &str,
) -> Result<(), StatusError> {
    match kind(spec) {
        Some(Kind::Pod) => {
            let name = if admitted_as.is_empty() {
                "Unknown"
            } else {
                admitted_as
            };
            pod::admit_service_account(obj, name, &|namespace, account| {
                crate::serviceaccounts::get(state, namespace, account)
            })?;
            pod::admit_priority(obj, name)?;
            pod::admit_tolerations(obj);
            if let Some(s) = child(obj, "spec") {
                pod::convert_service_account(s);
            }
        }
        Some(Kind::Job) => batch::generate_selector(obj, decoded.job_labels_are_template_labels),
        Some(Kind::Service) => service::prepare_create(obj),
        _ => {}
    }
    Ok(())
}

/// An update of the object itself, before the strategy's `PrepareForUpdate`: pod
/// admission on update, and the values a Service client may leave out (its cluster IPs,
/// node ports and IP families, kept from the stored object).
pub(crate) fn prepare_update(spec: &ResourceSpec, old: &Value, new: &mut Value) {
    match kind(spec) {
        Some(Kind::Pod) => {
            pod::admit_tolerations(new);
            let keep = |field: &str| old.get("spec").and_then(|s| s.get(field)).cloned();
            let (priority, policy) = (keep("priority"), keep("preemptionPolicy"));
            if let Some(s) = child(new, "spec") {
                for (field, value) in [("priority", priority), ("preemptionPolicy", policy)] {
                    match value {
                        Some(v) => s.insert(field.into(), v),
                        None => s.remove(field),
                    };
                }
            }
        }
        Some(Kind::Service) => service::prepare_update(old, new),
        _ => {}
    }
}

/// The allocations of a Service create, at the moment it is stored: its cluster IP and
/// node ports (a dry run only checks them).
pub(crate) fn allocate_create(
    alloc: &Allocator,
    spec: &ResourceSpec,
    obj: &mut Value,
    dry_run: bool,
) -> Result<(), StatusError> {
    if kind(spec) == Some(Kind::Service) {
        service::allocate(alloc, None, obj, dry_run)?;
    }
    Ok(())
}

/// The allocations of a Service update, as it is stored: new node ports (a new type),
/// and what the old object held and the new one no longer does released.
pub(crate) fn allocate_update(
    alloc: &Allocator,
    spec: &ResourceSpec,
    old: &Value,
    new: &mut Value,
    dry_run: bool,
) -> Result<(), StatusError> {
    if kind(spec) == Some(Kind::Service) {
        service::allocate(alloc, Some(old), new, dry_run)?;
    }
    Ok(())
}

/// After a stored write: a deleted Service frees its cluster IP and node ports.
pub(crate) fn after_write(
    alloc: &Allocator,
    spec: &ResourceSpec,
    outcome: Outcome,
    obj: &Obj,
) -> Result<(), StatusError> {
    if outcome == Outcome::Deleted && kind(spec) == Some(Kind::Service) {
        service::release(alloc, &obj.to_value()?);
    }
    Ok(())
}

/// Defaults the pod template at `path` (object keys from the root). Go structs along
/// the path are made when absent (a workload's `spec.template` always exists in Go);
/// with `pointer`, the template is a Go pointer and left alone when absent.
fn with_template(obj: &mut Value, path: &[&str], pointer: bool) {
    let mut at = obj;
    for (i, key) in path.iter().enumerate() {
        let Some(m) = at.as_object_mut() else {
            return;
        };
        let last = i + 1 == path.len();
        if !m.get(*key).is_some_and(Value::is_object) {
            if pointer && last {
                return;
            }
            m.insert((*key).to_owned(), json!({}));
        }
        let Some(next) = m.get_mut(*key) else {
            return;
        };
        at = next;
    }
    if let Some(t) = at.as_object_mut() {
        pod::default_template(t);
    }
}

/// `obj.spec`, made when absent or not an object: a Go struct in every type here.
fn spec_mut(obj: &mut Value) -> Option<&mut Map<String, Value>> {
    let m = obj.as_object_mut()?;
    if !m.get("spec").is_some_and(Value::is_object) {
        m.insert("spec".into(), json!({}));
    }
    m.get_mut("spec")?.as_object_mut()
}

/// `obj[key]` when it is an object.
fn child<'a>(obj: &'a mut Value, key: &str) -> Option<&'a mut Map<String, Value>> {
    obj.as_object_mut()?.get_mut(key)?.as_object_mut()
}

/// Runs `f` on `m[key]`, made an empty object first when absent or not an object (a Go
/// struct, never nil).
fn with_child(m: &mut Map<String, Value>, key: &str, f: impl FnOnce(&mut Map<String, Value>)) {
    let v = m.entry(key).or_insert_with(|| json!({}));
    if !v.is_object() {
        *v = json!({});
    }
    if let Value::Object(c) = v {
        f(c);
    }
}

/// A Go string field defaulted when empty.
fn default_str(m: &mut Map<String, Value>, key: &str, value: &str) {
    if m.get(key).and_then(Value::as_str).is_none_or(str::is_empty) {
        m.insert(key.into(), json!(value));
    }
}

/// A Go pointer field defaulted when nil (absent or null).
fn default_ptr(m: &mut Map<String, Value>, key: &str, value: Value) {
    if m.get(key).is_none_or(Value::is_null) {
        m.insert(key.into(), value);
    }
}

/// A Go integer field defaulted when zero.
fn default_nonzero(m: &mut Map<String, Value>, key: &str, value: i64) {
    if m.get(key).and_then(Value::as_i64).unwrap_or(0) == 0 {
        m.insert(key.into(), json!(value));
    }
}

/// Runs `f` on each object in the list `m[key]`.
fn each_item(m: &mut Map<String, Value>, key: &str, mut f: impl FnMut(&mut Map<String, Value>)) {
    if let Some(list) = m.get_mut(key).and_then(Value::as_array_mut) {
        for item in list.iter_mut().filter_map(Value::as_object_mut) {
            f(item);
        }
    }
}

/// An admission plugin's 403 for a pod (`admission.NewForbidden`).
fn forbidden_pod(name: &str, why: &str) -> StatusError {
    let mut e = StatusError::new(
        403,
        "Forbidden",
        format!(
            "pods {} is forbidden: {why}",
            crate::schema::field::go_quote(name)
        ),
    );
    e.details = Some(json!({"name": name, "kind": "pods"}));
    e
}
