//! Whether an `openAPIV3Schema` is a structural schema, as kube-apiserver decides
//! before it accepts a CRD (apiextensions-apiserver's `structuralschema.NewStructural`
//! and `ValidateStructural`): every specified node has a `type`, value validations
//! (`anyOf`, `allOf`, `oneOf`, `not`) only restrict what the structural part already
//! declares, metadata is only restricted in name and generateName, and embedded
//! resources and int-or-string nodes have their fixed shapes. A CRD failing any of it
//! is refused, because pruning, defaulting and server-side apply all need the
//! structure.
//!
//! It reads the raw JSON schema rather than the compiled [`super::Schema`]: the rules
//! are about what the author wrote (an empty `type`, a `title` inside `anyOf`), which
//! compilation forgets.

use serde_json::{json, Map, Value};

use super::field::FieldError;

type Node = Map<String, Value>;

/// Where a structural node sits (Go's `level`): the messages for a missing `type`
/// and the root-only rules depend on it.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Level {
    Root,
    Item,
    Field,
}

/// `NewStructural`'s refusal of a schema it cannot represent (its error text), or
/// none. The CRD validator reports it only when nothing else is wrong, since the
/// walk over the schema names the same problems with better paths.
pub(crate) fn unrepresentable(raw: &Value) -> Option<String> {
    let node = raw.as_object()?;
    for (key, msg) in [
        ("id", "OpenAPIV3Schema 'id' is not supported"),
        ("$schema", "OpenAPIV3Schema 'schema' is not supported"),
        ("$ref", "OpenAPIV3Schema '$ref' is not supported"),
        (
            "patternProperties",
            "OpenAPIV3Schema 'patternProperties' is not supported",
        ),
        (
            "dependencies",
            "OpenAPIV3Schema 'dependencies' is not supported",
        ),
        (
            "additionalItems",
            "OpenAPIV3Schema 'additionalItems' is not supported",
        ),
        (
            "definitions",
            "OpenAPIV3Schema 'definitions' is not supported",
        ),
    ] {
        if is_set(node.get(key)) {
            return Some(msg.to_owned());
        }
    }
    if node.get("x-kubernetes-preserve-unknown-fields") == Some(&Value::Bool(false)) {
        return Some(
            "internal error: 'x-kubernetes-preserve-unknown-fields' must be true or undefined"
                .to_owned(),
        );
    }
    if node.get("items").is_some_and(Value::is_array) {
        return Some("OpenAPIV3Schema 'items' must be a schema, but is an array".to_owned());
    }
    let mut subs: Vec<&Value> = Vec::new();
    subs.extend(node.get("not"));
    subs.extend(node.get("items").filter(|i| i.is_object()));
    subs.extend(node.get("additionalProperties").filter(|a| a.is_object()));
    for key in ["allOf", "anyOf", "oneOf"] {
        subs.extend(
            node.get(key)
                .and_then(Value::as_array)
                .into_iter()
                .flatten(),
        );
    }
    subs.extend(
        node.get("properties")
            .and_then(Value::as_object)
            .into_iter()
            .flat_map(|p| p.values()),
    );
    subs.into_iter().find_map(unrepresentable)
}

/// `ValidateStructural`: the structural-schema errors of the schema at `path`
/// (`...openAPIV3Schema`), sorted by their text as Go sorts them (its walk goes
/// over maps in random order, so the sort is what makes the answer stable).
pub(crate) fn validate_structural(raw: &Value, path: &str) -> Vec<FieldError> {
    let Some(root) = raw.as_object() else {
        return Vec::new();
    };
    let mut errs = Vec::new();
    invariants(root, Level::Root, path, &mut errs);
    value_completeness(root, root, path, path, &mut errs);
    errs.sort_by_cached_key(FieldError::message);
    errs
}

/// A JSON value Go's decoder would leave at a non-zero value (`false`, `""`, `[]`,
/// `{}` and `null` decode to zero values, so they do not count as "specified").
fn is_set(v: Option<&Value>) -> bool {
    match v {
        None | Some(Value::Null) | Some(Value::Bool(false)) => false,
        Some(Value::String(s)) => !s.is_empty(),
        Some(Value::Array(a)) => !a.is_empty(),
        Some(Value::Object(o)) => !o.is_empty(),
        Some(Value::Number(_)) | Some(Value::Bool(true)) => true,
    }
}

fn flag(node: &Node, key: &str) -> bool {
    node.get(key).and_then(Value::as_bool).unwrap_or(false)
}

fn type_of(node: &Node) -> &str {
    node.get("type").and_then(Value::as_str).unwrap_or("")
}

