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
//!   that has it;
//! - every other resource that has such a type gets a type alias named after itself, the name
//!   the type would have had without sharing (`pub type IssuerSpec = ClusterIssuerSpec;`), for
//!   each such type, so each resource's types are found under its own name;
//! - a place where a resource repeats one of its own types gets an alias named after the
//!   place (`pub type ClusterPolicySpecRulesMatch = ClusterPolicySpecRulesExclude;`), at the
//!   top of the repeated subtree only (its nested types are the first place's);
//! - a field names the alias of its place, if any (`r#match: ClusterPolicySpecRulesMatch`,
//!   `status: VirtualServiceStatus`);
//! - enum variants are named by [`super::schema::variant_names`] (values differing only in
//!   case: `audit` → `AuditLowercase`, `Audit` → `Audit`).

use std::collections::{BTreeMap, HashMap, HashSet};

use super::schema::{
    field_ident, has_default, kind_ident, module_ident, type_ident_part, variant_names, AliasDef,
    CrdDef, CrdModel, CrdResource, CrdVersionDef, EnumDef, EnumSchema, FieldDef, FieldType,
    GroupVersionModule, NameSet, ObjectSchema, SchemaNode, StructDef, TypeDef, VariantDef,
};
use super::{ResourceDef, Scope, Subresources, TypeRef};

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
    let mut modules: BTreeMap<(String, String), Vec<(&CrdDef, &CrdVersionDef)>> = BTreeMap::new();
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
        owners: HashMap::new(),
        current: 0,
        current_kind: String::new(),
        aliases: BTreeMap::new(),
        local: HashSet::new(),
    };
    let mut resources = Vec::new();
    for (index, ((crd, version), ident)) in members.iter().zip(&kind_idents).enumerate() {
        namer.current = index;
        namer.current_kind = crd.kind.clone();
        namer.aliases.clear();
        namer.local.clear();
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
                subresources: Subresources::from_names(&version.subresources),
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
    /// The resource (index in the module) whose schema a type was first met in.
    owners: HashMap<String, usize>,
    /// The resource being named, and its kind.
    current: usize,
    current_kind: String,
    /// The current resource's aliases of types first met in another resource: type → alias.
    aliases: BTreeMap<String, String>,
    /// The current resource's aliases of its own types met again.
    local: HashSet<String>,
}

/// What makes two structs interchangeable: the same fields (wire names, types, docs) and the
/// same treatment of undeclared fields.
type StructShape = (Vec<FieldDef>, Option<(String, FieldType)>);

/// A field type as the shape of a struct sees it (`ty`, naming shared types) and as the field
/// shows it (`shown`, naming the alias of the place, if any).
struct Typed {
    ty: FieldType,
    shown: FieldType,
}

impl Namer {
    fn root(&mut self, schema: &ObjectSchema, declares_properties: bool, name: &str) -> StructDef {
        let (mut def, _) = self.structure(schema, name.to_owned(), true);
        if !declares_properties && def.rest.is_none() {
            def.rest = Some(("rest".into(), FieldType::Value));
            def.doc.push(
                "The schema declares no fields: every field besides `metadata` is kept in `rest`."
                    .into(),
            );
        }
        def
    }

    /// Records that the current resource has the type `existing` at `path`, where it would
    /// have named it `name` (claimed); returns the name the place shows. `name` is kept as an
    /// alias when `existing` was first met in another resource and this resource has no name
    /// for it yet, or when this resource already has `existing` elsewhere (a repetition inside
    /// one resource, such as `match` and `exclude`); otherwise the place shows the resource's
    /// alias and `name` is given back.
    fn shared(&mut self, existing: &str, name: String, path: &str) -> String {
        let kind = &self.current_kind;
        let doc = if self.owners.get(existing) == Some(&self.current) {
            self.local.insert(name.clone());
            format!(
                "[`{existing}`] at `{path}`: the schema there is the same as where `{kind}` \
                 first has it, so the places share one type."
            )
        } else if let Some(alias) = self.aliases.get(existing) {
            self.names.release(&name);
            return alias.clone();
        } else {
            self.aliases.insert(existing.to_owned(), name.clone());
            format!(
                "[`{existing}`] as `{kind}` has it (at `{path}`): the schema there is the same \
                 as where another kind of this module first has it, so the kinds share one type."
            )
        };
        self.types.push(TypeDef::Alias(AliasDef {
            name: name.clone(),
            target: existing.to_owned(),
            doc: vec![doc],
        }));
        name
    }

    /// Drops the aliases of repetitions inside the current resource added since `start`: the
    /// subtree they are in repeats as a whole, and the alias of its top names it.
    fn drop_local_aliases(&mut self, start: usize) {
        let mut index = start;
        while index < self.types.len() {
            if let TypeDef::Alias(alias) = &self.types[index] {
                if self.local.remove(&alias.name) {
                    self.names.release(&alias.name);
                    self.types.remove(index);
                    continue;
                }
            }
            index += 1;
        }
    }

