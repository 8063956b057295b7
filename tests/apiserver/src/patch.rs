//! The patch formats: JSON merge patch (RFC 7386), JSON patch (RFC 6902, with RFC 6901
//! pointers), for built-in resources strategic merge patch (`informer_merge`), with
//! kube-apiserver's answers to bad ones; and the media type and body of server-side
//! apply, which `managed_fields` serves.

use informer_merge::schema::{self, SchemaRef};
use informer_merge::strategic::{self, ErrorKind};
use serde_json::{Map, Value};

use crate::resource::ResourceSpec;
use crate::status::StatusError;

const JSON_PATCH: &str = "application/json-patch+json";
const MERGE_PATCH: &str = "application/merge-patch+json";
const STRATEGIC_MERGE_PATCH: &str = "application/strategic-merge-patch+json";
const APPLY_PATCH: &str = "application/apply-patch+yaml";

/// A patch as the request's content type names it.
#[derive(Clone, Debug)]
pub(crate) enum Patch {
    /// `application/merge-patch+json`.
    Merge(Value),
    /// `application/json-patch+json`.
    Json(Value),
    /// `application/strategic-merge-patch+json`, with the type of the patched object.
    Strategic(Value, SchemaRef<'static>),
}

impl Patch {
    /// The media types this server accepts for PATCH on a built-in resource, in
    /// kube-apiserver's order.
    pub const ACCEPTED_BUILTIN: [&'static str; 4] =
        [JSON_PATCH, MERGE_PATCH, STRATEGIC_MERGE_PATCH, APPLY_PATCH];

    /// The media types this server accepts for PATCH on a custom resource: no strategic
    /// merge patch, as kube-apiserver.
    pub const ACCEPTED_CUSTOM: [&'static str; 3] = [JSON_PATCH, MERGE_PATCH, APPLY_PATCH];

    /// The media types this server accepts for PATCH on `scale`: server-side apply of a
    /// `Scale` is not served (see the README).
    const ACCEPTED_SCALE: [&'static str; 3] = [JSON_PATCH, MERGE_PATCH, STRATEGIC_MERGE_PATCH];

    /// Whether a request with this content type is a server-side apply; 415 for one to
    /// the `scale` subresource.
    pub fn is_apply(content_type: &str, sub: Option<&str>) -> Result<bool, StatusError> {
        let media_type = content_type.split(';').next().unwrap_or("").trim();
        if media_type != APPLY_PATCH {
            return Ok(false);
        }
        if sub == Some("scale") {
            return Err(StatusError::unsupported_media_type(&Self::ACCEPTED_SCALE));
        }
        Ok(true)
    }

    /// The applied configuration of a server-side apply body (YAML, or JSON, which YAML
    /// reads): an object, else kube-apiserver's 400.
    pub fn apply_config(body: &[u8]) -> Result<Value, StatusError> {
        let bad = |e: String| StatusError::bad_request(format!("error decoding YAML: {e}"));
        let value: Value = serde_yaml_ng::from_slice(body).map_err(|e| bad(e.to_string()))?;
        match value {
            Value::Object(_) => Ok(value),
            // An empty body is a null document: an empty configuration.
            Value::Null => Ok(Value::Object(Map::new())),
            other => Err(bad(format!(
                "error unmarshaling JSON: while decoding JSON: json: cannot unmarshal {} into Go value of type map[string]interface {{}}",
                go_json_type(&other)
            ))),
        }
    }

    /// The patch of a request with this content type (parameters such as `charset`
    /// ignored) to `spec`'s resource or its subresource `sub`; 415 for a type the
    /// resource does not accept. A resource is built in when the built-in schema table
    /// has its kind; strategic merge patches of `scale` patch the `autoscaling/v1` `Scale`.
    pub fn from_request(
        content_type: &str,
        body: Value,
        spec: &ResourceSpec,
        sub: Option<&str>,
    ) -> Result<Self, StatusError> {
        let table = schema::builtin();
        let root = SchemaRef::root(table, &spec.api_version(), &spec.kind).and_then(|root| {
            if sub == Some("scale") {
                SchemaRef::root(table, "autoscaling/v1", "Scale")
            } else {
                Some(root)
            }
        });
        match (content_type.split(';').next().unwrap_or("").trim(), root) {
            (MERGE_PATCH, _) => Ok(Self::Merge(body)),
            (JSON_PATCH, _) => Ok(Self::Json(body)),
            (STRATEGIC_MERGE_PATCH, Some(root)) => Ok(Self::Strategic(body, root)),
            (_, Some(_)) => Err(StatusError::unsupported_media_type(&Self::ACCEPTED_BUILTIN)),
            (_, None) => Err(StatusError::unsupported_media_type(&Self::ACCEPTED_CUSTOM)),
        }
    }

    /// Applies the patch to `target`, with kube-apiserver's 400 for a malformed patch and
    /// 422 for one that does not apply (and, for strategic merge patches, its 500s).
    pub fn apply(&self, target: &mut Value) -> Result<(), StatusError> {
        match self {
            Self::Merge(patch) => {
                if !patch.is_object() {
                    return Err(StatusError::bad_request("Invalid JSON Patch"));
                }
                merge_patch(target, patch);
                Ok(())
            }
            Self::Json(ops) => json_patch(target, ops),
            Self::Strategic(patch, root) => {
                let mut patched =
                    strategic::apply(target, patch, *root).map_err(strategic_error)?;
                drop_untyped(&mut patched);
                *target = patched;
                Ok(())
            }
        }
    }
}

/// kube-apiserver's answer to a strategic merge patch that does not apply.
fn strategic_error(e: strategic::Error) -> StatusError {
    match e.kind() {
        ErrorKind::BadRequest => StatusError::bad_request(e.to_string()),
        ErrorKind::Invalid => StatusError::patch_not_applicable(),
        // Errors that are not API statuses: 500 with an empty (unknown) reason.
        ErrorKind::Internal => StatusError::new(500, "", e.to_string()),
        ErrorKind::Panic => StatusError::new(
            500,
            "InternalError",
            "This request caused apiserver to panic. Look in the logs for details.",
        ),
    }
}

/// Drops the `null` values and the `$`-keys (directives left in added items) from the
/// objects of a patched value, as kube-apiserver's conversion of the result to its Go
/// type does: no Kubernetes field starts with `$`, and a `null` field is left unset.
fn drop_untyped(value: &mut Value) {
    match value {
        Value::Object(map) => {
            map.retain(|k, v| !v.is_null() && !k.starts_with('$'));
            map.values_mut().for_each(drop_untyped);
        }
        Value::Array(list) => list.iter_mut().for_each(drop_untyped),
        _ => {}
    }
}

/// Applies an RFC 7386 JSON merge patch to `target`.
pub(crate) fn merge_patch(target: &mut Value, patch: &Value) {
    let Value::Object(patch_map) = patch else {
        *target = patch.clone();
        return;
    };
    if !target.is_object() {
        *target = Value::Object(Map::new());
    }
    if let Value::Object(t) = target {
        for (k, v) in patch_map {
            if v.is_null() {
                t.remove(k);
            } else {
                merge_patch(t.entry(k.clone()).or_insert(Value::Null), v);
            }
        }
    }
}

/// Go's name for a JSON value's type, as `encoding/json` reports unmarshal errors.
fn go_json_type(v: &Value) -> &'static str {
    match v {
        Value::Null => "null",
        Value::Bool(_) => "bool",
        Value::Number(_) => "number",
        Value::String(_) => "string",
        Value::Array(_) => "array",
        Value::Object(_) => "object",
    }
}

/// Applies an RFC 6902 JSON patch to `target`, all or nothing. A patch that is not an
/// array of objects is 400 BadRequest (it does not decode); an operation that does not
/// apply is kube-apiserver's generic 422.
pub(crate) fn json_patch(target: &mut Value, ops: &Value) -> Result<(), StatusError> {
    let Value::Array(list) = ops else {
        return Err(StatusError::bad_request(format!(
            "json: cannot unmarshal {} into Go value of type jsonpatch.Patch",
            go_json_type(ops)
        )));
    };
    if let Some(bad) = list.iter().find(|op| !op.is_object() && !op.is_null()) {
        return Err(StatusError::bad_request(format!(
            "json: cannot unmarshal {} into Go value of type jsonpatch.Operation",
            go_json_type(bad)
        )));
    }
    let mut doc = target.clone();
    for op in list {
        apply_op(&mut doc, op).map_err(|_| StatusError::patch_not_applicable())?;
    }
    *target = doc;
    Ok(())
}

/// Why one operation does not apply (kube-apiserver does not show it).
#[derive(Debug)]
struct NotApplicable;

fn apply_op(doc: &mut Value, op: &Value) -> Result<(), NotApplicable> {
    let field = |name: &str| op.get(name);
    let text = |name: &str| field(name).and_then(Value::as_str).ok_or(NotApplicable);
    let path = pointer(text("path")?)?;
    match text("op")? {
        "add" => add(doc, &path, field("value").ok_or(NotApplicable)?.clone()),
        "remove" => remove(doc, &path).map(drop),
        "replace" => {
            let value = field("value").ok_or(NotApplicable)?.clone();
            let slot = resolve_mut(doc, &path).ok_or(NotApplicable)?;
            *slot = value;
            Ok(())
        }
        "move" => {
            let from = pointer(text("from")?)?;
            if path.len() > from.len() && path[..from.len()] == from[..] {
                return Err(NotApplicable);
            }
            let value = remove(doc, &from)?;
            add(doc, &path, value)
        }
        "copy" => {
            let from = pointer(text("from")?)?;
            let value = resolve(doc, &from).ok_or(NotApplicable)?.clone();
            add(doc, &path, value)
        }
        "test" => {
            let expected = field("value").unwrap_or(&Value::Null);
            match resolve(doc, &path) {
                Some(actual) if actual == expected => Ok(()),
                None if expected.is_null() => Ok(()),
                _ => Err(NotApplicable),
            }
        }
        _ => Err(NotApplicable),
    }
}

/// The reference tokens of an RFC 6901 pointer (`~1` is `/`, `~0` is `~`).
fn pointer(text: &str) -> Result<Vec<String>, NotApplicable> {
    if text.is_empty() {
        return Ok(Vec::new());
    }
    let rest = text.strip_prefix('/').ok_or(NotApplicable)?;
    Ok(rest
        .split('/')
        .map(|t| t.replace("~1", "/").replace("~0", "~"))
        .collect())
}

/// An array index token: digits without a leading zero, below `len` (or equal to it
/// when `append_ok`, for an add at the end).
fn index(token: &str, len: usize, append_ok: bool) -> Result<usize, NotApplicable> {
    if token == "-" && append_ok {
        return Ok(len);
    }
    let valid = !token.is_empty()
        && token.bytes().all(|b| b.is_ascii_digit())
        && (token == "0" || !token.starts_with('0'));
    let i: usize = if valid {
        token.parse().map_err(|_| NotApplicable)?
    } else {
        return Err(NotApplicable);
    };
    if i < len || (append_ok && i == len) {
        Ok(i)
    } else {
        Err(NotApplicable)
    }
}

fn resolve<'a>(doc: &'a Value, path: &[String]) -> Option<&'a Value> {
    path.iter().try_fold(doc, |v, token| match v {
        Value::Object(m) => m.get(token),
        Value::Array(a) => index(token, a.len(), false).ok().and_then(|i| a.get(i)),
        _ => None,
    })
}

fn resolve_mut<'a>(doc: &'a mut Value, path: &[String]) -> Option<&'a mut Value> {
    path.iter().try_fold(doc, |v, token| match v {
        Value::Object(m) => m.get_mut(token),
        Value::Array(a) => {
            let len = a.len();
            index(token, len, false)
                .ok()
                .and_then(move |i| a.get_mut(i))
        }
        _ => None,
    })
}

