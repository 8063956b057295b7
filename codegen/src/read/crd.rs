//! CustomResourceDefinition manifests (apiextensions.k8s.io/v1, YAML or JSON, single or
//! multi-document, files or directories) → [`CrdModel`].
//!
//! Every served version of every CRD is read with its `openAPIV3Schema` turned into unnamed
//! [`SchemaNode`]s; [`crate::model::crd`] names them (structs and enums) and groups the
//! versions into modules. Documents that are Kubernetes objects
//! of another kind (the Deployments of an install manifest) are skipped; anything else that is
//! wrong is a [`CrdError`] naming the file, the CRD and the JSON path inside it.

use std::collections::BTreeSet;
use std::fmt;
use std::path::{Path, PathBuf};

use serde::Deserialize;
use serde_json::{Map, Value};

use crate::model::schema::{
    CrdDef, CrdModel, CrdVersionDef, EnumSchema, FieldType, ObjectSchema, PropertySchema,
    SchemaNode,
};
use crate::model::Scope;

/// Schemas nested deeper than this are rejected rather than risking the stack on hostile input.
const MAX_DEPTH: usize = 96;

/// What went wrong while reading CRDs, with where.
#[derive(Debug)]
pub struct CrdError {
    /// The file being read.
    pub file: PathBuf,
    /// The CRD's `metadata.name`, once known.
    pub crd: Option<String>,
    /// JSON path of the offending node inside the document, e.g.
    /// `spec.versions[1].schema.openAPIV3Schema.properties.spec`.
    pub json_path: Option<String>,
    /// The problem.
    pub kind: CrdErrorKind,
}

impl fmt::Display for CrdError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.file.display())?;
        if let Some(crd) = &self.crd {
            write!(f, ": CRD `{crd}`")?;
        }
        if let Some(path) = &self.json_path {
            write!(f, ": at `{path}`")?;
        }
        write!(f, ": {}", self.kind)
    }
}

impl std::error::Error for CrdError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match &self.kind {
            CrdErrorKind::Io(e) => Some(e),
            _ => None,
        }
    }
}

/// The problems [`CrdError`] reports, each said as what is wrong and what to do about it.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum CrdErrorKind {
    /// The file or directory could not be read.
    #[error("cannot read it: {0}{hint}", hint = io_hint(.0))]
    Io(#[source] std::io::Error),
    /// The text is neither YAML nor JSON.
    #[error("not valid YAML or JSON: {0}; fix the syntax there")]
    Syntax(String),
    /// A document has no `apiVersion`/`kind`.
    #[error(
        "document {0} is not a Kubernetes object (it has no string `apiVersion` and `kind`); \
         give CustomResourceDefinition manifests, as `kubectl get crd <NAME> -o yaml` prints them"
    )]
    NotAnObject(usize),
    /// A file holds no CustomResourceDefinition at all.
    #[error(
        "no CustomResourceDefinition in this file (no document has \
         `kind: CustomResourceDefinition`); give CRD manifests, as \
         `kubectl get crd <NAME> -o yaml` prints them"
    )]
    NoCrd,
    /// A CRD of an API version other than apiextensions.k8s.io/v1.
    #[error(
        "unsupported CustomResourceDefinition apiVersion `{0}`; only apiextensions.k8s.io/v1 is \
         read: use the v1 manifest (`kubectl get crd <NAME> -o yaml` prints it)"
    )]
    UnsupportedApiVersion(String),
    /// A required CRD field is missing or has the wrong type.
    #[error("{0}")]
    Invalid(String),
    /// The CRD serves no version.
    #[error(
        "no served version (every entry of spec.versions has served: false); serve one, or \
         leave the CRD out"
    )]
    NoServedVersion,
    /// A schema node that no Rust type fits.
    #[error("cannot type this schema: {0}")]
    Untypeable(String),
    /// Two CRDs would generate the same resource or Rust name; the text names the other CRD,
    /// its file and what they share.
    #[error("clashes with {0}; generate the two CRDs separately (or leave one out)")]
    Clash(String),
}

