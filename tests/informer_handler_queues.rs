//! Handler queue policies against the test API server: a coalescing handler 100 times
//! slower than the event rate keeps at most one pending notification per object, sees a
//! valid Add, Update*, Delete sequence per object (each Update's `old` being what it saw
//! last) and ends with the server's newest state; an unbounded handler gets every event;
//! a slow consumer of `informer.stream()` holds at most one entry per object.

use std::collections::BTreeMap;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use futures_util::StreamExt;
use informer_runtime::client::Config;
use informer_runtime::handler::{HandlerOptions, QueuePolicy};
use informer_runtime::object::object_key;
use informer_runtime::{
    new_informer, typed, Client, Deleted, Indexers, InformerOptions, ResourceEventHandler,
    SharedIndexInformer,
};
use k8s_openapi::api::core::v1::ConfigMap;
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use serde_json::{json, Value};
use test_apiserver::{eventually, RunningServer, TestApiServer};
use tokio_util::sync::CancellationToken;

/// Distinct objects the writes cycle over.
const OBJECTS: usize = 20;

fn informer(server: &RunningServer) -> SharedIndexInformer<ConfigMap> {
    let client = Client::new(Config::new(server.url())).unwrap();
    let options = InformerOptions::default()
        .name("ConfigMap")
        .indexers(Indexers::namespace());
    new_informer(&client, &typed::<ConfigMap>(), None, options)
}

fn rv_of(cm: &ConfigMap) -> String {
    cm.metadata.resource_version.clone().unwrap_or_default()
}

#[derive(Default)]
struct Seen {
    /// key → resourceVersion, rebuilt from the notifications alone.
    objects: BTreeMap<String, String>,
    /// Every notification as `kind key@rv`, in order.
    log: Vec<String>,
    /// Broken per-object sequences.
    violations: Vec<String>,
}

/// Replays notifications into a map, checking each object's sequence: Add of an unknown
/// key, Update whose `old` is exactly the state seen last, Delete of a known key; and
/// sleeps `cost` in every callback.
#[derive(Clone)]
struct Checker {
    seen: Arc<Mutex<Seen>>,
    cost: Duration,
}

impl Checker {
    fn new(cost: Duration) -> Self {
        Self {
            seen: Arc::default(),
            cost,
        }
    }

    fn objects(&self) -> BTreeMap<String, String> {
        self.seen.lock().unwrap().objects.clone()
    }
}

impl ResourceEventHandler<ConfigMap> for Checker {
    fn on_add(&self, obj: &Arc<ConfigMap>, _in_initial_list: bool) {
        std::thread::sleep(self.cost);
        let (key, rv) = (object_key(obj.as_ref()), rv_of(obj));
        let mut s = self.seen.lock().unwrap();
        s.log.push(format!("add {key}@{rv}"));
        if let Some(old) = s.objects.insert(key.clone(), rv) {
            s.violations.push(format!("add of {key}, known at {old}"));
        }
    }

    fn on_update(&self, old: &Arc<ConfigMap>, new: &Arc<ConfigMap>) {
        std::thread::sleep(self.cost);
        let (key, rv) = (object_key(new.as_ref()), rv_of(new));
        let mut s = self.seen.lock().unwrap();
        s.log.push(format!("update {key}@{rv}"));
        match s.objects.insert(key.clone(), rv) {
            Some(seen) if seen == rv_of(old) => {}
            seen => s.violations.push(format!(
                "update of {key} from {} but last seen {seen:?}",
                rv_of(old)
            )),
        }
    }

    fn on_delete(&self, gone: &Deleted<ConfigMap>) {
        std::thread::sleep(self.cost);
        let (key, rv) = (gone.key(), rv_of(gone.object()));
        let mut s = self.seen.lock().unwrap();
        s.log.push(format!("delete {key}@{rv}"));
        if s.objects.remove(&key).is_none() {
            s.violations.push(format!("delete of unknown {key}"));
        }
    }
}

