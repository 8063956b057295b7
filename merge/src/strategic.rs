//! Strategic merge patch, as kube-apiserver applies `application/strategic-merge-patch+json`
//! (k8s.io/apimachinery `strategicpatch.StrategicMergeMapPatch`).
//!
//! Maps merge key by key and `null` deletes a key. A list whose field has the `merge`
//! strategy merges: lists of objects by their merge key (items in the patch update the
//! item with the same key or are added), lists of scalars as a set. Every other list,
//! and every list of a type the schema does not describe, is replaced. The directives:
//!
//! - `"$patch": "replace"` in an object replaces the whole object with the rest of it;
//!   as an item of a merging list, replaces the whole list with the other items.
//! - `"$patch": "delete"` in an object deletes it (leaves `{}`); as an item of a merging
//!   list (`{"name": "x", "$patch": "delete"}`), deletes the items with that key.
//! - `"$setElementOrder/<list>": [...]` gives the order of the merged list.
//! - `"$deleteFromPrimitiveList/<list>": [...]` deletes these values from a list of scalars.
//! - `"$retainKeys": [...]` clears the object's keys not listed; every key the patch sets
//!   must be listed.
//!
//! Anything else kube-apiserver refuses is an [`Error`] with its message; on the inputs
//! where kube-apiserver's own code panics (comparing two objects as merge keys, a list
//! starting with `null`) this is [`Error::Panic`]. The order of a merged list is the one
//! kube-apiserver produces: items named in the patch keep the patch's order, the other
//! items keep theirs, and a patch item the list did not have goes before the items it
//! is not ordered against (so an added item comes first unless `$setElementOrder` says
//! otherwise).

use serde_json::{Map, Value};

use crate::go::{self, GoPanic, GoType};
use crate::schema::{LookupError, PatchMeta, SchemaRef};

const DIRECTIVE: &str = "$patch";
const DELETE: &str = "delete";
const REPLACE: &str = "replace";
const MERGE: &str = "merge";
const RETAIN_KEYS_STRATEGY: &str = "retainKeys";
const RETAIN_KEYS: &str = "$retainKeys";
const DELETE_FROM_PRIMITIVE_LIST: &str = "$deleteFromPrimitiveList";
const SET_ELEMENT_ORDER: &str = "$setElementOrder";
const SLICE: &str = "[]interface {}";
const MAP: &str = "map[string]interface {}";

