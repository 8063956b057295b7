//! The OpenAPI readers agree with the k8s-openapi tables of the same Kubernetes version.
//!
//! Differences, explained: k8s-openapi marks `core/v1 ComponentStatus` listable, but the
//! API offers no watch for it, so the spec yields no resource for it; the extraction drops
//! it (`read::k8s_openapi::NOT_WATCHABLE`), so the two sources must then be equal. The only
//! field that legitimately differs is `doc`: specs carry descriptions, tables do not.

use std::path::Path;

use informer_gen::model::{ResourceDef, Scope};
use informer_gen::read::{k8s_openapi, openapi, table};

const V2: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../../shared/openapi/v1.36/swagger.json"
);
const V3: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../../shared/openapi/v1.35/v3");

fn without_docs(mut defs: Vec<ResourceDef>) -> Vec<ResourceDef> {
    for d in &mut defs {
        d.doc = None;
    }
    defs.sort();
    defs
}

fn find<'a>(defs: &'a [ResourceDef], group: &str, kind: &str) -> &'a ResourceDef {
    defs.iter()
        .find(|d| d.group == group && d.kind == kind && d.version == "v1")
        .unwrap_or_else(|| panic!("{group}/v1 {kind} missing"))
}

#[test]
fn swagger_v2_matches_the_1_36_table() {
    let from_spec = openapi::read(Path::new(V2)).unwrap();
    let pod = find(&from_spec, "", "Pod");
    assert_eq!(pod.plural, "pods");
    assert_eq!(pod.scope, Scope::Namespaced);
    assert_eq!(pod.list_kind, "PodList");
    assert_eq!(pod.ty.to_string(), "k8s_openapi::api::core::v1::Pod");
    assert!(pod
        .doc
        .as_deref()
        .unwrap()
        .starts_with("Pod is a collection of containers"));
    assert_eq!(find(&from_spec, "", "Node").scope, Scope::Cluster);
    assert_eq!(
        without_docs(from_spec),
        without_protobuf(table::builtin("1.36").unwrap().resources)
    );
}

/// A spec says nothing of protobuf: the built-in tables' flag comes from the protobuf table.
fn without_protobuf(defs: Vec<ResourceDef>) -> Vec<ResourceDef> {
    defs.into_iter()
        .map(|d| ResourceDef {
            protobuf: false,
            ..d
        })
        .collect()
}

#[test]
fn v3_documents_match_the_1_35_table() {
    let from_spec = openapi::read(Path::new(V3)).unwrap();
    let crd = find(
        &from_spec,
        "apiextensions.k8s.io",
        "CustomResourceDefinition",
    );
    assert_eq!(
        crd.ty.to_string(),
        "k8s_openapi::apiextensions_apiserver::pkg::apis::apiextensions::v1::CustomResourceDefinition"
    );
    assert_eq!(
        without_docs(from_spec),
        without_protobuf(table::builtin("1.35").unwrap().resources)
    );
}

#[test]
fn list_only_kinds_are_absent_from_the_spec_resources() {
    let from_spec = openapi::read(Path::new(V2)).unwrap();
    for (group, version, kind) in k8s_openapi::NOT_WATCHABLE {
        assert!(
            !from_spec
                .iter()
                .any(|d| d.group == *group && d.version == *version && d.kind == *kind),
            "{kind} is watchable after all: drop it from NOT_WATCHABLE"
        );
    }
}

#[test]
fn a_spec_without_resources_is_an_error_naming_the_file() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("empty.json");
    std::fs::write(&file, r#"{"swagger":"2.0","paths":{},"definitions":{}}"#).unwrap();
    let err = openapi::read(&file).unwrap_err().to_string();
    assert!(err.contains("empty.json"), "{err}");
    assert!(err.contains("no listable and watchable resources"), "{err}");
}
