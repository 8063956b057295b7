//! The kubeconfig file format, and merging several files the way kubectl does:
//! the first file that names a cluster, user or context (or sets `current-context`) wins.
//!
//! Every entry remembers the file and list index it came from, so errors can name
//! the exact field (`users[0].user.client-certificate` in `/home/me/.kube/config`)
//! and relative paths resolve against the directory of the file that holds them.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use serde::Deserialize;

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
pub(crate) struct ClusterEntry {
    pub(crate) server: Option<String>,
    pub(crate) certificate_authority: Option<String>,
    pub(crate) certificate_authority_data: Option<String>,
    #[serde(default)]
    pub(crate) insecure_skip_tls_verify: bool,
    pub(crate) tls_server_name: Option<String>,
    pub(crate) proxy_url: Option<String>,
    #[serde(default)]
    pub(crate) disable_compression: bool,
}

/// `users[].user`.
#[derive(Deserialize, Default, Clone)]
#[serde(rename_all = "kebab-case")]
pub(crate) struct UserEntry {
    pub(crate) token: Option<String>,
    #[serde(rename = "tokenFile")]
    pub(crate) token_file: Option<String>,
    pub(crate) client_certificate: Option<String>,
    pub(crate) client_certificate_data: Option<String>,
    pub(crate) client_key: Option<String>,
    pub(crate) client_key_data: Option<String>,
    pub(crate) username: Option<String>,
    pub(crate) password: Option<String>,
    pub(crate) exec: Option<ExecEntry>,
    pub(crate) auth_provider: Option<serde_yaml_ng::Value>,
    #[serde(rename = "as")]
    pub(crate) impersonate: Option<String>,
    #[serde(rename = "as-uid")]
    pub(crate) impersonate_uid: Option<String>,
    #[serde(rename = "as-groups")]
    pub(crate) impersonate_groups: Option<Vec<String>>,
    #[serde(rename = "as-user-extra")]
    pub(crate) impersonate_user_extra: Option<BTreeMap<String, Vec<String>>>,
}

/// `users[].user.exec`.
#[derive(Deserialize, Default, Clone)]
#[serde(rename_all = "camelCase")]
pub(crate) struct ExecEntry {
    pub(crate) command: String,
    #[serde(default)]
    pub(crate) args: Option<Vec<String>>,
    #[serde(default)]
    pub(crate) env: Option<Vec<ExecEnvEntry>>,
    #[serde(default)]
    pub(crate) api_version: Option<String>,
    #[serde(default)]
    pub(crate) install_hint: Option<String>,
    #[serde(default)]
    pub(crate) provide_cluster_info: bool,
    #[serde(default)]
    pub(crate) interactive_mode: Option<String>,
}

/// `users[].user.exec.env[]`.
#[derive(Deserialize, Default, Clone)]
pub(crate) struct ExecEnvEntry {
    pub(crate) name: String,
    pub(crate) value: String,
}

/// `contexts[].context`.
#[derive(Deserialize, Default, Clone)]
pub(crate) struct ContextEntry {
    pub(crate) cluster: Option<String>,
    pub(crate) user: Option<String>,
    pub(crate) namespace: Option<String>,
}

/// An entry together with where it was read from.
#[derive(Clone)]
pub(crate) struct Sourced<T> {
    /// The kubeconfig file that holds it.
    pub(crate) file: PathBuf,
    /// The field path of the entry, e.g. `users[2]`.
    pub(crate) field: String,
    /// The entry's name.
    pub(crate) name: String,
    /// The entry.
    pub(crate) value: T,
}

impl<T> Sourced<T> {
    /// `kubeconfig <file>: <field>.<sub>: <message>`.
    pub(crate) fn error(
        &self,
        kind: ConfigErrorKind,
        sub: &str,
        message: impl std::fmt::Display,
    ) -> Error {
        Error::config(
            kind,
            format!("kubeconfig {}: {}.{sub}", self.file.display(), self.field),
            message.to_string(),
        )
    }

    /// The directory relative paths in this entry resolve against.
    pub(crate) fn base_dir(&self) -> &Path {
        self.file.parent().unwrap_or_else(|| Path::new("."))
    }

    /// `path` resolved against the directory of the file that holds this entry.
    pub(crate) fn resolve_path(&self, path: &str) -> PathBuf {
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
    pub(crate) context: Sourced<ContextEntry>,
    pub(crate) cluster: Sourced<ClusterEntry>,
    pub(crate) user: Option<Sourced<UserEntry>>,
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
