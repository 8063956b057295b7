//! Generates the typed listers of the Kubernetes version k8s-openapi is built for,
//! for the API groups whose cargo feature is on.

use std::process::ExitCode;

fn main() -> ExitCode {
    let result = informer_gen::Config::new()
        .listers_only()
        // Inside the facade: the facade re-exports this crate, so it cannot name the facade.
        .runtime_path("::informer_runtime")
        .groups_from_cargo_features()
        .k8s_openapi_path("::k8s_openapi")
        .file_name("listers.rs")
        .generate();
    match result {
        Ok(_) => ExitCode::SUCCESS,
        Err(e) => {
            // A build script reports through stderr; Display says what to do, Debug would not.
            eprintln!("listers: cannot generate listers: {e}");
            ExitCode::FAILURE
        }
    }
}
