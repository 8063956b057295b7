//! `Api<K>` end to end against the kube-apiserver-compatible test server, over loopback
//! HTTP: every verb the server implements, and the error predicates on its answers.

use std::time::Duration;

use futures_util::StreamExt;
use informer_client::api::{
    Api, DeleteParams, DeleteResponse, Patch, PatchParams, PostParams, StatusSubresource,
};
use informer_client::client::{Client, Config};
use informer_client::error::ErrorKind;
use informer_client::metadata::{LIST_ACCEPT, PARTIAL_OBJECT_METADATA, WATCH_ACCEPT};
use informer_client::shard::{ShardRange, ShardSelector};
use informer_client::{
    ApiResource, Discovery, DynamicObject, GroupVersionResource, ListOptions, PartialObjectMeta,
    WatchEvent,
};
use k8s_openapi::api::core::v1::{ConfigMap, Namespace, Pod, PodStatus};
use k8s_openapi::apimachinery::pkg::apis::meta::v1::ObjectMeta;
use serde_json::json;
use test_apiserver::{fixtures, RunningServer, TestApiServer};

async fn server() -> (RunningServer, Client) {
    let server = TestApiServer::builder()
        .namespaces(["shop", "a", "b", "team"])
        .start()
        .await
        .unwrap();
    let client = Client::new(Config::new(server.url())).unwrap();
    (server, client)
}

fn config_map(name: &str, value: &str) -> ConfigMap {
    ConfigMap {
        metadata: ObjectMeta {
            name: Some(name.to_owned()),
            labels: Some([("app".to_owned(), "shop".to_owned())].into()),
            ..Default::default()
        },
        data: Some([("k".to_owned(), value.to_owned())].into()),
        ..Default::default()
    }
}

#[tokio::test]
async fn create_get_update_and_conflict() {
    let (server, client) = server().await;
    let cms = Api::<ConfigMap>::namespaced(client, "shop");

    // Spawned: the futures are `Send`, so controllers can run writes on any task.
    let api = cms.clone();
    let created = tokio::spawn(async move {
        api.create(&config_map("settings", "1"), &PostParams::default())
            .await
    })
    .await
    .unwrap()
    .unwrap();
    assert_eq!(created.metadata.namespace.as_deref(), Some("shop"));
    let rv1 = created.metadata.resource_version.clone().unwrap();
    assert!(created.metadata.uid.is_some());

    let again = cms
        .create(&config_map("settings", "1"), &PostParams::default())
        .await
        .unwrap_err();
    assert!(again.is_already_exists(), "{again}");
    assert!(!again.is_conflict());
    let api = again.api().unwrap();
    assert_eq!(api.code, 409);
    let details = api.details.as_ref().unwrap();
    assert_eq!(details.name.as_deref(), Some("settings"));
    assert!(
        again
            .to_string()
            .contains("create configmaps in shop at http://"),
        "{again}"
    );

    let mut fetched = cms.get("settings").await.unwrap();
    assert_eq!(fetched, created);
    fetched
        .data
        .get_or_insert_with(Default::default)
        .insert("k".into(), "2".into());
    let updated = cms.update(&fetched, &PostParams::default()).await.unwrap();
    assert_eq!(updated.data.as_ref().unwrap()["k"], "2");
    assert_ne!(
        updated.metadata.resource_version.as_deref(),
        Some(rv1.as_str())
    );

    // `fetched` still carries rv1: the server refuses the stale write.
    let stale = cms
        .update(&fetched, &PostParams::default())
        .await
        .unwrap_err();
    assert!(stale.is_conflict(), "{stale}");
    assert!(!stale.is_already_exists());
    assert!(
        stale
            .to_string()
            .contains("update configmaps shop/settings at http://"),
        "{stale}"
    );
    assert_eq!(
        server.get("configmaps", Some("shop"), "settings").unwrap()["data"]["k"],
        "2"
    );
}

#[tokio::test]
async fn not_found_invalid_and_local_argument_errors() {
    let (_server, client) = server().await;
    let cms = Api::<ConfigMap>::namespaced(client.clone(), "shop");

    let missing = cms.get("nope").await.unwrap_err();
    assert!(missing.is_not_found(), "{missing}");
    assert_eq!(missing.status_code(), Some(404));
    assert!(cms.get_opt("nope").await.unwrap().is_none());
    let deleted = cms
        .delete("nope", &DeleteParams::default())
        .await
        .unwrap_err();
    assert!(deleted.is_not_found(), "{deleted}");

    let invalid = cms
        .create(&config_map("Not_Valid", "1"), &PostParams::default())
        .await
        .unwrap_err();
    assert!(invalid.is_invalid(), "{invalid}");
    let causes: Vec<_> = invalid.api().unwrap().causes().collect();
    assert_eq!(causes.len(), 1, "{causes:?}");
    assert_eq!(causes[0].field, "metadata.name");

    // Refused before anything is sent.
    for bad in ["", "a/b", "..", "x?y"] {
        let e = cms.get(bad).await.unwrap_err();
        assert_eq!(
            e.kind(),
            Some(informer_client::error::ErrorKind::InvalidArgument),
            "{bad:?}: {e}"
        );
    }
    let everywhere = Api::<ConfigMap>::all(client);
    let e = everywhere.get("settings").await.unwrap_err();
    assert!(e.to_string().contains("Api::namespaced"), "{e}");
}

