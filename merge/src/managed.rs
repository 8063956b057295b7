//! `metadata.managedFields` and how writes change them, as kube-apiserver's field manager
//! keeps them: one entry per manager, operation (`Apply` or `Update`), API version (for
//! updates) and subresource; an apply owns exactly what it applied and conflicts with
//! other owners of the fields it changes; an update takes the fields it changes.
//!
//! ```
//! use informer_merge::managed::{ManagedFields, Manager};
//! use informer_merge::schema::builtin;
//! use informer_merge::typed::TypeRef;
//! use serde_json::json;
//!
//! let ty = TypeRef::builtin(builtin(), "v1", "ConfigMap").unwrap();
//! let config = json!({"apiVersion": "v1", "kind": "ConfigMap",
//!     "metadata": {"name": "cm"}, "data": {"a": "1"}});
//! let mut managed = ManagedFields::default();
//! let applier = Manager::apply("mgr-1", "");
//! let applied = managed
//!     .apply(&json!({}), &config, ty, &applier, false, None, "2026-01-01T00:00:00Z")
//!     .unwrap();
//! assert_eq!(applied.unwrap()["data"]["a"], "1");
//! assert_eq!(
//!     managed.to_value(),
//!     json!([{"manager": "mgr-1", "operation": "Apply", "apiVersion": "v1",
//!         "time": "2026-01-01T00:00:00Z", "fieldsType": "FieldsV1",
//!         "fieldsV1": {"f:data": {"f:a": {}}}}])
//! );
//!
//! // Another manager applying a different value conflicts.
//! let other = Manager::apply("mgr-2", "");
//! let changed = json!({"apiVersion": "v1", "kind": "ConfigMap",
//!     "metadata": {"name": "cm"}, "data": {"a": "2"}});
//! let live = json!({"apiVersion": "v1", "kind": "ConfigMap",
//!     "metadata": {"name": "cm"}, "data": {"a": "1"}});
//! let e = managed
//!     .apply(&live, &changed, ty, &other, false, None, "2026-01-01T00:00:01Z")
//!     .unwrap_err();
//! assert_eq!(
//!     e.to_string(),
//!     "Apply failed with 1 conflict: conflict with \"mgr-1\": .data.a"
//! );
//! ```

use std::collections::BTreeMap;
use std::fmt;

use serde_json::{json, Map, Value};

use crate::apply::{
    compare, field_set, merge, remove_items, with_named_fields, Comparison, TypeError,
};
use crate::fieldpath::{value_eq, FieldsV1Error, Path, PathElement, Set};
use crate::typed::TypeRef;

/// The operation an entry records.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Operation {
    /// Server-side apply.
    Apply,
    /// Create, update or a non-apply patch.
    Update,
}

impl Operation {
    fn as_str(self) -> &'static str {
        match self {
            Self::Apply => "Apply",
            Self::Update => "Update",
        }
    }
}

/// Who an entry belongs to: kube-apiserver's manager identifier (the entry without its
/// time and fields, and for appliers without the API version).
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Manager {
    /// The `fieldManager` (or the User-Agent prefix kube-apiserver derives).
    pub name: String,
    /// `Apply` or `Update`.
    pub operation: Operation,
    /// The API version of an `Update` (empty for appliers, whose entry follows them
    /// across versions).
    pub api_version: String,
    /// The subresource written (`status`), or empty.
    pub subresource: String,
}

impl Manager {
    /// An applier.
    pub fn apply(name: &str, subresource: &str) -> Self {
        Self {
            name: name.to_owned(),
            operation: Operation::Apply,
            api_version: String::new(),
            subresource: subresource.to_owned(),
        }
    }

    /// An updater at `api_version`.
    pub fn update(name: &str, api_version: &str, subresource: &str) -> Self {
        Self {
            name: name.to_owned(),
            operation: Operation::Update,
            api_version: api_version.to_owned(),
            subresource: subresource.to_owned(),
        }
    }
}

/// As kube-apiserver names a manager in conflict messages: `"mgr"`, with
/// ` with subresource "status"` and, for updaters, ` using apps/v1`.
impl fmt::Display for Manager {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:?}", self.name)?;
        if !self.subresource.is_empty() {
            write!(f, " with subresource {:?}", self.subresource)?;
        }
        if self.operation == Operation::Update {
            write!(f, " using {}", self.api_version)?;
        }
        Ok(())
    }
}

