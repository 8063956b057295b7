//! A typed projection of a generated CRD type: a view of cert-manager's Certificate with only
//! its secret name, DNS names and the metadata the runtime reads (`ViewMeta`), through the generated accessor
//! `factory.certs().v1().certificates().projected::<CertificateView>()`, synced against the
//! test API server and kept current by its watch, as a user of the generated crate writes it.

use std::sync::Arc;
use std::time::Duration;

use crd_example::crds::cert_manager_io::v1::Certificate;
use crd_example::crds::SharedInformerFactory;
use kube_informers::client::Config;
use kube_informers::projection::ViewMeta;
use kube_informers::{Client, InformerFactory, Selector};
use serde::{Deserialize, Serialize};
use serde_json::{json, Value};
use test_apiserver::{eventually, ResourceSpec, TestApiServer};

const TIMEOUT: Duration = Duration::from_secs(120);

/// What a controller issuing TLS secrets reads of a Certificate.
#[derive(Clone, Debug, Default, Deserialize, Serialize)]
struct CertificateView {
    #[serde(default)]
    metadata: ViewMeta,
    spec: CertificateViewSpec,
}

#[derive(Clone, Debug, Default, Deserialize, Serialize)]
struct CertificateViewSpec {
    #[serde(rename = "secretName")]
    secret_name: String,
    #[serde(rename = "dnsNames", default)]
    dns_names: Vec<String>,
}

kube_informers::projection!(CertificateView => Certificate, metadata: ViewMeta);

fn certificate(name: &str, secret: &str) -> Value {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("fixtures")
        .join("certificate.cert-manager.io.v1.json");
    let mut value: Value = serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    let object = value.as_object_mut().unwrap();
    object.remove("status");
    value["metadata"] = json!({"name": name, "labels": {"team": "shop"}});
    value["spec"]["secretName"] = json!(secret);
    value
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_certificate_projection_syncs_and_follows_the_watch() {
    let server = TestApiServer::builder()
        .namespaces(["shop"])
        .seed_namespaces(0)
        .resource(ResourceSpec::new(
            "cert-manager.io",
            "v1",
            "Certificate",
            "certificates",
            true,
        ))
        .start()
        .await
        .unwrap();
    server
        .create(
            "certificates.cert-manager.io",
            Some("shop"),
            certificate("example-com", "example-com-tls"),
        )
        .unwrap();

    let factory = SharedInformerFactory::new(Client::new(Config::new(server.url())).unwrap());
    let certificates = factory
        .certs()
        .v1()
        .certificates()
        .projected::<CertificateView>();
    factory.start();
    tokio::time::timeout(TIMEOUT, factory.wait_for_cache_sync())
        .await
        .expect("sync in time")
        .expect("the projection syncs");
    assert_eq!(
        server.request_count("list", "certificates.cert-manager.io"),
        1,
        "only the projection lists"
    );

    let lister = certificates.lister();
    let cert: Arc<CertificateView> = lister
        .namespaced("shop")
        .get("example-com")
        .expect("cached view");
    assert_eq!(cert.spec.secret_name, "example-com-tls");
    assert_eq!(cert.spec.dns_names, ["example.com", "www.example.com"]);
    assert_eq!(lister.list(&"team=shop".parse().unwrap()).len(), 1);

    server
        .create(
            "certificates.cert-manager.io",
            Some("shop"),
            certificate("api-example-com", "api-tls"),
        )
        .unwrap();
    eventually("the second certificate", || {
        lister
            .namespaced("shop")
            .get("api-example-com")
            .is_some_and(|c| c.spec.secret_name == "api-tls")
    })
    .await;
    assert_eq!(lister.list(&Selector::everything()).len(), 2);
    server
        .delete("certificates.cert-manager.io", Some("shop"), "example-com")
        .unwrap();
    eventually("the deleted certificate", || {
        lister.namespaced("shop").get("example-com").is_none()
    })
    .await;
    factory.shutdown().await;
    server.shutdown().await;
}
