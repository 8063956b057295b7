//! Kubeconfig `proxy-url`: plain requests are forwarded, TLS goes through CONNECT.

mod api_support;

use api_support::{b64, config_map_json, load, pki, Answer, Proxy, Recorder};
use informer_client::api::Api;
use informer_client::client::Client;
use informer_client::error::ConfigErrorKind;
use k8s_openapi::api::core::v1::ConfigMap;

#[tokio::test]
async fn http_requests_are_forwarded_through_proxy_url() {
    let server = Recorder::start(|_| Answer::json(200, config_map_json("c"))).await;
    let proxy = Proxy::start(server.addr).await;
    // A name only the proxy knows how to reach.
    let url = format!("http://apiserver.test:{}", server.addr.port());
    let config = load(
        &format!("server: \"{url}\", proxy-url: \"{}\"", proxy.url),
        "",
    )
    .unwrap();
    assert_eq!(config.proxy_url.as_deref(), Some(proxy.url.as_str()));
    let cms = Api::<ConfigMap>::namespaced(Client::new(config).unwrap(), "team");
    cms.get("c").await.unwrap();
    assert_eq!(
        proxy.heads(),
        vec![format!("GET {url}/api/v1/namespaces/team/configmaps/c")]
    );
    assert_eq!(server.single().path, "/api/v1/namespaces/team/configmaps/c");
}

#[tokio::test]
async fn https_goes_through_a_connect_tunnel() {
    let pki = pki(&["apiserver.internal"]);
    let server = Recorder::start_tls(&pki.cert_pem, &pki.key_pem, |_| {
        Answer::json(200, config_map_json("c"))
    })
    .await;
    let proxy = Proxy::start(server.addr).await;
    let authority = format!("apiserver.internal:{}", server.addr.port());
    let config = load(
        &format!(
            "server: \"https://{authority}\", certificate-authority-data: {}, proxy-url: \"{}\"",
            b64(&pki.ca_pem),
            proxy.url
        ),
        "",
    )
    .unwrap();
    let cms = Api::<ConfigMap>::namespaced(Client::new(config).unwrap(), "team");
    cms.get("c").await.unwrap();
    cms.get("c").await.unwrap();
    // One tunnel, reused; the TLS session inside it is the client's own.
    assert_eq!(proxy.heads(), vec![format!("CONNECT {authority}")]);
    let seen = server.requests();
    assert_eq!(seen.len(), 2);
    assert_eq!(seen[0].sni.as_deref(), Some("apiserver.internal"));
}

#[tokio::test]
async fn proxy_credentials_and_tls_server_name_reach_their_ends() {
    // "ops:s@fe", as Go sends the userinfo of a proxy URL.
    let basic = Some("Basic b3BzOnNAZmU=".to_owned());
    let pki = pki(&["apiserver.internal"]);
    let server = Recorder::start_tls(&pki.cert_pem, &pki.key_pem, |_| {
        Answer::json(200, config_map_json("c"))
    })
    .await;
    let proxy = Proxy::start(server.addr).await;
    let with_credentials = proxy.url.replace("http://", "http://ops:s%40fe@");
    // The server by address; its certificate names it `apiserver.internal`.
    let authority = format!("127.0.0.1:{}", server.addr.port());
    let config = load(
        &format!(
            "server: \"https://{authority}\", certificate-authority-data: {}, tls-server-name: apiserver.internal, proxy-url: \"{with_credentials}\"",
            b64(&pki.ca_pem),
        ),
        "",
    )
    .unwrap();
    let cms = Api::<ConfigMap>::namespaced(Client::new(config).unwrap(), "team");
    cms.get("c").await.unwrap();
    assert_eq!(proxy.heads(), vec![format!("CONNECT {authority}")]);
    assert_eq!(proxy.authorizations(), vec![basic.clone()]);
    let seen = server.single();
    assert_eq!(seen.sni.as_deref(), Some("apiserver.internal"));
    // The server never sees the proxy's credentials.
    assert_eq!(seen.header("proxy-authorization"), None);

    let plain = Recorder::start(|_| Answer::json(200, config_map_json("c"))).await;
    let forwarding = Proxy::start(plain.addr).await;
    let with_credentials = forwarding.url.replace("http://", "http://ops:s%40fe@");
    let url = format!("http://apiserver.test:{}", plain.addr.port());
    let config = load(
        &format!("server: \"{url}\", proxy-url: \"{with_credentials}\""),
        "",
    )
    .unwrap();
    let cms = Api::<ConfigMap>::namespaced(Client::new(config).unwrap(), "team");
    cms.get("c").await.unwrap();
    assert_eq!(
        forwarding.heads(),
        vec![format!("GET {url}/api/v1/namespaces/team/configmaps/c")]
    );
    assert_eq!(forwarding.authorizations(), vec![basic]);
}

#[tokio::test]
async fn unusable_proxy_urls_are_config_errors() {
    let socks = load(
        "server: \"https://x\", proxy-url: \"socks5://127.0.0.1:1080\"",
        "",
    )
    .unwrap_err();
    assert_eq!(
        socks.config_kind(),
        Some(ConfigErrorKind::Unsupported),
        "{socks}"
    );
    assert!(
        socks.to_string().contains("clusters[0].cluster.proxy-url"),
        "{socks}"
    );
    let bad = load("server: \"https://x\", proxy-url: \"ftp://p\"", "").unwrap_err();
    assert_eq!(bad.config_kind(), Some(ConfigErrorKind::Invalid), "{bad}");
}