fn object<'a>(node: &'a Node, key: &str) -> Option<&'a Node> {
    node.get(key).and_then(Value::as_object)
}

fn properties(node: &Node) -> impl Iterator<Item = (&String, &Node)> {
    object(node, "properties")
        .into_iter()
        .flatten()
        .filter_map(|(k, v)| Some((k, v.as_object()?)))
}

fn branches<'a>(node: &'a Node, key: &str) -> impl Iterator<Item = (usize, &'a Node)> {
    node.get(key)
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .enumerate()
        .filter_map(|(i, b)| Some((i, b.as_object()?)))
}

/// `validateStructuralInvariants` for the structural node `node` at `path`.
fn invariants(node: &Node, lvl: Level, path: &str, errs: &mut Vec<FieldError>) {
    let ty = type_of(node);
    let items = object(node, "items");
    if ty == "array" && items.is_none() {
        errs.push(FieldError::required(
            format!("{path}.items"),
            "must be specified",
        ));
    }
    if let Some(items) = items {
        invariants(items, Level::Item, &format!("{path}.items"), errs);
    }
    for (k, sub) in properties(node) {
        invariants(sub, Level::Field, &format!("{path}.properties[{k}]"), errs);
    }
    // Any `additionalProperties`, even `true` or `false`, is kept by NewStructural.
    let additional = node.get("additionalProperties").filter(|a| !a.is_null());
    if additional.is_some() {
        if lvl == Level::Root {
            errs.push(FieldError::forbidden(
                format!("{path}.additionalProperties"),
                "must not be used at the root",
            ));
        }
        if let Some(sub) = additional.and_then(Value::as_object) {
            invariants(
                sub,
                Level::Field,
                &format!("{path}.additionalProperties"),
                errs,
            );
        }
    }

    let int_or_string = flag(node, "x-kubernetes-int-or-string");
    let preserve = flag(node, "x-kubernetes-preserve-unknown-fields");
    let embedded = flag(node, "x-kubernetes-embedded-resource");
    if int_or_string && preserve {
        errs.push(FieldError::invalid(
            format!("{path}.x-kubernetes-preserve-unknown-fields"),
            json!(true),
            "must be false if x-kubernetes-int-or-string is true",
        ));
    }
    if int_or_string && embedded {
        errs.push(FieldError::invalid(
            format!("{path}.x-kubernetes-embedded-resource"),
            json!(true),
            "must be false if x-kubernetes-int-or-string is true",
        ));
    }

    let skip_any_of = node
        .get("anyOf")
        .and_then(Value::as_array)
        .is_some_and(|l| is_int_or_string_pattern(l));
    let skip_first_all_of_any_of = node
        .get("allOf")
        .and_then(Value::as_array)
        .and_then(|l| l.first())
        .and_then(|first| first.get("anyOf"))
        .and_then(Value::as_array)
        .is_some_and(|l| is_int_or_string_pattern(l));
    value_validation(node, skip_any_of, skip_first_all_of_any_of, lvl, path, errs);

    let check_metadata = lvl == Level::Root || embedded;
    if embedded && ty != "object" {
        let detail = "must be object if x-kubernetes-embedded-resource is true";
        if ty.is_empty() {
            errs.push(FieldError::required(format!("{path}.type"), detail));
        } else {
            errs.push(FieldError::invalid(
                format!("{path}.type"),
                json!(ty),
                detail,
            ));
        }
    } else if ty.is_empty() && !int_or_string && !preserve {
        let detail = match lvl {
            Level::Root => "must not be empty at the root",
            Level::Item => "must not be empty for specified array items",
            Level::Field => "must not be empty for specified object fields",
        };
        errs.push(FieldError::required(format!("{path}.type"), detail));
    }
    if embedded && additional.is_some() {
        errs.push(FieldError::forbidden(
            format!("{path}.additionalProperties"),
            "must not be used if x-kubernetes-embedded-resource is set",
        ));
    }
    if lvl == Level::Root && !ty.is_empty() && ty != "object" {
        errs.push(FieldError::invalid(
            format!("{path}.type"),
            json!(ty),
            "must be object at the root",
        ));
    }
    let props = object(node, "properties");
    if check_metadata {
        for key in ["kind", "apiVersion"] {
            if let Some(sub) = props.and_then(|p| p.get(key)).and_then(Value::as_object) {
                let sub_ty = type_of(sub);
                if sub_ty != "string" {
                    errs.push(FieldError::invalid(
                        format!("{path}.properties[{key}].type"),
                        json!(sub_ty),
                        "must be string",
                    ));
                }
            }
        }
    }
    if let Some(meta) = props
        .and_then(|p| p.get("metadata"))
        .and_then(Value::as_object)
    {
        metadata_invariants(
            meta,
            check_metadata,
            lvl,
            &format!("{path}.properties[metadata]"),
            errs,
        );
    }
    if embedded && !preserve && props.is_none_or(Map::is_empty) {
        errs.push(FieldError::required(format!("{path}.properties"),
            "must not be empty if x-kubernetes-embedded-resource is true without x-kubernetes-preserve-unknown-fields"));
    }
}

