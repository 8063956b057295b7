//! The demo's binaries as a newcomer runs them without a cluster: the demo and the
//! projection use the embedded server and say so, print the seeded numbers, and a piped log
//! carries no terminal escape codes; the quick start, which needs a cluster, says so in a
//! sentence.

use std::process::{Command, Output};

/// Runs one of the package's binaries with no cluster configured, stdout and stderr piped.
fn without_a_cluster(binary: &str) -> Result<Output, std::io::Error> {
    let dir = tempfile::tempdir()?;
    Command::new(binary)
        .env("KUBECONFIG", dir.path().join("missing"))
        .env_remove("KUBERNETES_SERVICE_HOST")
        // Every log line the binary would write, so that escape codes would show.
        .env("RUST_LOG", "info")
        .output()
}

fn text(out: &Output) -> (String, String) {
    (
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn the_demo_runs_on_the_embedded_server_and_reports_what_it_seeded() -> Result<(), std::io::Error> {
    let out = without_a_cluster(env!("CARGO_BIN_EXE_demo"))?;
    let (stdout, stderr) = text(&out);
    assert!(out.status.success(), "{stdout}{stderr}");
    assert!(
        stdout.starts_with("embedded server: 300 sample pods and 12 config maps in 3 namespaces\n"),
        "{stdout}"
    );
    assert!(
        stdout.contains(": 300 pods, 12 config maps (initial adds delivered: 300)\n"),
        "{stdout}"
    );
    assert!(
        stdout.contains("handler saw 301 adds, 1 updates, 1 deletes\n"),
        "{stdout}"
    );
    assert!(stdout.ends_with("shut down cleanly\n"), "{stdout}");
    assert!(
        stderr.contains("embedded"),
        "the demo says it uses the embedded server: {stderr}"
    );
    assert!(
        !stdout.contains('\u{1b}') && !stderr.contains('\u{1b}'),
        "{stderr}"
    );
    Ok(())
}

#[test]
fn the_projection_runs_on_the_embedded_server() -> Result<(), std::io::Error> {
    let out = without_a_cluster(env!("CARGO_BIN_EXE_projection"))?;
    let (stdout, stderr) = text(&out);
    assert!(out.status.success(), "{stdout}{stderr}");
    // The test server's fixture Pods 0, 3, 6, ... have `tier=web`.
    assert!(
        stdout.starts_with("20 pod views cached, 7 with tier=web\n"),
        "{stdout}"
    );
    assert!(
        stdout.contains("read back from the lister: true"),
        "{stdout}"
    );
    Ok(())
}

#[test]
fn without_a_cluster_the_quickstart_says_so_in_a_sentence() -> Result<(), std::io::Error> {
    let out = without_a_cluster(env!("CARGO_BIN_EXE_quickstart"))?;
    let (_, stderr) = text(&out);
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    assert!(stderr.starts_with("error: "), "{stderr}");
    assert!(stderr.contains("none of these files exists"), "{stderr}");
    assert!(!stderr.contains("ConfigError {"), "{stderr}");
    Ok(())
}
