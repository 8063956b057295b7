//! The generated clientset: accessor types carry each resource's subresources, namespaced
//! resources take a namespace and have an all-namespaces twin, cluster-scoped ones take none,
//! and an all-namespaces accessor that would shadow another resource's is an error.

use std::path::Path;

use informer_gen::emit::{self, EmitError, EmitOptions};
use informer_gen::model::{Api, ResourceDef, Scope, Subresources, TypeRef};
use informer_gen::read::table;

fn generate_single(defs: &[ResourceDef]) -> Result<String, EmitError> {
    let api = Api::new("test", defs).unwrap();
    let options = EmitOptions::informers_single_file("informers.rs", "test");
    let files = emit::generate(&api, &options)?;
    Ok(files.get(Path::new("informers.rs")).unwrap().to_string())
}

/// The text of the accessor `fn name(...) -> ... { ... }` in `text`, whitespace collapsed.
fn accessor(text: &str, signature: &str) -> String {
    let start = text
        .find(signature)
        .unwrap_or_else(|| panic!("no `{signature}`"));
    let end = start + text[start..].find('}').unwrap();
    text[start..end]
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
}

#[test]
fn builtin_accessors_name_the_subresources_of_each_resource() {
    let defs = table::builtin("1.37").unwrap().resources;
    let text = generate_single(&defs).unwrap();
    let cases = [
        (
            "pub fn config_maps(&self, namespace: &str)",
            "NoSubresources",
        ),
        ("pub fn config_maps_all(&self)", "NoSubresources"),
        ("pub fn pods(&self, namespace: &str)", "StatusSubresource"),
        (
            "pub fn deployments(&self, namespace: &str)",
            "StatusAndScale",
        ),
        (
            "pub fn stateful_sets(&self, namespace: &str)",
            "StatusAndScale",
        ),
        ("pub fn nodes(&self)", "StatusSubresource"),
        ("pub fn cluster_roles(&self)", "NoSubresources"),
    ];
    for (signature, marker) in cases {
        let found = accessor(&text, signature);
        assert!(
            found.contains(&format!("::informer_runtime::api::{marker}")),
            "{found}"
        );
    }
    assert!(accessor(&text, "pub fn nodes(&self)").contains("Api::all(self.client.clone())"));
    assert!(accessor(&text, "pub fn pods(&self, namespace: &str)")
        .contains("Api::namespaced(self.client.clone(), namespace)"));
    assert!(
        !text.contains("pub fn nodes_all"),
        "cluster-scoped: no twin"
    );
    assert!(text.contains("pub struct Clientset {"));
}

fn def(kind: &str, plural: &str, scope: Scope) -> ResourceDef {
    ResourceDef {
        group: "example.com".into(),
        version: "v1".into(),
        kind: kind.into(),
        plural: plural.into(),
        scope,
        list_kind: format!("{kind}List"),
        ty: TypeRef::K8sOpenapi {
            module: vec!["api".into()],
            name: kind.into(),
        },
        doc: None,
        subresources: Subresources::NONE,
    }
}

#[test]
fn an_all_namespaces_accessor_shadowing_another_resource_is_an_error() {
    let defs = [
        def("Pod", "pods", Scope::Namespaced),
        def("PodsAll", "podsall", Scope::Namespaced),
    ];
    let err = generate_single(&defs).unwrap_err().to_string();
    assert!(err.contains("`pods_all`"), "{err}");
    assert!(
        err.contains("kind Pod") && err.contains("kind PodsAll"),
        "{err}"
    );
    // Cluster-scoped, `Pod` has no all-namespaces twin to clash with.
    let defs = [
        def("Pod", "pods", Scope::Cluster),
        def("PodsAll", "podsall", Scope::Namespaced),
    ];
    assert!(generate_single(&defs).is_ok());
}
