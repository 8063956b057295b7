//! The typed operations server-side apply is built from, as structured-merge-diff has
//! them: the field set of a value, the comparison of two values, the merge of an applied
//! configuration into a live object, and the removal of fields.

use std::collections::BTreeMap;

use serde_json::{Map, Value};

use crate::fieldpath::{value_eq, PathElement, Set};
use crate::typed::{ListKind, Structure, TypeRef};

/// A value that does not fit its type's structure.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum TypeError {
    /// A `map` list item without one of the key fields.
    #[error("{path}: associative list with keys has an element that omits key field {key:?} (and doesn't have default value)")]
    MissingKey {
        /// Where the list is.
        path: String,
        /// The missing key field.
        key: String,
    },
    /// A `map` list item that is not an object.
    #[error("{path}: expected map, got {got}")]
    NotMap {
        /// Where the list is.
        path: String,
        /// What the item is.
        got: String,
    },
    /// A `set` list item that is an object or a list.
    #[error("{path}: associative list without keys has an element that's a map type")]
    NonScalarSetItem {
        /// Where the list is.
        path: String,
    },
    /// Two items of the applied configuration with the same key or value.
    #[error("{path}: duplicate entries for key {key}")]
    Duplicate {
        /// Where the list is.
        path: String,
        /// The repeated element.
        key: String,
    },
}

fn path_text(path: &[PathElement]) -> String {
    crate::fieldpath::Path(path.to_vec()).to_string()
}

/// The element naming `item` in a list of this kind.
fn item_element(
    kind: &ListKind<'_>,
    item: &Value,
    index: usize,
    path: &[PathElement],
) -> Result<PathElement, TypeError> {
    match kind {
        ListKind::Map(keys) => {
            let Value::Object(map) = item else {
                return Err(TypeError::NotMap {
                    path: path_text(path),
                    got: crate::go::v(item),
                });
            };
            let mut fields = Vec::with_capacity(keys.len());
            for (key, default) in keys {
                let value = map
                    .get(*key)
                    .or(*default)
                    .ok_or_else(|| TypeError::MissingKey {
                        path: path_text(path),
                        key: (*key).to_owned(),
                    })?;
                fields.push(((*key).to_owned(), value.clone()));
            }
            fields.sort_by(|a, b| a.0.cmp(&b.0));
            Ok(PathElement::Key(fields))
        }
        ListKind::Set => match item {
            Value::Object(_) | Value::Array(_) => Err(TypeError::NonScalarSetItem {
                path: path_text(path),
            }),
            scalar => Ok(PathElement::Value(scalar.clone())),
        },
        ListKind::Atomic => Ok(PathElement::Index(index)),
    }
}

/// A list's items by element, in order; `unique` makes a repeated element an error
/// (an applied configuration), else the first of them counts (a live object).
fn index_items<'v>(
    kind: &ListKind<'_>,
    list: &'v [Value],
    path: &[PathElement],
    unique: bool,
) -> Result<Vec<(PathElement, &'v Value)>, TypeError> {
    let mut seen = BTreeMap::new();
    let mut out = Vec::with_capacity(list.len());
    for (i, item) in list.iter().enumerate() {
        let pe = item_element(kind, item, i, path)?;
        if seen.insert(pe.clone(), ()).is_some() {
            if unique {
                return Err(TypeError::Duplicate {
                    path: path_text(path),
                    key: pe.to_string(),
                });
            }
            continue;
        }
        out.push((pe, item));
    }
    Ok(out)
}

fn is_empty_container(v: Option<&Value>) -> bool {
    match v {
        None | Some(Value::Null) => true,
        Some(Value::Object(m)) => m.is_empty(),
        Some(Value::Array(a)) => a.is_empty(),
        Some(_) => false,
    }
}

/// The set of fields `value` sets (structured-merge-diff's `ToFieldSet`): every leaf,
/// every list item, and map entries that are not declared fields.
pub fn field_set(value: &Value, ty: TypeRef<'_>, unique: bool) -> Result<Set, TypeError> {
    let mut set = Set::new();
    walk_field_set(value, ty, &mut Vec::new(), &mut set, unique)?;
    set.compact();
    Ok(set)
}

