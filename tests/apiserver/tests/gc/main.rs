//! Garbage collection by `metadata.ownerReferences` over HTTP, against what
//! kube-apiserver and kube-controller-manager's garbage collector do together:
//! background, foreground and orphan propagation, dangling references, delete-collection
//! cascades, dry-run deletes and the builder's opt-out.

mod support;

use serde_json::{json, Value};
use support::*;
use test_apiserver::{RunningServer, TestApiServer};

const DEPLOYS: &str = "/apis/apps/v1/namespaces/default/deployments";
const RSS: &str = "/apis/apps/v1/namespaces/default/replicasets";
const PODS: &str = "/api/v1/namespaces/default/pods";
const JOBS: &str = "/apis/batch/v1/namespaces/default/jobs";

async fn server() -> RunningServer {
    TestApiServer::builder().start().await.expect("server")
}

fn finalizers(obj: &Value) -> Vec<String> {
    obj["metadata"]["finalizers"]
        .as_array()
        .map(|l| {
            l.iter()
                .filter_map(Value::as_str)
                .map(str::to_owned)
                .collect()
        })
        .unwrap_or_default()
}

fn names(events: &[(String, String, u64)]) -> Vec<(&str, &str)> {
    let mut v: Vec<(&str, &str)> = events
        .iter()
        .map(|(t, n, _)| (t.as_str(), n.as_str()))
        .collect();
    v.sort();
    v
}

#[tokio::test]
async fn background_deletes_the_owner_at_once_then_its_dependents_recursively() {
    let server = server().await;
    let d = create(&server, DEPLOYS, deployment("web")).await;
    let rs = create(
        &server,
        RSS,
        replica_set("web-1", vec![owner_ref(&d, true)]),
    )
    .await;
    for name in ["web-1-a", "web-1-b"] {
        create(&server, PODS, pod(name, vec![owner_ref(&rs, true)])).await;
    }
    let unrelated = create(&server, PODS, pod("other", vec![])).await;
    let rv = current_rv(&server).await;
    let mut rs_watch =
        Watch::open_ok(&server, &format!("{RSS}?watch=1&resourceVersion={rv}")).await;
    let mut pod_watch =
        Watch::open_ok(&server, &format!("{PODS}?watch=1&resourceVersion={rv}")).await;

    let (code, answer) = delete(
        &server,
        &format!("{DEPLOYS}/web"),
        json!({"propagationPolicy": "Background"}),
    )
    .await;
    assert_eq!(
        (code, &answer["status"]),
        (200, &json!("Success")),
        "{answer}"
    );
    assert_eq!(get(&server, &format!("{DEPLOYS}/web")).await.0, 404);

    let rs_events = take(&mut rs_watch, 1).await;
    assert_eq!(names(&rs_events), [("DELETED", "web-1")]);
    let pod_events = take(&mut pod_watch, 2).await;
    assert_eq!(
        names(&pod_events),
        [("DELETED", "web-1-a"), ("DELETED", "web-1-b")]
    );
    assert!(pod_events.iter().all(|e| e.2 > rs_events[0].2));
    let (code, still) = get(&server, &format!("{PODS}/other")).await;
    assert_eq!(code, 200);
    assert_eq!(still["metadata"]["uid"], unrelated["metadata"]["uid"]);
}

#[tokio::test]
async fn the_default_policy_is_background_for_apps_v1() {
    let server = server().await;
    let d = create(&server, DEPLOYS, deployment("api")).await;
    create(
        &server,
        RSS,
        replica_set("api-1", vec![owner_ref(&d, true)]),
    )
    .await;
    let (code, _) = delete(&server, &format!("{DEPLOYS}/api"), Value::Null).await;
    assert_eq!(code, 200);
    wait_gone(&server, &format!("{RSS}/api-1")).await;
}