#[tokio::test]
async fn merge_patch_and_delete() {
    let (server, client) = server().await;
    let cms = Api::<ConfigMap>::namespaced(client, "shop");
    cms.create(&config_map("settings", "1"), &PostParams::default())
        .await
        .unwrap();

    let patch = Patch::Merge(
        json!({"metadata": {"labels": {"tier": "web"}}, "data": {"k": null, "n": "3"}}),
    );
    let patched = cms
        .patch("settings", &patch, &PatchParams::default())
        .await
        .unwrap();
    let labels = patched.metadata.labels.unwrap();
    assert_eq!(labels["tier"], "web");
    assert_eq!(labels["app"], "shop");
    let data = patched.data.unwrap();
    assert!(!data.contains_key("k"));
    assert_eq!(data["n"], "3");

    match cms
        .delete("settings", &DeleteParams::default())
        .await
        .unwrap()
    {
        DeleteResponse::Object(cm) => assert_eq!(cm.metadata.name.as_deref(), Some("settings")),
        DeleteResponse::Deleted(status) => {
            assert_eq!(status.status.as_deref(), Some("Success"))
        }
    }
    assert!(cms.get("settings").await.unwrap_err().is_not_found());
    assert!(server.get("configmaps", Some("shop"), "settings").is_err());
}

#[tokio::test]
async fn list_and_watch_through_the_api() {
    let (server, client) = server().await;
    for ns in ["a", "b"] {
        server
            .create("configmaps", Some(ns), fixtures::config_map(ns, "c", 0))
            .unwrap();
    }
    let in_a = Api::<ConfigMap>::namespaced(client.clone(), "a");
    let everywhere = Api::<ConfigMap>::all(client.clone());
    assert_eq!(
        in_a.list(&ListOptions::default())
            .await
            .unwrap()
            .items
            .len(),
        1
    );
    let all = everywhere.list(&ListOptions::default()).await.unwrap();
    assert_eq!(all.items.len(), 2);

    let from = ListOptions {
        resource_version: all.metadata.resource_version.clone(),
        ..Default::default()
    };
    let mut events = in_a.watch(&from).await.unwrap();
    in_a.create(&config_map("new", "1"), &PostParams::default())
        .await
        .unwrap();
    // A create in another namespace is not seen by the namespaced watch.
    Api::<ConfigMap>::namespaced(client.clone(), "b")
        .create(&config_map("other", "1"), &PostParams::default())
        .await
        .unwrap();
    in_a.delete("new", &DeleteParams::default()).await.unwrap();
    let mut seen = Vec::new();
    while seen.len() < 2 {
        let event = tokio::time::timeout(Duration::from_secs(10), events.next())
            .await
            .unwrap()
            .unwrap()
            .unwrap();
        match event {
            WatchEvent::Added(cm) => seen.push(("added", cm.metadata.name.unwrap())),
            WatchEvent::Deleted(cm) => seen.push(("deleted", cm.metadata.name.unwrap())),
            other => panic!("unexpected {other:?}"),
        }
    }
    assert_eq!(
        seen,
        vec![("added", "new".to_owned()), ("deleted", "new".to_owned())]
    );

    // Cluster-scoped: no namespace in the path.
    server
        .create("namespaces", None, fixtures::namespace("frontend"))
        .unwrap();
    let namespaces = Api::<Namespace>::all(client);
    assert_eq!(
        namespaces
            .get("frontend")
            .await
            .unwrap()
            .metadata
            .name
            .as_deref(),
        Some("frontend")
    );
}