/// What to do about an I/O error: a missing path is most often a typo.
fn io_hint(error: &std::io::Error) -> &'static str {
    match error.kind() {
        std::io::ErrorKind::NotFound => {
            "; check the path: give CRD manifests (.yaml, .yml or .json) or directories of them"
        }
        std::io::ErrorKind::PermissionDenied => "; make it readable",
        std::io::ErrorKind::InvalidData => "; a manifest must be UTF-8 text",
        _ => "",
    }
}

/// One served version of a parsed CRD.
#[derive(Clone, Debug, PartialEq)]
pub struct CrdVersion {
    /// Version name, e.g. `v1beta1`.
    pub name: String,
    /// Index in `spec.versions`, for error paths.
    pub index: usize,
    /// Whether this is the storage version.
    pub storage: bool,
    /// `Some(warning)` if deprecated.
    pub deprecation: Option<String>,
    /// Declared subresources (`status`, `scale`), sorted.
    pub subresources: Vec<String>,
    /// `schema.openAPIV3Schema`, if present.
    pub schema: Option<Value>,
}

/// A CustomResourceDefinition as read from a file, before typing.
#[derive(Clone, Debug, PartialEq)]
pub struct Crd {
    /// The file it came from.
    pub file: PathBuf,
    /// `metadata.name`.
    pub name: String,
    /// `spec.group`.
    pub group: String,
    /// `spec.names.kind`.
    pub kind: String,
    /// `spec.names.plural`.
    pub plural: String,
    /// `spec.names.listKind` (defaults to `<kind>List`).
    pub list_kind: String,
    /// `spec.scope`.
    pub scope: Scope,
    /// Served versions in manifest order.
    pub versions: Vec<CrdVersion>,
}

/// Reads every CRD from files and directories (recursively, `.yaml`/`.yml`/`.json`, sorted by
/// path) and types them. Also returns every file read, for `rerun-if-changed`.
pub fn read_paths<P: AsRef<Path>>(paths: &[P]) -> Result<(CrdModel, Vec<PathBuf>), CrdError> {
    read_sources(paths, &[])
}

/// [`read_paths`], plus manifests given as text: `(name, text)` pairs, the name standing for a
/// file in errors (`<stdin>`, `cluster:certificates.cert-manager.io`). Returns the files read
/// from disk.
pub fn read_sources<P: AsRef<Path>>(
    paths: &[P],
    texts: &[(PathBuf, String)],
) -> Result<(CrdModel, Vec<PathBuf>), CrdError> {
    let mut files = Vec::new();
    for path in paths {
        collect_files(path.as_ref(), &mut files)?;
    }
    let mut crds = Vec::new();
    for file in &files {
        let text = std::fs::read_to_string(file).map_err(|e| CrdError {
            file: file.clone(),
            crd: None,
            json_path: None,
            kind: CrdErrorKind::Io(e),
        })?;
        crds.extend(parse_file(file, &text)?);
    }
    for (name, text) in texts {
        crds.extend(parse_file(name, text)?);
    }
    Ok((build_model(&crds)?, files))
}

fn collect_files(path: &Path, out: &mut Vec<PathBuf>) -> Result<(), CrdError> {
    let io = |e| CrdError {
        file: path.to_owned(),
        crd: None,
        json_path: None,
        kind: CrdErrorKind::Io(e),
    };
    let meta = std::fs::metadata(path).map_err(io)?;
    if !meta.is_dir() {
        out.push(path.to_owned());
        return Ok(());
    }
    let mut entries = Vec::new();
    for entry in std::fs::read_dir(path).map_err(io)? {
        entries.push(entry.map_err(io)?.path());
    }
    entries.sort();
    for entry in entries {
        let manifest = matches!(
            entry.extension().and_then(|e| e.to_str()),
            Some("yaml" | "yml" | "json")
        );
        if entry.is_dir() {
            collect_files(&entry, out)?;
        } else if manifest {
            out.push(entry);
        }
    }
    Ok(())
}

/// Parses the CRDs in one file's text (`file` names it in errors). Non-CRD Kubernetes objects
/// are skipped; `List` documents are read item by item.
pub fn parse_file(file: &Path, text: &str) -> Result<Vec<Crd>, CrdError> {
    let err = |kind| CrdError {
        file: file.to_owned(),
        crd: None,
        json_path: None,
        kind,
    };
    let documents = parse_documents(text).map_err(|e| err(CrdErrorKind::Syntax(e)))?;
    let mut crds = Vec::new();
    for (index, document) in documents.iter().enumerate() {
        collect_crds(file, index, document, &mut crds)?;
    }
    if crds.is_empty() {
        return Err(err(CrdErrorKind::NoCrd));
    }
    Ok(crds)
}

