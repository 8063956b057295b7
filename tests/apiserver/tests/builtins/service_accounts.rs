//! ServiceAccounts: served as kube-apiserver serves them, kept in every namespace as
//! kube-controller-manager's serviceaccounts controller keeps the `default` one, and looked
//! up by the `ServiceAccount` admission plugin on every Pod create.

use serde_json::{json, Value};
use test_apiserver::{eventually, RunningServer, TestApiServer};

use crate::support::{call, delete, failure, get, invalid, post, put, server, Watch};

const TOKEN_MOUNT_PATH: &str = "/var/run/secrets/kubernetes.io/serviceaccount";

fn pod(name: &str, spec_extra: Value) -> Value {
    let mut spec = json!({"containers": [{"name": "web", "image": "nginx:1.27"}]});
    if let (Some(spec), Some(extra)) = (spec.as_object_mut(), spec_extra.as_object()) {
        spec.extend(extra.clone());
    }
    json!({"metadata": {"name": name}, "spec": spec})
}

/// The admission plugin's 403 for a Pod known to admission as `name`.
fn no_account(name: &str, namespace: &str, account: &str) -> Value {
    failure(
        403,
        "Forbidden",
        &format!(
            "pods \"{name}\" is forbidden: error looking up service account \
             {namespace}/{account}: serviceaccount \"{account}\" not found"
        ),
        json!({"name": name, "kind": "pods"}),
    )
}

/// Names of the volumes mounting the API credentials, in the pod and in its first container.
fn token_mounts(stored: &Value) -> (Vec<String>, Vec<String>) {
    let names = |list: &Value, pick: &dyn Fn(&Value) -> bool| -> Vec<String> {
        list.as_array()
            .map(|l| {
                l.iter()
                    .filter(|v| pick(v))
                    .filter_map(|v| v["name"].as_str().map(str::to_owned))
                    .collect()
            })
            .unwrap_or_default()
    };
    (
        names(&stored["spec"]["volumes"], &|v| {
            v["name"]
                .as_str()
                .is_some_and(|n| n.starts_with("kube-api-access-"))
        }),
        names(&stored["spec"]["containers"][0]["volumeMounts"], &|m| {
            m["mountPath"] == TOKEN_MOUNT_PATH
        }),
    )
}

/// The uid of the `default` ServiceAccount of `namespace`, if it exists (in-process read).
fn account_uid(server: &RunningServer, namespace: &str) -> Option<String> {
    let sa = server
        .get("serviceaccounts", Some(namespace), "default")
        .ok()?;
    sa["metadata"]["uid"].as_str().map(str::to_owned)
}

