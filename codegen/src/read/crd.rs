//! CustomResourceDefinition manifests (apiextensions.k8s.io/v1, YAML or JSON, single or
//! multi-document, files or directories) → [`CrdModel`].
//!
//! Every served version of every CRD becomes one [`CrdResource`] with its
//! `openAPIV3Schema` turned into named structs and enums. Documents that are Kubernetes objects
//! of another kind (the Deployments of an install manifest) are skipped; anything else that is
//! wrong is a [`CrdError`] naming the file, the CRD and the JSON path inside it.

use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::fmt;
use std::path::{Path, PathBuf};

use serde::Deserialize;
use serde_json::{Map, Value};

use crate::model::schema::{
    field_ident, has_default, kind_ident, module_ident, type_ident_part, variant_ident, CrdModel,
    CrdResource, EnumDef, FieldDef, FieldType, GroupVersionModule, NameSet, StructDef, TypeDef,
    VariantDef,
};
use crate::model::{ResourceDef, Scope};

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

/// The problems [`CrdError`] reports.
#[derive(Debug, thiserror::Error)]
pub enum CrdErrorKind {
    /// The file or directory could not be read.
    #[error("cannot read: {0}")]
    Io(#[source] std::io::Error),
    /// The text is neither YAML nor JSON.
    #[error("not valid YAML or JSON: {0}")]
    Syntax(String),
    /// A document has no `apiVersion`/`kind`.
    #[error("document {0} is not a Kubernetes object (it has no string `apiVersion` and `kind`)")]
    NotAnObject(usize),
    /// A file holds no CustomResourceDefinition at all.
    #[error("no CustomResourceDefinition in this file")]
    NoCrd,
    /// A CRD of an API version other than apiextensions.k8s.io/v1.
    #[error("unsupported CustomResourceDefinition apiVersion `{0}`; only apiextensions.k8s.io/v1 is read")]
    UnsupportedApiVersion(String),
    /// A required CRD field is missing or has the wrong type.
    #[error("{0}")]
    Invalid(String),
    /// The CRD serves no version.
    #[error("no served version (every entry of spec.versions has served: false)")]
    NoServedVersion,
    /// A schema node that no Rust type fits.
    #[error("cannot type this schema: {0}")]
    Untypeable(String),
    /// Two CRDs would generate the same resource or Rust name; the text names the other CRD,
    /// its file and what they share.
    #[error("clashes with {0}")]
    Clash(String),
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
/// modules.
pub fn build_model(crds: &[Crd]) -> Result<CrdModel, CrdError> {
    check_clashes(crds)?;
    let mut modules: BTreeMap<(String, String), Vec<(&Crd, &CrdVersion)>> = BTreeMap::new();
    let mut group_modules: BTreeMap<String, &Crd> = BTreeMap::new();
    for crd in crds {
        let group_module = module_ident(&crd.group);
        if let Some(other) = group_modules.get(&group_module) {
            if other.group != crd.group {
                return Err(clash(
                    crd,
                    other,
                    format!(
                        "groups `{}` and `{}` both become module `{group_module}`",
                        crd.group, other.group
                    ),
                ));
            }
        } else {
            group_modules.insert(group_module.clone(), crd);
        }
        for version in &crd.versions {
            modules
                .entry((group_module.clone(), module_ident(&version.name)))
                .or_default()
                .push((crd, version));
        }
    }
    let mut model = CrdModel::default();
    for ((group_module, version_module), mut members) in modules {
        members.sort_by(|a, b| a.0.kind.cmp(&b.0.kind));
        if let Some(pair) = members.windows(2).find(|w| w[0].1.name != w[1].1.name) {
            return Err(clash(
                pair[0].0,
                pair[1].0,
                format!(
                    "versions `{}` and `{}` both become module `{version_module}`",
                    pair[0].1.name, pair[1].1.name
                ),
            ));
        }
        model
            .modules
            .push(type_module(group_module, version_module, &members)?);
    }
    Ok(model)
}

fn clash(crd: &Crd, other: &Crd, what: String) -> CrdError {
    CrdError {
        file: crd.file.clone(),
        crd: Some(crd.name.clone()),
        json_path: None,
        kind: CrdErrorKind::Clash(format!(
            "CRD `{}` from {}: {what}",
            other.name,
            other.file.display()
        )),
    }
}

fn check_clashes(crds: &[Crd]) -> Result<(), CrdError> {
    let mut kinds: BTreeMap<(&str, String), &Crd> = BTreeMap::new();
    let mut plurals: BTreeMap<(&str, &str), &Crd> = BTreeMap::new();
    for crd in crds {
        let ident = kind_ident(&crd.kind);
        if let Some(other) = kinds.insert((&crd.group, ident.clone()), crd) {
            return Err(clash(
                crd,
                other,
                format!(
                    "group `{}` kind `{}` (Rust type `{ident}`)",
                    crd.group, crd.kind
                ),
            ));
        }
        if let Some(other) = plurals.insert((&crd.group, &crd.plural), crd) {
            return Err(clash(
                crd,
                other,
                format!("group `{}` resource `{}`", crd.group, crd.plural),
            ));
        }
    }
    Ok(())
}

fn type_module(
    group_module: String,
    version_module: String,
    members: &[(&Crd, &CrdVersion)],
) -> Result<GroupVersionModule, CrdError> {
    let kind_idents: Vec<String> = members.iter().map(|(c, _)| kind_ident(&c.kind)).collect();
    let mut typer = Typer {
        file: Path::new(""),
        crd: "",
        names: NameSet::with_reserved(kind_idents.iter().map(String::as_str)),
        types: Vec::new(),
        defaults: BTreeMap::new(),
        struct_ids: HashMap::new(),
        enum_ids: HashMap::new(),
    };
    let mut resources = Vec::new();
    for ((crd, version), ident) in members.iter().zip(&kind_idents) {
        typer.file = &crd.file;
        typer.crd = &crd.name;
        let root_path = format!("spec.versions[{}].schema.openAPIV3Schema", version.index);
        let mut root = typer.root(version.schema.as_ref(), &root_path, ident)?;
        let notes = resource_notes(crd, version);
        let doc = version
            .schema
            .as_ref()
            .and_then(|s| s.get("description"))
            .and_then(Value::as_str)
            .map(str::to_owned)
            .or_else(|| notes.first().cloned());
        root.doc.extend(notes);
        resources.push(CrdResource {
            def: ResourceDef {
                group: crd.group.clone(),
                version: version.name.clone(),
                kind: crd.kind.clone(),
                plural: crd.plural.clone(),
                scope: crd.scope,
                list_kind: crd.list_kind.clone(),
                rust_type_path: format!("{group_module}::{version_module}::{ident}"),
                doc,
            },
            crd_name: crd.name.clone(),
            source: crd.file.clone(),
            root,
            storage: version.storage,
            deprecation: version.deprecation.clone(),
            subresources: version.subresources.clone(),
        });
    }
    let (group, version) = members
        .first()
        .map(|(c, v)| (c.group.clone(), v.name.clone()))
        .unwrap_or_default();
    Ok(GroupVersionModule {
        group,
        version,
        group_module,
        version_module,
        resources,
        types: typer.types,
    })
}

fn resource_notes(crd: &Crd, version: &CrdVersion) -> Vec<String> {
    let scope = match crd.scope {
        Scope::Namespaced => "namespaced",
        Scope::Cluster => "cluster-scoped",
    };
    let mut notes = vec![format!(
        "Custom resource `{}/{}` `{}` (`{}`, {scope}), from CRD `{}`.",
        crd.group, version.name, crd.kind, crd.plural, crd.name
    )];
    if version.storage {
        notes.push("This is the storage version.".into());
    }
    if let Some(warning) = &version.deprecation {
        if warning.is_empty() {
            notes.push("Deprecated.".into());
        } else {
            notes.push(format!("Deprecated: {warning}"));
        }
    }
    if !version.subresources.is_empty() {
        notes.push(format!(
            "Subresources: {}.",
            version
                .subresources
                .iter()
                .map(|s| format!("`{s}`"))
                .collect::<Vec<_>>()
                .join(", ")
        ));
    }
    notes
}

/// Turns schema nodes into types of one module.
struct Typer<'a> {
    file: &'a Path,
    crd: &'a str,
    names: NameSet,
    types: Vec<TypeDef>,
    defaults: BTreeMap<String, bool>,
    /// Structs already emitted, by shape, so that a sub-schema repeated across the module
    /// (label selectors, pod templates) becomes one type instead of hundreds.
    struct_ids: HashMap<StructShape, String>,
    /// Enums already emitted, by their values and description.
    enum_ids: HashMap<(Vec<String>, Vec<String>), String>,
}

/// What makes two structs interchangeable: the same fields (wire names, types, docs) and the
/// same treatment of undeclared fields.
type StructShape = (Vec<FieldDef>, Option<(String, FieldType)>);

/// A field type plus what its doc comment should add (e.g. why it is free-form JSON).
struct Typed {
    ty: FieldType,
    notes: Vec<String>,
}

impl Typed {
    fn plain(ty: FieldType) -> Self {
        Self {
            ty,
            notes: Vec::new(),
        }
    }
}

fn flag(schema: &Map<String, Value>, key: &str) -> bool {
    schema.get(key).and_then(Value::as_bool) == Some(true)
}

impl Typer<'_> {
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

