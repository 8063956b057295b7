//! The README's "Writing" example, compiled as part of this test crate; the test fails when
//! the README's copy differs from the code between the markers.
#![allow(dead_code, unused_variables)]

// README-WRITING-BEGIN
use kube_informers::api::{
    Api, DeleteParams, Patch, PatchParams, PostParams, StatusAndScale, StatusSubresource,
};
use kube_informers::k8s_openapi::api::apps::v1::Deployment;
use kube_informers::k8s_openapi::api::core::v1::{ConfigMap, Namespace, Pod};
use kube_informers::{Client, Error};
use serde_json::json;

async fn write(client: Client, deploy: Deployment) -> Result<(), Error> {
    let config_maps = Api::<ConfigMap>::namespaced(client.clone(), "shop");
    let mut cm = config_maps.get("settings").await?;
    cm.data
        .get_or_insert_with(Default::default)
        .insert("mode".into(), "fast".into());
    match config_maps.update(&cm, &PostParams::default()).await {
        // Changed meanwhile: re-read (or take the lister's copy) and retry.
        Err(e) if e.is_conflict() => {}
        other => {
            other?;
        }
    }

    // All four patch types; every write takes dryRun and a field manager.
    let pods: Api<Pod, StatusSubresource> = Api::namespaced(client.clone(), "shop");
    let labels = Patch::Merge(json!({"metadata": {"labels": {"tier": "web"}}}));
    pods.patch("web-0", &labels, &PatchParams::default().dry_run())
        .await?;
    pods.patch_status(
        "web-0",
        &Patch::Merge(json!({"status": {"message": "draining"}})),
        &PatchParams::default(),
    )
    .await?;

    let deployments: Api<Deployment, StatusAndScale> = Api::namespaced(client.clone(), "shop");
    deployments
        .patch(
            "web",
            &Patch::Apply(&deploy),
            &PatchParams::apply("shop-controller").force(),
        )
        .await?;
    deployments
        .patch_scale(
            "web",
            &Patch::Merge(json!({"spec": {"replicas": 3}})),
            &PatchParams::default(),
        )
        .await?;

    // Preconditions, propagation and grace period travel as DeleteOptions.
    let gone = DeleteParams::foreground()
        .precondition_resource_version("42")
        .grace_period(0);
    pods.delete("web-1", &gone).await?; // DeleteResponse::Object while finalizers hold it

    let shop = Api::<Namespace>::all(client).get("shop").await?; // cluster-scoped: no namespace
    Ok(())
}
// README-WRITING-END

#[test]
fn the_readme_shows_this_code() {
    let readme = include_str!("../../README.md");
    let section = &readme[readme.find("## Writing").unwrap()..];
    let start = section.find("```rust\n").unwrap() + "```rust\n".len();
    let end = start + section[start..].find("```\n").unwrap();
    let this = include_str!("readme_writing.rs");
    let begin = this.find("// README-WRITING-BEGIN\n").unwrap() + "// README-WRITING-BEGIN\n".len();
    let finish = this.find("// README-WRITING-END").unwrap();
    assert_eq!(&section[start..end], &this[begin..finish]);
}
