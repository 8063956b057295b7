//! The four patch types kube-apiserver accepts, each with its content type.

use serde::Serialize;

/// A patch and how the server applies it.
///
/// ```no_run
/// # use informer_client::api::Patch;
/// # use serde_json::json;
/// let merge = Patch::Merge(json!({"metadata": {"labels": {"tier": "web"}}}));
/// let json = Patch::Json(json!([
///     {"op": "test", "path": "/metadata/resourceVersion", "value": "42"},
///     {"op": "replace", "path": "/spec/replicas", "value": 3},
/// ]));
/// ```
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub enum Patch<P> {
    /// Server-side apply (`application/apply-patch+yaml`): the fields the field manager
    /// wants set, usually a whole object with `apiVersion` and `kind`. Needs
    /// [`PatchParams::apply`](super::PatchParams::apply).
    Apply(P),
    /// RFC 6902 JSON patch (`application/json-patch+json`): `P` serializes to an array of
    /// operations (`add`, `remove`, `replace`, `move`, `copy`, `test`); a failing `test`
    /// fails the whole patch.
    Json(P),
    /// RFC 7386 JSON merge patch (`application/merge-patch+json`): objects merge, `null`
    /// deletes, lists are replaced whole.
    Merge(P),
    /// Strategic merge patch (`application/strategic-merge-patch+json`): a merge patch whose
    /// lists merge by key (containers by name, ...). Built-in resources only; custom
    /// resources answer 415.
    Strategic(P),
}

impl<P> Patch<P> {
    /// The `Content-Type` of the request.
    pub fn content_type(&self) -> &'static str {
        match self {
            Patch::Apply(_) => "application/apply-patch+yaml",
            Patch::Json(_) => "application/json-patch+json",
            Patch::Merge(_) => "application/merge-patch+json",
            Patch::Strategic(_) => "application/strategic-merge-patch+json",
        }
    }

    /// A short name for messages: `apply`, `json`, `merge`, `strategic`.
    pub fn kind(&self) -> &'static str {
        match self {
            Patch::Apply(_) => "apply",
            Patch::Json(_) => "json",
            Patch::Merge(_) => "merge",
            Patch::Strategic(_) => "strategic",
        }
    }

    fn payload(&self) -> &P {
        match self {
            Patch::Apply(p) | Patch::Json(p) | Patch::Merge(p) | Patch::Strategic(p) => p,
        }
    }
}

impl<P: Serialize> Patch<P> {
    /// The request body: JSON (YAML's superset, so apply takes it too). A JSON patch must be
    /// an array of operations.
    pub(crate) fn body(&self) -> Result<Vec<u8>, String> {
        let value = serde_json::to_value(self.payload())
            .map_err(|e| format!("cannot encode the {} patch: {e}", self.kind()))?;
        if matches!(self, Patch::Json(_)) && !value.is_array() {
            return Err("a JSON patch must be an array of operations".to_owned());
        }
        if !matches!(self, Patch::Json(_)) && !value.is_object() {
            return Err(format!("a {} patch must be a JSON object", self.kind()));
        }
        serde_json::to_vec(&value)
            .map_err(|e| format!("cannot encode the {} patch: {e}", self.kind()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn bodies_and_content_types() {
        let p = Patch::Merge(json!({"a": 1}));
        assert_eq!(p.content_type(), "application/merge-patch+json");
        assert_eq!(p.body().unwrap(), br#"{"a":1}"#);
        assert!(Patch::Json(json!({"a": 1})).body().is_err());
        assert!(Patch::Json(json!([{"op": "remove", "path": "/a"}]))
            .body()
            .is_ok());
        assert!(Patch::Strategic(json!([1])).body().is_err());
        assert_eq!(
            Patch::Apply(json!({})).content_type(),
            "application/apply-patch+yaml"
        );
    }
}