/// Why a strategic merge patch does not apply, with kube-apiserver's message; see
/// [`Error::kind`] for the answer it gives.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum Error {
    /// The original is not a JSON object.
    #[error("invalid JSON document")]
    BadJsonDoc,
    /// The patch is not a JSON object (nor `null`); names the JSON type as Go's decoder does.
    #[error("json: cannot unmarshal {0} into Go value of type map[string]interface {{}}")]
    PatchNotAnObject(&'static str),
    /// A `$deleteFromPrimitiveList` key without `/<list>`.
    #[error("invalid patch format of primitive list")]
    BadPatchFormatForPrimitiveList,
    /// `$retainKeys` that is not a list, or a patch setting a key it does not list.
    #[error("invalid patch format of retainKeys")]
    BadPatchFormatForRetainKeys,
    /// A `$setElementOrder` key without `/<list>`.
    #[error("invalid patch format of setElementOrder list")]
    BadPatchFormatForSetElementOrderList,
    /// A list of lists.
    #[error("lists of lists are not supported")]
    NoListOfLists,
    /// An item of a merging list without its merge key.
    #[error("map: {map} does not contain declared merge key: {key}")]
    NoMergeKey {
        /// The item, as Go prints it (`map[image:nginx]`).
        map: String,
        /// The merge key.
        key: String,
    },
    /// A `$patch` value other than `replace` and `delete` in an object, or than `replace`,
    /// `delete` and `merge` in a list item.
    #[error("unknown patch type: {directive} in map: {map}")]
    BadPatchType {
        /// The value, as Go's `%s` prints it.
        directive: String,
        /// The object holding it, as Go prints it.
        map: String,
    },
    /// `$patch: merge` as an item of a merging list.
    #[error("merging lists cannot yet be specified in the patch")]
    MergeDirectiveInList,
    /// A value of the wrong JSON type where a list or an object is needed.
    #[error("expected a {expected}, but received a {actual}")]
    BadArgType {
        /// The Go type needed.
        expected: &'static str,
        /// The Go type found.
        actual: &'static str,
    },
    /// A merging list whose items are not all of one type.
    #[error("list element types are not identical: {0}")]
    ListElementTypes(String),
    /// A `$setElementOrder` list for a list that is empty in both the object and the patch.
    #[error("no elements in any of the given slices")]
    NoElements,
    /// A list of objects merged (or deleted from) without a merge key; names the Go kind
    /// of the item type.
    #[error("cannot merge lists without merge key for {0}")]
    NoMergeKeyForList(&'static str),
    /// An item that is not an object in a list of objects (its index).
    #[error("value for key {0} is not a map")]
    NotAMap(usize),
    /// A patch list whose items are not in the `$setElementOrder` list's order.
    #[error("The order in patch list:\n{patch}\n doesn't match $setElementOrder list:\n{order}\n")]
    OrderMismatch {
        /// The patch list, as Go prints it.
        patch: String,
        /// The `$setElementOrder` list, as Go prints it.
        order: String,
    },
    /// A field with more than one strategy besides `retainKeys`.
    #[error("unexpected patch strategy: {0}")]
    UnexpectedStrategy(String),
    /// The schema cannot describe what the patch merges into.
    #[error(transparent)]
    Lookup(#[from] LookupError),
    /// kube-apiserver's code panics on this input.
    #[error("{0}")]
    Panic(#[from] GoPanic),
}

/// The answer kube-apiserver gives to an [`Error`].
///
/// Exhaustive on purpose: a server maps each variant to kube-apiserver's answer, and a new
/// one must make every such mapping choose.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ErrorKind {
    /// 400 BadRequest with the error's message.
    BadRequest,
    /// 422 with reason `Invalid` and the generic message (kube-apiserver drops the error's).
    Invalid,
    /// 500 with an empty reason and the error's message.
    Internal,
    /// 500: kube-apiserver panicked and its panic filter answers.
    Panic,
}

impl Error {
    /// How kube-apiserver's PATCH handler answers this error.
    pub fn kind(&self) -> ErrorKind {
        match self {
            Self::BadJsonDoc
            | Self::PatchNotAnObject(_)
            | Self::BadPatchFormatForPrimitiveList
            | Self::BadPatchFormatForRetainKeys
            | Self::BadPatchFormatForSetElementOrderList => ErrorKind::BadRequest,
            Self::NoListOfLists => ErrorKind::Invalid,
            Self::Panic(_) => ErrorKind::Panic,
            _ => ErrorKind::Internal,
        }
    }
}

type Result<T> = std::result::Result<T, Error>;

/// Applies the strategic merge patch `patch` to `original`, an object of the type
/// `schema` points at, and returns the patched object.
///
/// A `null` patch changes nothing; a patch that is not an object is
/// [`Error::PatchNotAnObject`]. Keys of the patch are applied in sorted order (Go's
/// map order is random; it only decides which of two errors is reported).
pub fn apply(original: &Value, patch: &Value, schema: SchemaRef<'_>) -> Result<Value> {
    let Value::Object(original) = original else {
        return Err(Error::BadJsonDoc);
    };
    let patch = match patch {
        Value::Null => return Ok(Value::Object(original.clone())),
        Value::Object(p) => p.clone(),
        Value::Array(_) => return Err(Error::PatchNotAnObject("array")),
        Value::String(_) => return Err(Error::PatchNotAnObject("string")),
        Value::Number(_) => return Err(Error::PatchNotAnObject("number")),
        Value::Bool(_) => return Err(Error::PatchNotAnObject("bool")),
    };
    merge_map(original.clone(), patch, schema).map(Value::Object)
}

fn bad_arg(expected: &'static str, actual: &Value) -> Error {
    Error::BadArgType {
        expected,
        actual: GoType::of(actual).name(),
    }
}

fn no_merge_key(map: &Map<String, Value>, key: &str) -> Error {
    Error::NoMergeKey {
        map: go::v(&Value::Object(map.clone())),
        key: key.to_owned(),
    }
}

/// The strategy besides `retainKeys` (Go's `extractRetainKeysPatchStrategy`).
fn strategy<'a>(meta: &PatchMeta<'a>) -> Result<&'a str> {
    let strategies = meta.strategies();
    match strategies[..] {
        [one] if one == RETAIN_KEYS_STRATEGY => Ok(""),
        [one] => Ok(one),
        [RETAIN_KEYS_STRATEGY, other] | [other, RETAIN_KEYS_STRATEGY] => Ok(other),
        _ => Err(Error::UnexpectedStrategy(format!(
            "[{}]",
            strategies.join(" ")
        ))),
    }
}

