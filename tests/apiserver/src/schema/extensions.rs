//! The checks of the Kubernetes list and map extensions that the CRD validator's walk
//! over a schema node makes (`ValidateCustomResourceDefinitionOpenAPISchema` and
//! `validateMapListKeysMapSet`): `x-kubernetes-list-type`, `-list-map-keys` and
//! `-map-type` must describe a list or map that server-side apply and the list
//! validation can actually merge and key, so a CRD that cannot be keyed is refused.

use serde_json::{json, Map, Value};

use super::field::FieldError;
use super::strings;

type Node = Map<String, Value>;

/// Adds the extension errors of the node `node` at `path`, in Go's order.
pub(crate) fn check(node: &Node, path: &str, errs: &mut Vec<FieldError>) {
    let ty = node.get("type").and_then(Value::as_str).unwrap_or("");
    let text = |k: &str| node.get(k).and_then(Value::as_str);
    let list_type = text("x-kubernetes-list-type");
    let map_type = text("x-kubernetes-map-type");
    let keys = strings(node.get("x-kubernetes-list-map-keys"));
    let items = node.get("items").filter(|i| !i.is_null());
    let item = items.and_then(Value::as_object);
    let item_text = |k: &str| item.and_then(|i| i.get(k)).and_then(Value::as_str);
    let item_type = item_text("type").unwrap_or("");

    if node.get("x-kubernetes-preserve-unknown-fields") == Some(&Value::Bool(false)) {
        errs.push(FieldError::invalid(
            format!("{path}.x-kubernetes-preserve-unknown-fields"),
            json!(false),
            "must be true or undefined",
        ));
    }
    if let Some(mt) = map_type {
        if ty != "object" {
            type_must_be(
                errs,
                path,
                ty,
                "must be object if x-kubernetes-map-type is specified",
            );
        }
        if mt != "atomic" && mt != "granular" {
            errs.push(FieldError::not_supported(
                format!("{path}.x-kubernetes-map-type"),
                json!(mt),
                &["atomic".into(), "granular".into()],
            ));
        }
    }
    if list_type.is_some() && ty != "array" {
        type_must_be(
            errs,
            path,
            ty,
            "must be array if x-kubernetes-list-type is specified",
        );
    } else if let (Some("set"), Some(item)) = (list_type, item) {
        // Set elements are compared whole, so they must be atomic themselves.
        let atomic = "must be atomic as item of a list with x-kubernetes-list-type=set";
        let item_list_type = item.get("x-kubernetes-list-type").and_then(Value::as_str);
        let item_map_type = item.get("x-kubernetes-map-type").and_then(Value::as_str);
        match item_type {
            "array" => {
                if let Some(lt) = item_list_type.filter(|lt| *lt != "atomic") {
                    errs.push(FieldError::invalid(
                        format!("{path}.items.x-kubernetes-list-type"),
                        json!(lt),
                        atomic,
                    ));
                }
            }
            "object" if item_map_type != Some("atomic") => {
                // Go reports the item's list type here (usually unset: "null").
                errs.push(FieldError::invalid(
                    format!("{path}.items.x-kubernetes-map-type"),
                    json!(item_list_type.unwrap_or("null")),
                    atomic,
                ));
            }
            _ => {}
        }
    }
    if let Some(lt) = list_type.filter(|lt| !["atomic", "set", "map"].contains(lt)) {
        errs.push(FieldError::not_supported(
            format!("{path}.x-kubernetes-list-type"),
            json!(lt),
            &["atomic".into(), "set".into(), "map".into()],
        ));
    }
    if !keys.is_empty() {
        let detail = "must be map if x-kubernetes-list-map-keys is non-empty";
        match list_type {
            None => errs.push(FieldError::required(
                format!("{path}.x-kubernetes-list-type"),
                detail,
            )),
            Some(lt) if lt != "map" => errs.push(FieldError::invalid(
                format!("{path}.x-kubernetes-list-type"),
                json!(lt),
                detail,
            )),
            Some(_) => {}
        }
    }
    if list_type == Some("map") {
        if keys.is_empty() {
            errs.push(FieldError::required(
                format!("{path}.x-kubernetes-list-map-keys"),
                "must not be empty if x-kubernetes-list-type is map",
            ));
        }
        if items.is_none() {
            errs.push(FieldError::required(
                format!("{path}.items"),
                "must have a schema if x-kubernetes-list-type is map",
            ));
        }
        if item.is_some() && item_type != "object" {
            errs.push(FieldError::invalid(
                format!("{path}.items.type"),
                json!(item_type),
                "must be object if parent array's x-kubernetes-list-type is map",
            ));
        }
        if let Some(item) = item.filter(|_| item_type == "object") {
            let props = item.get("properties").and_then(Value::as_object);
            let mut seen: Vec<&str> = Vec::new();
            for k in &keys {
                match props.and_then(|p| p.get(k)) {
                    Some(key_schema) => {
                        let key_type = key_schema.get("type").and_then(Value::as_str);
                        if matches!(key_type, Some("array" | "object")) {
                            // Go reports the item's type, not the key's.
                            errs.push(FieldError::invalid(
                                format!("{path}.items.properties[{k}].type"),
                                json!(item_type),
                                "must be a scalar type if parent array's x-kubernetes-list-type is map",
                            ));
                        }
                    }
                    None => errs.push(FieldError::invalid(
                        format!("{path}.x-kubernetes-list-map-keys"),
                        json!(keys),
                        "entries must all be names of item properties",
                    )),
                }
                if seen.contains(&k.as_str()) {
                    errs.push(FieldError::invalid(
                        format!("{path}.x-kubernetes-list-map-keys"),
                        json!(keys),
                        "must not contain duplicate entries",
                    ));
                }
                seen.push(k);
            }
        }
    }
    map_list_keys_map_set(list_type, &keys, item, path, errs);
}

