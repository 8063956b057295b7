//! The `build.rs` path as a new user takes it: a crate outside the workspace whose
//! dependencies are one kube-informers line (with the `latest` Kubernetes version) and tokio,
//! and `informer-gen` as build dependency, generating from real CRDs with free-form fields
//! (`x-kubernetes-preserve-unknown-fields`, typed `serde_json::Value`): `cargo build` must
//! succeed without serde or serde_json among its dependencies.

mod user_crate;

use user_crate::{cargo, succeeded, workspace};

#[test]
fn a_crate_with_only_kube_informers_builds_generated_crds() {
    let dir = tempfile::tempdir().unwrap();
    let krate = dir.path().join("my-crds");
    std::fs::create_dir_all(krate.join("src")).unwrap();
    let workspace = workspace();
    let crds = workspace.join("../shared/crds");
    std::fs::write(
        krate.join("Cargo.toml"),
        format!(
            "[package]\n\
             name = \"my-crds\"\n\
             version = \"0.1.0\"\n\
             edition = \"2021\"\n\
             \n\
             [dependencies]\n\
             kube-informers = {{ path = {:?}, default-features = false, features = [\"latest\"] }}\n\
             tokio = {{ version = \"1\", features = [\"rt\", \"macros\"] }}\n\
             \n\
             [build-dependencies]\n\
             informer-gen = {{ path = {:?} }}\n",
            workspace.join("kube-informers").display().to_string(),
            workspace.join("codegen").display().to_string(),
        ),
    )
    .unwrap();
    // Crossplane's EnvironmentConfig keeps arbitrary JSON under `data`; Argo CD's test CRDs
    // have objects with both declared properties and preserve-unknown-fields.
    std::fs::write(
        krate.join("build.rs"),
        format!(
            "fn main() -> Result<(), Box<dyn std::error::Error>> {{\n\
             \x20   informer_gen::Config::new()\n\
             \x20       .crd({:?})\n\
             \x20       .crd({:?})\n\
             \x20       .generate()?;\n\
             \x20   Ok(())\n\
             }}\n",
            crds.join("crossplane__environmentconfigs.apiextensions.crossplane.io.yaml"),
            crds.join("argo-cd__multi.e2e-crd-subresource.argoproj.io.yaml"),
        ),
    )
    .unwrap();
    std::fs::write(
        krate.join("src/lib.rs"),
        r#"//! Informers for my CRDs.
#![deny(warnings)]

include!(concat!(env!("OUT_DIR"), "/informers.rs"));

use kube_informers::{InformerFactory as _, Selector};

/// Starts the informers and counts the cached objects.
pub async fn count(client: kube_informers::Client) -> usize {
    let factory = SharedInformerFactory::new(client);
    let configs = factory.apiextensions().v1beta1().environment_configs();
    let resources = factory.argoproj().v1alpha1().status_sub_resources();
    factory.start();
    tokio::task::yield_now().await;
    let config = apiextensions_crossplane_io::v1beta1::EnvironmentConfig::default();
    configs.lister().list(&Selector::everything()).len()
        + resources.lister().list(&Selector::everything()).len()
        + config.data.map_or(0, |data| data.len())
}
"#,
    )
    .unwrap();
    succeeded(&cargo(&krate, &["build"]));
}
