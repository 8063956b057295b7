//! Entry point for the fuzz target over request handling (`fuzz/`, cargo-fuzz) and its replay
//! test `tests/fuzz_replay.rs`: raw bytes served as one HTTP/1.1 connection by a fresh,
//! seeded server over an in-memory pipe, through hyper's parser and the same handler as a
//! TCP connection. Not a stable API.

use std::time::Duration;

use hyper::server::conn::http1;
use hyper::service::service_fn;
use hyper_util::rt::TokioIo;
use tokio::io::{AsyncReadExt, AsyncWriteExt};

use crate::http::handle;
use crate::server::TestApiServer;

/// The bearer token that may do anything.
pub const TOKEN: &str = "fuzz-token";

/// A bearer token that may only touch Pods.
pub const PODS_TOKEN: &str = "fuzz-pods-token";

/// Response bytes read at most: a watch never ends by itself.
const MAX_RESPONSE: usize = 1 << 20;

/// How long the connection may stay quiet before the exchange ends. With tokio's clock paused
/// (as the fuzz target and the replay test run it) this passes as soon as every task waits.
const QUIET: Duration = Duration::from_secs(5);

/// Serves `request` (one or more raw HTTP/1.1 requests, pipelined) on a fresh server seeded
/// with two namespaces and three Pods, with [`TOKEN`] and [`PODS_TOKEN`] as its only bearer
/// tokens. Returns what the server wrote until it closed the connection, went quiet or wrote
/// `MAX_RESPONSE` bytes.
///
/// A panic while serving (in hyper's connection task or the handler) is resumed here: it is
/// the bug a fuzzer looks for.
pub async fn exchange(request: &[u8]) -> Result<Vec<u8>, crate::Error> {
    let state = TestApiServer::builder()
        .seed_namespaces(2)
        .seed_pods(3)
        .token(TOKEN)
        .token_with_access(PODS_TOKEN, &["pods"])
        .build_state()?;
    let (mut client, server) = tokio::io::duplex(64 * 1024);
    let service = service_fn(move |req| handle(state.clone(), req));
    let connection = tokio::spawn(async move {
        // A malformed request ends the connection with an error: that is hyper's answer.
        let _ = http1::Builder::new()
            .serve_connection(TokioIo::new(server), service)
            .await;
    });
    let mut response = Vec::new();
    // The server may close before it has read everything (a malformed head): a failed write
    // is not an error of the exchange. The write side stays open, as a client's that waits for
    // its answers: hyper ends a connection at the EOF of a half-close, pipelined requests
    // unanswered.
    let _ = client.write_all(request).await;
    let mut buf = vec![0; 16 * 1024];
    while response.len() < MAX_RESPONSE {
        match tokio::time::timeout(QUIET, client.read(&mut buf)).await {
            Ok(Ok(0)) | Ok(Err(_)) | Err(_) => break,
            Ok(Ok(n)) => response.extend_from_slice(&buf[..n]),
        }
    }
    drop(client);
    let abort = connection.abort_handle();
    match tokio::time::timeout(QUIET, connection).await {
        Ok(Err(e)) if e.is_panic() => std::panic::resume_unwind(e.into_panic()),
        Ok(_) => {}
        // Still serving with its peer gone (a handler that waits on nothing the pipe can
        // end): stop it, the answer is complete.
        Err(_) => abort.abort(),
    }
    Ok(response)
}
