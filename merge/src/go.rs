//! How Go sees a decoded JSON value: its dynamic type (kube-apiserver decodes patches
//! with integers kept as `int64`), `==` between interface values, `fmt`'s `%v` and `%s`,
//! and `encoding/json`'s text, so that messages, `fieldsV1` keys and list order come out as
//! kube-apiserver's do.

#[cfg(feature = "patch")]
mod values;

#[cfg(feature = "patch")]
pub(crate) use values::*;
#[cfg(feature = "patch")]
#[cfg_attr(docsrs, doc(cfg(feature = "patch")))]
pub use values::{GoPanic, UncomparableType};

use serde_json::Value;

/// Go's `json.Marshal` of a decoded JSON value: keys sorted, `<`, `>`, `&`, U+2028 and
/// U+2029 escaped, integral floats without a fraction, exponents as Go writes them.
///
/// ```
/// use serde_json::json;
/// assert_eq!(informer_merge::go::json(&json!({"b": 1.0, "a": "<x>"})), r#"{"a":"\u003cx\u003e","b":1}"#);
/// ```
pub fn json(v: &Value) -> String {
    let mut out = String::new();
    write_json(&mut out, v);
    out
}

/// [`json`] appended to `out`.
pub fn write_json(out: &mut String, v: &Value) {
    match v {
        Value::Null => out.push_str("null"),
        Value::Bool(b) => out.push_str(if *b { "true" } else { "false" }),
        Value::Number(n) => match n.as_i64() {
            Some(i) => out.push_str(&i.to_string()),
            None => {
                let f = n.as_f64().unwrap_or_default();
                let abs = f.abs();
                if abs != 0.0 && !(1e-6..1e21).contains(&abs) {
                    let s = format!("{f:e}");
                    let (mantissa, exp) = s.split_once('e').unwrap_or((&s, "0"));
                    let exp: i32 = exp.parse().unwrap_or(0);
                    let sign = if exp < 0 { '-' } else { '+' };
                    out.push_str(&format!("{mantissa}e{sign}{:02}", exp.abs()));
                } else {
                    let s = format!("{f}");
                    out.push_str(s.strip_suffix(".0").unwrap_or(&s));
                }
            }
        },
        Value::String(s) => write_json_string(out, s),
        Value::Array(items) => {
            out.push('[');
            for (i, item) in items.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                write_json(out, item);
            }
            out.push(']');
        }
        Value::Object(map) => {
            let mut keys: Vec<&String> = map.keys().collect();
            keys.sort();
            out.push('{');
            for (i, k) in keys.into_iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                write_json_string(out, k);
                out.push(':');
                write_json(out, &map[k]);
            }
            out.push('}');
        }
    }
}

/// A string as Go's `encoding/json` writes it: HTML-significant characters and the line and
/// paragraph separators escaped as `\u` sequences.
pub fn json_string(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    write_json_string(&mut out, s);
    out
}

/// [`json_string`] appended to `out`.
pub fn write_json_string(out: &mut String, s: &str) {
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            '<' | '>' | '&' | '\u{2028}' | '\u{2029}' => {
                out.push_str(&format!("\\u{:04x}", u32::from(c)));
            }
            c if u32::from(c) < 0x20 => out.push_str(&format!("\\u{:04x}", u32::from(c))),
            c => out.push(c),
        }
    }
    out.push('"');
}
