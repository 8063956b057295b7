//! KEP-5866 sharded list and watch (`shardSelector`): lists and watches filtered by the
//! FNV-1a hash of `metadata.uid` or `metadata.namespace`, pagination, the `shardInfo` echo,
//! kube-apiserver's answer to a bad selector, namespace deletes, and a server without the
//! feature.

mod support;

use std::collections::BTreeSet;

use informer_selectors::shard::{ShardRange, ShardSelector};
use reqwest::Method;
use serde_json::{json, Value};
use test_apiserver::{fixtures, RunningServer, TestApiServer};

use support::*;

const HALF: u128 = 1 << 63;

async fn server_with_config_maps(sharding: bool, per_namespace: usize) -> RunningServer {
    let server = TestApiServer::builder()
        .namespaces(["a", "b", "c", "d"])
        .sharding(sharding)
        .start()
        .await
        .expect("server starts");
    for ns in ["a", "b", "c", "d"] {
        for i in 0..per_namespace {
            server
                .create(
                    "configmaps",
                    Some(ns),
                    fixtures::config_map(ns, &format!("cm-{i}"), i),
                )
                .expect("create");
        }
    }
    server
}

fn halves() -> [ShardSelector; 2] {
    [
        ShardSelector::uid_range(0, HALF).unwrap(),
        ShardSelector::uid_range(HALF, ShardRange::END).unwrap(),
    ]
}

#[tokio::test]
async fn a_uid_sharded_list_returns_its_range_and_echoes_the_canonical_selector() {
    let server = server_with_config_maps(true, 25).await;
    let (code, all) = get(&server, "/api/v1/configmaps").await;
    assert_eq!(code, 200);
    assert!(all["metadata"].get("shardInfo").is_none());
    let every: BTreeSet<String> = uids(&all).into_iter().collect();
    assert_eq!(every.len(), 100);
    let mut seen = BTreeSet::new();
    for half in halves() {
        // Sent without spaces: the echo is kube-apiserver's canonical text, not the request's.
        let sent = half.to_string().replace(", ", ",");
        let (code, list) = get(
            &server,
            &format!("/api/v1/configmaps?shardSelector={}", enc(&sent)),
        )
        .await;
        assert_eq!(code, 200, "{list}");
        assert_eq!(
            list["metadata"]["shardInfo"],
            json!({"selector": half.to_string()})
        );
        let items = list["items"].as_array().unwrap();
        assert!(!items.is_empty() && items.len() < 100);
        for item in items {
            assert!(selects(&half, item), "{item}");
            assert!(seen.insert(item["metadata"]["uid"].as_str().unwrap().to_owned()));
        }
    }
    assert_eq!(seen, every, "the two halves partition the objects");
    server.shutdown().await;
}

#[tokio::test]
async fn seeded_pods_are_sharded_by_their_uids_too() {
    let server = TestApiServer::builder()
        .seed_pods(300)
        .seed_namespaces(3)
        .start()
        .await
        .expect("server starts");
    let mut total = 0;
    for half in halves() {
        let (code, list) = get(
            &server,
            &format!("/api/v1/pods?shardSelector={}", enc(&half.to_string())),
        )
        .await;
        assert_eq!(code, 200);
        for item in list["items"].as_array().unwrap() {
            assert!(selects(&half, item));
            total += 1;
        }
    }
    assert_eq!(total, 300);
    server.shutdown().await;
}

#[tokio::test]
async fn pages_of_a_sharded_list_hold_only_the_shard_and_carry_shard_info() {
    let server = server_with_config_maps(true, 25).await;
    let shard = ShardSelector::uid_range(0, HALF).unwrap();
    let selector = enc(&shard.to_string());
    let (_, whole) = get(
        &server,
        &format!("/api/v1/configmaps?shardSelector={selector}"),
    )
    .await;
    let want = uids(&whole);
    let mut got = Vec::new();
    let mut path = format!("/api/v1/configmaps?limit=7&shardSelector={selector}");
    let mut pages = 0;
    loop {
        let (code, page) = get(&server, &path).await;
        assert_eq!(code, 200, "{page}");
        pages += 1;
        let items = uids(&page);
        assert!(items.len() <= 7);
        got.extend(items);
        assert_eq!(page["metadata"]["shardInfo"]["selector"], shard.to_string());
        // kube-apiserver counts the remaining items only for lists that select everything.
        assert!(page["metadata"].get("remainingItemCount").is_none());
        match page["metadata"]["continue"].as_str() {
            // As with label selectors, each page's request carries the selector again.
            Some(token) => {
                path = format!(
                    "/api/v1/configmaps?limit=7&shardSelector={selector}&continue={}",
                    enc(token)
                )
            }
            None => break,
        }
    }
    assert_eq!(got, want, "pages are the unpaged list in order");
    assert_eq!(pages, want.len().div_ceil(7));
    server.shutdown().await;
}

