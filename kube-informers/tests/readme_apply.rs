//! The README's "Server-side apply" example, compiled as part of this test crate and run
//! against the embedded test API server; the test fails when the README's copy differs
//! from the code between the markers.

// README-APPLY-BEGIN
use kube_informers::apply::ApplyParams;
use kube_informers::informers::apply::api::apps::v1::{
    extract_deployment, DeploymentApply, DeploymentSpecApply,
};
use kube_informers::informers::apply::api::core::v1::{
    ContainerApply, PodSpecApply, PodTemplateSpecApply,
};
use kube_informers::informers::apply::apimachinery::pkg::apis::meta::v1::LabelSelectorApply;
use kube_informers::informers::Clientset;
use kube_informers::{apply::ObjectMetaApply, Client};

async fn apply_web(client: Client) -> Result<(), Box<dyn std::error::Error>> {
    let deployments = Clientset::new(client).apps().v1().deployments("shop");
    // Only what is set is sent, so only that is claimed: no empty `containers` list, no
    // zero `replicas` the struct could not leave out.
    let web = DeploymentApply::new("web", "shop").spec(
        DeploymentSpecApply::new()
            .replicas(3)
            .selector(LabelSelectorApply::new().match_labels([("app", "web")]))
            .template(
                PodTemplateSpecApply::new()
                    .metadata(ObjectMetaApply::new().labels([("app", "web")]))
                    .spec(
                        PodSpecApply::new().containers([ContainerApply::new()
                            .name("app")
                            .image("registry.example/web:1.2")]),
                    ),
            ),
    );
    let params = ApplyParams::new("shop-controller").force();
    let live = deployments.apply("web", &web, &params).await?;

    // What this manager owns, read back from managedFields: exactly `web`, whatever the
    // server defaulted and other managers set around it.
    let mine = extract_deployment(&live, "shop-controller")?;
    assert_eq!(mine, web);
    // Change a field of it and apply again: a field left out is given up (and removed
    // unless another manager owns it); a field another manager set stays theirs.
    let mut scaled = mine;
    if let Some(spec) = scaled.spec.as_mut() {
        spec.replicas = Some(5);
    }
    deployments.apply("web", &scaled, &params).await?;
    Ok(())
}
// README-APPLY-END

#[tokio::test]
async fn the_readme_example_runs() {
    let server = test_apiserver::TestApiServer::builder()
        .seed_namespaces(0)
        .namespaces(["shop"])
        .start()
        .await
        .unwrap();
    let client = Client::new(kube_informers::Config::new(server.url())).unwrap();
    apply_web(client).await.unwrap();
}

#[test]
fn the_readme_shows_this_code() {
    let readme = include_str!("../../README.md");
    let section = &readme[readme.find("### Server-side apply").unwrap()..];
    let start = section.find("```rust\n").unwrap() + "```rust\n".len();
    let end = start + section[start..].find("```\n").unwrap();
    let this = include_str!("readme_apply.rs");
    let begin = this.find("// README-APPLY-BEGIN\n").unwrap() + "// README-APPLY-BEGIN\n".len();
    let finish = this.find("// README-APPLY-END").unwrap();
    assert_eq!(&section[start..end], &this[begin..finish]);
}