#[tokio::test]
async fn foreground_keeps_the_owner_until_blocking_dependents_are_gone() {
    let server = server().await;
    let rs = create(&server, RSS, replica_set("fg", vec![])).await;
    let mut held = pod("fg-held", vec![owner_ref(&rs, true)]);
    held["metadata"]["finalizers"] = json!(["example.com/hold"]);
    create(&server, PODS, held).await;
    create(&server, PODS, pod("fg-free", vec![owner_ref(&rs, false)])).await;
    let rv = current_rv(&server).await;
    let mut rs_watch =
        Watch::open_ok(&server, &format!("{RSS}?watch=1&resourceVersion={rv}")).await;
    let mut pod_watch =
        Watch::open_ok(&server, &format!("{PODS}?watch=1&resourceVersion={rv}")).await;

    let (code, answer) = delete(
        &server,
        &format!("{RSS}/fg"),
        json!({"propagationPolicy": "Foreground"}),
    )
    .await;
    assert_eq!(code, 200, "{answer}");
    assert_eq!(finalizers(&answer), ["foregroundDeletion"]);
    assert!(answer["metadata"]["deletionTimestamp"].is_string());
    assert_eq!(answer["metadata"]["deletionGracePeriodSeconds"], 0);

    let marked = take(&mut rs_watch, 1).await;
    assert_eq!(names(&marked), [("MODIFIED", "fg")]);
    let cascade = take(&mut pod_watch, 2).await;
    assert_eq!(
        names(&cascade),
        [("DELETED", "fg-free"), ("MODIFIED", "fg-held")]
    );
    assert!(cascade.iter().all(|e| e.2 > marked[0].2));

    // The held dependent blocks its owner: the owner stays, marked, with the finalizer.
    let (code, owner) = get(&server, &format!("{RSS}/fg")).await;
    assert_eq!(code, 200);
    assert_eq!(finalizers(&owner), ["foregroundDeletion"]);
    let (_, pod) = get(&server, &format!("{PODS}/fg-held")).await;
    assert!(pod["metadata"]["deletionTimestamp"].is_string(), "{pod}");

    let (code, _) = merge_patch(
        &server,
        &format!("{PODS}/fg-held"),
        json!({"metadata": {"finalizers": null}}),
    )
    .await;
    assert_eq!(code, 200);
    let released = take(&mut pod_watch, 1).await;
    assert_eq!(names(&released), [("DELETED", "fg-held")]);
    let gone = take(&mut rs_watch, 1).await;
    assert_eq!(names(&gone), [("DELETED", "fg")]);
    assert!(gone[0].2 > released[0].2);
}

#[tokio::test]
async fn foreground_cascades_in_the_foreground_through_a_chain() {
    let server = server().await;
    let d = create(&server, DEPLOYS, deployment("chain")).await;
    let rs = create(
        &server,
        RSS,
        replica_set("chain-1", vec![owner_ref(&d, true)]),
    )
    .await;
    let mut held = pod("chain-1-a", vec![owner_ref(&rs, true)]);
    held["metadata"]["finalizers"] = json!(["example.com/hold"]);
    create(&server, PODS, held).await;

    let (code, _) = delete(
        &server,
        &format!("{DEPLOYS}/chain"),
        json!({"propagationPolicy": "Foreground"}),
    )
    .await;
    assert_eq!(code, 200);
    // The ReplicaSet has a dependent of its own: it is deleted in the foreground too.
    let rs_now = wait_for(&server, &format!("{RSS}/chain-1"), |v| {
        v["metadata"]["deletionTimestamp"].is_string()
    })
    .await;
    assert_eq!(finalizers(&rs_now), ["foregroundDeletion"]);
    wait_for(&server, &format!("{PODS}/chain-1-a"), |v| {
        v["metadata"]["deletionTimestamp"].is_string()
    })
    .await;
    let (code, _) = get(&server, &format!("{DEPLOYS}/chain")).await;
    assert_eq!(code, 200);

    merge_patch(
        &server,
        &format!("{PODS}/chain-1-a"),
        json!({"metadata": {"finalizers": null}}),
    )
    .await;
    wait_gone(&server, &format!("{RSS}/chain-1")).await;
    wait_gone(&server, &format!("{DEPLOYS}/chain")).await;
}

