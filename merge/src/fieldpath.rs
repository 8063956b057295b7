//! Field paths and sets of them, as server-side apply records ownership
//! (`sigs.k8s.io/structured-merge-diff/fieldpath`), and their `FieldsV1` form: the JSON
//! trie of `metadata.managedFields[].fieldsV1`, whose keys are `f:<field>`,
//! `k:<map-list key>`, `v:<set value>`, `i:<index>`, and `.` for the node itself.
//!
//! ```
//! use informer_merge::fieldpath::Set;
//! use serde_json::json;
//!
//! let fields = json!({"f:data": {".": {}, "f:a": {}}});
//! let set = Set::from_fields_v1(&fields)?;
//! let paths: Vec<String> = set.paths().iter().map(|p| p.to_string()).collect();
//! assert_eq!(paths, [".data", ".data.a"]);
//! assert_eq!(set.to_fields_v1(), fields);
//! # Ok::<(), informer_merge::fieldpath::FieldsV1Error>(())
//! ```

use std::cmp::Ordering;
use std::collections::{BTreeMap, BTreeSet};
use std::fmt;

use serde_json::{Map, Value};

/// One step of a path.
#[derive(Clone, Debug)]
pub enum PathElement {
    /// A field of an object or a key of a map: `.name`, `f:name`.
    Field(String),
    /// An item of a `map` list, by its key fields sorted by name:
    /// `[name="app"]`, `k:{"name":"app"}`.
    Key(Vec<(String, Value)>),
    /// An item of a `set` list, by its value: `[="a"]`, `v:"a"`.
    Value(Value),
    /// An item of a list by position: `[0]`, `i:0`.
    Index(usize),
}

impl PathElement {
    fn rank(&self) -> u8 {
        match self {
            Self::Field(_) => 0,
            Self::Key(_) => 1,
            Self::Value(_) => 2,
            Self::Index(_) => 3,
        }
    }

    /// The `FieldsV1` key of this element (`f:name`, `k:{...}`, `v:...`, `i:0`).
    pub fn to_fields_v1_key(&self) -> String {
        match self {
            Self::Field(name) => format!("f:{name}"),
            Self::Key(fields) => {
                let mut out = String::from("k:{");
                for (i, (name, value)) in fields.iter().enumerate() {
                    if i > 0 {
                        out.push(',');
                    }
                    crate::go::write_json_string(&mut out, name);
                    out.push(':');
                    crate::go::write_json(&mut out, value);
                }
                out.push('}');
                out
            }
            Self::Value(value) => {
                let mut out = String::from("v:");
                crate::go::write_json(&mut out, value);
                out
            }
            Self::Index(i) => format!("i:{i}"),
        }
    }

    /// The element of a `FieldsV1` key.
    pub fn from_fields_v1_key(key: &str) -> Result<Self, FieldsV1Error> {
        let (prefix, rest) = key
            .split_once(':')
            .ok_or_else(|| FieldsV1Error::UnknownElement(key.to_owned()))?;
        let json = |s: &str| {
            serde_json::from_str::<Value>(s).map_err(|e| FieldsV1Error::BadElement {
                key: key.to_owned(),
                reason: e.to_string(),
            })
        };
        match prefix {
            "f" => Ok(Self::Field(rest.to_owned())),
            "v" => Ok(Self::Value(json(rest)?)),
            "k" => match json(rest)? {
                Value::Object(map) => Ok(Self::Key(map.into_iter().collect())),
                _ => Err(FieldsV1Error::BadElement {
                    key: key.to_owned(),
                    reason: "a key is not a JSON object".to_owned(),
                }),
            },
            "i" => rest
                .parse::<usize>()
                .map(Self::Index)
                .map_err(|e| FieldsV1Error::BadElement {
                    key: key.to_owned(),
                    reason: e.to_string(),
                }),
            _ => Err(FieldsV1Error::UnknownElement(key.to_owned())),
        }
    }
}

impl PartialEq for PathElement {
    fn eq(&self, other: &Self) -> bool {
        self.cmp(other) == Ordering::Equal
    }
}

impl Eq for PathElement {}