fn config_map(name: &str, v: usize) -> Value {
    json!({"apiVersion": "v1", "kind": "ConfigMap",
           "metadata": {"name": name, "namespace": "a"},
           "data": {"v": v.to_string()}})
}

fn stored_rv(stored: &Value) -> String {
    stored["metadata"]["resourceVersion"]
        .as_str()
        .unwrap_or_default()
        .to_owned()
}

/// Random creates, updates and deletes over [`OBJECTS`] names; returns every write as
/// the notification it means, `kind a/name@rv`, in order. Pauses `pause` between writes.
async fn write(server: &RunningServer, seed: u64, writes: usize, pause: Duration) -> Vec<String> {
    let mut rng = StdRng::seed_from_u64(seed);
    let mut exists = [false; OBJECTS];
    let mut log = Vec::with_capacity(writes);
    for i in 0..writes {
        let k = rng.random_range(0..OBJECTS);
        let name = format!("c{k}");
        let (kind, stored) = if !exists[k] {
            exists[k] = true;
            (
                "add",
                server.create("configmaps", Some("a"), config_map(&name, i)),
            )
        } else if rng.random_bool(0.1) {
            exists[k] = false;
            ("delete", server.delete("configmaps", Some("a"), &name))
        } else {
            let patch = json!({"data": {"v": i.to_string()}});
            (
                "update",
                server.patch_merge("configmaps", Some("a"), &name, patch),
            )
        };
        let stored = stored.unwrap();
        log.push(format!("{kind} a/{name}@{}", stored_rv(&stored)));
        if !pause.is_zero() {
            tokio::time::sleep(pause).await;
        }
    }
    log
}

fn server_state(server: &RunningServer) -> BTreeMap<String, String> {
    server
        .list("configmaps", None)
        .unwrap()
        .iter()
        .map(|o| {
            let name = o["metadata"]["name"].as_str().unwrap_or_default();
            (format!("a/{name}"), stored_rv(o))
        })
        .collect()
}

