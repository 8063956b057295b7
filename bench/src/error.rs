//! What can go wrong while benchmarking, with the step and the object named.

/// A benchmark step failed.
#[derive(Debug, thiserror::Error)]
pub enum BenchError {
    /// Bad command line.
    #[error("usage: {0}")]
    Usage(String),
    /// A file could not be read or written.
    #[error("{action} {path}: {source}")]
    Io {
        /// What was being done (`write`, `create directory`, ...).
        action: &'static str,
        /// The file.
        path: String,
        /// The cause.
        source: std::io::Error,
    },
    /// Encoding something as JSON failed.
    #[error("encode {what} as JSON: {source}")]
    Encode {
        /// What was encoded.
        what: String,
        /// The cause.
        source: serde_json::Error,
    },
    /// Decoding a server response failed.
    #[error("decode {what}: {source}")]
    Decode {
        /// What was decoded, and from where.
        what: String,
        /// The cause.
        source: serde_json::Error,
    },
    /// An HTTP request to the test server failed.
    #[error("{step} at {url}: {reason}")]
    Http {
        /// The request, e.g. `GET pods list`.
        step: String,
        /// The URL.
        url: String,
        /// Why.
        reason: String,
    },
    /// The test server child process misbehaved.
    #[error("test server process: {0}")]
    Server(String),
    /// The measured informer failed.
    #[error("{who}: {reason}")]
    Informer {
        /// Which informer (`ours`, `kube-rs`).
        who: String,
        /// Why.
        reason: String,
    },
    /// A step did not finish in its generous time limit.
    #[error("{0} did not finish within {1:?}")]
    Timeout(String, std::time::Duration),
    /// An external command (cargo, the generator) failed.
    #[error("{command}: {reason}")]
    Command {
        /// The command line.
        command: String,
        /// Why.
        reason: String,
    },
}
