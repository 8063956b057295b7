//! Pruning, `fieldValidation` and defaulting of custom resources, on writes and on
//! reads of objects stored before a default existed.

use reqwest::Method;
use serde_json::json;

use crate::support::*;

#[tokio::test]
async fn unknown_fields_are_dropped_with_a_warning_by_default() {
    let server = widget_server().await;
    let mut w = widget(
        "w",
        json!({"name": "abc", "bogus": 1, "extra": {"free": [1, {"x": 2}]}, "template": {"apiVersion": "v1", "kind": "ConfigMap", "data": {"k": "v"}}}),
    );
    w["other"] = json!(true);
    w["metadata"]["mystery"] = json!("m");
    let made = post(&server, WIDGETS, &w).await;
    assert_eq!(made.code, 201, "{}", made.body);
    assert_eq!(
        made.warnings,
        [
            r#"299 - "unknown field \"metadata.mystery\"""#,
            r#"299 - "unknown field \"other\"""#,
            r#"299 - "unknown field \"spec.bogus\"""#,
        ]
    );
    assert!(made.body.get("other").is_none());
    assert!(made.body["metadata"].get("mystery").is_none());
    assert!(made.body["spec"].get("bogus").is_none());
    assert_eq!(made.body["spec"]["extra"], json!({"free": [1, {"x": 2}]}));
    assert_eq!(made.body["spec"]["template"]["data"], json!({"k": "v"}));

    let ignored = call(
        &server,
        Method::POST,
        &format!("{WIDGETS}?fieldValidation=Ignore"),
        "application/json",
        Some(&widget("i", json!({"name": "abc", "bogus": 1}))),
    )
    .await;
    assert_eq!(ignored.code, 201);
    assert!(ignored.warnings.is_empty(), "{:?}", ignored.warnings);
}

#[tokio::test]
async fn strict_field_validation_rejects_unknown_fields() {
    let server = widget_server().await;
    let mut w = widget("w", json!({"name": "abc", "bogus": 1}));
    w["other"] = json!(true);
    let answer = call(
        &server,
        Method::POST,
        &format!("{WIDGETS}?fieldValidation=Strict"),
        "application/json",
        Some(&w),
    )
    .await;
    assert_eq!(answer.code, 400);
    assert_eq!(
        answer.body,
        json!({
            "kind": "Status", "apiVersion": "v1", "metadata": {}, "status": "Failure",
            "message": r#"strict decoding error: unknown field "other", unknown field "spec.bogus""#,
            "reason": "BadRequest", "code": 400,
        })
    );
    assert_eq!(get(&server, &format!("{WIDGETS}/w")).await.code, 404);

    post(&server, WIDGETS, &widget("w", json!({"name": "abc"}))).await;
    let answer = call(
        &server,
        Method::PATCH,
        &format!("{WIDGETS}/w?fieldValidation=Strict"),
        "application/merge-patch+json",
        Some(&json!({"spec": {"colour": "red"}})),
    )
    .await;
    assert_eq!(answer.code, 400);
    assert_eq!(
        answer.body["message"],
        r#"strict decoding error: unknown field "spec.colour""#
    );
}

#[tokio::test]
async fn defaults_apply_on_writes_and_to_objects_stored_before_them() {
    let server = widget_server().await;
    let made = post(
        &server,
        WIDGETS,
        &widget("w", json!({"name": "abc", "size": null})),
    )
    .await;
    assert_eq!(made.code, 201, "{}", made.body);
    assert_eq!(made.body["spec"]["size"], 3, "a null takes the default");
    let rv = made.body["metadata"]["resourceVersion"].clone();

    let crd_path = format!("{CRDS}/widgets.example.com");
    let mut crd = get(&server, &crd_path).await.body;
    crd["spec"]["versions"][0]["schema"]["openAPIV3Schema"]["properties"]["spec"]["properties"]
        ["speed"]["default"] = json!("slow");
    assert_eq!(put(&server, &crd_path, &crd).await.code, 200);

    let read = get(&server, &format!("{WIDGETS}/w")).await.body;
    assert_eq!(read["spec"]["speed"], "slow");
    assert_eq!(
        read["metadata"]["resourceVersion"], rv,
        "defaulting on read writes nothing"
    );
    let listed = get(&server, WIDGETS).await.body;
    assert_eq!(listed["items"][0]["spec"]["speed"], "slow");
}
