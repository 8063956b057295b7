//! `metadata.managedFields` on every write made through the API, and server-side apply
//! (`application/apply-patch+yaml`), with `informer_merge`'s field-ownership engine, as
//! kube-apiserver's field manager keeps them: creates, updates and non-apply patches
//! record an `Update` entry for their manager; applies merge the configuration, remove
//! what the manager stopped applying, and answer 409 on conflicts.

use informer_merge::fieldpath::{PathElement, Set};
use informer_merge::managed::{ApplyError, ManagedFields, Manager};
use informer_merge::schema;
use informer_merge::typed::TypeRef;
use serde_json::{json, Value};

use crate::meta::{meta_str, metadata_mut, now_rfc3339};
use crate::resource::ResourceSpec;
use crate::state::{State, Sub};
use crate::status::StatusError;
use crate::store::object_key;

/// The longest manager name kube-apiserver keeps from a User-Agent.
const FIELD_MANAGER_MAX_LENGTH: usize = 128;

/// The manager kube-apiserver records a write under: the `fieldManager`, else the
/// User-Agent up to its first `/`, without unprintable characters, cut to 128 bytes.
pub(crate) fn manager_name(field_manager: Option<&str>, user_agent: &str) -> String {
    if let Some(m) = field_manager.filter(|m| !m.is_empty()) {
        return m.to_owned();
    }
    let prefix = user_agent.split('/').next().unwrap_or_default();
    let mut out = String::new();
    for c in prefix.chars().filter(|c| !c.is_control()) {
        if out.len() + c.len_utf8() > FIELD_MANAGER_MAX_LENGTH {
            break;
        }
        out.push(c);
    }
    out
}

/// The type applies merge by: the built-in table's, a CRD's structural schema, or (for
/// resources served without either) deduced from the values.
pub(crate) struct ObjectType {
    open_api_v3: Option<Value>,
    builtin: Option<(String, String)>,
}

impl ObjectType {
    pub(crate) fn of(state: &State, spec: &ResourceSpec) -> Self {
        let api_version = spec.api_version();
        if TypeRef::builtin(schema::builtin(), &api_version, &spec.kind).is_some() {
            return Self {
                open_api_v3: None,
                builtin: Some((api_version, spec.kind.clone())),
            };
        }
        Self {
            open_api_v3: crd_schema(state, spec),
            builtin: None,
        }
    }

    pub(crate) fn type_ref(&self) -> TypeRef<'_> {
        let table = schema::builtin();
        if let Some((api_version, kind)) = &self.builtin {
            if let Some(t) = TypeRef::builtin(table, api_version, kind) {
                return t;
            }
        }
        match &self.open_api_v3 {
            Some(v) => TypeRef::custom_resource(table, v),
            None => TypeRef::deduced(),
        }
    }
}

/// The `openAPIV3Schema` of the served version of the CRD that defines `spec`.
fn crd_schema(state: &State, spec: &ResourceSpec) -> Option<Value> {
    let crds = state.resolve("apiextensions.k8s.io", "v1", "customresourcedefinitions")?;
    let crd = crds
        .store
        .get(&object_key(
            None,
            &format!("{}.{}", spec.plural, spec.group),
        ))?
        .to_value()
        .ok()?;
    crd["spec"]["versions"]
        .as_array()?
        .iter()
        .find(|v| v["name"] == spec.version.as_str())
        .map(|v| v["schema"]["openAPIV3Schema"].clone())
        .filter(Value::is_object)
}

/// The fields a write to `sub` cannot set, which the resource's strategy resets and no
/// manager owns: `status` through the object itself (when it has the `status`
/// subresource), `spec` through `status`.
fn ignored(spec: &ResourceSpec, sub: Sub) -> Option<Set> {
    let field = match sub {
        Sub::Main if spec.status_subresource => "status",
        Sub::Main => return None,
        Sub::Status => "spec",
    };
    let mut set = Set::new();
    set.insert(&[PathElement::Field(field.to_owned())]);
    Some(set)
}

fn subresource(sub: Sub) -> &'static str {
    match sub {
        Sub::Main => "",
        Sub::Status => "status",
    }
}

/// `value` without `metadata.managedFields`, and what they were; with the type's
/// `apiVersion` and `kind`, which this server's stored objects leave out and the real
/// server's decoded objects always carry.
fn take_managed_fields(spec: &ResourceSpec, value: &Value) -> (Value, Option<Value>) {
    let mut out = value.clone();
    if let Some(map) = out.as_object_mut() {
        map.insert("apiVersion".into(), Value::String(spec.api_version()));
        map.insert("kind".into(), Value::String(spec.kind.clone()));
    }
    let taken = out
        .as_object_mut()
        .and_then(metadata_mut)
        .and_then(|m| m.remove("managedFields"));
    (out, taken)
}

/// kube-apiserver's reset: a `managedFields` list that is empty, or holds one empty entry.
fn is_reset(managed: &Value) -> bool {
    match managed.as_array().map(Vec::as_slice) {
        Some([]) => true,
        Some([only]) => only.as_object().is_some_and(|m| m.is_empty()),
        _ => false,
    }
}

fn decode_or_empty(managed: Option<&Value>) -> ManagedFields {
    managed
        .and_then(|v| ManagedFields::decode(v).ok())
        .unwrap_or_default()
}

