//! The fuzz target over the server-side apply engine (`fuzz/`, cargo-fuzz, nightly only),
//! run on stable over fixed inputs: its corpus (fieldsV1 values, managedFields lists, live
//! objects with applied configurations for a Deployment and a custom resource) and
//! systematic mutations of each (every truncation, and at every position a bit flip and
//! the bytes that matter to JSON and to the input's layout). A panic fails the test and
//! names the input.

use std::panic::{self, AssertUnwindSafe};
use std::path::Path;

#[path = "../fuzz/fuzz_targets/apply_input.rs"]
mod apply_input;

/// The corpus files, sorted, with their contents.
fn corpus() -> Vec<(String, Vec<u8>)> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("fuzz/corpus/apply");
    let mut files: Vec<(String, Vec<u8>)> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("reading {}: {e}", dir.display()))
        .map(|entry| {
            let path = entry.unwrap().path();
            let name = path.file_name().unwrap().to_string_lossy().into_owned();
            (name, std::fs::read(&path).unwrap())
        })
        .collect();
    files.sort();
    files
}

/// The input and what was done to it, for the failure message.
fn mutations(seed: &[u8]) -> Vec<(String, Vec<u8>)> {
    let mut out = vec![("as is".to_owned(), seed.to_vec())];
    for len in 0..seed.len() {
        out.push((format!("truncated to {len}"), seed[..len].to_vec()));
    }
    for i in 0..seed.len() {
        for (what, byte) in [
            ("bit flip", seed[i] ^ 0x01),
            ("brace", b'{'),
            ("bracket", b'['),
            ("quote", b'"'),
            ("zero", b'0'),
            ("nul", 0),
        ] {
            let mut m = seed.to_vec();
            m[i] = byte;
            out.push((format!("{what} at {i}"), m));
        }
    }
    for mode in 0..3u8 {
        let mut m = seed.to_vec();
        if let Some(first) = m.first_mut() {
            *first = mode;
        }
        out.push((format!("mode {mode}"), m));
    }
    out
}

#[test]
fn corpus_and_mutations_never_panic() {
    let corpus = corpus();
    assert!(corpus.len() >= 4, "the corpus is missing");
    let mut failures = Vec::new();
    for (name, seed) in &corpus {
        for (what, input) in mutations(seed) {
            let result = panic::catch_unwind(AssertUnwindSafe(|| apply_input::run(&input)));
            if result.is_err() {
                failures.push(format!(
                    "{name}, {what}: {:?}",
                    String::from_utf8_lossy(&input)
                ));
            }
        }
    }
    assert!(failures.is_empty(), "panics:\n{}", failures.join("\n"));
}
