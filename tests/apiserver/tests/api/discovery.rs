use reqwest::Method;
use serde_json::json;
use test_apiserver::{fixtures, TestApiServer};

use crate::support::{get, name_of, send, Watch};

#[tokio::test]
async fn discovery_lists_what_is_registered() {
    let server = TestApiServer::builder().start().await.unwrap();
    let (code, api) = get(&server, "/api").await;
    assert_eq!(code, 200);
    assert_eq!(api["kind"], "APIVersions");
    assert_eq!(api["versions"], json!(["v1"]));
    let (_, v1) = get(&server, "/api/v1").await;
    assert_eq!(v1["kind"], "APIResourceList");
    assert_eq!(v1["groupVersion"], "v1");
    let pods = v1["resources"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["name"] == "pods")
        .unwrap();
    assert_eq!(pods["kind"], "Pod");
    assert_eq!(pods["namespaced"], true);
    assert_eq!(pods["singularName"], "pod");
    assert_eq!(pods["shortNames"], json!(["po"]));
    assert!(pods["verbs"].as_array().unwrap().contains(&json!("watch")));
    let nodes = v1["resources"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["name"] == "nodes")
        .unwrap();
    assert_eq!(nodes["namespaced"], false);

    let (_, apis) = get(&server, "/apis").await;
    assert_eq!(apis["kind"], "APIGroupList");
    assert!(apis["groups"]
        .as_array()
        .unwrap()
        .iter()
        .all(|g| g["name"] != "example.com"));

    server.register(fixtures::widget_spec());
    let (_, apis) = get(&server, "/apis").await;
    let group = apis["groups"]
        .as_array()
        .unwrap()
        .iter()
        .find(|g| g["name"] == "example.com")
        .unwrap();
    assert_eq!(
        group["preferredVersion"],
        json!({"groupVersion": "example.com/v1", "version": "v1"})
    );
    let (_, g) = get(&server, "/apis/example.com").await;
    assert_eq!(g["kind"], "APIGroup");
    let (_, rl) = get(&server, "/apis/example.com/v1").await;
    assert_eq!(rl["groupVersion"], "example.com/v1");
    assert_eq!(rl["resources"][0]["kind"], "Widget");
    let (code, _) = get(&server, "/apis/example.com/v2").await;
    assert_eq!(code, 404);
}

#[tokio::test]
async fn crd_shaped_resources_registered_at_run_time_are_fully_served() {
    let server = TestApiServer::builder()
        .namespaces(["shop"])
        .start()
        .await
        .unwrap();
    server.register(fixtures::widget_spec());
    let mut w = Watch::open(&server, "/apis/example.com/v1/widgets?watch=1").await;
    let body = fixtures::widget("shop", "w1", 0).to_string();
    let (code, created) = send(
        &server,
        Method::POST,
        "/apis/example.com/v1/namespaces/shop/widgets",
        "application/json",
        &body,
    )
    .await;
    assert_eq!(code, 201, "{created}");
    assert_eq!(created["apiVersion"], "example.com/v1");
    let e = w.next_event().await;
    assert_eq!(
        (e["type"].as_str(), e["object"]["kind"].as_str()),
        (Some("ADDED"), Some("Widget"))
    );
    let (_, list) = get(
        &server,
        "/apis/example.com/v1/widgets?labelSelector=color%3Dred",
    )
    .await;
    assert_eq!(list["kind"], "WidgetList");
    assert_eq!(list["apiVersion"], "example.com/v1");
    assert_eq!(name_of(&list["items"][0]), "w1");
    assert_eq!(
        server
            .get("widgets.example.com", Some("shop"), "w1")
            .unwrap()["spec"]["color"],
        "red"
    );
}
