//! `HTTP_PROXY`/`HTTPS_PROXY`/`NO_PROXY` as Go's `golang.org/x/net/http/httpproxy` reads
//! them (and so kubectl): a table of (NO_PROXY, URL, proxied or direct) cases, Go's own
//! test tables and the cases where the client used to differ; then the client following
//! those rules through a real proxy. The environment is process-wide: only the last test
//! changes it, and the others never read it.

mod api_support;

use std::time::Duration;

use api_support::{b64, config_map_json, load, pki, Answer, Proxy, Recorder};
use informer_client::api::Api;
use informer_client::client::config::ProxyEnv;
use informer_client::client::{Client, Config};
use informer_client::error::ConfigErrorKind;
use k8s_openapi::api::core::v1::ConfigMap;

const HTTP_PROXY: &str = "http://http-proxy.test:3128/";
const HTTPS_PROXY: &str = "http://https-proxy.test:3129/";

/// Proxied (through the proxy of the URL's scheme).
const P: bool = true;
/// Direct.
const D: bool = false;

fn env(no_proxy: &str) -> ProxyEnv {
    ProxyEnv {
        http_proxy: HTTP_PROXY.to_owned(),
        https_proxy: HTTPS_PROXY.to_owned(),
        no_proxy: no_proxy.to_owned(),
        cgi: false,
    }
}

fn check(no_proxy: &str, url: &str, proxied: bool) -> Result<(), String> {
    let got = env(no_proxy)
        .proxy_for(url)
        .map_err(|e| format!("NO_PROXY={no_proxy:?} {url}: error {e}"))?;
    let want = proxied.then(|| {
        if url.starts_with("https:") {
            HTTPS_PROXY
        } else {
            HTTP_PROXY
        }
    });
    if got.as_deref() == want {
        Ok(())
    } else {
        Err(format!(
            "NO_PROXY={no_proxy:?} {url}: got {got:?}, want {want:?}"
        ))
    }
}