fn parse_documents(text: &str) -> Result<Vec<Value>, String> {
    if text.trim_start().starts_with('{') {
        return serde_json::Deserializer::from_str(text)
            .into_iter::<Value>()
            .collect::<Result<Vec<_>, _>>()
            .map_err(|e| e.to_string());
    }
    let mut documents = Vec::new();
    for document in serde_yaml_ng::Deserializer::from_str(text) {
        let value = Value::deserialize(document).map_err(|e| e.to_string())?;
        if !value.is_null() {
            documents.push(value);
        }
    }
    Ok(documents)
}

fn collect_crds(
    file: &Path,
    index: usize,
    document: &Value,
    out: &mut Vec<Crd>,
) -> Result<(), CrdError> {
    let api_version = document.get("apiVersion").and_then(Value::as_str);
    let kind = document.get("kind").and_then(Value::as_str);
    let (Some(api_version), Some(kind)) = (api_version, kind) else {
        return Err(CrdError {
            file: file.to_owned(),
            crd: None,
            json_path: None,
            kind: CrdErrorKind::NotAnObject(index),
        });
    };
    if kind.ends_with("List") {
        if let Some(items) = document.get("items").and_then(Value::as_array) {
            for item in items {
                collect_crds(file, index, item, out)?;
            }
            return Ok(());
        }
    }
    if kind != "CustomResourceDefinition" {
        return Ok(());
    }
    let name = document
        .pointer("/metadata/name")
        .and_then(Value::as_str)
        .map(str::to_owned);
    if api_version != "apiextensions.k8s.io/v1" {
        return Err(CrdError {
            file: file.to_owned(),
            crd: name,
            json_path: Some("apiVersion".into()),
            kind: CrdErrorKind::UnsupportedApiVersion(api_version.to_owned()),
        });
    }
    let name = name.ok_or_else(|| CrdError {
        file: file.to_owned(),
        crd: None,
        json_path: Some("metadata.name".into()),
        kind: CrdErrorKind::Invalid(format!(
            "document {index}: a CustomResourceDefinition needs a string metadata.name"
        )),
    })?;
    out.push(parse_crd(file, name, document)?);
    Ok(())
}

fn parse_crd(file: &Path, name: String, document: &Value) -> Result<Crd, CrdError> {
    let err = |path: &str, kind| CrdError {
        file: file.to_owned(),
        crd: Some(name.clone()),
        json_path: Some(path.to_owned()),
        kind,
    };
    let string = |path: &str| -> Result<String, CrdError> {
        let pointer = format!("/{}", path.replace('.', "/"));
        match document.pointer(&pointer).and_then(Value::as_str) {
            Some(s) if !s.is_empty() => Ok(s.to_owned()),
            _ => Err(err(
                path,
                CrdErrorKind::Invalid("missing or not a non-empty string".into()),
            )),
        }
    };
    let group = string("spec.group")?;
    let kind = string("spec.names.kind")?;
    let plural = string("spec.names.plural")?;
    let list_kind = document
        .pointer("/spec/names/listKind")
        .and_then(Value::as_str)
        .map_or_else(|| format!("{kind}List"), str::to_owned);
    let scope = match string("spec.scope")?.as_str() {
        "Namespaced" => Scope::Namespaced,
        "Cluster" => Scope::Cluster,
        other => {
            return Err(err(
                "spec.scope",
                CrdErrorKind::Invalid(format!(
                    "scope `{other}` is neither `Namespaced` nor `Cluster`"
                )),
            ))
        }
    };
    let Some(versions) = document.pointer("/spec/versions").and_then(Value::as_array) else {
        return Err(err(
            "spec.versions",
            CrdErrorKind::Invalid("missing or not a list".into()),
        ));
    };
    let mut served = Vec::new();
    for (index, version) in versions.iter().enumerate() {
        let path = format!("spec.versions[{index}]");
        let Some(version_name) = version.get("name").and_then(Value::as_str) else {
            return Err(err(
                &format!("{path}.name"),
                CrdErrorKind::Invalid("missing or not a string".into()),
            ));
        };
        if version.get("served").and_then(Value::as_bool) != Some(true) {
            continue;
        }
        let deprecated = version.get("deprecated").and_then(Value::as_bool) == Some(true);
        let mut subresources: Vec<String> = version
            .get("subresources")
            .and_then(Value::as_object)
            .map(|s| s.keys().cloned().collect())
            .unwrap_or_default();
        subresources.sort();
        served.push(CrdVersion {
            name: version_name.to_owned(),
            index,
            storage: version.get("storage").and_then(Value::as_bool) == Some(true),
            deprecation: deprecated.then(|| {
                version
                    .get("deprecationWarning")
                    .and_then(Value::as_str)
                    .unwrap_or_default()
                    .to_owned()
            }),
            subresources,
            schema: version.pointer("/schema/openAPIV3Schema").cloned(),
        });
    }
    if served.is_empty() {
        return Err(err("spec.versions", CrdErrorKind::NoServedVersion));
    }
    Ok(Crd {
        file: file.to_owned(),
        name,
        group,
        kind,
        plural,
        list_kind,
        scope,
        versions: served,
    })
}

