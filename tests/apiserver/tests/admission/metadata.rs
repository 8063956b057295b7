use reqwest::Method;
use serde_json::{json, Value};
use test_apiserver::{fixtures, TestApiServer};

use crate::support::{invalid, post, send, JSON, MERGE};

const SUBDOMAIN: &str = "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')";
const DNS1035: &str = "a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character (e.g. 'my-name',  or 'abc-123', regex used for validation is '[a-z]([-a-z0-9]*[a-z0-9])?')";
const QUALIFIED: &str = "name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')";
const LABEL_VALUE: &str = "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')";
const INVALID: &str = "FieldValueInvalid";

fn config_map(meta: Value) -> Value {
    json!({"apiVersion": "v1", "kind": "ConfigMap", "metadata": meta, "data": {"k": "v"}})
}

#[tokio::test]
async fn names_follow_the_rule_of_each_resource() {
    let server = TestApiServer::builder()
        .resource(fixtures::widget_spec())
        .start()
        .await
        .unwrap();
    let cases: Vec<(&str, Value, Value)> = vec![
        (
            "/api/v1/namespaces/default/configmaps",
            config_map(json!({"name": "Bad_Name"})),
            invalid(
                "ConfigMap",
                "",
                "Bad_Name",
                &[(
                    INVALID,
                    "metadata.name",
                    &format!("Invalid value: \"Bad_Name\": {SUBDOMAIN}"),
                )],
            ),
        ),
        (
            "/api/v1/namespaces/default/services",
            json!({"metadata": {"name": "1st"}, "spec": fixtures::service("default", "s")["spec"]}),
            invalid(
                "Service",
                "",
                "1st",
                &[(
                    INVALID,
                    "metadata.name",
                    &format!("Invalid value: \"1st\": {DNS1035}"),
                )],
            ),
        ),
        (
            "/api/v1/namespaces",
            json!({"metadata": {"name": "team.a"}}),
            invalid(
                "Namespace",
                "",
                "team.a",
                &[(
                    INVALID,
                    "metadata.name",
                    "Invalid value: \"team.a\": must not contain dots",
                )],
            ),
        ),
        (
            "/apis/apps/v1/namespaces/default/statefulsets",
            json!({"metadata": {"name": "db.v1"}, "spec": fixtures::stateful_set("default", "db")["spec"]}),
            invalid(
                "StatefulSet",
                "apps",
                "db.v1",
                &[(
                    INVALID,
                    "metadata.name",
                    "Invalid value: \"db.v1\": must not contain dots",
                )],
            ),
        ),
        (
            "/apis/example.com/v1/namespaces/default/widgets",
            json!({"metadata": {"name": "Big"}, "spec": {}}),
            invalid(
                "Widget",
                "example.com",
                "Big",
                &[(
                    INVALID,
                    "metadata.name",
                    &format!("Invalid value: \"Big\": {SUBDOMAIN}"),
                )],
            ),
        ),
        (
            "/apis/batch/v1/namespaces/default/cronjobs",
            json!({"metadata": {"name": "n".repeat(53)}, "spec": fixtures::cron_job("default", "c")["spec"]}),
            invalid(
                "CronJob",
                "batch",
                &"n".repeat(53),
                &[(
                    INVALID,
                    "metadata.name",
                    &format!(
                        "Invalid value: \"{}\": must be no more than 52 characters",
                        "n".repeat(53)
                    ),
                )],
            ),
        ),
        (
            "/api/v1/namespaces/default/pods",
            json!({"metadata": {}, "spec": fixtures::pod_spec("nginx")}),
            invalid(
                "Pod",
                "",
                "",
                &[(
                    "FieldValueRequired",
                    "metadata.name",
                    "Required value: name or generateName is required",
                )],
            ),
        ),
    ];
    for (path, body, want) in cases {
        let (code, got) = post(&server, path, &body).await;
        assert_eq!((code, &got), (422, &want), "{path}");
    }
    // Subdomain names with dots are fine where the registry allows them.
    let (code, created) = post(
        &server,
        "/apis/apps/v1/namespaces/default/deployments",
        &fixtures::deployment("default", "web.v1", 1),
    )
    .await;
    assert_eq!(code, 201, "{created}");
}

