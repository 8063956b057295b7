//! `Config::group_accessor` and `Config::factory_module`: golden output for a renamed group
//! accessor in a non-root module (CRDs) and for a renamed built-in group, and one error test
//! per validation. Run with `INFORMER_GEN_BLESS=1` to rewrite the golden files after an
//! intended change.

use std::path::{Path, PathBuf};

use informer_gen::emit::GeneratedFiles;
use informer_gen::model::{AccessorProblem, GroupAccessorError};
use informer_gen::read::table;
use informer_gen::{Config, GenerateError};

fn manifest_dir() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

fn crds() -> PathBuf {
    manifest_dir().join("tests/fixtures/crd-golden")
}

fn golden(rel: &str, actual: &str) {
    let path = manifest_dir().join("tests/golden").join(rel);
    if std::env::var_os("INFORMER_GEN_BLESS").is_some() {
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(&path, actual).unwrap();
        return;
    }
    let expected = std::fs::read_to_string(&path).unwrap();
    assert!(
        actual == expected,
        "tests/golden/{rel} differs from the generator's output; rerun with \
         INFORMER_GEN_BLESS=1 and review the diff\n--- generated ---\n{actual}"
    );
}

/// The single file `render_crds` lays its output out as.
fn single_file(files: &GeneratedFiles) -> String {
    files.get(Path::new("informers.rs")).unwrap().to_owned()
}

fn crd_config() -> Config {
    let mut config = Config::new();
    config.emit_cargo_directives(false).crd(crds());
    config
}

#[test]
fn crd_output_with_a_renamed_group_in_a_module_matches_golden() {
    let (files, _) = crd_config()
        .group_accessor("example.com", "shop")
        .factory_module("crds")
        .render_crds()
        .unwrap();
    let text = single_file(&files);
    assert!(text.contains("pub fn shop(&self) -> shop::Group"), "{text}");
    assert!(text.contains("pub mod shop {"), "{text}");
    assert!(!text.contains("pub fn example(&self)"), "{text}");
    assert!(
        text.contains("crate::crds::example_com::v1::Widget"),
        "{text}"
    );
    assert!(!text.contains("crate::example_com"), "{text}");
    golden("crd-names/informers.rs", &text);

    let (again, _) = crd_config()
        .group_accessor("example.com", "shop")
        .factory_module("crds")
        .render_crds()
        .unwrap();
    assert_eq!(text, single_file(&again), "deterministic");
}

#[test]
fn builtin_output_with_renamed_groups_matches_golden() {
    let table = table::read(&manifest_dir().join("tests/fixtures/golden_table.json")).unwrap();
    let dir = tempfile::tempdir().unwrap();
    let generate = |module: Option<&str>| {
        let mut config = Config::new();
        config
            .out_dir(dir.path())
            .emit_cargo_directives(false)
            .k8s_openapi_path("::k8s_openapi")
            .group_accessor("apps", "workloads")
            .group_accessor("", "kube");
        if let Some(module) = module {
            config.factory_module(module);
        }
        let path = config
            .generate_from("the golden fixture", &table.resources)
            .unwrap();
        std::fs::read_to_string(path).unwrap()
    };
    let text = generate(None);
    assert!(text.contains("pub fn workloads(&self) -> workloads::Group"));
    assert!(text.contains("pub fn kube(&self) -> kube::Group"));
    assert!(text.contains("self.workloads().v1().deployments().informer()"));
    assert!(!text.contains("pub mod core {"));
    golden("renamed/informers.rs", &text);
    assert_eq!(
        text,
        generate(Some("crds")),
        "built-in output names nothing of its own: the module changes nothing"
    );
}

#[test]
fn allow_groups_sees_the_new_accessor() {
    let (files, _) = crd_config()
        .group_accessor("example.com", "shop")
        .allow_groups(["shop"])
        .render_crds()
        .unwrap();
    let text = single_file(&files);
    assert!(text.contains("pub mod shop {"));
    assert!(!text.contains("pub fn tools(&self)"));
}

fn accessor_error(group: &str, name: &str) -> GroupAccessorError {
    match crd_config().group_accessor(group, name).render_crds() {
        Err(GenerateError::GroupAccessor(e)) => e,
        other => panic!("{group}={name}: expected a group accessor error, got {other:?}"),
    }
}

#[test]
fn an_accessor_that_is_not_a_snake_case_identifier_is_an_error() {
    for name in ["Shop", "shop-front", "1shop", "r#shop", "", "_"] {
        let e = accessor_error("example.com", name);
        assert_eq!(e.problem, AccessorProblem::NotSnakeCase, "{name}");
        assert_eq!(e.name, name);
        assert!(e.to_string().contains("example.com"), "{e}");
    }
    assert_eq!(
        accessor_error("example.com", "Shop").to_string(),
        "group accessor `Shop` for API group `example.com`: not a snake_case Rust identifier \
         (ASCII lowercase letters, digits and `_`, not starting with a digit)"
    );
}

