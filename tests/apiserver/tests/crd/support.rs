//! The shared helpers ([`shared`]), short requests and the Widget CRD the focused tests
//! use.

use reqwest::Method;
use serde_json::{json, Value};
use test_apiserver::{RunningServer, TestApiServer};

#[allow(dead_code)] // Each suite uses a part of the shared helpers.
#[path = "../support/mod.rs"]
mod shared;

pub use shared::*;

pub const WIDGETS: &str = "/apis/example.com/v1/namespaces/default/widgets";
pub const CRDS: &str = "/apis/apiextensions.k8s.io/v1/customresourcedefinitions";

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
