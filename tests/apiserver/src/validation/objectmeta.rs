//! `metadata` validation on writes, as kube-apiserver (1.37) runs it: the registry
//! strategy's `ValidateObjectMeta` (apimachinery's, wrapped by `pkg/apis/core/validation`
//! for built-ins) on create, and on update `rest.BeforeUpdate`'s common checks followed by
//! the strategy's `ValidateObjectMetaUpdate`, each field error with its real text and in
//! the real order.

use serde_json::{Map, Value};

use super::data;
use super::names::{self, NameRule};
use crate::resource::ResourceSpec;
pub(crate) use crate::schema::field::go_quote;
use crate::schema::field::{go_json_string, FieldError as SchemaFieldError};
use crate::status::StatusError;

/// `TotalAnnotationSizeLimitB`: keys and values together.
const ANNOTATIONS_MAX_BYTES: usize = 256 * 1024;

/// Finalizers without a `/` that built-ins accept (`IsStandardFinalizerName`).
const STANDARD_FINALIZERS: [&str; 3] = ["kubernetes", "orphan", "foregroundDeletion"];

/// A field error: the field path and the body `Type: value: detail` as Go prints it.
type FieldError = (String, String);

/// `field.Invalid` with an already rendered bad value.
fn invalid(field: &str, value: &str, detail: &str) -> FieldError {
    (
        field.to_owned(),
        format!("Invalid value: {value}: {detail}"),
    )
}

/// `field.Required` with a detail.
fn required(field: &str, detail: &str) -> FieldError {
    (field.to_owned(), format!("Required value: {detail}"))
}

/// `field.Invalid` for a string value (`%q`).
fn invalid_str(field: &str, value: &str, detail: &str) -> FieldError {
    invalid(field, &go_quote(value), detail)
}

/// The rule each resource's registry applies to `metadata.name`.
pub(crate) fn name_rule(spec: &ResourceSpec) -> NameRule {
    match (spec.group.as_str(), spec.plural.as_str()) {
        ("", "namespaces") | ("apps", "statefulsets") => NameRule::Label,
        ("", "services") => NameRule::Dns1035Label,
        _ => NameRule::Subdomain,
    }
}

/// Built-in resources validate through `pkg/apis/core/validation`, which adds a check of
/// finalizer names; custom resources only get warnings for those.
fn is_builtin(spec: &ResourceSpec) -> bool {
    // The API groups kube-apiserver 1.37 serves itself whose strategies use the core
    // wrapper (CRDs and APIServices validate with apimachinery's own).
    const GROUPS: [&str; 20] = [
        "",
        "admissionregistration.k8s.io",
        "apps",
        "authentication.k8s.io",
        "authorization.k8s.io",
        "autoscaling",
        "batch",
        "certificates.k8s.io",
        "coordination.k8s.io",
        "discovery.k8s.io",
        "events.k8s.io",
        "flowcontrol.apiserver.k8s.io",
        "internal.apiserver.k8s.io",
        "networking.k8s.io",
        "node.k8s.io",
        "policy",
        "rbac.authorization.k8s.io",
        "resource.k8s.io",
        "scheduling.k8s.io",
        "storage.k8s.io",
    ];
    GROUPS.contains(&spec.group.as_str())
}

/// Validates the `metadata` (and the few other fields a strategy checks next to it) of an
/// object about to be created, after name generation and the strategy's
/// `PrepareForCreate`: 422 `Invalid` listing every field error.
pub(crate) fn validate_create(spec: &ResourceSpec, obj: &Value) -> Result<(), StatusError> {
    let errs = all_create_errors(spec, obj);
    finish(spec, object_name(obj), errs)
}

/// The field errors [`validate_create`] reports, for a validator that adds its own after
/// them in the same answer (a custom resource's schema).
pub(crate) fn create_field_errors(spec: &ResourceSpec, obj: &Value) -> Vec<SchemaFieldError> {
    to_field_errors(all_create_errors(spec, obj))
}

fn all_create_errors(spec: &ResourceSpec, obj: &Value) -> Vec<FieldError> {
    let empty = Map::new();
    let meta = obj
        .get("metadata")
        .and_then(Value::as_object)
        .unwrap_or(&empty);
    let name = str_field(meta, "name").unwrap_or_default();
    let mut errs = create_errors(spec, meta);
    errs.extend(resource_errors(spec, obj, name));
    errs.extend(data::errors(spec, obj));
    errs.extend(super::builtins::create_errors(spec, obj));
    errs
}

