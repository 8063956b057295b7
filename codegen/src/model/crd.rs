//! Custom resources from [`CrdDef`]s to a [`CrdModel`]: checks that no two CRDs would share a
//! resource or a Rust name, groups the served versions into group/version modules, and names
//! the types of their schemas.
//!
//! Naming, per group/version module (deterministic for a deterministic input):
//! - a resource's struct is its kind ([`kind_ident`]). Every place of its schema that holds an
//!   object or a string enum has a name, `<Kind><Path>`: the kind followed by each property
//!   name on the way there in upper camel case ([`type_ident_part`]), where an array's items
//!   and a map's values are the property's place and the undeclared fields of an object are
//!   `<Parent>Rest` (`CertificateSpecPrivateKey`, `HTTPRouteSpecRulesMatchesHeaders`). A name
//!   already taken (by a kind, or by a place whose property names only differ in punctuation)
//!   gets `2`, `3`..., places named in schema order, kinds in alphabetical order;
//! - structurally identical places share one type (label selectors, pod templates): the same
//!   fields (wire names, types, docs) and treatment of undeclared fields for structs, the same
//!   values and description for enums. The type is defined at its *owner* place: the one
//!   closest to its resource's root (fewest properties on the way), then the one whose CRD
//!   comes first in the input (file order, then document order), then the first in schema
//!   order. So an `ExternalSecret`'s `spec` owns the type that `ClusterExternalSecret` embeds
//!   at `spec.externalSecretSpec`, and of two kinds with one schema the first one read owns it;
//! - every other place's name is a type alias of the shared type
//!   (`pub type IssuerSpec = ClusterIssuerSpec;`,
//!   `pub type ClusterPolicySpecRulesMatch = ClusterPolicySpecRulesExclude;`), nested places
//!   included, so that `<Kind><Path>` names a type for every place of every kind;
//! - a type's own name is its owner place's name, except that a name longer than
//!   [`LONG_NAME`] characters is shortened to the kind followed by the fewest last segments of
//!   the path that make a name no kind, place or type of the module has (types taking their
//!   names in the order of their owner places): the type at `Rollout`'s
//!   `spec.template.affinity.nodeAffinity.preferredDuringSchedulingIgnoredDuringExecution
//!   .preference.matchExpressions` is `RolloutMatchExpressions`, or
//!   `RolloutPreferenceMatchExpressions` when that is taken. The long name stays, as an alias;
//! - a field names its type by the place it is at, seen from the owner place of the struct
//!   that has it: `<Owner name><Property>` (`r#match: ClusterPolicySpecRulesMatch`,
//!   `status: VirtualServiceStatus`), an alias or the type itself;
//! - enum variants are named by [`super::schema::variant_names`] (values differing only in
//!   case: `audit` → `AuditLowercase`, `Audit` → `Audit`).

use std::collections::{BTreeMap, HashMap};

