//! `structuraldefaulting.ValidateDefaults`: every `default` of a CRD schema must be a
//! value the schema accepts at that node, already pruned, and (inside the metadata
//! of a resource) must make valid metadata. A CRD breaking this is refused at write
//! time, because the server would otherwise default objects into values it refuses.

use serde_json::{json, Value};

use super::field::FieldError;
use super::{cel, prune, validate, validate_embedded, Schema, ValidateOptions};

const META_FIELDS: &[&str] = &["apiVersion", "kind", "metadata"];

/// The errors of the defaults in the schema `root` at `path` (`...openAPIV3Schema`),
/// in Go's walk order (items before properties). The root is a resource, and treated
/// as an embedded one, as Go does.
pub(crate) fn validate_defaults(root: &Schema, path: &str) -> Vec<FieldError> {
    let mut errs = Vec::new();
    let mut surrounding = Vec::new();
    walk(root, true, path, None, &mut surrounding, &mut errs);
    errs
}

/// One step from the nearest resource root down to a node inside its metadata: how
/// Go's `SurroundingObjectFunc` wraps a default to make a whole object of it.
#[derive(Clone)]
enum Step {
    Child(String),
    Index,
}

/// Walks the node `s` at `path`; `resource` is the nearest enclosing resource root
/// when the node is inside that resource's `apiVersion`, `kind` or `metadata`, and
/// `steps` the way from it to here.
fn walk<'a>(
    s: &'a Schema,
    is_root: bool,
    path: &str,
    resource: Option<&'a Schema>,
    steps: &mut Vec<Step>,
    errs: &mut Vec<FieldError>,
) {
    let embedded = is_root || s.embedded;
    // An embedded resource starts a new surrounding object.
    let (resource, saved) = if embedded {
        (None, Some(std::mem::take(steps)))
    } else {
        (resource, None)
    };
    if let Some(d) = s.default.as_ref().filter(|d| !d.is_null()) {
        let at = format!("{path}.default");
        match resource {
            Some(root) => inside_meta(s, root, d, steps, &at, errs),
            None => {
                if prune::prunes(d, s, embedded) {
                    errs.push(FieldError::invalid(
                        at.clone(),
                        d.clone(),
                        "must not have unknown fields",
                    ));
                }
                // Embedded resources in the default (this node's, or deeper ones).
                let meta = prefixed(validate_embedded(s, d), &at);
                if meta.is_empty() {
                    errs.extend(against_node(s, d, &at));
                } else {
                    errs.extend(meta);
                }
            }
        }
    }
    // additionalProperties are not followed: defaults are forbidden there.
    if let Some(items) = s.items.as_deref() {
        steps.push(Step::Index);
        walk(
            items,
            false,
            &format!("{path}.items"),
            resource,
            steps,
            errs,
        );
        steps.pop();
    }
    for (k, sub) in &s.properties {
        let sub_resource = match resource {
            Some(r) => Some(r),
            None if embedded && META_FIELDS.contains(&k.as_str()) => Some(s),
            None => None,
        };
        if sub_resource.is_some() {
            steps.push(Step::Child(k.clone()));
        }
        walk(
            sub,
            false,
            &format!("{path}.properties[{k}]"),
            sub_resource,
            steps,
            errs,
        );
        if sub_resource.is_some() {
            steps.pop();
        }
    }
    if let Some(saved) = saved {
        *steps = saved;
    }
}

/// A default inside a resource's metadata: wrapped into a whole object (of
/// `validation/v1` `Validation`), whose metadata must validate, before the value
/// itself is checked against its node.
fn inside_meta(
    s: &Schema,
    root: &Schema,
    d: &Value,
    steps: &[Step],
    at: &str,
    errs: &mut Vec<FieldError>,
) {
    let mut obj = d.clone();
    for step in steps.iter().rev() {
        obj = match step {
            Step::Child(k) => json!({ k.clone(): obj }),
            Step::Index => json!([obj]),
        };
    }
    if let Some(map) = obj.as_object_mut() {
        map.insert("apiVersion".into(), json!("validation/v1"));
        map.insert("kind".into(), json!("Validation"));
    }
    let meta = embedded_root_errors(root, &obj);
    if !meta.is_empty() {
        let texts: Vec<String> = meta.iter().map(FieldError::message).collect();
        let aggregate = if texts.len() == 1 {
            texts.concat()
        } else {
            format!("[{}]", texts.join(", "))
        };
        errs.push(FieldError::invalid(
            at.to_owned(),
            d.clone(),
            format!("must result in valid metadata: {aggregate}"),
        ));
        return;
    }
    errs.extend(against_node(s, d, at));
}

/// A default checked against its node: the schema's validations, then, when those
/// pass, the node's `x-kubernetes-validations` rules and those below it.
fn against_node(s: &Schema, d: &Value, at: &str) -> Vec<FieldError> {
    let opts = ValidateOptions { prefix: Some(at) };
    let errs = validate(s, d, None, opts);
    if !errs.is_empty() {
        return errs;
    }
    cel::validate_default(s, d, at)
}

/// `schemaobjectmeta.Validate` of a whole object whose root is a resource (the
/// schema's own root counts as one even without the embedded flag).
fn embedded_root_errors(root: &Schema, obj: &Value) -> Vec<FieldError> {
    if root.embedded {
        return validate_embedded(root, obj);
    }
    // The schema root: its checks are the embedded ones, with the root's metadata.
    let wrapper = Schema {
        embedded: true,
        ..Schema::default()
    };
    let mut errs = validate_embedded(&wrapper, obj);
    errs.extend(validate_embedded(root, obj));
    errs
}

/// Errors of a check run on the default alone, moved under the default's path.
fn prefixed(errs: Vec<FieldError>, at: &str) -> Vec<FieldError> {
    errs.into_iter()
        .map(|mut e| {
            e.field = format!("{at}.{}", e.field);
            e
        })
        .collect()
}