#[tokio::test]
async fn orphan_strips_the_references_and_keeps_the_dependents() {
    let server = server().await;
    let rs = create(&server, RSS, replica_set("keep", vec![])).await;
    let other = create(&server, RSS, replica_set("other-owner", vec![])).await;
    create(&server, PODS, pod("keep-a", vec![owner_ref(&rs, true)])).await;
    let mut both = pod("keep-b", vec![owner_ref(&rs, true)]);
    both["metadata"]["ownerReferences"]
        .as_array_mut()
        .expect("list")
        .push(json!({"apiVersion": "apps/v1", "kind": "ReplicaSet", "name": "other-owner", "uid": other["metadata"]["uid"]}));
    create(&server, PODS, both).await;
    let rv = current_rv(&server).await;
    let mut rs_watch =
        Watch::open_ok(&server, &format!("{RSS}?watch=1&resourceVersion={rv}")).await;
    let mut pod_watch =
        Watch::open_ok(&server, &format!("{PODS}?watch=1&resourceVersion={rv}")).await;

    let (code, answer) = delete(
        &server,
        &format!("{RSS}/keep"),
        json!({"propagationPolicy": "Orphan"}),
    )
    .await;
    assert_eq!(code, 200, "{answer}");
    assert_eq!(finalizers(&answer), ["orphan"]);
    assert!(answer["metadata"]["deletionTimestamp"].is_string());

    assert_eq!(names(&take(&mut rs_watch, 1).await), [("MODIFIED", "keep")]);
    let stripped = take(&mut pod_watch, 2).await;
    assert_eq!(
        names(&stripped),
        [("MODIFIED", "keep-a"), ("MODIFIED", "keep-b")]
    );
    let gone = take(&mut rs_watch, 1).await;
    assert_eq!(names(&gone), [("DELETED", "keep")]);
    assert!(stripped.iter().all(|e| e.2 < gone[0].2));

    let (_, a) = get(&server, &format!("{PODS}/keep-a")).await;
    assert!(a["metadata"].get("ownerReferences").is_none(), "{a}");
    let (_, b) = get(&server, &format!("{PODS}/keep-b")).await;
    assert_eq!(b["metadata"]["ownerReferences"][0]["name"], "other-owner");
    assert_eq!(
        b["metadata"]["ownerReferences"].as_array().map(Vec::len),
        Some(1)
    );
}

#[tokio::test]
async fn orphan_dependents_true_and_the_batch_v1_job_default_orphan() {
    let server = server().await;
    let rs = create(&server, RSS, replica_set("old-style", vec![])).await;
    create(
        &server,
        PODS,
        pod("old-style-a", vec![owner_ref(&rs, true)]),
    )
    .await;
    let (code, answer) = delete(
        &server,
        &format!("{RSS}/old-style?orphanDependents=true"),
        Value::Null,
    )
    .await;
    assert_eq!(code, 200);
    assert_eq!(finalizers(&answer), ["orphan"]);
    wait_gone(&server, &format!("{RSS}/old-style")).await;
    let (code, a) = get(&server, &format!("{PODS}/old-style-a")).await;
    assert_eq!(code, 200);
    assert!(a["metadata"].get("ownerReferences").is_none(), "{a}");

    let job = create(
        &server,
        JOBS,
        json!({
            "apiVersion": "batch/v1", "kind": "Job", "metadata": {"name": "once"},
            "spec": {"template": {"spec": {"restartPolicy": "Never", "containers": [{"name": "c", "image": "busybox"}]}}},
        }),
    )
    .await;
    create(&server, PODS, pod("once-a", vec![owner_ref(&job, true)])).await;
    let (code, answer) = delete(&server, &format!("{JOBS}/once"), Value::Null).await;
    assert_eq!(code, 200);
    assert_eq!(finalizers(&answer), ["orphan"], "{answer}");
    wait_gone(&server, &format!("{JOBS}/once")).await;
    let (code, a) = get(&server, &format!("{PODS}/once-a")).await;
    assert_eq!(code, 200);
    assert!(a["metadata"].get("ownerReferences").is_none(), "{a}");
}

#[tokio::test]
async fn dependents_of_deleted_owners_are_collected_and_dangling_references_dropped() {
    let server = server().await;
    let gone_rs = create(&server, RSS, replica_set("gone", vec![])).await;
    let alive = create(&server, RSS, replica_set("alive", vec![])).await;
    let (code, _) = delete(&server, &format!("{RSS}/gone"), Value::Null).await;
    assert_eq!(code, 200);

    let mut made_up = owner_ref(&gone_rs, true);
    made_up["name"] = json!("never");
    made_up["uid"] = json!("00000000-0000-4000-8000-000000000000");
    create(&server, PODS, pod("unknown-owner", vec![made_up])).await;
    create(&server, PODS, pod("late", vec![owner_ref(&gone_rs, true)])).await;
    let mut second = owner_ref(&gone_rs, false);
    second["controller"] = json!(false);
    create(
        &server,
        PODS,
        pod("mixed", vec![owner_ref(&alive, false), second]),
    )
    .await;

    wait_gone(&server, &format!("{PODS}/late")).await;
    let mixed = wait_for(&server, &format!("{PODS}/mixed"), |v| {
        v["metadata"]["ownerReferences"].as_array().map(Vec::len) == Some(1)
    })
    .await;
    assert_eq!(
        mixed["metadata"]["ownerReferences"][0]["uid"],
        alive["metadata"]["uid"]
    );
    // An owner with a uid this server never issued is absent too, as kube-controller-manager
    // finds it absent by its live lookup.
    wait_gone(&server, &format!("{PODS}/unknown-owner")).await;
}

