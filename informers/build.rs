//! Generates the typed informers and `SharedInformerFactory` of the Kubernetes version
//! k8s-openapi is built for, for the API groups whose cargo feature is on.

fn main() -> Result<(), Box<dyn std::error::Error>> {
    informer_gen::Config::new()
        .listers_path("::listers")
        .groups_from_cargo_features()
        .k8s_openapi_path("::k8s_openapi")
        .file_name("informers.rs")
        .generate()?;
    Ok(())
}