/// The list key of a `$setElementOrder/<list>` or `$deleteFromPrimitiveList/<list>` key.
fn extract_key<'k>(key: &'k str, prefix: &str) -> Result<&'k str> {
    match key.split_once('/') {
        Some((p, rest)) if p == prefix => Ok(rest),
        _ if prefix == DELETE_FROM_PRIMITIVE_LIST => Err(Error::BadPatchFormatForPrimitiveList),
        _ => Err(Error::BadPatchFormatForSetElementOrderList),
    }
}

fn merge_map(
    mut original: Map<String, Value>,
    mut patch: Map<String, Value>,
    schema: SchemaRef<'_>,
) -> Result<Map<String, Value>> {
    if let Some(directive) = patch.get(DIRECTIVE) {
        return match directive.as_str() {
            Some(REPLACE) => {
                patch.remove(DIRECTIVE);
                Ok(patch)
            }
            Some(DELETE) => Ok(Map::new()),
            _ => Err(Error::BadPatchType {
                directive: go::s(directive),
                map: go::v(&Value::Object(patch.clone())),
            }),
        };
    }
    retain_keys(&mut original, &mut patch)?;
    set_element_order(&mut original, &mut patch, schema)?;
    for (key, patch_v) in patch {
        let (key, delete_list) = if key.starts_with(DELETE_FROM_PRIMITIVE_LIST) {
            match extract_key(&key, DELETE_FROM_PRIMITIVE_LIST)? {
                "" => (key, true),
                list => (list.to_owned(), true),
            }
        } else {
            (key, false)
        };
        if patch_v.is_null() {
            original.remove(&key);
            continue;
        }
        let Some(original_v) = original.remove(&key) else {
            if !delete_list {
                insert_patch_value(&mut original, key, patch_v);
            }
            continue;
        };
        if GoType::of(&original_v) != GoType::of(&patch_v) {
            if delete_list {
                original.insert(key, original_v);
            } else {
                insert_patch_value(&mut original, key, patch_v);
            }
            continue;
        }
        let merged = match (original_v, patch_v) {
            (Value::Object(o), Value::Object(p)) => {
                let (sub, meta) = schema.field(&key)?;
                if strategy(&meta)? == REPLACE {
                    Value::Object(p)
                } else {
                    Value::Object(merge_map(o, p, sub)?)
                }
            }
            (Value::Array(mut o), Value::Array(p)) => {
                let (sub, meta) = schema.list_field(&key)?;
                let strategy = strategy(&meta)?;
                Value::Array(merge_slice_handler(
                    &mut o,
                    p,
                    sub,
                    strategy,
                    meta.merge_key,
                    delete_list,
                )?)
            }
            (_, scalar) => scalar,
        };
        original.insert(key, merged);
    }
    Ok(original)
}

/// A patch value for a key the original lacks (or holds another type under): its
/// `null`s dropped, its directives removed, and nothing when it is a directive itself.
fn insert_patch_value(original: &mut Map<String, Value>, key: String, mut value: Value) {
    discard_nulls(&mut value);
    if let Some(value) = remove_directives(value) {
        original.insert(key, value);
    }
}

