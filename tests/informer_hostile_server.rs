//! An informer against a hostile or broken server (issue 34): a watch event over the client's
//! limit makes it relist and converge, and a `Retry-After` of u64::MAX seconds does not stop it.

use scripted_server as support;

use std::sync::{Arc, Mutex};
use std::time::Duration;

use informer_runtime::client::Config;
use informer_runtime::error::ErrorKind;
use informer_runtime::{
    new_informer, typed, Client, Indexers, InformerOptions, SharedIndexInformer,
};
use k8s_openapi::api::core::v1::Pod;
use support::{mebibyte_chunks, pod_json, watch_line, Reply, Server};
use test_apiserver::eventually;
use tokio_util::sync::CancellationToken;

async fn within<F: std::future::Future>(f: F) -> F::Output {
    tokio::time::timeout(Duration::from_secs(60), f)
        .await
        .expect("test hung")
}

fn informer(client: &Client, options: InformerOptions<Pod>) -> SharedIndexInformer<Pod> {
    new_informer(
        client,
        &typed::<Pod>(),
        None,
        options.indexers(Indexers::namespace()),
    )
}

fn list_of(pods: &[(&str, &str)], rv: &str) -> String {
    let items: Vec<String> = pods.iter().map(|(n, r)| pod_json(n, r, 0)).collect();
    format!(
        r#"{{"kind":"PodList","apiVersion":"v1","metadata":{{"resourceVersion":"{rv}"}},"items":[{}]}}"#,
        items.join(",")
    )
}

fn bookmark(rv: &str) -> Vec<u8> {
    format!("{{\"type\":\"BOOKMARK\",\"object\":{{\"kind\":\"Pod\",\"apiVersion\":\"v1\",\"metadata\":{{\"resourceVersion\":\"{rv}\"}}}}}}\n").into_bytes()
}

/// A watch that stays open (a bookmark now and then), as a quiet server's does.
fn quiet_watch(rv: &str) -> Reply {
    let mut reply = Reply::chunks(200, vec![bookmark(rv); 100]);
    reply.pause = Duration::from_secs(1);
    reply
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn informer_relists_after_an_oversized_watch_event_and_converges() {
    let mut first_watch = watch_line("ADDED", "b", "11", 10);
    first_watch.extend(watch_line("MODIFIED", "a", "12", 20 << 20));
    let first_watch = mebibyte_chunks(&first_watch);
    let server = Server::start(None, move |seen| {
        let rv = seen.param("resourceVersion");
        if seen.param("watch").is_none() {
            return match rv.as_deref() {
                Some("0") => Reply::json(200, list_of(&[("a", "10")], "10")),
                // The relist: the server's state has moved on meanwhile.
                _ => Reply::json(200, list_of(&[("b", "11"), ("c", "20")], "20")),
            };
        }
        match rv.as_deref() {
            Some("10") => Reply::chunks(200, first_watch.clone()).fast(false),
            _ => quiet_watch("21"),
        }
    })
    .await;
    let errors: Arc<Mutex<Vec<String>>> = Arc::default();
    let seen_errors = errors.clone();
    let inf = informer(
        &Client::new(Config::new(&server.url)).unwrap(),
        InformerOptions::default().watch_error_handler(move |e| {
            if e.kind() == Some(ErrorKind::TooLarge) {
                seen_errors.lock().unwrap().push(e.to_string());
            }
        }),
    );
    let cancel = CancellationToken::new();
    let task = tokio::spawn(inf.run(cancel.clone()));
    let keys = || {
        let mut keys = inf.indexer().list_keys();
        keys.sort();
        keys
    };
    eventually("the cache to hold the relisted state", || {
        keys() == ["team/b", "team/c"]
    })
    .await;
    let errors = errors.lock().unwrap().clone();
    assert_eq!(errors.len(), 1, "{errors:?}");
    assert!(errors[0].contains("watch pods at"), "{}", errors[0]);
    let lists: Vec<Option<String>> = server
        .seen()
        .iter()
        .filter(|s| s.param("watch").is_none())
        .map(|s| s.param("resourceVersion"))
        .collect();
    // Relisted from the last resourceVersion applied, not from the start.
    assert_eq!(lists, [Some("0".to_owned()), Some("11".to_owned())]);
    cancel.cancel();
    within(task).await.unwrap();
}

/// On tokio's paused clock, with a ticker so that time moves in small steps while the
/// runtime waits on the loopback sockets: the informer must list again within the backoff
/// maximum (30 s) of a 429 asking for u64::MAX seconds.
#[tokio::test(start_paused = true)]
async fn a_huge_retry_after_does_not_stop_an_informer() {
    let lists: Arc<Mutex<Vec<tokio::time::Instant>>> = Arc::default();
    let seen_lists = lists.clone();
    let server = Server::start(None, move |seen| {
        if seen.param("watch").is_some() {
            return quiet_watch("11");
        }
        let mut lists = seen_lists.lock().unwrap();
        lists.push(tokio::time::Instant::now());
        if lists.len() == 1 {
            Reply::json(429, support::status(429, "TooManyRequests", "slow down"))
                .header("retry-after", &u64::MAX.to_string())
        } else {
            Reply::json(200, list_of(&[("a", "10")], "10"))
        }
    })
    .await;
    let ticker = tokio::spawn(async {
        loop {
            tokio::time::sleep(Duration::from_millis(10)).await;
        }
    });
    let inf = informer(
        &Client::new(Config::new(&server.url)).unwrap(),
        InformerOptions::default(),
    );
    let cancel = CancellationToken::new();
    let task = tokio::spawn(inf.run(cancel.clone()));
    let synced = tokio::time::timeout(Duration::from_secs(120), async {
        while !inf.has_synced() {
            tokio::time::sleep(Duration::from_millis(10)).await;
        }
    })
    .await;
    assert!(
        synced.is_ok(),
        "the informer did not list again within 120 s of a 429 asking for u64::MAX seconds"
    );
    let lists = lists.lock().unwrap().clone();
    let waited = lists[1] - lists[0];
    assert!(
        waited >= Duration::from_secs(30) && waited < Duration::from_secs(45),
        "waited {waited:?}"
    );
    cancel.cancel();
    task.await.unwrap();
    ticker.abort();
}
