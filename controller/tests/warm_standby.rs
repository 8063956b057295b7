//! Warm standbys ([`Controller::run_leader_elected`]) over the test API server, in real
//! time with short lease durations: over 10,000 Foos (the sample controller's CRD), a
//! standby syncs and queues while another replica leads, reconciles nothing meanwhile, and
//! on the leader's death takes over without a list of its own, reconciling every Foo once.

use std::collections::HashSet;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use informer_controller::leader_election::{LeaderElectionConfig, LeaderElector, LeaseLock};
use informer_controller::{enqueue, Action, Controller, ControllerError, ObjectRef, WorkQueue};
use informer_runtime::client::Config;
use informer_runtime::{
    new_informer, typed, Client, Indexers, InformerOptions, SharedIndexInformer,
};
use k8s_openapi::apimachinery::pkg::apis::meta::v1::ObjectMeta;
use serde::{Deserialize, Serialize};
use serde_json::{json, Value};
use test_apiserver::{eventually, FaultTarget, RunningServer, TestApiServer};
use tokio::task::JoinHandle;
use tokio_util::sync::CancellationToken;

const OBJECTS: usize = 10_000;
const FOOS: &str = "foos.samplecontroller.k8s.io";

/// The sample controller's Foo, with only what the informer needs.
#[derive(Clone, Debug, Default, Serialize, Deserialize)]
struct Foo {
    #[serde(default)]
    metadata: ObjectMeta,
    #[serde(default)]
    spec: Value,
}

impl k8s_openapi::Resource for Foo {
    const API_VERSION: &'static str = "samplecontroller.k8s.io/v1alpha1";
    const GROUP: &'static str = "samplecontroller.k8s.io";
    const KIND: &'static str = "Foo";
    const VERSION: &'static str = "v1alpha1";
    const URL_PATH_SEGMENT: &'static str = "foos";
    type Scope = k8s_openapi::NamespaceResourceScope;
}

impl k8s_openapi::ListableResource for Foo {
    const LIST_KIND: &'static str = "FooList";
}

impl k8s_openapi::Metadata for Foo {
    type Ty = ObjectMeta;

    fn metadata(&self) -> &ObjectMeta {
        &self.metadata
    }

    fn metadata_mut(&mut self) -> &mut ObjectMeta {
        &mut self.metadata
    }
}

/// A server with the sample controller's CRD installed.
async fn server() -> RunningServer {
    TestApiServer::builder()
        .namespaces(["shop"])
        .crd_file(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../examples/sample-controller/crd/foo.yaml"
        ))
        .start()
        .await
        .unwrap()
}

fn election() -> LeaderElectionConfig {
    LeaderElectionConfig {
        lease_duration: Duration::from_secs(2),
        renew_deadline: Duration::from_secs(1),
        retry_period: Duration::from_millis(200),
        release_on_cancel: true,
        name: "warm".into(),
    }
}

struct Replica {
    informer: SharedIndexInformer<Foo>,
    queue: WorkQueue<ObjectRef>,
    /// Every key reconciled, in order (one lock, so the count and the keys agree).
    reconciled: Arc<Mutex<Vec<String>>>,
    task: JoinHandle<Result<(), ControllerError>>,
    cancel: CancellationToken,
}

/// A replica whose informer starts at once and whose controller stands for election.
fn replica(server: &RunningServer, identity: &str) -> Replica {
    let client = Client::new(Config::new(server.url())).unwrap();
    let informer = new_informer(
        &client,
        &typed::<Foo>(),
        Some("shop"),
        InformerOptions::default().indexers(Indexers::namespace()),
    );
    let queue = WorkQueue::<ObjectRef>::new();
    informer.add_event_handler(enqueue(queue.clone()));
    let cancel = CancellationToken::new();
    tokio::spawn(informer.run(cancel.clone()));
    let reconciled = Arc::new(Mutex::new(Vec::new()));
    let elector =
        LeaderElector::new(LeaseLock::new(client, "shop", "warm", identity), election()).unwrap();
    let controller = {
        let reconciled = reconciled.clone();
        Controller::new(queue.clone(), move |key: ObjectRef| {
            reconciled.lock().unwrap().push(key.name);
            async { Ok::<_, String>(Action::Done) }
        })
        .workers(2)
        .wait_for(informer.clone())
    };
    let task = tokio::spawn(controller.run_leader_elected(elector, cancel.clone()));
    Replica {
        informer,
        queue,
        reconciled,
        task,
        cancel,
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_warm_standby_syncs_while_standing_by_and_takes_over_without_listing() {
    let server = server().await;
    for i in 0..OBJECTS {
        server
            .create(
                FOOS,
                Some("shop"),
                json!({
                    "apiVersion": "samplecontroller.k8s.io/v1alpha1",
                    "kind": "Foo",
                    "metadata": {"name": format!("foo-{i}")},
                    "spec": {"deploymentName": format!("foo-{i}"), "replicas": 1},
                }),
            )
            .unwrap();
    }
    let a = replica(&server, "a");
    eventually("a leads and reconciles everything", || {
        a.reconciled.lock().unwrap().len() == OBJECTS
    })
    .await;

    let b = replica(&server, "b");
    eventually("b syncs and queues every object while standing by", || {
        b.informer.has_synced() && b.queue.len() == OBJECTS
    })
    .await;
    // Give b's election a few retry periods: it must keep standing by.
    tokio::time::sleep(Duration::from_millis(600)).await;
    assert_eq!(
        b.reconciled.lock().unwrap().len(),
        0,
        "a standby never reconciles"
    );

    let lists = server.request_count("list", FOOS);
    // Killed: the task is dropped mid-election, so the Lease is not released.
    a.task.abort();
    a.cancel.cancel();
    eventually("b takes over and reconciles everything", || {
        b.reconciled.lock().unwrap().len() >= OBJECTS
    })
    .await;
    assert_eq!(
        server.request_count("list", FOOS),
        lists,
        "the new leader worked off the cache it synced as a standby"
    );
    let reconciled = b.reconciled.lock().unwrap().clone();
    let unique: HashSet<&String> = reconciled.iter().collect();
    assert_eq!(
        (reconciled.len(), unique.len()),
        (OBJECTS, OBJECTS),
        "each key once"
    );

    b.cancel.cancel();
    b.task.await.unwrap().unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_standby_whose_cache_cannot_sync_stops_standing_for_election() {
    let server = server().await;
    // Every list is refused: the informer reports a sync error it will not get over.
    server
        .faults()
        .fail_next(1000, 403, FaultTarget::resource(FOOS).verb("list"));
    let r = replica(&server, "a");
    let ended = tokio::time::timeout(Duration::from_secs(60), r.task)
        .await
        .expect("the run ends")
        .unwrap();
    match ended {
        Err(ControllerError::CacheSync { .. }) => {}
        other => panic!("want a cache sync error, got {other:?}"),
    }
    assert!(r.reconciled.lock().unwrap().is_empty());
    r.cancel.cancel();
}
