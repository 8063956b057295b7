//! Go's dynamic view of a decoded JSON value, for patches: its type, `==` between interface
//! values and `fmt`'s `%v` and `%s`, as kube-apiserver's messages print them.

use std::fmt::Write;

use serde_json::{Number, Value};

/// The dynamic Go type of a decoded JSON value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum GoType {
    Nil,
    Bool,
    Int64,
    Float64,
    String,
    Slice,
    Map,
}

impl GoType {
    pub(crate) fn of(v: &Value) -> Self {
        match v {
            Value::Null => Self::Nil,
            Value::Bool(_) => Self::Bool,
            Value::Number(n) if n.as_i64().is_some() => Self::Int64,
            Value::Number(_) => Self::Float64,
            Value::String(_) => Self::String,
            Value::Array(_) => Self::Slice,
            Value::Object(_) => Self::Map,
        }
    }

    /// `reflect.TypeOf(v)` printed with `%s`.
    pub(crate) fn name(self) -> &'static str {
        match self {
            Self::Nil => "%!s(<nil>)",
            Self::Bool => "bool",
            Self::Int64 => "int64",
            Self::Float64 => "float64",
            Self::String => "string",
            Self::Slice => "[]interface {}",
            Self::Map => "map[string]interface {}",
        }
    }
}

/// A Go runtime panic kube-apiserver's strategic merge code runs into on some inputs.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum GoPanic {
    /// `==` between two maps or two slices.
    #[error("runtime error: comparing uncomparable type {}", .0.name())]
    Uncomparable(UncomparableType),
    /// A map or slice used as a Go map key.
    #[error("runtime error: hash of unhashable type {}", .0.name())]
    Unhashable(UncomparableType),
    /// A method called on the type of a `null` list item.
    #[error("runtime error: invalid memory address or nil pointer dereference")]
    NilDereference,
}

/// A Go type `==` and map keys refuse.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum UncomparableType {
    /// `[]interface {}`.
    Slice,
    /// `map[string]interface {}`.
    Map,
}

impl UncomparableType {
    fn name(self) -> &'static str {
        match self {
            Self::Slice => GoType::Slice.name(),
            Self::Map => GoType::Map.name(),
        }
    }

    fn of(v: &Value) -> Option<Self> {
        match v {
            Value::Array(_) => Some(Self::Slice),
            Value::Object(_) => Some(Self::Map),
            _ => None,
        }
    }
}

fn number_eq(a: &Number, b: &Number) -> bool {
    match (a.as_i64(), b.as_i64()) {
        (Some(x), Some(y)) => x == y,
        (None, None) => a.as_f64() == b.as_f64(),
        _ => false,
    }
}

/// Go's `a == b` between two `interface{}` values: false across types, a panic between
/// two maps or two slices.
pub(crate) fn eq(a: &Value, b: &Value) -> Result<bool, GoPanic> {
    if GoType::of(a) != GoType::of(b) {
        return Ok(false);
    }
    Ok(match (a, b) {
        (Value::Null, Value::Null) => true,
        (Value::Bool(x), Value::Bool(y)) => x == y,
        (Value::Number(x), Value::Number(y)) => number_eq(x, y),
        (Value::String(x), Value::String(y)) => x == y,
        _ => {
            return Err(GoPanic::Uncomparable(
                UncomparableType::of(a).unwrap_or(UncomparableType::Map),
            ))
        }
    })
}

/// Checks that `v` can be a key of a Go map (`map[interface{}]...`).
pub(crate) fn hashable(v: &Value) -> Result<(), GoPanic> {
    match UncomparableType::of(v) {
        Some(t) => Err(GoPanic::Unhashable(t)),
        None => Ok(()),
    }
}

/// Whether `v` is in `set` as a Go map keyed by `interface{}` finds it (a panic when
/// `v` or a key cannot be hashed).
pub(crate) fn set_contains(set: &[Value], v: &Value) -> Result<bool, GoPanic> {
    hashable(v)?;
    for item in set {
        hashable(item)?;
    }
    for item in set {
        if eq(item, v)? {
            return Ok(true);
        }
    }
    Ok(false)
}

/// `fmt.Sprintf("%v", v)`.
pub(crate) fn v(value: &Value) -> String {
    let mut out = String::new();
    write_value(&mut out, value, Verb::V);
    out
}

/// `fmt.Sprintf("%s", v)`.
pub(crate) fn s(value: &Value) -> String {
    let mut out = String::new();
    write_value(&mut out, value, Verb::S);
    out
}