#[tokio::test]
async fn namespace_sharding_and_unions_of_ranges() {
    let server = server_with_config_maps(true, 5).await;
    let (a0, a1) = exactly("a");
    let (c0, c1) = exactly("c");
    let shard = ShardSelector::namespace_range(a0, a1)
        .unwrap()
        .or(c0, c1)
        .unwrap();
    let (code, list) = get(
        &server,
        &format!(
            "/api/v1/configmaps?shardSelector={}",
            enc(&shard.to_string())
        ),
    )
    .await;
    assert_eq!(code, 200);
    let namespaces: BTreeSet<&str> = list["items"]
        .as_array()
        .unwrap()
        .iter()
        .map(|i| i["metadata"]["namespace"].as_str().unwrap())
        .collect();
    assert_eq!(namespaces, BTreeSet::from(["a", "c"]));
    assert_eq!(list["items"].as_array().unwrap().len(), 10);
    assert_eq!(list["metadata"]["shardInfo"]["selector"], shard.to_string());
    // Cluster-scoped objects hash the empty namespace.
    let (e0, e1) = exactly("");
    let (_, namespaces) = get(
        &server,
        &format!(
            "/api/v1/namespaces?shardSelector={}",
            enc(&ShardSelector::namespace_range(e0, e1).unwrap().to_string())
        ),
    )
    .await;
    assert!(namespaces["items"].as_array().unwrap().len() >= 8);
    server.shutdown().await;
}

/// kube-apiserver's registry returns the parse error as a plain error: 500, no reason.
fn bad_selector(message: &str) -> Value {
    json!({
        "kind": "Status",
        "apiVersion": "v1",
        "metadata": {},
        "status": "Failure",
        "message": format!("invalid shard selector: {message}"),
        "code": 500,
    })
}

#[tokio::test]
async fn bad_selectors_get_kube_apiservers_answer_on_lists_and_watches() {
    let server = server_with_config_maps(true, 1).await;
    for (selector, message) in [
        (
            "shardRange(object.metadata.uid, '0x0', '0x8000000000000000')",
            "hexStart must be a 0x-prefixed 16-digit hex value, got \"0x0\" (did you mean \"0x0000000000000000\"?)",
        ),
        (
            "shardRange(object.metadata.name, '0x0000000000000000', '0x8000000000000000')",
            "unsupported field path \"object.metadata.name\"; supported: object.metadata.uid, object.metadata.namespace",
        ),
        (
            "shardRange(object.metadata.uid, '0x0000000000000000', '0x8000000000000000') || shardRange(object.metadata.namespace, '0x8000000000000000', '0x10000000000000000')",
            "all shard ranges must use the same field, got \"object.metadata.uid\" and \"object.metadata.namespace\"",
        ),
        (
            " ",
            "empty shard selector is not allowed; omit the parameter for unfiltered lists",
        ),
    ] {
        for path in [
            format!("/api/v1/configmaps?shardSelector={}", enc(selector)),
            format!(
                "/api/v1/namespaces/a/configmaps?watch=true&shardSelector={}",
                enc(selector)
            ),
        ] {
            let (code, body) = get(&server, &path).await;
            assert_eq!((code, body), (500, bad_selector(message)), "{path}");
        }
    }
    // An empty parameter is no selector at all.
    let (code, list) = get(&server, "/api/v1/configmaps?shardSelector=").await;
    assert_eq!(code, 200);
    assert!(list["metadata"].get("shardInfo").is_none());
    assert_eq!(list["items"].as_array().unwrap().len(), 4);
    server.shutdown().await;
}

/// Events until the stream has shown `n` non-bookmark events.
async fn events(w: &mut Watch, n: usize) -> Vec<Value> {
    let mut out = Vec::new();
    while out.len() < n {
        out.push(w.next_event().await);
    }
    out
}

