//! A schema node as CEL's checker declares it (apiserver's `DeclType`, built by
//! `SchemaDeclType`): the CEL type a rule sees for the node, and the two sizes the
//! static cost estimate works from, the most elements a value of it can hold in one
//! request (`MaxElements`) and the fewest bytes it takes serialized
//! (`MinSerializedSize`).

use std::collections::BTreeMap;

use serde_json::Value;

use super::value::escape;
use crate::schema::{Additional, JsonType, Schema};

/// `celconfig.MaxRequestSizeBytes`: 3 MiB.
pub(super) const MAX_REQUEST_SIZE_BYTES: i64 = 3 * 1024 * 1024;

const MAX_DURATION_SIZE_JSON: i64 = 32;
const MAX_DATETIME_SIZE_JSON: i64 = 32;
const MIN_DURATION_SIZE_JSON: i64 = 3;
const JSON_DATE_SIZE: i64 = 12;
const MIN_DATETIME_SIZE_JSON: i64 = 21;
const MIN_STRING_SIZE: i64 = 2;
const MIN_BOOL_SIZE: i64 = 4;
const MIN_NUMBER_SIZE: i64 = 1;

/// A map's key: apiserver's `StringType`, which has no `MaxElements`.
static MAP_KEY: Decl = Decl {
    kind: DeclKind::String,
    max_elements: 0,
    min_serialized_size: MIN_STRING_SIZE,
};

/// What kind of CEL value a declared node holds.
#[derive(Debug)]
pub(super) enum DeclKind {
    /// `x-kubernetes-int-or-string`.
    Dyn,
    Bool,
    Int,
    Double,
    String,
    Bytes,
    Duration,
    Timestamp,
    /// An array of its `items`.
    List(Box<Decl>),
    /// An object with an `additionalProperties` schema: string keys to its values.
    Map(Box<Decl>),
    /// An object with (possibly no) declared properties, by their escaped CEL names.
    /// Properties whose schema CEL cannot type (no `type`) are left out, as are
    /// names that do not escape.
    Object(BTreeMap<String, Decl>),
}

/// One declared node.
#[derive(Debug)]
pub(super) struct Decl {
    pub kind: DeclKind,
    /// `MaxElements`: a string's or bytes' length in bytes, a list's items, a map's
    /// entries; 0 for scalars and objects.
    pub max_elements: i64,
    /// `MinSerializedSize`.
    pub min_serialized_size: i64,
}

impl Decl {
    /// `SchemaDeclType(s, isResourceRoot)`; none for a node CEL cannot type (no
    /// `type`, or an array without `items`).
    pub fn of(s: &Schema, resource_root: bool) -> Option<Decl> {
        if s.types == [JsonType::Integer, JsonType::String] {
            let max = match s.max_length {
                Some(n) => zero_if_negative(n).saturating_mul(4),
                None => MAX_REQUEST_SIZE_BYTES - 2,
            };
            return Some(Decl::simple(DeclKind::Dyn, 1, max));
        }
        let ty = match s.types.as_slice() {
            [t] => *t,
            _ => return None,
        };
        Some(match ty {
            JsonType::Array => {
                let items = s.items.as_deref()?;
                let elem = Decl::of(items, items.embedded)?;
                let max = match s.max_items {
                    Some(n) => zero_if_negative(n),
                    None => (MAX_REQUEST_SIZE_BYTES - 2) / (elem.min_serialized_size + 1),
                };
                Decl {
                    kind: DeclKind::List(Box::new(elem)),
                    max_elements: max,
                    min_serialized_size: 2,
                }
            }
            JsonType::Object => match &s.additional {
                Some(Additional::Schema(values)) => {
                    let elem = Decl::of(values, values.embedded)?;
                    let max = match s.max_properties {
                        Some(n) => zero_if_negative(n),
                        None => (MAX_REQUEST_SIZE_BYTES - 2) / (elem.min_serialized_size + 6),
                    };
                    Decl {
                        kind: DeclKind::Map(Box::new(elem)),
                        max_elements: max,
                        min_serialized_size: 2,
                    }
                }
                _ => Decl::object(s, resource_root),
            },
            JsonType::String => Decl::string(s),
            JsonType::Boolean => Decl::simple(DeclKind::Bool, MIN_BOOL_SIZE, 0),
            JsonType::Number => Decl::simple(DeclKind::Double, MIN_NUMBER_SIZE, 0),
            JsonType::Integer => Decl::simple(DeclKind::Int, MIN_NUMBER_SIZE, 0),
            JsonType::Null => return None,
        })
    }

    fn simple(kind: DeclKind, min_serialized_size: i64, max_elements: i64) -> Decl {
        Decl {
            kind,
            max_elements,
            min_serialized_size,
        }
    }

