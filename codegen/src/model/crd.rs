//! Custom resources from [`CrdDef`]s to a [`CrdModel`]: checks that no two CRDs would share a
//! resource or a Rust name, groups the served versions into group/version modules, and names
//! the types of their schemas.
//!
//! Naming, per group/version module (deterministic for a deterministic input):
//! - a resource's struct is its kind ([`kind_ident`]); a nested type is its parent's name
//!   followed by the property name (`CertificateSpecPrivateKey`), an array's items and a map's
//!   values take the name of the property, undeclared fields of an object `<Parent>Rest`;
//!   a name already taken gets `2`, `3`...;
//! - structurally identical types are one type (label selectors, pod templates): the same
//!   fields (wire names, types, docs) and treatment of undeclared fields for structs, the same
//!   values and description for enums. The type is named after the first resource (by kind)
//!   that has it.

use std::collections::{BTreeMap, HashMap};

use super::schema::{
    field_ident, has_default, kind_ident, module_ident, type_ident_part, variant_ident, CrdDef,
    CrdModel, CrdResource, CrdVersionDef, EnumDef, EnumSchema, FieldDef, FieldType,
    GroupVersionModule, NameSet, ObjectSchema, SchemaNode, StructDef, TypeDef, VariantDef,
};
use super::{ResourceDef, Scope, TypeRef};

/// Two CRDs that would generate the same resource or Rust name.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("CRD `{crd}` clashes with CRD `{other}` from {}: {what}", .other_source.display())]
pub struct CrdClash {
    /// The file of the CRD found second.
    pub file: std::path::PathBuf,
    /// The CRD found second.
    pub crd: String,
    /// The CRD it clashes with.
    pub other: String,
    /// That CRD's file.
    pub other_source: std::path::PathBuf,
    /// What they share.
    pub what: String,
}

fn clash(crd: &CrdDef, other: &CrdDef, what: String) -> CrdClash {
    CrdClash {
        file: crd.source.clone(),
        crd: crd.name.clone(),
        other: other.name.clone(),
        other_source: other.source.clone(),
        what,
    }
}

/// Checks the CRDs for clashes, groups their served versions into group/version modules and
/// names their types.
pub fn build(crds: &[CrdDef]) -> Result<CrdModel, CrdClash> {
    check_clashes(crds)?;
    let mut modules: BTreeMap<(String, String), Vec<(&CrdDef, &CrdVersionDef)>> =
        BTreeMap::new();
    let mut group_modules: BTreeMap<String, &CrdDef> = BTreeMap::new();
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
            .push(type_module(group_module, version_module, &members));
    }
    Ok(model)
}

fn check_clashes(crds: &[CrdDef]) -> Result<(), CrdClash> {
    let mut kinds: BTreeMap<(&str, String), &CrdDef> = BTreeMap::new();
    let mut plurals: BTreeMap<(&str, &str), &CrdDef> = BTreeMap::new();
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
    members: &[(&CrdDef, &CrdVersionDef)],
) -> GroupVersionModule {
    let kind_idents: Vec<String> = members.iter().map(|(c, _)| kind_ident(&c.kind)).collect();
    let mut namer = Namer {
        names: NameSet::with_reserved(kind_idents.iter().map(String::as_str)),
        types: Vec::new(),
        defaults: BTreeMap::new(),
        struct_ids: HashMap::new(),
        enum_ids: HashMap::new(),
    };
    let mut resources = Vec::new();
    for ((crd, version), ident) in members.iter().zip(&kind_idents) {
        let mut root = namer.root(&version.schema, version.declares_properties, ident);
        let notes = resource_notes(crd, version);
        let doc = version
            .description
            .clone()
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
                ty: TypeRef::Generated {
                    group: crd.group.clone(),
                    version: version.name.clone(),
                    kind: crd.kind.clone(),
                },
                doc,
            },
            crd_name: crd.name.clone(),
            source: crd.source.clone(),
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
    GroupVersionModule {
        group,
        version,
        group_module,
        version_module,
        resources,
        types: namer.types,
    }
}

