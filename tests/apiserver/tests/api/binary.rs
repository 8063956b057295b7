use std::io::{BufRead, BufReader};
use std::process::{Command, Stdio};

#[test]
fn help_documents_every_flag() {
    let out = Command::new(env!("CARGO_BIN_EXE_test-apiserver"))
        .arg("--help")
        .output()
        .unwrap();
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    for flag in [
        "--listen",
        "--seed-pods",
        "--seed-namespaces",
        "--history",
        "--tls",
        "--token",
        "--kubeconfig-out",
        "--self-bench",
    ] {
        assert!(text.contains(flag), "--help lacks {flag}");
    }
    let bad = Command::new(env!("CARGO_BIN_EXE_test-apiserver"))
        .arg("--nope")
        .output()
        .unwrap();
    assert_eq!(bad.status.code(), Some(2));
}

#[tokio::test]
async fn the_binary_announces_itself_serves_and_exits_zero_on_sigterm() {
    let dir = tempfile::tempdir().unwrap();
    let kubeconfig = dir.path().join("kc");
    let mut child = Command::new(env!("CARGO_BIN_EXE_test-apiserver"))
        .args([
            "--listen",
            "127.0.0.1:0",
            "--seed-pods",
            "4",
            "--seed-namespaces",
            "2",
            "--token",
            "t0k",
        ])
        .arg("--kubeconfig-out")
        .arg(&kubeconfig)
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    let stdout = child.stdout.take().unwrap();
    let line = tokio::task::spawn_blocking(move || {
        let mut line = String::new();
        BufReader::new(stdout).read_line(&mut line).unwrap();
        line
    })
    .await
    .unwrap();
    let url = line
        .trim()
        .strip_prefix("listening on ")
        .unwrap_or_else(|| panic!("unexpected line {line:?}"))
        .to_owned();
    assert!(url.starts_with("http://127.0.0.1:"), "{url}");
    assert!(std::fs::read_to_string(&kubeconfig).unwrap().contains(&url));

    let resp = crate::support::client()
        .get(format!("{url}/api/v1/namespaces/ns-1/pods"))
        .bearer_auth("t0k")
        .send()
        .await
        .unwrap();
    assert_eq!(resp.status().as_u16(), 200);
    let list: serde_json::Value = resp.json().await.unwrap();
    assert_eq!(list["items"].as_array().unwrap().len(), 2);

    let killed = Command::new("kill")
        .args(["-TERM", &child.id().to_string()])
        .status()
        .unwrap();
    assert!(killed.success());
    let status = tokio::task::spawn_blocking(move || child.wait())
        .await
        .unwrap()
        .unwrap();
    assert_eq!(status.code(), Some(0));
}
