//! CustomResourceDefinitions served through the API, as kube-apiserver's
//! apiextensions-apiserver serves them: a CRD written to
//! `/apis/apiextensions.k8s.io/v1/customresourcedefinitions` is validated, gets its
//! status (`NamesAccepted`, `Established`, `acceptedNames`, `storedVersions`) and its
//! served versions are installed at once with their subresources and compiled schemas;
//! custom resources of those versions are pruned, defaulted and validated on every
//! write. Deleting the CRD deletes its objects and stops serving them.

use std::hash::{Hash, Hasher};
use std::path::PathBuf;
use std::sync::{Arc, Mutex};

use serde::Deserialize;
use serde_json::{json, Map, Value};

use crate::error::Error;
use crate::meta::now_rfc3339;
use crate::resource::{Generation, ResourceSpec, ScaleSpec, StatusOnCreate};
use crate::schema::field::{go_json, invalid_status, ErrorType, FieldError};
use crate::schema::{self, Schema, ValidateOptions};
use crate::state::{Resolved, State, Sub, WriteOptions};
use crate::status::StatusError;
use crate::store::{Change, Obj, Outcome};
use crate::validation::objectmeta;

/// The API group of CRDs.
pub(crate) const GROUP: &str = "apiextensions.k8s.io";
/// The resource of CRDs.
pub(crate) const PLURAL: &str = "customresourcedefinitions";
const KIND: &str = "CustomResourceDefinition";

/// The compiled schema of one served version of a CRD, carried by the version's
/// [`ResourceSpec`]: writes of its objects are pruned, defaulted and validated against it.
/// Two handles are equal when they share one compilation.
#[derive(Clone)]
pub struct CrdSchema(Arc<VersionSchema>);

struct VersionSchema {
    /// The CRD's name, for `Debug`.
    crd: String,
    root: Schema,
}

impl CrdSchema {
    fn status(&self) -> Option<&Schema> {
        self.0.root.properties.get("status")
    }
}

impl PartialEq for CrdSchema {
    fn eq(&self, other: &Self) -> bool {
        Arc::ptr_eq(&self.0, &other.0)
    }
}

impl Eq for CrdSchema {}

impl Hash for CrdSchema {
    fn hash<H: Hasher>(&self, state: &mut H) {
        std::ptr::hash(Arc::as_ptr(&self.0), state);
    }
}

impl std::fmt::Debug for CrdSchema {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "CrdSchema({})", self.0.crd)
    }
}

/// The `fieldValidation` of a write: what an unknown field does.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) enum FieldValidation {
    /// Dropped silently.
    Ignore,
    /// Dropped with a `Warning` header (the server's default).
    #[default]
    Warn,
    /// 400 `strict decoding error`.
    Strict,
}

impl FieldValidation {
    /// The query parameter's value (already checked to be one of the three, or absent).
    pub(crate) fn parse(v: Option<&str>) -> Self {
        match v {
            Some("Ignore") => Self::Ignore,
            Some("Strict") => Self::Strict,
            _ => Self::Warn,
        }
    }
}

/// Warnings a write collects for the `Warning` response headers.
#[derive(Clone, Debug, Default)]
pub(crate) struct Warnings(Arc<Mutex<Vec<String>>>);

impl Warnings {
    fn push(&self, text: String) {
        self.0.lock().unwrap_or_else(|p| p.into_inner()).push(text);
    }

    /// The warnings as `Warning` header values (`299 - "text"`).
    pub(crate) fn header_values(&self) -> Vec<String> {
        self.0
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .iter()
            .map(|t| format!("299 - \"{}\"", t.replace('\\', "\\\\").replace('"', "\\\"")))
            .collect()
    }
}

/// The resource of CRDs themselves (`apiextensions.k8s.io/v1`), with the CRD registry
/// strategy's semantics: cluster-scoped, the status subresource, generation bumped by
/// `spec` changes, a PUT needs a resourceVersion.
pub(crate) fn crd_resource() -> ResourceSpec {
    ResourceSpec {
        generation: Generation::Spec,
        status_on_create: StatusOnCreate::Drop,
        status_subresource: true,
        ..ResourceSpec::new(GROUP, "v1", KIND, PLURAL, false)
    }
}

fn is_crd_resource(spec: &ResourceSpec) -> bool {
    spec.group == GROUP && spec.plural == PLURAL
}

