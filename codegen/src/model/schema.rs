//! The neutral type model for CRD schemas and the naming rules that turn wire names into
//! Rust identifiers.
//!
//! Two stages: the reader turns each schema into unnamed [`SchemaNode`]s (what the schema
//! means: scalars, enums, arrays, maps, objects) inside [`CrdDef`]s; [`super::crd`] names,
//! deduplicates and groups them into a [`CrdModel`] of structs and enums per group/version
//! module, which the emitters turn into tokens. Nothing here knows about YAML or about
//! `quote`.

use std::collections::BTreeSet;
use std::path::PathBuf;

use heck::{ToSnakeCase, ToUpperCamelCase};

use super::ResourceDef;

/// The Rust type of a field, as the emitter will spell it.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum FieldType {
    /// `String`.
    String,
    /// `bool`.
    Bool,
    /// `i32` (`format: int32`).
    I32,
    /// `i64` (`integer` without a format or `format: int64`).
    I64,
    /// `f64` (`number`).
    F64,
    /// `k8s_openapi::apimachinery::pkg::util::intstr::IntOrString`.
    IntOrString,
    /// `k8s_openapi::apimachinery::pkg::apis::meta::v1::Time` (`format: date-time`).
    Time,
    /// `serde_json::Value`: free-form JSON.
    Value,
    /// `Vec<T>`.
    Array(Box<FieldType>),
    /// `BTreeMap<String, T>` (`additionalProperties`).
    Map(Box<FieldType>),
    /// A struct or enum defined in the same group/version module.
    Named(String),
}

/// One field of a generated struct.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct FieldDef {
    /// The property name on the wire (JSON).
    pub wire_name: String,
    /// The Rust field name, already escaped (`r#type`, `_1gi`...).
    pub rust_name: String,
    /// The field's type, without the `Option` wrapper.
    pub ty: FieldType,
    /// Whether the field is `Option<ty>` (not required, or nullable).
    pub optional: bool,
    /// Whether `None` is left out when serializing (false for required nullable fields, which
    /// must be sent as `null`).
    pub skip_none: bool,
    /// Doc comment paragraphs.
    pub doc: Vec<String>,
}

/// A generated struct.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StructDef {
    /// Rust type name.
    pub name: String,
    /// Doc comment paragraphs.
    pub doc: Vec<String>,
    /// Declared fields, in schema order.
    pub fields: Vec<FieldDef>,
    /// Properties the schema does not declare but keeps
    /// (`x-kubernetes-preserve-unknown-fields` or `additionalProperties` next to `properties`):
    /// a flattened `BTreeMap<String, T>` field with this name and value type.
    pub rest: Option<(String, FieldType)>,
    /// Whether `Default` can be derived (every non-optional field has a default).
    pub default: bool,
}

/// One value of a string enum.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct VariantDef {
    /// The value on the wire.
    pub wire: String,
    /// The Rust variant name.
    pub rust_name: String,
}

/// A string enum with a fallback variant that keeps values unknown at generation time.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EnumDef {
    /// Rust type name.
    pub name: String,
    /// Doc comment paragraphs.
    pub doc: Vec<String>,
    /// Known values.
    pub variants: Vec<VariantDef>,
    /// Name of the `Variant(String)` that holds any other value.
    pub fallback: String,
}

/// A schema node as the reader understood it, before naming.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SchemaNode {
    /// A type with a fixed spelling: a scalar, `IntOrString`, `Time` or free-form JSON (never
    /// [`FieldType::Named`], [`FieldType::Array`] or [`FieldType::Map`]).
    Plain(FieldType),
    /// A string enum.
    Enum(EnumSchema),
    /// A list of items.
    Array(Box<SchemaNode>),
    /// A map from strings to values (`additionalProperties` without `properties`).
    Map(Box<SchemaNode>),
    /// An object with declared properties.
    Object(ObjectSchema),
}

/// The values of a string enum.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EnumSchema {
    /// JSON path of the node, said in docs.
    pub path: String,
    /// The values, without repeats, in schema order.
    pub values: Vec<String>,
    /// Description paragraphs.
    pub description: Vec<String>,
}