    fn field_type(&mut self, node: &SchemaNode, hint: &str) -> Typed {
        match node {
            SchemaNode::Plain(ty) => Typed {
                ty: ty.clone(),
                shown: ty.clone(),
            },
            SchemaNode::Enum(e) => self.enumeration(e, hint),
            SchemaNode::Array(item) => {
                let item = self.field_type(item, hint);
                Typed {
                    ty: FieldType::Array(Box::new(item.ty)),
                    shown: FieldType::Array(Box::new(item.shown)),
                }
            }
            SchemaNode::Map(value) => {
                let value = self.field_type(value, hint);
                Typed {
                    ty: FieldType::Map(Box::new(value.ty)),
                    shown: FieldType::Map(Box::new(value.shown)),
                }
            }
            SchemaNode::Object(object) => {
                let name = self.names.claim(hint);
                self.structure(object, name, false).1
            }
        }
    }

    fn enumeration(&mut self, schema: &EnumSchema, hint: &str) -> Typed {
        let key = (schema.values.clone(), schema.description.clone());
        let name = self.names.claim(hint);
        if let Some(existing) = self.enum_ids.get(&key).cloned() {
            let shown = self.shared(&existing, name, &schema.path);
            return Typed {
                ty: FieldType::Named(existing),
                shown: FieldType::Named(shown),
            };
        }
        self.enum_ids.insert(key, name.clone());
        self.owners.insert(name.clone(), self.current);
        let (names, fallback) = variant_names(&schema.values);
        let variants: Vec<VariantDef> = schema
            .values
            .iter()
            .zip(names)
            .map(|(value, rust_name)| VariantDef {
                rust_name,
                wire: value.clone(),
            })
            .collect();
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
        Typed {
            ty: FieldType::Named(name.clone()),
            shown: FieldType::Named(name),
        }
    }

    /// A struct from an object's properties; non-root structs are added to the module's types,
    /// in pre-order so parents come before their children. Returns the struct as its fields
    /// show it, and how a field of this type is typed.
    fn structure(&mut self, schema: &ObjectSchema, name: String, root: bool) -> (StructDef, Typed) {
        let slot = self.types.len();
        let mut field_names = if root {
            NameSet::with_reserved(["metadata"])
        } else {
            NameSet::default()
        };
        let mut fields = Vec::new();
        let mut shape_fields = Vec::new();
        for property in &schema.properties {
            let wire = &property.wire;
            if root && matches!(wire.as_str(), "apiVersion" | "kind" | "metadata") {
                continue;
            }
            let hint = format!("{name}{}", type_ident_part(wire));
            let typed = self.field_type(&property.node, &hint);
            let field = FieldDef {
                wire_name: wire.clone(),
                rust_name: field_names.claim(&field_ident(wire)),
                ty: typed.ty,
                optional: !property.required || property.nullable,
                skip_none: !property.required,
                doc: property.doc.clone(),
            };
            fields.push(FieldDef {
                ty: typed.shown,
                ..field.clone()
            });
            shape_fields.push(field);
        }
        let rest = schema
            .rest
            .as_ref()
            .map(|node| self.field_type(node, &format!("{name}Rest")));
        let mut doc = schema.description.clone();
        if doc.is_empty() && !root {
            doc.push(format!("Object at `{}`.", schema.path));
        }
        let rest_field = rest.as_ref().map(|_| {
            let field = field_names.claim("rest");
            doc.push(format!(
                "Fields the schema does not declare are kept in `{field}`."
            ));
            field
        });
        let default = shape_fields
            .iter()
            .all(|f| f.optional || has_default(&f.ty, &self.defaults));
        let (rest, shape_rest) = match (rest_field, rest) {
            (Some(field), Some(typed)) => {
                (Some((field.clone(), typed.shown)), Some((field, typed.ty)))
            }
            _ => (None, None),
        };
        let def = StructDef {
            name: name.clone(),
            doc,
            fields,
            rest,
            default,
        };
        let own = Typed {
            ty: FieldType::Named(name.clone()),
            shown: FieldType::Named(name),
        };
        if root {
            return (def, own);
        }
        let shape = (shape_fields, shape_rest);
        if let Some(existing) = self.struct_ids.get(&shape).cloned() {
            self.drop_local_aliases(slot);
            let shown = self.shared(&existing, def.name.clone(), &schema.path);
            let typed = Typed {
                ty: FieldType::Named(existing),
                shown: FieldType::Named(shown),
            };
            return (def, typed);
        }
        self.struct_ids.insert(shape, def.name.clone());
        self.owners.insert(def.name.clone(), self.current);
        self.defaults.insert(def.name.clone(), def.default);
        self.types.insert(slot, TypeDef::Struct(def.clone()));
        (def, own)
    }
}