/// The decode step of a write (the request body, or the patched object): a custom
/// resource with a schema is pruned (unknown fields reported as `opts` asks), has
/// disallowed nulls dropped and is defaulted; a CRD gets the v1 defaults.
pub(crate) fn decode(
    r: &Resolved,
    body: &mut Value,
    opts: &WriteOptions,
) -> Result<(), StatusError> {
    if is_crd_resource(&r.spec) {
        default_crd(body);
        return Ok(());
    }
    let Some(schema) = &r.spec.schema else {
        return Ok(());
    };
    let root = &schema.0.root;
    let unknown = schema::prune(body, root);
    schema::prune_nulls(body, Some(root));
    schema::default(body, root);
    if unknown.is_empty() {
        return Ok(());
    }
    let texts = unknown.iter().map(|p| format!("unknown field \"{p}\""));
    match opts.field_validation {
        FieldValidation::Ignore => Ok(()),
        FieldValidation::Warn => {
            texts.for_each(|t| opts.warnings.push(t));
            Ok(())
        }
        FieldValidation::Strict => Err(StatusError::bad_request(format!(
            "strict decoding error: {}",
            texts.collect::<Vec<_>>().join(", ")
        ))),
    }
}

/// Validation of a create, after the strategy prepared the object: the metadata, then
/// (for a custom resource) the schema, the scale paths, embedded resources, list types
/// and rules in the same answer; a CRD is validated and gets its status.
pub(crate) fn validate_create(r: &Resolved, obj: &mut Value) -> Result<(), StatusError> {
    if is_crd_resource(&r.spec) {
        objectmeta::validate_create(&r.spec, obj)?;
        return create_crd(obj);
    }
    let Some(schema) = &r.spec.schema else {
        return objectmeta::validate_create(&r.spec, obj);
    };
    let root = &schema.0.root;
    // The custom-resource validator checks the metadata first, then the schema, and
    // answers every error in one 422.
    let mut errs = objectmeta::create_field_errors(&r.spec, obj);
    errs.extend(schema::validate(
        root,
        obj,
        None,
        ValidateOptions::default(),
    ));
    errs.extend(scale_errors(&r.spec, obj, true));
    errs.extend(schema::validate_embedded(root, obj));
    errs.extend(schema::validate_list_types(root, obj));
    with_rules(&mut errs, root, obj, None);
    fail_if_any(&r.spec, obj, errs)
}

/// `x-kubernetes-validations` over the whole object, unless a blocking schema error
/// came first (then the real server says the rules were not checked).
fn with_rules(errs: &mut Vec<FieldError>, root: &Schema, new: &Value, old: Option<&Value>) {
    match schema::cel::blocked(root, errs) {
        Some(e) => errs.push(e),
        None => errs.extend(schema::cel::validate(root, new, old)),
    }
}

/// Validation of an update (`new` as the strategy will store it) with validation
/// ratcheting against `old`: a custom resource's metadata (which the caller checks for
/// resources without a schema), then its schema, in one answer; through the status
/// subresource only `status` is validated, against the status schema. A CRD is validated
/// and its status kept current.
pub(crate) fn validate_update(
    r: &Resolved,
    old: &Value,
    new: &mut Value,
    sub: Sub,
) -> Result<(), StatusError> {
    if is_crd_resource(&r.spec) {
        return update_crd(old, new, sub);
    }
    let Some(schema) = &r.spec.schema else {
        return Ok(());
    };
    let root = &schema.0.root;
    let mut errs = match sub {
        Sub::Main => {
            let mut errs = objectmeta::update_field_errors(&r.spec, old, new);
            errs.extend(schema::validate(
                root,
                new,
                Some(old),
                ValidateOptions::default(),
            ));
            errs.extend(scale_errors(&r.spec, new, true));
            errs.extend(schema::validate_embedded(root, new));
            if schema::validate_list_types(root, old).is_empty() {
                errs.extend(schema::validate_list_types(root, new));
            }
            errs
        }
        Sub::Status => {
            let mut errs = Vec::new();
            if let (Some(status), Some(status_schema)) = (new.get("status"), schema.status()) {
                errs = schema::validate(
                    status_schema,
                    status,
                    old.get("status"),
                    ValidateOptions {
                        prefix: Some("status"),
                    },
                );
            }
            errs.extend(scale_errors(&r.spec, new, false));
            let new_list = schema::validate_list_types(root, new);
            if !new_list.is_empty() && schema::validate_list_types(root, old).is_empty() {
                errs.extend(new_list);
            }
            errs
        }
    };
    with_rules(&mut errs, root, new, Some(old));
    fail_if_any(&r.spec, new, errs)
}

