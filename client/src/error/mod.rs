//! The runtime's error type. Every error names the server, resource and step that failed,
//! and every kind of failure can be matched on: the server's `Status` ([`ApiError`], with
//! predicates such as [`Error::is_conflict`]), transport, decoding, configuration
//! ([`ConfigError`] with a [`ConfigErrorKind`]) and the rest ([`ErrorKind`]).

mod class;

pub use class::{CertificateProblem, FailureKind};

use std::time::Duration;

use k8s_openapi::apimachinery::pkg::apis::meta::v1::{Status, StatusDetails};

/// The boxed source error some variants keep.
pub type BoxError = Box<dyn std::error::Error + Send + Sync>;

/// A `Status` answer from the API server (an HTTP error or an ERROR watch event).
#[derive(Debug, Clone, PartialEq)]
pub struct ApiError {
    /// HTTP status code (e.g. 403, 404, 409, 410, 422, 429).
    pub code: u16,
    /// The `Status.reason` (e.g. `Forbidden`, `NotFound`, `AlreadyExists`, `Conflict`, `Expired`).
    pub reason: String,
    /// The `Status.message`.
    pub message: String,
    /// The `Status.details`: the object's name, group and kind, the field causes of an
    /// `Invalid` answer, the server's `retryAfterSeconds`.
    pub details: Option<StatusDetails>,
    /// What was being done: e.g. `list pods at https://10.0.0.1:6443/api/v1/pods`.
    pub context: String,
    /// The delay the server asked for (`Retry-After`, else `details.retryAfterSeconds`), at
    /// most a day, so that adding it to an `Instant` cannot overflow whatever the server sent.
    /// The reflector waits at most its backoff maximum (30 s) however long this is.
    pub retry_after: Option<Duration>,
}

/// The longest `Retry-After` an [`ApiError`] keeps: a server asking for more is not asking
/// for anything a client can honour, and a day still adds to any `Instant` without overflow.
const MAX_RETRY_AFTER_SECS: u64 = 24 * 60 * 60;

/// The `Retry-After` delay of `secs` seconds as an [`ApiError`] keeps it: at most a day, so
/// that a server's `18446744073709551615` cannot overflow arithmetic on it.
pub(crate) fn retry_after_from_secs(secs: u64) -> Duration {
    Duration::from_secs(secs.min(MAX_RETRY_AFTER_SECS))
}

impl ApiError {
    /// An `ApiError` with no details and no `Retry-After`.
    pub fn new(
        code: u16,
        reason: impl Into<String>,
        message: impl Into<String>,
        context: impl Into<String>,
    ) -> Self {
        Self {
            code,
            reason: reason.into(),
            message: message.into(),
            details: None,
            context: context.into(),
            retry_after: None,
        }
    }

    /// An `ApiError` from a decoded `Status`.
    pub fn from_status(status: &Status, context: impl Into<String>) -> Self {
        let retry_after = status
            .details
            .as_ref()
            .and_then(|d| d.retry_after_seconds)
            .and_then(|s| u64::try_from(s).ok())
            .filter(|s| *s > 0)
            .map(retry_after_from_secs);
        Self {
            code: status
                .code
                .and_then(|c| u16::try_from(c).ok())
                .unwrap_or(500),
            reason: status.reason.clone().unwrap_or_default(),
            message: status.message.clone().unwrap_or_default(),
            details: status.details.clone(),
            context: context.into(),
            retry_after,
        }
    }

    /// The field causes of the answer (`details.causes`), e.g. each invalid field of a 422.
    pub fn causes(&self) -> impl Iterator<Item = Cause<'_>> {
        self.details
            .iter()
            .flat_map(|d| d.causes.iter().flatten())
            .map(|c| Cause {
                reason: c.reason.as_deref().unwrap_or_default(),
                message: c.message.as_deref().unwrap_or_default(),
                field: c.field.as_deref().unwrap_or_default(),
            })
    }

    /// True when the reason is `reason`, or the server gave no reason it knows and the
    /// code is `code` (client-go's `ReasonForError` with its code fallback).
    fn is(&self, reason: &str, code: u16) -> bool {
        if self.reason.is_empty() || self.reason == "Unknown" {
            self.code == code
        } else {
            self.reason == reason
        }
    }
}

