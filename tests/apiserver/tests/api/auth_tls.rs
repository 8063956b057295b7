use base64::Engine;
use test_apiserver::TestApiServer;

use crate::support::assert_status;

#[tokio::test]
async fn tls_and_bearer_tokens_are_enforced() {
    let server = TestApiServer::builder()
        .tls(true)
        .token("admin-token")
        .token_with_access("pods-only", &["pods"])
        .seed_pods(1)
        .start()
        .await
        .unwrap();
    assert!(server.url().starts_with("https://127.0.0.1:"));
    let _ = rustls::crypto::ring::default_provider().install_default();
    let ca = reqwest::Certificate::from_pem(server.ca_pem().unwrap().as_bytes()).unwrap();
    let client = reqwest::Client::builder()
        .no_proxy()
        .tls_certs_only([ca])
        .build()
        .unwrap();
    let call = |path: &str, token: Option<&str>| {
        let mut req = client.get(format!("{}{path}", server.url()));
        if let Some(t) = token {
            req = req.bearer_auth(t);
        }
        async move {
            let resp = req.send().await.unwrap();
            let code = resp.status().as_u16();
            (code, resp.json::<serde_json::Value>().await.unwrap())
        }
    };
    let (code, list) = call("/api/v1/pods", Some("admin-token")).await;
    assert_eq!(code, 200);
    assert_eq!(list["kind"], "PodList");
    let (code, status) = call("/api/v1/pods", None).await;
    assert_eq!(code, 401);
    assert_eq!(assert_status(&status, 401, "Unauthorized"), "Unauthorized");
    let (code, _) = call("/api/v1/pods", Some("wrong")).await;
    assert_eq!(code, 401);
    let (code, _) = call("/api/v1/pods", Some("pods-only")).await;
    assert_eq!(code, 200);
    let (code, status) = call("/api/v1/namespaces/ns-0/configmaps", Some("pods-only")).await;
    assert_eq!(code, 403);
    assert_eq!(
        assert_status(&status, 403, "Forbidden"),
        "configmaps is forbidden: User \"test-user\" cannot list resource \"configmaps\" in API group \"\" in the namespace \"ns-0\""
    );
    let (code, _) = call("/api/v1", Some("pods-only")).await;
    assert_eq!(code, 200);

    // Plain HTTP to the TLS port does not get an answer.
    let plain = crate::support::client()
        .get(server.url().replace("https", "http") + "/api/v1/pods")
        .send()
        .await;
    assert!(plain.is_err() || !plain.unwrap().status().is_success());

    let kc = server.kubeconfig_yaml();
    assert!(kc.contains(&format!("server: {}", server.url())));
    assert!(kc.contains("token: \"admin-token\""));
    let ca_line = kc
        .lines()
        .find(|l| l.contains("certificate-authority-data:"))
        .unwrap();
    let ca_b64 = ca_line.split(": ").nth(1).unwrap();
    let ca_pem = base64::engine::general_purpose::STANDARD
        .decode(ca_b64)
        .unwrap();
    assert_eq!(String::from_utf8(ca_pem).unwrap(), server.ca_pem().unwrap());
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("kubeconfig");
    server.write_kubeconfig(&path).unwrap();
    assert_eq!(std::fs::read_to_string(&path).unwrap(), kc);
}

#[tokio::test]
async fn plain_servers_write_a_kubeconfig_without_ca_or_token() {
    let server = TestApiServer::builder().start().await.unwrap();
    let kc = server.kubeconfig_yaml();
    assert!(kc.contains(&format!("server: http://{}", server.addr())));
    assert!(!kc.contains("certificate-authority-data") && !kc.contains("token"));
    assert!(kc.contains("current-context: test-apiserver"));
}
