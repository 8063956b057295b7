use reqwest::Method;
use serde_json::{json, Value};
use test_apiserver::{fixtures, TestApiServer};

use crate::support::{delete, event_of, failure, get, post, send, Watch, JSON, MERGE};

fn names(list: &Value) -> Vec<&str> {
    list["items"]
        .as_array()
        .map(|items| {
            items
                .iter()
                .filter_map(|i| i["metadata"]["name"].as_str())
                .collect()
        })
        .unwrap_or_default()
}

fn not_found(namespace: &str) -> Value {
    failure(
        404,
        "NotFound",
        &format!("namespaces \"{namespace}\" not found"),
        json!({"name": namespace, "kind": "namespaces"}),
    )
}

fn terminating(resource: &str, group: &str, kind: &str, name: &str, ns: &str) -> Value {
    let mut details = json!({
        "name": name,
        "kind": kind,
        "causes": [{
            "reason": "NamespaceTerminating",
            "message": format!("namespace {ns} is being terminated"),
            "field": "metadata.namespace",
        }],
    });
    if !group.is_empty() {
        details["group"] = json!(group);
    }
    failure(
        403,
        "Forbidden",
        &format!("{resource} \"{name}\" is forbidden: unable to create new content in namespace {ns} because it is being terminated"),
        details,
    )
}

#[tokio::test]
async fn a_fresh_server_has_the_namespaces_of_a_fresh_cluster() {
    let server = TestApiServer::builder()
        .namespaces(["shop", "default"])
        .start()
        .await
        .unwrap();
    let (code, list) = get(&server, "/api/v1/namespaces").await;
    assert_eq!(code, 200, "{list}");
    assert_eq!(
        names(&list),
        [
            "default",
            "kube-node-lease",
            "kube-public",
            "kube-system",
            "shop"
        ]
    );
    for ns in list["items"].as_array().unwrap() {
        assert_eq!(ns["status"], json!({"phase": "Active"}), "{ns}");
        assert_eq!(ns["spec"], json!({"finalizers": ["kubernetes"]}), "{ns}");
        assert_eq!(
            ns["metadata"]["labels"],
            json!({"kubernetes.io/metadata.name": ns["metadata"]["name"]}),
            "{ns}"
        );
    }
    // The namespace registry puts its finalizer on every namespace it creates.
    let (code, created) = post(
        &server,
        "/api/v1/namespaces",
        &json!({"metadata": {"name": "team-a"}, "spec": {"finalizers": ["example.com/x"]}}),
    )
    .await;
    assert_eq!(code, 201, "{created}");
    assert_eq!(
        created["spec"],
        json!({"finalizers": ["example.com/x", "kubernetes"]})
    );
    // Defaulting sets the name label on every write, whatever the client sent for it.
    let (code, patched) = send(
        &server,
        Method::PATCH,
        "/api/v1/namespaces/team-a",
        MERGE,
        &json!({"metadata": {"labels": {"kubernetes.io/metadata.name": "other", "tier": "web"}}}),
    )
    .await;
    assert_eq!(code, 200, "{patched}");
    assert_eq!(
        patched["metadata"]["labels"],
        json!({"kubernetes.io/metadata.name": "team-a", "tier": "web"})
    );
    // Named namespaces may repeat seeded ones.
    let seeded = TestApiServer::builder()
        .seed_pods(2)
        .seed_namespaces(2)
        .namespaces(["ns-1", "team-b"])
        .start()
        .await
        .unwrap();
    let (_, list) = get(&seeded, "/api/v1/namespaces").await;
    assert_eq!(
        names(&list),
        [
            "default",
            "kube-node-lease",
            "kube-public",
            "kube-system",
            "ns-0",
            "ns-1",
            "team-b"
        ]
    );
}

#[tokio::test]
async fn writes_into_a_missing_namespace_are_404() {
    let server = TestApiServer::builder().start().await.unwrap();
    let cm = json!({"metadata": {"name": "c"}});
    let (code, got) = post(&server, "/api/v1/namespaces/nope/configmaps", &cm).await;
    assert_eq!((code, got), (404, not_found("nope")));
    // A PUT that would create (leases allow it) is admitted as a create.
    let lease = json!({"metadata": {"name": "l"}, "spec": {}});
    let (code, got) = send(
        &server,
        Method::PUT,
        "/apis/coordination.k8s.io/v1/namespaces/nope/leases/l",
        JSON,
        &lease,
    )
    .await;
    assert_eq!((code, got), (404, not_found("nope")));
    // A PUT to an object that is not there is answered by the registry first.
    let (code, got) = send(
        &server,
        Method::PUT,
        "/api/v1/namespaces/nope/configmaps/c",
        JSON,
        &cm,
    )
    .await;
    assert_eq!(
        (code, got),
        (
            404,
            failure(
                404,
                "NotFound",
                "configmaps \"c\" not found",
                json!({"name": "c", "kind": "configmaps"}),
            )
        )
    );
    let err = server
        .create(
            "configmaps",
            Some("nope"),
            fixtures::config_map("nope", "c", 0),
        )
        .unwrap_err();
    assert_eq!(err.to_value(), not_found("nope"));
    // Cluster-scoped objects need no namespace.
    let (code, node) = post(
        &server,
        "/api/v1/nodes",
        &json!({"metadata": {"name": "n1"}}),
    )
    .await;
    assert_eq!(code, 201, "{node}");
}

