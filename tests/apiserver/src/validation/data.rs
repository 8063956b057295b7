//! ConfigMaps and Secrets as their registries take them: a Secret's `stringData` merged
//! into `data` and its `type` defaulted when decoded, base64 byte fields that must
//! decode, and `ValidateConfigMap`/`ValidateSecret`'s checks of keys, sizes, `type` and
//! `immutable`.

use base64::engine::general_purpose::STANDARD;
use base64::{DecodeError, Engine};
use serde_json::{Map, Value};

use super::names;
use crate::resource::ResourceSpec;
use crate::schema::field::go_quote;
use crate::status::StatusError;

/// `MaxSecretSize`: the most `data` (and a ConfigMap's `binaryData`) may hold, decoded.
const MAX_SIZE: usize = 1024 * 1024;

/// A field error: the field path and the body, as in [`super::objectmeta`].
type FieldError = (String, String);

/// Which of the two resources `spec` is, if either.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Kind {
    ConfigMap,
    Secret,
}

fn kind(spec: &ResourceSpec) -> Option<Kind> {
    match (spec.group.as_str(), spec.plural.as_str()) {
        ("", "configmaps") => Some(Kind::ConfigMap),
        ("", "secrets") => Some(Kind::Secret),
        _ => None,
    }
}

/// What decoding a ConfigMap or Secret does before anything else sees it: byte fields
/// must be base64 (else 400, as the decoder answers), a Secret's `stringData` entries
/// replace the `data` entries of the same key (base64-encoded) and `stringData` goes,
/// and an empty `type` becomes `Opaque`.
pub(crate) fn decode(spec: &ResourceSpec, obj: &mut Value) -> Result<(), StatusError> {
    let Some(which) = kind(spec) else {
        return Ok(());
    };
    let bytes_field = match which {
        Kind::ConfigMap => "binaryData",
        Kind::Secret => "data",
    };
    if let Some(map) = obj.get(bytes_field).and_then(Value::as_object) {
        for v in map.values().filter_map(Value::as_str) {
            STANDARD
                .decode(v)
                .map_err(|e| undecodable(&spec.kind, &e, v))?;
        }
    }
    if which == Kind::ConfigMap {
        return Ok(());
    }
    let Some(map) = obj.as_object_mut() else {
        return Ok(());
    };
    if let Some(Value::Object(strings)) = map.remove("stringData") {
        let data = map
            .entry("data")
            .or_insert_with(|| Value::Object(Map::new()));
        if !data.is_object() {
            *data = Value::Object(Map::new());
        }
        if let Some(data) = data.as_object_mut() {
            for (k, v) in strings {
                if let Some(s) = v.as_str() {
                    data.insert(k, Value::String(STANDARD.encode(s)));
                }
            }
        }
    }
    if map
        .get("type")
        .and_then(Value::as_str)
        .is_none_or(str::is_empty)
    {
        map.insert("type".into(), Value::String("Opaque".into()));
    }
    Ok(())
}

/// The decoder's 400 for a byte field that is not base64.
fn undecodable(kind: &str, e: &DecodeError, value: &str) -> StatusError {
    let at = match e {
        DecodeError::InvalidByte(i, _) | DecodeError::InvalidLastSymbol(i, _) => *i,
        DecodeError::InvalidLength(_) | DecodeError::InvalidPadding => value.len(),
    };
    StatusError::bad_request(format!(
        "{kind} in version \"v1\" cannot be handled as a {kind}: illegal base64 data at input byte {at}"
    ))
}

/// The string entries of `obj[field]`, in key order.
fn entries<'a>(obj: &'a Value, field: &str) -> Vec<(&'a str, &'a str)> {
    obj.as_object()
        .map(|m| super::objectmeta::string_map(m, field))
        .unwrap_or_default()
}

/// The decoded length of a base64 value (0 when it does not decode, which `decode`
/// already refused).
fn decoded_len(v: &str) -> usize {
    STANDARD.decode(v).map_or(0, |b| b.len())
}

fn key_errors(field: &str, key: &str) -> Vec<FieldError> {
    names::config_map_key(key)
        .into_iter()
        .map(|msg| {
            (
                format!("{field}[{key}]"),
                format!("Invalid value: {}: {msg}", go_quote(key)),
            )
        })
        .collect()
}

