//! Why an informer has not synced: the last list or watch failure, classified so that
//! `wait_for_cache_sync` can tell a failure retrying will not fix (a 403, an untrusted
//! certificate, an unreadable token) from one that passes (a 503, a dropped connection).

use std::fmt;
use std::sync::Arc;
use std::time::Duration;

use crate::error::Error;
pub use crate::error::{CertificateProblem, FailureKind};

/// Which request failed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
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

/// A failed list or watch of an informer.
#[derive(Clone, Debug)]
pub struct ListFailure {
    /// The request that failed.
    pub step: Step,
    /// The HTTP status, when the server answered with an error `Status`.
    pub code: Option<u16>,
    /// The `Status.reason` (e.g. `Forbidden`), when the server gave one.
    pub reason: Option<String>,
    /// What kind of failure it is ([`Error::failure_kind`]).
    pub kind: FailureKind,
    /// True when retrying will not fix it without someone changing something
    /// ([`Error::is_terminal`]). The reflector keeps retrying with backoff all the same.
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
        let kind = error.failure_kind();
        let terminal = error.is_terminal();
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
#[non_exhaustive]
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

    #[test]
    fn a_list_failure_carries_the_errors_classification() {
        let forbidden = Error::from(ApiError {
            code: 403,
            reason: "Forbidden".into(),
            message: String::new(),
            details: None,
            context: "list pods".into(),
            retry_after: None,
        });
        let f = ListFailure::new(Step::List, forbidden);
        assert_eq!(
            (f.code, f.reason.as_deref()),
            (Some(403), Some("Forbidden"))
        );
        assert_eq!(f.kind, FailureKind::Status);
        assert!(f.terminal);
    }
}