fn walk_field_set(
    value: &Value,
    ty: TypeRef<'_>,
    path: &mut Vec<PathElement>,
    set: &mut Set,
    unique: bool,
) -> Result<(), TypeError> {
    match (ty.structure(Some(value)), value) {
        (Structure::List(kind), Value::Array(items)) if kind != ListKind::Atomic => {
            let item_ty = ty.item();
            for (pe, item) in index_items(&kind, items, path, unique)? {
                path.push(pe);
                walk_field_set(item, item_ty, path, set, unique)?;
                set.insert(path);
                path.pop();
            }
            Ok(())
        }
        (Structure::Struct | Structure::Map, Value::Object(map)) => {
            for (key, child) in map {
                let child_ty = ty.field(key);
                path.push(PathElement::Field(key.clone()));
                walk_field_set(child, child_ty, path, set, unique)?;
                if child.is_null()
                    || child.as_object().is_some_and(Map::is_empty)
                    || !ty.declares(key)
                {
                    set.insert(path);
                }
                path.pop();
            }
            Ok(())
        }
        (Structure::List(_) | Structure::Struct | Structure::Map, Value::Null) => Ok(()),
        _ => {
            set.insert(path);
            Ok(())
        }
    }
}

/// What changed from one value to another: the fields added, modified and removed.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Comparison {
    /// Fields only the new value has (and the objects holding them).
    pub added: Set,
    /// Leaves whose value changed.
    pub modified: Set,
    /// Fields only the old value has.
    pub removed: Set,
}

impl Comparison {
    /// Whether nothing changed.
    pub fn is_same(&self) -> bool {
        self.added.is_empty() && self.modified.is_empty() && self.removed.is_empty()
    }
}

/// Compares `old` with `new` (structured-merge-diff's `Compare`).
pub fn compare(old: &Value, new: &Value, ty: TypeRef<'_>) -> Result<Comparison, TypeError> {
    let mut c = Comparison::default();
    walk_compare(Some(old), Some(new), ty, &mut Vec::new(), &mut c)?;
    c.added.compact();
    c.modified.compact();
    c.removed.compact();
    Ok(c)
}

/// Whether a position is merged whole: scalars, atomic types, and containers empty on
/// both sides (which keeps an empty value apart from an absent one).
fn is_leaf(structure: &Structure<'_>, lhs: Option<&Value>, rhs: Option<&Value>) -> bool {
    let fits = |v: Option<&Value>| {
        matches!(
            (structure, v),
            (_, None | Some(Value::Null))
                | (Structure::List(_), Some(Value::Array(_)))
                | (Structure::Struct | Structure::Map, Some(Value::Object(_)))
        )
    };
    match structure {
        Structure::Atomic | Structure::List(ListKind::Atomic) => true,
        _ => !fits(lhs) || !fits(rhs) || (is_empty_container(lhs) && is_empty_container(rhs)),
    }
}

