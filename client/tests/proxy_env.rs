//! `HTTP_PROXY`/`NO_PROXY` from the environment, read as kubectl reads them. One test in its
//! own binary: the environment is process-wide.

mod api_support;

use std::time::Duration;

use api_support::{config_map_json, Answer, Proxy, Recorder};
use informer_client::api::Api;
use informer_client::client::{Client, Config};
use k8s_openapi::api::core::v1::ConfigMap;

fn client(url: &str) -> Client {
    let mut config = Config::new(url);
    config.connect_timeout = Duration::from_secs(3);
    Client::new(config).unwrap()
}

async fn get(url: &str) -> Result<ConfigMap, informer_client::Error> {
    Api::<ConfigMap>::namespaced(client(url), "team")
        .get("c")
        .await
}

#[tokio::test]
async fn environment_proxies_with_no_proxy_and_loopback_exemption() {
    let server = Recorder::start(|_| Answer::json(200, config_map_json("c"))).await;
    let proxy = Proxy::start(server.addr).await;
    let port = server.addr.port();
    std::env::set_var("HTTP_PROXY", &proxy.url);
    std::env::set_var("NO_PROXY", "skipped.test");

    get(&format!("http://apiserver.test:{port}")).await.unwrap();
    assert_eq!(
        proxy.heads(),
        vec![format!(
            "GET http://apiserver.test:{port}/api/v1/namespaces/team/configmaps/c"
        )]
    );

    // Loopback is never proxied, whatever NO_PROXY says.
    get(&format!("http://127.0.0.1:{port}")).await.unwrap();
    assert_eq!(proxy.heads().len(), 1);

    // NO_PROXY hosts are reached directly (this one resolves nowhere, so it fails).
    assert!(get(&format!("http://skipped.test:{port}")).await.is_err());
    assert_eq!(proxy.heads().len(), 1);
    assert_eq!(server.requests().len(), 2);
}
