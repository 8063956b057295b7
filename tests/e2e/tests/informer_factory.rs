//! The factory core against the test API server with bearer-token auth: `wait_for_cache_sync`
//! names the informer that cannot sync and the server's reason (403 forbidden, 404 unknown
//! resource) instead of hanging, and `shutdown()` stops every informer.

mod common;

use std::time::Duration;

use informer_runtime::client::{AuthConfig, Config, KubeConfigOptions};
use informer_runtime::failure::{CertificateProblem, FailureKind};
use informer_runtime::{typed, Client, SharedInformerFactoryCore};
use k8s_openapi::api::core::v1::{ConfigMap, Pod};
use k8s_openapi::api::storage::v1::CSIDriver;
use test_apiserver::TestApiServer;

async fn factory(token: &str) -> (test_apiserver::RunningServer, SharedInformerFactoryCore) {
    let server = TestApiServer::builder()
        .seed_pods(20)
        .token("admin")
        .token_with_access("pods-only", &["pods"])
        .start()
        .await
        .unwrap();
    let mut config = Config::new(server.url());
    config.auth = AuthConfig::Token(token.to_owned());
    let client = Client::new(config).unwrap();
    (
        server,
        SharedInformerFactoryCore::new(client, Default::default()),
    )
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn forbidden_resource_is_named_by_wait_for_cache_sync() {
    let (server, core) = factory("pods-only").await;
    let pods = core.informer_for(typed::<Pod>());
    core.informer_for(typed::<ConfigMap>());
    core.start();
    let err = tokio::time::timeout(Duration::from_secs(60), core.wait_for_cache_sync())
        .await
        .expect("wait_for_cache_sync hung")
        .unwrap_err();
    assert_eq!(err.informer, "core/v1/configmaps");
    assert_eq!(err.status_code(), Some(403), "{err}");
    assert_eq!(
        err.failure().and_then(|f| f.reason.as_deref()),
        Some("Forbidden")
    );
    assert!(err.to_string().contains("403"), "{err}");
    assert!(
        err.to_string().to_lowercase().contains("forbidden"),
        "{err}"
    );
    tokio::time::timeout(Duration::from_secs(30), pods.wait_for_sync())
        .await
        .unwrap()
        .unwrap();
    assert_eq!(pods.indexer().len(), 20);
    tokio::time::timeout(Duration::from_secs(30), core.shutdown())
        .await
        .expect("shutdown hung");
    assert!(pods.is_stopped());
    drop(server);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn unknown_resource_and_bad_token_are_named() {
    let (server, core) = factory("admin").await;
    core.informer_for(typed::<Pod>());
    core.start();
    core.wait_for_cache_sync_timeout(Duration::from_secs(60))
        .await
        .unwrap();
    // Requested after start: starts at once; the server does not serve CSIDrivers.
    core.informer_for(typed::<CSIDriver>());
    let err = core
        .wait_for_cache_sync_timeout(Duration::from_secs(60))
        .await
        .unwrap_err();
    assert_eq!(err.informer, "storage.k8s.io/v1/csidrivers");
    assert_eq!(err.status_code(), Some(404), "{err}");
    assert!(err.to_string().contains("404"), "{err}");
    core.shutdown().await;

    let mut config = Config::new(server.url());
    config.auth = AuthConfig::Token("wrong".into());
    let core = SharedInformerFactoryCore::new(Client::new(config).unwrap(), Default::default());
    core.informer_for(typed::<Pod>());
    core.start();
    let err = core
        .wait_for_cache_sync_timeout(Duration::from_secs(60))
        .await
        .unwrap_err();
    assert_eq!(err.informer, "core/v1/pods");
    assert_eq!(err.status_code(), Some(401), "{err}");
    assert!(err.to_string().contains("401"), "{err}");
    core.shutdown().await;
}

/// A kubeconfig file for `server` trusting `ca_from`'s CA instead of its own.
fn kubeconfig_with_ca_of(
    server: &test_apiserver::RunningServer,
    ca_from: &test_apiserver::RunningServer,
    name: &str,
) -> std::path::PathBuf {
    let own = server.kubeconfig_yaml();
    let theirs = ca_from.kubeconfig_yaml();
    let ca_line = |yaml: &str| {
        yaml.lines()
            .find(|l| l.contains("certificate-authority-data"))
            .expect("a TLS server's kubeconfig names its CA")
            .to_owned()
    };
    let path = std::env::temp_dir().join(format!("e2e-{name}-{}.kubeconfig", std::process::id()));
    std::fs::write(&path, own.replace(&ca_line(&own), &ca_line(&theirs))).unwrap();
    path
}

async fn sync_error_of(config: Config) -> informer_runtime::SyncError {
    let core = SharedInformerFactoryCore::new(Client::new(config).unwrap(), Default::default());
    core.informer_for(typed::<Pod>());
    core.start();
    // No timeout of our own: the wait must end by itself with the configuration error.
    let err = tokio::time::timeout(Duration::from_secs(60), core.wait_for_cache_sync())
        .await
        .expect("wait_for_cache_sync waited on a configuration error")
        .unwrap_err();
    core.shutdown().await;
    err
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn certificate_and_credential_failures_end_the_wait() {
    let server = TestApiServer::builder()
        .tls(true)
        .seed_pods(3)
        .start()
        .await
        .unwrap();
    let other = TestApiServer::builder().tls(true).start().await.unwrap();

    // The kubeconfig trusts another server's CA: unknown issuer.
    let path = kubeconfig_with_ca_of(&server, &other, "wrong-ca");
    let config = Config::from_kubeconfig_file(&path, &KubeConfigOptions::default()).unwrap();
    let err = sync_error_of(config).await;
    std::fs::remove_file(&path).unwrap();
    assert_eq!(err.informer, "core/v1/pods");
    let failure = err.failure().expect("a terminal failure");
    assert_eq!(
        failure.kind,
        FailureKind::Certificate(CertificateProblem::UnknownIssuer),
        "{err}"
    );
    assert!(failure.terminal);

    // The right CA, but the certificate is not for the name the client expects.
    let path = kubeconfig_with_ca_of(&server, &server, "wrong-name");
    let mut config = Config::from_kubeconfig_file(&path, &KubeConfigOptions::default()).unwrap();
    std::fs::remove_file(&path).unwrap();
    config.tls_server_name = Some("not-the-apiserver.invalid".into());
    let err = sync_error_of(config).await;
    assert_eq!(
        err.failure().map(|f| &f.kind),
        Some(&FailureKind::Certificate(CertificateProblem::WrongName)),
        "{err}"
    );

    // A token file that cannot be read.
    let plain = TestApiServer::builder()
        .token("admin")
        .start()
        .await
        .unwrap();
    let mut config = Config::new(plain.url());
    config.auth = AuthConfig::TokenFile(std::env::temp_dir().join("e2e-no-such-token-file"));
    let err = sync_error_of(config).await;
    assert_eq!(
        err.failure().map(|f| &f.kind),
        Some(&FailureKind::Configuration),
        "{err}"
    );
    assert!(err.to_string().contains("e2e-no-such-token-file"), "{err}");

    // The same configuration against a server that works syncs (the checks above are not
    // failing for some other reason).
    let path = kubeconfig_with_ca_of(&server, &server, "right-ca");
    let config = Config::from_kubeconfig_file(&path, &KubeConfigOptions::default()).unwrap();
    std::fs::remove_file(&path).unwrap();
    let core = SharedInformerFactoryCore::new(Client::new(config).unwrap(), Default::default());
    let pods = core.informer_for(typed::<Pod>());
    core.start();
    core.wait_for_cache_sync_timeout(Duration::from_secs(60))
        .await
        .unwrap();
    assert_eq!(pods.indexer().len(), 3);
    core.shutdown().await;
}