fn resource_notes(crd: &CrdDef, version: &CrdVersionDef) -> Vec<String> {
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

/// Names the schema nodes of one module's resources.
struct Namer {
    names: NameSet,
    types: Vec<TypeDef>,
    defaults: BTreeMap<String, bool>,
    /// Structs already named, by shape, so that a sub-schema repeated across the module
    /// (label selectors, pod templates) becomes one type instead of hundreds.
    struct_ids: HashMap<StructShape, String>,
    /// Enums already named, by their values and description.
    enum_ids: HashMap<(Vec<String>, Vec<String>), String>,
}

/// What makes two structs interchangeable: the same fields (wire names, types, docs) and the
/// same treatment of undeclared fields.
type StructShape = (Vec<FieldDef>, Option<(String, FieldType)>);

impl Namer {
    fn root(&mut self, schema: &ObjectSchema, declares_properties: bool, name: &str) -> StructDef {
        let mut def = self.structure(schema, name.to_owned(), true);
        if !declares_properties && def.rest.is_none() {
            def.rest = Some(("rest".into(), FieldType::Value));
            def.doc.push(
                "The schema declares no fields: every field besides `metadata` is kept in `rest`."
                    .into(),
            );
        }
        def
    }

    fn field_type(&mut self, node: &SchemaNode, hint: &str) -> FieldType {
        match node {
            SchemaNode::Plain(ty) => ty.clone(),
            SchemaNode::Enum(e) => self.enumeration(e, hint),
            SchemaNode::Array(item) => FieldType::Array(Box::new(self.field_type(item, hint))),
            SchemaNode::Map(value) => FieldType::Map(Box::new(self.field_type(value, hint))),
            SchemaNode::Object(object) => {
                let name = self.names.claim(hint);
                FieldType::Named(self.structure(object, name, false).name)
            }
        }
    }

    fn enumeration(&mut self, schema: &EnumSchema, hint: &str) -> FieldType {
        let key = (schema.values.clone(), schema.description.clone());
        if let Some(existing) = self.enum_ids.get(&key) {
            return FieldType::Named(existing.clone());
        }
        let name = self.names.claim(hint);
        self.enum_ids.insert(key, name.clone());
        let mut variant_names = NameSet::default();
        let variants: Vec<VariantDef> = schema
            .values
            .iter()
            .map(|value| VariantDef {
                rust_name: variant_names.claim(&variant_ident(value)),
                wire: value.clone(),
            })
            .collect();
        let fallback = variant_names.claim("Other");
        let mut doc = schema.description.clone();
        if doc.is_empty() {
            doc.push(format!("String enum at `{}`.", schema.path));
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

    /// A struct from an object's properties; non-root structs are added to the module's types,
    /// in pre-order so parents come before their children.
    fn structure(&mut self, schema: &ObjectSchema, name: String, root: bool) -> StructDef {
        let slot = self.types.len();
        let mut field_names = if root {
            NameSet::with_reserved(["metadata"])
        } else {
            NameSet::default()
        };
        let mut fields = Vec::new();
        for property in &schema.properties {
            let wire = &property.wire;
            if root && matches!(wire.as_str(), "apiVersion" | "kind" | "metadata") {
                continue;
            }
            let hint = format!("{name}{}", type_ident_part(wire));
            let ty = self.field_type(&property.node, &hint);
            fields.push(FieldDef {
                wire_name: wire.clone(),
                rust_name: field_names.claim(&field_ident(wire)),
                ty,
                optional: !property.required || property.nullable,
                skip_none: !property.required,
                doc: property.doc.clone(),
            });
        }
        let rest = schema
            .rest
            .as_ref()
            .map(|node| self.field_type(node, &format!("{name}Rest")));
        let mut doc = schema.description.clone();
        if doc.is_empty() && !root {
            doc.push(format!("Object at `{}`.", schema.path));
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
            return def;
        }
        let shape = (def.fields.clone(), def.rest.clone());
        if let Some(existing) = self.struct_ids.get(&shape) {
            self.names.release(&def.name);
            return StructDef {
                name: existing.clone(),
                ..def
            };
        }
        self.struct_ids.insert(shape, def.name.clone());
        self.defaults.insert(def.name.clone(), def.default);
        self.types.insert(slot, TypeDef::Struct(def.clone()));
        def
    }
}
