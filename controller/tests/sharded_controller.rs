//! Sharded controllers end to end, in real time with short Lease durations (lease 2 s,
//! renew deadline 1 s, retry 200 ms): three replicas of a controller split 3,000 objects in
//! 30 namespaces over a shard ring, each converging every object it owns (its reconcile
//! writes `done = gen` guarded by the resourceVersion it read). One replica is killed
//! without releasing, and a fourth joins. Throughout, a recorder of every reconcile's start
//! and end shows no object reconciled by two replicas at once, and every change is written
//! exactly once. Run with server-side sharding and, without it, with client-side filtering.

use std::collections::{BTreeMap, HashMap};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use informer_controller::sharding::{ShardRing, ShardRingConfig, Shards};
use informer_controller::{enqueue, Action, Controller, ObjectRef, WorkQueue};
use informer_runtime::client::Config;
use informer_runtime::{
    new_informer, typed, Api, Client, Error, InformerOptions, PostParams, SharedIndexInformer,
};
use informer_selectors::shard::ShardField;
use k8s_openapi::api::core::v1::ConfigMap;
use serde_json::json;
use test_apiserver::{RunningServer, TestApiServer};
use tokio::sync::watch;
use tokio::task::JoinHandle;
use tokio_util::sync::CancellationToken;

const LEASE: Duration = Duration::from_secs(2);
const RETRY: Duration = Duration::from_millis(200);
const NAMESPACES: usize = 30;
const OBJECTS: usize = 3_000;
/// How long convergence may take before the test gives up (a hang guard, not a target).
const PATIENCE: Duration = Duration::from_secs(120);

fn config() -> ShardRingConfig {
    ShardRingConfig {
        lease_duration: LEASE,
        renew_deadline: Duration::from_secs(1),
        retry_period: RETRY,
        buckets: 256,
        field: ShardField::Uid,
    }
}

/// One reconcile: the replica, its start and its end (`None`: still running, or killed).
type Span = (String, Instant, Option<Instant>);

/// Every reconcile that found its object, by key: which replica, from when to when (no end:
/// still running, or its replica was killed), and every write by key and generation.
#[derive(Default)]
struct Recorder {
    spans: Mutex<HashMap<String, Vec<Span>>>,
    writes: Mutex<BTreeMap<(String, u64), u32>>,
    killed: Mutex<HashMap<String, Instant>>,
}

impl Recorder {
    fn start(&self, key: &str, replica: &str) -> usize {
        let mut spans = self.spans.lock().unwrap();
        let of = spans.entry(key.to_owned()).or_default();
        of.push((replica.to_owned(), Instant::now(), None));
        of.len() - 1
    }

    fn end(&self, key: &str, i: usize) {
        self.spans.lock().unwrap().get_mut(key).unwrap()[i].2 = Some(Instant::now());
    }

    fn wrote(&self, key: &str, gen: u64) {
        *self
            .writes
            .lock()
            .unwrap()
            .entry((key.to_owned(), gen))
            .or_default() += 1;
    }

    /// Reconciles of one object by two replicas whose spans intersect.
    fn overlaps(&self) -> Vec<String> {
        let killed = self.killed.lock().unwrap().clone();
        let mut found = Vec::new();
        for (key, spans) in self.spans.lock().unwrap().iter() {
            let ends: Vec<(&String, Instant, Instant)> = spans
                .iter()
                .map(|(r, s, e)| {
                    let end = e
                        .or_else(|| killed.get(r).copied())
                        .unwrap_or_else(Instant::now);
                    (r, *s, end)
                })
                .collect();
            for (i, a) in ends.iter().enumerate() {
                for b in &ends[i + 1..] {
                    if a.0 != b.0 && a.1 < b.2 && b.1 < a.2 {
                        found.push(format!("{key}: {} and {}", a.0, b.0));
                    }
                }
            }
        }
        found
    }

    fn reconciled_by(&self) -> BTreeMap<String, usize> {
        let mut by = BTreeMap::new();
        for spans in self.spans.lock().unwrap().values() {
            for (r, ..) in spans {
                *by.entry(r.clone()).or_default() += 1;
            }
        }
        by
    }
}

struct Replica {
    id: String,
    shards: watch::Receiver<Shards>,
    informer: SharedIndexInformer<ConfigMap>,
    tasks: Vec<JoinHandle<()>>,
}

