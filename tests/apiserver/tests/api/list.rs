use serde_json::json;
use test_apiserver::{fixtures, TestApiServer};

use crate::support::{assert_status, get, name_of, rv_of, seeded};

#[tokio::test]
async fn list_has_the_real_shape_and_items_carry_no_kind() {
    let server = seeded(3).await;
    let (code, list) = get(&server, "/api/v1/pods").await;
    assert_eq!(code, 200);
    assert_eq!(list["kind"], "PodList");
    assert_eq!(list["apiVersion"], "v1");
    let rv = list["metadata"]["resourceVersion"]
        .as_str()
        .expect("rv is a string");
    assert_eq!(rv, server.resource_version().to_string());
    assert!(list["metadata"].get("continue").is_none());
    let items = list["items"].as_array().expect("items");
    assert_eq!(items.len(), 3);
    for item in items {
        assert!(
            item.get("kind").is_none() && item.get("apiVersion").is_none(),
            "{item}"
        );
        assert!(item["metadata"]["uid"]
            .as_str()
            .is_some_and(|u| u.len() == 36));
        assert!(item["metadata"]["creationTimestamp"]
            .as_str()
            .is_some_and(|t| t.ends_with('Z')));
        assert!(rv_of(item) <= server.resource_version());
        assert_eq!(item["spec"]["containers"][0]["name"], "app");
    }
    // A single GET carries kind and apiVersion.
    let ns = items[0]["metadata"]["namespace"].as_str().unwrap();
    let (code, pod) = get(
        &server,
        &format!("/api/v1/namespaces/{ns}/pods/{}", name_of(&items[0])),
    )
    .await;
    assert_eq!(code, 200);
    assert_eq!(
        (pod["kind"].as_str(), pod["apiVersion"].as_str()),
        (Some("Pod"), Some("v1"))
    );
}

#[tokio::test]
async fn pages_come_from_one_consistent_snapshot() {
    let server = seeded(10).await;
    let (_, first) = get(&server, "/api/v1/pods?limit=4").await;
    let snapshot_rv = first["metadata"]["resourceVersion"]
        .as_str()
        .unwrap()
        .to_owned();
    assert_eq!(first["items"].as_array().unwrap().len(), 4);
    assert_eq!(first["metadata"]["remainingItemCount"], 6);
    let token = first["metadata"]["continue"]
        .as_str()
        .expect("continue")
        .to_owned();

    // Changes after the first page must not show up in later pages.
    let last_name = name_of(&first["items"][3]).to_owned();
    let all_names: Vec<String> = server
        .list("pods", None)
        .unwrap()
        .iter()
        .map(|p| name_of(p).to_owned())
        .collect();
    let later = all_names
        .iter()
        .skip_while(|n| **n != last_name)
        .nth(1)
        .unwrap()
        .clone();
    server.delete("pods", Some("ns-0"), &later).unwrap();
    server
        .patch_merge(
            "pods",
            Some("ns-0"),
            &all_names[9],
            json!({"metadata": {"labels": {"changed": "yes"}}}),
        )
        .unwrap();
    server
        .create("pods", None, fixtures::pod("ns-0", "zzz-new", 99))
        .unwrap();

    let mut names: Vec<String> = first["items"]
        .as_array()
        .unwrap()
        .iter()
        .map(|i| name_of(i).to_owned())
        .collect();
    let mut token = Some(token);
    while let Some(t) = token {
        let (code, page) = get(&server, &format!("/api/v1/pods?limit=4&continue={t}")).await;
        assert_eq!(code, 200, "{page}");
        assert_eq!(page["metadata"]["resourceVersion"], snapshot_rv.as_str());
        for item in page["items"].as_array().unwrap() {
            assert!(
                item["metadata"]["labels"].get("changed").is_none(),
                "page shows a later change"
            );
            names.push(name_of(item).to_owned());
        }
        token = page["metadata"]["continue"].as_str().map(str::to_owned);
    }
    assert_eq!(names, all_names, "pages together are exactly the snapshot");
}

