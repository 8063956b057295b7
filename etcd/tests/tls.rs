//! The etcd backend over TLS against a real etcd requiring client certificates
//! (certificates made here with rcgen), bad TLS settings, and the response size limit.

mod support;

use std::collections::BTreeMap;
use std::path::Path;
use std::time::{Duration, Instant};

use futures_util::StreamExt;
use informer_etcd::{Etcd, EtcdListerWatcher, EtcdTls, DEFAULT_MAX_RESPONSE_BYTES};
use informer_runtime::error::ConfigErrorKind;
use informer_runtime::k8s_openapi::api::core::v1::ConfigMap;
use informer_runtime::k8s_openapi::apimachinery::pkg::apis::meta::v1::ObjectMeta;
use informer_runtime::{Error, ListOptions, ListerWatcher, WatchEvent};
use rcgen::{
    BasicConstraints, CertificateParams, DnType, ExtendedKeyUsagePurpose, IsCa, Issuer, KeyPair,
};
use support::{EtcdServer, ServerTls};

/// A CA with its issuer, to sign leaf certificates.
struct Ca {
    pem: String,
    issuer: Issuer<'static, KeyPair>,
}

fn ca(name: &str) -> Ca {
    let key = KeyPair::generate().unwrap();
    let mut params = CertificateParams::new(Vec::<String>::new()).unwrap();
    params.is_ca = IsCa::Ca(BasicConstraints::Unconstrained);
    params.distinguished_name.push(DnType::CommonName, name);
    let cert = params.self_signed(&key).unwrap();
    Ca {
        pem: cert.pem(),
        issuer: Issuer::new(params, key),
    }
}

/// A leaf certificate and its key (PEM), signed by `ca`.
fn leaf(ca: &Ca, names: &[&str], usage: ExtendedKeyUsagePurpose) -> (String, String) {
    let key = KeyPair::generate().unwrap();
    let mut params =
        CertificateParams::new(names.iter().map(|n| n.to_string()).collect::<Vec<_>>()).unwrap();
    params.distinguished_name.push(
        DnType::CommonName,
        names.first().copied().unwrap_or("client"),
    );
    params.extended_key_usages = vec![usage];
    let cert = params.signed_by(&key, &ca.issuer).unwrap();
    (cert.pem(), key.serialize_pem())
}

fn write(dir: &Path, name: &str, pem: &str) -> std::path::PathBuf {
    let path = dir.join(name);
    std::fs::write(&path, pem).unwrap();
    path
}

/// An etcd serving TLS with a certificate of `ca`, requiring client certificates of `ca`;
/// and the PEM files of a client certificate `ca` signed.
struct Pki {
    dir: tempfile::TempDir,
    ca: Ca,
}

impl Pki {
    fn new() -> Self {
        Self {
            dir: tempfile::tempdir().unwrap(),
            ca: ca("etcd test CA"),
        }
    }

    fn path(&self, name: &str) -> std::path::PathBuf {
        self.dir.path().join(name)
    }

    fn start_etcd(&self) -> EtcdServer {
        let (cert, key) = leaf(
            &self.ca,
            &["localhost", "127.0.0.1"],
            ExtendedKeyUsagePurpose::ServerAuth,
        );
        let (client_cert, client_key) =
            leaf(&self.ca, &["client"], ExtendedKeyUsagePurpose::ClientAuth);
        let dir = self.dir.path();
        write(dir, "client.crt", &client_cert);
        write(dir, "client.key", &client_key);
        EtcdServer::start_tls(ServerTls {
            cert: write(dir, "server.crt", &cert),
            key: write(dir, "server.key", &key),
            client_ca: write(dir, "ca.crt", &self.ca.pem),
        })
    }

    /// Trusts the CA, presents the client certificate.
    fn client_tls(&self) -> EtcdTls {
        EtcdTls::from_ca_file(self.path("ca.crt"))
            .unwrap()
            .with_client_identity_files(self.path("client.crt"), self.path("client.key"))
            .unwrap()
    }
}

fn https(etcd: &EtcdServer) -> String {
    format!("https://{}", etcd.endpoint())
}

fn cm(name: &str, data: String) -> ConfigMap {
    ConfigMap {
        metadata: ObjectMeta {
            name: Some(name.into()),
            namespace: Some("ns".into()),
            ..Default::default()
        },
        data: Some(BTreeMap::from([("k".to_owned(), data)])),
        ..Default::default()
    }
}

