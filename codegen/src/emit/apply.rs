//! Apply configurations of the built-in types (client-go's applyconfiguration-gen): for one
//! Kubernetes version, a `<Struct>Apply` per k8s-openapi struct a resource reaches, every
//! field optional and only the set ones serialised, with a builder method per field; per
//! resource, `new` (apiVersion, kind, name and namespace set), the runtime's
//! `ApplyConfiguration` and `extract_<kind>`/`extract_<kind>_status` over the runtime's
//! `apply::extract`.
//!
//! The structs' fields come from the [protobuf table](crate::read::protobuf_table), which
//! holds each k8s-openapi struct's fields with their JSON names and shapes per version. A
//! struct field the table has no protobuf field for (`unmapped`) has no builder either.
//! `ObjectMeta` is the runtime's `ObjectMetaApply`, the same for built-ins and custom
//! resources.

use std::collections::{BTreeMap, BTreeSet};

use heck::ToSnakeCase;
use proc_macro2::TokenStream;
use quote::{format_ident, quote};

use crate::model::{ResourceDef, Scope};
use crate::read::protobuf_table::{leaf_rust_type, Codec, FieldDef, ProtobufTable, Store};

use super::protobuf::{field_ident, path as parse_path};
use super::EmitError;

/// The message the runtime's `ObjectMetaApply` stands for.
const OBJECT_META: &str = "apimachinery.pkg.apis.meta.v1.ObjectMeta";

/// Method names clippy's `should_implement_trait` reserves for std traits.
const STD_TRAIT_METHODS: &[&str] = &[
    "add",
    "as_mut",
    "as_ref",
    "bitand",
    "bitor",
    "bitxor",
    "borrow",
    "borrow_mut",
    "clone",
    "cmp",
    "default",
    "deref",
    "deref_mut",
    "div",
    "drop",
    "eq",
    "from_iter",
    "from_str",
    "hash",
    "index",
    "index_mut",
    "into_iter",
    "mul",
    "neg",
    "next",
    "not",
    "rem",
    "shl",
    "shr",
    "sub",
];

/// Where generated apply code finds what it names.
pub struct ApplyPaths<'a> {
    /// The runtime (`::informer_runtime`), whose `apply` module, serde and serde_json the
    /// configurations use.
    pub runtime: &'a str,
    /// k8s-openapi's root (`::k8s_openapi`).
    pub k8s_openapi: &'a str,
    /// The path the output's root is included at (`crate::apply`), by which configurations
    /// of one module name those of another.
    pub root: &'a str,
}

/// Emits the apply configurations of Kubernetes `1.<minor>` for the built-in `resources`
/// (and every struct they reach) as one formatted file of nested modules laid out as
/// k8s-openapi's (`api::apps::v1::DeploymentApply`).
pub fn apply_configurations(
    table: &ProtobufTable,
    minor: u32,
    resources: &[ResourceDef],
    paths: &ApplyPaths<'_>,
) -> Result<String, EmitError> {
    let ctx = Ctx {
        rt: parse_path(paths.runtime, "runtime_path")?,
        k8s: parse_path(paths.k8s_openapi, "k8s_openapi_path")?,
        root: parse_path(paths.root, "root_path")?,
        table,
        minor,
    };
    let roots: BTreeMap<String, &ResourceDef> = resources
        .iter()
        .filter_map(|r| Some((r.ty.k8s_openapi_dotted()?, r)))
        .filter(|(proto, _)| ctx.has(proto))
        .collect();
    let mut modules: BTreeMap<Vec<String>, Vec<TokenStream>> = BTreeMap::new();
    for proto in ctx.reachable(roots.keys()) {
        let (module, _) = split(&proto);
        let items = modules.entry(module).or_default();
        items.push(ctx.structure(&proto, roots.get(&proto).copied()));
        if let Some(resource) = roots.get(&proto) {
            items.push(ctx.extract_fns(&proto, resource));
        }
    }
    let tokens = nest(&modules);
    let file: syn::File = syn::parse2(tokens).map_err(|source| EmitError::Unparsable {
        module: "apply configurations".to_owned(),
        source,
    })?;
    Ok(prettyplease::unparse(&file))
}

struct Ctx<'a> {
    rt: TokenStream,
    k8s: TokenStream,
    root: TokenStream,
    table: &'a ProtobufTable,
    minor: u32,
}

