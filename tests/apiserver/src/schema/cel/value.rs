//! A JSON value as CEL sees it under its structural schema (apiextensions-apiserver's
//! `UnstructuredToVal`): objects with declared properties are messages whose field
//! names are escaped, `additionalProperties` objects are maps, `integer` is `int` and
//! `number` `double`, `date-time` strings are timestamps, `duration` strings durations,
//! `byte` strings bytes; int-or-string and unknown fields are `dyn`.

use std::collections::HashMap;
use std::sync::Arc;

use base64::Engine;
use cel::objects::{Key, Map};
use cel::Value as Cel;
use serde_json::Value;

use super::super::{Additional, JsonType, Schema};

/// CEL's reserved words: a property so named is reachable as `__name__`.
const RESERVED: &[&str] = &[
    "true",
    "false",
    "null",
    "in",
    "as",
    "break",
    "const",
    "continue",
    "else",
    "for",
    "function",
    "if",
    "import",
    "let",
    "loop",
    "package",
    "namespace",
    "return",
    "var",
    "void",
    "while",
];

/// The CEL field name of property `name` (`escaping.go`): reserved words become
/// `__word__`; `__`, `.`, `-` and `/` become `__underscores__`, `__dot__`, `__dash__`
/// and `__slash__`; a name with other characters is not reachable from CEL (none).
pub(super) fn escape(name: &str) -> Option<String> {
    if RESERVED.contains(&name) {
        return Some(format!("__{name}__"));
    }
    let mut chars = name.chars();
    let first_ok = chars
        .next()
        .is_some_and(|c| c.is_ascii_alphabetic() || matches!(c, '_' | '.' | '-' | '/'));
    let rest_ok = chars.all(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '.' | '-' | '/'));
    if !first_ok || !rest_ok {
        return None;
    }
    let mut out = String::with_capacity(name.len());
    let mut rest = name;
    while let Some(c) = rest.chars().next() {
        if let Some(after) = rest.strip_prefix("__") {
            out.push_str("__underscores__");
            rest = after;
            continue;
        }
        match c {
            '.' => out.push_str("__dot__"),
            '-' => out.push_str("__dash__"),
            '/' => out.push_str("__slash__"),
            other => out.push(other),
        }
        rest = &rest[c.len_utf8()..];
    }
    Some(out)
}

fn map(entries: HashMap<Key, Cel>) -> Cel {
    Cel::Map(Map {
        map: Arc::new(entries),
    })
}

fn string_key(k: &str) -> Key {
    Key::String(Arc::new(k.to_owned()))
}

/// `v` as CEL value typed by `s` (`None`: no schema, every value as JSON decodes it);
/// a `resource` (the object's root) shows `apiVersion`, `kind` and `metadata.name` and
/// `generateName` whatever its schema declares, as embedded resources do.
pub(super) fn to_cel(s: Option<&Schema>, v: &Value, resource: bool) -> Cel {
    let Some(s) = s else {
        return untyped(v);
    };
    match v {
        Value::Null => Cel::Null,
        Value::Bool(b) => Cel::Bool(*b),
        Value::Number(n) => {
            let declared_number = s.types == [JsonType::Number];
            match n.as_i64() {
                Some(i) if !declared_number => Cel::Int(i),
                _ => match n.as_f64() {
                    Some(f) if s.types == [JsonType::Integer] && f.fract() == 0.0 => {
                        Cel::Int(f as i64)
                    }
                    Some(f) => Cel::Float(f),
                    None => Cel::Null,
                },
            }
        }
        Value::String(text) => string(s, text),
        Value::Array(items) => Cel::List(Arc::new(
            items
                .iter()
                .map(|i| to_cel(s.items.as_deref(), i, false))
                .collect(),
        )),
        Value::Object(fields) => object(s, fields, resource),
    }
}

fn string(s: &Schema, text: &str) -> Cel {
    let plain = || Cel::String(Arc::new(text.to_owned()));
    if s.types != [JsonType::String] {
        return plain();
    }
    match s.format.as_deref() {
        Some("date-time") => chrono::DateTime::parse_from_rfc3339(text)
            .map(Cel::Timestamp)
            .unwrap_or_else(|_| plain()),
        Some("duration") => super::library::parse_duration(text)
            .map(Cel::Duration)
            .unwrap_or_else(plain),
        Some("byte") => base64::engine::general_purpose::STANDARD
            .decode(text)
            .map(|b| Cel::Bytes(Arc::new(b)))
            .unwrap_or_else(|_| plain()),
        _ => plain(),
    }
}

fn object(s: &Schema, fields: &serde_json::Map<String, Value>, resource: bool) -> Cel {
    let embedded = s.embedded || resource;
    if let Some(Additional::Schema(values)) = &s.additional {
        return map(fields
            .iter()
            .map(|(k, v)| (string_key(k), to_cel(Some(values), v, false)))
            .collect());
    }
    if s.properties.is_empty() && !embedded {
        return untyped(&Value::Object(fields.clone()));
    }
    let mut out = HashMap::new();
    for (k, v) in fields {
        let Some(name) = escape(k) else {
            continue;
        };
        let value = match (s.properties.get(k), k.as_str()) {
            (_, "apiVersion" | "kind") if embedded => untyped(v),
            (_, "metadata") if embedded => embedded_metadata(v),
            (Some(prop), _) => to_cel(Some(prop), v, false),
            (None, _) => continue,
        };
        out.insert(string_key(&name), value);
    }
    map(out)
}

/// An embedded resource's `metadata` as CEL sees it: only `name` and `generateName`.
fn embedded_metadata(v: &Value) -> Cel {
    let mut out = HashMap::new();
    for k in ["name", "generateName"] {
        if let Some(Value::String(s)) = v.get(k) {
            out.insert(string_key(k), Cel::String(Arc::new(s.clone())));
        }
    }
    map(out)
}

/// A value without a schema (`x-kubernetes-preserve-unknown-fields`), as `dyn`.
pub(super) fn untyped(v: &Value) -> Cel {
    match v {
        Value::Null => Cel::Null,
        Value::Bool(b) => Cel::Bool(*b),
        Value::Number(n) => match n.as_i64() {
            Some(i) => Cel::Int(i),
            None => Cel::Float(n.as_f64().unwrap_or_default()),
        },
        Value::String(s) => Cel::String(Arc::new(s.clone())),
        Value::Array(items) => Cel::List(Arc::new(items.iter().map(untyped).collect())),
        Value::Object(fields) => map(fields
            .iter()
            .map(|(k, v)| (string_key(k), untyped(v)))
            .collect()),
    }
}

#[cfg(test)]
mod tests {
    use super::escape;

    #[test]
    fn property_names_escape_as_kubernetes_escapes_them() {
        assert_eq!(escape("namespace").as_deref(), Some("__namespace__"));
        assert_eq!(escape("foo-bar").as_deref(), Some("foo__dash__bar"));
        assert_eq!(escape("a.b/c").as_deref(), Some("a__dot__b__slash__c"));
        assert_eq!(escape("x__y").as_deref(), Some("x__underscores__y"));
        assert_eq!(escape("plain").as_deref(), Some("plain"));
        assert_eq!(escape("1abc"), None);
        assert_eq!(escape("a b"), None);
    }
}