fn object_name(obj: &Value) -> &str {
    obj.pointer("/metadata/name")
        .and_then(Value::as_str)
        .unwrap_or_default()
}

/// Rendered errors as the schema validator's field errors, their type read back from the
/// words `ErrorBody` starts with.
fn to_field_errors(errs: Vec<FieldError>) -> Vec<SchemaFieldError> {
    errs.into_iter()
        .map(|(field, body)| SchemaFieldError::rendered(field, body))
        .collect()
}

/// The strategy's `ValidateObjectMeta` (with the core wrapper's finalizer check for
/// built-ins).
fn create_errors(spec: &ResourceSpec, meta: &Map<String, Value>) -> Vec<FieldError> {
    let rule = name_rule(spec);
    let mut errs = Vec::new();
    if let Some(prefix) = str_field(meta, "generateName").filter(|s| !s.is_empty()) {
        for msg in rule.check(prefix, true) {
            errs.push(invalid_str("metadata.generateName", prefix, &msg));
        }
    }
    let name = str_field(meta, "name").unwrap_or_default();
    if name.is_empty() {
        errs.push((
            "metadata.name".to_owned(),
            "Required value: name or generateName is required".to_owned(),
        ));
    } else {
        for msg in rule.check(name, false) {
            errs.push(invalid_str("metadata.name", name, &msg));
        }
    }
    errs.extend(namespace_errors(spec, meta));
    if let Some(g) = meta
        .get("generation")
        .and_then(Value::as_i64)
        .filter(|g| *g < 0)
    {
        errs.push(invalid(
            "metadata.generation",
            &g.to_string(),
            "must be greater than or equal to 0",
        ));
    }
    errs.extend(labels_annotations_owners(meta));
    errs.extend(finalizer_errors(meta));
    if is_builtin(spec) {
        errs.extend(kube_finalizer_errors(meta));
    }
    errs
}

/// Validates an update of the object itself after the strategy's `PrepareForUpdate`:
/// `rest.BeforeUpdate`'s common checks (the create checks with path-segment names, then
/// `ValidateObjectMetaAccessorUpdate`), then the strategy's own `ValidateObjectMetaUpdate`,
/// which repeats the update checks (and, for ConfigMaps, Secrets and ServiceAccounts, then
/// validates the new object as a create), so an invalid label is listed once per pass in the causes
/// (and once in the message), as kube-apiserver lists it.
pub(crate) fn validate_update(
    spec: &ResourceSpec,
    old: &Value,
    new: &Value,
) -> Result<(), StatusError> {
    let errs = all_update_errors(spec, old, new);
    finish(spec, object_name(new), errs)
}

/// The field errors [`validate_update`] reports, for a validator that adds its own after
/// them in the same answer (a custom resource's schema).
pub(crate) fn update_field_errors(
    spec: &ResourceSpec,
    old: &Value,
    new: &Value,
) -> Vec<SchemaFieldError> {
    to_field_errors(all_update_errors(spec, old, new))
}

fn all_update_errors(spec: &ResourceSpec, old: &Value, new: &Value) -> Vec<FieldError> {
    let empty = Map::new();
    let meta = new
        .get("metadata")
        .and_then(Value::as_object)
        .unwrap_or(&empty);
    let old_meta = old
        .get("metadata")
        .and_then(Value::as_object)
        .unwrap_or(&empty);
    let name = str_field(meta, "name").unwrap_or_default();
    let mut errs = Vec::new();
    if let Some(prefix) = str_field(meta, "generateName").filter(|s| !s.is_empty()) {
        for msg in names::path_segment(prefix, true) {
            errs.push(invalid_str("metadata.generateName", prefix, &msg));
        }
    }
    for msg in names::path_segment(name, false) {
        errs.push(invalid_str("metadata.name", name, &msg));
    }
    errs.extend(namespace_errors(spec, meta));
    errs.extend(labels_annotations_owners(meta));
    errs.extend(finalizer_errors(meta));
    let update_pass = update_errors(meta, old_meta);
    errs.extend(update_pass.iter().cloned());
    errs.extend(update_pass);
    if is_builtin(spec) {
        errs.extend(kube_finalizer_errors(meta));
    }
    if data::revalidates_on_update(spec) {
        errs.extend(data::update_errors(spec, old, new));
        errs.extend(create_errors(spec, meta));
        errs.extend(data::errors(spec, new));
    } else if crate::serviceaccounts::is_service_accounts(spec) {
        // `ValidateServiceAccountUpdate` checks the new object as a create after the
        // metadata update checks.
        errs.extend(create_errors(spec, meta));
    }
    errs.extend(super::builtins::update_errors(spec, old, new));
    errs
}