#[tokio::test]
async fn labels_annotations_owners_and_finalizers_are_checked_in_the_real_order() {
    let server = TestApiServer::builder().start().await.unwrap();
    let owners = json!([
        {"apiVersion": "v1", "kind": "Pod", "name": "a", "uid": "1", "controller": true},
        {"apiVersion": "", "kind": "Pod", "name": "b", "uid": "2", "controller": true},
    ]);
    let body = config_map(json!({
        "name": "c",
        "labels": {"good": "-bad", "Bad_Key_": "ok"},
        "annotations": {"example.com/": "x", "Mixed.Case/Is-Fine": "y"},
        "ownerReferences": owners,
        "finalizers": ["mine", "orphan", "foregroundDeletion"],
    }));
    let (code, got) = post(&server, "/api/v1/namespaces/default/configmaps", &body).await;
    let owners_json = r#"[{"apiVersion":"v1","kind":"Pod","name":"a","uid":"1","controller":true},{"apiVersion":"","kind":"Pod","name":"b","uid":"2","controller":true}]"#;
    let want = invalid(
        "ConfigMap",
        "",
        "c",
        &[
            (INVALID, "metadata.labels", &format!("Invalid value: \"Bad_Key_\": {QUALIFIED}")),
            (INVALID, "metadata.labels", &format!("Invalid value: \"-bad\": {LABEL_VALUE}")),
            (
                INVALID,
                "metadata.annotations",
                "Invalid value: \"example.com/\": name part must be non-empty",
            ),
            (
                INVALID,
                "metadata.annotations",
                &format!("Invalid value: \"example.com/\": {QUALIFIED}"),
            ),
            (
                "FieldValueRequired",
                "metadata.ownerReferences[1].apiVersion",
                "Required value: must not be empty",
            ),
            (
                INVALID,
                "metadata.ownerReferences",
                &format!("Invalid value: {owners_json}: Only one reference can have Controller set to true. Found \"true\" in references for Pod/a and Pod/b"),
            ),
            (
                INVALID,
                "metadata.finalizers",
                "Invalid value: [\"mine\",\"orphan\",\"foregroundDeletion\"]: finalizer orphan and foregroundDeletion cannot be both set",
            ),
            (
                INVALID,
                "metadata.finalizers[0]",
                "Invalid value: \"mine\": name is neither a standard finalizer name nor is it fully qualified",
            ),
        ],
    );
    assert_eq!((code, got), (422, want));
}

#[tokio::test]
async fn owner_references_are_checked_one_by_one_with_the_1_37_texts() {
    let server = TestApiServer::builder().start().await.unwrap();
    let body = config_map(json!({
        "name": "c",
        "ownerReferences": [
            {"apiVersion": "apps/v1/extra", "kind": "", "name": "a", "uid": ""},
            {"apiVersion": "v1", "kind": "Event", "name": "e", "uid": "1"},
        ],
    }));
    let (code, got) = post(&server, "/api/v1/namespaces/default/configmaps", &body).await;
    let required = "FieldValueRequired";
    let want = invalid(
        "ConfigMap",
        "",
        "c",
        &[
            (
                INVALID,
                "metadata.ownerReferences[0].apiVersion",
                "Invalid value: \"apps/v1/extra\": must be <group>/<version> or <version>",
            ),
            (
                required,
                "metadata.ownerReferences[0].kind",
                "Required value: must not be empty",
            ),
            (
                required,
                "metadata.ownerReferences[0].uid",
                "Required value: must not be empty",
            ),
            (
                INVALID,
                "metadata.ownerReferences[1]",
                r#"Invalid value: {"apiVersion":"v1","kind":"Event","name":"e","uid":"1"}: /v1, Kind=Event is disallowed from being an owner"#,
            ),
        ],
    );
    assert_eq!((code, got), (422, want));
}

#[tokio::test]
async fn label_keys_and_values_count_bytes() {
    let server = TestApiServer::builder().start().await.unwrap();
    let long = "a".repeat(64);
    let body = config_map(json!({"name": "c", "labels": {long.clone(): long.clone()}}));
    let (code, got) = post(&server, "/api/v1/namespaces/default/configmaps", &body).await;
    let want = invalid(
        "ConfigMap",
        "",
        "c",
        &[
            (
                INVALID,
                "metadata.labels",
                &format!("Invalid value: \"{long}\": name part must be no more than 63 bytes"),
            ),
            (
                INVALID,
                "metadata.labels",
                &format!("Invalid value: \"{long}\": must be no more than 63 bytes"),
            ),
        ],
    );
    assert_eq!((code, got), (422, want));
}

#[tokio::test]
async fn annotations_hold_at_most_256_kib() {
    let server = TestApiServer::builder().start().await.unwrap();
    let path = "/api/v1/namespaces/default/configmaps";
    let fits = config_map(json!({"name": "fits", "annotations": {"a": "x".repeat(262_143)}}));
    let (code, created) = post(&server, path, &fits).await;
    assert_eq!(code, 201, "{created}");
    let over = config_map(json!({"name": "over", "annotations": {"a": "x".repeat(262_144)}}));
    let (code, got) = post(&server, path, &over).await;
    let want = invalid(
        "ConfigMap",
        "",
        "over",
        &[(
            "FieldValueTooLong",
            "metadata.annotations",
            "Too long: may not be more than 262144 bytes",
        )],
    );
    assert_eq!((code, got), (422, want));
}

