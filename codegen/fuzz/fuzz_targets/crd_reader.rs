//! Any bytes through the CRD reader, typer and emitter: errors are fine, panics are bugs.
#![no_main]

use std::path::Path;

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let Ok(crds) = informer_gen::read::crd::parse_file(Path::new("fuzz.yaml"), text) else {
        return;
    };
    if let Ok(model) = informer_gen::read::crd::build_model(&crds) {
        let _ = informer_gen::emit::types::render_crd_types(&model);
    }
});
