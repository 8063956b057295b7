//! kube-openapi's schema validator as the CRD strategy runs it, with its messages and
//! their translation into field errors (`kubeOpenAPIResultToFieldErrors`); validation
//! ratcheting on updates; `x-kubernetes-list-type` uniqueness and embedded resources'
//! `apiVersion`/`kind`/`metadata` checks.

use serde_json::{json, Map, Value};

use super::field::{go_float, go_json, go_quote, ErrorType, FieldError};
use super::{format, Additional, JsonType, ListType, Schema};

/// Where the validated value sits in the object.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct ValidateOptions<'a> {
    /// The field path of the validated value (`status` for the status subresource's
    /// validator, none for the whole object).
    pub prefix: Option<&'a str>,
}

/// Validates `data` against `s` (the whole object, or `status` with the status
/// schema); with `old`, errors in parts equal to the old object's are dropped
/// (validation ratcheting).
pub(crate) fn validate(
    s: &Schema,
    data: &Value,
    old: Option<&Value>,
    opts: ValidateOptions<'_>,
) -> Vec<FieldError> {
    let mut v = Validator {
        prefix: opts.prefix,
        out: Vec::new(),
    };
    v.node(s, data, "", old);
    v.out
}

/// `schemaobjectmeta.Validate` below the root: each `x-kubernetes-embedded-resource`
/// object needs a string `apiVersion` and `kind` and a well-formed `metadata`.
pub(crate) fn validate_embedded(s: &Schema, obj: &Value) -> Vec<FieldError> {
    let mut errs = Vec::new();
    embedded_resources(s, obj, "", &mut errs);
    errs
}

struct Validator<'a> {
    prefix: Option<&'a str>,
    out: Vec<FieldError>,
}

/// The value kind kube-openapi sees (unstructured JSON: int64 or float64 numbers).
fn data_type(v: &Value) -> JsonType {
    match v {
        Value::Null => JsonType::Null,
        Value::Bool(_) => JsonType::Boolean,
        Value::Number(n) if n.as_i64().is_some() => JsonType::Integer,
        Value::Number(_) => JsonType::Number,
        Value::String(_) => JsonType::String,
        Value::Array(_) => JsonType::Array,
        Value::Object(_) => JsonType::Object,
    }
}

/// The format kube-openapi's type validator gives a value.
fn data_format(t: JsonType) -> &'static str {
    match t {
        JsonType::Integer => "int64",
        JsonType::Number => "double",
        _ => "",
    }
}

fn child(path: &str, name: &str) -> String {
    if path.is_empty() {
        name.to_owned()
    } else {
        format!("{path}.{name}")
    }
}

/// swag's `IsFloat64AJSONInteger`: integral within a relative 1e-9.
fn json_integer(f: f64) -> bool {
    if !f.is_finite() || f.abs() > 9.007_199_254_740_992e15 {
        return false;
    }
    let g = f.trunc();
    if f == g {
        return true;
    }
    let diff = (f - g).abs();
    diff / (f.abs() + g.abs()) < 1e-9
}

fn is_integral(f: f64) -> bool {
    f.is_finite() && f.fract() == 0.0 && f.abs() < 9.007_199_254_740_992e15
}

/// A bound or factor as kube-openapi's messages print it (`%v` of an int64 or float64).
fn bound(f: f64, as_int: bool) -> String {
    if as_int {
        (f as i64).to_string()
    } else {
        go_float(f)
    }
}