use super::schema::{
    field_ident, kind_ident, module_ident, type_ident_part, variant_names, AliasDef, CrdDef,
    CrdModel, CrdResource, CrdVersionDef, EnumDef, EnumSchema, FieldDef, FieldType,
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
    let mut modules: BTreeMap<(String, String), Vec<Member>> = BTreeMap::new();
    let mut group_modules: BTreeMap<String, &CrdDef> = BTreeMap::new();
    for (order, crd) in crds.iter().enumerate() {
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
                .push((crd, version, order));
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

/// One served version of one CRD in a module, with the CRD's index in the input.
type Member<'a> = (&'a CrdDef, &'a CrdVersionDef, usize);

/// Type names longer than this get a shortened name (see the module docs).
pub const LONG_NAME: usize = 60;

fn type_module(
    group_module: String,
    version_module: String,
    members: &[Member<'_>],
) -> GroupVersionModule {
    let kind_idents: Vec<String> = members
        .iter()
        .map(|(c, _, _)| kind_ident(&c.kind))
        .collect();
    let mut places = Places {
        names: NameSet::with_reserved(kind_idents.iter().map(String::as_str)),
        places: Vec::new(),
        shapes: HashMap::new(),
        defaults: Vec::new(),
    };
    let roots: Vec<Children> = members
        .iter()
        .zip(&kind_idents)
        .map(|((crd, version, order), ident)| {
            let at = Site {
                kind: &crd.kind,
                order: *order,
                depth: 0,
            };
            places.children(&version.schema, std::slice::from_ref(ident), "", &at)
        })
        .collect();
    let names = places.names_of_types();
    let types = places.type_defs(&names);
    let mut resources = Vec::new();
    for (((crd, version, _), ident), children) in members.iter().zip(&kind_idents).zip(&roots) {
        let mut root = places.structure(&version.schema, children, ident.clone(), true, &names);
        if !version.declares_properties && root.rest.is_none() {
            root.rest = Some(("rest".into(), FieldType::Value));
            root.doc.push(
                "The schema declares no fields: every field besides `metadata` is kept in `rest`."
                    .into(),
            );
        }
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
                protobuf: false,
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
        .map(|(c, v, _)| (c.group.clone(), v.name.clone()))
        .unwrap_or_default();
    GroupVersionModule {
        group,
        version,
        group_module,
        version_module,
        resources,
        types,
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

/// Where in the input a place is: its resource's kind (as the CRD spells it), the CRD's index
/// in the input, and how many properties lead from the resource's root to it.
#[derive(Clone, Copy)]
struct Site<'a> {
    kind: &'a str,
    order: usize,
    depth: usize,
}

/// The schema at a place.
#[derive(Clone, Copy)]
enum Schema<'a> {
    Object(&'a ObjectSchema),
    Enum(&'a EnumSchema),
}

/// The places of an object's properties (`None` where a property holds no object or enum),
/// and of its undeclared fields.
#[derive(Default)]
struct Children {
    properties: Vec<Option<usize>>,
    rest: Option<usize>,
}

/// A place of a resource's schema that holds an object or a string enum.
struct Place<'a> {
    /// `<Kind><Path>`, numbered if taken.
    name: String,
    /// The kind's type name and the path's parts, which make up `name`.
    segments: Vec<String>,
    /// The wire names on the way from the root, dotted (`spec.rules.match`; `*` for
    /// undeclared fields), said in docs.
    path: String,
    site: Site<'a>,
    schema: Schema<'a>,
    children: Children,
    /// The index of its shape in [`Places::defaults`].
    shape: usize,
}

/// What makes two types interchangeable: for structs the same fields (wire names, whether
/// required or nullable, docs and types) and the same treatment of undeclared fields; for
/// enums the same values and description.
#[derive(PartialEq, Eq, Hash)]
enum ShapeKey {
    Struct(Vec<ShapeField>, Option<ShapeType>),
    Enum(Vec<String>, Vec<String>),
}

#[derive(PartialEq, Eq, Hash)]
struct ShapeField {
    wire: String,
    required: bool,
    nullable: bool,
    doc: Vec<String>,
    ty: ShapeType,
}

/// A field type with named types as shapes.
#[derive(PartialEq, Eq, Hash)]
enum ShapeType {
    Plain(FieldType),
    Array(Box<ShapeType>),
    Map(Box<ShapeType>),
    Shape(usize),
}

/// Every place of one module's schemas, and the shapes they have.
struct Places<'a> {
    /// The module's type names: kinds and places first, then shortened names.
    names: NameSet,
    places: Vec<Place<'a>>,
    shapes: HashMap<ShapeKey, usize>,
    /// Whether each shape has a `Default` implementation, by shape index.
    defaults: Vec<bool>,
}

/// The names of a module's types: each shape's owner place and own name.
struct TypeNames {
    owner: Vec<usize>,
    name: Vec<String>,
}

impl TypeNames {
    /// How a field at place `place` names its type: the type's own name at its owner place,
    /// else the place's name (an alias).
    fn shown(&self, places: &[Place<'_>], place: usize) -> String {
        let shape = places[place].shape;
        if self.owner[shape] == place {
            self.name[shape].clone()
        } else {
            places[place].name.clone()
        }
    }
}

impl<'a> Places<'a> {
    /// Names the places below an object at `segments` and `path`, in schema order. Below a
    /// resource's root (`at` at depth 0) `apiVersion`, `kind` and `metadata` are skipped.
    fn children(
        &mut self,
        schema: &'a ObjectSchema,
        segments: &[String],
        path: &str,
        at: &Site<'a>,
    ) -> Children {
        let root = at.depth == 0;
        let below_path = |wire: &str| {
            if root {
                wire.to_owned()
            } else {
                format!("{path}.{wire}")
            }
        };
        let below = Site {
            depth: at.depth + 1,
            ..*at
        };
        let mut children = Children::default();
        for property in &schema.properties {
            if root && matches!(property.wire.as_str(), "apiVersion" | "kind" | "metadata") {
                children.properties.push(None);
                continue;
            }
            let segments = extend(segments, type_ident_part(&property.wire));
            let place = self.node(&property.node, segments, below_path(&property.wire), &below);
            children.properties.push(place);
        }
        if let Some(rest) = &schema.rest {
            let segments = extend(segments, "Rest".into());
            children.rest = self.node(rest, segments, below_path("*"), &below);
        }
        children
    }

    /// The place of the object or enum inside `node` (through arrays and maps), if any.
    fn node(
        &mut self,
        node: &'a SchemaNode,
        segments: Vec<String>,
        path: String,
        at: &Site<'a>,
    ) -> Option<usize> {
        let schema = match node {
            SchemaNode::Plain(_) => return None,
            SchemaNode::Array(inner) | SchemaNode::Map(inner) => {
                return self.node(inner, segments, path, at)
            }
            SchemaNode::Enum(schema) => Schema::Enum(schema),
            SchemaNode::Object(schema) => Schema::Object(schema),
        };
        Some(self.place(schema, segments, path, at))
    }

    /// Names a place before the places below it (so places are numbered in schema order),
    /// then finds its shape.
    fn place(
        &mut self,
        schema: Schema<'a>,
        segments: Vec<String>,
        path: String,
        at: &Site<'a>,
    ) -> usize {
        let index = self.places.len();
        self.places.push(Place {
            name: self.names.claim(&segments.concat()),
            segments: Vec::new(),
            path: String::new(),
            site: *at,
            schema,
            children: Children::default(),
            shape: 0,
        });
        let children = match schema {
            Schema::Object(object) => self.children(object, &segments, &path, at),
            Schema::Enum(_) => Children::default(),
        };
        let key = match schema {
            Schema::Enum(e) => ShapeKey::Enum(e.values.clone(), e.description.clone()),
            Schema::Object(object) => {
                let fields = object
                    .properties
                    .iter()
                    .zip(&children.properties)
                    .map(|(property, place)| ShapeField {
                        wire: property.wire.clone(),
                        required: property.required,
                        nullable: property.nullable,
                        doc: property.doc.clone(),
                        ty: self.shape_type(&property.node, *place),
                    })
                    .collect();
                let rest = object
                    .rest
                    .as_ref()
                    .map(|node| self.shape_type(node, children.rest));
                ShapeKey::Struct(fields, rest)
            }
        };
        let shape = self.shape(key);
        let place = &mut self.places[index];
        place.segments = segments;
        place.path = path;
        place.children = children;
        place.shape = shape;
        index
    }

    fn shape_type(&self, node: &SchemaNode, place: Option<usize>) -> ShapeType {
        match (node, place) {
            (SchemaNode::Plain(ty), _) => ShapeType::Plain(ty.clone()),
            (SchemaNode::Array(inner), _) => {
                ShapeType::Array(Box::new(self.shape_type(inner, place)))
            }
            (SchemaNode::Map(inner), _) => ShapeType::Map(Box::new(self.shape_type(inner, place))),
            (SchemaNode::Enum(_) | SchemaNode::Object(_), Some(place)) => {
                ShapeType::Shape(self.places[place].shape)
            }
            // `node` gave every enum and object a place.
            (SchemaNode::Enum(_) | SchemaNode::Object(_), None) => {
                ShapeType::Plain(FieldType::Value)
            }
        }
    }

    /// The index of the shape `key`, added (with whether it has a `Default`) when new.
    fn shape(&mut self, key: ShapeKey) -> usize {
        if let Some(&shape) = self.shapes.get(&key) {
            return shape;
        }
        let default = match &key {
            ShapeKey::Enum(..) => false,
            ShapeKey::Struct(fields, _) => fields
                .iter()
                .all(|f| !f.required || f.nullable || self.has_default(&f.ty)),
        };
        self.defaults.push(default);
        let shape = self.defaults.len() - 1;
        self.shapes.insert(key, shape);
        shape
    }

    fn has_default(&self, ty: &ShapeType) -> bool {
        match ty {
            ShapeType::Plain(FieldType::Time) => false,
            ShapeType::Shape(shape) => self.defaults[*shape],
            _ => true,
        }
    }

    /// Each shape's owner place (closest to its root, then first CRD in the input, then first
    /// in schema order) and own name (the owner's, shortened when long and free).
    fn names_of_types(&mut self) -> TypeNames {
        let mut owner: Vec<Option<usize>> = vec![None; self.defaults.len()];
        for (index, place) in self.places.iter().enumerate() {
            let key = |p: &Place<'_>| (p.site.depth, p.site.order);
            let slot = &mut owner[place.shape];
            // Places are numbered in schema order: on a tie, the first one stays.
            if slot.is_none_or(|best| key(place) < key(&self.places[best])) {
                *slot = Some(index);
            }
        }
        // Every shape was found at a place, so every slot is filled.
        let owner: Vec<usize> = owner.into_iter().flatten().collect();
        let mut by_place: Vec<usize> = (0..owner.len()).collect();
        by_place.sort_by_key(|&shape| owner[shape]);
        let mut name = vec![String::new(); owner.len()];
        for shape in by_place {
            let place = &self.places[owner[shape]];
            name[shape] = match short_name(&place.segments, |n| self.names.contains(n)) {
                Some(short) => self.names.claim(&short),
                None => place.name.clone(),
            };
        }
        TypeNames { owner, name }
    }

    /// The module's structs, enums and aliases, by place (kinds alphabetical, then schema
    /// order).
    fn type_defs(&self, names: &TypeNames) -> Vec<TypeDef> {
        let mut types = Vec::new();
        for (index, place) in self.places.iter().enumerate() {
            let owner = names.owner[place.shape];
            let own = &names.name[place.shape];
            if owner == index {
                types.push(self.type_def(place, own, names));
                if *own != place.name {
                    types.push(TypeDef::Alias(AliasDef {
                        name: place.name.clone(),
                        target: own.clone(),
                        doc: vec![format!(
                            "[`{own}`] under the name its place (`{}` in `{}`) gives it: the \
                             type's own name is shorter.",
                            place.path, place.site.kind
                        )],
                    }));
                }
            } else {
                let first = &self.places[owner];
                types.push(TypeDef::Alias(AliasDef {
                    name: place.name.clone(),
                    target: own.clone(),
                    doc: vec![format!(
                        "[`{own}`] at `{}` in `{}`: the schema there is the same as at `{}` in \
                         `{}`, so the places share one type.",
                        place.path, place.site.kind, first.path, first.site.kind
                    )],
                }));
            }
        }
        types
    }

    fn type_def(&self, place: &Place<'a>, name: &str, names: &TypeNames) -> TypeDef {
        match place.schema {
            Schema::Object(object) => TypeDef::Struct(self.structure(
                object,
                &place.children,
                name.to_owned(),
                false,
                names,
            )),
            Schema::Enum(schema) => TypeDef::Enum(enumeration(schema, name)),
        }
    }

    /// The struct of an object whose properties have the places `children`.
    fn structure(
        &self,
        schema: &ObjectSchema,
        children: &Children,
        name: String,
        root: bool,
        names: &TypeNames,
    ) -> StructDef {
        let mut field_names = if root {
            NameSet::with_reserved(["metadata"])
        } else {
            NameSet::default()
        };
        let mut fields = Vec::new();
        let mut default = true;
        for (property, place) in schema.properties.iter().zip(&children.properties) {
            let wire = &property.wire;
            if root && matches!(wire.as_str(), "apiVersion" | "kind" | "metadata") {
                continue;
            }
            let ty = self.field_type(&property.node, *place, names);
            let optional = !property.required || property.nullable;
            default &= optional || self.field_default(&ty, *place);
            fields.push(FieldDef {
                wire_name: wire.clone(),
                rust_name: field_names.claim(&field_ident(wire)),
                ty,
                optional,
                skip_none: !property.required,
                doc: property.doc.clone(),
            });
        }
        let mut doc = schema.description.clone();
        if doc.is_empty() && !root {
            doc.push(format!("Object at `{}`.", schema.path));
        }
        let rest = schema.rest.as_ref().map(|node| {
            let field = field_names.claim("rest");
            doc.push(format!(
                "Fields the schema does not declare are kept in `{field}`."
            ));
            (field, self.field_type(node, children.rest, names))
        });
        StructDef {
            name,
            doc,
            fields,
            rest,
            default,
        }
    }

    fn field_type(&self, node: &SchemaNode, place: Option<usize>, names: &TypeNames) -> FieldType {
        match (node, place) {
            (SchemaNode::Plain(ty), _) => ty.clone(),
            (SchemaNode::Array(inner), _) => {
                FieldType::Array(Box::new(self.field_type(inner, place, names)))
            }
            (SchemaNode::Map(inner), _) => {
                FieldType::Map(Box::new(self.field_type(inner, place, names)))
            }
            (SchemaNode::Enum(_) | SchemaNode::Object(_), Some(place)) => {
                FieldType::Named(names.shown(&self.places, place))
            }
            // `node` gave every enum and object a place.
            (SchemaNode::Enum(_) | SchemaNode::Object(_), None) => FieldType::Value,
        }
    }

    /// Whether a field of type `ty` at `place` has a `Default` implementation.
    fn field_default(&self, ty: &FieldType, place: Option<usize>) -> bool {
        match (ty, place) {
            (FieldType::Time, _) => false,
            (FieldType::Named(_), Some(place)) => self.defaults[self.places[place].shape],
            _ => true,
        }
    }
}

fn extend(segments: &[String], segment: String) -> Vec<String> {
    let mut out = Vec::with_capacity(segments.len() + 1);
    out.extend_from_slice(segments);
    out.push(segment);
    out
}

/// The enum of a string enum schema.
fn enumeration(schema: &EnumSchema, name: &str) -> EnumDef {
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
    doc.push(format!(
        "Values other than these decode as `{fallback}(value)`, so new server values never fail \
         decoding."
    ));
    EnumDef {
        name: name.to_owned(),
        doc,
        variants,
        fallback,
    }
}

/// The shortened name of a place whose `<Kind><Path>` name is longer than [`LONG_NAME`]: the
/// kind followed by the fewest last segments of the path that make a name `taken` says is
/// free; `None` when the name is not long, or when only the whole path would do.
fn short_name(segments: &[String], taken: impl Fn(&str) -> bool) -> Option<String> {
    if segments.iter().map(String::len).sum::<usize>() <= LONG_NAME {
        return None;
    }
    let (kind, path) = segments.split_first()?;
    (1..path.len())
        .map(|n| format!("{kind}{}", path[path.len() - n..].concat()))
        .find(|name| !taken(name))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn long_names_keep_the_kind_and_the_fewest_last_segments_that_are_free() {
        let segments: Vec<String> = [
            "Rollout",
            "Spec",
            "Template",
            "Affinity",
            "NodeAffinity",
            "PreferredDuringSchedulingIgnoredDuringExecution",
            "Preference",
            "MatchExpressions",
        ]
        .iter()
        .map(|s| (*s).to_owned())
        .collect();
        assert_eq!(
            short_name(&segments, |_| false).as_deref(),
            Some("RolloutMatchExpressions")
        );
        assert_eq!(
            short_name(&segments, |name| name == "RolloutMatchExpressions").as_deref(),
            Some("RolloutPreferenceMatchExpressions")
        );
        // Only the whole path is free: no short name.
        assert_eq!(short_name(&segments, |_| true), None);
        let short = ["Certificate".to_owned(), "Spec".to_owned()];
        assert_eq!(short_name(&short, |_| false), None);
    }
}
