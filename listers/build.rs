//! Generates the typed listers of the Kubernetes version k8s-openapi is built for,
//! for the API groups whose cargo feature is on.

fn main() -> Result<(), Box<dyn std::error::Error>> {
    informer_gen::Config::new()
        .listers_only()
        .groups_from_cargo_features()
        .k8s_openapi_path("::k8s_openapi")
        .file_name("listers.rs")
        .generate()?;
    Ok(())
}