/// One cause of a failed request (`Status.details.causes[]`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Cause<'a> {
    /// A machine-readable reason, e.g. `FieldValueInvalid`, `FieldValueRequired`.
    pub reason: &'a str,
    /// A human-readable description.
    pub message: &'a str,
    /// The field at fault, e.g. `metadata.name` or `spec.containers[0].image`.
    pub field: &'a str,
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

/// Why a client configuration is unusable.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum ConfigErrorKind {
    /// There is nothing to configure from: no kubeconfig and not in a cluster.
    NotFound,
    /// A file (kubeconfig, CA, key, token, service-account file) cannot be read.
    Read,
    /// A kubeconfig file is not valid YAML of the kubeconfig format.
    Parse,
    /// A required setting or entry is missing (a context, a cluster's server, a key for a certificate).
    Missing,
    /// A setting holds a value that cannot be used (a bad URL, base64, PEM, header value).
    Invalid,
    /// A setting asks for something this client does not do (auth providers, a SOCKS proxy).
    Unsupported,
    /// The TLS configuration cannot be built from the settings.
    Tls,
    /// Credentials cannot be obtained at run time (an exec plugin failed, a token file is empty).
    Credentials,
}

/// A client configuration problem: what kind, where it was configured, and why.
#[derive(Debug)]
pub struct ConfigError {
    /// What kind of problem.
    pub kind: ConfigErrorKind,
    /// Where the setting comes from, e.g. `kubeconfig /home/me/.kube/config: users[0].user.exec`,
    /// `in-cluster config`, `TLS setup for https://10.0.0.1:6443`.
    pub origin: String,
    /// What is wrong.
    pub message: String,
    /// The underlying error, if any (e.g. the I/O error of an unreadable file).
    pub source: Option<BoxError>,
}

impl std::fmt::Display for ConfigError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if self.origin.is_empty() {
            f.write_str(&self.message)?;
        } else {
            write!(f, "{}: {}", self.origin, self.message)?;
        }
        if let Some(source) = &self.source {
            write!(f, ": {source}")?;
        }
        Ok(())
    }
}

impl std::error::Error for ConfigError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        self.source
            .as_deref()
            .map(|e| e as &(dyn std::error::Error + 'static))
    }
}

/// What went wrong, for failures that are neither the server's answer nor transport,
/// decoding or configuration problems.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum ErrorKind {
    /// An argument is unusable: an empty or malformed name, namespace, path or header value,
    /// or an object without the name a call needs. Nothing was sent.
    InvalidArgument,
    /// The call is not allowed in the current state: an informer already started, an index
    /// that already exists, a store that is not empty.
    InvalidState,
    /// Something looked up by name does not exist (an index).
    NotFound,
    /// An object is not of the kind expected.
    WrongKind,
    /// A value could not be encoded (as JSON or YAML).
    Encode,
    /// The server or storage answered something its protocol does not allow (a watch
    /// closed at once, a response without a revision).
    Protocol,
    /// A background task of the client failed (a decoding task panicked).
    Task,
    /// An informer stopped, or its list failed in a way retrying cannot fix, before it synced.
    NotSynced,
    /// A storage backend (etcd) failed in a way it does not classify.
    Backend,
    /// A response, or one watch event or list item in it, is larger than the client allows
    /// ([`Config::max_object_bytes`](crate::client::Config::max_object_bytes),
    /// [`Config::max_body_bytes`](crate::client::Config::max_body_bytes)), counted after
    /// decompression. The rest of it was not read.
    TooLarge,
}

