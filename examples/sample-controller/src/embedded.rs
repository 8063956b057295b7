//! No cluster configured: the controller runs against the embedded test API server (the
//! `test-apiserver` crate, a kube-apiserver-compatible server in this process) with the
//! Foo CRD installed from `crd/foo.yaml` and a few sample Foos, shows each step, and exits.
//!
//! The embedded server stores Deployments but runs no controllers of its own: no
//! kube-controller-manager makes ReplicaSets or Pods, so nothing sets a Deployment's
//! `status.availableReplicas` unless someone writes it. The demo says so, and writes it
//! itself in that role, openly.

use std::time::Duration;

use kube_informers::controller::sharding::{ShardRing, ShardRingConfig, Shards};
use kube_informers::k8s_openapi::api::apps::v1::Deployment;
use kube_informers::leader_election::{LeaderElectionConfig, LeaseLock};
use kube_informers::{Client, WorkQueue};
use sample_controller::{identity, is_controlled_by, run_leader_elected, Foo, SampleController};
use serde_json::json;
use test_apiserver::RunningServer;
use tokio_util::sync::CancellationToken;

const NAMESPACE: &str = "default";
const FOOS: &str = "foos.samplecontroller.k8s.io";
const DEPLOYMENTS: &str = "deployments.apps";
/// (Foo name, deployment name, replicas); the first is upstream's `example-foo`.
const SAMPLE_FOOS: [(&str, &str, i32); 3] = [
    ("example-foo", "example-foo", 1),
    ("web", "web-frontend", 2),
    ("batch", "batch-workers", 1),
];
/// How long to wait for each step before giving up (generous: a loaded machine).
const STEP_TIMEOUT: Duration = Duration::from_secs(30);
/// Replicas of the sharded demo when `--shards` names no count.
pub const DEFAULT_REPLICAS: usize = 3;
/// Foos the sharded demo adds to the samples, so each replica has a few.
const SHARDED_FOOS: usize = 30;

type Result<T, E = Box<dyn std::error::Error>> = std::result::Result<T, E>;

/// The sample Foos as YAML, created through the API once the CRD is installed.
pub fn sample_foos() -> String {
    SAMPLE_FOOS
        .iter()
        .map(|(name, deployment, replicas)| {
            format!(
                "apiVersion: samplecontroller.k8s.io/v1alpha1\nkind: Foo\n\
                 metadata: {{name: {name}, namespace: {NAMESPACE}}}\n\
                 spec: {{deploymentName: {deployment}, replicas: {replicas}}}\n"
            )
        })
        .collect::<Vec<_>>()
        .join("---\n")
}

