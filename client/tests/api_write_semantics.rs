//! `Api<K>` against the test server's kube-apiserver write semantics: dry runs, JSON patch
//! `test` failures, delete preconditions, finalizers, delete_collection, and the patch types
//! the server does not serve.

use informer_client::api::{Api, DeleteParams, DeleteResponse, Patch, PatchParams, PostParams};
use informer_client::client::{Client, Config};
use informer_client::ListOptions;
use k8s_openapi::api::core::v1::ConfigMap;
use k8s_openapi::apimachinery::pkg::apis::meta::v1::ObjectMeta;
use serde_json::json;
use test_apiserver::{RunningServer, TestApiServer};

async fn server() -> (RunningServer, Api<ConfigMap>) {
    let server = TestApiServer::builder()
        .namespaces(["shop"])
        .start()
        .await
        .unwrap();
    let client = Client::new(Config::new(server.url())).unwrap();
    (server, Api::namespaced(client, "shop"))
}

fn config_map(name: &str, app: &str) -> ConfigMap {
    ConfigMap {
        metadata: ObjectMeta {
            name: Some(name.to_owned()),
            labels: Some([("app".to_owned(), app.to_owned())].into()),
            ..Default::default()
        },
        data: Some([("k".to_owned(), "v".to_owned())].into()),
        ..Default::default()
    }
}

#[tokio::test]
async fn dry_runs_answer_but_store_nothing() {
    let (server, cms) = server().await;
    let answered = cms
        .create(&config_map("dry", "a"), &PostParams::default().dry_run())
        .await
        .unwrap();
    assert_eq!(answered.metadata.name.as_deref(), Some("dry"));
    assert!(cms.get_opt("dry").await.unwrap().is_none());

    let stored = cms
        .create(&config_map("real", "a"), &PostParams::default())
        .await
        .unwrap();
    let patched = cms
        .patch(
            "real",
            &Patch::Merge(json!({"data": {"k": "changed"}})),
            &PatchParams::default().dry_run(),
        )
        .await
        .unwrap();
    assert_eq!(patched.data.unwrap()["k"], "changed");
    let after = cms.get("real").await.unwrap();
    assert_eq!(after.data.unwrap()["k"], "v");
    assert_eq!(
        after.metadata.resource_version,
        stored.metadata.resource_version
    );

    cms.delete("real", &DeleteParams::default().dry_run())
        .await
        .unwrap();
    assert!(cms.get_opt("real").await.unwrap().is_some());
    server.shutdown().await;
}

#[tokio::test]
async fn json_patch_applies_or_fails_its_test_as_invalid() {
    let (server, cms) = server().await;
    cms.create(&config_map("cm", "a"), &PostParams::default())
        .await
        .unwrap();
    let ok = cms
        .patch(
            "cm",
            &Patch::Json(json!([
                {"op": "test", "path": "/data/k", "value": "v"},
                {"op": "replace", "path": "/data/k", "value": "w"},
                {"op": "add", "path": "/metadata/labels/tier", "value": "web"},
            ])),
            &PatchParams::default(),
        )
        .await
        .unwrap();
    assert_eq!(ok.data.unwrap()["k"], "w");
    assert_eq!(ok.metadata.labels.unwrap()["tier"], "web");

    let failed = cms
        .patch(
            "cm",
            &Patch::Json(json!([
                {"op": "test", "path": "/data/k", "value": "v"},
                {"op": "replace", "path": "/data/k", "value": "x"},
            ])),
            &PatchParams::default(),
        )
        .await
        .unwrap_err();
    assert!(failed.is_invalid(), "{failed}");
    assert_eq!(cms.get("cm").await.unwrap().data.unwrap()["k"], "w");
    server.shutdown().await;
}