#[tokio::test]
async fn continue_tokens_expire_and_garbage_is_a_bad_request() {
    let server = seeded(5).await;
    let (_, first) = get(&server, "/api/v1/pods?limit=2").await;
    let token = first["metadata"]["continue"].as_str().unwrap().to_owned();
    server
        .create(
            "configmaps",
            Some("ns-0"),
            fixtures::config_map("ns-0", "c", 0),
        )
        .unwrap();
    server.faults().compact_history();
    let (code, status) = get(&server, &format!("/api/v1/pods?limit=2&continue={token}")).await;
    assert_eq!(code, 410);
    let msg = assert_status(&status, 410, "Expired");
    assert!(
        msg.starts_with("The provided continue parameter is too old"),
        "{msg}"
    );

    let (code, status) = get(&server, "/api/v1/pods?limit=2&continue=bm90LWEtdG9rZW4").await;
    assert_eq!(code, 400);
    assert!(assert_status(&status, 400, "BadRequest").contains("continue"));

    let (_, fresh) = get(&server, "/api/v1/pods?limit=2").await;
    let token = fresh["metadata"]["continue"].as_str().unwrap();
    let (code, status) = get(
        &server,
        &format!("/api/v1/pods?limit=2&continue={token}&resourceVersion=3"),
    )
    .await;
    assert_eq!(code, 400);
    assert_status(&status, 400, "BadRequest");
}

#[tokio::test]
async fn resource_version_semantics_match_the_real_server() {
    let server = TestApiServer::builder()
        .seed_pods(6)
        .history(100)
        .start()
        .await
        .unwrap();
    // "0" is served like the watch cache: limit ignored.
    let (_, all) = get(&server, "/api/v1/pods?resourceVersion=0&limit=2").await;
    assert_eq!(all["items"].as_array().unwrap().len(), 6);
    assert!(all["metadata"].get("continue").is_none());

    // Exact reads reconstruct an older state.
    let before = server.resource_version();
    server
        .patch_merge(
            "pods",
            Some("ns-0"),
            "pod-1",
            json!({"metadata": {"labels": {"tier": "changed"}}}),
        )
        .unwrap();
    let (code, old) = get(
        &server,
        &format!("/api/v1/pods?resourceVersion={before}&resourceVersionMatch=Exact"),
    )
    .await;
    assert_eq!(code, 200, "{old}");
    assert_eq!(old["metadata"]["resourceVersion"], before.to_string());
    let pod1 = old["items"]
        .as_array()
        .unwrap()
        .iter()
        .find(|p| name_of(p) == "pod-1")
        .unwrap();
    assert_eq!(pod1["metadata"]["labels"]["tier"], "api");
    let (_, now) = get(
        &server,
        &format!("/api/v1/pods?resourceVersion={before}&resourceVersionMatch=NotOlderThan"),
    )
    .await;
    assert_eq!(
        now["metadata"]["resourceVersion"],
        server.resource_version().to_string()
    );

    // Validation as kube-apiserver's ListOptions validation answers it.
    for (query, needle) in [
        (
            "resourceVersionMatch=Exact",
            "resourceVersionMatch is forbidden unless resourceVersion is provided",
        ),
        (
            "resourceVersion=0&resourceVersionMatch=Exact",
            "resourceVersionMatch \\\"exact\\\" is forbidden",
        ),
        (
            "resourceVersion=1&resourceVersionMatch=Sometimes",
            "Unsupported value",
        ),
    ] {
        let (code, status) = get(&server, &format!("/api/v1/pods?{query}")).await;
        assert_eq!(code, 422, "{query}");
        let msg = assert_status(&status, 422, "Invalid");
        assert!(
            msg.starts_with("ListOptions.meta.k8s.io \"\" is invalid: "),
            "{msg}"
        );
        assert!(status.to_string().contains(needle), "{query}: {status}");
    }
    let (code, status) = get(&server, "/api/v1/pods?resourceVersion=abc").await;
    assert_eq!(code, 400);
    assert_status(&status, 400, "BadRequest");
    let (code, status) = get(
        &server,
        "/api/v1/pods?resourceVersion=999999&resourceVersionMatch=NotOlderThan",
    )
    .await;
    assert_eq!(code, 504);
    assert_status(&status, 504, "Timeout");

    server.faults().compact_history();
    let (code, status) = get(
        &server,
        &format!("/api/v1/pods?resourceVersion={before}&resourceVersionMatch=Exact"),
    )
    .await;
    assert_eq!(code, 410);
    assert_eq!(
        assert_status(&status, 410, "Expired"),
        "The resourceVersion for the provided list is too old."
    );
}

