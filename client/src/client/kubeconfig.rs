//! The kubeconfig file format, and merging several files the way kubectl does:
//! the first file that names a cluster, user or context (or sets `current-context`) wins.
//!
//! Every entry remembers the file and list index it came from, so errors can name
//! the exact field (`users[0].user.client-certificate` in `/home/me/.kube/config`)
//! and relative paths resolve against the directory of the file that holds them.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use base64::Engine as _;
use rustls_pki_types::pem::PemObject;
use rustls_pki_types::PrivateKeyDer;
use serde::Deserialize;

use super::config::{
    parse_certs, AuthConfig, Config, ExecConfig, Identity, Impersonate, INSECURE_WITH_CA,
};
use super::proxy::parse_proxy_url;

use crate::error::{ConfigErrorKind, Error};

/// Which context, cluster and user to take from a kubeconfig
/// (kubectl's `--context`, `--cluster` and `--user`). `None` means "as the kubeconfig says".
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct KubeConfigOptions {
    /// The context to use instead of `current-context`.
    pub context: Option<String>,
    /// The cluster to use instead of the context's.
    pub cluster: Option<String>,
    /// The user to use instead of the context's.
    pub user: Option<String>,
}

/// One kubeconfig file as written on disk.
#[derive(Deserialize, Default)]
struct KubeconfigFile {
    #[serde(rename = "current-context", default)]
    current_context: Option<String>,
    #[serde(default)]
    clusters: Option<Vec<Named<ClusterEntry>>>,
    #[serde(default)]
    users: Option<Vec<Named<UserEntry>>>,
    #[serde(default)]
    contexts: Option<Vec<Named<ContextEntry>>>,
}

/// A named list entry: `{ name, cluster | user | context }`.
#[derive(Deserialize)]
struct Named<T> {
    name: String,
    #[serde(alias = "cluster", alias = "user", alias = "context")]
    value: Option<T>,
}

/// `clusters[].cluster`.
#[derive(Deserialize, Default, Clone)]
#[serde(rename_all = "kebab-case")]
struct ClusterEntry {
    server: Option<String>,
    certificate_authority: Option<String>,
    certificate_authority_data: Option<String>,
    #[serde(default)]
    insecure_skip_tls_verify: bool,
    tls_server_name: Option<String>,
    proxy_url: Option<String>,
    #[serde(default)]
    disable_compression: bool,
}

/// `users[].user`.
#[derive(Deserialize, Default, Clone)]
#[serde(rename_all = "kebab-case")]
struct UserEntry {
    token: Option<String>,
    #[serde(rename = "tokenFile")]
    token_file: Option<String>,
    client_certificate: Option<String>,
    client_certificate_data: Option<String>,
    client_key: Option<String>,
    client_key_data: Option<String>,
    username: Option<String>,
    password: Option<String>,
    exec: Option<ExecEntry>,
    auth_provider: Option<serde_yaml_ng::Value>,
    #[serde(rename = "as")]
    impersonate: Option<String>,
    #[serde(rename = "as-uid")]
    impersonate_uid: Option<String>,
    #[serde(rename = "as-groups")]
    impersonate_groups: Option<Vec<String>>,
    #[serde(rename = "as-user-extra")]
    impersonate_user_extra: Option<BTreeMap<String, Vec<String>>>,
}

/// `users[].user.exec`.
#[derive(Deserialize, Default, Clone)]
#[serde(rename_all = "camelCase")]
struct ExecEntry {
    command: String,
    #[serde(default)]
    args: Option<Vec<String>>,
    #[serde(default)]
    env: Option<Vec<ExecEnvEntry>>,
    #[serde(default)]
    api_version: Option<String>,
    #[serde(default)]
    install_hint: Option<String>,
    #[serde(default)]
    provide_cluster_info: bool,
    #[serde(default)]
    interactive_mode: Option<String>,
}

/// `users[].user.exec.env[]`.
#[derive(Deserialize, Default, Clone)]
struct ExecEnvEntry {
    name: String,
    value: String,
}

/// `contexts[].context`.
#[derive(Deserialize, Default, Clone)]
struct ContextEntry {
    cluster: Option<String>,
    user: Option<String>,
    namespace: Option<String>,
}

