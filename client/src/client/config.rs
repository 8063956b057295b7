//! `Config`: where the API server is and how to authenticate to it, loaded from a
//! kubeconfig, from the in-cluster service account, or built by hand.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::time::Duration;

use rustls_pki_types::pem::PemObject;
use rustls_pki_types::{CertificateDer, PrivateKeyDer};

use super::kubeconfig::{KubeConfigOptions, Kubeconfig};
use crate::error::{ConfigErrorKind, Error};

pub use super::proxy::ProxyEnv;

/// Where in-cluster pods find their service-account credentials.
pub const SERVICE_ACCOUNT_DIR: &str = "/var/run/secrets/kubernetes.io/serviceaccount";

/// The default time to wait for a TCP + TLS connection.
const DEFAULT_CONNECT_TIMEOUT: Duration = Duration::from_secs(30);

/// The default longest pause between two chunks of a list response.
pub(super) const DEFAULT_LIST_READ_TIMEOUT: Duration = Duration::from_secs(120);

/// [`Config::max_object_bytes`] unless set: client-go's streaming watch decoder's limit.
pub(super) const DEFAULT_MAX_OBJECT_BYTES: usize = 16 << 20;

/// [`Config::max_body_bytes`] unless set.
pub(super) const DEFAULT_MAX_BODY_BYTES: u64 = 2 << 30;

/// A client certificate and its private key, presented during the TLS handshake.
pub struct Identity {
    /// The certificate chain, leaf first.
    pub cert_chain: Vec<CertificateDer<'static>>,
    /// The private key of the leaf certificate.
    pub key: PrivateKeyDer<'static>,
}

impl Identity {
    /// An identity from PEM certificate(s) and a PEM private key (PKCS#1, PKCS#8 or SEC1).
    pub fn from_pem(cert_pem: &[u8], key_pem: &[u8]) -> Result<Self, Error> {
        let cert_chain = parse_certs(cert_pem)
            .map_err(|e| Error::config(ConfigErrorKind::Invalid, "client certificate", e))?;
        let key = PrivateKeyDer::from_pem_slice(key_pem).map_err(|e| {
            Error::config_with_source(
                ConfigErrorKind::Invalid,
                "client key",
                "no usable PEM private key",
                e,
            )
        })?;
        Ok(Self { cert_chain, key })
    }
}

impl Clone for Identity {
    fn clone(&self) -> Self {
        Self {
            cert_chain: self.cert_chain.clone(),
            key: self.key.clone_key(),
        }
    }
}

impl std::fmt::Debug for Identity {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Identity")
            .field(
                "cert_chain",
                &format_args!("{} certificate(s)", self.cert_chain.len()),
            )
            .field("key", &"<redacted>")
            .finish()
    }
}

/// How requests authenticate, besides a client certificate.
#[derive(Clone, Default)]
#[non_exhaustive]
pub enum AuthConfig {
    /// No `Authorization` header.
    #[default]
    None,
    /// A fixed bearer token.
    Token(String),
    /// A bearer token read from a file, re-read when the file changes (and at least every minute),
    /// as service-account tokens rotate.
    TokenFile(PathBuf),
    /// HTTP basic authentication; used only when a kubeconfig user sets both username and password.
    Basic {
        /// The user name.
        username: String,
        /// The password.
        password: String,
    },
    /// An exec credential plugin (`client.authentication.k8s.io/v1` or `v1beta1`).
    Exec(ExecConfig),
}

impl std::fmt::Debug for AuthConfig {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            AuthConfig::None => f.write_str("None"),
            AuthConfig::Token(_) => f.write_str("Token(<redacted>)"),
            AuthConfig::TokenFile(p) => f.debug_tuple("TokenFile").field(p).finish(),
            AuthConfig::Basic { username, .. } => f
                .debug_struct("Basic")
                .field("username", username)
                .field("password", &"<redacted>")
                .finish(),
            AuthConfig::Exec(e) => f.debug_tuple("Exec").field(e).finish(),
        }
    }
}

/// An exec credential plugin: a command printing an `ExecCredential` on stdout.
#[derive(Clone)]
pub struct ExecConfig {
    /// The command; a relative path containing `/` resolves against `base_dir`.
    pub command: String,
    /// Its arguments.
    pub args: Vec<String>,
    /// Extra environment variables (name, value).
    pub env: Vec<(String, String)>,
    /// The `ExecCredential` API version expected, e.g. `client.authentication.k8s.io/v1`.
    pub api_version: String,
    /// Shown when the command cannot be run.
    pub install_hint: Option<String>,
    /// Pass the cluster's server and CA in `KUBERNETES_EXEC_INFO`.
    pub provide_cluster_info: bool,
    /// The directory of the kubeconfig that configured the plugin.
    pub base_dir: PathBuf,
    /// Where the plugin was configured, for error messages (e.g. `kubeconfig /x: users[0].user.exec`).
    pub origin: String,
}