fn cache_state(inf: &SharedIndexInformer<ConfigMap>) -> BTreeMap<String, String> {
    inf.indexer()
        .list()
        .iter()
        .map(|cm| (object_key(cm.as_ref()), rv_of(cm)))
        .collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_coalescing_handler_100x_slower_than_the_events_stays_bounded_and_ends_current() {
    let server = TestApiServer::builder()
        .namespaces(["a"])
        .start()
        .await
        .unwrap();
    let inf = informer(&server);
    // One write per millisecond, one callback per 100 ms.
    let slow = Checker::new(Duration::from_millis(100));
    let reg = inf.add_event_handler_with(slow.clone(), HandlerOptions::coalescing());
    let cancel = CancellationToken::new();
    let task = tokio::spawn(inf.run(cancel.clone()));
    eventually("sync", || inf.has_synced()).await;

    let writes = write(&server, 17, 2_000, Duration::from_millis(1)).await;
    let pending_after_writes = reg.queue_depth();
    let want = server_state(&server);
    eventually("the slow handler to catch up", || {
        reg.queue_depth() == 0 && slow.objects() == want
    })
    .await;

    let stats = reg.stats();
    println!(
        "writes {}, delivered {}, coalesced {}, max queue depth {}, pending after the writes {}",
        writes.len(),
        stats.delivered,
        stats.coalesced,
        stats.max_queue_depth,
        pending_after_writes
    );
    assert_eq!(stats.queue_policy, QueuePolicy::CoalescePerObject);
    // At most one entry per object, plus the one being handled.
    assert!(
        stats.max_queue_depth <= OBJECTS + 1,
        "max queue depth {}",
        stats.max_queue_depth
    );
    assert!(stats.delivered < writes.len() as u64 / 4, "{stats:?}");
    assert!(stats.coalesced > writes.len() as u64 / 2, "{stats:?}");
    let violations = slow.seen.lock().unwrap().violations.clone();
    assert!(violations.is_empty(), "{violations:?}");
    assert_eq!(slow.objects(), cache_state(&inf));
    assert!(informer_runtime::render_prometheus(&[inf.stats()]).contains(&format!(
        "informer_handler_coalesced_total{{informer=\"ConfigMap\",handler=\"0\",queue=\"coalesce\"}} {}\n",
        stats.coalesced
    )));
    cancel.cancel();
    task.await.unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_unbounded_handler_falling_behind_still_gets_every_event_in_order() {
    let server = TestApiServer::builder()
        .namespaces(["a"])
        .start()
        .await
        .unwrap();
    let inf = informer(&server);
    let slow = Checker::new(Duration::from_millis(2));
    let reg = inf.add_event_handler(slow.clone());
    let cancel = CancellationToken::new();
    let task = tokio::spawn(inf.run(cancel.clone()));
    eventually("sync", || inf.has_synced()).await;

    let writes = write(&server, 29, 400, Duration::ZERO).await;
    let want = server_state(&server);
    eventually("the slow handler to catch up", || {
        reg.queue_depth() == 0 && slow.objects() == want
    })
    .await;

    let stats = reg.stats();
    println!(
        "writes {}, delivered {}, max queue depth {}",
        writes.len(),
        stats.delivered,
        stats.max_queue_depth
    );
    assert_eq!(stats.queue_policy, QueuePolicy::Unbounded);
    assert_eq!(stats.coalesced, 0);
    assert_eq!(stats.delivered, writes.len() as u64);
    let (log, violations) = {
        let seen = slow.seen.lock().unwrap();
        (seen.log.clone(), seen.violations.clone())
    };
    assert_eq!(log, writes);
    assert!(violations.is_empty(), "{violations:?}");
    // It fell behind: more notifications waited than there are objects.
    assert!(stats.max_queue_depth > OBJECTS, "{stats:?}");
    cancel.cancel();
    task.await.unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_slow_consumer_of_a_busy_stream_holds_at_most_one_entry_per_object() {
    let server = TestApiServer::builder()
        .namespaces(["a"])
        .start()
        .await
        .unwrap();
    let inf = informer(&server);
    let cancel = CancellationToken::new();
    let task = tokio::spawn(inf.run(cancel.clone()));
    eventually("sync", || inf.has_synced()).await;
    let (reg, mut events) = inf.stream();
    // The consumer takes an event every 20 ms while the writes come every millisecond.
    let slow = Checker::new(Duration::from_millis(20));
    let consumer = slow.clone();
    let consuming = tokio::spawn(async move {
        while let Some(event) = events.next().await {
            let checker = consumer.clone();
            tokio::task::spawn_blocking(move || event.dispatch_to(&checker))
                .await
                .unwrap();
        }
    });

    let writes = write(&server, 41, 2_000, Duration::from_millis(1)).await;
    let want = server_state(&server);
    eventually("the slow consumer to catch up", || {
        reg.queue_depth() == 0 && slow.objects() == want
    })
    .await;

    let stats = reg.stats();
    println!(
        "writes {}, delivered {}, coalesced {}, max queue depth {}",
        writes.len(),
        stats.delivered,
        stats.coalesced,
        stats.max_queue_depth
    );
    assert_eq!(stats.queue_policy, QueuePolicy::CoalescePerObject);
    // One entry per object at most: the stream never holds the backlog of events.
    assert!(
        stats.max_queue_depth <= OBJECTS,
        "max queue depth {}",
        stats.max_queue_depth
    );
    assert!(stats.coalesced > 0, "{stats:?}");
    let violations = slow.seen.lock().unwrap().violations.clone();
    assert!(violations.is_empty(), "{violations:?}");
    assert_eq!(slow.objects(), cache_state(&inf));
    cancel.cancel();
    task.await.unwrap();
    consuming.await.unwrap();
}
