//! TLS: a fresh self-signed CA per server and a serving certificate it signs for the
//! loopback names, and the kubeconfig that trusts it.

use std::net::IpAddr;
use std::sync::Arc;

use base64::engine::general_purpose::STANDARD;
use base64::Engine;
use rcgen::{BasicConstraints, CertificateParams, DnType, IsCa, Issuer, KeyPair, KeyUsagePurpose};
use rustls::pki_types::{PrivateKeyDer, PrivatePkcs8KeyDer};
use tokio_rustls::TlsAcceptor;

use crate::error::Error;

/// The CA (PEM) clients trust and the acceptor that serves with the signed certificate.
#[derive(Clone)]
pub(crate) struct TlsMaterial {
    pub ca_pem: String,
    pub acceptor: TlsAcceptor,
}

impl TlsMaterial {
    /// A CA and a serving certificate for `127.0.0.1`, `::1`, `localhost` and `ip`.
    pub fn generate(ip: IpAddr) -> Result<Self, Error> {
        let tls = |what: &str, e: &dyn std::fmt::Display| Error::Tls(format!("{what}: {e}"));
        let ca_key = KeyPair::generate().map_err(|e| tls("CA key", &e))?;
        let mut ca_params =
            CertificateParams::new(Vec::<String>::new()).map_err(|e| tls("CA parameters", &e))?;
        ca_params.is_ca = IsCa::Ca(BasicConstraints::Unconstrained);
        ca_params
            .distinguished_name
            .push(DnType::CommonName, "test-apiserver-ca");
        ca_params.key_usages = vec![
            KeyUsagePurpose::KeyCertSign,
            KeyUsagePurpose::CrlSign,
            KeyUsagePurpose::DigitalSignature,
        ];
        let ca_cert = ca_params
            .self_signed(&ca_key)
            .map_err(|e| tls("CA certificate", &e))?;
        let issuer = Issuer::new(ca_params, ca_key);

        let key = KeyPair::generate().map_err(|e| tls("serving key", &e))?;
        let mut names = vec![
            "127.0.0.1".to_owned(),
            "::1".to_owned(),
            "localhost".to_owned(),
        ];
        if !ip.is_unspecified() && !names.contains(&ip.to_string()) {
            names.push(ip.to_string());
        }
        let mut params =
            CertificateParams::new(names).map_err(|e| tls("serving parameters", &e))?;
        params
            .distinguished_name
            .push(DnType::CommonName, "test-apiserver");
        let cert = params
            .signed_by(&key, &issuer)
            .map_err(|e| tls("serving certificate", &e))?;

        let provider = Arc::new(rustls::crypto::ring::default_provider());
        let mut config = rustls::ServerConfig::builder_with_provider(provider)
            .with_safe_default_protocol_versions()
            .map_err(|e| tls("protocol versions", &e))?
            .with_no_client_auth()
            .with_single_cert(
                vec![cert.der().clone(), ca_cert.der().clone()],
                PrivateKeyDer::Pkcs8(PrivatePkcs8KeyDer::from(key.serialize_der())),
            )
            .map_err(|e| tls("server configuration", &e))?;
        config.alpn_protocols = vec![b"http/1.1".to_vec()];
        Ok(Self {
            ca_pem: ca_cert.pem(),
            acceptor: TlsAcceptor::from(Arc::new(config)),
        })
    }
}

/// A kubeconfig with one cluster, user and context named `test-apiserver`.
pub(crate) fn kubeconfig(server: &str, ca_pem: Option<&str>, token: Option<&str>) -> String {
    let mut out = String::from(
        "apiVersion: v1\nkind: Config\nclusters:\n- name: test-apiserver\n  cluster:\n",
    );
    out.push_str(&format!("    server: {server}\n"));
    if let Some(ca) = ca_pem {
        out.push_str(&format!(
            "    certificate-authority-data: {}\n",
            STANDARD.encode(ca)
        ));
    }
    out.push_str("users:\n- name: test-apiserver\n  user:");
    match token {
        Some(t) => out.push_str(&format!("\n    token: {}\n", serde_json::Value::from(t))),
        None => out.push_str(" {}\n"),
    }
    out.push_str(
        "contexts:\n- name: test-apiserver\n  context:\n    cluster: test-apiserver\n    user: test-apiserver\ncurrent-context: test-apiserver\n",
    );
    out
}
