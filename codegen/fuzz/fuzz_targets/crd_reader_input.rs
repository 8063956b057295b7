//! One input through the CRD reader, typer and emitter; shared by the fuzz target and the stable
//! test `tests/crd_fuzz_corpus.rs`, so that both make exactly the same calls.

use std::path::Path;

/// Runs `data` through `parse_file`, `build_model` and `render_crd_types`: errors are fine,
/// panics are bugs.
pub fn run(data: &[u8]) {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let Ok(crds) = informer_gen::read::crd::parse_file(Path::new("fuzz.yaml"), text) else {
        return;
    };
    if let Ok(model) = informer_gen::read::crd::build_model(&crds) {
        let _ = informer_gen::emit::types::render_crd_types(&model);
    }
}