#[tokio::test]
async fn delete_preconditions_and_finalizers() {
    let (server, cms) = server().await;
    let mut held = config_map("held", "a");
    held.metadata.finalizers = Some(vec!["example.com/cleanup".to_owned()]);
    let created = cms.create(&held, &PostParams::default()).await.unwrap();

    let stale = cms
        .delete(
            "held",
            &DeleteParams::default().precondition_uid("not-the-uid"),
        )
        .await
        .unwrap_err();
    assert!(stale.is_conflict(), "{stale}");

    let uid = created.metadata.uid.clone().unwrap();
    let answer = cms
        .delete("held", &DeleteParams::background().precondition_uid(uid))
        .await
        .unwrap();
    let DeleteResponse::Object(marked) = answer else {
        panic!("an object held by a finalizer is answered with the object");
    };
    assert!(marked.metadata.deletion_timestamp.is_some());
    let mut still_there = cms.get("held").await.unwrap();
    assert!(still_there.metadata.deletion_timestamp.is_some());

    still_there.metadata.finalizers = None;
    cms.update(&still_there, &PostParams::default())
        .await
        .unwrap();
    let gone = cms.get("held").await.unwrap_err();
    assert!(gone.is_not_found(), "{gone}");
    server.shutdown().await;
}

#[tokio::test]
async fn delete_collection_takes_only_the_selected() {
    let (server, cms) = server().await;
    for (name, app) in [("a1", "a"), ("a2", "a"), ("b1", "b")] {
        cms.create(&config_map(name, app), &PostParams::default())
            .await
            .unwrap();
    }
    let selected = ListOptions {
        label_selector: Some("app=a".into()),
        ..Default::default()
    };
    cms.delete_collection(&DeleteParams::default(), &selected)
        .await
        .unwrap();
    let left = cms.list(&ListOptions::default()).await.unwrap();
    let names: Vec<_> = left
        .items
        .iter()
        .filter_map(|cm| cm.metadata.name.as_deref())
        .collect();
    assert_eq!(names, ["b1"]);
    server.shutdown().await;
}

#[tokio::test]
async fn strategic_merge_and_apply_are_served_with_their_content_types_and_manager() {
    let (server, cms) = server().await;
    cms.create(&config_map("cm", "a"), &PostParams::default())
        .await
        .unwrap();
    let strategic = cms
        .patch(
            "cm",
            &Patch::Strategic(json!({"data": {"k": "w"}})),
            &PatchParams::default(),
        )
        .await
        .unwrap();
    assert_eq!(
        strategic
            .data
            .unwrap_or_default()
            .get("k")
            .map(String::as_str),
        Some("w")
    );
    let apply = |value: &str| {
        Patch::Apply(json!({
            "apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "cm"},
            "data": {"owned": value},
        }))
    };
    let applied = cms
        .patch("cm", &apply("x"), &PatchParams::apply("test-manager"))
        .await
        .unwrap();
    let managers: Vec<_> = applied
        .metadata
        .managed_fields
        .iter()
        .flatten()
        .map(|m| (m.manager.as_deref(), m.operation.as_deref()))
        .collect();
    assert!(
        managers.contains(&(Some("test-manager"), Some("Apply"))),
        "{managers:?}"
    );
    // Another manager applying a different value for the same field conflicts; forced, it
    // takes the field over.
    let conflict = cms
        .patch("cm", &apply("y"), &PatchParams::apply("other-manager"))
        .await
        .unwrap_err();
    assert!(conflict.is_conflict(), "{conflict}");
    assert!(conflict.to_string().contains("test-manager"), "{conflict}");
    let forced = cms
        .patch(
            "cm",
            &apply("y"),
            &PatchParams::apply("other-manager").force(),
        )
        .await
        .unwrap();
    assert_eq!(
        forced
            .data
            .unwrap_or_default()
            .get("owned")
            .map(String::as_str),
        Some("y")
    );
    // What the server received is what a real server would have: the content types and the
    // apply's field manager and force.
    let requests = server.requests();
    let patches: Vec<_> = requests.iter().filter(|r| r.method == "PATCH").collect();
    assert_eq!(
        patches[0].content_type.as_deref(),
        Some("application/strategic-merge-patch+json")
    );
    assert_eq!(
        patches[1].content_type.as_deref(),
        Some("application/apply-patch+yaml")
    );
    assert_eq!(patches[1].param("fieldManager"), Some("test-manager"));
    assert_eq!(patches[3].param("force"), Some("true"));
    server.shutdown().await;
}