#[tokio::test]
async fn fixture_pods_find_their_owners_in_the_seeded_namespaces() {
    let server = TestApiServer::builder()
        .seed_namespaces(2)
        .start()
        .await
        .expect("server");
    let ns1 = "/api/v1/namespaces/ns-1/pods";
    for (name, i) in [("fixture-a", 0), ("fixture-b", 77)] {
        create(&server, ns1, test_apiserver::fixtures::pod("ns-1", name, i)).await;
    }
    let owner = test_apiserver::fixtures::pod_owner_uid("ns-1", 77);
    let (code, rs) = get(
        &server,
        "/apis/apps/v1/namespaces/ns-1/replicasets/app-27-7d4b9c8f6d",
    )
    .await;
    assert_eq!((code, &rs["metadata"]["uid"]), (200, &json!(owner)), "{rs}");
    // A fixture Pod in a namespace without its ReplicaSet is collected, as on a cluster;
    // once it is gone, the Pods queued before it have been looked at (and kept).
    create(
        &server,
        PODS,
        test_apiserver::fixtures::pod("default", "fixture-c", 0),
    )
    .await;
    wait_gone(&server, &format!("{PODS}/fixture-c")).await;
    for name in ["fixture-a", "fixture-b"] {
        assert_eq!(
            get(&server, &format!("{ns1}/{name}")).await.0,
            200,
            "{name}"
        );
    }
}

#[tokio::test]
async fn unknown_owners_and_owners_in_other_namespaces_are_absent() {
    let server = TestApiServer::builder()
        .namespaces(["a", "b"])
        .start()
        .await
        .expect("server");
    let in_b = create(
        &server,
        "/apis/apps/v1/namespaces/b/replicasets",
        replica_set("owner", vec![]),
    )
    .await;
    let mut made_up = owner_ref(&in_b, true);
    made_up["name"] = json!("never");
    made_up["uid"] = json!("00000000-0000-4000-8000-000000000000");
    create(&server, PODS, pod("unknown-owner", vec![made_up])).await;
    create(
        &server,
        "/api/v1/namespaces/a/pods",
        pod("cross", vec![owner_ref(&in_b, true)]),
    )
    .await;
    create(
        &server,
        "/api/v1/namespaces/b/pods",
        pod("same", vec![owner_ref(&in_b, true)]),
    )
    .await;
    // A cluster-scoped dependent of a namespaced owner is invalid: the collector leaves it.
    let mut node = pod("node-1", vec![owner_ref(&in_b, true)]);
    node["kind"] = json!("Node");
    node["spec"] = json!({});
    create(&server, "/api/v1/nodes", node).await;

    wait_gone(&server, &format!("{PODS}/unknown-owner")).await;
    wait_gone(&server, "/api/v1/namespaces/a/pods/cross").await;
    assert_eq!(get(&server, "/api/v1/namespaces/b/pods/same").await.0, 200);
    assert_eq!(get(&server, "/api/v1/nodes/node-1").await.0, 200);

    // With the opt-out, a uid this server never issued is left alone; a deleted owner's
    // dependents are still collected.
    let server = TestApiServer::builder()
        .collect_unknown_owners(false)
        .start()
        .await
        .expect("server");
    let gone_rs = create(&server, RSS, replica_set("gone", vec![])).await;
    let mut made_up = owner_ref(&gone_rs, true);
    made_up["name"] = json!("never");
    made_up["uid"] = json!("00000000-0000-4000-8000-000000000000");
    create(&server, PODS, pod("unknown-owner", vec![made_up])).await;
    create(&server, PODS, pod("late", vec![owner_ref(&gone_rs, true)])).await;
    delete(&server, &format!("{RSS}/gone"), Value::Null).await;
    // Each pass of the collector takes every dependent queued so far: once the dependent
    // of the deleted owner is gone, the one queued before it has been looked at and kept.
    wait_gone(&server, &format!("{PODS}/late")).await;
    assert_eq!(get(&server, &format!("{PODS}/unknown-owner")).await.0, 200);
}

