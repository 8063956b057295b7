//! The README's code blocks are the demo's binaries: the quick start is
//! `src/bin/quickstart.rs` and the typed projection `src/bin/projection.rs`, each between
//! its markers. The quick start, pointed at a test API server by `KUBECONFIG` as a user
//! points it at a cluster, prints the cache's contents.

use std::process::Command;

use test_apiserver::{TestApiServer, TestEnv};

/// The first `rust` block after the README's `heading`.
fn readme_block(heading: &str) -> &'static str {
    let readme = include_str!("../../README.md");
    let section = &readme[readme.find(heading).expect("the section")..];
    let start = section.find("```rust\n").expect("a rust block") + "```rust\n".len();
    let end = start + section[start..].find("```\n").expect("the block's end");
    &section[start..end]
}

/// The code between `// README-<NAME>-BEGIN` and `// README-<NAME>-END`.
fn marked<'a>(code: &'a str, name: &str) -> &'a str {
    let begin = format!("// README-{name}-BEGIN\n");
    let start = code.find(&begin).expect("the begin marker") + begin.len();
    let end = code
        .find(&format!("// README-{name}-END"))
        .expect("the end marker");
    &code[start..end]
}

#[test]
fn the_readme_shows_the_quickstart_binary() {
    assert_eq!(
        readme_block("## Quick start"),
        marked(include_str!("../src/bin/quickstart.rs"), "QUICKSTART")
    );
}

#[test]
fn the_readme_shows_the_projection_binary() {
    assert_eq!(
        readme_block("## Typed projections"),
        marked(include_str!("../src/bin/projection.rs"), "PROJECTION")
    );
}

#[tokio::test]
async fn the_quickstart_reads_the_cluster_of_its_kubeconfig(
) -> Result<(), Box<dyn std::error::Error>> {
    let env = TestEnv::builder()
        .server(TestApiServer::builder().seed_pods(6).seed_namespaces(2))
        .start()
        .await?;
    let dir = tempfile::tempdir()?;
    let kubeconfig = dir.path().join("config");
    env.write_kubeconfig(&kubeconfig)?;
    let out = tokio::task::spawn_blocking(move || {
        Command::new(env!("CARGO_BIN_EXE_quickstart"))
            .env("KUBECONFIG", &kubeconfig)
            .output()
    })
    .await??;
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stdout}{stderr}");
    assert!(stdout.starts_with("6 pods in the cache\n"), "{stdout}");
    // Fixture Pods 0 and 3 have `tier=web`.
    assert_eq!(
        stdout.lines().filter(|l| l.starts_with("  ")).count(),
        2,
        "{stdout}"
    );
    env.shutdown().await;
    Ok(())
}
