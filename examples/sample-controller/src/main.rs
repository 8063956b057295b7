//! `cargo run -p sample-controller`: with a kubeconfig (or in a cluster) it runs the Foo
//! controller against that cluster, under leader election, until Ctrl-C. With none it
//! starts the embedded test API server with sample Foos, says so, shows the controller at
//! work and exits (see `embedded.rs`). `--embedded` forces the embedded server.
//!
//! `--shards [N]`: sharded instead of leader-elected. Against a cluster this process is one
//! replica of the ring `sample-controller` (run N of them, e.g. a Deployment's replicas):
//! each reconciles the Foos whose uid falls in its share, over Leases in the default
//! namespace. Against the embedded server, N replicas (3 by default) run in this process
//! and split the sample Foos.

mod embedded;

use std::io::IsTerminal;
use std::process::ExitCode;

use kube_informers::controller::sharding::{ShardRing, ShardRingConfig, RING_LABEL};
use kube_informers::leader_election::{LeaderElectionConfig, LeaseLock};
use kube_informers::{Client, WorkQueue};
use sample_controller::{check_foos_served, identity, run_leader_elected, SampleController};
use test_apiserver::{ResourceSpec, TestApiServer, TestEnv};
use tokio_util::sync::CancellationToken;

/// The Lease the replicas of this controller compete for, in the client's default
/// namespace (the kubeconfig context's, or the Pod's service account's).
const LEASE_NAME: &str = "sample-controller";

#[tokio::main]
async fn main() -> ExitCode {
    tracing_subscriber::fmt()
        .with_env_filter(
            tracing_subscriber::EnvFilter::try_from_default_env().unwrap_or_else(|_| {
                tracing_subscriber::EnvFilter::new("warn,sample_controller=info")
            }),
        )
        .with_writer(std::io::stderr)
        // Escape codes only where a terminal turns them into colour, not into a piped log.
        .with_ansi(std::io::stderr().is_terminal())
        .init();
    match run().await {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::FAILURE
        }
    }
}

/// `--shards` and the replica count after it, if any.
fn shards_flag() -> Result<Option<usize>, String> {
    let args: Vec<String> = std::env::args().collect();
    let Some(at) = args.iter().position(|a| a == "--shards") else {
        return Ok(None);
    };
    match args.get(at + 1).filter(|a| !a.starts_with("--")) {
        None => Ok(Some(embedded::DEFAULT_REPLICAS)),
        Some(n) => match n.parse::<usize>() {
            Ok(n) if (1..=16).contains(&n) => Ok(Some(n)),
            _ => Err(format!(
                "--shards takes a replica count from 1 to 16 (for the embedded server), not {n:?}"
            )),
        },
    }
}

async fn run() -> Result<(), Box<dyn std::error::Error>> {
    let force_embedded = std::env::args().any(|a| a == "--embedded");
    let shards = shards_flag()?;
    // The configured cluster, else the embedded server with the Foo CRD (the file this
    // crate ships, so the embedded server validates Foos as a cluster would) and sample Foos.
    let (client, embedded) = TestEnv::builder()
        .server(
            TestApiServer::builder()
                .crd(include_str!("../crd/foo.yaml"))
                // Where the controller records its Events (not built into the test server).
                .resource(ResourceSpec::new(
                    "events.k8s.io",
                    "v1",
                    "Event",
                    "events",
                    true,
                )),
        )
        .objects_yaml("the sample Foos", embedded::sample_foos())
        .prefer_embedded(force_embedded)
        .client_or_embedded()
        .await?;
    match (embedded.server(), shards) {
        (Some(server), None) => embedded::run(client, server).await?,
        (Some(server), Some(replicas)) => embedded::run_sharded(client, server, replicas).await?,
        (None, None) => run_in_cluster(client).await?,
        (None, Some(_)) => run_sharded_in_cluster(client).await?,
    }
    embedded.shutdown().await;
    Ok(())
}

/// Runs against a real cluster until Ctrl-C. Writes nothing but what the controller
/// writes: Deployments, Foo status, and its Lease.
async fn run_in_cluster(client: Client) -> Result<(), Box<dyn std::error::Error>> {
    check_foos_served(&client).await?;
    let namespace = client.default_namespace().to_owned();
    let lock = LeaseLock::new(client.clone(), &namespace, LEASE_NAME, identity());
    println!(
        "running as {}; only the holder of lease {namespace}/{LEASE_NAME} reconciles; Ctrl-C stops",
        lock.identity()
    );
    let cancel = stop_on_ctrl_c("the Lease");
    let controller = SampleController::new(client);
    run_leader_elected(controller, lock, LeaderElectionConfig::default(), cancel).await?;
    println!("stopped; the Lease is released");
    Ok(())
}

/// Runs as one replica of the sharded controller against a real cluster until Ctrl-C.
async fn run_sharded_in_cluster(client: Client) -> Result<(), Box<dyn std::error::Error>> {
    check_foos_served(&client).await?;
    let namespace = client.default_namespace().to_owned();
    let ring = ShardRing::new(
        client.clone(),
        &namespace,
        LEASE_NAME,
        identity(),
        ShardRingConfig::default(),
    )?;
    println!(
        "running as {}, one replica of shard ring {LEASE_NAME} (Leases in {namespace} labelled {RING_LABEL}={LEASE_NAME}); \
         it reconciles the Foos whose uid falls in its share; Ctrl-C stops",
        ring.identity()
    );
    let cancel = stop_on_ctrl_c("this replica's Lease");
    let controller = SampleController::sharded(client, WorkQueue::new(), &ring);
    controller.run_sharded(ring, cancel).await?;
    println!("stopped; this replica's share is handed over");
    Ok(())
}

/// A token cancelled on Ctrl-C, so `what` is released on the way out.
fn stop_on_ctrl_c(what: &'static str) -> CancellationToken {
    let cancel = CancellationToken::new();
    tokio::spawn({
        let cancel = cancel.clone();
        async move {
            match tokio::signal::ctrl_c().await {
                Ok(()) => {
                    println!("interrupted; stopping");
                    cancel.cancel();
                }
                Err(e) => eprintln!(
                    "cannot listen for Ctrl-C ({e}): it will end the process without releasing {what}"
                ),
            }
        }
    });
    cancel
}
