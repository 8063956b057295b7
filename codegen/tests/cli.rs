//! The `informer-gen` binary: help, list, generate, and bad input → one error line naming
//! the file, exit code 2, nothing written.

use std::path::Path;
use std::process::{Command, Output};

const BIN: &str = env!("CARGO_BIN_EXE_informer-gen");
const FIXTURE: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/tests/fixtures/golden_table.json"
);

fn run(args: &[&str]) -> Output {
    Command::new(BIN).args(args).output().unwrap()
}

fn stderr_line(out: &Output) -> String {
    let text = String::from_utf8(out.stderr.clone()).unwrap();
    assert_eq!(text.lines().count(), 1, "one error line, got: {text}");
    text
}

fn assert_fails_cleanly(args: &[&str], out_dir: &Path, needles: &[&str]) {
    let out = run(args);
    assert_eq!(out.status.code(), Some(2), "{args:?}");
    let line = stderr_line(&out);
    for needle in needles {
        assert!(line.contains(needle), "`{line}` should mention `{needle}`");
    }
    assert!(!out_dir.exists(), "nothing written on error");
    let parent = out_dir.parent().unwrap();
    let leftovers: Vec<_> = std::fs::read_dir(parent)
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    assert!(
        leftovers
            .iter()
            .all(|n| !n.to_string_lossy().contains("informer-gen")),
        "{leftovers:?}"
    );
}

#[test]
fn help_documents_every_command() {
    let out = run(&["--help"]);
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    for cmd in ["extract", "list", "generate"] {
        assert!(text.contains(cmd));
        let out = run(&[cmd, "--help"]);
        assert!(out.status.success(), "{cmd} --help");
        assert!(String::from_utf8(out.stdout)
            .unwrap()
            .contains("Usage: informer-gen"));
    }
}

#[test]
fn list_names_each_resource_and_its_accessor() {
    let out = run(&["list", "--table", FIXTURE]);
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(
        text.contains("core/v1/pods\tPod\tnamespaced\tcore().v1().pods()"),
        "{text}"
    );
    assert!(
        text.contains("rbac_authorization().v1().cluster_roles()"),
        "{text}"
    );
    assert_eq!(text.lines().count(), 7);
}