fn walk_compare(
    lhs: Option<&Value>,
    rhs: Option<&Value>,
    ty: TypeRef<'_>,
    path: &mut Vec<PathElement>,
    c: &mut Comparison,
) -> Result<(), TypeError> {
    let structure = ty.structure(rhs.or(lhs));
    if is_leaf(&structure, lhs, rhs) {
        match (lhs, rhs) {
            (None, Some(_)) => c.added.insert(path),
            (Some(_), None) => c.removed.insert(path),
            (Some(l), Some(r)) if !value_eq(l, r) => c.modified.insert(path),
            _ => {}
        }
        return Ok(());
    }
    match &structure {
        Structure::List(kind) => {
            let item_ty = ty.item();
            let empty = Vec::new();
            let l = index_items(
                kind,
                lhs.and_then(Value::as_array).unwrap_or(&empty),
                path,
                false,
            )?;
            let r = index_items(
                kind,
                rhs.and_then(Value::as_array).unwrap_or(&empty),
                path,
                false,
            )?;
            let mut both: BTreeMap<PathElement, (Option<&Value>, Option<&Value>)> = BTreeMap::new();
            for (pe, v) in l {
                both.entry(pe).or_default().0 = Some(v);
            }
            for (pe, v) in r {
                both.entry(pe).or_default().1 = Some(v);
            }
            for (pe, (l, r)) in both {
                path.push(pe);
                walk_compare(l, r, item_ty, path, c)?;
                path.pop();
            }
        }
        _ => {
            let empty = Map::new();
            let l = lhs.and_then(Value::as_object).unwrap_or(&empty);
            let r = rhs.and_then(Value::as_object).unwrap_or(&empty);
            let keys: std::collections::BTreeSet<&String> = l.keys().chain(r.keys()).collect();
            for key in keys {
                path.push(PathElement::Field(key.clone()));
                walk_compare(l.get(key), r.get(key), ty.field(key), path, c)?;
                path.pop();
            }
        }
    }
    match (lhs, rhs) {
        (None, Some(_)) => c.added.insert(path),
        (Some(_), None) => c.removed.insert(path),
        _ => {}
    }
    Ok(())
}

/// Merges the applied configuration `config` into `live` (structured-merge-diff's
/// `Merge`): the configuration's leaves win, objects merge field by field, `set` and
/// `map` lists item by item in the order the configuration gives its items, live items it
/// does not name kept in place.
pub fn merge(live: &Value, config: &Value, ty: TypeRef<'_>) -> Result<Value, TypeError> {
    let merged = walk_merge(Some(live), Some(config), ty, &mut Vec::new())?;
    Ok(merged.unwrap_or(Value::Null))
}

fn walk_merge(
    lhs: Option<&Value>,
    rhs: Option<&Value>,
    ty: TypeRef<'_>,
    path: &mut Vec<PathElement>,
) -> Result<Option<Value>, TypeError> {
    let structure = ty.structure(rhs.or(lhs));
    if is_leaf(&structure, lhs, rhs) {
        return Ok(rhs.or(lhs).cloned());
    }
    match &structure {
        Structure::List(kind) => {
            let empty = Vec::new();
            let l_items = lhs.and_then(Value::as_array).unwrap_or(&empty);
            let r_items = rhs.and_then(Value::as_array).unwrap_or(&empty);
            let out = merge_list(kind, l_items, r_items, ty.item(), path)?;
            Ok(Some(Value::Array(out)))
        }
        _ => {
            let mut out = lhs.and_then(Value::as_object).cloned().unwrap_or_default();
            if let Some(Value::Object(r)) = rhs {
                for (key, rv) in r {
                    path.push(PathElement::Field(key.clone()));
                    let merged = walk_merge(out.get(key), Some(rv), ty.field(key), path)?;
                    path.pop();
                    if let Some(v) = merged {
                        out.insert(key.clone(), v);
                    }
                }
            }
            Ok(Some(Value::Object(out)))
        }
    }
}

