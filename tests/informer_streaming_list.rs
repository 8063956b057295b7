//! Streaming lists against the test API server: a server that never sends the
//! `k8s.io/initial-events-end` bookmark (as some servers and proxies have shipped) does not
//! stall the informer: after the initial-events timeout it lists and watches instead, for
//! good, converges to the server's state and counts the fallback.

use std::collections::BTreeMap;
use std::time::Duration;

use informer_runtime::client::Config;
use informer_runtime::object::object_key;
use informer_runtime::{
    new_informer, typed, Client, Indexers, InformerOptions, SharedIndexInformer,
};
use k8s_openapi::api::core::v1::ConfigMap;
use serde_json::json;
use test_apiserver::{eventually, RunningServer, TestApiServer};
use tokio_util::sync::CancellationToken;

fn informer(
    server: &RunningServer,
    options: InformerOptions<ConfigMap>,
) -> SharedIndexInformer<ConfigMap> {
    let client = Client::new(Config::new(server.url())).unwrap();
    new_informer(
        &client,
        &typed::<ConfigMap>(),
        None,
        options.indexers(Indexers::namespace()),
    )
}

fn config_map(name: &str, v: u32) -> serde_json::Value {
    json!({"apiVersion": "v1", "kind": "ConfigMap",
           "metadata": {"name": name, "namespace": "a"},
           "data": {"v": v.to_string()}})
}

fn server_state(server: &RunningServer) -> BTreeMap<String, String> {
    server
        .list("configmaps", None)
        .unwrap()
        .iter()
        .map(|o| {
            let meta = &o["metadata"];
            let name = meta["name"].as_str().unwrap_or_default();
            let rv = meta["resourceVersion"].as_str().unwrap_or_default();
            (format!("a/{name}"), rv.to_owned())
        })
        .collect()
}

fn cache_state(inf: &SharedIndexInformer<ConfigMap>) -> BTreeMap<String, String> {
    inf.indexer()
        .list()
        .iter()
        .map(|cm| {
            let rv = cm.metadata.resource_version.clone().unwrap_or_default();
            (object_key(cm.as_ref()), rv)
        })
        .collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_server_without_the_initial_events_end_bookmark_falls_back_to_list_and_watch() {
    let server = TestApiServer::builder()
        .namespaces(["a"])
        .start()
        .await
        .unwrap();
    for i in 0..5 {
        server
            .create("configmaps", Some("a"), config_map(&format!("c{i}"), i))
            .unwrap();
    }
    server.faults().omit_initial_events_end();
    let inf = informer(
        &server,
        InformerOptions::default()
            .name("ConfigMap")
            .streaming_list(true)
            .initial_events_timeout(Duration::from_millis(300)),
    );
    let cancel = CancellationToken::new();
    let task = tokio::spawn(inf.run(cancel.clone()));
    // Without the timeout this never returns: the initial events never end.
    tokio::time::timeout(Duration::from_secs(60), inf.wait_for_sync())
        .await
        .expect("the informer did not sync")
        .unwrap();
    assert_eq!(cache_state(&inf), server_state(&server));

    // It watches on, without streaming: later changes arrive.
    server
        .patch_merge("configmaps", Some("a"), "c1", json!({"data": {"v": "x"}}))
        .unwrap();
    server.delete("configmaps", Some("a"), "c2").unwrap();
    server
        .create("configmaps", Some("a"), config_map("c9", 9))
        .unwrap();
    let want = server_state(&server);
    eventually("convergence", || cache_state(&inf) == want).await;

    let stats = inf.stats();
    assert_eq!(stats.streaming_list_fallbacks, 1, "{stats:?}");
    // The fallback is the first list, not a relist, and no error: the server answered.
    assert_eq!(
        (stats.lists, stats.relists, stats.errors),
        (1, 0, 0),
        "{stats:?}"
    );
    assert!(informer_runtime::render_prometheus(&[stats])
        .contains("informer_streaming_list_fallbacks_total{informer=\"ConfigMap\"} 1\n"));
    let streaming = server
        .requests()
        .iter()
        .filter(|r| r.param("sendInitialEvents") == Some("true"))
        .count();
    assert_eq!(streaming, 1, "streaming is given up for good");
    cancel.cancel();
    task.await.unwrap();
}
