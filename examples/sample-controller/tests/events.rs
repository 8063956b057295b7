//! The Events the controller records, as upstream's sample-controller does: `Synced` for a
//! Foo in line with its Deployment, `ErrResourceExists` for a Foo naming a Deployment it
//! does not own.

mod support;

use serde_json::{json, Value};
use support::{client, create_foo, Running, DEPLOYMENTS, FOOS};
use test_apiserver::{eventually, ResourceSpec, RunningServer, TestApiServer};

use sample_controller::SampleController;

const EVENTS: &str = "events.events.k8s.io";

/// The support module's server, with `events.k8s.io/v1` as every real server has it.
async fn server() -> RunningServer {
    TestApiServer::builder()
        .namespaces(["shop"])
        .resource(
            ResourceSpec::new("samplecontroller.k8s.io", "v1alpha1", "Foo", "foos", true)
                .with_status_subresource(),
        )
        .resource(ResourceSpec::new(
            "events.k8s.io",
            "v1",
            "Event",
            "events",
            true,
        ))
        .start()
        .await
        .expect("the test API server starts")
}

fn events(server: &RunningServer, reason: &str, regarding: &str) -> Vec<Value> {
    server
        .list(EVENTS, Some("shop"))
        .unwrap()
        .into_iter()
        .filter(|e| e["reason"] == reason && e["regarding"]["name"] == regarding)
        .collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn foos_get_upstreams_synced_and_err_resource_exists_events() {
    let server = server().await;
    server
        .create(
            DEPLOYMENTS,
            Some("shop"),
            json!({
                "apiVersion": "apps/v1",
                "kind": "Deployment",
                "metadata": {"name": "taken"},
                "spec": {
                    "selector": {"matchLabels": {"app": "other"}},
                    "template": {
                        "metadata": {"labels": {"app": "other"}},
                        "spec": {"containers": [{"name": "c", "image": "nginx"}]},
                    },
                },
            }),
        )
        .unwrap();
    create_foo(&server, "shop", "web", "web", 1);
    create_foo(&server, "shop", "squatter", "taken", 1);
    let controller = SampleController::new(client(&server));
    let running = Running::start(|cancel| controller.run(cancel));

    eventually("a Synced event for web", || {
        !events(&server, "Synced", "web").is_empty()
    })
    .await;
    eventually("an ErrResourceExists event for squatter", || {
        !events(&server, "ErrResourceExists", "squatter").is_empty()
    })
    .await;
    running.stop().await.unwrap();

    let synced = &events(&server, "Synced", "web")[0];
    assert_eq!(synced["type"], "Normal");
    assert_eq!(synced["note"], "Foo synced successfully");
    assert_eq!(synced["regarding"]["kind"], "Foo");
    assert_eq!(synced["reportingController"], "sample-controller");
    let exists = &events(&server, "ErrResourceExists", "squatter")[0];
    assert_eq!(exists["type"], "Warning");
    assert_eq!(
        exists["note"],
        "Resource \"taken\" already exists and is not managed by Foo"
    );
    assert_eq!(exists["related"]["kind"], "Deployment");
    assert_eq!(exists["related"]["name"], "taken");
    // The Foo is retried with backoff; its repeated warnings fold into one Event's series.
    assert_eq!(events(&server, "ErrResourceExists", "squatter").len(), 1);
    assert!(server.count(FOOS) == 2);
}
