//! Leader election over the test API server's Leases, in real time with short durations
//! (lease 2 s, renew deadline 1 s, retry 200 ms): never two leaders, failover without and
//! with release, a leader that cannot renew stops, new-leader callbacks, timings that would
//! let a leader outlive its lease refused.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use informer_controller::leader_election::{
    LeaderElectionConfig, LeaderElectionError, LeaderElector, LeaseLock,
};
use informer_runtime::client::Config;
use informer_runtime::Client;
use serde_json::Value;
use test_apiserver::{FaultTarget, RunningServer, TestApiServer};
use tokio::task::JoinHandle;
use tokio_util::sync::CancellationToken;

const LEASE: Duration = Duration::from_secs(2);
const RENEW: Duration = Duration::from_secs(1);
const RETRY: Duration = Duration::from_millis(200);
/// Room for scheduling and HTTP round trips on a loaded machine.
const SLACK: Duration = Duration::from_millis(800);
const LEASES: &str = "leases.coordination.k8s.io";

fn config(release_on_cancel: bool) -> LeaderElectionConfig {
    LeaderElectionConfig {
        lease_duration: LEASE,
        renew_deadline: RENEW,
        retry_period: RETRY,
        release_on_cancel,
        name: "test".into(),
    }
}

/// How many candidates run their started-leading future at once, and the most ever.
#[derive(Default)]
struct Leading {
    now: AtomicUsize,
    max: AtomicUsize,
}

/// What one candidate's callbacks saw.
#[derive(Default)]
struct Seen {
    started: AtomicUsize,
    stopped: AtomicUsize,
    new_leaders: Mutex<Vec<String>>,
    token: Mutex<Option<CancellationToken>>,
}

struct Candidate {
    id: String,
    elector: Arc<LeaderElector>,
    seen: Arc<Seen>,
    cancel: CancellationToken,
    task: JoinHandle<Result<(), LeaderElectionError>>,
}

impl Candidate {
    fn start(
        server: &RunningServer,
        id: &str,
        config: LeaderElectionConfig,
        leading: &Arc<Leading>,
    ) -> Self {
        let client = Client::new(Config::new(server.url())).unwrap();
        let seen = Arc::new(Seen::default());
        let (s1, s2, s3, leading) = (seen.clone(), seen.clone(), seen.clone(), leading.clone());
        let elector = LeaderElector::new(LeaseLock::new(client, "shop", "ctl", id), config)
            .unwrap()
            .on_started_leading(move |token: CancellationToken| {
                s1.started.fetch_add(1, Ordering::SeqCst);
                *s1.token.lock().unwrap() = Some(token.clone());
                let leading = leading.clone();
                async move {
                    let n = leading.now.fetch_add(1, Ordering::SeqCst) + 1;
                    leading.max.fetch_max(n, Ordering::SeqCst);
                    token.cancelled().await;
                    leading.now.fetch_sub(1, Ordering::SeqCst);
                }
            })
            .on_stopped_leading(move || {
                s2.stopped.fetch_add(1, Ordering::SeqCst);
            })
            .on_new_leader(move |holder| s3.new_leaders.lock().unwrap().push(holder.to_owned()));
        let elector = Arc::new(elector);
        let cancel = CancellationToken::new();
        let task = tokio::spawn({
            let (elector, cancel) = (elector.clone(), cancel.clone());
            async move { elector.run(cancel).await }
        });
        Self {
            id: id.to_owned(),
            elector,
            seen,
            cancel,
            task,
        }
    }

    async fn stop(self) {
        self.cancel.cancel();
        self.task.await.unwrap().unwrap();
    }
}

/// Polls `condition` every 5 ms for up to `limit`; how long it took to hold.
async fn wait_until(limit: Duration, mut condition: impl FnMut() -> bool) -> Option<Duration> {
    let start = Instant::now();
    while start.elapsed() < limit {
        if condition() {
            return Some(start.elapsed());
        }
        tokio::time::sleep(Duration::from_millis(5)).await;
    }
    None
}

/// The candidates that believe they lead. A candidate seen leading counts only if it still
/// does after the others were read, so a handover between two reads is not taken for two
/// leaders.
fn leaders(candidates: &[Candidate]) -> Vec<String> {
    let first: Vec<bool> = candidates.iter().map(|c| c.elector.is_leader()).collect();
    candidates
        .iter()
        .zip(first)
        .filter(|(c, was)| *was && c.elector.is_leader())
        .map(|(c, _)| c.id.clone())
        .collect()
}

