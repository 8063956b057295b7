//! The server's shared state: the resourceVersion clock, the registry of served
//! resources and their stores, auth rules, fault rules and request counters; and the
//! writes (create, replace, merge patch, delete) with the real server's checks, shared
//! by HTTP handlers and the in-process API.

use std::collections::{BTreeMap, HashMap, HashSet};
use std::sync::atomic::AtomicU64;
use std::sync::{Arc, Mutex, RwLock};
use std::time::Duration;

use serde_json::Value;

use crate::faults::FaultState;
use crate::meta::{generated_name, meta_str, metadata_mut, new_uid, now_rfc3339, spec_changed};
use crate::resource::ResourceSpec;
use crate::status::StatusError;
use crate::store::{object_key, Change, Obj, Store};

/// What a bearer token may touch.
#[derive(Clone, Debug)]
pub(crate) enum Rights {
    All,
    /// Only these resources (`pods`, `deployments.apps`, ...).
    Only(HashSet<String>),
}

/// Settings fixed at start.
#[derive(Clone, Debug)]
pub(crate) struct Config {
    pub history: usize,
    pub bookmark_interval: Duration,
    /// `None`: no authentication.
    pub tokens: Option<HashMap<String, Rights>>,
    /// Serve `resourceVersion=0` lists whole, ignoring `limit`, as the watch cache does.
    pub rv0_ignores_limit: bool,
}

#[derive(Default)]
struct Registry {
    specs: Vec<ResourceSpec>,
    stores: HashMap<(String, String), Arc<Store>>,
}

/// A resolved resource: the served version and its storage.
#[derive(Clone)]
pub(crate) struct Resolved {
    pub spec: ResourceSpec,
    pub store: Arc<Store>,
}

pub(crate) struct State {
    pub clock: AtomicU64,
    pub config: Config,
    pub faults: FaultState,
    registry: RwLock<Registry>,
    counters: Mutex<BTreeMap<(String, String), u64>>,
}

impl State {
    pub fn new(config: Config) -> Self {
        Self {
            clock: AtomicU64::new(1),
            config,
            faults: FaultState::default(),
            registry: RwLock::new(Registry::default()),
            counters: Mutex::new(BTreeMap::new()),
        }
    }

    /// Serves `spec`; versions of one group/plural share a store.
    pub fn register(&self, spec: ResourceSpec) {
        let mut reg = self.registry.write().unwrap_or_else(|p| p.into_inner());
        let key = (spec.group.clone(), spec.plural.clone());
        let clock = self.clock.load(std::sync::atomic::Ordering::SeqCst);
        let history = self.config.history;
        reg.stores
            .entry(key)
            .or_insert_with(|| Arc::new(Store::new(&spec.group, &spec.plural, history, clock)));
        if let Some(existing) = reg
            .specs
            .iter_mut()
            .find(|s| s.group == spec.group && s.version == spec.version && s.plural == spec.plural)
        {
            *existing = spec;
        } else {
            reg.specs.push(spec);
        }
    }

    /// Every served resource version, in registration order.
    pub fn specs(&self) -> Vec<ResourceSpec> {
        self.registry
            .read()
            .unwrap_or_else(|p| p.into_inner())
            .specs
            .clone()
    }

    /// Every store.
    pub fn stores(&self) -> Vec<Arc<Store>> {
        self.registry
            .read()
            .unwrap_or_else(|p| p.into_inner())
            .stores
            .values()
            .cloned()
            .collect()
    }

    /// The resource served at `group/version/plural`.
    pub fn resolve(&self, group: &str, version: &str, plural: &str) -> Option<Resolved> {
        let reg = self.registry.read().unwrap_or_else(|p| p.into_inner());
        let spec = reg
            .specs
            .iter()
            .find(|s| s.group == group && s.version == version && s.plural == plural)?
            .clone();
        let store = reg
            .stores
            .get(&(spec.group.clone(), spec.plural.clone()))?
            .clone();
        Some(Resolved { spec, store })
    }

    /// The resource named `plural` or `plural.group`, at its first registered version.
    pub fn resolve_name(&self, name: &str) -> Result<Resolved, StatusError> {
        let (plural, group) = name.split_once('.').unwrap_or((name, ""));
        let reg = self.registry.read().unwrap_or_else(|p| p.into_inner());
        let spec = reg
            .specs
            .iter()
            .find(|s| s.group == group && s.plural == plural)
            .cloned()
            .ok_or_else(StatusError::unknown_resource)?;
        let store = reg
            .stores
            .get(&(spec.group.clone(), spec.plural.clone()))
            .cloned()
            .ok_or_else(StatusError::unknown_resource)?;
        Ok(Resolved { spec, store })
    }