#[tokio::test]
async fn service_accounts_are_served_like_the_other_built_ins() {
    let server = server().await;
    let (code, v1) = get(&server, "/api/v1").await;
    assert_eq!(code, 200);
    let entry = v1["resources"]
        .as_array()
        .expect("resources")
        .iter()
        .find(|r| r["name"] == "serviceaccounts")
        .expect("serviceaccounts in discovery")
        .clone();
    assert_eq!(
        entry,
        json!({
            "name": "serviceaccounts",
            "singularName": "serviceaccount",
            "namespaced": true,
            "kind": "ServiceAccount",
            "verbs": ["create", "delete", "deletecollection", "get", "list", "patch", "update", "watch"],
            "shortNames": ["sa"],
        })
    );

    let mut watch = Watch::open_ok(
        &server,
        "/api/v1/namespaces/shop/serviceaccounts?watch=1&resourceVersion=0",
    )
    .await;
    let added = watch.next_event().await;
    assert_eq!(
        (&added["type"], &added["object"]["metadata"]["name"]),
        (&json!("ADDED"), &json!("default"))
    );

    // The strategy keeps only the name of each secret reference.
    let robot = json!({
        "apiVersion": "v1",
        "kind": "ServiceAccount",
        "metadata": {"name": "robot", "labels": {"team": "a"}},
        "secrets": [{"name": "robot-token", "namespace": "shop", "uid": "x"}],
        "imagePullSecrets": [{"name": "regcred"}],
        "automountServiceAccountToken": false,
    });
    let (code, created) = post(&server, "/api/v1/namespaces/shop/serviceaccounts", &robot).await;
    assert_eq!(code, 201, "{created}");
    assert_eq!(created["secrets"], json!([{"name": "robot-token"}]));
    assert_eq!(created["metadata"]["namespace"], "shop");
    assert!(created["metadata"].get("generation").is_none(), "{created}");
    let added = watch.next_event().await;
    assert_eq!(
        (&added["type"], &added["object"]["metadata"]["name"]),
        (&json!("ADDED"), &json!("robot"))
    );

    let (code, got) = get(&server, "/api/v1/namespaces/shop/serviceaccounts/robot").await;
    assert_eq!((code, &got), (200, &created));
    let (code, list) = get(&server, "/api/v1/namespaces/shop/serviceaccounts").await;
    assert_eq!(code, 200);
    assert_eq!(list["kind"], "ServiceAccountList");
    let names: Vec<&str> = list["items"]
        .as_array()
        .expect("items")
        .iter()
        .filter_map(|i| i["metadata"]["name"].as_str())
        .collect();
    assert_eq!(names, ["default", "robot"]);

    let mut changed = created.clone();
    changed["metadata"]["labels"]["team"] = json!("b");
    let (code, updated) = put(
        &server,
        "/api/v1/namespaces/shop/serviceaccounts/robot",
        &changed,
    )
    .await;
    assert_eq!(code, 200, "{updated}");
    assert_eq!(updated["metadata"]["labels"]["team"], "b");
    let modified = watch.next_event().await;
    assert_eq!(modified["type"], "MODIFIED");
    // `secrets` merges by name in a strategic merge patch.
    let patched = call(
        &server,
        reqwest::Method::PATCH,
        "/api/v1/namespaces/shop/serviceaccounts/robot",
        "application/strategic-merge-patch+json",
        Some(&json!({"secrets": [{"name": "other-token"}]})),
    )
    .await;
    assert_eq!(patched.code, 200, "{}", patched.body);
    let mut secrets: Vec<&str> = patched.body["secrets"]
        .as_array()
        .expect("secrets")
        .iter()
        .filter_map(|s| s["name"].as_str())
        .collect();
    secrets.sort_unstable();
    assert_eq!(secrets, ["other-token", "robot-token"]);
    let updated = patched.body;
    let modified = watch.next_event().await;
    assert_eq!(modified["type"], "MODIFIED");

    // `ValidateServiceAccountName` is a DNS-1123 subdomain.
    let (code, refused) = post(
        &server,
        "/api/v1/namespaces/shop/serviceaccounts",
        &json!({"metadata": {"name": "Robot_1"}}),
    )
    .await;
    assert_eq!(code, 422);
    assert_eq!(
        refused,
        invalid(
            "ServiceAccount",
            "",
            "Robot_1",
            &[(
                "FieldValueInvalid",
                "metadata.name",
                "Invalid value: \"Robot_1\": a lowercase RFC 1123 subdomain must consist of lower case \
                 alphanumeric characters, '-' or '.', and must start and end with an alphanumeric \
                 character (e.g. 'example.com', regex used for validation is \
                 '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')",
            )],
        )
    );

    // `ValidateServiceAccountUpdate` checks the new object as a create after the update
    // checks: as on a ConfigMap, a bad label is one cause per pass, four in all.
    let mut bad = updated.clone();
    bad["metadata"]["labels"] = json!({"bad key": "v"});
    let (code, refused) = put(
        &server,
        "/api/v1/namespaces/shop/serviceaccounts/robot",
        &bad,
    )
    .await;
    let label_error = "Invalid value: \"bad key\": name part must consist of alphanumeric \
         characters, '-', '_' or '.', and must start and end with an alphanumeric character \
         (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is \
         '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')";
    let cause = ("FieldValueInvalid", "metadata.labels", label_error);
    assert_eq!(
        (code, refused),
        (422, invalid("ServiceAccount", "", "robot", &[cause; 4]))
    );

    // A delete answers with a `Status`, as for ConfigMaps.
    let (code, gone) = delete(&server, "/api/v1/namespaces/shop/serviceaccounts/robot").await;
    assert_eq!(code, 200, "{gone}");
    assert_eq!(
        gone,
        json!({"kind": "Status", "apiVersion": "v1", "metadata": {}, "status": "Success",
               "details": {"name": "robot", "kind": "serviceaccounts", "uid": created["metadata"]["uid"]}})
    );
    let deleted = watch.next_event().await;
    assert_eq!(deleted["type"], "DELETED");
    server.shutdown().await;
}

