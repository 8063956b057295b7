//! The tokio runtime the decoder targets drive the decode pool on: one per thread, kept, since
//! building one per input would dwarf the decoding.

use std::future::Future;

thread_local! {
    static RUNTIME: tokio::runtime::Runtime = tokio::runtime::Builder::new_current_thread()
        .build()
        .expect("a current-thread tokio runtime builds");
}

/// Runs `fut` to completion on this thread's runtime.
pub fn block_on<F: Future>(fut: F) -> F::Output {
    RUNTIME.with(|rt| rt.block_on(fut))
}