    fn root(
        &mut self,
        schema: Option<&Value>,
        path: &str,
        name: &str,
    ) -> Result<StructDef, CrdError> {
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
        let mut def = self.structure(schema, path, name.to_owned(), 0, true)?;
        if schema.get("properties").is_none() && def.rest.is_none() {
            def.rest = Some(("rest".into(), FieldType::Value));
            def.doc.push(
                "The schema declares no fields: every field besides `metadata` is kept in `rest`."
                    .into(),
            );
        }
        Ok(def)
    }

    fn type_of(
        &mut self,
        schema: &Value,
        path: &str,
        hint: &str,
        depth: usize,
    ) -> Result<Typed, CrdError> {
        if depth > MAX_DEPTH {
            return Err(self.untypeable(path, format!("nested deeper than {MAX_DEPTH} levels")));
        }
        let schema = self.as_object(schema, path)?;
        if flag(schema, "x-kubernetes-int-or-string") {
            return Ok(Typed::plain(FieldType::IntOrString));
        }
        let declared = match schema.get("type") {
            None => None,
            Some(Value::String(t)) => Some(t.as_str()),
            Some(_) => {
                return Err(self.untypeable(&format!("{path}.type"), "`type` must be a string"))
            }
        };
        let ty = match declared {
            Some("string") => self.string(schema, path, hint),
            Some("integer") => match schema.get("format").and_then(Value::as_str) {
                Some("int32") => FieldType::I32,
                _ => FieldType::I64,
            },
            Some("number") => FieldType::F64,
            Some("boolean") => FieldType::Bool,
            Some("array") => {
                let Some(items) = schema.get("items") else {
                    return Err(self.untypeable(path, "an array needs `items`"));
                };
                let item = self.type_of(items, &format!("{path}.items"), hint, depth + 1)?;
                return Ok(Typed {
                    ty: FieldType::Array(Box::new(item.ty)),
                    notes: item.notes,
                });
            }
            Some("object") => return self.object(schema, path, hint, depth),
            None if schema.contains_key("properties") || schema.contains_key("additionalProperties") => {
                return self.object(schema, path, hint, depth)
            }
            None => return self.untyped(schema, path, hint, depth),
            Some(other) => {
                return Err(self.untypeable(
                    &format!("{path}.type"),
                    format!("unknown type `{other}` (expected string, integer, number, boolean, array or object)"),
                ))
            }
        };
        Ok(Typed::plain(ty))
    }