#[tokio::test]
async fn label_and_field_selectors_filter_like_the_real_server() {
    let server = TestApiServer::builder()
        .seed_pods(9)
        .seed_namespaces(3)
        .start()
        .await
        .unwrap();
    let names = |v: &serde_json::Value| -> Vec<String> {
        let mut n: Vec<String> = v["items"]
            .as_array()
            .unwrap()
            .iter()
            .map(|i| name_of(i).to_owned())
            .collect();
        n.sort();
        n
    };
    let (_, web) = get(&server, "/api/v1/pods?labelSelector=tier%3Dweb").await;
    assert_eq!(names(&web), ["pod-0", "pod-3", "pod-6"]);
    let (_, not_web) = get(
        &server,
        "/api/v1/pods?labelSelector=tier%20notin%20(web,db)",
    )
    .await;
    assert_eq!(names(&not_web), ["pod-1", "pod-4", "pod-7"]);
    let (_, ns1) = get(&server, "/api/v1/namespaces/ns-1/pods").await;
    assert_eq!(names(&ns1), ["pod-1", "pod-4", "pod-7"]);
    let (_, by_name) = get(&server, "/api/v1/pods?fieldSelector=metadata.name%3Dpod-4").await;
    assert_eq!(names(&by_name), ["pod-4"]);
    let (_, by_ns) = get(
        &server,
        "/api/v1/pods?fieldSelector=metadata.namespace!%3Dns-0,metadata.namespace!%3Dns-1",
    )
    .await;
    assert_eq!(names(&by_ns), ["pod-2", "pod-5", "pod-8"]);
    let (_, by_node) = get(
        &server,
        "/api/v1/pods?fieldSelector=spec.nodeName%3D%3Dnode-2",
    )
    .await;
    assert_eq!(names(&by_node), ["pod-2"]);
    let (_, running) = get(
        &server,
        "/api/v1/pods?fieldSelector=status.phase%3DRunning&labelSelector=tier%3Ddb",
    )
    .await;
    assert_eq!(names(&running), ["pod-2", "pod-5", "pod-8"]);
    // With a selector, pages still work but remainingItemCount is not reported.
    let (_, page) = get(&server, "/api/v1/pods?labelSelector=tier&limit=2").await;
    assert_eq!(page["items"].as_array().unwrap().len(), 2);
    assert!(page["metadata"]["continue"].is_string());
    assert!(page["metadata"].get("remainingItemCount").is_none());

    let (code, status) = get(&server, "/api/v1/pods?fieldSelector=spec.color%3Dred").await;
    assert_eq!(code, 400);
    assert_eq!(
        assert_status(&status, 400, "BadRequest"),
        "field label not supported: spec.color"
    );
    let (code, status) = get(
        &server,
        "/api/v1/configmaps?fieldSelector=spec.nodeName%3Dx",
    )
    .await;
    assert_eq!(code, 400);
    assert_status(&status, 400, "BadRequest");
    for bad in ["tier%3D%3D%3Dweb", "tier%20in%20web", "-bad%3Dx", "a%3Db,"] {
        let (code, status) = get(&server, &format!("/api/v1/pods?labelSelector={bad}")).await;
        assert_eq!(code, 400, "{bad}");
        assert!(
            assert_status(&status, 400, "BadRequest").starts_with("unable to parse requirement")
        );
    }
}

#[tokio::test]
async fn unknown_resources_and_missing_objects_are_404() {
    let server = seeded(1).await;
    for path in [
        "/api/v1/widgets",
        "/apis/nope/v1/things",
        "/api/v1/namespaces/ns-0/nodes",
        "/api/v1/pods/pod-0",
        "/api/v2/pods",
    ] {
        let (code, status) = get(&server, path).await;
        assert_eq!(code, 404, "{path}");
        assert_eq!(
            assert_status(&status, 404, "NotFound"),
            "the server could not find the requested resource"
        );
    }
    let (code, status) = get(&server, "/api/v1/namespaces/ns-0/pods/missing").await;
    assert_eq!(code, 404);
    assert_eq!(
        assert_status(&status, 404, "NotFound"),
        "pods \"missing\" not found"
    );
    assert_eq!(
        status["details"],
        json!({"name": "missing", "kind": "pods"})
    );
    let (code, status) = get(&server, "/apis/apps/v1/namespaces/ns-0/deployments/web").await;
    assert_eq!(code, 404);
    assert_eq!(
        assert_status(&status, 404, "NotFound"),
        "deployments.apps \"web\" not found"
    );
    assert_eq!(status["details"]["group"], "apps");
}