/// Lists until etcd has elected itself and answers (the TLS handshake included).
async fn list_when_ready(
    source: &EtcdListerWatcher<ConfigMap>,
) -> informer_runtime::ObjectList<std::sync::Arc<ConfigMap>> {
    let deadline = Instant::now() + Duration::from_secs(30);
    loop {
        match source.list(ListOptions::default()).await {
            Ok(list) => return list,
            Err(e) if Instant::now() > deadline => panic!("etcd did not answer within 30 s: {e}"),
            Err(_) => tokio::time::sleep(Duration::from_millis(100)).await,
        }
    }
}

/// The first error of a list, once etcd is known to be up (it answers `ready`).
async fn list_error(source: &EtcdListerWatcher<ConfigMap>, ready: &Etcd) -> Error {
    list_when_ready(&EtcdListerWatcher::new(ready.clone())).await;
    source
        .list(ListOptions::default())
        .await
        .expect_err("the list must fail")
}

/// The error's message with its sources, as a log would show it.
fn chain(e: &dyn std::error::Error) -> String {
    let mut text = e.to_string();
    let mut source = e.source();
    while let Some(s) = source {
        text.push_str(": ");
        text.push_str(&s.to_string());
        source = s.source();
    }
    text
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn lists_and_watches_run_over_tls_with_a_client_certificate() {
    let pki = Pki::new();
    let server = pki.start_etcd();
    let etcd = Etcd::connect_tls(&[https(&server)], &pki.client_tls(), None)
        .await
        .unwrap();
    let source = EtcdListerWatcher::<ConfigMap>::new(etcd.clone());
    assert!(list_when_ready(&source).await.items.is_empty());

    let writer = source.writer();
    writer.create(&cm("a", "1".into())).await.unwrap();
    let list = source.list(ListOptions::default()).await.unwrap();
    assert_eq!(list.items.len(), 1);

    let mut watch = source
        .watch(ListOptions {
            resource_version: list.metadata.resource_version.clone(),
            ..Default::default()
        })
        .await
        .unwrap();
    writer.create(&cm("b", "2".into())).await.unwrap();
    let event = tokio::time::timeout(Duration::from_secs(20), watch.next())
        .await
        .expect("an event within 20 s")
        .expect("the watch is open")
        .unwrap();
    match event {
        WatchEvent::Added(o) => assert_eq!(o.metadata.name.as_deref(), Some("b")),
        other => panic!("expected ADDED b, got {other:?}"),
    }

    // A bare HOST:PORT endpoint means TLS too.
    let bare = Etcd::connect_tls(&[server.endpoint()], &pki.client_tls(), None)
        .await
        .unwrap();
    let list = list_when_ready(&EtcdListerWatcher::new(bare)).await;
    assert_eq!(list.items.len(), 2);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_client_without_a_certificate_is_refused_with_an_error_naming_the_endpoint() {
    let pki = Pki::new();
    let server = pki.start_etcd();
    let ready = Etcd::connect_tls(&[https(&server)], &pki.client_tls(), None)
        .await
        .unwrap();
    let no_cert = EtcdTls::from_ca_file(pki.path("ca.crt")).unwrap();
    let etcd = Etcd::connect_tls(&[https(&server)], &no_cert, None)
        .await
        .unwrap();
    let err = list_error(&EtcdListerWatcher::new(etcd), &ready).await;
    let text = chain(&err);
    assert!(matches!(err, Error::Http { .. }), "{text}");
    // TLS 1.3: etcd refuses after the handshake and the client sees the connection close;
    // the error says no certificate was presented.
    assert!(
        text.contains(&format!(
            "in etcd at {} (TLS without a client certificate): cannot reach etcd",
            https(&server)
        )),
        "{text}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_server_certificate_of_another_ca_is_refused_with_an_error_naming_the_endpoint() {
    let pki = Pki::new();
    let server = pki.start_etcd();
    let ready = Etcd::connect_tls(&[https(&server)], &pki.client_tls(), None)
        .await
        .unwrap();
    let wrong_ca = EtcdTls::new(ca("another CA").pem)
        .unwrap()
        .with_client_identity_files(pki.path("client.crt"), pki.path("client.key"))
        .unwrap();
    let etcd = Etcd::connect_tls(&[https(&server)], &wrong_ca, None)
        .await
        .unwrap();
    let err = list_error(&EtcdListerWatcher::new(etcd), &ready).await;
    let text = chain(&err);
    assert!(matches!(err, Error::Http { .. }), "{text}");
    assert!(
        text.contains(&format!("in etcd at {}", https(&server))),
        "{text}"
    );
    assert!(text.contains("UnknownIssuer"), "{text}");
}

#[tokio::test]
async fn unusable_tls_settings_are_refused_naming_what_is_wrong() {
    let pki = Pki::new();
    let dir = pki.dir.path();
    let ca_path = write(dir, "ca.crt", &pki.ca.pem);
    let (cert, key) = leaf(&pki.ca, &["client"], ExtendedKeyUsagePurpose::ClientAuth);
    let (_, other_key) = leaf(&pki.ca, &["other"], ExtendedKeyUsagePurpose::ClientAuth);

    let missing = dir.join("missing.crt");
    let err = EtcdTls::from_ca_file(&missing).unwrap_err();
    assert_eq!(err.config_kind(), Some(ConfigErrorKind::Read));
    assert!(err.to_string().contains(&missing.display().to_string()));

    let garbage = write(dir, "garbage.crt", "not a certificate\n");
    let err = EtcdTls::from_ca_file(&garbage).unwrap_err();
    assert_eq!(err.config_kind(), Some(ConfigErrorKind::Invalid));
    assert!(
        err.to_string()
            .contains(&format!("{} holds no PEM certificate", garbage.display())),
        "{err}"
    );

    let err = EtcdTls::from_ca_file(&ca_path)
        .unwrap()
        .with_client_identity(cert.clone(), other_key)
        .unwrap_err();
    assert_eq!(err.config_kind(), Some(ConfigErrorKind::Tls), "{err}");
    assert!(err.to_string().contains("cannot be used together"), "{err}");

    let err = EtcdTls::from_ca_file(&ca_path)
        .unwrap()
        .with_client_identity(cert.clone(), "no key")
        .unwrap_err();
    assert!(
        err.to_string().contains("no usable PEM private key"),
        "{err}"
    );

    let err = EtcdTls::from_ca_file(&ca_path)
        .unwrap()
        .with_server_name("not a name")
        .unwrap_err();
    assert!(err.to_string().contains("\"not a name\""), "{err}");

    let tls = EtcdTls::from_ca_file(&ca_path)
        .unwrap()
        .with_client_identity(cert, key.clone())
        .unwrap()
        .with_server_name("etcd.example")
        .unwrap();
    let debug = format!("{tls:?}");
    let key_body = key.lines().nth(1).unwrap();
    assert!(!debug.contains(key_body), "Debug shows the key: {debug}");
    assert!(debug.contains("etcd.example"), "{debug}");

    let err = Etcd::connect_tls(&["http://127.0.0.1:2379"], &tls, None)
        .await
        .unwrap_err();
    assert_eq!(err.config_kind(), Some(ConfigErrorKind::Invalid));
    assert!(
        err.to_string().contains("endpoint http://127.0.0.1:2379"),
        "{err}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn responses_over_the_size_limit_fail_clearly_and_lists_read_fewer_keys_first() {
    let server = EtcdServer::start();
    let etcd = server.connect().await;
    assert_eq!(etcd.max_response_bytes(), DEFAULT_MAX_RESPONSE_BYTES);
    let limit = 256 << 10;
    let small = etcd.clone().with_max_response_bytes(limit);
    let source = EtcdListerWatcher::<ConfigMap>::new(small);
    let writer = EtcdListerWatcher::<ConfigMap>::new(etcd).writer();

    // Ten 100 KiB values: one read of all of them is about 1 MiB, over the limit; the
    // list reads fewer keys at a time and still returns every object.
    for i in 0..10 {
        writer
            .create(&cm(&format!("c{i}"), "x".repeat(100 << 10)))
            .await
            .unwrap();
    }
    let list = source.list(ListOptions::default()).await.unwrap();
    assert_eq!(list.items.len(), 10);

    let mut watch = source
        .watch(ListOptions {
            resource_version: list.metadata.resource_version.clone(),
            ..Default::default()
        })
        .await
        .unwrap();
    // One value over the limit: no read can hold it.
    writer
        .create(&cm("huge", "x".repeat(300 << 10)))
        .await
        .unwrap();
    let err = source.list(ListOptions::default()).await.unwrap_err();
    let text = err.to_string();
    assert_eq!(err.status_code(), Some(500), "{text}");
    assert!(
        text.contains(&format!("in etcd at {}", server.endpoint())),
        "{text}"
    );
    assert!(
        text.contains("larger than this client accepts")
            && text.contains(&format!("the limit is: {limit} bytes"))
            && text.contains("Etcd::with_max_response_bytes"),
        "{text}"
    );

    // The watch sees the same event as one response, over the limit: it fails as clearly.
    let event = tokio::time::timeout(Duration::from_secs(20), watch.next())
        .await
        .expect("an event within 20 s")
        .expect("the watch reports the failure");
    let err = event.expect_err("the huge event cannot be received");
    assert!(
        err.to_string().contains("larger than this client accepts"),
        "{err}"
    );
}
