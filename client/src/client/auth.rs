//! Request authentication: fixed bearer tokens, token files re-read as they rotate,
//! basic auth, and exec credential plugins whose output is cached until it expires.
//!
//! Tokens only ever live in `HeaderValue`s marked sensitive; nothing here logs them.

use std::path::PathBuf;
use std::process::Stdio;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant, SystemTime};

use base64::Engine as _;
use http::header::HeaderValue;
use k8s_openapi::apimachinery::pkg::apis::meta::v1::Time;
use rustls::crypto::CryptoProvider;
use rustls_pki_types::pem::PemObject;
use rustls_pki_types::{CertificateDer, PrivateKeyDer};
use serde::Deserialize;
use tokio::io::{AsyncRead, AsyncReadExt};

use super::config::{AuthConfig, Config, ExecConfig};
use super::kubeconfig::without_values;
use super::tls::IdentitySlot;
use crate::error::{ConfigErrorKind, Error};

/// A token file is re-read at least this often even when it looks unchanged.
const TOKEN_FILE_MAX_AGE: Duration = Duration::from_secs(60);

/// How long an exec plugin may run before it is killed.
const EXEC_TIMEOUT: Duration = Duration::from_secs(120);

/// The most an exec plugin may print on stdout. An `ExecCredential`, even with a client
/// certificate chain, takes a few KiB; a plugin printing more is broken or hostile, and its
/// output is not held in memory.
const EXEC_STDOUT_LIMIT: usize = 1 << 20;

/// How much of an exec plugin's stderr is kept to quote from; the rest is read and dropped,
/// so a chatty plugin neither blocks on a full pipe nor fills memory.
const EXEC_STDERR_KEEP: usize = 4096;

/// How many characters of the first line of a failed plugin's stderr its error quotes. Only
/// that line: plugins print usage and debug output there, which may hold their arguments.
const EXEC_STDERR_LINE: usize = 200;

/// Produces the `Authorization` header of each request.
pub(crate) struct Authenticator {
    kind: Kind,
}

enum Kind {
    None,
    Static(HeaderValue),
    TokenFile(TokenFile),
    Exec(Box<ExecAuth>),
}

impl Authenticator {
    /// The authenticator `config.auth` describes; exec certificates go into `identity`.
    pub(crate) fn new(
        config: &Config,
        identity: Arc<IdentitySlot>,
        provider: Arc<CryptoProvider>,
    ) -> Result<Self, Error> {
        let kind = match &config.auth {
            AuthConfig::None => Kind::None,
            AuthConfig::Token(token) => Kind::Static(bearer(token).map_err(|e| {
                Error::config(
                    ConfigErrorKind::Invalid,
                    format!("bearer token for {}", config.cluster_url),
                    e,
                )
            })?),
            AuthConfig::Basic { username, password } => {
                Kind::Static(basic(username, password).map_err(|e| {
                    Error::config(
                        ConfigErrorKind::Invalid,
                        format!("basic auth for {}", config.cluster_url),
                        e,
                    )
                })?)
            }
            AuthConfig::TokenFile(path) => Kind::TokenFile(TokenFile {
                path: path.clone(),
                cached: Mutex::new(None),
            }),
            AuthConfig::Exec(exec) => Kind::Exec(Box::new(ExecAuth {
                exec_info: exec_info(exec, config),
                config: exec.clone(),
                identity,
                provider,
                cached: tokio::sync::Mutex::new(None),
            })),
        };
        Ok(Self { kind })
    }

    /// The `Authorization` header for the next request, if any.
    pub(crate) async fn header(&self) -> Result<Option<HeaderValue>, Error> {
        match &self.kind {
            Kind::None => Ok(None),
            Kind::Static(h) => Ok(Some(h.clone())),
            Kind::TokenFile(f) => f.header().await.map(Some),
            Kind::Exec(e) => e.header().await,
        }
    }

    /// True when a 401 may be cured by fetching the credentials again.
    pub(crate) fn refreshable(&self) -> bool {
        matches!(self.kind, Kind::TokenFile(_) | Kind::Exec(_))
    }