#[tokio::test]
async fn sharded_watches_split_every_event_between_them() {
    let server = server_with_config_maps(true, 0).await;
    let [low, high] = halves();
    let mut watches = Vec::new();
    for shard in [&low, &high] {
        let path = format!(
            "/api/v1/configmaps?watch=true&shardSelector={}",
            enc(&shard.to_string())
        );
        watches.push(Watch::open_ok(&server, &path).await);
    }
    let mut per_watch = [0usize; 2];
    let mut objects = Vec::new();
    for i in 0..40 {
        let obj = server
            .create(
                "configmaps",
                Some("a"),
                fixtures::config_map("a", &format!("w-{i}"), i),
            )
            .expect("create");
        per_watch[usize::from(!selects(&low, &obj))] += 1;
        objects.push(obj);
    }
    for obj in &objects {
        let name = obj["metadata"]["name"].as_str().unwrap();
        server
            .patch_merge(
                "configmaps",
                Some("a"),
                name,
                json!({"data": {"touched": "yes"}}),
            )
            .expect("patch");
        server
            .delete("configmaps", Some("a"), name)
            .expect("delete");
    }
    assert!(per_watch[0] > 0 && per_watch[1] > 0, "{per_watch:?}");
    for (w, (shard, n)) in watches
        .iter_mut()
        .zip([(&low, per_watch[0]), (&high, per_watch[1])])
    {
        let got = events(w, 3 * n).await;
        let kinds = |t: &str| got.iter().filter(|e| e["type"] == t).count();
        assert_eq!(
            (kinds("ADDED"), kinds("MODIFIED"), kinds("DELETED")),
            (n, n, n)
        );
        for e in &got {
            assert!(selects(shard, &e["object"]), "{e}");
        }
    }
    // Nothing else is on the way: a last object in the low half reaches the low watch next.
    let mut i = 1000;
    let last = loop {
        let obj = server
            .create(
                "configmaps",
                Some("b"),
                fixtures::config_map("b", &format!("x-{i}"), i),
            )
            .expect("create");
        if selects(&low, &obj) {
            break obj;
        }
        i += 1;
    };
    assert_eq!(
        watches[0].next_event().await["object"]["metadata"]["uid"],
        last["metadata"]["uid"]
    );
    server.shutdown().await;
}

#[tokio::test]
async fn a_sharded_streaming_list_sends_only_its_initial_objects() {
    let server = server_with_config_maps(true, 10).await;
    let shard = ShardSelector::uid_range(0, HALF).unwrap();
    let (_, listed) = get(
        &server,
        &format!(
            "/api/v1/configmaps?shardSelector={}",
            enc(&shard.to_string())
        ),
    )
    .await;
    let want: BTreeSet<String> = uids(&listed).into_iter().collect();
    let mut w = Watch::open_ok(
        &server,
        &format!(
            "/api/v1/configmaps?watch=true&sendInitialEvents=true&resourceVersionMatch=NotOlderThan&allowWatchBookmarks=true&shardSelector={}",
            enc(&shard.to_string())
        ),
    )
    .await;
    let mut got = BTreeSet::new();
    loop {
        let e = w.next().await;
        if e["type"] == "BOOKMARK" {
            if e["object"]["metadata"]["annotations"]["k8s.io/initial-events-end"] == "true" {
                break;
            }
            continue;
        }
        assert_eq!(e["type"], "ADDED");
        got.insert(e["object"]["metadata"]["uid"].as_str().unwrap().to_owned());
    }
    assert_eq!(got, want);
    server.shutdown().await;
}

