//! Resource tables: one JSON file per Kubernetes version, listing every listable resource
//! k8s-openapi offers for it. The tables of the supported versions are compiled in, with
//! the subresources of the checked-in [subresource table](super::subresources) added.

use std::path::Path;

use crate::model::{ResourceDef, Scope, TypeRef};

use super::protobuf_table::ProtobufTable;
use super::subresources::{self, SubresourceTable};
use super::ReadError;

/// A resource table: what k8s-openapi offers for one Kubernetes version.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Table {
    /// Kubernetes version, `1.37`.
    pub kubernetes_version: String,
    /// Where it was extracted from, `k8s-openapi 0.29.0`.
    pub source: String,
    /// Listable resources, sorted by group, version, kind.
    pub resources: Vec<ResourceDef>,
}

/// A table as written on disk: the resource's type is spelled as a path
/// (`k8s_openapi::api::core::v1::Pod`).
#[derive(serde::Serialize, serde::Deserialize)]
struct TableFile {
    kubernetes_version: String,
    source: String,
    resources: Vec<Entry>,
}

#[derive(serde::Serialize, serde::Deserialize)]
struct Entry {
    group: String,
    version: String,
    kind: String,
    plural: String,
    scope: Scope,
    list_kind: String,
    rust_type_path: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    doc: Option<String>,
    /// `status` and/or `scale`; the checked-in tables leave it out (the subresource table
    /// says it for every version), other tables may list them.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    subresources: Vec<String>,
}

/// The compiled-in tables: (Kubernetes version, JSON text).
const BUILTIN: &[(&str, &str)] = &[
    ("1.33", include_str!("../../resources/v1_33.json")),
    ("1.34", include_str!("../../resources/v1_34.json")),
    ("1.35", include_str!("../../resources/v1_35.json")),
    ("1.36", include_str!("../../resources/v1_36.json")),
    ("1.37", include_str!("../../resources/v1_37.json")),
];

/// The Kubernetes versions with a compiled-in table.
pub fn builtin_versions() -> Vec<&'static str> {
    BUILTIN.iter().map(|(v, _)| *v).collect()
}

/// The compiled-in table of Kubernetes `version` (`1.37`, also accepted as `v1_37` or `1_37`),
/// with the subresources of [`SubresourceTable::builtin`] and the protobuf flag of
/// [`ProtobufTable::mark_protobuf`].
pub fn builtin(version: &str) -> Result<Table, ReadError> {
    let mut table = builtin_as_extracted(version)?;
    SubresourceTable::builtin()?.apply(&mut table.resources);
    if let Some(minor) = minor_of(&table.kubernetes_version) {
        ProtobufTable::builtin()?.mark_protobuf(minor, &mut table.resources);
    }
    Ok(table)
}

/// `1.37` → 37.
pub fn minor_of(version: &str) -> Option<u32> {
    normalize_version(version)?.split_once('.')?.1.parse().ok()
}

/// The compiled-in table of Kubernetes `version` as checked in, as extracted from the
/// k8s-openapi sources: without subresources.
pub fn builtin_as_extracted(version: &str) -> Result<Table, ReadError> {
    let normal = normalize_version(version);
    let (name, text) = BUILTIN
        .iter()
        .find(|(v, _)| Some(*v) == normal.as_deref())
        .ok_or_else(|| ReadError::UnknownVersion {
            version: version.to_owned(),
            known: builtin_versions().join(", "),
        })?;
    parse(Path::new(&format!("<built-in table {name}>")), text)
}

/// `1.37`, `v1_37`, `1_37`, `v1.37` → `1.37`.
pub fn normalize_version(version: &str) -> Option<String> {
    let v = version.trim().trim_start_matches('v').replace('_', ".");
    let (major, minor) = v.split_once('.')?;
    let major: u32 = major.parse().ok()?;
    let minor: u32 = minor.parse().ok()?;
    Some(format!("{major}.{minor}"))
}

/// The file name of the table of `version` (`1.37` → `v1_37.json`).
pub fn file_name(version: &str) -> String {
    format!("v{}.json", version.replace('.', "_"))
}

/// Reads a table file.
pub fn read(path: &Path) -> Result<Table, ReadError> {
    let text = std::fs::read_to_string(path).map_err(|source| ReadError::Io {
        path: path.to_owned(),
        source,
    })?;
    parse(path, &text)
}

/// Parses table JSON read from `path`.
pub fn parse(path: &Path, text: &str) -> Result<Table, ReadError> {
    let file: TableFile = serde_json::from_str(text).map_err(|source| ReadError::Json {
        path: path.to_owned(),
        source,
    })?;
    let mut resources = Vec::with_capacity(file.resources.len());
    for entry in file.resources {
        let subresources = subresources::parse_names(path, &entry.subresources, || {
            let group = if entry.group.is_empty() {
                "core"
            } else {
                entry.group.as_str()
            };
            format!("{group}/{}/{}", entry.version, entry.kind)
        })?;
        let Some(ty) = TypeRef::parse_k8s_openapi(&entry.rust_type_path) else {
            let group = if entry.group.is_empty() {
                "core"
            } else {
                entry.group.as_str()
            };
            return Err(ReadError::Invalid {
                path: path.to_owned(),
                problem: format!(
                    "resource {group}/{}/{}: rust_type_path `{}` is not a k8s-openapi type \
                     (`k8s_openapi::<module>::<Type>`)",
                    entry.version, entry.kind, entry.rust_type_path
                ),
            });
        };
        resources.push(ResourceDef {
            group: entry.group,
            version: entry.version,
            kind: entry.kind,
            plural: entry.plural,
            scope: entry.scope,
            list_kind: entry.list_kind,
            ty,
            doc: entry.doc,
            subresources,
            protobuf: false,
        });
    }
    let table = Table {
        kubernetes_version: file.kubernetes_version,
        source: file.source,
        resources,
    };
    if table.resources.is_empty() {
        return Err(ReadError::Invalid {
            path: path.to_owned(),
            problem: "the table lists no resources".into(),
        });
    }
    Ok(table)
}

/// The table as pretty JSON with a trailing newline (what is checked in).
pub fn to_json(table: &Table) -> String {
    let file = TableFile {
        kubernetes_version: table.kubernetes_version.clone(),
        source: table.source.clone(),
        resources: table
            .resources
            .iter()
            .map(|r| Entry {
                group: r.group.clone(),
                version: r.version.clone(),
                kind: r.kind.clone(),
                plural: r.plural.clone(),
                scope: r.scope,
                list_kind: r.list_kind.clone(),
                rust_type_path: r.ty.to_string(),
                doc: r.doc.clone(),
                subresources: r
                    .subresources
                    .names()
                    .into_iter()
                    .map(str::to_owned)
                    .collect(),
            })
            .collect(),
    };
    let mut text = serde_json::to_string_pretty(&file).unwrap_or_default();
    text.push('\n');
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_builtin_table_parses_and_is_sorted() {
        for version in builtin_versions() {
            let table = builtin(version).unwrap();
            assert_eq!(table.kubernetes_version, version);
            let mut sorted = table.resources.clone();
            sorted.sort();
            assert_eq!(sorted, table.resources, "{version}");
        }
        assert_eq!(builtin("v1_37").unwrap().kubernetes_version, "1.37");
        assert!(builtin("1.99").unwrap_err().to_string().contains("1.99"));
    }
}