#[test]
fn group_accessor_renames_a_group_for_list_and_generate() {
    let out = run(&[
        "list",
        "--table",
        FIXTURE,
        "--group-accessor",
        "rbac.authorization.k8s.io=rbac",
        "--group",
        "rbac",
    ]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.contains("\trbac().v1().cluster_roles()\t"), "{text}");
    assert!(!text.contains("rbac_authorization()"), "{text}");
    assert!(!text.contains("core()"), "{text}");

    let dir = tempfile::tempdir().unwrap();
    let out_dir = dir.path().join("tree");
    let out = run(&[
        "generate",
        "--table",
        FIXTURE,
        "--group-accessor=apps=workloads",
        "--out",
        out_dir.to_str().unwrap(),
    ]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let root = std::fs::read_to_string(out_dir.join("mod.rs")).unwrap();
    assert!(
        root.contains("pub fn workloads(&self) -> workloads::Group"),
        "{root}"
    );
    assert!(out_dir.join("workloads/v1/deployment.rs").exists());

    let out_dir = dir.path().join("bad");
    assert_fails_cleanly(
        &[
            "generate",
            "--table",
            FIXTURE,
            "--group-accessor",
            "apps=rbac_authorization",
            "--out",
            out_dir.to_str().unwrap(),
        ],
        &out_dir,
        &[
            "group accessor `rbac_authorization` for API group `apps`",
            "rbac.authorization.k8s.io",
        ],
    );
    let out = run(&["generate", "--help"]);
    assert!(String::from_utf8(out.stdout)
        .unwrap()
        .contains("--group-accessor <GROUP=NAME>"));
}

#[test]
fn generate_writes_a_tree_and_replaces_it_whole() {
    let tmp = tempfile::tempdir().unwrap();
    let out_dir = tmp.path().join("out");
    std::fs::create_dir_all(&out_dir).unwrap();
    std::fs::write(out_dir.join("stale.rs"), "old").unwrap();
    let out = run(&[
        "generate",
        "--table",
        FIXTURE,
        "--out",
        out_dir.to_str().unwrap(),
        "--group",
        "core",
    ]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(out_dir.join("mod.rs").exists());
    assert!(out_dir.join("core/v1/pod.rs").exists());
    assert!(!out_dir.join("apps").exists(), "group filter applies");
    assert!(!out_dir.join("stale.rs").exists());
}

#[test]
fn bad_input_is_one_line_exit_2_and_nothing_written() {
    let tmp = tempfile::tempdir().unwrap();
    let out_dir = tmp.path().join("out");
    let out = out_dir.to_str().unwrap();

    let missing = tmp.path().join("missing.json");
    assert_fails_cleanly(
        &[
            "generate",
            "--table",
            missing.to_str().unwrap(),
            "--out",
            out,
        ],
        &out_dir,
        &["missing.json", "cannot read"],
    );

    let invalid = tmp.path().join("invalid.json");
    std::fs::write(&invalid, "{ not json").unwrap();
    assert_fails_cleanly(
        &[
            "generate",
            "--table",
            invalid.to_str().unwrap(),
            "--out",
            out,
        ],
        &out_dir,
        &["invalid.json", "invalid JSON", "line 1"],
    );
    assert_fails_cleanly(
        &[
            "generate",
            "--openapi",
            invalid.to_str().unwrap(),
            "--out",
            out,
        ],
        &out_dir,
        &["invalid.json", "invalid JSON"],
    );

    let empty_spec = tmp.path().join("empty-spec.json");
    std::fs::write(
        &empty_spec,
        r#"{"openapi":"3.0.0","paths":{},"components":{"schemas":{}}}"#,
    )
    .unwrap();
    assert_fails_cleanly(
        &[
            "generate",
            "--openapi",
            empty_spec.to_str().unwrap(),
            "--out",
            out,
        ],
        &out_dir,
        &["empty-spec.json", "no listable and watchable resources"],
    );

    assert_fails_cleanly(
        &["generate", "--k8s-version", "1.99", "--out", out],
        &out_dir,
        &["1.99", "1.37"],
    );

    let bad_resource = tmp.path().join("bad.json");
    std::fs::write(
        &bad_resource,
        r#"{"kubernetes_version":"1.37","source":"test","resources":[
            {"group":"apps","version":"v1","kind":"bad kind","plural":"bads","scope":"Namespaced",
             "list_kind":"BadList","rust_type_path":"crate::Bad"}]}"#,
    )
    .unwrap();
    assert_fails_cleanly(
        &[
            "generate",
            "--table",
            bad_resource.to_str().unwrap(),
            "--out",
            out,
        ],
        &out_dir,
        &["apps/v1/bad kind", "kind"],
    );

    assert_fails_cleanly(&["generate", "--bogus", "x"], &out_dir, &["--bogus"]);
    assert_fails_cleanly(&["frobnicate"], &out_dir, &["frobnicate"]);
}

#[test]
fn generating_twice_gives_identical_trees() {
    let tmp = tempfile::tempdir().unwrap();
    let (a, b) = (tmp.path().join("a"), tmp.path().join("b"));
    for dir in [&a, &b] {
        let out = run(&[
            "generate",
            "--k8s-version",
            "1.37",
            "--out",
            dir.to_str().unwrap(),
        ]);
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
    }
    let mut files = Vec::new();
    let mut stack = vec![a.clone()];
    while let Some(dir) = stack.pop() {
        for entry in std::fs::read_dir(dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                stack.push(path);
            } else {
                files.push(path);
            }
        }
    }
    assert!(files.len() > 100, "one file per type plus modules");
    for file in files {
        let twin = b.join(file.strip_prefix(&a).unwrap());
        assert_eq!(
            std::fs::read(&file).unwrap(),
            std::fs::read(&twin).unwrap(),
            "{}",
            file.display()
        );
    }
}

#[test]
fn version_suggestions_and_completions() {
    let out = run(&["--version"]);
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    assert_eq!(
        text.trim(),
        format!("informer-gen {}", env!("CARGO_PKG_VERSION"))
    );

    // A mistyped subcommand or flag: one line, with what was meant.
    let out = run(&["generat"]);
    assert_eq!(out.status.code(), Some(2));
    let line = stderr_line(&out);
    assert!(
        line.contains("'generat'") && line.contains("'generate'"),
        "{line}"
    );
    let out = run(&["list", "--tabel", FIXTURE]);
    assert_eq!(out.status.code(), Some(2));
    let line = stderr_line(&out);
    assert!(
        line.contains("'--tabel'") && line.contains("'--table'"),
        "{line}"
    );

    for shell in ["bash", "zsh", "fish"] {
        let out = run(&["completions", shell]);
        assert!(out.status.success(), "{shell}");
        let script = String::from_utf8(out.stdout).unwrap();
        for word in ["informer-gen", "generate", "group-accessor", "from-cluster"] {
            assert!(script.contains(word), "{shell}: {word}");
        }
    }
    let out = run(&["completions", "tcsh"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr_line(&out).contains("bash"));
}
