//! Strategic merge patch over HTTP: what kube-apiserver answers to
//! `application/strategic-merge-patch+json` on built-in resources, their `status` and
//! `scale`, and to bad patches; custom resources refuse it with 415.

use reqwest::Method;
use serde_json::{json, Value};
use test_apiserver::{fixtures, RunningServer, TestApiServer};

const SMP: &str = "application/strategic-merge-patch+json";
const DEPLOYMENT: &str = "/apis/apps/v1/namespaces/shop/deployments/web";

async fn send(
    server: &RunningServer,
    method: Method,
    path: &str,
    content_type: &str,
    body: &str,
) -> (u16, Value) {
    let _ = rustls::crypto::ring::default_provider().install_default();
    let client = reqwest::Client::builder().no_proxy().build().unwrap();
    let resp = client
        .request(method, format!("{}{path}", server.url()))
        .header("content-type", content_type)
        .body(body.to_owned())
        .send()
        .await
        .unwrap();
    let code = resp.status().as_u16();
    let bytes = resp.bytes().await.unwrap();
    let v = serde_json::from_slice(&bytes).unwrap_or_else(|e| {
        panic!(
            "{path}: not JSON ({e}): {}",
            String::from_utf8_lossy(&bytes)
        )
    });
    (code, v)
}

async fn smp(server: &RunningServer, path: &str, patch: Value) -> (u16, Value) {
    send(server, Method::PATCH, path, SMP, &patch.to_string()).await
}

fn deployment() -> Value {
    json!({
        "apiVersion": "apps/v1",
        "kind": "Deployment",
        "metadata": {"name": "web", "namespace": "shop", "labels": {"app": "web", "tier": "front"}},
        "spec": {
            "replicas": 2,
            "selector": {"matchLabels": {"app": "web"}},
            "strategy": {"type": "RollingUpdate", "rollingUpdate": {"maxSurge": 1}},
            "template": {
                "metadata": {"labels": {"app": "web"}},
                "spec": {
                    "containers": [
                        {"name": "app", "image": "app:1", "env": [{"name": "A", "value": "1"}]},
                        {"name": "proxy", "image": "proxy:1"},
                    ],
                    "tolerations": [{"key": "k1", "operator": "Exists"}],
                    "volumes": [{"name": "data", "emptyDir": {}}],
                },
            },
        },
    })
}

async fn server_with_deployment() -> RunningServer {
    let server = TestApiServer::builder()
        .namespaces(["shop"])
        .start()
        .await
        .unwrap();
    server
        .create("deployments.apps", Some("shop"), deployment())
        .unwrap();
    server
}

fn names(list: &Value) -> Vec<&str> {
    list.as_array()
        .unwrap()
        .iter()
        .map(|i| i["name"].as_str().unwrap())
        .collect()
}

/// Asserts a failure `Status` with this code and reason (`None`: no reason, as for
/// errors kube-apiserver does not classify), returning its message.
fn status(v: &Value, code: u16, reason: Option<&str>) -> String {
    assert_eq!(
        (v["kind"].as_str(), v["status"].as_str()),
        (Some("Status"), Some("Failure")),
        "{v}"
    );
    assert_eq!(v["code"], code, "{v}");
    assert_eq!(v["reason"].as_str(), reason, "{v}");
    v["message"].as_str().unwrap().to_owned()
}

#[tokio::test]
async fn containers_merge_by_name_and_env_vars_are_added() {
    let server = server_with_deployment().await;
    let (code, patched) = smp(
        &server,
        DEPLOYMENT,
        json!({"spec": {"template": {"spec": {"containers": [
            {"name": "app", "image": "app:2", "env": [{"name": "B", "value": "2"}]},
        ]}}}}),
    )
    .await;
    assert_eq!(code, 200, "{patched}");
    assert_eq!(patched["kind"], "Deployment");
    let pod = &patched["spec"]["template"]["spec"];
    assert_eq!(names(&pod["containers"]), ["app", "proxy"]);
    assert_eq!(pod["containers"][0]["image"], "app:2");
    assert_eq!(pod["containers"][1]["image"], "proxy:1");
    // kube-apiserver puts an item the list did not have before the ones the patch does
    // not order it against.
    assert_eq!(names(&pod["containers"][0]["env"]), ["B", "A"]);
    assert_eq!(patched["metadata"]["generation"], 2);

    // A new container goes first too, unless `$setElementOrder` says where.
    let (code, patched) = smp(
        &server,
        DEPLOYMENT,
        json!({"spec": {"template": {"spec": {
            "$setElementOrder/containers": [{"name": "app"}, {"name": "proxy"}, {"name": "log"}],
            "containers": [{"name": "log", "image": "log:1"}],
        }}}}),
    )
    .await;
    assert_eq!(code, 200, "{patched}");
    assert_eq!(
        names(&patched["spec"]["template"]["spec"]["containers"]),
        ["app", "proxy", "log"]
    );
    let stored = server.get("deployments.apps", Some("shop"), "web").unwrap();
    assert_eq!(
        names(&stored["spec"]["template"]["spec"]["containers"]),
        ["app", "proxy", "log"]
    );
}

