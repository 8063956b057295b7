//! Field errors as apimachinery's `field.Error` prints them (`ErrorBody`, the cause
//! types), the Go renderings of the bad values (`%v`, `%q`, `json.Marshal`) and the 422
//! `Invalid` `Status` of `errors.NewInvalid`.

use serde_json::{json, Value};

use crate::status::StatusError;

/// apimachinery's `field.ErrorType`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum ErrorType {
    Required,
    Invalid,
    TypeInvalid,
    NotSupported,
    Duplicate,
    TooLong,
    TooMany,
    Forbidden,
    NotFound,
}

impl ErrorType {
    /// The `StatusCause.reason`.
    fn reason(self) -> &'static str {
        match self {
            Self::Required => "FieldValueRequired",
            Self::Invalid => "FieldValueInvalid",
            Self::TypeInvalid => "FieldValueTypeInvalid",
            Self::NotSupported => "FieldValueNotSupported",
            Self::Duplicate => "FieldValueDuplicate",
            Self::TooLong => "FieldValueTooLong",
            Self::TooMany => "FieldValueTooMany",
            Self::Forbidden => "FieldValueForbidden",
            Self::NotFound => "FieldValueNotFound",
        }
    }

    /// The words `ErrorBody` starts with.
    fn words(self) -> &'static str {
        match self {
            Self::Required => "Required value",
            Self::Invalid | Self::TypeInvalid => "Invalid value",
            Self::NotSupported => "Unsupported value",
            Self::Duplicate => "Duplicate value",
            Self::TooLong => "Too long",
            Self::TooMany => "Too many",
            Self::Forbidden => "Forbidden",
            Self::NotFound => "Not found",
        }
    }

    /// Types whose body never shows the bad value.
    fn omits_value(self) -> bool {
        matches!(self, Self::Required | Self::TooLong | Self::Forbidden)
    }
}

/// One field error: where, what kind, the bad value and the detail.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct FieldError {
    pub kind: ErrorType,
    /// The field path as `field.Path.String()` prints it (`spec.items[0].name`,
    /// `<nil>` for none).
    pub field: String,
    pub value: Value,
    pub detail: String,
    /// The bad value as Go's `%#v` prints it, when it is a Go struct (no JSON
    /// rendering applies then).
    pub go_struct: Option<String>,
    /// The whole `ErrorBody`, for an error another validator already rendered.
    rendered: Option<String>,
    /// `field.OmitValueType`: the body names the error type without a value.
    omit_value: bool,
}

impl FieldError {
    pub fn new(
        kind: ErrorType,
        field: impl Into<String>,
        value: Value,
        detail: impl Into<String>,
    ) -> Self {
        Self {
            kind,
            field: field.into(),
            value,
            detail: detail.into(),
            go_struct: None,
            rendered: None,
            omit_value: false,
        }
    }

    /// An error another validator rendered as `ErrorBody` (`Invalid value: "x": ...`), its
    /// type read back from the words the body starts with.
    pub fn rendered(field: impl Into<String>, body: String) -> Self {
        const TYPES: [ErrorType; 9] = [
            ErrorType::Required,
            ErrorType::NotSupported,
            ErrorType::TooLong,
            ErrorType::Forbidden,
            ErrorType::Duplicate,
            ErrorType::NotFound,
            ErrorType::TooMany,
            ErrorType::Invalid,
            ErrorType::TypeInvalid,
        ];
        let kind = TYPES
            .into_iter()
            .find(|t| body.starts_with(t.words()))
            .unwrap_or(ErrorType::Invalid);
        let mut e = Self::new(kind, field, Value::Null, "");
        e.rendered = Some(body);
        e
    }

    /// The error without its bad value (`field.OmitValueType{}`).
    pub fn omitting_value(mut self) -> Self {
        self.omit_value = true;
        self
    }

    /// `field.Required(path, detail)`.
    pub fn required(field: impl Into<String>, detail: impl Into<String>) -> Self {
        Self::new(ErrorType::Required, field, Value::Null, detail)
    }

    /// `field.Forbidden(path, detail)`.
    pub fn forbidden(field: impl Into<String>, detail: impl Into<String>) -> Self {
        Self::new(ErrorType::Forbidden, field, Value::Null, detail)
    }

    /// `field.Invalid(path, value, detail)`.
    pub fn invalid(field: impl Into<String>, value: Value, detail: impl Into<String>) -> Self {
        Self::new(ErrorType::Invalid, field, value, detail)
    }

    /// `field.NotSupported(path, value, supported)`.
    pub fn not_supported(field: impl Into<String>, value: Value, supported: &[String]) -> Self {
        let detail = if supported.is_empty() {
            String::new()
        } else {
            let quoted: Vec<String> = supported.iter().map(|s| go_quote(s)).collect();
            format!("supported values: {}", quoted.join(", "))
        };
        Self::new(ErrorType::NotSupported, field, value, detail)
    }

    /// The message without the field (`ErrorBody`), the `StatusCause.message`.
    pub fn body(&self) -> String {
        if let Some(body) = &self.rendered {
            return body.clone();
        }
        let mut s = if self.kind.omits_value() || self.omit_value {
            self.kind.words().to_owned()
        } else {
            let value = match &self.go_struct {
                Some(text) => text.clone(),
                None => go_value(&self.value),
            };
            format!("{}: {}", self.kind.words(), value)
        };
        if !self.detail.is_empty() {
            s.push_str(": ");
            s.push_str(&self.detail);
        }
        s
    }