impl PartialOrd for PathElement {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

/// structured-merge-diff's order: fields, then keys, then values, then indexes.
impl Ord for PathElement {
    fn cmp(&self, other: &Self) -> Ordering {
        match (self, other) {
            (Self::Field(a), Self::Field(b)) => a.cmp(b),
            (Self::Key(a), Self::Key(b)) => {
                for ((an, av), (bn, bv)) in a.iter().zip(b) {
                    let c = an.cmp(bn).then_with(|| value_cmp(av, bv));
                    if c != Ordering::Equal {
                        return c;
                    }
                }
                a.len().cmp(&b.len())
            }
            (Self::Value(a), Self::Value(b)) => value_cmp(a, b),
            (Self::Index(a), Self::Index(b)) => a.cmp(b),
            _ => self.rank().cmp(&other.rank()),
        }
    }
}

/// As structured-merge-diff prints a path element in conflict messages.
impl fmt::Display for PathElement {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Field(name) => write!(f, ".{name}"),
            Self::Key(fields) => {
                f.write_str("[")?;
                for (i, (name, value)) in fields.iter().enumerate() {
                    if i > 0 {
                        f.write_str(",")?;
                    }
                    write!(f, "{name}={}", value_text(value))?;
                }
                f.write_str("]")
            }
            Self::Value(value) => write!(f, "[={}]", value_text(value)),
            Self::Index(i) => write!(f, "[{i}]"),
        }
    }
}

/// A path from the root of an object.
#[derive(Clone, Debug, Default, PartialEq, Eq, PartialOrd, Ord)]
pub struct Path(pub Vec<PathElement>);

/// `.spec.containers[name="app"].image`, as conflict causes name fields.
impl fmt::Display for Path {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.0.iter().try_for_each(|pe| write!(f, "{pe}"))
    }
}

/// Why a `FieldsV1` value does not parse.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum FieldsV1Error {
    /// A node that is not a JSON object.
    #[error("expected an object in the fields trie, got {0}")]
    NotObject(&'static str),
    /// A key without a known prefix.
    #[error("unknown path element type in {0:?}")]
    UnknownElement(String),
    /// A `k:`, `v:` or `i:` key whose rest does not parse.
    #[error("invalid path element {key:?}: {reason}")]
    BadElement {
        /// The key.
        key: String,
        /// What is wrong with it.
        reason: String,
    },
}

/// A set of paths, as a trie: the elements that are members here, and the sets below
/// each element. Children are never empty.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Set {
    members: BTreeSet<PathElement>,
    children: BTreeMap<PathElement, Set>,
}

impl Set {
    /// The empty set.
    pub fn new() -> Self {
        Self::default()
    }

    /// Whether the set has no paths.
    pub fn is_empty(&self) -> bool {
        self.members.is_empty() && self.children.is_empty()
    }

    /// Adds `path` (the empty path, the root, is not a member of any set).
    pub fn insert(&mut self, path: &[PathElement]) {
        match path {
            [] => {}
            [last] => {
                self.members.insert(last.clone());
            }
            [first, rest @ ..] => self.children.entry(first.clone()).or_default().insert(rest),
        }
    }

    /// Whether `path` is a member.
    pub fn has(&self, path: &[PathElement]) -> bool {
        match path {
            [] => false,
            [last] => self.members.contains(last),
            [first, rest @ ..] => self.children.get(first).is_some_and(|c| c.has(rest)),
        }
    }

    /// The set below `pe`, if any path goes through it.
    pub fn child(&self, pe: &PathElement) -> Option<&Set> {
        self.children.get(pe)
    }

    /// Whether `pe` is a member of this node.
    pub fn has_member(&self, pe: &PathElement) -> bool {
        self.members.contains(pe)
    }

    /// Whether any member lies at or below `path`.
    pub fn has_prefix(&self, path: &[PathElement]) -> bool {
        match path {
            [] => !self.is_empty(),
            [last] => self.members.contains(last) || self.children.contains_key(last),
            [first, rest @ ..] => self.children.get(first).is_some_and(|c| c.has_prefix(rest)),
        }
    }

    /// The paths of both sets.
    pub fn union(&self, other: &Set) -> Set {
        let mut out = self.clone();
        out.members.extend(other.members.iter().cloned());
        for (pe, child) in &other.children {
            let merged = match out.children.get(pe) {
                Some(mine) => mine.union(child),
                None => child.clone(),
            };
            out.children.insert(pe.clone(), merged);
        }
        out
    }