impl Validator<'_> {
    /// The field path of an error named `name` (`errPath` of the translation).
    fn field(&self, name: &str) -> String {
        let trimmed = name.strip_prefix('.').unwrap_or(name);
        if name.is_empty() || name == "." {
            return self.prefix.unwrap_or("<nil>").to_owned();
        }
        match self.prefix {
            Some(p) => format!("{p}.{trimmed}"),
            None => trimmed.to_owned(),
        }
    }

    /// A kube-openapi `Validation` error of the default kind: `Invalid`.
    fn invalid(&mut self, name: &str, value: Value, msg: String) {
        let field = self.field(name);
        self.out.push(FieldError::invalid(field, value, msg));
    }

    /// A plain (non-`Validation`) error: `Invalid` at the validator's root, value "".
    fn plain(&mut self, msg: String) {
        let field = self.prefix.unwrap_or("<nil>").to_owned();
        self.out.push(FieldError::invalid(field, json!(""), msg));
    }

    fn type_invalid(&mut self, name: &str, type_name: &str, found: &str) {
        let field = self.field(name);
        self.out.push(FieldError::new(
            ErrorType::TypeInvalid,
            field,
            json!(found),
            format!(
                "{name} in body must be of type {type_name}: {}",
                go_quote(found)
            ),
        ));
    }

    fn node(&mut self, s: &Schema, data: &Value, name: &str, old: Option<&Value>) {
        if old == Some(data) {
            return;
        }
        if data.is_null() {
            if !s.types.is_empty() && !s.types.contains(&JsonType::Null) && !s.nullable {
                let types = type_names(&s.types);
                self.type_invalid(name, &types, "null");
            }
            self.enumeration(s, data, name);
            return;
        }
        let t = data_type(data);
        self.type_check(s, data, t, name);
        self.combinators(s, data, name);
        if let Value::String(text) = data {
            self.string(s, text, name);
            if let Some(f) = s.format.as_deref().filter(|f| format::is_string_format(f)) {
                if !format::check(f, text) {
                    self.type_invalid_value(name, f, text);
                }
            }
        }
        if matches!(t, JsonType::Integer | JsonType::Number) {
            self.number(s, data, name);
        }
        if let Value::Array(items) = data {
            self.array(s, items, name, old);
        }
        self.enumeration(s, data, name);
        if let Value::Object(map) = data {
            self.object(s, map, name, old);
        }
    }

    fn type_invalid_value(&mut self, name: &str, format: &str, text: &str) {
        let field = self.field(name);
        self.out.push(FieldError::new(
            ErrorType::TypeInvalid,
            field,
            json!(text),
            format!(
                "{name} in body must be of type {format}: {}",
                go_quote(text)
            ),
        ));
    }

    fn type_check(&mut self, s: &Schema, data: &Value, t: JsonType, name: &str) {
        let format = s.format.as_deref().unwrap_or("");
        if s.types.is_empty() && format.is_empty() {
            return;
        }
        let has = |x: JsonType| s.types.contains(&x);
        let float_int = t == JsonType::Number
            && data.as_f64().is_some_and(is_integral)
            && has(JsonType::Integer);
        let int_float = t == JsonType::Integer && has(JsonType::Number);
        let stringish = matches!(t, JsonType::String | JsonType::Array);
        // kube-openapi's order: a format that does not fit a scalar, then strings and
        // arrays with a format, which pass unless the schema is numeric, then the type.
        let format_fits = stringish
            || format.is_empty()
            || has(t)
            || data_format(t) == format
            || float_int
            || int_float;
        if !format_fits {
            self.type_invalid(name, format, data_format(t));
            return;
        }
        let numeric = has(JsonType::Number) || has(JsonType::Integer);
        if stringish && !format.is_empty() && !numeric {
            return;
        }
        if !(has(t) || float_int || int_float) {
            let types = type_names(&s.types);
            self.type_invalid(name, &types, t.name());
        }
    }

    fn combinators(&mut self, s: &Schema, data: &Value, name: &str) {
        let quoted = go_quote(name);
        if !s.any_of.is_empty() {
            let mut first_failure: Option<Vec<FieldError>> = None;
            let mut ok = false;
            for b in &s.any_of {
                let errs = self.branch(b, data, name);
                if errs.is_empty() {
                    ok = true;
                    break;
                }
                first_failure.get_or_insert(errs);
            }
            if !ok {
                self.plain(format!(
                    "{quoted} must validate at least one schema (anyOf)"
                ));
                self.out.extend(first_failure.unwrap_or_default());
            }
        }
        if !s.one_of.is_empty() {
            let mut valid = 0;
            let mut first_failure: Option<Vec<FieldError>> = None;
            for b in &s.one_of {
                let errs = self.branch(b, data, name);
                if errs.is_empty() {
                    valid += 1;
                } else if valid == 0 {
                    first_failure.get_or_insert(errs);
                }
            }
            if valid != 1 {
                let why = if valid == 0 {
                    "Found none valid".to_owned()
                } else {
                    format!("Found {valid} valid alternatives")
                };
                self.plain(format!(
                    "{quoted} must validate one and only one schema (oneOf). {why}"
                ));
                if valid == 0 {
                    self.out.extend(first_failure.unwrap_or_default());
                }
            }
        }
        if !s.all_of.is_empty() {
            let mut valid = 0;
            for b in &s.all_of {
                let errs = self.branch(b, data, name);
                if errs.is_empty() {
                    valid += 1;
                }
                self.out.extend(errs);
            }
            if valid != s.all_of.len() {
                let extra = if valid == 0 { ". None validated" } else { "" };
                self.plain(format!(
                    "{quoted} must validate all the schemas (allOf){extra}"
                ));
            }
        }
        if let Some(not) = &s.not {
            if self.branch(not, data, name).is_empty() {
                self.plain(format!("{quoted} must not validate the schema (not)"));
            }
        }
    }

    fn branch(&self, b: &Schema, data: &Value, name: &str) -> Vec<FieldError> {
        let mut v = Validator {
            prefix: self.prefix,
            out: Vec::new(),
        };
        v.node(b, data, name, None);
        v.out
    }

    fn string(&mut self, s: &Schema, text: &str, name: &str) {
        let len = i64::try_from(text.chars().count()).unwrap_or(i64::MAX);
        if let Some(max) = s.max_length.filter(|m| len > *m) {
            let field = self.field(name);
            self.out.push(FieldError::new(
                ErrorType::TooLong,
                field,
                Value::Null,
                format!(
                    "may not be more than {max} {}",
                    if max == 1 { "byte" } else { "bytes" }
                ),
            ));
            return;
        }
        if let Some(min) = s.min_length.filter(|m| len < *m) {
            self.invalid(
                name,
                json!(text),
                format!("{name} in body should be at least {min} chars long"),
            );
            return;
        }
        if let Some(p) = &s.pattern {
            match &p.regex {
                Ok(re) if re.is_match(text) => {}
                Ok(_) => self.invalid(
                    name,
                    json!(text),
                    format!("{name} in body should match '{}'", p.source),
                ),
                Err(e) => self.invalid(
                    name,
                    json!(text),
                    format!(
                        "{name} in body should match '{}, but pattern is invalid: {e}'",
                        p.source
                    ),
                ),
            }
        }
    }

    fn number(&mut self, s: &Schema, data: &Value, name: &str) {
        let single = match s.types.as_slice() {
            [x] => Some(*x),
            _ => None,
        };
        let format = s.format.as_deref().unwrap_or("");
        let as_int = data.as_i64();
        let as_float = data.as_f64().unwrap_or_default();
        if single == Some(JsonType::Integer) {
            let fits = match as_int {
                Some(i) => format != "int32" || i32::try_from(i).is_ok(),
                None => {
                    is_integral(as_float)
                        && (format != "int32"
                            || (f64::from(i32::MIN)..=f64::from(i32::MAX)).contains(&as_float))
                }
            };
            if !fits {
                let msg = if format == "int32" || format == "int64" {
                    format!("Checked value must be of type integer with format {format} in {name}")
                } else {
                    format!("Checked value must be of type integer (default format) in {name}")
                };
                self.plain(msg);
            }
        }
        let integer_type = single == Some(JsonType::Integer);
        // A bound that is no integer cannot be checked natively against an integer schema:
        // kube-openapi falls back to comparing floats.
        let native_int = |b: f64| as_int.is_some() && (is_integral(b) || !integer_type);
        if let Some(m) = s.multiple_of {
            if native_int(m) {
                // kube-openapi truncates the factor to the integer's type first.
                let factor = m as i64;
                if factor <= 0 {
                    self.invalid(
                        name,
                        json!(factor),
                        format!("factor MultipleOf declared for {name} must be positive: {factor}"),
                    );
                } else if as_int.is_some_and(|i| i % factor != 0) {
                    self.invalid(
                        name,
                        data.clone(),
                        format!("{name} in body should be a multiple of {factor}"),
                    );
                }
            } else if m <= 0.0 {
                self.invalid(
                    name,
                    json!(m),
                    format!(
                        "factor MultipleOf declared for {name} must be positive: {}",
                        go_float(m)
                    ),
                );
            } else {
                let mult = if m < 1.0 {
                    1.0 / m * as_float
                } else {
                    as_float / m
                };
                if !json_integer(mult) {
                    self.invalid(
                        name,
                        data.clone(),
                        format!("{name} in body should be a multiple of {}", go_float(m)),
                    );
                }
            }
        }
        if let Some(min) = s.minimum {
            let bad = if native_int(min) {
                let m = min as i64;
                as_int.is_some_and(|i| if s.exclusive_minimum { i <= m } else { i < m })
            } else if s.exclusive_minimum {
                as_float <= min
            } else {
                as_float < min
            };
            if bad {
                let op = if s.exclusive_minimum {
                    "greater than"
                } else {
                    "greater than or equal to"
                };
                self.invalid(
                    name,
                    data.clone(),
                    format!(
                        "{name} in body should be {op} {}",
                        bound(min, native_int(min))
                    ),
                );
            }
        }
        if let Some(max) = s.maximum {
            let bad = if native_int(max) {
                let m = max as i64;
                as_int.is_some_and(|i| if s.exclusive_maximum { i >= m } else { i > m })
            } else if s.exclusive_maximum {
                as_float >= max
            } else {
                as_float > max
            };
            if bad {
                let op = if s.exclusive_maximum {
                    "less than"
                } else {
                    "less than or equal to"
                };
                self.invalid(
                    name,
                    data.clone(),
                    format!(
                        "{name} in body should be {op} {}",
                        bound(max, native_int(max))
                    ),
                );
            }
        }
    }

    fn array(&mut self, s: &Schema, items: &[Value], name: &str, old: Option<&Value>) {
        if let Some(item_schema) = s.items.as_deref() {
            let old_items = old.and_then(Value::as_array);
            for (i, item) in items.iter().enumerate() {
                let old_item = match (s.list_type, old_items) {
                    (Some(ListType::Map), Some(olds)) => {
                        olds.iter().find(|o| same_keys(o, item, &s.list_map_keys))
                    }
                    _ => None,
                };
                self.node(item_schema, item, &format!("{name}[{i}]"), old_item);
            }
        }
        let size = i64::try_from(items.len()).unwrap_or(i64::MAX);
        if let Some(min) = s.min_items.filter(|m| size < *m) {
            self.invalid(
                name,
                json!(size),
                format!("{name} in body should have at least {min} items"),
            );
        }
        if let Some(max) = s.max_items.filter(|m| size > *m) {
            let field = self.field(name);
            self.out.push(too_many(field, size, max));
        }
        if s.unique_items {
            let dup = items
                .iter()
                .enumerate()
                .any(|(i, a)| items[..i].iter().any(|b| json_equal(a, b)));
            if dup {
                self.invalid(
                    name,
                    json!(""),
                    format!("{name} in body shouldn't contain duplicates"),
                );
            }
        }
    }

    fn enumeration(&mut self, s: &Schema, data: &Value, name: &str) {
        if s.enum_values.is_empty() || s.enum_values.iter().any(|e| json_equal(e, data)) {
            return;
        }
        let supported: Vec<String> = s
            .enum_values
            .iter()
            .map(|e| match e {
                Value::String(t) => t.clone(),
                other => go_json(other),
            })
            .collect();
        let field = self.field(name);
        self.out
            .push(FieldError::not_supported(field, data.clone(), &supported));
    }

    fn object(&mut self, s: &Schema, map: &Map<String, Value>, name: &str, old: Option<&Value>) {
        let size = i64::try_from(map.len()).unwrap_or(i64::MAX);
        if let Some(min) = s.min_properties.filter(|m| size < *m) {
            self.invalid(
                name,
                json!(size),
                format!("{name} in body should have at least {min} properties"),
            );
        }
        if let Some(max) = s.max_properties.filter(|m| size > *m) {
            let field = self.field(name);
            self.out.push(too_many(field, size, max));
        }
        let old_map = old.and_then(Value::as_object);
        match &s.additional {
            Some(Additional::Allows(false)) => {
                for k in map.keys().filter(|k| !s.properties.contains_key(*k)) {
                    self.invalid(
                        &format!("{name}.{k}"),
                        json!(""),
                        format!("{name}.{k} in body is a forbidden property"),
                    );
                }
            }
            Some(Additional::Schema(extra)) => {
                for (k, v) in map.iter().filter(|(k, _)| !s.properties.contains_key(*k)) {
                    let old_v = old_map.and_then(|o| o.get(k));
                    self.node(extra, v, &format!("{name}.{k}"), old_v);
                }
            }
            _ => {}
        }
        for (k, prop) in &s.properties {
            if let Some(v) = map.get(k) {
                let old_v = old_map.and_then(|o| o.get(k));
                self.node(prop, v, &child(name, k), old_v);
            }
        }
        for k in &s.required {
            if !map.contains_key(k) {
                let field = self.field(&format!("{name}.{k}"));
                self.out.push(FieldError::required(field, ""));
            }
        }
    }
}