/// `ValidateConfigMap`/`ValidateSecret` beyond `metadata`: keys are config keys, a
/// ConfigMap key is in `data` or `binaryData` but not both, and the values fit in 1 MiB.
pub(crate) fn errors(spec: &ResourceSpec, obj: &Value) -> Vec<FieldError> {
    let too_long = |field: &str| {
        (
            field.to_owned(),
            format!("Too long: may not be more than {MAX_SIZE} bytes"),
        )
    };
    let mut errs = Vec::new();
    match kind(spec) {
        Some(Kind::ConfigMap) => {
            let binary = entries(obj, "binaryData");
            let mut size = 0;
            for (k, v) in entries(obj, "data") {
                errs.extend(key_errors("data", k));
                if binary.iter().any(|(b, _)| *b == k) {
                    errs.push((
                        format!("data[{k}]"),
                        format!(
                            "Invalid value: {}: duplicate of key present in binaryData",
                            go_quote(k)
                        ),
                    ));
                }
                size += v.len();
            }
            for (k, v) in &binary {
                errs.extend(key_errors("binaryData", k));
                size += decoded_len(v);
            }
            if size > MAX_SIZE {
                errs.push(too_long(""));
            }
        }
        Some(Kind::Secret) => {
            let mut size = 0;
            for (k, v) in entries(obj, "data") {
                errs.extend(key_errors("data", k));
                size += decoded_len(v);
            }
            if size > MAX_SIZE {
                errs.push(too_long("data"));
            }
        }
        None => {}
    }
    errs
}

/// `ValidateConfigMapUpdate`/`ValidateSecretUpdate` before they validate the new object
/// as a create would: a Secret's `type` is immutable, and nothing of an `immutable`
/// object's data may change.
pub(crate) fn update_errors(spec: &ResourceSpec, old: &Value, new: &Value) -> Vec<FieldError> {
    let Some(which) = kind(spec) else {
        return Vec::new();
    };
    let mut errs = Vec::new();
    if which == Kind::Secret {
        let t = new.get("type").and_then(Value::as_str).unwrap_or_default();
        if Some(t) != old.get("type").and_then(Value::as_str) {
            errs.push((
                "type".to_owned(),
                format!("Invalid value: {}: field is immutable", go_quote(t)),
            ));
        }
    }
    let is_immutable = |o: &Value| o.get("immutable").and_then(Value::as_bool) == Some(true);
    if is_immutable(old) {
        let forbidden = |field: &str| {
            (
                field.to_owned(),
                "Forbidden: field is immutable when `immutable` is set".to_owned(),
            )
        };
        if !is_immutable(new) {
            errs.push(forbidden("immutable"));
        }
        let fields: &[&str] = match which {
            Kind::ConfigMap => &["data", "binaryData"],
            Kind::Secret => &["data"],
        };
        for f in fields {
            let present = |o: &Value| o.get(*f).filter(|v| !v.is_null()).cloned();
            if present(new) != present(old) {
                errs.push(forbidden(f));
            }
        }
    }
    errs
}

/// True for the resources whose update validation ends by validating the new object as
/// a create (`ValidateConfigMapUpdate`, `ValidateSecretUpdate`).
pub(crate) fn revalidates_on_update(spec: &ResourceSpec) -> bool {
    kind(spec).is_some()
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn secrets() -> ResourceSpec {
        crate::builtin_resources()
            .into_iter()
            .find(|s| s.plural == "secrets")
            .expect("secrets")
    }

    #[test]
    fn string_data_replaces_data_and_type_defaults() {
        let mut s =
            json!({"data": {"a": "eA==", "b": "eQ=="}, "stringData": {"b": "zz", "c": "w"}});
        decode(&secrets(), &mut s).unwrap();
        assert_eq!(
            s,
            json!({"data": {"a": "eA==", "b": "eno=", "c": "dw=="}, "type": "Opaque"})
        );
        let mut bad = json!({"data": {"a": "e!=="}});
        assert_eq!(
            decode(&secrets(), &mut bad).unwrap_err().message,
            "Secret in version \"v1\" cannot be handled as a Secret: illegal base64 data at input byte 1"
        );
    }
}