#[tokio::test]
async fn every_namespace_keeps_a_default_service_account() {
    let server = server().await;
    for ns in [
        "default",
        "kube-system",
        "kube-public",
        "kube-node-lease",
        "shop",
    ] {
        let (code, sa) = get(
            &server,
            &format!("/api/v1/namespaces/{ns}/serviceaccounts/default"),
        )
        .await;
        assert_eq!(code, 200, "{ns}: {sa}");
        assert_eq!(
            sa,
            json!({
                "apiVersion": "v1",
                "kind": "ServiceAccount",
                "metadata": {
                    "name": "default",
                    "namespace": ns,
                    "uid": sa["metadata"]["uid"],
                    "resourceVersion": sa["metadata"]["resourceVersion"],
                    "creationTimestamp": sa["metadata"]["creationTimestamp"],
                },
            })
        );
    }

    // A namespace created later has one in time for the Pod created right after it.
    let (code, ns) = post(
        &server,
        "/api/v1/namespaces",
        &json!({"metadata": {"name": "fresh"}}),
    )
    .await;
    assert_eq!(code, 201, "{ns}");
    let (code, created) = post(
        &server,
        "/api/v1/namespaces/fresh/pods",
        &pod("web", json!({})),
    )
    .await;
    assert_eq!(code, 201, "{created}");
    assert_eq!(created["spec"]["serviceAccountName"], "default");

    // Deleted, it comes back as a new object.
    let before = account_uid(&server, "fresh").expect("a default account");
    let (code, gone) = delete(&server, "/api/v1/namespaces/fresh/serviceaccounts/default").await;
    assert_eq!(code, 200, "{gone}");
    eventually("the default account created again", || {
        account_uid(&server, "fresh").is_some_and(|uid| uid != before)
    })
    .await;

    // A terminating namespace does not get it back, and goes.
    let (code, _) = delete(&server, "/api/v1/namespaces/fresh").await;
    assert_eq!(code, 200);
    eventually("the terminating namespace gone", || {
        server.get("namespaces", None, "fresh").is_err()
    })
    .await;
    assert_eq!(account_uid(&server, "fresh"), None);
    server.shutdown().await;
}

#[tokio::test]
async fn without_the_controller_pods_are_refused_until_their_account_exists() {
    let server = TestApiServer::builder()
        .namespaces(["shop"])
        .service_account_controller(false)
        .start()
        .await
        .expect("server");
    let (code, list) = get(&server, "/api/v1/serviceaccounts").await;
    assert_eq!(code, 200);
    assert_eq!(list["items"], json!([]));

    let (code, refused) = post(
        &server,
        "/api/v1/namespaces/shop/pods",
        &pod("web", json!({})),
    )
    .await;
    assert_eq!((code, refused), (403, no_account("web", "shop", "default")));
    // Admission runs before the name is generated: it knows the pod by its prefix.
    let generated =
        json!({"metadata": {"generateName": "web-"}, "spec": pod("", json!({}))["spec"]});
    let (code, refused) = post(&server, "/api/v1/namespaces/shop/pods", &generated).await;
    assert_eq!(
        (code, refused),
        (403, no_account("web-", "shop", "default"))
    );

    let (code, sa) = post(
        &server,
        "/api/v1/namespaces/shop/serviceaccounts",
        &json!({"metadata": {"name": "default"}}),
    )
    .await;
    assert_eq!(code, 201, "{sa}");
    let (code, created) = post(&server, "/api/v1/namespaces/shop/pods", &generated).await;
    assert_eq!(code, 201, "{created}");
    // Nothing comes back once deleted.
    let (code, _) = delete(&server, "/api/v1/namespaces/shop/serviceaccounts/default").await;
    assert_eq!(code, 200);
    assert_eq!(account_uid(&server, "shop"), None);
    server.shutdown().await;
}

