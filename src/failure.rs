//! Why an informer has not synced: the last list or watch failure, classified so that
//! `wait_for_cache_sync` can tell a failure retrying will not fix (a 403, an untrusted
//! certificate, an unreadable token) from one that passes (a 503, a dropped connection).

use std::fmt;
use std::sync::Arc;
use std::time::Duration;

use crate::error::Error;

/// Which request failed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Step {
    /// A list (or the opening of a streaming list).
    List,
    /// A watch.
    Watch,
}

impl fmt::Display for Step {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Step::List => "list",
            Step::Watch => "watch",
        })
    }
}

/// How a certificate failed verification.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum CertificateProblem {
    /// Not signed by a CA the client trusts (a wrong or missing `certificate-authority`;
    /// also when a trusted CA has the issuer's name but not its key).
    UnknownIssuer,
    /// Not issued for the host name or address the client connected to.
    WrongName,
    /// Expired.
    Expired,
    /// Not valid yet.
    NotValidYet,
    /// Revoked.
    Revoked,
    /// Any other verification failure, as rustls words it.
    Other(String),
}

/// What kind of failure a list or watch hit.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum FailureKind {
    /// The server answered with an error `Status` (see [`ListFailure::code`] and
    /// [`ListFailure::reason`]).
    Status,
    /// The server's TLS certificate failed verification.
    Certificate(CertificateProblem),
    /// The client's configuration or credentials are unusable (an unreadable token file, a
    /// failing exec plugin, a bad client key).
    Configuration,
    /// The connection failed or broke (refused, reset, timed out).
    Transport,
    /// A response could not be decoded.
    Decode,
    /// Anything else.
    Other,
}

/// A failed list or watch of an informer.
#[derive(Clone, Debug)]
pub struct ListFailure {
    /// The request that failed.
    pub step: Step,
    /// The HTTP status, when the server answered with an error `Status`.
    pub code: Option<u16>,
    /// The `Status.reason` (e.g. `Forbidden`), when the server gave one.
    pub reason: Option<String>,
    /// What kind of failure it is.
    pub kind: FailureKind,
    /// True when retrying will not fix it without someone changing something: a 400, 401,
    /// 403, 404, 405, 406, 415 or 422, a certificate that fails verification, or unusable
    /// credentials. The reflector keeps retrying with backoff all the same.
    pub terminal: bool,
    /// The error itself, with the server, resource and step it names.
    pub error: Arc<Error>,
}

impl ListFailure {
    /// Classifies `error`, a failure of `step`.
    pub fn new(step: Step, error: Error) -> Self {
        let code = error.status_code();
        let reason = match &error {
            Error::Api(e) if !e.reason.is_empty() => Some(e.reason.clone()),
            _ => None,
        };
        let kind = classify(&error);
        let terminal = match &kind {
            FailureKind::Status => is_terminal_status(code),
            FailureKind::Certificate(_) | FailureKind::Configuration => true,
            FailureKind::Transport | FailureKind::Decode | FailureKind::Other => false,
        };
        Self {
            step,
            code,
            reason,
            kind,
            terminal,
            error: Arc::new(error),
        }
    }
}

impl fmt::Display for ListFailure {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.error.fmt(f)
    }
}

fn is_terminal_status(code: Option<u16>) -> bool {
    matches!(code, Some(400 | 401 | 403 | 404 | 405 | 406 | 415 | 422))
}

fn classify(error: &Error) -> FailureKind {
    match error {
        Error::Api(_) => FailureKind::Status,
        Error::Config(_) => FailureKind::Configuration,
        Error::Decode { .. } => FailureKind::Decode,
        Error::Http { source, .. } => match certificate_problem(source.as_ref()) {
            Some(problem) => FailureKind::Certificate(problem),
            None => FailureKind::Transport,
        },
        _ => FailureKind::Other,
    }
}

/// The certificate verification failure somewhere in `error`'s source chain.
fn certificate_problem(error: &(dyn std::error::Error + 'static)) -> Option<CertificateProblem> {
    let mut next = Some(error);
    while let Some(e) = next {
        if let Some(rustls::Error::InvalidCertificate(c)) = e.downcast_ref::<rustls::Error>() {
            return Some(problem_of(c));
        }
        // `io::Error::source` skips the error it wraps, which is where TLS streams put
        // rustls's error.
        if let Some(inner) = e
            .downcast_ref::<std::io::Error>()
            .and_then(|io| io.get_ref())
        {
            if let Some(rustls::Error::InvalidCertificate(c)) =
                inner.downcast_ref::<rustls::Error>()
            {
                return Some(problem_of(c));
            }
        }
        next = e.source();
    }
    certificate_problem_in_text(&error.to_string())
}

fn problem_of(c: &rustls::CertificateError) -> CertificateProblem {
    use rustls::CertificateError as C;
    match c {
        C::UnknownIssuer | C::BadSignature => CertificateProblem::UnknownIssuer,
        C::NotValidForName | C::NotValidForNameContext { .. } => CertificateProblem::WrongName,
        C::Expired | C::ExpiredContext { .. } => CertificateProblem::Expired,
        C::NotValidYet | C::NotValidYetContext { .. } => CertificateProblem::NotValidYet,
        C::Revoked => CertificateProblem::Revoked,
        other => CertificateProblem::Other(other.to_string()),
    }
}

/// The client flattens transport errors into text (the source chain is not kept), so the
/// rustls error is recognised by the words rustls's `Display` writes for it.
fn certificate_problem_in_text(text: &str) -> Option<CertificateProblem> {
    let (_, rest) = text.split_once("invalid peer certificate: ")?;
    let problem = if rest.starts_with("UnknownIssuer") || rest.starts_with("BadSignature") {
        CertificateProblem::UnknownIssuer
    } else if rest.starts_with("certificate not valid for name")
        || rest.starts_with("NotValidForName")
    {
        CertificateProblem::WrongName
    } else if rest.starts_with("certificate expired") || rest.starts_with("Expired") {
        CertificateProblem::Expired
    } else if rest.starts_with("certificate not valid yet") || rest.starts_with("NotValidYet") {
        CertificateProblem::NotValidYet
    } else if rest.starts_with("Revoked") {
        CertificateProblem::Revoked
    } else {
        CertificateProblem::Other(rest.split(": ").next().unwrap_or(rest).to_owned())
    };
    Some(problem)
}

/// An informer that had not synced when a wait gave up, with its last failure.
#[derive(Clone, Debug)]
pub struct Unsynced {
    /// The informer, e.g. `core/v1/pods`.
    pub informer: String,
    /// Its last list or watch failure, if any.
    pub last_failure: Option<ListFailure>,
}

impl fmt::Display for Unsynced {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.last_failure {
            Some(failure) => write!(
                f,
                "{} (last {} failure: {failure})",
                self.informer, failure.step
            ),
            None => write!(f, "{} (no failure seen)", self.informer),
        }
    }
}

