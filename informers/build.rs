//! Generates the typed informers and `SharedInformerFactory` of the Kubernetes version
//! k8s-openapi is built for, for the API groups whose cargo feature is on.

use std::process::ExitCode;

fn main() -> ExitCode {
    let result = informer_gen::Config::new()
        .listers_path("::listers")
        // Inside the facade: the facade re-exports this crate, so it cannot name the facade.
        .runtime_path("::informer_runtime")
        .groups_from_cargo_features()
        .k8s_openapi_path("::k8s_openapi")
        .file_name("informers.rs")
        .generate();
    // Apply configurations only when asked for: they are most of this crate's code.
    let result = result.map(|_| ()).and_then(|()| {
        if std::env::var_os("CARGO_FEATURE_APPLY").is_none() {
            return Ok(());
        }
        informer_gen::Config::new()
            .runtime_path("::informer_runtime")
            .groups_from_cargo_features()
            .k8s_openapi_path("::k8s_openapi")
            .file_name("apply.rs")
            .generate_apply_configurations("apply")
            .map(|_| ())
    });
    match result {
        Ok(_) => ExitCode::SUCCESS,
        Err(e) => {
            // A build script reports through stderr; Display says what to do, Debug would not.
            eprintln!("informers: cannot generate informers: {e}");
            ExitCode::FAILURE
        }
    }
}