fn discard_nulls(value: &mut Value) {
    match value {
        Value::Object(map) => {
            map.retain(|_, v| !v.is_null());
            map.values_mut().for_each(discard_nulls);
        }
        Value::Array(list) => list.iter_mut().for_each(discard_nulls),
        _ => {}
    }
}

/// Drops every object carrying `$patch` (and the key or item holding it); `None` when
/// `value` itself carries one.
fn remove_directives(value: Value) -> Option<Value> {
    match value {
        Value::Object(map) => {
            if map.contains_key(DIRECTIVE) {
                return None;
            }
            Some(Value::Object(
                map.into_iter()
                    .filter_map(|(k, v)| remove_directives(v).map(|v| (k, v)))
                    .collect(),
            ))
        }
        Value::Array(list) => Some(Value::Array(
            list.into_iter().filter_map(remove_directives).collect(),
        )),
        other => Some(other),
    }
}

fn retain_keys(original: &mut Map<String, Value>, patch: &mut Map<String, Value>) -> Result<()> {
    let Some(list) = patch.remove(RETAIN_KEYS) else {
        return Ok(());
    };
    let Value::Array(list) = list else {
        return Err(Error::BadPatchFormatForRetainKeys);
    };
    for item in &list {
        go::hashable(item)?;
    }
    let listed = |k: &str| list.iter().any(|item| item.as_str() == Some(k));
    for (k, v) in patch.iter() {
        if v.is_null()
            || k.starts_with(DELETE_FROM_PRIMITIVE_LIST)
            || k.starts_with(SET_ELEMENT_ORDER)
        {
            continue;
        }
        if !listed(k) {
            return Err(Error::BadPatchFormatForRetainKeys);
        }
    }
    original.retain(|k, _| listed(k));
    Ok(())
}

/// Merges each list named by a `$setElementOrder/<list>` key and puts it in that order
/// (Go's `mergePatchIntoOriginal`); the lists it merges leave the patch.
fn set_element_order(
    original: &mut Map<String, Value>,
    patch: &mut Map<String, Value>,
    schema: SchemaRef<'_>,
) -> Result<()> {
    let keys: Vec<String> = patch
        .keys()
        .filter(|k| k.starts_with(SET_ELEMENT_ORDER))
        .cloned()
        .collect();
    for key in keys {
        let Some(order) = patch.remove(&key) else {
            continue;
        };
        let Value::Array(order) = order else {
            return Err(bad_arg(SLICE, &order));
        };
        let list_key = extract_key(&key, SET_ELEMENT_ORDER)?;
        let list_of = |v: Option<&Value>| match v {
            None => Ok(None),
            Some(Value::Array(list)) => Ok(Some(list.clone())),
            Some(other) => Err(bad_arg(SLICE, other)),
        };
        let original_list = list_of(original.get(list_key))?;
        let patch_list = list_of(patch.get(list_key))?;
        let (sub, meta) = schema.list_field(list_key)?;
        let strategy = strategy(&meta)?;
        let merge_key = meta.merge_key;
        validate_set_order(patch_list.as_deref().unwrap_or(&[]), &order, merge_key)?;
        // Go merges into the object's list in place; what the merge leaves in that list
        // is the order the object's items are sorted by.
        let mut server_order = original_list.clone().unwrap_or_default();
        let merged = match (original_list.is_some(), patch_list.clone()) {
            (true, None) => server_order.clone(),
            (false, Some(p)) => p.into_iter().filter_map(remove_directives).collect(),
            (true, Some(p)) => {
                merge_slice_handler(&mut server_order, p, sub, strategy, merge_key, false)?
            }
            (false, None) => continue,
        };
        let (items, server_only) = if merge_key.is_empty() {
            partition_primitives(merged, &order)?
        } else {
            partition_maps(merged, &order, merge_key)?
        };
        let kind = element_type(&[&server_order, patch_list.as_deref().unwrap_or(&[])])?;
        let both =
            normalize_element_order(items, server_only, &order, &server_order, merge_key, kind)?;
        original.insert(list_key.to_owned(), Value::Array(both));
        patch.remove(list_key);
    }
    Ok(())
}

