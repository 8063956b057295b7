//! The part of an object a field set names (structured-merge-diff's `ExtractItems`): what
//! client-go's `Extract<Kind>` reads back as the apply configuration a manager owns.
//!
//! The walk follows the set, not a schema: a `k:` element picks the list item with those
//! key fields, `v:` the item with that value and `i:` the item at that position, so custom
//! resources extract as exactly as built-ins without their structural schema at hand.
//!
//! ```
//! use informer_merge::extract::extract_items;
//! use informer_merge::fieldpath::Set;
//! use serde_json::json;
//!
//! let live = json!({
//!     "metadata": {"name": "web", "labels": {"app": "web", "team": "shop"}},
//!     "spec": {"containers": [
//!         {"name": "app", "image": "app:1", "imagePullPolicy": "Always"},
//!         {"name": "proxy", "image": "proxy:1"},
//!     ]},
//! });
//! let owned = Set::from_fields_v1(&json!({
//!     "f:metadata": {"f:labels": {"f:app": {}}},
//!     "f:spec": {"f:containers": {"k:{\"name\":\"app\"}": {".": {}, "f:name": {}, "f:image": {}}}},
//! }))?;
//! assert_eq!(
//!     extract_items(&live, &owned),
//!     json!({
//!         "metadata": {"labels": {"app": "web"}},
//!         "spec": {"containers": [{"name": "app", "image": "app:1"}]},
//!     })
//! );
//! # Ok::<(), informer_merge::fieldpath::FieldsV1Error>(())
//! ```

use serde_json::{Map, Value};

use crate::fieldpath::{value_eq, PathElement, Set};

/// The fields and items of `value` that `set` names, with everything else left out.
///
/// A member is taken whole (a scalar, an atomic list or map, a list item owned as a
/// whole); a path below a field or item keeps only what lies on it. As in
/// structured-merge-diff, a field whose paths match nothing in `value` any more is kept as
/// `null`, and an empty list or map the set reaches is kept as it is.
pub fn extract_items(value: &Value, set: &Set) -> Value {
    match value {
        Value::Object(map) if !map.is_empty() => {
            let mut out = Map::new();
            for (key, field) in map {
                let pe = PathElement::Field(key.clone());
                if set.has_member(&pe) {
                    out.insert(key.clone(), field.clone());
                } else if let Some(child) = set.child(&pe) {
                    out.insert(key.clone(), extract_items(field, child));
                }
            }
            non_empty(Value::Object(out))
        }
        Value::Array(items) if !items.is_empty() => {
            let elements = set.elements();
            let mut out = Vec::new();
            for (i, item) in items.iter().enumerate() {
                let Some(pe) = elements.iter().find(|pe| names_item(pe, item, i)) else {
                    continue;
                };
                match set.child(pe) {
                    Some(child) => out.push(extract_items(item, child)),
                    None => out.push(item.clone()),
                }
            }
            non_empty(Value::Array(out))
        }
        other => other.clone(),
    }
}

/// Whether `pe` is the element of list item `item` at `index`.
fn names_item(pe: &PathElement, item: &Value, index: usize) -> bool {
    match pe {
        PathElement::Key(fields) => fields
            .iter()
            .all(|(name, key)| item.get(name).is_some_and(|v| value_eq(v, key))),
        PathElement::Value(v) => value_eq(v, item),
        PathElement::Index(i) => *i == index,
        PathElement::Field(_) => false,
    }
}

/// A map or list the walk left empty is `null`, as structured-merge-diff leaves it unset.
fn non_empty(value: Value) -> Value {
    match &value {
        Value::Object(m) if m.is_empty() => Value::Null,
        Value::Array(a) if a.is_empty() => Value::Null,
        _ => value,
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    fn set(fields: Value) -> Set {
        Set::from_fields_v1(&fields).unwrap()
    }

    #[test]
    fn set_lists_match_by_value_and_keep_the_live_order() {
        let live = json!({"finalizers": ["a", "b", "c"]});
        let owned = set(json!({"f:finalizers": {"v:\"c\"": {}, "v:\"a\"": {}}}));
        assert_eq!(
            extract_items(&live, &owned),
            json!({"finalizers": ["a", "c"]})
        );
    }

    #[test]
    fn atomic_members_are_taken_whole() {
        let live = json!({"spec": {"args": ["x", "y"], "selector": {"matchLabels": {"a": "1"}}}});
        let owned = set(json!({"f:spec": {"f:args": {}, "f:selector": {}}}));
        assert_eq!(extract_items(&live, &owned), live);
    }

    #[test]
    fn items_owned_whole_and_multi_key_items() {
        let live = json!({"ports": [
            {"containerPort": 80, "protocol": "TCP", "name": "http"},
            {"containerPort": 80, "protocol": "UDP", "name": "dns"},
        ]});
        let owned = set(json!({"f:ports": {"k:{\"containerPort\":80,\"protocol\":\"UDP\"}": {}}}));
        assert_eq!(
            extract_items(&live, &owned),
            json!({"ports": [{"containerPort": 80, "protocol": "UDP", "name": "dns"}]})
        );
    }

    #[test]
    fn paths_that_match_nothing_leave_null() {
        let live = json!({"spec": {"containers": [{"name": "other"}]}, "data": {}});
        let owned = set(
            json!({"f:spec": {"f:containers": {"k:{\"name\":\"gone\"}": {"f:image": {}}}}, "f:data": {"f:x": {}}}),
        );
        assert_eq!(
            extract_items(&live, &owned),
            json!({"spec": {"containers": null}, "data": {}})
        );
    }

    #[test]
    fn indexes_pick_by_position() {
        let live = json!({"items": [{"a": 1}, {"a": 2}]});
        let owned = set(json!({"f:items": {"i:1": {"f:a": {}}}}));
        assert_eq!(extract_items(&live, &owned), json!({"items": [{"a": 2}]}));
    }
}