    fn object(s: &Schema, resource_root: bool) -> Decl {
        let mut fields = BTreeMap::new();
        let mut min_size = 2;
        for (name, prop) in &s.properties {
            let Some(field) = Decl::of(prop, prop.embedded) else {
                continue;
            };
            if s.required.contains(name) && prop.default.is_none() {
                min_size += name.len() as i64 + field.min_serialized_size + 4;
            }
            if let Some(escaped) = escape(name) {
                fields.insert(escaped, field);
            }
        }
        if resource_root || s.embedded {
            // `WithTypeAndObjectMeta`: the root and embedded resources always show
            // `apiVersion`, `kind` and a `metadata` of `name` and `generateName`.
            let string = || {
                Decl::simple(
                    DeclKind::String,
                    MIN_STRING_SIZE,
                    MAX_REQUEST_SIZE_BYTES - 2,
                )
            };
            fields.insert("apiVersion".to_owned(), string());
            fields.insert("kind".to_owned(), string());
            let meta = BTreeMap::from([
                ("name".to_owned(), string()),
                ("generateName".to_owned(), string()),
            ]);
            fields.insert(
                "metadata".to_owned(),
                Decl::simple(DeclKind::Object(meta), 2, 0),
            );
        }
        Decl::simple(DeclKind::Object(fields), min_size, 0)
    }

    fn string(s: &Schema) -> Decl {
        let per_request = match s.format.as_deref() {
            Some("duration") => MAX_DURATION_SIZE_JSON,
            Some("date") => JSON_DATE_SIZE,
            Some("date-time") => MAX_DATETIME_SIZE_JSON,
            _ => MAX_REQUEST_SIZE_BYTES - 2,
        };
        let from_max_length = s.max_length.map(|n| zero_if_negative(n).saturating_mul(4));
        match s.format.as_deref() {
            Some("byte") => Decl::simple(
                DeclKind::Bytes,
                MIN_STRING_SIZE,
                s.max_length.map_or(per_request, zero_if_negative),
            ),
            Some("duration") => {
                Decl::simple(DeclKind::Duration, MIN_DURATION_SIZE_JSON, per_request)
            }
            Some("date") => Decl::simple(DeclKind::Timestamp, JSON_DATE_SIZE, per_request),
            Some("date-time") => {
                Decl::simple(DeclKind::Timestamp, MIN_DATETIME_SIZE_JSON, per_request)
            }
            _ => {
                let max = from_max_length.unwrap_or_else(|| {
                    if s.enum_values.is_empty() {
                        per_request
                    } else {
                        s.enum_values
                            .iter()
                            .filter_map(Value::as_str)
                            .map(|e| e.len() as i64)
                            .max()
                            .unwrap_or(0)
                    }
                });
                Decl::simple(DeclKind::String, MIN_STRING_SIZE, max)
            }
        }
    }

    /// The node a cost-estimate path names below this one: a field name, `@items`
    /// (a list's element), `@values` (a map's value) or `@keys` (a map's key, which
    /// apiserver declares as a plain `string` with no size).
    pub fn at(&self, step: &str) -> Option<&Decl> {
        match (&self.kind, step) {
            (DeclKind::List(elem), "@items") | (DeclKind::Map(elem), "@values") => Some(elem),
            (DeclKind::Map(_), "@keys") => Some(&MAP_KEY),
            (DeclKind::Object(fields), name) => fields.get(name),
            _ => None,
        }
    }
}

fn zero_if_negative(v: i64) -> i64 {
    v.max(0)
}

#[cfg(test)]
mod tests {
    use super::{Decl, DeclKind, MAX_REQUEST_SIZE_BYTES};
    use crate::schema::Schema;

    fn decl(schema: serde_json::Value, root: bool) -> Decl {
        let s = Schema::compile(&schema, "s", &mut Vec::new());
        Decl::of(&s, root).expect("declarable")
    }

    #[test]
    fn unbounded_lists_are_sized_from_the_request_limit() {
        let d = decl(
            serde_json::json!({"type": "array", "items": {"type": "string"}}),
            false,
        );
        assert_eq!(d.max_elements, (MAX_REQUEST_SIZE_BYTES - 2) / 3);
        let DeclKind::List(elem) = &d.kind else {
            panic!("a list: {d:?}")
        };
        assert_eq!(elem.max_elements, MAX_REQUEST_SIZE_BYTES - 2);
    }

    #[test]
    fn declared_limits_win_and_strings_count_four_bytes_a_character() {
        let d = decl(
            serde_json::json!({"type": "object", "required": ["name"], "properties": {
                "name": {"type": "string", "maxLength": 10},
                "tags": {"type": "array", "maxItems": 5, "items": {"type": "string", "enum": ["a", "bcd"]}},
                "labels": {"type": "object", "maxProperties": 3, "additionalProperties": {"type": "string"}},
                "untyped": {"x-kubernetes-preserve-unknown-fields": true},
            }}),
            true,
        );
        assert_eq!(d.min_serialized_size, 2 + 4 + 2 + 4);
        assert_eq!(d.at("name").map(|n| n.max_elements), Some(40));
        let tags = d.at("tags").expect("tags");
        assert_eq!(tags.max_elements, 5);
        assert_eq!(tags.at("@items").map(|n| n.max_elements), Some(3));
        assert_eq!(d.at("labels").map(|n| n.max_elements), Some(3));
        assert!(
            d.at("untyped").is_none(),
            "a node without a type is left out"
        );
        assert!(d
            .at("metadata")
            .and_then(|m| m.at("generateName"))
            .is_some());
    }
}