/// Why an informer cannot sync.
#[derive(Clone, Debug)]
pub enum SyncErrorKind {
    /// Its list failed in a way retrying will not fix (see [`ListFailure::terminal`]).
    Failed(ListFailure),
    /// It stopped before it synced.
    Stopped,
    /// The wait gave up after `after`; `pending` are the informers not synced by then.
    Timeout {
        /// How long the wait lasted.
        after: Duration,
        /// Every informer not synced, with its last failure.
        pending: Vec<Unsynced>,
    },
}

/// Why `wait_for_cache_sync` failed: names the informer and the server's reason.
#[derive(Clone, Debug, thiserror::Error)]
#[error("informer {informer} cannot sync: {kind}")]
pub struct SyncError {
    /// The informer, e.g. `core/v1/pods` (after a timeout, every unsynced one, joined by `, `).
    pub informer: String,
    /// Why, for callers to match on.
    pub kind: SyncErrorKind,
}

impl fmt::Display for SyncErrorKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SyncErrorKind::Failed(failure) => failure.fmt(f),
            SyncErrorKind::Stopped => f.write_str("the informer stopped before it synced"),
            SyncErrorKind::Timeout { after, pending } => {
                write!(f, "not synced after {after:?}: ")?;
                for (i, p) in pending.iter().enumerate() {
                    if i > 0 {
                        f.write_str("; ")?;
                    }
                    p.fmt(f)?;
                }
                Ok(())
            }
        }
    }
}

impl SyncError {
    /// The informer's terminal failure, when that is why.
    pub fn failure(&self) -> Option<&ListFailure> {
        match &self.kind {
            SyncErrorKind::Failed(f) => Some(f),
            _ => None,
        }
    }

    /// The HTTP status the server answered, when a terminal failure was a server `Status`.
    pub fn status_code(&self) -> Option<u16> {
        self.failure().and_then(|f| f.code)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::error::ApiError;

    fn api(code: u16) -> Error {
        Error::from(ApiError {
            code,
            reason: String::new(),
            message: String::new(),
            details: None,
            context: "list pods".into(),
            retry_after: None,
        })
    }

    fn terminal(e: Error) -> bool {
        ListFailure::new(Step::List, e).terminal
    }

    #[test]
    fn which_list_errors_are_terminal() {
        for code in [400, 401, 403, 404, 422] {
            assert!(terminal(api(code)), "{code}");
        }
        for code in [410, 429, 500, 503, 504] {
            assert!(!terminal(api(code)), "{code}");
        }
        assert!(!terminal(Error::other(
            crate::error::ErrorKind::Protocol,
            "list pods",
            "connection refused"
        )));
        let unreadable = Error::config(
            crate::error::ConfigErrorKind::Read,
            "token file /x",
            "cannot read",
        );
        assert_eq!(classify(&unreadable), FailureKind::Configuration);
        assert!(terminal(unreadable));
    }

    #[test]
    fn certificate_failures_are_found_in_the_source_chain() {
        let rustls_err = rustls::Error::InvalidCertificate(rustls::CertificateError::UnknownIssuer);
        let io = std::io::Error::new(std::io::ErrorKind::InvalidData, rustls_err);
        let e = Error::Http {
            context: "list pods at https://x".into(),
            source: Box::new(io),
        };
        let f = ListFailure::new(Step::List, e);
        assert_eq!(
            f.kind,
            FailureKind::Certificate(CertificateProblem::UnknownIssuer)
        );
        assert!(f.terminal);
        let refused = Error::Http {
            context: "list pods at https://x".into(),
            source: "connection refused".into(),
        };
        let f = ListFailure::new(Step::List, refused);
        assert_eq!(f.kind, FailureKind::Transport);
        assert!(!f.terminal);
    }

    #[test]
    fn certificate_failures_are_found_in_flattened_text() {
        let expired = rustls::Error::InvalidCertificate(rustls::CertificateError::Expired);
        let wrong_name =
            rustls::Error::InvalidCertificate(rustls::CertificateError::NotValidForName);
        for (err, want) in [
            (expired, CertificateProblem::Expired),
            (wrong_name, CertificateProblem::WrongName),
        ] {
            let e = Error::Http {
                context: "watch pods".into(),
                source: format!("sending the request: error sending request: {err}").into(),
            };
            assert_eq!(classify(&e), FailureKind::Certificate(want), "{err}");
        }
    }
}