    /// A node without `type`: typed from `anyOf`/`oneOf` when every branch agrees on one
    /// scalar type, free-form JSON otherwise.
    fn untyped(
        &mut self,
        schema: &Map<String, Value>,
        path: &str,
        hint: &str,
        depth: usize,
    ) -> Result<Typed, CrdError> {
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
                return self.type_of(&Value::Object(merged), path, hint, depth + 1);
            }
            return Ok(Typed {
                ty: FieldType::Value,
                notes: vec![format!(
                    "Free-form JSON: the `{keyword}` branches of this schema share no single Rust type."
                )],
            });
        }
        Ok(Typed::plain(FieldType::Value))
    }

    fn string(&mut self, schema: &Map<String, Value>, path: &str, hint: &str) -> FieldType {
        if schema.get("format").and_then(Value::as_str) == Some("date-time") {
            return FieldType::Time;
        }
        let values: Vec<&str> = schema
            .get("enum")
            .and_then(Value::as_array)
            .map(|values| values.iter().filter_map(Value::as_str).collect())
            .unwrap_or_default();
        if values.is_empty() {
            return FieldType::String;
        }
        let mut seen = BTreeSet::new();
        let values: Vec<String> = values
            .into_iter()
            .filter(|v| seen.insert(*v))
            .map(str::to_owned)
            .collect();
        let mut doc = description(schema);
        let key = (values, doc.clone());
        if let Some(existing) = self.enum_ids.get(&key) {
            return FieldType::Named(existing.clone());
        }
        let name = self.names.claim(hint);
        let values = key.0.clone();
        self.enum_ids.insert(key, name.clone());
        let mut variant_names = NameSet::default();
        let variants: Vec<VariantDef> = values
            .into_iter()
            .map(|value| VariantDef {
                rust_name: variant_names.claim(&variant_ident(&value)),
                wire: value,
            })
            .collect();
        let fallback = variant_names.claim("Other");
        if doc.is_empty() {
            doc.push(format!("String enum at `{path}`."));
        }
        doc.push(format!("Values other than these decode as `{fallback}(value)`, so new server values never fail decoding."));
        self.defaults.insert(name.clone(), false);
        self.types.push(TypeDef::Enum(EnumDef {
            name: name.clone(),
            doc,
            variants,
            fallback,
        }));
        FieldType::Named(name)
    }

    fn object(
        &mut self,
        schema: &Map<String, Value>,
        path: &str,
        hint: &str,
        depth: usize,
    ) -> Result<Typed, CrdError> {
        let has_properties = schema
            .get("properties")
            .and_then(Value::as_object)
            .is_some_and(|p| !p.is_empty());
        if !has_properties {
            return match schema.get("additionalProperties") {
                Some(Value::Object(_)) => {
                    let value = schema.get("additionalProperties").unwrap_or(&Value::Null);
                    let inner = self.type_of(
                        value,
                        &format!("{path}.additionalProperties"),
                        hint,
                        depth + 1,
                    )?;
                    Ok(Typed {
                        ty: FieldType::Map(Box::new(inner.ty)),
                        notes: inner.notes,
                    })
                }
                Some(Value::Bool(true)) => {
                    Ok(Typed::plain(FieldType::Map(Box::new(FieldType::Value))))
                }
                _ => Ok(Typed::plain(FieldType::Value)),
            };
        }
        let name = self.names.claim(hint);
        let name = self.structure(schema, path, name, depth, false)?.name;
        Ok(Typed::plain(FieldType::Named(name)))
    }

    /// Builds a struct from `properties`; non-root structs are added to the module's types, in
    /// pre-order so parents come before their children.
    fn structure(
        &mut self,
        schema: &Map<String, Value>,
        path: &str,
        name: String,
        depth: usize,
        root: bool,
    ) -> Result<StructDef, CrdError> {
        let slot = self.types.len();
        let empty = Map::new();
        let properties = match schema.get("properties") {
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
        let mut field_names = if root {
            NameSet::with_reserved(["metadata"])
        } else {
            NameSet::default()
        };
        let mut fields = Vec::new();
        for (wire, property) in properties {
            if root && matches!(wire.as_str(), "apiVersion" | "kind" | "metadata") {
                continue;
            }
            let property_path = format!("{path}.properties.{wire}");
            let hint = format!("{name}{}", type_ident_part(wire));
            let typed = self.type_of(property, &property_path, &hint, depth + 1)?;
            let property = self.as_object(property, &property_path)?;
            let is_required = required.contains(wire.as_str());
            let mut doc = description(property);
            if let Some(default) = property.get("default") {
                doc.push(format!("Default: `{default}`"));
            }
            if flag(property, "x-kubernetes-embedded-resource") {
                doc.push(
                    "An embedded Kubernetes object (`apiVersion`, `kind`, `metadata`).".into(),
                );
            }
            doc.extend(typed.notes);
            fields.push(FieldDef {
                wire_name: wire.clone(),
                rust_name: field_names.claim(&field_ident(wire)),
                ty: typed.ty,
                optional: !is_required || flag(property, "nullable"),
                skip_none: !is_required,
                doc,
            });
        }
        let rest = if flag(schema, "x-kubernetes-preserve-unknown-fields") {
            Some(FieldType::Value)
        } else {
            match schema.get("additionalProperties") {
                Some(Value::Bool(true)) => Some(FieldType::Value),
                Some(value @ Value::Object(_)) => {
                    let rest_hint = format!("{name}Rest");
                    Some(
                        self.type_of(
                            value,
                            &format!("{path}.additionalProperties"),
                            &rest_hint,
                            depth + 1,
                        )?
                        .ty,
                    )
                }
                _ => None,
            }
        };
        let mut doc = description(schema);
        if doc.is_empty() && !root {
            doc.push(format!("Object at `{path}`."));
        }
        let rest = rest.map(|ty| {
            let field = field_names.claim("rest");
            doc.push(format!(
                "Fields the schema does not declare are kept in `{field}`."
            ));
            (field, ty)
        });
        let default = fields
            .iter()
            .all(|f| f.optional || has_default(&f.ty, &self.defaults));
        let def = StructDef {
            name,
            doc,
            fields,
            rest,
            default,
        };
        if root {
            return Ok(def);
        }
        let shape = (def.fields.clone(), def.rest.clone());
        if let Some(existing) = self.struct_ids.get(&shape) {
            self.names.release(&def.name);
            return Ok(StructDef {
                name: existing.clone(),
                ..def
            });
        }
        self.struct_ids.insert(shape, def.name.clone());
        self.defaults.insert(def.name.clone(), def.default);
        self.types.insert(slot, TypeDef::Struct(def.clone()));
        Ok(def)
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
