//! Structural schemas of custom resources, compiled once per CRD version: the
//! apiextensions-apiserver's decode path (pruning of unknown fields, dropping of
//! non-nullable nulls, defaulting) and its validation (kube-openapi's schema
//! validator, list types, embedded resources), with the real server's messages.

pub(crate) mod cel;
mod defaults;
mod extensions;
pub(crate) mod field;
mod format;
mod prune;
mod regexp;
mod structural;
mod validate;

use std::collections::BTreeMap;

use regex::Regex;
use serde_json::Value;

use field::FieldError;

pub(crate) use defaults::validate_defaults;
pub(crate) use prune::{default, prune, prune_nulls};
pub(crate) use structural::{unrepresentable, validate_structural};
pub(crate) use validate::{validate, validate_embedded, validate_list_types, ValidateOptions};

/// A JSON type a schema allows.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum JsonType {
    Object,
    Array,
    String,
    Integer,
    Number,
    Boolean,
    Null,
}

impl JsonType {
    fn parse(name: &str) -> Option<Self> {
        Some(match name {
            "object" => Self::Object,
            "array" => Self::Array,
            "string" => Self::String,
            "integer" => Self::Integer,
            "number" => Self::Number,
            "boolean" => Self::Boolean,
            "null" => Self::Null,
            _ => return None,
        })
    }

    pub fn name(self) -> &'static str {
        match self {
            Self::Object => "object",
            Self::Array => "array",
            Self::String => "string",
            Self::Integer => "integer",
            Self::Number => "number",
            Self::Boolean => "boolean",
            Self::Null => "null",
        }
    }
}

/// `additionalProperties`: a bool or a schema.
#[derive(Debug)]
pub(crate) enum Additional {
    Allows(bool),
    Schema(Box<Schema>),
}

/// `x-kubernetes-list-type`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum ListType {
    Atomic,
    Set,
    Map,
}

/// A `pattern`, compiled, or why it does not compile (kube-openapi reports that at
/// validation time).
#[derive(Debug)]
pub(crate) struct Pattern {
    pub source: String,
    pub regex: Result<Regex, String>,
}

/// One node of a compiled schema.
#[derive(Debug, Default)]
pub(crate) struct Schema {
    /// kube-openapi's `type` list (`[integer, string]` for int-or-string); empty: any.
    pub types: Vec<JsonType>,
    /// The format kube-openapi keeps (unsupported ones are stripped, as the CRD
    /// validator's post-processor does).
    pub format: Option<String>,
    pub nullable: bool,
    pub preserve_unknown: bool,
    pub embedded: bool,
    pub properties: BTreeMap<String, Schema>,
    pub additional: Option<Additional>,
    pub items: Option<Box<Schema>>,
    pub default: Option<Value>,
    pub required: Vec<String>,
    pub enum_values: Vec<Value>,
    pub pattern: Option<Pattern>,
    pub min_length: Option<i64>,
    pub max_length: Option<i64>,
    pub minimum: Option<f64>,
    pub maximum: Option<f64>,
    pub exclusive_minimum: bool,
    pub exclusive_maximum: bool,
    pub multiple_of: Option<f64>,
    pub min_items: Option<i64>,
    pub max_items: Option<i64>,
    pub unique_items: bool,
    pub min_properties: Option<i64>,
    pub max_properties: Option<i64>,
    pub any_of: Vec<Schema>,
    pub one_of: Vec<Schema>,
    pub all_of: Vec<Schema>,
    pub not: Option<Box<Schema>>,
    pub list_type: Option<ListType>,
    pub list_map_keys: Vec<String>,
    /// `x-kubernetes-validations`, compiled.
    pub rules: Vec<self::cel::Rule>,
}

impl Schema {
    /// Compiles an `openAPIV3Schema` (JSON), adding to `errs` what the CRD validator
    /// rejects in it (`path` names the node, as `spec.validation.openAPIV3Schema`).
    pub fn compile(v: &Value, path: &str, errs: &mut Vec<FieldError>) -> Self {
        let mut total = self::cel::TotalCost::default();
        let s = Schema::compile_node(v, path, &self::cel::RuleScope::root(), &mut total, errs);
        errs.extend(total.errors(path));
        s
    }