#[test]
fn no_proxy_follows_go_httpproxy() {
    // Go's TestUseProxy list and hosts (at port 80).
    let go = "foobar.com, .barbaz.net, *.wildcard.io, 192.168.1.1, 192.168.1.2:81, \
              192.168.1.3:80, 10.0.0.0/30, 2001:db8::52:0:1, [2001:db8::52:0:2]:443, \
              [2001:db8::52:0:3]:80, 2002:db8:a::45/64";
    let go_hosts = [
        ("localhost", D),
        ("127.0.0.1", D),
        ("127.0.0.2", D),
        ("[::1]", D),
        ("[::2]", P),
        ("192.168.1.1", D),
        ("192.168.1.2", P),
        ("192.168.1.3", D),
        ("192.168.1.4", P),
        ("10.0.0.2", D),
        ("[2001:db8::52:0:1]", D),
        ("[2001:db8::52:0:2]", P),
        ("[2001:db8::52:0:3]", D),
        ("[2002:db8:a::123]", D),
        ("[fe80::424b:c8be:1643:a1b6]", P),
        ("barbaz.net", P),
        ("www.barbaz.net", D),
        ("foobar.com", D),
        ("www.foobar.com", D),
        ("foofoobar.com", P),
        ("baz.com", P),
        ("localhost.net", P),
        ("local.localhost", P),
        ("barbarbaz.net", P),
        ("wildcard.io", P),
        ("nested.wildcard.io", D),
        ("awildcard.io", P),
    ];
    let mut failures = Vec::new();
    for (host, proxied) in go_hosts {
        let url = format!("http://{host}:80/");
        failures.extend(check(go, &url, proxied).err());
        // `*` turns proxying off for everything (Go's TestAllNoProxy).
        failures.extend(check("*", &url, D).err());
    }

    let cases: &[(&str, &str, bool)] = &[
        // The review's cases: a port limits an entry to that port (https defaults to 443) …
        ("api.internal:6443", "https://api.internal:6443", D),
        ("api.internal:6443", "https://api.internal", P),
        ("api.internal:6443", "https://api.internal:443", P),
        ("10.96.0.1:443", "https://10.96.0.1", D),
        ("10.96.0.1:443", "https://10.96.0.1:6443", P),
        ("[2001:db8::1]:6443", "https://[2001:db8::1]:6443", D),
        ("[2001:db8::1]:6443", "https://[2001:db8::1]", P),
        // … `*.` and a leading `.` match subdomains only …
        ("*.internal", "https://api.internal:6443", D),
        ("*.internal", "https://internal", P),
        (".api.internal", "https://api.internal", P),
        (".api.internal", "https://x.api.internal", D),
        ("api.internal", "https://api.internal", D),
        ("api.internal", "https://x.api.internal", D),
        ("api.internal", "https://xapi.internal", P),
        // … and loopback, written any way, is never proxied.
        ("", "https://[::ffff:127.0.0.1]:6443", D),
        ("", "https://127.1.2.3", D),
        ("", "https://[::1]:6443", D),
        ("", "https://localhost:6443", D),
        ("", "https://localhost.localdomain", P),
        ("", "https://10.0.0.1", P),
        // Go's TestProxyForURL cases that name NO_PROXY.
        ("example.com", "http://example.com/", D),
        (".example.com", "http://example.com/", P),
        ("ample.com", "http://example.com/", P),
        ("example.com", "http://foo.example.com/", D),
        (".foo.com", "http://example.com/", P),
        (".示例.com", "http://www.示例.com", D),
        ("xn--fsq092h.com", "http://www.示例.com", D),
        ("示例.com", "http://www.xn--fsq092h.com", D),
        // Go's TestInvalidNoProxy: an entry without a host is skipped.
        (":1", "http://example.com/", P),
        // Case, spaces and empty entries.
        (" API.Internal , ,", "https://api.internal", D),
        // CIDR ranges compare IPv4-mapped addresses as IPv4, as Go's net.IPNet does.
        ("10.0.0.0/8", "https://[::ffff:10.1.2.3]", D),
        ("::ffff:10.0.0.0/104", "https://10.1.2.3", D),
        ("::ffff:10.0.0.0/104", "https://11.1.2.3", P),
        ("10.96.0.1", "https://[::ffff:10.96.0.1]", D),
        ("::/0", "https://[2001:db8::9]", D),
        ("::/0", "https://10.0.0.1", P),
        ("10.0.0.0/33", "https://10.0.0.1", P),
        // Names match names only, addresses addresses only.
        ("10.0.0.1", "https://ten.example", P),
        ("example.com", "https://93.184.216.34", P),
        // A port-less entry matches every port.
        ("api.internal", "http://api.internal:8080", D),
    ];
    for (no_proxy, url, proxied) in cases {
        failures.extend(check(no_proxy, url, *proxied).err());
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn each_scheme_uses_its_own_proxy() {
    let only_https = ProxyEnv {
        https_proxy: "secure.proxy.tld".to_owned(),
        ..ProxyEnv::default()
    };
    assert_eq!(only_https.proxy_for("http://insecure.tld/").unwrap(), None);
    assert_eq!(
        only_https
            .proxy_for("https://secure.tld/")
            .unwrap()
            .as_deref(),
        Some("http://secure.proxy.tld/")
    );
    let only_http = ProxyEnv {
        http_proxy: "cache.corp.example.com:1234".to_owned(),
        ..ProxyEnv::default()
    };
    assert_eq!(only_http.proxy_for("https://secure.tld/").unwrap(), None);
    assert_eq!(
        only_http
            .proxy_for("http://insecure.tld/")
            .unwrap()
            .as_deref(),
        Some("http://cache.corp.example.com:1234/")
    );
    // Go's parseProxy: no scheme means http; an https proxy stays https.
    for (value, want) in [
        ("localhost", "http://localhost/"),
        ("127.0.0.1:8080", "http://127.0.0.1:8080/"),
        (
            "https://cache.corp.example.com",
            "https://cache.corp.example.com/",
        ),
    ] {
        let env = ProxyEnv {
            http_proxy: value.to_owned(),
            ..ProxyEnv::default()
        };
        assert_eq!(
            env.proxy_for("http://example.com").unwrap().as_deref(),
            Some(want),
            "{value}"
        );
    }
}

#[test]
fn cgi_programs_refuse_http_proxy_but_not_https_proxy() {
    let cgi = ProxyEnv {
        cgi: true,
        ..env("")
    };
    let err = cgi.proxy_for("http://example.com/").unwrap_err();
    assert!(
        err.to_string()
            .contains("refusing to use HTTP_PROXY value in CGI environment"),
        "{err}"
    );
    assert_eq!(
        cgi.proxy_for("https://secure.tld/").unwrap().as_deref(),
        Some(HTTPS_PROXY)
    );
}

#[test]
fn unusable_proxy_settings_are_errors() {
    let socks = ProxyEnv {
        https_proxy: "socks5://127.0.0.1:1080".to_owned(),
        ..ProxyEnv::default()
    };
    let err = socks.proxy_for("https://x").unwrap_err();
    assert_eq!(
        err.config_kind(),
        Some(ConfigErrorKind::Unsupported),
        "{err}"
    );
    assert!(err.to_string().contains("HTTPS_PROXY"), "{err}");
}

async fn get(url: &str, ca_pem: Option<&str>) -> Result<ConfigMap, informer_client::Error> {
    let mut config = match ca_pem {
        Some(ca) => load(
            &format!("server: \"{url}\", certificate-authority-data: {}", b64(ca)),
            "",
        )?,
        None => Config::new(url),
    };
    config.connect_timeout = Duration::from_secs(3);
    Api::<ConfigMap>::namespaced(Client::new(config)?, "team")
        .get("c")
        .await
}

#[tokio::test]
async fn the_client_follows_the_rules() {
    let pki = pki(&["apiserver.test", "api.internal"]);
    let tls = Recorder::start_tls(&pki.cert_pem, &pki.key_pem, |_| {
        Answer::json(200, config_map_json("c"))
    })
    .await;
    let plain = Recorder::start(|_| Answer::json(200, config_map_json("c"))).await;
    let https_proxy = Proxy::start(tls.addr).await;
    let http_proxy = Proxy::start(plain.addr).await;
    let (tls_port, plain_port) = (tls.addr.port(), plain.addr.port());
    std::env::set_var("HTTPS_PROXY", &https_proxy.url);
    std::env::set_var("HTTP_PROXY", &http_proxy.url);
    std::env::set_var(
        "NO_PROXY",
        format!(".apiserver.test,api.internal:{tls_port},*.cluster.internal"),
    );

    // `.apiserver.test` covers its subdomains only: apiserver.test itself is proxied.
    get(
        &format!("https://apiserver.test:{tls_port}"),
        Some(&pki.ca_pem),
    )
    .await
    .unwrap();
    assert_eq!(
        https_proxy.heads(),
        vec![format!("CONNECT apiserver.test:{tls_port}")]
    );

    // A port-specific entry and a `*.` entry send these direct; nothing resolves the names,
    // so the requests fail, without passing the proxies.
    let direct = get(
        &format!("https://api.internal:{tls_port}"),
        Some(&pki.ca_pem),
    )
    .await;
    assert!(direct.is_err());
    let direct = get(&format!("http://svc.cluster.internal:{plain_port}"), None).await;
    assert!(direct.is_err());
    assert_eq!(https_proxy.heads().len(), 1);
    assert!(http_proxy.heads().is_empty(), "{:?}", http_proxy.heads());

    // An IPv4-mapped loopback address is loopback: reached directly.
    get(&format!("http://[::ffff:127.0.0.1]:{plain_port}"), None)
        .await
        .unwrap();
    assert!(http_proxy.heads().is_empty(), "{:?}", http_proxy.heads());
    assert_eq!(plain.requests().len(), 1);
    assert_eq!(tls.requests().len(), 1);
}
