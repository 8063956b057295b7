//! Handler isolation against the test API server: a blocked handler delays neither the
//! store nor a fast handler, and a panicking handler is isolated and keeps receiving.

mod common;

use std::sync::{Arc, Mutex};

use common::{client, informer, Replay};
use informer_runtime::ResourceEventHandlerFuncs;
use k8s_openapi::api::core::v1::ConfigMap;
use serde_json::json;
use test_apiserver::{eventually, TestApiServer};
use tokio_util::sync::CancellationToken;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn slow_and_panicking_handlers_harm_no_one_else() {
    let server = TestApiServer::builder()
        .namespaces(["a"])
        .start()
        .await
        .unwrap();
    let inf = informer::<ConfigMap>(&client(&server.url()));

    // The slow handler blocks until the test opens the gate.
    let (open_gate, gate) = std::sync::mpsc::channel::<()>();
    let gate = Mutex::new(gate);
    let slow = inf.add_event_handler(ResourceEventHandlerFuncs::default().on_add(
        move |_: &Arc<ConfigMap>, _| {
            let gate = gate.lock().unwrap();
            let _ = gate.recv();
        },
    ));
    let panicky = inf.add_event_handler(ResourceEventHandlerFuncs::default().on_add(
        |cm: &Arc<ConfigMap>, _| {
            panic!("handler bug on {:?}", cm.metadata.name);
        },
    ));
    let fast = Replay::default();
    let fast_reg = inf.add_event_handler(fast.clone());

    let cancel = CancellationToken::new();
    let task = tokio::spawn(inf.run(cancel.clone()));
    eventually("sync", || inf.has_synced()).await;
    for i in 0..40 {
        server
            .create(
                "configmaps",
                Some("a"),
                json!({"apiVersion": "v1", "kind": "ConfigMap",
                       "metadata": {"name": format!("c{i}"), "namespace": "a"}}),
            )
            .unwrap();
    }
    eventually("the fast handler", || fast.objects().len() == 40).await;
    assert_eq!(inf.indexer().len(), 40);
    // The slow handler is stuck on its first event; the rest waits in its own queue.
    assert_eq!(slow.stats().delivered, 0);
    assert!(slow.queue_depth() >= 39, "{}", slow.queue_depth());
    assert_eq!(fast_reg.queue_depth(), 0);
    eventually("the panicking handler", || panicky.stats().delivered == 40).await;
    assert_eq!(panicky.stats().panics, 40);
    assert!(fast.violations().is_empty());

    let depths: Vec<usize> = inf.stats().handlers.iter().map(|h| h.queue_depth).collect();
    assert!(depths[0] >= 39 && depths[2] == 0, "{depths:?}");

    drop(open_gate);
    eventually("the slow handler to catch up", || slow.queue_depth() == 0).await;
    assert_eq!(slow.stats().delivered, 40);
    cancel.cancel();
    task.await.unwrap();
}
