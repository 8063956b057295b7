//! Generates Rust types for every CRD of the shared corpus into `OUT_DIR`.

use std::path::PathBuf;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let manifest_dir = PathBuf::from(std::env::var("CARGO_MANIFEST_DIR")?);
    let crds = manifest_dir.join("../../../shared/crds");
    let (model, files) = informer_gen::read::crd::read_paths(&[crds])?;
    for file in files {
        println!("cargo:rerun-if-changed={}", file.display());
    }
    let out = PathBuf::from(std::env::var("OUT_DIR")?).join("crds.rs");
    std::fs::write(out, informer_gen::emit::types::render_crd_types(&model)?)?;
    Ok(())
}