    /// Forgets cached credentials after a 401, so the next request fetches new ones.
    pub(crate) async fn invalidate(&self) {
        match &self.kind {
            Kind::TokenFile(f) => *f.cached.lock().unwrap_or_else(|p| p.into_inner()) = None,
            Kind::Exec(e) => *e.cached.lock().await = None,
            Kind::None | Kind::Static(_) => {}
        }
    }
}

fn sensitive(value: &str) -> Result<HeaderValue, String> {
    let mut h = HeaderValue::from_str(value)
        .map_err(|_| "contains characters not allowed in an HTTP header".to_owned())?;
    h.set_sensitive(true);
    Ok(h)
}

/// `Basic base64(user:password)`, sensitive: kubeconfig basic auth, and the userinfo of a
/// server or proxy URL.
pub(crate) fn basic(user: &str, password: &str) -> Result<HeaderValue, String> {
    let encoded = base64::engine::general_purpose::STANDARD.encode(format!("{user}:{password}"));
    sensitive(&format!("Basic {encoded}"))
}

fn bearer(token: &str) -> Result<HeaderValue, String> {
    sensitive(&format!("Bearer {}", token.trim()))
}

/// A bearer token file, cached and re-read when it changes.
struct TokenFile {
    path: PathBuf,
    cached: Mutex<Option<CachedToken>>,
}

struct CachedToken {
    header: HeaderValue,
    modified: Option<SystemTime>,
    len: u64,
    read_at: Instant,
}

impl TokenFile {
    async fn header(&self) -> Result<HeaderValue, Error> {
        let path = &self.path;
        let read_error = |e: std::io::Error| {
            Error::config_with_source(
                ConfigErrorKind::Read,
                format!("token file {}", path.display()),
                "cannot read",
                e,
            )
        };
        let meta = tokio::fs::metadata(path).await.map_err(read_error)?;
        let modified = meta.modified().ok();
        {
            let cached = self.cached.lock().unwrap_or_else(|p| p.into_inner());
            if let Some(c) = cached.as_ref() {
                if c.modified == modified
                    && c.len == meta.len()
                    && c.read_at.elapsed() < TOKEN_FILE_MAX_AGE
                {
                    return Ok(c.header.clone());
                }
            }
        }
        let token = tokio::fs::read_to_string(path).await.map_err(read_error)?;
        if token.trim().is_empty() {
            return Err(Error::config(
                ConfigErrorKind::Credentials,
                format!("token file {}", path.display()),
                "is empty",
            ));
        }
        let header = bearer(&token).map_err(|e| {
            Error::config(
                ConfigErrorKind::Credentials,
                format!("token file {}", path.display()),
                e,
            )
        })?;
        tracing::debug!(path = %path.display(), "read bearer token file");
        *self.cached.lock().unwrap_or_else(|p| p.into_inner()) = Some(CachedToken {
            header: header.clone(),
            modified,
            len: meta.len(),
            read_at: Instant::now(),
        });
        Ok(header)
    }
}

/// An exec credential plugin and its cached output.
struct ExecAuth {
    config: ExecConfig,
    exec_info: String,
    identity: Arc<IdentitySlot>,
    provider: Arc<CryptoProvider>,
    cached: tokio::sync::Mutex<Option<ExecCredentials>>,
}

struct ExecCredentials {
    header: Option<HeaderValue>,
    /// Expiry in milliseconds since the Unix epoch.
    expires: Option<i64>,
}

fn unix_millis_now() -> i64 {
    SystemTime::now()
        .duration_since(SystemTime::UNIX_EPOCH)
        .map_or(0, |d| i64::try_from(d.as_millis()).unwrap_or(i64::MAX))
}

/// The `ExecCredential` a plugin prints.
#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct ExecCredential {
    api_version: Option<String>,
    kind: Option<String>,
    status: Option<ExecCredentialStatus>,
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct ExecCredentialStatus {
    token: Option<String>,
    client_certificate_data: Option<String>,
    client_key_data: Option<String>,
    expiration_timestamp: Option<Time>,
}