#[tokio::test]
async fn a_pod_naming_a_missing_account_is_refused() {
    let server = server().await;
    let (code, refused) = post(
        &server,
        "/api/v1/namespaces/shop/pods",
        &pod("web", json!({"serviceAccountName": "robot"})),
    )
    .await;
    assert_eq!((code, refused), (403, no_account("web", "shop", "robot")));
    // The deprecated field names the account as well.
    let (code, refused) = post(
        &server,
        "/api/v1/namespaces/shop/pods",
        &pod("web", json!({"serviceAccount": "robot"})),
    )
    .await;
    assert_eq!((code, refused), (403, no_account("web", "shop", "robot")));
    server.shutdown().await;
}

#[tokio::test]
async fn the_token_is_mounted_as_the_pod_then_the_account_says() {
    let server = server().await;
    let robot = json!({
        "metadata": {"name": "robot"},
        "automountServiceAccountToken": false,
        "imagePullSecrets": [{"name": "regcred"}],
    });
    let (code, sa) = post(&server, "/api/v1/namespaces/shop/serviceaccounts", &robot).await;
    assert_eq!(code, 201, "{sa}");

    // The account's `false`: no token volume; its pull secrets go to the pod.
    let (code, quiet) = post(
        &server,
        "/api/v1/namespaces/shop/pods",
        &pod("quiet", json!({"serviceAccountName": "robot"})),
    )
    .await;
    assert_eq!(code, 201, "{quiet}");
    assert_eq!(token_mounts(&quiet), (vec![], vec![]));
    assert!(quiet["spec"].get("volumes").is_none(), "{quiet}");
    assert!(
        quiet["spec"]["containers"][0].get("volumeMounts").is_none(),
        "{quiet}"
    );
    assert_eq!(
        quiet["spec"]["imagePullSecrets"],
        json!([{"name": "regcred"}])
    );
    assert_eq!(quiet["spec"]["serviceAccount"], "robot");

    // The pod's `true` wins; its own pull secrets are kept.
    let (code, loud) = post(
        &server,
        "/api/v1/namespaces/shop/pods",
        &pod(
            "loud",
            json!({
                "serviceAccountName": "robot",
                "automountServiceAccountToken": true,
                "imagePullSecrets": [{"name": "mine"}],
            }),
        ),
    )
    .await;
    assert_eq!(code, 201, "{loud}");
    let (volumes, mounts) = token_mounts(&loud);
    assert_eq!(volumes.len(), 1, "{loud}");
    assert_eq!(mounts, volumes);
    assert_eq!(loud["spec"]["imagePullSecrets"], json!([{"name": "mine"}]));

    // The pod's `false` wins over an account without a say.
    let (code, off) = post(
        &server,
        "/api/v1/namespaces/shop/pods",
        &pod("off", json!({"automountServiceAccountToken": false})),
    )
    .await;
    assert_eq!(code, 201, "{off}");
    assert_eq!(token_mounts(&off), (vec![], vec![]));
    assert!(off["spec"].get("imagePullSecrets").is_none(), "{off}");
    server.shutdown().await;
}
