//! [`EtcdTls`]: what etcdctl's `--cacert`, `--cert`, `--key` and a server name give, checked
//! when it is built so that a bad file fails there, naming it, and not as a vague transport
//! error on the first read.

use std::path::Path;
use std::sync::Arc;

use etcd_client::{Certificate, Identity, TlsOptions};
use rustls::client::ClientConfig;
use rustls::RootCertStore;
use rustls_pki_types::pem::PemObject;
use rustls_pki_types::{CertificateDer, PrivateKeyDer, ServerName};

use informer_client::error::{ConfigErrorKind, Error};

const ORIGIN: &str = "etcd TLS";

/// TLS settings for [`Etcd::connect_tls`](super::Etcd::connect_tls): the CA that signed
/// etcd's serving certificate (etcd clusters run their own CA: `--trusted-ca-file` on the
/// server, `--cacert` for etcdctl), optionally a client certificate and key (etcd's
/// `--client-cert-auth`; etcdctl's `--cert` and `--key`), and optionally the name to verify
/// the server's certificate against when it differs from the endpoint's host.
///
/// The server's certificate is always verified, against this CA only (not the system's
/// roots); there is no way to skip verification. TLS is rustls with ring, as for the HTTP
/// client. `Debug` shows neither the key nor the certificates.
///
/// ```no_run
/// # async fn run() -> Result<(), informer_runtime::Error> {
/// use informer_etcd::{Etcd, EtcdTls};
///
/// let tls = EtcdTls::from_ca_file("/etc/etcd/pki/ca.crt")?
///     .with_client_identity_files("/etc/etcd/pki/client.crt", "/etc/etcd/pki/client.key")?;
/// let etcd = Etcd::connect_tls(&["https://10.0.0.1:2379"], &tls, None).await?;
/// # Ok(()) }
/// ```
#[derive(Clone)]
pub struct EtcdTls {
    ca_pem: Vec<u8>,
    identity: Option<ClientIdentity>,
    server_name: Option<String>,
}

#[derive(Clone)]
struct ClientIdentity {
    cert_pem: Vec<u8>,
    key_pem: Vec<u8>,
}

impl std::fmt::Debug for EtcdTls {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("EtcdTls")
            .field("ca", &"<PEM>")
            .field(
                "client_identity",
                &self
                    .identity
                    .as_ref()
                    .map(|_| "<certificate and redacted key>"),
            )
            .field("server_name", &self.server_name)
            .finish()
    }
}

impl EtcdTls {
    /// Trusts the CA certificates in `ca_pem` (PEM; one or more). Fails unless it holds at
    /// least one certificate rustls accepts as a trust anchor.
    pub fn new(ca_pem: impl Into<Vec<u8>>) -> Result<Self, Error> {
        Self::from_ca(ca_pem.into(), "the CA")
    }

    /// Trusts the CA certificates in the PEM file at `path`.
    pub fn from_ca_file(path: impl AsRef<Path>) -> Result<Self, Error> {
        let path = path.as_ref();
        let what = format!("the CA file {}", path.display());
        Self::from_ca(read(path, &what)?, &what)
    }

    fn from_ca(ca_pem: Vec<u8>, what: &str) -> Result<Self, Error> {
        roots(&ca_pem, what)?;
        Ok(Self {
            ca_pem,
            identity: None,
            server_name: None,
        })
    }

    /// Presents the client certificate chain `cert_pem` with its private key `key_pem` (PEM;
    /// PKCS#8, PKCS#1 or SEC1), for an etcd with `--client-cert-auth`. Fails if either does
    /// not parse or the key does not belong to the certificate.
    pub fn with_client_identity(
        self,
        cert_pem: impl Into<Vec<u8>>,
        key_pem: impl Into<Vec<u8>>,
    ) -> Result<Self, Error> {
        self.with_identity(
            cert_pem.into(),
            key_pem.into(),
            "the client certificate",
            "the client key",
        )
    }