/// What `Debug` shows of a plugin's arguments and environment, which often hold secrets
/// (`--client-secret=…`): client-go's `ExecConfig.String` marker, and nothing of the values.
const REDACTED: &str = "--- REDACTED ---";

impl std::fmt::Debug for ExecConfig {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let args: &[&str] = if self.args.is_empty() {
            &[]
        } else {
            &[REDACTED]
        };
        let env: &[&str] = if self.env.is_empty() {
            &[]
        } else {
            &[REDACTED]
        };
        f.debug_struct("ExecConfig")
            .field("command", &self.command)
            .field("args", &args)
            .field("env", &env)
            .field("api_version", &self.api_version)
            .field("provide_cluster_info", &self.provide_cluster_info)
            .field("origin", &self.origin)
            .finish()
    }
}

/// Whom requests act as: the `Impersonate-*` headers (kubeconfig `as`, `as-uid`,
/// `as-groups`, `as-user-extra`; kubectl's `--as`, `--as-uid`, `--as-group`).
/// The user's own credentials must be allowed to `impersonate`.
///
/// `Debug` shows the keys of `extra` but not their values.
#[derive(Clone, Default, PartialEq, Eq)]
pub struct Impersonate {
    /// The user to act as (`Impersonate-User`). Required when anything else is set.
    pub user: Option<String>,
    /// The user's UID (`Impersonate-Uid`).
    pub uid: Option<String>,
    /// The groups to act as a member of (one `Impersonate-Group` header each).
    pub groups: Vec<String>,
    /// Extra user attributes (`Impersonate-Extra-<key>` headers, the key percent-encoded).
    pub extra: BTreeMap<String, Vec<String>>,
}

impl std::fmt::Debug for Impersonate {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let extra: BTreeMap<&str, String> = self
            .extra
            .iter()
            .map(|(k, v)| (k.as_str(), format!("{} value(s) redacted", v.len())))
            .collect();
        f.debug_struct("Impersonate")
            .field("user", &self.user)
            .field("uid", &self.uid)
            .field("groups", &self.groups)
            .field("extra", &extra)
            .finish()
    }
}

impl Impersonate {
    /// True when nothing is impersonated.
    pub fn is_empty(&self) -> bool {
        self.user.is_none() && self.uid.is_none() && self.groups.is_empty() && self.extra.is_empty()
    }
}

/// Everything a [`Client`](super::Client) needs to reach and authenticate to an API server.
///
/// `Debug` never prints tokens, passwords or keys.
#[derive(Clone)]
pub struct Config {
    /// The server's base URL, e.g. `https://10.0.0.1:6443` (a path prefix is kept).
    pub cluster_url: String,
    /// The CA certificates that verify the server. `None`: the platform's trust store.
    pub root_certs: Option<Vec<CertificateDer<'static>>>,
    /// The client certificate to present, if any.
    pub identity: Option<Identity>,
    /// Token, token file, basic or exec authentication.
    pub auth: AuthConfig,
    /// Accept any server certificate. Only set when the kubeconfig asks for it. Not allowed
    /// together with `root_certs`, as in client-go: [`Client::new`](super::Client::new) refuses.
    pub insecure_skip_tls_verify: bool,
    /// The name to verify the server certificate against and send as SNI, instead of the URL's host.
    pub tls_server_name: Option<String>,
    /// The proxy every request goes through (`http://`, `https://`; kubeconfig `proxy-url`).
    /// `None`: `HTTPS_PROXY`/`HTTP_PROXY`/`NO_PROXY` from the environment, by Go's rules as
    /// kubectl reads them (see [`ProxyEnv`]; loopback addresses are never proxied). An https
    /// server is reached through a `CONNECT` tunnel, an http one by the proxy forwarding each
    /// request; the URL's `user:password@` is sent as `Proxy-Authorization: Basic`.
    pub proxy_url: Option<String>,
    /// Act as another user.
    pub impersonate: Impersonate,
    /// Do not ask the server for gzip-compressed responses (kubeconfig `disable-compression`).
    /// Compression saves bandwidth on large lists at some CPU cost on both ends.
    pub disable_compression: bool,
    /// The namespace of the kubeconfig context (or the service account), else `default`.
    pub default_namespace: String,
    /// How long to wait for a connection: TCP, the proxy's tunnel and the TLS handshake.
    pub connect_timeout: Duration,
    /// The longest pause between two chunks of a list response; watches have none.
    pub list_read_timeout: Option<Duration>,
    /// The most bytes of one watch event (a line of a watch) or one list item the client
    /// holds, counted after decompression; a larger one fails the watch or list with an
    /// [`ErrorKind::TooLarge`](crate::error::ErrorKind::TooLarge) error naming the resource
    /// and the limit (an informer relists). Default 16 MiB, the limit client-go's streaming
    /// watch decoder puts on one event; etcd stores objects of at most 1.5 MiB by default.
    pub max_object_bytes: usize,
    /// The most bytes of one response body the client reads, counted after decompression:
    /// the answer to a get or a write, a discovery document, one list (page); watches are
    /// bounded per event only. Default 2 GiB, for lists: kube-apiserver may serve a list at
    /// resourceVersion "0" whole from its watch cache, ignoring `limit`, and the 150,000 Pods
    /// of the largest cluster Kubernetes supports take about 1.5 GiB of JSON. Gets and writes
    /// answer one object and never come near it; lower it where memory is tight.
    pub max_body_bytes: u64,
    /// Ask for JSON only, even where the caller could decode kube-apiserver's protobuf
    /// ([`Api::with_protobuf`](crate::Api::with_protobuf); informers of built-in resources
    /// do). Protobuf is asked for with JSON as the fallback, so a server or proxy without it
    /// answers JSON anyway; this is for comparing the two, or a proxy that mangles it.
    pub disable_protobuf: bool,
}

