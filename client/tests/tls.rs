//! TLS against a server with a certificate from a private CA: verified with the
//! kubeconfig CA (file and data), rejected without it or with another CA, accepted with
//! `insecure-skip-tls-verify`, client certificates presented to a server requiring them.

use scripted_server as support;

use std::time::Duration;

use base64::Engine as _;
use informer_client::client::{Config, KubeConfigOptions};
use informer_client::request::RequestBuilder;
use informer_client::{Client, Error, ListOptions};
use k8s_openapi::api::core::v1::Pod;
use support::{kubeconfig, pod_list, Pki, Reply, Server};

fn b64(s: &str) -> String {
    base64::engine::general_purpose::STANDARD.encode(s)
}

async fn tls_server(pki: &Pki, require_client_cert: bool) -> Server {
    Server::start(Some(pki.server_tls(require_client_cert)), |_| {
        Reply::json(200, pod_list(&["a"], "1", None))
    })
    .await
}

fn load(dir: &tempfile::TempDir, cluster: &str, user: &str) -> Result<Client, Error> {
    let path = dir.path().join("config");
    std::fs::write(&path, kubeconfig(cluster, user)).unwrap();
    Client::new(Config::from_kubeconfig_file(
        &path,
        &KubeConfigOptions::default(),
    )?)
}

async fn list(client: &Client) -> Result<usize, Error> {
    tokio::time::timeout(
        Duration::from_secs(30),
        client.request_list::<Pod>(
            RequestBuilder::of::<Pod>(None)
                .list(&ListOptions::default())
                .unwrap(),
        ),
    )
    .await
    .expect("test hung")
    .map(|l| l.items.len())
}

#[tokio::test]
async fn verified_with_kubeconfig_ca_file_and_data() {
    let pki = Pki::new();
    let server = tls_server(&pki, false).await;
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("ca.pem"), &pki.ca_pem).unwrap();
    // A relative path resolves against the kubeconfig's directory.
    let by_file = load(
        &dir,
        &format!("server: \"{}\", certificate-authority: ca.pem", server.url),
        "",
    )
    .unwrap();
    assert_eq!(list(&by_file).await.unwrap(), 1);
    let by_data = load(
        &dir,
        &format!(
            "server: \"{}\", certificate-authority-data: {}",
            server.url,
            b64(&pki.ca_pem)
        ),
        "",
    )
    .unwrap();
    assert_eq!(list(&by_data).await.unwrap(), 1);
}

#[tokio::test]
async fn rejected_without_the_ca_or_with_another_ca() {
    let pki = Pki::new();
    let other = Pki::new();
    let server = tls_server(&pki, false).await;
    let dir = tempfile::tempdir().unwrap();
    let wrong_ca = load(
        &dir,
        &format!(
            "server: \"{}\", certificate-authority-data: {}",
            server.url,
            b64(&other.ca_pem)
        ),
        "",
    )
    .unwrap();
    let err = list(&wrong_ca).await.unwrap_err();
    assert!(matches!(err, Error::Http { .. }), "{err:?}");
    let text = err.to_string();
    assert!(
        text.starts_with(&format!("list pods at {}/api/v1/pods", server.url)),
        "{text}"
    );
    assert!(
        text.contains("certificate"),
        "the TLS cause must be visible: {text}"
    );

    // No CA at all: the platform trust store does not know the test CA.
    match Client::new(Config::new(&server.url)) {
        Ok(client) => assert!(list(&client).await.is_err()),
        Err(e) => assert!(e.to_string().contains("TLS setup"), "{e}"),
    }
}

#[tokio::test]
async fn insecure_skip_tls_verify_accepts_any_certificate() {
    let pki = Pki::new();
    let server = tls_server(&pki, false).await;
    let dir = tempfile::tempdir().unwrap();
    let client = load(
        &dir,
        &format!("server: \"{}\", insecure-skip-tls-verify: true", server.url),
        "",
    )
    .unwrap();
    assert_eq!(list(&client).await.unwrap(), 1);
}

#[tokio::test]
async fn insecure_skip_tls_verify_with_a_ca_is_refused() {
    let pki = Pki::new();
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("ca.pem"), &pki.ca_pem).unwrap();
    // client-go refuses the pair rather than silently dropping the CA.
    for ca in [
        format!("certificate-authority-data: {}", b64(&pki.ca_pem)),
        "certificate-authority: ca.pem".to_owned(),
    ] {
        let err = load(
            &dir,
            &format!("server: \"https://127.0.0.1:6443\", insecure-skip-tls-verify: true, {ca}"),
            "",
        )
        .unwrap_err();
        assert_eq!(
            err.config_kind(),
            Some(informer_client::error::ConfigErrorKind::Invalid),
            "{err}"
        );
        let text = err.to_string();
        assert!(
            text.contains("clusters[0].cluster.insecure-skip-tls-verify")
                && text.contains("together with a certificate authority is not allowed"),
            "{text}"
        );
    }
    // A `Config` built by hand is refused when the client is made.
    let mut config = Config::new("https://127.0.0.1:6443");
    config.insecure_skip_tls_verify = true;
    config.root_certs = Some(
        rustls::pki_types::pem::PemObject::pem_slice_iter(pki.ca_pem.as_bytes())
            .collect::<Result<Vec<rustls::pki_types::CertificateDer<'static>>, _>>()
            .unwrap(),
    );
    let err = Client::new(config).unwrap_err().to_string();
    assert!(
        err.contains("TLS setup for https://127.0.0.1:6443"),
        "{err}"
    );
    assert!(err.contains("is not allowed"), "{err}");
}

