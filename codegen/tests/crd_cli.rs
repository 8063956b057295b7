//! `informer-gen crd`: a module tree, a complete crate, both compiled as a user would, and bad
//! input that writes nothing.

mod user_crate;

use std::collections::BTreeMap;
use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

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

/// Every file under `dir`, by path relative to `dir`.
fn read_tree(dir: &Path) -> BTreeMap<PathBuf, String> {
    fn walk(dir: &Path, base: &Path, out: &mut BTreeMap<PathBuf, String>) {
        for entry in std::fs::read_dir(dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                walk(&path, base, out);
            } else {
                let rel = path.strip_prefix(base).unwrap().to_owned();
                out.insert(rel, std::fs::read_to_string(&path).unwrap());
            }
        }
    }
    let mut out = BTreeMap::new();
    walk(dir, dir, &mut out);
    out
}

fn success(result: &std::process::Output) -> String {
    assert!(
        result.status.success(),
        "{}",
        String::from_utf8_lossy(&result.stderr)
    );
    String::from_utf8_lossy(&result.stdout).into_owned()
}

#[test]
fn out_writes_a_module_tree_of_parsable_files_deterministically() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("src/crds");
    let input = fixture("crd-golden");
    let run = |out: &Path| {
        success(&informer_gen(&[
            "crd",
            input.to_str().unwrap(),
            "--out",
            out.to_str().unwrap(),
        ]))
    };
    let stdout = run(&out);
    assert!(stdout.contains("declare `pub mod crds;`"), "{stdout}");
    let tree = read_tree(&out);
    let paths: Vec<&str> = tree.keys().map(|p| p.to_str().unwrap()).collect();
    assert_eq!(
        paths,
        [
            "example/mod.rs",
            "example/v1/mod.rs",
            "example/v1/widget.rs",
            "example/v1beta1/mod.rs",
            "example/v1beta1/widget.rs",
            "example_com/mod.rs",
            "example_com/v1.rs",
            "example_com/v1beta1.rs",
            "mod.rs",
            "tools/mod.rs",
            "tools/v2/gadget.rs",
            "tools/v2/mod.rs",
            "tools_example_org/mod.rs",
            "tools_example_org/v2.rs",
        ]
    );
    for (path, text) in &tree {
        let file = syn::parse_file(text).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        assert!(!file.attrs.is_empty(), "{}: inner docs", path.display());
    }
    let root = &tree[Path::new("mod.rs")];
    assert!(root.contains("pub struct SharedInformerFactory"));
    assert!(root.contains("pub trait MetadataGroups"));
    for module in ["example", "example_com", "tools", "tools_example_org"] {
        assert!(root.contains(&format!("pub mod {module};")), "{root}");
    }
    assert!(tree[Path::new("example_com/mod.rs")].contains("pub mod v1beta1;"));
    assert!(tree[Path::new("example_com/v1.rs")].contains("pub struct Widget {"));
    // The default module is the directory's name.
    assert!(
        tree[Path::new("example/v1/widget.rs")].contains("crate::crds::example_com::v1::Widget")
    );

    // Again into the same directory (replaced) and into another one: the same bytes.
    run(&out);
    assert_eq!(tree, read_tree(&out));
    let again = dir.path().join("again/crds");
    run(&again);
    assert_eq!(tree, read_tree(&again));
}

#[test]
fn out_takes_its_module_from_the_factory_module_or_needs_one() {
    let dir = tempfile::tempdir().unwrap();
    let input = fixture("crd-golden/widgets.yaml");
    // `self` would have to be declared as `self_`.
    for name in ["generated-crds", "Crds", "self"] {
        let out = dir.path().join(name);
        let result = informer_gen(&[
            "crd",
            input.to_str().unwrap(),
            "--out",
            out.to_str().unwrap(),
        ]);
        assert_eq!(result.status.code(), Some(2), "{name}");
        let stderr = String::from_utf8_lossy(&result.stderr);
        assert!(
            stderr.contains("give `--factory-module <NAME>`"),
            "{stderr}"
        );
    }
    let out = dir.path().join("generated-crds");
    assert!(!out.exists());

    let stdout = success(&informer_gen(&[
        "crd",
        input.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
        "--factory-module",
        "generated",
    ]));
    assert!(stdout.contains("declare `pub mod generated;`"), "{stdout}");
    let widget = std::fs::read_to_string(out.join("example/v1/widget.rs")).unwrap();
    assert!(
        widget.contains("crate::generated::example_com::v1::Widget"),
        "{widget}"
    );
}