/// structured-merge-diff's list merge: items both sides have take the configuration's
/// order; live-only items stay where they were relative to them; configuration-only
/// items come where the configuration puts them.
fn merge_list(
    kind: &ListKind<'_>,
    lhs: &[Value],
    rhs: &[Value],
    item_ty: TypeRef<'_>,
    path: &mut Vec<PathElement>,
) -> Result<Vec<Value>, TypeError> {
    let r_pes = index_items(kind, rhs, path, true)?;
    let l_all: Vec<(PathElement, &Value)> = lhs
        .iter()
        .enumerate()
        .map(|(i, item)| item_element(kind, item, i, path).map(|pe| (pe, item)))
        .collect::<Result<_, _>>()?;
    let mut observed_l: BTreeMap<&PathElement, &Value> = BTreeMap::new();
    for (pe, v) in &l_all {
        observed_l.entry(pe).or_insert(v);
    }
    let observed_r: BTreeMap<&PathElement, &Value> = r_pes.iter().map(|(pe, v)| (pe, *v)).collect();
    let mut shared = r_pes
        .iter()
        .map(|(pe, _)| pe)
        .filter(|pe| observed_l.contains_key(pe))
        .collect::<Vec<_>>()
        .into_iter();
    let mut next_shared = shared.next();
    let mut merged_r: std::collections::BTreeSet<&PathElement> = Default::default();
    let mut out = Vec::with_capacity(lhs.len().max(rhs.len()));
    let (mut li, mut ri) = (0, 0);
    let push = |pe: &PathElement,
                l: Option<&Value>,
                r: Option<&Value>,
                out: &mut Vec<Value>,
                path: &mut Vec<PathElement>|
     -> Result<(), TypeError> {
        path.push(pe.clone());
        let merged = walk_merge(l, r, item_ty, path)?;
        path.pop();
        out.extend(merged);
        Ok(())
    };
    while li < l_all.len() || ri < r_pes.len() {
        if li < l_all.len() && ri < r_pes.len() {
            let pe = &l_all[li].0;
            if *pe == r_pes[ri].0 {
                merged_r.insert(pe);
                push(
                    pe,
                    observed_l.get(pe).copied(),
                    observed_r.get(pe).copied(),
                    &mut out,
                    path,
                )?;
                li += 1;
                ri += 1;
                next_shared = shared.next();
                continue;
            }
            if observed_r.contains_key(pe) && next_shared.is_some_and(|n| n != pe) {
                li += 1;
                continue;
            }
        }
        if li < l_all.len() {
            let (pe, item) = &l_all[li];
            if !observed_r.contains_key(pe) {
                push(pe, Some(item), None, &mut out, path)?;
                li += 1;
                continue;
            } else if merged_r.contains(pe) {
                li += 1;
                continue;
            }
        }
        if ri < r_pes.len() {
            let pe = &r_pes[ri].0;
            merged_r.insert(pe);
            push(
                pe,
                observed_l.get(pe).copied(),
                observed_r.get(pe).copied(),
                &mut out,
                path,
            )?;
            ri += 1;
            if next_shared.is_some_and(|n| n == pe) {
                next_shared = shared.next();
            }
        }
    }
    Ok(out)
}

/// `value` without the members of `set` (a member removes the field or item and all
/// below it).
pub fn remove_items(value: &Value, set: &Set, ty: TypeRef<'_>) -> Result<Value, TypeError> {
    let mut out = value.clone();
    walk_remove(&mut out, set, ty, &mut Vec::new())?;
    Ok(out)
}

fn walk_remove(
    value: &mut Value,
    set: &Set,
    ty: TypeRef<'_>,
    path: &mut Vec<PathElement>,
) -> Result<(), TypeError> {
    match (ty.structure(Some(value)), value) {
        (Structure::List(kind), Value::Array(items)) if kind != ListKind::Atomic => {
            let item_ty = ty.item();
            let mut kept = Vec::with_capacity(items.len());
            for (i, mut item) in std::mem::take(items).into_iter().enumerate() {
                let pe = item_element(&kind, &item, i, path)?;
                if set.has_member(&pe) {
                    continue;
                }
                if let Some(child) = set.child(&pe) {
                    path.push(pe);
                    walk_remove(&mut item, child, item_ty, path)?;
                    path.pop();
                }
                kept.push(item);
            }
            *items = kept;
        }
        (Structure::Struct | Structure::Map, Value::Object(map)) => {
            let keys: Vec<String> = map.keys().cloned().collect();
            for key in keys {
                let pe = PathElement::Field(key.clone());
                if set.has_member(&pe) {
                    map.remove(&key);
                } else if let (Some(child), Some(v)) = (set.child(&pe), map.get_mut(&key)) {
                    path.push(pe);
                    walk_remove(v, child, ty.field(&key), path)?;
                    path.pop();
                }
            }
        }
        _ => {}
    }
    Ok(())
}

/// `set` with every named field of a struct that has paths below it a member too
/// (structured-merge-diff's `EnsureNamedFieldsAreMembers`), so that removing a struct
/// field removes it whole when nothing below it is owned any more.
pub fn with_named_fields(set: &Set, ty: TypeRef<'_>) -> Set {
    let mut out = set.clone();
    add_named_fields(&mut out, set, ty);
    out
}

