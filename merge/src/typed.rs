//! The structure server-side apply merges by: for each position of an object, whether it
//! is a scalar, a struct (granular or atomic), a map (granular or atomic), or a list
//! (`atomic`, `set`, or `map` with its keys). Built-in types read it from the checked-in
//! table ([`crate::schema::builtin`]); custom resources from their CRD's structural
//! schema (`x-kubernetes-list-type`, `x-kubernetes-list-map-keys`,
//! `x-kubernetes-map-type`), with `metadata` typed as `ObjectMeta` as kube-apiserver types
//! it; values without a schema are deduced from their JSON (objects are granular maps,
//! arrays atomic).

use serde_json::Value;

use crate::schema::{Definition, Field, Schema, Shape};

const OBJECT_META: &str = "io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta";
/// Typed as an untyped atomic value by kube-openapi (an embedded object of any type).
const RAW_EXTENSION: &str = "io.k8s.apimachinery.pkg.runtime.RawExtension";

/// A position in a type.
#[derive(Clone, Copy, Debug)]
pub struct TypeRef<'a> {
    node: Node<'a>,
}

#[derive(Clone, Copy, Debug)]
enum Node<'a> {
    Def(&'a Schema, &'a str),
    Field(&'a Schema, &'a Field),
    Shape(&'a Schema, &'a Shape),
    /// A node of an `openAPIV3Schema`; `root` types `metadata` as `ObjectMeta`.
    OpenApi(&'a Schema, &'a Value, bool),
    Deduced,
    Scalar,
}

/// How a list's items are told apart.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ListKind<'a> {
    /// Replaced whole.
    Atomic,
    /// Scalars, each its own item (`v:`).
    Set,
    /// Objects told apart by these fields (`k:`), each with the default that stands in
    /// when an item leaves it out.
    Map(Vec<(&'a str, Option<&'a Value>)>),
}

/// What a position holds.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Structure<'a> {
    /// A scalar, or a value replaced whole.
    Atomic,
    /// An object with named fields.
    Struct,
    /// An object from keys to values of one type.
    Map,
    /// A list, merged per its kind.
    List(ListKind<'a>),
}

impl<'a> TypeRef<'a> {
    /// The root type of built-in `apiVersion`/`kind` in `schema` (the table's key,
    /// `v1/Pod`, `apps/v1/Deployment`).
    pub fn builtin(schema: &'a Schema, api_version: &str, kind: &str) -> Option<Self> {
        let name = schema.roots.get(&format!("{api_version}/{kind}"))?;
        Some(Self {
            node: Node::Def(schema, name),
        })
    }

    /// The root type of a custom resource with this `openAPIV3Schema`; its `metadata` is
    /// `ObjectMeta` from `schema` (the built-in table).
    pub fn custom_resource(schema: &'a Schema, open_api_v3: &'a Value) -> Self {
        Self {
            node: Node::OpenApi(schema, open_api_v3, true),
        }
    }

    /// A position without a schema: its structure is deduced from each value.
    pub fn deduced() -> Self {
        Self {
            node: Node::Deduced,
        }
    }

    fn at(node: Node<'a>) -> Self {
        Self { node }
    }