#[test]
fn crate_out_writes_a_complete_crate() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("widgets");
    let input = fixture("crd-golden/widgets.yaml");
    success(&informer_gen(&[
        "crd",
        input.to_str().unwrap(),
        "--crate-out",
        out.to_str().unwrap(),
        "--crate-name",
        "widgets",
        "--runtime-dep",
        "../kube-informers",
    ]));
    let manifest = std::fs::read_to_string(out.join("Cargo.toml")).unwrap();
    assert!(manifest.contains("name = \"widgets\""), "{manifest}");
    assert!(
        manifest.contains(
            "kube-informers = { path = \"../kube-informers\", default-features = false }"
        ),
        "{manifest}"
    );
    // Generated code reaches k8s-openapi, serde and serde_json through the facade.
    assert!(!manifest.contains("serde"), "{manifest}");
    assert!(!manifest.contains("k8s-openapi ="), "{manifest}");
    assert!(
        manifest.contains("default = [\"kube-informers/latest\"]"),
        "{manifest}"
    );
    // The tree of `--out`, rooted at the crate root.
    let lib = std::fs::read_to_string(out.join("src/lib.rs")).unwrap();
    let file = syn::parse_file(&lib).unwrap();
    assert!(!file.attrs.is_empty(), "the crate has docs");
    assert!(
        lib.contains("pub fn example(&self) -> example::Group"),
        "{lib}"
    );
    let version = std::fs::read_to_string(out.join("src/example/v1/mod.rs")).unwrap();
    assert!(
        version.contains("fn widgets(&self)"),
        "factory accessor for widgets"
    );
    let widget = std::fs::read_to_string(out.join("src/example/v1/widget.rs")).unwrap();
    assert!(
        widget.contains("crate::example_com::v1::Widget"),
        "{widget}"
    );
    assert!(out.join("src/example_com/v1.rs").is_file());
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
    let widget = std::fs::read_to_string(out.join("shop/v1/widget.rs")).unwrap();
    assert!(
        widget.contains("crate::crds::example_com::v1::Widget"),
        "{widget}"
    );

    let krate = dir.path().join("widgets");
    success(&informer_gen(&[
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
    ]));
    let lib = std::fs::read_to_string(krate.join("src/lib.rs")).unwrap();
    let file = syn::parse_file(&lib).unwrap();
    assert!(!file.attrs.is_empty(), "the crate has docs");
    assert!(lib.contains("pub mod crds;"), "{lib}");
    let module = std::fs::read_to_string(krate.join("src/crds/mod.rs")).unwrap();
    syn::parse_file(&module).unwrap();
    assert!(module.contains("pub struct SharedInformerFactory"));
    assert!(module.contains("pub fn shop(&self) -> shop::Group"));
    let widget = std::fs::read_to_string(krate.join("src/crds/shop/v1/widget.rs")).unwrap();
    assert!(widget.contains("crate::crds::example_com::v1::Widget"));
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

/// What a user's crate does with the output: the tree `--out src/crds` writes (default module
/// name, a renamed group, a shared CRD and the fixtures) declared as `pub mod crds;`, and a
/// `--crate-out` crate as a dependency, compiled warning-free and with every public item
/// documented, with no serde dependency (generated code uses the runtime's). One `cargo check`
/// for both, in the workspace's target directory, so the runtime
/// and its dependencies are built once for every run.
#[test]
fn out_tree_and_crate_out_compile_in_a_user_crate() {
    let workspace = user_crate::workspace();
    let target_dir = user_crate::target_dir();
    // A fixed place (not a temporary directory), so that later runs find the crate's own
    // fingerprints and only recheck what changed.
    let krate = target_dir.join("informer-gen-tree-check");
    std::fs::create_dir_all(krate.join("src")).unwrap();

    let fixtures = fixture("crd-golden");
    let certificates =
        workspace.join("../shared/crds/cert-manager__certificates.cert-manager.io.yaml");
    success(&informer_gen(&[
        "crd",
        fixtures.to_str().unwrap(),
        certificates.to_str().unwrap(),
        "--out",
        krate.join("src/crds").to_str().unwrap(),
        "--group-accessor",
        "cert-manager.io=certs",
    ]));
    success(&informer_gen(&[
        "crd",
        fixture("crd-golden/widgets.yaml").to_str().unwrap(),
        "--crate-out",
        krate.join("widgets").to_str().unwrap(),
        "--crate-name",
        "widgets",
    ]));
    std::fs::write(
        krate.join("Cargo.toml"),
        format!(
            "[package]\n\
             name = \"informer-gen-tree-check\"\n\
             version = \"0.0.0\"\n\
             edition = \"2021\"\n\
             publish = false\n\
             \n\
             [dependencies]\n\
             kube-informers = {{ path = {:?}, default-features = false, features = [\"latest\"] }}\n\
             widgets = {{ path = \"widgets\" }}\n\
             \n\
             # Its own workspace, wherever the target directory is.\n\
             [workspace]\n",
            workspace.join("kube-informers").display().to_string()
        ),
    )
    .unwrap();
    std::fs::write(
        krate.join("src/lib.rs"),
        r#"//! A user's crate over generated informers.
#![deny(warnings, missing_docs)]

pub mod crds;

use crds::MetadataGroups as _;

/// Uses what users name: factories and their accessors, listers, metadata accessors, types.
pub fn use_generated(client: kube_informers::Client) -> usize {
    let factory = crds::SharedInformerFactory::new(client.clone());
    let certificates = factory.certs().v1().certificates().lister();
    let everything = kube_informers::Selector::everything();
    let mut count = certificates.list(&everything).len();
    count += factory.tools().v2().gadgets().lister().list(&everything).len();
    let metadata = kube_informers::MetadataSharedInformerFactory::builder(client.clone()).build();
    let _widgets = metadata.example().v1beta1().widgets();
    let certificate = crds::cert_manager_io::v1::Certificate::default();
    count += usize::from(certificate.spec.is_none());
    let other = widgets::SharedInformerFactory::new(client);
    count += other.example().v1().widgets().lister().list(&everything).len();
    let widget: Option<widgets::example_com::v1::Widget> = None;
    count + usize::from(widget.is_none())
}
"#,
    )
    .unwrap();
    let result = user_crate::cargo(&krate, &["check"]);
    let stderr = String::from_utf8_lossy(&result.stderr);
    assert!(result.status.success(), "{stderr}");
    // `#![deny(warnings)]` covers the tree; the generated crate's warnings are only printed.
    assert!(!stderr.contains("`widgets` (lib) generated"), "{stderr}");
}