/// An object with declared properties.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ObjectSchema {
    /// JSON path of the node, said in docs.
    pub path: String,
    /// Description paragraphs.
    pub description: Vec<String>,
    /// Declared properties, in schema order.
    pub properties: Vec<PropertySchema>,
    /// What properties the schema does not declare hold, when it keeps them
    /// (`x-kubernetes-preserve-unknown-fields`, `additionalProperties` next to `properties`).
    pub rest: Option<Box<SchemaNode>>,
}

/// One declared property of an object.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PropertySchema {
    /// The property name on the wire.
    pub wire: String,
    /// Its schema.
    pub node: SchemaNode,
    /// Whether the object's `required` lists it.
    pub required: bool,
    /// Whether it is `nullable`.
    pub nullable: bool,
    /// Doc paragraphs: description, default, and what the reader noted (why it is free-form).
    pub doc: Vec<String>,
}

/// A CustomResourceDefinition as the reader understood it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CrdDef {
    /// The file it was read from.
    pub source: PathBuf,
    /// `metadata.name`.
    pub name: String,
    /// `spec.group`.
    pub group: String,
    /// `spec.names.kind`.
    pub kind: String,
    /// `spec.names.plural`.
    pub plural: String,
    /// `spec.names.listKind`.
    pub list_kind: String,
    /// `spec.scope`.
    pub scope: super::Scope,
    /// Served versions in manifest order.
    pub versions: Vec<CrdVersionDef>,
}

/// One served version of a [`CrdDef`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CrdVersionDef {
    /// Version name, e.g. `v1beta1`.
    pub name: String,
    /// Whether this is the storage version.
    pub storage: bool,
    /// `Some(warning)` if deprecated (the warning may be empty).
    pub deprecation: Option<String>,
    /// Declared subresources, sorted.
    pub subresources: Vec<String>,
    /// The schema's top-level `description`, as written.
    pub description: Option<String>,
    /// The top-level schema.
    pub schema: ObjectSchema,
    /// Whether the top-level schema has a `properties` key at all.
    pub declares_properties: bool,
}

/// A named type of a group/version module.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TypeDef {
    /// A struct.
    Struct(StructDef),
    /// A string enum.
    Enum(EnumDef),
    /// Another name for a type of the module.
    Alias(AliasDef),
}

/// `pub type <name> = <target>;`: the `<Kind><Path>` name of a place whose type is defined
/// at another place (see [`super::crd`]), or the long name of a type whose own name is
/// shortened.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AliasDef {
    /// Rust type name.
    pub name: String,
    /// The type it names.
    pub target: String,
    /// Doc comment paragraphs.
    pub doc: Vec<String>,
}

/// A custom resource (one served version of one CRD) and the struct for its objects.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CrdResource {
    /// Group, version, kind, plural, scope, list kind, path in the generated tree, doc.
    pub def: ResourceDef,
    /// The CRD's `metadata.name`, e.g. `certificates.cert-manager.io`.
    pub crd_name: String,
    /// The file the CRD was read from.
    pub source: PathBuf,
    /// The top-level struct (without `metadata`, `apiVersion`, `kind`, which are always emitted).
    pub root: StructDef,
    /// Whether this version is the storage version.
    pub storage: bool,
    /// `Some(warning)` when the version is deprecated (the warning may be empty).
    pub deprecation: Option<String>,
    /// Subresources the version declares (`status`, `scale`).
    pub subresources: Vec<String>,
}

/// All resources and types of one API group/version, emitted as `group_module::version_module`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GroupVersionModule {
    /// API group, e.g. `cert-manager.io`.
    pub group: String,
    /// API version, e.g. `v1`.
    pub version: String,
    /// Rust module name of the group, e.g. `cert_manager_io`.
    pub group_module: String,
    /// Rust module name of the version, e.g. `v1`.
    pub version_module: String,
    /// Resources, sorted by kind.
    pub resources: Vec<CrdResource>,
    /// Nested types of every resource of this module, in a deterministic order.
    pub types: Vec<TypeDef>,
}

/// Everything read from a set of CRD manifests, ready to emit.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct CrdModel {
    /// Modules sorted by group module, then version module.
    pub modules: Vec<GroupVersionModule>,
}

impl CrdModel {
    /// Every resource of every module, in emission order.
    pub fn resources(&self) -> impl Iterator<Item = &CrdResource> {
        self.modules.iter().flat_map(|m| m.resources.iter())
    }

