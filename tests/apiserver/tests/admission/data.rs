use reqwest::Method;
use serde_json::{json, Value};
use test_apiserver::TestApiServer;

use crate::support::{failure, invalid, post, send, MERGE};

const CONFIG_KEY: &str = "a valid config key must consist of alphanumeric characters, '-', '_' or '.' (e.g. 'key.name',  or 'KEY_NAME',  or 'key-name', regex used for validation is '[-._a-zA-Z0-9]+')";

#[tokio::test]
async fn config_map_keys_are_config_keys_in_one_bag_only() {
    let server = TestApiServer::builder().start().await.unwrap();
    let body = json!({
        "metadata": {"name": "c"},
        "data": {"a b": "x", "ok": "y", "..": "z"},
        "binaryData": {"ok": "eA=="},
    });
    let (code, got) = post(&server, "/api/v1/namespaces/default/configmaps", &body).await;
    let want = invalid(
        "ConfigMap",
        "",
        "c",
        &[
            (
                "FieldValueInvalid",
                "data[..]",
                "Invalid value: \"..\": must not be '..'",
            ),
            (
                "FieldValueInvalid",
                "data[a b]",
                &format!("Invalid value: \"a b\": {CONFIG_KEY}"),
            ),
            (
                "FieldValueInvalid",
                "data[ok]",
                "Invalid value: \"ok\": duplicate of key present in binaryData",
            ),
        ],
    );
    assert_eq!((code, got), (422, want));
}

#[tokio::test]
async fn immutable_config_maps_keep_their_data() {
    let server = TestApiServer::builder().start().await.unwrap();
    let path = "/api/v1/namespaces/default/configmaps";
    let body = json!({"metadata": {"name": "c"}, "immutable": true, "data": {"a": "b"}});
    let (code, created) = post(&server, path, &body).await;
    assert_eq!(code, 201, "{created}");
    let patch = json!({"data": {"a": "c"}});
    let (code, got) = send(&server, Method::PATCH, &format!("{path}/c"), MERGE, &patch).await;
    let want = invalid(
        "ConfigMap",
        "",
        "c",
        &[(
            "FieldValueForbidden",
            "data",
            "Forbidden: field is immutable when `immutable` is set",
        )],
    );
    assert_eq!((code, got), (422, want));
}

#[tokio::test]
async fn secret_string_data_is_merged_into_data_and_the_type_defaults() {
    let server = TestApiServer::builder().start().await.unwrap();
    let path = "/api/v1/namespaces/default/secrets";
    let body = json!({"metadata": {"name": "s"}, "data": {"user": "eA=="}, "stringData": {"user": "admin", "host": "db"}});
    let (code, created) = post(&server, path, &body).await;
    assert_eq!(code, 201, "{created}");
    assert_eq!(
        (
            &created["data"],
            &created["type"],
            created.get("stringData")
        ),
        (
            &json!({"host": "ZGI=", "user": "YWRtaW4="}),
            &json!("Opaque"),
            None
        )
    );
    let patch = json!({"stringData": {"pass": "pw"}});
    let (code, patched) = send(&server, Method::PATCH, &format!("{path}/s"), MERGE, &patch).await;
    assert_eq!(code, 200, "{patched}");
    assert_eq!(
        patched["data"],
        json!({"host": "ZGI=", "pass": "cHc=", "user": "YWRtaW4="})
    );
    assert_eq!(patched.get("stringData"), None);

    let patch = json!({"type": "example.com/custom"});
    let (code, got) = send(&server, Method::PATCH, &format!("{path}/s"), MERGE, &patch).await;
    let want = invalid(
        "Secret",
        "",
        "s",
        &[(
            "FieldValueInvalid",
            "type",
            "Invalid value: \"example.com/custom\": field is immutable",
        )],
    );
    assert_eq!((code, got), (422, want));

    let bad = json!({"metadata": {"name": "b"}, "data": {"k": "%%%%"}});
    let (code, got) = post(&server, path, &bad).await;
    let mut want: Value = failure(
        400,
        "BadRequest",
        "Secret in version \"v1\" cannot be handled as a Secret: illegal base64 data at input byte 0",
        Value::Null,
    );
    if let Some(m) = want.as_object_mut() {
        m.remove("details");
    }
    assert_eq!((code, got), (400, want));
}
