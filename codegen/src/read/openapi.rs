//! Reads Kubernetes OpenAPI v2 (`swagger.json`) and v3 (per-group `openapi/v3/...` documents).
//!
//! A resource is a kind whose collection path offers a `list` operation and whose paths
//! offer a `watch` or `watchlist` operation (`x-kubernetes-action`), both tagged with the
//! kind's `x-kubernetes-group-version-kind`. The plural is the collection path's last
//! segment; the resource is namespaced when a collection path holds `{namespace}`. The list
//! operation's response schema names the list definition, whose `items` name the kind's
//! definition: that definition gives the k8s-openapi Rust path and the description.
//! Its subresources are the paths `<collection path>/{name}/status` and `.../{name}/scale`.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

use serde_json::Value;

use crate::model::{ResourceDef, Scope, Subresources, TypeRef};

use super::ReadError;

/// Reads a spec: a v2 or v3 JSON file, or a directory of v3 per-group JSON files.
/// Fails naming the file when a document is unreadable or when no resource is found.
pub fn read(path: &Path) -> Result<Vec<ResourceDef>, ReadError> {
    let mut all = BTreeSet::new();
    for (file, doc) in documents(path)? {
        all.extend(resources_of(&file, &doc)?);
    }
    if all.is_empty() {
        return Err(ReadError::Invalid {
            path: path.to_owned(),
            problem: "no listable and watchable resources in this OpenAPI spec".into(),
        });
    }
    Ok(all.into_iter().collect())
}

/// The parsed documents of a spec: one v2 or v3 JSON file, or every JSON file of a
/// directory of v3 per-group documents, in file name order.
pub fn documents(path: &Path) -> Result<Vec<(PathBuf, Value)>, ReadError> {
    let files = if path.is_dir() {
        let mut files: Vec<PathBuf> = std::fs::read_dir(path)
            .map_err(|source| ReadError::Io {
                path: path.to_owned(),
                source,
            })?
            .filter_map(Result::ok)
            .map(|e| e.path())
            .filter(|p| p.extension().is_some_and(|e| e == "json"))
            .collect();
        files.sort();
        files
    } else {
        vec![path.to_owned()]
    };
    files
        .into_iter()
        .map(|file| {
            let text = std::fs::read_to_string(&file).map_err(|source| ReadError::Io {
                path: file.clone(),
                source,
            })?;
            let doc: Value = serde_json::from_str(&text).map_err(|source| ReadError::Json {
                path: file.clone(),
                source,
            })?;
            Ok((file, doc))
        })
        .collect()
}

/// The `status` and `scale` subresources of one parsed document (v2 or v3), by
/// `(group, version, plural)`: every path `/api/v1/[namespaces/{namespace}/]<plural>/{name}/<sub>`
/// or `/apis/<group>/<version>/[namespaces/{namespace}/]<plural>/{name}/<sub>`.
pub fn subresources_of(doc: &Value) -> BTreeMap<(String, String, String), Subresources> {
    let mut found: BTreeMap<(String, String, String), Subresources> = BTreeMap::new();
    let Some(paths) = doc.get("paths").and_then(Value::as_object) else {
        return found;
    };
    for path in paths.keys() {
        let segments: Vec<&str> = path.trim_start_matches('/').split('/').collect();
        let (group, version, rest) = match segments.as_slice() {
            ["api", version, rest @ ..] => ("", *version, rest),
            ["apis", group, version, rest @ ..] => (*group, *version, rest),
            _ => continue,
        };
        let plural = match rest {
            ["namespaces", "{namespace}", plural, "{name}", _] | [plural, "{name}", _] => *plural,
            _ => continue,
        };
        let entry = found
            .entry((group.to_owned(), version.to_owned(), plural.to_owned()))
            .or_default();
        match rest.last() {
            Some(&"status") => entry.status = true,
            Some(&"scale") => entry.scale = true,
            _ => {}
        }
    }
    found.retain(|_, s| !s.is_empty());
    found
}

#[derive(Default)]
struct Collected {
    plural: Option<String>,
    namespaced: bool,
    list_schema: Option<String>,
    watch: bool,
}

