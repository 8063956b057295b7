//! A relist is one step (KEP-5647's atomic replace): while a relist after a 410 arrives
//! page by page, readers keep seeing the cache from before it, then the cache after it,
//! never a mix; handlers get its changes together; and the store's resourceVersion is the
//! relist's once it is applied.

mod common;

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Arc;
use std::time::Duration;

use common::{client, informer_with, Replay};
use informer_runtime::{InformerOptions, Lister, Selector};
use k8s_openapi::api::core::v1::ConfigMap;
use serde_json::json;
use test_apiserver::{eventually, FaultTarget, RunningServer, TestApiServer};
use tokio_util::sync::CancellationToken;

const OLD: usize = 200;
const NEW: usize = 200;

fn create(server: &RunningServer, name: &str) {
    server
        .create(
            "configmaps",
            Some("shop"),
            json!({"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": name}, "data": {"k": "v"}}),
        )
        .expect("create");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_reader_never_sees_a_relist_half_applied() {
    let server = TestApiServer::builder()
        .namespaces(["shop"])
        .history(16)
        .start()
        .await
        .expect("server");
    for i in 0..OLD {
        create(&server, &format!("old-{i}"));
    }
    // Small pages: the relist arrives in 20 requests, each a chance for a reader to look.
    let informer = informer_with::<ConfigMap>(
        &client(&server.url()),
        InformerOptions::default().page_size(10),
    );
    let replay = Replay::default();
    informer.add_event_handler(replay.clone());
    let cancel = CancellationToken::new();
    let running = tokio::spawn(informer.clone().run(cancel.clone()));
    eventually("the first sync", || informer.has_synced()).await;
    assert_eq!(informer.indexer().len(), OLD);
    // Handlers are fed on their own task: the relist's events are counted from the point
    // where every initial add has been delivered, not from the store's sync.
    eventually("handlers to see the first sync", || {
        replay.log().len() == OLD
    })
    .await;

    // A reader on its own thread, listing as fast as it can and counting the lists that
    // saw old and new objects side by side.
    let stop = Arc::new(AtomicBool::new(false));
    let mixed = Arc::new(AtomicU64::new(0));
    let reads = Arc::new(AtomicU64::new(0));
    let reader = {
        let lister = Lister::new(informer.indexer());
        let (stop, mixed, reads) = (stop.clone(), mixed.clone(), reads.clone());
        std::thread::spawn(move || {
            while !stop.load(Ordering::Relaxed) {
                let all = lister.list(&Selector::everything());
                let new = all
                    .iter()
                    .filter(|c| {
                        c.metadata
                            .name
                            .as_deref()
                            .is_some_and(|n| n.starts_with("new-"))
                    })
                    .count();
                if new > 0 && new < all.len() {
                    mixed.fetch_add(1, Ordering::Relaxed);
                }
                reads.fetch_add(1, Ordering::Relaxed);
            }
        })
    };

    // The informer is kept away while every object is replaced, then the history it would
    // resume from is compacted: its next watch gets 410 and it relists.
    let events_before = replay.log().len();
    let faults = server.faults();
    faults.fail_next(2, 503, FaultTarget::resource("configmaps").verb("watch"));
    faults.cut_watches();
    for i in 0..OLD {
        server
            .delete("configmaps", Some("shop"), &format!("old-{i}"))
            .expect("delete");
    }
    for i in 0..NEW {
        create(&server, &format!("new-{i}"));
    }
    faults.compact_history();
    // Pages of the relist are stalled a little, so the reader has time to look between them.
    faults.stall_next(
        20,
        Duration::from_millis(20),
        FaultTarget::resource("configmaps").verb("list"),
    );

    eventually("the relist", || {
        let keys = informer.indexer().list_keys();
        keys.len() == NEW && keys.iter().all(|k| k.starts_with("shop/new-"))
    })
    .await;
    stop.store(true, Ordering::Relaxed);
    reader.join().expect("reader thread");
    assert!(reads.load(Ordering::Relaxed) > 0);
    assert_eq!(
        mixed.load(Ordering::Relaxed),
        0,
        "a reader saw old and new objects together in {} of {} lists",
        mixed.load(Ordering::Relaxed),
        reads.load(Ordering::Relaxed)
    );
    assert!(informer.stats().expired_relists >= 1);

    // Handlers: every change of the relist, each object's sequence intact.
    // OLD == NEW: the count alone holds before the relist's events arrive; its names do not.
    eventually("handlers to see the relist", || {
        let objects = replay.objects();
        objects.len() == NEW && objects.keys().all(|k| k.starts_with("shop/new-"))
    })
    .await;
    assert_eq!(replay.violations(), Vec::<String>::new());
    let relist_events = replay.log().split_off(events_before);
    assert_eq!(relist_events.len(), OLD + NEW, "{relist_events:?}");
    assert_eq!(replay.final_state_unknown().len(), OLD);

    // The store is current at the relist's resourceVersion, which is the server's.
    assert_eq!(
        informer.indexer().resource_version(),
        server.resource_version().to_string()
    );
    cancel.cancel();
    running.await.expect("informer task");
}