fn finish(spec: &ResourceSpec, name: &str, errs: Vec<FieldError>) -> Result<(), StatusError> {
    if errs.is_empty() {
        return Ok(());
    }
    let causes: Vec<(&str, String)> = errs.iter().map(|(f, m)| (f.as_str(), m.clone())).collect();
    Err(StatusError::invalid(&spec.kind, &spec.group, name, &causes))
}

fn str_field<'a>(meta: &'a Map<String, Value>, field: &str) -> Option<&'a str> {
    meta.get(field).and_then(Value::as_str)
}

/// `metadata.namespace`: required (a DNS label) for namespaced resources, forbidden for
/// cluster-scoped ones.
fn namespace_errors(spec: &ResourceSpec, meta: &Map<String, Value>) -> Vec<FieldError> {
    let ns = str_field(meta, "namespace").unwrap_or_default();
    if !spec.namespaced {
        return if ns.is_empty() {
            Vec::new()
        } else {
            vec![(
                "metadata.namespace".to_owned(),
                "Forbidden: not allowed on this type".to_owned(),
            )]
        };
    }
    if ns.is_empty() {
        return vec![("metadata.namespace".to_owned(), "Required value".to_owned())];
    }
    names::dns1123_label(ns)
        .iter()
        .map(|msg| invalid_str("metadata.namespace", ns, msg))
        .collect()
}

/// The string entries of a `map[string]string` field, in key order.
pub(crate) fn string_map<'a>(meta: &'a Map<String, Value>, field: &str) -> Vec<(&'a str, &'a str)> {
    meta.get(field)
        .and_then(Value::as_object)
        .map(|m| {
            m.iter()
                .filter_map(|(k, v)| v.as_str().map(|v| (k.as_str(), v)))
                .collect()
        })
        .unwrap_or_default()
}

/// Labels, annotations and owner references, which every pass checks.
fn labels_annotations_owners(meta: &Map<String, Value>) -> Vec<FieldError> {
    let mut errs = Vec::new();
    for (k, v) in string_map(meta, "labels") {
        for msg in names::qualified_name(k) {
            errs.push(invalid_str("metadata.labels", k, &msg));
        }
        for msg in names::label_value(v) {
            errs.push(invalid_str("metadata.labels", v, &msg));
        }
    }
    let annotations = string_map(meta, "annotations");
    for (k, _) in &annotations {
        // The rule is a qualified name in which case does not matter.
        for msg in names::qualified_name(&k.to_lowercase()) {
            errs.push(invalid_str("metadata.annotations", k, &msg));
        }
    }
    let size: usize = annotations.iter().map(|(k, v)| k.len() + v.len()).sum();
    if size > ANNOTATIONS_MAX_BYTES {
        errs.push((
            "metadata.annotations".to_owned(),
            format!("Too long: may not be more than {ANNOTATIONS_MAX_BYTES} bytes"),
        ));
    }
    errs.extend(owner_reference_errors(meta));
    errs
}

/// One owner reference's fields (empty when missing), in `OwnerReference`'s field order.
struct OwnerRef<'a> {
    api_version: &'a str,
    kind: &'a str,
    name: &'a str,
    uid: &'a str,
    controller: Option<bool>,
    block_owner_deletion: Option<bool>,
}

impl<'a> OwnerRef<'a> {
    fn from(v: &'a Value) -> Self {
        let s = |f: &str| v.get(f).and_then(Value::as_str).unwrap_or_default();
        Self {
            api_version: s("apiVersion"),
            kind: s("kind"),
            name: s("name"),
            uid: s("uid"),
            controller: v.get("controller").and_then(Value::as_bool),
            block_owner_deletion: v.get("blockOwnerDeletion").and_then(Value::as_bool),
        }
    }

