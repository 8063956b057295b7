//! `PartialObjectMetadata` negotiation over HTTP: the envelope and item shapes
//! kube-apiserver answers with, and the switch that makes the server ignore it.

use serde_json::Value;
use test_apiserver::{fixtures, TestApiServer};

const LIST_ACCEPT: &str =
    "application/json;as=PartialObjectMetadataList;g=meta.k8s.io;v=v1,application/json";
const WATCH_ACCEPT: &str =
    "application/json;as=PartialObjectMetadata;g=meta.k8s.io;v=v1,application/json";

fn http() -> reqwest::Client {
    let _ = rustls::crypto::ring::default_provider().install_default();
    reqwest::Client::builder().build().unwrap()
}

async fn get(url: &str, accept: &str) -> Value {
    http()
        .get(url)
        .header("Accept", accept)
        .send()
        .await
        .unwrap()
        .error_for_status()
        .unwrap()
        .json()
        .await
        .unwrap()
}

#[tokio::test]
async fn lists_and_watches_reduce_to_metadata_in_kube_apiserver_shapes() {
    let server = TestApiServer::builder()
        .seed_pods(2)
        .bookmark_interval(std::time::Duration::from_millis(50))
        .start()
        .await
        .unwrap();
    let list = get(
        &format!("{}/api/v1/pods?limit=1", server.url()),
        LIST_ACCEPT,
    )
    .await;
    assert_eq!(list["kind"], "PartialObjectMetadataList");
    assert_eq!(list["apiVersion"], "meta.k8s.io/v1");
    assert!(list["metadata"]["continue"].is_string());
    let item = &list["items"][0];
    assert_eq!(item["kind"], "PartialObjectMetadata");
    assert_eq!(item["apiVersion"], "meta.k8s.io/v1");
    let keys: Vec<&str> = item
        .as_object()
        .unwrap()
        .keys()
        .map(String::as_str)
        .collect();
    assert_eq!(keys.len(), 3, "{keys:?}");
    assert!(item["metadata"]["labels"]["tier"].is_string());

    let plain = get(&format!("{}/api/v1/pods", server.url()), "application/json").await;
    assert_eq!(plain["kind"], "PodList");
    assert!(plain["items"][0]["spec"].is_object());

    let rv = list["metadata"]["resourceVersion"]
        .as_str()
        .unwrap()
        .to_owned();
    let url = format!(
        "{}/api/v1/pods?watch=1&resourceVersion={rv}&allowWatchBookmarks=true&timeoutSeconds=1",
        server.url()
    );
    server
        .create("pods", None, fixtures::pod("ns-0", "late", 3))
        .unwrap();
    let body = http()
        .get(&url)
        .header("Accept", WATCH_ACCEPT)
        .send()
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    let events: Vec<Value> = body
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let added = events.iter().find(|e| e["type"] == "ADDED").unwrap();
    assert_eq!(added["object"]["kind"], "PartialObjectMetadata");
    assert_eq!(added["object"]["metadata"]["name"], "late");
    assert!(added["object"].get("spec").is_none());
    for bookmark in events.iter().filter(|e| e["type"] == "BOOKMARK") {
        assert_eq!(bookmark["object"]["kind"], "PartialObjectMetadata");
    }
    server.shutdown().await;
}

#[tokio::test]
async fn the_switch_makes_the_server_ignore_the_request() {
    let server = TestApiServer::builder()
        .partial_metadata(false)
        .seed_pods(1)
        .start()
        .await
        .unwrap();
    let list = get(&format!("{}/api/v1/pods", server.url()), LIST_ACCEPT).await;
    assert_eq!(list["kind"], "PodList");
    assert!(list["items"][0]["spec"].is_object());
    server.shutdown().await;
}