/// The `managedFields` to store after a create (`live` is `None`), update or non-apply
/// patch by `manager` that turns `live` into `new` (as decoded, before the strategy).
/// The request's own `managedFields` replace the stored ones when they decode and are
/// not empty; an empty list (or one empty entry) resets them; through a subresource they
/// are ignored.
pub(crate) fn after_update(
    state: &State,
    spec: &ResourceSpec,
    live: Option<&Value>,
    new: &Value,
    sub: Sub,
    manager: &str,
) -> Result<Value, StatusError> {
    let object_type = ObjectType::of(state, spec);
    let (live, live_managed) = match live {
        Some(v) => take_managed_fields(spec, v),
        None => (object_type.type_ref().zero_value(), None),
    };
    let (new, new_managed) = take_managed_fields(spec, new);
    let mut managed = match (&new_managed, sub) {
        (_, Sub::Status) => decode_or_empty(live_managed.as_ref()),
        (Some(m), Sub::Main) if is_reset(m) => ManagedFields::default(),
        (Some(m), Sub::Main) => match ManagedFields::decode(m) {
            Ok(decoded) if !decoded.is_empty() => decoded,
            _ => decode_or_empty(live_managed.as_ref()),
        },
        (None, Sub::Main) => decode_or_empty(live_managed.as_ref()),
    };
    let who = Manager::update(manager, &spec.api_version(), subresource(sub));
    let ignored = ignored(spec, sub);
    // kube-apiserver logs and drops managedFields it cannot compute, never failing the write.
    if managed
        .update(
            &live,
            &new,
            object_type.type_ref(),
            &who,
            ignored.as_ref(),
            &now_rfc3339(),
        )
        .is_err()
    {
        return Ok(Value::Array(Vec::new()));
    }
    Ok(managed.to_value())
}

/// Sets `metadata.managedFields` of a stored object (none when the list is empty).
pub(crate) fn set(obj: &mut Value, managed: &Value) {
    if let Some(meta) = obj.as_object_mut().and_then(metadata_mut) {
        if managed.as_array().is_some_and(Vec::is_empty) {
            meta.remove("managedFields");
        } else {
            meta.insert("managedFields".into(), managed.clone());
        }
    }
}

/// What an apply produced: the object to write (the live one when nothing but ownership
/// changed) and its `managedFields`.
pub(crate) struct Applied {
    pub object: Value,
    pub managed_fields: Value,
}

/// Applies `config` for `manager` to `live` (`None`: the object does not exist yet).
pub(crate) fn apply(
    state: &State,
    spec: &ResourceSpec,
    live: Option<&Value>,
    config: &Value,
    sub: Sub,
    manager: &str,
    force: bool,
) -> Result<Applied, StatusError> {
    if config
        .get("metadata")
        .and_then(|m| m.get("managedFields"))
        .is_some_and(|m| !m.is_null())
    {
        return Err(StatusError::bad_request(
            "metadata.managedFields must be nil",
        ));
    }
    let expected = spec.api_version();
    let given = config
        .get("apiVersion")
        .and_then(Value::as_str)
        .unwrap_or_default();
    if given != expected {
        return Err(StatusError::bad_request(format!(
            "Incorrect version specified in apply patch. Specified patch version: {given}, expected: {expected}"
        )));
    }
    let given_kind = config
        .get("kind")
        .and_then(Value::as_str)
        .unwrap_or_default();
    if given_kind != spec.kind {
        let gvk = format!("{}, Kind={given_kind}", gv_text(spec));
        return Err(untyped_error(format!(
            "failed to create typed patch object ({}; {gvk}): no corresponding type for {gvk}",
            object_name_text(config),
        )));
    }
    let object_type = ObjectType::of(state, spec);
    let (live, live_managed) = match live {
        Some(v) => take_managed_fields(spec, v),
        None => (object_type.type_ref().zero_value(), None),
    };
    let mut managed = match &live_managed {
        Some(m) => ManagedFields::decode(m)
            .map_err(|e| untyped_error(format!("failed to decode managed fields: {e}")))?,
        None => ManagedFields::default(),
    };
    let who = Manager::apply(manager, subresource(sub));
    let ignored = ignored(spec, sub);
    let result = managed.apply_at(
        &live,
        config,
        object_type.type_ref(),
        &who,
        force,
        ignored.as_ref(),
        &now_rfc3339(),
        Some(&expected),
    );
    let object = match result {
        Ok(Some(object)) => object,
        Ok(None) => live,
        Err(ApplyError::Conflicts(conflicts)) => {
            let causes: Vec<Value> = conflicts
                .iter()
                .map(|c| {
                    json!({
                        "reason": "FieldManagerConflict",
                        "message": format!("conflict with {}", c.manager),
                        "field": c.path.to_string(),
                    })
                })
                .collect();
            let message = ApplyError::Conflicts(conflicts).to_string();
            let mut e = StatusError::new(409, "Conflict", message);
            e.details = Some(json!({"causes": causes}));
            return Err(e);
        }
        Err(e @ ApplyError::Type(_)) => {
            return Err(untyped_error(format!(
                "failed to create typed patch object ({}; {}, Kind={}): {e}",
                object_name_text(config),
                gv_text(spec),
                spec.kind,
            )))
        }
    };
    Ok(Applied {
        object,
        managed_fields: managed.to_value(),
    })
}

/// An error that is not an API status: kube-apiserver answers 500 with no reason.
fn untyped_error(message: String) -> StatusError {
    StatusError::new(500, "", message)
}

/// `group/version` as Go prints a `GroupVersionKind` (`/v1` for the core group).
fn gv_text(spec: &ResourceSpec) -> String {
    format!("{}/{}", spec.group, spec.version)
}

/// `namespace/name` of an object, as kube-apiserver names it in apply errors.
fn object_name_text(obj: &Value) -> String {
    format!(
        "{}/{}",
        meta_str(obj, "namespace").unwrap_or_default(),
        meta_str(obj, "name").unwrap_or_default()
    )
}
