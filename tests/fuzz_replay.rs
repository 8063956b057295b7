//! The fuzz targets over the runtime's decoders (`fuzz/`, cargo-fuzz, nightly only), run on
//! stable over fixed inputs: each target's corpus (real list and watch bodies from the test
//! server, real kubeconfigs, selectors from the Kubernetes docs, every input a fuzzer found a bug
//! with, and a minimized sample of what the fuzzers reached) and systematic mutations of the
//! named seeds (truncations, bit flips, syntax-significant bytes written over others). The checks are the targets' own: no panic, and each target's
//! properties. A failure names the input and keeps its bytes for a reproducer.

use std::panic::{self, AssertUnwindSafe};
use std::path::{Path, PathBuf};

#[path = "../fuzz/fuzz_targets/kubeconfig_input.rs"]
mod kubeconfig_input;
#[path = "../fuzz/fuzz_targets/list_body_input.rs"]
mod list_body_input;
#[path = "../fuzz/fuzz_targets/protobuf_decode_input.rs"]
mod protobuf_decode_input;
#[path = "../fuzz/fuzz_targets/runtime.rs"]
mod runtime;
#[path = "../fuzz/fuzz_targets/selector_input.rs"]
mod selector_input;
#[path = "../fuzz/fuzz_targets/split.rs"]
mod split;
#[path = "../fuzz/fuzz_targets/strategic_merge_input.rs"]
mod strategic_merge_input;
#[path = "../fuzz/fuzz_targets/watch_lines_input.rs"]
mod watch_lines_input;

/// The files of the corpus of `target`, sorted, with their contents.
fn corpus(target: &str) -> Vec<(String, Vec<u8>)> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("fuzz/corpus")
        .join(target);
    let mut paths: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("reading {}: {e}", dir.display()))
        .map(|entry| entry.unwrap().path())
        .filter(|path| path.is_file())
        .collect();
    paths.sort();
    assert!(!paths.is_empty(), "{} is empty", dir.display());
    paths
        .into_iter()
        .map(|path| {
            let data = std::fs::read(&path).unwrap();
            (
                path.file_name().unwrap().to_string_lossy().into_owned(),
                data,
            )
        })
        .collect()
}

/// Runs one input; on a panic, says which input it was and keeps the bytes.
fn run(target: &str, run: fn(&[u8]), what: &str, data: &[u8]) {
    if panic::catch_unwind(AssertUnwindSafe(|| run(data))).is_err() {
        let path = std::env::temp_dir().join(format!("fuzz-replay-{target}-panic"));
        let _ = std::fs::write(&path, data);
        panic!(
            "the {target} target failed on {what} (input written to {})",
            path.display()
        );
    }
}

/// True for a file a fuzzer added (named by the SHA-1 of its contents): replayed as it is, since
/// it already is one of many mutations; the named seeds are mutated further.
fn fuzzer_found(name: &str) -> bool {
    name.len() == 40 && name.bytes().all(|b| b.is_ascii_hexdigit())
}

/// `count` offsets spread evenly over `0..=len`, both ends included.
fn offsets(len: usize, count: usize) -> impl Iterator<Item = usize> {
    (0..=count).map(move |i| i * len / count)
}

/// Every corpus file of `target` through `run`, then truncated at evenly spread offsets, and
/// at other evenly spread bytes each bit flipped in turn and each of `significant` written
/// over it. Files are spread over the cores.
fn replay(target: &str, run_one: fn(&[u8]), significant: &[u8]) {
    let files = corpus(target);
    let workers = std::thread::available_parallelism().map_or(1, |n| n.get());
    std::thread::scope(|scope| {
        for chunk in files.chunks(files.len().div_ceil(workers)) {
            scope.spawn(move || {
                for (name, data) in chunk {
                    run(target, run_one, name, data);
                    if fuzzer_found(name) {
                        continue;
                    }
                    for end in offsets(data.len(), 40) {
                        run(
                            target,
                            run_one,
                            &format!("{name} truncated at byte {end}"),
                            &data[..end],
                        );
                    }
                    for at in
                        offsets(data.len().saturating_sub(1), 12).filter(|&at| at < data.len())
                    {
                        let mut mutated = data.clone();
                        for mask in [0x01, 0x02, 0x04, 0x08, 0x10, 0x20, 0x40, 0x80] {
                            mutated[at] = data[at] ^ mask;
                            let what = format!("{name} with byte {at} xor {mask:#04x}");
                            run(target, run_one, &what, &mutated);
                        }
                        for &byte in significant {
                            mutated[at] = byte;
                            let what = format!("{name} with byte {at} set to {byte:#04x}");
                            run(target, run_one, &what, &mutated);
                        }
                    }
                }
            });
        }
    });
}

#[test]
fn list_body_corpus_and_mutations() {
    replay("list_body", list_body_input::run, b"{}[]\":,\\\n ");
}

#[test]
fn watch_lines_corpus_and_mutations() {
    replay("watch_lines", watch_lines_input::run, b"{}[]\":,\\\n ");
}

#[test]
fn kubeconfig_corpus_and_mutations() {
    replay("kubeconfig", kubeconfig_input::run, b":-[{\"#\n /.");
}

#[test]
fn selector_corpus_and_mutations() {
    replay("selector", selector_input::run, b"!=(),<> ");
}

#[test]
fn protobuf_decode_corpus_and_mutations() {
    // Tags of varints and payloads of fields 1 to 3, a continuation byte, the largest one.
    replay(
        "protobuf_decode",
        protobuf_decode_input::run,
        b"\x00\x08\x0a\x10\x12\x1a\x7f\x80\xff",
    );
}

#[test]
fn strategic_merge_corpus_and_mutations() {
    replay(
        "strategic_merge",
        strategic_merge_input::run,
        b"{}[]\":,$\0 ",
    );
}