/// `fmt.Sprint` of several lists (a `[][]interface{}`).
pub(crate) fn v_lists(lists: &[&[Value]]) -> String {
    let mut out = String::from("[");
    for (i, list) in lists.iter().enumerate() {
        if i > 0 {
            out.push(' ');
        }
        write_list(&mut out, list, Verb::V);
    }
    out.push(']');
    out
}

/// `fmt.Sprintf("%v", list)` of a `[]interface{}`.
pub(crate) fn v_list(list: &[Value]) -> String {
    let mut out = String::new();
    write_list(&mut out, list, Verb::V);
    out
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Verb {
    V,
    S,
}

fn write_list(out: &mut String, list: &[Value], verb: Verb) {
    out.push('[');
    for (i, item) in list.iter().enumerate() {
        if i > 0 {
            out.push(' ');
        }
        write_value(out, item, verb);
    }
    out.push(']');
}

fn write_value(out: &mut String, value: &Value, verb: Verb) {
    match value {
        Value::Null => out.push_str(if verb == Verb::S {
            "%!s(<nil>)"
        } else {
            "<nil>"
        }),
        Value::String(s) => out.push_str(s),
        Value::Array(list) => write_list(out, list, verb),
        Value::Object(map) => {
            // Go's fmt prints map keys sorted; serde_json keeps them sorted already.
            out.push_str("map[");
            for (i, (k, item)) in map.iter().enumerate() {
                if i > 0 {
                    out.push(' ');
                }
                out.push_str(k);
                out.push(':');
                write_value(out, item, verb);
            }
            out.push(']');
        }
        scalar => {
            let text = scalar_text(scalar);
            if verb == Verb::S {
                let _ = write!(out, "%!s({}={text})", GoType::of(scalar).name());
            } else {
                out.push_str(&text);
            }
        }
    }
}

/// A bool or number as `%v` prints it.
fn scalar_text(value: &Value) -> String {
    match value {
        Value::Bool(b) => b.to_string(),
        Value::Number(n) => match n.as_i64() {
            Some(i) => i.to_string(),
            None => float_text(n.as_f64().unwrap_or(f64::NAN)),
        },
        _ => String::new(),
    }
}

/// A float64 as Go's `%v` prints it: the shortest digits, in exponent form below 1e-4
/// and from 1e6 up (`strconv.FormatFloat(f, 'g', -1, 64)`).
fn float_text(f: f64) -> String {
    let sci = format!("{f:e}");
    let Some((mantissa, exp)) = sci.split_once('e') else {
        return sci;
    };
    let exp: i32 = exp.parse().unwrap_or(0);
    if (-4..6).contains(&exp) {
        return f.to_string();
    }
    let sign = if exp < 0 { '-' } else { '+' };
    format!("{mantissa}e{sign}{:02}", exp.abs())
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn prints_as_go_fmt_does() {
        let m = json!({"name": "a", "n": 1, "f": 1.5, "l": ["x", 2], "z": null, "b": true});
        assert_eq!(v(&m), "map[b:true f:1.5 l:[x 2] n:1 name:a z:<nil>]");
        assert_eq!(s(&json!("x")), "x");
        assert_eq!(s(&json!(1)), "%!s(int64=1)");
        assert_eq!(s(&json!(null)), "%!s(<nil>)");
        assert_eq!(s(&json!({"a": 2.5})), "map[a:%!s(float64=2.5)]");
        assert_eq!(float_text(1e21), "1e+21");
        assert_eq!(float_text(1234567.5), "1.2345675e+06");
        assert_eq!(float_text(0.00001), "1e-05");
        assert_eq!(float_text(123456.5), "123456.5");
        assert_eq!(
            v_lists(&[&[json!(1)], &[json!("a"), json!("b")]]),
            "[[1] [a b]]"
        );
    }

    #[test]
    fn compares_as_go_interfaces_do() {
        assert!(eq(&json!(1), &json!(1)).unwrap());
        assert!(!eq(&json!(1), &json!(1.0)).unwrap());
        assert!(!eq(&json!(1), &json!("1")).unwrap());
        assert!(eq(&json!(null), &json!(null)).unwrap());
        assert!(!eq(&json!({}), &json!([])).unwrap());
        assert!(eq(&json!({}), &json!({})).is_err());
        assert!(set_contains(&[json!("a")], &json!([])).is_err());
    }
}