/// An entry together with where it was read from.
#[derive(Clone)]
struct Sourced<T> {
    /// The kubeconfig file that holds it.
    file: PathBuf,
    /// The field path of the entry, e.g. `users[2]`.
    field: String,
    /// The entry's name.
    name: String,
    /// The entry.
    value: T,
}

impl<T> Sourced<T> {
    /// `kubeconfig <file>: <field>.<sub>: <message>`.
    fn error(&self, kind: ConfigErrorKind, sub: &str, message: impl std::fmt::Display) -> Error {
        Error::config(
            kind,
            format!("kubeconfig {}: {}.{sub}", self.file.display(), self.field),
            message.to_string(),
        )
    }

    /// The directory relative paths in this entry resolve against.
    fn base_dir(&self) -> &Path {
        self.file.parent().unwrap_or_else(|| Path::new("."))
    }

    /// `path` resolved against the directory of the file that holds this entry.
    fn resolve_path(&self, path: &str) -> PathBuf {
        let p = Path::new(path);
        if p.is_absolute() {
            p.to_path_buf()
        } else {
            self.base_dir().join(p)
        }
    }
}

/// One or more kubeconfig files merged.
#[derive(Default)]
pub(crate) struct Kubeconfig {
    files: Vec<PathBuf>,
    current_context: Option<String>,
    clusters: Vec<Sourced<ClusterEntry>>,
    users: Vec<Sourced<UserEntry>>,
    contexts: Vec<Sourced<ContextEntry>>,
}

/// The context, cluster and user a kubeconfig selects.
pub(crate) struct Selected {
    context: Sourced<ContextEntry>,
    cluster: Sourced<ClusterEntry>,
    user: Option<Sourced<UserEntry>>,
}

impl Kubeconfig {
    /// Reads and merges `paths` in order; every file must exist and parse.
    pub(crate) fn read_files(paths: &[PathBuf]) -> Result<Self, Error> {
        let mut merged = Kubeconfig::default();
        for path in paths {
            let bytes = std::fs::read(path).map_err(|e| {
                Error::config_with_source(
                    ConfigErrorKind::Read,
                    format!("kubeconfig {}", path.display()),
                    "cannot read",
                    e,
                )
            })?;
            merged.merge(path, &bytes)?;
        }
        Ok(merged)
    }

    /// Merges one file's contents; entries already present win.
    pub(crate) fn merge(&mut self, path: &Path, bytes: &[u8]) -> Result<(), Error> {
        self.files.push(path.to_path_buf());
        if bytes.iter().all(u8::is_ascii_whitespace) {
            return Ok(());
        }
        let file: KubeconfigFile = serde_yaml_ng::from_slice(bytes).map_err(|e| {
            Error::config(
                ConfigErrorKind::Parse,
                format!("kubeconfig {}", path.display()),
                format!("cannot parse: {}", without_values(&e.to_string())),
            )
        })?;
        if self.current_context.is_none() {
            self.current_context = file.current_context.filter(|c| !c.is_empty());
        }
        add_entries(&mut self.clusters, path, "clusters", file.clusters);
        add_entries(&mut self.users, path, "users", file.users);
        add_entries(&mut self.contexts, path, "contexts", file.contexts);
        Ok(())
    }

    fn describe_files(&self) -> String {
        let names: Vec<String> = self.files.iter().map(|f| f.display().to_string()).collect();
        names.join(":")
    }