/// Checks that the patch list's items come in the `$setElementOrder` list's order
/// (Go's `validatePatchWithSetOrderList`).
fn validate_set_order(patch_list: &[Value], order: &[Value], merge_key: &str) -> Result<()> {
    if order.is_empty() || patch_list.is_empty() {
        return Ok(());
    }
    let non_delete = if merge_key.is_empty() {
        patch_list.to_vec()
    } else {
        split_deletes(patch_list.to_vec())?.0
    };
    let (mut p, mut o) = (0, 0);
    while p < non_delete.len() && o < order.len() {
        if non_delete[p]
            .as_object()
            .is_some_and(|m| m.contains_key(DIRECTIVE))
        {
            p += 1;
            continue;
        }
        if merge_key_value_equal(&non_delete[p], &order[o], merge_key)? {
            p += 1;
        }
        o += 1;
    }
    if p < non_delete.len() && o >= order.len() {
        return Err(Error::OrderMismatch {
            patch: go::v_list(patch_list),
            order: go::v_list(order),
        });
    }
    Ok(())
}

fn merge_key_value_equal(left: &Value, right: &Value, merge_key: &str) -> Result<bool> {
    if merge_key.is_empty() {
        return Ok(go::eq(left, right)?);
    }
    let Value::Object(l) = left else {
        return Err(bad_arg(MAP, left));
    };
    let Value::Object(r) = right else {
        return Err(bad_arg(MAP, right));
    };
    let lv = l.get(merge_key).ok_or_else(|| no_merge_key(l, merge_key))?;
    let rv = r.get(merge_key).ok_or_else(|| no_merge_key(r, merge_key))?;
    Ok(go::eq(lv, rv)?)
}

/// Splits the items carrying `$patch: delete` from the others (both in order).
fn split_deletes(list: Vec<Value>) -> Result<(Vec<Value>, Vec<Value>)> {
    let mut keep = Vec::new();
    let mut delete = Vec::new();
    for item in list {
        let Value::Object(map) = &item else {
            return Err(bad_arg(MAP, &item));
        };
        if map.get(DIRECTIVE).and_then(Value::as_str) == Some(DELETE) {
            delete.push(item);
        } else {
            keep.push(item);
        }
    }
    Ok((keep, delete))
}

fn merge_slice_handler(
    original: &mut [Value],
    patch: Vec<Value>,
    schema: SchemaRef<'_>,
    strategy: &str,
    merge_key: &str,
    delete_list: bool,
) -> Result<Vec<Value>> {
    if strategy == MERGE || delete_list {
        merge_slice(original, patch, schema, merge_key, delete_list)
    } else {
        Ok(patch)
    }
}

/// The Go type all items of the lists share (Go's `sliceElementType`).
fn element_type(lists: &[&[Value]]) -> Result<GoType> {
    let mut found: Option<GoType> = None;
    for item in lists.iter().flat_map(|l| l.iter()) {
        let t = GoType::of(item);
        match found {
            None if t == GoType::Nil => return Err(GoPanic::NilDereference.into()),
            None if t == GoType::Slice => return Err(Error::NoListOfLists),
            None => found = Some(t),
            Some(prev) if prev != t => return Err(Error::ListElementTypes(go::v_lists(lists))),
            Some(_) => {}
        }
    }
    found.ok_or(Error::NoElements)
}

