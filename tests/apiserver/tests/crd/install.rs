//! CRDs written through the API: status, discovery, versions, subresources, updates,
//! deletion, the name rule; and the builder's `crd`/`crd_file`.

use std::io::Write;

use serde_json::{json, Value};
use test_apiserver::TestApiServer;

use crate::support::*;

fn condition<'a>(crd: &'a Value, kind: &str) -> &'a Value {
    crd["status"]["conditions"]
        .as_array()
        .and_then(|l| l.iter().find(|c| c["type"] == kind))
        .unwrap_or_else(|| panic!("no {kind} condition in {crd}"))
}

fn resource_names(list: &Value) -> Vec<String> {
    list["resources"]
        .as_array()
        .expect("resources")
        .iter()
        .map(|r| r["name"].as_str().expect("name").to_owned())
        .collect()
}

#[tokio::test]
async fn a_posted_crd_is_established_and_served_at_once() {
    let server = TestApiServer::builder().start().await.unwrap();
    assert_eq!(get(&server, "/apis/example.com/v1").await.code, 404);

    let created = post(&server, CRDS, &widget_crd()).await;
    assert_eq!(created.code, 201, "{}", created.body);
    let crd = created.body;
    assert_eq!(crd["kind"], "CustomResourceDefinition");
    assert_eq!(crd["metadata"]["generation"], 1);
    let names_accepted = condition(&crd, "NamesAccepted");
    assert_eq!(names_accepted["status"], "True");
    assert_eq!(names_accepted["reason"], "NoConflicts");
    assert_eq!(names_accepted["message"], "no conflicts found");
    let established = condition(&crd, "Established");
    assert_eq!(established["status"], "True");
    assert_eq!(established["reason"], "InitialNamesAccepted");
    assert_eq!(
        established["message"],
        "the initial names have been accepted"
    );
    assert_eq!(
        crd["status"]["acceptedNames"],
        json!({"plural": "widgets", "singular": "widget", "kind": "Widget", "listKind": "WidgetList"})
    );
    assert_eq!(crd["status"]["storedVersions"], json!(["v1"]));
    assert_eq!(crd["spec"]["conversion"], json!({"strategy": "None"}));

    let fetched = get(&server, &format!("{CRDS}/widgets.example.com")).await;
    assert_eq!(fetched.code, 200);
    assert_eq!(fetched.body["status"], crd["status"]);

    let discovery = get(&server, "/apis/example.com/v1").await;
    assert_eq!(discovery.code, 200);
    assert_eq!(
        resource_names(&discovery.body),
        ["widgets", "widgets/status", "widgets/scale"]
    );
    let groups = get(&server, "/apis").await.body;
    assert!(groups["groups"]
        .as_array()
        .unwrap()
        .iter()
        .any(|g| g["name"] == "example.com"));
    let list = get(&server, WIDGETS).await;
    assert_eq!(list.code, 200);
    assert_eq!(list.body["kind"], "WidgetList");
    let made = post(&server, WIDGETS, &widget("w", json!({"name": "abc"}))).await;
    assert_eq!(made.code, 201, "{}", made.body);
    assert_eq!(made.body["apiVersion"], "example.com/v1");
    let scale = get(&server, &format!("{WIDGETS}/w/scale")).await;
    assert_eq!(scale.code, 200, "{}", scale.body);
}

#[tokio::test]
async fn the_crd_name_must_be_plural_dot_group() {
    let server = TestApiServer::builder().start().await.unwrap();
    let mut crd = widget_crd();
    crd["metadata"]["name"] = json!("widget.example.com");
    let answer = post(&server, CRDS, &crd).await;
    assert_eq!(answer.code, 422);
    assert_eq!(
        answer.body,
        invalid(
            "CustomResourceDefinition",
            "apiextensions.k8s.io",
            "widget.example.com",
            &[(
                "FieldValueInvalid",
                "metadata.name",
                r#"Invalid value: "widget.example.com": must be spec.names.plural+"."+spec.group"#
            )]
        )
    );
    assert_eq!(get(&server, "/apis/example.com/v1").await.code, 404);
}

