//! The kubeconfig the server writes (owner-only, never through a planted symlink) and the
//! binary's ways of taking a bearer token without putting it on the command line.

use std::io::{BufRead, BufReader};
use std::os::unix::fs::PermissionsExt;
use std::path::Path;
use std::process::{Child, Command, Stdio};

use test_apiserver::TestApiServer;

fn mode(path: &Path) -> u32 {
    std::fs::metadata(path).unwrap().permissions().mode() & 0o777
}

#[tokio::test]
async fn the_kubeconfig_is_readable_by_its_owner_only() {
    let server = TestApiServer::builder()
        .token("s3cret")
        .start()
        .await
        .unwrap();
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("kubeconfig");
    server.write_kubeconfig(&path).unwrap();
    assert_eq!(mode(&path), 0o600);
    assert!(std::fs::read_to_string(&path).unwrap().contains("s3cret"));

    // An existing world-readable file at the path is replaced by an owner-only one.
    std::fs::write(&path, "old").unwrap();
    std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o644)).unwrap();
    server.write_kubeconfig(&path).unwrap();
    assert_eq!(mode(&path), 0o600);
    assert!(std::fs::read_to_string(&path).unwrap().contains("s3cret"));
    let names: Vec<_> = std::fs::read_dir(dir.path())
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    assert_eq!(names, ["kubeconfig"], "no temporary file is left behind");
    server.shutdown().await;
}

#[tokio::test]
async fn a_symlink_planted_at_the_kubeconfig_path_is_replaced_not_followed() {
    let server = TestApiServer::builder()
        .token("s3cret")
        .start()
        .await
        .unwrap();
    let dir = tempfile::tempdir().unwrap();
    let victim = dir.path().join("victim");
    std::fs::write(&victim, "precious").unwrap();
    std::fs::set_permissions(&victim, std::fs::Permissions::from_mode(0o644)).unwrap();
    let path = dir.path().join("kubeconfig");
    std::os::unix::fs::symlink(&victim, &path).unwrap();

    server.write_kubeconfig(&path).unwrap();

    assert_eq!(std::fs::read_to_string(&victim).unwrap(), "precious");
    assert_eq!(mode(&victim), 0o644);
    let meta = std::fs::symlink_metadata(&path).unwrap();
    assert!(meta.file_type().is_file(), "the symlink was replaced");
    assert_eq!(meta.permissions().mode() & 0o777, 0o600);
    assert!(std::fs::read_to_string(&path)
        .unwrap()
        .contains(&server.url()));
    server.shutdown().await;
}

/// The binary, killed if a failed assertion leaves it running.
struct Server(Option<Child>);

impl Drop for Server {
    fn drop(&mut self) {
        if let Some(mut child) = self.0.take() {
            let _ = child.kill();
            let _ = child.wait();
        }
    }
}

/// Starts the binary; returns it and the URL it announced.
fn spawn(args: &[&str], kubeconfig: &Path, env_token: Option<&str>) -> (Server, String) {
    let mut command = Command::new(env!("CARGO_BIN_EXE_test-apiserver"));
    command
        .args(["--listen", "127.0.0.1:0"])
        .args(args)
        .arg("--kubeconfig-out")
        .arg(kubeconfig)
        .env_remove("TEST_APISERVER_TOKEN")
        .stdout(Stdio::piped());
    if let Some(t) = env_token {
        command.env("TEST_APISERVER_TOKEN", t);
    }
    let mut child = command.spawn().unwrap();
    let stdout = child.stdout.take().unwrap();
    let server = Server(Some(child));
    let mut line = String::new();
    BufReader::new(stdout).read_line(&mut line).unwrap();
    let url = line
        .trim()
        .strip_prefix("listening on ")
        .unwrap_or_else(|| panic!("unexpected line {line:?}"))
        .to_owned();
    (server, url)
}

fn stop(mut server: Server) {
    let Some(mut child) = server.0.take() else {
        return;
    };
    let killed = Command::new("kill")
        .args(["-TERM", &child.id().to_string()])
        .status()
        .unwrap();
    assert!(killed.success());
    assert_eq!(child.wait().unwrap().code(), Some(0));
}

async fn status(url: &str, token: Option<&str>) -> u16 {
    let _ = rustls::crypto::ring::default_provider().install_default();
    let client = reqwest::Client::builder().no_proxy().build().unwrap();
    let mut request = client.get(format!("{url}/api/v1/namespaces/default/pods"));
    if let Some(t) = token {
        request = request.bearer_auth(t);
    }
    request.send().await.unwrap().status().as_u16()
}

#[tokio::test]
async fn the_binary_takes_its_token_from_a_file() {
    let dir = tempfile::tempdir().unwrap();
    let token_file = dir.path().join("token");
    std::fs::write(&token_file, "from-file\n").unwrap();
    let kubeconfig = dir.path().join("kc");
    let (child, url) = spawn(
        &["--token-file", token_file.to_str().unwrap()],
        &kubeconfig,
        None,
    );
    assert_eq!(status(&url, None).await, 401);
    assert_eq!(status(&url, Some("from-file")).await, 200);
    let kc = std::fs::read_to_string(&kubeconfig).unwrap();
    assert!(kc.contains("token: \"from-file\""), "{kc}");
    assert_eq!(mode(&kubeconfig), 0o600);
    stop(child);
}

#[tokio::test]
async fn the_binary_takes_its_token_from_the_environment() {
    let dir = tempfile::tempdir().unwrap();
    let kubeconfig = dir.path().join("kc");
    let (child, url) = spawn(&[], &kubeconfig, Some("from-env"));
    assert_eq!(status(&url, None).await, 401);
    assert_eq!(status(&url, Some("wrong")).await, 401);
    assert_eq!(status(&url, Some("from-env")).await, 200);
    assert!(std::fs::read_to_string(&kubeconfig)
        .unwrap()
        .contains("token: \"from-env\""));
    stop(child);
}

#[test]
fn unusable_token_sources_are_refused_naming_them() {
    let dir = tempfile::tempdir().unwrap();
    let empty = dir.path().join("empty");
    std::fs::write(&empty, "\n").unwrap();
    let missing = dir.path().join("missing");
    let two_lines = dir.path().join("two");
    std::fs::write(&two_lines, "a\nb\n").unwrap();
    for (file, says) in [
        (&empty, "no token"),
        (&missing, "cannot read it"),
        (&two_lines, "one word"),
    ] {
        let out = Command::new(env!("CARGO_BIN_EXE_test-apiserver"))
            .arg("--token-file")
            .arg(file)
            .env_remove("TEST_APISERVER_TOKEN")
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(2));
        let err = String::from_utf8(out.stderr).unwrap();
        assert!(
            err.contains(&format!("--token-file {}", file.display())) && err.contains(says),
            "{err}"
        );
    }
    let out = Command::new(env!("CARGO_BIN_EXE_test-apiserver"))
        .env("TEST_APISERVER_TOKEN", "")
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8(out.stderr)
        .unwrap()
        .contains("TEST_APISERVER_TOKEN: no token"));
}
