//! The README's "Testing your controller" example, run as a test; the test also fails when
//! the README's copy differs from the code between the markers.

// README-TESTING-BEGIN
use std::time::Duration;

use kube_informers::api::{Api, PostParams};
use kube_informers::k8s_openapi::api::apps::v1::Deployment;
use sample_controller::generated::Clientset;
use sample_controller::{Foo, SampleController};
use test_apiserver::TestEnv;
use tokio_util::sync::CancellationToken;

/// The test server with the CRD file the controller ships, installed as `kubectl apply -f`
/// installs it (its schema validates, prunes and defaults every Foo), and one Foo.
async fn env() -> Result<TestEnv, test_apiserver::HarnessError> {
    TestEnv::builder()
        .crd_file(concat!(env!("CARGO_MANIFEST_DIR"), "/crd/foo.yaml"))
        .namespaces(["shop"])
        .objects_yaml(
            "web.yaml",
            r#"
apiVersion: samplecontroller.k8s.io/v1alpha1
kind: Foo
metadata: {name: web, namespace: shop}
spec: {deploymentName: web, replicas: 2}
"#,
        )
        .start()
        .await
}

#[tokio::test]
async fn a_foo_gets_its_deployment() -> Result<(), Box<dyn std::error::Error>> {
    let env = env().await?;
    let cancel = CancellationToken::new();
    let controller = tokio::spawn(SampleController::new(env.client()).run(cancel.clone()));

    let deployments = Api::<Deployment>::namespaced(env.client(), "shop");
    let mut waited = Duration::ZERO;
    let web = loop {
        if let Some(web) = deployments.get_opt("web").await? {
            break web;
        }
        assert!(waited < Duration::from_secs(30), "no Deployment after 30 s");
        tokio::time::sleep(Duration::from_millis(20)).await;
        waited += Duration::from_millis(20);
    };
    assert_eq!(web.spec.replicas, Some(2));
    let owner = &web.metadata.owner_references.unwrap_or_default()[0];
    assert_eq!((owner.kind.as_str(), owner.name.as_str()), ("Foo", "web"));

    cancel.cancel();
    controller.await??;
    env.shutdown().await;
    Ok(())
}

#[tokio::test]
async fn the_server_refuses_a_foo_the_crd_refuses() -> Result<(), Box<dyn std::error::Error>> {
    let env = env().await?;
    let foos = Clientset::new(env.client())
        .samplecontroller()
        .v1alpha1()
        .foos("shop");
    let mut foo: Foo = foos.get("web").await?;
    foo.metadata.name = Some("zero".into());
    foo.metadata.resource_version = None;
    foo.spec.get_or_insert_with(Default::default).replicas = Some(0);

    let err = foos.create(&foo, &PostParams::default()).await.unwrap_err();
    assert!(err.is_invalid()); // 422, as kube-apiserver answers
    let api = err.api().expect("the server's Status");
    let cause = api.causes().next().expect("one cause per invalid field");
    assert_eq!(cause.field, "spec.replicas");
    assert_eq!(
        cause.message,
        "Invalid value: 0: spec.replicas in body should be greater than or equal to 1"
    );
    env.shutdown().await;
    Ok(())
}
// README-TESTING-END

#[test]
fn the_readme_shows_this_code() {
    let readme = include_str!("../../../README.md");
    let section = &readme[readme.find("## Testing your controller").unwrap()..];
    let start = section.find("```rust\n").unwrap() + "```rust\n".len();
    let end = start + section[start..].find("```\n").unwrap();
    let this = include_str!("readme_testing.rs");
    let begin = this.find("// README-TESTING-BEGIN\n").unwrap() + "// README-TESTING-BEGIN\n".len();
    let finish = this.find("// README-TESTING-END").unwrap();
    assert_eq!(&section[start..end], &this[begin..finish]);
}
