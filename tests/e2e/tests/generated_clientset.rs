//! The generated `informers::Clientset` against the test API server over loopback HTTP:
//! every verb on a ConfigMap (no subresources) and a Deployment (status and scale), a
//! cluster-scoped Node and Namespace, the all-namespaces accessors; and the generated
//! factory's accessors, which register their informer so that `start()` and
//! `wait_for_cache_sync()` include it (#20 item 1).

use std::collections::BTreeMap;
use std::time::Duration;

use informer_runtime::api::{
    Api, DeleteParams, NoSubresources, Patch, PatchParams, PostParams, StatusAndScale,
    StatusSubresource,
};
use informer_runtime::client::Config;
use informer_runtime::request::Request;
use informer_runtime::{Client, InformerFactory, ListOptions, Selector};
use informers::{Clientset, SharedInformerFactory};
use k8s_openapi::api::apps::v1::{Deployment, DeploymentSpec, DeploymentStatus};
use k8s_openapi::api::core::v1::{
    ConfigMap, Container, Namespace, Node, NodeStatus, Pod, PodSpec, PodTemplateSpec,
};
use k8s_openapi::apimachinery::pkg::api::resource::Quantity;
use k8s_openapi::apimachinery::pkg::apis::meta::v1::{LabelSelector, ObjectMeta};
use serde_json::{json, Value};
use test_apiserver::{RunningServer, TestApiServer};

const NS: &str = "shop";
const SYNC_TIMEOUT: Duration = Duration::from_secs(120);

async fn server() -> RunningServer {
    TestApiServer::builder()
        .seed_namespaces(0)
        .namespaces([NS, "other"])
        .start()
        .await
        .unwrap()
}

fn client(server: &RunningServer) -> Client {
    Client::new(Config::new(server.url())).unwrap()
}

fn meta(name: &str) -> ObjectMeta {
    ObjectMeta {
        name: Some(name.to_owned()),
        ..Default::default()
    }
}

fn labels(pairs: &[(&str, &str)]) -> BTreeMap<String, String> {
    pairs
        .iter()
        .map(|(k, v)| ((*k).to_owned(), (*v).to_owned()))
        .collect()
}

