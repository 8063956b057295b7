use std::time::Duration;

use serde_json::json;
use test_apiserver::{fixtures, TestApiServer};

use crate::support::{name_of, rv_of, seeded, Next, Watch};

#[tokio::test]
async fn watch_from_zero_sends_current_objects_then_changes() {
    let server = seeded(3).await;
    let mut w = Watch::open(&server, "/api/v1/pods?watch=1&resourceVersion=0").await;
    assert_eq!(w.status, 200);
    let mut initial = Vec::new();
    for _ in 0..3 {
        let e = w.next_event().await;
        assert_eq!(e["type"], "ADDED");
        assert_eq!(e["object"]["kind"], "Pod");
        assert_eq!(e["object"]["apiVersion"], "v1");
        initial.push(name_of(&e["object"]).to_owned());
    }
    initial.sort();
    assert_eq!(initial, ["pod-0", "pod-1", "pod-2"]);

    let patched = server
        .patch_merge(
            "pods",
            Some("ns-0"),
            "pod-1",
            json!({"metadata": {"labels": {"x": "y"}}}),
        )
        .unwrap();
    let deleted = server.delete("pods", Some("ns-0"), "pod-2").unwrap();
    let e = w.next_event().await;
    assert_eq!(e["type"], "MODIFIED");
    assert_eq!(e["object"]["metadata"]["labels"]["x"], "y");
    assert_eq!(rv_of(&e["object"]), rv_of(&patched));
    let e = w.next_event().await;
    assert_eq!(e["type"], "DELETED");
    assert_eq!(name_of(&e["object"]), "pod-2");
    assert_eq!(rv_of(&e["object"]), rv_of(&deleted));
    assert!(rv_of(&deleted) > rv_of(&patched));
    assert_eq!(
        e.as_object().unwrap().len(),
        2,
        "an event has only type and object: {e}"
    );
}

#[tokio::test]
async fn watch_from_a_resource_version_sends_only_later_events_in_order() {
    let server = TestApiServer::builder()
        .seed_pods(2)
        .namespaces(["ns-1"])
        .start()
        .await
        .unwrap();
    let a = server
        .create(
            "configmaps",
            Some("ns-0"),
            fixtures::config_map("ns-0", "a", 0),
        )
        .unwrap();
    let b = server
        .create(
            "configmaps",
            Some("ns-0"),
            fixtures::config_map("ns-0", "b", 1),
        )
        .unwrap();
    let c = server
        .create(
            "configmaps",
            Some("ns-0"),
            fixtures::config_map("ns-0", "c", 2),
        )
        .unwrap();
    let mut w = Watch::open(
        &server,
        &format!(
            "/api/v1/configmaps?watch=true&resourceVersion={}",
            rv_of(&a)
        ),
    )
    .await;
    for expected in [&b, &c] {
        let e = w.next_event().await;
        assert_eq!(e["type"], "ADDED");
        assert_eq!(e["object"]["kind"], "ConfigMap");
        assert_eq!(name_of(&e["object"]), name_of(expected));
    }
    let d = server
        .create(
            "configmaps",
            Some("ns-1"),
            fixtures::config_map("ns-1", "d", 3),
        )
        .unwrap();
    let e = w.next_event().await;
    assert_eq!(rv_of(&e["object"]), rv_of(&d));
}

#[tokio::test]
async fn a_too_old_resource_version_gets_one_410_error_event_then_the_end() {
    let server = TestApiServer::builder()
        .namespaces(["ns-0"])
        .history(3)
        .start()
        .await
        .unwrap();
    let first = server
        .create(
            "configmaps",
            Some("ns-0"),
            fixtures::config_map("ns-0", "c0", 0),
        )
        .unwrap();
    for i in 1..8 {
        server
            .create(
                "configmaps",
                Some("ns-0"),
                fixtures::config_map("ns-0", &format!("c{i}"), i),
            )
            .unwrap();
    }
    let asked = rv_of(&first);
    let mut w = Watch::open(
        &server,
        &format!("/api/v1/configmaps?watch=1&resourceVersion={asked}"),
    )
    .await;
    assert_eq!(w.status, 200);
    let e = w.next().await;
    assert_eq!(e["type"], "ERROR");
    let obj = &e["object"];
    let message = obj["message"].as_str().unwrap();
    assert!(
        message.starts_with(&format!("too old resource version: {asked} (")),
        "{message}"
    );
    assert_eq!(
        obj,
        &json!({"kind": "Status", "apiVersion": "v1", "metadata": {}, "status": "Failure",
                "message": message, "reason": "Expired", "code": 410})
    );
    w.assert_end().await;

    // Inside the window still works.
    let recent = server.resource_version() - 1;
    let mut w = Watch::open(
        &server,
        &format!("/api/v1/configmaps?watch=1&resourceVersion={recent}"),
    )
    .await;
    assert_eq!(w.next_event().await["type"], "ADDED");
}

