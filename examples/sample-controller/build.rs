//! Generates the Foo types, informer, lister, factory and clientset from `crd/foo.yaml`
//! (what `hack/update-codegen.sh` does for the Go sample-controller), into
//! `OUT_DIR/informers.rs`, which `src/lib.rs` includes as the module `generated`.

fn main() -> Result<(), Box<dyn std::error::Error>> {
    informer_gen::Config::new()
        .crd("crd/foo.yaml")
        .factory_module("generated")
        .generate()?;
    Ok(())
}