fn fail_if_any(spec: &ResourceSpec, obj: &Value, errs: Vec<FieldError>) -> Result<(), StatusError> {
    if errs.is_empty() {
        return Ok(());
    }
    let name = obj["metadata"]["name"].as_str().unwrap_or_default();
    Err(invalid_status(&spec.kind, &spec.group, name, &errs))
}

/// Go's `%T` of an unstructured value.
fn go_type(v: &Value) -> &'static str {
    match v {
        Value::Null => "<nil>",
        Value::Bool(_) => "bool",
        Value::Number(n) if n.as_i64().is_some() => "int64",
        Value::Number(_) => "float64",
        Value::String(_) => "string",
        Value::Array(_) => "[]interface {}",
        Value::Object(_) => "map[string]interface {}",
    }
}

/// Go's `%v` of an unstructured value.
fn go_v(v: &Value) -> String {
    match v {
        Value::String(s) => s.clone(),
        Value::Null => "<nil>".into(),
        Value::Array(_) | Value::Object(_) => go_json(v),
        other => crate::schema::field::go_value(other),
    }
}

/// `unstructured.NestedFieldNoCopy` at a scale JSON path: the value, none, or the
/// accessor error.
fn nested<'a>(obj: &'a Value, path: &str) -> Result<Option<&'a Value>, String> {
    let fields: Vec<&str> = path.trim_start_matches('.').split('.').collect();
    let mut cur = obj;
    for (i, f) in fields.iter().enumerate() {
        match cur {
            Value::Object(m) => match m.get(*f) {
                Some(v) => cur = v,
                None => return Ok(None),
            },
            other => {
                return Err(format!(
                    ".{} accessor error: {} is of the type {}, expected map[string]interface{{}}",
                    fields[..i].join("."),
                    go_v(other),
                    go_type(other)
                ))
            }
        }
    }
    Ok(Some(cur))
}

/// The custom-resource validator's checks of the scale subresource's paths.
fn scale_errors(spec: &ResourceSpec, obj: &Value, with_spec: bool) -> Vec<FieldError> {
    let Some(scale) = &spec.scale else {
        return Vec::new();
    };
    let mut errs = Vec::new();
    let mut replicas = |path: &str| {
        let trimmed = path.trim_start_matches('.');
        match nested(obj, path) {
            Err(e) => errs.push(FieldError::invalid(path, json!(0), e)),
            Ok(None) => {}
            Ok(Some(v)) => match v.as_i64() {
                None => errs.push(FieldError::invalid(
                    path,
                    json!(0),
                    format!(
                        ".{trimmed} accessor error: {} is of the type {}, expected int64",
                        go_v(v),
                        go_type(v)
                    ),
                )),
                Some(n) if n < 0 => errs.push(FieldError::invalid(
                    path,
                    json!(n),
                    "should be a non-negative integer",
                )),
                Some(n) if n > i64::from(i32::MAX) => errs.push(FieldError::invalid(
                    path,
                    json!(n),
                    format!("should be less than or equal to {}", i32::MAX),
                )),
                Some(_) => {}
            },
        }
    };
    if with_spec {
        replicas(&scale.spec_replicas_path);
    }
    replicas(&scale.status_replicas_path);
    if let Some(path) = &scale.label_selector_path {
        let trimmed = path.trim_start_matches('.');
        match nested(obj, path) {
            Err(e) => errs.push(FieldError::invalid(path.as_str(), json!(""), e)),
            Ok(Some(v)) if !v.is_string() => errs.push(FieldError::invalid(
                path.as_str(),
                json!(""),
                format!(
                    ".{trimmed} accessor error: {} is of the type {}, expected string",
                    go_v(v),
                    go_type(v)
                ),
            )),
            _ => {}
        }
    }
    errs
}

