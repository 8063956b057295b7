//! One input through the kubeconfig loader; shared by the fuzz target and the stable test
//! `tests/fuzz_replay.rs`, so that both make exactly the same calls.
//!
//! Errors are fine (they must be values naming the file); panics are bugs. The file is read
//! as `config` in a temporary directory that also holds a CA certificate, a client
//! certificate and key, and a token file under the names real kubeconfigs use, so that path
//! fields find files to read; the loader is confined to that directory.

use std::path::{Path, PathBuf};

use informer_client::fuzz::kubeconfig;
use informer_runtime::client::KubeConfigOptions;

/// The files a kubeconfig's path fields may name, with their contents.
const FILES: [(&str, &[u8]); 5] = [
    ("ca.crt", include_bytes!("pem/ca.crt")),
    ("client.crt", include_bytes!("pem/client.crt")),
    ("client.key", include_bytes!("pem/client.key")),
    ("token", b"fuzz-token\n"),
    ("empty", b""),
];

thread_local! {
    static DIR: tempfile::TempDir = {
        let dir = tempfile::tempdir().expect("a temporary directory");
        for (name, bytes) in FILES {
            std::fs::write(dir.path().join(name), bytes).expect("writing a fixture file");
        }
        dir
    };
}

/// Loads `data` as a kubeconfig as it says, and with each context it names picked by hand.
pub fn run(data: &[u8]) {
    DIR.with(|dir| load_every_context(dir.path(), data));
}

fn load_every_context(dir: &Path, data: &[u8]) {
    let config_file: PathBuf = dir.join("config");
    let file_name = config_file.display().to_string();
    let check = |options: &KubeConfigOptions| {
        if let Err(e) = kubeconfig(dir, data, options) {
            let message = e.to_string();
            assert!(
                message.contains(&file_name),
                "an error that does not name the file: {message}"
            );
        }
    };
    check(&KubeConfigOptions::default());
    for context in context_names(data) {
        check(&KubeConfigOptions {
            context: Some(context),
            ..KubeConfigOptions::default()
        });
    }
}

/// Up to four context names the file seems to hold (`- name: x` lines), without a YAML parser
/// of its own: picking them is only a way to reach more of the loader.
fn context_names(data: &[u8]) -> Vec<String> {
    let text = String::from_utf8_lossy(data);
    text.lines()
        .filter_map(|line| line.trim_start().strip_prefix("- name:"))
        .map(|name| name.trim().trim_matches('"').to_owned())
        .filter(|name| !name.is_empty())
        .take(4)
        .collect()
}