    /// The resources as informers and listers see them: the kind and list kind are the Rust
    /// type names (`postgresql` → `Postgresql`), so that `PostgresqlInformer` derives from it;
    /// the wire kind stays in the type's `Resource` impl.
    pub fn resource_defs(&self) -> Vec<ResourceDef> {
        self.resources()
            .map(|r| ResourceDef {
                kind: r.root.name.clone(),
                list_kind: kind_ident(&r.def.list_kind),
                ..r.def.clone()
            })
            .collect()
    }

    /// The Rust module names of the API groups' types modules (unescaped), which informer
    /// group modules must not take.
    pub fn group_modules(&self) -> std::collections::BTreeSet<String> {
        self.modules
            .iter()
            .map(|m| m.group_module.trim_start_matches("r#").to_owned())
            .collect()
    }

    /// The path of the type of `group/version` `kind` (as the CRD spells it) below the
    /// output's root: `[group module, version module, type name]`, escaped (`r#type`).
    pub fn type_path(&self, group: &str, version: &str, kind: &str) -> Option<Vec<String>> {
        let module = self
            .modules
            .iter()
            .find(|m| m.group == group && m.version == version)?;
        let resource = module.resources.iter().find(|r| r.def.kind == kind)?;
        Some(vec![
            module.group_module.clone(),
            module.version_module.clone(),
            resource.root.name.clone(),
        ])
    }
}

/// Words Rust reserves; as identifiers they need `r#` (or a suffix where `r#` is not allowed).
const KEYWORDS: &[&str] = &[
    "abstract", "as", "async", "await", "become", "box", "break", "const", "continue", "crate",
    "do", "dyn", "else", "enum", "extern", "false", "final", "fn", "for", "gen", "if", "impl",
    "in", "let", "loop", "macro", "match", "mod", "move", "mut", "override", "priv", "pub", "ref",
    "return", "self", "Self", "static", "struct", "super", "trait", "true", "try", "type",
    "typeof", "unsafe", "unsized", "use", "virtual", "where", "while", "yield",
];

/// Keywords that cannot be raw identifiers.
const NOT_RAW: &[&str] = &["crate", "self", "Self", "super", "_"];

/// Spells out characters that carry meaning in enum values (`=~`, `*`, `gzip+base64`) so that
/// distinct values get distinct names; other punctuation separates words.
fn transliterate(value: &str) -> String {
    let mut out = String::with_capacity(value.len());
    for c in value.chars() {
        let word = match c {
            '=' => " eq ",
            '!' => " not ",
            '~' => " tilde ",
            '*' => " star ",
            '+' => " plus ",
            '<' => " lt ",
            '>' => " gt ",
            '%' => " percent ",
            '&' => " and ",
            '|' => " or ",
            '^' => " caret ",
            c if c.is_ascii_alphanumeric() => {
                out.push(c);
                continue;
            }
            _ => " ",
        };
        out.push_str(word);
    }
    out
}

/// Keeps only ASCII letters, digits and separators, so heck never yields non-identifier characters.
fn ascii_words(value: &str) -> String {
    value
        .chars()
        .map(|c| if c.is_ascii_alphanumeric() { c } else { ' ' })
        .collect()
}

/// A Rust field name for a wire property name: snake case, keywords as `r#kw`, names that start
/// with a digit prefixed with `_`, names with no letters or digits become `field`.
pub fn field_ident(wire: &str) -> String {
    let snake = ascii_words(wire).to_snake_case();
    let snake = if snake.is_empty() {
        "field".to_owned()
    } else if snake.starts_with(|c: char| c.is_ascii_digit()) {
        format!("_{snake}")
    } else {
        snake
    };
    escape_keyword(snake)
}

fn escape_keyword(name: String) -> String {
    if NOT_RAW.contains(&name.as_str()) {
        format!("{name}_")
    } else if KEYWORDS.contains(&name.as_str()) {
        format!("r#{name}")
    } else {
        name
    }
}

/// A Rust type name part for a wire name: upper camel case, `X`-prefixed if it would start with a
/// digit, `Field` if nothing is left.
pub fn type_ident_part(wire: &str) -> String {
    let camel = ascii_words(wire).to_upper_camel_case();
    if camel.is_empty() {
        "Field".to_owned()
    } else if camel.starts_with(|c: char| c.is_ascii_digit()) {
        format!("X{camel}")
    } else {
        camel
    }
}