impl Replica {
    fn start(server: &RunningServer, id: &str, recorder: &Arc<Recorder>) -> Self {
        let client = Client::new(Config::new(server.url())).unwrap();
        let ring = ShardRing::new(client.clone(), "ring", "objects", id, config()).unwrap();
        let shards = ring.subscribe();
        let informer = new_informer(
            &client,
            &typed::<ConfigMap>(),
            None,
            InformerOptions::default().shard_assignments(ring.assignments()),
        );
        let queue = WorkQueue::<ObjectRef>::new();
        informer.add_event_handler(enqueue(queue.clone()));
        let cancel = CancellationToken::new();
        let informer_task = tokio::spawn(informer.clone().run(cancel.clone()));
        let reconcile = {
            let (lister, recorder, id) = (informer.indexer(), recorder.clone(), id.to_owned());
            move |key: ObjectRef| {
                let (recorder, id, client) = (recorder.clone(), id.clone(), client.clone());
                let found = lister.get_by_key(&key.to_string());
                async move {
                    let Some(cm) = found else {
                        return Ok::<_, Error>(Action::Done);
                    };
                    let key = key.to_string();
                    let span = recorder.start(&key, &id);
                    let data = cm.data.clone().unwrap_or_default();
                    let gen: u64 = data["gen"].parse().unwrap();
                    if data.get("done") != Some(&gen.to_string()) {
                        // A little work first: a window for another replica to overlap in.
                        tokio::time::sleep(Duration::from_millis(2)).await;
                        let mut next = (*cm).clone();
                        next.data
                            .get_or_insert_with(Default::default)
                            .insert("done".into(), gen.to_string());
                        let ns = cm.metadata.namespace.clone().unwrap();
                        let api = Api::<ConfigMap>::namespaced(client, &ns);
                        let written = api.update(&next, &PostParams::default()).await;
                        recorder.end(&key, span);
                        written?;
                        recorder.wrote(&key, gen);
                        return Ok(Action::Done);
                    }
                    recorder.end(&key, span);
                    Ok(Action::Done)
                }
            }
        };
        let controller = Controller::new(queue, reconcile)
            .workers(4)
            .wait_for(informer.clone())
            .run_sharded(ring, informer.clone(), cancel.clone());
        let controller_task = tokio::spawn(async move {
            controller.await.unwrap();
        });
        Self {
            id: id.to_owned(),
            shards,
            informer,
            tasks: vec![informer_task, controller_task],
        }
    }

    /// Ends the replica as a crash would: no release, no Lease deleted.
    fn kill(self, recorder: &Recorder) {
        for t in &self.tasks {
            t.abort();
        }
        recorder
            .killed
            .lock()
            .unwrap()
            .insert(self.id.clone(), Instant::now());
    }
}

fn name(i: usize) -> (String, String) {
    (format!("ns-{}", i % NAMESPACES), format!("obj-{i}"))
}

/// Sets every object's `gen`, as a user changing them would.
fn bump(server: &RunningServer, gen: u64) {
    for i in 0..OBJECTS {
        let (ns, n) = name(i);
        server
            .patch_merge(
                "configmaps",
                Some(&ns),
                &n,
                json!({"data": {"gen": gen.to_string()}}),
            )
            .unwrap();
    }
}