#[tokio::test]
async fn deleting_a_namespace_terminates_it_and_the_controller_removes_it_when_empty() {
    let server = TestApiServer::builder()
        .namespaces(["shop"])
        .start()
        .await
        .unwrap();
    for name in ["c1", "c2"] {
        server
            .create(
                "configmaps",
                Some("shop"),
                fixtures::config_map("shop", name, 0),
            )
            .unwrap();
    }
    let mut held = fixtures::config_map("shop", "held", 0);
    held["metadata"]["finalizers"] = json!(["example.com/hold"]);
    server.create("configmaps", Some("shop"), held).unwrap();
    server
        .create("pods", Some("shop"), fixtures::pod("shop", "p", 0))
        .unwrap();
    server
        .create(
            "configmaps",
            Some("default"),
            fixtures::config_map("default", "keep", 0),
        )
        .unwrap();
    let rv = server.resource_version();
    let mut ns_watch = Watch::open_ok(
        &server,
        &format!("/api/v1/namespaces?watch=1&resourceVersion={rv}"),
    )
    .await;
    let mut cm_watch = Watch::open_ok(
        &server,
        &format!("/api/v1/configmaps?watch=1&resourceVersion={rv}"),
    )
    .await;

    let (code, ns) = delete(&server, "/api/v1/namespaces/shop").await;
    assert_eq!(code, 200, "{ns}");
    assert_eq!(ns["kind"], "Namespace");
    assert_eq!(ns["status"]["phase"], "Terminating");
    assert!(ns["metadata"]["deletionTimestamp"].is_string(), "{ns}");
    assert_eq!(ns["spec"]["finalizers"], json!(["kubernetes"]));
    let e = ns_watch.next_event().await;
    assert_eq!(event_of(&e), ("MODIFIED".into(), "shop".into()));
    assert_eq!(e["object"]["status"]["phase"], "Terminating");

    // The controller deletes the content; what a finalizer holds stays, marked.
    let mut seen = Vec::new();
    for _ in 0..3 {
        seen.push(event_of(&cm_watch.next_event().await));
    }
    seen.sort();
    assert_eq!(
        seen,
        [
            ("DELETED".into(), "c1".into()),
            ("DELETED".into(), "c2".into()),
            ("MODIFIED".into(), "held".into()),
        ]
    );

    // Creates are refused while it terminates; updates go through.
    let (code, got) = post(
        &server,
        "/api/v1/namespaces/shop/configmaps",
        &json!({"metadata": {"name": "late"}}),
    )
    .await;
    assert_eq!(
        (code, got),
        (
            403,
            terminating("configmaps", "", "configmaps", "late", "shop")
        )
    );
    let (code, got) = post(
        &server,
        "/api/v1/namespaces/shop/configmaps",
        &json!({"metadata": {"generateName": "gen-"}}),
    )
    .await;
    assert_eq!(
        (code, got),
        (
            403,
            terminating("configmaps", "", "configmaps", "gen-", "shop")
        )
    );
    let (code, got) = send(
        &server,
        Method::PUT,
        "/apis/coordination.k8s.io/v1/namespaces/shop/leases/l",
        JSON,
        &json!({"metadata": {"name": "l"}, "spec": {}}),
    )
    .await;
    assert_eq!(
        (code, got),
        (
            403,
            terminating(
                "leases.coordination.k8s.io",
                "coordination.k8s.io",
                "leases",
                "l",
                "shop"
            )
        )
    );
    let (code, got) = post(
        &server,
        "/api/v1/namespaces",
        &json!({"metadata": {"name": "shop"}}),
    )
    .await;
    assert_eq!(
        (code, got),
        (
            409,
            failure(
                409,
                "AlreadyExists",
                "object is being deleted: namespaces \"shop\" already exists",
                json!({"name": "shop", "kind": "namespaces"}),
            )
        )
    );
    // Deleting it again changes nothing while its finalizer is there.
    let (code, again) = delete(&server, "/api/v1/namespaces/shop").await;
    assert_eq!(code, 200, "{again}");
    assert_eq!(again["metadata"], ns["metadata"]);

    // Releasing the last object lets the controller finalize and delete the namespace.
    let (code, released) = send(
        &server,
        Method::PATCH,
        "/api/v1/namespaces/shop/configmaps/held",
        MERGE,
        &json!({"metadata": {"finalizers": null}}),
    )
    .await;
    assert_eq!(code, 200, "{released}");
    assert_eq!(
        event_of(&cm_watch.next_event().await),
        ("DELETED".into(), "held".into())
    );
    let e = ns_watch.next_event().await;
    assert_eq!(event_of(&e), ("MODIFIED".into(), "shop".into()));
    assert_eq!(e["object"]["spec"], json!({"finalizers": []}));
    let e = ns_watch.next_event().await;
    assert_eq!(event_of(&e), ("DELETED".into(), "shop".into()));

    let (code, got) = get(&server, "/api/v1/namespaces/shop").await;
    assert_eq!(
        (code, got),
        (
            404,
            failure(
                404,
                "NotFound",
                "namespaces \"shop\" not found",
                json!({"name": "shop", "kind": "namespaces"}),
            )
        )
    );
    assert_eq!(server.list("pods", Some("shop")).unwrap().len(), 0);
    assert_eq!(server.list("configmaps", None).unwrap().len(), 1);
}

