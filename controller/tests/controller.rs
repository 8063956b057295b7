//! The controller runner: what each reconcile outcome does to its key (on a paused clock),
//! workers that wait for the informers they read (over the test API server), and
//! shutdown that waits for reconciles in flight.

use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use informer_controller::WorkQueue;
use informer_controller::{enqueue, Action, Controller, ControllerError, ObjectRef};
use informer_runtime::client::{AuthConfig, Config};
use informer_runtime::source::ApiScope;
use informer_runtime::{
    new_informer, typed, Client, Indexers, InformerOptions, SharedIndexInformer,
};
use k8s_openapi::api::core::v1::{ConfigMap, Pod};
use serde_json::json;
use test_apiserver::{eventually, FaultTarget, TestApiServer};
use tokio::sync::mpsc;
use tokio::time::Instant;
use tokio_util::sync::CancellationToken;

const MS: Duration = Duration::from_millis(1);

/// Runs `controller` in a task; returns its cancel token and handle.
fn spawn<F>(
    run: impl FnOnce(CancellationToken) -> F,
) -> (CancellationToken, tokio::task::JoinHandle<F::Output>)
where
    F: std::future::Future + Send + 'static,
    F::Output: Send + 'static,
{
    let cancel = CancellationToken::new();
    let task = tokio::spawn(run(cancel.clone()));
    (cancel, task)
}

#[tokio::test(start_paused = true)]
async fn a_failing_reconcile_is_retried_with_exponential_backoff_until_it_succeeds() {
    let queue = WorkQueue::<String>::new();
    queue.add("shop/web".into());
    let (tx, mut rx) = mpsc::unbounded_channel();
    let attempts = Arc::new(AtomicUsize::new(0));
    let (cancel, task) = spawn(|cancel| {
        let attempts = attempts.clone();
        Controller::new(queue.clone(), move |key: String| {
            let n = attempts.fetch_add(1, Ordering::SeqCst) + 1;
            let _ = tx.send((key, Instant::now()));
            async move {
                if n <= 4 {
                    Err(format!("attempt {n} failed"))
                } else {
                    Ok(Action::Done)
                }
            }
        })
        .workers(3)
        .run(cancel)
    });
    let mut at = Vec::new();
    for _ in 0..5 {
        let (key, t) = rx.recv().await.unwrap();
        assert_eq!(key, "shop/web");
        at.push(t);
    }
    let gaps: Vec<Duration> = at.windows(2).map(|w| w[1] - w[0]).collect();
    assert_eq!(gaps, [5, 10, 20, 40].map(|ms| ms * MS));
    tokio::time::sleep(Duration::from_secs(60)).await;
    assert_eq!(
        attempts.load(Ordering::SeqCst),
        5,
        "success ends the retries"
    );
    assert_eq!(
        queue.num_requeues(&"shop/web".to_owned()),
        0,
        "success forgets the key"
    );
    cancel.cancel();
    task.await.unwrap().unwrap();
}

#[tokio::test(start_paused = true)]
async fn requeue_after_looks_again_after_the_delay_with_a_fresh_backoff() {
    let queue = WorkQueue::<String>::new();
    queue.add("k".into());
    let (tx, mut rx) = mpsc::unbounded_channel();
    let attempts = Arc::new(AtomicUsize::new(0));
    let (cancel, task) = spawn(|cancel| {
        let attempts = attempts.clone();
        Controller::new(queue.clone(), move |_key: String| {
            let n = attempts.fetch_add(1, Ordering::SeqCst) + 1;
            let _ = tx.send(Instant::now());
            async move {
                match n {
                    1 => Err("transient"),
                    2 => Ok(Action::RequeueAfter(Duration::from_secs(30))),
                    _ => Ok(Action::Done),
                }
            }
        })
        .run(cancel)
    });
    let t1 = rx.recv().await.unwrap();
    let t2 = rx.recv().await.unwrap();
    let t3 = rx.recv().await.unwrap();
    assert_eq!(t2 - t1, 5 * MS, "the error backs off");
    assert_eq!(t3 - t2, Duration::from_secs(30), "then the requested delay");
    assert_eq!(queue.num_requeues(&"k".to_owned()), 0);
    assert_eq!(queue.stats().retries, 2);
    cancel.cancel();
    task.await.unwrap().unwrap();
}

