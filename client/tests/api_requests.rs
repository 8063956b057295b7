//! What `Api<K>` puts on the wire, checked against what a loopback server receives: paths,
//! methods, content types, query parameters and bodies of every verb and patch type,
//! subresource paths, DeleteOptions bodies, and how answers decode (objects, Status,
//! errors with Retry-After).

mod api_support;

use api_support::{Answer, Recorder};
use informer_client::api::{
    Api, DeleteParams, DeleteResponse, Patch, PatchParams, PostParams, StatusAndScale,
    StatusSubresource, ValidationDirective,
};
use informer_client::client::{Client, Config};
use informer_client::request::RequestBuilder;
use informer_client::ListOptions;
use k8s_openapi::api::apps::v1::Deployment;
use k8s_openapi::api::autoscaling::v1::{Scale, ScaleSpec};
use k8s_openapi::api::core::v1::{ConfigMap, Namespace, Pod};
use k8s_openapi::apimachinery::pkg::apis::meta::v1::ObjectMeta;
use serde_json::json;

fn pairs(list: &[(&str, &str)]) -> Vec<(String, String)> {
    list.iter()
        .map(|(k, v)| ((*k).to_owned(), (*v).to_owned()))
        .collect()
}

/// Answers every request with `body`.
async fn answering(status: u16, body: serde_json::Value) -> (Recorder, Client) {
    let body = body.to_string();
    let server = Recorder::start(move |_| Answer::json(status, body.clone())).await;
    let client = Client::new(Config::new(&server.url)).unwrap();
    (server, client)
}

