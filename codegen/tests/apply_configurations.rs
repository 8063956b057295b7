//! The built-in apply configurations (`emit::apply`): every resource of every version gets
//! its configuration and extractors, JSON names are the wire's, and the output is the same
//! on every run.

use std::sync::LazyLock;

use heck::ToSnakeCase;
use informer_gen::emit::apply::{apply_configurations, ApplyPaths};
use informer_gen::model::{ResourceDef, TypeRef};
use informer_gen::read::protobuf_table::ProtobufTable;
use informer_gen::read::table;

const PATHS: ApplyPaths<'static> = ApplyPaths {
    runtime: "::informer_runtime",
    k8s_openapi: "::k8s_openapi",
    root: "crate::apply",
};

static PROTOBUF: LazyLock<ProtobufTable> = LazyLock::new(|| ProtobufTable::builtin().unwrap());

fn generate(version: &str, resources: &[ResourceDef]) -> String {
    let minor = table::minor_of(version).unwrap();
    apply_configurations(&PROTOBUF, minor, resources, &PATHS).unwrap()
}

fn generate_all(version: &str) -> String {
    generate(version, &table::builtin(version).unwrap().resources)
}

/// The item starting with `head` in `text`, up to the next item of the same kind.
fn item<'t>(text: &'t str, head: &str) -> &'t str {
    let start = text.find(head).unwrap();
    let rest = &text[start + head.len()..];
    &text[start..start + head.len() + rest.find("pub struct").unwrap_or(rest.len())]
}

#[test]
fn every_resource_of_every_version_gets_a_configuration_and_its_extractors() {
    for version in table::builtin_versions() {
        for r in table::builtin(version).unwrap().resources {
            let TypeRef::K8sOpenapi { name, .. } = &r.ty else {
                continue;
            };
            // The fields come from the protobuf table, derived from the newest protos: an
            // alpha API dropped before them (1.33's resource.k8s.io/v1alpha3) has none.
            let proto = r.ty.to_string()["k8s_openapi::".len()..].replace("::", ".");
            let minor = table::minor_of(version).unwrap();
            let known = PROTOBUF
                .messages
                .get(&proto)
                .is_some_and(|m| m.versions.contains(&minor));
            if !known {
                assert!(minor < 36, "{version}: {proto} has no fields to configure");
                continue;
            }
            let text = generate(version, std::slice::from_ref(&r));
            let snake = r.kind.to_snake_case();
            assert!(
                text.contains(&format!("pub struct {name}Apply {{")),
                "{version}: {name}Apply"
            );
            assert!(
                text.contains(&format!("pub fn extract_{snake}(")),
                "{version}: extract_{snake}"
            );
            assert_eq!(
                text.contains(&format!("pub fn extract_{snake}_status(")),
                r.subresources.status,
                "{version}: extract_{snake}_status exactly when {} has a status subresource",
                r.kind
            );
        }
    }
}

#[test]
fn json_names_are_the_wires_including_go_inlined_structs() {
    let text = generate_all("1.37");
    let pod_spec = item(&text, "pub struct PodSpecApply {");
    assert!(
        pod_spec.contains(r#"rename = "hostIPC""#),
        "camelCase with an acronym"
    );
    // `hostPath` is a field of Go's inlined VolumeSource, flattened into Volume.
    assert!(item(&text, "pub struct VolumeApply {").contains(r#"rename = "hostPath""#));
    // The server's record of applies is no field of a configuration.
    assert!(!text.contains(r#"rename = "managedFields""#));
    // ObjectMeta is the runtime's, the same for every resource.
    assert!(!text.contains("pub struct ObjectMetaApply"));
    assert!(text.contains("::informer_runtime::apply::ObjectMetaApply"));
}

#[test]
fn the_output_is_deterministic() {
    assert_eq!(generate_all("1.37"), generate_all("1.37"));
}