    /// Compiles the node at `path` of a schema; `scope` says where it sits for its
    /// validation rules, whose estimated costs add up in `total`.
    fn compile_node(
        v: &Value,
        path: &str,
        scope: &self::cel::RuleScope,
        total: &mut self::cel::TotalCost,
        errs: &mut Vec<FieldError>,
    ) -> Self {
        let mut s = Schema::default();
        let Some(map) = v.as_object() else {
            errs.push(FieldError::invalid(path, v.clone(), "must be an object"));
            return s;
        };
        let flag = |k: &str| map.get(k).and_then(Value::as_bool).unwrap_or(false);
        let int = |k: &str| map.get(k).and_then(Value::as_i64);
        let float = |k: &str| map.get(k).and_then(Value::as_f64);
        s.nullable = flag("nullable");
        s.preserve_unknown = flag("x-kubernetes-preserve-unknown-fields");
        s.embedded = flag("x-kubernetes-embedded-resource");
        let type_name = map.get("type").and_then(Value::as_str).unwrap_or("");
        if !type_name.is_empty() {
            match JsonType::parse(type_name).filter(|t| *t != JsonType::Null) {
                Some(t) => s.types.push(t),
                None => errs.push(FieldError::not_supported(
                    format!("{path}.type"),
                    Value::String(type_name.to_owned()),
                    &["array", "boolean", "integer", "number", "object", "string"]
                        .map(String::from),
                )),
            }
        }
        unsupported_keywords(map, path, type_name, errs);
        if flag("uniqueItems") {
            errs.push(FieldError::forbidden(
                format!("{path}.uniqueItems"),
                "uniqueItems cannot be set to true since the runtime complexity becomes quadratic",
            ));
        }
        if map.contains_key("properties")
            && map
                .get("additionalProperties")
                .is_some_and(Value::is_object)
        {
            errs.push(FieldError::forbidden(
                format!("{path}.additionalProperties"),
                "additionalProperties and properties are mutual exclusive",
            ));
        }
        if flag("x-kubernetes-int-or-string") {
            s.types = vec![JsonType::Integer, JsonType::String];
        }
        s.format = map
            .get("format")
            .and_then(Value::as_str)
            .filter(|f| !f.is_empty())
            .and_then(|f| format::kept(f, &s.types))
            .map(str::to_owned);
        if let Some(props) = map.get("properties").and_then(Value::as_object) {
            for (k, sub) in props {
                let child = scope.property(map, path);
                s.properties.insert(
                    k.clone(),
                    Schema::compile_node(
                        sub,
                        &format!("{path}.properties[{k}]"),
                        &child,
                        total,
                        errs,
                    ),
                );
            }
        }
        s.additional = match map.get("additionalProperties") {
            Some(Value::Bool(b)) => Some(Additional::Allows(*b)),
            Some(sub @ Value::Object(_)) => {
                Some(Additional::Schema(Box::new(Schema::compile_node(
                    sub,
                    &format!("{path}.additionalProperties"),
                    &scope.additional_properties(map),
                    total,
                    errs,
                ))))
            }
            _ => None,
        };
        if let Some(items) = map.get("items").filter(|i| i.is_object()) {
            s.items = Some(Box::new(Schema::compile_node(
                items,
                &format!("{path}.items"),
                &scope.items(map, path),
                total,
                errs,
            )));
        }
        s.default = map.get("default").cloned();
        s.required = strings(map.get("required"));
        s.enum_values = map
            .get("enum")
            .and_then(Value::as_array)
            .cloned()
            .unwrap_or_default();
        s.pattern = map.get("pattern").and_then(Value::as_str).map(|p| Pattern {
            source: p.to_owned(),
            regex: Regex::new(p).map_err(|e| e.to_string()),
        });
        s.min_length = int("minLength");
        s.max_length = int("maxLength");
        s.minimum = float("minimum");
        s.maximum = float("maximum");
        s.exclusive_minimum = flag("exclusiveMinimum");
        s.exclusive_maximum = flag("exclusiveMaximum");
        s.multiple_of = float("multipleOf");
        s.min_items = int("minItems");
        s.max_items = int("maxItems");
        s.unique_items = flag("uniqueItems");
        s.min_properties = int("minProperties");
        s.max_properties = int("maxProperties");
        for (key, list) in [
            ("anyOf", &mut s.any_of),
            ("oneOf", &mut s.one_of),
            ("allOf", &mut s.all_of),
        ] {
            if let Some(branches) = map.get(key).and_then(Value::as_array) {
                for (i, b) in branches.iter().enumerate() {
                    let branch = scope.branch();
                    list.push(Schema::compile_node(
                        b,
                        &format!("{path}.{key}[{i}]"),
                        &branch,
                        total,
                        errs,
                    ));
                }
            }
        }
        if let Some(not) = map.get("not").filter(|n| n.is_object()) {
            s.not = Some(Box::new(Schema::compile_node(
                not,
                &format!("{path}.not"),
                &scope.branch(),
                total,
                errs,
            )));
        }
        s.list_type = match map.get("x-kubernetes-list-type").and_then(Value::as_str) {
            Some("atomic") => Some(ListType::Atomic),
            Some("set") => Some(ListType::Set),
            Some("map") => Some(ListType::Map),
            _ => None,
        };
        s.list_map_keys = strings(map.get("x-kubernetes-list-map-keys"));
        // Go's walk checks a node's extensions after its children, before its rules.
        extensions::check(map, path, errs);
        let rules = self::cel::compile_rules(
            map.get("x-kubernetes-validations"),
            path,
            &s,
            scope,
            total,
            errs,
        );
        s.rules = rules;
        s
    }

