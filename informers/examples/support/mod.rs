//! What the examples share: a client for the kubeconfig's cluster, else for an embedded test
//! API server.

use informer_runtime::client::Config;
use informer_runtime::Client;
use test_apiserver::{RunningServer, TestApiServer};

/// The kubeconfig's cluster, else an embedded test API server (kept running by the caller).
pub async fn connect() -> Result<(Client, Option<RunningServer>), Box<dyn std::error::Error>> {
    match Config::infer() {
        Ok(config) => {
            println!("using the cluster at {}", config.cluster_url);
            Ok((Client::new(config)?, None))
        }
        Err(e) => {
            println!("no cluster configured ({e}); using an embedded test API server with 50 sample pods");
            let server = TestApiServer::builder()
                .seed_pods(50)
                .seed_namespaces(5)
                .start()
                .await?;
            let client = Client::new(Config::new(server.url()))?;
            Ok((client, Some(server)))
        }
    }
}
