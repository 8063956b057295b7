//! The shard ring over the test API server's Leases, in real time with short durations
//! (lease 2 s, renew deadline 1 s, retry 200 ms): three replicas split the hash space; one
//! killed without releasing is taken over within lease + retry; joins rebalance, moving about
//! the newcomer's share of 3,000 uids; a replica that stops cleanly hands over at once; and
//! throughout, no bucket is worked on by two replicas at once.

use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use informer_controller::sharding::{assign, ShardRing, ShardRingConfig, ShardRingError, Shards};
use informer_runtime::client::Config;
use informer_runtime::{
    new_informer, typed, Client, Deleted, InformerOptions, ResourceEventHandlerFuncs,
    SharedIndexInformer,
};
use informer_selectors::shard::ShardField;
use k8s_openapi::api::core::v1::ConfigMap;
use rand::Rng;
use test_apiserver::{FaultTarget, RunningServer, TestApiServer};
use tokio::task::JoinHandle;
use tokio_util::sync::CancellationToken;

const LEASE: Duration = Duration::from_secs(2);
const RENEW: Duration = Duration::from_secs(1);
const RETRY: Duration = Duration::from_millis(200);
/// Room for scheduling and HTTP round trips on a loaded machine.
const SLACK: Duration = Duration::from_millis(800);
const BUCKETS: u32 = 256;
const RING: &str = "foos";

fn config() -> ShardRingConfig {
    ShardRingConfig {
        lease_duration: LEASE,
        renew_deadline: RENEW,
        retry_period: RETRY,
        buckets: BUCKETS,
        field: ShardField::Uid,
    }
}

/// Who works on each bucket now, as the replicas report it, and any bucket ever claimed
/// by a second replica while a first still worked on it.
#[derive(Default)]
struct Table {
    owner: Mutex<HashMap<u32, String>>,
    overlaps: Mutex<Vec<String>>,
}

impl Table {
    fn start(&self, id: &str, buckets: impl IntoIterator<Item = u32>) {
        let mut owner = self.owner.lock().unwrap();
        for b in buckets {
            if let Some(other) = owner.insert(b, id.to_owned()) {
                if other != id {
                    self.overlaps.lock().unwrap().push(format!(
                        "bucket {b}: {id} started while {other} worked on it"
                    ));
                }
            }
        }
    }

    fn stop(&self, id: &str, buckets: impl IntoIterator<Item = u32>) {
        let mut owner = self.owner.lock().unwrap();
        for b in buckets {
            if owner.get(&b).is_some_and(|o| o == id) {
                owner.remove(&b);
            }
        }
    }
}

struct Replica {
    id: String,
    ring: Arc<ShardRing>,
    cancel: CancellationToken,
    task: JoinHandle<Result<(), ShardRingError>>,
    watcher: JoinHandle<()>,
}

impl Replica {
    fn start(server: &RunningServer, id: &str, table: &Arc<Table>) -> Self {
        let client = Client::new(Config::new(server.url())).unwrap();
        let (released_table, released_id) = (table.clone(), id.to_owned());
        let ring = Arc::new(
            ShardRing::new(client, "shop", RING, id, config())
                .unwrap()
                .on_release(move |released: Shards| {
                    let (table, id) = (released_table.clone(), released_id.clone());
                    async move {
                        // Reconciles in flight take a moment to finish.
                        tokio::time::sleep(Duration::from_millis(30)).await;
                        table.stop(&id, released.owned().iter().copied());
                    }
                }),
        );
        let mut rx = ring.subscribe();
        let (table, watcher_id) = (table.clone(), id.to_owned());
        let watcher = tokio::spawn(async move {
            let mut seen = BTreeSet::new();
            while rx.changed().await.is_ok() {
                let now = rx.borrow_and_update().owned().clone();
                table.start(&watcher_id, now.difference(&seen).copied());
                seen = now;
            }
        });
        let cancel = CancellationToken::new();
        let task = tokio::spawn({
            let (ring, cancel) = (ring.clone(), cancel.clone());
            async move { ring.run(cancel).await }
        });
        Self {
            id: id.to_owned(),
            ring,
            cancel,
            task,
            watcher,
        }
    }