#[tokio::test(start_paused = true)]
async fn a_panicking_reconcile_is_retried_and_the_key_is_not_lost() {
    let queue = WorkQueue::<String>::new();
    queue.add("k".into());
    let (tx, mut rx) = mpsc::unbounded_channel();
    let attempts = Arc::new(AtomicUsize::new(0));
    let (cancel, task) = spawn(|cancel| {
        let attempts = attempts.clone();
        Controller::new(queue.clone(), move |_key: String| {
            let n = attempts.fetch_add(1, Ordering::SeqCst) + 1;
            let tx = tx.clone();
            async move {
                let _ = tx.send(Instant::now());
                if n == 1 {
                    panic!("reconcile bug");
                }
                Ok::<_, String>(Action::Done)
            }
        })
        .run(cancel)
    });
    let t1 = rx.recv().await.unwrap();
    let t2 = rx.recv().await.unwrap();
    assert_eq!(t2 - t1, 5 * MS);
    cancel.cancel();
    task.await.unwrap().unwrap();
}

#[tokio::test(start_paused = true)]
async fn cancel_waits_for_reconciles_in_flight_and_starts_no_new_one() {
    let queue = WorkQueue::<String>::new();
    queue.add("slow".into());
    queue.add("never".into());
    let started = Arc::new(Mutex::new(Vec::new()));
    let finished = Arc::new(AtomicBool::new(false));
    let (cancel, task) = spawn(|cancel| {
        let (started, finished) = (started.clone(), finished.clone());
        Controller::new(queue.clone(), move |key: String| {
            started.lock().unwrap().push(key);
            let finished = finished.clone();
            async move {
                tokio::time::sleep(Duration::from_secs(10)).await;
                finished.store(true, Ordering::SeqCst);
                Ok::<_, String>(Action::Done)
            }
        })
        .run(cancel)
    });
    tokio::time::sleep(Duration::from_secs(1)).await;
    cancel.cancel();
    task.await.unwrap().unwrap();
    assert!(
        finished.load(Ordering::SeqCst),
        "run returned before the reconcile ended"
    );
    assert_eq!(*started.lock().unwrap(), ["slow"]);
    assert!(queue.is_shutting_down());
}