/// The resources of one parsed document (v2 or v3).
pub fn resources_of(file: &Path, doc: &Value) -> Result<Vec<ResourceDef>, ReadError> {
    let invalid = |problem: &str| ReadError::Invalid {
        path: file.to_owned(),
        problem: problem.to_owned(),
    };
    let (definitions, ref_prefix) = if doc.get("swagger").is_some() {
        (doc.get("definitions"), "#/definitions/")
    } else if doc.get("openapi").is_some() {
        (
            doc.get("components").and_then(|c| c.get("schemas")),
            "#/components/schemas/",
        )
    } else {
        return Err(invalid(
            "not an OpenAPI document (neither `swagger` nor `openapi` field)",
        ));
    };
    let empty = serde_json::Map::new();
    let definitions = definitions.and_then(Value::as_object).unwrap_or(&empty);
    let paths = doc
        .get("paths")
        .and_then(Value::as_object)
        .ok_or_else(|| invalid("OpenAPI document has no `paths` object"))?;

    let subresources = subresources_of(doc);
    let mut collected: BTreeMap<(String, String, String), Collected> = BTreeMap::new();
    for (path, item) in paths {
        let Some(op) = item.get("get") else { continue };
        let Some(action) = op.get("x-kubernetes-action").and_then(Value::as_str) else {
            continue;
        };
        let Some(gvk) = op.get("x-kubernetes-group-version-kind") else {
            continue;
        };
        let field = |name: &str| gvk.get(name).and_then(Value::as_str).map(str::to_owned);
        let (Some(group), Some(version), Some(kind)) =
            (field("group"), field("version"), field("kind"))
        else {
            continue;
        };
        let entry = collected.entry((group, version, kind)).or_default();
        match action {
            "list" => {
                let Some(last) = path.rsplit('/').next() else {
                    continue;
                };
                if last.starts_with('{') {
                    continue;
                }
                entry.plural = Some(last.to_owned());
                entry.namespaced |= path.contains("/namespaces/{namespace}/");
                if entry.list_schema.is_none() {
                    entry.list_schema = response_ref(op)
                        .and_then(|r| r.strip_prefix(ref_prefix).map(str::to_owned));
                }
            }
            "watch" | "watchlist" => entry.watch = true,
            _ => {}
        }
    }

    let mut resources = Vec::new();
    for ((group, version, kind), c) in collected {
        let (Some(plural), Some(list_schema), true) = (c.plural, c.list_schema, c.watch) else {
            continue;
        };
        let item_schema = definitions
            .get(&list_schema)
            .and_then(|d| d.get("properties"))
            .and_then(|p| p.get("items"))
            .and_then(|i| i.get("items"))
            .and_then(schema_ref)
            .and_then(|r| r.strip_prefix(ref_prefix))
            .ok_or_else(|| {
                invalid(&format!(
                    "list definition `{list_schema}` of {group}/{version}/{kind} has no `items` reference"
                ))
            })?;
        let doc = definitions
            .get(item_schema)
            .and_then(|d| d.get("description"))
            .and_then(Value::as_str)
            .map(first_paragraph);
        let subresources = subresources
            .get(&(group.clone(), version.clone(), plural.clone()))
            .copied()
            .unwrap_or_default();
        resources.push(ResourceDef {
            list_kind: last_segment(&list_schema).to_owned(),
            ty: type_of_definition(item_schema),
            group,
            version,
            kind,
            plural,
            scope: if c.namespaced {
                Scope::Namespaced
            } else {
                Scope::Cluster
            },
            doc,
            subresources,
            protobuf: false,
        });
    }
    Ok(resources)
}

/// The `$ref` of a 200 response's schema (v2: `schema`; v3: `content.*.schema`).
fn response_ref(op: &Value) -> Option<&str> {
    let ok = op.get("responses")?.get("200")?;
    if let Some(schema) = ok.get("schema") {
        return schema_ref(schema);
    }
    let content = ok.get("content")?.as_object()?;
    let schema = content
        .get("application/json")
        .or_else(|| content.values().next())?
        .get("schema")?;
    schema_ref(schema)
}

/// A schema's `$ref`, looking through a single-element `allOf` wrapper (v3).
fn schema_ref(schema: &Value) -> Option<&str> {
    schema.get("$ref").and_then(Value::as_str).or_else(|| {
        schema
            .get("allOf")?
            .as_array()?
            .iter()
            .find_map(|s| s.get("$ref").and_then(Value::as_str))
    })
}

fn last_segment(name: &str) -> &str {
    name.rsplit('.').next().unwrap_or(name)
}

/// `io.k8s.api.core.v1.Pod` → the k8s-openapi type `api::core::v1` `Pod` (k8s-openapi's
/// module layout).
pub fn type_of_definition(name: &str) -> TypeRef {
    let trimmed = name.strip_prefix("io.k8s.").unwrap_or(name);
    let mut module: Vec<String> = trimmed.split('.').map(|s| s.replace('-', "_")).collect();
    let name = module.pop().unwrap_or_default();
    TypeRef::K8sOpenapi { module, name }
}

fn first_paragraph(text: &str) -> String {
    text.split("\n\n").next().unwrap_or(text).trim().to_owned()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn definition_names_map_to_k8s_openapi_paths() {
        assert_eq!(
            type_of_definition("io.k8s.api.core.v1.Pod").to_string(),
            "k8s_openapi::api::core::v1::Pod"
        );
        assert_eq!(
            type_of_definition("io.k8s.kube-aggregator.pkg.apis.apiregistration.v1.APIService")
                .to_string(),
            "k8s_openapi::kube_aggregator::pkg::apis::apiregistration::v1::APIService"
        );
    }
}