impl std::fmt::Debug for Config {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Config")
            .field("cluster_url", &redact_userinfo(&self.cluster_url))
            .field(
                "root_certs",
                &self
                    .root_certs
                    .as_ref()
                    .map(|c| format!("{} certificate(s)", c.len())),
            )
            .field("identity", &self.identity)
            .field("auth", &self.auth)
            .field("insecure_skip_tls_verify", &self.insecure_skip_tls_verify)
            .field("tls_server_name", &self.tls_server_name)
            .field("proxy_url", &self.proxy_url.as_deref().map(redact_userinfo))
            .field("impersonate", &self.impersonate)
            .field("disable_compression", &self.disable_compression)
            .field("default_namespace", &self.default_namespace)
            .field("connect_timeout", &self.connect_timeout)
            .field("list_read_timeout", &self.list_read_timeout)
            .field("max_object_bytes", &self.max_object_bytes)
            .field("max_body_bytes", &self.max_body_bytes)
            .field("disable_protobuf", &self.disable_protobuf)
            .finish()
    }
}

impl Config {
    /// A plain config for `cluster_url`: no TLS settings, no auth, namespace `default`.
    pub fn new(cluster_url: impl Into<String>) -> Self {
        Self {
            cluster_url: cluster_url.into(),
            root_certs: None,
            identity: None,
            auth: AuthConfig::None,
            insecure_skip_tls_verify: false,
            tls_server_name: None,
            proxy_url: None,
            impersonate: Impersonate::default(),
            disable_compression: false,
            default_namespace: "default".to_owned(),
            connect_timeout: DEFAULT_CONNECT_TIMEOUT,
            list_read_timeout: Some(DEFAULT_LIST_READ_TIMEOUT),
            max_object_bytes: DEFAULT_MAX_OBJECT_BYTES,
            max_body_bytes: DEFAULT_MAX_BODY_BYTES,
            disable_protobuf: false,
        }
    }

    /// The kubeconfig (`KUBECONFIG` or `~/.kube/config`) if there is one, else the in-cluster config.
    pub fn infer() -> Result<Self, Error> {
        match kubeconfig_paths()? {
            Some(paths) => Self::from_paths(&paths, &KubeConfigOptions::default()),
            None if std::env::var_os("KUBERNETES_SERVICE_HOST").is_some() => Self::incluster(),
            None => Err(Error::config(
                ConfigErrorKind::NotFound,
                "",
                "no kubeconfig (KUBECONFIG is unset and ~/.kube/config does not exist) \
                 and not running in a cluster (KUBERNETES_SERVICE_HOST is unset)",
            )),
        }
    }

    /// The kubeconfig named by `KUBECONFIG` (a `:`-separated list, merged), else `~/.kube/config`.
    pub fn from_kubeconfig(options: &KubeConfigOptions) -> Result<Self, Error> {
        match kubeconfig_paths()? {
            Some(paths) => Self::from_paths(&paths, options),
            None => Err(Error::config(
                ConfigErrorKind::NotFound,
                "",
                "no kubeconfig: KUBECONFIG is unset and ~/.kube/config does not exist",
            )),
        }
    }

    /// The kubeconfig file at `path`.
    pub fn from_kubeconfig_file(
        path: impl AsRef<Path>,
        options: &KubeConfigOptions,
    ) -> Result<Self, Error> {
        Self::from_paths(&[path.as_ref().to_path_buf()], options)
    }

    fn from_paths(paths: &[PathBuf], options: &KubeConfigOptions) -> Result<Self, Error> {
        Kubeconfig::read_files(paths)?.select(options)?.to_config()
    }