/// One entry: the fields a manager owns, at which API version, since when.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Entry {
    /// The API version the fields are named in.
    pub api_version: String,
    /// When the manager last changed the object (RFC 3339, seconds).
    pub time: Option<String>,
    /// The fields.
    pub fields: Set,
}

/// Why `managedFields` do not decode.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum DecodeError {
    /// Not a list of objects.
    #[error("managedFields must be a list of objects")]
    NotList,
    /// An operation other than `Apply` and `Update`.
    #[error("operation must be `Apply` or `Update`")]
    Operation,
    /// An entry without `apiVersion`.
    #[error("apiVersion must not be empty")]
    ApiVersion,
    /// An entry without `fieldsType`.
    #[error("missing fieldsType in managed fields entry {0}")]
    MissingFieldsType(usize),
    /// A `fieldsType` other than `FieldsV1`.
    #[error("invalid fieldsType {0:?} in managed fields entry {1}")]
    FieldsType(String, usize),
    /// `fieldsV1` that does not parse.
    #[error("error decoding fieldsV1 of entry {0}: {1}")]
    Fields(usize, FieldsV1Error),
}

/// One field two managers disagree on.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Conflict {
    /// The other owner.
    pub manager: Manager,
    /// The field.
    pub path: Path,
}

/// Why an apply or update failed.
///
/// Exhaustive on purpose: a server maps each variant to kube-apiserver's answer, and a new
/// one must make every such mapping choose.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ApplyError {
    /// The apply changes fields others own (kube-apiserver's 409).
    #[error("{}", conflict_message(.0))]
    Conflicts(Vec<Conflict>),
    /// A value does not fit its type (kube-apiserver's 500, "failed to create typed ...").
    #[error(transparent)]
    Type(#[from] TypeError),
}

/// kube-apiserver's message for apply conflicts.
fn conflict_message(conflicts: &[Conflict]) -> String {
    if let [only] = conflicts {
        return format!(
            "Apply failed with 1 conflict: conflict with {}: {}",
            only.manager, only.path
        );
    }
    let mut by_manager: BTreeMap<&Manager, Vec<&Path>> = BTreeMap::new();
    for c in conflicts {
        by_manager.entry(&c.manager).or_default().push(&c.path);
    }
    let mut lines = Vec::new();
    for (manager, paths) in by_manager {
        lines.push(format!("conflicts with {manager}:"));
        lines.extend(paths.iter().map(|p| format!("- {p}")));
    }
    format!(
        "Apply failed with {} conflicts: {}",
        conflicts.len(),
        lines.join("\n")
    )
}

/// `compare`, with the fields the write cannot set left out of every side.
fn compare_ignoring(
    live: &Value,
    new: &Value,
    ty: TypeRef<'_>,
    ignored: Option<&Set>,
) -> Result<Comparison, TypeError> {
    let mut c = compare(live, new, ty)?;
    if let Some(ignored) = ignored {
        c.added = c.added.recursive_difference(ignored);
        c.modified = c.modified.recursive_difference(ignored);
        c.removed = c.removed.recursive_difference(ignored);
    }
    Ok(c)
}

/// The metadata fields no manager owns (kube-apiserver's strip set).
fn stripped() -> Set {
    let mut set = Set::new();
    let f = |s: &str| PathElement::Field(s.to_owned());
    set.insert(&[f("apiVersion")]);
    set.insert(&[f("kind")]);
    set.insert(&[f("metadata")]);
    for name in [
        "name",
        "namespace",
        "creationTimestamp",
        "selfLink",
        "uid",
        "clusterName",
        "generation",
        "managedFields",
        "resourceVersion",
    ] {
        set.insert(&[f("metadata"), f(name)]);
    }
    set
}

/// The managed fields of one object.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ManagedFields {
    entries: BTreeMap<Manager, Entry>,
}

/// How many `Update` entries kube-apiserver keeps before folding the oldest into
/// `ancient-changes`.
pub const MAX_UPDATE_MANAGERS: usize = 10;

impl ManagedFields {
    /// The entries, by manager.
    pub fn entries(&self) -> &BTreeMap<Manager, Entry> {
        &self.entries
    }

