//! Kubeconfig variants against a loopback server: bearer token, token file rotation,
//! exec plugins (cached, re-run on 401), named contexts; and bad files, each failing
//! with a message that names the file and the field.

use scripted_server as support;

use std::path::{Path, PathBuf};
use std::time::Duration;

use informer_client::client::{Config, KubeConfigOptions};
use informer_client::request::RequestBuilder;
use informer_client::{Client, Error, ListOptions};
use k8s_openapi::api::core::v1::Pod;
use support::{kubeconfig, pod_list, status, Reply, Server};

async fn plain_server() -> Server {
    Server::start(None, |seen| {
        if seen.path.contains("/namespaces/reject/")
            && seen.authorization.as_deref() == Some("Bearer exec-x-1")
        {
            Reply::json(401, status(401, "Unauthorized", "token expired"))
        } else {
            Reply::json(200, pod_list(&["a"], "1", None))
        }
    })
    .await
}

fn write(dir: &Path, name: &str, content: &str) -> PathBuf {
    let path = dir.join(name);
    std::fs::write(&path, content).unwrap();
    path
}

fn config(dir: &Path, cluster: &str, user: &str) -> Result<Config, Error> {
    let path = write(dir, "config", &kubeconfig(cluster, user));
    Config::from_kubeconfig_file(path, &KubeConfigOptions::default())
}

async fn list_in(client: &Client, ns: &str) -> Result<usize, Error> {
    tokio::time::timeout(
        Duration::from_secs(30),
        client.request_list::<Pod>(
            RequestBuilder::of::<Pod>(Some(ns))
                .list(&ListOptions::default())
                .unwrap(),
        ),
    )
    .await
    .expect("test hung")
    .map(|l| l.items.len())
}

fn last_auth(server: &Server) -> Option<String> {
    server.seen().last().and_then(|s| s.authorization.clone())
}

#[tokio::test]
async fn bearer_token_is_sent_and_redacted_in_debug() {
    let server = plain_server().await;
    let dir = tempfile::tempdir().unwrap();
    let config = config(
        dir.path(),
        &format!("server: \"{}\"", server.url),
        "token: s3cr3t-token",
    )
    .unwrap();
    assert_eq!(config.default_namespace, "team");
    assert!(!format!("{config:?}").contains("s3cr3t"));
    let client = Client::new(config).unwrap();
    assert!(!format!("{client:?}").contains("s3cr3t"));
    assert_eq!(client.default_namespace(), "team");
    assert_eq!(client.base_url(), server.url);
    list_in(&client, "team").await.unwrap();
    assert_eq!(last_auth(&server).as_deref(), Some("Bearer s3cr3t-token"));
}

#[tokio::test]
async fn token_file_is_re_read_when_it_rotates() {
    let server = plain_server().await;
    let dir = tempfile::tempdir().unwrap();
    write(dir.path(), "token", "first\n");
    let client = Client::new(
        config(
            dir.path(),
            &format!("server: \"{}\"", server.url),
            "tokenFile: token",
        )
        .unwrap(),
    )
    .unwrap();
    list_in(&client, "team").await.unwrap();
    assert_eq!(last_auth(&server).as_deref(), Some("Bearer first"));
    write(dir.path(), "token", "second-rotated\n");
    list_in(&client, "team").await.unwrap();
    assert_eq!(last_auth(&server).as_deref(), Some("Bearer second-rotated"));
}

#[tokio::test]
async fn basic_auth_when_username_and_password_are_set() {
    let server = plain_server().await;
    let dir = tempfile::tempdir().unwrap();
    let client = Client::new(
        config(
            dir.path(),
            &format!("server: \"{}\"", server.url),
            "username: admin, password: pw",
        )
        .unwrap(),
    )
    .unwrap();
    list_in(&client, "team").await.unwrap();
    assert_eq!(last_auth(&server).as_deref(), Some("Basic YWRtaW46cHc="));
}