fn too_many(field: String, actual: i64, max: i64) -> FieldError {
    FieldError::new(
        ErrorType::TooMany,
        field,
        json!(actual),
        format!(
            "must have at most {max} {}",
            if max == 1 { "item" } else { "items" }
        ),
    )
}

fn type_names(types: &[JsonType]) -> String {
    types.iter().map(|t| t.name()).collect::<Vec<_>>().join(",")
}

/// JSON equality with numbers compared by value (an int64 equals the same float64).
fn json_equal(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Number(x), Value::Number(y)) => match (x.as_i64(), y.as_i64()) {
            (Some(i), Some(j)) => i == j,
            _ => x.as_f64() == y.as_f64(),
        },
        (Value::Array(x), Value::Array(y)) => {
            x.len() == y.len() && x.iter().zip(y).all(|(p, q)| json_equal(p, q))
        }
        (Value::Object(x), Value::Object(y)) => {
            x.len() == y.len()
                && x.iter()
                    .all(|(k, v)| y.get(k).is_some_and(|w| json_equal(v, w)))
        }
        _ => a == b,
    }
}

fn same_keys(a: &Value, b: &Value, keys: &[String]) -> bool {
    keys.iter().all(|k| a.get(k) == b.get(k))
}

/// `field.Path` rendering: `.child`, `[index]`, `[key]`.
fn path_child(path: &str, k: &str) -> String {
    if path.is_empty() {
        k.to_owned()
    } else {
        format!("{path}.{k}")
    }
}