/// The Rust type name of a kind: the kind itself when it already is an upper camel case
/// identifier (`HTTPRoute` stays), otherwise its upper camel case form (`postgresql` →
/// `Postgresql`, `DNS` → `Dns`).
pub fn kind_ident(kind: &str) -> String {
    let usable = kind.starts_with(|c: char| c.is_ascii_uppercase())
        && kind.chars().all(|c| c.is_ascii_alphanumeric())
        && kind.chars().any(|c| c.is_ascii_lowercase());
    if usable && kind != "Self" {
        kind.to_owned()
    } else {
        type_ident_part(kind)
    }
}

/// A Rust variant name for an enum value: upper camel case with punctuation spelled out
/// (`=~` → `EqTilde`), `Empty` for `""`, `V`-prefixed if it would start with a digit.
pub fn variant_ident(value: &str) -> String {
    let camel = transliterate(value).to_upper_camel_case();
    let camel = if camel.is_empty() {
        "Empty".to_owned()
    } else if camel.starts_with(|c: char| c.is_ascii_digit()) {
        format!("V{camel}")
    } else {
        camel
    };
    if camel == "Self" {
        "Self_".to_owned()
    } else {
        camel
    }
}

/// The Rust variant names of an enum's values (in order), and the name of its fallback
/// variant.
///
/// Each value is named by [`variant_ident`]. Values that differ only in ASCII case get one
/// name that way, so they are told apart by their case: the value spelled exactly like the
/// name keeps it (`Audit`), an all-lowercase one gets `Lowercase` appended (`audit` →
/// `AuditLowercase`), an all-uppercase one `Uppercase` (`AUDIT` → `AuditUppercase`). Any
/// collision left (`foo-bar` and `foo_bar`) gets `2`, `3`..., values
/// spelled exactly like their name choosing first. The fallback is `Other`, or `Other2`...
/// when a value is named `Other`.
pub fn variant_names(values: &[String]) -> (Vec<String>, String) {
    let idents: Vec<String> = values.iter().map(|v| variant_ident(v)).collect();
    let preferred: Vec<String> = values
        .iter()
        .zip(&idents)
        .map(|(value, ident)| {
            let has_case_twin = values.iter().zip(&idents).any(|(other, other_ident)| {
                other != value && other_ident == ident && other.eq_ignore_ascii_case(value)
            });
            if !has_case_twin || value == ident {
                ident.clone()
            } else if !value.chars().any(|c| c.is_ascii_uppercase()) {
                format!("{ident}Lowercase")
            } else if !value.chars().any(|c| c.is_ascii_lowercase()) {
                format!("{ident}Uppercase")
            } else {
                ident.clone()
            }
        })
        .collect();
    let mut names = NameSet::default();
    let mut claimed: Vec<Option<String>> = values
        .iter()
        .zip(&preferred)
        .map(|(value, name)| (value == name).then(|| names.claim(name)))
        .collect();
    for (slot, name) in claimed.iter_mut().zip(&preferred) {
        if slot.is_none() {
            *slot = Some(names.claim(name));
        }
    }
    let fallback = names.claim("Other");
    (claimed.into_iter().flatten().collect(), fallback)
}

/// A Rust module name for an API group or version: `cert-manager.io` → `cert_manager_io`;
/// the empty group becomes `core`.
pub fn module_ident(name: &str) -> String {
    let snake = ascii_words(name).to_snake_case();
    let snake = if snake.is_empty() {
        "core".to_owned()
    } else if snake.starts_with(|c: char| c.is_ascii_digit()) {
        format!("_{snake}")
    } else {
        snake
    };
    escape_keyword(snake)
}

/// Hands out names that are unique within one scope (a module's types, a struct's fields, an
/// enum's variants), appending `2`, `3`... on collision. Deterministic for a deterministic call
/// order.
#[derive(Clone, Debug, Default)]
pub struct NameSet {
    used: BTreeSet<String>,
}