    /// Decodes `metadata.managedFields`.
    pub fn decode(value: &Value) -> Result<Self, DecodeError> {
        let list = value.as_array().ok_or(DecodeError::NotList)?;
        let mut entries = BTreeMap::new();
        for (i, item) in list.iter().enumerate() {
            let item = item.as_object().ok_or(DecodeError::NotList)?;
            let s = |k: &str| item.get(k).and_then(Value::as_str).unwrap_or("");
            let operation = match s("operation") {
                "Apply" => Operation::Apply,
                "Update" => Operation::Update,
                _ => return Err(DecodeError::Operation),
            };
            let api_version = s("apiVersion");
            if api_version.is_empty() {
                return Err(DecodeError::ApiVersion);
            }
            match s("fieldsType") {
                "FieldsV1" => {}
                "" => return Err(DecodeError::MissingFieldsType(i)),
                other => return Err(DecodeError::FieldsType(other.to_owned(), i)),
            }
            let fields = match item.get("fieldsV1") {
                None | Some(Value::Null) => Set::new(),
                Some(v) => Set::from_fields_v1(v).map_err(|e| DecodeError::Fields(i, e))?,
            };
            let manager = Manager {
                name: s("manager").to_owned(),
                operation,
                api_version: match operation {
                    Operation::Apply => String::new(),
                    Operation::Update => api_version.to_owned(),
                },
                subresource: s("subresource").to_owned(),
            };
            let time = item.get("time").and_then(Value::as_str).map(str::to_owned);
            entries.insert(
                manager,
                Entry {
                    api_version: api_version.to_owned(),
                    time,
                    fields,
                },
            );
        }
        Ok(Self { entries })
    }

    /// The entries as `metadata.managedFields` (kube-apiserver's order: appliers first,
    /// then by time, manager, API version, subresource).
    pub fn to_value(&self) -> Value {
        let mut entries: Vec<(&Manager, &Entry)> = self.entries.iter().collect();
        entries.sort_by(|(pm, pe), (qm, qe)| {
            pm.operation
                .cmp(&qm.operation)
                .then_with(|| {
                    pe.time
                        .as_deref()
                        .unwrap_or("")
                        .cmp(qe.time.as_deref().unwrap_or(""))
                })
                .then_with(|| pm.name.cmp(&qm.name))
                .then_with(|| pe.api_version.cmp(&qe.api_version))
                .then_with(|| pm.subresource.cmp(&qm.subresource))
        });
        Value::Array(
            entries
                .into_iter()
                .map(|(m, e)| {
                    let mut out = Map::new();
                    if !m.name.is_empty() {
                        out.insert("manager".into(), json!(m.name));
                    }
                    out.insert("operation".into(), json!(m.operation.as_str()));
                    out.insert("apiVersion".into(), json!(e.api_version));
                    if let Some(t) = &e.time {
                        out.insert("time".into(), json!(t));
                    }
                    out.insert("fieldsType".into(), json!("FieldsV1"));
                    out.insert("fieldsV1".into(), e.fields.to_fields_v1());
                    if !m.subresource.is_empty() {
                        out.insert("subresource".into(), json!(m.subresource));
                    }
                    Value::Object(out)
                })
                .collect(),
        )
    }

    /// Whether there are no entries.
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// Records a create, update or non-apply patch by `manager` from `live` to `new`
    /// (both without `managedFields`; `live` is `{}` for a create): the fields it adds or
    /// changes become its own and leave other owners, removed fields leave every owner.
    /// `ignored` are fields the write cannot set (the strategy resets them), owned by no
    /// one. The entry's time is `now` when the write changed anything it owns.
    pub fn update(
        &mut self,
        live: &Value,
        new: &Value,
        ty: TypeRef<'_>,
        manager: &Manager,
        ignored: Option<&Set>,
        now: &str,
    ) -> Result<(), ApplyError> {
        let c = compare_ignoring(live, new, ty, ignored)?;
        let changed = c.modified.union(&c.added);
        for entry in self.entries.values_mut() {
            entry.fields = entry.fields.difference(&changed).difference(&c.removed);
        }
        let mine = changed.difference(&stripped());
        if !mine.is_empty() {
            let entry = self
                .entries
                .entry(manager.clone())
                .or_insert_with(|| Entry {
                    api_version: manager.api_version.clone(),
                    time: None,
                    fields: Set::new(),
                });
            entry.fields = entry.fields.union(&mine);
            entry.api_version = manager.api_version.clone();
            entry.time = Some(now.to_owned());
        }
        self.finish();
        self.cap_updates();
        Ok(())
    }