#[tokio::test]
async fn status_subresource() {
    let (server, client) = server().await;
    server
        .create("pods", Some("shop"), fixtures::pod("shop", "web-0", 0))
        .unwrap();
    let pods: Api<Pod, StatusSubresource> = Api::namespaced(client, "shop");

    let mut pod = pods.get_status("web-0").await.unwrap();
    assert_eq!(pod.metadata.name.as_deref(), Some("web-0"));
    let status = pod.status.get_or_insert_with(PodStatus::default);
    status.message = Some("draining".into());
    let updated = pods
        .update_status(&pod, &PostParams::default())
        .await
        .unwrap();
    assert_eq!(
        updated.status.as_ref().unwrap().message.as_deref(),
        Some("draining")
    );
    // A stale status write conflicts like any other.
    let stale = pods
        .update_status(&pod, &PostParams::default())
        .await
        .unwrap_err();
    assert!(stale.is_conflict(), "{stale}");

    let patched = pods
        .patch_status(
            "web-0",
            &Patch::Merge(json!({"status": {"reason": "Evicted"}})),
            &PatchParams::default(),
        )
        .await
        .unwrap();
    let status = patched.status.unwrap();
    assert_eq!(status.reason.as_deref(), Some("Evicted"));
    assert_eq!(status.message.as_deref(), Some("draining"));
    assert_eq!(
        server.get("pods", Some("shop"), "web-0").unwrap()["status"]["reason"],
        "Evicted"
    );
}

#[tokio::test]
async fn create_in_all_namespaces_takes_the_objects_namespace() {
    let (server, client) = server().await;
    let everywhere = Api::<ConfigMap>::all(client);
    let mut cm = config_map("x", "1");
    let e = everywhere
        .create(&cm, &PostParams::default())
        .await
        .unwrap_err();
    assert!(e.to_string().contains("no metadata.namespace"), "{e}");
    cm.metadata.namespace = Some("team".into());
    everywhere
        .create(&cm, &PostParams::default())
        .await
        .unwrap();
    assert!(server.get("configmaps", Some("team"), "x").is_ok());
}

#[tokio::test]
async fn an_api_for_a_resource_known_at_run_time_reads_and_writes_dynamic_objects() {
    let (_server, client) = server().await;
    let config_maps = Discovery::new(client.clone())
        .resolve(&GroupVersionResource::new("", "v1", "configmaps"))
        .await
        .unwrap();
    let in_shop: Api<DynamicObject> = Api::for_resource(client.clone(), &config_maps, Some("shop"));
    let object: DynamicObject = serde_json::from_value(json!({
        "apiVersion": "v1",
        "kind": "ConfigMap",
        "metadata": {"name": "dyn"},
        "data": {"k": "1"},
    }))
    .unwrap();
    let created = in_shop
        .create(&object, &PostParams::default())
        .await
        .unwrap();
    assert_eq!(created.metadata.namespace.as_deref(), Some("shop"));
    let mut got = in_shop.get("dyn").await.unwrap();
    assert_eq!(got.rest["data"], json!({"k": "1"}));

    got.rest["data"] = json!({"k": "2"});
    let updated = in_shop.update(&got, &PostParams::default()).await.unwrap();
    assert_eq!(updated.rest["data"], json!({"k": "2"}));
    let patched = in_shop
        .patch(
            "dyn",
            &Patch::Merge(json!({"data": {"k": "3"}})),
            &PatchParams::default(),
        )
        .await
        .unwrap();
    assert_eq!(patched.rest["data"], json!({"k": "3"}));

    let everywhere: Api<DynamicObject> = Api::for_resource(client.clone(), &config_maps, None);
    let list = everywhere.list(&ListOptions::default()).await.unwrap();
    assert_eq!(list.items.len(), 1);
    // A by-name call needs a namespace, as on a typed Api.
    let e = everywhere.get("dyn").await.unwrap_err();
    assert_eq!(
        e.kind(),
        Some(informer_client::error::ErrorKind::InvalidArgument),
        "{e}"
    );

    in_shop
        .delete("dyn", &DeleteParams::default())
        .await
        .unwrap();
    assert!(in_shop.get_opt("dyn").await.unwrap().is_none());
}

#[tokio::test]
async fn a_metadata_only_api_asks_for_partial_object_metadata() {
    let (server, client) = server().await;
    server
        .create("configmaps", Some("a"), fixtures::config_map("a", "c", 0))
        .unwrap();
    let metadata: Api<PartialObjectMeta<ConfigMap>> =
        Api::for_resource(client, &ApiResource::of::<ConfigMap>(), Some("a"))
            .with_accept(Some(LIST_ACCEPT), Some(WATCH_ACCEPT));
    let list = metadata.list(&ListOptions::default()).await.unwrap();
    assert_eq!(list.items.len(), 1);
    assert_eq!(list.items[0].kind, PARTIAL_OBJECT_METADATA);
    assert_eq!(list.items[0].metadata.name.as_deref(), Some("c"));

    let from = ListOptions {
        resource_version: list.metadata.resource_version.clone(),
        ..Default::default()
    };
    let mut events = metadata.watch(&from).await.unwrap();
    Api::<ConfigMap>::namespaced(metadata.client().clone(), "a")
        .create(&config_map("new", "1"), &PostParams::default())
        .await
        .unwrap();
    let event = tokio::time::timeout(Duration::from_secs(10), events.next())
        .await
        .unwrap()
        .unwrap()
        .unwrap();
    let WatchEvent::Added(added) = event else {
        panic!("unexpected {event:?}")
    };
    assert_eq!(added.kind, PARTIAL_OBJECT_METADATA);
    assert_eq!(added.metadata.name.as_deref(), Some("new"));
}