fn deployment(name: &str, replicas: i32) -> Deployment {
    let app = labels(&[("app", name)]);
    Deployment {
        metadata: meta(name),
        spec: DeploymentSpec {
            replicas: Some(replicas),
            selector: LabelSelector {
                match_labels: Some(app.clone()),
                ..Default::default()
            },
            template: PodTemplateSpec {
                metadata: Some(ObjectMeta {
                    labels: Some(app),
                    ..Default::default()
                }),
                spec: Some(PodSpec {
                    containers: vec![Container {
                        name: "web".into(),
                        image: Some("nginx:1.27".into()),
                        ..Default::default()
                    }],
                    ..Default::default()
                }),
            },
            ..Default::default()
        },
        ..Default::default()
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn config_map_create_get_update_patch_delete() {
    let server = server().await;
    let clientset = Clientset::new(client(&server));
    // ConfigMaps have no subresources: the accessor's type says so.
    let config_maps: Api<ConfigMap, NoSubresources> = clientset.core().v1().config_maps(NS);

    let created = config_maps
        .create(
            &ConfigMap {
                metadata: meta("settings"),
                data: Some(labels(&[("mode", "fast")])),
                ..Default::default()
            },
            &PostParams::default(),
        )
        .await
        .unwrap();
    assert_eq!(created.metadata.namespace.as_deref(), Some(NS));
    let stale = created.clone();
    let err = config_maps
        .create(&created, &PostParams::default())
        .await
        .unwrap_err();
    assert!(err.is_already_exists(), "{err}");

    let mut read = config_maps.get("settings").await.unwrap();
    assert_eq!(read.data, Some(labels(&[("mode", "fast")])));
    read.data = Some(labels(&[("mode", "safe")]));
    let updated = config_maps
        .update(&read, &PostParams::default())
        .await
        .unwrap();
    assert_eq!(updated.data, Some(labels(&[("mode", "safe")])));
    assert_ne!(
        updated.metadata.resource_version,
        created.metadata.resource_version
    );
    let err = config_maps
        .update(&stale, &PostParams::default())
        .await
        .unwrap_err();
    assert!(
        err.is_conflict(),
        "a stale resourceVersion conflicts: {err}"
    );

    let patched = config_maps
        .patch(
            "settings",
            &Patch::Merge(json!({"metadata": {"labels": {"tier": "web"}}, "data": {"extra": "1"}})),
            &PatchParams::default(),
        )
        .await
        .unwrap();
    assert_eq!(patched.metadata.labels, Some(labels(&[("tier", "web")])));
    assert_eq!(
        patched.data,
        Some(labels(&[("extra", "1"), ("mode", "safe")]))
    );

    // The all-namespaces accessor lists across namespaces.
    clientset
        .core()
        .v1()
        .config_maps("other")
        .create(
            &ConfigMap {
                metadata: meta("elsewhere"),
                ..Default::default()
            },
            &PostParams::default(),
        )
        .await
        .unwrap();
    let everywhere = clientset
        .core()
        .v1()
        .config_maps_all()
        .list(&ListOptions::default())
        .await
        .unwrap();
    let mut names: Vec<String> = everywhere
        .items
        .iter()
        .filter_map(|cm| {
            Some(format!(
                "{}/{}",
                cm.metadata.namespace.as_deref()?,
                cm.metadata.name.as_deref()?
            ))
        })
        .collect();
    names.sort();
    assert_eq!(names, ["other/elsewhere", "shop/settings"]);
    let in_shop = config_maps.list(&ListOptions::default()).await.unwrap();
    assert_eq!(in_shop.items.len(), 1);

    config_maps
        .delete("settings", &DeleteParams::default())
        .await
        .unwrap();
    let err = config_maps.get("settings").await.unwrap_err();
    assert!(err.is_not_found(), "{err}");
    server.shutdown().await;
}

/// Whether the server's discovery lists `deployments/scale` in apps/v1.
async fn serves_deployment_scale(client: &Client) -> bool {
    let list: Value = client
        .request(Request::get_path("/apis/apps/v1").unwrap())
        .await
        .unwrap();
    list["resources"]
        .as_array()
        .unwrap()
        .iter()
        .any(|r| r["name"] == "deployments/scale")
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn deployment_writes_status_and_scale() {
    let server = server().await;
    let client = client(&server);
    let clientset = Clientset::new(client.clone());
    let deployments: Api<Deployment, StatusAndScale> = clientset.apps().v1().deployments(NS);

    let created = deployments
        .create(&deployment("web", 2), &PostParams::default())
        .await
        .unwrap();
    assert_eq!(created.spec.replicas, Some(2));

    let mut read = deployments.get("web").await.unwrap();
    read.spec.replicas = Some(3);
    let updated = deployments
        .update(&read, &PostParams::default())
        .await
        .unwrap();
    assert_eq!(updated.spec.replicas, Some(3));

    let patched = deployments
        .patch(
            "web",
            &Patch::Merge(json!({"metadata": {"labels": {"tier": "web"}}})),
            &PatchParams::default(),
        )
        .await
        .unwrap();
    assert_eq!(patched.metadata.labels, Some(labels(&[("tier", "web")])));

    let mut with_status = patched.clone();
    with_status.status = Some(DeploymentStatus {
        replicas: Some(3),
        ready_replicas: Some(1),
        ..Default::default()
    });
    let written = deployments
        .update_status(&with_status, &PostParams::default())
        .await
        .unwrap();
    assert_eq!(written.status.as_ref().unwrap().ready_replicas, Some(1));
    let status = deployments.get_status("web").await.unwrap().status.unwrap();
    assert_eq!((status.replicas, status.ready_replicas), (Some(3), Some(1)));
    let patched_status = deployments
        .patch_status(
            "web",
            &Patch::Merge(json!({"status": {"readyReplicas": 3}})),
            &PatchParams::default(),
        )
        .await
        .unwrap();
    assert_eq!(patched_status.status.unwrap().ready_replicas, Some(3));
    assert_eq!(
        deployments.get("web").await.unwrap().spec.replicas,
        Some(3),
        "status writes leave the spec alone"
    );

    // `/scale` reaches the server at the path the real one serves it; a server that does not
    // serve it answers 404 there, as a real server answers for a resource without it.
    match deployments.get_scale("web").await {
        Ok(scale) => {
            assert!(serves_deployment_scale(&client).await);
            assert_eq!(scale.spec.unwrap().replicas, Some(3));
        }
        Err(e) => {
            assert!(!serves_deployment_scale(&client).await, "{e}");
            assert!(e.is_not_found(), "{e}");
        }
    }

    deployments
        .delete("web", &DeleteParams::default())
        .await
        .unwrap();
    assert!(deployments.get_opt("web").await.unwrap().is_none());
    server.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn reads_of_built_ins_informer_protobuf_decodes_ask_for_protobuf() {
    let server = server().await;
    let client = client(&server);
    let clientset = Clientset::new(client.clone());
    let pod = json!({
        "apiVersion": "v1", "kind": "Pod",
        "metadata": {"name": "web", "namespace": NS, "labels": {"app": "web"}},
        "spec": {"containers": [{"name": "c", "image": "nginx", "ports": [{"containerPort": 80}]}]},
    });
    server.create("pods", Some(NS), pod).unwrap();
    server
        .create("nodes", None, json!({"metadata": {"name": "node-a"}}))
        .unwrap();

    let from_protobuf = clientset.core().v1().pods(NS).get("web").await.unwrap();
    let listed = clientset
        .core()
        .v1()
        .pods_all()
        .list(&ListOptions::default())
        .await
        .unwrap();
    let from_json = Api::<Pod>::namespaced(client, NS).get("web").await.unwrap();
    assert_eq!(from_protobuf, from_json);
    assert_eq!(listed.items, [from_json]);
    clientset.core().v1().nodes().get("node-a").await.unwrap();

    let accepts: Vec<(String, String)> = server
        .requests()
        .into_iter()
        .filter(|r| r.method == "GET")
        .map(|r| (r.path, r.accept.unwrap_or_default()))
        .collect();
    let protobuf = "application/vnd.kubernetes.protobuf, application/json";
    let pods = format!("/api/v1/namespaces/{NS}/pods/web");
    assert_eq!(
        accepts,
        [
            (pods.clone(), protobuf.to_owned()),
            ("/api/v1/pods".to_owned(), protobuf.to_owned()),
            (pods, "application/json".to_owned()),
            // 1.37's protos lack a field of k8s-openapi's Node: JSON keeps it.
            (
                "/api/v1/nodes/node-a".to_owned(),
                "application/json".to_owned()
            ),
        ]
    );
    server.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn cluster_scoped_nodes_and_namespaces_take_no_namespace() {
    let server = server().await;
    let clientset = Clientset::new(client(&server));
    let nodes: Api<Node, StatusSubresource> = clientset.core().v1().nodes();
    let namespaces: Api<Namespace, StatusSubresource> = clientset.core().v1().namespaces();

    let node = nodes
        .create(
            &Node {
                metadata: meta("node-a"),
                ..Default::default()
            },
            &PostParams::default(),
        )
        .await
        .unwrap();
    assert_eq!(node.metadata.namespace, None);
    let mut node = nodes.get("node-a").await.unwrap();
    node.status = Some(NodeStatus {
        capacity: Some([("pods".to_owned(), Quantity("110".into()))].into()),
        ..Default::default()
    });
    let node = nodes
        .update_status(&node, &PostParams::default())
        .await
        .unwrap();
    assert_eq!(
        node.status.unwrap().capacity.unwrap()["pods"],
        Quantity("110".into())
    );

    namespaces
        .create(
            &Namespace {
                metadata: meta("team-a"),
                ..Default::default()
            },
            &PostParams::default(),
        )
        .await
        .unwrap();
    let listed = namespaces.list(&ListOptions::default()).await.unwrap();
    assert!(listed
        .items
        .iter()
        .any(|ns| ns.metadata.name.as_deref() == Some("team-a")));
    nodes
        .delete("node-a", &DeleteParams::default())
        .await
        .unwrap();
    assert!(nodes.get_opt("node-a").await.unwrap().is_none());
    server.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn asking_for_an_accessor_registers_its_informer() {
    let server = server().await;
    let clientset = Clientset::new(client(&server));
    for i in 0..7 {
        clientset
            .core()
            .v1()
            .config_maps(NS)
            .create(
                &ConfigMap {
                    metadata: meta(&format!("cm-{i}")),
                    data: Some(labels(&[("i", &i.to_string())])),
                    ..Default::default()
                },
                &PostParams::default(),
            )
            .await
            .unwrap();
    }
    let factory = SharedInformerFactory::new(client(&server));
    // Only the accessor: no `.informer()`, no `.lister()` before the sync.
    let config_maps = factory.core().v1().config_maps();
    factory.start();
    tokio::time::timeout(SYNC_TIMEOUT, factory.wait_for_cache_sync())
        .await
        .expect("sync in time")
        .expect("sync");
    assert!(config_maps.informer().has_synced());
    assert_eq!(config_maps.lister().list(&Selector::everything()).len(), 7);
    assert_eq!(
        server.request_count("list", "configmaps"),
        1,
        "one informer, listed once"
    );
    factory.shutdown().await;
    server.shutdown().await;
}