fn lease(server: &RunningServer) -> Value {
    server.get(LEASES, Some("shop"), "ctl").unwrap()
}

async fn server() -> RunningServer {
    TestApiServer::builder()
        .namespaces(["shop"])
        .start()
        .await
        .unwrap()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn three_candidates_elect_one_leader_and_never_two_across_a_handover() {
    let server = server().await;
    let leading = Arc::new(Leading::default());
    let mut candidates: Vec<Candidate> = ["a", "b", "c"]
        .iter()
        .map(|id| Candidate::start(&server, id, config(true), &leading))
        .collect();

    let mut most = 0;
    let mut sample = |candidates: &[Candidate]| {
        let now = leaders(candidates);
        most = most.max(now.len());
        now
    };
    let first = loop {
        if let [one] = sample(&candidates).as_slice() {
            break one.clone();
        }
        tokio::time::sleep(Duration::from_millis(2)).await;
    };
    // Keep watching through several renewals: the leader stays, nobody else leads.
    let until = Instant::now() + LEASE + RETRY;
    while Instant::now() < until {
        assert_eq!(
            sample(&candidates),
            std::slice::from_ref(&first),
            "the leader keeps the lease"
        );
        tokio::time::sleep(Duration::from_millis(2)).await;
    }
    for c in &candidates {
        assert_eq!(
            c.elector.get_leader().as_deref(),
            Some(first.as_str()),
            "{} sees the leader",
            c.id
        );
    }
    let held = lease(&server);
    assert_eq!(held["spec"]["holderIdentity"], first.as_str());
    assert_eq!(held["spec"]["leaseDurationSeconds"], 2);
    assert_eq!(
        held["spec"]["leaseTransitions"], 0,
        "created by its first holder"
    );

    // The leader steps down; one of the others takes over.
    let at = candidates.iter().position(|c| c.id == first).unwrap();
    let old = candidates.remove(at);
    let stopping = tokio::spawn(old.stop());
    let second = loop {
        if let [one] = sample(&candidates).as_slice() {
            break one.clone();
        }
        tokio::time::sleep(Duration::from_millis(2)).await;
    };
    stopping.await.unwrap();
    assert_ne!(second, first);
    let until = Instant::now() + RETRY * 3;
    while Instant::now() < until {
        assert_eq!(sample(&candidates), std::slice::from_ref(&second));
        tokio::time::sleep(Duration::from_millis(2)).await;
    }
    assert_eq!(
        most, 1,
        "at every observation at most one candidate believed it led"
    );
    assert_eq!(
        leading.max.load(Ordering::SeqCst),
        1,
        "two started-leading futures never ran at once"
    );
    let held = lease(&server);
    assert_eq!(held["spec"]["holderIdentity"], second.as_str());
    assert_eq!(held["spec"]["leaseTransitions"], 1, "one change of holder");
    for c in candidates {
        c.stop().await;
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_leader_stopped_without_release_is_replaced_once_its_lease_expires() {
    let server = server().await;
    let leading = Arc::new(Leading::default());
    let a = Candidate::start(&server, "a", config(false), &leading);
    wait_until(LEASE, || a.elector.is_leader())
        .await
        .expect("a leads");
    let b = Candidate::start(&server, "b", config(false), &leading);
    wait_until(LEASE, || b.elector.get_leader().as_deref() == Some("a"))
        .await
        .expect("b sees a lead");

    let stopped = Instant::now();
    let a_seen = a.seen.clone();
    a.stop().await;
    assert_eq!(
        a_seen.stopped.load(Ordering::SeqCst),
        1,
        "a's stopped-leading callback ran"
    );
    assert_eq!(
        lease(&server)["spec"]["holderIdentity"],
        "a",
        "no release: a still holds the lease"
    );

    wait_until(LEASE + RETRY * 3 + SLACK, || b.elector.is_leader())
        .await
        .expect("b leads within lease duration + retry period");
    let took = stopped.elapsed();
    // a renewed at most one retry period before it stopped; b waits a full lease
    // duration after it last saw that renewal.
    assert!(
        took >= LEASE - RETRY * 2,
        "b waited for the lease to expire, took {took:?}"
    );
    assert_eq!(lease(&server)["spec"]["holderIdentity"], "b");
    assert_eq!(leading.max.load(Ordering::SeqCst), 1);
    b.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_leader_that_releases_is_replaced_within_about_one_retry_period() {
    let server = server().await;
    let leading = Arc::new(Leading::default());
    let a = Candidate::start(&server, "a", config(true), &leading);
    wait_until(LEASE, || a.elector.is_leader())
        .await
        .expect("a leads");
    let b = Candidate::start(&server, "b", config(true), &leading);
    wait_until(LEASE, || b.elector.get_leader().as_deref() == Some("a"))
        .await
        .expect("b sees a lead");

    let stopped = Instant::now();
    a.stop().await;
    let released = lease(&server);
    if released["spec"]["holderIdentity"] != "b" {
        assert_eq!(
            released["spec"]["holderIdentity"], "",
            "released: no holder"
        );
        assert_eq!(released["spec"]["leaseDurationSeconds"], 1);
    }
    wait_until(LEASE, || b.elector.is_leader())
        .await
        .expect("b leads");
    let took = stopped.elapsed();
    assert!(
        took <= RETRY.mul_f64(2.2) + SLACK,
        "b took over {took:?} after a released, not after the lease expired"
    );
    assert_eq!(leading.max.load(Ordering::SeqCst), 1);
    b.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_leader_that_cannot_renew_within_the_deadline_stops_leading() {
    let server = server().await;
    let leading = Arc::new(Leading::default());
    let a = Candidate::start(&server, "a", config(true), &leading);
    wait_until(LEASE, || a.elector.is_leader())
        .await
        .expect("a leads");
    let token = a.seen.token.lock().unwrap().clone().unwrap();

    // A few failures inside the deadline are survived.
    server
        .faults()
        .fail_next(2, 500, FaultTarget::resource(LEASES));
    tokio::time::sleep(RENEW * 2).await;
    assert!(
        a.elector.is_leader() && !token.is_cancelled(),
        "two failed requests do not end leadership"
    );

    // Every request fails from now on.
    server
        .faults()
        .fail_next(u64::MAX, 500, FaultTarget::resource(LEASES));
    let failing = Instant::now();
    wait_until(RENEW + RETRY + SLACK, || token.is_cancelled())
        .await
        .expect("the leading token is cancelled once the renew deadline passes");
    let took = failing.elapsed();
    assert!(
        took >= RENEW - RETRY,
        "a kept trying until the deadline, stopped after {took:?}"
    );
    assert!(!a.elector.is_leader());
    let a_seen = a.seen.clone();
    a.task.await.unwrap().unwrap();
    assert_eq!(a_seen.stopped.load(Ordering::SeqCst), 1);

    // Once the server answers again, another candidate takes the (unreleased) lease.
    server.faults().clear();
    let b = Candidate::start(&server, "b", config(true), &leading);
    wait_until(LEASE + RETRY * 3 + SLACK, || b.elector.is_leader())
        .await
        .expect("b leads");
    assert_eq!(leading.max.load(Ordering::SeqCst), 1);
    b.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_renewal_hung_past_the_deadline_ends_leadership_at_the_deadline() {
    let server = server().await;
    let leading = Arc::new(Leading::default());
    let a = Candidate::start(&server, "a", config(true), &leading);
    wait_until(LEASE, || a.elector.is_leader())
        .await
        .expect("a leads");
    let token = a.seen.token.lock().unwrap().clone().unwrap();

    server.faults().stall_next(
        u64::MAX,
        Duration::from_secs(30),
        FaultTarget::resource(LEASES),
    );
    let stalled = Instant::now();
    wait_until(RENEW + RETRY + SLACK, || token.is_cancelled())
        .await
        .expect("the deadline cuts the hung request");
    server.faults().clear();
    assert!(stalled.elapsed() >= RENEW - RETRY);
    a.task.await.unwrap().unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn new_leader_callbacks_report_each_new_holder() {
    let server = server().await;
    let leading = Arc::new(Leading::default());
    let a = Candidate::start(&server, "a", config(true), &leading);
    wait_until(LEASE, || a.elector.is_leader())
        .await
        .expect("a leads");
    let b = Candidate::start(&server, "b", config(true), &leading);
    wait_until(LEASE, || !b.seen.new_leaders.lock().unwrap().is_empty())
        .await
        .expect("b reports a leader");
    assert_eq!(
        *a.seen.new_leaders.lock().unwrap(),
        ["a"],
        "a reports itself"
    );
    assert_eq!(*b.seen.new_leaders.lock().unwrap(), ["a"]);

    a.stop().await;
    wait_until(LEASE, || b.elector.is_leader())
        .await
        .expect("b leads");
    assert_eq!(*b.seen.new_leaders.lock().unwrap(), ["a", "b"]);
    b.stop().await;
}

#[tokio::test]
async fn invalid_configurations_are_rejected_as_client_go_rejects_them() {
    let client = Client::new(Config::new("http://127.0.0.1:1")).unwrap();
    let lock = || LeaseLock::new(client.clone(), "shop", "ctl", "a");
    let cases = [
        (
            LeaderElectionConfig {
                renew_deadline: LEASE,
                ..config(true)
            },
            "lease_duration",
        ),
        (
            LeaderElectionConfig {
                renew_deadline: RETRY.mul_f64(1.2),
                ..config(true)
            },
            "retry_period",
        ),
        (
            LeaderElectionConfig {
                retry_period: Duration::ZERO,
                ..config(true)
            },
            "retry_period must be greater than zero",
        ),
        (
            LeaderElectionConfig {
                lease_duration: Duration::from_millis(900),
                renew_deadline: Duration::from_millis(800),
                ..config(true)
            },
            "whole seconds",
        ),
    ];
    for (config, says) in cases {
        let err = LeaderElector::new(lock(), config.clone()).unwrap_err();
        assert!(
            matches!(&err, LeaderElectionError::InvalidConfig { message, .. } if message.contains(says)),
            "{config:?}: {err}"
        );
    }
    let err = LeaderElector::new(
        LeaseLock::new(client.clone(), "shop", "ctl", ""),
        config(true),
    )
    .unwrap_err();
    assert!(err.to_string().contains("identity is empty"), "{err}");
    assert!(LeaderElector::new(lock(), LeaderElectionConfig::default()).is_ok());
    assert!(LeaderElector::new(lock(), config(true)).is_ok());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn one_elector_cannot_run_twice_at_once() {
    let server = server().await;
    let leading = Arc::new(Leading::default());
    let a = Candidate::start(&server, "a", config(true), &leading);
    wait_until(LEASE, || a.elector.is_leader())
        .await
        .expect("a leads");
    let err = a.elector.run(CancellationToken::new()).await.unwrap_err();
    assert!(
        matches!(err, LeaderElectionError::AlreadyRunning { .. }),
        "{err}"
    );
    a.stop().await;
}

#[tokio::test]
async fn a_lease_that_a_leader_may_outlive_is_refused() {
    let client = Client::new(Config::new("http://127.0.0.1:1")).unwrap();
    let lock = || LeaseLock::new(client.clone(), "shop", "ctl", "a");
    let timings = |lease: Duration, renew: u64, retry: u64| LeaderElectionConfig {
        lease_duration: lease,
        renew_deadline: Duration::from_secs(renew),
        retry_period: Duration::from_secs(retry),
        ..LeaderElectionConfig::default()
    };
    // A leader may act until renew_deadline + retry_period (12 s) after its last renewal:
    // with an 11 s lease another candidate could take over a second before it stops.
    for (lease, stored) in [
        (Duration::from_secs(11), ""),
        (Duration::from_secs(12), ""),
        (
            Duration::from_millis(12_900),
            ", stored in the Lease as 12s",
        ),
    ] {
        let err = LeaderElector::new(lock(), timings(lease, 10, 2)).unwrap_err();
        let LeaderElectionError::InvalidConfig { message, .. } = &err else {
            panic!("{err}");
        };
        assert_eq!(
            *message,
            format!(
                "lease_duration ({lease:?}{stored}) must be greater than renew_deadline + \
                 retry_period (10s + 2s = 12s): a leader may act for up to renew_deadline + \
                 retry_period after its last renewal, so a shorter lease lets another \
                 candidate take over while it still leads"
            )
        );
    }
    // The defaults (15/10/2) and the smallest whole-second lease past the bound are valid.
    assert!(LeaderElector::new(lock(), LeaderElectionConfig::default()).is_ok());
    assert!(LeaderElector::new(lock(), timings(Duration::from_secs(13), 10, 2)).is_ok());
    assert!(LeaderElector::new(lock(), timings(Duration::from_millis(13_999), 10, 2)).is_ok());
}
