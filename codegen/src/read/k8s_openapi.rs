//! Extracts resource tables from the k8s-openapi crate's sources.
//!
//! The crate ships no list of its resources, but every listable type is spelled out as
//! `impl crate::Resource for X { const GROUP ..; const VERSION ..; const KIND ..;
//! const URL_PATH_SEGMENT ..; type Scope = crate::NamespaceResourceScope; }` plus
//! `impl crate::ListableResource for X { const LIST_KIND .. }` in `src/v1_XX/<module path>.rs`.
//! Kept: listable types with `ObjectMeta` that the API server can also watch.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use crate::model::{ResourceDef, Scope, Subresources, TypeRef};

use super::table::Table;
use super::ReadError;

/// Types k8s-openapi marks listable whose API serves `list` but no `watch`, so no informer
/// can follow them: `(group, version, kind)`. `componentstatuses` is deprecated and
/// list-only; `tests/openapi.rs` checks this list against the v1.35 v3 and v1.36 v2 specs.
pub const NOT_WATCHABLE: &[(&str, &str, &str)] = &[("", "v1", "ComponentStatus")];

/// Finds the sources of k8s-openapi `crate_version` in the cargo registry
/// (`$CARGO_HOME/registry/src/*/k8s-openapi-<version>`, `CARGO_HOME` defaulting to `~/.cargo`).
pub fn locate_registry_sources(crate_version: &str) -> Option<PathBuf> {
    let cargo_home = std::env::var_os("CARGO_HOME")
        .map(PathBuf::from)
        .or_else(|| std::env::var_os("HOME").map(|h| PathBuf::from(h).join(".cargo")))?;
    let registry = cargo_home.join("registry").join("src");
    let mut candidates: Vec<PathBuf> = std::fs::read_dir(&registry)
        .ok()?
        .filter_map(Result::ok)
        .map(|e| e.path().join(format!("k8s-openapi-{crate_version}")))
        .filter(|p| p.join("src").is_dir())
        .collect();
    candidates.sort();
    candidates.into_iter().next()
}

/// Extracts one table per `src/v1_XX` directory of the k8s-openapi sources at `crate_dir`.
pub fn extract(crate_dir: &Path) -> Result<Vec<Table>, ReadError> {
    let crate_version = crate_version(crate_dir)?;
    version_dirs(crate_dir)?
        .into_iter()
        .map(|(minor, dir)| {
            Ok(Table {
                kubernetes_version: format!("1.{minor}"),
                source: format!("k8s-openapi {crate_version}"),
                resources: extract_version(&dir)?,
            })
        })
        .collect()
}

/// The `src/v1_XX` directories of the k8s-openapi sources at `crate_dir`, by minor version.
pub fn version_dirs(crate_dir: &Path) -> Result<Vec<(u32, PathBuf)>, ReadError> {
    let src = crate_dir.join("src");
    let mut versions: Vec<(u32, PathBuf)> = read_dir_sorted(&src)?
        .into_iter()
        .filter(|p| p.is_dir())
        .filter_map(|p| {
            let minor = p
                .file_name()?
                .to_str()?
                .strip_prefix("v1_")?
                .parse::<u32>()
                .ok()?;
            Some((minor, p))
        })
        .collect();
    versions.sort();
    if versions.is_empty() {
        return Err(ReadError::Invalid {
            path: src,
            problem: "no v1_XX version directories: not the k8s-openapi sources".into(),
        });
    }
    Ok(versions)
}

/// Every `.rs` file below a `src/v1_XX` directory with the module its types are
/// re-exported from (`["api", "core", "v1"]`).
pub fn rs_files_with_modules(version_dir: &Path) -> Result<Vec<(PathBuf, Vec<String>)>, ReadError> {
    let mut files = Vec::new();
    collect_rs_files(version_dir, &mut files)?;
    Ok(files
        .into_iter()
        .map(|f| {
            let module = module_path(version_dir, &f);
            (f, module)
        })
        .collect())
}

/// The `version` of the crate's `Cargo.toml`.
fn crate_version(crate_dir: &Path) -> Result<String, ReadError> {
    let path = crate_dir.join("Cargo.toml");
    let text = std::fs::read_to_string(&path).map_err(|source| ReadError::Io {
        path: path.clone(),
        source,
    })?;
    let mut in_package = false;
    for line in text.lines() {
        let line = line.trim();
        if line.starts_with('[') {
            in_package = line == "[package]";
        } else if in_package {
            if let Some(value) = line.strip_prefix("version").map(str::trim) {
                if let Some(value) = value.strip_prefix('=') {
                    return Ok(value.trim().trim_matches('"').to_owned());
                }
            }
        }
    }
    Err(ReadError::Invalid {
        path,
        problem: "no `version` in [package]".into(),
    })
}

/// Every listable resource in one `src/v1_XX` directory, sorted.
pub fn extract_version(version_dir: &Path) -> Result<Vec<ResourceDef>, ReadError> {
    let mut files = Vec::new();
    collect_rs_files(version_dir, &mut files)?;
    let mut resources = Vec::new();
    for file in files {
        let text = std::fs::read_to_string(&file).map_err(|source| ReadError::Io {
            path: file.clone(),
            source,
        })?;
        // Parsing is the slow part: only files that declare a listable type need it.
        if !text.contains("impl crate::ListableResource for") {
            continue;
        }
        let module_path = module_path(version_dir, &file);
        resources.extend(extract_file(&file, &text, &module_path)?);
    }
    resources.retain(|r| {
        !NOT_WATCHABLE
            .iter()
            .any(|(g, v, k)| r.group == *g && r.version == *v && r.kind == *k)
    });
    resources.sort();
    Ok(resources)
}