/// Merges a patch list into a list with the `merge` strategy (Go's `mergeSlice`).
///
/// `original` is changed as Go changes the object's list in place (deleted items shift
/// the rest down, added items fill the freed places), because a `$setElementOrder`
/// list sorts the object's items by what is left in it.
fn merge_slice(
    original: &mut [Value],
    patch: Vec<Value>,
    schema: SchemaRef<'_>,
    merge_key: &str,
    delete_list: bool,
) -> Result<Vec<Value>> {
    if original.is_empty() && patch.is_empty() {
        return Ok(Vec::new());
    }
    let kind = element_type(&[original, &patch])?;
    let (merged, server_order, patch) = if kind != GoType::Map {
        if delete_list {
            return delete_from_slice(original, &patch);
        }
        let both = original.iter().chain(&patch).cloned().collect();
        (dedup_scalars(both)?, original.to_vec(), patch)
    } else {
        if merge_key.is_empty() {
            return Err(Error::NoMergeKeyForList(schema.kind_name()));
        }
        let mut len = original.len();
        let mut rest = Vec::new();
        let mut replace = false;
        for item in patch {
            let Value::Object(map) = item else {
                continue;
            };
            let Some(directive) = map.get(DIRECTIVE) else {
                rest.push(Value::Object(map));
                continue;
            };
            match directive.as_str() {
                Some(DELETE) => {
                    let key = map
                        .get(merge_key)
                        .ok_or_else(|| no_merge_key(&map, merge_key))?;
                    while let Some(i) = find_by_key(&original[..len], merge_key, key)? {
                        for j in i..len - 1 {
                            original[j] = original[j + 1].clone();
                        }
                        len -= 1;
                    }
                }
                Some(REPLACE) => replace = true,
                Some(MERGE) => return Err(Error::MergeDirectiveInList),
                _ => {
                    return Err(Error::BadPatchType {
                        directive: go::s(directive),
                        map: go::v(&Value::Object(map.clone())),
                    })
                }
            }
        }
        if replace {
            (rest.clone(), rest, Vec::new())
        } else {
            let merged = merge_items(original[..len].to_vec(), &rest, merge_key, schema)?;
            let server_order = original[..len].to_vec();
            for (slot, item) in original.iter_mut().zip(&merged) {
                *slot = item.clone();
            }
            (merged, server_order, rest)
        }
    };
    let (items, server_only) = if merge_key.is_empty() {
        partition_primitives(merged, &patch)?
    } else {
        partition_maps(merged, &patch, merge_key)?
    };
    normalize_element_order(items, server_only, &patch, &server_order, merge_key, kind)
}

/// Merges each patch item into the item with its merge key, or adds it at the end
/// (Go's `mergeSliceWithoutSpecialElements`).
fn merge_items(
    mut list: Vec<Value>,
    patch: &[Value],
    merge_key: &str,
    schema: SchemaRef<'_>,
) -> Result<Vec<Value>> {
    for item in patch {
        let Value::Object(patch_map) = item else {
            continue;
        };
        let key = patch_map
            .get(merge_key)
            .ok_or_else(|| no_merge_key(patch_map, merge_key))?;
        match find_by_key(&list, merge_key, key)? {
            Some(i) => {
                let Value::Object(found) = std::mem::take(&mut list[i]) else {
                    continue;
                };
                list[i] = Value::Object(merge_map(found, patch_map.clone(), schema)?);
            }
            None => list.push(item.clone()),
        }
    }
    Ok(list)
}

/// The index of the first object whose `key` equals `value` (Go's
/// `findMapInSliceBasedOnKeyValue`).
fn find_by_key(list: &[Value], key: &str, value: &Value) -> Result<Option<usize>> {
    for (i, item) in list.iter().enumerate() {
        let Value::Object(map) = item else {
            return Err(Error::NotAMap(i));
        };
        if let Some(v) = map.get(key) {
            if go::eq(v, value)? {
                return Ok(Some(i));
            }
        }
    }
    Ok(None)
}

fn delete_from_slice(current: &[Value], to_delete: &[Value]) -> Result<Vec<Value>> {
    let mut kept = Vec::with_capacity(current.len());
    for item in current {
        if !go::set_contains(to_delete, item)? {
            kept.push(item.clone());
        }
    }
    Ok(kept)
}

/// Go's `deduplicateScalars`: a later duplicate is overwritten by the last item.
fn dedup_scalars(mut s: Vec<Value>) -> Result<Vec<Value>> {
    let mut i = 0;
    while i + 1 < s.len() {
        let mut j = i + 1;
        while j < s.len() {
            if go::eq(&s[i], &s[j])? {
                let last = s.len() - 1;
                s.swap(j, last);
                s.truncate(last);
            } else {
                j += 1;
            }
        }
        i += 1;
    }
    Ok(s)
}

