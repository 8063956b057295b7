//! The `scale` subresource: an object seen as an `autoscaling/v1` `Scale`, and a scale
//! written back into the object's replicas.

use serde_json::{json, Map, Value};

use crate::resource::ScaleSpec;
use crate::status::StatusError;
use crate::store::Obj;

/// The segments of a CRD-style JSON path such as `.spec.replicas`.
fn segments(path: &str) -> Vec<&str> {
    path.split('.').filter(|s| !s.is_empty()).collect()
}

fn at<'a>(obj: &'a Value, path: &str) -> Option<&'a Value> {
    segments(path).iter().try_fold(obj, |v, seg| v.get(seg))
}

/// The `Scale` of `obj`: its name, namespace, uid, resourceVersion and creation time,
/// the desired replicas, the observed replicas and the selector.
pub(crate) fn of(scale: &ScaleSpec, obj: &Obj) -> Result<Value, StatusError> {
    let value = obj.to_value()?;
    let replicas = |path: &str| at(&value, path).and_then(Value::as_i64).unwrap_or(0);
    let mut metadata = Map::new();
    for field in [
        "name",
        "namespace",
        "uid",
        "resourceVersion",
        "creationTimestamp",
    ] {
        if let Some(v) = value.get("metadata").and_then(|m| m.get(field)) {
            metadata.insert(field.to_owned(), v.clone());
        }
    }
    let mut status = json!({"replicas": replicas(&scale.status_replicas_path)});
    let selector = match &scale.label_selector_path {
        Some(path) => at(&value, path).and_then(Value::as_str).map(str::to_owned),
        None => value
            .get("spec")
            .and_then(|s| s.get("selector"))
            .map(selector_string),
    };
    if let Some(sel) = selector.filter(|s| !s.is_empty()) {
        status["selector"] = Value::String(sel);
    }
    Ok(json!({
        "kind": "Scale",
        "apiVersion": "autoscaling/v1",
        "metadata": metadata,
        "spec": {"replicas": replicas(&scale.spec_replicas_path)},
        "status": status,
    }))
}

/// `Scale.spec.replicas` of a written scale: an integer, not negative (422 otherwise).
pub(crate) fn replicas(scale: &Value, name: &str) -> Result<i64, StatusError> {
    let invalid =
        |msg: String| StatusError::invalid("Scale", "autoscaling", name, &[("spec.replicas", msg)]);
    match scale.get("spec").and_then(|s| s.get("replicas")) {
        None | Some(Value::Null) => Ok(0),
        Some(v) => match v.as_i64() {
            Some(n) if n >= 0 => Ok(n),
            Some(n) => Err(invalid(format!(
                "Invalid value: {n}: must be greater than or equal to 0"
            ))),
            None => Err(StatusError::bad_request(format!(
                "json: cannot unmarshal {v} into Go struct field ScaleSpec.spec.replicas of type int32"
            ))),
        },
    }
}

/// Sets the object's desired replicas (at the scale's spec path) to `n`.
pub(crate) fn set_replicas(scale: &ScaleSpec, obj: &mut Value, n: i64) -> Result<(), StatusError> {
    let segs = segments(&scale.spec_replicas_path);
    let Some((last, parents)) = segs.split_last() else {
        return Err(StatusError::internal(
            "the scale's spec replicas path is empty",
        ));
    };
    let mut cur = obj;
    for seg in parents {
        let map = cur
            .as_object_mut()
            .ok_or_else(|| StatusError::internal("the replicas path crosses a non-object"))?;
        cur = map
            .entry((*seg).to_owned())
            .or_insert_with(|| Value::Object(Map::new()));
    }
    cur.as_object_mut()
        .ok_or_else(|| StatusError::internal("the replicas path crosses a non-object"))?
        .insert((*last).to_owned(), Value::from(n));
    Ok(())
}

/// A `LabelSelector` (`matchLabels`/`matchExpressions`), or a ReplicationController's
/// plain label map, in the string form `Scale.status.selector` carries: requirements
/// sorted by key, as kube-apiserver prints them.
fn selector_string(sel: &Value) -> String {
    let Some(map) = sel.as_object() else {
        return String::new();
    };
    let structured = map.contains_key("matchLabels") || map.contains_key("matchExpressions");
    let labels = if structured {
        map.get("matchLabels").and_then(Value::as_object)
    } else {
        Some(map)
    };
    let mut reqs: Vec<(String, String)> = labels
        .into_iter()
        .flatten()
        .filter_map(|(k, v)| v.as_str().map(|v| (k.clone(), format!("{k}={v}"))))
        .collect();
    for e in map
        .get("matchExpressions")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
    {
        let key = e.get("key").and_then(Value::as_str).unwrap_or_default();
        let mut values: Vec<&str> = e
            .get("values")
            .and_then(Value::as_array)
            .map(|vs| vs.iter().filter_map(Value::as_str).collect())
            .unwrap_or_default();
        values.sort_unstable();
        let text = match e.get("operator").and_then(Value::as_str) {
            Some("In") => format!("{key} in ({})", values.join(",")),
            Some("NotIn") => format!("{key} notin ({})", values.join(",")),
            Some("Exists") => key.to_owned(),
            Some("DoesNotExist") => format!("!{key}"),
            _ => continue,
        };
        reqs.push((key.to_owned(), text));
    }
    reqs.sort_by(|a, b| a.0.cmp(&b.0));
    reqs.into_iter()
        .map(|(_, t)| t)
        .collect::<Vec<_>>()
        .join(",")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn selectors_print_as_the_server_prints_them() {
        let sel = json!({"matchLabels": {"tier": "web", "app": "shop"},
            "matchExpressions": [{"key": "env", "operator": "In", "values": ["prod", "canary"]},
                                 {"key": "legacy", "operator": "DoesNotExist"}]});
        assert_eq!(
            selector_string(&sel),
            "app=shop,env in (canary,prod),!legacy,tier=web"
        );
        assert_eq!(selector_string(&json!({"app": "x"})), "app=x");
    }
}
