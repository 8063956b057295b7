//! `Status` answers with the codes, reasons and messages kube-apiserver uses.

use bytes::Bytes;
use serde_json::{json, Value};

/// A failed request, as the server answers it: HTTP code, `Status.reason`, message and details.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{code} {reason}: {message}")]
pub struct StatusError {
    /// HTTP status code.
    pub code: u16,
    /// `Status.reason`, e.g. `NotFound`.
    pub reason: String,
    /// `Status.message`.
    pub message: String,
    /// `Status.details`, when the real server sends them.
    pub details: Option<Value>,
    /// Seconds for the `Retry-After` header (429 and some 5xx).
    pub retry_after: Option<u64>,
}

impl StatusError {
    /// A `Status` with no details.
    pub fn new(code: u16, reason: &str, message: impl Into<String>) -> Self {
        Self {
            code,
            reason: reason.to_owned(),
            message: message.into(),
            details: None,
            retry_after: None,
        }
    }

    fn with_details(mut self, details: Value) -> Self {
        self.details = Some(details);
        self
    }

    /// 404 for a path that names no registered resource.
    pub fn unknown_resource() -> Self {
        Self::new(
            404,
            "NotFound",
            "the server could not find the requested resource",
        )
        .with_details(json!({}))
    }

    /// 404 `{resource} "{name}" not found`.
    pub fn not_found(group: &str, plural: &str, name: &str) -> Self {
        let gr = crate::resource::group_resource(group, plural);
        Self::new(404, "NotFound", format!("{gr} \"{name}\" not found"))
            .with_details(details(name, group, plural))
    }

    /// 409 `{resource} "{name}" already exists`.
    pub fn already_exists(group: &str, plural: &str, name: &str) -> Self {
        let gr = crate::resource::group_resource(group, plural);
        Self::new(
            409,
            "AlreadyExists",
            format!("{gr} \"{name}\" already exists"),
        )
        .with_details(details(name, group, plural))
    }

    /// 409 Conflict on a stale `metadata.resourceVersion`.
    pub fn conflict(group: &str, plural: &str, name: &str) -> Self {
        Self::conflict_because(
            group,
            plural,
            name,
            "the object has been modified; please apply your changes to the latest version and try again",
        )
    }

    /// 409 Conflict `Operation cannot be fulfilled on {resource} "{name}": {why}`, with
    /// details naming the resource (plural) as the storage layer's conflicts do.
    pub fn conflict_because(group: &str, plural: &str, name: &str, why: &str) -> Self {
        let gr = crate::resource::group_resource(group, plural);
        Self::new(
            409,
            "Conflict",
            format!("Operation cannot be fulfilled on {gr} \"{name}\": {why}"),
        )
        .with_details(details(name, group, plural))
    }

    /// 409 Conflict for a failed delete precondition: kube-apiserver's `BeforeDelete`
    /// names the kind (not the resource) in the message and the details.
    pub fn precondition_conflict(group: &str, kind: &str, name: &str, why: &str) -> Self {
        let gk = crate::resource::group_resource(group, kind);
        Self::new(
            409,
            "Conflict",
            format!("Operation cannot be fulfilled on {gk} \"{name}\": {why}"),
        )
        .with_details(details(name, group, kind))
    }

    /// 400 BadRequest.
    pub fn bad_request(message: impl Into<String>) -> Self {
        Self::new(400, "BadRequest", message)
    }

    /// 422 Invalid for `kind "name"`, listing the field errors as `(field, message)`
    /// where the message starts with the error type (`Invalid value: ...`,
    /// `Required value: ...`, `Unsupported value: ...`, ...), as kube-apiserver's
    /// field errors print; each cause's reason follows from that type.
    pub fn invalid(kind: &str, group: &str, name: &str, causes: &[(&str, String)]) -> Self {
        // The message lists each distinct error once (`ErrorList.ToAggregate`); the
        // causes keep every one.
        let mut list: Vec<String> = Vec::new();
        for line in causes.iter().map(|(field, msg)| format!("{field}: {msg}")) {
            if !list.contains(&line) {
                list.push(line);
            }
        }
        let message = if list.len() == 1 {
            list[0].clone()
        } else {
            format!("[{}]", list.join(", "))
        };
        let gk = crate::resource::group_resource(group, kind);
        let causes: Vec<Value> = causes
            .iter()
            .map(
                |(field, msg)| json!({"reason": cause_reason(msg), "message": msg, "field": field}),
            )
            .collect();
        let mut d = json!({"kind": kind, "causes": causes});
        if !name.is_empty() {
            d["name"] = json!(name);
        }
        if !group.is_empty() {
            d["group"] = json!(group);
        }
        Self::new(
            422,
            "Invalid",
            format!("{gk} \"{name}\" is invalid: {message}"),
        )
        .with_details(d)
    }

    /// 422 Invalid for request options (`CreateOptions`, `UpdateOptions`, `PatchOptions`,
    /// `DeleteOptions`) kube-apiserver's option validation rejects.
    pub fn invalid_options(kind: &str, causes: &[(&str, String)]) -> Self {
        Self::invalid(kind, "meta.k8s.io", "", causes)
    }

    /// 422 for a JSON patch that cannot be applied (a failed `test`, a missing path):
    /// kube-apiserver answers with a generic Status whose message says nothing more.
    pub fn patch_not_applicable() -> Self {
        Self::new(
            422,
            "Invalid",
            "the server rejected our request due to an error in our request",
        )
        .with_details(json!({}))
    }