/// Splits scalars into those in `by` and the others (Go's
/// `partitionPrimitivesByPresentInList`).
fn partition_primitives(list: Vec<Value>, by: &[Value]) -> Result<(Vec<Value>, Vec<Value>)> {
    for item in by {
        go::hashable(item)?;
    }
    let (mut inside, mut outside) = (Vec::new(), Vec::new());
    for item in list {
        if go::set_contains(by, &item)? {
            inside.push(item);
        } else {
            outside.push(item);
        }
    }
    Ok((inside, outside))
}

/// Splits objects into those whose merge key is in `by` and the others (Go's
/// `partitionMapsByPresentInList`).
fn partition_maps(
    list: Vec<Value>,
    by: &[Value],
    merge_key: &str,
) -> Result<(Vec<Value>, Vec<Value>)> {
    let (mut inside, mut outside) = (Vec::new(), Vec::new());
    for item in list {
        let Value::Object(map) = &item else {
            return Err(bad_arg(MAP, &item));
        };
        let key = map
            .get(merge_key)
            .ok_or_else(|| no_merge_key(map, merge_key))?;
        if find_by_key(by, merge_key, key)?.is_some() {
            inside.push(item);
        } else {
            outside.push(item);
        }
    }
    Ok((inside, outside))
}

/// Sorts the patch's items by `patch_order` and the others by `server_order`, then
/// interleaves them (Go's `normalizeElementOrder`).
fn normalize_element_order(
    patch: Vec<Value>,
    server_only: Vec<Value>,
    patch_order: &[Value],
    server_order: &[Value],
    merge_key: &str,
    kind: GoType,
) -> Result<Vec<Value>> {
    let patch = normalize_slice_order(patch, patch_order, merge_key, kind)?;
    let server_only = normalize_slice_order(server_only, server_order, merge_key, kind)?;
    merge_sorted(server_only, patch, server_order, merge_key, kind)
}

/// Where `value` is in `list`, by merge key for objects (Go's `index`).
fn index(list: &[Value], value: &Value, merge_key: &str, kind: GoType) -> Result<Option<usize>> {
    let key_of = |item: &Value| -> Value {
        if kind == GoType::Map {
            item.as_object()
                .and_then(|m| m.get(merge_key))
                .cloned()
                .unwrap_or(Value::Null)
        } else {
            item.clone()
        }
    };
    let wanted = key_of(value);
    for (i, item) in list.iter().enumerate() {
        if go::eq(&wanted, &key_of(item))? {
            return Ok(Some(i));
        }
    }
    Ok(None)
}

fn normalize_slice_order(
    mut list: Vec<Value>,
    order: &[Value],
    merge_key: &str,
    kind: GoType,
) -> Result<Vec<Value>> {
    let mut deletes = Vec::new();
    if kind == GoType::Map {
        for item in list.iter().chain(order) {
            let Value::Object(map) = item else {
                return Err(bad_arg(MAP, item));
            };
            if !map.contains_key(merge_key) {
                return Err(no_merge_key(map, merge_key));
            }
        }
        (list, deletes) = split_deletes(list)?;
    }
    // Go's comparator: ordered by `order` when both are in it, else "less".
    stable_sort(&mut list, &mut |s: &[Value], i: usize, j: usize| {
        if let Some(ii) = index(order, &s[i], merge_key, kind)? {
            if let Some(ij) = index(order, &s[j], merge_key, kind)? {
                return Ok(ii < ij);
            }
        }
        Ok(true)
    })?;
    list.extend(deletes);
    Ok(list)
}

