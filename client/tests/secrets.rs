//! No secret is ever printed. Tokens, token files, client keys, proxy passwords, exec plugin
//! arguments and environment, basic-auth passwords and impersonation extras go through every
//! way of configuring a client (kubeconfig files, malformed ones with a secret in the wrong
//! place, `Config` fields, the in-cluster directory, proxy environment variables), requests
//! are sent with them, and neither the `Debug` nor the `Display` of anything met on the way
//! (configs, clients, every error) nor any log line holds them. One test: the environment
//! and the log subscriber are process-wide.
#![cfg(unix)]

mod api_support;

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::os::unix::fs::PermissionsExt;
use std::path::Path;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use api_support::{b64, config_map_json, pki, Answer, Proxy, Recorder};
use informer_client::api::Api;
use informer_client::client::config::ProxyEnv;
use informer_client::client::{
    AuthConfig, Client, Config, ExecConfig, Identity, Impersonate, KubeConfigOptions,
};
use informer_client::Error;
use k8s_openapi::api::core::v1::ConfigMap;

/// Every secret below contains this.
const MARK: &str = "S3CRET";

/// Everything printed along the way: (what it is, the text).
#[derive(Default)]
struct Printed(Vec<(String, String)>);

impl Printed {
    fn debug(&mut self, what: &str, value: &dyn std::fmt::Debug) {
        self.0
            .push((format!("{what} (Debug)"), format!("{value:?} {value:#?}")));
    }

    fn error(&mut self, what: &str, e: &Error) {
        let mut text = format!("{e} | {e:?}");
        let mut source = std::error::Error::source(e);
        while let Some(s) = source {
            let _ = write!(text, " | {s} | {s:?}");
            source = s.source();
        }
        self.0.push((format!("{what} (error)"), text));
    }

    fn outcome<T: std::fmt::Debug>(&mut self, what: &str, result: &Result<T, Error>) {
        match result {
            Ok(v) => self.debug(what, v),
            Err(e) => self.error(what, e),
        }
    }
}

/// A subscriber that writes every event and span field, at every level and from every
/// crate, into a buffer.
struct Capture {
    text: Arc<Mutex<String>>,
    next_id: AtomicU64,
}

struct Fields<'a>(&'a mut String);

impl tracing::field::Visit for Fields<'_> {
    fn record_debug(&mut self, field: &tracing::field::Field, value: &dyn std::fmt::Debug) {
        let _ = write!(self.0, " {}={value:?}", field.name());
    }
}

impl Capture {
    fn line(&self, target: &str, record: impl FnOnce(&mut Fields<'_>)) {
        let mut line = target.to_owned();
        record(&mut Fields(&mut line));
        line.push('\n');
        self.text.lock().unwrap().push_str(&line);
    }
}

impl tracing::Subscriber for Capture {
    fn enabled(&self, _: &tracing::Metadata<'_>) -> bool {
        true
    }

    fn new_span(&self, span: &tracing::span::Attributes<'_>) -> tracing::span::Id {
        self.line(span.metadata().target(), |f| span.record(f));
        tracing::span::Id::from_u64(self.next_id.fetch_add(1, Ordering::Relaxed))
    }

    fn record(&self, span: &tracing::span::Id, values: &tracing::span::Record<'_>) {
        self.line(&format!("span {span:?}"), |f| values.record(f));
    }

    fn record_follows_from(&self, _: &tracing::span::Id, _: &tracing::span::Id) {}

    fn event(&self, event: &tracing::Event<'_>) {
        self.line(event.metadata().target(), |f| event.record(f));
    }

    fn enter(&self, _: &tracing::span::Id) {}