/// Checks the CRDs for clashes and types every served version, grouped into group/version
/// modules: each schema is read here (errors name the file, the CRD and the JSON path), then
/// named and deduplicated by [`crate::model::crd`].
pub fn build_model(crds: &[Crd]) -> Result<CrdModel, CrdError> {
    let mut defs = Vec::with_capacity(crds.len());
    for crd in crds {
        defs.push(crd_def(crd)?);
    }
    crate::model::crd::build(&defs).map_err(|clash| CrdError {
        file: clash.file,
        crd: Some(clash.crd),
        json_path: None,
        kind: CrdErrorKind::Clash(format!(
            "CRD `{}` from {}: {}",
            clash.other,
            clash.other_source.display(),
            clash.what
        )),
    })
}

fn crd_def(crd: &Crd) -> Result<CrdDef, CrdError> {
    let reader = SchemaReader {
        file: &crd.file,
        crd: &crd.name,
    };
    let mut versions = Vec::with_capacity(crd.versions.len());
    for version in &crd.versions {
        let root_path = format!("spec.versions[{}].schema.openAPIV3Schema", version.index);
        let (schema, declares_properties) = reader.root(version.schema.as_ref(), &root_path)?;
        versions.push(CrdVersionDef {
            name: version.name.clone(),
            storage: version.storage,
            deprecation: version.deprecation.clone(),
            subresources: version.subresources.clone(),
            description: version
                .schema
                .as_ref()
                .and_then(|s| s.get("description"))
                .and_then(Value::as_str)
                .map(str::to_owned),
            schema,
            declares_properties,
        });
    }
    Ok(CrdDef {
        source: crd.file.clone(),
        name: crd.name.clone(),
        group: crd.group.clone(),
        kind: crd.kind.clone(),
        plural: crd.plural.clone(),
        list_kind: crd.list_kind.clone(),
        scope: crd.scope,
        versions,
    })
}

/// Reads the schema nodes of one CRD into [`SchemaNode`]s.
struct SchemaReader<'a> {
    file: &'a Path,
    crd: &'a str,
}

/// A node plus what the doc comment of the property holding it should add (e.g. why it is
/// free-form JSON).
struct Read {
    node: SchemaNode,
    notes: Vec<String>,
}

impl Read {
    fn plain(ty: FieldType) -> Self {
        Self {
            node: SchemaNode::Plain(ty),
            notes: Vec::new(),
        }
    }
}

fn flag(schema: &Map<String, Value>, key: &str) -> bool {
    schema.get(key).and_then(Value::as_bool) == Some(true)
}