    /// The context, cluster and user `options` (else `current-context`) select.
    pub(crate) fn select(&self, options: &KubeConfigOptions) -> Result<Selected, Error> {
        let files = self.describe_files();
        let context_name = options
            .context
            .as_deref()
            .or(self.current_context.as_deref())
            .ok_or_else(|| {
                Error::config(
                    ConfigErrorKind::Missing,
                    format!("kubeconfig {files}"),
                    "current-context is not set and no context was given",
                )
            })?;
        let context = find(&self.contexts, context_name).ok_or_else(|| {
            Error::config(
                ConfigErrorKind::Missing,
                format!("kubeconfig {files}"),
                format!(
                    "context {context_name:?} not found (known: {})",
                    known(&self.contexts)
                ),
            )
        })?;
        let cluster_name = match options.cluster.as_deref() {
            Some(name) => name,
            None => context
                .value
                .cluster
                .as_deref()
                .filter(|c| !c.is_empty())
                .ok_or_else(|| {
                    context.error(ConfigErrorKind::Missing, "context.cluster", "missing")
                })?,
        };
        let cluster = find(&self.clusters, cluster_name).ok_or_else(|| {
            context.error(
                ConfigErrorKind::Missing,
                "context.cluster",
                format!(
                    "cluster {cluster_name:?} not found (known: {})",
                    known(&self.clusters)
                ),
            )
        })?;
        let user_name = options
            .user
            .as_deref()
            .or(context.value.user.as_deref())
            .filter(|u| !u.is_empty());
        let user = match user_name {
            None => None,
            Some(name) => Some(
                find(&self.users, name)
                    .ok_or_else(|| {
                        context.error(
                            ConfigErrorKind::Missing,
                            "context.user",
                            format!("user {name:?} not found (known: {})", known(&self.users)),
                        )
                    })?
                    .clone(),
            ),
        };
        Ok(Selected {
            context: context.clone(),
            cluster: cluster.clone(),
            user,
        })
    }
}

/// A YAML or JSON parser's message without the values it quotes, which may be secrets in
/// the wrong place (`invalid type: string "<the token>", expected a sequence`). What stays:
/// the field path and position the parser gives, and what it found and expected, by kind.
pub(crate) fn without_values(message: &str) -> String {
    for marker in ["invalid type: ", "invalid value: "] {
        if let Some(start) = message.find(marker) {
            let rest = &message[start + marker.len()..];
            // serde writes what it found as `string "…"`, `integer `…``, `map`, …
            let kind = rest[..rest.find(['"', '`', ',']).unwrap_or(rest.len())].trim();
            // What was expected comes last and from this crate's types, so it holds no value.
            let expected = rest.rfind(", expected ").map_or("", |i| &rest[i..]);
            return format!("{}{marker}{kind}{expected}", &message[..start]);
        }
    }
    if message.contains("missing field `") || message.contains("duplicate field `") {
        // Field names, from this crate's types.
        return message.to_owned();
    }
    match message.find(['"', '`']) {
        Some(i) => format!("{}…", &message[..i]),
        None => message.to_owned(),
    }
}

fn add_entries<T: Default>(
    into: &mut Vec<Sourced<T>>,
    path: &Path,
    list: &str,
    entries: Option<Vec<Named<T>>>,
) {
    for (i, entry) in entries.into_iter().flatten().enumerate() {
        if into.iter().any(|e| e.name == entry.name) {
            continue;
        }
        into.push(Sourced {
            file: path.to_path_buf(),
            field: format!("{list}[{i}]"),
            name: entry.name,
            // An entry without a body (`- name: x`) behaves as an empty one, as in kubectl.
            value: entry.value.unwrap_or_default(),
        });
    }
}

fn find<'a, T>(entries: &'a [Sourced<T>], name: &str) -> Option<&'a Sourced<T>> {
    entries.iter().find(|e| e.name == name)
}

fn known<T>(entries: &[Sourced<T>]) -> String {
    if entries.is_empty() {
        return "none".to_owned();
    }
    let names: Vec<&str> = entries.iter().map(|e| e.name.as_str()).collect();
    names.join(", ")
}

/// The exec section's `interactiveMode`. A plugin never gets a terminal here (its stdin is
/// empty), so `Always` cannot be honoured; `IfAvailable` and `Never` run it without one, as
/// client-go does when stdin is not a terminal. Unset is taken as `IfAvailable`, client-go's
/// default for v1beta1 (it requires the field for v1).
fn check_interactive_mode(user: &Sourced<UserEntry>, mode: Option<&str>) -> Result<(), Error> {
    const FIELD: &str = "user.exec.interactiveMode";
    match mode.unwrap_or_default() {
        "" | "IfAvailable" | "Never" => Ok(()),
        "Always" => Err(user.error(
            ConfigErrorKind::Unsupported,
            FIELD,
            "Always is not supported: this client never gives an exec plugin a terminal to \
             ask for input; use IfAvailable or Never, and log in with the plugin beforehand",
        )),
        // The value is not quoted: an unexpected string may be a secret in the wrong place.
        _ => Err(user.error(
            ConfigErrorKind::Invalid,
            FIELD,
            "not one of Never, IfAvailable or Always",
        )),
    }
}

