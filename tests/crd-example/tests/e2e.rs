//! The factory generated from the CRD corpus against the test API server over loopback HTTP:
//! a namespaced CRD (Certificate), a cluster-scoped one (ClusterIssuer) and one served in two
//! versions (ReferenceGrant v1 and v1beta1, one informer each) sync, see creates, updates and
//! deletes, and answer lister reads; their generated metadata-only accessors do too. The
//! factory lives in the module `crds` and reaches cert-manager through its renamed accessor
//! `certs()`, as `build.rs` asks.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::Duration;

use crd_example::crds::{MetadataGroups, SharedInformerFactory};
use kube_informers::client::Config;
use kube_informers::{
    Client, InformerFactory, MetadataSharedInformerFactory, ResourceEventHandlerFuncs, Selector,
};
use serde_json::{json, Value};
use test_apiserver::{eventually, ResourceSpec, RunningServer, TestApiServer};

const TIMEOUT: Duration = Duration::from_secs(120);

fn fixture(name: &str) -> Value {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("fixtures")
        .join(name);
    let mut value: Value = serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    let object = value.as_object_mut().unwrap();
    object.remove("apiVersion");
    object.remove("kind");
    object.remove("status");
    value["metadata"] = json!({"name": value["metadata"]["name"].clone()});
    value
}

fn named(mut value: Value, name: &str) -> Value {
    value["metadata"]["name"] = json!(name);
    value
}