#[tokio::test]
async fn directives_delete_replace_and_retain_keys() {
    let server = server_with_deployment().await;
    let (code, patched) = smp(
        &server,
        DEPLOYMENT,
        json!({
            "metadata": {"labels": {"tier": null}},
            "spec": {
                // retainKeys: the strategy's keys not listed are cleared.
                "strategy": {"$retainKeys": ["type"], "type": "Recreate"},
                "template": {"spec": {
                    "containers": [{"name": "proxy", "$patch": "delete"}],
                    // No patch strategy: the list is replaced.
                    "tolerations": [{"key": "k2", "operator": "Exists"}],
                    // merge,retainKeys: a volume changes its source.
                    "volumes": [{"name": "data", "$retainKeys": ["name", "configMap"], "configMap": {"name": "cm"}}],
                }},
            },
        }),
    )
    .await;
    assert_eq!(code, 200, "{patched}");
    assert_eq!(patched["metadata"]["labels"], json!({"app": "web"}));
    assert_eq!(patched["spec"]["strategy"], json!({"type": "Recreate"}));
    let pod = &patched["spec"]["template"]["spec"];
    assert_eq!(names(&pod["containers"]), ["app"]);
    assert_eq!(
        pod["tolerations"],
        json!([{"key": "k2", "operator": "Exists"}])
    );
    assert_eq!(
        pod["volumes"],
        // The decoder defaults the new source's mode, as kube-apiserver's does.
        json!([{"name": "data", "configMap": {"name": "cm", "defaultMode": 420}}])
    );

    // `$patch: replace` inside a list replaces the list.
    let (code, patched) = smp(
        &server,
        DEPLOYMENT,
        json!({"spec": {"template": {"spec": {"containers": [
            {"name": "only", "image": "only:1"},
            {"$patch": "replace"},
        ]}}}}),
    )
    .await;
    assert_eq!(code, 200, "{patched}");
    assert_eq!(
        patched["spec"]["template"]["spec"]["containers"],
        // With the defaults the decoder gives the new container.
        json!([{"name": "only", "image": "only:1", "imagePullPolicy": "IfNotPresent", "resources": {},
            "terminationMessagePath": "/dev/termination-log", "terminationMessagePolicy": "File"}])
    );
}

#[tokio::test]
async fn finalizers_merge_as_a_set_and_delete_from_the_primitive_list() {
    let server = server_with_deployment().await;
    let path = "/api/v1/namespaces/shop/configmaps/settings";
    server
        .create(
            "configmaps",
            Some("shop"),
            fixtures::config_map("shop", "settings", 0),
        )
        .unwrap();
    let (code, patched) = smp(
        &server,
        path,
        json!({"metadata": {"finalizers": ["example.com/a", "example.com/b"]}}),
    )
    .await;
    assert_eq!(code, 200, "{patched}");
    let (code, patched) = smp(
        &server,
        path,
        json!({"metadata": {
            "finalizers": ["example.com/c", "example.com/a"],
            "$deleteFromPrimitiveList/finalizers": ["example.com/b"],
        }}),
    )
    .await;
    assert_eq!(code, 200, "{patched}");
    assert_eq!(
        patched["metadata"]["finalizers"],
        json!(["example.com/c", "example.com/a"])
    );
}

