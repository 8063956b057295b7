//! The subresource table: which built-in resources have the `status` and `scale`
//! subresources, by API group, version and plural. k8s-openapi's sources do not say, the
//! Kubernetes OpenAPI specs do (paths `.../{name}/status` and `.../{name}/scale`), so the
//! table is derived from the specs once and checked in (`resources/subresources.json`);
//! [`super::table::builtin`] adds it to every built-in table. A test re-derives it from the
//! specs when they are at hand (`../shared/openapi`) and fails if it drifted.
//!
//! A resource the specs do not know (one only some other Kubernetes version serves) has no
//! subresource methods; its typed client can still reach them with `with_subresources`.

use std::collections::BTreeMap;
use std::path::Path;

use crate::model::{ResourceDef, Subresources};

use super::{openapi, ReadError};

/// Which resources have which subresources.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct SubresourceTable {
    /// The specs it was derived from, e.g. `Kubernetes 1.36 OpenAPI v2 (swagger.json)`.
    pub sources: Vec<String>,
    /// `(group, version, plural)` → its subresources; only resources with at least one.
    pub resources: BTreeMap<(String, String, String), Subresources>,
}

#[derive(serde::Serialize, serde::Deserialize)]
struct TableFile {
    sources: Vec<String>,
    resources: Vec<Entry>,
}

#[derive(serde::Serialize, serde::Deserialize)]
struct Entry {
    group: String,
    version: String,
    plural: String,
    subresources: Vec<String>,
}

/// The file name of the checked-in table below `resources/`.
pub const FILE_NAME: &str = "subresources.json";

const BUILTIN: &str = include_str!("../../resources/subresources.json");

impl SubresourceTable {
    /// The checked-in table.
    pub fn builtin() -> Result<Self, ReadError> {
        Self::parse(Path::new("<built-in subresource table>"), BUILTIN)
    }

    /// Derives the table from OpenAPI specs (each a v2 file or a v3 directory, see
    /// [`openapi::documents`]) named `(description, path)`: a resource has a subresource
    /// when any of them serves it.
    pub fn from_specs(specs: &[(&str, &Path)]) -> Result<Self, ReadError> {
        let mut table = Self::default();
        for (description, path) in specs {
            table.sources.push((*description).to_owned());
            for (_, doc) in openapi::documents(path)? {
                for (key, found) in openapi::subresources_of(&doc) {
                    let entry = table.resources.entry(key).or_default();
                    entry.status |= found.status;
                    entry.scale |= found.scale;
                }
            }
        }
        Ok(table)
    }

    /// Parses table JSON read from `path`.
    pub fn parse(path: &Path, text: &str) -> Result<Self, ReadError> {
        let file: TableFile = serde_json::from_str(text).map_err(|source| ReadError::Json {
            path: path.to_owned(),
            source,
        })?;
        let mut resources = BTreeMap::new();
        for entry in file.resources {
            let subresources = parse_names(path, &entry.subresources, || {
                format!("{}/{}/{}", entry.group, entry.version, entry.plural)
            })?;
            resources.insert((entry.group, entry.version, entry.plural), subresources);
        }
        Ok(Self {
            sources: file.sources,
            resources,
        })
    }

    /// The subresources of `group/version/plural` (none when the table does not list it).
    pub fn get(&self, group: &str, version: &str, plural: &str) -> Subresources {
        self.resources
            .get(&(group.to_owned(), version.to_owned(), plural.to_owned()))
            .copied()
            .unwrap_or_default()
    }

    /// Adds the table's subresources to `defs` (keeping any they already have).
    pub fn apply(&self, defs: &mut [ResourceDef]) {
        for def in defs {
            let found = self.get(&def.group, &def.version, &def.plural);
            def.subresources.status |= found.status;
            def.subresources.scale |= found.scale;
        }
    }

    /// The table as pretty JSON with a trailing newline (what is checked in).
    pub fn to_json(&self) -> String {
        let file = TableFile {
            sources: self.sources.clone(),
            resources: self
                .resources
                .iter()
                .map(|((group, version, plural), s)| Entry {
                    group: group.clone(),
                    version: version.clone(),
                    plural: plural.clone(),
                    subresources: s.names().into_iter().map(str::to_owned).collect(),
                })
                .collect(),
        };
        let mut text = serde_json::to_string_pretty(&file).unwrap_or_default();
        text.push('\n');
        text
    }
}

/// Subresource names as a table spells them: only `status` and `scale`, each once.
pub(super) fn parse_names(
    path: &Path,
    names: &[String],
    resource: impl Fn() -> String,
) -> Result<Subresources, ReadError> {
    let mut seen = Subresources::NONE;
    for name in names {
        let flag = match name.as_str() {
            "status" => &mut seen.status,
            "scale" => &mut seen.scale,
            other => {
                return Err(ReadError::Invalid {
                    path: path.to_owned(),
                    problem: format!(
                        "resource {}: unknown subresource `{other}` (expected `status` or `scale`)",
                        resource()
                    ),
                })
            }
        };
        if *flag {
            return Err(ReadError::Invalid {
                path: path.to_owned(),
                problem: format!("resource {}: subresource `{name}` listed twice", resource()),
            });
        }
        *flag = true;
    }
    Ok(seen)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_builtin_table_knows_the_well_known_subresources() {
        let table = SubresourceTable::builtin().unwrap();
        let both = Subresources {
            status: true,
            scale: true,
        };
        assert_eq!(table.get("apps", "v1", "deployments"), both);
        assert_eq!(table.get("apps", "v1", "statefulsets"), both);
        assert_eq!(table.get("", "v1", "replicationcontrollers"), both);
        assert_eq!(
            table.get("", "v1", "pods"),
            Subresources {
                status: true,
                scale: false
            }
        );
        assert!(table.get("", "v1", "nodes").status);
        assert!(table.get("", "v1", "namespaces").status);
        assert!(table.get("", "v1", "configmaps").is_empty());
        assert!(table.get("", "v1", "secrets").is_empty());
        assert!(table
            .get("rbac.authorization.k8s.io", "v1", "roles")
            .is_empty());
        assert_eq!(
            SubresourceTable::parse(Path::new("x"), &table.to_json()).unwrap(),
            table
        );
    }

    #[test]
    fn unknown_or_repeated_names_are_errors_naming_the_resource() {
        let bad = r#"{"sources": [], "resources": [
            {"group": "apps", "version": "v1", "plural": "deployments", "subresources": ["log"]}]}"#;
        let err = SubresourceTable::parse(Path::new("t.json"), bad)
            .unwrap_err()
            .to_string();
        assert!(
            err.contains("t.json") && err.contains("apps/v1/deployments"),
            "{err}"
        );
        assert!(err.contains("`log`"), "{err}");
        let twice = bad.replace(r#"["log"]"#, r#"["status", "status"]"#);
        let err = SubresourceTable::parse(Path::new("t.json"), &twice)
            .unwrap_err()
            .to_string();
        assert!(err.contains("twice"), "{err}");
    }
}