/// A crate from `--crate-out`, built as it is: plain `cargo build` in it, outside any
/// workspace, with kube-informers from the path its Cargo.toml names and k8s-openapi's version
/// from its default feature. Its CRDs have free-form fields (`serde_json::Value`).
#[test]
fn a_crate_out_crate_builds_as_it_is() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("widgets");
    let environment_configs = user_crate::workspace()
        .join("../shared/crds/crossplane__environmentconfigs.apiextensions.crossplane.io.yaml");
    let stdout = success(&informer_gen(&[
        "crd",
        fixture("crd-golden").to_str().unwrap(),
        environment_configs.to_str().unwrap(),
        "--crate-out",
        out.to_str().unwrap(),
        "--crate-name",
        "widgets",
    ]));
    assert!(stdout.contains(" from 3 manifests\n"), "{stdout}");
    assert!(stdout.contains("`cargo build`"), "{stdout}");
    assert!(stdout.contains("default-features = false"), "{stdout}");
    let manifest = std::fs::read_to_string(out.join("Cargo.toml")).unwrap();
    assert!(
        manifest.contains(&format!(
            "kube-informers = {{ version = {:?}, path = ",
            env!("CARGO_PKG_VERSION")
        )),
        "{manifest}"
    );
    let stderr = user_crate::succeeded(&user_crate::cargo(&out, &["build"]));
    assert!(!stderr.contains("warning"), "{stderr}");
}

#[test]
fn standard_input_counts_as_a_manifest() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("crds");
    let mut child = Command::new(env!("CARGO_BIN_EXE_informer-gen"))
        .args(["crd", "-", "--out", out.to_str().unwrap()])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let manifest = std::fs::read(fixture("crd-golden/widgets.yaml")).unwrap();
    child.stdin.take().unwrap().write_all(&manifest).unwrap();
    let stdout = success(&child.wait_with_output().unwrap());
    assert!(stdout.contains(" from 1 manifest;"), "{stdout}");
}

/// The mistakes a new user makes first: each is one line on standard error that says what is
/// wrong and what to do, never a `Debug` dump.
#[test]
fn common_mistakes_are_one_sentence_with_the_fix() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("crds");
    let out = out.to_str().unwrap();
    let empty = dir.path().join("empty");
    std::fs::create_dir(&empty).unwrap();
    let missing = fixture("crd-bad/missing.yaml");
    let no_crd = fixture("crd-bad/no-crd.yaml");
    let not_yaml = fixture("crd-bad/not-yaml.yaml");
    let cases: [(Vec<&str>, &str); 5] = [
        (
            vec!["crd", missing.to_str().unwrap(), "--out", out],
            "missing.yaml: cannot read it: ",
        ),
        (
            vec!["crd", no_crd.to_str().unwrap(), "--out", out],
            "no CustomResourceDefinition in this file",
        ),
        (
            vec!["crd", not_yaml.to_str().unwrap(), "--out", out],
            "not valid YAML or JSON: ",
        ),
        (
            vec!["crd", empty.to_str().unwrap(), "--out", out],
            "no CustomResourceDefinition in `",
        ),
        (vec!["crd", "--outt", out], "unexpected argument '--outt'"),
    ];
    let fixes = [
        "check the path",
        "`kubectl get crd <NAME> -o yaml`",
        "at line 2 column 7",
        "put CRD manifests (.yaml, .yml or .json) there",
        "a similar argument exists: '--out'",
    ];
    for ((args, what), fix) in cases.iter().zip(fixes) {
        let result = informer_gen(args);
        assert_eq!(result.status.code(), Some(2), "{args:?}");
        let stderr = String::from_utf8_lossy(&result.stderr);
        assert_eq!(stderr.lines().count(), 1, "{stderr}");
        assert!(stderr.starts_with("informer-gen: error: "), "{stderr}");
        assert!(stderr.contains(what), "{args:?}: {stderr}");
        assert!(stderr.contains(fix), "{args:?}: {stderr}");
        for debug in ["CrdError {", "Os {", "code: "] {
            assert!(!stderr.contains(debug), "{stderr}");
        }
        assert!(!Path::new(out).exists());
    }
}
