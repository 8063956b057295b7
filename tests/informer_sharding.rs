//! Sharded informers (KEP-5866) against the test API server over loopback, with the
//! `ShardedListAndWatch` feature on (the server filters and echoes `shardInfo`, the
//! informer trusts it) and off (the server ignores the selector, the informer filters list
//! items and watch events itself before decoding them): the cache and the handlers see
//! exactly the objects of the shard either way, and complementary shards cover every
//! object exactly once.

use std::collections::BTreeSet;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use informer_runtime::client::Config;
use informer_runtime::object::object_key;
use informer_runtime::shard::{fnv1a_64, ShardSelector};
use informer_runtime::sharding::{ShardAssignment, ShardBy};
use informer_runtime::{
    new_informer, typed, Client, Deleted, InformerOptions, ResourceEventHandlerFuncs,
    SharedIndexInformer,
};
use k8s_openapi::api::core::v1::{ConfigMap, Namespace};
use k8s_openapi::Metadata;
use serde_json::{json, Value};
use test_apiserver::{eventually, RunningServer, TestApiServer};
use tokio_util::sync::CancellationToken;

const NAMESPACES: [&str; 6] = ["ns-0", "ns-1", "ns-2", "ns-3", "ns-4", "ns-5"];
const HALF: u128 = 1 << 63;
const END: u128 = 1 << 64;

async fn server(sharding: bool) -> RunningServer {
    TestApiServer::builder()
        .namespaces(NAMESPACES)
        .sharding(sharding)
        .start()
        .await
        .expect("the test API server starts")
}

fn config_map(namespace: &str, name: &str, v: u32) -> Value {
    json!({"apiVersion": "v1", "kind": "ConfigMap",
           "metadata": {"name": name, "namespace": namespace},
           "data": {"v": v.to_string()}})
}

/// Creates `n` ConfigMaps spread over the namespaces, named `{prefix}-{i}`.
fn create_config_maps(server: &RunningServer, prefix: &str, n: usize) -> Vec<Value> {
    (0..n)
        .map(|i| {
            let ns = NAMESPACES[i % NAMESPACES.len()];
            server
                .create(
                    "configmaps",
                    Some(ns),
                    config_map(ns, &format!("{prefix}-{i}"), 0),
                )
                .expect("create")
        })
        .collect()
}

fn key_of(obj: &Value) -> String {
    let meta = &obj["metadata"];
    format!(
        "{}/{}",
        meta["namespace"].as_str().unwrap_or_default(),
        meta["name"].as_str().unwrap_or_default()
    )
}

fn in_shard(selector: &ShardSelector, obj: &Value) -> bool {
    let meta = &obj["metadata"];
    selector.matches(
        meta["uid"].as_str().unwrap_or_default(),
        meta["namespace"].as_str().unwrap_or_default(),
    )
}

/// The keys of the server's ConfigMaps in `selector`'s shard.
fn expected(server: &RunningServer, selector: &ShardSelector) -> BTreeSet<String> {
    server
        .list("configmaps", None)
        .expect("list")
        .iter()
        .filter(|o| in_shard(selector, o))
        .map(key_of)
        .collect()
}

fn cached<K: informer_runtime::Object>(informer: &SharedIndexInformer<K>) -> BTreeSet<String> {
    informer
        .indexer()
        .list()
        .iter()
        .map(|o| object_key(o.as_ref()))
        .collect()
}

fn informer<K>(server: &RunningServer, selector: ShardSelector) -> SharedIndexInformer<K>
where
    K: informer_runtime::Object + k8s_openapi::ListableResource + Metadata,
    K::Scope: informer_runtime::source::ApiScope,
{
    let client = Client::new(Config::new(server.url())).expect("client");
    // Small pages, so that filtering on the client meets many pages.
    let options = InformerOptions::default()
        .shard_selector(selector)
        .page_size(7);
    new_informer(&client, &typed::<K>(), None, options)
}

/// Every notification a handler got: `add ns/name`, `update ns/name`, `delete ns/name`.
type Log = Arc<Mutex<Vec<String>>>;

