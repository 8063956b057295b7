//! Uses informer-gen exactly as a user would: typed resources, informers, listers and a
//! `SharedInformerFactory` for every CRD of the shared corpus, into `OUT_DIR/informers.rs`,
//! included into the module `crds`, with cert-manager's accessor renamed to `certs`.
//! The generator's golden fixture CRDs are generated too (types only), so they compile, and so
//! are its edge-case CRDs (`codegen/tests/fixtures/crd-edge`, in full, into module `edge_crds`).

use std::path::PathBuf;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let manifest_dir = PathBuf::from(std::env::var("CARGO_MANIFEST_DIR")?);
    informer_gen::Config::new()
        .crd(manifest_dir.join("../../../shared/crds"))
        .factory_module("crds")
        .group_accessor("cert-manager.io", "certs")
        .generate()?;

    // Small CRDs reproducing generator bugs found on real manifests, generated in full.
    informer_gen::Config::new()
        .crd(manifest_dir.join("../../codegen/tests/fixtures/crd-edge"))
        .factory_module("edge_crds")
        .file_name("edge.rs")
        .generate()?;

    let golden = manifest_dir.join("../../codegen/tests/fixtures/crd-golden");
    println!("cargo:rerun-if-changed={}", golden.display());
    let (model, files) = informer_gen::read::crd::read_paths(&[golden])?;
    for file in files {
        println!("cargo:rerun-if-changed={}", file.display());
    }
    let out = PathBuf::from(std::env::var("OUT_DIR")?).join("golden.rs");
    std::fs::write(out, informer_gen::emit::types::render_crd_types(&model)?)?;
    Ok(())
}
