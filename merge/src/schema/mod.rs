//! The merge rules of Kubernetes types: for each field that holds an object, a list or a
//! map, its type, its patch strategy and merge key (`x-kubernetes-patch-strategy`,
//! `x-kubernetes-patch-merge-key`) and the list and map types server-side apply uses
//! (`x-kubernetes-list-type`, `x-kubernetes-list-map-keys`, `x-kubernetes-map-type`).
//!
//! [`builtin`] is the table of the built-in types, derived from the Kubernetes OpenAPI
//! document and checked in (`src/schema/builtin.json`; the `schema_drift` test derives it
//! again and fails when it differs). Fields holding only a string, number or boolean are
//! not in the table: they have no merge rules.

use std::collections::BTreeMap;
use std::sync::LazyLock;

use serde::Deserialize;

/// The checked-in table of the built-in types.
const BUILTIN_JSON: &str = include_str!("builtin.json");

static BUILTIN: LazyLock<Result<Schema, String>> = LazyLock::new(|| {
    serde_json::from_str(BUILTIN_JSON).map_err(|e| format!("src/schema/builtin.json: {e}"))
});

/// The table of the built-in Kubernetes types (Kubernetes v1.36), parsed on first use.
///
/// # Panics
///
/// Never at run time for a table that passes this crate's tests: the table is compiled
/// in, and the `schema_drift` and unit tests parse it.
pub fn builtin() -> &'static Schema {
    match &*BUILTIN {
        Ok(schema) => schema,
        // The table is part of the crate's source, not input: a table that does not parse
        // is a build defect the crate's own tests catch.
        Err(e) => panic!("the built-in schema table does not parse: {e}"),
    }
}

/// A table of types: the root type of each patchable kind and the definitions reachable
/// from them.
#[derive(Clone, Debug, Default, PartialEq, Eq, Deserialize)]
pub struct Schema {
    /// Where the table was derived from.
    #[serde(default)]
    pub source: String,
    /// The root definition of each patchable kind, keyed `apiVersion/Kind` (`v1/Pod`,
    /// `apps/v1/Deployment`).
    pub roots: BTreeMap<String, String>,
    /// The definitions, by OpenAPI name (`io.k8s.api.core.v1.PodSpec`).
    pub definitions: BTreeMap<String, Definition>,
}

/// One object type.
#[derive(Clone, Debug, Default, PartialEq, Eq, Deserialize)]
pub struct Definition {
    /// Its fields that hold objects, lists or maps, by JSON name.
    #[serde(default)]
    pub fields: BTreeMap<String, Field>,
    /// `x-kubernetes-map-type` of the type (`atomic` or `granular`).
    #[serde(default, rename = "mapType")]
    pub map_type: Option<String>,
}

/// One field of an object type.
#[derive(Clone, Debug, PartialEq, Eq, Deserialize)]
pub struct Field {
    /// What the field holds.
    #[serde(rename = "type")]
    pub shape: Shape,
    /// `x-kubernetes-patch-strategy`, e.g. `merge` or `merge,retainKeys`.
    #[serde(default, rename = "patchStrategy")]
    pub patch_strategy: Option<String>,
    /// `x-kubernetes-patch-merge-key`, e.g. `name`.
    #[serde(default, rename = "patchMergeKey")]
    pub patch_merge_key: Option<String>,
    /// `x-kubernetes-list-type`: `atomic`, `set` or `map`.
    #[serde(default, rename = "listType")]
    pub list_type: Option<String>,
    /// `x-kubernetes-list-map-keys` of a `map` list.
    #[serde(default, rename = "listMapKeys")]
    pub list_map_keys: Option<Vec<String>>,
    /// `x-kubernetes-map-type` of the field: `atomic` or `granular`.
    #[serde(default, rename = "mapType")]
    pub map_type: Option<String>,
    /// What the Go zero value of the containing type holds here: `object` (an empty
    /// object: a non-pointer struct) or `null` (a required pointer, list or map); absent
    /// when the zero value leaves the field out. Creates are compared with the zero value,
    /// so this decides which new objects `managedFields` record as added themselves.
    #[serde(default)]
    pub zero: Option<String>,
    /// The defaults of a `map` list's key fields, by key: an item that leaves a key out
    /// is named by its default (`protocol: TCP` of a container port).
    #[serde(default, rename = "listMapKeyDefaults")]
    pub list_map_key_defaults: Option<BTreeMap<String, serde_json::Value>>,
}