/// `SetDefaults_CustomResourceDefinitionSpec`: singular and listKind from the kind,
/// conversion `None`.
fn default_crd(crd: &mut Value) {
    let Some(spec) = crd.get_mut("spec").and_then(Value::as_object_mut) else {
        return;
    };
    if let Some(names) = spec.get_mut("names").and_then(Value::as_object_mut) {
        let kind = names
            .get("kind")
            .and_then(Value::as_str)
            .unwrap_or_default()
            .to_owned();
        let empty = |names: &Map<String, Value>, k: &str| {
            names
                .get(k)
                .and_then(Value::as_str)
                .is_none_or(str::is_empty)
        };
        if empty(names, "singular") {
            names.insert("singular".into(), json!(kind.to_lowercase()));
        }
        if empty(names, "listKind") && !kind.is_empty() {
            names.insert("listKind".into(), json!(format!("{kind}List")));
        }
    }
    if spec.get("conversion").is_none_or(Value::is_null) {
        spec.insert("conversion".into(), json!({"strategy": "None"}));
    }
}

/// One version of a CRD, as read from it.
struct VersionDef {
    name: String,
    served: bool,
    storage: bool,
    schema: Option<Value>,
    status: bool,
    scale: Option<ScaleSpec>,
}

/// What a CRD declares.
struct CrdDef {
    name: String,
    group: String,
    kind: String,
    plural: String,
    list_kind: String,
    scope: String,
    versions: Vec<VersionDef>,
}

fn text<'a>(v: &'a Value, path: &[&str]) -> &'a str {
    path.iter()
        .try_fold(v, |v, k| v.get(k))
        .and_then(Value::as_str)
        .unwrap_or_default()
}

impl CrdDef {
    fn read(crd: &Value) -> Self {
        let spec = &crd["spec"];
        let versions = spec["versions"]
            .as_array()
            .map(|l| {
                l.iter()
                    .map(|v| VersionDef {
                        name: text(v, &["name"]).to_owned(),
                        served: v["served"].as_bool().unwrap_or(false),
                        storage: v["storage"].as_bool().unwrap_or(false),
                        schema: v
                            .get("schema")
                            .and_then(|s| s.get("openAPIV3Schema"))
                            .filter(|s| !s.is_null())
                            .cloned(),
                        status: v
                            .get("subresources")
                            .and_then(|s| s.get("status"))
                            .is_some_and(|s| !s.is_null()),
                        scale: v
                            .get("subresources")
                            .and_then(|s| s.get("scale"))
                            .filter(|s| s.is_object())
                            .map(|s| {
                                let selector =
                                    s["labelSelectorPath"].as_str().filter(|p| !p.is_empty());
                                ScaleSpec::new(
                                    text(s, &["specReplicasPath"]),
                                    text(s, &["statusReplicasPath"]),
                                    selector,
                                )
                            }),
                    })
                    .collect()
            })
            .unwrap_or_default();
        Self {
            name: text(crd, &["metadata", "name"]).to_owned(),
            group: text(spec, &["group"]).to_owned(),
            kind: text(spec, &["names", "kind"]).to_owned(),
            plural: text(spec, &["names", "plural"]).to_owned(),
            list_kind: text(spec, &["names", "listKind"]).to_owned(),
            scope: text(spec, &["scope"]).to_owned(),
            versions,
        }
    }

    fn storage_version(&self) -> Option<&str> {
        self.versions
            .iter()
            .find(|v| v.storage)
            .map(|v| v.name.as_str())
    }

    /// True when every version has the same schema: the internal version the real
    /// validator checks then holds it once, as `spec.validation`, and names it so.
    fn shared_schema(&self) -> bool {
        self.versions.windows(2).all(|w| w[0].schema == w[1].schema)
    }

    /// The schema errors of each version (by index), with the paths the real validator
    /// reports them at.
    fn schema_errors(&self) -> Vec<(usize, FieldError)> {
        let shared = self.shared_schema();
        let mut errs = Vec::new();
        for (i, v) in self.versions.iter().enumerate() {
            let Some(raw) = &v.schema else {
                errs.push((
                    i,
                    FieldError::required(format!("spec.versions[{i}].schema.openAPIV3Schema"), ""),
                ));
                continue;
            };
            if shared && i > 0 {
                continue;
            }
            let path = if shared {
                "spec.validation.openAPIV3Schema".to_owned()
            } else {
                format!("spec.versions[{i}].schema.openAPIV3Schema")
            };
            errs.extend(
                version_schema_errors(raw, &path)
                    .into_iter()
                    .map(|e| (i, e)),
            );
        }
        errs
    }