#[cfg(unix)]
#[tokio::test]
async fn exec_plugin_token_is_cached_and_re_run_after_401() {
    use std::os::unix::fs::PermissionsExt;
    let server = plain_server().await;
    let dir = tempfile::tempdir().unwrap();
    let script = write(
        dir.path(),
        "plugin.sh",
        r#"#!/bin/sh
here=$(dirname "$0")
n=$(cat "$here/count" 2>/dev/null || echo 0)
n=$((n + 1))
echo "$n" > "$here/count"
echo "$KUBERNETES_EXEC_INFO" > "$here/info"
printf '{"apiVersion":"client.authentication.k8s.io/v1","kind":"ExecCredential","status":{"token":"exec-%s-%s","expirationTimestamp":"2999-01-01T00:00:00Z"}}' "$MY_VAR" "$n"
"#,
    );
    std::fs::set_permissions(&script, std::fs::Permissions::from_mode(0o755)).unwrap();
    let client = Client::new(
        config(
            dir.path(),
            &format!("server: \"{}\"", server.url),
            "exec: { apiVersion: client.authentication.k8s.io/v1, command: ./plugin.sh, \
             env: [{ name: MY_VAR, value: x }], provideClusterInfo: true }",
        )
        .unwrap(),
    )
    .unwrap();
    list_in(&client, "team").await.unwrap();
    list_in(&client, "team").await.unwrap();
    assert_eq!(last_auth(&server).as_deref(), Some("Bearer exec-x-1"));
    let count = || std::fs::read_to_string(dir.path().join("count")).unwrap();
    assert_eq!(
        count().trim(),
        "1",
        "the credential is cached until it expires"
    );
    let info: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(dir.path().join("info")).unwrap()).unwrap();
    assert_eq!(info["apiVersion"], "client.authentication.k8s.io/v1");
    assert_eq!(info["kind"], "ExecCredential");
    assert_eq!(info["spec"]["cluster"]["server"], server.url.as_str());

    // The server rejects exec-x-1 here: the client re-runs the plugin once and retries.
    list_in(&client, "reject").await.unwrap();
    assert_eq!(count().trim(), "2");
    assert_eq!(last_auth(&server).as_deref(), Some("Bearer exec-x-2"));
}

#[tokio::test]
async fn failing_exec_plugin_names_the_field_and_stderr() {
    let server = plain_server().await;
    let dir = tempfile::tempdir().unwrap();
    let client = Client::new(
        config(
            dir.path(),
            &format!("server: \"{}\"", server.url),
            "exec: { apiVersion: client.authentication.k8s.io/v1, command: sh, \
             args: [\"-c\", \"echo >&2; echo login first >&2; echo usage: plugin --secret=x >&2; exit 3\"] }",
        )
        .unwrap(),
    )
    .unwrap();
    let err = list_in(&client, "team").await.unwrap_err().to_string();
    assert!(err.contains("list pods at"), "{err}");
    assert!(err.contains("users[0].user.exec"), "{err}");
    // The first line of stderr only: plugins print usage (and their arguments) after it.
    assert!(err.contains("login first"), "{err}");
    assert!(!err.contains("usage") && !err.contains("--secret"), "{err}");

    let long_line = Client::new(
        config(
            dir.path(),
            &format!("server: \"{}\"", server.url),
            "exec: { apiVersion: client.authentication.k8s.io/v1, command: sh, \
             args: [\"-c\", \"printf '%0900d' 0 >&2; exit 3\"] }",
        )
        .unwrap(),
    )
    .unwrap();
    let err = list_in(&long_line, "team").await.unwrap_err().to_string();
    assert!(err.contains("00000…"), "{err}");
    assert!(!err.contains(&"0".repeat(201)), "{err}");

    let missing = Client::new(
        config(
            dir.path(),
            &format!("server: \"{}\"", server.url),
            "exec: { apiVersion: client.authentication.k8s.io/v1, command: no-such-plugin-xyz, \
             installHint: \"install it\" }",
        )
        .unwrap(),
    )
    .unwrap();
    let err = list_in(&missing, "team").await.unwrap_err().to_string();
    assert!(
        err.contains("no-such-plugin-xyz") && err.contains("install it"),
        "{err}"
    );
}