impl SchemaReader<'_> {
    fn error(&self, path: &str, kind: CrdErrorKind) -> CrdError {
        CrdError {
            file: self.file.to_owned(),
            crd: Some(self.crd.to_owned()),
            json_path: Some(path.to_owned()),
            kind,
        }
    }

    fn untypeable(&self, path: &str, why: impl Into<String>) -> CrdError {
        self.error(path, CrdErrorKind::Untypeable(why.into()))
    }

    fn as_object<'v>(
        &self,
        schema: &'v Value,
        path: &str,
    ) -> Result<&'v Map<String, Value>, CrdError> {
        schema
            .as_object()
            .ok_or_else(|| self.untypeable(path, "a schema must be an object"))
    }

    /// The top-level object, and whether it has a `properties` key at all.
    fn root(&self, schema: Option<&Value>, path: &str) -> Result<(ObjectSchema, bool), CrdError> {
        let empty = Map::new();
        let schema = match schema {
            Some(s) => self.as_object(s, path)?,
            None => &empty,
        };
        match schema.get("type").and_then(Value::as_str) {
            None | Some("object") => {}
            Some(other) => {
                return Err(self.untypeable(
                    path,
                    format!(
                        "the top-level schema has type `{other}`, a resource must be an object"
                    ),
                ))
            }
        }
        let object = self.object_schema(schema, path, 0)?;
        Ok((object, schema.get("properties").is_some()))
    }

    fn node(&self, schema: &Value, path: &str, depth: usize) -> Result<Read, CrdError> {
        if depth > MAX_DEPTH {
            return Err(self.untypeable(path, format!("nested deeper than {MAX_DEPTH} levels")));
        }
        let schema = self.as_object(schema, path)?;
        if flag(schema, "x-kubernetes-int-or-string") {
            return Ok(Read::plain(FieldType::IntOrString));
        }
        let declared = match schema.get("type") {
            None => None,
            Some(Value::String(t)) => Some(t.as_str()),
            Some(_) => {
                return Err(self.untypeable(&format!("{path}.type"), "`type` must be a string"))
            }
        };
        let node = match declared {
            Some("string") => string(schema, path),
            Some("integer") => match schema.get("format").and_then(Value::as_str) {
                Some("int32") => SchemaNode::Plain(FieldType::I32),
                _ => SchemaNode::Plain(FieldType::I64),
            },
            Some("number") => SchemaNode::Plain(FieldType::F64),
            Some("boolean") => SchemaNode::Plain(FieldType::Bool),
            Some("array") => {
                let Some(items) = schema.get("items") else {
                    return Err(self.untypeable(path, "an array needs `items`"));
                };
                let item = self.node(items, &format!("{path}.items"), depth + 1)?;
                return Ok(Read {
                    node: SchemaNode::Array(Box::new(item.node)),
                    notes: item.notes,
                });
            }
            Some("object") => return self.object(schema, path, depth),
            None if schema.contains_key("properties") || schema.contains_key("additionalProperties") => {
                return self.object(schema, path, depth)
            }
            None => return self.untyped(schema, path, depth),
            Some(other) => {
                return Err(self.untypeable(
                    &format!("{path}.type"),
                    format!("unknown type `{other}` (expected string, integer, number, boolean, array or object)"),
                ))
            }
        };
        Ok(Read {
            node,
            notes: Vec::new(),
        })
    }

    /// A node without `type`: typed from `anyOf`/`oneOf` when every branch agrees on one
    /// scalar type, free-form JSON otherwise.
    fn untyped(
        &self,
        schema: &Map<String, Value>,
        path: &str,
        depth: usize,
    ) -> Result<Read, CrdError> {
        for keyword in ["anyOf", "oneOf"] {
            let Some(branches) = schema.get(keyword).and_then(Value::as_array) else {
                continue;
            };
            let mut types = BTreeSet::new();
            for (i, branch) in branches.iter().enumerate() {
                let branch_path = format!("{path}.{keyword}[{i}]");
                let branch = self.as_object(branch, &branch_path)?;
                match branch.get("type").and_then(Value::as_str) {
                    Some(t @ ("string" | "integer" | "number" | "boolean")) => {
                        types.insert(t);
                    }
                    _ => {
                        types.insert("");
                    }
                }
            }
            if types.len() == 1 && !types.contains("") {
                let mut merged = schema.clone();
                merged.remove(keyword);
                if let Some(t) = types.first() {
                    merged.insert("type".into(), Value::String((*t).to_owned()));
                }
                return self.node(&Value::Object(merged), path, depth + 1);
            }
            return Ok(Read {
                node: SchemaNode::Plain(FieldType::Value),
                notes: vec![format!(
                    "Free-form JSON: the `{keyword}` branches of this schema share no single Rust type."
                )],
            });
        }
        Ok(Read::plain(FieldType::Value))
    }

    fn object(
        &self,
        schema: &Map<String, Value>,
        path: &str,
        depth: usize,
    ) -> Result<Read, CrdError> {
        let has_properties = schema
            .get("properties")
            .and_then(Value::as_object)
            .is_some_and(|p| !p.is_empty());
        if !has_properties {
            return match schema.get("additionalProperties") {
                Some(value @ Value::Object(_)) => {
                    let inner =
                        self.node(value, &format!("{path}.additionalProperties"), depth + 1)?;
                    Ok(Read {
                        node: SchemaNode::Map(Box::new(inner.node)),
                        notes: inner.notes,
                    })
                }
                Some(Value::Bool(true)) => {
                    Ok(Read::plain(FieldType::Map(Box::new(FieldType::Value))))
                }
                _ => Ok(Read::plain(FieldType::Value)),
            };
        }
        Ok(Read {
            node: SchemaNode::Object(self.object_schema(schema, path, depth)?),
            notes: Vec::new(),
        })
    }

    /// An object's declared properties and what it does with the others.
    fn object_schema(
        &self,
        schema: &Map<String, Value>,
        path: &str,
        depth: usize,
    ) -> Result<ObjectSchema, CrdError> {
        let empty = Map::new();
        let declared = match schema.get("properties") {
            None => &empty,
            Some(Value::Object(p)) => p,
            Some(_) => {
                return Err(
                    self.untypeable(&format!("{path}.properties"), "`properties` must be a map")
                )
            }
        };
        let required: BTreeSet<&str> = match schema.get("required") {
            None => BTreeSet::new(),
            Some(Value::Array(r)) => r.iter().filter_map(Value::as_str).collect(),
            Some(_) => {
                return Err(self.untypeable(
                    &format!("{path}.required"),
                    "`required` must be a list of names",
                ))
            }
        };
        let mut properties = Vec::with_capacity(declared.len());
        for (wire, property) in declared {
            let property_path = format!("{path}.properties.{wire}");
            let read = self.node(property, &property_path, depth + 1)?;
            let property = self.as_object(property, &property_path)?;
            let mut doc = description(property);
            if let Some(default) = property.get("default") {
                doc.push(format!("Default: `{default}`"));
            }
            if flag(property, "x-kubernetes-embedded-resource") {
                doc.push(
                    "An embedded Kubernetes object (`apiVersion`, `kind`, `metadata`).".into(),
                );
            }
            doc.extend(rule_docs(property, ""));
            for (key, scope) in [
                ("items", "each item"),
                ("additionalProperties", "each value"),
            ] {
                if let Some(inner) = property.get(key).and_then(Value::as_object) {
                    doc.extend(rule_docs(inner, scope));
                }
            }
            doc.extend(read.notes);
            properties.push(PropertySchema {
                wire: wire.clone(),
                node: read.node,
                required: required.contains(wire.as_str()),
                nullable: flag(property, "nullable"),
                doc,
            });
        }
        let rest = if flag(schema, "x-kubernetes-preserve-unknown-fields") {
            Some(SchemaNode::Plain(FieldType::Value))
        } else {
            match schema.get("additionalProperties") {
                Some(Value::Bool(true)) => Some(SchemaNode::Plain(FieldType::Value)),
                Some(value @ Value::Object(_)) => Some(
                    self.node(value, &format!("{path}.additionalProperties"), depth + 1)?
                        .node,
                ),
                _ => None,
            }
        };
        let mut description = description(schema);
        if depth == 0 {
            description.extend(rule_docs(schema, ""));
        }
        Ok(ObjectSchema {
            path: path.to_owned(),
            description,
            properties,
            rest: rest.map(Box::new),
        })
    }
}

