//! The decode-time steps of a custom resource: pruning of fields the schema does not
//! declare (recording their paths for `fieldValidation`), dropping of nulls the schema
//! does not allow and has no default for, and defaulting.

use serde_json::{Map, Value};

use super::{Additional, Schema};

/// The fields of `ObjectMeta`: others are unknown and dropped.
const OBJECT_META_FIELDS: &[&str] = &[
    "name",
    "generateName",
    "namespace",
    "selfLink",
    "uid",
    "resourceVersion",
    "generation",
    "creationTimestamp",
    "deletionTimestamp",
    "deletionGracePeriodSeconds",
    "labels",
    "annotations",
    "ownerReferences",
    "finalizers",
    "managedFields",
];

const META_FIELDS: &[&str] = &["apiVersion", "kind", "metadata"];

/// Prunes `obj`, a whole custom resource, against its version's schema; returns the
/// unknown fields' paths in the real server's order: the object's own metadata first,
/// then the pruned ones sorted, then those of embedded resources' metadata.
pub(crate) fn prune(obj: &mut Value, s: &Schema) -> Vec<String> {
    let mut unknown = Vec::new();
    if let Some(meta) = obj.get_mut("metadata").and_then(Value::as_object_mut) {
        drop_unknown_meta(meta, "metadata", &mut unknown);
    }
    let mut pruned = Vec::new();
    let mut path = String::new();
    if s.preserve_unknown {
        skip_prune(obj, s, true, &mut path, &mut pruned);
    } else {
        prune_node(obj, Some(s), true, &mut path, &mut pruned);
    }
    pruned.sort();
    unknown.extend(pruned);
    let mut path = String::new();
    coerce_embedded(obj, s, &mut path, &mut unknown);
    unknown
}

/// Whether pruning `x` against its node `s` (a resource root when `resource`) would
/// drop anything: a CRD's `default` must already be pruned (`requirePrunedDefaults`),
/// or the defaulted object would carry fields the schema does not know.
pub(crate) fn prunes(x: &Value, s: &Schema, resource: bool) -> bool {
    let mut copy = x.clone();
    let mut path = String::new();
    let mut pruned = Vec::new();
    prune_node(&mut copy, Some(s), resource, &mut path, &mut pruned);
    copy != *x
}

fn drop_unknown_meta(meta: &mut Map<String, Value>, prefix: &str, unknown: &mut Vec<String>) {
    let extra: Vec<String> = meta
        .keys()
        .filter(|k| !OBJECT_META_FIELDS.contains(&k.as_str()))
        .cloned()
        .collect();
    for k in extra {
        unknown.push(format!("{prefix}.{k}"));
        meta.remove(&k);
    }
}

fn push_key(path: &mut String, key: &str) -> usize {
    let len = path.len();
    if !path.is_empty() {
        path.push('.');
    }
    path.push_str(key);
    len
}

fn push_index(path: &mut String, i: usize) -> usize {
    let len = path.len();
    path.push('[');
    path.push_str(&i.to_string());
    path.push(']');
    len
}

fn record(path: &mut String, key: &str, out: &mut Vec<String>) {
    let len = push_key(path, key);
    out.push(path.clone());
    path.truncate(len);
}