    /// `field: body`, as `Error()` prints it.
    pub fn message(&self) -> String {
        format!("{}: {}", self.field, self.body())
    }
}

/// `errors.NewInvalid(group/kind, name, errs)`: 422 `Invalid`, the message aggregating
/// the distinct errors (`[a, b]` for more than one), a cause per error.
pub(crate) fn invalid_status(
    kind: &str,
    group: &str,
    name: &str,
    errs: &[FieldError],
) -> StatusError {
    let mut seen: Vec<String> = Vec::new();
    for e in errs {
        let m = e.message();
        if !seen.contains(&m) {
            seen.push(m);
        }
    }
    let gk = if group.is_empty() {
        kind.to_owned()
    } else {
        format!("{kind}.{group}")
    };
    let message = match seen.len() {
        0 => format!("{gk} {} is invalid", go_quote(name)),
        1 => format!("{gk} {} is invalid: {}", go_quote(name), seen[0]),
        _ => format!("{gk} {} is invalid: [{}]", go_quote(name), seen.join(", ")),
    };
    let causes: Vec<Value> = errs
        .iter()
        .map(|e| json!({"reason": e.kind.reason(), "message": e.body(), "field": e.field}))
        .collect();
    let mut details = json!({"kind": kind, "causes": causes});
    if !name.is_empty() {
        details["name"] = json!(name);
    }
    if !group.is_empty() {
        details["group"] = json!(group);
    }
    let mut status = StatusError::new(422, "Invalid", message);
    status.details = Some(details);
    status
}

/// A bad value as `ErrorBody` prints it: numbers and booleans with `%v`, strings with
/// `%q`, the rest as JSON (`null` for none).
pub(crate) fn go_value(v: &Value) -> String {
    match v {
        Value::String(s) => go_quote(s),
        Value::Bool(b) => b.to_string(),
        Value::Number(n) => match n.as_i64() {
            Some(i) => i.to_string(),
            None => go_float(n.as_f64().unwrap_or_default()),
        },
        other => go_json(other),
    }
}

/// Go's `strconv.Quote`.
pub(crate) fn go_quote(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            '\u{7}' => out.push_str("\\a"),
            '\u{8}' => out.push_str("\\b"),
            '\u{c}' => out.push_str("\\f"),
            '\u{b}' => out.push_str("\\v"),
            c if (c as u32) < 0x20 || c as u32 == 0x7f => {
                out.push_str(&format!("\\x{:02x}", c as u32));
            }
            c if c.is_control() => {
                let n = c as u32;
                if n <= 0xffff {
                    out.push_str(&format!("\\u{n:04x}"));
                } else {
                    out.push_str(&format!("\\U{n:08x}"));
                }
            }
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

/// A float64 as Go's `%v` prints it: shortest form, exponent below 1e-4 and from 1e21.
pub(crate) fn go_float(f: f64) -> String {
    if f.is_nan() {
        return "NaN".into();
    }
    if f.is_infinite() {
        return if f > 0.0 {
            "+Inf".into()
        } else {
            "-Inf".into()
        };
    }
    let abs = f.abs();
    if abs != 0.0 && !(1e-4..1e21).contains(&abs) {
        let s = format!("{f:e}");
        let (mantissa, exp) = s.split_once('e').unwrap_or((&s, "0"));
        let exp: i32 = exp.parse().unwrap_or(0);
        let sign = if exp < 0 { '-' } else { '+' };
        return format!("{mantissa}e{sign}{:02}", exp.abs());
    }
    let s = format!("{f}");
    s.strip_suffix(".0").map(str::to_owned).unwrap_or(s)
}

// Go's `encoding/json` text of values and strings, as messages quote them.
pub(crate) use informer_merge::go::{json as go_json, json_string as go_json_string};

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn values_print_as_go_prints_them() {
        assert_eq!(go_value(&json!(0)), "0");
        assert_eq!(go_value(&json!(1.5)), "1.5");
        assert_eq!(go_value(&json!(3.0)), "3");
        assert_eq!(go_value(&json!(1e21)), "1e+21");
        assert_eq!(go_value(&json!("medium")), "\"medium\"");
        assert_eq!(
            go_value(&json!({"b": 1, "a": "<"})),
            r#"{"a":"\u003c","b":1}"#
        );
        assert_eq!(go_value(&Value::Null), "null");
    }

    #[test]
    fn bodies_follow_the_error_type() {
        let e = FieldError::invalid(
            "spec.size",
            json!(0),
            "spec.size in body should be greater than or equal to 1",
        );
        assert_eq!(
            e.message(),
            "spec.size: Invalid value: 0: spec.size in body should be greater than or equal to 1"
        );
        let e = FieldError::not_supported(
            "spec.speed",
            json!("medium"),
            &["fast".into(), "slow".into()],
        );
        assert_eq!(
            e.message(),
            r#"spec.speed: Unsupported value: "medium": supported values: "fast", "slow""#
        );
        assert_eq!(
            FieldError::required("spec.name", "").message(),
            "spec.name: Required value"
        );
    }
}
