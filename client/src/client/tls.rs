//! The rustls `ClientConfig` a client connects with: server verification (kubeconfig CA,
//! else the platform verifier, or accept-anything when the kubeconfig asks), an optional
//! `tls-server-name`, ALPN h2 + http/1.1, and a client certificate that an exec plugin
//! may replace at run time.

use std::sync::{Arc, RwLock};

use rustls::client::danger::{HandshakeSignatureValid, ServerCertVerified, ServerCertVerifier};
use rustls::client::{ResolvesClientCert, WebPkiServerVerifier};
use rustls::crypto::CryptoProvider;
use rustls::sign::CertifiedKey;
use rustls::{DigitallySignedStruct, RootCertStore, SignatureScheme};
use rustls_pki_types::{CertificateDer, PrivateKeyDer, ServerName, UnixTime};

use super::config::{redact_userinfo, Config, INSECURE_WITH_CA};
use crate::error::{ConfigErrorKind, Error};

/// The crypto provider every client uses (ring).
pub(crate) fn provider() -> Arc<CryptoProvider> {
    Arc::new(rustls::crypto::ring::default_provider())
}

/// The client certificate presented in handshakes; exec plugins may swap it.
#[derive(Default, Debug)]
pub(crate) struct IdentitySlot {
    current: RwLock<Option<Arc<CertifiedKey>>>,
}

impl IdentitySlot {
    /// Replaces the certificate new connections present.
    pub(crate) fn set(
        &self,
        cert_chain: Vec<CertificateDer<'static>>,
        key: PrivateKeyDer<'static>,
        provider: &CryptoProvider,
    ) -> Result<(), rustls::Error> {
        let key = Arc::new(CertifiedKey::from_der(cert_chain, key, provider)?);
        // A poisoned lock only means another thread panicked mid-swap; the value is still whole.
        *self.current.write().unwrap_or_else(|p| p.into_inner()) = Some(key);
        Ok(())
    }

    fn get(&self) -> Option<Arc<CertifiedKey>> {
        self.current
            .read()
            .unwrap_or_else(|p| p.into_inner())
            .clone()
    }
}

impl ResolvesClientCert for IdentitySlot {
    fn resolve(&self, _hints: &[&[u8]], _schemes: &[SignatureScheme]) -> Option<Arc<CertifiedKey>> {
        self.get()
    }

    fn has_certs(&self) -> bool {
        self.get().is_some()
    }
}

/// Builds the rustls config for `config`, presenting whatever `identity` holds.
pub(crate) fn client_config(
    config: &Config,
    identity: Arc<IdentitySlot>,
) -> Result<rustls::ClientConfig, Error> {
    let server = redact_userinfo(&config.cluster_url);
    let tls_error = |what: &str, e: rustls::Error| {
        Error::config(
            ConfigErrorKind::Tls,
            format!("TLS setup for {server}"),
            format!("{what}: {e}"),
        )
    };
    if config.insecure_skip_tls_verify && config.root_certs.is_some() {
        return Err(Error::config(
            ConfigErrorKind::Invalid,
            format!("TLS setup for {server}"),
            INSECURE_WITH_CA,
        ));
    }
    let provider = provider();
    if let Some(id) = &config.identity {
        identity
            .set(id.cert_chain.clone(), id.key.clone_key(), &provider)
            .map_err(|e| tls_error("client certificate and key", e))?;
    }
    let verifier: Arc<dyn ServerCertVerifier> = if config.insecure_skip_tls_verify {
        tracing::warn!(
            server = %server,
            "insecure-skip-tls-verify is set: the server certificate is NOT verified"
        );
        Arc::new(AcceptAnyServerCert {
            provider: provider.clone(),
        })
    } else if let Some(roots) = &config.root_certs {
        let mut store = RootCertStore::empty();
        for cert in roots {
            store
                .add(cert.clone())
                .map_err(|e| tls_error("certificate authority", e))?;
        }
        WebPkiServerVerifier::builder_with_provider(Arc::new(store), provider.clone())
            .build()
            .map_err(|e| {
                Error::config(
                    ConfigErrorKind::Tls,
                    format!("TLS setup for {server}"),
                    format!("certificate authority: {e}"),
                )
            })?
    } else {
        Arc::new(
            rustls_platform_verifier::Verifier::new(provider.clone())
                .map_err(|e| tls_error("platform certificate verifier", e))?,
        )
    };
    let verifier = match config.tls_server_name.as_deref() {
        Some(name) => Arc::new(ServerNameOverride {
            inner: verifier,
            name: ServerName::try_from(name.to_owned()).map_err(|e| {
                Error::config(
                    ConfigErrorKind::Invalid,
                    format!("TLS setup for {server}"),
                    format!("tls-server-name {name:?}: {e}"),
                )
            })?,
        }),
        None => verifier,
    };
    let mut tls = rustls::ClientConfig::builder_with_provider(provider)
        .with_safe_default_protocol_versions()
        .map_err(|e| tls_error("protocol versions", e))?
        .dangerous()
        .with_custom_certificate_verifier(verifier)
        .with_client_cert_resolver(identity);
    tls.alpn_protocols = vec![b"h2".to_vec(), b"http/1.1".to_vec()];
    Ok(tls)
}