    /// Applies `config` for `manager` to `live` (`{}` when the object does not exist;
    /// both without `managedFields`): merges it, removes what the manager applied last
    /// time and no longer does unless another manager owns it, and checks the fields it
    /// changes against their other owners (`force` takes them over). Returns the new
    /// object, or `None` when the apply changes nothing but ownership. `api_version` is
    /// the version applied at.
    #[allow(clippy::too_many_arguments)]
    pub fn apply(
        &mut self,
        live: &Value,
        config: &Value,
        ty: TypeRef<'_>,
        manager: &Manager,
        force: bool,
        ignored: Option<&Set>,
        now: &str,
    ) -> Result<Option<Value>, ApplyError> {
        self.apply_at(live, config, ty, manager, force, ignored, now, None)
    }

    /// [`Self::apply`] naming the API version the entry is recorded at (the version of
    /// the request; `config`'s `apiVersion` when `None`).
    #[allow(clippy::too_many_arguments)]
    pub fn apply_at(
        &mut self,
        live: &Value,
        config: &Value,
        ty: TypeRef<'_>,
        manager: &Manager,
        force: bool,
        ignored: Option<&Set>,
        now: &str,
        api_version: Option<&str>,
    ) -> Result<Option<Value>, ApplyError> {
        let api_version = api_version
            .or_else(|| config.get("apiVersion").and_then(Value::as_str))
            .unwrap_or("")
            .to_owned();
        let merged = merge(live, config, ty)?;
        let mut set = field_set(config, ty, true)?;
        if let Some(ignored) = ignored {
            set = set.recursive_difference(ignored);
        }
        let last = self.entries.get(manager).map(|e| e.fields.clone());
        let others: Set = self
            .entries
            .iter()
            .filter(|(m, _)| *m != manager)
            .fold(Set::new(), |acc, (_, e)| acc.union(&e.fields));
        let new = match &last {
            Some(last) if !last.is_empty() => {
                let owned = with_named_fields(&set.union(&others), ty);
                let gone = with_named_fields(last, ty).difference(&owned);
                remove_items(&merged, &gone, ty)?
            }
            _ => merged,
        };
        let same = value_eq(live, &new);
        let c = compare_ignoring(live, &new, ty, ignored)?;
        let changed = c.modified.union(&c.added);
        let mut conflicts = Vec::new();
        for (other, entry) in &self.entries {
            if other == manager {
                continue;
            }
            let clash = entry.fields.intersection(&changed);
            for path in clash.paths() {
                conflicts.push(Conflict {
                    manager: other.clone(),
                    path,
                });
            }
        }
        if !force && !conflicts.is_empty() {
            return Err(ApplyError::Conflicts(conflicts));
        }
        for (other, entry) in &mut self.entries {
            if other != manager {
                entry.fields = entry.fields.difference(&changed).difference(&c.removed);
            }
        }
        let previous_time = self.entries.get(manager).and_then(|e| e.time.clone());
        self.entries.insert(
            manager.clone(),
            Entry {
                api_version,
                time: if same {
                    previous_time
                } else {
                    Some(now.to_owned())
                },
                fields: set.difference(&stripped()),
            },
        );
        self.finish();
        Ok((!same).then_some(new))
    }

    /// Drops the stripped metadata fields and the entries left without fields.
    fn finish(&mut self) {
        let strip = stripped();
        for entry in self.entries.values_mut() {
            entry.fields = entry.fields.difference(&strip);
        }
        self.entries.retain(|_, e| !e.fields.is_empty());
    }