    /// The paths of this set that `other` lacks.
    pub fn difference(&self, other: &Set) -> Set {
        let members = self.members.difference(&other.members).cloned().collect();
        let mut children = BTreeMap::new();
        for (pe, child) in &self.children {
            let rest = match other.children.get(pe) {
                Some(theirs) => child.difference(theirs),
                None => child.clone(),
            };
            if !rest.is_empty() {
                children.insert(pe.clone(), rest);
            }
        }
        Set { members, children }
    }

    /// The paths of this set that `other` lacks, where a member of `other` also takes
    /// away every path below it.
    pub fn recursive_difference(&self, other: &Set) -> Set {
        let members = self.members.difference(&other.members).cloned().collect();
        let mut children = BTreeMap::new();
        for (pe, child) in &self.children {
            if other.members.contains(pe) {
                continue;
            }
            let rest = match other.children.get(pe) {
                Some(theirs) => child.recursive_difference(theirs),
                None => child.clone(),
            };
            if !rest.is_empty() {
                children.insert(pe.clone(), rest);
            }
        }
        Set { members, children }
    }

    /// The paths in both sets.
    pub fn intersection(&self, other: &Set) -> Set {
        let members = self.members.intersection(&other.members).cloned().collect();
        let mut children = BTreeMap::new();
        for (pe, child) in &self.children {
            if let Some(theirs) = other.children.get(pe) {
                let both = child.intersection(theirs);
                if !both.is_empty() {
                    children.insert(pe.clone(), both);
                }
            }
        }
        Set { members, children }
    }

    /// Every member path, in structured-merge-diff's iteration order: this node's
    /// members, then each child's paths.
    pub fn paths(&self) -> Vec<Path> {
        let mut out = Vec::new();
        self.collect_paths(&mut Vec::new(), &mut out);
        out
    }

    fn collect_paths(&self, prefix: &mut Vec<PathElement>, out: &mut Vec<Path>) {
        for pe in &self.members {
            let mut path = prefix.clone();
            path.push(pe.clone());
            out.push(Path(path));
        }
        for (pe, child) in &self.children {
            prefix.push(pe.clone());
            child.collect_paths(prefix, out);
            prefix.pop();
        }
    }

    /// The members of this node and their children, each element once, in order.
    pub(crate) fn elements(&self) -> BTreeSet<&PathElement> {
        self.members.iter().chain(self.children.keys()).collect()
    }

    /// Adds `pe` as a member of this node.
    #[cfg(feature = "patch")]
    pub(crate) fn insert_member(&mut self, pe: PathElement) {
        self.members.insert(pe);
    }

    /// The children, mutable, for building a set node by node.
    #[cfg(feature = "patch")]
    pub(crate) fn child_mut(&mut self, pe: PathElement) -> &mut Set {
        self.children.entry(pe).or_default()
    }

    /// Drops empty children left by building.
    #[cfg(feature = "patch")]
    pub(crate) fn compact(&mut self) {
        self.children.retain(|_, c| {
            c.compact();
            !c.is_empty()
        });
    }

    /// The set of a `FieldsV1` value.
    pub fn from_fields_v1(value: &Value) -> Result<Set, FieldsV1Error> {
        let map = value
            .as_object()
            .ok_or_else(|| FieldsV1Error::NotObject(json_type(value)))?;
        let mut set = Set::new();
        for (key, child) in map {
            if key == "." {
                continue;
            }
            let pe = PathElement::from_fields_v1_key(key)?;
            let node = child
                .as_object()
                .ok_or_else(|| FieldsV1Error::NotObject(json_type(child)))?;
            if node.is_empty() || node.contains_key(".") {
                set.members.insert(pe.clone());
            }
            let below = Set::from_fields_v1(child)?;
            if !below.is_empty() {
                set.children.insert(pe, below);
            }
        }
        Ok(set)
    }

    /// The `FieldsV1` value of this set: each element a key, `{}` for a member without
    /// children, `"."` among the children of one with them.
    pub fn to_fields_v1(&self) -> Value {
        let mut map = Map::new();
        for pe in self.elements() {
            let mut node = match self.children.get(pe) {
                Some(child) => match child.to_fields_v1() {
                    Value::Object(m) => m,
                    _ => Map::new(),
                },
                None => Map::new(),
            };
            if self.members.contains(pe) && !node.is_empty() {
                node.insert(".".to_owned(), Value::Object(Map::new()));
            }
            map.insert(pe.to_fields_v1_key(), Value::Object(node));
        }
        Value::Object(map)
    }
}

