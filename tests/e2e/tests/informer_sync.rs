//! Informers against the test API server over real loopback HTTP with the real client:
//! initial sync over pages, watch events in order, dropped watches, 410 relists.

mod common;

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Duration;

use common::{cache_state, client, informer, informer_with, Replay};
use informer_runtime::{InformerOptions, Lister, Selector};
use k8s_openapi::api::core::v1::{ConfigMap, Pod};
use serde_json::json;
use test_apiserver::{eventually, FaultTarget, RunningServer, TestApiServer};
use tokio_util::sync::CancellationToken;

fn server_state(
    server: &RunningServer,
    resource: &str,
) -> std::collections::BTreeMap<String, String> {
    server
        .list(resource, None)
        .unwrap()
        .iter()
        .map(|o| {
            let m = &o["metadata"];
            let key = match m["namespace"].as_str() {
                Some(ns) => format!("{ns}/{}", m["name"].as_str().unwrap()),
                None => m["name"].as_str().unwrap().to_owned(),
            };
            (key, m["resourceVersion"].as_str().unwrap().to_owned())
        })
        .collect()
}

fn cm(ns: &str, name: &str, v: &str) -> serde_json::Value {
    json!({"apiVersion": "v1", "kind": "ConfigMap",
           "metadata": {"name": name, "namespace": ns, "labels": {"v": v}},
           "data": {"v": v}})
}