#[tokio::test]
async fn crd_rules_beyond_the_name_answer_as_the_real_validator() {
    let server = TestApiServer::builder().start().await.unwrap();
    let mut crd = widget_crd();
    crd["spec"]["scope"] = json!("Galaxy");
    crd["spec"]["versions"][0]["storage"] = json!(false);
    crd["spec"]["versions"][0]["schema"]["openAPIV3Schema"]["properties"]["spec"]["properties"]
        ["tags"]["uniqueItems"] = json!(true);
    let answer = post(&server, CRDS, &crd).await;
    assert_eq!(answer.code, 422, "{}", answer.body);
    let causes: Vec<(String, String)> = answer.body["details"]["causes"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| {
            (
                c["field"].as_str().unwrap().to_owned(),
                c["message"].as_str().unwrap().to_owned(),
            )
        })
        .collect();
    assert_eq!(
        causes[0],
        (
            "spec.scope".to_owned(),
            r#"Unsupported value: "Galaxy": supported values: "Cluster", "Namespaced""#.to_owned()
        )
    );
    assert_eq!(causes[1].0, "spec.versions");
    assert!(causes[1]
        .1
        .ends_with("must have exactly one version marked as storage version"));
    assert_eq!(
        causes[2],
        (
            "spec.validation.openAPIV3Schema.properties[spec].properties[tags].uniqueItems".to_owned(),
            "Forbidden: uniqueItems cannot be set to true since the runtime complexity becomes quadratic".to_owned()
        )
    );
}

fn three_versions() -> Value {
    let mut crd = widget_crd();
    let v1 = crd["spec"]["versions"][0].clone();
    let mut beta = v1.clone();
    beta["name"] = json!("v1beta1");
    beta["storage"] = json!(false);
    let mut alpha = beta.clone();
    alpha["name"] = json!("v1alpha1");
    alpha["served"] = json!(false);
    crd["spec"]["versions"] = json!([alpha, beta, v1]);
    crd
}

#[tokio::test]
async fn served_versions_share_storage_and_answer_in_the_version_asked_for() {
    let server = TestApiServer::builder().start().await.unwrap();
    let created = post(&server, CRDS, &three_versions()).await;
    assert_eq!(created.code, 201, "{}", created.body);
    assert_eq!(created.body["status"]["storedVersions"], json!(["v1"]));

    let group = get(&server, "/apis/example.com").await.body;
    assert_eq!(group["preferredVersion"]["version"], "v1");
    let versions: Vec<&str> = group["versions"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v["version"].as_str().unwrap())
        .collect();
    assert_eq!(versions, ["v1", "v1beta1"]);
    assert_eq!(
        get(
            &server,
            "/apis/example.com/v1alpha1/namespaces/default/widgets"
        )
        .await
        .code,
        404
    );

    let mut w = widget("w", json!({"name": "abc"}));
    w["apiVersion"] = json!("example.com/v1beta1");
    let made = post(
        &server,
        "/apis/example.com/v1beta1/namespaces/default/widgets",
        &w,
    )
    .await;
    assert_eq!(made.code, 201, "{}", made.body);
    assert_eq!(made.body["apiVersion"], "example.com/v1beta1");
    let as_v1 = get(&server, &format!("{WIDGETS}/w")).await;
    assert_eq!(as_v1.body["apiVersion"], "example.com/v1");
    assert_eq!(as_v1.body["spec"], made.body["spec"]);
}

#[tokio::test]
async fn updating_a_crd_changes_what_is_served_and_records_stored_versions() {
    let server = TestApiServer::builder().start().await.unwrap();
    let created = post(&server, CRDS, &widget_crd()).await.body;
    let mut crd = three_versions();
    crd["metadata"]["resourceVersion"] = created["metadata"]["resourceVersion"].clone();
    // v1beta1 becomes the storage version.
    crd["spec"]["versions"][1]["storage"] = json!(true);
    crd["spec"]["versions"][2]["storage"] = json!(false);
    let updated = put(&server, &format!("{CRDS}/widgets.example.com"), &crd).await;
    assert_eq!(updated.code, 200, "{}", updated.body);
    assert_eq!(updated.body["metadata"]["generation"], 2);
    assert_eq!(
        updated.body["status"]["storedVersions"],
        json!(["v1", "v1beta1"])
    );
    assert_eq!(condition(&updated.body, "Established")["status"], "True");
    assert_eq!(
        get(
            &server,
            "/apis/example.com/v1beta1/namespaces/default/widgets"
        )
        .await
        .code,
        200
    );

    let mut no_rv = widget_crd();
    no_rv["spec"]["scope"] = json!("Cluster");
    let answer = put(&server, &format!("{CRDS}/widgets.example.com"), &no_rv).await;
    assert_eq!(answer.code, 422);
    assert_eq!(
        answer.body["message"],
        r#"CustomResourceDefinition.apiextensions.k8s.io "widgets.example.com" is invalid: metadata.resourceVersion: Invalid value: 0x0: must be specified for an update"#
    );
}