#[tokio::test]
async fn status_and_scale_take_strategic_merge_patches() {
    let server = server_with_deployment().await;
    let condition = |status: &str, reason: &str| json!({"status": {"conditions": [{"type": "Available", "status": status, "reason": reason}]}});
    let status_path = format!("{DEPLOYMENT}/status");
    let (code, patched) = smp(&server, &status_path, condition("False", "Starting")).await;
    assert_eq!(code, 200, "{patched}");
    // DeploymentStatus.conditions merge by `type`.
    let (code, patched) = smp(&server, &status_path, condition("True", "Ready")).await;
    assert_eq!(code, 200, "{patched}");
    assert_eq!(
        patched["status"]["conditions"],
        json!([{"type": "Available", "status": "True", "reason": "Ready"}])
    );
    // The status subresource ignores the rest of the patch.
    let (code, patched) = smp(
        &server,
        &status_path,
        json!({"spec": {"replicas": 9}, "status": {"replicas": 1}}),
    )
    .await;
    assert_eq!(code, 200, "{patched}");
    assert_eq!(
        (
            patched["spec"]["replicas"].as_i64(),
            patched["status"]["replicas"].as_i64()
        ),
        (Some(2), Some(1))
    );

    let (code, scale) = smp(
        &server,
        &format!("{DEPLOYMENT}/scale"),
        json!({"spec": {"replicas": 5}}),
    )
    .await;
    assert_eq!(code, 200, "{scale}");
    assert_eq!(
        (scale["kind"].as_str(), scale["spec"]["replicas"].as_i64()),
        (Some("Scale"), Some(5))
    );
    let stored = server.get("deployments.apps", Some("shop"), "web").unwrap();
    assert_eq!(stored["spec"]["replicas"], 5);
}

#[tokio::test]
async fn custom_resources_and_scale_apply_patches_answer_415() {
    let server = server_with_deployment().await;
    server.register(fixtures::widget_spec());
    server
        .create(
            "widgets.example.com",
            Some("shop"),
            fixtures::widget("shop", "w", 0),
        )
        .unwrap();
    let (code, v) = smp(
        &server,
        "/apis/example.com/v1/namespaces/shop/widgets/w",
        json!({"spec": {}}),
    )
    .await;
    assert_eq!(code, 415, "{v}");
    assert_eq!(
        status(&v, 415, Some("UnsupportedMediaType")),
        "the body of the request was in an unknown format - accepted media types include: application/json-patch+json, application/merge-patch+json, application/apply-patch+yaml"
    );
    // Server-side apply of a `Scale` is not served (see the README).
    let (code, v) = send(
        &server,
        Method::PATCH,
        &format!("{DEPLOYMENT}/scale"),
        "application/apply-patch+yaml",
        "{}",
    )
    .await;
    assert_eq!(code, 415, "{v}");
    assert_eq!(
        status(&v, 415, Some("UnsupportedMediaType")),
        "the body of the request was in an unknown format - accepted media types include: application/json-patch+json, application/merge-patch+json, application/strategic-merge-patch+json"
    );
}

#[tokio::test]
async fn bad_strategic_patches_answer_as_kube_apiserver() {
    let server = server_with_deployment().await;
    let before = server.get("deployments.apps", Some("shop"), "web").unwrap();
    for (body, kind) in [
        ("[1]", "array"),
        ("\"x\"", "string"),
        ("7", "number"),
        ("true", "bool"),
    ] {
        let (code, v) = send(&server, Method::PATCH, DEPLOYMENT, SMP, body).await;
        assert_eq!(code, 400, "{v}");
        assert_eq!(
            status(&v, 400, Some("BadRequest")),
            format!(
                "json: cannot unmarshal {kind} into Go value of type map[string]interface {{}}"
            )
        );
    }
    // Errors kube-apiserver's handler does not classify: 500, no reason, the message.
    let (code, v) = smp(
        &server,
        DEPLOYMENT,
        json!({"spec": {"template": {"spec": {"containers": [{"image": "nginx"}]}}}}),
    )
    .await;
    assert_eq!(code, 500, "{v}");
    assert_eq!(
        status(&v, 500, None),
        "map: map[image:nginx] does not contain declared merge key: name"
    );
    let (code, v) = smp(
        &server,
        DEPLOYMENT,
        json!({"spec": {"strategy": {"$patch": "x"}}}),
    )
    .await;
    assert_eq!(code, 500, "{v}");
    assert_eq!(
        status(&v, 500, None),
        "unknown patch type: x in map: map[$patch:x]"
    );
    let (code, v) = smp(
        &server,
        DEPLOYMENT,
        json!({"spec": {"strategy": {"$retainKeys": ["type"], "rollingUpdate": {"maxSurge": 2}}}}),
    )
    .await;
    assert_eq!(code, 400, "{v}");
    assert_eq!(
        status(&v, 400, Some("BadRequest")),
        "invalid patch format of retainKeys"
    );
    let (code, v) = smp(
        &server,
        DEPLOYMENT,
        json!({"metadata": {"$setElementOrder": []}}),
    )
    .await;
    assert_eq!(code, 400, "{v}");
    assert_eq!(
        status(&v, 400, Some("BadRequest")),
        "invalid patch format of setElementOrder list"
    );
    // Nothing was written.
    let after = server.get("deployments.apps", Some("shop"), "web").unwrap();
    assert_eq!(before, after);
}