#[tokio::test]
async fn a_namespace_sharded_watch_sees_the_deletes_of_its_namespaces_objects() {
    let server = server_with_config_maps(true, 3).await;
    let (a0, a1) = exactly("a");
    let by_namespace = ShardSelector::namespace_range(a0, a1).unwrap();
    let mut config_maps = Watch::open_ok(
        &server,
        &format!(
            "/api/v1/configmaps?watch=true&shardSelector={}",
            enc(&by_namespace.to_string())
        ),
    )
    .await;
    // Namespaces are cluster-scoped: their namespace is "", one hash for them all.
    let (e0, e1) = exactly("");
    let mut namespaces = Watch::open_ok(
        &server,
        &format!(
            "/api/v1/namespaces?watch=true&shardSelector={}",
            enc(&ShardSelector::namespace_range(e0, e1).unwrap().to_string())
        ),
    )
    .await;
    server.delete("namespaces", None, "b").expect("delete b");
    server.delete("namespaces", None, "a").expect("delete a");
    let mut deleted = BTreeSet::new();
    while deleted.len() < 3 {
        let e = config_maps.next_event().await;
        assert_eq!(e["object"]["metadata"]["namespace"], "a", "{e}");
        if e["type"] == "DELETED" {
            deleted.insert(e["object"]["metadata"]["name"].as_str().unwrap().to_owned());
        }
    }
    assert_eq!(
        deleted,
        BTreeSet::from(["cm-0".into(), "cm-1".into(), "cm-2".into()])
    );
    let mut gone = BTreeSet::new();
    while gone.len() < 2 {
        let e = namespaces.next_event().await;
        if e["type"] == "DELETED" {
            gone.insert(e["object"]["metadata"]["name"].as_str().unwrap().to_owned());
        }
    }
    assert_eq!(gone, BTreeSet::from(["a".into(), "b".into()]));
    server.shutdown().await;
}

#[tokio::test]
async fn delete_collection_honours_the_shard_selector() {
    let server = server_with_config_maps(true, 20).await;
    let [low, high] = halves();
    let (code, body) = send(
        &server,
        Method::DELETE,
        &format!(
            "/api/v1/namespaces/a/configmaps?shardSelector={}",
            enc(&low.to_string())
        ),
        JSON,
        &Value::Null,
    )
    .await;
    assert_eq!(code, 200, "{body}");
    assert_eq!(body["metadata"]["shardInfo"]["selector"], low.to_string());
    let left = server.list("configmaps", Some("a")).unwrap();
    assert!(!left.is_empty() && left.len() < 20);
    assert!(left.iter().all(|o| selects(&high, o)));
    server.shutdown().await;
}

#[tokio::test]
async fn metadata_only_lists_are_filtered_but_lose_shard_info_as_on_kube_apiserver() {
    let server = server_with_config_maps(true, 10).await;
    let shard = ShardSelector::uid_range(0, HALF).unwrap();
    let resp = client()
        .get(format!(
            "{}/api/v1/configmaps?shardSelector={}",
            server.url(),
            enc(&shard.to_string())
        ))
        .header(
            "accept",
            "application/json;as=PartialObjectMetadataList;g=meta.k8s.io;v=v1",
        )
        .send()
        .await
        .unwrap();
    let list: Value = resp.json().await.unwrap();
    assert_eq!(list["kind"], "PartialObjectMetadataList");
    assert!(list["metadata"].get("shardInfo").is_none());
    let items = list["items"].as_array().unwrap();
    assert!(!items.is_empty() && items.len() < 40);
    assert!(items.iter().all(|i| selects(&shard, i)));
    server.shutdown().await;
}

#[tokio::test]
async fn without_the_feature_the_parameter_is_ignored() {
    let server = server_with_config_maps(false, 10).await;
    let mut rv = String::new();
    for selector in [
        ShardSelector::uid_range(0, 1).unwrap().to_string(),
        "not a selector at all".to_owned(),
    ] {
        let (code, list) = get(
            &server,
            &format!("/api/v1/configmaps?shardSelector={}", enc(&selector)),
        )
        .await;
        assert_eq!(code, 200, "{list}");
        assert!(list["metadata"].get("shardInfo").is_none());
        assert_eq!(list["items"].as_array().unwrap().len(), 40);
        rv = list["metadata"]["resourceVersion"]
            .as_str()
            .unwrap()
            .to_owned();
    }
    let mut w = Watch::open_ok(
        &server,
        &format!(
            "/api/v1/namespaces/a/configmaps?watch=true&resourceVersion={rv}&shardSelector={}",
            enc(&ShardSelector::uid_range(0, 1).unwrap().to_string())
        ),
    )
    .await;
    let made = server
        .create(
            "configmaps",
            Some("a"),
            fixtures::config_map("a", "late", 0),
        )
        .unwrap();
    assert_eq!(
        w.next_event().await["object"]["metadata"]["uid"],
        made["metadata"]["uid"]
    );
    server.shutdown().await;
}