    /// [`with_client_identity`](Self::with_client_identity) from PEM files.
    pub fn with_client_identity_files(
        self,
        cert: impl AsRef<Path>,
        key: impl AsRef<Path>,
    ) -> Result<Self, Error> {
        let cert_what = format!("the client certificate file {}", cert.as_ref().display());
        let key_what = format!("the client key file {}", key.as_ref().display());
        let cert_pem = read(cert.as_ref(), &cert_what)?;
        let key_pem = read(key.as_ref(), &key_what)?;
        self.with_identity(cert_pem, key_pem, &cert_what, &key_what)
    }

    fn with_identity(
        mut self,
        cert_pem: Vec<u8>,
        key_pem: Vec<u8>,
        cert_what: &str,
        key_what: &str,
    ) -> Result<Self, Error> {
        let chain = certificates(&cert_pem, cert_what)?;
        let key = PrivateKeyDer::from_pem_slice(&key_pem).map_err(|e| {
            invalid(format!(
                "{key_what} holds no usable PEM private key (PKCS#8, PKCS#1 or SEC1): {e}"
            ))
        })?;
        let roots = roots(&self.ca_pem, "the CA")?;
        let provider = Arc::new(rustls::crypto::ring::default_provider());
        ClientConfig::builder_with_provider(provider)
            .with_safe_default_protocol_versions()
            .and_then(|b| {
                b.with_root_certificates(roots)
                    .with_client_auth_cert(chain, key)
            })
            .map_err(|e| {
                Error::config(
                    ConfigErrorKind::Tls,
                    ORIGIN,
                    format!("{cert_what} and {key_what} cannot be used together: {e}"),
                )
            })?;
        self.identity = Some(ClientIdentity { cert_pem, key_pem });
        Ok(self)
    }

    /// Verifies the server's certificate for `name` instead of the endpoint's host (for an
    /// endpoint given by an address its certificate does not name). Fails if `name` is
    /// neither a DNS name nor an IP address.
    pub fn with_server_name(mut self, name: impl Into<String>) -> Result<Self, Error> {
        let name = name.into();
        ServerName::try_from(name.as_str())
            .map_err(|e| invalid(format!("server name {name:?} is unusable: {e}")))?;
        self.server_name = Some(name);
        Ok(self)
    }

    /// The server name set with [`with_server_name`](Self::with_server_name).
    pub fn server_name(&self) -> Option<&str> {
        self.server_name.as_deref()
    }

    /// Whether a client certificate is presented.
    pub fn has_client_identity(&self) -> bool {
        self.identity.is_some()
    }

    /// The settings for `etcd-client` (tonic); not public, because tonic's `Debug` of an
    /// identity prints the key.
    pub(crate) fn tls_options(&self) -> TlsOptions {
        let mut options = TlsOptions::new().ca_certificate(Certificate::from_pem(&self.ca_pem));
        if let Some(identity) = &self.identity {
            options = options.identity(Identity::from_pem(&identity.cert_pem, &identity.key_pem));
        }
        if let Some(name) = &self.server_name {
            options = options.domain_name(name.clone());
        }
        options
    }
}

fn invalid(message: String) -> Error {
    Error::config(ConfigErrorKind::Invalid, ORIGIN, message)
}

fn read(path: &Path, what: &str) -> Result<Vec<u8>, Error> {
    std::fs::read(path).map_err(|e| {
        Error::config_with_source(
            ConfigErrorKind::Read,
            ORIGIN,
            format!("cannot read {what}"),
            e,
        )
    })
}

fn certificates(pem: &[u8], what: &str) -> Result<Vec<CertificateDer<'static>>, Error> {
    let certs = CertificateDer::pem_slice_iter(pem)
        .collect::<Result<Vec<_>, _>>()
        .map_err(|e| invalid(format!("{what} is not valid PEM: {e}")))?;
    if certs.is_empty() {
        return Err(invalid(format!("{what} holds no PEM certificate")));
    }
    Ok(certs)
}

fn roots(pem: &[u8], what: &str) -> Result<RootCertStore, Error> {
    let mut store = RootCertStore::empty();
    for cert in certificates(pem, what)? {
        store.add(cert).map_err(|e| {
            invalid(format!(
                "{what} holds a certificate that cannot be a CA: {e}"
            ))
        })?;
    }
    Ok(store)
}