#[tokio::test]
async fn named_context_cluster_and_user() {
    let dir = tempfile::tempdir().unwrap();
    let path = write(
        dir.path(),
        "config",
        r#"
current-context: one
clusters:
- { name: c1, cluster: { server: "https://one.example" } }
- { name: c2, cluster: { server: "https://two.example:6443/prefix/" } }
users:
- { name: u1, user: { token: t1 } }
- { name: u2, user: { token: t2 } }
contexts:
- { name: one, context: { cluster: c1, user: u1 } }
- { name: two, context: { cluster: c2, user: u2, namespace: ns2 } }
"#,
    );
    let current = Config::from_kubeconfig_file(&path, &KubeConfigOptions::default()).unwrap();
    assert_eq!(current.cluster_url, "https://one.example");
    assert_eq!(current.default_namespace, "default");
    let two = Config::from_kubeconfig_file(
        &path,
        &KubeConfigOptions {
            context: Some("two".into()),
            ..Default::default()
        },
    )
    .unwrap();
    assert_eq!(two.cluster_url, "https://two.example:6443/prefix");
    assert_eq!(two.default_namespace, "ns2");
    let mixed = Config::from_kubeconfig_file(
        &path,
        &KubeConfigOptions {
            context: Some("two".into()),
            cluster: Some("c1".into()),
            user: Some("u1".into()),
        },
    )
    .unwrap();
    assert_eq!(mixed.cluster_url, "https://one.example");
    assert!(matches!(mixed.auth, informer_client::client::AuthConfig::Token(ref t) if t == "t1"));
}

fn load_err(dir: &Path, content: &str) -> String {
    let path = write(dir, "config", content);
    Config::from_kubeconfig_file(path, &KubeConfigOptions::default())
        .unwrap_err()
        .to_string()
}

#[test]
fn bad_kubeconfigs_name_the_file_and_field() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let file = d.join("config").display().to_string();
    let expect = |err: String, parts: &[&str]| {
        for p in parts {
            assert!(err.contains(p), "{err:?} should contain {p:?}");
        }
    };

    let missing = d.join("nope");
    expect(
        Config::from_kubeconfig_file(&missing, &KubeConfigOptions::default())
            .unwrap_err()
            .to_string(),
        &[&missing.display().to_string(), "cannot read"],
    );
    expect(load_err(d, "clusters: [unclosed"), &[&file, "cannot parse"]);
    expect(
        load_err(d, "clusters: []\n"),
        &[&file, "current-context is not set"],
    );
    expect(
        load_err(d, "current-context: x\ncontexts: []\n"),
        &["context \"x\" not found"],
    );
    expect(
        load_err(
            d,
            "current-context: x\ncontexts:\n- { name: x, context: { cluster: gone, user: u } }\n",
        ),
        &[
            &file,
            "contexts[0].context.cluster",
            "cluster \"gone\" not found",
        ],
    );
    expect(
        load_err(
            d,
            &kubeconfig("server: \"https://a\"", "").replace("user: u,", "user: other,"),
        ),
        &[
            &file,
            "contexts[0].context.user",
            "user \"other\" not found",
        ],
    );
    expect(
        load_err(d, &kubeconfig("insecure-skip-tls-verify: true", "")),
        &[&file, "clusters[0].cluster.server: missing"],
    );
    expect(
        load_err(
            d,
            &kubeconfig(
                "server: \"https://a\", certificate-authority: /no/such/ca.pem",
                "",
            ),
        ),
        &[
            &file,
            "clusters[0].cluster.certificate-authority: cannot read /no/such/ca.pem",
        ],
    );
    expect(
        load_err(
            d,
            &kubeconfig(
                "server: \"https://a\", certificate-authority-data: \"!!notbase64\"",
                "",
            ),
        ),
        &[
            &file,
            "clusters[0].cluster.certificate-authority-data: invalid base64",
        ],
    );
    expect(
        load_err(
            d,
            &kubeconfig(
                "server: \"https://a\", certificate-authority-data: aGVsbG8=",
                "",
            ),
        ),
        &["clusters[0].cluster.certificate-authority-data: no PEM certificate"],
    );
    expect(
        load_err(
            d,
            &kubeconfig(
                "server: \"https://a\"",
                "client-certificate: /x/y.crt, client-key: k",
            ),
        ),
        &[
            &file,
            "users[0].user.client-certificate: cannot read /x/y.crt",
        ],
    );
    expect(
        load_err(
            d,
            &kubeconfig("server: \"https://a\"", "client-key-data: \"%%%\""),
        ),
        &["users[0].user.client-key-data: invalid base64"],
    );
    expect(
        load_err(
            d,
            &kubeconfig("server: \"https://a\"", "tokenFile: /no/token"),
        ),
        &["users[0].user.tokenFile: cannot read /no/token"],
    );
    expect(
        load_err(
            d,
            &kubeconfig(
                "server: \"https://a\"",
                "exec: { command: x, apiVersion: v9 }",
            ),
        ),
        &["users[0].user.exec.apiVersion: unsupported"],
    );
}