/// The user entry's `as`, `as-uid`, `as-groups` and `as-user-extra`.
fn impersonation(user: &Sourced<UserEntry>) -> Result<Impersonate, Error> {
    let u = &user.value;
    let imp = Impersonate {
        user: u.impersonate.clone().filter(|s| !s.is_empty()),
        uid: u.impersonate_uid.clone().filter(|s| !s.is_empty()),
        groups: u.impersonate_groups.clone().unwrap_or_default(),
        extra: u.impersonate_user_extra.clone().unwrap_or_default(),
    };
    if imp.user.is_none() && !imp.is_empty() {
        // client-go refuses these too: the server needs a user to attach them to.
        return Err(user.error(
            ConfigErrorKind::Missing,
            "user.as",
            "missing: as-uid, as-groups and as-user-extra need a user to impersonate",
        ));
    }
    Ok(imp)
}

/// The bytes of a `-data` field (base64) or of the file a path field names.
fn data_or_file<T>(
    entry: &Sourced<T>,
    data_field: &str,
    data: Option<&str>,
    file_field: &str,
    file: Option<&str>,
) -> Result<Option<Vec<u8>>, Error> {
    if let Some(data) = data.filter(|d| !d.is_empty()) {
        let bytes = base64::engine::general_purpose::STANDARD
            .decode(data.trim())
            .map_err(|e| {
                entry.error(
                    ConfigErrorKind::Invalid,
                    data_field,
                    format!("invalid base64: {e}"),
                )
            })?;
        return Ok(Some(bytes));
    }
    if let Some(file) = file.filter(|f| !f.is_empty()) {
        let path = entry.resolve_path(file);
        let bytes = std::fs::read(&path).map_err(|e| {
            entry.error(
                ConfigErrorKind::Read,
                file_field,
                format!("cannot read {}: {e}", path.display()),
            )
        })?;
        return Ok(Some(bytes));
    }
    Ok(None)
}

impl Selected {
    /// The client configuration these entries give.
    pub(crate) fn to_config(&self) -> Result<Config, Error> {
        from_selected(self)
    }

    /// Rewrites every path field of the selected entries (`certificate-authority`,
    /// `client-certificate`, `client-key`, `tokenFile`) to its last component, so that it
    /// resolves inside the directory of the entry's file: fuzzed input must not read the
    /// machine's files (a `/dev/zero` never ends).
    #[cfg(feature = "fuzzing")]
    pub(crate) fn confine_paths(&mut self) {
        confine(&mut self.cluster, |c| {
            [c.certificate_authority.as_mut()].into_iter().flatten()
        });
        if let Some(user) = self.user.as_mut() {
            confine(user, |u| {
                [
                    u.client_certificate.as_mut(),
                    u.client_key.as_mut(),
                    u.token_file.as_mut(),
                ]
                .into_iter()
                .flatten()
            });
        }
    }
}