/// `type` must be `want`: `Required` when unset, else `Invalid`.
fn type_must_be(errs: &mut Vec<FieldError>, path: &str, ty: &str, detail: &str) {
    let field = format!("{path}.type");
    errs.push(if ty.is_empty() {
        FieldError::required(field, detail)
    } else {
        FieldError::invalid(field, json!(ty), detail)
    });
}

/// `validateMapListKeysMapSet`: elements of sets and maps cannot be null (they could
/// not be compared or keyed), and every map key needs a value on every element: it
/// must be required or defaulted, and cannot be null.
fn map_list_keys_map_set(
    list_type: Option<&str>,
    keys: &[String],
    item: Option<&Node>,
    path: &str,
    errs: &mut Vec<FieldError>,
) {
    let (Some(lt @ ("set" | "map")), Some(item)) = (list_type, item) else {
        return;
    };
    let flag = |n: &Value, k: &str| n.get(k).and_then(Value::as_bool).unwrap_or(false);
    if item
        .get("nullable")
        .and_then(Value::as_bool)
        .unwrap_or(false)
    {
        errs.push(FieldError::forbidden(
            format!("{path}.items.nullable"),
            format!("cannot be nullable when x-kubernetes-list-type is {lt}"),
        ));
    }
    if lt != "map" {
        return;
    }
    let required = strings(item.get("required"));
    let props = item.get("properties").and_then(Value::as_object);
    for k in keys {
        let Some(key_schema) = props.and_then(|p| p.get(k)) else {
            continue;
        };
        if !required.contains(k) && key_schema.get("default").is_none_or(Value::is_null) {
            errs.push(FieldError::required(format!("{path}.items.properties[{k}].default"), "this property is in x-kubernetes-list-map-keys, so it must have a default or be a required property"));
        }
        if flag(key_schema, "nullable") {
            errs.push(FieldError::forbidden(
                format!("{path}.items.properties[{k}].nullable"),
                "this property is in x-kubernetes-list-map-keys, so it cannot be nullable",
            ));
        }
    }
}
