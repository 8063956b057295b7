//! Three replicas of the sample controller split the Foos over a shard ring: each
//! reconciles the Foos whose uid is in its share and caches only their Deployments (its
//! Deployment informer places them by their controlling Foo); when one stops, the others
//! take its Foos over.

mod support;

use std::time::Duration;

use kube_informers::controller::sharding::{ShardRing, ShardRingConfig};
use kube_informers::{ObjectRef, WorkQueue};
use sample_controller::{Error, SampleController};
use support::{available, client, create_foo, deployment, foo, server, Running};
use test_apiserver::{eventually, RunningServer};

const FOOS_PER_NAMESPACE: usize = 30;
const NAMESPACES: [&str; 3] = ["ns-0", "ns-1", "ns-2"];

/// Short timings so the test takes seconds (the defaults are 15 s / 10 s / 2 s).
fn config() -> ShardRingConfig {
    ShardRingConfig {
        lease_duration: Duration::from_secs(2),
        renew_deadline: Duration::from_secs(1),
        retry_period: Duration::from_millis(200),
        ..ShardRingConfig::default()
    }
}

struct Replica {
    queue: WorkQueue<ObjectRef>,
    running: Running<Result<(), Error>>,
}

impl Replica {
    fn start(server: &RunningServer, identity: &str) -> Self {
        let client = client(server);
        let ring = ShardRing::new(
            client.clone(),
            "shop",
            "sample-controller",
            identity,
            config(),
        )
        .expect("a valid ring");
        let controller = SampleController::sharded(client, WorkQueue::new(), &ring);
        let queue = controller.queue();
        let running = Running::start(|cancel| controller.run_sharded(ring, cancel));
        Self { queue, running }
    }
}

fn converged(server: &RunningServer, ns: &str, name: &str) -> bool {
    deployment(server, ns, &format!("app-{name}")).is_some()
        && available(&foo(server, ns, name)).is_some()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn replicas_split_the_foos_and_take_over_from_one_that_stops() {
    let server = server().await;
    for ns in NAMESPACES {
        for i in 0..FOOS_PER_NAMESPACE {
            create_foo(&server, ns, &format!("foo-{i}"), &format!("app-foo-{i}"), 1);
        }
    }
    let replicas: Vec<Replica> = ["replica-a", "replica-b", "replica-c"]
        .into_iter()
        .map(|id| Replica::start(&server, id))
        .collect();
    eventually("every Foo to have its Deployment and status", || {
        NAMESPACES
            .iter()
            .all(|ns| (0..FOOS_PER_NAMESPACE).all(|i| converged(&server, ns, &format!("foo-{i}"))))
    })
    .await;
    let total = NAMESPACES.len() * FOOS_PER_NAMESPACE;
    let adds: Vec<u64> = replicas.iter().map(|r| r.queue.stats().adds).collect();
    // Each replica queued some Foos, none all of them: a Foo is queued by the replica that
    // owns it (a Deployment's change queues its Foo on the same replica).
    for a in &adds {
        assert!(*a > 0 && *a < total as u64 * 2, "{adds:?}");
    }

    // One stops cleanly: its buckets are handed over at once.
    let mut replicas = replicas.into_iter();
    let first = replicas.next().expect("three replicas");
    first
        .running
        .stop()
        .await
        .expect("a cancelled replica returns Ok");
    for ns in NAMESPACES {
        create_foo(&server, ns, "late", "app-late", 1);
    }
    eventually("the other replicas to take the late Foos", || {
        NAMESPACES.iter().all(|ns| converged(&server, ns, "late"))
    })
    .await;
    for r in replicas {
        r.running
            .stop()
            .await
            .expect("a cancelled replica returns Ok");
    }
}