fn add_named_fields(out: &mut Set, set: &Set, ty: TypeRef<'_>) {
    let structure = ty.structure(None);
    for pe in set.elements() {
        let Some(child) = set.child(pe) else { continue };
        let (child_ty, named) = match (&structure, pe) {
            (Structure::Struct, PathElement::Field(name)) => (ty.field(name), ty.declares(name)),
            (Structure::Map, PathElement::Field(name)) => (ty.field(name), false),
            (Structure::List(_), _) => (ty.item(), false),
            _ => continue,
        };
        if named {
            out.insert_member(pe.clone());
        }
        let mut below = child.clone();
        add_named_fields(&mut below, child, child_ty);
        *out.child_mut(pe.clone()) = below;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::schema::builtin;
    use serde_json::json;

    fn deployment_ty() -> TypeRef<'static> {
        TypeRef::builtin(builtin(), "apps/v1", "Deployment").unwrap()
    }

    #[test]
    fn field_set_of_an_applied_deployment() {
        let config = json!({
            "apiVersion": "apps/v1", "kind": "Deployment",
            "metadata": {"name": "web", "labels": {"app": "web"}},
            "spec": {"replicas": 2, "template": {"spec": {"containers": [
                {"name": "app", "image": "app:1", "ports": [{"containerPort": 80, "protocol": "TCP"}]},
            ]}}},
        });
        let set = field_set(&config, deployment_ty(), true).unwrap();
        assert_eq!(
            set.to_fields_v1(),
            json!({
                "f:apiVersion": {}, "f:kind": {},
                "f:metadata": {"f:name": {}, "f:labels": {"f:app": {}}},
                "f:spec": {"f:replicas": {}, "f:template": {"f:spec": {"f:containers": {
                    "k:{\"name\":\"app\"}": {".": {}, "f:name": {}, "f:image": {}, "f:ports": {
                        "k:{\"containerPort\":80,\"protocol\":\"TCP\"}": {".": {}, "f:containerPort": {}, "f:protocol": {}},
                    }},
                }}}},
            })
        );
    }

    #[test]
    fn comparison_of_a_created_map_owns_the_map_itself() {
        let ty = TypeRef::builtin(builtin(), "v1", "ConfigMap").unwrap();
        let c = compare(&json!({}), &json!({"data": {"a": "1"}}), ty).unwrap();
        assert_eq!(
            c.added.to_fields_v1(),
            json!({"f:data": {".": {}, "f:a": {}}})
        );
        assert!(c.modified.is_empty() && c.removed.is_empty());
    }

    #[test]
    fn merged_lists_follow_the_configuration_order_and_keep_live_items() {
        let ty = deployment_ty();
        let live = json!({"spec": {"template": {"spec": {"containers": [
            {"name": "a", "image": "a:1"}, {"name": "b", "image": "b:1"}, {"name": "c", "image": "c:1"},
        ]}}}});
        let config = json!({"spec": {"template": {"spec": {"containers": [
            {"name": "c", "image": "c:2"}, {"name": "a"}, {"name": "d", "image": "d:1"},
        ]}}}});
        let merged = merge(&live, &config, ty).unwrap();
        let names: Vec<&str> = merged["spec"]["template"]["spec"]["containers"]
            .as_array()
            .unwrap()
            .iter()
            .map(|c| c["name"].as_str().unwrap())
            .collect();
        assert_eq!(names, ["b", "c", "a", "d"]);
        assert_eq!(
            merged["spec"]["template"]["spec"]["containers"][1]["image"],
            "c:2"
        );
    }

    #[test]
    fn duplicate_items_in_a_configuration_are_refused() {
        let config = json!({"spec": {"template": {"spec": {"containers": [
            {"name": "a"}, {"name": "a"},
        ]}}}});
        let e = merge(&json!({}), &config, deployment_ty()).unwrap_err();
        assert_eq!(
            e.to_string(),
            ".spec.template.spec.containers: duplicate entries for key [name=\"a\"]"
        );
    }
}