/// `structurallisttype.ValidateListSetsAndMaps`: duplicates in `set` lists and
/// duplicate keys in `map` lists.
pub(crate) fn validate_list_types(s: &Schema, obj: &Value) -> Vec<FieldError> {
    let mut errs = Vec::new();
    if let Value::Object(map) = obj {
        list_types_object(s, map, "", &mut errs);
    }
    errs
}

fn list_types_object(s: &Schema, map: &Map<String, Value>, path: &str, errs: &mut Vec<FieldError>) {
    if let Some(Additional::Schema(extra)) = &s.additional {
        for (k, v) in map {
            list_types_value(extra, v, &format!("{path}[{k}]"), errs);
        }
    }
    for (k, v) in map {
        if let Some(sub) = s.properties.get(k) {
            list_types_value(sub, v, &path_child(path, k), errs);
        }
    }
}

fn list_types_value(s: &Schema, v: &Value, path: &str, errs: &mut Vec<FieldError>) {
    match v {
        Value::Array(items) => {
            match s.list_type {
                Some(ListType::Set) => {
                    for i in first_repeats(items) {
                        errs.push(FieldError::new(
                            ErrorType::Duplicate,
                            format!("{path}[{i}]"),
                            items[i].clone(),
                            "",
                        ));
                    }
                }
                Some(ListType::Map) => list_map(s, items, path, errs),
                _ => {}
            }
            if let Some(item_schema) = s.items.as_deref() {
                for (i, item) in items.iter().enumerate() {
                    list_types_value(item_schema, item, &format!("{path}[{i}]"), errs);
                }
            }
        }
        Value::Object(map) => list_types_object(s, map, path, errs),
        _ => {}
    }
}

