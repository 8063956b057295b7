//! One input through the test server's request handling; shared by the fuzz target and the
//! stable test `tests/fuzz_replay.rs`, so that both make exactly the same calls.
//!
//! The input is raw bytes on one HTTP/1.1 connection: request lines, headers, query parameters
//! (`labelSelector`, `fieldSelector`, `limit`, `continue`, `resourceVersion`, `watch`, ...) and
//! bodies of creates, updates, patches and deletes, pipelined. Any answer is fine; panics are
//! bugs, and so is anything written back that is not an HTTP/1.x response (an HTTP/1.0
//! request gets an HTTP/1.0 one).

use test_apiserver::fuzz::exchange;

thread_local! {
    // Paused: waiting for a quiet connection costs nothing once every task waits.
    static RUNTIME: tokio::runtime::Runtime = tokio::runtime::Builder::new_current_thread()
        .enable_time()
        .start_paused(true)
        .build()
        .expect("a current-thread tokio runtime builds");
}

/// Serves `data` on a fresh server, checks what came back and returns it.
pub fn answer(data: &[u8]) -> Vec<u8> {
    let response = RUNTIME
        .with(|rt| rt.block_on(exchange(data)))
        .expect("a fresh test server builds");
    if !response.is_empty() {
        assert!(
            response.starts_with(b"HTTP/1.1 ") || response.starts_with(b"HTTP/1.0 "),
            "the server wrote something else than a response: {:?}",
            String::from_utf8_lossy(&response[..response.len().min(200)])
        );
    }
    response
}