fn json_type(v: &Value) -> &'static str {
    match v {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}

/// structured-merge-diff's total order of values: numbers (compared numerically), then
/// strings, booleans, lists, maps, and null last.
pub fn value_cmp(a: &Value, b: &Value) -> Ordering {
    fn rank(v: &Value) -> u8 {
        match v {
            Value::Number(_) => 0,
            Value::String(_) => 1,
            Value::Bool(_) => 2,
            Value::Array(_) => 3,
            Value::Object(_) => 4,
            Value::Null => 5,
        }
    }
    match (a, b) {
        (Value::Number(x), Value::Number(y)) => match (x.as_i64(), y.as_i64()) {
            (Some(x), Some(y)) => x.cmp(&y),
            _ => {
                let (x, y) = (x.as_f64().unwrap_or(0.0), y.as_f64().unwrap_or(0.0));
                x.partial_cmp(&y).unwrap_or(Ordering::Equal)
            }
        },
        (Value::String(x), Value::String(y)) => x.cmp(y),
        (Value::Bool(x), Value::Bool(y)) => x.cmp(y),
        (Value::Array(x), Value::Array(y)) => {
            for (p, q) in x.iter().zip(y) {
                let c = value_cmp(p, q);
                if c != Ordering::Equal {
                    return c;
                }
            }
            x.len().cmp(&y.len())
        }
        (Value::Object(x), Value::Object(y)) => {
            for ((pk, pv), (qk, qv)) in x.iter().zip(y) {
                let c = pk.cmp(qk).then_with(|| value_cmp(pv, qv));
                if c != Ordering::Equal {
                    return c;
                }
            }
            x.len().cmp(&y.len())
        }
        _ => rank(a).cmp(&rank(b)),
    }
}

/// Equality as structured-merge-diff sees it (`1` equals `1.0`).
pub fn value_eq(a: &Value, b: &Value) -> bool {
    value_cmp(a, b) == Ordering::Equal
}

/// A value as structured-merge-diff's `value.ToString` prints it in paths.
fn value_text(v: &Value) -> String {
    match v {
        Value::String(s) => {
            let mut out = String::new();
            crate::go::write_json_string(&mut out, s);
            out
        }
        Value::Array(items) => {
            let parts: Vec<String> = items.iter().map(value_text).collect();
            format!("[{}]", parts.join(","))
        }
        Value::Object(map) => {
            let parts: Vec<String> = map
                .iter()
                .map(|(k, v)| format!("{k}={}", value_text(v)))
                .collect();
            format!("{{{}}}", parts.join(","))
        }
        other => other.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn fields_v1_round_trips_with_every_element_kind() {
        let fields = json!({
            "f:metadata": {"f:labels": {".": {}, "f:app": {}}},
            "f:spec": {"f:containers": {
                "k:{\"name\":\"app\"}": {".": {}, "f:image": {}, "f:name": {}},
            }},
            "f:finalizers": {"v:\"a/b\"": {}},
            "f:args": {"i:0": {}},
        });
        let set = Set::from_fields_v1(&fields).unwrap();
        assert_eq!(set.to_fields_v1(), fields);
        let paths: Vec<String> = set.paths().iter().map(ToString::to_string).collect();
        assert_eq!(
            paths,
            [
                ".args[0]",
                ".finalizers[=\"a/b\"]",
                ".metadata.labels",
                ".metadata.labels.app",
                ".spec.containers[name=\"app\"]",
                ".spec.containers[name=\"app\"].image",
                ".spec.containers[name=\"app\"].name",
            ]
        );
    }

    #[test]
    fn keys_escape_as_go_does() {
        let pe = PathElement::Key(vec![("name".into(), json!("<a&b>"))]);
        assert_eq!(
            pe.to_fields_v1_key(),
            r#"k:{"name":"\u003ca\u0026b\u003e"}"#
        );
    }

    #[test]
    fn bad_fields_v1_is_an_error() {
        assert!(Set::from_fields_v1(&json!({"x:a": {}})).is_err());
        assert!(Set::from_fields_v1(&json!({"f:a": 1})).is_err());
        assert!(Set::from_fields_v1(&json!({"k:[1]": {}})).is_err());
        assert!(Set::from_fields_v1(&json!({"i:-1": {}})).is_err());
        assert!(Set::from_fields_v1(&json!([])).is_err());
    }
}
