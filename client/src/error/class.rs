//! What kind of failure an [`Error`] is, and whether retrying can fix it: what an informer
//! needs to tell a failure that passes (a 503, a dropped connection) from one that needs
//! someone to change something (a 403, an untrusted certificate, an unreadable token).

use super::Error;

/// How a certificate failed verification.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
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

/// What kind of failure an [`Error`] is ([`Error::failure_kind`]).
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum FailureKind {
    /// The server answered with an error `Status` (see [`Error::status_code`] and
    /// [`Error::reason`]).
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

impl Error {
    /// What kind of failure this is.
    pub fn failure_kind(&self) -> FailureKind {
        match self {
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

    /// True when retrying will not fix this without someone changing something: a 400,
    /// 401, 403, 404, 405, 406, 415 or 422 from the server, a certificate that fails
    /// verification, or unusable credentials.
    pub fn is_terminal(&self) -> bool {
        match self.failure_kind() {
            FailureKind::Status => matches!(
                self.status_code(),
                Some(400 | 401 | 403 | 404 | 405 | 406 | 415 | 422)
            ),
            FailureKind::Certificate(_) | FailureKind::Configuration => true,
            _ => false,
        }
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::error::{ApiError, ConfigErrorKind, ErrorKind};

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

    #[test]
    fn which_errors_are_terminal() {
        for code in [400, 401, 403, 404, 422] {
            assert!(api(code).is_terminal(), "{code}");
        }
        for code in [410, 429, 500, 503, 504] {
            assert!(!api(code).is_terminal(), "{code}");
        }
        assert!(
            !Error::other(ErrorKind::Protocol, "list pods", "connection refused").is_terminal()
        );
        let unreadable = Error::config(ConfigErrorKind::Read, "token file /x", "cannot read");
        assert_eq!(unreadable.failure_kind(), FailureKind::Configuration);
        assert!(unreadable.is_terminal());
    }

    #[test]
    fn certificate_failures_are_found_in_the_source_chain() {
        let rustls_err = rustls::Error::InvalidCertificate(rustls::CertificateError::UnknownIssuer);
        let io = std::io::Error::new(std::io::ErrorKind::InvalidData, rustls_err);
        let e = Error::Http {
            context: "list pods at https://x".into(),
            source: Box::new(io),
        };
        assert_eq!(
            e.failure_kind(),
            FailureKind::Certificate(CertificateProblem::UnknownIssuer)
        );
        assert!(e.is_terminal());
        let refused = Error::Http {
            context: "list pods at https://x".into(),
            source: "connection refused".into(),
        };
        assert_eq!(refused.failure_kind(), FailureKind::Transport);
        assert!(!refused.is_terminal());
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
            assert_eq!(e.failure_kind(), FailureKind::Certificate(want), "{err}");
        }
    }
}