    /// The served versions as resources, highest priority first (as discovery orders
    /// them), each with its compiled schema.
    fn resources(&self) -> Result<Vec<ResourceSpec>, Vec<FieldError>> {
        let errs: Vec<FieldError> = self.schema_errors().into_iter().map(|(_, e)| e).collect();
        if !errs.is_empty() {
            return Err(errs);
        }
        let mut specs = Vec::new();
        for v in self.versions.iter().filter(|v| v.served) {
            let Some(raw) = &v.schema else {
                continue;
            };
            let root = Schema::compile(raw, "", &mut Vec::new());
            let mut spec = ResourceSpec::new(
                &self.group,
                &v.name,
                &self.kind,
                &self.plural,
                self.scope == "Namespaced",
            );
            spec.list_kind.clone_from(&self.list_kind);
            if v.status {
                spec = spec.with_status_subresource();
            }
            if let Some(scale) = &v.scale {
                spec = spec.with_scale(scale.clone());
            }
            spec.schema = Some(CrdSchema(Arc::new(VersionSchema {
                crd: self.name.clone(),
                root,
            })));
            specs.push(spec);
        }
        specs.sort_by_key(|s| std::cmp::Reverse(version_priority(&s.version)));
        Ok(specs)
    }
}

/// The errors of one version's `openAPIV3Schema` at `path`, in the order of Go's
/// `validateCustomResourceDefinitionValidation`: the structural-schema errors (or,
/// when there are none, those of the defaults), then those of the walk over the
/// schema, then the rules' compile and cost errors. The rules are only compiled (and
/// so only reported) when the schema is structural with valid defaults, and a rule
/// is skipped where the walk found something wrong at its node or below: a broken
/// schema gives a rule no type to check against.
fn version_schema_errors(raw: &Value, path: &str) -> Vec<FieldError> {
    let mut walk = Vec::new();
    let compiled = Schema::compile(raw, path, &mut walk);
    let (rule_errs, walk): (Vec<FieldError>, Vec<FieldError>) =
        walk.into_iter().partition(|e| is_rule_error(e, path));
    let init = schema::unrepresentable(raw);
    let mut errs = Vec::new();
    if init.is_none() {
        errs = schema::validate_structural(raw, path);
        if errs.is_empty() {
            errs = schema::validate_defaults(&compiled, path);
        }
    }
    let rules_compiled = init.is_none() && errs.is_empty();
    errs.extend(walk.iter().cloned());
    if rules_compiled {
        errs.extend(rule_errs.into_iter().filter(|e| {
            let node = e
                .field
                .split_once(".x-kubernetes-validations[")
                .map_or(path, |(node, _)| node);
            !walk.iter().any(|w| {
                w.field == node
                    || w.field
                        .strip_prefix(node)
                        .is_some_and(|r| r.starts_with('.'))
            })
        }));
    }
    if errs.is_empty() {
        if let Some(why) = init {
            errs.push(FieldError::invalid(path, json!(""), why));
        }
    }
    errs
}

/// Whether `e` comes from compiling or costing the CEL rules (Go's `CELErrors`, and
/// the schema's total cost) rather than from the static checks of a rule's fields.
fn is_rule_error(e: &FieldError, path: &str) -> bool {
    if e.field == path {
        return e
            .detail
            .starts_with("x-kubernetes-validations estimated rule cost total");
    }
    if !e.field.contains(".x-kubernetes-validations[") {
        return false;
    }
    let static_check = (e.kind == ErrorType::Required && e.detail == "rule is not specified")
        || (e.kind == ErrorType::NotSupported && e.field.ends_with(".reason"));
    !static_check
}

/// Kubernetes' version order (`CompareKubeAwareVersionStrings`): GA before beta before
/// alpha, higher numbers first, other names last (alphabetically).
fn version_priority(v: &str) -> (u8, u64, u64, std::cmp::Reverse<String>) {
    let other = (0, 0, 0, std::cmp::Reverse(v.to_owned()));
    let Some(rest) = v.strip_prefix('v') else {
        return other;
    };
    let digits: String = rest.chars().take_while(char::is_ascii_digit).collect();
    let Ok(major) = digits.parse::<u64>() else {
        return other;
    };
    let tail = &rest[digits.len()..];
    let (rank, minor) = if tail.is_empty() {
        (3, 0)
    } else if let Some(n) = tail.strip_prefix("beta") {
        match n.parse::<u64>() {
            Ok(n) => (2, n),
            Err(_) => return other,
        }
    } else if let Some(n) = tail.strip_prefix("alpha") {
        match n.parse::<u64>() {
            Ok(n) => (1, n),
            Err(_) => return other,
        }
    } else {
        return other;
    };
    (rank, major, minor, std::cmp::Reverse(String::new()))
}