/// Indices of the second occurrence of each repeated value.
fn first_repeats(items: &[Value]) -> Vec<usize> {
    let mut out = Vec::new();
    for (i, a) in items.iter().enumerate() {
        let earlier = items[..i].iter().filter(|b| json_equal(a, b)).count();
        if earlier == 1 {
            out.push(i);
        }
    }
    out
}

fn list_map(s: &Schema, items: &[Value], path: &str, errs: &mut Vec<FieldError>) {
    for (i, x) in items.iter().enumerate() {
        if !x.is_null() && !x.is_object() {
            errs.push(FieldError::invalid(
                format!("{path}[{i}]"),
                x.clone(),
                "must be an object for an array of list-type map",
            ));
            return;
        }
    }
    let keys: Vec<Value> = items
        .iter()
        .map(|x| {
            let mut key = Map::new();
            for k in &s.list_map_keys {
                if let Some(v) = x.get(k) {
                    key.insert(k.clone(), v.clone());
                }
            }
            Value::Object(key)
        })
        .collect();
    for i in first_repeats(&keys) {
        errs.push(FieldError::new(
            ErrorType::Duplicate,
            format!("{path}[{i}]"),
            keys[i].clone(),
            "",
        ));
    }
}

fn embedded_resources(s: &Schema, x: &Value, path: &str, errs: &mut Vec<FieldError>) {
    match x {
        Value::Object(map) => {
            if s.embedded {
                embedded_resource(map, path, errs);
            }
            for (k, v) in map {
                if let Some(sub) = s.properties.get(k) {
                    embedded_resources(sub, v, &path_child(path, k), errs);
                } else if let Some(Additional::Schema(extra)) = &s.additional {
                    embedded_resources(extra, v, &format!("{path}[{k}]"), errs);
                }
            }
        }
        Value::Array(items) => {
            if let Some(item_schema) = s.items.as_deref() {
                for (i, v) in items.iter().enumerate() {
                    embedded_resources(item_schema, v, &format!("{path}[{i}]"), errs);
                }
            }
        }
        _ => {}
    }
}