    /// Folds the oldest `Update` entries into one `ancient-changes` entry per API
    /// version while there are more than [`MAX_UPDATE_MANAGERS`].
    fn cap_updates(&mut self) {
        let mut updaters: Vec<Manager> = self
            .entries
            .keys()
            .filter(|m| m.operation == Operation::Update)
            .cloned()
            .collect();
        if updaters.len() <= MAX_UPDATE_MANAGERS {
            return;
        }
        updaters.sort_by(|a, b| {
            let t = |m: &Manager| {
                self.entries
                    .get(m)
                    .and_then(|e| e.time.clone())
                    .unwrap_or_default()
            };
            t(a).cmp(&t(b)).then_with(|| a.cmp(b))
        });
        let mut remaining = updaters.len();
        let mut first_by_version: BTreeMap<String, Manager> = BTreeMap::new();
        for manager in updaters {
            if remaining <= MAX_UPDATE_MANAGERS {
                break;
            }
            let Some(entry) = self.entries.get(&manager).cloned() else {
                continue;
            };
            let bucket = Manager::update("ancient-changes", &entry.api_version, "");
            match first_by_version.get(&entry.api_version) {
                Some(first) => {
                    if !self.entries.contains_key(&bucket) {
                        if let Some(first_entry) = self.entries.remove(first) {
                            self.entries.insert(bucket.clone(), first_entry);
                        }
                    }
                    if let Some(b) = self.entries.get_mut(&bucket) {
                        b.fields = entry.fields.union(&b.fields);
                        b.time = entry.time.clone();
                    }
                    self.entries.remove(&manager);
                    remaining -= 1;
                }
                None => {
                    first_by_version.insert(entry.api_version.clone(), manager);
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::schema::builtin;

    fn config_map_ty() -> TypeRef<'static> {
        TypeRef::builtin(builtin(), "v1", "ConfigMap").unwrap()
    }

    #[test]
    fn an_update_takes_changed_fields_from_their_appliers() {
        let ty = config_map_ty();
        let mut managed = ManagedFields::default();
        let live = managed
            .apply(
                &json!({}),
                &json!({"data": {"a": "1", "b": "1"}}),
                ty,
                &Manager::apply("applier", ""),
                false,
                None,
                "2026-01-01T00:00:00Z",
            )
            .unwrap()
            .unwrap();
        let mut new = live.clone();
        new["data"]["a"] = json!("2");
        new["data"].as_object_mut().unwrap().remove("b");
        let editor = Manager::update("editor", "v1", "");
        managed
            .update(&live, &new, ty, &editor, None, "2026-01-01T00:00:05Z")
            .unwrap();
        assert_eq!(
            managed.to_value(),
            json!([{"manager": "editor", "operation": "Update", "apiVersion": "v1",
                "time": "2026-01-01T00:00:05Z", "fieldsType": "FieldsV1",
                "fieldsV1": {"f:data": {"f:a": {}}}}])
        );
    }

    #[test]
    fn more_than_ten_updaters_fold_the_oldest_into_ancient_changes() {
        let ty = config_map_ty();
        let mut managed = ManagedFields::default();
        let mut live = json!({"data": {}});
        for i in 0..12 {
            let mut new = live.clone();
            new["data"][format!("k{i}")] = json!("v");
            let who = Manager::update(&format!("m{i:02}"), "v1", "");
            let now = format!("2026-01-01T00:00:{i:02}Z");
            managed.update(&live, &new, ty, &who, None, &now).unwrap();
            live = new;
        }
        let entries = managed.to_value();
        let names: Vec<&str> = entries
            .as_array()
            .unwrap()
            .iter()
            .map(|e| e["manager"].as_str().unwrap())
            .collect();
        assert_eq!(names.len(), MAX_UPDATE_MANAGERS);
        assert_eq!(names[0], "ancient-changes");
        assert_eq!(
            entries[0]["fieldsV1"],
            json!({"f:data": {"f:k0": {}, "f:k1": {}, "f:k2": {}}})
        );
        assert_eq!(entries[0]["time"], "2026-01-01T00:00:02Z");
    }

    #[test]
    fn conflict_messages_name_updaters_with_their_version_and_subresource() {
        let conflicts = vec![
            Conflict {
                manager: Manager::apply("mgr-1", ""),
                path: Path(vec![
                    PathElement::Field("data".into()),
                    PathElement::Field("a".into()),
                ]),
            },
            Conflict {
                manager: Manager::update("mgr-3", "v1", "status"),
                path: Path(vec![PathElement::Field("status".into())]),
            },
        ];
        assert_eq!(
            ApplyError::Conflicts(conflicts).to_string(),
            "Apply failed with 2 conflicts: conflicts with \"mgr-1\":\n- .data.a\nconflicts with \"mgr-3\" with subresource \"status\" using v1:\n- .status"
        );
    }
}