    /// Dies without releasing anything: its work stops, its Lease stays.
    fn kill(self, table: &Table) {
        self.task.abort();
        self.watcher.abort();
        table.stop(&self.id, self.ring.current().owned().iter().copied());
    }
}

/// Waits until the replicas' buckets are exactly the assignment of their identities
/// (disjoint, covering everything); the time it took.
async fn settled(replicas: &[&Replica]) -> Duration {
    let started = Instant::now();
    let ids: Vec<&str> = replicas.iter().map(|r| r.id.as_str()).collect();
    let want = assign(ids.iter().copied(), BUCKETS);
    loop {
        let now: BTreeMap<String, BTreeSet<u32>> = replicas
            .iter()
            .map(|r| (r.id.clone(), r.ring.current().owned().clone()))
            .filter(|(_, o)| !o.is_empty())
            .collect();
        if now == want {
            return started.elapsed();
        }
        assert!(
            started.elapsed() < Duration::from_secs(30),
            "never settled on {ids:?}: {:?}",
            now.iter().map(|(k, v)| (k, v.len())).collect::<Vec<_>>()
        );
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

fn uuid(rng: &mut impl Rng) -> String {
    let b: [u8; 16] = rng.random();
    let h: String = b.iter().map(|x| format!("{x:02x}")).collect();
    format!(
        "{}-{}-4{}-a{}-{}",
        &h[..8],
        &h[8..12],
        &h[13..16],
        &h[17..20],
        &h[20..32]
    )
}

/// The replica owning each uid.
fn owners(replicas: &[&Replica], uids: &[String]) -> Vec<String> {
    let shards: Vec<(String, Shards)> = replicas
        .iter()
        .map(|r| (r.id.clone(), r.ring.current()))
        .collect();
    uids.iter()
        .map(|u| {
            let mut owning = shards.iter().filter(|(_, s)| s.contains(u));
            let (id, s) = owning.next().expect("every uid has an owner");
            assert!(owning.next().is_none(), "{u} has two owners");
            let selector = s.selector().expect("an owner has a selector");
            assert!(selector.contains(u), "the selector agrees with the buckets");
            id.clone()
        })
        .collect()
}

fn moved(before: &[String], after: &[String]) -> usize {
    before.iter().zip(after).filter(|(b, a)| b != a).count()
}

async fn server() -> RunningServer {
    TestApiServer::builder()
        .namespaces(["shop"])
        .start()
        .await
        .unwrap()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn replicas_split_take_over_from_the_dead_and_rebalance_on_joins() {
    let server = server().await;
    let table = Arc::new(Table::default());
    let mut rng = rand::rng();
    let uids: Vec<String> = (0..3_000).map(|_| uuid(&mut rng)).collect();

    let a = Replica::start(&server, "replica-a", &table);
    let b = Replica::start(&server, "replica-b", &table);
    let c = Replica::start(&server, "replica-c", &table);
    settled(&[&a, &b, &c]).await;
    let three = owners(&[&a, &b, &c], &uids);
    let leases = server
        .list("leases.coordination.k8s.io", Some("shop"))
        .unwrap();
    assert_eq!(leases.len(), 3);
    for lease in &leases {
        assert_eq!(
            lease["metadata"]["labels"]["sharding.kube-informers.io/ring"],
            RING
        );
    }

    // Killed: no release, its Lease stays until seen unchanged for its duration.
    let c_buckets = c.ring.current().owned().clone();
    let killed = Instant::now();
    c.kill(&table);
    let took = settled(&[&a, &b]).await;
    let since_kill = killed.elapsed();
    assert!(
        since_kill <= LEASE + RETRY + SLACK,
        "take-over after {since_kill:?} (settling loop {took:?})"
    );
    let survivors: BTreeSet<u32> = a
        .ring
        .current()
        .owned()
        .union(b.ring.current().owned())
        .copied()
        .collect();
    assert!(c_buckets.is_subset(&survivors));
    let two = owners(&[&a, &b], &uids);
    println!(
        "kill: {since_kill:?} until replica-c's {} buckets had owners again (bound {:?})",
        c_buckets.len(),
        LEASE + RETRY
    );
    // The dead member's Lease is collected, so newcomers need not wait for it to expire.
    let gone = Instant::now();
    while server
        .list("leases.coordination.k8s.io", Some("shop"))
        .unwrap()
        .len()
        > 2
    {
        assert!(gone.elapsed() < LEASE, "the dead Lease stays");
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    assert_eq!(
        moved(&three, &two),
        three.iter().filter(|o| *o == "replica-c").count(),
        "only the dead replica's objects moved"
    );

    // A fourth replica joins the two survivors.
    let d = Replica::start(&server, "replica-d", &table);
    let join = settled(&[&a, &b, &d]).await;
    let with_d = owners(&[&a, &b, &d], &uids);
    let moved_d = moved(&two, &with_d);
    let to_d = with_d.iter().filter(|o| *o == "replica-d").count();
    assert_eq!(moved_d, to_d, "objects move only to the newcomer");
    println!("join 2 -> 3 members: {moved_d} of 3000 objects moved (ideal 1000) in {join:?}");
    assert!((700..=1300).contains(&moved_d), "{moved_d}");

    // And a fifth: four members.
    let e = Replica::start(&server, "replica-e", &table);
    let join = settled(&[&a, &b, &d, &e]).await;
    let with_e = owners(&[&a, &b, &d, &e], &uids);
    let moved_e = moved(&with_d, &with_e);
    assert_eq!(moved_e, with_e.iter().filter(|o| *o == "replica-e").count());
    println!("join 3 -> 4 members: {moved_e} of 3000 objects moved (ideal 750) in {join:?}");
    assert!((450..=1050).contains(&moved_e), "{moved_e}");

    // A clean stop drains and deletes its Lease: the others need not wait for it to expire.
    let stopped = Instant::now();
    e.cancel.cancel();
    e.task.await.unwrap().unwrap();
    assert!(e.ring.current().is_empty());
    settled(&[&a, &b, &d]).await;
    let handover = stopped.elapsed();
    println!("clean stop: handed over in {handover:?}");
    assert!(handover < LEASE, "{handover:?}");
    assert_eq!(
        server
            .list("leases.coordination.k8s.io", Some("shop"))
            .unwrap()
            .len(),
        3,
        "the stopped replica deleted its Lease"
    );

    assert_eq!(*table.overlaps.lock().unwrap(), Vec::<String>::new());
    for r in [a, b, d] {
        r.cancel.cancel();
        r.task.await.unwrap().unwrap();
        r.watcher.abort();
    }
    server.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn replicas_whose_requests_hang_stop_working_by_their_renew_deadline_then_resume() {
    let server = server().await;
    let table = Arc::new(Table::default());
    let a = Replica::start(&server, "replica-a", &table);
    let b = Replica::start(&server, "replica-b", &table);
    settled(&[&a, &b]).await;

    server.faults().stall_next(
        u64::MAX,
        Duration::from_secs(30),
        FaultTarget::resource("leases.coordination.k8s.io"),
    );
    let stalled = Instant::now();
    while !(a.ring.current().is_empty() && b.ring.current().is_empty()) {
        assert!(
            stalled.elapsed() <= RENEW + RETRY + SLACK,
            "still working {:?} after the Lease requests hung",
            stalled.elapsed()
        );
        tokio::time::sleep(Duration::from_millis(10)).await;
    }

    server.faults().clear();
    settled(&[&a, &b]).await;
    assert_eq!(*table.overlaps.lock().unwrap(), Vec::<String>::new());
    for r in [a, b] {
        r.cancel.cancel();
        r.task.await.unwrap().unwrap();
        r.watcher.abort();
    }
    server.shutdown().await;
}

#[tokio::test]
async fn timings_that_would_let_a_replica_outlive_its_lease_are_refused() {
    let server = server().await;
    let client = Client::new(Config::new(server.url())).unwrap();
    let bad = ShardRingConfig {
        lease_duration: Duration::from_secs(1),
        renew_deadline: Duration::from_secs(1),
        retry_period: RETRY,
        ..ShardRingConfig::default()
    };
    let err = ShardRing::new(client.clone(), "shop", RING, "r", bad).unwrap_err();
    assert!(
        err.to_string()
            .contains("must be greater than renew_deadline + retry_period"),
        "{err}"
    );
    let err = ShardRing::new(client, "shop", RING, "Not_A_Name", config()).unwrap_err();
    assert!(err.to_string().contains("DNS subdomain"), "{err}");
    server.shutdown().await;
}

/// A replica's ConfigMap informer, following its ring's share.
struct Follower {
    informer: SharedIndexInformer<ConfigMap>,
    /// `left ns/name` or `deleted ns/name`, for every object that went from its cache.
    gone: Arc<Mutex<Vec<String>>>,
}

impl Follower {
    fn start(server: &RunningServer, replica: &Replica, cancel: &CancellationToken) -> Self {
        let client = Client::new(Config::new(server.url())).unwrap();
        let informer = new_informer(
            &client,
            &typed::<ConfigMap>(),
            Some("shop"),
            InformerOptions::default()
                .shard_assignments(replica.ring.assignments())
                .page_size(50),
        );
        let gone = Arc::new(Mutex::new(Vec::new()));
        let g = gone.clone();
        informer.add_event_handler(ResourceEventHandlerFuncs::default().on_delete(
            move |d: &Deleted<ConfigMap>| {
                let what = if d.left_shard() { "left" } else { "deleted" };
                g.lock().unwrap().push(format!("{what} {}", d.key()));
            },
        ));
        tokio::spawn(informer.clone().run(cancel.clone()));
        Self { informer, gone }
    }

    fn keys(&self) -> BTreeSet<String> {
        self.informer.indexer().list_keys().into_iter().collect()
    }
}

/// Waits until the followers' caches split the server's ConfigMaps: disjoint, together all.
async fn split(server: &RunningServer, followers: &[&Follower]) {
    let all: BTreeSet<String> = server
        .list("configmaps", Some("shop"))
        .unwrap()
        .iter()
        .map(|o| format!("shop/{}", o["metadata"]["name"].as_str().unwrap()))
        .collect();
    let started = Instant::now();
    loop {
        let caches: Vec<BTreeSet<String>> = followers.iter().map(|f| f.keys()).collect();
        let union: BTreeSet<String> = caches.iter().flatten().cloned().collect();
        let total: usize = caches.iter().map(BTreeSet::len).sum();
        if union == all && total == all.len() {
            return;
        }
        assert!(
            started.elapsed() < Duration::from_secs(30),
            "the caches never split the objects: sizes {:?} of {}",
            caches.iter().map(BTreeSet::len).collect::<Vec<_>>(),
            all.len()
        );
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

/// Informers following the ring hold exactly their replica's share, in both server modes
/// (with `ShardedListAndWatch`, and filtering on the client without it): three replicas
/// split 300 ConfigMaps; when one dies, the survivors' informers relist and take its
/// objects over; objects that moved away are `LeftShard`, never deletions.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn informers_follow_the_ring_with_and_without_server_side_sharding() {
    for sharding in [true, false] {
        let server = TestApiServer::builder()
            .namespaces(["shop"])
            .sharding(sharding)
            .start()
            .await
            .unwrap();
        for i in 0..300 {
            server
                .create(
                    "configmaps",
                    Some("shop"),
                    serde_json::json!({"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": format!("cm-{i}")}}),
                )
                .unwrap();
        }
        let table = Arc::new(Table::default());
        let cancel = CancellationToken::new();
        let (a, b, c) = (
            Replica::start(&server, "replica-a", &table),
            Replica::start(&server, "replica-b", &table),
            Replica::start(&server, "replica-c", &table),
        );
        let followers = [
            Follower::start(&server, &a, &cancel),
            Follower::start(&server, &b, &cancel),
            Follower::start(&server, &c, &cancel),
        ];
        settled(&[&a, &b, &c]).await;
        split(&server, &[&followers[0], &followers[1], &followers[2]]).await;

        c.kill(&table);
        settled(&[&a, &b]).await;
        // The dead replica's informer is gone with it.
        let [fa, fb, _] = &followers;
        split(&server, &[fa, fb]).await;
        for f in [fa, fb] {
            let gone = f.gone.lock().unwrap().clone();
            assert!(
                gone.iter().all(|g| g.starts_with("left ")),
                "sharding {sharding}: {gone:?}"
            );
        }
        cancel.cancel();
        for r in [a, b] {
            r.cancel.cancel();
            r.task.await.unwrap().unwrap();
        }
    }
}