fn from_selected(selected: &Selected) -> Result<Config, Error> {
    let cluster = &selected.cluster;
    let server = cluster
        .value
        .server
        .as_deref()
        .filter(|s| !s.is_empty())
        .ok_or_else(|| cluster.error(ConfigErrorKind::Missing, "cluster.server", "missing"))?;
    if let Err(e) = super::url::Url::parse(server) {
        return Err(cluster.error(
            ConfigErrorKind::Invalid,
            "cluster.server",
            format!("not a URL: {e}"),
        ));
    }
    let has_ca = [
        &cluster.value.certificate_authority,
        &cluster.value.certificate_authority_data,
    ]
    .iter()
    .any(|f| f.as_deref().is_some_and(|v| !v.is_empty()));
    if cluster.value.insecure_skip_tls_verify && has_ca {
        return Err(cluster.error(
            ConfigErrorKind::Invalid,
            "cluster.insecure-skip-tls-verify",
            INSECURE_WITH_CA,
        ));
    }
    let ca = data_or_file(
        cluster,
        "cluster.certificate-authority-data",
        cluster.value.certificate_authority_data.as_deref(),
        "cluster.certificate-authority",
        cluster.value.certificate_authority.as_deref(),
    )?;
    let root_certs = match ca {
        None => None,
        Some(pem) => {
            let field = if cluster.value.certificate_authority_data.is_some() {
                "cluster.certificate-authority-data"
            } else {
                "cluster.certificate-authority"
            };
            Some(parse_certs(&pem).map_err(|e| cluster.error(ConfigErrorKind::Invalid, field, e))?)
        }
    };
    let mut config = Config::new(server.trim_end_matches('/'));
    config.root_certs = root_certs;
    config.insecure_skip_tls_verify = cluster.value.insecure_skip_tls_verify;
    config.tls_server_name = cluster
        .value
        .tls_server_name
        .clone()
        .filter(|n| !n.is_empty());
    config.proxy_url = match cluster.value.proxy_url.as_deref().filter(|p| !p.is_empty()) {
        None => None,
        Some(url) => Some(
            parse_proxy_url(url)
                .map(|_| url.to_owned())
                .map_err(|(kind, e)| cluster.error(kind, "cluster.proxy-url", e))?,
        ),
    };
    config.disable_compression = cluster.value.disable_compression;
    if let Some(ns) = selected
        .context
        .value
        .namespace
        .as_deref()
        .filter(|n| !n.is_empty())
    {
        config.default_namespace = ns.to_owned();
    }
    if let Some(user) = &selected.user {
        apply_user(&mut config, user)?;
    }
    Ok(config)
}

fn apply_user(config: &mut Config, user: &Sourced<UserEntry>) -> Result<(), Error> {
    let u = &user.value;
    let cert = data_or_file(
        user,
        "user.client-certificate-data",
        u.client_certificate_data.as_deref(),
        "user.client-certificate",
        u.client_certificate.as_deref(),
    )?;
    let key = data_or_file(
        user,
        "user.client-key-data",
        u.client_key_data.as_deref(),
        "user.client-key",
        u.client_key.as_deref(),
    )?;
    let cert_field = if u.client_certificate_data.is_some() {
        "user.client-certificate-data"
    } else {
        "user.client-certificate"
    };
    let key_field = if u.client_key_data.is_some() {
        "user.client-key-data"
    } else {
        "user.client-key"
    };
    config.identity = match (cert, key) {
        (None, None) => None,
        (Some(_), None) => {
            return Err(user.error(
                ConfigErrorKind::Missing,
                key_field,
                "missing: a client certificate needs a key",
            ))
        }
        (None, Some(_)) => {
            return Err(user.error(
                ConfigErrorKind::Missing,
                cert_field,
                "missing: a client key needs a certificate",
            ))
        }
        (Some(cert), Some(key)) => {
            let cert_chain = parse_certs(&cert)
                .map_err(|e| user.error(ConfigErrorKind::Invalid, cert_field, e))?;
            let key = PrivateKeyDer::from_pem_slice(&key).map_err(|e| {
                user.error(
                    ConfigErrorKind::Invalid,
                    key_field,
                    format!("no usable PEM private key: {e}"),
                )
            })?;
            Some(Identity { cert_chain, key })
        }
    };
    if let Some(provider) = u
        .auth_provider
        .as_ref()
        .filter(|_| u.exec.is_none() && u.token.is_none())
    {
        let name = provider
            .get("name")
            .and_then(|n| n.as_str())
            .unwrap_or("unnamed");
        return Err(user.error(
            ConfigErrorKind::Unsupported,
            "user.auth-provider",
            format!(
                "the {name:?} auth provider is deprecated and not supported; configure an exec \
                 credential plugin (users[].user.exec) instead, e.g. gke-gcloud-auth-plugin for \
                 GKE or kubelogin for Azure and OIDC"
            ),
        ));
    }
    config.impersonate = impersonation(user)?;
    config.auth = if let Some(exec) = &u.exec {
        if exec.command.is_empty() {
            return Err(user.error(ConfigErrorKind::Missing, "user.exec.command", "missing"));
        }
        let api_version = exec
            .api_version
            .clone()
            .filter(|v| !v.is_empty())
            .ok_or_else(|| {
                user.error(ConfigErrorKind::Missing, "user.exec.apiVersion", "missing")
            })?;
        if api_version != "client.authentication.k8s.io/v1"
            && api_version != "client.authentication.k8s.io/v1beta1"
        {
            return Err(user.error(
                ConfigErrorKind::Unsupported,
                "user.exec.apiVersion",
                format!("unsupported {api_version:?} (expected client.authentication.k8s.io/v1 or v1beta1)"),
            ));
        }
        check_interactive_mode(user, exec.interactive_mode.as_deref())?;
        AuthConfig::Exec(ExecConfig {
            command: exec.command.clone(),
            args: exec.args.clone().unwrap_or_default(),
            env: exec
                .env
                .iter()
                .flatten()
                .map(|e| (e.name.clone(), e.value.clone()))
                .collect(),
            api_version,
            install_hint: exec.install_hint.clone(),
            provide_cluster_info: exec.provide_cluster_info,
            base_dir: user.base_dir().to_path_buf(),
            origin: format!(
                "kubeconfig {}: {}.user.exec",
                user.file.display(),
                user.field
            ),
        })
    } else if let Some(file) = u.token_file.as_deref().filter(|f| !f.is_empty()) {
        let path = user.resolve_path(file);
        if let Err(e) = std::fs::metadata(&path) {
            return Err(user.error(
                ConfigErrorKind::Read,
                "user.tokenFile",
                format!("cannot read {}: {e}", path.display()),
            ));
        }
        AuthConfig::TokenFile(path)
    } else if let Some(token) = u.token.as_deref().filter(|t| !t.is_empty()) {
        AuthConfig::Token(token.to_owned())
    } else if let (Some(username), Some(password)) = (&u.username, &u.password) {
        AuthConfig::Basic {
            username: username.clone(),
            password: password.clone(),
        }
    } else {
        AuthConfig::None
    };
    Ok(())
}