#[tokio::test]
async fn a_shard_selector_splits_lists_and_watches_between_replicas() {
    let (server, client) = server().await;
    for i in 0..40 {
        server
            .create(
                "configmaps",
                Some("shop"),
                fixtures::config_map("shop", &format!("c{i}"), i),
            )
            .unwrap();
    }
    let api = Api::<ConfigMap>::namespaced(client, "shop");
    let half = |i: u64| ListOptions {
        shard_selector: ShardRange::nth_of(i, 2)
            .map(|r| ShardSelector::uid_range(r.start(), r.end()).unwrap()),
        limit: Some(7),
        ..Default::default()
    };
    let mut seen = Vec::new();
    for i in 0..2 {
        let mut options = half(i);
        loop {
            let page = api.list(&options).await.unwrap();
            seen.extend(page.items.iter().filter_map(|c| c.metadata.name.clone()));
            match page.metadata.continue_.filter(|t| !t.is_empty()) {
                Some(token) => options.continue_token = Some(token),
                None => break,
            }
        }
    }
    // Every ConfigMap exactly once over both halves, each page asked with the selector.
    seen.sort();
    let mut all: Vec<String> = (0..40).map(|i| format!("c{i}")).collect();
    all.sort();
    assert_eq!(seen, all);
    let asked = server.requests();
    let lists: Vec<_> = asked
        .iter()
        .filter(|r| r.method == "GET" && r.path.ends_with("/configmaps"))
        .collect();
    assert!(lists.len() > 2, "paged lists");
    assert!(lists.iter().all(|r| r.param("shardSelector").is_some()));
    // A watch with the selector sees only its half.
    let first = half(0);
    let from = ListOptions {
        resource_version: Some(server.resource_version().to_string()),
        ..first.clone()
    };
    let mut events = api.watch(&from).await.unwrap();
    let selector = first.shard_selector.clone().unwrap();
    let mut created = 0;
    for i in 40..60 {
        let obj = server
            .create(
                "configmaps",
                Some("shop"),
                fixtures::config_map("shop", &format!("c{i}"), i),
            )
            .unwrap();
        let uid = obj["metadata"]["uid"]
            .as_str()
            .unwrap_or_default()
            .to_owned();
        created += usize::from(selector.matches(&uid, "shop"));
    }
    for _ in 0..created {
        let event = tokio::time::timeout(Duration::from_secs(30), events.next())
            .await
            .expect("watch event")
            .expect("open watch")
            .unwrap();
        let WatchEvent::Added(cm) = event else {
            panic!("{event:?}")
        };
        let uid = cm.metadata.uid.unwrap_or_default();
        assert!(
            selector.matches(&uid, "shop"),
            "{uid} is not in the first half"
        );
    }
}

/// A delete-collection with a shard selector deletes only that shard on a server that
/// applies shard selectors, and nothing on one that would ignore it (and delete every shard).
#[tokio::test]
async fn a_sharded_delete_collection_deletes_its_shard_or_nothing() {
    for sharding in [true, false] {
        let server = TestApiServer::builder()
            .namespaces(["shop"])
            .sharding(sharding)
            .start()
            .await
            .unwrap();
        let mut uids = Vec::new();
        for i in 0..30 {
            let obj = server
                .create(
                    "configmaps",
                    Some("shop"),
                    fixtures::config_map("shop", &format!("c{i}"), i),
                )
                .unwrap();
            uids.push(obj["metadata"]["uid"].as_str().unwrap().to_owned());
        }
        let selector = ShardSelector::uid_range(0, 1 << 63).unwrap();
        let outside = uids.iter().filter(|u| !selector.contains(u)).count();
        let api =
            Api::<ConfigMap>::namespaced(Client::new(Config::new(server.url())).unwrap(), "shop");
        let options = ListOptions {
            shard_selector: Some(selector),
            ..Default::default()
        };
        let deleted = api
            .delete_collection(&DeleteParams::default(), &options)
            .await;
        if sharding {
            deleted.unwrap();
            assert_eq!(
                server.count("configmaps"),
                outside,
                "only the shard is gone"
            );
        } else {
            let e = deleted.unwrap_err();
            assert_eq!(e.kind(), Some(ErrorKind::InvalidState), "{e}");
            assert!(e.to_string().contains("nothing was deleted"), "{e}");
            assert_eq!(server.count("configmaps"), 30, "nothing is gone");
            assert!(server.requests().iter().all(|r| r.method != "DELETE"));
        }
    }
}
