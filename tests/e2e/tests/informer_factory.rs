//! The factory core against the test API server with bearer-token auth: `wait_for_cache_sync`
//! names the informer that cannot sync and the server's reason (403 forbidden, 404 unknown
//! resource) instead of hanging, and `shutdown()` stops every informer.

mod common;

use std::time::Duration;

use informer_runtime::client::{AuthConfig, Config};
use informer_runtime::lister_watcher::ListWatch;
use informer_runtime::{
    Client, Indexers, ListOptions, SharedIndexInformer, SharedInformerFactoryCore,
};
use k8s_openapi::api::core::v1::{ConfigMap, Pod};
use k8s_openapi::api::storage::v1::CSIDriver;
use k8s_openapi::apimachinery::pkg::apis::meta::v1::ObjectMeta;
use test_apiserver::TestApiServer;

fn new_informer<K>(core: &SharedInformerFactoryCore) -> SharedIndexInformer<K>
where
    K: k8s_openapi::ListableResource
        + k8s_openapi::Metadata<Ty = ObjectMeta>
        + serde::de::DeserializeOwned
        + serde::Serialize
        + Send
        + Sync
        + 'static,
{
    let (c1, c2) = (core.client().clone(), core.client().clone());
    let lw = ListWatch::new(
        move |o: ListOptions| c1.list::<K>(None, &o),
        move |o: ListOptions| c2.watch::<K>(None, &o),
    );
    SharedIndexInformer::new(lw, core.resync_for::<K>(), Indexers::namespace())
}

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
    let pods = core.informer_for::<Pod>("core/v1/pods", new_informer::<Pod>);
    core.informer_for::<ConfigMap>("core/v1/configmaps", new_informer::<ConfigMap>);
    core.start();
    let err = tokio::time::timeout(Duration::from_secs(60), core.wait_for_cache_sync())
        .await
        .expect("wait_for_cache_sync hung")
        .unwrap_err();
    assert_eq!(err.informer, "core/v1/configmaps");
    assert!(err.reason.contains("403"), "{err}");
    assert!(err.reason.to_lowercase().contains("forbidden"), "{err}");
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
    core.informer_for::<Pod>("core/v1/pods", new_informer::<Pod>);
    core.start();
    core.wait_for_cache_sync_timeout(Duration::from_secs(60))
        .await
        .unwrap();
    // Requested after start: starts at once; the server does not serve CSIDrivers.
    core.informer_for::<CSIDriver>("storage.k8s.io/v1/csidrivers", new_informer::<CSIDriver>);
    let err = core
        .wait_for_cache_sync_timeout(Duration::from_secs(60))
        .await
        .unwrap_err();
    assert_eq!(err.informer, "storage.k8s.io/v1/csidrivers");
    assert!(err.reason.contains("404"), "{err}");
    core.shutdown().await;

    let mut config = Config::new(server.url());
    config.auth = AuthConfig::Token("wrong".into());
    let core = SharedInformerFactoryCore::new(Client::new(config).unwrap(), Default::default());
    core.informer_for::<Pod>("core/v1/pods", new_informer::<Pod>);
    core.start();
    let err = core
        .wait_for_cache_sync_timeout(Duration::from_secs(60))
        .await
        .unwrap_err();
    assert_eq!(err.informer, "core/v1/pods");
    assert!(err.reason.contains("401"), "{err}");
    core.shutdown().await;
}
