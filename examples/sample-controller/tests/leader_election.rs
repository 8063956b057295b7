//! Two replicas of the sample controller against one server: only the Lease holder
//! reconciles; when it stops (releasing the Lease), the other takes over and reconciles.

mod support;

use std::time::Duration;

use kube_informers::leader_election::{LeaderElectionConfig, LeaseLock};
use kube_informers::{ObjectRef, WorkQueue};
use sample_controller::{run_leader_elected, Error, SampleController};
use support::{client, create_foo, deployment, server, Running, LEASES};
use test_apiserver::{eventually, RunningServer};

const NS: &str = "shop";
const LEASE: &str = "sample-controller";

/// Short timings so the test takes seconds (client-go's are 15 s / 10 s / 2 s).
fn config() -> LeaderElectionConfig {
    LeaderElectionConfig {
        lease_duration: Duration::from_secs(2),
        renew_deadline: Duration::from_secs(1),
        retry_period: Duration::from_millis(200),
        ..LeaderElectionConfig::default()
    }
}

struct Replica {
    identity: &'static str,
    queue: WorkQueue<ObjectRef>,
    running: Running<Result<(), Error>>,
}

impl Replica {
    fn start(server: &RunningServer, identity: &'static str) -> Self {
        let client = client(server);
        let controller = SampleController::new(client.clone());
        let queue = controller.queue();
        let lock = LeaseLock::new(client, NS, LEASE, identity);
        let running =
            Running::start(|cancel| run_leader_elected(controller, lock, config(), cancel));
        Self {
            identity,
            queue,
            running,
        }
    }

    /// Keys this replica's handlers queued: none unless it led (its informers start then).
    fn adds(&self) -> u64 {
        self.queue.stats().adds
    }
}

fn holder(server: &RunningServer) -> Option<String> {
    let lease = server.get(LEASES, Some(NS), LEASE).ok()?;
    lease["spec"]["holderIdentity"]
        .as_str()
        .filter(|h| !h.is_empty())
        .map(str::to_owned)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn only_the_lease_holder_reconciles_and_the_other_takes_over_when_it_stops() {
    let server = server().await;
    for i in 0..10 {
        create_foo(&server, NS, &format!("foo-{i}"), &format!("app-{i}"), 1);
    }
    let a = Replica::start(&server, "replica-a");
    let b = Replica::start(&server, "replica-b");

    eventually("10 Deployments", || {
        (0..10).all(|i| deployment(&server, NS, &format!("app-{i}")).is_some())
    })
    .await;
    let leader_id = holder(&server).expect("the Lease is held");
    let (leader, standby) = if leader_id == a.identity {
        (a, b)
    } else {
        (b, a)
    };
    assert_eq!(leader_id, leader.identity);
    assert!(leader.adds() >= 10, "the leader reconciled the Foos");
    assert_eq!(standby.adds(), 0, "the standby reconciled nothing");

    // The leader stops and releases the Lease; the standby takes it and reconciles what
    // comes next.
    leader
        .running
        .stop()
        .await
        .expect("a cancelled leader returns Ok");
    create_foo(&server, NS, "late", "app-late", 1);
    eventually("the standby to create the new Foo's Deployment", || {
        deployment(&server, NS, "app-late").is_some()
    })
    .await;
    assert_eq!(holder(&server).as_deref(), Some(standby.identity));
    assert!(standby.adds() >= 11, "it synced every Foo on taking over");
    standby
        .running
        .stop()
        .await
        .expect("a cancelled leader returns Ok");
    assert_eq!(holder(&server), None, "released on the way out");
}
