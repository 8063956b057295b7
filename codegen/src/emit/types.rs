//! The CRD type model → Rust tokens: one `group::version` module tree with a struct per
//! resource (implementing `k8s_openapi::Resource`, `ListableResource` and `Metadata`), its
//! nested structs and its string enums; built as the emitter's modules, so that they are laid
//! out as inline modules or as a tree of files like the informers.
//!
//! Beside each struct `X` (resources' included) comes its server-side apply configuration
//! `XApply`, as [`super::apply`] emits them for built-in types: every field optional and only
//! the set ones sent, a builder method per field; per resource `new`, the runtime's
//! `ApplyConfiguration` and `extract_<kind>` (`extract_<kind>_status` with the status
//! subresource). An alias of a struct gets an alias of its configuration, so that
//! `<Kind><Path>Apply` names a configuration for every place that holds an object. Where
//! such a name is taken (a property `apply` makes a type `<Parent>Apply`), the configuration
//! is `<Type>ApplyConfiguration`, as client-go calls them all.

use std::collections::{BTreeMap, BTreeSet};

use heck::ToSnakeCase;
use proc_macro2::{Ident, Literal, Span, TokenStream};
use quote::quote;

use crate::model::schema::{
    AliasDef, CrdModel, CrdResource, EnumDef, FieldDef, FieldType, GroupVersionModule, NameSet,
    StructDef, TypeDef,
};
use crate::model::Scope;

use super::Module;