#[tokio::test]
async fn deleting_a_crd_deletes_its_objects_and_stops_serving_them() {
    let server = widget_server().await;
    for name in ["a", "b"] {
        let made = post(&server, WIDGETS, &widget(name, json!({"name": "abc"}))).await;
        assert_eq!(made.code, 201, "{}", made.body);
    }
    let watch = client()
        .get(format!("{}{WIDGETS}?watch=true", server.url()))
        .send()
        .await
        .unwrap();
    let gone = delete(&server, &format!("{CRDS}/widgets.example.com")).await;
    assert_eq!(gone.code, 200, "{}", gone.body);
    assert_eq!(gone.body["metadata"]["name"], "widgets.example.com");
    let answer = get(&server, WIDGETS).await;
    assert_eq!(answer.code, 404);
    assert_eq!(
        answer.body["message"],
        "the server could not find the requested resource"
    );
    assert_eq!(get(&server, "/apis/example.com/v1").await.code, 404);
    assert_eq!(
        get(&server, &format!("{CRDS}/widgets.example.com"))
            .await
            .code,
        404
    );
    // The open watch sees both objects go, then ends (a guard, not a timing assertion).
    let events = tokio::time::timeout(std::time::Duration::from_secs(20), watch.text())
        .await
        .expect("the watch ends when its resource goes")
        .unwrap();
    let kinds: Vec<String> = events
        .lines()
        .map(|l| {
            let e: Value = serde_json::from_str(l).unwrap();
            format!(
                "{} {}",
                e["type"].as_str().unwrap(),
                e["object"]["metadata"]["name"].as_str().unwrap()
            )
        })
        .collect();
    assert_eq!(kinds, ["ADDED a", "ADDED b", "DELETED a", "DELETED b"]);

    assert_eq!(post(&server, CRDS, &widget_crd()).await.code, 201);
    let list = get(&server, WIDGETS).await;
    assert_eq!(list.code, 200);
    assert_eq!(list.body["items"], json!([]));
}

#[tokio::test]
async fn the_builder_installs_crd_files_and_names_the_bad_ones() {
    let mut file = tempfile::NamedTempFile::new().unwrap();
    let yaml = serde_yaml_ng::to_string(&widget_crd()).unwrap();
    write!(
        file,
        "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: skipped\n---\n{yaml}"
    )
    .unwrap();
    let server = TestApiServer::builder()
        .crd_file(file.path())
        .start()
        .await
        .unwrap();
    assert_eq!(get(&server, WIDGETS).await.code, 200);

    let missing = TestApiServer::builder()
        .crd_file("/nonexistent/widgets.yaml")
        .start()
        .await
        .err()
        .expect("a missing file fails the start");
    let text = missing.to_string();
    assert!(text.contains("/nonexistent/widgets.yaml"), "{text}");

    let mut bad = widget_crd();
    bad["metadata"]["name"] = json!("nope.example.com");
    let rejected = TestApiServer::builder()
        .crd(bad.to_string())
        .start()
        .await
        .err()
        .expect("a rejected CRD fails the start");
    let text = rejected.to_string();
    assert!(
        text.contains(r#"must be spec.names.plural+"."+spec.group"#),
        "{text}"
    );

    let running = TestApiServer::builder().start().await.unwrap();
    running.install_crd(&yaml).unwrap();
    assert_eq!(get(&running, WIDGETS).await.code, 200);
    assert!(running.install_crd("kind: ConfigMap").is_err());
}