#[tokio::test]
async fn generated_names_are_validated_and_cut_to_fit() {
    let server = TestApiServer::builder().start().await.unwrap();
    let path = "/api/v1/namespaces/default/configmaps";
    let (code, created) = post(&server, path, &config_map(json!({"generateName": "web-"}))).await;
    assert_eq!(code, 201, "{created}");
    let name = created["metadata"]["name"].as_str().unwrap();
    assert!(name.starts_with("web-") && name.len() == 9, "{name}");

    // The prefix is cut to 58 bytes so the name fits in 63.
    let long = format!("{}-", "p".repeat(70));
    let (code, created) = post(&server, path, &config_map(json!({"generateName": long}))).await;
    assert_eq!(code, 201, "{created}");
    let name = created["metadata"]["name"].as_str().unwrap();
    assert!(
        name.starts_with(&"p".repeat(58)) && name.len() == 63,
        "{name}"
    );

    let (code, got) = post(&server, path, &config_map(json!({"generateName": "Web-"}))).await;
    assert_eq!(code, 422, "{got}");
    let generated = got["details"]["name"].as_str().unwrap().to_owned();
    assert!(
        generated.starts_with("Web-") && generated.len() == 9,
        "{got}"
    );
    let want = invalid(
        "ConfigMap",
        "",
        &generated,
        &[
            (
                INVALID,
                "metadata.generateName",
                &format!("Invalid value: \"Web-\": {SUBDOMAIN}"),
            ),
            (
                INVALID,
                "metadata.name",
                &format!("Invalid value: \"{generated}\": {SUBDOMAIN}"),
            ),
        ],
    );
    assert_eq!(got, want);
}

#[tokio::test]
async fn updates_list_each_metadata_error_once_per_validation_pass() {
    let server = TestApiServer::builder().start().await.unwrap();
    let path = "/api/v1/namespaces/default/configmaps";
    let (code, created) = post(&server, path, &config_map(json!({"name": "c"}))).await;
    assert_eq!(code, 201, "{created}");
    let label_error = format!("Invalid value: \"bad key\": {QUALIFIED}");
    // rest.BeforeUpdate's common checks, its update checks, the strategy's update checks,
    // then ValidateConfigMap on the new object: the same error four times in the causes,
    // once in the message.
    let want = invalid(
        "ConfigMap",
        "",
        "c",
        &[
            (INVALID, "metadata.labels", &label_error),
            (INVALID, "metadata.labels", &label_error),
            (INVALID, "metadata.labels", &label_error),
            (INVALID, "metadata.labels", &label_error),
        ],
    );
    let mut put = created.clone();
    put["metadata"]["labels"] = json!({"bad key": "v"});
    let (code, got) = send(&server, Method::PUT, &format!("{path}/c"), JSON, &put).await;
    assert_eq!((code, &got), (422, &want));
    let patch = json!({"metadata": {"labels": {"bad key": "v"}}});
    let (code, got) = send(&server, Method::PATCH, &format!("{path}/c"), MERGE, &patch).await;
    assert_eq!((code, &got), (422, &want));

    // The deletion marks cannot be set by an update.
    let patch = json!({"metadata": {"deletionTimestamp": "2030-01-01T00:00:00Z"}});
    let (code, got) = send(&server, Method::PATCH, &format!("{path}/c"), MERGE, &patch).await;
    let immutable = "Invalid value: \"2030-01-01T00:00:00Z\": field is immutable";
    let want = invalid(
        "ConfigMap",
        "",
        "c",
        &[
            (INVALID, "metadata.deletionTimestamp", immutable),
            (INVALID, "metadata.deletionTimestamp", immutable),
        ],
    );
    assert_eq!((code, got), (422, want));

    // A Deployment's strategy only repeats the update checks: three times.
    let deployments = "/apis/apps/v1/namespaces/default/deployments";
    let (code, created) = post(
        &server,
        deployments,
        &fixtures::deployment("default", "web", 1),
    )
    .await;
    assert_eq!(code, 201, "{created}");
    let patch = json!({"metadata": {"labels": {"bad key": "v"}}});
    let (code, got) = send(
        &server,
        Method::PATCH,
        &format!("{deployments}/web"),
        MERGE,
        &patch,
    )
    .await;
    let want = invalid(
        "Deployment",
        "apps",
        "web",
        &[
            (INVALID, "metadata.labels", &label_error),
            (INVALID, "metadata.labels", &label_error),
            (INVALID, "metadata.labels", &label_error),
        ],
    );
    assert_eq!((code, got), (422, want));
}

#[tokio::test]
async fn custom_resources_accept_unqualified_finalizers_and_built_ins_do_not() {
    let server = TestApiServer::builder()
        .resource(fixtures::widget_spec())
        .start()
        .await
        .unwrap();
    let mut widget = fixtures::widget("default", "w", 0);
    widget["metadata"]["finalizers"] = json!(["mine"]);
    let created = server.create("widgets.example.com", Some("default"), widget);
    assert!(created.is_ok(), "{created:?}");
    let mut cm = fixtures::config_map("default", "c", 0);
    cm["metadata"]["finalizers"] = json!(["mine"]);
    let err = server
        .create("configmaps", Some("default"), cm)
        .unwrap_err();
    assert_eq!(
        (err.code, err.message.as_str()),
        (422, "ConfigMap \"c\" is invalid: metadata.finalizers[0]: Invalid value: \"mine\": name is neither a standard finalizer name nor is it fully qualified")
    );
}
