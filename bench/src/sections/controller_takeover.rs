//! Leader-election takeover, warm standby against cold: how long after the old leader's
//! death the new leader reconciles its first Foo, not counting the wait for the Lease.
//!
//! An in-process test API server holds `objects` Foos (the sample controller's CRD). In
//! each run a leader holds a Lease and a second replica stands by; the leader is then
//! killed without releasing the Lease (its task is aborted, as a crashed process would
//! stop), so the standby takes over once the Lease expires by its clock.
//!
//! - **warm**: the standby's Foo informer runs while it stands by
//!   ([`Controller::run_leader_elected`]): on winning, its workers start on a synced cache
//!   and a full queue.
//! - **cold**: the standby starts its informer when it wins (the classic client-go
//!   layout), so it lists every Foo first.
//!
//! Each run reports `lease_wait` (death to the standby acquiring the Lease: the same for
//! both, set by the lease duration) and `takeover` (acquiring to the first reconcile: what
//! warm standbys cut).

use std::convert::Infallible;
use std::sync::{Arc, Mutex, OnceLock};
use std::time::{Duration, Instant};

use informer_controller::leader_election::{LeaderElectionConfig, LeaderElector, LeaseLock};
use informer_controller::{enqueue, Action, Controller, ObjectRef, WorkQueue};
use informer_runtime::client::Config as ClientConfig;
use informer_runtime::{
    new_informer, typed, Client, Indexers, InformerOptions, SharedIndexInformer,
};
use k8s_openapi::apimachinery::pkg::apis::meta::v1::ObjectMeta;
use serde::{Deserialize, Serialize};
use serde_json::{json, Value};
use test_apiserver::{RunningServer, TestApiServer};
use tokio_util::sync::CancellationToken;

/// Any failure of the section, as text.
pub type TakeoverError = Box<dyn std::error::Error + Send + Sync>;

const NAMESPACE: &str = "shop";
const FOOS: &str = "foos.samplecontroller.k8s.io";
/// Longest any one step may take before the section gives up.
const LIMIT: Duration = Duration::from_secs(600);

/// The sample controller's Foo, with only what the informer needs.
#[derive(Clone, Debug, Default, Serialize, Deserialize)]
pub struct Foo {
    /// Standard object metadata.
    #[serde(default)]
    pub metadata: ObjectMeta,
    /// The Foo's spec, kept as sent.
    #[serde(default)]
    pub spec: Value,
    /// The Foo's status, kept as sent.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub status: Option<Value>,
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

/// One takeover.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Takeover {
    /// From the leader's death to the standby acquiring the Lease.
    pub lease_wait: Duration,
    /// From acquiring the Lease to the first reconcile.
    pub takeover: Duration,
}

/// Both takeovers of one section run.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct TakeoverTimes {
    /// Foos on the server.
    pub objects: usize,
    /// With a warm standby.
    pub warm: Takeover,
    /// With a cold standby.
    pub cold: Takeover,
}

/// Runs a warm and a cold takeover over `objects` Foos (the issue measures 10,000).
pub async fn controller_takeover(objects: usize) -> Result<TakeoverTimes, TakeoverError> {
    let crd = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../examples/sample-controller/crd/foo.yaml"
    );
    let server = TestApiServer::builder()
        .namespaces([NAMESPACE])
        .crd_file(crd)
        .start()
        .await?;
    for i in 0..objects {
        server.create(
            FOOS,
            Some(NAMESPACE),
            json!({
                "apiVersion": "samplecontroller.k8s.io/v1alpha1",
                "kind": "Foo",
                "metadata": {"name": format!("foo-{i}")},
                "spec": {"deploymentName": format!("foo-{i}"), "replicas": 1},
            }),
        )?;
    }
    let warm = takeover(&server, objects, true).await?;
    let cold = takeover(&server, objects, false).await?;
    Ok(TakeoverTimes {
        objects,
        warm,
        cold,
    })
}

fn election() -> LeaderElectionConfig {
    LeaderElectionConfig {
        lease_duration: Duration::from_secs(2),
        renew_deadline: Duration::from_secs(1),
        retry_period: Duration::from_millis(200),
        release_on_cancel: true,
        name: String::new(),
    }
}

fn foo_informer(client: &Client) -> SharedIndexInformer<Foo> {
    new_informer(
        client,
        &typed::<Foo>(),
        Some(NAMESPACE),
        InformerOptions::default().indexers(Indexers::namespace()),
    )
}

/// When the first reconcile ran.
type FirstReconcile = Arc<OnceLock<Instant>>;