impl Ctx<'_> {
    /// Whether the table has a struct for `proto` in this version.
    fn has(&self, proto: &str) -> bool {
        self.table
            .messages
            .get(proto)
            .is_some_and(|m| m.versions.contains(&self.minor))
    }

    /// The fields of `proto` in this version, each once (a field the table lists under
    /// several paths, one per version, is one struct field).
    fn fields(&self, proto: &str) -> Vec<&FieldDef> {
        let mut seen = BTreeSet::new();
        self.table.messages[proto]
            .fields
            .iter()
            .filter(|f| f.versions.contains(&self.minor) && f.store != Store::ManagedFields)
            .filter(|f| seen.insert(f.rust_field.as_str()))
            .filter(|f| match &f.codec {
                Codec::Message(m) => m == OBJECT_META || self.has(m),
                Codec::Leaf(leaf) => leaf_rust_type(leaf).is_some(),
            })
            .collect()
    }

    /// `roots` and every struct their fields reach, but `ObjectMeta`.
    fn reachable<'s>(&self, roots: impl Iterator<Item = &'s String>) -> BTreeSet<String> {
        let mut out = BTreeSet::new();
        let mut todo: Vec<String> = roots.cloned().collect();
        while let Some(proto) = todo.pop() {
            if proto == OBJECT_META || !out.insert(proto.clone()) {
                continue;
            }
            for f in self.fields(&proto) {
                if let Codec::Message(m) = &f.codec {
                    todo.push(m.clone());
                }
            }
        }
        out
    }

    /// The configuration type standing for one value of `codec`.
    fn value_type(&self, codec: &Codec) -> TokenStream {
        match codec {
            Codec::Message(m) if m == OBJECT_META => {
                let rt = &self.rt;
                quote!(#rt::apply::ObjectMetaApply)
            }
            Codec::Message(m) => {
                let (module, name) = split(m);
                let root = &self.root;
                let module = module.iter().map(|s| format_ident!("{s}"));
                let ty = apply_ident(&name);
                quote!(#root #(:: #module)* :: #ty)
            }
            Codec::Leaf(leaf) => {
                let rust = leaf_rust_type(leaf).unwrap_or("std::string::String");
                if rust.starts_with("std::") {
                    let ty: TokenStream = format!("::{rust}").parse().unwrap_or_default();
                    ty
                } else if rust.contains("::") || rust.starts_with(char::is_uppercase) {
                    let k8s = &self.k8s;
                    let segments = rust.split("::").map(|s| format_ident!("{s}"));
                    quote!(#k8s #(:: #segments)*)
                } else {
                    let ident = format_ident!("{rust}");
                    quote!(#ident)
                }
            }
        }
    }

    /// `<Name>Apply` for `proto`, with `apiVersion`, `kind` and `new(name[, namespace])`
    /// when it is a resource's.
    fn structure(&self, proto: &str, resource: Option<&ResourceDef>) -> TokenStream {
        let rt = &self.rt;
        let serde = quote!(#rt::serde);
        let serde_crate = format!("{}::serde", self.rt).replace(' ', "");
        let (_, name) = split(proto);
        let ty = apply_ident(&name);
        let k8s_ty = k8s_type(&self.k8s, proto);
        let fields = self.fields(proto);
        let mut decls = Vec::new();
        let mut setters = Vec::new();
        let mut takes = Vec::new();
        if resource.is_some() {
            for (field, json) in [("api_version", "apiVersion"), ("kind", "kind")] {
                let ident = format_ident!("{field}");
                takes.push(quote!(#ident: fields.take(#json)?,));
                let doc = format!(" `{json}`: set by `new`.");
                decls.push(quote! {
                    #[doc = #doc]
                    #[serde(rename = #json, skip_serializing_if = "Option::is_none")]
                    pub #ident: ::core::option::Option<::std::string::String>,
                });
            }
        }
        for f in &fields {
            let (decl, setter) = self.field(f);
            decls.push(decl);
            setters.push(setter);
            let ident = field_ident(&f.rust_field);
            let json = json_name(f);
            takes.push(quote!(#ident: fields.take(#json)?,));
        }
        let doc = format!(
            " The apply configuration of [`{}`]: every field optional, only the set ones sent.",
            rust_doc_path(proto)
        );
        let deserialize = deserialize_impl(&quote!(#rt::apply), &serde, &quote!(#ty), &takes);
        let constructor = match resource {
            Some(r) => self.resource_items(&k8s_ty, r),
            None => quote! {
                /// A configuration with nothing set.
                #[inline]
                pub fn new() -> Self {
                    ::core::default::Default::default()
                }
            },
        };
        quote! {
            #[doc = #doc]
            #[derive(Clone, Debug, Default, PartialEq, #serde::Serialize)]
            #[serde(crate = #serde_crate)]
            pub struct #ty {
                #(#decls)*
            }

            #deserialize

            impl #ty {
                #constructor
                #(#setters)*
            }
        }
    }

    /// A field's declaration and its builder method.
    fn field(&self, f: &FieldDef) -> (TokenStream, TokenStream) {
        let ident = field_ident(&f.rust_field);
        let json = json_name(f);
        let value = self.value_type(&f.codec);
        let is_string = matches!(f.codec, Codec::Leaf("Str" | "Duration"));
        let doc = format!(" `{json}`.");
        let (stored, setter) = match f.store {
            Store::Repeated | Store::OptionalRepeated => {
                let item = if is_string {
                    quote!(impl ::core::convert::Into<#value>)
                } else {
                    quote!(#value)
                };
                let values = if is_string {
                    quote!(values.into_iter().map(::core::convert::Into::into))
                } else {
                    quote!(values)
                };
                let doc = format!(" Adds items to `{json}`.");
                (
                    quote!(::std::vec::Vec<#value>),
                    quote! {
                        #[doc = #doc]
                        #[inline]
                        #[must_use]
                        pub fn #ident(mut self, values: impl ::core::iter::IntoIterator<Item = #item>) -> Self {
                            self.#ident.get_or_insert_with(::std::vec::Vec::new).extend(#values);
                            self
                        }
                    },
                )
            }
            Store::Map | Store::OptionalMap => {
                let item = if is_string {
                    quote!(impl ::core::convert::Into<#value>)
                } else {
                    quote!(#value)
                };
                let convert = if is_string {
                    quote!(v.into())
                } else {
                    quote!(v)
                };
                let doc =
                    format!(" Adds entries to `{json}` (a key given again keeps its last value).");
                (
                    quote!(::std::collections::BTreeMap<::std::string::String, #value>),
                    quote! {
                        #[doc = #doc]
                        #[inline]
                        #[must_use]
                        pub fn #ident(mut self, entries: impl ::core::iter::IntoIterator<Item = (impl ::core::convert::Into<::std::string::String>, #item)>) -> Self {
                            self.#ident.get_or_insert_with(::std::collections::BTreeMap::new).extend(entries.into_iter().map(|(k, v)| (k.into(), #convert)));
                            self
                        }
                    },
                )
            }
            Store::Boxed => {
                let doc = format!(" Sets `{json}`.");
                (
                    quote!(::std::boxed::Box<#value>),
                    quote! {
                        #[doc = #doc]
                        #[inline]
                        #[must_use]
                        pub fn #ident(mut self, value: #value) -> Self {
                            self.#ident = ::core::option::Option::Some(::std::boxed::Box::new(value));
                            self
                        }
                    },
                )
            }
            Store::Value | Store::Optional | Store::OmitEmpty | Store::ManagedFields => {
                let doc = format!(" Sets `{json}`.");
                let (arg, convert) = if is_string {
                    (
                        quote!(impl ::core::convert::Into<#value>),
                        quote!(value.into()),
                    )
                } else {
                    (quote!(#value), quote!(value))
                };
                (
                    value.clone(),
                    quote! {
                        #[doc = #doc]
                        #[inline]
                        #[must_use]
                        pub fn #ident(mut self, value: #arg) -> Self {
                            self.#ident = ::core::option::Option::Some(#convert);
                            self
                        }
                    },
                )
            }
        };
        let decl = quote! {
            #[doc = #doc]
            #[serde(rename = #json, skip_serializing_if = "Option::is_none")]
            pub #ident: ::core::option::Option<#stored>,
        };
        // A builder is named after its field, whatever std trait has a method of that name
        // (`Capabilities::add`).
        let allow = STD_TRAIT_METHODS
            .contains(&f.rust_field.as_str())
            .then(|| quote!(#[allow(clippy::should_implement_trait)]));
        (decl, quote!(#allow #setter))
    }

    /// A resource's `new` and its metadata shortcuts.
    fn resource_items(&self, k8s_ty: &TokenStream, r: &ResourceDef) -> TokenStream {
        let rt = &self.rt;
        root_methods(&quote!(#rt::apply), &self.k8s, k8s_ty, r.scope, &r.kind)
    }

    /// `ApplyConfiguration`, `extract_<kind>` and, with a status subresource,
    /// `extract_<kind>_status`.
    fn extract_fns(&self, proto: &str, r: &ResourceDef) -> TokenStream {
        let rt = &self.rt;
        let apply = quote!(#rt::apply);
        let (_, name) = split(proto);
        let ty = apply_ident(&name);
        let k8s_ty = k8s_type(&self.k8s, proto);
        let snake = r.kind.to_snake_case();
        let own = format_ident!("extract_{snake}");
        let status = r
            .subresources
            .status
            .then(|| format_ident!("extract_{snake}_status"));
        let extractors = extractors(
            &apply,
            &k8s_ty,
            &quote!(#ty),
            &r.kind,
            &own,
            status.as_ref(),
        );
        quote! {
            impl #apply::ApplyConfiguration for #ty {
                type Resource = #k8s_ty;
            }

            #extractors
        }
    }
}

/// `Deserialize` for configuration `ty` through the runtime's `apply::Fields` (`apply` is
/// the path of the runtime's `apply` module): one generic read per field type (`takes`,
/// `field: fields.take("wire")?,`) instead of a derived visitor per struct, which keeps
/// hundreds of configurations cheap to compile. Shared by the built-in and the CRD emitters.
pub(super) fn deserialize_impl(
    apply: &TokenStream,
    serde: &TokenStream,
    ty: &TokenStream,
    takes: &[TokenStream],
) -> TokenStream {
    let read = quote!(<#apply::Fields as #serde::Deserialize>::deserialize(deserializer)?);
    // A struct without fields (Go's `{}`) reads nothing, but must still be an object.
    let body = if takes.is_empty() {
        quote! {
            #read;
            ::core::result::Result::Ok(Self {})
        }
    } else {
        quote! {
            let mut fields = #read;
            ::core::result::Result::Ok(Self { #(#takes)* })
        }
    };
    quote! {
        impl<'de> #serde::Deserialize<'de> for #ty {
            fn deserialize<D: #serde::Deserializer<'de>>(deserializer: D) -> ::core::result::Result<Self, D::Error> {
                #body
            }
        }
    }
}

/// A resource configuration's `new(name[, namespace])`, setting `apiVersion` and `kind`
/// from `resource`'s `k8s_openapi::Resource`, and its `labels`, `annotations`,
/// `owner_references` and `finalizers` shortcuts into its metadata; `apply` is the path of
/// the runtime's `apply` module. Shared by the built-in and the CRD emitters.
pub(super) fn root_methods(
    apply: &TokenStream,
    k8s: &TokenStream,
    resource: &TokenStream,
    scope: Scope,
    kind: &str,
) -> TokenStream {
    let resource_trait = quote!(<#resource as #k8s::Resource>);
    let string = quote!(impl ::core::convert::Into<::std::string::String>);
    let (params, namespace, what) = match scope {
        Scope::Namespaced => (
            quote!(name: #string, namespace: #string),
            quote!(.namespace(namespace)),
            format!(" A `{kind}` configuration of `name` in `namespace`, with `apiVersion` and `kind` set."),
        ),
        Scope::Cluster => (
            quote!(name: #string),
            quote!(),
            format!(" A `{kind}` configuration of `name`, with `apiVersion` and `kind` set."),
        ),
    };
    let entries = quote!(impl ::core::iter::IntoIterator<Item = (#string, #string)>);
    let shortcuts = [
        ("labels", "Adds `metadata.labels`.", quote!(entries: #entries), quote!(entries)),
        ("annotations", "Adds `metadata.annotations`.", quote!(entries: #entries), quote!(entries)),
        (
            "owner_references",
            "Adds `metadata.ownerReferences`.",
            quote!(values: impl ::core::iter::IntoIterator<Item = #apply::OwnerReferenceApply>),
            quote!(values),
        ),
        (
            "finalizers",
            "Adds `metadata.finalizers`.",
            quote!(values: impl ::core::iter::IntoIterator<Item = #string>),
            quote!(values),
        ),
    ]
    .into_iter()
    .map(|(method, doc, param, arg)| {
        let method = format_ident!("{method}");
        let doc = format!(" {doc}");
        quote! {
            #[doc = #doc]
            #[inline]
            #[must_use]
            pub fn #method(mut self, #param) -> Self {
                self.metadata = ::core::option::Option::Some(self.metadata.take().unwrap_or_default().#method(#arg));
                self
            }
        }
    });
    quote! {
        #[doc = #what]
        #[inline]
        pub fn new(#params) -> Self {
            Self {
                api_version: ::core::option::Option::Some(#resource_trait::API_VERSION.into()),
                kind: ::core::option::Option::Some(#resource_trait::KIND.into()),
                metadata: ::core::option::Option::Some(#apply::ObjectMetaApply::new().name(name) #namespace),
                ..::core::default::Default::default()
            }
        }

        #(#shortcuts)*
    }
}

/// `own(object, field_manager)` reading the configuration `config` of `resource` a manager
/// applied, and `status(...)` the one it applied through the `status` subresource (client-go's
/// `Extract<Kind>` and `Extract<Kind>Status`). Shared by the built-in and the CRD emitters.
pub(super) fn extractors(
    apply: &TokenStream,
    resource: &TokenStream,
    config: &TokenStream,
    kind: &str,
    own: &syn::Ident,
    status: Option<&syn::Ident>,
) -> TokenStream {
    let doc = format!(
        " The `{kind}` configuration `field_manager` applied to `object`, read from its `managedFields` (client-go's `Extract{kind}`)."
    );
    let status = status.map(|status| {
        let doc = format!(
            " The `{kind}` status configuration `field_manager` applied through the `status` subresource (client-go's `Extract{kind}Status`)."
        );
        quote! {
            #[doc = #doc]
            #[inline]
            pub fn #status(object: &#resource, field_manager: &str) -> ::core::result::Result<#config, #apply::ExtractError> {
                #apply::extract(object, field_manager, "status")
            }
        }
    });
    quote! {
        #[doc = #doc]
        #[inline]
        pub fn #own(object: &#resource, field_manager: &str) -> ::core::result::Result<#config, #apply::ExtractError> {
            #apply::extract(object, field_manager, "")
        }

        #status
    }
}

/// `pub mod a { pub mod b { ... } }` for each module path's items.
fn nest(modules: &BTreeMap<Vec<String>, Vec<TokenStream>>) -> TokenStream {
    let mut tree: BTreeMap<String, BTreeMap<Vec<String>, Vec<TokenStream>>> = BTreeMap::new();
    let mut here = Vec::new();
    for (path, items) in modules {
        match path.split_first() {
            None => here.extend(items.iter().cloned()),
            Some((first, rest)) => {
                tree.entry(first.clone())
                    .or_default()
                    .insert(rest.to_vec(), items.clone());
            }
        }
    }
    let children = tree.iter().map(|(name, below)| {
        let ident = format_ident!("{name}");
        let inner = nest(below);
        let doc = format!(" Apply configurations below `{name}`.");
        quote! {
            #[doc = #doc]
            pub mod #ident { #inner }
        }
    });
    quote!(#(#here)* #(#children)*)
}

/// The JSON name of a field: its proto name, the innermost one of a Go-inlined struct's
/// field (`Volume`'s `volumeSource.hostPath` is `hostPath`).
fn json_name(f: &FieldDef) -> String {
    f.proto_names.last().cloned().unwrap_or_default()
}

/// `api.apps.v1.Deployment` → (`[api, apps, v1]`, `Deployment`).
fn split(proto: &str) -> (Vec<String>, String) {
    let mut parts: Vec<String> = proto.split('.').map(str::to_owned).collect();
    let name = parts.pop().unwrap_or_default();
    (parts, name)
}

fn apply_ident(name: &str) -> syn::Ident {
    format_ident!("{name}Apply")
}

/// `<k8s>::api::apps::v1::Deployment`.
fn k8s_type(k8s: &TokenStream, proto: &str) -> TokenStream {
    let segments = proto.split('.').map(|s| format_ident!("{s}"));
    quote!(#k8s #(:: #segments)*)
}

/// The rustdoc link of the k8s-openapi struct.
fn rust_doc_path(proto: &str) -> String {
    format!("k8s_openapi::{}", proto.replace('.', "::"))
}