fn prune_node(
    x: &mut Value,
    s: Option<&Schema>,
    embedded_root: bool,
    path: &mut String,
    out: &mut Vec<String>,
) {
    if let Some(s) = s.filter(|s| s.preserve_unknown) {
        skip_prune(x, s, embedded_root, path, out);
        return;
    }
    match x {
        Value::Object(map) => {
            let Some(s) = s else {
                for k in map.keys() {
                    record(path, k, out);
                }
                map.clear();
                return;
            };
            let embedded = embedded_root || s.embedded;
            let mut remove = Vec::new();
            for (k, v) in map.iter_mut() {
                if embedded && META_FIELDS.contains(&k.as_str()) {
                    continue;
                }
                if let Some(sub) = s.field(k) {
                    let len = push_key(path, k);
                    prune_node(v, Some(sub), false, path, out);
                    path.truncate(len);
                } else {
                    if !META_FIELDS.contains(&k.as_str()) || !path.is_empty() {
                        record(path, k, out);
                    }
                    remove.push(k.clone());
                }
            }
            for k in remove {
                map.remove(&k);
            }
        }
        Value::Array(items) => {
            let item_schema = s.and_then(|s| s.items.as_deref());
            for (i, v) in items.iter_mut().enumerate() {
                let len = push_index(path, i);
                prune_node(v, item_schema, false, path, out);
                path.truncate(len);
            }
        }
        _ => {}
    }
}

fn skip_prune(
    x: &mut Value,
    s: &Schema,
    embedded_root: bool,
    path: &mut String,
    out: &mut Vec<String>,
) {
    match x {
        Value::Object(map) => {
            let embedded = embedded_root || s.embedded;
            for (k, v) in map.iter_mut() {
                if embedded && META_FIELDS.contains(&k.as_str()) {
                    continue;
                }
                if let Some(sub) = s.field(k) {
                    let len = push_key(path, k);
                    prune_node(v, Some(sub), false, path, out);
                    path.truncate(len);
                }
            }
        }
        Value::Array(items) => {
            if let Some(item_schema) = s.items.as_deref() {
                for (i, v) in items.iter_mut().enumerate() {
                    let len = push_index(path, i);
                    skip_prune(v, item_schema, false, path, out);
                    path.truncate(len);
                }
            }
        }
        _ => {}
    }
}

/// Drops unknown fields from the metadata of embedded resources (below the root).
fn coerce_embedded(x: &mut Value, s: &Schema, path: &mut String, out: &mut Vec<String>) {
    match x {
        Value::Object(map) => {
            if s.embedded && !path.is_empty() {
                if let Some(meta) = map.get_mut("metadata").and_then(Value::as_object_mut) {
                    drop_unknown_meta(meta, &format!("{path}.metadata"), out);
                }
            }
            for (k, v) in map.iter_mut() {
                if let Some(sub) = s.field(k) {
                    let len = push_key(path, k);
                    coerce_embedded(v, sub, path, out);
                    path.truncate(len);
                }
            }
        }
        Value::Array(items) => {
            if let Some(item_schema) = s.items.as_deref() {
                for (i, v) in items.iter_mut().enumerate() {
                    let len = push_index(path, i);
                    coerce_embedded(v, item_schema, path, out);
                    path.truncate(len);
                }
            }
        }
        _ => {}
    }
}

/// `PruneNonNullableNullsWithoutDefaults`: drops object fields that are null where the
/// schema neither allows null nor has a default.
pub(crate) fn prune_nulls(x: &mut Value, s: Option<&Schema>) {
    match x {
        Value::Object(map) => {
            let mut remove = Vec::new();
            for (k, v) in map.iter_mut() {
                let sub = s.and_then(|s| s.field(k));
                if v.is_null() && sub.is_some_and(|sub| !sub.nullable && sub.default.is_none()) {
                    remove.push(k.clone());
                } else {
                    prune_nulls(v, sub);
                }
            }
            for k in remove {
                map.remove(&k);
            }
        }
        Value::Array(items) => {
            let item_schema = s.and_then(|s| s.items.as_deref());
            for v in items {
                prune_nulls(v, item_schema);
            }
        }
        _ => {}
    }
}

/// A null where `s` does not allow one: replaced by `s`'s default, if any.
fn non_nullable_null(x: &Value, s: Option<&Schema>) -> bool {
    x.is_null() && s.is_some_and(|s| !s.nullable)
}