/// The `KUBERNETES_EXEC_INFO` value handed to the plugin.
fn exec_info(exec: &ExecConfig, config: &Config) -> String {
    let mut spec = serde_json::json!({ "interactive": false });
    if exec.provide_cluster_info {
        let mut cluster = serde_json::json!({
            "server": config.cluster_url,
            "insecure-skip-tls-verify": config.insecure_skip_tls_verify,
        });
        if let Some(name) = &config.tls_server_name {
            cluster["tls-server-name"] = name.clone().into();
        }
        if let Some(roots) = &config.root_certs {
            let pem: String = roots.iter().map(to_pem).collect();
            cluster["certificate-authority-data"] =
                base64::engine::general_purpose::STANDARD.encode(pem).into();
        }
        spec["cluster"] = cluster;
    }
    serde_json::json!({
        "apiVersion": exec.api_version,
        "kind": "ExecCredential",
        "spec": spec,
    })
    .to_string()
}

fn to_pem(cert: &CertificateDer<'_>) -> String {
    let b64 = base64::engine::general_purpose::STANDARD.encode(cert.as_ref());
    let mut pem = String::from("-----BEGIN CERTIFICATE-----\n");
    for line in b64.as_bytes().chunks(64) {
        pem.push_str(&String::from_utf8_lossy(line));
        pem.push('\n');
    }
    pem.push_str("-----END CERTIFICATE-----\n");
    pem
}

impl ExecAuth {
    async fn header(&self) -> Result<Option<HeaderValue>, Error> {
        let mut cached = self.cached.lock().await;
        if let Some(c) = cached.as_ref() {
            let fresh = c.expires.is_none_or(|exp| unix_millis_now() < exp);
            if fresh {
                return Ok(c.header.clone());
            }
        }
        let creds = self.run().await?;
        let header = creds.header.clone();
        *cached = Some(creds);
        Ok(header)
    }

    fn error(&self, message: impl std::fmt::Display) -> Error {
        Error::config(
            ConfigErrorKind::Credentials,
            format!("{}: command {:?}", self.config.origin, self.config.command),
            message.to_string(),
        )
    }

    async fn run(&self) -> Result<ExecCredentials, Error> {
        let c = &self.config;
        let program = if c.command.contains('/') && !std::path::Path::new(&c.command).is_absolute()
        {
            c.base_dir.join(&c.command)
        } else {
            PathBuf::from(&c.command)
        };
        let mut cmd = tokio::process::Command::new(&program);
        cmd.args(&c.args)
            .envs(c.env.iter().map(|(k, v)| (k, v)))
            .env("KUBERNETES_EXEC_INFO", &self.exec_info)
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .kill_on_drop(true);
        tracing::debug!(command = %c.command, "running exec credential plugin");
        let mut child = cmd.spawn().map_err(|e| {
            let hint = c
                .install_hint
                .as_deref()
                .map(|h| format!("; {h}"))
                .unwrap_or_default();
            self.error(format!("cannot run: {e}{hint}"))
        })?;
        // On an error or the timeout the child is dropped, and so killed (`kill_on_drop`).
        let (status, stdout, stderr) =
            match tokio::time::timeout(EXEC_TIMEOUT, collect(&mut child)).await {
                Err(_) => return Err(self.error(format!("did not finish within {EXEC_TIMEOUT:?}"))),
                Ok(Err(message)) => return Err(self.error(message)),
                Ok(Ok(collected)) => collected,
            };
        if !status.success() {
            let line = first_line(&stderr);
            return Err(self.error(if line.is_empty() {
                status.to_string()
            } else {
                format!("{status}: {line}")
            }));
        }
        let cred: ExecCredential = serde_json::from_slice(&stdout).map_err(|e| {
            self.error(format!(
                "cannot decode its ExecCredential output: {}",
                without_values(&e.to_string())
            ))
        })?;
        if cred.kind.as_deref().is_some_and(|k| k != "ExecCredential") {
            return Err(self.error(format!("printed kind {:?}, not ExecCredential", cred.kind)));
        }
        if cred.api_version.as_deref() != Some(c.api_version.as_str()) {
            return Err(self.error(format!(
                "printed apiVersion {:?}, expected {:?}",
                cred.api_version, c.api_version
            )));
        }
        let status = cred
            .status
            .ok_or_else(|| self.error("its ExecCredential has no status"))?;
        let header = match status.token.as_deref().filter(|t| !t.is_empty()) {
            Some(token) => {
                Some(bearer(token).map_err(|e| self.error(format!("status.token {e}")))?)
            }
            None => None,
        };
        match (&status.client_certificate_data, &status.client_key_data) {
            (Some(cert), Some(key)) => {
                let chain = CertificateDer::pem_slice_iter(cert.as_bytes())
                    .collect::<Result<Vec<_>, _>>()
                    .map_err(|e| self.error(format!("status.clientCertificateData: {e}")))?;
                let key = PrivateKeyDer::from_pem_slice(key.as_bytes())
                    .map_err(|e| self.error(format!("status.clientKeyData: {e}")))?;
                self.identity
                    .set(chain, key, &self.provider)
                    .map_err(|e| self.error(format!("client certificate: {e}")))?;
            }
            (None, None) if header.is_none() => {
                return Err(self
                    .error("its ExecCredential has neither status.token nor a client certificate"))
            }
            (None, None) => {}
            _ => {
                return Err(self.error(
                    "status.clientCertificateData and status.clientKeyData must come together",
                ))
            }
        }
        Ok(ExecCredentials {
            header,
            expires: status.expiration_timestamp.map(|t| t.0.as_millisecond()),
        })
    }
}