    /// The reference as Go's `json.Marshal` writes it.
    fn go_json(&self) -> String {
        let mut s = format!(
            "{{\"apiVersion\":{},\"kind\":{},\"name\":{},\"uid\":{}",
            go_json_string(self.api_version),
            go_json_string(self.kind),
            go_json_string(self.name),
            go_json_string(self.uid)
        );
        if let Some(c) = self.controller {
            s.push_str(&format!(",\"controller\":{c}"));
        }
        if let Some(b) = self.block_owner_deletion {
            s.push_str(&format!(",\"blockOwnerDeletion\":{b}"));
        }
        s.push('}');
        s
    }

    /// The version of `schema.FromAPIVersionAndKind` (`ParseGroupVersion`: none for more
    /// than one `/`, the part after the `/` otherwise).
    fn version(&self) -> &str {
        let v = self.api_version;
        match v.matches('/').count() {
            0 => v,
            1 => v.split_once('/').map_or("", |(_, version)| version),
            _ => "",
        }
    }

    fn group(&self) -> &str {
        let v = self.api_version;
        match v.matches('/').count() {
            1 => v.split_once('/').map_or("", |(group, _)| group),
            _ => "",
        }
    }
}

/// `ValidateOwnerReferences` (1.37: each reference's errors at its index, missing
/// fields `Required`, an `apiVersion` that does not parse as a group-version `Invalid`).
fn owner_reference_errors(meta: &Map<String, Value>) -> Vec<FieldError> {
    const FIELD: &str = "metadata.ownerReferences";
    let Some(list) = meta.get("ownerReferences").and_then(Value::as_array) else {
        return Vec::new();
    };
    let refs: Vec<OwnerRef<'_>> = list.iter().map(OwnerRef::from).collect();
    let mut errs = Vec::new();
    let mut first_controller: Option<String> = None;
    for (i, r) in refs.iter().enumerate() {
        let at = format!("{FIELD}[{i}]");
        if r.api_version.is_empty() {
            errs.push(required(&format!("{at}.apiVersion"), "must not be empty"));
        } else if r.version().is_empty() {
            errs.push(invalid_str(
                &format!("{at}.apiVersion"),
                r.api_version,
                "must be <group>/<version> or <version>",
            ));
        }
        for (field, value) in [("kind", r.kind), ("name", r.name), ("uid", r.uid)] {
            if value.is_empty() {
                errs.push(required(&format!("{at}.{field}"), "must not be empty"));
            }
        }
        if r.group().is_empty() && r.version() == "v1" && r.kind == "Event" {
            errs.push(invalid(
                &at,
                &r.go_json(),
                "/v1, Kind=Event is disallowed from being an owner",
            ));
        }
        if r.controller == Some(true) {
            let this = format!("{}/{}", r.kind, r.name);
            match &first_controller {
                Some(first) => {
                    let all: Vec<String> = refs.iter().map(OwnerRef::go_json).collect();
                    errs.push(invalid(
                        FIELD,
                        &format!("[{}]", all.join(",")),
                        &format!("Only one reference can have Controller set to true. Found \"true\" in references for {first} and {this}"),
                    ));
                }
                None => first_controller = Some(this),
            }
        }
    }
    errs
}

fn finalizer_list(meta: &Map<String, Value>) -> Vec<&str> {
    meta.get("finalizers")
        .and_then(Value::as_array)
        .map(|l| l.iter().filter_map(Value::as_str).collect())
        .unwrap_or_default()
}

/// `ValidateFinalizers`: qualified names, and not both `orphan` and `foregroundDeletion`.
fn finalizer_errors(meta: &Map<String, Value>) -> Vec<FieldError> {
    let list = finalizer_list(meta);
    let mut errs = Vec::new();
    for f in &list {
        for msg in names::qualified_name(f) {
            errs.push(invalid_str("metadata.finalizers", f, &msg));
        }
    }
    if list.contains(&"orphan") && list.contains(&"foregroundDeletion") {
        let json: Vec<String> = list.iter().map(|f| go_json_string(f)).collect();
        errs.push(invalid(
            "metadata.finalizers",
            &format!("[{}]", json.join(",")),
            "finalizer orphan and foregroundDeletion cannot be both set",
        ));
    }
    errs
}