/// Verifies the server certificate against a fixed name (kubeconfig `tls-server-name`)
/// instead of the host in the URL.
#[derive(Debug)]
struct ServerNameOverride {
    inner: Arc<dyn ServerCertVerifier>,
    name: ServerName<'static>,
}

impl ServerCertVerifier for ServerNameOverride {
    fn verify_server_cert(
        &self,
        end_entity: &CertificateDer<'_>,
        intermediates: &[CertificateDer<'_>],
        _server_name: &ServerName<'_>,
        ocsp_response: &[u8],
        now: UnixTime,
    ) -> Result<ServerCertVerified, rustls::Error> {
        self.inner
            .verify_server_cert(end_entity, intermediates, &self.name, ocsp_response, now)
    }

    fn verify_tls12_signature(
        &self,
        message: &[u8],
        cert: &CertificateDer<'_>,
        dss: &DigitallySignedStruct,
    ) -> Result<HandshakeSignatureValid, rustls::Error> {
        self.inner.verify_tls12_signature(message, cert, dss)
    }

    fn verify_tls13_signature(
        &self,
        message: &[u8],
        cert: &CertificateDer<'_>,
        dss: &DigitallySignedStruct,
    ) -> Result<HandshakeSignatureValid, rustls::Error> {
        self.inner.verify_tls13_signature(message, cert, dss)
    }

    fn supported_verify_schemes(&self) -> Vec<SignatureScheme> {
        self.inner.supported_verify_schemes()
    }
}

/// Accepts any server certificate (kubeconfig `insecure-skip-tls-verify: true`), while
/// still checking the handshake signatures so the session keys belong to that certificate.
#[derive(Debug)]
struct AcceptAnyServerCert {
    provider: Arc<CryptoProvider>,
}

impl ServerCertVerifier for AcceptAnyServerCert {
    fn verify_server_cert(
        &self,
        _end_entity: &CertificateDer<'_>,
        _intermediates: &[CertificateDer<'_>],
        _server_name: &ServerName<'_>,
        _ocsp_response: &[u8],
        _now: UnixTime,
    ) -> Result<ServerCertVerified, rustls::Error> {
        Ok(ServerCertVerified::assertion())
    }

    fn verify_tls12_signature(
        &self,
        message: &[u8],
        cert: &CertificateDer<'_>,
        dss: &DigitallySignedStruct,
    ) -> Result<HandshakeSignatureValid, rustls::Error> {
        rustls::crypto::verify_tls12_signature(
            message,
            cert,
            dss,
            &self.provider.signature_verification_algorithms,
        )
    }

    fn verify_tls13_signature(
        &self,
        message: &[u8],
        cert: &CertificateDer<'_>,
        dss: &DigitallySignedStruct,
    ) -> Result<HandshakeSignatureValid, rustls::Error> {
        rustls::crypto::verify_tls13_signature(
            message,
            cert,
            dss,
            &self.provider.signature_verification_algorithms,
        )
    }

    fn supported_verify_schemes(&self) -> Vec<SignatureScheme> {
        self.provider
            .signature_verification_algorithms
            .supported_schemes()
    }
}