#[tokio::test]
async fn bookmarks_carry_only_kind_api_version_and_resource_version() {
    let server = TestApiServer::builder()
        .seed_pods(1)
        .bookmark_interval(Duration::from_millis(50))
        .start()
        .await
        .unwrap();
    let rv = server.resource_version();
    let mut w = Watch::open(
        &server,
        &format!("/api/v1/pods?watch=1&resourceVersion={rv}&allowWatchBookmarks=true"),
    )
    .await;
    let e = w.next().await;
    assert_eq!(
        e,
        json!({"type": "BOOKMARK", "object": {"kind": "Pod", "apiVersion": "v1", "metadata": {"resourceVersion": rv.to_string()}}})
    );
    // Without allowWatchBookmarks there are none: the timeout ends the stream with nothing sent.
    let mut w = Watch::open(
        &server,
        &format!("/api/v1/pods?watch=1&resourceVersion={rv}&timeoutSeconds=1"),
    )
    .await;
    assert!(matches!(w.next_raw().await, Next::End));
}

#[tokio::test]
async fn timeout_seconds_closes_the_stream_cleanly() {
    let server = seeded(1).await;
    let mut w = Watch::open(&server, "/api/v1/pods?watch=1&timeoutSeconds=1").await;
    assert_eq!(w.next_event().await["type"], "ADDED");
    w.assert_end().await;
}

#[tokio::test]
async fn send_initial_events_ends_with_an_annotated_bookmark() {
    let server = seeded(3).await;
    let rv = server.resource_version();
    let mut w = Watch::open(
        &server,
        "/api/v1/pods?watch=1&sendInitialEvents=true&resourceVersionMatch=NotOlderThan&allowWatchBookmarks=true&resourceVersion=",
    )
    .await;
    for _ in 0..3 {
        assert_eq!(w.next().await["type"], "ADDED");
    }
    let b = w.next().await;
    assert_eq!(
        b,
        json!({"type": "BOOKMARK", "object": {"kind": "Pod", "apiVersion": "v1", "metadata": {
            "resourceVersion": rv.to_string(),
            "annotations": {"k8s.io/initial-events-end": "true"}}}})
    );
    server
        .create("pods", None, fixtures::pod("ns-0", "later", 7))
        .unwrap();
    assert_eq!(name_of(&w.next_event().await["object"]), "later");

    for (query, field) in [
        (
            "sendInitialEvents=true&allowWatchBookmarks=true",
            "resourceVersionMatch",
        ),
        (
            "sendInitialEvents=true&resourceVersionMatch=NotOlderThan",
            "allowWatchBookmarks",
        ),
        (
            "resourceVersionMatch=NotOlderThan&resourceVersion=1",
            "resourceVersionMatch",
        ),
    ] {
        let (code, status) =
            crate::support::get(&server, &format!("/api/v1/pods?watch=1&{query}")).await;
        assert_eq!(code, 422, "{query}");
        let msg = crate::support::assert_status(&status, 422, "Invalid");
        assert!(
            msg.contains(&format!("{field}: Forbidden")),
            "{query}: {msg}"
        );
    }
}

#[tokio::test]
async fn selectors_filter_events_and_turn_transitions_into_added_and_deleted() {
    let server = TestApiServer::builder()
        .seed_pods(3)
        .namespaces(["ns-9"])
        .start()
        .await
        .unwrap();
    let rv = server.resource_version();
    let mut w = Watch::open(
        &server,
        &format!(
            "/api/v1/namespaces/ns-0/pods?watch=1&resourceVersion={rv}&labelSelector=tier%3Dweb"
        ),
    )
    .await;
    // pod-1 (tier=api) changes: not delivered. pod-0 (web) leaves the selector: DELETED.
    server
        .patch_merge(
            "pods",
            Some("ns-0"),
            "pod-1",
            json!({"metadata": {"labels": {"x": "1"}}}),
        )
        .unwrap();
    let left = server
        .patch_merge(
            "pods",
            Some("ns-0"),
            "pod-0",
            json!({"metadata": {"labels": {"tier": "db"}}}),
        )
        .unwrap();
    let e = w.next_event().await;
    assert_eq!(e["type"], "DELETED");
    assert_eq!(name_of(&e["object"]), "pod-0");
    assert_eq!(
        e["object"]["metadata"]["labels"]["tier"], "web",
        "the previous content"
    );
    assert_eq!(
        rv_of(&e["object"]),
        rv_of(&left),
        "at the change's resourceVersion"
    );
    // pod-2 joins the selector: ADDED.
    server
        .patch_merge(
            "pods",
            Some("ns-0"),
            "pod-2",
            json!({"metadata": {"labels": {"tier": "web"}}}),
        )
        .unwrap();
    let e = w.next_event().await;
    assert_eq!(
        (e["type"].as_str(), name_of(&e["object"])),
        (Some("ADDED"), "pod-2")
    );
    // Another namespace is not delivered; a matching change is MODIFIED.
    server
        .create("pods", None, fixtures::pod("ns-9", "elsewhere", 0))
        .unwrap();
    server
        .patch_merge(
            "pods",
            Some("ns-0"),
            "pod-2",
            json!({"metadata": {"labels": {"y": "2"}}}),
        )
        .unwrap();
    let e = w.next_event().await;
    assert_eq!(
        (e["type"].as_str(), name_of(&e["object"])),
        (Some("MODIFIED"), "pod-2")
    );
}

