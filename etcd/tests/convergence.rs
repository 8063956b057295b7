//! A minimal reflector (list, watch, relist on 410) over the etcd lister-watcher converges
//! exactly to etcd's state under random writes, forced compactions and dropped watches.

mod support;

use std::collections::BTreeMap;
use std::sync::Arc;
use std::time::Duration;

use futures_util::StreamExt;
use informer_etcd::{EtcdListerWatcher, EtcdWriter};
use informer_runtime::k8s_openapi::api::core::v1::ConfigMap;
use informer_runtime::k8s_openapi::apimachinery::pkg::apis::meta::v1::ObjectMeta;
use informer_runtime::object::object_key;
use informer_runtime::{ListOptions, ListerWatcher, WatchEvent, WatchStream};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use support::EtcdServer;

type Cache = BTreeMap<String, (String, String)>;

fn cm(ns: &str, name: &str, data: &str) -> ConfigMap {
    ConfigMap {
        metadata: ObjectMeta {
            name: Some(name.into()),
            namespace: Some(ns.into()),
            ..Default::default()
        },
        data: Some(BTreeMap::from([("v".to_owned(), data.to_owned())])),
        ..Default::default()
    }
}

/// key → (data, resourceVersion)
fn entry(o: &ConfigMap) -> (String, (String, String)) {
    (
        object_key(o),
        (
            o.data.as_ref().unwrap()["v"].clone(),
            o.metadata.resource_version.clone().unwrap(),
        ),
    )
}

struct TestReflector {
    lw: EtcdListerWatcher<ConfigMap>,
    cache: Cache,
    rv: i64,
    watch: Option<WatchStream<Arc<ConfigMap>>>,
    relists: usize,
}

impl TestReflector {
    async fn relist(&mut self) {
        self.relists += 1;
        let mut options = ListOptions {
            limit: Some(7),
            ..Default::default()
        };
        let mut fresh = Cache::new();
        loop {
            let page = self.lw.list(options.clone()).await.unwrap();
            fresh.extend(page.items.iter().map(|o| entry(o)));
            self.rv = page.metadata.resource_version.unwrap().parse().unwrap();
            match page.metadata.continue_ {
                Some(token) => options.continue_token = Some(token),
                None => break,
            }
        }
        self.cache = fresh;
        self.start_watch().await;
    }

    async fn start_watch(&mut self) {
        let options = ListOptions {
            resource_version: Some(self.rv.to_string()),
            allow_watch_bookmarks: true,
            ..Default::default()
        };
        self.watch = Some(self.lw.watch(options).await.unwrap());
    }

    /// Applies events until the cache has caught up with `target`.
    async fn catch_up(&mut self, target: i64) {
        while self.rv < target {
            let watch = self.watch.as_mut().unwrap();
            let event = tokio::time::timeout(Duration::from_secs(20), watch.next())
                .await
                .expect("no watch event within 20 s");
            match event {
                Some(Ok(WatchEvent::Added(o))) | Some(Ok(WatchEvent::Modified(o))) => {
                    let (key, value) = entry(&o);
                    self.rv = value.1.parse().unwrap();
                    self.cache.insert(key, value);
                }
                Some(Ok(WatchEvent::Deleted(o))) => {
                    let (key, value) = entry(&o);
                    self.rv = value.1.parse().unwrap();
                    self.cache.remove(&key);
                }
                Some(Ok(WatchEvent::Bookmark(b))) => {
                    self.rv = self.rv.max(b.resource_version.parse().unwrap())
                }
                Some(Ok(WatchEvent::Error(status))) => {
                    assert_eq!(status.code, Some(410), "{status:?}");
                    self.relist().await;
                }
                Some(Ok(other)) => panic!("an event the backend never sends: {other:?}"),
                Some(Err(e)) => panic!("watch failed: {e}"),
                None => self.start_watch().await,
            }
        }
    }
}

#[tokio::test]
async fn list_watch_relist_converges_under_random_writes_and_compactions() {
    let server = EtcdServer::start();
    let etcd = server.connect().await;
    let lw = EtcdListerWatcher::<ConfigMap>::new(etcd.clone());
    let writer: EtcdWriter<ConfigMap> = lw.writer();
    let mut rng = StdRng::seed_from_u64(7);
    let mut expected: BTreeMap<String, ConfigMap> = BTreeMap::new();
    let mut reflector = TestReflector {
        lw: lw.clone(),
        cache: Cache::new(),
        rv: 0,
        watch: None,
        relists: 0,
    };
    reflector.relist().await;
    let mut revision = 0;

    for round in 0..40 {
        for _ in 0..rng.random_range(1..25) {
            let ns = format!("ns{}", rng.random_range(0..3));
            let name = format!("cm{}", rng.random_range(0..20));
            let key = format!("{ns}/{name}");
            let data = format!("{round}-{}", rng.random::<u32>());
            let stored = match expected.get(&key) {
                None => Some(writer.create(&cm(&ns, &name, &data)).await.unwrap()),
                Some(current) if rng.random_bool(0.7) => {
                    let mut next = current.clone();
                    next.data = Some(BTreeMap::from([("v".to_owned(), data)]));
                    Some(writer.update(&next).await.unwrap())
                }
                Some(current) => {
                    let rv = current.metadata.resource_version.as_deref().unwrap();
                    revision = writer
                        .delete(Some(&ns), &name, Some(rv.parse().unwrap()))
                        .await
                        .unwrap();
                    None
                }
            };
            match stored {
                Some(o) => {
                    revision = o
                        .metadata
                        .resource_version
                        .as_deref()
                        .unwrap()
                        .parse()
                        .unwrap();
                    expected.insert(key, o);
                }
                None => {
                    expected.remove(&key);
                }
            }
        }
        // Sometimes drop the watch, as a timeout or a network failure would; after a
        // compaction the re-watch from the last revision is 410 and the reflector relists.
        if rng.random_bool(0.4) {
            reflector.watch = None;
            if rng.random_bool(0.5) {
                etcd.client().compact(revision, None).await.unwrap();
            }
            reflector.start_watch().await;
        }
        reflector.catch_up(revision).await;
        let want: Cache = expected.values().map(entry).collect();
        assert_eq!(reflector.cache, want, "round {round}");
    }
    assert!(reflector.relists > 1, "no relist happened");
}