/// Pods seeded for the initial sync: several pages of 500.
const N: usize = 2000;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn initial_sync_of_thousands_over_pages() {
    let server = TestApiServer::builder()
        .seed_pods(N)
        .seed_namespaces(5)
        .rv0_ignores_limit(false)
        .start()
        .await
        .unwrap();
    let inf = informer::<Pod>(&client(&server.url()));
    let replay = Replay::default();
    let reg = inf.add_event_handler(replay.clone());
    let cancel = CancellationToken::new();
    let task = tokio::spawn(inf.run(cancel.clone()));

    // has_synced flips only once every page is in the store.
    let len_at_sync = Arc::new(std::sync::Mutex::new(None));
    let seen_sync = Arc::new(AtomicBool::new(false));
    eventually("sync", || {
        if inf.has_synced() && !seen_sync.swap(true, Ordering::SeqCst) {
            *len_at_sync.lock().unwrap() = Some(inf.indexer().len());
        }
        inf.has_synced()
    })
    .await;
    assert_eq!(*len_at_sync.lock().unwrap(), Some(N));
    assert!(
        server.request_count("list", "pods") >= 4,
        "{:?}",
        server.request_counts()
    );
    eventually("the handler's sync", || reg.has_synced()).await;
    assert_eq!(replay.objects().len(), N);
    assert_eq!(cache_state(&inf), server_state(&server, "pods"));
    assert!(replay.violations().is_empty());

    let lister = Lister::new(inf.indexer());
    let web: Selector = "tier=web".parse().unwrap();
    let expected_web = server
        .list("pods", Some("ns-1"))
        .unwrap()
        .iter()
        .filter(|p| p["metadata"]["labels"]["tier"] == "web")
        .count();
    assert_eq!(lister.namespaced("ns-1").list(&web).len(), expected_web);
    assert_eq!(
        lister
            .namespaced("ns-1")
            .list(&Selector::everything())
            .len(),
        N / 5
    );
    assert!(lister.namespaced("ns-0").get("pod-0").is_some());
    assert_eq!(lister.list(&web).len(), N.div_ceil(3));

    cancel.cancel();
    task.await.unwrap();
    assert!(inf.is_stopped());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn watch_events_reach_store_and_handlers_in_order() {
    let server = TestApiServer::builder()
        .namespaces(["a"])
        .start()
        .await
        .unwrap();
    let inf = informer::<ConfigMap>(&client(&server.url()));
    let replay = Replay::default();
    inf.add_event_handler(replay.clone());
    let cancel = CancellationToken::new();
    let task = tokio::spawn(inf.run(cancel.clone()));
    eventually("sync", || inf.has_synced()).await;

    server
        .create("configmaps", Some("a"), cm("a", "x", "1"))
        .unwrap();
    server
        .patch_merge("configmaps", Some("a"), "x", json!({"data": {"v": "2"}}))
        .unwrap();
    server
        .patch_merge("configmaps", Some("a"), "x", json!({"data": {"v": "3"}}))
        .unwrap();
    server
        .create("configmaps", Some("a"), cm("a", "y", "1"))
        .unwrap();
    server.delete("configmaps", Some("a"), "x").unwrap();

    eventually("the deletion", || replay.log().len() == 5).await;
    let log: Vec<String> = replay
        .log()
        .iter()
        .map(|l| l.split('@').next().unwrap().to_owned())
        .collect();
    assert_eq!(
        log,
        vec![
            "add a/x",
            "update a/x",
            "update a/x",
            "add a/y",
            "delete a/x"
        ]
    );
    assert!(replay.violations().is_empty());
    assert_eq!(cache_state(&inf), server_state(&server, "configmaps"));
    assert_eq!(
        inf.last_sync_resource_version(),
        server.resource_version().to_string()
    );
    cancel.cancel();
    task.await.unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn dropped_watches_rewatch_without_relisting() {
    let server = TestApiServer::builder()
        .namespaces(["a"])
        .start()
        .await
        .unwrap();
    let inf = informer::<ConfigMap>(&client(&server.url()));
    let replay = Replay::default();
    inf.add_event_handler(replay.clone());
    let cancel = CancellationToken::new();
    let task = tokio::spawn(inf.run(cancel.clone()));
    eventually("sync", || inf.has_synced()).await;

    server.faults().drop_watches_after(2);
    for i in 0..10 {
        server
            .create("configmaps", Some("a"), cm("a", &format!("c{i}"), "1"))
            .unwrap();
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    eventually("every object", || cache_state(&inf).len() == 10).await;
    assert_eq!(cache_state(&inf), server_state(&server, "configmaps"));
    eventually("the handler's replay", || replay.objects().len() == 10).await;
    assert_eq!(server.request_count("list", "configmaps"), 1);
    assert!(server.request_count("watch", "configmaps") >= 4);
    assert!(replay.violations().is_empty());
    assert_eq!(inf.stats().relists, 0);
    cancel.cancel();
    task.await.unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn expired_watch_relists_and_reports_missed_deletions() {
    let server = TestApiServer::builder()
        .namespaces(["a"])
        .start()
        .await
        .unwrap();
    for i in 0..6 {
        server
            .create("configmaps", Some("a"), cm("a", &format!("c{i}"), "1"))
            .unwrap();
    }
    let inf = informer::<ConfigMap>(&client(&server.url()));
    let replay = Replay::default();
    let reg = inf.add_event_handler(replay.clone());
    let cancel = CancellationToken::new();
    let task = tokio::spawn(inf.run(cancel.clone()));
    eventually("sync", || inf.has_synced()).await;
    eventually("a watch", || {
        server.request_count("watch", "configmaps") >= 1
    })
    .await;

    // Disconnect the informer and keep it out while objects change.
    server.faults().fail_next(
        10_000,
        503,
        FaultTarget::resource("configmaps").verb("watch"),
    );
    server.faults().cut_watches();
    eventually("a failed re-watch", || inf.stats().errors >= 1).await;
    server.delete("configmaps", Some("a"), "c1").unwrap();
    server.delete("configmaps", Some("a"), "c4").unwrap();
    server
        .patch_merge("configmaps", Some("a"), "c2", json!({"data": {"v": "2"}}))
        .unwrap();
    server
        .create("configmaps", Some("a"), cm("a", "new", "1"))
        .unwrap();
    server.faults().compact_history();
    server.faults().clear();

    eventually("convergence", || {
        cache_state(&inf) == server_state(&server, "configmaps")
    })
    .await;
    eventually("the handler's replay", || {
        replay.objects() == server_state(&server, "configmaps")
    })
    .await;
    assert_eq!(reg.queue_depth(), 0);
    let mut unknown = replay.final_state_unknown();
    unknown.sort();
    assert_eq!(unknown, vec!["a/c1", "a/c4"]);
    assert!(replay.violations().is_empty());
    let stats = inf.stats();
    assert!(stats.expired_relists >= 1, "{stats:?}");
    assert!(stats.relists >= 1, "{stats:?}");
    cancel.cancel();
    task.await.unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn streaming_list_syncs_without_a_list_request() {
    let server = TestApiServer::builder()
        .seed_pods(300)
        .seed_namespaces(3)
        .start()
        .await
        .unwrap();
    let inf = informer_with::<Pod>(
        &client(&server.url()),
        InformerOptions::default().streaming_list(true),
    );
    let replay = Replay::default();
    let reg = inf.add_event_handler(replay.clone());
    let cancel = CancellationToken::new();
    let task = tokio::spawn(inf.run(cancel.clone()));
    tokio::time::timeout(Duration::from_secs(60), inf.wait_for_sync())
        .await
        .expect("sync hung")
        .unwrap();
    assert_eq!(inf.indexer().len(), 300);
    assert_eq!(server.request_count("list", "pods"), 0);
    assert_eq!(server.request_count("watch", "pods"), 1);
    eventually("the handler's sync", || reg.has_synced()).await;
    assert!(replay.log().iter().all(|l| l.starts_with("add ")));

    server.delete("pods", Some("ns-0"), "pod-0").unwrap();
    eventually("the deletion", || {
        inf.indexer().get_by_key("ns-0/pod-0").is_none()
    })
    .await;
    assert_eq!(cache_state(&inf), server_state(&server, "pods"));
    cancel.cancel();
    task.await.unwrap();
}