    /// What this position holds when its value is `value` (which only matters for
    /// deduced positions).
    pub fn structure(&self, value: Option<&Value>) -> Structure<'a> {
        match self.node {
            Node::Scalar => Structure::Atomic,
            Node::Deduced => match value {
                Some(Value::Object(_)) => Structure::Map,
                _ => Structure::Atomic,
            },
            Node::Def(schema, name) => def_structure(schema.definitions.get(name), name),
            Node::Shape(schema, shape) => shape_structure(schema, shape, None),
            Node::Field(schema, field) => shape_structure(schema, &field.shape, Some(field)),
            Node::OpenApi(_, v, _) => open_api_structure(v, value),
        }
    }

    /// The type of field `name` of this struct (or map entry `name` of this map).
    pub fn field(&self, name: &str) -> TypeRef<'a> {
        match self.node {
            Node::Def(schema, def) => def_field(schema, schema.definitions.get(def), name),
            Node::Field(schema, Field { shape, .. }) | Node::Shape(schema, shape) => match shape {
                Shape::Ref(def) => def_field(schema, schema.definitions.get(def), name),
                Shape::Map(value) => Self::at(Node::Shape(schema, value)),
                Shape::Scalar | Shape::List(_) => Self::at(Node::Scalar),
            },
            Node::OpenApi(schema, v, root) => {
                if root && name == "metadata" {
                    return Self::at(Node::Def(schema, OBJECT_META));
                }
                if let Some(prop) = v.get("properties").and_then(|p| p.get(name)) {
                    return Self::at(Node::OpenApi(schema, prop, false));
                }
                match v.get("additionalProperties") {
                    Some(additional @ Value::Object(_)) => {
                        Self::at(Node::OpenApi(schema, additional, false))
                    }
                    _ => Self::deduced(),
                }
            }
            Node::Deduced => Self::deduced(),
            Node::Scalar => Self::at(Node::Scalar),
        }
    }

    /// Whether `name` is a field the struct declares (its entries are not members of a
    /// field set unless they are leaves).
    pub fn declares(&self, name: &str) -> bool {
        match self.node {
            Node::Def(schema, def) => declares_in(schema.definitions.get(def)),
            Node::Field(schema, Field { shape, .. }) | Node::Shape(schema, shape) => match shape {
                Shape::Ref(def) => declares_in(schema.definitions.get(def)),
                _ => false,
            },
            Node::OpenApi(_, v, root) => {
                (root && name == "metadata")
                    || v.get("properties").and_then(|p| p.get(name)).is_some()
            }
            Node::Deduced | Node::Scalar => false,
        }
    }

    /// The Go zero value of this type as JSON, as kube-apiserver compares a create with
    /// it: non-pointer struct fields as zero objects, required pointers, lists and maps
    /// as `null`, scalars left out (they are leaves either way). Types without Go
    /// structure (custom resources) are `{}`.
    pub fn zero_value(&self) -> Value {
        let mut out = serde_json::Map::new();
        let def = match self.node {
            Node::Def(schema, name) => schema.definitions.get(name).map(|d| (schema, d)),
            Node::Field(
                schema,
                Field {
                    shape: Shape::Ref(name),
                    ..
                },
            )
            | Node::Shape(schema, Shape::Ref(name)) => {
                schema.definitions.get(name).map(|d| (schema, d))
            }
            _ => None,
        };
        if let Some((schema, def)) = def {
            for (name, field) in &def.fields {
                match field.zero.as_deref() {
                    Some("object") => {
                        let zero = TypeRef::at(Node::Field(schema, field)).zero_value();
                        out.insert(name.clone(), zero);
                    }
                    Some(_) => {
                        out.insert(name.clone(), Value::Null);
                    }
                    None => {}
                }
            }
        }
        Value::Object(out)
    }

    /// The type of this list's items.
    pub fn item(&self) -> TypeRef<'a> {
        match self.node {
            Node::Field(schema, Field { shape, .. }) | Node::Shape(schema, shape) => match shape {
                Shape::List(item) => Self::at(Node::Shape(schema, item)),
                _ => Self::deduced(),
            },
            Node::OpenApi(schema, v, _) => match v.get("items") {
                Some(items @ Value::Object(_)) => Self::at(Node::OpenApi(schema, items, false)),
                _ => Self::deduced(),
            },
            _ => Self::deduced(),
        }
    }
}

/// Fields the table does not list hold strings, numbers or booleans.
fn def_field<'a>(schema: &'a Schema, def: Option<&'a Definition>, name: &str) -> TypeRef<'a> {
    match def.and_then(|d| d.fields.get(name)) {
        Some(field) => TypeRef::at(Node::Field(schema, field)),
        None => TypeRef::at(Node::Scalar),
    }
}

