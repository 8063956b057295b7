//! The README's "Testing your controller" example, run as a test; the test also fails when
//! the README's copy differs from the code between the markers.

// README-TESTING-BEGIN
use kube_informers::api::PostParams;
use kube_informers::client::Config;
use kube_informers::k8s_openapi::apimachinery::pkg::apis::meta::v1::ObjectMeta;
use kube_informers::Client;
use sample_controller::generated::Clientset;
use sample_controller::{Foo, FooSpec};
use test_apiserver::TestApiServer;

#[tokio::test]
async fn the_server_refuses_a_foo_the_crd_refuses() -> Result<(), Box<dyn std::error::Error>> {
    // The CRD file the controller ships, installed as `kubectl apply -f` would install it:
    // its schema validates, prunes and defaults every Foo written from now on.
    let server = TestApiServer::builder()
        .namespaces(["shop"])
        .crd_file(concat!(env!("CARGO_MANIFEST_DIR"), "/crd/foo.yaml"))
        .start()
        .await?;
    let client = Client::new(Config::new(server.url()))?;
    let foos = Clientset::new(client)
        .samplecontroller()
        .v1alpha1()
        .foos("shop");

    let foo = Foo {
        metadata: ObjectMeta {
            name: Some("web".into()),
            ..ObjectMeta::default()
        },
        spec: Some(FooSpec {
            deployment_name: Some("web".into()),
            replicas: Some(0),
        }),
        status: None,
    };
    let err = foos.create(&foo, &PostParams::default()).await.unwrap_err();
    assert!(err.is_invalid()); // 422, as kube-apiserver answers
    let api = err.api().expect("the server's Status");
    let cause = api.causes().next().expect("one cause per invalid field");
    assert_eq!(cause.field, "spec.replicas");
    assert_eq!(
        cause.message,
        "Invalid value: 0: spec.replicas in body should be greater than or equal to 1"
    );
    server.shutdown().await;
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