    /// The in-cluster config: `KUBERNETES_SERVICE_HOST`/`PORT` and the service-account
    /// token (re-read as it rotates), CA and namespace under [`SERVICE_ACCOUNT_DIR`].
    pub fn incluster() -> Result<Self, Error> {
        Self::incluster_from_dir(SERVICE_ACCOUNT_DIR)
    }

    /// The in-cluster config with the service-account files read from `dir`.
    pub fn incluster_from_dir(dir: impl AsRef<Path>) -> Result<Self, Error> {
        let dir = dir.as_ref();
        let env = |name: &str| {
            std::env::var(name)
                .ok()
                .filter(|v| !v.is_empty())
                .ok_or_else(|| {
                    Error::config(
                        ConfigErrorKind::Missing,
                        "in-cluster config",
                        format!("{name} is not set"),
                    )
                })
        };
        let host = env("KUBERNETES_SERVICE_HOST")?;
        let port = env("KUBERNETES_SERVICE_PORT")?;
        let host = if host.contains(':') && !host.starts_with('[') {
            format!("[{host}]")
        } else {
            host
        };
        let ca_path = dir.join("ca.crt");
        let ca = std::fs::read(&ca_path).map_err(|e| {
            Error::config_with_source(
                ConfigErrorKind::Read,
                "in-cluster config",
                format!("cannot read {}", ca_path.display()),
                e,
            )
        })?;
        let roots = parse_certs(&ca).map_err(|e| {
            Error::config(
                ConfigErrorKind::Invalid,
                "in-cluster config",
                format!("{}: {e}", ca_path.display()),
            )
        })?;
        let token_path = dir.join("token");
        if let Err(e) = std::fs::metadata(&token_path) {
            return Err(Error::config_with_source(
                ConfigErrorKind::Read,
                "in-cluster config",
                format!("cannot read {}", token_path.display()),
                e,
            ));
        }
        let namespace = std::fs::read_to_string(dir.join("namespace"))
            .ok()
            .map(|n| n.trim().to_owned())
            .filter(|n| !n.is_empty())
            .unwrap_or_else(|| "default".to_owned());
        Ok(Self {
            root_certs: Some(roots),
            auth: AuthConfig::TokenFile(token_path),
            default_namespace: namespace,
            ..Self::new(format!("https://{host}:{port}"))
        })
    }
}

/// The kubeconfig files to read: `KUBECONFIG`'s existing entries, else `~/.kube/config` if it exists.
fn kubeconfig_paths() -> Result<Option<Vec<PathBuf>>, Error> {
    if let Some(list) = std::env::var_os("KUBECONFIG").filter(|v| !v.is_empty()) {
        let listed: Vec<PathBuf> = std::env::split_paths(&list)
            .filter(|p| !p.as_os_str().is_empty())
            .collect();
        // kubectl skips KUBECONFIG entries that do not exist.
        let existing: Vec<PathBuf> = listed.iter().filter(|p| p.exists()).cloned().collect();
        if existing.is_empty() {
            return Err(Error::config(
                ConfigErrorKind::NotFound,
                format!("KUBECONFIG={}", list.to_string_lossy()),
                "none of these files exists",
            ));
        }
        return Ok(Some(existing));
    }
    let home = std::env::var_os("HOME").or_else(|| std::env::var_os("USERPROFILE"));
    Ok(home
        .map(|h| PathBuf::from(h).join(".kube").join("config"))
        .filter(|p| p.exists())
        .map(|p| vec![p]))
}

/// A URL for `Debug` output and messages: any `user:password@` replaced by `redacted@`, and
/// `<redacted>` for a string that is not a URL, as it may be anything (a secret in the wrong
/// field, or credentials the URL parser could not find).
pub(crate) fn redact_userinfo(url: &str) -> String {
    match super::url::Url::parse(url) {
        Ok(u) if u.userinfo().is_some() => u.with_user_only("redacted").to_string(),
        Ok(_) => url.to_owned(),
        Err(_) => "<redacted>".to_owned(),
    }
}

/// Why `insecure-skip-tls-verify` and a CA cannot both be set: client-go refuses the pair
/// ("specifying a root certificates file with the insecure flag is not allowed").
pub(super) const INSECURE_WITH_CA: &str =
    "insecure-skip-tls-verify together with a certificate authority is not allowed (as in \
     client-go): the server would not be verified against that CA; remove one of the two";

/// PEM certificates, at least one.
pub(super) fn parse_certs(pem: &[u8]) -> Result<Vec<CertificateDer<'static>>, String> {
    let certs = CertificateDer::pem_slice_iter(pem)
        .collect::<Result<Vec<_>, _>>()
        .map_err(|e| format!("invalid PEM certificate: {e}"))?;
    if certs.is_empty() {
        return Err("no PEM certificate found".to_owned());
    }
    Ok(certs)
}
