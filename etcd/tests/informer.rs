//! `SharedIndexInformer` (the real runtime: reflector, queue, indexer, handlers) over etcd.

mod support;

use std::collections::BTreeMap;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use futures_util::future::join_all;
use informer_etcd::{EtcdListerWatcher, EtcdWriter};
use informer_runtime::client::Config;
use informer_runtime::k8s_openapi::api::core::v1::ConfigMap;
use informer_runtime::k8s_openapi::apimachinery::pkg::apis::meta::v1::ObjectMeta;
use informer_runtime::object::object_key;
use informer_runtime::{
    Client, FactoryOptions, Indexers, ListOptions, Lister, ListerWatcher,
    ResourceEventHandlerFuncs, Selector, SharedIndexInformer, SharedInformerFactoryCore,
};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use support::EtcdServer;
use tokio_util::sync::CancellationToken;

/// key → resourceVersion
type Snapshot = BTreeMap<String, String>;

fn cm(ns: &str, name: &str, app: &str) -> ConfigMap {
    ConfigMap {
        metadata: ObjectMeta {
            name: Some(name.into()),
            namespace: Some(ns.into()),
            labels: Some(BTreeMap::from([("app".to_owned(), app.to_owned())])),
            ..Default::default()
        },
        ..Default::default()
    }
}

fn snapshot<'a>(objects: impl IntoIterator<Item = &'a ConfigMap>) -> Snapshot {
    objects
        .into_iter()
        .map(|o| (object_key(o), o.metadata.resource_version.clone().unwrap()))
        .collect()
}

async fn etcd_state(lw: &EtcdListerWatcher<ConfigMap>) -> Snapshot {
    snapshot(
        lw.list(ListOptions::default())
            .await
            .unwrap()
            .items
            .iter()
            .map(|o| &**o),
    )
}

/// Random creates, updates and deletes of the names `{worker}-0..20` in three namespaces.
async fn random_writes(writer: EtcdWriter<ConfigMap>, worker: u64, ops: usize) {
    let mut rng = StdRng::seed_from_u64(worker);
    for _ in 0..ops {
        let ns = format!("ns{}", rng.random_range(0..3));
        let name = format!("w{worker}-{}", rng.random_range(0..20));
        match writer.get(Some(&ns), &name).await.unwrap() {
            None => {
                writer.create(&cm(&ns, &name, "web")).await.unwrap();
            }
            Some(mut current) if rng.random_bool(0.6) => {
                let app = if rng.random_bool(0.5) { "web" } else { "db" };
                current.metadata.labels =
                    Some(BTreeMap::from([("app".to_owned(), app.to_owned())]));
                writer.update(&current).await.unwrap();
            }
            Some(_) => {
                writer.delete(Some(&ns), &name, None).await.unwrap();
            }
        }
    }
}