#[tokio::test]
async fn immortal_namespaces_cannot_be_deleted() {
    let server = TestApiServer::builder().start().await.unwrap();
    for ns in ["default", "kube-system", "kube-public"] {
        let (code, got) = delete(&server, &format!("/api/v1/namespaces/{ns}")).await;
        let want = failure(
            403,
            "Forbidden",
            &format!("namespaces \"{ns}\" is forbidden: this namespace may not be deleted"),
            json!({"name": ns, "kind": "namespaces"}),
        );
        assert_eq!((code, got), (403, want));
    }
    let (code, ns) = delete(&server, "/api/v1/namespaces/kube-node-lease").await;
    assert_eq!((code, &ns["status"]["phase"]), (200, &json!("Terminating")));
}

#[tokio::test]
async fn namespace_delete_preconditions_use_the_namespace_registry_messages() {
    let server = TestApiServer::builder()
        .namespaces(["shop"])
        .start()
        .await
        .unwrap();
    let uid = server.get("namespaces", None, "shop").unwrap()["metadata"]["uid"]
        .as_str()
        .unwrap()
        .to_owned();
    let (code, got) = send(
        &server,
        Method::DELETE,
        "/api/v1/namespaces/shop",
        JSON,
        &json!({"preconditions": {"uid": "other"}}),
    )
    .await;
    let want = failure(
        409,
        "Conflict",
        &format!("Operation cannot be fulfilled on namespaces \"shop\": Precondition failed: UID in precondition: other, UID in object meta: {uid}"),
        json!({"name": "shop", "kind": "namespaces"}),
    );
    assert_eq!((code, got), (409, want));
}

#[tokio::test]
async fn namespaces_have_no_delete_collection() {
    let server = TestApiServer::builder().start().await.unwrap();
    let (code, got) = delete(&server, "/api/v1/namespaces").await;
    let want = failure(
        405,
        "MethodNotAllowed",
        "the server does not allow this method on the requested resource",
        json!({}),
    );
    assert_eq!((code, got), (405, want));
    let (_, discovery) = get(&server, "/api/v1").await;
    let namespaces = discovery["resources"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["name"] == "namespaces")
        .unwrap();
    assert_eq!(
        namespaces["verbs"],
        json!(["create", "delete", "get", "list", "patch", "update", "watch"])
    );
}

#[tokio::test]
async fn a_namespace_goes_only_when_its_spec_finalizers_are_gone_too() {
    let server = TestApiServer::builder().start().await.unwrap();
    let ns = json!({"metadata": {"name": "team", "finalizers": ["example.com/audit"]}});
    let (code, created) = post(&server, "/api/v1/namespaces", &ns).await;
    assert_eq!(code, 201, "{created}");
    let mut held = fixtures::config_map("team", "held", 0);
    held["metadata"]["finalizers"] = json!(["example.com/hold"]);
    server.create("configmaps", Some("team"), held).unwrap();
    let rv = server.resource_version();
    let mut cm_watch = Watch::open_ok(
        &server,
        &format!("/api/v1/configmaps?watch=1&resourceVersion={rv}"),
    )
    .await;
    let (code, _) = delete(&server, "/api/v1/namespaces/team").await;
    assert_eq!(code, 200);
    // The controller has marked the held object: the namespace keeps `kubernetes`.
    assert_eq!(
        event_of(&cm_watch.next_event().await),
        ("MODIFIED".into(), "held".into())
    );
    let release = json!({"metadata": {"finalizers": null}});
    let (code, ns) = send(
        &server,
        Method::PATCH,
        "/api/v1/namespaces/team",
        MERGE,
        &release,
    )
    .await;
    assert_eq!(code, 200, "{ns}");
    assert_eq!(ns["spec"]["finalizers"], json!(["kubernetes"]));
    let (code, still) = get(&server, "/api/v1/namespaces/team").await;
    assert_eq!(
        (code, &still["status"]["phase"]),
        (200, &json!("Terminating"))
    );

    let mut ns_watch = Watch::open_ok(
        &server,
        &format!(
            "/api/v1/namespaces?watch=1&resourceVersion={}",
            server.resource_version()
        ),
    )
    .await;
    let (code, _) = send(
        &server,
        Method::PATCH,
        "/api/v1/namespaces/team/configmaps/held",
        MERGE,
        &release,
    )
    .await;
    assert_eq!(code, 200);
    assert_eq!(
        event_of(&ns_watch.next_event().await),
        ("MODIFIED".into(), "team".into())
    );
    assert_eq!(
        event_of(&ns_watch.next_event().await),
        ("DELETED".into(), "team".into())
    );
}
