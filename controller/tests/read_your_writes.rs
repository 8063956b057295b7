//! Read your writes ([`Controller::read_your_writes`]) over the test API server: a reconcile
//! that creates a child ConfigMap when its cache has none, and comes back at once, creates
//! exactly one while the ConfigMap watch is held back; without read-your-writes the same
//! controller creates a second one (the bug the feature exists for), which shows the test
//! can fail.

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use std::time::Duration;

use informer_controller::{Action, Controller, ObjectRef, ReadYourWrites, WorkQueue};
use informer_runtime::client::Config;
use informer_runtime::resource_version::ResourceVersionOrder;
use informer_runtime::{
    new_informer, typed, Api, Client, Indexers, InformerOptions, PostParams, SharedIndexInformer,
};
use k8s_openapi::api::core::v1::ConfigMap;
use k8s_openapi::apimachinery::pkg::apis::meta::v1::ObjectMeta;
use test_apiserver::{eventually, FaultTarget, RunningServer, TestApiServer};
use tokio_util::sync::CancellationToken;

/// Reconciles of the one key before it stops asking to come back.
const ROUNDS: u64 = 3;

struct Run {
    children: usize,
    stats: informer_controller::ControllerStats,
}

/// Runs the child-creating controller for one key while the ConfigMap watch is held back
/// for `hold`, with `writes` (or without read-your-writes).
async fn run(
    server: &RunningServer,
    informer: &SharedIndexInformer<ConfigMap>,
    writes: Option<ReadYourWrites<ObjectRef>>,
    owner: &str,
    hold: Duration,
) -> Run {
    let client = Client::new(Config::new(server.url())).unwrap();
    let cache = informer.indexer();
    let rounds = Arc::new(AtomicU64::new(0));
    let queue = WorkQueue::<ObjectRef>::new();
    let reconcile = {
        let (writes, rounds) = (writes.clone(), rounds.clone());
        let owner = owner.to_owned();
        move |_key: ObjectRef| {
            let (writes, cache, client) = (writes.clone(), cache.clone(), client.clone());
            let (rounds, owner) = (rounds.clone(), owner.clone());
            async move {
                let key = ObjectRef::new("shop", &owner);
                let has_child = cache.list().iter().any(|c| {
                    c.metadata
                        .labels
                        .as_ref()
                        .and_then(|l| l.get("owner"))
                        .is_some_and(|o| *o == owner)
                });
                if !has_child {
                    let child = ConfigMap {
                        metadata: ObjectMeta {
                            generate_name: Some(format!("{owner}-")),
                            labels: Some([("owner".to_owned(), owner.clone())].into()),
                            ..Default::default()
                        },
                        ..Default::default()
                    };
                    let created = Api::<ConfigMap>::namespaced(client, "shop")
                        .create(&child, &PostParams::default())
                        .await?;
                    if let Some(writes) = &writes {
                        writes.wrote(&key, &created);
                    }
                }
                Ok::<_, informer_runtime::Error>(
                    if rounds.fetch_add(1, Ordering::SeqCst) + 1 < ROUNDS {
                        Action::RequeueAfter(Duration::ZERO)
                    } else {
                        Action::Done
                    },
                )
            }
        }
    };
    let mut controller = Controller::new(queue.clone(), reconcile).wait_for(informer.clone());
    if let Some(writes) = writes {
        controller = controller.read_your_writes(writes);
    }
    let metrics = controller.metrics();
    // The next ConfigMap watch is held back, then the open one is cut: the informer misses
    // the create until `hold` has passed.
    let faults = server.faults();
    faults.stall_next(1, hold, FaultTarget::resource("configmaps").verb("watch"));
    faults.cut_watches();
    let cancel = CancellationToken::new();
    let task = tokio::spawn(controller.run(cancel.clone()));
    queue.add(ObjectRef::new("shop", owner));
    eventually("every round", || rounds.load(Ordering::SeqCst) >= ROUNDS).await;
    cancel.cancel();
    task.await.unwrap().unwrap();
    let children = server
        .list("configmaps", Some("shop"))
        .unwrap()
        .iter()
        .filter(|c| c["metadata"]["labels"]["owner"] == owner)
        .count();
    Run {
        children,
        stats: metrics.snapshot(),
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_reconcile_never_acts_on_the_cache_from_before_its_own_write() {
    let server = TestApiServer::builder()
        .namespaces(["shop"])
        .start()
        .await
        .unwrap();
    let client = Client::new(Config::new(server.url())).unwrap();
    let informer = new_informer(
        &client,
        &typed::<ConfigMap>(),
        Some("shop"),
        InformerOptions::default().indexers(Indexers::namespace()),
    );
    let cancel = CancellationToken::new();
    tokio::spawn(informer.clone().run(cancel.clone()));
    let hold = Duration::from_millis(1500);

    // Without read-your-writes the second round reads the cache from before the first
    // round's create, and creates again.
    let stale = run(&server, &informer, None, "stale", hold).await;
    assert!(
        stale.children >= 2,
        "without read-your-writes the stale cache should have made a second child, made {}",
        stale.children
    );

    // The test server says it is 1.37: resourceVersions are comparable.
    let writes = ReadYourWrites::for_server(&client)
        .await
        .unwrap()
        .reads(&informer)
        .timeout(Duration::from_secs(30));
    let fresh = run(&server, &informer, Some(writes), "fresh", hold).await;
    assert_eq!(fresh.children, 1);
    assert_eq!(fresh.stats.reconciles, ROUNDS);
    assert!(fresh.stats.read_your_writes_waits >= 1, "{:?}", fresh.stats);
    assert_eq!(fresh.stats.read_your_writes_timeouts, 0);

    // Equality only, as against a server that promises no order: the cache must hold the
    // written object at exactly the written resourceVersion.
    let writes = ReadYourWrites::new(ResourceVersionOrder::EqualityOnly)
        .reads(&informer)
        .timeout(Duration::from_secs(30));
    let equal = run(&server, &informer, Some(writes), "equal", hold).await;
    assert_eq!(equal.children, 1);
    assert!(equal.stats.read_your_writes_waits >= 1, "{:?}", equal.stats);
    assert_eq!(equal.stats.read_your_writes_timeouts, 0);

    // A cache that cannot catch up in time: the reconcile goes on, and it is counted.
    let writes = ReadYourWrites::for_server(&client)
        .await
        .unwrap()
        .reads(&informer)
        .timeout(Duration::from_millis(100));
    let late = run(&server, &informer, Some(writes), "late", hold).await;
    assert!(
        late.stats.read_your_writes_timeouts >= 1,
        "{:?}",
        late.stats
    );
    cancel.cancel();
}