#[tokio::test]
async fn delete_collection_cascades_to_each_owners_dependents() {
    let server = server().await;
    let mut owners = Vec::new();
    for (name, app) in [("batch-1", "batch"), ("batch-2", "batch"), ("web-1", "web")] {
        let mut rs = replica_set(name, vec![]);
        rs["metadata"]["labels"] = json!({"app": app});
        owners.push(create(&server, RSS, rs).await);
    }
    for owner in &owners {
        let name = format!(
            "{}-pod",
            owner["metadata"]["name"].as_str().unwrap_or_default()
        );
        create(&server, PODS, pod(&name, vec![owner_ref(owner, true)])).await;
    }
    let (code, list) = delete(
        &server,
        &format!("{RSS}?labelSelector=app%3Dbatch"),
        Value::Null,
    )
    .await;
    assert_eq!(code, 200, "{list}");
    assert_eq!(list["items"].as_array().map(Vec::len), Some(2));
    wait_gone(&server, &format!("{PODS}/batch-1-pod")).await;
    wait_gone(&server, &format!("{PODS}/batch-2-pod")).await;
    assert_eq!(get(&server, &format!("{PODS}/web-1-pod")).await.0, 200);
}

#[tokio::test]
async fn dry_run_deletes_cascade_nothing() {
    let server = server().await;
    let d = create(&server, DEPLOYS, deployment("dry")).await;
    create(
        &server,
        RSS,
        replica_set("dry-1", vec![owner_ref(&d, true)]),
    )
    .await;
    let (code, answer) = delete(
        &server,
        &format!("{DEPLOYS}/dry"),
        json!({"dryRun": ["All"], "propagationPolicy": "Foreground"}),
    )
    .await;
    assert_eq!(code, 200, "{answer}");
    assert_eq!(finalizers(&answer), ["foregroundDeletion"]);
    let (code, answer) = delete(&server, &format!("{DEPLOYS}/dry?dryRun=All"), Value::Null).await;
    assert_eq!((code, &answer["status"]), (200, &json!("Success")));

    // A real cascade after the dry runs: once it is done, the collector has seen them.
    let barrier = create(&server, RSS, replica_set("barrier", vec![])).await;
    create(
        &server,
        PODS,
        pod("barrier-a", vec![owner_ref(&barrier, true)]),
    )
    .await;
    delete(&server, &format!("{RSS}/barrier"), Value::Null).await;
    wait_gone(&server, &format!("{PODS}/barrier-a")).await;

    let (code, still) = get(&server, &format!("{DEPLOYS}/dry")).await;
    assert_eq!(code, 200);
    assert!(finalizers(&still).is_empty());
    assert!(still["metadata"].get("deletionTimestamp").is_none());
    assert_eq!(get(&server, &format!("{RSS}/dry-1")).await.0, 200);
}

#[tokio::test]
async fn without_garbage_collection_deletes_leave_dependents_as_envtest_does() {
    let server = TestApiServer::builder()
        .garbage_collection(false)
        .start()
        .await
        .expect("server");
    let d = create(&server, DEPLOYS, deployment("lone")).await;
    create(
        &server,
        RSS,
        replica_set("lone-1", vec![owner_ref(&d, true)]),
    )
    .await;
    let (code, answer) = delete(
        &server,
        &format!("{DEPLOYS}/lone"),
        json!({"propagationPolicy": "Foreground"}),
    )
    .await;
    assert_eq!(
        (code, &answer["status"]),
        (200, &json!("Success")),
        "{answer}"
    );
    assert_eq!(get(&server, &format!("{DEPLOYS}/lone")).await.0, 404);
    create(&server, PODS, pod("orphaned", vec![owner_ref(&d, true)])).await;
    let (code, rs) = get(&server, &format!("{RSS}/lone-1")).await;
    assert_eq!(code, 200);
    assert_eq!(
        rs["metadata"]["ownerReferences"][0]["uid"],
        d["metadata"]["uid"]
    );
    assert_eq!(get(&server, &format!("{PODS}/orphaned")).await.0, 200);
}
