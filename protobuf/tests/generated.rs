//! The generated decoders, into the real k8s-openapi types: an object Go's protobuf writes
//! (every non-pointer field, zeros included, as protoc is told here) decodes to exactly what
//! the same object's JSON decodes to.

mod common;

use common::{envelope, protoc};
use informer_protobuf::{decode_list, decode_object, DecodeOptions};
use k8s_openapi::api::coordination::v1::Lease;
use k8s_openapi::api::core::v1::{ConfigMap, Namespace, Secret};
use k8s_openapi::serde::de::DeserializeOwned;
use k8s_openapi::serde_json;

/// `metadata` as Go's protobuf writes it: every non-pointer field, zero or not.
const META: &str = r#"
  name: "cm" generateName: "" namespace: "default" selfLink: "" uid: "u-1"
  resourceVersion: "7" generation: 0
  creationTimestamp { seconds: 1700000000 }
  labels { key: "app" value: "web" }
  ownerReferences { apiVersion: "apps/v1" kind: "ReplicaSet" name: "rs" uid: "u-0" controller: true }
  managedFields {
    manager: "kubectl" operation: "Update" apiVersion: "v1" time { seconds: 1700000001 }
    fieldsType: "FieldsV1" fieldsV1 { Raw: "{\"f:data\":{}}" } subresource: ""
  }
"#;

fn decode<K: informer_protobuf::Message>(proto: &str, message: &str, kind: &str, text: &str) -> K {
    let raw = protoc(proto, message, text);
    let body = envelope("v1", kind, &raw);
    let (type_meta, object) = decode_object::<K>(&body, DecodeOptions::default()).expect("decodes");
    assert_eq!(type_meta.kind, kind);
    object
}

fn json<K: DeserializeOwned>(text: &str) -> K {
    serde_json::from_str(text).expect("valid JSON")
}

#[test]
fn a_config_map_as_json_gives_it() {
    let text = format!(
        "metadata {{ {META} }} data {{ key: \"a\" value: \"1\" }} data {{ key: \"empty\" value: \"\" }} \
         binaryData {{ key: \"b\" value: \"\\001\\002\" }} immutable: false"
    );
    let decoded: ConfigMap = decode(
        "api/core/v1/generated.proto",
        "api.core.v1.ConfigMap",
        "ConfigMap",
        &text,
    );
    let expected: ConfigMap = json(
        r#"{"metadata": {"name": "cm", "namespace": "default", "uid": "u-1", "resourceVersion": "7",
            "creationTimestamp": "2023-11-14T22:13:20Z", "labels": {"app": "web"},
            "ownerReferences": [{"apiVersion": "apps/v1", "kind": "ReplicaSet", "name": "rs",
                                 "uid": "u-0", "controller": true}]},
            "data": {"a": "1", "empty": ""}, "binaryData": {"b": "AQI="}, "immutable": false}"#,
    );
    assert_eq!(
        decoded, expected,
        "managedFields skipped, zeros Go's JSON omits are None"
    );
}

#[test]
fn managed_fields_are_kept_when_asked() {
    let raw = protoc(
        "api/core/v1/generated.proto",
        "api.core.v1.Secret",
        &format!("metadata {{ {META} }} type: \"Opaque\" stringData {{ key: \"k\" value: \"v\" }}"),
    );
    let body = envelope("v1", "Secret", &raw);
    let (_, secret) =
        decode_object::<Secret>(&body, DecodeOptions::default().keep_managed_fields(true))
            .expect("decodes");
    let managed = secret.metadata.managed_fields.expect("kept");
    assert_eq!(managed.len(), 1);
    assert_eq!(managed[0].manager.as_deref(), Some("kubectl"));
    assert_eq!(
        managed[0].subresource, None,
        "an empty subresource is omitted in JSON"
    );
    assert_eq!(
        managed[0].fields_v1.as_ref().map(|f| f.0.clone()),
        Some(serde_json::json!({"f:data": {}}))
    );
    assert_eq!(secret.type_.as_deref(), Some("Opaque"));
}

#[test]
fn a_lease_keeps_a_pointer_zero_and_micro_time() {
    let text = format!(
        "metadata {{ {META} }} spec {{ holderIdentity: \"\" leaseDurationSeconds: 0 \
         acquireTime {{ seconds: 1700000000 nanos: 123456789 }} leaseTransitions: 0 }}"
    );
    let lease: Lease = decode(
        "api/coordination/v1/generated.proto",
        "api.coordination.v1.Lease",
        "Lease",
        &text,
    );
    let spec = lease.spec.expect("spec");
    let expected: k8s_openapi::api::coordination::v1::LeaseSpec = json(
        r#"{"holderIdentity": "", "leaseDurationSeconds": 0,
            "acquireTime": "2023-11-14T22:13:20.123456Z", "leaseTransitions": 0}"#,
    );
    assert_eq!(spec, expected, "pointer fields keep their zeros");
}

#[test]
fn a_namespace_list() {
    let item = |name: &str| {
        format!("items {{ metadata {{ name: {name:?} generateName: \"\" generation: 0 }} spec {{ finalizers: \"kubernetes\" }} status {{ phase: \"Active\" }} }}")
    };
    let text = format!(
        "metadata {{ selfLink: \"\" resourceVersion: \"42\" continue: \"\" }} {} {}",
        item("a"),
        item("b")
    );
    let raw = protoc(
        "api/core/v1/generated.proto",
        "api.core.v1.NamespaceList",
        &text,
    );
    let body = envelope("v1", "NamespaceList", &raw);
    let list = decode_list::<Namespace>(&body, DecodeOptions::default()).expect("decodes");
    assert_eq!(list.metadata.resource_version.as_deref(), Some("42"));
    assert_eq!(list.metadata.continue_, None);
    let expected: Vec<Namespace> = json(
        r#"[{"metadata": {"name": "a"}, "spec": {"finalizers": ["kubernetes"]}, "status": {"phase": "Active"}},
            {"metadata": {"name": "b"}, "spec": {"finalizers": ["kubernetes"]}, "status": {"phase": "Active"}}]"#,
    );
    assert_eq!(list.items, expected);
}