fn add(doc: &mut Value, path: &[String], value: Value) -> Result<(), NotApplicable> {
    let Some((last, parent)) = path.split_last() else {
        *doc = value;
        return Ok(());
    };
    match resolve_mut(doc, parent).ok_or(NotApplicable)? {
        Value::Object(m) => {
            m.insert(last.clone(), value);
            Ok(())
        }
        Value::Array(a) => {
            let i = index(last, a.len(), true)?;
            a.insert(i, value);
            Ok(())
        }
        _ => Err(NotApplicable),
    }
}

fn remove(doc: &mut Value, path: &[String]) -> Result<Value, NotApplicable> {
    let (last, parent) = path.split_last().ok_or(NotApplicable)?;
    match resolve_mut(doc, parent).ok_or(NotApplicable)? {
        Value::Object(m) => m.remove(last).ok_or(NotApplicable),
        Value::Array(a) => {
            let i = index(last, a.len(), false)?;
            Ok(a.remove(i))
        }
        _ => Err(NotApplicable),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn patched(doc: Value, ops: Value) -> Result<Value, StatusError> {
        let mut doc = doc;
        json_patch(&mut doc, &ops).map(|()| doc)
    }

    #[test]
    fn merge_patch_follows_rfc7386() {
        let mut t = json!({"a": "b", "c": {"d": "e", "f": "g"}, "l": [1]});
        merge_patch(&mut t, &json!({"a": "z", "c": {"f": null}, "l": [2, 3]}));
        assert_eq!(t, json!({"a": "z", "c": {"d": "e"}, "l": [2, 3]}));
    }

    #[test]
    fn json_patch_operations_follow_rfc6902() {
        let doc = json!({"a": {"b": [1, 2]}, "k~/x": 1});
        let out = patched(
            doc,
            json!([
                {"op": "add", "path": "/a/b/-", "value": 3},
                {"op": "add", "path": "/a/b/0", "value": 0},
                {"op": "replace", "path": "/k~0~1x", "value": 2},
                {"op": "copy", "from": "/a/b", "path": "/c"},
                {"op": "move", "from": "/a/b/1", "path": "/m"},
                {"op": "remove", "path": "/a/b/0"},
                {"op": "test", "path": "/c/3", "value": 3},
            ]),
        )
        .unwrap();
        assert_eq!(
            out,
            json!({"a": {"b": [2, 3]}, "k~/x": 2, "c": [0, 1, 2, 3], "m": 1})
        );
    }

    #[test]
    fn failing_operations_change_nothing_and_answer_422() {
        let doc = json!({"a": 1, "l": [1]});
        for op in [
            json!({"op": "test", "path": "/a", "value": 2}),
            json!({"op": "remove", "path": "/missing"}),
            json!({"op": "replace", "path": "/missing", "value": 1}),
            json!({"op": "add", "path": "/l/5", "value": 1}),
            json!({"op": "add", "path": "/l/01", "value": 1}),
            json!({"op": "add", "path": "/no/parent", "value": 1}),
            json!({"op": "move", "from": "/a", "path": "/a/x"}),
            json!({"op": "frobnicate", "path": "/a"}),
            json!({"op": "add", "path": "a", "value": 1}),
        ] {
            let mut d = doc.clone();
            let e = json_patch(
                &mut d,
                &json!([{"op": "add", "path": "/z", "value": 0}, op]),
            )
            .unwrap_err();
            assert_eq!((e.code, e.reason.as_str()), (422, "Invalid"), "{op}");
            assert_eq!(d, doc, "{op}");
        }
        let e = json_patch(&mut doc.clone(), &json!({"op": "add"})).unwrap_err();
        assert_eq!(e.code, 400);
        assert_eq!(
            e.message,
            "json: cannot unmarshal object into Go value of type jsonpatch.Patch"
        );
    }
}