#[cfg(unix)]
#[tokio::test]
async fn expired_exec_credential_is_fetched_again() {
    use std::os::unix::fs::PermissionsExt;
    let server = plain_server().await;
    let dir = tempfile::tempdir().unwrap();
    let script = write(
        dir.path(),
        "plugin.sh",
        r#"#!/bin/sh
here=$(dirname "$0")
n=$(cat "$here/count" 2>/dev/null || echo 0)
n=$((n + 1))
echo "$n" > "$here/count"
printf '{"apiVersion":"client.authentication.k8s.io/v1beta1","kind":"ExecCredential","status":{"token":"t-%s","expirationTimestamp":"2001-01-01T00:00:00Z"}}' "$n"
"#,
    );
    std::fs::set_permissions(&script, std::fs::Permissions::from_mode(0o755)).unwrap();
    let client = Client::new(
        config(
            dir.path(),
            &format!("server: \"{}\"", server.url),
            &format!(
                "exec: {{ apiVersion: client.authentication.k8s.io/v1beta1, command: \"{}\" }}",
                script.display()
            ),
        )
        .unwrap(),
    )
    .unwrap();
    list_in(&client, "team").await.unwrap();
    list_in(&client, "team").await.unwrap();
    assert_eq!(last_auth(&server).as_deref(), Some("Bearer t-2"));
}

#[cfg(unix)]
#[tokio::test]
async fn exec_plugin_printing_too_much_is_stopped() {
    use std::os::unix::fs::PermissionsExt;
    let server = plain_server().await;
    let dir = tempfile::tempdir().unwrap();
    // Never ends: the client must stop reading, not wait for it.
    let script = write(
        dir.path(),
        "flood.sh",
        "#!/bin/sh\nexec yes aaaaaaaaaaaaaaaa\n",
    );
    std::fs::set_permissions(&script, std::fs::Permissions::from_mode(0o755)).unwrap();
    let client = Client::new(
        config(
            dir.path(),
            &format!("server: \"{}\"", server.url),
            "exec: { apiVersion: client.authentication.k8s.io/v1, command: ./flood.sh, \
             args: [\"--client-secret=hidden\"] }",
        )
        .unwrap(),
    )
    .unwrap();
    let err = list_in(&client, "team").await.unwrap_err().to_string();
    assert!(
        err.contains("command \"./flood.sh\"") && err.contains("more than 1048576 bytes on stdout"),
        "{err}"
    );
    assert!(!err.contains("hidden"), "{err}");
    assert!(server.seen().is_empty());
}

#[cfg(unix)]
#[tokio::test]
async fn exec_interactive_mode_always_is_refused() {
    use std::os::unix::fs::PermissionsExt;
    let server = plain_server().await;
    let dir = tempfile::tempdir().unwrap();
    let script = write(
        dir.path(),
        "plugin.sh",
        r#"#!/bin/sh
printf '{"apiVersion":"client.authentication.k8s.io/v1","kind":"ExecCredential","status":{"token":"t"}}'
"#,
    );
    std::fs::set_permissions(&script, std::fs::Permissions::from_mode(0o755)).unwrap();
    let exec = |mode: &str| {
        format!(
            "exec: {{ apiVersion: client.authentication.k8s.io/v1, command: ./plugin.sh, \
             interactiveMode: {mode} }}"
        )
    };
    let err = config(
        dir.path(),
        &format!("server: \"{}\"", server.url),
        &exec("Always"),
    )
    .unwrap_err();
    assert_eq!(
        err.config_kind(),
        Some(informer_client::error::ConfigErrorKind::Unsupported),
        "{err}"
    );
    let text = err.to_string();
    assert!(
        text.contains("users[0].user.exec.interactiveMode: Always is not supported"),
        "{text}"
    );
    let err = config(
        dir.path(),
        &format!("server: \"{}\"", server.url),
        &exec("Sometimes"),
    )
    .unwrap_err()
    .to_string();
    assert!(
        err.contains("not one of Never, IfAvailable or Always"),
        "{err}"
    );
    // Both run the plugin without a terminal, as client-go does when stdin is not one.
    for mode in ["IfAvailable", "Never"] {
        let client = Client::new(
            config(
                dir.path(),
                &format!("server: \"{}\"", server.url),
                &exec(mode),
            )
            .unwrap(),
        )
        .unwrap();
        list_in(&client, "team").await.unwrap();
        assert_eq!(last_auth(&server).as_deref(), Some("Bearer t"), "{mode}");
    }
}