    /// Counts one request.
    pub fn count(&self, verb: &str, resource: &str) {
        let mut c = self.counters.lock().unwrap_or_else(|p| p.into_inner());
        *c.entry((verb.to_owned(), resource.to_owned())).or_default() += 1;
    }

    /// The request counters.
    pub fn counts(&self) -> BTreeMap<(String, String), u64> {
        self.counters
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .clone()
    }

    /// Zeroes the request counters.
    pub fn reset_counts(&self) {
        self.counters
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .clear();
    }

    /// Creates an object (POST).
    pub fn create(
        &self,
        r: &Resolved,
        namespace: Option<&str>,
        mut body: Value,
    ) -> Result<Arc<Obj>, StatusError> {
        check_type(&r.spec, &body)?;
        let namespace = effective_namespace(&r.spec, namespace, &body)?;
        let map = body
            .as_object_mut()
            .ok_or_else(|| StatusError::bad_request("the body is not a JSON object"))?;
        let meta = metadata_mut(map)
            .ok_or_else(|| StatusError::bad_request("metadata is not a JSON object"))?;
        let mut name = meta
            .get("name")
            .and_then(Value::as_str)
            .unwrap_or_default()
            .to_owned();
        if name.is_empty() {
            if let Some(prefix) = meta.get("generateName").and_then(Value::as_str) {
                name = generated_name(prefix);
            }
        }
        validate_name(&r.spec, &name)?;
        meta.insert("name".into(), Value::String(name.clone()));
        match &namespace {
            Some(ns) => meta.insert("namespace".into(), Value::String(ns.clone())),
            None => meta.remove("namespace"),
        };
        meta.insert("uid".into(), Value::String(new_uid()));
        meta.insert("creationTimestamp".into(), Value::String(now_rfc3339()));
        meta.insert("generation".into(), Value::from(1));
        meta.remove("resourceVersion");
        let key = object_key(namespace.as_deref(), &name);
        r.store.write(&self.clock, &key, |existing| match existing {
            Some(_) => Err(StatusError::already_exists(
                &r.spec.group,
                &r.spec.plural,
                &name,
            )),
            None => Ok(Change::Put(body)),
        })
    }

    /// Replaces an object (PUT); `name` is the name in the URL.
    pub fn update(
        &self,
        r: &Resolved,
        namespace: Option<&str>,
        name: &str,
        mut body: Value,
    ) -> Result<Arc<Obj>, StatusError> {
        check_type(&r.spec, &body)?;
        let namespace = effective_namespace(&r.spec, namespace, &body)?;
        let map = body
            .as_object_mut()
            .ok_or_else(|| StatusError::bad_request("the body is not a JSON object"))?;
        let meta = metadata_mut(map)
            .ok_or_else(|| StatusError::bad_request("metadata is not a JSON object"))?;
        match meta.get("name").and_then(Value::as_str) {
            Some(n) if !n.is_empty() && n != name => {
                return Err(StatusError::bad_request(format!(
                    "the name of the object ({n}) does not match the name on the URL ({name})"
                )))
            }
            _ => {
                meta.insert("name".into(), Value::String(name.to_owned()));
            }
        }
        match &namespace {
            Some(ns) => meta.insert("namespace".into(), Value::String(ns.clone())),
            None => meta.remove("namespace"),
        };
        let key = object_key(namespace.as_deref(), name);
        r.store.write(&self.clock, &key, |existing| {
            let old = existing
                .ok_or_else(|| StatusError::not_found(&r.spec.group, &r.spec.plural, name))?;
            replace(r, old, body, name)
        })
    }

    /// Applies a JSON merge patch (PATCH).
    pub fn patch(
        &self,
        r: &Resolved,
        namespace: Option<&str>,
        name: &str,
        patch: &Value,
    ) -> Result<Arc<Obj>, StatusError> {
        if !patch.is_object() {
            return Err(StatusError::bad_request("the patch is not a JSON object"));
        }
        let namespace = if r.spec.namespaced {
            Some(namespace.unwrap_or("default"))
        } else {
            None
        };
        let key = object_key(namespace, name);
        r.store.write(&self.clock, &key, |existing| {
            let old = existing
                .ok_or_else(|| StatusError::not_found(&r.spec.group, &r.spec.plural, name))?;
            let mut value = old.to_value()?;
            crate::meta::merge_patch(&mut value, patch);
            if meta_str(&value, "name") != Some(name) || meta_str(&value, "namespace") != namespace
            {
                return Err(StatusError::bad_request(
                    "metadata.name and metadata.namespace cannot be changed by a patch",
                ));
            }
            replace(r, old, value, name)
        })
    }

    /// Deletes an object, returning its last state at the delete's resourceVersion.
    pub fn delete(
        &self,
        r: &Resolved,
        namespace: Option<&str>,
        name: &str,
    ) -> Result<Arc<Obj>, StatusError> {
        let namespace = if r.spec.namespaced {
            Some(namespace.unwrap_or("default"))
        } else {
            None
        };
        let key = object_key(namespace, name);
        r.store.write(&self.clock, &key, |existing| match existing {
            Some(_) => Ok(Change::Delete),
            None => Err(StatusError::not_found(&r.spec.group, &r.spec.plural, name)),
        })
    }

