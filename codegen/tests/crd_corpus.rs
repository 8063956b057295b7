//! Every CRD of the shared corpus reads, types and renders, deterministically.

use std::path::PathBuf;

use informer_gen::emit::types::render_crd_types;
use informer_gen::read::crd::read_paths;

fn corpus() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../shared/crds")
}

#[test]
fn corpus_reads_and_renders_deterministically() {
    let (model, files) = read_paths(&[corpus()]).unwrap();
    assert_eq!(files.len(), 22, "{files:?}");
    let first = render_crd_types(&model).unwrap();
    let (again, _) = read_paths(&[corpus()]).unwrap();
    assert_eq!(first, render_crd_types(&again).unwrap());
    if let Ok(out) = std::env::var("CRD_CORPUS_DUMP") {
        std::fs::write(out, &first).unwrap();
    }
}