/// Interleaves the server-only items (`left`) into the patch items (`right`): a left
/// item goes first only when both are in `server_order` and it is ahead there (Go's
/// `mergeSortedSlice`).
fn merge_sorted(
    left: Vec<Value>,
    right: Vec<Value>,
    server_order: &[Value],
    merge_key: &str,
    kind: GoType,
) -> Result<Vec<Value>> {
    let mut out = Vec::with_capacity(left.len() + right.len());
    let mut left = left.into_iter().peekable();
    let mut right = right.into_iter().peekable();
    loop {
        let take_left = match (left.peek(), right.peek()) {
            (None, None) => break,
            (Some(_), None) => true,
            (None, Some(_)) => false,
            (Some(l), Some(r)) => {
                let li = index(server_order, l, merge_key, kind)?;
                let ri = index(server_order, r, merge_key, kind)?;
                matches!((li, ri), (Some(li), Some(ri)) if li < ri)
            }
        };
        let next = if take_left { left.next() } else { right.next() };
        out.extend(next);
    }
    Ok(out)
}

type Less<'a> = dyn FnMut(&[Value], usize, usize) -> Result<bool> + 'a;

/// Go's `sort.SliceStable` (insertion sort of blocks of 20, then in-place symmetric
/// merges), step for step: the comparator above is not a strict order, so the result
/// depends on the exact sequence of comparisons and swaps.
fn stable_sort(data: &mut [Value], less: &mut Less<'_>) -> Result<()> {
    let n = data.len();
    let mut block = 20;
    let (mut a, mut b) = (0, block);
    while b <= n {
        insertion_sort(data, a, b, less)?;
        a = b;
        b += block;
    }
    insertion_sort(data, a, n, less)?;
    while block < n {
        let (mut a, mut b) = (0, 2 * block);
        while b <= n {
            sym_merge(data, a, a + block, b, less)?;
            a = b;
            b += 2 * block;
        }
        let m = a + block;
        if m < n {
            sym_merge(data, a, m, n, less)?;
        }
        block *= 2;
    }
    Ok(())
}

fn insertion_sort(data: &mut [Value], a: usize, b: usize, less: &mut Less<'_>) -> Result<()> {
    for i in a + 1..b {
        let mut j = i;
        while j > a && less(data, j, j - 1)? {
            data.swap(j, j - 1);
            j -= 1;
        }
    }
    Ok(())
}

fn sym_merge(data: &mut [Value], a: usize, m: usize, b: usize, less: &mut Less<'_>) -> Result<()> {
    if m - a == 1 {
        let (mut i, mut j) = (m, b);
        while i < j {
            let h = (i + j) / 2;
            if less(data, h, a)? {
                i = h + 1;
            } else {
                j = h;
            }
        }
        for k in a..i.saturating_sub(1) {
            data.swap(k, k + 1);
        }
        return Ok(());
    }
    if b - m == 1 {
        let (mut i, mut j) = (a, m);
        while i < j {
            let h = (i + j) / 2;
            if !less(data, m, h)? {
                i = h + 1;
            } else {
                j = h;
            }
        }
        let mut k = m;
        while k > i {
            data.swap(k, k - 1);
            k -= 1;
        }
        return Ok(());
    }
    let mid = (a + b) / 2;
    let n = mid + m;
    let (mut start, mut r) = if m > mid { (n - b, mid) } else { (a, m) };
    let p = n - 1;
    while start < r {
        let c = (start + r) / 2;
        if !less(data, p - c, c)? {
            start = c + 1;
        } else {
            r = c;
        }
    }
    let end = n - start;
    if start < m && m < end {
        rotate(data, start, m, end);
    }
    if a < start && start < mid {
        sym_merge(data, a, start, mid, less)?;
    }
    if mid < end && end < b {
        sym_merge(data, mid, end, b, less)?;
    }
    Ok(())
}

fn rotate(data: &mut [Value], a: usize, m: usize, b: usize) {
    let (mut i, mut j) = (m - a, b - m);
    while i != j {
        if i > j {
            swap_range(data, m - i, m, j);
            i -= j;
        } else {
            swap_range(data, m - i, m + j - i, i);
            j -= i;
        }
    }
    swap_range(data, m - i, m, i);
}

fn swap_range(data: &mut [Value], a: usize, b: usize, n: usize) {
    for i in 0..n {
        data.swap(a + i, b + i);
    }
}