    /// 410 Expired, e.g. `too old resource version: X (Y)`.
    pub fn expired(message: impl Into<String>) -> Self {
        Self::new(410, "Expired", message)
    }

    /// 410 Expired for a `continue` token whose snapshot left the history window.
    pub fn continue_expired() -> Self {
        Self::expired(
            "The provided continue parameter is too old to display a consistent list result. You can start a new list without the continue parameter, or use the continue token in this response to retrieve the remainder of the results. Continuing with the provided token results in an inconsistent list - objects that were created, modified, or deleted between the time the first chunk was returned and now may show up in the list.",
        )
    }

    /// 401 Unauthorized.
    pub fn unauthorized() -> Self {
        Self::new(401, "Unauthorized", "Unauthorized")
    }

    /// 403 Forbidden for `verb` on a resource.
    pub fn forbidden(
        user: &str,
        verb: &str,
        group: &str,
        plural: &str,
        namespace: Option<&str>,
    ) -> Self {
        let gr = crate::resource::group_resource(group, plural);
        let scope = match namespace {
            Some(ns) => format!("in the namespace \"{ns}\""),
            None => "at the cluster scope".to_owned(),
        };
        Self::new(
            403,
            "Forbidden",
            format!(
                "{gr} is forbidden: User \"{user}\" cannot {verb} resource \"{plural}\" in API group \"{group}\" {scope}"
            ),
        )
        .with_details(json!({"group": group, "kind": plural}))
    }

    /// 405 for a verb the path does not serve.
    pub fn method_not_allowed() -> Self {
        Self::new(
            405,
            "MethodNotAllowed",
            "the server does not allow this method on the requested resource",
        )
        .with_details(json!({}))
    }

    /// 415 for a PATCH type the resource does not accept, listing the ones it does.
    pub fn unsupported_media_type(accepted: &[&str]) -> Self {
        Self::new(
            415,
            "UnsupportedMediaType",
            format!(
                "the body of the request was in an unknown format - accepted media types include: {}",
                accepted.join(", ")
            ),
        )
    }

    /// 406 for an `Accept` naming none of the media types the resource is served in, listing
    /// those of its serializer (negotiation's `errNotAcceptable`).
    pub fn not_acceptable(accepted: &[&str]) -> Self {
        Self::new(
            406,
            "NotAcceptable",
            format!(
                "only the following media types are accepted: {}",
                accepted.join(", ")
            ),
        )
    }

    /// 429 with `Retry-After`.
    pub fn too_many_requests(retry_after: u64) -> Self {
        let mut s = Self::new(
            429,
            "TooManyRequests",
            "Too many requests, please try again later.",
        )
        .with_details(json!({"retryAfterSeconds": retry_after}));
        s.retry_after = Some(retry_after);
        s
    }

    /// 500 InternalError.
    pub fn internal(message: &str) -> Self {
        Self::new(
            500,
            "InternalError",
            format!("Internal error occurred: {message}"),
        )
        .with_details(json!({"causes": [{"message": message}]}))
    }

    /// 503 ServiceUnavailable.
    pub fn service_unavailable(message: &str) -> Self {
        Self::new(503, "ServiceUnavailable", message.to_owned())
    }

    /// 504 for a resourceVersion newer than the server has.
    pub fn too_large_resource_version(asked: u64, current: u64) -> Self {
        let mut s = Self::new(
            504,
            "Timeout",
            format!("Too large resource version: {asked}, current: {current}"),
        )
        .with_details(json!({"causes": [{"reason": "ResourceVersionTooLarge", "message": "Too large resource version"}], "retryAfterSeconds": 1}));
        s.retry_after = Some(1);
        s
    }

    /// The `Status` object.
    pub fn to_value(&self) -> Value {
        let mut v = json!({
            "kind": "Status",
            "apiVersion": "v1",
            "metadata": {},
            "status": "Failure",
            "message": self.message,
            "reason": self.reason,
            "code": self.code,
        });
        if let Some(obj) = v.as_object_mut() {
            if let Some(d) = &self.details {
                obj.insert("details".into(), d.clone());
            }
            // `StatusReasonUnknown` is empty, and `Status.reason` is omitted when empty.
            if self.reason.is_empty() {
                obj.remove("reason");
            }
        }
        v
    }

    /// The `Status` object, serialised.
    pub fn to_bytes(&self) -> Bytes {
        Bytes::from(self.to_value().to_string())
    }
}

/// A field error's cause reason, from the error type its message starts with.
fn cause_reason(message: &str) -> &'static str {
    const TYPES: [(&str, &str); 7] = [
        ("Required value", "FieldValueRequired"),
        ("Unsupported value", "FieldValueNotSupported"),
        ("Too long", "FieldValueTooLong"),
        ("Forbidden", "FieldValueForbidden"),
        ("Duplicate value", "FieldValueDuplicate"),
        ("Not found", "FieldValueNotFound"),
        ("Too many", "FieldValueTooMany"),
    ];
    TYPES
        .iter()
        .find(|(prefix, _)| message.starts_with(prefix))
        .map_or("FieldValueInvalid", |(_, reason)| reason)
}

fn details(name: &str, group: &str, plural: &str) -> Value {
    if group.is_empty() {
        json!({"name": name, "kind": plural})
    } else {
        json!({"name": name, "group": group, "kind": plural})
    }
}