/// Errors of the client and the layers above it.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
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
        source: BoxError,
    },
    /// A response body or watch line could not be decoded.
    #[error("{context}: cannot decode {what}: {source}")]
    Decode {
        /// What was being done, naming the server and resource.
        context: String,
        /// What failed to decode, e.g. a truncated copy of the offending watch line.
        what: String,
        /// The decoder's error (JSON's, or the protobuf decoder's naming the field).
        #[source]
        source: BoxError,
    },
    /// The client configuration (kubeconfig, in-cluster files, exec plugin) is unusable.
    #[error(transparent)]
    Config(Box<ConfigError>),
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
    /// Any other failure: its kind, what was being done and why.
    #[error("{context}: {message}")]
    Other {
        /// What kind of failure.
        kind: ErrorKind,
        /// What was being done, e.g. `informer pods` or `get pods at https://…`.
        context: String,
        /// What went wrong.
        message: String,
    },
}

impl Error {
    /// An [`Error::Config`].
    pub fn config(
        kind: ConfigErrorKind,
        origin: impl Into<String>,
        message: impl Into<String>,
    ) -> Self {
        Error::Config(Box::new(ConfigError {
            kind,
            origin: origin.into(),
            message: message.into(),
            source: None,
        }))
    }

    /// An [`Error::Config`] that keeps its underlying error.
    pub fn config_with_source(
        kind: ConfigErrorKind,
        origin: impl Into<String>,
        message: impl Into<String>,
        source: impl Into<BoxError>,
    ) -> Self {
        Error::Config(Box::new(ConfigError {
            kind,
            origin: origin.into(),
            message: message.into(),
            source: Some(source.into()),
        }))
    }

    /// An [`Error::Other`].
    pub fn other(kind: ErrorKind, context: impl Into<String>, message: impl Into<String>) -> Self {
        Error::Other {
            kind,
            context: context.into(),
            message: message.into(),
        }
    }

    /// The server's answer, for `Api` errors.
    pub fn api(&self) -> Option<&ApiError> {
        match self {
            Error::Api(e) => Some(e),
            _ => None,
        }
    }

    /// The HTTP status code, for `Api` errors.
    pub fn status_code(&self) -> Option<u16> {
        self.api().map(|e| e.code)
    }

    /// The `Status.reason`, for `Api` errors (e.g. `NotFound`, `Conflict`).
    pub fn reason(&self) -> Option<&str> {
        self.api().map(|e| e.reason.as_str())
    }

    /// The configuration problem's kind, for `Config` errors.
    pub fn config_kind(&self) -> Option<ConfigErrorKind> {
        match self {
            Error::Config(e) => Some(e.kind),
            _ => None,
        }
    }

    /// The failure's kind, for `Other` errors.
    pub fn kind(&self) -> Option<ErrorKind> {
        match self {
            Error::Other { kind, .. } => Some(*kind),
            _ => None,
        }
    }

    fn api_is(&self, reason: &str, code: u16) -> bool {
        self.api().is_some_and(|e| e.is(reason, code))
    }

    /// 404 `NotFound`: the object (or the resource) does not exist.
    pub fn is_not_found(&self) -> bool {
        self.api_is("NotFound", 404)
    }

    /// 409 `AlreadyExists`: a create named an object that exists.
    pub fn is_already_exists(&self) -> bool {
        self.api_is("AlreadyExists", 409)
    }

    /// 409 `Conflict`: an update carried a stale resourceVersion, or a precondition failed.
    /// Re-read the object and retry.
    pub fn is_conflict(&self) -> bool {
        self.api_is("Conflict", 409)
    }

    /// 401 `Unauthorized`: the server did not accept the credentials.
    pub fn is_unauthorized(&self) -> bool {
        self.api_is("Unauthorized", 401)
    }

    /// 403 `Forbidden`: the user may not do this.
    pub fn is_forbidden(&self) -> bool {
        self.api_is("Forbidden", 403)
    }