/// Rewrites the path fields `fields` picks out of `entry` to plain file names, so that they
/// resolve inside the directory of the entry's file.
#[cfg(feature = "fuzzing")]
fn confine<'a, T: 'a, I>(entry: &'a mut Sourced<T>, fields: impl FnOnce(&'a mut T) -> I)
where
    I: Iterator<Item = &'a mut String>,
{
    for path in fields(&mut entry.value).filter(|p| !p.is_empty()) {
        let name = Path::new(path.as_str())
            .components()
            .filter_map(|c| match c {
                std::path::Component::Normal(name) => name.to_str(),
                _ => None,
            })
            .next_back()
            .unwrap_or("missing")
            .to_owned();
        *path = name;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const A: &str = r#"
current-context: a
clusters:
- name: c1
  cluster: { server: "https://one" }
users:
- name: u1
  user: { token: t1 }
contexts:
- name: a
  context: { cluster: c1, user: u1, namespace: ns-a }
"#;
    const B: &str = r#"
current-context: b
clusters:
- name: c1
  cluster: { server: "https://shadowed" }
- name: c2
  cluster: { server: "https://two" }
contexts:
- name: b
  context: { cluster: c2, user: missing }
"#;

    fn merged() -> Kubeconfig {
        let mut k = Kubeconfig::default();
        k.merge(Path::new("/a/config"), A.as_bytes()).unwrap();
        k.merge(Path::new("/b/config"), B.as_bytes()).unwrap();
        k
    }

    #[test]
    fn first_file_wins() {
        let s = merged().select(&KubeConfigOptions::default()).unwrap();
        assert_eq!(s.context.name, "a");
        assert_eq!(s.cluster.value.server.as_deref(), Some("https://one"));
        assert_eq!(s.user.unwrap().value.token.as_deref(), Some("t1"));
    }

    #[test]
    fn named_context_from_second_file_and_missing_user() {
        let opts = KubeConfigOptions {
            context: Some("b".into()),
            ..Default::default()
        };
        let err = merged().select(&opts).err().unwrap().to_string();
        assert!(
            err.contains("/b/config: contexts[0].context.user: user \"missing\" not found"),
            "{err}"
        );
    }

    #[test]
    fn unknown_context_names_known_ones() {
        let opts = KubeConfigOptions {
            context: Some("zz".into()),
            ..Default::default()
        };
        let err = merged().select(&opts).err().unwrap().to_string();
        assert!(
            err.contains("context \"zz\" not found (known: a, b)"),
            "{err}"
        );
    }
}
