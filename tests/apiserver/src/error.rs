//! Errors of starting, restarting and configuring the server.

use std::net::SocketAddr;

/// Why the server could not start, restart or write a file.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum Error {
    /// The listen address could not be bound.
    #[error("cannot listen on {addr}: {source}")]
    Bind {
        /// The address asked for.
        addr: SocketAddr,
        /// The socket error.
        #[source]
        source: std::io::Error,
    },
    /// The self-signed CA, the serving certificate or the TLS configuration could not be made.
    #[error("cannot set up TLS: {0}")]
    Tls(String),
    /// A file could not be written.
    #[error("cannot write {path}: {source}")]
    Write {
        /// The file.
        path: String,
        /// The I/O error.
        #[source]
        source: std::io::Error,
    },
    /// Seeding the initial objects failed.
    #[error("cannot seed {what}: {source}")]
    Seed {
        /// What was being seeded.
        what: String,
        /// The server's answer.
        #[source]
        source: Box<crate::status::StatusError>,
    },
    /// A socket operation failed (self-bench client side).
    #[error("{context}: {source}")]
    Io {
        /// What was being done.
        context: String,
        /// The I/O error.
        #[source]
        source: std::io::Error,
    },
    /// A CRD given to the builder (or installed at run time) could not be read or was
    /// rejected.
    #[error("cannot install the CRDs of {origin}: {message}")]
    Crd {
        /// The file, or which text.
        origin: String,
        /// What is wrong (the server's message when it rejected a CRD).
        message: String,
    },
}
