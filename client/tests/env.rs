//! Configuration from the environment: `KUBECONFIG` with two merged files, the
//! in-cluster service account, and `Config::infer`'s fallback order. One test, since
//! environment variables are process-wide.

use scripted_server as support;

use std::time::Duration;

use base64::Engine as _;
use informer_client::client::{Config, KubeConfigOptions};
use informer_client::request::RequestBuilder;
use informer_client::{Client, ListOptions};
use k8s_openapi::api::core::v1::Pod;
use support::{pod_list, Pki, Reply, Server};

async fn list(client: &Client) {
    tokio::time::timeout(
        Duration::from_secs(30),
        client.request_list::<Pod>(
            RequestBuilder::of::<Pod>(None)
                .list(&ListOptions::default())
                .unwrap(),
        ),
    )
    .await
    .expect("test hung")
    .unwrap();
}

#[tokio::test]
async fn kubeconfig_list_in_cluster_and_infer() {
    let pki = Pki::new();
    let server = Server::start(Some(pki.server_tls(false)), |_| {
        Reply::json(200, pod_list(&["a"], "1", None))
    })
    .await;
    let dir = tempfile::tempdir().unwrap();
    let ca = base64::engine::general_purpose::STANDARD.encode(&pki.ca_pem);
    let first = dir.path().join("first");
    let second = dir.path().join("second");
    std::fs::write(
        &first,
        format!(
            "current-context: main\nclusters:\n- name: c\n  cluster: {{ server: \"{}\", certificate-authority-data: {ca} }}\ncontexts:\n- name: main\n  context: {{ cluster: c, user: u, namespace: first-ns }}\n",
            server.url
        ),
    )
    .unwrap();
    std::fs::write(
        &second,
        "current-context: ignored\nclusters:\n- name: c\n  cluster: { server: \"https://shadowed.invalid\" }\nusers:\n- name: u\n  user: { token: from-second }\n",
    )
    .unwrap();
    let missing = dir.path().join("missing");
    let list_var = std::env::join_paths([&first, &missing, &second]).unwrap();
    std::env::set_var("KUBECONFIG", &list_var);
    let config = Config::from_kubeconfig(&KubeConfigOptions::default()).unwrap();
    assert_eq!(config.default_namespace, "first-ns");
    let client = Client::try_default().await.unwrap();
    list(&client).await;
    assert_eq!(
        server.seen().last().unwrap().authorization.as_deref(),
        Some("Bearer from-second")
    );

    // In-cluster: service host/port from the environment, files from the service-account dir.
    let sa = dir.path().join("sa");
    std::fs::create_dir(&sa).unwrap();
    std::fs::write(sa.join("ca.crt"), &pki.ca_pem).unwrap();
    std::fs::write(sa.join("token"), "sa-token-1").unwrap();
    std::fs::write(sa.join("namespace"), "kube-system\n").unwrap();
    let port = server.url.rsplit(':').next().unwrap().to_owned();
    std::env::set_var("KUBERNETES_SERVICE_HOST", "127.0.0.1");
    std::env::set_var("KUBERNETES_SERVICE_PORT", &port);
    let config = Config::incluster_from_dir(&sa).unwrap();
    assert_eq!(config.cluster_url, format!("https://127.0.0.1:{port}"));
    let client = Client::new(config).unwrap();
    assert_eq!(client.default_namespace(), "kube-system");
    list(&client).await;
    assert_eq!(
        server.seen().last().unwrap().authorization.as_deref(),
        Some("Bearer sa-token-1")
    );
    std::fs::write(sa.join("token"), "sa-token-rotated").unwrap();
    list(&client).await;
    assert_eq!(
        server.seen().last().unwrap().authorization.as_deref(),
        Some("Bearer sa-token-rotated")
    );

    // Without a kubeconfig, infer() falls back to the in-cluster config (whose default
    // files do not exist here, so the error names them).
    std::env::remove_var("KUBECONFIG");
    std::env::set_var("HOME", dir.path());
    let err = Config::infer().unwrap_err().to_string();
    assert!(
        err.contains("in-cluster config") && err.contains("/var/run/secrets"),
        "{err}"
    );
    std::env::remove_var("KUBERNETES_SERVICE_HOST");
    let err = Config::infer().unwrap_err().to_string();
    assert!(err.contains("no kubeconfig"), "{err}");

    std::env::set_var("KUBECONFIG", &missing);
    let err = Config::infer().unwrap_err().to_string();
    assert!(err.contains("none of these files exists"), "{err}");
}