/// `IsDNS1035Label`'s messages joined as the CRD validator joins them.
fn dns1035(v: &str) -> Option<String> {
    let errs = crate::validation::names::dns1035_label(v);
    (!errs.is_empty()).then(|| errs.join(","))
}

/// `ValidateCustomResourceDefinition` (and, with `old`, the update's immutability
/// checks), for what this server acts on.
fn crd_errors(crd: &Value, def: &CrdDef, old: Option<&CrdDef>) -> Vec<FieldError> {
    let mut errs = Vec::new();
    if def.name != format!("{}.{}", def.plural, def.group) {
        errs.push(FieldError::invalid(
            "metadata.name",
            json!(def.name),
            r#"must be spec.names.plural+"."+spec.group"#,
        ));
    }
    if def.group.is_empty() {
        errs.push(FieldError::required("spec.group", ""));
    } else if !def.group.contains('.') {
        errs.push(FieldError::invalid(
            "spec.group",
            json!(def.group),
            "should be a domain with at least one dot",
        ));
    }
    match def.scope.as_str() {
        "" => errs.push(FieldError::required("spec.scope", "")),
        "Cluster" | "Namespaced" => {}
        other => errs.push(FieldError::not_supported(
            "spec.scope",
            json!(other),
            &["Cluster".into(), "Namespaced".into()],
        )),
    }
    let shared = def.shared_schema();
    let mut schema_errs = def.schema_errors();
    // Only a version without a schema: other `Required` errors stay in the schema's.
    let missing = |e: &FieldError| {
        e.kind == ErrorType::Required
            && e.detail.is_empty()
            && e.field.ends_with(".openAPIV3Schema")
    };
    errs.extend(
        schema_errs
            .iter()
            .filter(|(_, e)| missing(e))
            .map(|(_, e)| e.clone()),
    );
    schema_errs.retain(|(_, e)| !missing(e));
    for (i, v) in def.versions.iter().enumerate() {
        if let Some(why) = dns1035(&v.name) {
            errs.push(FieldError::invalid(
                format!("spec.versions[{i}].name"),
                json!(v.name),
                why,
            ));
        }
        if !shared {
            errs.extend(
                schema_errs
                    .iter()
                    .filter(|(at, _)| *at == i)
                    .map(|(_, e)| e.clone()),
            );
        }
    }
    let mut names: Vec<&str> = def.versions.iter().map(|v| v.name.as_str()).collect();
    names.sort_unstable();
    names.dedup();
    let versions = crd["spec"]["versions"].clone();
    if names.len() != def.versions.len() {
        errs.push(FieldError::invalid(
            "spec.versions",
            versions.clone(),
            "must contain unique version names",
        ));
    }
    if def.versions.iter().filter(|v| v.storage).count() != 1 {
        errs.push(FieldError::invalid(
            "spec.versions",
            versions,
            "must have exactly one version marked as storage version",
        ));
    }
    let names_of = |k: &str| text(crd, &["spec", "names", k]).to_owned();
    for k in ["plural", "singular", "kind", "listKind"] {
        if names_of(k).is_empty() {
            errs.push(FieldError::required(format!("spec.names.{k}"), ""));
        }
    }
    for k in ["plural", "singular"] {
        let v = names_of(k);
        if let Some(why) = dns1035(&v).filter(|_| !v.is_empty()) {
            errs.push(FieldError::invalid(
                format!("spec.names.{k}"),
                json!(v),
                why,
            ));
        }
    }
    for k in ["kind", "listKind"] {
        let v = names_of(k);
        if let Some(why) = dns1035(&v.to_lowercase()).filter(|_| !v.is_empty()) {
            errs.push(FieldError::invalid(
                format!("spec.names.{k}"),
                json!(v),
                format!("may have mixed case, but should otherwise match: {why}"),
            ));
        }
    }
    if !def.kind.is_empty() && def.kind == def.list_kind {
        errs.push(FieldError::invalid(
            "spec.names.listKind",
            json!(def.list_kind),
            "kind and listKind may not be the same",
        ));
    }
    if shared {
        errs.extend(schema_errs.into_iter().map(|(_, e)| e));
    }
    if let Some(old) = old {
        if old.scope != def.scope {
            errs.push(FieldError::invalid(
                "spec.scope",
                json!(def.scope),
                "field is immutable",
            ));
        }
        if old.group != def.group {
            errs.push(FieldError::invalid(
                "spec.group",
                json!(def.group),
                "field is immutable",
            ));
        }
    }
    let protected = ["k8s.io", "kubernetes.io"]
        .iter()
        .any(|g| def.group == *g || def.group.ends_with(&format!(".{g}")));
    let approval = crd["metadata"]["annotations"]["api-approved.kubernetes.io"].as_str();
    if protected && approval.is_none() && old.is_none() {
        errs.push(FieldError::required("metadata.annotations[api-approved.kubernetes.io]", "protected groups must have approval annotation \"api-approved.kubernetes.io\", see https://github.com/kubernetes/enhancements/pull/1111"));
    }
    if crd["spec"]["preserveUnknownFields"].as_bool() == Some(true) {
        errs.push(FieldError::invalid(
            "spec.preserveUnknownFields",
            json!(true),
            "cannot set to true, set x-kubernetes-preserve-unknown-fields to true in spec.versions[*].schema instead",
        ));
    }
    errs
}

