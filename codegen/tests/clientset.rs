//! The generated clientset: accessor types carry each resource's subresources, namespaced
//! resources take a namespace and have an all-namespaces twin, cluster-scoped ones take none,
//! and an all-namespaces accessor that would shadow another resource's is an error.

use std::path::Path;

use informer_gen::emit::{self, EmitError, EmitOptions, Target};
use informer_gen::model::{Api, ResourceDef, Scope, Subresources, TypeRef};
use informer_gen::read::table;

fn generate_single(defs: &[ResourceDef]) -> Result<String, EmitError> {
    let api = Api::new("test", defs).unwrap();
    let mut options = EmitOptions::informers_single_file("informers.rs", "test");
    // Listers elsewhere: inline namespace listers have accessors of the same names.
    options.target = Target::Informers {
        listers_path: Some("::listers".into()),
    };
    let files = emit::generate(&api, &options)?;
    Ok(files.get(Path::new("informers.rs")).unwrap().to_owned())
}

/// `text` without whitespace and without the trailing commas a line break adds.
fn squeeze(text: &str) -> String {
    let joined: String = text.split_whitespace().collect();
    joined.replace(",)", ")").replace(",>", ">")
}

/// The clientset accessor `fn {name}(..) -> Api<..> { .. }` of `text` (whose parameters
/// after `&self` are `params`), without whitespace: formatting may break it over lines.
fn accessor(text: &str, name: &str, params: &str) -> String {
    let text = squeeze(text);
    let signature = squeeze(&format!(
        "pub fn {name}(&self{params}) -> ::kube_informers::api::Api<"
    ));
    let start = text
        .find(&signature)
        .unwrap_or_else(|| panic!("no `{signature}`"));
    let end = start + text[start..].find('}').unwrap();
    text[start..end].to_owned()
}

#[test]
fn builtin_accessors_name_the_subresources_of_each_resource() {
    let defs = table::builtin("1.37").unwrap().resources;
    let text = generate_single(&defs).unwrap();
    let ns = ", namespace: &str";
    let cases = [
        ("config_maps", ns, "NoSubresources"),
        ("config_maps_all", "", "NoSubresources"),
        ("pods", ns, "StatusSubresource"),
        ("deployments", ns, "StatusAndScale"),
        ("stateful_sets", ns, "StatusAndScale"),
        ("nodes", "", "StatusSubresource"),
        ("cluster_roles", "", "NoSubresources"),
    ];
    for (name, params, marker) in cases {
        let found = accessor(&text, name, params);
        assert!(
            found.contains(&format!("::kube_informers::api::{marker}>")),
            "{found}"
        );
    }
    assert!(accessor(&text, "nodes", "").contains("Api::all(self.client.clone())"));
    assert!(accessor(&text, "pods", ns).contains("Api::namespaced(self.client.clone(),namespace)"));
    assert!(accessor(&text, "pods_all", "").contains("Api::all(self.client.clone())"));
    // Reads of what informer-protobuf decodes in 1.37 ask for protobuf; a Node's struct has a
    // field 1.37's protos lack, so it stays JSON.
    let protobuf = ".with_protobuf(::kube_informers::protobuf::decoders())";
    for (name, params) in [
        ("pods", ns),
        ("pods_all", ""),
        ("services", ns),
        ("deployments", ns),
    ] {
        assert!(accessor(&text, name, params).contains(protobuf), "{name}");
    }
    assert!(!accessor(&text, "nodes", "").contains(protobuf));
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
        protobuf: false,
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
    let text = generate_single(&defs).unwrap();
    assert!(
        !text.contains("with_protobuf"),
        "custom resources stay JSON"
    );
}
