//! Generates the protobuf decoders of the Kubernetes version k8s-openapi is built for, for
//! the API groups whose cargo feature is on.

use std::process::ExitCode;

fn main() -> ExitCode {
    let result = informer_gen::Config::new()
        .runtime_path("crate")
        .k8s_openapi_path("::k8s_openapi")
        .groups_from_cargo_features()
        .file_name("decoders.rs")
        .generate_protobuf_decoders();
    match result {
        Ok(_) => ExitCode::SUCCESS,
        Err(e) => {
            // A build script reports through stderr; Display says what to do, Debug would not.
            eprintln!("informer-protobuf: cannot generate decoders: {e}");
            ExitCode::FAILURE
        }
    }
}