fn pod_json() -> serde_json::Value {
    json!({"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "web-0", "namespace": "shop", "resourceVersion": "5"}})
}

fn deployment(name: &str) -> Deployment {
    Deployment {
        metadata: ObjectMeta {
            name: Some(name.into()),
            ..Default::default()
        },
        ..Default::default()
    }
}

#[tokio::test]
async fn strategic_merge_patch() {
    let (server, client) = answering(200, pod_json()).await;
    let pods = Api::<Pod>::namespaced(client, "shop");
    let patch =
        Patch::Strategic(json!({"spec": {"containers": [{"name": "c", "image": "nginx:2"}]}}));
    let pod = pods
        .patch("web-0", &patch, &PatchParams::default())
        .await
        .unwrap();
    assert_eq!(pod.metadata.resource_version.as_deref(), Some("5"));
    let r = server.single();
    assert_eq!(r.method, "PATCH");
    assert_eq!(r.path, "/api/v1/namespaces/shop/pods/web-0");
    assert_eq!(r.query, "");
    assert_eq!(
        r.header("content-type"),
        Some("application/strategic-merge-patch+json")
    );
    assert_eq!(r.header("accept"), Some("application/json"));
    assert_eq!(
        r.json(),
        json!({"spec": {"containers": [{"name": "c", "image": "nginx:2"}]}})
    );
}

#[tokio::test]
async fn server_side_apply() {
    let body = json!({"apiVersion": "apps/v1", "kind": "Deployment", "metadata": {"name": "web", "namespace": "shop"}});
    let (server, client) = answering(200, body).await;
    let deployments = Api::<Deployment>::namespaced(client, "shop");
    let params = PatchParams::apply("shop-controller").force();
    deployments
        .patch("web", &Patch::Apply(&deployment("web")), &params)
        .await
        .unwrap();
    let r = server.single();
    assert_eq!(r.method, "PATCH");
    assert_eq!(r.path, "/apis/apps/v1/namespaces/shop/deployments/web");
    assert_eq!(
        r.query_pairs(),
        pairs(&[("fieldManager", "shop-controller"), ("force", "true")])
    );
    assert_eq!(
        r.header("content-type"),
        Some("application/apply-patch+yaml")
    );
    let sent = r.json();
    assert_eq!(sent["apiVersion"], "apps/v1");
    assert_eq!(sent["kind"], "Deployment");
    assert_eq!(sent["metadata"]["name"], "web");
}

#[tokio::test]
async fn patch_arguments_are_checked_before_sending() {
    let (server, client) = answering(200, pod_json()).await;
    let pods = Api::<Pod>::namespaced(client, "shop");
    let apply_without_manager = pods
        .patch("web-0", &Patch::Apply(json!({})), &PatchParams::default())
        .await
        .unwrap_err();
    assert!(
        apply_without_manager.to_string().contains("field manager"),
        "{apply_without_manager}"
    );
    let forced_merge = pods
        .patch(
            "web-0",
            &Patch::Merge(json!({})),
            &PatchParams::default().force(),
        )
        .await
        .unwrap_err();
    assert!(forced_merge.to_string().contains("force"), "{forced_merge}");
    let json_patch_object = pods
        .patch(
            "web-0",
            &Patch::Json(json!({"op": "add"})),
            &PatchParams::default(),
        )
        .await
        .unwrap_err();
    assert!(
        json_patch_object
            .to_string()
            .contains("array of operations"),
        "{json_patch_object}"
    );
    assert!(server.requests().is_empty());
}

#[tokio::test]
async fn json_patch_with_dry_run_and_field_validation() {
    let (server, client) = answering(200, pod_json()).await;
    let pods = Api::<Pod>::namespaced(client, "shop");
    let ops = json!([
        {"op": "test", "path": "/metadata/resourceVersion", "value": "5"},
        {"op": "replace", "path": "/metadata/labels/tier", "value": "web"},
    ]);
    let params = PatchParams::default()
        .dry_run()
        .field_manager("kubectl-edit")
        .validation(ValidationDirective::Strict);
    pods.patch("web-0", &Patch::Json(ops.clone()), &params)
        .await
        .unwrap();
    let r = server.single();
    assert_eq!(
        r.header("content-type"),
        Some("application/json-patch+json")
    );
    assert_eq!(
        r.query_pairs(),
        pairs(&[
            ("dryRun", "All"),
            ("fieldManager", "kubectl-edit"),
            ("fieldValidation", "Strict")
        ])
    );
    assert_eq!(r.json(), ops);
}

#[tokio::test]
async fn merge_patch_content_type() {
    let (server, client) = answering(200, pod_json()).await;
    let pods = Api::<Pod>::namespaced(client, "shop");
    pods.patch(
        "web-0",
        &Patch::Merge(json!({"metadata": {"labels": {"a": null}}})),
        &PatchParams::default(),
    )
    .await
    .unwrap();
    assert_eq!(
        server.single().header("content-type"),
        Some("application/merge-patch+json")
    );
}

#[tokio::test]
async fn create_and_update_with_write_options() {
    let cm = json!({"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "settings", "namespace": "shop", "resourceVersion": "9"}});
    let (server, client) = answering(201, cm).await;
    let cms = Api::<ConfigMap>::namespaced(client, "shop");
    let object = ConfigMap {
        metadata: ObjectMeta {
            name: Some("settings".into()),
            resource_version: Some("8".into()),
            ..Default::default()
        },
        ..Default::default()
    };
    let params = PostParams::default().dry_run().field_manager("m");
    cms.create(&object, &params).await.unwrap();
    cms.update(&object, &params).await.unwrap();
    let [create, update] = <[_; 2]>::try_from(server.requests()).unwrap();
    assert_eq!(create.method, "POST");
    assert_eq!(create.path, "/api/v1/namespaces/shop/configmaps");
    assert_eq!(
        create.query_pairs(),
        pairs(&[("dryRun", "All"), ("fieldManager", "m")])
    );
    assert_eq!(create.header("content-type"), Some("application/json"));
    assert_eq!(create.json()["kind"], "ConfigMap");
    assert_eq!(update.method, "PUT");
    assert_eq!(update.path, "/api/v1/namespaces/shop/configmaps/settings");
    assert_eq!(update.query, create.query);
    // The resourceVersion travels with the object: that is what makes a stale PUT a 409.
    assert_eq!(update.json()["metadata"]["resourceVersion"], "8");
}

#[tokio::test]
async fn cluster_scoped_paths() {
    let ns = json!({"apiVersion": "v1", "kind": "Namespace", "metadata": {"name": "shop"}});
    let (server, client) = answering(200, ns).await;
    let namespaces = Api::<Namespace>::all(client);
    let mut object = namespaces.get("shop").await.unwrap();
    object.metadata.labels = Some([("a".to_owned(), "b".to_owned())].into());
    namespaces
        .update(&object, &PostParams::default())
        .await
        .unwrap();
    let paths: Vec<(String, String)> = server
        .requests()
        .into_iter()
        .map(|r| (r.method, r.path))
        .collect();
    assert_eq!(
        paths,
        vec![
            ("GET".to_owned(), "/api/v1/namespaces/shop".to_owned()),
            ("PUT".to_owned(), "/api/v1/namespaces/shop".to_owned()),
        ]
    );
}

#[tokio::test]
async fn delete_sends_delete_options_and_decodes_status_or_object() {
    let status = json!({"kind": "Status", "apiVersion": "v1", "metadata": {}, "status": "Success",
        "details": {"name": "settings", "kind": "configmaps", "uid": "u1"}});
    let (server, client) = answering(200, status).await;
    let cms = Api::<ConfigMap>::namespaced(client, "shop");
    let params = DeleteParams::foreground()
        .grace_period(5)
        .precondition_uid("u1")
        .precondition_resource_version("42")
        .dry_run();
    match cms.delete("settings", &params).await.unwrap() {
        DeleteResponse::Deleted(s) => {
            assert_eq!(s.details.unwrap().uid.as_deref(), Some("u1"))
        }
        DeleteResponse::Object(o) => panic!("expected a Status, got {o:?}"),
    }
    let r = server.single();
    assert_eq!(r.method, "DELETE");
    assert_eq!(r.path, "/api/v1/namespaces/shop/configmaps/settings");
    assert_eq!(r.query, "");
    assert_eq!(r.header("content-type"), Some("application/json"));
    assert_eq!(
        r.json(),
        json!({"kind": "DeleteOptions", "apiVersion": "v1", "gracePeriodSeconds": 5,
            "propagationPolicy": "Foreground",
            "preconditions": {"uid": "u1", "resourceVersion": "42"}, "dryRun": ["All"]})
    );

    // An object held by finalizers comes back as the object.
    let held = json!({"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "settings",
        "namespace": "shop", "finalizers": ["example.com/hold"], "deletionTimestamp": "2026-01-01T00:00:00Z"}});
    let (_server, client) = answering(200, held).await;
    let cms = Api::<ConfigMap>::namespaced(client, "shop");
    let object = cms
        .delete("settings", &DeleteParams::background())
        .await
        .unwrap()
        .object()
        .unwrap();
    assert!(object.metadata.deletion_timestamp.is_some());
}

#[tokio::test]
async fn delete_collection_selects_by_labels_and_fields() {
    let list = json!({"kind": "ConfigMapList", "apiVersion": "v1", "metadata": {"resourceVersion": "77"},
        "items": [{"metadata": {"name": "a", "namespace": "shop"}}, {"metadata": {"name": "b", "namespace": "shop"}}]});
    let (server, client) = answering(200, list).await;
    let cms = Api::<ConfigMap>::namespaced(client, "shop");
    let selected = ListOptions {
        label_selector: Some("app=shop,tier in (web)".into()),
        field_selector: Some("metadata.name!=keep".into()),
        ..Default::default()
    };
    let deleted = cms
        .delete_collection(&DeleteParams::background().dry_run(), &selected)
        .await
        .unwrap()
        .object()
        .unwrap();
    assert_eq!(deleted.items.len(), 2);
    assert_eq!(deleted.metadata.resource_version.as_deref(), Some("77"));
    let r = server.single();
    assert_eq!(r.method, "DELETE");
    assert_eq!(r.path, "/api/v1/namespaces/shop/configmaps");
    assert_eq!(
        r.query_pairs(),
        pairs(&[
            ("labelSelector", "app=shop,tier in (web)"),
            ("fieldSelector", "metadata.name!=keep")
        ])
    );
    assert_eq!(
        r.json(),
        json!({"kind": "DeleteOptions", "apiVersion": "v1", "propagationPolicy": "Background", "dryRun": ["All"]})
    );
}

#[tokio::test]
async fn status_subresource_paths() {
    let (server, client) = answering(200, pod_json()).await;
    let pods: Api<Pod, StatusSubresource> = Api::namespaced(client, "shop");
    let pod = pods.get_status("web-0").await.unwrap();
    pods.update_status(&pod, &PostParams::default().dry_run())
        .await
        .unwrap();
    pods.patch_status(
        "web-0",
        &Patch::Merge(json!({"status": {"phase": "Failed"}})),
        &PatchParams::default(),
    )
    .await
    .unwrap();
    let seen: Vec<(String, String, String)> = server
        .requests()
        .into_iter()
        .map(|r| (r.method, r.path, r.query))
        .collect();
    let path = "/api/v1/namespaces/shop/pods/web-0/status".to_owned();
    assert_eq!(
        seen,
        vec![
            ("GET".into(), path.clone(), String::new()),
            ("PUT".into(), path.clone(), "dryRun=All".into()),
            ("PATCH".into(), path, String::new()),
        ]
    );
}

#[tokio::test]
async fn scale_subresource() {
    let scale = json!({"apiVersion": "autoscaling/v1", "kind": "Scale",
        "metadata": {"name": "web", "namespace": "shop", "resourceVersion": "3"},
        "spec": {"replicas": 2}, "status": {"replicas": 2, "selector": "app=web"}});
    let (server, client) = answering(200, scale).await;
    let deployments: Api<Deployment, StatusAndScale> = Api::namespaced(client, "shop");
    let got = deployments.get_scale("web").await.unwrap();
    assert_eq!(got.spec.as_ref().unwrap().replicas, Some(2));
    let wanted = Scale {
        spec: Some(ScaleSpec { replicas: Some(5) }),
        ..got
    };
    deployments
        .update_scale("web", &wanted, &PostParams::default())
        .await
        .unwrap();
    deployments
        .patch_scale(
            "web",
            &Patch::Merge(json!({"spec": {"replicas": 3}})),
            &PatchParams::default(),
        )
        .await
        .unwrap();
    // The same Api has the status subresource too.
    deployments.get_status("web").await.unwrap_err();
    let requests = server.requests();
    let path = "/apis/apps/v1/namespaces/shop/deployments/web/scale";
    assert_eq!(requests[0].method, "GET");
    assert_eq!(requests[0].path, path);
    assert_eq!(requests[1].method, "PUT");
    assert_eq!(requests[1].path, path);
    assert_eq!(requests[1].json()["spec"]["replicas"], 5);
    assert_eq!(requests[1].json()["metadata"]["resourceVersion"], "3");
    assert_eq!(requests[2].method, "PATCH");
    assert_eq!(requests[2].path, path);
    assert_eq!(
        requests[3].path,
        "/apis/apps/v1/namespaces/shop/deployments/web/status"
    );
}

#[tokio::test]
async fn error_predicates_and_retry_after() {
    let server = Recorder::start(|r| match r.path.rsplit('/').next().unwrap_or_default() {
        "busy" => Answer::json(
            429,
            json!({"kind": "Status", "apiVersion": "v1", "status": "Failure", "reason": "TooManyRequests",
                "message": "slow down", "code": 429, "details": {"retryAfterSeconds": 1}})
            .to_string(),
        )
        .header("retry-after", "7"),
        "throttled" => Answer::json(
            429,
            json!({"kind": "Status", "apiVersion": "v1", "status": "Failure", "reason": "TooManyRequests",
                "message": "slow down", "code": 429, "details": {"retryAfterSeconds": 4}})
            .to_string(),
        ),
        "secret" => Answer::json(403, json!({"kind": "Status", "apiVersion": "v1", "status": "Failure",
            "reason": "Forbidden", "message": "configmaps \"secret\" is forbidden", "code": 403}).to_string()),
        "who" => Answer::json(401, json!({"kind": "Status", "apiVersion": "v1", "status": "Failure",
            "reason": "Unauthorized", "message": "Unauthorized", "code": 401}).to_string()),
        "old" => Answer::json(410, json!({"kind": "Status", "apiVersion": "v1", "status": "Failure",
            "reason": "Expired", "message": "too old", "code": 410}).to_string()),
        _ => Answer::json(502, "<html>bad gateway</html>"),
    })
    .await;
    let client = Client::new(Config::new(&server.url)).unwrap();
    let cms = Api::<ConfigMap>::namespaced(client, "shop");

    let busy = cms.get("busy").await.unwrap_err();
    assert!(busy.is_too_many_requests(), "{busy}");
    assert_eq!(busy.retry_after(), Some(std::time::Duration::from_secs(7)));
    let throttled = cms.get("throttled").await.unwrap_err();
    assert_eq!(
        throttled.retry_after(),
        Some(std::time::Duration::from_secs(4))
    );
    let forbidden = cms.get("secret").await.unwrap_err();
    assert!(
        forbidden.is_forbidden() && !forbidden.is_not_found(),
        "{forbidden}"
    );
    assert!(cms.get("who").await.unwrap_err().is_unauthorized());
    assert!(cms.get("old").await.unwrap_err().is_gone());
    let gateway = cms.get("other").await.unwrap_err();
    assert_eq!(gateway.status_code(), Some(502));
    assert!(!gateway.is_not_found() && !gateway.is_conflict());
    assert!(
        gateway
            .to_string()
            .contains("get configmaps shop/other at http://"),
        "{gateway}"
    );
}

#[tokio::test]
async fn a_built_request_goes_out_as_built_and_its_errors_name_the_server() {
    let (server, client) = answering(200, pod_json()).await;
    let pods = RequestBuilder::of::<Pod>(Some("shop"));
    let patch = pods
        .patch(
            "web-0",
            &PatchParams::default().dry_run(),
            &Patch::Merge(json!({"metadata": {"labels": {"tier": "web"}}})),
        )
        .unwrap();
    let pod: Pod = client.request(patch).await.unwrap();
    assert_eq!(pod.metadata.name.as_deref(), Some("web-0"));
    let r = server.single();
    assert_eq!(r.method, "PATCH");
    assert_eq!(r.path, "/api/v1/namespaces/shop/pods/web-0");
    assert_eq!(r.query_pairs(), pairs(&[("dryRun", "All")]));
    assert_eq!(
        r.header("content-type"),
        Some("application/merge-patch+json")
    );
    assert_eq!(r.header("accept"), Some("application/json"));
    assert_eq!(r.json(), json!({"metadata": {"labels": {"tier": "web"}}}));

    server.clear();
    let delete = pods.delete("web-0", &DeleteParams::default()).unwrap();
    let answer = client.request_status::<Pod>(delete).await.unwrap();
    assert!(matches!(answer, DeleteResponse::Object(_)), "{answer:?}");

    let (_gone, client) = answering(404, json!({"kind": "Status", "code": 404, "reason": "NotFound", "message": "pods \"web-0\" not found"})).await;
    let e = client
        .request::<Pod>(pods.get("web-0").unwrap())
        .await
        .unwrap_err();
    assert!(e.is_not_found(), "{e}");
    let context = &e.api().unwrap().context;
    assert!(
        context.starts_with("get pods shop/web-0 at http://")
            && context.ends_with("/api/v1/namespaces/shop/pods/web-0"),
        "{context}"
    );
}
