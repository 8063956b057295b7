//! The runtime's error type. Every error names the server, resource and step that failed.

use std::time::Duration;

use k8s_openapi::apimachinery::pkg::apis::meta::v1::Status;

/// A `Status` answer from the API server (an HTTP error or an ERROR watch event).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ApiError {
    /// HTTP status code (e.g. 403, 404, 410, 429).
    pub code: u16,
    /// The `Status.reason` (e.g. `Forbidden`, `NotFound`, `Expired`).
    pub reason: String,
    /// The `Status.message`.
    pub message: String,
    /// What was being done: e.g. `list pods at https://10.0.0.1:6443/api/v1/pods`.
    pub context: String,
    /// The `Retry-After` delay the server asked for, if any.
    pub retry_after: Option<Duration>,
}

impl ApiError {
    /// An `ApiError` from a decoded `Status`.
    pub fn from_status(status: &Status, context: impl Into<String>) -> Self {
        Self {
            code: status
                .code
                .and_then(|c| u16::try_from(c).ok())
                .unwrap_or(500),
            reason: status.reason.clone().unwrap_or_default(),
            message: status.message.clone().unwrap_or_default(),
            context: context.into(),
            retry_after: None,
        }
    }
}

impl std::fmt::Display for ApiError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{}: the server answered {} {}: {}",
            self.context, self.code, self.reason, self.message
        )
    }
}

/// Errors of the runtime and its client.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// The API server answered with an error `Status`.
    #[error("{0}")]
    Api(Box<ApiError>),
    /// The request could not be sent or the response not read (connection refused, TLS, timeout).
    #[error("{context}: {source}")]
    Http {
        /// What was being done, naming the server and resource.
        context: String,
        /// The underlying transport error.
        #[source]
        source: Box<dyn std::error::Error + Send + Sync>,
    },
    /// A response body or watch line could not be decoded.
    #[error("{context}: cannot decode {what}: {source}")]
    Decode {
        /// What was being done, naming the server and resource.
        context: String,
        /// What failed to decode, e.g. a truncated copy of the offending watch line.
        what: String,
        /// The decoder's error.
        #[source]
        source: serde_json::Error,
    },
    /// The client configuration (kubeconfig, in-cluster files, exec plugin) is unusable.
    #[error("{0}")]
    Config(String),
    /// Discovery found no such resource (or group-version) on the server.
    #[error("resource {resource} is not served by {server}: {reason}")]
    UnknownResource {
        /// The resource looked for, e.g. `example.com/v1/gizmos` or `kind Gizmo in group "example.com"`.
        resource: String,
        /// The server's base URL.
        server: String,
        /// What discovery found instead.
        reason: String,
    },
    /// Any other failure, with its context.
    #[error("{0}")]
    Other(String),
}

impl Error {
    /// The HTTP status code, for `Api` errors.
    pub fn status_code(&self) -> Option<u16> {
        match self {
            Error::Api(e) => Some(e.code),
            _ => None,
        }
    }

    /// True for 410 Gone / `Expired`: the requested resourceVersion or continue token is too old.
    pub fn is_gone(&self) -> bool {
        matches!(self, Error::Api(e) if e.code == 410 || e.reason == "Expired" || e.reason == "Gone")
    }

    /// The `Retry-After` delay the server asked for, if any.
    pub fn retry_after(&self) -> Option<Duration> {
        match self {
            Error::Api(e) => e.retry_after,
            _ => None,
        }
    }
}

impl From<ApiError> for Error {
    fn from(e: ApiError) -> Self {
        Error::Api(Box::new(e))
    }
}