/// Runs the controller against the embedded `server` (with the Foo CRD and the sample Foos
/// already there) through `client`, shows each step, and returns.
pub async fn run(client: Client, server: &RunningServer) -> Result<()> {
    println!(
        "embedded server: the Foo CRD installed and {} sample Foos in namespace {NAMESPACE}",
        SAMPLE_FOOS.len()
    );

    let controller = SampleController::new(client.clone());
    let queue = controller.queue();
    let lock = LeaseLock::new(client, NAMESPACE, "sample-controller", identity());
    println!(
        "starting the controller as {} under leader election (lease {NAMESPACE}/sample-controller)",
        lock.identity()
    );
    let cancel = CancellationToken::new();
    let running = tokio::spawn(run_leader_elected(
        controller,
        lock,
        LeaderElectionConfig::default(),
        cancel.clone(),
    ));

    wait_until("every Foo to have its Deployment and status", || {
        SAMPLE_FOOS
            .iter()
            .all(|(name, ..)| converged(server, name).unwrap_or(false))
    })
    .await?;
    println!("every Foo has its Deployment and status:");
    for (name, ..) in SAMPLE_FOOS {
        describe(server, name)?;
    }

    let (name, deployment_name, before) = SAMPLE_FOOS[0];
    println!("patching Foo {NAMESPACE}/{name}: spec.replicas {before} → 3");
    server.patch_merge(
        FOOS,
        Some(NAMESPACE),
        name,
        json!({"spec": {"replicas": 3}}),
    )?;
    wait_until("the Deployment to follow the Foo", || {
        deployment(server, deployment_name).is_ok_and(|d| replicas(&d) == Some(3))
    })
    .await?;
    println!("  Deployment {deployment_name} now asks for 3 replicas");

    println!(
        "the embedded server runs no Deployment controller, so every Deployment reports 0 available replicas;\n\
         standing in for kube-controller-manager, the demo writes Deployment {deployment_name}'s status: 3 available"
    );
    server.update_status(
        DEPLOYMENTS,
        Some(NAMESPACE),
        json!({
            "metadata": {"name": deployment_name},
            "status": {"replicas": 3, "readyReplicas": 3, "availableReplicas": 3},
        }),
    )?;
    wait_until("the Foo's status to follow its Deployment", || {
        foo(server, name).is_ok_and(|f| available(&f) == Some(3))
    })
    .await?;
    println!("  Foo {NAMESPACE}/{name} status.availableReplicas is now 3 (the Deployment's event queued its owner)");

    cancel.cancel();
    running.await??;
    let stats = queue.stats();
    println!(
        "summary: {} Foos, {} Deployments, each controlled by its Foo; one spec change and one status change propagated; \
         the work queue took {} adds and {} retries. No Pods ran: the embedded server only stores objects.",
        server.count(FOOS),
        server.count(DEPLOYMENTS),
        stats.adds,
        stats.retries
    );
    println!("controller stopped and the Lease released");
    println!(
        "against a cluster: point KUBECONFIG at it, kubectl apply -f examples/sample-controller/crd/foo.yaml, and run this again"
    );
    Ok(())
}

/// `--shards`: `replicas` replicas of the sharded controller in this process split the
/// Foos over a shard ring of Leases, each reconciling the Foos whose uid is in its share.
pub async fn run_sharded(client: Client, server: &RunningServer, replicas: usize) -> Result<()> {
    for i in 0..SHARDED_FOOS {
        server.create(
            FOOS,
            Some(NAMESPACE),
            json!({
                "apiVersion": "samplecontroller.k8s.io/v1alpha1",
                "kind": "Foo",
                "metadata": {"name": format!("shard-foo-{i}")},
                "spec": {"deploymentName": format!("shard-app-{i}"), "replicas": 1},
            }),
        )?;
    }
    let names: Vec<String> = SAMPLE_FOOS
        .iter()
        .map(|(name, ..)| (*name).to_owned())
        .chain((0..SHARDED_FOOS).map(|i| format!("shard-foo-{i}")))
        .collect();
    // Shorter than the defaults (15 s / 10 s / 2 s) so the demo takes seconds; the same rules.
    let config = ShardRingConfig {
        lease_duration: Duration::from_secs(4),
        renew_deadline: Duration::from_secs(3),
        retry_period: Duration::from_millis(500),
        ..ShardRingConfig::default()
    };
    println!(
        "embedded server: the Foo CRD installed and {} Foos in namespace {NAMESPACE}; starting {replicas} replicas \
         of the sharded controller (shard ring sample-controller over Leases in {NAMESPACE}, lease {:?}, retry {:?})",
        names.len(),
        config.lease_duration,
        config.retry_period
    );
    let cancel = CancellationToken::new();
    let mut running = Vec::new();
    let mut shares = Vec::new();
    for r in 0..replicas {
        let ring = ShardRing::new(
            client.clone(),
            NAMESPACE,
            "sample-controller",
            format!("replica-{r}"),
            config.clone(),
        )?;
        shares.push((ring.identity().to_owned(), ring.subscribe()));
        let controller = SampleController::sharded(client.clone(), WorkQueue::new(), &ring);
        running.push(tokio::spawn(controller.run_sharded(ring, cancel.clone())));
    }
    wait_until("every Foo to have its Deployment and status", || {
        names.iter().all(|n| converged(server, n).unwrap_or(false))
    })
    .await?;
    println!("every Foo has its Deployment and status; each replica's share and the Foos in it:");
    let uids: Vec<(String, String)> = names
        .iter()
        .map(|n| Ok((n.clone(), foo(server, n)?.metadata.uid.unwrap_or_default())))
        .collect::<Result<_>>()?;
    for (id, share) in &shares {
        let share: Shards = share.borrow().clone();
        let mine: Vec<&str> = uids
            .iter()
            .filter(|(_, uid)| share.contains(uid))
            .map(|(n, _)| n.as_str())
            .collect();
        println!(
            "  {id}: {:.0}% of the hash space ({} of {} buckets), {} Foos: {}",
            share.fraction() * 100.0,
            share.owned().len(),
            share.buckets(),
            mine.len(),
            mine.join(", ")
        );
    }
    cancel.cancel();
    for r in running {
        r.await??;
    }
    println!(
        "summary: {} Foos, {} Deployments, split among {replicas} replicas; the replicas stopped and deleted their Leases",
        server.count(FOOS),
        server.count(DEPLOYMENTS),
    );
    println!(
        "against a cluster: run several replicas with --shards; each joins the ring and reconciles its share"
    );
    Ok(())
}

