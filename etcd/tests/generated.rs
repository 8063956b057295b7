//! A generated informer (the `informers` crate's `core().v1().config_maps()`) served from
//! etcd: the factory's `informer_for` registers an informer over the etcd source (an
//! `InformerSource`) for the type, and every generated accessor, lister included, then uses that one.

mod support;

use std::collections::BTreeMap;
use std::sync::Arc;
use std::time::Duration;

use informer_etcd::EtcdListerWatcher;
use informer_runtime::client::Config;
use informer_runtime::k8s_openapi::api::core::v1::ConfigMap;
use informer_runtime::k8s_openapi::apimachinery::pkg::apis::meta::v1::ObjectMeta;
use informer_runtime::{Client, InformerFactory, ListOptions};
use informers::SharedInformerFactory;
use support::EtcdServer;

fn cm(ns: &str, name: &str, tier: &str) -> ConfigMap {
    ConfigMap {
        metadata: ObjectMeta {
            name: Some(name.into()),
            namespace: Some(ns.into()),
            labels: Some(BTreeMap::from([("tier".to_owned(), tier.to_owned())])),
            ..Default::default()
        },
        ..Default::default()
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn generated_config_map_informer_and_lister_run_over_etcd() {
    let server = EtcdServer::start();
    let etcd = server.connect().await;
    let source = EtcdListerWatcher::<ConfigMap>::new(etcd);
    let writer = source.writer();
    writer.create(&cm("shop", "web-0", "web")).await.unwrap();
    writer.create(&cm("shop", "db-0", "db")).await.unwrap();

    // The HTTP client is never called: the factory is told how to build the ConfigMap
    // informer before the generated accessor asks for it.
    let client = Client::new(Config::new("http://127.0.0.1:9")).unwrap();
    let factory = SharedInformerFactory::builder(client)
        .namespace("shop")
        .tweak_list_options(|o: &mut ListOptions| {
            o.label_selector = Some("tier in (web,db)".into())
        })
        .build();
    factory.informer_for(source.clone());

    let config_maps = factory.core().v1().config_maps();
    let seen = Arc::new(std::sync::Mutex::new(Vec::new()));
    let log = seen.clone();
    config_maps.informer().add_event_handler(
        informer_runtime::ResourceEventHandlerFuncs::default().on_add(
            move |o: &Arc<ConfigMap>, _| log.lock().unwrap().push(o.metadata.name.clone().unwrap()),
        ),
    );
    factory.start();
    tokio::time::timeout(Duration::from_secs(60), factory.wait_for_cache_sync())
        .await
        .expect("no sync within 60 s")
        .unwrap();

    let lister = config_maps.lister();
    assert!(lister.config_maps("shop").get("web-0").is_some());
    let web = lister.list(&"tier=web".parse().unwrap());
    assert_eq!(web.len(), 1);

    writer.create(&cm("shop", "web-1", "web")).await.unwrap();
    writer
        .create(&cm("elsewhere", "web-2", "web"))
        .await
        .unwrap();
    let deadline = tokio::time::Instant::now() + Duration::from_secs(30);
    while lister.config_maps("shop").get("web-1").is_none() {
        assert!(
            tokio::time::Instant::now() < deadline,
            "web-1 never arrived"
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    assert!(
        lister.config_maps("elsewhere").get("web-2").is_none(),
        "the factory's namespace applies to the etcd source"
    );
    // Handlers run on their own queues: the cache can be ahead of them.
    let names = loop {
        let mut names = seen.lock().unwrap().clone();
        names.sort();
        if names.len() >= 3 || tokio::time::Instant::now() > deadline {
            break names;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    };
    assert_eq!(names, ["db-0", "web-0", "web-1"]);
    tokio::time::timeout(Duration::from_secs(30), factory.shutdown())
        .await
        .expect("the factory did not shut down");
}