/// The table lists the fields that hold objects, lists or maps, and omits the scalars;
/// decoding drops fields a built-in type does not have, so every field of an object of a
/// known definition is one it declares.
fn declares_in(def: Option<&Definition>) -> bool {
    def.is_some()
}

fn is_atomic(map_type: Option<&String>) -> bool {
    map_type.is_some_and(|t| t == "atomic")
}

fn def_structure<'a>(def: Option<&Definition>, name: &str) -> Structure<'a> {
    if name == RAW_EXTENSION {
        return Structure::Atomic;
    }
    match def {
        Some(d) if is_atomic(d.map_type.as_ref()) => Structure::Atomic,
        _ => Structure::Struct,
    }
}

fn shape_structure<'a>(
    schema: &'a Schema,
    shape: &'a Shape,
    field: Option<&'a Field>,
) -> Structure<'a> {
    match shape {
        Shape::Scalar => Structure::Atomic,
        Shape::Ref(name) => {
            if field.is_some_and(|f| is_atomic(f.map_type.as_ref())) {
                Structure::Atomic
            } else {
                def_structure(schema.definitions.get(name), name)
            }
        }
        Shape::Map(_) => {
            if field.is_some_and(|f| is_atomic(f.map_type.as_ref())) {
                Structure::Atomic
            } else {
                Structure::Map
            }
        }
        Shape::List(_) => Structure::List(field.map_or(ListKind::Atomic, field_list_kind)),
    }
}

/// A list field's kind: `x-kubernetes-list-type`, else (as kube-openapi converts older
/// schemas) a `merge` patch strategy with a merge key is a map list, without one a set;
/// anything else is atomic.
fn field_list_kind(field: &Field) -> ListKind<'_> {
    match field.list_type.as_deref() {
        Some("set") => ListKind::Set,
        Some("map") => ListKind::Map(
            field
                .list_map_keys
                .iter()
                .flatten()
                .map(|k| {
                    let default = field.list_map_key_defaults.as_ref().and_then(|d| d.get(k));
                    (k.as_str(), default)
                })
                .collect(),
        ),
        Some(_) => ListKind::Atomic,
        None => match (field.patch_strategy.as_deref(), &field.patch_merge_key) {
            (Some(s), key) if s.split(',').any(|p| p == "merge") => match key {
                Some(key) => ListKind::Map(vec![(key.as_str(), None)]),
                None => ListKind::Set,
            },
            _ => ListKind::Atomic,
        },
    }
}

fn open_api_structure<'a>(v: &'a Value, value: Option<&Value>) -> Structure<'a> {
    let flag = |k: &str| v.get(k).and_then(Value::as_bool).unwrap_or(false);
    if flag("x-kubernetes-int-or-string") {
        return Structure::Atomic;
    }
    let atomic_map = v.get("x-kubernetes-map-type").and_then(Value::as_str) == Some("atomic");
    match v.get("type").and_then(Value::as_str) {
        Some("object") => {
            let has_properties = v
                .get("properties")
                .and_then(Value::as_object)
                .is_some_and(|p| !p.is_empty());
            if atomic_map {
                Structure::Atomic
            } else if has_properties || flag("x-kubernetes-embedded-resource") {
                Structure::Struct
            } else {
                Structure::Map
            }
        }
        Some("array") => Structure::List(
            match v.get("x-kubernetes-list-type").and_then(Value::as_str) {
                Some("set") => ListKind::Set,
                Some("map") => ListKind::Map(
                    v.get("x-kubernetes-list-map-keys")
                        .and_then(Value::as_array)
                        .into_iter()
                        .flatten()
                        .filter_map(Value::as_str)
                        .map(|k| {
                            let default = v
                                .get("items")
                                .and_then(|i| i.get("properties"))
                                .and_then(|p| p.get(k))
                                .and_then(|p| p.get("default"));
                            (k, default)
                        })
                        .collect(),
                ),
                _ => ListKind::Atomic,
            },
        ),
        Some(_) => Structure::Atomic,
        None => TypeRef::deduced().structure(value),
    }
}