fn foo(server: &RunningServer, name: &str) -> Result<Foo> {
    Ok(serde_json::from_value(server.get(
        FOOS,
        Some(NAMESPACE),
        name,
    )?)?)
}

fn deployment(server: &RunningServer, name: &str) -> Result<Deployment> {
    Ok(serde_json::from_value(server.get(
        DEPLOYMENTS,
        Some(NAMESPACE),
        name,
    )?)?)
}

fn replicas(deployment: &Deployment) -> Option<i32> {
    deployment.spec.replicas
}

fn available(foo: &Foo) -> Option<i32> {
    foo.status.as_ref().and_then(|s| s.available_replicas)
}

fn deployment_name(foo: &Foo) -> &str {
    foo.spec
        .as_ref()
        .and_then(|s| s.deployment_name.as_deref())
        .unwrap_or_default()
}

/// Whether the Foo `name` has a Deployment it controls with its replicas, and a status.
fn converged(server: &RunningServer, name: &str) -> Result<bool> {
    let foo = foo(server, name)?;
    let deployment = deployment(server, deployment_name(&foo))?;
    Ok(is_controlled_by(&deployment.metadata, &foo)
        && replicas(&deployment) == foo.spec.as_ref().and_then(|s| s.replicas)
        && available(&foo).is_some())
}

fn describe(server: &RunningServer, name: &str) -> Result<()> {
    let foo = foo(server, name)?;
    let deployment = deployment(server, deployment_name(&foo))?;
    let owner = deployment
        .metadata
        .owner_references
        .iter()
        .flatten()
        .find(|r| r.controller == Some(true))
        .map(|r| format!("{} {} (uid {})", r.kind, r.name, r.uid))
        .unwrap_or_default();
    println!(
        "  Foo {NAMESPACE}/{name} → Deployment {}: replicas {}, controller {owner}; Foo status.availableReplicas = {}",
        deployment_name(&foo),
        replicas(&deployment).unwrap_or_default(),
        available(&foo).unwrap_or_default()
    );
    Ok(())
}

/// Polls `done` every 20 ms until it holds; fails naming `what` after [`STEP_TIMEOUT`].
async fn wait_until(what: &str, done: impl Fn() -> bool) -> Result<()> {
    let deadline = tokio::time::Instant::now() + STEP_TIMEOUT;
    while !done() {
        if tokio::time::Instant::now() >= deadline {
            return Err(format!("timed out after {STEP_TIMEOUT:?} waiting for {what}").into());
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    Ok(())
}
