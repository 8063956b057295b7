//! The fuzz target over request handling (`fuzz/`, cargo-fuzz, nightly only), run on stable
//! over fixed inputs: its corpus (requests as the runtime's client sends them: lists with
//! selectors and pages, watches, creates, updates, patches, deletes, discovery, and a
//! minimized sample of what the fuzzer reached) and systematic mutations of the named seeds
//! (truncations, bit flips, bytes that matter to HTTP, URLs and JSON written over others). A panic anywhere in the
//! server, including the tasks that stream lists and watches, fails the test and names the
//! input.

use std::panic::{self, AssertUnwindSafe};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Once;

#[path = "../fuzz/fuzz_targets/request_input.rs"]
mod request_input;

/// Panics seen anywhere in this process: the server's own tasks catch theirs, the hook still
/// counts them.
static PANICS: AtomicUsize = AtomicUsize::new(0);

fn count_panics() {
    static HOOK: Once = Once::new();
    HOOK.call_once(|| {
        let default = panic::take_hook();
        panic::set_hook(Box::new(move |info| {
            PANICS.fetch_add(1, Ordering::SeqCst);
            default(info);
        }));
    });
}

/// The corpus files, sorted, with their contents.
fn corpus() -> Vec<(String, Vec<u8>)> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("fuzz/corpus/request");
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

/// Runs one input and returns the answer; on a panic, says which input it was and keeps the
/// bytes.
fn run(what: &str, data: &[u8]) -> Vec<u8> {
    let before = PANICS.load(Ordering::SeqCst);
    let answer = panic::catch_unwind(AssertUnwindSafe(|| request_input::answer(data)));
    if answer.is_err() || PANICS.load(Ordering::SeqCst) != before {
        let path = std::env::temp_dir().join("fuzz-replay-request-panic");
        let _ = std::fs::write(&path, data);
        panic!(
            "the test server panicked on {what} (input written to {})",
            path.display()
        );
    }
    answer.unwrap_or_default()
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

/// The status lines of the responses in `response` (a response follows the previous body
/// directly).
fn status_lines(response: &[u8]) -> Vec<String> {
    let text = String::from_utf8_lossy(response);
    text.match_indices("HTTP/1.")
        .filter_map(|(at, _)| text[at..].split("\r\n").next())
        .map(str::to_owned)
        .collect()
}

#[test]
fn corpus_and_its_mutations_never_panic() {
    count_panics();
    let files = corpus();
    let workers = std::thread::available_parallelism().map_or(1, |n| n.get());
    std::thread::scope(|scope| {
        for chunk in files.chunks(files.len().div_ceil(workers)) {
            scope.spawn(move || {
                for (name, data) in chunk {
                    let answer = run(name, data);
                    if fuzzer_found(name) {
                        continue;
                    }
                    // A seed is a well-formed request: it gets an answer (proof that the
                    // exchange reaches the server).
                    assert!(!status_lines(&answer).is_empty(), "{name} got no answer");
                    for end in offsets(data.len(), 24) {
                        let _ = run(&format!("{name} truncated at byte {end}"), &data[..end]);
                    }
                    for at in
                        offsets(data.len().saturating_sub(1), 10).filter(|&at| at < data.len())
                    {
                        let mut mutated = data.clone();
                        for mask in [0x01, 0x02, 0x04, 0x08, 0x10, 0x20, 0x40, 0x80] {
                            mutated[at] = data[at] ^ mask;
                            let _ =
                                run(&format!("{name} with byte {at} xor {mask:#04x}"), &mutated);
                        }
                        for &byte in b" /?&=%+\r\n:{}\"0" {
                            mutated[at] = byte;
                            run(
                                &format!("{name} with byte {at} set to {byte:#04x}"),
                                &mutated,
                            );
                        }
                    }
                }
            });
        }
    });
}
