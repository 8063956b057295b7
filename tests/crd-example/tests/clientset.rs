//! The clientset generated from the CRD corpus against the test API server over loopback
//! HTTP: custom objects created, read, patched, listed and deleted through it; `update_status`
//! on a CRD with the status subresource (cert-manager's Certificate); a cluster-scoped CRD
//! without a namespace argument. The accessors' types carry each CRD version's subresources
//! (`subresources.status`/`.scale`); `src/lib.rs` has the `compile_fail` doc test proving a
//! CRD without status has no `update_status`.

use crd_example::crds::argoproj_io::v1alpha1::Rollout;
use crd_example::crds::cert_manager_io::v1::{Certificate, ClusterIssuer};
use crd_example::crds::gateway_networking_k8s_io::v1::ReferenceGrant;
use crd_example::crds::Clientset;
use kube_informers::api::{
    Api, DeleteParams, NoSubresources, Patch, PatchParams, PostParams, StatusAndScale,
    StatusSubresource,
};
use kube_informers::client::Config;
use kube_informers::{Client, ListOptions};
use serde::de::DeserializeOwned;
use serde_json::{json, Value};
use test_apiserver::{ResourceSpec, RunningServer, TestApiServer};

const NS: &str = "shop";

/// A corpus object as a client sends it: no server-set metadata, no status.
fn fixture<K: DeserializeOwned>(name: &str, object_name: &str) -> K {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("fixtures")
        .join(name);
    let mut value: Value = serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    let object = value.as_object_mut().unwrap();
    object.remove("status");
    value["metadata"] = json!({"name": object_name});
    serde_json::from_value(value).unwrap()
}

async fn server() -> RunningServer {
    TestApiServer::builder()
        .namespaces([NS])
        .seed_namespaces(0)
        .resource(
            ResourceSpec::new("cert-manager.io", "v1", "Certificate", "certificates", true)
                .with_status_subresource(),
        )
        .resource(ResourceSpec::new(
            "cert-manager.io",
            "v1",
            "ClusterIssuer",
            "clusterissuers",
            false,
        ))
        .resource(ResourceSpec::new(
            "gateway.networking.k8s.io",
            "v1",
            "ReferenceGrant",
            "referencegrants",
            true,
        ))
        .start()
        .await
        .unwrap()
}

fn clientset(server: &RunningServer) -> Clientset {
    Clientset::new(Client::new(Config::new(server.url())).unwrap())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn custom_objects_are_written_and_read_through_the_clientset() {
    let server = server().await;
    let clientset = clientset(&server);
    let certificates: Api<Certificate, StatusSubresource> = clientset.certs().v1().certificates(NS);

    let cert: Certificate = fixture("certificate.cert-manager.io.v1.json", "example-com");
    let created = certificates
        .create(&cert, &PostParams::default())
        .await
        .unwrap();
    assert_eq!(created.metadata.namespace.as_deref(), Some(NS));
    assert_eq!(created.spec, cert.spec);
    let read = certificates.get("example-com").await.unwrap();
    assert_eq!(read.spec, cert.spec);
    assert!(read.status.is_none());

    // The status subresource: written apart from the rest, read back.
    let mut with_status = serde_json::to_value(&read).unwrap();
    with_status["status"] = json!({"revision": 3, "notAfter": "2027-01-01T00:00:00Z"});
    let with_status: Certificate = serde_json::from_value(with_status).unwrap();
    let written = certificates
        .update_status(&with_status, &PostParams::default())
        .await
        .unwrap();
    assert_eq!(
        serde_json::to_value(&written.status).unwrap()["revision"],
        json!(3)
    );
    let status = certificates.get_status("example-com").await.unwrap();
    assert_eq!(
        serde_json::to_value(&status.status).unwrap()["revision"],
        json!(3)
    );
    assert_eq!(
        status.spec, cert.spec,
        "a status write leaves the spec alone"
    );

    let patched = certificates
        .patch(
            "example-com",
            &Patch::Merge(json!({"metadata": {"labels": {"team": "web"}}})),
            &PatchParams::default(),
        )
        .await
        .unwrap();
    assert_eq!(
        patched
            .metadata
            .labels
            .unwrap()
            .get("team")
            .map(String::as_str),
        Some("web")
    );
    let everywhere = clientset
        .certs()
        .v1()
        .certificates_all()
        .list(&ListOptions::default())
        .await
        .unwrap();
    assert_eq!(everywhere.items.len(), 1);

    certificates
        .delete("example-com", &DeleteParams::default())
        .await
        .unwrap();
    assert!(certificates.get_opt("example-com").await.unwrap().is_none());
    server.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_crd_without_subresources_and_a_cluster_scoped_crd() {
    let server = server().await;
    let clientset = clientset(&server);

    let grants: Api<ReferenceGrant, NoSubresources> =
        clientset.gateway_networking().v1().reference_grants(NS);
    let grant: ReferenceGrant = fixture(
        "referencegrant.gateway.networking.k8s.io.v1.json",
        "allow-certs",
    );
    grants.create(&grant, &PostParams::default()).await.unwrap();
    let mut read = grants.get("allow-certs").await.unwrap();
    assert_eq!(read.spec, grant.spec);
    read.metadata
        .annotations
        .get_or_insert_with(Default::default)
        .insert("note".into(), "kept".into());
    let updated = grants.update(&read, &PostParams::default()).await.unwrap();
    assert_eq!(
        updated
            .metadata
            .annotations
            .unwrap()
            .get("note")
            .map(String::as_str),
        Some("kept")
    );

    // Cluster-scoped: no namespace argument, none on the object.
    let issuers: Api<ClusterIssuer, StatusSubresource> = clientset.certs().v1().cluster_issuers();
    let issuer: ClusterIssuer = fixture("clusterissuer.cert-manager.io.v1.json", "letsencrypt");
    let created = issuers
        .create(&issuer, &PostParams::default())
        .await
        .unwrap();
    assert_eq!(created.metadata.namespace, None);
    assert_eq!(issuers.get("letsencrypt").await.unwrap().spec, issuer.spec);
    let listed = issuers.list(&ListOptions::default()).await.unwrap();
    assert_eq!(listed.items.len(), 1);
    server.shutdown().await;
}

/// Argo Rollouts declares both subresources: its accessor's type says so (a compile-time
/// check; nothing is sent).
#[test]
fn a_crd_with_status_and_scale_gets_both() {
    let client = Client::new(Config::new("http://127.0.0.1:1")).unwrap();
    let rollouts: Api<Rollout, StatusAndScale> =
        Clientset::new(client).argoproj().v1alpha1().rollouts(NS);
    assert_eq!(rollouts.namespace(), Some(NS));
}