fn embedded_resource(map: &Map<String, Value>, path: &str, errs: &mut Vec<FieldError>) {
    let at = |k: &str| path_child(path, k);
    if !map.contains_key("apiVersion") {
        errs.push(FieldError::required(at("apiVersion"), ""));
    }
    if !map.contains_key("kind") {
        errs.push(FieldError::required(at("kind"), ""));
    }
    for (k, v) in map {
        match k.as_str() {
            "apiVersion" => match v.as_str() {
                None => errs.push(FieldError::invalid(
                    at("apiVersion"),
                    v.clone(),
                    "must be a string",
                )),
                Some("") => errs.push(FieldError::invalid(
                    at("apiVersion"),
                    json!(""),
                    "must not be empty",
                )),
                Some(av) if av.matches('/').count() > 1 => errs.push(FieldError::invalid(
                    at("apiVersion"),
                    json!(av),
                    format!("unexpected GroupVersion string: {av}"),
                )),
                Some(_) => {}
            },
            "kind" => match v.as_str() {
                None => errs.push(FieldError::invalid(
                    at("kind"),
                    v.clone(),
                    "must be a string",
                )),
                Some("") => errs.push(FieldError::invalid(
                    at("kind"),
                    json!(""),
                    "must not be empty",
                )),
                Some(kind) => {
                    let problems = crate::validation::names::dns1035_label(&kind.to_lowercase());
                    if !problems.is_empty() {
                        errs.push(FieldError::invalid(
                            at("kind"),
                            json!(kind),
                            format!(
                                "may have mixed case, but should otherwise match: {}",
                                problems.join(",")
                            ),
                        ));
                    }
                }
            },
            "metadata" => match v {
                Value::Object(meta) => {
                    if let Some(name) = meta.get("name").and_then(Value::as_str) {
                        let why = match name {
                            "." => Some("may not be '.'"),
                            ".." => Some("may not be '..'"),
                            n if n.contains('/') => Some("may not contain '/'"),
                            n if n.contains('%') => Some("may not contain '%'"),
                            _ => None,
                        };
                        if let Some(why) = why {
                            errs.push(FieldError::invalid(
                                format!("{}.name", at("metadata")),
                                json!(name),
                                why,
                            ));
                        }
                    }
                }
                other => errs.push(FieldError::invalid(
                    at("metadata"),
                    other.clone(),
                    "json: cannot unmarshal into Go value of type v1.ObjectMeta",
                )),
            },
            _ => {}
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn schema(v: Value) -> Schema {
        Schema::compile(&v, "", &mut Vec::new())
    }

    fn messages(errs: &[FieldError]) -> Vec<String> {
        errs.iter().map(FieldError::message).collect()
    }

    #[test]
    fn reports_like_kube_openapi() {
        let s = schema(
            json!({"type": "object", "properties": {"spec": {"type": "object", "required": ["name"], "properties": {
                "name": {"type": "string", "maxLength": 3},
                "size": {"type": "integer", "minimum": 1, "maximum": 10},
                "speed": {"type": "string", "enum": ["fast", "slow"]},
                "port": {"x-kubernetes-int-or-string": true},
            }}}}),
        );
        let obj = json!({"spec": {"size": 0, "speed": "medium", "port": true}});
        assert_eq!(
            messages(&validate(&s, &obj, None, ValidateOptions::default())),
            [
                r#"spec.port: Invalid value: "boolean": spec.port in body must be of type integer,string: "boolean""#,
                "spec.size: Invalid value: 0: spec.size in body should be greater than or equal to 1",
                r#"spec.speed: Unsupported value: "medium": supported values: "fast", "slow""#,
                "spec.name: Required value",
            ]
        );
        let obj = json!({"spec": {"name": "long", "size": "3"}});
        assert_eq!(
            messages(&validate(&s, &obj, None, ValidateOptions::default())),
            [
                "spec.name: Too long: may not be more than 3 bytes",
                r#"spec.size: Invalid value: "string": spec.size in body must be of type integer: "string""#,
            ]
        );
    }

    #[test]
    fn ratchets_unchanged_values_and_prefixes_status() {
        let s = schema(
            json!({"type": "object", "properties": {"n": {"type": "integer", "minimum": 1}}}),
        );
        let old = json!({"n": 0});
        assert!(validate(&s, &json!({"n": 0}), Some(&old), ValidateOptions::default()).is_empty());
        let errs = validate(
            &s,
            &json!({"n": -1}),
            Some(&old),
            ValidateOptions {
                prefix: Some("status"),
            },
        );
        assert_eq!(
            messages(&errs),
            ["status.n: Invalid value: -1: n in body should be greater than or equal to 1"]
        );
    }

    #[test]
    fn finds_duplicates_in_sets_and_maps() {
        let s = schema(json!({"type": "object", "properties": {
            "tags": {"type": "array", "x-kubernetes-list-type": "set", "items": {"type": "string"}},
            "ports": {"type": "array", "x-kubernetes-list-type": "map", "x-kubernetes-list-map-keys": ["name"],
                "items": {"type": "object", "properties": {"name": {"type": "string"}}}},
        }}));
        let obj =
            json!({"tags": ["a", "b", "a", "a"], "ports": [{"name": "x"}, {"name": "x", "n": 1}]});
        assert_eq!(
            messages(&validate_list_types(&s, &obj)),
            [
                r#"ports[1]: Duplicate value: {"name":"x"}"#,
                r#"tags[2]: Duplicate value: "a""#
            ]
        );
    }
}