/// `validateStructuralMetadataInvariants`: a resource's `metadata` must be an object,
/// and at the root may say nothing but that `name` and `generateName` exist, because
/// the server validates ObjectMeta itself and a schema could only contradict it.
fn metadata_invariants(
    meta: &Node,
    check_metadata: bool,
    lvl: Level,
    path: &str,
    errs: &mut Vec<FieldError>,
) {
    let ty = type_of(meta);
    if check_metadata && ty != "object" {
        errs.push(FieldError::invalid(
            format!("{path}.type"),
            json!(ty),
            "must be object",
        ));
    }
    if lvl != Level::Root {
        return;
    }
    let props = object(meta, "properties");
    let names_only = props.is_none_or(|p| {
        let name = p.contains_key("name");
        let generate = p.contains_key("generateName");
        (name && generate && p.len() == 2) || ((name || generate) && p.len() == 1) || p.is_empty()
    });
    let other = meta.iter().any(|(k, v)| match k.as_str() {
        "type" | "default" => false,
        "properties" => !names_only,
        // kept as set even when false: NewStructural keeps `{Bool: false}`
        "additionalProperties" => !v.is_null(),
        // numbers are pointers in Go: a zero bound is still specified
        _ => is_set(Some(v)) || v.is_number(),
    });
    if other {
        errs.push(FieldError::forbidden(path.to_owned(),
            "must not specify anything other than name and generateName, but metadata is implicitly specified"));
    }
}

/// Whether `branches` are exactly `[{type: integer}, {type: string}]`, the one
/// `anyOf` an int-or-string node may carry with types inside.
fn is_int_or_string_pattern(branches: &[Value]) -> bool {
    let only_type = |b: &Value, want: &str| {
        b.as_object().is_some_and(|m| {
            type_of(m) == want && m.iter().all(|(k, v)| k == "type" || !is_set(Some(v)))
        })
    };
    branches.len() == 2 && only_type(&branches[0], "integer") && only_type(&branches[1], "string")
}

/// `validateValueValidation`: the junctors of `node` and its `pattern`.
fn value_validation(
    node: &Node,
    skip_any_of: bool,
    skip_first_all_of_any_of: bool,
    lvl: Level,
    path: &str,
    errs: &mut Vec<FieldError>,
) {
    if !skip_any_of {
        for (i, b) in branches(node, "anyOf") {
            nested(b, false, lvl, &format!("{path}.anyOf[{i}]"), errs);
        }
    }
    for (i, b) in branches(node, "allOf") {
        let skip = skip_first_all_of_any_of && i == 0;
        nested(b, skip, lvl, &format!("{path}.allOf[{i}]"), errs);
    }
    for (i, b) in branches(node, "oneOf") {
        nested(b, false, lvl, &format!("{path}.oneOf[{i}]"), errs);
    }
    if let Some(not) = object(node, "not") {
        nested(not, false, lvl, &format!("{path}.not"), errs);
    }
    if let Some(pattern) = node.get("pattern").and_then(Value::as_str) {
        if let Some(why) = super::regexp::go_compile_error(pattern) {
            errs.push(FieldError::invalid(
                format!("{path}.pattern"),
                json!(pattern),
                format!("must be a valid regular expression, but isn't: {why}"),
            ));
        }
    }
}

