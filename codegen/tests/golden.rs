//! Golden tests: the generated output for a small fixed table, and the CRD tree of one small
//! CRD, is checked in under `tests/golden/` and compared byte for byte, so every generator
//! change is a reviewable diff. Run with `INFORMER_GEN_BLESS=1` to rewrite the golden files.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use informer_gen::emit::{self, EmitOptions, GeneratedFiles, Layout, Target};
use informer_gen::model::{Api, ResourceDef};
use informer_gen::read::table;
use informer_gen::Config;

const FIXTURE: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/tests/fixtures/golden_table.json"
);
const CRD_FIXTURE: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/tests/fixtures/crd-golden/widgets.yaml"
);
const GOLDEN: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/golden");

fn fixture() -> Vec<ResourceDef> {
    table::read(Path::new(FIXTURE)).unwrap().resources
}

fn options(target: Target, layout: Layout) -> EmitOptions {
    EmitOptions {
        target,
        layout,
        runtime_path: "::informer_runtime".into(),
        k8s_openapi_path: "::k8s_openapi".into(),
        source_description: "the golden fixture".into(),
    }
}

fn cases() -> Vec<(&'static str, EmitOptions)> {
    vec![
        (
            "tree",
            options(
                Target::Informers { listers_path: None },
                Layout::Tree {
                    root_file: "lib.rs".into(),
                },
            ),
        ),
        (
            "single",
            options(
                Target::Informers {
                    listers_path: Some("::listers".into()),
                },
                Layout::SingleFile {
                    file_name: "informers.rs".into(),
                },
            ),
        ),
        (
            "single",
            options(
                Target::Listers,
                Layout::SingleFile {
                    file_name: "listers.rs".into(),
                },
            ),
        ),
    ]
}

fn generate(defs: &[ResourceDef], options: &EmitOptions) -> GeneratedFiles {
    let api = Api::new("golden_table.json", defs).unwrap();
    emit::generate(&api, options).unwrap()
}

fn read_tree(dir: &Path, base: &Path, out: &mut BTreeMap<PathBuf, String>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in entries {
        let path = entry.unwrap().path();
        if path.is_dir() {
            read_tree(&path, base, out);
        } else {
            let rel = path.strip_prefix(base).unwrap().to_owned();
            out.insert(rel, std::fs::read_to_string(&path).unwrap());
        }
    }
}

#[test]
fn generated_output_matches_the_golden_files() {
    let defs = fixture();
    let mut expected_by_case: BTreeMap<&str, GeneratedFiles> = BTreeMap::new();
    for (case, options) in cases() {
        let files = generate(&defs, &options);
        let merged = expected_by_case.entry(case).or_default();
        for (path, contents) in files.files() {
            merged.insert(path.clone(), contents.clone());
        }
    }
    for (case, files) in expected_by_case {
        check_golden(case, &files);
    }
}

/// The module tree `informer-gen crd --out src/crds` writes for one small CRD (two versions).
#[test]
fn crd_tree_matches_the_golden_files() {
    let (files, _) = Config::new()
        .emit_cargo_directives(false)
        .crd(Path::new(CRD_FIXTURE))
        .factory_module("crds")
        .render_crd_tree("mod.rs")
        .unwrap();
    check_golden("crd-tree", &files);
}

/// Compares `files` with `tests/golden/<case>/`, or rewrites it when blessing.
fn check_golden(case: &str, files: &GeneratedFiles) {
    let dir = Path::new(GOLDEN).join(case);
    if std::env::var_os("INFORMER_GEN_BLESS").is_some() {
        files.write_dir(&dir).unwrap();
        return;
    }
    let mut on_disk = BTreeMap::new();
    read_tree(&dir, &dir, &mut on_disk);
    let generated: Vec<&PathBuf> = files.files().keys().collect();
    let checked_in: Vec<&PathBuf> = on_disk.keys().collect();
    assert_eq!(
        generated, checked_in,
        "golden file set of `{case}` differs; rerun with INFORMER_GEN_BLESS=1 and review the diff"
    );
    for (path, contents) in files.files() {
        assert!(
            on_disk[path] == *contents,
            "tests/golden/{case}/{} differs from the generator's output; \
             rerun with INFORMER_GEN_BLESS=1 and review the diff",
            path.display()
        );
    }
}

#[test]
fn output_is_identical_for_identical_input_in_any_order() {
    let defs = fixture();
    let mut reversed = defs.clone();
    reversed.reverse();
    for (_, options) in cases() {
        let first = generate(&defs, &options);
        let second = generate(&defs, &options);
        let shuffled = generate(&reversed, &options);
        assert_eq!(first, second);
        assert_eq!(first, shuffled);
    }
}

#[test]
fn every_builtin_table_generates_deterministically() {
    for version in table::builtin_versions() {
        let t = table::builtin(version).unwrap();
        let options = options(
            Target::Informers { listers_path: None },
            Layout::SingleFile {
                file_name: "informers.rs".into(),
            },
        );
        let a = generate(&t.resources, &options);
        let b = generate(&t.resources, &options);
        assert_eq!(a, b, "{version}");
        let text = a.get(Path::new("informers.rs")).unwrap();
        assert!(
            text.contains("pub fn pods(&self) -> PodInformer"),
            "{version}"
        );
        assert!(
            text.contains("pub fn rbac_authorization(&self)"),
            "{version}"
        );
        assert!(
            text.contains("pub fn flowcontrol_apiserver(&self)"),
            "{version}"
        );
    }
}

#[test]
fn generated_docs_cannot_become_doctests_or_links() {
    let files = generate(&fixture(), &cases()[0].1);
    let pod = files.get(Path::new("core/v1/pod.rs")).unwrap();
    assert!(pod.contains("Indented text \\[with brackets\\] and &lt;tags&gt;"));
    assert!(
        !pod.contains("///     "),
        "no indented (code block) doc lines"
    );
}