#[tokio::test]
async fn tls_server_name_overrides_the_url_host() {
    let pki = Pki::new();
    let server = tls_server(&pki, false).await;
    let dir = tempfile::tempdir().unwrap();
    let ca = b64(&pki.ca_pem);
    let good = load(
        &dir,
        &format!(
            "server: \"{}\", certificate-authority-data: {ca}, tls-server-name: localhost",
            server.url
        ),
        "",
    )
    .unwrap();
    assert_eq!(list(&good).await.unwrap(), 1);
    let bad = load(
        &dir,
        &format!(
            "server: \"{}\", certificate-authority-data: {ca}, tls-server-name: elsewhere.example",
            server.url
        ),
        "",
    )
    .unwrap();
    assert!(list(&bad).await.is_err());
}

#[tokio::test]
async fn client_certificate_files_and_data_are_presented() {
    let pki = Pki::new();
    let server = tls_server(&pki, true).await;
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("client.crt"), &pki.client_cert_pem).unwrap();
    std::fs::write(dir.path().join("client.key"), &pki.client_key_pem).unwrap();
    let cluster = format!(
        "server: \"{}\", certificate-authority-data: {}",
        server.url,
        b64(&pki.ca_pem)
    );
    let files = load(
        &dir,
        &cluster,
        &format!(
            "client-certificate: {}, client-key: client.key",
            dir.path().join("client.crt").display()
        ),
    )
    .unwrap();
    assert_eq!(list(&files).await.unwrap(), 1);
    let data = load(
        &dir,
        &cluster,
        &format!(
            "client-certificate-data: {}, client-key-data: {}",
            b64(&pki.client_cert_pem),
            b64(&pki.client_key_pem)
        ),
    )
    .unwrap();
    assert_eq!(list(&data).await.unwrap(), 1);
    let none = load(&dir, &cluster, "").unwrap();
    assert!(
        list(&none).await.is_err(),
        "the server requires a client certificate"
    );
}

#[tokio::test]
async fn exec_plugin_client_certificate_is_presented() {
    let pki = Pki::new();
    let server = tls_server(&pki, true).await;
    let dir = tempfile::tempdir().unwrap();
    let credential = serde_json::json!({
        "apiVersion": "client.authentication.k8s.io/v1beta1",
        "kind": "ExecCredential",
        "status": {
            "clientCertificateData": pki.client_cert_pem,
            "clientKeyData": pki.client_key_pem,
        }
    });
    std::fs::write(dir.path().join("cred.json"), credential.to_string()).unwrap();
    let client = load(
        &dir,
        &format!(
            "server: \"{}\", certificate-authority-data: {}",
            server.url,
            b64(&pki.ca_pem)
        ),
        &format!(
            "exec: {{ apiVersion: client.authentication.k8s.io/v1beta1, command: cat, args: [\"{}\"] }}",
            dir.path().join("cred.json").display()
        ),
    )
    .unwrap();
    assert_eq!(list(&client).await.unwrap(), 1);
}

#[tokio::test]
async fn watch_streams_over_http2_with_tls() {
    use futures_util::StreamExt;
    use informer_client::watch_event::WatchEvent;
    let pki = Pki::new();
    let server = Server::start(Some(pki.server_tls(false)), |_| {
        let events = (0..20)
            .map(|i| {
                format!(
                    "{{\"type\":\"ADDED\",\"object\":{{\"metadata\":{{\"name\":\"p{i}\"}}}}}}\n"
                )
                .into_bytes()
            })
            .collect();
        let mut reply = Reply::chunks(200, events);
        reply.pause = Duration::from_millis(1);
        reply
    })
    .await;
    let dir = tempfile::tempdir().unwrap();
    let client = load(
        &dir,
        &format!(
            "server: \"{}\", certificate-authority-data: {}",
            server.url,
            b64(&pki.ca_pem)
        ),
        "",
    )
    .unwrap();
    let stream = tokio::time::timeout(
        Duration::from_secs(30),
        client.request_events::<Pod>(
            RequestBuilder::of::<Pod>(None)
                .watch(&ListOptions::default())
                .unwrap(),
        ),
    )
    .await
    .unwrap()
    .unwrap();
    let events: Vec<_> = tokio::time::timeout(Duration::from_secs(30), stream.collect::<Vec<_>>())
        .await
        .unwrap();
    assert_eq!(events.len(), 20);
    assert!(
        matches!(&events[19], Ok(WatchEvent::Added(p)) if p.metadata.name.as_deref() == Some("p19"))
    );
    assert_eq!(
        server.seen()[0].version,
        hyper::Version::HTTP_2,
        "ALPN must offer h2"
    );
}