    /// The schema of property `key` of an object of this schema (a declared property,
    /// else `additionalProperties`), as pruning and defaulting find it.
    pub fn field(&self, key: &str) -> Option<&Schema> {
        self.properties.get(key).or(match &self.additional {
            Some(Additional::Schema(s)) => Some(s),
            _ => None,
        })
    }
}

/// The keywords of JSON schema the CRD validator refuses at every node (the rest of
/// `specStandardValidatorV3.validate`): a structural schema has no references, no
/// tuple items and no pattern-keyed properties, which pruning could not follow.
fn unsupported_keywords(
    map: &serde_json::Map<String, Value>,
    path: &str,
    type_name: &str,
    errs: &mut Vec<FieldError>,
) {
    let set = |k: &str| match map.get(k) {
        None | Some(Value::Null) => false,
        Some(Value::String(s)) => !s.is_empty(),
        Some(Value::Object(o)) => !o.is_empty(),
        Some(_) => true,
    };
    for (key, detail) in [
        ("id", "id is not supported"),
        ("additionalItems", "additionalItems is not supported"),
        ("patternProperties", "patternProperties is not supported"),
        ("definitions", "definitions is not supported"),
        ("dependencies", "dependencies is not supported"),
        ("$ref", "$ref is not supported"),
    ] {
        if set(key) {
            errs.push(FieldError::forbidden(format!("{path}.{key}"), detail));
        }
    }
    if type_name == "null" {
        errs.push(FieldError::forbidden(
            format!("{path}.type"),
            "type cannot be set to null, use nullable as an alternative",
        ));
    }
    if map
        .get("items")
        .and_then(Value::as_array)
        .is_some_and(|l| !l.is_empty())
    {
        errs.push(FieldError::forbidden(
            format!("{path}.items"),
            "items must be a schema object and not an array",
        ));
    }
}

fn strings(v: Option<&Value>) -> Vec<String> {
    v.and_then(Value::as_array)
        .map(|l| {
            l.iter()
                .filter_map(Value::as_str)
                .map(str::to_owned)
                .collect()
        })
        .unwrap_or_default()
}
