//! Generated types for two small CRDs, compared byte for byte with checked-in output.
//! Run with `INFORMER_GEN_BLESS=1` to rewrite the expected files after an intended change.

use std::path::{Path, PathBuf};

use informer_gen::emit::types::render_crd_types;
use informer_gen::read::crd::read_paths;

fn fixtures() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/crd-golden")
}

fn check(manifest: &str, expected: &str) {
    let (model, files) = read_paths(&[fixtures().join(manifest)]).unwrap();
    assert_eq!(files, vec![fixtures().join(manifest)]);
    let actual = render_crd_types(&model).unwrap();
    let expected_path = fixtures().join(expected);
    if std::env::var_os("INFORMER_GEN_BLESS").is_some() {
        std::fs::write(&expected_path, &actual).unwrap();
        return;
    }
    let expected = std::fs::read_to_string(&expected_path).unwrap();
    assert!(
        actual == expected,
        "{} differs from the generated output; rerun with INFORMER_GEN_BLESS=1 if the change is intended\n--- generated ---\n{actual}",
        expected_path.display()
    );
}

#[test]
fn widgets_yaml_two_versions_matches_golden() {
    check("widgets.yaml", "widgets.rs");
}

#[test]
fn gadgets_json_cluster_scoped_matches_golden() {
    check("gadgets.json", "gadgets.rs");
}