    /// 422 `Invalid`: the object failed validation; [`ApiError::causes`] names the fields.
    pub fn is_invalid(&self) -> bool {
        self.api_is("Invalid", 422)
    }

    /// 429 `TooManyRequests`: throttled; wait [`retry_after`](Self::retry_after) before retrying.
    pub fn is_too_many_requests(&self) -> bool {
        self.api_is("TooManyRequests", 429)
    }

    /// True for 410 Gone / `Expired`: the requested resourceVersion or continue token is too old.
    pub fn is_gone(&self) -> bool {
        matches!(self, Error::Api(e) if e.code == 410 || e.reason == "Expired" || e.reason == "Gone")
    }

    /// The `Retry-After` delay the server asked for, if any.
    pub fn retry_after(&self) -> Option<Duration> {
        self.api().and_then(|e| e.retry_after)
    }
}

impl From<ApiError> for Error {
    fn from(e: ApiError) -> Self {
        Error::Api(Box::new(e))
    }
}

impl From<ConfigError> for Error {
    fn from(e: ConfigError) -> Self {
        Error::Config(Box::new(e))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use k8s_openapi::apimachinery::pkg::apis::meta::v1::StatusCause;

    fn api(code: u16, reason: &str) -> Error {
        ApiError::new(code, reason, "m", "get pods").into()
    }

    #[test]
    fn predicates_follow_the_reason_and_fall_back_to_the_code() {
        assert!(api(409, "Conflict").is_conflict());
        assert!(!api(409, "Conflict").is_already_exists());
        assert!(api(409, "AlreadyExists").is_already_exists());
        assert!(!api(409, "AlreadyExists").is_conflict());
        assert!(api(409, "").is_conflict());
        assert!(api(404, "NotFound").is_not_found());
        assert!(api(404, "").is_not_found());
        assert!(!api(404, "Gone").is_not_found());
        assert!(api(403, "Forbidden").is_forbidden());
        assert!(api(401, "Unauthorized").is_unauthorized());
        assert!(api(422, "Invalid").is_invalid());
        assert!(api(429, "TooManyRequests").is_too_many_requests());
        assert!(api(410, "Expired").is_gone());
        let other = Error::other(ErrorKind::InvalidArgument, "get pods", "empty name");
        assert!(!other.is_not_found());
        assert_eq!(other.kind(), Some(ErrorKind::InvalidArgument));
        assert_eq!(other.to_string(), "get pods: empty name");
    }

    #[test]
    fn status_details_give_causes_and_retry_after() {
        let status = Status {
            code: Some(422),
            reason: Some("Invalid".into()),
            message: Some("ConfigMap \"x\" is invalid".into()),
            details: Some(StatusDetails {
                name: Some("x".into()),
                kind: Some("ConfigMap".into()),
                retry_after_seconds: Some(3),
                causes: Some(vec![StatusCause {
                    field: Some("metadata.name".into()),
                    message: Some("bad".into()),
                    reason: Some("FieldValueInvalid".into()),
                }]),
                ..Default::default()
            }),
            ..Default::default()
        };
        let e = ApiError::from_status(&status, "create configmaps");
        assert_eq!(e.retry_after, Some(Duration::from_secs(3)));
        let causes: Vec<Cause<'_>> = e.causes().collect();
        assert_eq!(
            causes,
            vec![Cause {
                reason: "FieldValueInvalid",
                message: "bad",
                field: "metadata.name"
            }]
        );
    }

    #[test]
    fn config_errors_keep_kind_origin_and_source() {
        let io = std::io::Error::new(std::io::ErrorKind::NotFound, "gone");
        let e =
            Error::config_with_source(ConfigErrorKind::Read, "kubeconfig /x", "cannot read", io);
        assert_eq!(e.config_kind(), Some(ConfigErrorKind::Read));
        assert_eq!(e.to_string(), "kubeconfig /x: cannot read: gone");
        assert!(std::error::Error::source(&e).is_some());
    }
}
