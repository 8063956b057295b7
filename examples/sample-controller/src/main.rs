//! `cargo run -p sample-controller`: with a kubeconfig (or in a cluster) it runs the Foo
//! controller against that cluster, under leader election, until Ctrl-C. With none it
//! starts the embedded test API server with sample Foos, says so, shows the controller at
//! work and exits (see `embedded.rs`). `--embedded` forces the embedded server.

mod embedded;

use std::io::IsTerminal;
use std::process::ExitCode;

use kube_informers::leader_election::{LeaderElectionConfig, LeaseLock};
use kube_informers::Client;
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

async fn run() -> Result<(), Box<dyn std::error::Error>> {
    let force_embedded = std::env::args().any(|a| a == "--embedded");
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
    match embedded.server() {
        Some(server) => embedded::run(client, server).await?,
        None => run_in_cluster(client).await?,
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
                    "cannot listen for Ctrl-C ({e}): it will end the process without releasing the Lease"
                ),
            }
        }
    });
    let controller = SampleController::new(client);
    run_leader_elected(controller, lock, LeaderElectionConfig::default(), cancel).await?;
    println!("stopped; the Lease is released");
    Ok(())
}
