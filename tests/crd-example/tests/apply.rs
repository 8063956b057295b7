//! Server-side apply of custom resources with the apply configurations informer-gen emits
//! beside their types: cert-manager's Certificate (a real CRD, with the status subresource)
//! applied through the generated clientset to the test API server, which installs the CRD
//! and tracks field ownership with its schema as kube-apiserver does; `extract_certificate`
//! and `extract_certificate_status` read back exactly what a manager applied.

use crd_example::crds::cert_manager_io::v1::{
    extract_certificate, extract_certificate_status, Certificate, CertificateApply,
    CertificateSpecApply, CertificateSpecIssuerRefApply, CertificateSpecUsages,
    CertificateStatusApply, CertificateStatusConditionsApply, CertificateStatusConditionsStatus,
};
use crd_example::crds::Clientset;
use crd_example::edge_crds::apply_example_com::v1::{
    KnobApplyApply, KnobApplyConfiguration, KnobSpecApplyConfiguration,
};
use crd_example::golden::example_com::v1::{WidgetApply, WidgetSpecApply, WidgetSpecTemplateApply};
use kube_informers::api::{Api, StatusSubresource};
use kube_informers::apply::{ApplyConfiguration, ApplyParams};
use kube_informers::client::Config;
use kube_informers::k8s_openapi::apimachinery::pkg::apis::meta::v1::Time;
use kube_informers::Client;
use serde_json::json;
use test_apiserver::{RunningServer, TestApiServer};

const NS: &str = "shop";

async fn server() -> RunningServer {
    let crd = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../../shared/crds/cert-manager__certificates.cert-manager.io.yaml");
    TestApiServer::builder()
        .namespaces([NS])
        .seed_namespaces(0)
        .crd_file(crd)
        .start()
        .await
        .unwrap()
}

fn certificates(server: &RunningServer) -> Api<Certificate, StatusSubresource> {
    Clientset::new(Client::new(Config::new(server.url())).unwrap())
        .certs()
        .v1()
        .certificates(NS)
}