fn informer<K>(client: &Client, options: InformerOptions<K>) -> SharedIndexInformer<K>
where
    K: k8s_openapi::ListableResource
        + k8s_openapi::Metadata<Ty = k8s_openapi::apimachinery::pkg::apis::meta::v1::ObjectMeta>
        + serde::de::DeserializeOwned
        + serde::Serialize
        + Clone
        + Send
        + Sync
        + 'static,
    K::Scope: ApiScope,
{
    new_informer(
        client,
        &typed::<K>(),
        None,
        options.indexers(Indexers::namespace()),
    )
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn workers_start_only_after_every_cache_synced() {
    let server = TestApiServer::builder()
        .namespaces(["a"])
        .start()
        .await
        .unwrap();
    for i in 0..20 {
        server
            .create(
                "configmaps",
                Some("a"),
                json!({"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": format!("c{i}")}}),
            )
            .unwrap();
    }
    // Both informers' lists are held back, so their syncs come well after the controller starts.
    server.faults().stall_next(
        2,
        Duration::from_millis(400),
        FaultTarget::resource("configmaps").verb("list"),
    );
    let client = Client::new(Config::new(server.url())).unwrap();
    let maps = informer::<ConfigMap>(&client, InformerOptions::default());
    let second = informer::<ConfigMap>(&client, InformerOptions::default());
    let queue = WorkQueue::<ObjectRef>::new();
    maps.add_event_handler(enqueue(queue.clone()));
    // A key queued before anything synced must wait as well.
    queue.add(ObjectRef::new("a", "queued-early"));

    let early = Arc::new(AtomicUsize::new(0));
    let seen = Arc::new(Mutex::new(Vec::new()));
    let (cancel, task) = spawn(|cancel| {
        let (early, seen, maps_r, second_r) =
            (early.clone(), seen.clone(), maps.clone(), second.clone());
        let second_synced = second.clone();
        Controller::new(queue.clone(), move |key: ObjectRef| {
            if !maps_r.has_synced() || !second_r.has_synced() {
                early.fetch_add(1, Ordering::SeqCst);
            }
            seen.lock().unwrap().push(key.to_string());
            async { Ok::<_, String>(Action::Done) }
        })
        .workers(4)
        .wait_for(maps.clone())
        .wait_for(move || second_synced.has_synced())
        .run(cancel)
    });
    tokio::time::sleep(Duration::from_millis(100)).await;
    assert!(seen.lock().unwrap().is_empty(), "no informer runs yet");
    let inf_cancel = CancellationToken::new();
    let runs = [
        tokio::spawn(maps.run(inf_cancel.clone())),
        tokio::spawn(second.run(inf_cancel.clone())),
    ];
    eventually("every key reconciled", || seen.lock().unwrap().len() == 21).await;
    assert_eq!(
        early.load(Ordering::SeqCst),
        0,
        "a worker ran before the caches synced"
    );
    let mut keys = seen.lock().unwrap().clone();
    keys.sort();
    assert_eq!(keys[0], "a/c0");
    assert!(keys.contains(&"a/queued-early".to_owned()));
    cancel.cancel();
    task.await.unwrap().unwrap();
    inf_cancel.cancel();
    for r in runs {
        r.await.unwrap();
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_cache_that_cannot_sync_fails_the_run_naming_it() {
    let server = TestApiServer::builder()
        .token_with_access("t", &["configmaps"])
        .start()
        .await
        .unwrap();
    let mut config = Config::new(server.url());
    config.auth = AuthConfig::Token("t".into());
    let client = Client::new(config).unwrap();
    let pods = informer::<Pod>(&client, InformerOptions::default().name("pods-informer"));
    let maps = informer::<ConfigMap>(&client, InformerOptions::default());
    let inf_cancel = CancellationToken::new();
    let runs = [
        tokio::spawn(pods.run(inf_cancel.clone())),
        tokio::spawn(maps.run(inf_cancel.clone())),
    ];
    let queue = WorkQueue::<ObjectRef>::new();
    let reconciled = Arc::new(AtomicUsize::new(0));
    let r = reconciled.clone();
    queue.add(ObjectRef::new("a", "b"));
    let result = Controller::new(queue.clone(), move |_key: ObjectRef| {
        r.fetch_add(1, Ordering::SeqCst);
        async { Ok::<_, String>(Action::Done) }
    })
    .wait_for(maps.clone())
    .wait_for(pods.clone())
    .run(CancellationToken::new())
    .await;
    let Err(ControllerError::CacheSync { name, source }) = result else {
        panic!("run should fail: {result:?}");
    };
    assert_eq!(name, "pods-informer");
    assert!(source.to_string().contains("403"), "{source}");
    assert_eq!(reconciled.load(Ordering::SeqCst), 0);
    assert!(queue.is_shutting_down());
    inf_cancel.cancel();
    for r in runs {
        r.await.unwrap();
    }
}

#[tokio::test(start_paused = true)]
async fn cancel_before_the_caches_sync_returns_without_reconciling() {
    let queue = WorkQueue::<String>::new();
    queue.add("k".into());
    let reconciled = Arc::new(AtomicUsize::new(0));
    let r = reconciled.clone();
    let (cancel, task) = spawn(|cancel| {
        Controller::new(queue.clone(), move |_key: String| {
            r.fetch_add(1, Ordering::SeqCst);
            async { Ok::<_, String>(Action::Done) }
        })
        .wait_for(|| false)
        .run(cancel)
    });
    tokio::time::sleep(Duration::from_secs(30)).await;
    cancel.cancel();
    task.await.unwrap().unwrap();
    assert_eq!(reconciled.load(Ordering::SeqCst), 0);
}

#[tokio::test(start_paused = true)]
async fn a_reconcile_past_its_timeout_is_cancelled_and_retried_with_backoff() {
    let queue = WorkQueue::<String>::new();
    queue.add("k".into());
    let (tx, mut rx) = mpsc::unbounded_channel();
    let attempts = Arc::new(AtomicUsize::new(0));
    let dropped = Arc::new(AtomicBool::new(false));
    let controller = {
        let (attempts, dropped) = (attempts.clone(), dropped.clone());
        Controller::new(queue.clone(), move |_key: String| {
            let n = attempts.fetch_add(1, Ordering::SeqCst) + 1;
            let _ = tx.send(Instant::now());
            let guard = SetOnDrop(dropped.clone());
            async move {
                if n == 1 {
                    // Hangs: only the timeout ends it, by dropping this future.
                    std::future::pending::<()>().await;
                }
                drop(guard);
                Ok::<_, String>(Action::Done)
            }
        })
        .reconcile_timeout(Duration::from_secs(5))
    };
    let metrics = controller.metrics();
    let (cancel, task) = spawn(|cancel| controller.run(cancel));
    let t1 = rx.recv().await.unwrap();
    let t2 = rx.recv().await.unwrap();
    assert_eq!(
        t2 - t1,
        Duration::from_secs(5) + 5 * MS,
        "timeout, then the first backoff step"
    );
    assert!(
        dropped.load(Ordering::SeqCst),
        "the hung reconcile was cancelled"
    );
    tokio::time::sleep(Duration::from_secs(1)).await;
    let stats = metrics.snapshot();
    assert_eq!((stats.timeouts, stats.reconciles, stats.errors), (1, 2, 0));
    assert_eq!(
        queue.num_requeues(&"k".to_owned()),
        0,
        "the success forgot the key"
    );
    cancel.cancel();
    task.await.unwrap().unwrap();
}

struct SetOnDrop(Arc<AtomicBool>);

impl Drop for SetOnDrop {
    fn drop(&mut self) {
        self.0.store(true, Ordering::SeqCst);
    }
}

#[tokio::test(start_paused = true)]
async fn requeue_with_backoff_doubles_per_key_up_to_its_max_and_done_starts_over() {
    let queue = WorkQueue::<String>::new();
    queue.add("a".into());
    queue.add("b".into());
    let (tx, mut rx) = mpsc::unbounded_channel();
    let calls = Arc::new(Mutex::new(std::collections::HashMap::<String, usize>::new()));
    let controller = {
        let calls = calls.clone();
        Controller::new(queue.clone(), move |key: String| {
            let n = {
                let mut calls = calls.lock().unwrap();
                let n = calls.entry(key.clone()).or_default();
                *n += 1;
                *n
            };
            let _ = tx.send((key.clone(), n, Instant::now()));
            async move {
                // `a` backs off 4 times, succeeds once, then backs off again; `b` is done.
                match (key.as_str(), n) {
                    ("a", 1..=4 | 6) => Ok::<_, String>(Action::requeue_with_backoff(
                        Duration::from_secs(1),
                        Duration::from_secs(5),
                    )),
                    ("a", 5) => Ok(Action::requeue(Duration::from_secs(100))),
                    _ => Ok(Action::await_change()),
                }
            }
        })
        .workers(2)
    };
    let metrics = controller.metrics();
    let (cancel, task) = spawn(|cancel| controller.run(cancel));
    let mut a_at = Vec::new();
    while a_at.len() < 7 {
        let (key, _, at) = rx.recv().await.unwrap();
        if key == "a" {
            a_at.push(at);
        }
    }
    let gaps: Vec<u64> = a_at.windows(2).map(|w| (w[1] - w[0]).as_secs()).collect();
    assert_eq!(
        gaps,
        [1, 2, 4, 5, 100, 1],
        "per-key doubling, capped, reset by a requeue"
    );
    assert_eq!(
        calls.lock().unwrap().get("b"),
        Some(&1),
        "b is not held back by a's backoff"
    );
    assert_eq!(metrics.snapshot().backoff_requeues, 5);
    assert_eq!(metrics.snapshot().errors, 0, "a backoff is not a failure");
    assert_eq!(queue.num_requeues(&"a".to_owned()), 0);
    cancel.cancel();
    task.await.unwrap().unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn with_a_priority_queue_changes_made_during_start_up_reconcile_before_the_initial_list() {
    let server = TestApiServer::builder()
        .namespaces(["a"])
        .start()
        .await
        .unwrap();
    let cm =
        |name: String| json!({"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": name}});
    for i in 0..200 {
        server
            .create("configmaps", Some("a"), cm(format!("initial-{i}")))
            .unwrap();
    }
    let client = Client::new(Config::new(server.url())).unwrap();
    let maps = informer::<ConfigMap>(&client, InformerOptions::default());
    let queue = WorkQueue::with_config(
        informer_controller::workqueue::Config::default().priority_queue(true),
    );
    maps.add_event_handler(enqueue(queue.clone()));
    let inf_cancel = CancellationToken::new();
    let informer_task = tokio::spawn(maps.clone().run(inf_cancel.clone()));
    eventually("the initial list queued", || queue.len() == 200).await;
    // Changes made while the controller starts: they must not wait behind the backlog.
    for i in 0..3 {
        server
            .create("configmaps", Some("a"), cm(format!("new-{i}")))
            .unwrap();
    }
    eventually("the changes queued", || queue.len() == 203).await;

    let order = Arc::new(Mutex::new(Vec::new()));
    let (cancel, task) = spawn(|cancel| {
        let order = order.clone();
        Controller::new(queue.clone(), move |key: ObjectRef| {
            order.lock().unwrap().push(key.name);
            async { Ok::<_, String>(Action::Done) }
        })
        .wait_for(maps.clone())
        .run(cancel)
    });
    eventually("every key reconciled", || {
        order.lock().unwrap().len() == 203
    })
    .await;
    let order = order.lock().unwrap().clone();
    let mut first: Vec<&str> = order[..3].iter().map(String::as_str).collect();
    first.sort_unstable();
    assert_eq!(first, ["new-0", "new-1", "new-2"], "{:?}", &order[..10]);
    cancel.cancel();
    task.await.unwrap().unwrap();
    inf_cancel.cancel();
    informer_task.await.unwrap();
}