    fn exit(&self, _: &tracing::span::Id) {}
}

fn write_file(dir: &Path, name: &str, content: &str) {
    std::fs::write(dir.join(name), content).unwrap();
}

fn write_script(dir: &Path, name: &str, body: &str) {
    write_file(dir, name, &format!("#!/bin/sh\n{body}\n"));
    std::fs::set_permissions(dir.join(name), std::fs::Permissions::from_mode(0o755)).unwrap();
}

async fn get(client: Client) -> Result<ConfigMap, Error> {
    let api = Api::<ConfigMap>::namespaced(client, "team");
    tokio::time::timeout(Duration::from_secs(30), api.get("c"))
        .await
        .expect("request hung")
}

/// The config, client and one request of `config`, all printed.
async fn exercise(printed: &mut Printed, what: &str, config: Result<Config, Error>) {
    printed.outcome(&format!("{what}: config"), &config);
    let Ok(config) = config else { return };
    let client = Client::new(config);
    printed.outcome(&format!("{what}: client"), &client);
    if let Ok(client) = client {
        let answer = get(client).await;
        printed.outcome(&format!("{what}: request"), &answer);
    }
}

#[tokio::test]
async fn no_secret_is_printed_or_logged() {
    let logs = Arc::new(Mutex::new(String::new()));
    tracing::subscriber::set_global_default(Capture {
        text: logs.clone(),
        next_id: AtomicU64::new(1),
    })
    .unwrap();
    for name in [
        "HTTPS_PROXY",
        "https_proxy",
        "HTTP_PROXY",
        "http_proxy",
        "NO_PROXY",
    ] {
        std::env::remove_var(name);
    }

    let pki = pki(&["apiserver.test", "127.0.0.1"]);
    let server = Recorder::start_tls(&pki.cert_pem, &pki.key_pem, |_| {
        Answer::json(200, config_map_json("c"))
    })
    .await;
    let proxy = Proxy::start(server.addr).await;
    let port = server.addr.port();
    let proxy_port = proxy.url.rsplit(':').next().unwrap().to_owned();
    let client_id = rcgen::generate_simple_self_signed(vec!["tester".to_owned()]).unwrap();
    let (cert_pem, key_pem) = (client_id.cert.pem(), client_id.signing_key.serialize_pem());
    let key_b64 = b64(&key_pem);
    // Pieces of the key as it appears in PEM and in `client-key-data`, past the common header.
    let key_fragments: Vec<String> = key_pem
        .lines()
        .filter(|l| !l.starts_with("-----"))
        .map(str::to_owned)
        .chain([key_b64[60..100].to_owned()])
        .collect();
    let mut printed = Printed::default();

    // Kubeconfig files: every kind of user, through a proxy that wants a password.
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    write_file(d, "token", "tokfile-S3CRET\n");
    write_script(
        d,
        "plugin.sh",
        r#"printf '{"apiVersion":"client.authentication.k8s.io/v1","kind":"ExecCredential","status":{"token":"exectok-S3CRET"}}'"#,
    );
    // A failing plugin whose usage text repeats its arguments and environment.
    write_script(
        d,
        "plugin-fails.sh",
        r#"echo "login required" >&2; echo "usage: plugin $* ($PLUGIN_SECRET)" >&2; exit 1"#,
    );
    // A plugin that prints its token where the ExecCredential has no room for a string.
    write_script(
        d,
        "plugin-misplaced.sh",
        r#"printf '{"apiVersion":"client.authentication.k8s.io/v1","kind":"ExecCredential","status":"exectok-S3CRET"}'"#,
    );
    let exec = |script: &str| {
        format!(
            "exec: {{ apiVersion: client.authentication.k8s.io/v1, command: ./{script}, \
             args: [\"--client-secret=arg-S3CRET\"], \
             env: [{{ name: PLUGIN_SECRET, value: env-S3CRET }}], interactiveMode: Never }}"
        )
    };
    let users = [
        (
            "token",
            format!(
                "{{ token: tok-S3CRET, client-certificate-data: {}, client-key-data: {key_b64}, \
                 as: someone, as-user-extra: {{ scopes: [extra-S3CRET] }} }}",
                b64(&cert_pem)
            ),
        ),
        ("exec", format!("{{ {} }}", exec("plugin.sh"))),
        ("exec-fails", format!("{{ {} }}", exec("plugin-fails.sh"))),
        (
            "exec-misplaced",
            format!("{{ {} }}", exec("plugin-misplaced.sh")),
        ),
        (
            "basic",
            "{ username: admin, password: basicpw-S3CRET }".to_owned(),
        ),
        ("file", "{ tokenFile: token }".to_owned()),
        ("bad-header", "{ token: \"two\\nlines-S3CRET\" }".to_owned()),
    ];
    let mut kubeconfig = format!(
        "apiVersion: v1\nkind: Config\ncurrent-context: token\nclusters:\n- name: c\n  \
         cluster: {{ server: \"https://apiserver.test:{port}\", certificate-authority-data: {}, \
         proxy-url: \"http://proxyuser:proxypw-S3CRET@127.0.0.1:{proxy_port}\" }}\nusers:\n",
        b64(&pki.ca_pem)
    );
    for (name, user) in &users {
        let _ = writeln!(kubeconfig, "- name: {name}\n  user: {user}");
    }
    kubeconfig.push_str("contexts:\n");
    for (name, _) in &users {
        let _ = writeln!(
            kubeconfig,
            "- name: {name}\n  context: {{ cluster: c, user: {name}, namespace: team }}"
        );
    }
    write_file(d, "config", &kubeconfig);
    for (name, _) in &users {
        let options = KubeConfigOptions {
            context: Some((*name).to_owned()),
            ..KubeConfigOptions::default()
        };
        let config = Config::from_kubeconfig_file(d.join("config"), &options);
        exercise(&mut printed, &format!("kubeconfig user {name}"), config).await;
    }
    let through_proxy = proxy.heads().len();
    assert!(through_proxy >= 3, "{:?}", proxy.heads());

    // Malformed kubeconfigs with a secret in the wrong place.
    let malformed = [
        "users:\n- name: u\n  user: { as-groups: misplaced-S3CRET }\n",
        "users:\n- name: u\n  user: misplaced-S3CRET\n",
        "users:\n- name: u\n  user: { token: 7 }\n- name: misplaced-S3CRET\n  user: [x]\n",
        "current-context: x\nclusters: misplaced-S3CRET\n",
        "users:\n- name: u\n  user: { token: \"misplaced-S3CRET\n",
        "users:\n- name: u\n  user: { exec: { command: x, args: misplaced-S3CRET } }\n",
    ];
    for (i, text) in malformed.iter().enumerate() {
        write_file(d, "malformed", text);
        let config = Config::from_kubeconfig_file(d.join("malformed"), &Default::default());
        assert!(config.is_err(), "malformed kubeconfig {i} loaded");
        printed.outcome(&format!("malformed kubeconfig {i}"), &config);
    }
    let wrong_fields = [
        ("server: \"https://user:misplaced-S3CRET@[bad\"", ""),
        (
            "server: \"https://x\", proxy-url: \"http://user:misplaced-S3CRET@[bad\"",
            "",
        ),
        (
            "server: \"https://x\", proxy-url: \"socks5://user:misplaced-S3CRET@127.0.0.1\"",
            "",
        ),
        (
            "server: \"https://x\"",
            "exec: { command: x, apiVersion: client.authentication.k8s.io/v1, \
             interactiveMode: misplaced-S3CRET }",
        ),
        ("server: \"https://x\"", "client-key-data: misplaced-S3CRET"),
        (
            "server: \"https://x\", certificate-authority-data: misplaced-S3CRET",
            "",
        ),
    ];
    for (i, (cluster, user)) in wrong_fields.iter().enumerate() {
        let config = api_support::load(cluster, user);
        assert!(config.is_err(), "kubeconfig with a wrong field {i} loaded");
        printed.outcome(&format!("wrong field {i}"), &config);
    }

    // `Config` built by hand.
    let mut by_hand = Config::new(format!("https://apiserver.test:{port}"));
    by_hand.root_certs = roots(&pki.ca_pem);
    by_hand.proxy_url = Some(format!("http://u:proxypw-S3CRET@127.0.0.1:{proxy_port}"));
    by_hand.identity = Some(Identity::from_pem(cert_pem.as_bytes(), key_pem.as_bytes()).unwrap());
    by_hand.impersonate = Impersonate {
        user: Some("someone".to_owned()),
        extra: BTreeMap::from([("scopes".to_owned(), vec!["extra-S3CRET".to_owned()])]),
        ..Impersonate::default()
    };
    let auths = [
        AuthConfig::Token("tok-S3CRET".to_owned()),
        AuthConfig::Basic {
            username: "admin".to_owned(),
            password: "basicpw-S3CRET".to_owned(),
        },
        AuthConfig::Exec(ExecConfig {
            command: "./plugin-fails.sh".to_owned(),
            args: vec!["--client-secret=arg-S3CRET".to_owned()],
            env: vec![("PLUGIN_SECRET".to_owned(), "env-S3CRET".to_owned())],
            api_version: "client.authentication.k8s.io/v1".to_owned(),
            install_hint: None,
            provide_cluster_info: true,
            base_dir: d.to_path_buf(),
            origin: "by hand".to_owned(),
        }),
        AuthConfig::TokenFile(d.join("token")),
    ];
    for (i, auth) in auths.into_iter().enumerate() {
        let mut config = by_hand.clone();
        config.auth = auth;
        exercise(&mut printed, &format!("by hand {i}"), Ok(config)).await;
    }
    for (i, proxy_url) in [
        "http://u:proxypw-S3CRET@[bad",
        "socks5://u:proxypw-S3CRET@127.0.0.1:1080",
        "ftp://u:proxypw-S3CRET@127.0.0.1",
    ]
    .into_iter()
    .enumerate()
    {
        let mut config = by_hand.clone();
        config.proxy_url = Some(proxy_url.to_owned());
        exercise(&mut printed, &format!("bad proxy by hand {i}"), Ok(config)).await;
    }
    let mut userinfo = Config::new("https://user:S3CRET@apiserver.test");
    userinfo.auth = AuthConfig::Token("tok-S3CRET".to_owned());
    printed.debug("server URL with a password", &userinfo);
    exercise(
        &mut printed,
        "server URL with a password",
        Ok(userinfo.clone()),
    )
    .await;
    let mut bad_extra = by_hand.clone();
    bad_extra.impersonate.extra =
        BTreeMap::from([("scopes".to_owned(), vec!["bad\nextra-S3CRET".to_owned()])]);
    exercise(
        &mut printed,
        "impersonation extra that is no header value",
        Ok(bad_extra),
    )
    .await;
    printed.outcome(
        "key that is not PEM",
        &Identity::from_pem(cert_pem.as_bytes(), b"garbage-S3CRET"),
    );
    printed.outcome(
        "key that is broken PEM",
        &Identity::from_pem(
            cert_pem.as_bytes(),
            b"-----BEGIN PRIVATE KEY-----\nS3CRET!!\n-----END PRIVATE KEY-----\n",
        ),
    );

    // The in-cluster directory.
    let sa = tempfile::tempdir().unwrap();
    write_file(sa.path(), "token", "satoken-S3CRET\n");
    write_file(sa.path(), "ca.crt", &pki.ca_pem);
    write_file(sa.path(), "namespace", "team");
    std::env::set_var("KUBERNETES_SERVICE_HOST", "127.0.0.1");
    std::env::set_var("KUBERNETES_SERVICE_PORT", port.to_string());
    let in_cluster = Config::incluster_from_dir(sa.path());
    exercise(&mut printed, "in-cluster", in_cluster).await;
    write_file(sa.path(), "ca.crt", "ca-S3CRET");
    printed.outcome(
        "in-cluster with a broken CA",
        &Config::incluster_from_dir(sa.path()),
    );

    // Proxies from the environment.
    std::env::set_var(
        "HTTPS_PROXY",
        format!("http://envuser:envproxypw-S3CRET@127.0.0.1:{proxy_port}"),
    );
    printed.debug("ProxyEnv", &ProxyEnv::from_env());
    let mut via_env = Config::new(format!("https://apiserver.test:{port}"));
    via_env.root_certs = roots(&pki.ca_pem);
    via_env.auth = AuthConfig::Token("tok-S3CRET".to_owned());
    exercise(&mut printed, "environment proxy", Ok(via_env.clone())).await;
    assert!(proxy.heads().len() > through_proxy, "{:?}", proxy.heads());
    std::env::set_var("HTTPS_PROXY", "http://envuser:envproxypw-S3CRET@[bad");
    printed.debug("bad ProxyEnv", &ProxyEnv::from_env());
    printed.outcome(
        "bad ProxyEnv",
        &ProxyEnv::from_env().proxy_for("https://apiserver.test"),
    );
    exercise(&mut printed, "bad environment proxy", Ok(via_env)).await;
    std::env::remove_var("HTTPS_PROXY");

    let server_saw: Vec<String> = server
        .requests()
        .iter()
        .flat_map(|r| r.headers.clone())
        .filter(|(name, _)| name == "authorization")
        .map(|(_, value)| value)
        .collect();
    for token in [
        "Bearer tok-S3CRET",
        "Bearer exectok-S3CRET",
        "Bearer satoken-S3CRET",
    ] {
        assert!(
            server_saw.iter().any(|v| v == token),
            "the server never got {token}: {server_saw:?}"
        );
    }
    let logs = logs.lock().unwrap().clone();
    assert!(
        logs.contains("running exec credential plugin"),
        "the subscriber saw no log line:\n{logs}"
    );
    printed.0.push(("logs".to_owned(), logs));
    let mut leaks = Vec::new();
    for (what, text) in &printed.0 {
        if text.contains(MARK) || key_fragments.iter().any(|f| text.contains(f.as_str())) {
            leaks.push(format!("{what}: {text}"));
        }
    }
    assert!(leaks.is_empty(), "secrets printed:\n{}", leaks.join("\n\n"));
    // Errors still say what is wrong.
    let all: String = printed.0.iter().map(|(_, t)| t.as_str()).collect();
    for expected in [
        "login required",
        "users[0].user.as-groups: invalid type: string, expected a sequence",
        "interactiveMode: not one of Never, IfAvailable or Always",
        "cannot decode its ExecCredential output: invalid type: string, expected struct",
    ] {
        assert!(all.contains(expected), "no error says {expected:?}");
    }
}

fn roots(ca_pem: &str) -> Option<Vec<rustls::pki_types::CertificateDer<'static>>> {
    use rustls::pki_types::pem::PemObject;
    Some(
        rustls::pki_types::CertificateDer::pem_slice_iter(ca_pem.as_bytes())
            .collect::<Result<Vec<_>, _>>()
            .unwrap(),
    )
}