fn record(informer: &SharedIndexInformer<ConfigMap>) -> Log {
    let log = Log::default();
    let (a, u, d) = (log.clone(), log.clone(), log.clone());
    let push = |log: &Log, what: String| log.lock().unwrap_or_else(|e| e.into_inner()).push(what);
    informer.add_event_handler(
        ResourceEventHandlerFuncs::default()
            .on_add(move |cm: &Arc<ConfigMap>, _| {
                push(&a, format!("add {}", object_key(cm.as_ref())))
            })
            .on_update(move |_, cm: &Arc<ConfigMap>| {
                push(&u, format!("update {}", object_key(cm.as_ref())))
            })
            .on_delete(move |deleted: &Deleted<ConfigMap>| {
                push(&d, format!("delete {}", deleted.key()));
            }),
    );
    log
}

fn logged(log: &Log) -> Vec<String> {
    log.lock().unwrap_or_else(|e| e.into_inner()).clone()
}

/// A uid shard over a server with or without the feature: the initial list and then
/// creates, updates and deletes of objects inside and outside the shard.
async fn uid_shard_converges(sharding: bool) {
    let server = server(sharding).await;
    let initial = create_config_maps(&server, "initial", 120);
    let selector = ShardSelector::uid_range(0, HALF).expect("selector");
    let outside_initial = initial.iter().filter(|o| !in_shard(&selector, o)).count();
    assert!(
        outside_initial > 20 && outside_initial < 100,
        "{outside_initial} of 120 outside"
    );

    let inf = informer::<ConfigMap>(&server, selector.clone());
    let log = record(&inf);
    let cancel = CancellationToken::new();
    let run = tokio::spawn(inf.run(cancel.clone()));
    inf.wait_for_sync().await.expect("sync");
    let want = expected(&server, &selector);
    assert_eq!(cached(&inf), want);
    let skipped_after_list = inf.stats().shard_skipped;
    if sharding {
        // The server filtered: nothing outside the shard reached the client.
        assert_eq!(skipped_after_list, 0);
    } else {
        assert_eq!(skipped_after_list, outside_initial as u64);
    }

    // Watch events: new objects, each updated, then deleted.
    let fresh = create_config_maps(&server, "fresh", 40);
    let fresh_in: BTreeSet<String> = fresh
        .iter()
        .filter(|o| in_shard(&selector, o))
        .map(key_of)
        .collect();
    let fresh_out: BTreeSet<String> = fresh
        .iter()
        .filter(|o| !in_shard(&selector, o))
        .map(key_of)
        .collect();
    assert!(!fresh_in.is_empty() && !fresh_out.is_empty());
    for obj in &fresh {
        let meta = &obj["metadata"];
        let (ns, name) = (
            meta["namespace"].as_str().unwrap_or_default(),
            meta["name"].as_str().unwrap_or_default(),
        );
        server
            .update("configmaps", Some(ns), config_map(ns, name, 1))
            .expect("update");
    }
    for obj in &fresh {
        let meta = &obj["metadata"];
        let (ns, name) = (
            meta["namespace"].as_str().unwrap_or_default(),
            meta["name"].as_str().unwrap_or_default(),
        );
        server.delete("configmaps", Some(ns), name).expect("delete");
    }
    let deletes_seen = || {
        let log = logged(&log);
        fresh_in
            .iter()
            .all(|k| log.contains(&format!("delete {k}")))
    };
    eventually("every delete in the shard", deletes_seen).await;
    let expected_skipped = if sharding {
        0
    } else {
        outside_initial as u64 + 3 * fresh_out.len() as u64
    };
    eventually("the skipped count", || {
        inf.stats().shard_skipped >= expected_skipped
    })
    .await;
    // Let any stray event arrive before the final comparison.
    tokio::time::sleep(Duration::from_millis(200)).await;
    assert_eq!(cached(&inf), want);
    assert_eq!(cached(&inf), expected(&server, &selector));
    assert_eq!(inf.stats().shard_skipped, expected_skipped);

    let log = logged(&log);
    for entry in &log {
        let key = entry.split_once(' ').map(|(_, k)| k).unwrap_or_default();
        assert!(
            want.contains(key) || fresh_in.contains(key),
            "{entry} is outside the shard"
        );
    }
    for key in &fresh_in {
        for what in ["add", "update", "delete"] {
            assert!(log.contains(&format!("{what} {key}")), "no {what} of {key}");
        }
    }
    let stats = inf.stats();
    assert_eq!(stats.relists, 0, "{stats:?}");
    assert_eq!(stats.errors, 0, "{stats:?}");
    cancel.cancel();
    run.await.expect("informer task");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_uid_shard_is_filtered_by_a_server_with_the_feature() {
    uid_shard_converges(true).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_uid_shard_is_filtered_by_the_client_when_the_server_ignores_it() {
    uid_shard_converges(false).await;
}

/// Two informers on complementary halves cache every object exactly once.
async fn complementary_halves_cover_everything_once(sharding: bool) {
    let server = server(sharding).await;
    create_config_maps(&server, "cm", 150);
    let lower = ShardSelector::uid_range(0, HALF).expect("lower");
    let upper = ShardSelector::uid_range(HALF, END).expect("upper");
    let (a, b) = (
        informer::<ConfigMap>(&server, lower),
        informer::<ConfigMap>(&server, upper),
    );
    let cancel = CancellationToken::new();
    let runs = [
        tokio::spawn(a.run(cancel.clone())),
        tokio::spawn(b.run(cancel.clone())),
    ];
    a.wait_for_sync().await.expect("sync a");
    b.wait_for_sync().await.expect("sync b");
    // And the objects created while they watch.
    create_config_maps(&server, "late", 30);
    let all: BTreeSet<String> = server
        .list("configmaps", None)
        .expect("list")
        .iter()
        .map(key_of)
        .collect();
    eventually("both halves to hold everything", || {
        cached(&a).len() + cached(&b).len() == all.len()
    })
    .await;
    let (in_a, in_b) = (cached(&a), cached(&b));
    assert!(in_a.is_disjoint(&in_b));
    assert_eq!(in_a.union(&in_b).cloned().collect::<BTreeSet<_>>(), all);
    assert!(!in_a.is_empty() && !in_b.is_empty());
    let skipped = a.stats().shard_skipped + b.stats().shard_skipped;
    if sharding {
        assert_eq!(skipped, 0);
    } else {
        // Each informer was sent, and dropped, the other's objects.
        assert_eq!(skipped, all.len() as u64);
    }
    cancel.cancel();
    for run in runs {
        run.await.expect("informer task");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn complementary_halves_cover_everything_once_with_the_feature() {
    complementary_halves_cover_everything_once(true).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn complementary_halves_cover_everything_once_without_the_feature() {
    complementary_halves_cover_everything_once(false).await;
}

/// Namespace sharding in both modes: namespaced objects go by their namespace, and
/// cluster-scoped ones, which have none, all hash the empty string, as the server hashes
/// them.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn namespace_shards_agree_with_the_server_in_both_modes() {
    let h = u128::from(fnv1a_64(b""));
    // A shard that holds the empty namespace's hash, and its complement.
    let with_empty = ShardSelector::namespace_range(h, h + 1).expect("with");
    // FNV-1a of "" is its offset basis, 0xcbf29ce484222325: neither end of the space.
    let without_empty = ShardSelector::namespace_range(0, h)
        .and_then(|s| s.or(h + 1, END))
        .expect("without");
    let ns0 = u128::from(fnv1a_64(NAMESPACES[0].as_bytes()));
    let one_namespace = ShardSelector::namespace_range(ns0, ns0 + 1).expect("ns-0");
    for sharding in [true, false] {
        let server = server(sharding).await;
        create_config_maps(&server, "cm", 30);
        let cancel = CancellationToken::new();

        let config_maps = informer::<ConfigMap>(&server, one_namespace.clone());
        let namespaces_in = informer::<Namespace>(&server, with_empty.clone());
        let namespaces_out = informer::<Namespace>(&server, without_empty.clone());
        let runs = [
            tokio::spawn(config_maps.run(cancel.clone())),
            tokio::spawn(namespaces_in.run(cancel.clone())),
            tokio::spawn(namespaces_out.run(cancel.clone())),
        ];
        config_maps.wait_for_sync().await.expect("sync");
        namespaces_in.wait_for_sync().await.expect("sync");
        namespaces_out.wait_for_sync().await.expect("sync");

        let want = expected(&server, &one_namespace);
        assert_eq!(want.len(), 5);
        assert!(want.iter().all(|k| k.starts_with("ns-0/")));
        assert_eq!(cached(&config_maps), want, "sharding {sharding}");
        let all_namespaces: BTreeSet<String> = server
            .list("namespaces", None)
            .expect("list")
            .iter()
            .map(|n| {
                n["metadata"]["name"]
                    .as_str()
                    .unwrap_or_default()
                    .to_owned()
            })
            .collect();
        assert!(all_namespaces.len() >= NAMESPACES.len());
        assert_eq!(
            cached(&namespaces_in),
            all_namespaces,
            "sharding {sharding}"
        );
        assert!(cached(&namespaces_out).is_empty(), "sharding {sharding}");
        let skipped = namespaces_out.stats().shard_skipped;
        let expected_skipped = if sharding {
            0
        } else {
            all_namespaces.len() as u64
        };
        assert_eq!(skipped, expected_skipped, "sharding {sharding}");
        // The cached objects really are what the server holds under those keys.
        for ns in namespaces_in.indexer().list() {
            assert!(ns.metadata().namespace.is_none());
        }
        cancel.cancel();
        for run in runs {
            run.await.expect("informer task");
        }
    }
}

/// Follows a moving share with both server modes: each move relists into exactly the new
/// share, objects that left are `LeftShard` (never deletions), objects that came are adds,
/// and no share empties the cache until one is assigned again.
async fn follow_a_moving_share(sharding: bool) {
    let server = server(sharding).await;
    create_config_maps(&server, "cm", 60);
    let first = ShardSelector::uid_range(0, HALF).expect("selector");
    let second = ShardSelector::uid_range(HALF, END).expect("selector");
    let (assign, assignments) =
        tokio::sync::watch::channel(ShardAssignment::Selector(first.clone()));
    let client = Client::new(Config::new(server.url())).expect("client");
    let informer = new_informer(
        &client,
        &typed::<ConfigMap>(),
        None,
        InformerOptions::default()
            .shard_assignments(assignments)
            .page_size(7),
    );
    let gone = Log::default();
    let added = Log::default();
    let (g, a) = (gone.clone(), added.clone());
    informer.add_event_handler(
        ResourceEventHandlerFuncs::default()
            .on_add(move |cm: &Arc<ConfigMap>, _| a.lock().unwrap().push(object_key(cm.as_ref())))
            .on_delete(move |d: &Deleted<ConfigMap>| {
                let what = if d.left_shard() { "left" } else { "deleted" };
                g.lock().unwrap().push(format!("{what} {}", d.key()))
            }),
    );
    let cancel = CancellationToken::new();
    tokio::spawn(informer.clone().run(cancel.clone()));
    let want_first = expected(&server, &first);
    let want_second = expected(&server, &second);
    assert!(!want_first.is_empty() && !want_second.is_empty());
    eventually("the first share", || cached(&informer) == want_first).await;

    let taken = |log: &Log| std::mem::take(&mut *log.lock().unwrap());
    // Handlers run on their own: every add of the first share is in before the move.
    eventually("the first adds", || {
        added.lock().unwrap().len() == want_first.len()
    })
    .await;
    taken(&added);
    assign.send_replace(ShardAssignment::Selector(second.clone()));
    eventually("the second share", || cached(&informer) == want_second).await;
    eventually("its events", || {
        gone.lock().unwrap().len() == want_first.len()
    })
    .await;
    let left: BTreeSet<String> = taken(&gone)
        .into_iter()
        .map(|line| {
            line.strip_prefix("left ")
                .expect("left, not deleted")
                .to_owned()
        })
        .collect();
    assert_eq!(left, want_first);
    eventually("the adds", || {
        added.lock().unwrap().len() == want_second.len()
    })
    .await;
    assert_eq!(
        taken(&added).into_iter().collect::<BTreeSet<_>>(),
        want_second
    );

    // Live changes keep following the share in force.
    let created = create_config_maps(&server, "late", 20);
    let want_second = expected(&server, &second);
    eventually("live events in the share", || {
        cached(&informer) == want_second
    })
    .await;
    assert!(created.iter().any(|o| !in_shard(&second, o)));

    assign.send_replace(ShardAssignment::Nothing);
    eventually("an empty cache", || cached(&informer).is_empty()).await;
    eventually("its events", || {
        gone.lock().unwrap().len() == want_second.len()
    })
    .await;
    assert!(taken(&gone).iter().all(|l| l.starts_with("left ")));

    assign.send_replace(ShardAssignment::Everything);
    let everything = expected(
        &server,
        &ShardSelector::uid_range(0, END).expect("selector"),
    );
    eventually("every object", || cached(&informer) == everything).await;
    assert!(taken(&gone).is_empty());
    // A real delete is still a delete.
    let victim = everything.iter().next().expect("an object").clone();
    let (ns, name) = victim.split_once('/').expect("namespaced key");
    server.delete("configmaps", Some(ns), name).expect("delete");
    eventually("the delete", || !gone.lock().unwrap().is_empty()).await;
    assert_eq!(taken(&gone), vec![format!("deleted {victim}")]);
    cancel.cancel();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_informer_follows_a_moving_share_with_the_feature() {
    follow_a_moving_share(true).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_informer_follows_a_moving_share_without_the_feature() {
    follow_a_moving_share(false).await;
}

/// Dependents placed by their controller ([`ShardBy::ControllerOwner`]): over a server with
/// or without the feature, the informer holds exactly the ConfigMaps whose controller's uid
/// is in the shard (its own uid when it has none), not those whose own uid is; and one whose
/// controller changes to one outside the shard leaves it as `LeftShard`.
async fn dependents_follow_their_controller(sharding: bool) {
    let server = server(sharding).await;
    let selector = ShardSelector::uid_range(0, HALF).expect("selector");
    // Owners in every namespace (the garbage collector deletes dependents of an owner that
    // does not exist): one whose uid is inside the shard and one outside. Owners have no
    // controller, so they are placed by their own uid.
    let mut owners: Vec<(Value, Value)> = Vec::new();
    let mut want = BTreeSet::new();
    for ns in NAMESPACES {
        let (mut inside, mut outside) = (None, None);
        for k in 0.. {
            let owner = server
                .create(
                    "configmaps",
                    Some(ns),
                    config_map(ns, &format!("owner-{k}"), 0),
                )
                .expect("create");
            if in_shard(&selector, &owner) {
                want.insert(key_of(&owner));
                inside.get_or_insert(owner);
            } else {
                outside.get_or_insert(owner);
            }
            if inside.is_some() && outside.is_some() {
                break;
            }
        }
        owners.push((inside.expect("found"), outside.expect("found")));
    }
    let reference = |owner: &Value, controller: bool| {
        json!({"apiVersion": "v1", "kind": "ConfigMap", "controller": controller,
               "name": owner["metadata"]["name"], "uid": owner["metadata"]["uid"]})
    };
    let owned_by = |i: usize, name: &str, inside: bool| {
        let ns = NAMESPACES[i % NAMESPACES.len()];
        let (mine, theirs) = &owners[i % NAMESPACES.len()];
        let (controller, other) = if inside {
            (mine, theirs)
        } else {
            (theirs, mine)
        };
        let mut cm = config_map(ns, name, 0);
        cm["metadata"]["ownerReferences"] =
            json!([reference(other, false), reference(controller, true)]);
        key_of(&server.create("configmaps", Some(ns), cm).expect("create"))
    };
    for i in 0..40 {
        want.insert(owned_by(i, &format!("mine-{i}"), true));
        owned_by(i, &format!("theirs-{i}"), false);
    }
    // No controller: placed by its own uid.
    for orphan in create_config_maps(&server, "orphan", 30) {
        if in_shard(&selector, &orphan) {
            want.insert(key_of(&orphan));
        }
    }

    let client = Client::new(Config::new(server.url())).expect("client");
    let informer = new_informer(
        &client,
        &typed::<ConfigMap>(),
        None,
        InformerOptions::default()
            .shard_selector(selector.clone())
            .shard_by(ShardBy::ControllerOwner)
            .page_size(7),
    );
    let log = record(&informer);
    let cancel = CancellationToken::new();
    tokio::spawn(informer.clone().run(cancel.clone()));
    eventually("the first sync", || informer.has_synced()).await;
    assert_eq!(cached(&informer), want);

    // Watch events: a new dependent of each owner; one of ours handed to the other owner.
    want.insert(owned_by(0, "mine-late", true));
    owned_by(0, "theirs-late", false);
    let mut moved = server
        .get("configmaps", Some("ns-1"), "mine-1")
        .expect("get");
    moved["metadata"]["ownerReferences"] = json!([
        reference(&owners[1].0, false),
        reference(&owners[1].1, true)
    ]);
    server
        .update("configmaps", Some("ns-1"), moved)
        .expect("update");
    want.remove("ns-1/mine-1");
    eventually("the watch events", || cached(&informer) == want).await;
    eventually("the handler", || {
        logged(&log).contains(&"delete ns-1/mine-1".to_owned())
    })
    .await;
    let log = logged(&log);
    assert!(log.iter().all(|l| !l.contains("theirs")), "{log:?}");
    cancel.cancel();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn dependents_follow_their_controller_with_the_feature() {
    dependents_follow_their_controller(true).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn dependents_follow_their_controller_without_the_feature() {
    dependents_follow_their_controller(false).await;
}