/// A running plugin's exit status, stdout (at most [`EXEC_STDOUT_LIMIT`] bytes, else an
/// error) and the head of its stderr.
async fn collect(
    child: &mut tokio::process::Child,
) -> Result<(std::process::ExitStatus, Vec<u8>, Vec<u8>), String> {
    let (Some(stdout), Some(stderr)) = (child.stdout.take(), child.stderr.take()) else {
        return Err("cannot read its output: no pipe".to_owned());
    };
    let out = async {
        let mut buf = Vec::new();
        let limit = u64::try_from(EXEC_STDOUT_LIMIT).unwrap_or(u64::MAX);
        stdout
            .take(limit.saturating_add(1))
            .read_to_end(&mut buf)
            .await
            .map_err(|e| format!("cannot read its stdout: {e}"))?;
        if buf.len() > EXEC_STDOUT_LIMIT {
            return Err(format!(
                "printed more than {EXEC_STDOUT_LIMIT} bytes on stdout, far more than an \
                 ExecCredential takes"
            ));
        }
        Ok(buf)
    };
    let (stdout, stderr) = tokio::try_join!(out, head(stderr))?;
    let status = child
        .wait()
        .await
        .map_err(|e| format!("cannot wait for it: {e}"))?;
    Ok((status, stdout, stderr))
}

/// The first [`EXEC_STDERR_KEEP`] bytes of `pipe`, read to its end.
async fn head(mut pipe: impl AsyncRead + Unpin) -> Result<Vec<u8>, String> {
    let mut kept = Vec::new();
    let mut chunk = [0u8; 8192];
    // A read error ends stderr early; what it held is only ever quoted.
    while let Ok(n @ 1..) = pipe.read(&mut chunk).await {
        let room = EXEC_STDERR_KEEP.saturating_sub(kept.len());
        kept.extend_from_slice(&chunk[..n.min(room)]);
    }
    Ok(kept)
}

/// The first non-empty line of a plugin's stderr, cut to [`EXEC_STDERR_LINE`] characters.
fn first_line(stderr: &[u8]) -> String {
    let text = String::from_utf8_lossy(stderr);
    let line = text
        .lines()
        .map(str::trim)
        .find(|l| !l.is_empty())
        .unwrap_or_default();
    if line.chars().count() <= EXEC_STDERR_LINE {
        return line.to_owned();
    }
    let mut cut: String = line.chars().take(EXEC_STDERR_LINE).collect();
    cut.push('…');
    cut
}
