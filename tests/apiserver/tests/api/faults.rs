use std::time::{Duration, Instant};

use serde_json::json;
use test_apiserver::{fixtures, FaultTarget, TestApiServer};

use crate::support::{assert_status, client, get, name_of, rv_of, seeded, Next, Watch};

#[tokio::test]
async fn the_next_requests_fail_with_the_chosen_status() {
    let server = seeded(1).await;
    server
        .faults()
        .fail_next(2, 429, FaultTarget::resource("pods").verb("list"));
    for _ in 0..2 {
        let resp = client()
            .get(format!("{}/api/v1/pods", server.url()))
            .send()
            .await
            .unwrap();
        assert_eq!(resp.status().as_u16(), 429);
        assert_eq!(resp.headers()["retry-after"], "1");
        let body: serde_json::Value = resp.json().await.unwrap();
        assert_status(&body, 429, "TooManyRequests");
        assert_eq!(body["details"]["retryAfterSeconds"], 1);
    }
    assert_eq!(get(&server, "/api/v1/pods").await.0, 200);

    server
        .faults()
        .fail_next(1, 503, FaultTarget::resource("configmaps"));
    server.faults().fail_next(1, 500, FaultTarget::any());
    // pods skip the configmaps rule and take the catch-all one.
    let (code, status) = get(&server, "/api/v1/pods").await;
    assert_eq!(code, 500);
    assert_status(&status, 500, "InternalError");
    assert_eq!(get(&server, "/api/v1/pods").await.0, 200);
    let (code, status) = get(&server, "/api/v1/configmaps").await;
    assert_eq!(code, 503);
    assert_status(&status, 503, "ServiceUnavailable");
    assert_eq!(get(&server, "/api/v1/configmaps").await.0, 200);
    // Discovery is never affected.
    server.faults().fail_next(1, 500, FaultTarget::any());
    assert_eq!(get(&server, "/api/v1").await.0, 200);
    server.faults().clear();
    assert_eq!(get(&server, "/api/v1/pods").await.0, 200);
}

#[tokio::test]
async fn stalled_requests_are_delayed_at_least_the_stall() {
    let server = seeded(1).await;
    server
        .faults()
        .stall_next(1, Duration::from_millis(300), FaultTarget::any());
    let t = Instant::now();
    assert_eq!(get(&server, "/api/v1/pods").await.0, 200);
    assert!(t.elapsed() >= Duration::from_millis(300));
}

#[tokio::test]
async fn cut_responses_break_the_body() {
    let server = seeded(3).await;
    server.faults().cut_next(1, FaultTarget::resource("pods"));
    let resp = client()
        .get(format!("{}/api/v1/pods", server.url()))
        .send()
        .await
        .unwrap();
    assert_eq!(resp.status().as_u16(), 200);
    assert!(resp.bytes().await.is_err(), "the body must not complete");
    assert_eq!(get(&server, "/api/v1/pods").await.0, 200);

    let mut w = Watch::open(&server, "/api/v1/pods?watch=1").await;
    for _ in 0..3 {
        w.next_event().await;
    }
    server.faults().cut_watches();
    assert!(matches!(w.next_raw().await, Next::Broken));
}

#[tokio::test]
async fn watches_drop_after_n_events_and_malformed_lines_can_be_injected() {
    let server = seeded(5).await;
    server.faults().drop_watches_after(2);
    let mut w = Watch::open(&server, "/api/v1/pods?watch=1").await;
    w.next_event().await;
    w.next_event().await;
    w.assert_end().await;
    server.faults().drop_watches_after(0);

    let rv = server.resource_version();
    let mut w = Watch::open(
        &server,
        &format!("/api/v1/pods?watch=1&resourceVersion={rv}"),
    )
    .await;
    // Make sure the watch is registered before injecting.
    server
        .create("pods", None, fixtures::pod("ns-0", "a", 1))
        .unwrap();
    assert_eq!(name_of(&w.next_event().await["object"]), "a");
    server.faults().malformed_watch_line();
    match w.next_raw().await {
        Next::Line(l) => assert!(
            serde_json::from_str::<serde_json::Value>(&l).is_err(),
            "{l}"
        ),
        other => panic!("expected a malformed line, got {other:?}"),
    }
    server
        .create("pods", None, fixtures::pod("ns-0", "b", 2))
        .unwrap();
    assert_eq!(name_of(&w.next_event().await["object"]), "b");
}

#[tokio::test]
async fn compaction_and_restarts_expire_old_resource_versions() {
    let server = seeded(2).await;
    let old = server.resource_version();
    server
        .patch_merge(
            "pods",
            Some("ns-0"),
            "pod-0",
            json!({"metadata": {"labels": {"v": "2"}}}),
        )
        .unwrap();

    // Restart keeping history: same port, objects and history kept.
    let addr = server.addr();
    server.restart(true).await.unwrap();
    assert_eq!(server.addr(), addr);
    let mut w = Watch::open(
        &server,
        &format!("/api/v1/pods?watch=1&resourceVersion={old}"),
    )
    .await;
    assert_eq!(w.next_event().await["type"], "MODIFIED");

    // Restart losing history: objects kept, old resourceVersions expired.
    server.restart(false).await.unwrap();
    assert!(
        matches!(w.next_raw().await, Next::End | Next::Broken),
        "restart closes open watches"
    );
    let (_, list) = get(&server, "/api/v1/pods").await;
    assert_eq!(list["items"].as_array().unwrap().len(), 2);
    let mut w = Watch::open(
        &server,
        &format!("/api/v1/pods?watch=1&resourceVersion={old}"),
    )
    .await;
    let e = w.next().await;
    assert_eq!(
        (e["type"].as_str(), e["object"]["code"].as_u64()),
        (Some("ERROR"), Some(410))
    );

    let now = server.resource_version();
    server
        .create("pods", None, fixtures::pod("ns-0", "n", 3))
        .unwrap();
    server.faults().compact_history();
    let mut w = Watch::open(
        &server,
        &format!("/api/v1/pods?watch=1&resourceVersion={now}"),
    )
    .await;
    assert_eq!(w.next().await["object"]["reason"], "Expired");
    let mut w = Watch::open(
        &server,
        &format!(
            "/api/v1/pods?watch=1&resourceVersion={}",
            server.resource_version()
        ),
    )
    .await;
    let created = server
        .create("pods", None, fixtures::pod("ns-0", "m", 4))
        .unwrap();
    assert_eq!(rv_of(&w.next_event().await["object"]), rv_of(&created));
}

#[tokio::test]
async fn request_counters_count_lists_and_watches_per_resource() {
    let server = TestApiServer::builder().seed_pods(1).start().await.unwrap();
    get(&server, "/api/v1/pods?limit=10").await;
    let mut w = Watch::open(&server, "/api/v1/pods?watch=1").await;
    w.next_event().await;
    get(&server, "/api/v1/namespaces/ns-0/pods/pod-0").await;
    get(&server, "/api/v1").await;
    assert_eq!(server.request_count("list", "pods"), 1);
    assert_eq!(server.request_count("watch", "pods"), 1);
    assert_eq!(server.request_count("get", "pods"), 1);
    assert_eq!(server.request_count("list", "configmaps"), 0);
    assert_eq!(server.request_counts().len(), 3);
    server.reset_request_counts();
    assert_eq!(server.request_count("list", "pods"), 0);
}