fn read_dir_sorted(dir: &Path) -> Result<Vec<PathBuf>, ReadError> {
    let mut entries: Vec<PathBuf> = std::fs::read_dir(dir)
        .map_err(|source| ReadError::Io {
            path: dir.to_owned(),
            source,
        })?
        .map(|e| e.map(|e| e.path()))
        .collect::<Result<_, _>>()
        .map_err(|source| ReadError::Io {
            path: dir.to_owned(),
            source,
        })?;
    entries.sort();
    Ok(entries)
}

fn collect_rs_files(dir: &Path, out: &mut Vec<PathBuf>) -> Result<(), ReadError> {
    for path in read_dir_sorted(dir)? {
        if path.is_dir() {
            collect_rs_files(&path, out)?;
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
    Ok(())
}

/// `v1_37/api/core/v1/pod.rs` → `["api", "core", "v1"]`, the module below the crate root
/// (types are re-exported by their directory's module).
fn module_path(version_dir: &Path, file: &Path) -> Vec<String> {
    file.parent()
        .and_then(|d| d.strip_prefix(version_dir).ok())
        .map(|dir| {
            dir.components()
                .map(|c| c.as_os_str().to_string_lossy().into_owned())
                .collect()
        })
        .unwrap_or_default()
}

#[derive(Default)]
struct Found {
    group: Option<String>,
    version: Option<String>,
    kind: Option<String>,
    plural: Option<String>,
    scope: Option<Scope>,
    list_kind: Option<String>,
    object_meta: bool,
}

fn extract_file(
    path: &Path,
    text: &str,
    module_path: &[String],
) -> Result<Vec<ResourceDef>, ReadError> {
    let file = syn::parse_file(text).map_err(|source| ReadError::Rust {
        path: path.to_owned(),
        source,
    })?;
    let mut found: BTreeMap<String, Found> = BTreeMap::new();
    for item in &file.items {
        let syn::Item::Impl(imp) = item else { continue };
        let Some((_, trait_path, _)) = &imp.trait_ else {
            continue;
        };
        let Some(self_ty) = type_ident(&imp.self_ty) else {
            continue;
        };
        let trait_name = path_string(trait_path);
        let entry = found.entry(self_ty).or_default();
        for impl_item in &imp.items {
            match (trait_name.as_str(), impl_item) {
                ("crate::Resource", syn::ImplItem::Const(c)) => {
                    let value = string_literal(&c.expr);
                    match c.ident.to_string().as_str() {
                        "GROUP" => entry.group = value,
                        "VERSION" => entry.version = value,
                        "KIND" => entry.kind = value,
                        "URL_PATH_SEGMENT" => entry.plural = value,
                        _ => {}
                    }
                }
                ("crate::Resource", syn::ImplItem::Type(t)) if t.ident == "Scope" => {
                    entry.scope = match type_path_string(&t.ty).as_deref() {
                        Some("crate::NamespaceResourceScope") => Some(Scope::Namespaced),
                        Some("crate::ClusterResourceScope") => Some(Scope::Cluster),
                        _ => None,
                    };
                }
                ("crate::ListableResource", syn::ImplItem::Const(c)) if c.ident == "LIST_KIND" => {
                    entry.list_kind = string_literal(&c.expr);
                }
                ("crate::Metadata", syn::ImplItem::Type(t)) if t.ident == "Ty" => {
                    entry.object_meta = type_path_string(&t.ty).as_deref()
                        == Some("crate::apimachinery::pkg::apis::meta::v1::ObjectMeta");
                }
                _ => {}
            }
        }
    }

    let mut defs: Vec<ResourceDef> = Vec::new();
    for (ty, f) in found {
        // Only types the runtime can cache: listable, with ObjectMeta.
        let Some(list_kind) = f.list_kind else {
            continue;
        };
        if !f.object_meta {
            continue;
        }
        let missing = |what: &str| ReadError::Invalid {
            path: path.to_owned(),
            problem: format!("`impl crate::Resource for {ty}` has no {what}"),
        };
        defs.push(ResourceDef {
            group: f.group.ok_or_else(|| missing("GROUP"))?,
            version: f.version.ok_or_else(|| missing("VERSION"))?,
            kind: f.kind.ok_or_else(|| missing("KIND"))?,
            plural: f.plural.ok_or_else(|| missing("URL_PATH_SEGMENT"))?,
            scope: f.scope.ok_or_else(|| missing("known Scope"))?,
            list_kind,
            ty: TypeRef::K8sOpenapi {
                module: module_path.to_vec(),
                name: ty,
            },
            doc: None,
            // k8s-openapi's sources do not say; `table::builtin` adds them.
            subresources: Subresources::NONE,
            protobuf: false,
        });
    }
    Ok(defs)
}

fn type_ident(ty: &syn::Type) -> Option<String> {
    match ty {
        syn::Type::Path(p) if p.qself.is_none() && p.path.segments.len() == 1 => {
            Some(p.path.segments[0].ident.to_string())
        }
        _ => None,
    }
}

fn type_path_string(ty: &syn::Type) -> Option<String> {
    match ty {
        syn::Type::Path(p) if p.qself.is_none() => Some(path_string(&p.path)),
        _ => None,
    }
}

fn path_string(path: &syn::Path) -> String {
    path.segments
        .iter()
        .map(|s| s.ident.to_string())
        .collect::<Vec<_>>()
        .join("::")
}

fn string_literal(expr: &syn::Expr) -> Option<String> {
    match expr {
        syn::Expr::Lit(syn::ExprLit {
            lit: syn::Lit::Str(s),
            ..
        }) => Some(s.value()),
        _ => None,
    }
}