/// What a field, a list item or a map value holds.
#[derive(Clone, Debug, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Shape {
    /// A string, number, boolean or a value without structure (e.g. `IntOrString`).
    Scalar,
    /// An object of the named definition.
    Ref(String),
    /// A list of these.
    List(Box<Shape>),
    /// A map from strings to these.
    Map(Box<Shape>),
}

impl Shape {
    /// The name Go's `reflect.Kind` gives this shape, as kube-apiserver's messages use it.
    fn go_kind(&self) -> &'static str {
        match self {
            Self::Scalar => "string",
            Self::Ref(_) => "struct",
            Self::List(_) => "slice",
            Self::Map(_) => "map",
        }
    }
}

/// A field's patch strategies and merge key.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct PatchMeta<'a> {
    /// The strategy as written (`merge`, `replace`, `retainKeys`, `merge,retainKeys`, or
    /// empty).
    pub strategy: &'a str,
    /// The merge key, empty for none.
    pub merge_key: &'a str,
}

impl<'a> PatchMeta<'a> {
    /// The strategies, split at commas (an empty strategy is one empty entry, as Go's
    /// `strings.Split` gives it).
    pub fn strategies(&self) -> Vec<&'a str> {
        self.strategy.split(',').collect()
    }
}

/// Why a field's merge rules could not be looked up (kube-apiserver answers these with
/// a 500 carrying the message).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum LookupError {
    /// An object was merged into a field that is not an object type.
    #[error("merging an object in json but data type is not struct, instead is: {0}")]
    NotStruct(&'static str),
    /// A list was merged into a field that is not a list.
    #[error("expected slice or array type, but got: {0}")]
    NotSlice(&'static str),
    /// A list of lists.
    #[error("unexpected slice of slice")]
    SliceOfSlice,
}

/// A position in a [`Schema`]: the type of the value being merged.
///
/// A position the table does not describe (a field it has no entry for, inside a type
/// without fields) gives no merge rules: maps merge key by key, lists are replaced.
#[derive(Clone, Copy, Debug)]
pub struct SchemaRef<'a> {
    schema: &'a Schema,
    node: Node<'a>,
}

