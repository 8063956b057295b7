//! Helpers: raw HTTP with the answer's code, `Warning` headers and JSON body; the
//! Widget CRD the focused tests use.

use reqwest::Method;
use serde_json::{json, Value};
use test_apiserver::{RunningServer, TestApiServer};

pub const WIDGETS: &str = "/apis/example.com/v1/namespaces/default/widgets";
pub const CRDS: &str = "/apis/apiextensions.k8s.io/v1/customresourcedefinitions";

/// An answer: status code, `Warning` header values, JSON body.
pub struct Reply {
    pub code: u16,
    pub warnings: Vec<String>,
    pub body: Value,
}

pub fn client() -> reqwest::Client {
    let _ = rustls::crypto::ring::default_provider().install_default();
    reqwest::Client::builder()
        .no_proxy()
        .build()
        .expect("client")
}

/// Sends `method path` with `body` (JSON unless `content_type` says otherwise).
pub async fn call(
    server: &RunningServer,
    method: Method,
    path: &str,
    content_type: &str,
    body: Option<&Value>,
) -> Reply {
    let mut req = client().request(method, format!("{}{path}", server.url()));
    if let Some(b) = body {
        req = req.header("content-type", content_type).body(b.to_string());
    }
    let resp = req.send().await.expect("request");
    let code = resp.status().as_u16();
    let warnings = resp
        .headers()
        .get_all("warning")
        .iter()
        .map(|v| v.to_str().expect("ascii warning").to_owned())
        .collect();
    let bytes = resp.bytes().await.expect("body");
    let body = serde_json::from_slice(&bytes).unwrap_or_else(|e| {
        panic!(
            "{path}: not JSON ({e}): {}",
            String::from_utf8_lossy(&bytes)
        )
    });
    Reply {
        code,
        warnings,
        body,
    }
}

pub async fn get(server: &RunningServer, path: &str) -> Reply {
    call(server, Method::GET, path, "", None).await
}

pub async fn post(server: &RunningServer, path: &str, body: &Value) -> Reply {
    call(server, Method::POST, path, "application/json", Some(body)).await
}

pub async fn put(server: &RunningServer, path: &str, body: &Value) -> Reply {
    call(server, Method::PUT, path, "application/json", Some(body)).await
}

pub async fn merge_patch(server: &RunningServer, path: &str, body: &Value) -> Reply {
    call(
        server,
        Method::PATCH,
        path,
        "application/merge-patch+json",
        Some(body),
    )
    .await
}

pub async fn delete(server: &RunningServer, path: &str) -> Reply {
    call(server, Method::DELETE, path, "", None).await
}

/// The 422 `Status` of `errors.NewInvalid` for a Widget named `name`.
pub fn widget_invalid(name: &str, causes: &[(&str, &str, &str)]) -> Value {
    invalid("Widget", "example.com", name, causes)
}

/// The 422 `Status` kube-apiserver sends for `causes` (reason, field, message body).
pub fn invalid(kind: &str, group: &str, name: &str, causes: &[(&str, &str, &str)]) -> Value {
    let mut seen: Vec<String> = Vec::new();
    for (_, field, body) in causes {
        let m = format!("{field}: {body}");
        if !seen.contains(&m) {
            seen.push(m);
        }
    }
    let list = if seen.len() == 1 {
        seen[0].clone()
    } else {
        format!("[{}]", seen.join(", "))
    };
    json!({
        "kind": "Status", "apiVersion": "v1", "metadata": {}, "status": "Failure",
        "message": format!("{kind}.{group} \"{name}\" is invalid: {list}"),
        "reason": "Invalid",
        "details": {
            "name": name, "group": group, "kind": kind,
            "causes": causes.iter().map(|(reason, field, body)| json!({"reason": reason, "message": body, "field": field})).collect::<Vec<_>>(),
        },
        "code": 422,
    })
}

/// A Widget in `default` with this `spec`.
pub fn widget(name: &str, spec: Value) -> Value {
    json!({"apiVersion": "example.com/v1", "kind": "Widget", "metadata": {"name": name}, "spec": spec})
}

/// A CRD exercising every schema rule the server enforces.
pub fn widget_crd() -> Value {
    json!({
        "apiVersion": "apiextensions.k8s.io/v1",
        "kind": "CustomResourceDefinition",
        "metadata": {"name": "widgets.example.com"},
        "spec": {
            "group": "example.com",
            "scope": "Namespaced",
            "names": {"plural": "widgets", "singular": "widget", "kind": "Widget", "listKind": "WidgetList"},
            "versions": [{
                "name": "v1", "served": true, "storage": true,
                "subresources": {"status": {}, "scale": {"specReplicasPath": ".spec.replicas", "statusReplicasPath": ".status.replicas"}},
                "schema": {"openAPIV3Schema": {"type": "object", "properties": {
                    "spec": {"type": "object", "required": ["name"], "properties": {
                        "name": {"type": "string", "minLength": 2, "maxLength": 10, "pattern": "^[a-z]+$"},
                        "size": {"type": "integer", "minimum": 1, "maximum": 10, "default": 3},
                        "ratio": {"type": "number", "minimum": 0, "exclusiveMinimum": true, "maximum": 1, "exclusiveMaximum": true, "multipleOf": 0.25},
                        "speed": {"type": "string", "enum": ["fast", "slow"]},
                        "replicas": {"type": "integer", "format": "int32"},
                        "port": {"x-kubernetes-int-or-string": true, "anyOf": [{"type": "integer"}, {"type": "string"}]},
                        "when": {"type": "string", "format": "date-time"},
                        "data": {"type": "string", "format": "byte"},
                        "note": {"type": "string", "nullable": true},
                        "tags": {"type": "array", "minItems": 1, "maxItems": 3, "x-kubernetes-list-type": "set", "items": {"type": "string"}},
                        "ports": {"type": "array", "x-kubernetes-list-type": "map", "x-kubernetes-list-map-keys": ["name"], "items": {
                            "type": "object", "required": ["name"], "properties": {
                                "name": {"type": "string"}, "number": {"type": "integer", "default": 80},
                            },
                        }},
                        "labels": {"type": "object", "minProperties": 1, "maxProperties": 2, "additionalProperties": {"type": "string", "maxLength": 5}},
                        "options": {"type": "object", "default": {}, "properties": {"verbose": {"type": "boolean", "default": false}}},
                        "extra": {"type": "object", "x-kubernetes-preserve-unknown-fields": true},
                        "template": {"type": "object", "x-kubernetes-embedded-resource": true, "x-kubernetes-preserve-unknown-fields": true},
                    }},
                    "status": {"type": "object", "properties": {
                        "replicas": {"type": "integer", "minimum": 0},
                        "phase": {"type": "string", "enum": ["Pending", "Ready"]},
                    }},
                }}},
            }],
        },
    })
}

/// A server with the Widget CRD installed through the builder.
pub async fn widget_server() -> RunningServer {
    TestApiServer::builder()
        .crd(widget_crd().to_string())
        .start()
        .await
        .expect("server starts")
}
