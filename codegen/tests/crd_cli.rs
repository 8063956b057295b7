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

#[test]
fn names_rename_a_group_and_put_the_output_in_a_module() {
    let dir = tempfile::tempdir().unwrap();
    let input = fixture("crd-golden");
    let out = dir.path().join("crds");
    let result = informer_gen(&[
        "crd",
        input.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
        "--group-accessor",
        "example.com=shop",
        "--group-accessor=tools.example.org=gadgets",
        "--factory-module",
        "crds",
    ]);
    assert!(
        result.status.success(),
        "{}",
        String::from_utf8_lossy(&result.stderr)
    );
    let text = std::fs::read_to_string(out.join("mod.rs")).unwrap();
    syn::parse_file(&text).unwrap();
    assert!(text.contains("pub fn shop(&self) -> shop::Group"), "{text}");
    assert!(
        text.contains("pub fn gadgets(&self) -> gadgets::Group"),
        "{text}"
    );
    assert!(
        text.contains("crate::crds::example_com::v1::Widget"),
        "{text}"
    );

    let krate = dir.path().join("widgets");
    let result = informer_gen(&[
        "crd",
        input.to_str().unwrap(),
        "--crate-out",
        krate.to_str().unwrap(),
        "--crate-name",
        "widgets",
        "--group-accessor",
        "example.com=shop",
        "--factory-module",
        "crds",
    ]);
    assert!(
        result.status.success(),
        "{}",
        String::from_utf8_lossy(&result.stderr)
    );
    let lib = std::fs::read_to_string(krate.join("src/lib.rs")).unwrap();
    let file = syn::parse_file(&lib).unwrap();
    assert!(!file.attrs.is_empty(), "the crate has docs");
    assert!(lib.contains("pub mod crds;"), "{lib}");
    let module = std::fs::read_to_string(krate.join("src/crds.rs")).unwrap();
    syn::parse_file(&module).unwrap();
    assert!(module.contains("pub struct SharedInformerFactory"));
    assert!(module.contains("pub fn shop(&self) -> shop::Group"));
    assert!(module.contains("crate::crds::example_com::v1::Widget"));
}

#[test]
fn bad_names_are_one_error_line_and_write_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("generated");
    let input = fixture("crd-golden");
    let cases: [(&[&str], &str); 5] = [
        (
            &["--group-accessor", "example.com=Shop"],
            "group accessor `Shop` for API group `example.com`: not a snake_case",
        ),
        (
            &["--group-accessor", "example.com=start"],
            "group accessor `start` for API group `example.com`",
        ),
        (
            &["--group-accessor", "nowhere.io=x"],
            "group accessor `x` for API group `nowhere.io`: no input defines",
        ),
        (&["--group-accessor", "example.com"], "expected GROUP=NAME"),
        (&["--factory-module", "my-crds"], "factory module `my-crds`"),
    ];
    for (flags, needle) in cases {
        let mut args = vec![
            "crd",
            input.to_str().unwrap(),
            "--out",
            out.to_str().unwrap(),
        ];
        args.extend_from_slice(flags);
        let result = informer_gen(&args);
        assert_eq!(result.status.code(), Some(2), "{flags:?}");
        let stderr = String::from_utf8_lossy(&result.stderr);
        assert_eq!(stderr.lines().count(), 1, "{stderr}");
        assert!(stderr.contains(needle), "{flags:?}: {stderr}");
        assert!(!out.exists());
    }
    let result = informer_gen(&[
        "crd",
        input.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
        "--group-accessor",
        "example.com=a",
        "--group-accessor",
        "example.com=b",
    ]);
    assert!(String::from_utf8_lossy(&result.stderr).contains("named twice"));
    let result = informer_gen(&["crd", "--help"]);
    let help = String::from_utf8_lossy(&result.stdout);
    assert!(help.contains("--group-accessor <GROUP=NAME>"), "{help}");
    assert!(help.contains("--factory-module <NAME>"), "{help}");
}