/// `validateKubeFinalizerName` for each finalizer: one without a `/` must be standard.
fn kube_finalizer_errors(meta: &Map<String, Value>) -> Vec<FieldError> {
    finalizer_list(meta)
        .iter()
        .enumerate()
        .filter(|(_, f)| !f.contains('/') && !STANDARD_FINALIZERS.contains(f))
        .map(|(i, f)| {
            invalid_str(
                &format!("metadata.finalizers[{i}]"),
                f,
                "name is neither a standard finalizer name nor is it fully qualified",
            )
        })
        .collect()
}

/// `ValidateObjectMetaAccessorUpdate` after `rest.BeforeUpdate` has kept the server-owned
/// fields: the deletion marks cannot be set or changed by an update, and labels,
/// annotations and owner references are checked again.
fn update_errors(meta: &Map<String, Value>, old: &Map<String, Value>) -> Vec<FieldError> {
    let present = |m: &Map<String, Value>, f: &str| m.get(f).filter(|v| !v.is_null()).cloned();
    let mut errs = Vec::new();
    for field in ["deletionTimestamp", "deletionGracePeriodSeconds"] {
        let new = present(meta, field);
        if new != present(old, field) {
            let shown = new.map_or_else(|| "null".to_owned(), |v| v.to_string());
            errs.push(invalid(
                &format!("metadata.{field}"),
                &shown,
                "field is immutable",
            ));
        }
    }
    errs.extend(labels_annotations_owners(meta));
    errs
}

/// The checks a built-in strategy runs beside `metadata` that concern names: a
/// Namespace's `spec.finalizers`, a CronJob's name length (its Jobs append 11 characters).
fn resource_errors(spec: &ResourceSpec, obj: &Value, name: &str) -> Vec<FieldError> {
    let mut errs = Vec::new();
    match (spec.group.as_str(), spec.plural.as_str()) {
        ("", "namespaces") => {
            let list = obj
                .pointer("/spec/finalizers")
                .and_then(Value::as_array)
                .map(|l| l.iter().filter_map(Value::as_str).collect::<Vec<_>>())
                .unwrap_or_default();
            for f in list {
                for msg in names::qualified_name(f) {
                    errs.push(invalid_str("spec.finalizers", f, &msg));
                }
                if !f.contains('/') && !STANDARD_FINALIZERS.contains(&f) {
                    errs.push(invalid_str(
                        "spec.finalizers",
                        f,
                        "name is neither a standard finalizer name nor is it fully qualified",
                    ));
                }
            }
        }
        ("batch", "cronjobs") if name.len() > names::LABEL_MAX - 11 => {
            errs.push(invalid_str(
                "metadata.name",
                name,
                "must be no more than 52 characters",
            ));
        }
        _ => {}
    }
    errs
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn spec(plural: &str) -> ResourceSpec {
        crate::builtin_resources()
            .into_iter()
            .find(|s| s.plural == plural)
            .expect("a built-in")
    }

    #[test]
    fn go_quoting() {
        assert_eq!(go_quote("a\"b\\c\n\u{1}é"), "\"a\\\"b\\\\c\\n\\x01é\"");
        assert_eq!(go_json_string("<a&b>"), "\"\\u003ca\\u0026b\\u003e\"");
    }

    #[test]
    fn name_rules_per_resource() {
        assert_eq!(name_rule(&spec("namespaces")), NameRule::Label);
        assert_eq!(name_rule(&spec("statefulsets")), NameRule::Label);
        assert_eq!(name_rule(&spec("services")), NameRule::Dns1035Label);
        assert_eq!(name_rule(&spec("pods")), NameRule::Subdomain);
        let cr = ResourceSpec::new("example.com", "v1", "Widget", "widgets", true);
        assert_eq!(name_rule(&cr), NameRule::Subdomain);
        assert!(!is_builtin(&cr));
        assert!(is_builtin(&spec("leases")));
    }

    #[test]
    fn custom_resources_accept_unqualified_finalizers() {
        let cr = ResourceSpec::new("example.com", "v1", "Widget", "widgets", true);
        let obj = json!({"metadata": {"name": "w", "namespace": "d", "finalizers": ["mine"]}});
        assert!(validate_create(&cr, &obj).is_ok());
        let err = validate_create(&spec("configmaps"), &obj).unwrap_err();
        assert_eq!(err.message, "ConfigMap \"w\" is invalid: metadata.finalizers[0]: Invalid value: \"mine\": name is neither a standard finalizer name nor is it fully qualified");
    }
}
