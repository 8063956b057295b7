//! `informer-gen crd`: a module file, a complete crate, and bad input that writes nothing.

use std::path::{Path, PathBuf};
use std::process::Command;

fn fixture(path: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures")
        .join(path)
}

fn informer_gen(args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_informer-gen"))
        .args(args)
        .output()
        .unwrap()
}

#[test]
fn out_writes_one_parsable_module_file() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("generated");
    let input = fixture("crd-golden");
    let result = informer_gen(&[
        "crd",
        input.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
    ]);
    assert!(
        result.status.success(),
        "{}",
        String::from_utf8_lossy(&result.stderr)
    );
    let text = std::fs::read_to_string(out.join("mod.rs")).unwrap();
    syn::parse_file(&text).unwrap();
    assert!(text.contains("pub struct SharedInformerFactory"));
    assert!(text.contains("pub mod example_com"));
    assert!(text.contains("crate::example_com::v1::Widget"));
    assert!(text.contains("pub mod tools_example_org"));

    let again = dir.path().join("again");
    let result = informer_gen(&[
        "crd",
        input.to_str().unwrap(),
        "--out",
        again.to_str().unwrap(),
    ]);
    assert!(result.status.success());
    assert_eq!(text, std::fs::read_to_string(again.join("mod.rs")).unwrap());
}

#[test]
fn crate_out_writes_a_complete_crate() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("widgets");
    let input = fixture("crd-golden/widgets.yaml");
    let result = informer_gen(&[
        "crd",
        input.to_str().unwrap(),
        "--crate-out",
        out.to_str().unwrap(),
        "--crate-name",
        "widgets",
        "--runtime-dep",
        "../runtime",
    ]);
    assert!(
        result.status.success(),
        "{}",
        String::from_utf8_lossy(&result.stderr)
    );
    let manifest = std::fs::read_to_string(out.join("Cargo.toml")).unwrap();
    assert!(manifest.contains("name = \"widgets\""), "{manifest}");
    assert!(
        manifest.contains("informer-runtime = { path = \"../runtime\" }"),
        "{manifest}"
    );
    assert!(
        manifest.contains(
            "k8s-openapi = { version = \"0.29\", default-features = false, features = [\"std\"] }"
        ),
        "{manifest}"
    );
    assert!(manifest.contains("serde = {"), "{manifest}");
    assert!(manifest.contains("serde_json"), "{manifest}");
    let lib = std::fs::read_to_string(out.join("src/lib.rs")).unwrap();
    let file = syn::parse_file(&lib).unwrap();
    assert!(!file.attrs.is_empty(), "the crate has docs");
    assert!(
        lib.contains("fn widgets(&self)"),
        "factory accessor for widgets"
    );
}

#[test]
fn bad_input_names_file_crd_and_path_and_writes_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("generated");
    let input = fixture("crd-bad/untypeable.yaml");
    let result = informer_gen(&[
        "crd",
        input.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
    ]);
    assert_eq!(result.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&result.stderr);
    assert!(
        stderr.contains("untypeable.yaml: CRD `policies.example.com`: at `spec.versions[1]"),
        "{stderr}"
    );
    assert!(!out.exists());
}

#[test]
fn usage_errors_are_reported() {
    let result = informer_gen(&["crd", "--out", "x"]);
    assert_eq!(result.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&result.stderr).contains("no CRD manifest"));
    let input = fixture("crd-golden");
    let result = informer_gen(&["crd", input.to_str().unwrap(), "--crate-out", "x"]);
    assert!(String::from_utf8_lossy(&result.stderr).contains("--crate-name"));
    let result = informer_gen(&["crd", "--help"]);
    assert!(String::from_utf8_lossy(&result.stdout).contains("--crate-out"));
}
