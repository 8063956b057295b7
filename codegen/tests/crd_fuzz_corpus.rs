//! The fuzz target over the CRD reader (`fuzz/`, cargo-fuzz, nightly only), run on stable over a
//! fixed set of inputs: its corpus, systematic mutations of it (truncations, byte flips,
//! YAML-significant bytes written over others), and every shared CRD truncated at several
//! offsets. Any result is fine; a panic fails the test and names the input that caused it.

use std::panic::{self, AssertUnwindSafe};
use std::path::{Path, PathBuf};

#[path = "../fuzz/fuzz_targets/crd_reader_input.rs"]
mod crd_reader_input;

fn manifest_dir() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// The files of `dir`, sorted, with their contents.
fn files(dir: &Path) -> Vec<(PathBuf, Vec<u8>)> {
    let mut files: Vec<(PathBuf, Vec<u8>)> = std::fs::read_dir(dir)
        .unwrap()
        .map(|entry| entry.unwrap().path())
        .filter(|path| path.is_file())
        .map(|path| {
            let data = std::fs::read(&path).unwrap();
            (path, data)
        })
        .collect();
    files.sort();
    files
}

/// Runs one input; on a panic, says which input it was (and keeps the bytes for a reproducer).
fn run(what: &str, data: &[u8]) {
    if panic::catch_unwind(AssertUnwindSafe(|| crd_reader_input::run(data))).is_err() {
        let path = std::env::temp_dir().join("crd-fuzz-corpus-panic.yaml");
        let _ = std::fs::write(&path, data);
        panic!(
            "the CRD reader panicked on {what} (input written to {})",
            path.display()
        );
    }
}

/// `count` offsets spread evenly over `0..=len`, both ends included.
fn offsets(len: usize, count: usize) -> impl Iterator<Item = usize> {
    (0..=count).map(move |i| i * len / count)
}

/// Truncations at evenly spread offsets; at other evenly spread bytes, each bit flipped in turn
/// and a YAML-significant byte written over it. Spreading keeps the test fast in debug builds
/// (a valid variant costs a full render) while every region of the file is hit.
fn mutations_never_panic(name: &str, data: &[u8]) {
    run(name, data);
    for end in offsets(data.len(), 80) {
        run(&format!("{name} truncated at byte {end}"), &data[..end]);
    }
    for at in offsets(data.len().saturating_sub(1), 20).filter(|&at| at < data.len()) {
        let mut mutated = data.to_vec();
        for mask in [0x01, 0x02, 0x04, 0x08, 0x10, 0x20, 0x40, 0x80] {
            mutated[at] = data[at] ^ mask;
            run(&format!("{name} with byte {at} xor {mask:#04x}"), &mutated);
        }
        for byte in *b":-[{\"#\n " {
            mutated[at] = byte;
            run(
                &format!("{name} with byte {at} set to {byte:#04x}"),
                &mutated,
            );
        }
    }
}

#[test]
fn corpus_and_its_mutations_never_panic() {
    let corpus = files(&manifest_dir().join("fuzz/corpus/crd_reader"));
    assert!(!corpus.is_empty());
    // Fuzzing adds files to the corpus: spread them over the cores.
    let workers = std::thread::available_parallelism().map_or(1, |n| n.get());
    std::thread::scope(|scope| {
        for chunk in corpus.chunks(corpus.len().div_ceil(workers)) {
            scope.spawn(move || {
                for (path, data) in chunk {
                    mutations_never_panic(&path.file_name().unwrap().to_string_lossy(), data);
                }
            });
        }
    });
}

#[test]
fn shared_crds_truncated_never_panic() {
    let shared = files(&manifest_dir().join("../../shared/crds"));
    let crds: Vec<_> = shared
        .iter()
        .filter(|(path, _)| path.extension().is_some_and(|e| e == "yaml"))
        .collect();
    assert_eq!(crds.len(), 22);
    for (path, data) in crds {
        let name = path.file_name().unwrap().to_string_lossy();
        // Within the first 24 KiB, where every manifest's header and first schema are: cut
        // anywhere, but parsing megabytes per cut would make this test slow, not stronger.
        let window = data.len().min(24 * 1024);
        for end in offsets(window, 8) {
            run(&format!("{name} truncated at byte {end}"), &data[..end]);
        }
    }
}