/// A string node: a date-time, an enum of its string values, or a plain string.
fn string(schema: &Map<String, Value>, path: &str) -> SchemaNode {
    if schema.get("format").and_then(Value::as_str) == Some("date-time") {
        return SchemaNode::Plain(FieldType::Time);
    }
    let values: Vec<&str> = schema
        .get("enum")
        .and_then(Value::as_array)
        .map(|values| values.iter().filter_map(Value::as_str).collect())
        .unwrap_or_default();
    if values.is_empty() {
        return SchemaNode::Plain(FieldType::String);
    }
    let mut seen = BTreeSet::new();
    SchemaNode::Enum(EnumSchema {
        path: path.to_owned(),
        values: values
            .into_iter()
            .filter(|v| seen.insert(*v))
            .map(str::to_owned)
            .collect(),
        description: description(schema),
    })
}

/// One doc paragraph per `x-kubernetes-validations` rule of a node, in their order:
/// "Validation rule: `rule` — message" (the message, or the `messageExpression` that
/// makes it), with the rule's `reason` and `fieldPath` when set; `scope` says which
/// values the rule is about when they are a list's items or a map's values.
fn rule_docs(schema: &Map<String, Value>, scope: &str) -> Vec<String> {
    let Some(rules) = schema
        .get("x-kubernetes-validations")
        .and_then(Value::as_array)
    else {
        return Vec::new();
    };
    rules
        .iter()
        .filter_map(|rule| {
            let text = |k: &str| {
                rule.get(k)
                    .and_then(Value::as_str)
                    .map(|t| t.split_whitespace().collect::<Vec<_>>().join(" "))
                    .filter(|t| !t.is_empty())
            };
            let source = text("rule")?;
            let mut doc = if scope.is_empty() {
                format!("Validation rule: {}", code_span(&source))
            } else {
                format!("Validation rule ({scope}): {}", code_span(&source))
            };
            if let Some(message) = text("message") {
                doc.push_str(&format!(" — {message}"));
            } else if let Some(expression) = text("messageExpression") {
                doc.push_str(&format!(" — message: {}", code_span(&expression)));
            }
            let mut extras = Vec::new();
            if let Some(reason) = text("reason") {
                extras.push(format!("reason `{reason}`"));
            }
            if let Some(path) = text("fieldPath") {
                extras.push(format!("reported at {}", code_span(&path)));
            }
            if rule.get("optionalOldSelf").and_then(Value::as_bool) == Some(true) {
                extras.push("`optionalOldSelf`: also checked on create".to_owned());
            }
            if !extras.is_empty() {
                doc.push_str(&format!(" ({})", extras.join(", ")));
            }
            Some(doc)
        })
        .collect()
}

