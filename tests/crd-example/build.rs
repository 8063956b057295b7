//! Generates Rust types for every CRD of the shared corpus, and for the generator's golden
//! fixtures, into `OUT_DIR`.

use std::path::{Path, PathBuf};

fn generate(inputs: &[PathBuf], out: &Path) -> Result<(), Box<dyn std::error::Error>> {
    let (model, files) = informer_gen::read::crd::read_paths(inputs)?;
    for file in files {
        println!("cargo:rerun-if-changed={}", file.display());
    }
    std::fs::write(out, informer_gen::emit::types::render_crd_types(&model)?)?;
    Ok(())
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let manifest_dir = PathBuf::from(std::env::var("CARGO_MANIFEST_DIR")?);
    let out_dir = PathBuf::from(std::env::var("OUT_DIR")?);
    generate(
        &[manifest_dir.join("../../../shared/crds")],
        &out_dir.join("crds.rs"),
    )?;
    generate(
        &[manifest_dir.join("../../codegen/tests/fixtures/crd-golden")],
        &out_dir.join("golden.rs"),
    )?;
    Ok(())
}