#[tokio::test]
async fn field_selected_watch_sees_only_its_object() {
    let server = seeded(3).await;
    let mut w = Watch::open(
        &server,
        "/api/v1/pods?watch=1&fieldSelector=metadata.name%3Dpod-2",
    )
    .await;
    let e = w.next_event().await;
    assert_eq!(
        (e["type"].as_str(), name_of(&e["object"])),
        (Some("ADDED"), "pod-2")
    );
    server.delete("pods", Some("ns-0"), "pod-1").unwrap();
    server.delete("pods", Some("ns-0"), "pod-2").unwrap();
    let e = w.next_event().await;
    assert_eq!(
        (e["type"].as_str(), name_of(&e["object"])),
        (Some("DELETED"), "pod-2")
    );
}

#[tokio::test]
async fn batch_created_pods_stream_as_added_then_modified_events() {
    let server = seeded(2).await;
    let rv = server.resource_version();
    let mut w = Watch::open(
        &server,
        &format!("/api/v1/pods?watch=1&resourceVersion={rv}"),
    )
    .await;
    let after = server.create_pods(2..202, 4).unwrap();
    assert_eq!(after, rv + 200);
    let mut last = rv;
    for i in 2..202 {
        let e = w.next_event().await;
        assert_eq!(e["type"], "ADDED");
        assert_eq!(name_of(&e["object"]), format!("pod-{i}"));
        assert_eq!(
            e["object"]["metadata"]["namespace"],
            format!("ns-{}", i % 4)
        );
        assert!(rv_of(&e["object"]) > last);
        last = rv_of(&e["object"]);
    }
    server.create_pods(0..1, 1).unwrap();
    let e = w.next_event().await;
    assert_eq!(
        (e["type"].as_str(), name_of(&e["object"])),
        (Some("MODIFIED"), "pod-0")
    );
    assert_eq!(server.count("pods"), 202);
}

#[tokio::test]
async fn prepared_pod_writes_publish_later_as_one_batch() {
    let server = seeded(3).await;
    let rv = server.resource_version();
    let prepared = server.prepare_pods(0..3, 1, 7).unwrap();
    assert_eq!((prepared.len(), prepared.after_resource_version()), (7, rv));
    assert_eq!(server.resource_version(), rv, "preparing writes nothing");
    let mut w = Watch::open(
        &server,
        &format!("/api/v1/pods?watch=1&resourceVersion={rv}"),
    )
    .await;
    assert_eq!(server.publish_pods(prepared).unwrap(), rv + 7);
    assert_eq!(server.resource_version(), rv + 7);
    for k in 0..7u64 {
        let e = w.next_event().await;
        assert_eq!(e["type"], "MODIFIED");
        assert_eq!(name_of(&e["object"]), format!("pod-{}", k % 3));
        assert_eq!(e["object"]["metadata"]["namespace"], "ns-0");
        assert_eq!(rv_of(&e["object"]), rv + 1 + k);
    }
    assert_eq!(server.count("pods"), 3);
    let pod = server.get("pods", Some("ns-0"), "pod-0").unwrap();
    assert_eq!(rv_of(&pod), rv + 7, "the last write of pod-0 is its state");
}

#[tokio::test]
async fn prepared_pod_writes_fail_after_another_write() {
    let server = seeded(2).await;
    let prepared = server.prepare_pods(0..2, 1, 4).unwrap();
    server
        .create(
            "configmaps",
            Some("ns-0"),
            fixtures::config_map("ns-0", "c", 0),
        )
        .unwrap();
    let rv = server.resource_version();
    let e = server.publish_pods(prepared).unwrap_err();
    assert_eq!(e.code, 409, "{e:?}");
    assert_eq!(server.resource_version(), rv, "nothing written");
    assert!(server.prepare_pods(0..0, 1, 1).is_err());
    assert!(server.prepare_pods(0..0, 1, 0).is_ok_and(|p| p.is_empty()));
}