/// What the controller `ctl` applies: the required fields, a list, an enum list, a label.
fn web() -> CertificateApply {
    CertificateApply::new("web", NS)
        .labels([("app", "web")])
        .spec(
            CertificateSpecApply::new()
                .secret_name("web-tls")
                .dns_names(["web.example.com", "www.example.com"])
                .usages([
                    CertificateSpecUsages::DigitalSignature,
                    CertificateSpecUsages::ServerAuth,
                ])
                .is_ca(false)
                .issuer_ref(
                    CertificateSpecIssuerRefApply::new()
                        .name("ca")
                        .kind("ClusterIssuer"),
                ),
        )
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_custom_resource_is_applied_and_extracted_as_applied() {
    let server = server().await;
    let certificates = certificates(&server);
    let config = web();
    let applied = certificates
        .apply("web", &config, &ApplyParams::new("ctl"))
        .await
        .unwrap();

    let stored = certificates.get("web").await.unwrap();
    assert_eq!(stored, applied);
    assert_eq!(stored.metadata.labels.as_ref().unwrap()["app"], "web");
    let spec = stored.spec.as_ref().unwrap();
    assert_eq!(spec.secret_name, "web-tls");
    assert_eq!(
        spec.dns_names.as_deref(),
        Some(&["web.example.com".to_owned(), "www.example.com".to_owned()][..])
    );
    assert_eq!(spec.issuer_ref.name, "ca");
    assert_eq!(spec.issuer_ref.kind.as_deref(), Some("ClusterIssuer"));
    assert_eq!(spec.is_ca, Some(false));
    assert!(stored.status.is_none());
    assert_eq!(extract_certificate(&stored, "ctl").unwrap(), config);

    // Another manager wanting another secret: the field is `ctl`'s, so it conflicts.
    let theirs =
        CertificateApply::new("web", NS).spec(CertificateSpecApply::new().secret_name("other-tls"));
    let err = certificates
        .apply("web", &theirs, &ApplyParams::new("intruder"))
        .await
        .unwrap_err();
    assert!(err.is_conflict(), "{err}");
    let message = err.api().map(|e| e.message.clone()).unwrap_or_default();
    assert!(
        message.contains(r#"conflict with "ctl""#) && message.contains(".spec.secretName"),
        "{message}"
    );
    let after = certificates.get("web").await.unwrap();
    assert_eq!(after.spec.as_ref().unwrap().secret_name, "web-tls");
    assert_eq!(
        extract_certificate(&after, "intruder").unwrap(),
        CertificateApply::new("web", NS),
        "a manager that never applied owns nothing"
    );
    server.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn status_is_applied_through_its_subresource_and_extracted_apart() {
    let server = server().await;
    let certificates = certificates(&server);
    certificates
        .apply("web", &web(), &ApplyParams::new("ctl"))
        .await
        .unwrap();

    let not_after: Time = serde_json::from_value(json!("2027-01-01T00:00:00Z")).unwrap();
    let status = CertificateApply::new("web", NS).status(
        CertificateStatusApply::new()
            .revision(2)
            .not_after(not_after.clone())
            .conditions([CertificateStatusConditionsApply::new()
                .r#type("Ready")
                .status(CertificateStatusConditionsStatus::True)
                .message("issued")]),
    );
    let written = certificates
        .apply_status("web", &status, &ApplyParams::new("issuer"))
        .await
        .unwrap();
    let stored = written.status.as_ref().unwrap();
    assert_eq!(stored.revision, Some(2));
    assert_eq!(stored.not_after, Some(not_after));
    let conditions = stored.conditions.as_ref().unwrap();
    assert_eq!(conditions.len(), 1);
    assert_eq!(conditions[0].message.as_deref(), Some("issued"));

    assert_eq!(
        extract_certificate_status(&written, "issuer").unwrap(),
        status
    );
    // The status manager owns nothing of the object itself, and the spec manager nothing
    // of its status.
    assert_eq!(
        extract_certificate(&written, "issuer").unwrap(),
        CertificateApply::new("web", NS)
    );
    assert_eq!(extract_certificate(&written, "ctl").unwrap(), web());
    assert_eq!(
        extract_certificate_status(&written, "ctl").unwrap(),
        CertificateApply::new("web", NS)
    );
    server.shutdown().await;
}

/// Decodes what `config` encodes to: extraction does that with what the server keeps.
fn reencoded<C: ApplyConfiguration>(config: &C) -> C {
    serde_json::from_value(serde_json::to_value(config).unwrap()).unwrap()
}

#[test]
fn undeclared_fields_of_preserve_unknown_fields_objects_are_kept_flat() {
    let config = WidgetApply::new("w", NS).spec(
        WidgetSpecApply::new().size(2).template(
            WidgetSpecTemplateApply::new()
                .kind("ConfigMap")
                .rest([("data", json!({"a": "1"}))]),
        ),
    );
    let encoded = serde_json::to_value(&config).unwrap();
    assert_eq!(
        encoded,
        json!({
            "apiVersion": "example.com/v1",
            "kind": "Widget",
            "metadata": {"name": "w", "namespace": NS},
            "spec": {"size": 2, "template": {"kind": "ConfigMap", "data": {"a": "1"}}},
        })
    );
    assert_eq!(reencoded(&config), config);
    // Nothing undeclared decodes as an empty map, as `new` leaves it.
    let bare = WidgetApply::new("w", NS)
        .spec(WidgetSpecApply::new().template(WidgetSpecTemplateApply::new()));
    assert_eq!(reencoded(&bare), bare);
}

#[test]
fn renamed_configurations_and_builders_set_their_own_fields() {
    // Knob has a property `apply` and a top-level `labels`: its configuration is
    // `KnobApplyConfiguration`, and `labels2` sets the property where `labels` sets
    // `metadata.labels`.
    let config = KnobApplyConfiguration::new("k", NS)
        .labels([("app", "knob")])
        .labels2([("color", "red")])
        .apply(KnobApplyApply::new().dry_run(true))
        .spec(
            KnobSpecApplyConfiguration::new()
                .new2("fresh")
                .add(["NET_ADMIN"]),
        );
    assert_eq!(
        serde_json::to_value(&config).unwrap(),
        json!({
            "apiVersion": "apply.example.com/v1",
            "kind": "Knob",
            "metadata": {"name": "k", "namespace": NS, "labels": {"app": "knob"}},
            "apply": {"dryRun": true},
            "labels": {"color": "red"},
            "spec": {"new": "fresh", "add": ["NET_ADMIN"]},
        })
    );
    assert_eq!(reencoded(&config), config);
}