fn crd_invalid(name: &str, errs: &[FieldError]) -> StatusError {
    invalid_status(KIND, GROUP, name, errs)
}

/// `status.acceptedNames`: the names as the naming controller accepts them.
fn accepted_names(crd: &Value) -> Value {
    let names = crd["spec"]["names"]
        .as_object()
        .cloned()
        .unwrap_or_default();
    let mut accepted = Map::new();
    for k in [
        "plural",
        "singular",
        "shortNames",
        "kind",
        "listKind",
        "categories",
    ] {
        if let Some(v) = names.get(k).filter(|v| !v.is_null()) {
            accepted.insert(k.to_owned(), v.clone());
        }
    }
    Value::Object(accepted)
}

fn create_crd(crd: &mut Value) -> Result<(), StatusError> {
    let def = CrdDef::read(crd);
    let errs = crd_errors(crd, &def, None);
    if !errs.is_empty() {
        return Err(crd_invalid(&def.name, &errs));
    }
    let now = now_rfc3339();
    let stored: Vec<&str> = def.storage_version().into_iter().collect();
    let status = json!({
        "acceptedNames": accepted_names(crd),
        "conditions": [
            {"type": "NamesAccepted", "status": "True", "lastTransitionTime": now, "reason": "NoConflicts", "message": "no conflicts found"},
            {"type": "Established", "status": "True", "lastTransitionTime": now, "reason": "InitialNamesAccepted", "message": "the initial names have been accepted"},
        ],
        "storedVersions": stored,
    });
    if let Some(map) = crd.as_object_mut() {
        map.insert("status".into(), status);
    }
    Ok(())
}

fn update_crd(old: &Value, new: &mut Value, sub: Sub) -> Result<(), StatusError> {
    let def = CrdDef::read(new);
    if sub == Sub::Main {
        let old_def = CrdDef::read(old);
        let errs = crd_errors(new, &def, Some(&old_def));
        if !errs.is_empty() {
            return Err(crd_invalid(&def.name, &errs));
        }
    }
    let accepted = accepted_names(new);
    let status = new
        .as_object_mut()
        .and_then(|m| m.get_mut("status"))
        .and_then(Value::as_object_mut);
    if let Some(status) = status {
        if sub == Sub::Main {
            status.insert("acceptedNames".into(), accepted);
        }
        let stored = status.entry("storedVersions").or_insert_with(|| json!([]));
        if let (Some(list), Some(storage)) = (stored.as_array_mut(), def.storage_version()) {
            if !list.iter().any(|v| v == storage) {
                list.push(json!(storage));
            }
        }
    }
    Ok(())
}

