//! How etcd failures become the runtime's errors, with the codes kube-apiserver uses,
//! so the reflector treats an etcd source exactly like an API server.

use k8s_openapi::apimachinery::pkg::apis::meta::v1::Status;
use tonic::Code;

use informer_client::error::{ApiError, Error};

/// etcd's message for a read or watch below the compaction revision.
const COMPACTED: &str = "required revision has been compacted";
/// etcd's message for a read above the current revision.
const FUTURE_REVISION: &str = "required revision is a future revision";
/// etcd's message for a wrong user name or password.
const AUTH_FAILED: &str = "authentication failed";
/// How tonic starts the message of a response over the client's decoding limit.
const TOO_LARGE: &str = "decoded message length too large";

/// What the API server answers for a watch from a compacted resourceVersion.
pub(crate) const WATCH_EXPIRED_MESSAGE: &str =
    "The resourceVersion for the provided watch is too old.";

/// What the API server answers for a continue token whose revision was compacted.
pub(crate) const CONTINUE_EXPIRED_MESSAGE: &str = "The provided continue parameter is too old to display a consistent list result. You can start a new list without the continue parameter.";

/// An `ApiError` with the given code and reason.
pub(crate) fn api_error(code: u16, reason: &str, message: String, context: &str) -> Error {
    ApiError::new(code, reason, message, context).into()
}

/// 400 BadRequest.
pub(crate) fn bad_request(message: String, context: &str) -> Error {
    api_error(400, "BadRequest", message, context)
}

/// 410 Expired: the error the reflector answers with a relist.
pub(crate) fn expired(message: &str, context: &str) -> Error {
    api_error(410, "Expired", message.to_owned(), context)
}

/// The `Status` of the ERROR event that ends a watch from a compacted revision.
pub(crate) fn expired_status(compact_revision: i64) -> Status {
    Status {
        code: Some(410),
        reason: Some("Expired".to_owned()),
        message: Some(format!(
            "{WATCH_EXPIRED_MESSAGE} (etcd compacted up to revision {compact_revision})"
        )),
        status: Some("Failure".to_owned()),
        ..Default::default()
    }
}

/// True when etcd's answer was larger than [`Etcd::max_response_bytes`](super::Etcd::max_response_bytes).
pub(crate) fn is_too_large(err: &etcd_client::Error) -> bool {
    matches!(err, etcd_client::Error::GRpcStatus(s) if s.code() == Code::OutOfRange && s.message().contains(TOO_LARGE))
}

/// True when etcd refused a read because its revision was compacted.
pub(crate) fn is_compacted(err: &etcd_client::Error) -> bool {
    matches!(err, etcd_client::Error::GRpcStatus(s) if s.code() == Code::OutOfRange && s.message().contains(COMPACTED))
}

/// The runtime error for an etcd client failure during `context`.
///
/// Unreachable etcd or a broken connection → `Error::Http` (the reflector backs off and retries); compaction →
/// 410 Expired; a future revision → 504 Timeout ("Too large resource version", as the API
/// server says); bad credentials → 401; missing permission → 403; invalid client settings →
/// `Error::Config`; anything else etcd reports → 500 InternalError naming etcd's message.
pub(crate) fn from_etcd(err: etcd_client::Error, context: &str) -> Error {
    use etcd_client::Error as E;
    match err {
        E::GRpcStatus(status) => from_grpc_status(status, context),
        E::TransportError(_) | E::IoError(_) | E::WatchError(_) => Error::Http {
            context: format!("{context}: cannot reach etcd"),
            source: Box::new(err),
        },
        E::InvalidArgs(_) | E::InvalidUri(_) | E::EndpointError(_) | E::EndpointsNotManaged => {
            Error::config(
                informer_client::error::ConfigErrorKind::Invalid,
                context,
                format!("unusable etcd client settings: {err}"),
            )
        }
        other => Error::other(
            informer_client::error::ErrorKind::Backend,
            context,
            format!("etcd client failed: {other}"),
        ),
    }
}

fn from_grpc_status(status: tonic::Status, context: &str) -> Error {
    let message = status.message().to_owned();
    match status.code() {
        Code::OutOfRange if message.contains(COMPACTED) => {
            expired(&format!("too old resource version: {message}"), context)
        }
        Code::OutOfRange if message.contains(TOO_LARGE) => api_error(
            500,
            "InternalError",
            format!(
                "etcd's answer is larger than this client accepts ({message}); raise the limit \
                 with Etcd::with_max_response_bytes if such answers are expected"
            ),
            context,
        ),
        Code::OutOfRange if message.contains(FUTURE_REVISION) => api_error(
            504,
            "Timeout",
            format!("Too large resource version: {message}"),
            context,
        ),
        Code::Unauthenticated => api_error(401, "Unauthorized", message, context),
        Code::InvalidArgument if message.contains(AUTH_FAILED) => {
            api_error(401, "Unauthorized", message, context)
        }
        Code::PermissionDenied => api_error(403, "Forbidden", message, context),
        // tonic reports a broken HTTP/2 connection (etcd killed mid-stream) as Unknown.
        Code::Unavailable | Code::DeadlineExceeded | Code::Cancelled | Code::Unknown => {
            Error::Http {
                context: format!("{context}: cannot reach etcd"),
                source: Box::new(status),
            }
        }
        _ => api_error(
            500,
            "InternalError",
            format!("etcd answered {:?}: {message}", status.code()),
            context,
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn grpc(code: Code, msg: &str) -> etcd_client::Error {
        etcd_client::Error::GRpcStatus(tonic::Status::new(code, msg))
    }

    #[test]
    fn maps_etcd_failures_to_api_server_codes() {
        let compacted = grpc(
            Code::OutOfRange,
            "etcdserver: mvcc: required revision has been compacted",
        );
        assert!(is_compacted(&compacted));
        let e = from_etcd(compacted, "list pods");
        assert!(e.is_gone());
        assert!(e.to_string().starts_with("list pods"));

        let future = grpc(
            Code::OutOfRange,
            "etcdserver: mvcc: required revision is a future revision",
        );
        assert_eq!(from_etcd(future, "x").status_code(), Some(504));
        let auth = grpc(
            Code::InvalidArgument,
            "etcdserver: authentication failed, invalid user ID or password",
        );
        assert_eq!(from_etcd(auth, "x").status_code(), Some(401));
        let denied = grpc(Code::PermissionDenied, "etcdserver: permission denied");
        assert_eq!(from_etcd(denied, "x").status_code(), Some(403));
        assert!(matches!(
            from_etcd(grpc(Code::Unavailable, "down"), "x"),
            Error::Http { .. }
        ));
        assert_eq!(
            from_etcd(grpc(Code::ResourceExhausted, "too big"), "x").status_code(),
            Some(500)
        );
    }

    #[test]
    fn expired_status_is_what_the_reflector_relists_on() {
        let s = expired_status(7);
        assert_eq!(s.code, Some(410));
        assert_eq!(s.reason.as_deref(), Some("Expired"));
    }
}