/// `text` as a Markdown code span, with enough backticks around it that the ones inside
/// (rare in rules, but possible) do not end it.
fn code_span(text: &str) -> String {
    let mut longest = 0;
    let mut run = 0;
    for c in text.chars() {
        run = if c == '`' { run + 1 } else { 0 };
        longest = longest.max(run);
    }
    let fence = "`".repeat(longest + 1);
    if longest == 0 {
        format!("{fence}{text}{fence}")
    } else {
        format!("{fence} {text} {fence}")
    }
}

fn description(schema: &Map<String, Value>) -> Vec<String> {
    schema
        .get("description")
        .and_then(Value::as_str)
        .filter(|d| !d.trim().is_empty())
        .map(|d| vec![d.to_owned()])
        .unwrap_or_default()
}

#[cfg(test)]
mod rule_doc_tests {
    use serde_json::json;

    use super::{code_span, rule_docs};

    #[test]
    fn rules_become_one_paragraph_each_with_message_reason_and_path() {
        let schema = json!({"x-kubernetes-validations": [
            {"rule": "self.a <=\n  self.b", "message": " a is at most b "},
            {"rule": "self.c", "messageExpression": "'c: ' + self.d", "reason": "FieldValueRequired", "fieldPath": ".c"},
            {"rule": ""},
        ]});
        let docs = rule_docs(schema.as_object().expect("object"), "each item");
        assert_eq!(
            docs,
            [
                "Validation rule (each item): `self.a <= self.b` — a is at most b",
                "Validation rule (each item): `self.c` — message: `'c: ' + self.d` (reason `FieldValueRequired`, reported at `.c`)",
            ]
        );
    }

    #[test]
    fn backticks_inside_a_rule_do_not_end_its_code_span() {
        assert_eq!(code_span("a"), "`a`");
        assert_eq!(code_span("x == '`'"), "`` x == '`' ``");
    }
}