/// `validateNestedValueValidation`: inside a junctor only value validations may be
/// said; types, defaults, descriptions and the extensions belong to the structure.
fn nested(node: &Node, skip_any_of: bool, lvl: Level, path: &str, errs: &mut Vec<FieldError>) {
    value_validation(node, skip_any_of, false, lvl, path, errs);
    if let Some(items) = object(node, "items") {
        nested(items, false, lvl, &format!("{path}.items"), errs);
    }
    for (k, sub) in properties(node) {
        nested(
            sub,
            false,
            Level::Field,
            &format!("{path}.properties[{k}]"),
            errs,
        );
    }
    if !type_of(node).is_empty() {
        errs.push(FieldError::forbidden(
            format!("{path}.type"),
            "must be empty to be structural",
        ));
    }
    // `additionalProperties: false` converts to none inside a junctor.
    if matches!(
        node.get("additionalProperties"),
        Some(Value::Object(_)) | Some(Value::Bool(true))
    ) {
        errs.push(FieldError::forbidden(
            format!("{path}.additionalProperties"),
            "must be undefined to be structural",
        ));
    }
    if node.get("default").is_some_and(|d| !d.is_null()) {
        errs.push(FieldError::forbidden(
            format!("{path}.default"),
            "must be undefined to be structural",
        ));
    }
    for (key, detail) in [
        ("title", "must be empty to be structural"),
        ("description", "must be empty to be structural"),
        ("nullable", "must be false to be structural"),
        (
            "x-kubernetes-preserve-unknown-fields",
            "must be false to be structural",
        ),
        (
            "x-kubernetes-embedded-resource",
            "must be false to be structural",
        ),
        (
            "x-kubernetes-int-or-string",
            "must be false to be structural",
        ),
        (
            "x-kubernetes-list-map-keys",
            "must be empty to be structural",
        ),
    ] {
        if is_set(node.get(key)) {
            errs.push(FieldError::forbidden(format!("{path}.{key}"), detail));
        }
    }
    for key in ["x-kubernetes-list-type", "x-kubernetes-map-type"] {
        if node.get(key).is_some_and(|v| !v.is_null()) {
            errs.push(FieldError::forbidden(
                format!("{path}.{key}"),
                "must be undefined to be structural",
            ));
        }
    }
    if is_set(node.get("x-kubernetes-validations")) {
        errs.push(FieldError::forbidden(
            format!("{path}.x-kubernetes-validations"),
            "must be empty to be structural",
        ));
    }
    if object(node, "properties").is_some_and(|p| p.contains_key("metadata")) {
        errs.push(FieldError::forbidden(
            format!("{path}.properties[metadata]"),
            "must not be specified in a nested context",
        ));
    }
}

/// `validateValueValidationCompleteness`: every field a junctor of `v` names must
/// also be declared by the structural node `s` (at `s_path`), or a value validation
/// would restrict a field pruning drops anyway.
fn value_completeness(v: &Node, s: &Node, s_path: &str, v_path: &str, errs: &mut Vec<FieldError>) {
    if let Some(not) = object(v, "not") {
        nested_completeness(not, Some(s), s_path, &format!("{v_path}.not"), errs);
    }
    for key in ["allOf", "anyOf", "oneOf"] {
        for (i, b) in branches(v, key) {
            nested_completeness(b, Some(s), s_path, &format!("{v_path}.{key}[{i}]"), errs);
        }
    }
}

/// `validateNestedValueValidationCompleteness`.
fn nested_completeness(
    v: &Node,
    s: Option<&Node>,
    s_path: &str,
    v_path: &str,
    errs: &mut Vec<FieldError>,
) {
    let Some(s) = s else {
        errs.push(FieldError::required(
            s_path.to_owned(),
            format!("because it is defined in {v_path}"),
        ));
        return;
    };
    value_completeness(v, s, s_path, v_path, errs);
    if let Some(items) = object(v, "items") {
        nested_completeness(
            items,
            object(s, "items"),
            &format!("{s_path}.items"),
            &format!("{v_path}.items"),
            errs,
        );
    }
    for (k, sub) in properties(v) {
        let at = format!("{v_path}.properties[{k}]");
        match object(s, "properties")
            .and_then(|p| p.get(k))
            .and_then(Value::as_object)
        {
            Some(field) => nested_completeness(
                sub,
                Some(field),
                &format!("{s_path}.properties[{k}]"),
                &at,
                errs,
            ),
            None => errs.push(FieldError::required(
                format!("{s_path}.properties[{k}]"),
                format!("because it is defined in {at}"),
            )),
        }
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::{unrepresentable, validate_structural};

    #[test]
    fn odd_shapes_are_reported_not_panicked_on() {
        for raw in [
            json!(null),
            json!([1, 2]),
            json!({"type": 3, "properties": [1], "items": "x", "anyOf": {"a": 1}}),
            json!({"type": "object", "properties": {"a": 1, "b": {"allOf": [null, {"not": 5}]}}}),
        ] {
            let _ = validate_structural(&raw, "s");
            let _ = unrepresentable(&raw);
        }
        let errs = validate_structural(&json!({"type": "object", "properties": {"a": 1}}), "s");
        assert!(errs.is_empty(), "{errs:?}");
        assert_eq!(
            unrepresentable(&json!({"type": "object", "properties": {"a": {"items": [{}]}}})),
            Some("OpenAPIV3Schema 'items' must be a schema, but is an array".to_owned())
        );
    }
}