/// Waits until every object has `done == gen`; returns how long that took.
async fn converged(server: &RunningServer, gen: u64) -> Duration {
    let started = Instant::now();
    loop {
        let behind = server
            .list("configmaps", None)
            .unwrap()
            .iter()
            .filter(|o| o["data"]["done"].as_str() != Some(gen.to_string().as_str()))
            .count();
        if behind == 0 {
            return started.elapsed();
        }
        assert!(
            started.elapsed() < PATIENCE,
            "{behind} objects never converged to gen {gen}"
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

/// Which replica owns each object, once the live replicas' shares cover the hash space
/// exactly and their caches hold exactly those shares.
async fn settled(server: &RunningServer, replicas: &[&Replica]) -> HashMap<String, String> {
    let started = Instant::now();
    let objects: Vec<(String, String)> = server
        .list("configmaps", None)
        .unwrap()
        .iter()
        .map(|o| {
            let m = &o["metadata"];
            (
                format!(
                    "{}/{}",
                    m["namespace"].as_str().unwrap(),
                    m["name"].as_str().unwrap()
                ),
                m["uid"].as_str().unwrap().to_owned(),
            )
        })
        .collect();
    loop {
        let shares: Vec<Shards> = replicas.iter().map(|r| r.shards.borrow().clone()).collect();
        // Every live replica has a share (a newcomer's included), together all buckets.
        let covered = shares.iter().all(|s| !s.is_empty())
            && shares.iter().map(|s| s.owned().len()).sum::<usize>() == 256;
        let owners: Option<HashMap<String, String>> = objects
            .iter()
            .map(|(key, uid)| {
                let mut owning = replicas
                    .iter()
                    .zip(&shares)
                    .filter(|(_, s)| s.contains(uid));
                let (r, _) = owning.next()?;
                owning.next().is_none().then(|| (key.clone(), r.id.clone()))
            })
            .collect();
        let cached = replicas
            .iter()
            .map(|r| r.informer.indexer().len())
            .sum::<usize>()
            == objects.len();
        if let (true, true, Some(owners)) = (covered, cached, owners) {
            if replicas.iter().all(|r| {
                r.informer
                    .indexer()
                    .list_keys()
                    .iter()
                    .all(|k| owners[k] == r.id)
            }) {
                return owners;
            }
        }
        assert!(
            started.elapsed() < PATIENCE,
            "the replicas never settled: {:?}",
            shares.iter().map(|s| s.owned().len()).collect::<Vec<_>>()
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

async fn three_replicas_a_death_and_a_join(sharding: bool) {
    let mode = if sharding {
        "server-side"
    } else {
        "client-side"
    };
    let namespaces: Vec<String> = (0..NAMESPACES).map(|i| format!("ns-{i}")).collect();
    let server = TestApiServer::builder()
        .namespaces(namespaces.iter().map(String::as_str).chain(["ring"]))
        .sharding(sharding)
        .start()
        .await
        .unwrap();
    for i in 0..OBJECTS {
        let (ns, n) = name(i);
        server
            .create(
                "configmaps",
                Some(&ns),
                json!({"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": n}, "data": {"gen": "0"}}),
            )
            .unwrap();
    }
    let recorder = Arc::new(Recorder::default());
    let a = Replica::start(&server, "replica-a", &recorder);
    let b = Replica::start(&server, "replica-b", &recorder);
    let c = Replica::start(&server, "replica-c", &recorder);
    let first = converged(&server, 0).await;
    let three = settled(&server, &[&a, &b, &c]).await;
    println!("{mode}: 3 replicas converged {OBJECTS} objects in {first:?}");

    // A crash: a's Leases stay until they are seen unchanged for their duration.
    let a_objects = three.values().filter(|r| *r == "replica-a").count();
    a.kill(&recorder);
    bump(&server, 1);
    let takeover = converged(&server, 1).await;
    let two = settled(&server, &[&b, &c]).await;
    println!(
        "{mode}: replica-a killed holding {a_objects} objects; every object converged to the next change {takeover:?} later"
    );
    assert!(
        two.values().all(|r| r != "replica-a"),
        "the dead replica's objects have new owners"
    );

    let d = Replica::start(&server, "replica-d", &recorder);
    let four = settled(&server, &[&b, &c, &d]).await;
    let moved = four.iter().filter(|(k, r)| two[*k] != **r).count();
    println!(
        "{mode}: replica-d joined: {moved} objects moved, the newcomer's share of {OBJECTS} is {} ideally",
        OBJECTS / 3
    );
    assert!(
        four.iter().all(|(k, r)| two[k] == *r || r == "replica-d"),
        "a join moves objects to the newcomer only"
    );
    // Binomial(256, 1/3) buckets: far tails only.
    assert!((600..=1_400).contains(&moved), "{moved} moved");
    bump(&server, 2);
    converged(&server, 2).await;

    let overlaps = recorder.overlaps();
    assert!(
        overlaps.is_empty(),
        "{mode}: {} overlaps: {:?}",
        overlaps.len(),
        &overlaps[..overlaps.len().min(10)]
    );
    let writes = recorder.writes.lock().unwrap().clone();
    for gen in 0..3 {
        for i in 0..OBJECTS {
            let (ns, n) = name(i);
            assert_eq!(
                writes.get(&(format!("{ns}/{n}"), gen)),
                Some(&1),
                "{mode}: {ns}/{n}'s change {gen} is written exactly once"
            );
        }
    }
    println!(
        "{mode}: reconciles by replica {:?}, no overlaps",
        recorder.reconciled_by()
    );
    for r in [b, c, d] {
        r.kill(&recorder);
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn three_replicas_a_death_and_a_join_with_server_side_sharding() {
    three_replicas_a_death_and_a_join(true).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn three_replicas_a_death_and_a_join_filtering_on_the_client() {
    three_replicas_a_death_and_a_join(false).await;
}