#[derive(Clone, Copy, Debug)]
enum Node<'a> {
    Def(&'a str),
    Shape(&'a Shape),
    Unknown,
}

impl<'a> SchemaRef<'a> {
    /// The root type of `apiVersion/Kind` (`v1/Pod`, `apps/v1/Deployment`), if the table
    /// has it.
    pub fn root(schema: &'a Schema, api_version: &str, kind: &str) -> Option<Self> {
        let name = schema.roots.get(&format!("{api_version}/{kind}"))?;
        Some(Self::definition(schema, name))
    }

    /// The named definition (`io.k8s.api.core.v1.PodSpec`); a name the table does not
    /// have gives no merge rules.
    pub fn definition(schema: &'a Schema, name: &'a str) -> Self {
        Self {
            schema,
            node: Node::Def(name),
        }
    }

    /// A position without merge rules: maps merge key by key, lists are replaced (JSON
    /// merge patch semantics plus the directives).
    pub fn untyped(schema: &'a Schema) -> Self {
        Self {
            schema,
            node: Node::Unknown,
        }
    }

    fn at(self, node: Node<'a>) -> Self {
        Self {
            schema: self.schema,
            node,
        }
    }

    fn def(&self) -> Option<&'a Definition> {
        let name = match self.node {
            Node::Def(name) => name,
            Node::Shape(Shape::Ref(name)) => name.as_str(),
            _ => return None,
        };
        self.schema.definitions.get(name)
    }

    /// The type and merge rules of field `key` of this object type (Go's
    /// `LookupPatchMetadataForStruct`).
    pub fn field(self, key: &str) -> Result<(Self, PatchMeta<'a>), LookupError> {
        match self.node {
            Node::Shape(shape @ (Shape::Map(_) | Shape::List(_) | Shape::Scalar)) => {
                return Err(LookupError::NotStruct(shape.go_kind()));
            }
            Node::Unknown => return Ok((self, PatchMeta::default())),
            Node::Def(_) | Node::Shape(Shape::Ref(_)) => {}
        }
        let Some(field) = self.def().and_then(|d| d.fields.get(key)) else {
            return Ok((self.at(Node::Unknown), PatchMeta::default()));
        };
        let meta = PatchMeta {
            strategy: field.patch_strategy.as_deref().unwrap_or(""),
            merge_key: field.patch_merge_key.as_deref().unwrap_or(""),
        };
        Ok((self.at(Node::Shape(&field.shape)), meta))
    }

    /// The item type and merge rules of list field `key` of this object type (Go's
    /// `LookupPatchMetadataForSlice`).
    pub fn list_field(self, key: &str) -> Result<(Self, PatchMeta<'a>), LookupError> {
        let (field, meta) = self.field(key)?;
        match field.node {
            Node::Shape(Shape::List(item)) => match **item {
                Shape::List(_) => Err(LookupError::SliceOfSlice),
                ref item => Ok((self.at(Node::Shape(item)), meta)),
            },
            Node::Unknown => Ok((field, meta)),
            // Go names the kind of the type the field was looked up in, an object type.
            Node::Shape(_) | Node::Def(_) => Err(LookupError::NotSlice("struct")),
        }
    }

    /// The name Go's `reflect.Kind` gives this type (`struct`, `map`, ...), as
    /// kube-apiserver's messages use it.
    pub fn kind_name(&self) -> &'static str {
        match self.node {
            Node::Def(_) => "struct",
            Node::Shape(shape) => shape.go_kind(),
            Node::Unknown => "interface",
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn builtin_table_parses_and_has_the_workload_roots() {
        let schema = builtin();
        let deployment = SchemaRef::root(schema, "apps/v1", "Deployment").unwrap();
        let (spec, _) = deployment.field("spec").unwrap();
        let (strategy, meta) = spec.field("strategy").unwrap();
        assert_eq!(meta.strategy, "retainKeys");
        assert_eq!(strategy.kind_name(), "struct");
        let (template, _) = spec.field("template").unwrap();
        let (pod_spec, _) = template.field("spec").unwrap();
        let (container, meta) = pod_spec.list_field("containers").unwrap();
        assert_eq!((meta.strategy, meta.merge_key), ("merge", "name"));
        let (_, meta) = container.list_field("env").unwrap();
        assert_eq!((meta.strategy, meta.merge_key), ("merge", "name"));
        let (_, meta) = pod_spec.list_field("volumes").unwrap();
        assert_eq!(meta.strategies(), ["merge", "retainKeys"]);
        let (_, meta) = pod_spec.list_field("tolerations").unwrap();
        assert_eq!(meta.strategy, "");
        assert!(SchemaRef::root(schema, "autoscaling/v1", "Scale").is_some());
        assert!(SchemaRef::root(schema, "v1", "Pod").is_some());
    }

    #[test]
    fn lookups_inside_maps_fail_as_go_reflection_does() {
        let schema = builtin();
        let pod = SchemaRef::root(schema, "v1", "Pod").unwrap();
        let (meta, _) = pod.field("metadata").unwrap();
        let (labels, _) = meta.field("labels").unwrap();
        assert_eq!(
            labels.field("x").unwrap_err().to_string(),
            "merging an object in json but data type is not struct, instead is: map"
        );
        let (finalizers, _) = meta.list_field("finalizers").unwrap();
        assert_eq!(finalizers.kind_name(), "string");
        assert_eq!(
            meta.list_field("labels").unwrap_err().to_string(),
            "expected slice or array type, but got: struct"
        );
    }
}