#[test]
fn a_keyword_accessor_is_escaped() {
    let (files, _) = crd_config()
        .group_accessor("example.com", "type")
        .render_crds()
        .unwrap();
    let text = single_file(&files);
    assert!(
        text.contains("pub fn r#type(&self) -> r#type::Group"),
        "{text}"
    );
    assert!(text.contains("pub mod r#type {"), "{text}");
}

#[test]
fn an_accessor_named_like_a_factory_method_is_an_error() {
    for name in [
        "start",
        "shutdown",
        "builder",
        "new",
        "factory_core",
        "for_resource",
        "informer_for",
        "wait_for_cache_sync",
        "clone",
    ] {
        let e = accessor_error("example.com", name);
        assert_eq!(e.problem, AccessorProblem::FactoryMethod, "{name}");
        assert!(e.to_string().contains(&format!("`{name}`")), "{e}");
    }
}

#[test]
fn an_accessor_of_another_group_is_an_error() {
    let e = accessor_error("example.com", "tools");
    assert_eq!(
        e.problem,
        AccessorProblem::Clash("tools.example.org".into())
    );
    assert_eq!(
        e.to_string(),
        "group accessor `tools` for API group `example.com`: also the accessor of API group \
         `tools.example.org`"
    );
    let err = crd_config()
        .group_accessor("example.com", "same")
        .group_accessor("tools.example.org", "same")
        .render_crds()
        .unwrap_err();
    assert!(
        matches!(&err, GenerateError::GroupAccessor(e) if e.name == "same"),
        "{err}"
    );
}

#[test]
fn an_accessor_for_a_group_no_input_defines_is_an_error() {
    let e = accessor_error("cert-manager.io", "certs");
    assert_eq!(e.problem, AccessorProblem::UnknownGroup);
    assert_eq!(
        e.to_string(),
        "group accessor `certs` for API group `cert-manager.io`: no input defines this API group"
    );
    let table = table::read(&manifest_dir().join("tests/fixtures/golden_table.json")).unwrap();
    let err = Config::new()
        .out_dir(tempfile::tempdir().unwrap().path())
        .emit_cargo_directives(false)
        .group_accessor("batch", "jobs")
        .generate_from("t", &table.resources)
        .unwrap_err();
    assert!(
        matches!(&err, GenerateError::GroupAccessor(e) if e.problem == AccessorProblem::UnknownGroup),
        "{err}"
    );
}

#[test]
fn an_accessor_named_like_a_types_module_is_an_error() {
    let err = crd_config()
        .group_accessor("example.com", "tools_example_org")
        .render_crds()
        .unwrap_err();
    assert!(matches!(err, GenerateError::CrdModuleClash(_)), "{err}");
    let text = err.to_string();
    assert!(text.contains("tools.example.org"), "{text}");
    assert!(text.contains("example.com"), "{text}");
    assert!(text.contains("group_accessor"), "{text}");
}

#[test]
fn a_factory_module_that_is_not_a_snake_case_identifier_is_an_error() {
    for name in ["Crds", "my-crds", "crate::crds", "9crds", ""] {
        let err = crd_config().factory_module(name).render_crds().unwrap_err();
        assert!(
            matches!(&err, GenerateError::FactoryModule(n) if n == name),
            "{name}: {err}"
        );
        assert!(err.to_string().contains(&format!("`{name}`")), "{err}");
    }
}

/// A small CRD of kind `Widget` in `group`.
fn widget_crd(group: &str) -> String {
    format!(
        "apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: widgets.{group}
spec:
  group: {group}
  names: {{kind: Widget, plural: widgets}}
  scope: Namespaced
  versions:
  - name: v1
    served: true
    storage: true
    schema:
      openAPIV3Schema:
        type: object
        properties:
          spec: {{type: object, properties: {{size: {{type: integer}}}}}}
"
    )
}

#[test]
fn groups_with_one_short_name_do_not_take_the_names_of_types_modules() {
    // Both groups shorten to `gateway_networking`, so their accessors fall back to the full
    // group names, which are the names of their types modules.
    let dir = tempfile::tempdir().unwrap();
    for group in ["gateway.networking.k8s.io", "gateway.networking.x-k8s.io"] {
        std::fs::write(dir.path().join(format!("{group}.yaml")), widget_crd(group)).unwrap();
    }
    let (files, _) = Config::new()
        .emit_cargo_directives(false)
        .crd(dir.path())
        .render_crds()
        .unwrap();
    let text = single_file(&files);
    for group in ["gateway_networking_k8s_io", "gateway_networking_x_k8s_io"] {
        assert!(text.contains(&format!("pub mod {group} {{")), "{text}");
        assert!(
            text.contains(&format!("pub mod {group}_group {{")),
            "{text}"
        );
        assert!(text.contains(&format!("pub fn {group}_group(")), "{text}");
    }
    syn::parse_file(&text).unwrap();
}