fn reconciler(
    first: FirstReconcile,
) -> impl Fn(ObjectRef) -> std::future::Ready<Result<Action, Infallible>> + Send + Sync + 'static {
    move |_key: ObjectRef| {
        let _ = first.set(Instant::now());
        std::future::ready(Ok(Action::Done))
    }
}

async fn wait_until(what: &str, mut done: impl FnMut() -> bool) -> Result<(), TakeoverError> {
    let deadline = Instant::now() + LIMIT;
    while !done() {
        if Instant::now() > deadline {
            return Err(format!("controller takeover: {what} within {LIMIT:?}").into());
        }
        tokio::time::sleep(Duration::from_millis(5)).await;
    }
    Ok(())
}

async fn takeover(
    server: &RunningServer,
    objects: usize,
    warm: bool,
) -> Result<Takeover, TakeoverError> {
    let lease = if warm {
        "takeover-warm"
    } else {
        "takeover-cold"
    };
    let client = Client::new(ClientConfig::new(server.url()))?;

    // The leader: holds the Lease until its task is aborted.
    let leader = LeaderElector::new(
        LeaseLock::new(client.clone(), NAMESPACE, lease, "old"),
        election(),
    )?
    .on_started_leading(|leading: CancellationToken| async move { leading.cancelled().await });
    let leader = Arc::new(leader);
    let leader_task = tokio::spawn({
        let leader = leader.clone();
        async move { leader.run(CancellationToken::new()).await }
    });
    wait_until("the first replica leads", || leader.is_leader()).await?;

    // The standby: it notes when it sees the old leader and when it wins.
    let saw_leader = Arc::new(OnceLock::new());
    let acquired: Arc<OnceLock<Instant>> = Arc::new(OnceLock::new());
    let first: FirstReconcile = Arc::new(OnceLock::new());
    let elector = LeaderElector::new(
        LeaseLock::new(client.clone(), NAMESPACE, lease, "new"),
        election(),
    )?
    .on_new_leader({
        let (saw_leader, acquired) = (saw_leader.clone(), acquired.clone());
        move |holder| {
            if holder == "new" {
                let _ = acquired.set(Instant::now());
            } else {
                let _ = saw_leader.set(());
            }
        }
    });
    let cancel = CancellationToken::new();
    let queue = WorkQueue::<ObjectRef>::new();
    let standby = if warm {
        let informer = foo_informer(&client);
        informer.add_event_handler(enqueue(queue.clone()));
        let informer_task = tokio::spawn(informer.clone().run(cancel.clone()));
        let run = Controller::new(queue.clone(), reconciler(first.clone()))
            .workers(2)
            .wait_for(informer.clone())
            .run_leader_elected(elector, cancel.clone());
        let standby = tokio::spawn(async move {
            let ran = run.await;
            let _ = informer_task.await;
            ran.map_err(TakeoverError::from)
        });
        wait_until("the warm standby syncs and queues every Foo", || {
            informer.has_synced() && queue.len() == objects
        })
        .await?;
        standby
    } else {
        let slot = Arc::new(Mutex::new(Some((
            client.clone(),
            queue.clone(),
            first.clone(),
        ))));
        let elector = elector.on_started_leading(move |leading: CancellationToken| {
            let taken = slot.lock().unwrap_or_else(|e| e.into_inner()).take();
            async move {
                let Some((client, queue, first)) = taken else {
                    return;
                };
                let informer = foo_informer(&client);
                informer.add_event_handler(enqueue(queue.clone()));
                let informer_task = tokio::spawn(informer.clone().run(leading.clone()));
                let ran = Controller::new(queue, reconciler(first))
                    .workers(2)
                    .wait_for(informer)
                    .run(leading)
                    .await;
                if let Err(e) = ran {
                    tracing::error!(error = %e, "cold standby's controller failed");
                }
                let _ = informer_task.await;
            }
        });
        let stop = cancel.clone();
        tokio::spawn(async move {
            elector.run(stop).await.map_err(TakeoverError::from)?;
            Ok(())
        })
    };
    wait_until("the standby sees the leader", || saw_leader.get().is_some()).await?;

    leader_task.abort();
    let died = Instant::now();
    wait_until("the standby reconciles", || first.get().is_some()).await?;
    cancel.cancel();
    standby.await??;
    let (Some(&acquired), Some(&first)) = (acquired.get(), first.get()) else {
        return Err("controller takeover: the standby reconciled without acquiring".into());
    };
    Ok(Takeover {
        lease_wait: acquired.saturating_duration_since(died),
        takeover: first.saturating_duration_since(acquired),
    })
}
