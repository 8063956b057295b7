//! The factory core over real loopback HTTP with the real client: one informer per type,
//! informers requested after `start()` start at once, `wait_for_cache_sync` names the
//! informer that cannot sync, the factory transform composes with a per-informer one, and
//! `shutdown()` stops everything.

use scripted_server as support;

use std::sync::{Arc, Mutex};
use std::time::Duration;

use informer_runtime::client::Config;
use informer_runtime::{
    typed, ApiResource, CacheMode, Client, Collection, FactoryBuilder, SharedInformerFactoryCore,
    SyncErrorKind,
};
use k8s_openapi::api::core::v1::{ConfigMap, Pod};
use support::{status, Reply, Seen, Server};

struct Factory(SharedInformerFactoryCore);

impl From<SharedInformerFactoryCore> for Factory {
    fn from(core: SharedInformerFactoryCore) -> Self {
        Self(core)
    }
}

/// A source of Pods keyed (and named) apart from the typed one, as a dynamic resource is.
fn keyed(plural: &str) -> Collection<Pod> {
    Collection::new(ApiResource::new("", "v1", "Pod", plural, true))
}

fn serve(seen: &Seen) -> Reply {
    let watch = seen.query.contains("watch=1");
    if seen.path.ends_with("/configmaps") {
        return Reply::json(
            404,
            status(
                404,
                "NotFound",
                "the server could not find the requested resource",
            ),
        );
    }
    if watch {
        let mut r = Reply::chunks(
            200,
            vec![b"{\"type\":\"BOOKMARK\",\"object\":{\"kind\":\"Pod\",\"apiVersion\":\"v1\",\"metadata\":{\"resourceVersion\":\"9\"}}}\n".to_vec()],
        );
        r.pause = Duration::from_secs(5);
        return r;
    }
    Reply::json(
        200,
        r#"{"kind":"PodList","apiVersion":"v1","metadata":{"resourceVersion":"9"},"items":[{"metadata":{"name":"web-0","namespace":"shop","resourceVersion":"9","labels":{"tier":"web"},"managedFields":[{"manager":"kubectl"}]}}]}"#,
    )
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn factory_syncs_names_failures_composes_transforms_and_shuts_down() {
    let server = Server::start(None, serve).await;
    let client = Client::new(Config::new(&server.url)).unwrap();
    let Factory(core) = FactoryBuilder::<Factory>::new(client)
        .namespace("shop")
        .tweak_list_options(|o| o.label_selector = Some("tier=web".into()))
        .resync_for::<ConfigMap>(Duration::from_secs(60))
        .metadata_transform(|meta| meta.managed_fields = None)
        .build();
    assert_eq!(core.resync_for::<ConfigMap>(), Duration::from_secs(60));
    assert_eq!(core.resync_for::<Pod>(), Duration::ZERO);

    let pods = core.informer_for_with(typed::<Pod>(), |o| {
        o.transform(|mut p: Pod| {
            p.metadata
                .annotations
                .get_or_insert_with(Default::default)
                .insert("seen-by".into(), "test".into());
            p
        })
    });
    let again = core.informer_for_with(typed::<Pod>(), |_| unreachable!("made twice"));
    assert_eq!(pods.name(), again.name());

    core.start();
    core.start();
    tokio::time::timeout(Duration::from_secs(30), core.wait_for_cache_sync())
        .await
        .expect("sync hung")
        .unwrap();
    let web0 = pods.indexer().get_by_key("shop/web-0").unwrap();
    assert!(
        web0.metadata.managed_fields.is_none(),
        "factory transform ran"
    );
    assert_eq!(
        web0.metadata.annotations.as_ref().unwrap()["seen-by"],
        "test",
        "informer transform ran too"
    );
    let queries: Vec<String> = server.seen().iter().map(|s| s.query.clone()).collect();
    assert!(server
        .seen()
        .iter()
        .all(|s| s.path == "/api/v1/namespaces/shop/pods"));
    assert!(
        queries
            .iter()
            .all(|q| q.contains("labelSelector=tier%3Dweb")),
        "{queries:?}"
    );

    // Requested after start: starts at once, and its 404 is reported by name.
    let cms = core.informer_for(typed::<ConfigMap>());
    let err = tokio::time::timeout(Duration::from_secs(30), core.wait_for_cache_sync())
        .await
        .expect("sync hung")
        .unwrap_err();
    assert_eq!(err.informer, "core/v1/configmaps");
    assert_eq!(err.status_code(), Some(404), "{err}");
    assert!(err.to_string().contains("404"), "{err}");
    assert!(cms.is_started());

    tokio::time::timeout(Duration::from_secs(30), core.shutdown())
        .await
        .expect("shutdown hung");
    assert!(pods.is_stopped() && cms.is_stopped());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn wait_with_timeout_names_the_informers_still_syncing() {
    let server = Server::start(None, |_| {
        Reply::json(503, status(503, "ServiceUnavailable", "etcd is down"))
    })
    .await;
    let client = Client::new(Config::new(&server.url)).unwrap();
    let core = SharedInformerFactoryCore::new(client, Default::default());
    core.informer_for(typed::<Pod>());
    // Keyed informers of the same type are distinct from each other and from the typed one.
    let a = core.informer_for_with(keyed("gvr-a"), |o| o.name("a"));
    let b = core.informer_for_with(keyed("gvr-b"), |o| o.name("b"));
    let a2 = core.informer_for_with(keyed("gvr-a"), |_| unreachable!("made twice"));
    assert_eq!(
        (a.name(), b.name(), a2.name()),
        ("a".into(), "b".into(), "a".into())
    );
    core.start();
    let err = core
        .wait_for_cache_sync_timeout(Duration::from_millis(300))
        .await
        .unwrap_err();
    assert_eq!(err.informer, "a, b, core/v1/pods");
    let text = err.to_string();
    assert!(text.contains("not synced"), "{text}");
    // Each informer is named with its last failure: the server's 503.
    let SyncErrorKind::Timeout { pending, .. } = &err.kind else {
        panic!("not a timeout: {err}");
    };
    let names: Vec<&str> = pending.iter().map(|p| p.informer.as_str()).collect();
    assert_eq!(names, ["a", "b", "core/v1/pods"]);
    for p in pending {
        let failure = p.last_failure.as_ref().expect("no failure recorded");
        assert_eq!(failure.code, Some(503), "{text}");
        assert!(!failure.terminal);
    }
    assert_eq!(text.matches("etcd is down").count(), 3, "{text}");
    core.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn managed_fields_are_dropped_before_transforms_unless_kept() {
    let server = Server::start(None, serve).await;
    for keep in [false, true] {
        let client = Client::new(Config::new(&server.url)).unwrap();
        let builder = FactoryBuilder::<Factory>::new(client).namespace("shop");
        let builder = if keep {
            builder.keep_managed_fields()
        } else {
            builder
        };
        // What the factory transform and the informer's own transform see.
        let seen_by_factory = Arc::new(Mutex::new(Vec::new()));
        let seen_by_informer = Arc::new(Mutex::new(Vec::new()));
        let f = seen_by_factory.clone();
        let Factory(core) = builder
            .metadata_transform(move |meta| f.lock().unwrap().push(meta.managed_fields.is_some()))
            .build();
        let i = seen_by_informer.clone();
        let pods = core.informer_for_with(typed::<Pod>(), |o| {
            o.transform(move |p: Pod| {
                i.lock().unwrap().push(p.metadata.managed_fields.is_some());
                p
            })
        });
        core.start();
        tokio::time::timeout(Duration::from_secs(30), core.wait_for_cache_sync())
            .await
            .expect("sync hung")
            .unwrap();
        let web0 = pods.indexer().get_by_key("shop/web-0").unwrap();
        assert_eq!(web0.metadata.managed_fields.is_some(), keep, "keep: {keep}");
        assert_eq!(*seen_by_factory.lock().unwrap(), vec![keep]);
        assert_eq!(*seen_by_informer.lock().unwrap(), vec![keep]);
        core.shutdown().await;
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn informers_of_every_source_are_built_with_the_factory_options() {
    let server = Server::start(None, serve).await;
    let client = Client::new(Config::new(&server.url)).unwrap();
    #[cfg(feature = "compact")]
    let mode = CacheMode::compact(4);
    #[cfg(not(feature = "compact"))]
    let mode = CacheMode::Full;
    let Factory(core) = FactoryBuilder::<Factory>::new(client)
        .namespace("shop")
        .tweak_list_options(|o| o.label_selector = Some("tier=web".into()))
        .resync_for::<Pod>(Duration::from_secs(90))
        .cache_mode(mode)
        .build();
    // A typed source (through `Api`) and a collection path (as dynamic, metadata-only and
    // kube-rs informers have), the second with a page size of its own.
    let typed_pods = core.informer_for(typed::<Pod>());
    let path_pods = core.informer_for_with(keyed("pods"), |o| o.page_size(7));
    let options = core.informer_options(&keyed("pods"));
    assert_eq!(
        (options.resync, options.drop_managed_fields),
        (Duration::from_secs(90), true),
        "{options:?}"
    );
    assert_eq!(path_pods.name(), "core/v1/pods");
    for informer in [&typed_pods, &path_pods] {
        assert_eq!(informer.indexer().cache_mode(), mode);
    }

    core.start();
    tokio::time::timeout(Duration::from_secs(30), core.wait_for_cache_sync())
        .await
        .expect("sync hung")
        .unwrap();
    for informer in [&typed_pods, &path_pods] {
        let web0 = informer.indexer().get_by_key("shop/web-0").unwrap();
        assert!(
            web0.metadata.managed_fields.is_none(),
            "{}",
            informer.name()
        );
    }
    let seen = server.seen();
    assert!(
        seen.iter().all(|s| s.path == "/api/v1/namespaces/shop/pods"
            && s.query.contains("labelSelector=tier%3Dweb")),
        "{seen:?}"
    );
    let pages: Vec<&str> = seen
        .iter()
        .filter(|s| !s.query.contains("watch=1"))
        .map(|s| s.query.as_str())
        .collect();
    assert_eq!(
        pages.iter().filter(|q| q.contains("limit=7")).count(),
        1,
        "{pages:?}"
    );
    core.shutdown().await;
}