/// After a CRD write is stored: its versions are served as it now declares them (and
/// objects stored before a default was added get it, as reads from storage would), or,
/// once deleted, its objects are deleted and it is served no more.
pub(crate) fn after_write(
    state: &State,
    r: &Resolved,
    outcome: Outcome,
    obj: &Obj,
) -> Result<(), StatusError> {
    if !is_crd_resource(&r.spec) || outcome == Outcome::Unchanged {
        return Ok(());
    }
    let crd = obj.to_value()?;
    let def = CrdDef::read(&crd);
    if outcome == Outcome::Deleted {
        if let Ok(served) = state.resolve_name(&format!("{}.{}", def.plural, def.group)) {
            let (_, items) = served.store.select(&state.clock, None, &|_| true);
            for item in items {
                match served
                    .store
                    .write(&state.clock, &item.key, false, |_| Ok(Change::Delete))
                {
                    Ok(_) => {}
                    Err(e) if e.code == 404 => {}
                    Err(e) => return Err(e),
                }
            }
            // Watchers get the DELETED events already queued, then their streams end.
            served.store.close_watches();
        }
        state.replace_resource(&def.group, &def.plural, Vec::new());
        return Ok(());
    }
    let specs = def
        .resources()
        .map_err(|errs| crd_invalid(&def.name, &errs))?;
    let storage = def.storage_version().map(str::to_owned);
    let storage_schema = specs
        .iter()
        .find(|s| Some(&s.version) == storage.as_ref())
        .and_then(|s| s.schema.clone());
    state.replace_resource(&def.group, &def.plural, specs);
    if let (Some(schema), Ok(served)) = (
        storage_schema,
        state.resolve_name(&format!("{}.{}", def.plural, def.group)),
    ) {
        served.store.rewrite_in_place(&|v| {
            let before = v.clone();
            schema::default(v, &schema.0.root);
            *v != before
        })?;
    }
    Ok(())
}

/// CRDs to install before a server starts: YAML or JSON text, or a file of it.
#[derive(Clone, Debug)]
pub(crate) enum CrdSource {
    Text(String),
    File(PathBuf),
}

/// Installs every CRD in `sources` (multi-document YAML; documents of other kinds are
/// skipped), as POSTs of them would.
pub(crate) fn install_sources(state: &State, sources: &[CrdSource]) -> Result<(), Error> {
    for (i, source) in sources.iter().enumerate() {
        match source {
            CrdSource::Text(text) => install_text(state, &format!("CRD text #{}", i + 1), text)?,
            CrdSource::File(path) => {
                let origin = path.display().to_string();
                let text = std::fs::read_to_string(path).map_err(|e| Error::Crd {
                    origin: origin.clone(),
                    message: format!("cannot read it: {e}"),
                })?;
                install_text(state, &origin, &text)?;
            }
        }
    }
    Ok(())
}

/// Installs the CRDs of one text; `origin` names it in errors.
pub(crate) fn install_text(state: &State, origin: &str, text: &str) -> Result<(), Error> {
    let err = |message: String| Error::Crd {
        origin: origin.to_owned(),
        message,
    };
    let r = state
        .resolve(GROUP, "v1", PLURAL)
        .ok_or_else(|| err("the server does not serve customresourcedefinitions".into()))?;
    let mut installed = 0;
    for (i, doc) in serde_yaml_ng::Deserializer::from_str(text).enumerate() {
        let value = Value::deserialize(doc)
            .map_err(|e| err(format!("document {} is not valid YAML: {e}", i + 1)))?;
        if value.get("kind").and_then(Value::as_str) != Some(KIND) {
            continue;
        }
        let name = text_of_name(&value);
        state
            .create(&r, None, value, &WriteOptions::default())
            .map_err(|e| err(format!("CustomResourceDefinition {name:?}: {}", e.message)))?;
        installed += 1;
    }
    if installed == 0 {
        return Err(err("it holds no CustomResourceDefinition".into()));
    }
    Ok(())
}

fn text_of_name(v: &Value) -> String {
    text(v, &["metadata", "name"]).to_owned()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn versions_sort_as_kubernetes_sorts_them() {
        let mut v = vec!["v1alpha1", "foo", "v1beta1", "v2", "v1", "v1beta2", "v10"];
        v.sort_by_key(|s| std::cmp::Reverse(version_priority(s)));
        assert_eq!(
            v,
            ["v10", "v2", "v1", "v1beta2", "v1beta1", "v1alpha1", "foo"]
        );
    }
}
