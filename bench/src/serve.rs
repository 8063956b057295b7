//! `bench serve`: the test API server child (see `server_process` for the protocol).

use crate::cli::ServeArgs;
use crate::error::BenchError;

/// Serves until stdin closes.
pub async fn serve(args: ServeArgs) -> Result<(), BenchError> {
    let _ = args;
    Err(BenchError::Server(
        "the test API server is not merged yet".into(),
    ))
}