    /// The current object.
    pub fn get(
        &self,
        r: &Resolved,
        namespace: Option<&str>,
        name: &str,
    ) -> Result<Arc<Obj>, StatusError> {
        let namespace = if r.spec.namespaced {
            Some(namespace.unwrap_or("default"))
        } else {
            None
        };
        r.store
            .get(&object_key(namespace, name))
            .ok_or_else(|| StatusError::not_found(&r.spec.group, &r.spec.plural, name))
    }
}

/// The checks and server-owned fields of a replace: optimistic concurrency on
/// `metadata.resourceVersion`, uid and creationTimestamp kept, generation bumped on spec changes.
fn replace(
    r: &Resolved,
    old: &Arc<Obj>,
    mut new: Value,
    name: &str,
) -> Result<Change, StatusError> {
    if let Some(rv) = meta_str(&new, "resourceVersion").filter(|rv| !rv.is_empty()) {
        if rv != old.rv.to_string() {
            return Err(StatusError::conflict(&r.spec.group, &r.spec.plural, name));
        }
    }
    let old_value = old.to_value()?;
    let old_generation = old_value
        .get("metadata")
        .and_then(|m| m.get("generation"))
        .and_then(Value::as_i64)
        .unwrap_or(1);
    let generation = if spec_changed(&old_value, &new) {
        old_generation + 1
    } else {
        old_generation
    };
    let map = new
        .as_object_mut()
        .ok_or_else(|| StatusError::bad_request("the body is not a JSON object"))?;
    let meta = metadata_mut(map)
        .ok_or_else(|| StatusError::bad_request("metadata is not a JSON object"))?;
    for field in ["uid", "creationTimestamp"] {
        match old_value.get("metadata").and_then(|m| m.get(field)) {
            Some(v) => meta.insert(field.into(), v.clone()),
            None => meta.remove(field),
        };
    }
    meta.insert("generation".into(), Value::from(generation));
    Ok(Change::Put(new))
}

/// Rejects a body whose `apiVersion`/`kind` name another type.
fn check_type(spec: &ResourceSpec, body: &Value) -> Result<(), StatusError> {
    if !body.is_object() {
        return Err(StatusError::bad_request(
            "couldn't get version/kind; json parse error: the body is not a JSON object",
        ));
    }
    if let Some(v) = body.get("apiVersion").and_then(Value::as_str) {
        if v != spec.api_version() {
            return Err(StatusError::bad_request(format!(
                "the API version in the data ({v}) does not match the expected API version ({})",
                spec.api_version()
            )));
        }
    }
    if let Some(k) = body.get("kind").and_then(Value::as_str) {
        if k != spec.kind {
            return Err(StatusError::bad_request(format!(
                "the kind in the data ({k}) does not match the expected kind ({})",
                spec.kind
            )));
        }
    }
    Ok(())
}

/// The namespace a write applies to: the request's, which the body may repeat but not contradict.
fn effective_namespace(
    spec: &ResourceSpec,
    request: Option<&str>,
    body: &Value,
) -> Result<Option<String>, StatusError> {
    if !spec.namespaced {
        return Ok(None);
    }
    let in_body = meta_str(body, "namespace").filter(|s| !s.is_empty());
    match (request, in_body) {
        (Some(r), Some(b)) if r != b => Err(StatusError::bad_request(
            "the namespace of the provided object does not match the namespace sent on the request",
        )),
        (Some(r), _) => Ok(Some(r.to_owned())),
        (None, Some(b)) => Ok(Some(b.to_owned())),
        (None, None) => Ok(Some("default".to_owned())),
    }
}

/// Names are DNS subdomains (lowercase alphanumerics, `-`, `.`), at most 253 characters.
fn validate_name(spec: &ResourceSpec, name: &str) -> Result<(), StatusError> {
    let invalid = |msg: String| {
        StatusError::invalid(&spec.kind, &spec.group, name, &[("metadata.name", msg)])
    };
    if name.is_empty() {
        return Err(invalid(
            "Required value: name or generateName is required".into(),
        ));
    }
    let ok_chars = name
        .bytes()
        .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == b'-' || c == b'.');
    let ends_ok = |c: Option<u8>| c.is_some_and(|c| c.is_ascii_lowercase() || c.is_ascii_digit());
    if name.len() > 253
        || !ok_chars
        || !ends_ok(name.bytes().next())
        || !ends_ok(name.bytes().last())
    {
        return Err(invalid(format!(
            "Invalid value: \"{name}\": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character"
        )));
    }
    Ok(())
}