async fn server() -> RunningServer {
    TestApiServer::builder()
        .namespaces(["shop", "certs"])
        .seed_namespaces(0)
        .resource(ResourceSpec::new(
            "cert-manager.io",
            "v1",
            "Certificate",
            "certificates",
            true,
        ))
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
        .resource(ResourceSpec::new(
            "gateway.networking.k8s.io",
            "v1beta1",
            "ReferenceGrant",
            "referencegrants",
            true,
        ))
        .start()
        .await
        .unwrap()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn generated_crd_factory_tracks_custom_objects() {
    let server = server().await;
    server
        .create(
            "certificates.cert-manager.io",
            Some("shop"),
            fixture("certificate.cert-manager.io.v1.json"),
        )
        .unwrap();
    server
        .create(
            "clusterissuers.cert-manager.io",
            None,
            fixture("clusterissuer.cert-manager.io.v1.json"),
        )
        .unwrap();
    server
        .create(
            "referencegrants.gateway.networking.k8s.io",
            Some("certs"),
            fixture("referencegrant.gateway.networking.k8s.io.v1.json"),
        )
        .unwrap();

    let factory = SharedInformerFactory::new(Client::new(Config::new(server.url())).unwrap());
    let certificates = factory.certs().v1().certificates();
    let issuers = factory.certs().v1().cluster_issuers();
    let grants_v1 = factory.gateway_networking().v1().reference_grants();
    let grants_v1beta1 = factory.gateway_networking().v1beta1().reference_grants();

    let adds = Arc::new(AtomicUsize::new(0));
    let updates = Arc::new(AtomicUsize::new(0));
    let deletes = Arc::new(AtomicUsize::new(0));
    let (a, u, d) = (adds.clone(), updates.clone(), deletes.clone());
    certificates.informer().add_event_handler(
        ResourceEventHandlerFuncs::default()
            .on_add(move |_, _| {
                a.fetch_add(1, Ordering::SeqCst);
            })
            .on_update(move |_, _| {
                u.fetch_add(1, Ordering::SeqCst);
            })
            .on_delete(move |_| {
                d.fetch_add(1, Ordering::SeqCst);
            }),
    );
    let _ = issuers.informer();
    let _ = grants_v1.informer();
    let _ = grants_v1beta1.informer();
    factory.start();
    tokio::time::timeout(TIMEOUT, factory.wait_for_cache_sync())
        .await
        .expect("sync in time")
        .expect("every CRD informer syncs");

    let cert = certificates
        .lister()
        .certificates("shop")
        .get("example-com")
        .expect("cached certificate");
    let spec = cert.spec.as_ref().expect("certificate spec");
    assert_eq!(spec.secret_name, "example-com-tls");
    assert_eq!(
        spec.dns_names.as_deref(),
        Some(&["example.com".to_owned(), "www.example.com".to_owned()][..])
    );
    let issuer = issuers
        .lister()
        .get("letsencrypt")
        .expect("cached cluster issuer");
    assert!(issuer.spec.acme.is_some());
    let v1 = grants_v1
        .lister()
        .reference_grants("certs")
        .get("allow-prod-gateway")
        .expect("v1 grant");
    let v1beta1 = grants_v1beta1
        .lister()
        .reference_grants("certs")
        .get("allow-prod-gateway")
        .expect("v1beta1 grant");
    assert_eq!(v1.spec.from.len(), 1);
    assert_eq!(v1beta1.spec.to.len(), 1);
    eventually("the initial add", || adds.load(Ordering::SeqCst) == 1).await;

    let second = named(
        fixture("certificate.cert-manager.io.v1.json"),
        "api-example-com",
    );
    server
        .create("certificates.cert-manager.io", Some("shop"), second)
        .unwrap();
    eventually("the created certificate", || {
        certificates
            .lister()
            .certificates("shop")
            .get("api-example-com")
            .is_some()
    })
    .await;
    assert_eq!(certificates.lister().list(&Selector::everything()).len(), 2);

    let mut changed = server
        .get(
            "certificates.cert-manager.io",
            Some("shop"),
            "api-example-com",
        )
        .unwrap();
    changed["spec"]["secretName"] = json!("rotated-tls");
    server
        .update("certificates.cert-manager.io", Some("shop"), changed)
        .unwrap();
    eventually("the updated certificate", || {
        certificates
            .lister()
            .certificates("shop")
            .get("api-example-com")
            .is_some_and(|c| {
                c.spec
                    .as_ref()
                    .is_some_and(|s| s.secret_name == "rotated-tls")
            })
    })
    .await;

    server
        .delete(
            "certificates.cert-manager.io",
            Some("shop"),
            "api-example-com",
        )
        .unwrap();
    eventually("the deleted certificate", || {
        certificates
            .lister()
            .certificates("shop")
            .get("api-example-com")
            .is_none()
    })
    .await;
    eventually("handler events", || {
        adds.load(Ordering::SeqCst) == 2
            && updates.load(Ordering::SeqCst) >= 1
            && deletes.load(Ordering::SeqCst) == 1
    })
    .await;

    factory.shutdown().await;
    server.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn generated_metadata_accessors_cover_crds() {
    let server = server().await;
    server
        .create(
            "certificates.cert-manager.io",
            Some("shop"),
            fixture("certificate.cert-manager.io.v1.json"),
        )
        .unwrap();
    server
        .create(
            "clusterissuers.cert-manager.io",
            None,
            fixture("clusterissuer.cert-manager.io.v1.json"),
        )
        .unwrap();

    let client = Client::new(Config::new(server.url())).unwrap();
    let factory = MetadataSharedInformerFactory::new(client, Duration::ZERO);
    let certificates = factory.certs().v1().certificates();
    let issuers = factory.certs().v1().cluster_issuers();
    factory.start();
    factory.wait_for_cache_sync_timeout(TIMEOUT).await.unwrap();

    let cert = certificates
        .lister()
        .namespaced("shop")
        .get("example-com")
        .expect("cached certificate metadata");
    assert_eq!(
        (cert.api_version.as_str(), cert.kind.as_str()),
        ("cert-manager.io/v1", "Certificate")
    );
    assert!(!issuers.resource().namespaced);
    assert!(issuers.lister().get("letsencrypt").is_some());

    server
        .create(
            "certificates.cert-manager.io",
            Some("shop"),
            named(
                fixture("certificate.cert-manager.io.v1.json"),
                "api-example-com",
            ),
        )
        .unwrap();
    eventually("the created certificate's metadata", || {
        factory
            .certs()
            .v1()
            .certificates()
            .lister()
            .list(&Selector::everything())
            .len()
            == 2
    })
    .await;

    factory.shutdown().await;
    server.shutdown().await;
}