impl NameSet {
    /// A set with `reserved` already taken.
    pub fn with_reserved<'a>(reserved: impl IntoIterator<Item = &'a str>) -> Self {
        Self {
            used: reserved.into_iter().map(str::to_owned).collect(),
        }
    }

    /// Whether `name` is taken.
    pub fn contains(&self, name: &str) -> bool {
        self.used.contains(name)
    }

    /// Takes `name`, or the first free `name2`, `name3`... (`r#kw` becomes `kw_2`).
    pub fn claim(&mut self, name: &str) -> String {
        if self.used.insert(name.to_owned()) {
            return name.to_owned();
        }
        let base = name
            .strip_prefix("r#")
            .map_or_else(|| name.to_owned(), |bare| format!("{bare}_"));
        let separator = if base.ends_with(|c: char| c.is_ascii_digit()) {
            "_"
        } else {
            ""
        };
        let mut n = 2u32;
        loop {
            let candidate = format!("{base}{separator}{n}");
            if self.used.insert(candidate.clone()) {
                return candidate;
            }
            n += 1;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn field_names_are_escaped() {
        assert_eq!(field_ident("type"), "r#type");
        assert_eq!(field_ident("for"), "r#for");
        assert_eq!(field_ident("self"), "self_");
        assert_eq!(field_ident("hugepages-1Gi"), "hugepages_1gi");
        assert_eq!(field_ident("HPAReplicas"), "hpa_replicas");
        assert_eq!(field_ident("$ref"), "r#ref");
        assert_eq!(field_ident("1abc"), "_1abc");
        assert_eq!(field_ident("@"), "field");
        assert_eq!(
            field_ident("x-kubernetes-int-or-string"),
            "x_kubernetes_int_or_string"
        );
        assert_eq!(field_ident("a.b"), "a_b");
    }

    #[test]
    fn variant_names_spell_out_symbols() {
        assert_eq!(variant_ident("="), "Eq");
        assert_eq!(variant_ident("!="), "NotEq");
        assert_eq!(variant_ident("=~"), "EqTilde");
        assert_eq!(variant_ident("!~"), "NotTilde");
        assert_eq!(variant_ident("*"), "Star");
        assert_eq!(variant_ident(""), "Empty");
        assert_eq!(variant_ident("digital signature"), "DigitalSignature");
        assert_eq!(variant_ident("gzip+base64"), "GzipPlusBase64");
        assert_eq!(variant_ident("1Gi"), "V1gi");
        assert_eq!(variant_ident("Self"), "Self_");
    }

    #[test]
    fn values_differing_in_case_are_named_by_their_case() {
        let names = |values: &[&str]| {
            let owned: Vec<String> = values.iter().map(|v| (*v).to_owned()).collect();
            variant_names(&owned)
        };
        let (variants, fallback) = names(&["audit", "Audit", "enforce", "Enforce"]);
        assert_eq!(
            variants,
            ["AuditLowercase", "Audit", "EnforceLowercase", "Enforce"]
        );
        assert_eq!(fallback, "Other");
        let (variants, _) = names(&["AUDIT", "audit"]);
        assert_eq!(variants, ["AuditUppercase", "AuditLowercase"]);
        let (variants, _) = names(&["AUDIT", "Audit"]);
        assert_eq!(variants, ["AuditUppercase", "Audit"]);
        // Not a case difference: numbered as before.
        let (variants, _) = names(&["foo-bar", "foo_bar", "Other"]);
        assert_eq!(variants, ["FooBar", "FooBar2", "Other"]);
        assert_eq!(names(&["Other"]).1, "Other2");
    }

    #[test]
    fn type_and_module_names() {
        assert_eq!(type_ident_part("privateKey"), "PrivateKey");
        assert_eq!(type_ident_part("2fa"), "X2fa");
        assert_eq!(type_ident_part("$"), "Field");
        assert_eq!(kind_ident("HTTPRoute"), "HTTPRoute");
        assert_eq!(kind_ident("postgresql"), "Postgresql");
        assert_eq!(kind_ident("DNS"), "Dns");
        assert_eq!(module_ident("cert-manager.io"), "cert_manager_io");
        assert_eq!(module_ident(""), "core");
        assert_eq!(module_ident("v1beta1"), "v1beta1");
    }

    #[test]
    fn name_set_resolves_collisions() {
        let mut names = NameSet::with_reserved(["metadata"]);
        assert_eq!(names.claim("metadata"), "metadata2");
        assert_eq!(names.claim("a"), "a");
        assert_eq!(names.claim("a"), "a2");
        assert_eq!(names.claim("a"), "a3");
        assert_eq!(names.claim("r#type"), "r#type");
        assert_eq!(names.claim("r#type"), "type_2");
        assert_eq!(names.claim("v1"), "v1");
        assert_eq!(names.claim("v1"), "v1_2");
    }
}
