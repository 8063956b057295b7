//! Kubeconfig settings a writing client needs: impersonation headers, `tls-server-name`
//! (SNI and verification), `disable-compression`, and the error for `auth-provider`.

mod api_support;

use api_support::{b64, config_map_json, load, pki, Answer, Recorder};
use informer_client::api::Api;
use informer_client::client::Client;
use informer_client::error::ConfigErrorKind;
use k8s_openapi::api::core::v1::ConfigMap;
use test_apiserver::TestApiServer;

async fn get_one(client: Client) -> Result<ConfigMap, informer_client::Error> {
    Api::<ConfigMap>::default_namespaced(client).get("c").await
}

#[tokio::test]
async fn impersonation_headers_are_sent() {
    let server = Recorder::start(|_| Answer::json(200, config_map_json("c"))).await;
    let config = load(
        &format!("server: \"{}\"", server.url),
        r#"token: t, as: alice, as-uid: "1234", as-groups: [devs, "system:authenticated"], as-user-extra: { "example.org/scopes": [read, write], team: [a] }"#,
    )
    .unwrap();
    get_one(Client::new(config).unwrap()).await.unwrap();
    let r = server.single();
    assert_eq!(r.path, "/api/v1/namespaces/team/configmaps/c");
    assert_eq!(r.header("authorization"), Some("Bearer t"));
    assert_eq!(r.header("impersonate-user"), Some("alice"));
    assert_eq!(r.header("impersonate-uid"), Some("1234"));
    assert_eq!(
        r.headers_named("impersonate-group"),
        vec!["devs", "system:authenticated"]
    );
    assert_eq!(
        r.headers_named("impersonate-extra-example.org%2Fscopes"),
        vec!["read", "write"]
    );
    assert_eq!(r.headers_named("impersonate-extra-team"), vec!["a"]);
}

#[tokio::test]
async fn impersonating_groups_needs_a_user() {
    let err = load("server: \"https://x\"", "as-groups: [devs]").unwrap_err();
    assert_eq!(err.config_kind(), Some(ConfigErrorKind::Missing), "{err}");
    assert!(err.to_string().contains("users[0].user.as"), "{err}");
}

#[tokio::test]
async fn auth_provider_points_to_exec_plugins() {
    let err = load(
        "server: \"https://x\"",
        "auth-provider: { name: gcp, config: { cmd-path: gcloud } }",
    )
    .unwrap_err();
    assert_eq!(
        err.config_kind(),
        Some(ConfigErrorKind::Unsupported),
        "{err}"
    );
    let text = err.to_string();
    assert!(text.contains("users[0].user.auth-provider"), "{text}");
    assert!(text.contains("\"gcp\""), "{text}");
    assert!(text.contains("exec credential plugin"), "{text}");
}

/// A ConfigMapList of `n` items, as the server sends it.
fn config_map_list(n: usize) -> String {
    let items: Vec<String> = (0..n)
        .map(|i| {
            format!(
                r#"{{"metadata":{{"name":"c{i}","namespace":"team"}},"data":{{"k":"{}"}}}}"#,
                "v".repeat(100)
            )
        })
        .collect();
    format!(
        r#"{{"kind":"ConfigMapList","apiVersion":"v1","metadata":{{"resourceVersion":"9"}},"items":[{}]}}"#,
        items.join(",")
    )
}

#[tokio::test]
async fn compression_is_asked_for_unless_disabled() {
    use std::io::Write as _;
    // Like kube-apiserver: gzip when the client accepts it.
    let server = Recorder::start(|r| {
        let body = config_map_list(2_000);
        if r.header("accept-encoding")
            .is_some_and(|v| v.contains("gzip"))
        {
            let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
            gz.write_all(body.as_bytes()).unwrap();
            Answer::bytes(200, gz.finish().unwrap()).header("content-encoding", "gzip")
        } else {
            Answer::json(200, body)
        }
    })
    .await;
    let list = |client: Client| async move {
        Api::<ConfigMap>::default_namespaced(client)
            .list(&Default::default())
            .await
    };
    let plain = load(&format!("server: \"{}\"", server.url), "").unwrap();
    assert!(!plain.disable_compression);
    let compressed = list(Client::new(plain).unwrap()).await.unwrap();
    let disabled = load(
        &format!("server: \"{}\", disable-compression: true", server.url),
        "",
    )
    .unwrap();
    assert!(disabled.disable_compression);
    let uncompressed = list(Client::new(disabled).unwrap()).await.unwrap();
    assert_eq!(compressed.items.len(), 2_000);
    assert_eq!(compressed, uncompressed);
    let [on, off] = <[_; 2]>::try_from(server.requests()).unwrap();
    assert!(
        on.header("accept-encoding")
            .is_some_and(|v| v.contains("gzip")),
        "{on:?}"
    );
    assert_eq!(off.header("accept-encoding"), None, "{off:?}");
}

#[tokio::test]
async fn tls_server_name_is_the_sni_and_the_verified_name() {
    // A certificate for a DNS name only: reached by IP, it verifies only under that name.
    let pki = pki(&["apiserver.internal"]);
    let server = Recorder::start_tls(&pki.cert_pem, &pki.key_pem, |_| {
        Answer::json(200, config_map_json("c"))
    })
    .await;
    let ca = b64(&pki.ca_pem);
    let url = format!("https://127.0.0.1:{}", server.addr.port());

    let without = load(
        &format!("server: \"{url}\", certificate-authority-data: {ca}"),
        "",
    )
    .unwrap();
    let err = get_one(Client::new(without).unwrap()).await.unwrap_err();
    assert!(err.to_string().contains("certificate"), "{err}");

    let with = load(
        &format!(
            "server: \"{url}\", certificate-authority-data: {ca}, tls-server-name: apiserver.internal"
        ),
        "",
    )
    .unwrap();
    let client = Client::new(with).unwrap();
    // Errors and the client still name the configured server.
    assert_eq!(client.base_url(), url);
    get_one(client).await.unwrap();
    let seen = server.requests();
    assert_eq!(
        seen.last().unwrap().sni.as_deref(),
        Some("apiserver.internal")
    );

    let wrong = load(
        &format!(
            "server: \"{url}\", certificate-authority-data: {ca}, tls-server-name: other.internal"
        ),
        "",
    )
    .unwrap();
    assert!(get_one(Client::new(wrong).unwrap()).await.is_err());
}

#[tokio::test]
async fn tls_server_name_against_the_test_api_server() {
    let server = TestApiServer::builder()
        .tls(true)
        .namespaces(["team"])
        .start()
        .await
        .unwrap();
    server
        .create(
            "configmaps",
            Some("team"),
            test_apiserver::fixtures::config_map("team", "c", 0),
        )
        .unwrap();
    let ca = b64(server.ca_pem().unwrap());
    let config = load(
        &format!(
            "server: \"https://127.0.0.1:{}\", certificate-authority-data: {ca}, tls-server-name: localhost",
            server.addr().port()
        ),
        "",
    )
    .unwrap();
    let cm = get_one(Client::new(config).unwrap()).await.unwrap();
    assert_eq!(cm.metadata.name.as_deref(), Some("c"));
}
