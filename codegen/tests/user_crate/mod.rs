//! Building a crate the way its user would, with `cargo`, in the workspace's target directory
//! (so that the runtime and its dependencies are compiled once for every run), pinned to the
//! workspace's `Cargo.lock` and offline.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// The workspace root (the runtime crate).
pub fn workspace() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("..")
        .canonicalize()
        .unwrap()
}

/// The target directory of this build: `CARGO_TARGET_TMPDIR` is `<target dir>/tmp`.
pub fn target_dir() -> PathBuf {
    Path::new(env!("CARGO_TARGET_TMPDIR"))
        .parent()
        .unwrap()
        .to_owned()
}

/// Runs `cargo <args> --manifest-path <krate>/Cargo.toml --offline` with the workspace's
/// target directory, after copying the workspace's `Cargo.lock` next to the manifest (the
/// versions the workspace builds with, found without the index).
pub fn cargo(krate: &Path, args: &[&str]) -> Output {
    std::fs::copy(workspace().join("Cargo.lock"), krate.join("Cargo.lock")).unwrap();
    let program = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
    let mut command = Command::new(program);
    command
        .args(args)
        .arg("--manifest-path")
        .arg(krate.join("Cargo.toml"))
        .arg("--offline")
        .env("CARGO_TARGET_DIR", target_dir());
    // What cargo sets for this test process is no setting of the user's: build scripts that
    // watch such variables (ring watches CARGO_MANIFEST_DIR) would otherwise rerun, and their
    // dependents rebuild, whenever this test and a plain cargo command take turns.
    for (name, _) in std::env::vars_os() {
        let name = name.to_string_lossy();
        if [
            "CARGO_MANIFEST_",
            "CARGO_PKG_",
            "CARGO_BIN_",
            "CARGO_CRATE_NAME",
            "CARGO_PRIMARY_PACKAGE",
            "CARGO_TARGET_TMPDIR",
            "CARGO_RUSTC_CURRENT_DIR",
        ]
        .iter()
        .any(|prefix| name.starts_with(prefix))
        {
            command.env_remove(&*name);
        }
    }
    command.output().unwrap()
}

/// Asserts that `output` is a success; returns its standard error (cargo's report).
pub fn succeeded(output: &Output) -> String {
    let stderr = String::from_utf8_lossy(&output.stderr).into_owned();
    assert!(output.status.success(), "{stderr}");
    stderr
}