/// Tokens for every module of `model`: `pub mod <group> { pub mod <version> { ... } }`.
/// `k8s_openapi` is the path generated code uses for the k8s-openapi crate (`::k8s_openapi`,
/// or a re-export such as `::kube_informers::k8s_openapi`); `runtime` the path of the
/// runtime crate (`::kube_informers`), whose re-exports of serde and serde_json the types
/// use, so that the crate they are compiled in needs neither as a dependency.
pub fn crd_types_tokens(
    model: &CrdModel,
    k8s_openapi: &TokenStream,
    runtime: &TokenStream,
) -> TokenStream {
    let groups = type_modules(model, k8s_openapi, runtime);
    let groups = groups.iter().map(super::inline_module);
    quote!(#(#groups)*)
}

/// [`crd_types_tokens`] with k8s-openapi and the runtime reached through the facade,
/// `::kube_informers`, formatted as a Rust source file.
pub fn render_crd_types(model: &CrdModel) -> Result<String, syn::Error> {
    let tokens = crd_types_tokens(
        model,
        &quote!(::kube_informers::k8s_openapi),
        &quote!(::kube_informers),
    );
    let file: syn::File = syn::parse2(tokens)?;
    Ok(prettyplease::unparse(&file))
}

/// The paths generated types name the crates they use by.
struct Paths {
    /// k8s-openapi.
    k8s: TokenStream,
    /// serde, as the runtime re-exports it.
    serde: TokenStream,
    /// serde_json, as the runtime re-exports it.
    serde_json: TokenStream,
    /// `#[serde(crate = "...")]`, which the derives need to find serde through the runtime.
    serde_crate: TokenStream,
    /// The runtime's `apply` module.
    apply: TokenStream,
}

impl Paths {
    fn new(k8s: &TokenStream, runtime: &TokenStream) -> Self {
        let serde = quote!(#runtime::serde);
        // A path's tokens print with spaces around `::`, which serde's attribute would parse,
        // but which read badly in the generated source.
        let serde_path = serde.to_string().replace(' ', "");
        Self {
            k8s: k8s.clone(),
            serde_crate: quote!(#[serde(crate = #serde_path)]),
            serde,
            serde_json: quote!(#runtime::serde_json),
            apply: quote!(#runtime::apply),
        }
    }
}

/// One module per API group of `model`, holding one module per version with its resources and
/// their nested types.
pub(super) fn type_modules(
    model: &CrdModel,
    k8s: &TokenStream,
    runtime: &TokenStream,
) -> Vec<Module> {
    let paths = Paths::new(k8s, runtime);
    let mut groups: Vec<Module> = Vec::new();
    for module in &model.modules {
        let version = version_module(module, &paths);
        // The model sorts by group module, so a group's versions are adjacent.
        match groups.last_mut() {
            Some(group) if group.name == unraw(&module.group_module) => {
                group.children.push(version);
            }
            _ => groups.push(Module {
                name: unraw(&module.group_module).to_owned(),
                doc: format!("Custom resources of API group `{}`.", module.group),
                items: TokenStream::new(),
                types: Vec::new(),
                children: vec![version],
            }),
        }
    }
    groups
}

fn version_module(module: &GroupVersionModule, paths: &Paths) -> Module {
    let kinds: Vec<String> = module
        .resources
        .iter()
        .map(|r| format!("`{}`", r.def.kind))
        .collect();
    let names = ApplyNames::new(module);
    let resources = module.resources.iter().map(|r| {
        let ty = resource(r, paths);
        let apply = resource_apply(r, &names, paths);
        quote!(#ty #apply)
    });
    let types = module.types.iter().map(|t| match t {
        TypeDef::Struct(s) => {
            let ty = structure(s, paths);
            let apply = structure_apply(s, &names, paths);
            quote!(#ty #apply)
        }
        TypeDef::Enum(e) => enumeration(e, paths),
        TypeDef::Alias(a) => {
            let ty = alias(a);
            let apply = alias_apply(a, &names);
            quote!(#ty #apply)
        }
    });
    Module {
        name: unraw(&module.version_module).to_owned(),
        doc: format!(
            "`{}/{}`: {}.",
            module.group,
            module.version,
            kinds.join(", ")
        ),
        items: quote!(#(#resources)* #(#types)*),
        types: Vec::new(),
        children: Vec::new(),
    }
}

/// An identifier from a name the model already escaped (`r#type`, `self_`).
fn ident(name: &str) -> Ident {
    match name.strip_prefix("r#") {
        Some(raw) => Ident::new_raw(raw, Span::call_site()),
        None => Ident::new(name, Span::call_site()),
    }
}

fn unraw(name: &str) -> &str {
    name.strip_prefix("r#").unwrap_or(name)
}

fn type_tokens(ty: &FieldType, paths: &Paths) -> TokenStream {
    let k8s = &paths.k8s;
    match ty {
        FieldType::String => quote!(::std::string::String),
        FieldType::Bool => quote!(bool),
        FieldType::I32 => quote!(i32),
        FieldType::I64 => quote!(i64),
        FieldType::F64 => quote!(f64),
        FieldType::IntOrString => {
            quote!(#k8s::apimachinery::pkg::util::intstr::IntOrString)
        }
        FieldType::Time => quote!(#k8s::apimachinery::pkg::apis::meta::v1::Time),
        FieldType::Value => {
            let serde_json = &paths.serde_json;
            quote!(#serde_json::Value)
        }
        FieldType::Array(inner) => {
            let inner = type_tokens(inner, paths);
            quote!(::std::vec::Vec<#inner>)
        }
        FieldType::Map(inner) => {
            let inner = type_tokens(inner, paths);
            quote!(::std::collections::BTreeMap<::std::string::String, #inner>)
        }
        FieldType::Named(name) => {
            let name = ident(name);
            quote!(#name)
        }
    }
}

fn field_type_tokens(field: &FieldDef, paths: &Paths) -> TokenStream {
    let ty = type_tokens(&field.ty, paths);
    if field.optional {
        quote!(::std::option::Option<#ty>)
    } else {
        ty
    }
}

fn field_doc(field: &FieldDef) -> TokenStream {
    if field.doc.is_empty() {
        doc_attrs(&[format!("Field `{}`.", field.wire_name)])
    } else {
        doc_attrs(&field.doc)
    }
}

/// The score clippy's `type_complexity` gives the spelled-out `ty` when it sits `nest` generic
/// levels deep (1 at the top): every path type counts ten times its depth.
fn type_complexity(ty: &FieldType, nest: usize) -> usize {
    let own = 10 * nest;
    match ty {
        FieldType::Array(inner) => own + type_complexity(inner, nest + 1),
        FieldType::Map(inner) => own + 10 * (nest + 1) + type_complexity(inner, nest + 1),
        _ => own,
    }
}

/// `#[allow(clippy::type_complexity)]` for a field whose type (deeply nested arrays and maps,
/// as the schema spells it) clippy would reject; its default threshold is 250.
fn complexity_allow(ty: &FieldType, optional: bool) -> Option<TokenStream> {
    let score = if optional {
        10 + type_complexity(ty, 2)
    } else {
        type_complexity(ty, 1)
    };
    (score > 250).then(|| quote!(#[allow(clippy::type_complexity)]))
}

fn field_tokens(field: &FieldDef, paths: &Paths) -> TokenStream {
    let doc = field_doc(field);
    let name = ident(&field.rust_name);
    let ty = field_type_tokens(field, paths);
    let allow = complexity_allow(&field.ty, field.optional);
    let mut serde_args = Vec::new();
    if unraw(&field.rust_name) != field.wire_name {
        let wire = &field.wire_name;
        serde_args.push(quote!(rename = #wire));
    }
    if field.optional && field.skip_none {
        serde_args.push(quote!(
            default,
            skip_serializing_if = "::std::option::Option::is_none"
        ));
    }
    let serde_attr = (!serde_args.is_empty()).then(|| quote!(#[serde(#(#serde_args),*)]));
    quote! {
        #doc
        #serde_attr
        #allow
        pub #name: #ty,
    }
}

fn rest_tokens(rest: Option<&(String, FieldType)>, paths: &Paths) -> TokenStream {
    let Some((name, ty)) = rest else {
        return TokenStream::new();
    };
    let allow = complexity_allow(&FieldType::Map(Box::new(ty.clone())), false);
    let name = ident(name);
    let ty = type_tokens(ty, paths);
    quote! {
        /// Fields the schema does not declare, kept as they arrived.
        #[serde(flatten)]
        #allow
        pub #name: ::std::collections::BTreeMap<::std::string::String, #ty>,
    }
}

fn structure(def: &StructDef, paths: &Paths) -> TokenStream {
    let doc = doc_attrs(&def.doc);
    let name = ident(&def.name);
    let default = def.default.then(|| quote!(Default,));
    let fields = def.fields.iter().map(|f| field_tokens(f, paths));
    let rest = rest_tokens(def.rest.as_ref(), paths);
    let Paths {
        serde, serde_crate, ..
    } = paths;
    quote! {
        #doc
        #[derive(Clone, Debug, #default PartialEq, #serde::Serialize, #serde::Deserialize)]
        #serde_crate
        pub struct #name {
            #(#fields)*
            #rest
        }
    }
}

fn alias(def: &AliasDef) -> TokenStream {
    let doc = doc_attrs(&def.doc);
    let name = ident(&def.name);
    let target = ident(&def.target);
    quote! {
        #doc
        pub type #name = #target;
    }
}

fn enumeration(def: &EnumDef, paths: &Paths) -> TokenStream {
    let serde = &paths.serde;
    let doc = doc_attrs(&def.doc);
    let name = ident(&def.name);
    let fallback = ident(&def.fallback);
    let variant_idents: Vec<Ident> = def.variants.iter().map(|v| ident(&v.rust_name)).collect();
    let variant_docs = def
        .variants
        .iter()
        .map(|v| doc_attrs(&[format!("`{:?}`", v.wire)]));
    let wires: Vec<Literal> = def
        .variants
        .iter()
        .map(|v| Literal::string(&v.wire))
        .collect();
    quote! {
        #doc
        #[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
        pub enum #name {
            #(#variant_docs #variant_idents,)*
            /// A value this version of the schema does not list.
            #fallback(::std::string::String),
        }

        impl #name {
            /// The value as it appears on the wire.
            pub fn as_str(&self) -> &str {
                match self {
                    #(Self::#variant_idents => #wires,)*
                    Self::#fallback(value) => value,
                }
            }
        }

        impl ::std::convert::From<::std::string::String> for #name {
            fn from(value: ::std::string::String) -> Self {
                match value.as_str() {
                    #(#wires => Self::#variant_idents,)*
                    _ => Self::#fallback(value),
                }
            }
        }

        impl #serde::Serialize for #name {
            fn serialize<S: #serde::Serializer>(&self, serializer: S) -> ::std::result::Result<S::Ok, S::Error> {
                serializer.serialize_str(self.as_str())
            }
        }

        impl<'de> #serde::Deserialize<'de> for #name {
            fn deserialize<D: #serde::Deserializer<'de>>(deserializer: D) -> ::std::result::Result<Self, D::Error> {
                <::std::string::String as #serde::Deserialize<'de>>::deserialize(deserializer).map(Self::from)
            }
        }
    }
}

fn resource(resource: &CrdResource, paths: &Paths) -> TokenStream {
    let Paths {
        k8s,
        serde,
        serde_crate,
        ..
    } = paths;
    let def = &resource.root;
    let doc = doc_attrs(&def.doc);
    let name = ident(&def.name);
    let default = def.default.then(|| quote!(Default,));
    let fields = def.fields.iter().map(|f| field_tokens(f, paths));
    let rest = rest_tokens(def.rest.as_ref(), paths);
    let serialize_fields = def.fields.iter().map(|f| {
        let wire = &f.wire_name;
        let name = ident(&f.rust_name);
        if f.optional && f.skip_none {
            quote! {
                if let ::std::option::Option::Some(value) = &self.#name {
                    map.serialize_entry(#wire, value)?;
                }
            }
        } else {
            quote!(map.serialize_entry(#wire, &self.#name)?;)
        }
    });
    let serialize_rest = def.rest.as_ref().map(|(rest, _)| {
        let rest = ident(rest);
        quote! {
            for (key, value) in &self.#rest {
                if !matches!(key.as_str(), "apiVersion" | "kind" | "metadata") {
                    map.serialize_entry(key, value)?;
                }
            }
        }
    });
    let group = &resource.def.group;
    let version = &resource.def.version;
    let api_version = if group.is_empty() {
        version.clone()
    } else {
        format!("{group}/{version}")
    };
    let kind = &resource.def.kind;
    let plural = &resource.def.plural;
    let list_kind = &resource.def.list_kind;
    let scope = match resource.def.scope {
        Scope::Namespaced => quote!(#k8s::NamespaceResourceScope),
        Scope::Cluster => quote!(#k8s::ClusterResourceScope),
    };
    quote! {
        #doc
        #[derive(Clone, Debug, #default PartialEq, #serde::Deserialize)]
        #serde_crate
        pub struct #name {
            /// Standard object metadata.
            #[serde(default)]
            pub metadata: #k8s::apimachinery::pkg::apis::meta::v1::ObjectMeta,
            #(#fields)*
            #rest
        }

        impl #k8s::Resource for #name {
            const API_VERSION: &'static str = #api_version;
            const GROUP: &'static str = #group;
            const KIND: &'static str = #kind;
            const VERSION: &'static str = #version;
            const URL_PATH_SEGMENT: &'static str = #plural;
            type Scope = #scope;
        }

        impl #k8s::ListableResource for #name {
            const LIST_KIND: &'static str = #list_kind;
        }

        impl #k8s::Metadata for #name {
            type Ty = #k8s::apimachinery::pkg::apis::meta::v1::ObjectMeta;

            fn metadata(&self) -> &Self::Ty {
                &self.metadata
            }

            fn metadata_mut(&mut self) -> &mut Self::Ty {
                &mut self.metadata
            }
        }

        /// Writes `apiVersion` and `kind` first, like the built-in k8s-openapi types.
        impl #serde::Serialize for #name {
            fn serialize<S: #serde::Serializer>(&self, serializer: S) -> ::std::result::Result<S::Ok, S::Error> {
                use #serde::ser::SerializeMap as _;
                let mut map = serializer.serialize_map(::std::option::Option::None)?;
                map.serialize_entry("apiVersion", <Self as #k8s::Resource>::API_VERSION)?;
                map.serialize_entry("kind", <Self as #k8s::Resource>::KIND)?;
                map.serialize_entry("metadata", &self.metadata)?;
                #(#serialize_fields)*
                #serialize_rest
                map.end()
            }
        }
    }
}

/// The names of one version module's apply configurations, all picked before any is emitted
/// because a field names the configuration of its type wherever that type is.
///
/// A struct, resource or alias of a struct `X` has the configuration `XApply`, unless the
/// module already has a type `XApply` (the place of a property `apply` of `X`): then it is
/// `XApplyConfiguration` (client-go's suffix), numbered `2`, `3`... if that is taken too.
/// These names end in `Apply`, or in `ApplyConfiguration` and maybe a number, and the type
/// names they are made from are distinct, so they can only collide with the module's type
/// names. Each resource has `extract_<kind>` and, with the status subresource,
/// `extract_<kind>_status` (kind in snake case); two kinds may make one function name
/// (`Dial`'s status extractor and kind `DIALStatus`'s extractor are both
/// `extract_dial_status`): the kinds' own extractors choose first, then the status ones, each
/// numbered when taken (`extract_dial_status2`).
struct ApplyNames {
    /// The configuration's name by the name of each struct, resource and alias of a struct.
    /// A field of any other type (enums and their aliases) keeps it in configurations.
    types: BTreeMap<String, String>,
    /// `extract_<kind>` and `extract_<kind>_status` by resource type name.
    extractors: BTreeMap<String, (String, Option<String>)>,
}

impl ApplyNames {
    fn new(module: &GroupVersionModule) -> Self {
        let roots = module.resources.iter().map(|r| r.root.name.as_str());
        let defined = module.types.iter().map(|t| match t {
            TypeDef::Struct(s) => s.name.as_str(),
            TypeDef::Enum(e) => e.name.as_str(),
            TypeDef::Alias(a) => a.name.as_str(),
        });
        let mut taken = NameSet::with_reserved(roots.clone().chain(defined));
        let structs: BTreeSet<&str> = module
            .types
            .iter()
            .filter_map(|t| match t {
                TypeDef::Struct(s) => Some(s.name.as_str()),
                _ => None,
            })
            .collect();
        let configured = module.types.iter().filter_map(|t| match t {
            TypeDef::Struct(s) => Some(s.name.as_str()),
            TypeDef::Alias(a) if structs.contains(a.target.as_str()) => Some(a.name.as_str()),
            TypeDef::Enum(_) | TypeDef::Alias(_) => None,
        });
        let mut types = BTreeMap::new();
        for name in roots.chain(configured) {
            let plain = format!("{name}Apply");
            let chosen = if taken.contains(&plain) {
                taken.claim(&format!("{name}ApplyConfiguration"))
            } else {
                taken.claim(&plain)
            };
            types.insert(name.to_owned(), chosen);
        }
        let mut functions = NameSet::default();
        let own: Vec<String> = module
            .resources
            .iter()
            .map(|r| functions.claim(&format!("extract_{}", r.root.name.to_snake_case())))
            .collect();
        let extractors = module
            .resources
            .iter()
            .zip(own)
            .map(|(r, own)| {
                let status = r
                    .def
                    .subresources
                    .status
                    .then(|| functions.claim(&format!("{own}_status")));
                (r.root.name.clone(), (own, status))
            })
            .collect();
        Self { types, extractors }
    }

    /// The configuration of the struct, resource or alias `name`.
    fn of(&self, name: &str) -> Ident {
        ident(self.types.get(name).map_or(name, String::as_str))
    }
}

/// The type a configuration holds for a value of `ty`: the configuration of a struct, the
/// same type for anything else.
fn apply_type_tokens(ty: &FieldType, names: &ApplyNames, paths: &Paths) -> TokenStream {
    match ty {
        FieldType::Array(inner) => {
            let inner = apply_type_tokens(inner, names, paths);
            quote!(::std::vec::Vec<#inner>)
        }
        FieldType::Map(inner) => {
            let inner = apply_type_tokens(inner, names, paths);
            quote!(::std::collections::BTreeMap<::std::string::String, #inner>)
        }
        FieldType::Named(name) if names.types.contains_key(name) => {
            let name = names.of(name);
            quote!(#name)
        }
        _ => type_tokens(ty, paths),
    }
}

/// Builder names clippy takes for a trait's method (`should_implement_trait`: a field `add`,
/// as in a container's `capabilities`) or for a conversion taking `self` by reference or not
/// at all (`wrong_self_convention`), when a field happens to be called so; a builder takes
/// `self` by value whatever its name.
fn builder_allow(method: &str) -> Option<TokenStream> {
    const TRAIT_METHODS: &[&str] = &[
        "add", "bitand", "bitor", "bitxor", "div", "mul", "rem", "shl", "shr", "sub",
    ];
    let name = unraw(method);
    if TRAIT_METHODS.contains(&name) {
        Some(quote!(#[allow(clippy::should_implement_trait)]))
    } else if ["as_", "from_", "is_", "to_"]
        .iter()
        .any(|prefix| name.starts_with(prefix))
    {
        Some(quote!(#[allow(clippy::wrong_self_convention)]))
    } else {
        None
    }
}

/// A configuration field's declaration and its builder method `method`.
fn apply_field(
    field: &FieldDef,
    name: &str,
    method: &str,
    names: &ApplyNames,
    paths: &Paths,
) -> (TokenStream, TokenStream) {
    let doc = field_doc(field);
    let wire = &field.wire_name;
    let name = ident(name);
    let method_ident = ident(method);
    let allow = complexity_allow(&field.ty, true);
    let builder_allow = builder_allow(method);
    let stored = apply_type_tokens(&field.ty, names, paths);
    let decl = quote! {
        #doc
        #[serde(rename = #wire, default, skip_serializing_if = "Option::is_none")]
        #allow
        pub #name: ::core::option::Option<#stored>,
    };
    let string = quote!(::std::string::String);
    let into_string = quote!(impl ::core::convert::Into<::std::string::String>);
    let setter = match &field.ty {
        FieldType::Array(item) => {
            let doc = format!(" Adds items to `{wire}`.");
            let (item, values) = if **item == FieldType::String {
                (
                    into_string,
                    quote!(values.into_iter().map(::core::convert::Into::into)),
                )
            } else {
                (apply_type_tokens(item, names, paths), quote!(values))
            };
            quote! {
                #[doc = #doc]
                #[inline]
                #[must_use]
                #builder_allow
                pub fn #method_ident(mut self, values: impl ::core::iter::IntoIterator<Item = #item>) -> Self {
                    self.#name.get_or_insert_with(::std::vec::Vec::new).extend(#values);
                    self
                }
            }
        }
        FieldType::Map(value) => {
            let doc =
                format!(" Adds entries to `{wire}` (a key given again keeps its last value).");
            let (value, convert) = if **value == FieldType::String {
                (into_string.clone(), quote!(v.into()))
            } else {
                (apply_type_tokens(value, names, paths), quote!(v))
            };
            quote! {
                #[doc = #doc]
                #[inline]
                #[must_use]
                #builder_allow
                pub fn #method_ident(mut self, entries: impl ::core::iter::IntoIterator<Item = (#into_string, #value)>) -> Self {
                    self.#name.get_or_insert_with(::std::collections::BTreeMap::new).extend(entries.into_iter().map(|(k, v)| (k.into(), #convert)));
                    self
                }
            }
        }
        ty => {
            let doc = format!(" Sets `{wire}`.");
            let (arg, convert) = if *ty == FieldType::String {
                (
                    quote!(impl ::core::convert::Into<#string>),
                    quote!(value.into()),
                )
            } else {
                (apply_type_tokens(ty, names, paths), quote!(value))
            };
            quote! {
                #[doc = #doc]
                #[inline]
                #[must_use]
                #builder_allow
                pub fn #method_ident(mut self, value: #arg) -> Self {
                    self.#name = ::core::option::Option::Some(#convert);
                    self
                }
            }
        }
    };
    (decl, setter)
}

/// The declarations and builder methods of a configuration's fields: `def`'s fields and its
/// map of undeclared fields. Field names are the type's, but for those `reserved_fields` (the
/// resource's `apiVersion`, `kind` and `metadata`) has; builder names are the fields', but
/// for those `reserved_methods` (`new`, a resource's metadata shortcuts) has: both are
/// numbered then.
fn apply_fields(
    def: &StructDef,
    reserved_fields: &[&str],
    reserved_methods: &[&str],
    names: &ApplyNames,
    paths: &Paths,
) -> ApplyFields {
    let mut fields = NameSet::with_reserved(reserved_fields.iter().copied());
    let mut methods = NameSet::with_reserved(reserved_methods.iter().copied());
    let mut decls = Vec::new();
    let mut setters = Vec::new();
    let mut takes = Vec::new();
    for field in &def.fields {
        let name = fields.claim(&field.rust_name);
        let method = methods.claim(&name);
        let (decl, setter) = apply_field(field, &name, &method, names, paths);
        decls.push(decl);
        setters.push(setter);
        let field_ident = ident(&name);
        let wire = &field.wire_name;
        takes.push(quote!(#field_ident: fields.take(#wire)?,));
    }
    if let Some((rest, ty)) = &def.rest {
        let name = fields.claim(rest);
        let method = methods.claim(&name);
        let field = ident(&name);
        let method_ident = ident(&method);
        let builder_allow = builder_allow(&method);
        let allow = complexity_allow(&FieldType::Map(Box::new(ty.clone())), false);
        let value = apply_type_tokens(ty, names, paths);
        // Not an `Option`: a flattened `Option` of a map decodes as `Some` of an empty map
        // when there is nothing to put in it, so an extracted configuration would differ from
        // the one applied.
        decls.push(quote! {
            /// Fields the schema does not declare, sent as they are.
            #[serde(flatten)]
            #allow
            pub #field: ::std::collections::BTreeMap<::std::string::String, #value>,
        });
        setters.push(quote! {
            /// Adds fields the schema does not declare (a key given again keeps its last value).
            #[inline]
            #[must_use]
            #builder_allow
            pub fn #method_ident(mut self, entries: impl ::core::iter::IntoIterator<Item = (impl ::core::convert::Into<::std::string::String>, #value)>) -> Self {
                self.#field.extend(entries.into_iter().map(|(k, v)| (k.into(), v)));
                self
            }
        });
        // Last: what the declared fields did not take.
        takes.push(quote!(#field: fields.rest()?,));
    }
    ApplyFields {
        decls,
        setters,
        takes,
    }
}

/// A configuration's field declarations, builder methods and `Deserialize` field reads.
struct ApplyFields {
    decls: Vec<TokenStream>,
    setters: Vec<TokenStream>,
    takes: Vec<TokenStream>,
}

/// `Deserialize` for configuration `name`: `reserved` (a resource's `apiVersion`, `kind`,
/// `metadata`) read first, then `takes`.
fn apply_deserialize(
    name: &Ident,
    reserved: &[(&str, &str)],
    takes: &[TokenStream],
    paths: &Paths,
) -> TokenStream {
    let Paths { serde, apply, .. } = paths;
    let all: Vec<TokenStream> = reserved
        .iter()
        .map(|(field, wire)| {
            let field = ident(field);
            quote!(#field: fields.take(#wire)?,)
        })
        .chain(takes.iter().cloned())
        .collect();
    super::apply::deserialize_impl(apply, serde, &quote!(#name), &all)
}

/// The configuration of a nested struct.
fn structure_apply(def: &StructDef, names: &ApplyNames, paths: &Paths) -> TokenStream {
    let Paths {
        serde, serde_crate, ..
    } = paths;
    let name = names.of(&def.name);
    let doc = format!(
        " The apply configuration of [`{}`]: every field optional, only the set ones sent.",
        def.name
    );
    let ApplyFields {
        decls,
        setters,
        takes,
    } = apply_fields(def, &[], &["new"], names, paths);
    let deserialize = apply_deserialize(&name, &[], &takes, paths);
    quote! {
        #[doc = #doc]
        #[derive(Clone, Debug, Default, PartialEq, #serde::Serialize)]
        #serde_crate
        pub struct #name {
            #(#decls)*
        }

        #deserialize

        impl #name {
            /// A configuration with nothing set.
            #[inline]
            pub fn new() -> Self {
                ::core::default::Default::default()
            }

            #(#setters)*
        }
    }
}

/// The configuration of an alias of a struct, an alias of the struct's: a field at the
/// alias's place names it.
fn alias_apply(def: &AliasDef, names: &ApplyNames) -> TokenStream {
    if !names.types.contains_key(&def.name) {
        return TokenStream::new();
    }
    let name = names.of(&def.name);
    let target = names.of(&def.target);
    let doc = format!(" The apply configuration of [`{}`].", def.name);
    quote! {
        #[doc = #doc]
        pub type #name = #target;
    }
}

/// A resource's configuration: `apiVersion`, `kind` and `metadata` besides its fields, `new`,
/// the metadata shortcuts, `ApplyConfiguration` and the extractors.
fn resource_apply(resource: &CrdResource, names: &ApplyNames, paths: &Paths) -> TokenStream {
    let Paths {
        k8s,
        serde,
        serde_crate,
        apply,
        ..
    } = paths;
    let def = &resource.root;
    let resource_ty = ident(&def.name);
    let name = names.of(&def.name);
    let kind = &resource.def.kind;
    let doc = format!(
        " The apply configuration of [`{}`]: every field optional, only the set ones sent; \
         `new` sets what every apply needs.",
        def.name
    );
    let shortcuts = ["labels", "annotations", "owner_references", "finalizers"];
    let ApplyFields {
        decls,
        setters,
        takes,
    } = apply_fields(
        def,
        &["api_version", "kind", "metadata"],
        &[&["new"][..], &shortcuts[..]].concat(),
        names,
        paths,
    );
    let deserialize = apply_deserialize(
        &name,
        &[
            ("api_version", "apiVersion"),
            ("kind", "kind"),
            ("metadata", "metadata"),
        ],
        &takes,
        paths,
    );
    let meta = quote!(#apply::ObjectMetaApply);
    let root_methods =
        super::apply::root_methods(apply, k8s, &quote!(#resource_ty), resource.def.scope, kind);
    let extractors = names.extractors.get(&def.name).map(|(own, status)| {
        let status = status.as_ref().map(|s| ident(s));
        super::apply::extractors(
            apply,
            &quote!(#resource_ty),
            &quote!(#name),
            kind,
            &ident(own),
            status.as_ref(),
        )
    });
    quote! {
        #[doc = #doc]
        #[derive(Clone, Debug, Default, PartialEq, #serde::Serialize)]
        #serde_crate
        pub struct #name {
            /// `apiVersion`: set by `new`.
            #[serde(rename = "apiVersion", default, skip_serializing_if = "Option::is_none")]
            pub api_version: ::core::option::Option<::std::string::String>,
            /// `kind`: set by `new`.
            #[serde(rename = "kind", default, skip_serializing_if = "Option::is_none")]
            pub kind: ::core::option::Option<::std::string::String>,
            /// `metadata`: the name (and namespace) set by `new`, and what else this apply
            /// sets of the object's metadata.
            #[serde(rename = "metadata", default, skip_serializing_if = "Option::is_none")]
            pub metadata: ::core::option::Option<#meta>,
            #(#decls)*
        }

        #deserialize

        impl #name {
            #root_methods

            #(#setters)*
        }

        impl #apply::ApplyConfiguration for #name {
            type Resource = #resource_ty;
        }

        #extractors
    }
}

/// `#[doc]` attributes for doc paragraphs, rewritten so rustdoc and clippy accept any text:
/// leading indentation is dropped (no accidental code blocks, hence no doctests), code fences
/// are marked `text`, lines that continue a list item are indented under it, and a leading `>`
/// is escaped: in schema descriptions it is a comparison (`> 0 disables it`) far more often
/// than a quote, and a quote's unmarked next line is a lazy continuation clippy rejects.
fn doc_attrs(paragraphs: &[String]) -> TokenStream {
    let mut lines: Vec<String> = Vec::new();
    for (i, paragraph) in paragraphs.iter().enumerate() {
        if i > 0 {
            lines.push(String::new());
        }
        let mut in_fence = false;
        let mut list_indent: Option<usize> = None;
        for raw in paragraph.lines() {
            let detabbed = raw.replace('\t', "    ");
            let line = detabbed.trim();
            if line.starts_with("```") {
                lines.push(if in_fence {
                    "```".into()
                } else {
                    "```text".into()
                });
                in_fence = !in_fence;
                continue;
            }
            if in_fence {
                lines.push(raw.trim_end().replace('\t', "    "));
                continue;
            }
            if line.is_empty() {
                list_indent = None;
                lines.push(String::new());
                continue;
            }
            let escaped;
            let line = if line.starts_with('>') {
                escaped = format!("\\{line}");
                escaped.as_str()
            } else {
                line
            };
            if let Some(width) = list_marker_width(line) {
                list_indent = Some(width);
                lines.push(line.to_owned());
            } else if let Some(width) = list_indent {
                lines.push(format!("{}{line}", " ".repeat(width)));
            } else {
                lines.push(line.to_owned());
            }
        }
        if in_fence {
            lines.push("```".into());
        }
    }
    while lines.last().is_some_and(String::is_empty) {
        lines.pop();
    }
    let attrs = lines.iter().map(|line| {
        let text = if line.is_empty() {
            String::new()
        } else {
            format!(" {line}")
        };
        quote!(#[doc = #text])
    });
    quote!(#(#attrs)*)
}

/// The width of a Markdown list marker (`- `, `* `, `+ `, `12. `, `1) `) starting `line`.
fn list_marker_width(line: &str) -> Option<usize> {
    if ["- ", "* ", "+ "].iter().any(|m| line.starts_with(m)) {
        return Some(2);
    }
    let digits = line.chars().take_while(char::is_ascii_digit).count();
    let ordered = line[digits..].starts_with(". ") || line[digits..].starts_with(") ");
    (digits > 0 && ordered).then_some(digits + 2)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn docs(paragraphs: &[&str]) -> String {
        let owned: Vec<String> = paragraphs.iter().map(|s| (*s).to_owned()).collect();
        doc_attrs(&owned).to_string()
    }

    #[test]
    fn doc_comments_never_become_code() {
        let out = docs(&["Example:\n    foo: bar\n```yaml\na: b\n```"]);
        assert!(out.contains("\" Example:\""), "{out}");
        assert!(out.contains("\" foo: bar\""), "{out}");
        assert!(out.contains("\" ```text\""), "{out}");
    }

    #[test]
    fn list_continuations_are_indented() {
        let out = docs(&["- item one\ncontinues\n\nafter"]);
        assert!(out.contains("\"   continues\""), "{out}");
        assert!(out.contains("\" after\""), "{out}");
    }

    #[test]
    fn a_leading_quote_marker_is_escaped() {
        let out = docs(&["Replicas.\n> 0 scales out\nlazily continued\n- item\n> inside"]);
        assert!(out.contains(r#"" \\> 0 scales out""#), "{out}");
        assert!(out.contains(r#""   \\> inside""#), "{out}");
        assert!(out.contains("\" lazily continued\""), "{out}");
    }

    #[test]
    fn numbered_lists_are_recognised() {
        assert_eq!(list_marker_width("12. x"), Some(4));
        assert_eq!(list_marker_width("12.x"), None);
        assert_eq!(list_marker_width("1) run"), Some(3));
        assert_eq!(list_marker_width("- x"), Some(2));
        assert_eq!(list_marker_width("-x"), None);
    }

    #[test]
    fn deeply_nested_field_types_allow_type_complexity() {
        let array = |t| FieldType::Array(Box::new(t));
        let map = |t| FieldType::Map(Box::new(t));
        // Option<Vec<Vec<BTreeMap<String, Vec<String>>>>>: 10+20+30+40+50+50+60 = 260.
        let deep = array(array(map(array(FieldType::String))));
        assert_eq!(10 + type_complexity(&deep, 2), 260);
        assert!(complexity_allow(&deep, true).is_some());
        assert!(complexity_allow(&deep, false).is_none());
        assert!(complexity_allow(&array(array(FieldType::String)), true).is_none());
    }

    #[test]
    fn raw_identifiers_keep_their_keyword() {
        assert_eq!(ident("r#type").to_string(), "r#type");
        assert_eq!(unraw("r#type"), "type");
    }
}