/// Applies the schema's defaults to `x` (absent fields, and nulls where null is not
/// allowed), outside in, as the real defaulting algorithm does.
pub(crate) fn default(x: &mut Value, s: &Schema) {
    match x {
        Value::Object(map) => {
            for (k, prop) in &s.properties {
                let Some(d) = &prop.default else {
                    continue;
                };
                match map.get(k) {
                    Some(v) if !non_nullable_null(v, Some(prop)) => {}
                    _ => {
                        map.insert(k.clone(), d.clone());
                    }
                }
            }
            for (k, v) in map.iter_mut() {
                if let Some(prop) = s.properties.get(k) {
                    default(v, prop);
                } else if let Some(Additional::Schema(extra)) = &s.additional {
                    if non_nullable_null(v, Some(extra)) {
                        *v = extra.default.clone().unwrap_or(Value::Null);
                    }
                    default(v, extra);
                }
            }
        }
        Value::Array(items) => {
            if let Some(item_schema) = s.items.as_deref() {
                for v in items {
                    if non_nullable_null(v, Some(item_schema)) {
                        *v = item_schema.default.clone().unwrap_or(Value::Null);
                    }
                    default(v, item_schema);
                }
            }
        }
        _ => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn schema(v: Value) -> Schema {
        Schema::compile(&v, "", &mut Vec::new())
    }

    #[test]
    fn prunes_unknown_fields_and_keeps_preserved_ones() {
        let s = schema(json!({"type": "object", "properties": {
            "spec": {"type": "object", "properties": {
                "a": {"type": "string"},
                "free": {"type": "object", "x-kubernetes-preserve-unknown-fields": true},
                "list": {"type": "array", "items": {"type": "object", "properties": {"n": {"type": "string"}}}},
            }},
        }}));
        let mut obj = json!({"apiVersion": "x/v1", "kind": "W", "metadata": {"name": "a", "bogus": 1},
            "spec": {"a": "x", "b": 1, "free": {"anything": [1]}, "list": [{"n": "1", "m": 2}]}, "other": true});
        let unknown = prune(&mut obj, &s);
        assert_eq!(
            unknown,
            ["metadata.bogus", "other", "spec.b", "spec.list[0].m"]
        );
        assert_eq!(
            obj,
            json!({"apiVersion": "x/v1", "kind": "W", "metadata": {"name": "a"},
            "spec": {"a": "x", "free": {"anything": [1]}, "list": [{"n": "1"}]}})
        );
    }

    #[test]
    fn defaults_nested_objects_items_and_maps() {
        let s = schema(json!({"type": "object", "properties": {
            "spec": {"type": "object", "default": {}, "properties": {
                "size": {"type": "integer", "default": 3},
                "opts": {"type": "object", "default": {}, "properties": {"fast": {"type": "boolean", "default": true}}},
                "list": {"type": "array", "items": {"type": "object", "properties": {"w": {"type": "integer", "default": 1}}}},
                "map": {"type": "object", "additionalProperties": {"type": "object", "properties": {"z": {"type": "string", "default": "z"}}}},
            }},
        }}));
        let mut obj = json!({"metadata": {}});
        default(&mut obj, &s);
        assert_eq!(obj["spec"], json!({"size": 3, "opts": {"fast": true}}));
        let mut obj = json!({"spec": {"size": null, "list": [{}, {"w": 5}], "map": {"k": {}}}});
        default(&mut obj, &s);
        assert_eq!(
            obj["spec"],
            json!({"size": 3, "opts": {"fast": true}, "list": [{"w": 1}, {"w": 5}], "map": {"k": {"z": "z"}}})
        );
    }

    #[test]
    fn drops_nulls_without_defaults() {
        let s = schema(json!({"type": "object", "properties": {
            "a": {"type": "string"}, "b": {"type": "string", "nullable": true}, "c": {"type": "string", "default": "c"},
        }}));
        let mut obj = json!({"a": null, "b": null, "c": null});
        prune_nulls(&mut obj, Some(&s));
        assert_eq!(obj, json!({"b": null, "c": null}));
    }
}