/// Waits until `current()` equals `want()`, re-reading both; the last pair on failure.
async fn converge<F, G, FF, GF>(mut current: F, mut want: G) -> Result<(), (Snapshot, Snapshot)>
where
    F: FnMut() -> FF,
    FF: std::future::Future<Output = Snapshot>,
    G: FnMut() -> GF,
    GF: std::future::Future<Output = Snapshot>,
{
    let deadline = tokio::time::Instant::now() + Duration::from_secs(60);
    loop {
        let (have, expected) = (current().await, want().await);
        if have == expected {
            return Ok(());
        }
        if tokio::time::Instant::now() > deadline {
            return Err((have, expected));
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn shared_index_informer_over_etcd_converges_under_writes_restarts_and_compaction() {
    let mut server = EtcdServer::start();
    let etcd = server.connect().await;
    let lw = EtcdListerWatcher::<ConfigMap>::new(etcd.clone());
    let writer = lw.writer();
    join_all((0..300).map(|i| {
        let writer = writer.clone();
        async move {
            writer
                .create(&cm(&format!("ns{}", i % 3), &format!("init-{i}"), "web"))
                .await
        }
    }))
    .await
    .into_iter()
    .collect::<Result<Vec<_>, _>>()
    .unwrap();

    let informer = SharedIndexInformer::new(lw.clone(), Duration::ZERO, Indexers::namespace());
    // What the handler saw, to check delivery as well as the cache.
    let seen: Arc<Mutex<Snapshot>> = Arc::default();
    let initial_adds: Arc<Mutex<usize>> = Arc::default();
    let (on_add, on_update, on_delete) = (seen.clone(), seen.clone(), seen.clone());
    let initial = initial_adds.clone();
    informer.add_event_handler(
        ResourceEventHandlerFuncs::default()
            .on_add(move |o: &Arc<ConfigMap>, in_initial_list| {
                if in_initial_list {
                    *initial.lock().unwrap() += 1;
                }
                on_add.lock().unwrap().extend(snapshot([o.as_ref()]));
            })
            .on_update(move |_, new| {
                on_update.lock().unwrap().extend(snapshot([new.as_ref()]));
            })
            .on_delete(move |gone| {
                on_delete.lock().unwrap().remove(&gone.key());
            }),
    );
    let cancel = CancellationToken::new();
    let run = tokio::spawn(informer.run(cancel.clone()));
    tokio::time::timeout(Duration::from_secs(60), informer.wait_for_sync())
        .await
        .expect("no sync within 60 s")
        .unwrap();
    assert_eq!(informer.indexer().list().len(), 300);

    // Phase 1: concurrent random writes while the informer watches.
    join_all((0..3).map(|w| random_writes(writer.clone(), w, 60))).await;

    // Phase 2: the informer's etcd goes away; meanwhile etcd (on another port) takes
    // writes and is compacted, so the informer's re-watch from its last revision is 410.
    let informer_port = server.client_port();
    server.kill();
    server.set_client_port(EtcdServer::free_port());
    server.restart();
    let side = server.connect().await;
    let side_lw = EtcdListerWatcher::<ConfigMap>::new(side.clone());
    join_all((3..6).map(|w| random_writes(side_lw.writer(), w, 40))).await;
    let revision: i64 = side_lw
        .list(ListOptions::default())
        .await
        .unwrap()
        .metadata
        .resource_version
        .unwrap()
        .parse()
        .unwrap();
    side.client().compact(revision, None).await.unwrap();
    server.kill();
    server.set_client_port(informer_port);
    server.restart();
    server.connect().await;

    // Phase 3: more writes after the informer is back.
    join_all((6..9).map(|w| random_writes(writer.clone(), w, 40))).await;

    let indexer = informer.indexer();
    let cache = || {
        let objects = indexer.list();
        async move { snapshot(objects.iter().map(|o| o.as_ref())) }
    };
    if let Err((have, want)) = converge(cache, || etcd_state(&lw)).await {
        panic!("the cache did not converge:\nhave {have:?}\nwant {want:?}");
    }
    let handler_view = || {
        let view = seen.lock().unwrap().clone();
        async move { view }
    };
    if let Err((have, want)) = converge(handler_view, || etcd_state(&lw)).await {
        panic!("the handler did not converge:\nhave {have:?}\nwant {want:?}");
    }
    assert_eq!(*initial_adds.lock().unwrap(), 300);
    let stats = informer.stats();
    assert!(stats.expired_relists >= 1, "no 410 relist: {stats:?}");
    let synced: i64 = informer.last_sync_resource_version().parse().unwrap();
    assert!(synced >= revision, "last sync RV {synced} < {revision}");

    cancel.cancel();
    tokio::time::timeout(Duration::from_secs(30), run)
        .await
        .expect("the informer did not stop")
        .unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn list_watch_hook_with_tweak_runs_in_a_factory_and_serves_listers() {
    let server = EtcdServer::start();
    let etcd = server.connect().await;
    let lw = EtcdListerWatcher::<ConfigMap>::new(etcd);
    let writer = lw.writer();
    for (ns, name, app) in [("a", "x", "web"), ("a", "y", "db"), ("b", "x", "web")] {
        writer.create(&cm(ns, name, app)).await.unwrap();
    }

    // The factory's HTTP client is never used: the informer is built over etcd.
    let client = Client::new(Config::new("http://127.0.0.1:9")).unwrap();
    let factory = SharedInformerFactoryCore::new(client, FactoryOptions::default());
    let informer = factory.informer_for_with(lw.clone(), |o| {
        o.indexers(Indexers::namespace())
            .tweak_list_options(|o: &mut ListOptions| o.label_selector = Some("app=web".into()))
    });
    factory.start();
    tokio::time::timeout(Duration::from_secs(60), factory.wait_for_cache_sync())
        .await
        .expect("no sync within 60 s")
        .unwrap();

    let lister = Lister::new(informer.indexer());
    assert_eq!(lister.list(&Selector::everything()).len(), 2);
    assert!(lister.namespaced("a").get("x").is_some());
    assert!(
        lister.namespaced("a").get("y").is_none(),
        "filtered by the tweak"
    );

    writer.create(&cm("b", "z", "web")).await.unwrap();
    let deadline = tokio::time::Instant::now() + Duration::from_secs(30);
    while lister.namespaced("b").get("z").is_none() {
        assert!(tokio::time::Instant::now() < deadline, "b/z never arrived");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    // The same informer comes back for the same type.
    let again = factory.informer_for_with(lw.clone(), |_| unreachable!());
    assert_eq!(again.indexer().list().len(), 3);
    tokio::time::timeout(Duration::from_secs(30), factory.shutdown())
        .await
        .expect("the factory did not shut down");
}
