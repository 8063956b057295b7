//! Emitters: the model becomes tokens, then formatted Rust files.
//!
//! [`generate`] is the entry point: it takes an [`Api`] (validated resources, from any
//! reader: tables, OpenAPI specs or CRDs) and [`EmitOptions`] saying where the runtime and
//! the lister types live and whether to emit one file (for `build.rs`) or a tree of files
//! (one per type, plus group, version and root modules). [`generate_crds`] does the same
//! with the typed custom resources of a [`CrdModel`] as further modules of the same tree.
//!
//! With informers comes the typed clientset (`Clientset`, client-gen's counterpart), whose
//! `Api` the informers' list and watch go through.
//!
//! Every generated function is `#[inline]`: like a generic, it is then code-generated in
//! the crates that call it, not in the generated crate. An app using `pods()` compiles the
//! runtime's generic code for `Pod` only, instead of for every one of ~90 built-in types.

pub mod apply;
mod clientset;
mod factory;
mod informers;
mod listers;
mod metadata;
mod output;
pub mod protobuf;
pub mod types;

use proc_macro2::TokenStream;
use quote::{format_ident, quote};

use crate::model::schema::CrdModel;
use crate::model::{escape_ident, Api, ApiGroup, ApiResource, ApiVersion, TypeRef};

pub use output::{GeneratedFiles, WriteError};

/// What to generate.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Target {
    /// Only typed listers (`PodLister`, `PodNamespaceLister`), in `group::version` modules.
    Listers,
    /// Informers, group/version accessors, `SharedInformerFactory`, the typed `Clientset`
    /// and the metadata-only accessors (`MetadataGroups`).
    Informers {
        /// Path of a module tree holding the listers (`::listers`), laid out the same
        /// `group::version` way; `None` emits the listers next to the informers.
        listers_path: Option<String>,
    },
}

/// How the output is laid out.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Layout {
    /// One file with inline modules, for `include!` from a `build.rs` output.
    SingleFile {
        /// Its name, e.g. `informers.rs`.
        file_name: String,
    },
    /// One file per type, `group/version/kind.rs`, plus `mod.rs` files and a root file.
    Tree {
        /// Name of the root file, e.g. `lib.rs` or `mod.rs`.
        root_file: String,
    },
}

/// Options of [`generate`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EmitOptions {
    /// What to generate.
    pub target: Target,
    /// Output layout.
    pub layout: Layout,
    /// Path of the runtime crate, e.g. `::kube_informers`.
    pub runtime_path: String,
    /// Path that replaces a leading `k8s_openapi` in resource type paths,
    /// e.g. `::kube_informers::k8s_openapi` or `::k8s_openapi`.
    pub k8s_openapi_path: String,
    /// Said in the root module's docs: where the resources came from
    /// (e.g. `Kubernetes 1.37 (k8s-openapi 0.29.0)`). Keep it free of machine-specific paths.
    pub source_description: String,
}

impl EmitOptions {
    /// Informers with inline listers, one file, runtime at `::kube_informers`.
    pub fn informers_single_file(file_name: &str, source_description: &str) -> Self {
        Self {
            target: Target::Informers { listers_path: None },
            layout: Layout::SingleFile {
                file_name: file_name.to_owned(),
            },
            runtime_path: "::kube_informers".to_owned(),
            k8s_openapi_path: "::kube_informers::k8s_openapi".to_owned(),
            source_description: source_description.to_owned(),
        }
    }
}

/// Why generation failed.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum EmitError {
    /// An option holds something that is not a Rust path.
    #[error("option {option}: `{value}` is not a Rust path")]
    BadPath {
        /// The option.
        option: &'static str,
        /// Its value.
        value: String,
    },
    /// A resource's Rust type path does not parse.
    #[error("resource {resource}: rust type path `{value}` is not a Rust path")]
    BadTypePath {
        /// The resource, `group/version/kind`.
        resource: String,
        /// The path.
        value: String,
    },
    /// A resource's type is a generated one that the typed custom resources given to the
    /// emitter do not hold (or none were given).
    #[error("resource {resource}: no typed custom resource for its type ({ty})")]
    UnknownType {
        /// The resource, `group/version/kind`.
        resource: String,
        /// The type.
        ty: String,
    },
    /// A namespaced resource's all-namespaces clientset accessor (`pods_all`) is another
    /// resource's accessor in the same version.
    #[error(
        "resource {resource}: its all-namespaces clientset accessor `{accessor}` is also the \
         accessor of resource {other}"
    )]
    AccessorClash {
        /// The resource, `group/version/kind`.
        resource: String,
        /// The accessor.
        accessor: String,
        /// The resource whose accessor it is.
        other: String,
    },
    /// Generated tokens did not parse as a Rust file (a generator bug).
    #[error("generated module {module} does not parse: {source}")]
    Unparsable {
        /// The module.
        module: String,
        /// The parse error.
        source: syn::Error,
    },
}

/// Paths and names shared by every emitter.
struct Ctx<'a> {
    options: &'a EmitOptions,
    runtime: TokenStream,
    k8s_openapi: TokenStream,
    listers: Option<TokenStream>,
    /// The typed custom resources, and the path generated code names its own root by
    /// (`crate`, `crate::crds`, checked to parse), when generating for CRDs.
    generated: Option<(&'a CrdModel, &'a str)>,
}

impl<'a> Ctx<'a> {
    fn new(options: &'a EmitOptions) -> Result<Self, EmitError> {
        let path = |option: &'static str, value: &str| {
            syn::parse_str::<syn::Path>(value).map_err(|_| EmitError::BadPath {
                option,
                value: value.to_owned(),
            })
        };
        let listers = match &options.target {
            Target::Informers {
                listers_path: Some(p),
            } => Some(path("listers_path", p)?),
            _ => None,
        };
        let k8s_openapi = path("k8s_openapi_path", &options.k8s_openapi_path)?;
        let runtime = path("runtime_path", &options.runtime_path)?;
        Ok(Self {
            options,
            runtime: quote!(#runtime),
            k8s_openapi: quote!(#k8s_openapi),
            listers: listers.map(|p| quote!(#p)),
            generated: None,
        })
    }

    fn informers(&self) -> bool {
        matches!(self.options.target, Target::Informers { .. })
    }

    fn inline_listers(&self) -> bool {
        self.listers.is_none()
    }

    /// The resource's type as a path: below the configured k8s-openapi path, or in the
    /// generated types modules.
    fn resource_path(&self, r: &ApiResource) -> Result<syn::Path, EmitError> {
        let (base, segments) = match &r.def.ty {
            TypeRef::K8sOpenapi { module, name } => {
                let mut segments = module.clone();
                segments.push(name.clone());
                (self.options.k8s_openapi_path.as_str(), segments)
            }
            TypeRef::Generated {
                group,
                version,
                kind,
            } => {
                let (types, root) =
                    self.generated
                        .as_ref()
                        .ok_or_else(|| EmitError::UnknownType {
                            resource: gvk_text(r),
                            ty: r.def.ty.to_string(),
                        })?;
                let segments = types.type_path(group, version, kind).ok_or_else(|| {
                    EmitError::UnknownType {
                        resource: gvk_text(r),
                        ty: r.def.ty.to_string(),
                    }
                })?;
                (*root, segments)
            }
        };
        // Both bases parsed when the context was made.
        let mut path: syn::Path = syn::parse_str(base).map_err(|_| EmitError::BadTypePath {
            resource: gvk_text(r),
            value: base.to_owned(),
        })?;
        for segment in &segments {
            let bare = segment.strip_prefix("r#").unwrap_or(segment);
            let is_ident = bare.starts_with(|c: char| c.is_ascii_alphabetic() || c == '_')
                && bare.chars().all(|c| c.is_ascii_alphanumeric() || c == '_');
            if !is_ident {
                return Err(EmitError::BadTypePath {
                    resource: gvk_text(r),
                    value: r.def.ty.to_string(),
                });
            }
            path.segments.push(ident(bare).into());
        }
        Ok(path)
    }

    /// The resource's type.
    fn type_path(&self, r: &ApiResource) -> Result<TokenStream, EmitError> {
        let path = self.resource_path(r)?;
        Ok(quote!(#path))
    }

    /// The type path as a rustdoc link target (no leading `::`).
    fn type_doc_link(&self, r: &ApiResource) -> Result<String, EmitError> {
        Ok(self
            .resource_path(r)?
            .segments
            .iter()
            .map(|s| s.ident.to_string())
            .collect::<Vec<_>>()
            .join("::"))
    }
}

/// `group/version/Kind` (`core` for the core group), as said in docs and errors.
fn gvk_text(r: &ApiResource) -> String {
    let group = if r.def.group.is_empty() {
        "core"
    } else {
        r.def.group.as_str()
    };
    format!("{group}/{}, kind {}", r.def.version, r.def.kind)
}

/// An identifier, raw when it is a keyword.
fn ident(name: &str) -> syn::Ident {
    let escaped = escape_ident(name);
    match escaped.strip_prefix("r#") {
        Some(raw) => syn::Ident::new_raw(raw, proc_macro2::Span::call_site()),
        None => format_ident!("{}", escaped),
    }
}

/// `#[doc = "..."]` lines for `text` (each line gets the leading space `///` comments have).
fn doc(text: &str) -> TokenStream {
    let lines = text.lines().map(|l| {
        if l.is_empty() {
            String::new()
        } else {
            format!(" {l}")
        }
    });
    quote!(#(#[doc = #lines])*)
}

/// Inner `#![doc = "..."]` lines for `text`.
fn inner_doc(text: &str) -> TokenStream {
    let lines = text.lines().map(|l| {
        if l.is_empty() {
            String::new()
        } else {
            format!(" {l}")
        }
    });
    quote!(#(#![doc = #lines])*)
}

/// A resource description made safe for rustdoc: one line (no indented code blocks,
/// hence no doctests), brackets and angle brackets escaped (no broken links or HTML).
fn sanitize_description(text: &str) -> String {
    text.split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
        .replace('\\', "\\\\")
        .replace('[', "\\[")
        .replace(']', "\\]")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('`', "'")
}

/// One module of the output: its items, its per-type modules and its child modules.
struct Module {
    /// Unescaped (`type`, not `r#type`): it names the module's file or directory, and
    /// [`ident`] escapes it where the module is declared.
    name: String,
    doc: String,
    items: TokenStream,
    /// `(module name, doc, items)` of each type; flattened into this module in one file,
    /// separate files (re-exported here) in a tree.
    types: Vec<(String, String, TokenStream)>,
    children: Vec<Module>,
}

/// Generates the files for `api`.
pub fn generate(api: &Api, options: &EmitOptions) -> Result<GeneratedFiles, EmitError> {
    let ctx = Ctx::new(options)?;
    lay_out(&root_module(&ctx, api)?, &options.layout)
}

/// Generates the files for custom resources: what [`generate`] emits for `api` (their
/// informers, listers and factory), plus the typed resources of `types` as one module per
/// API group beside the informer groups (`cert_manager_io::v1::Certificate`). In a tree,
/// each group is a directory and each version one file: the types of a version name each
/// other unqualified, and nested types are shared by the kinds of a version.
///
/// `root_path` is the path generated code names the output's root by: `crate` when it is
/// included at the crate root, `crate::crds` when in module `crds`.
pub fn generate_crds(
    api: &Api,
    types: &CrdModel,
    root_path: &str,
    options: &EmitOptions,
) -> Result<GeneratedFiles, EmitError> {
    let mut ctx = Ctx::new(options)?;
    if syn::parse_str::<syn::Path>(root_path).is_err() {
        return Err(EmitError::BadPath {
            option: "root_path",
            value: root_path.to_owned(),
        });
    }
    ctx.generated = Some((types, root_path));
    let mut root = root_module(&ctx, api)?;
    root.children
        .extend(types::type_modules(types, &ctx.k8s_openapi, &ctx.runtime));
    lay_out(&root, &options.layout)
}

fn lay_out(root: &Module, layout: &Layout) -> Result<GeneratedFiles, EmitError> {
    let mut files = GeneratedFiles::default();
    match layout {
        Layout::SingleFile { file_name } => {
            let mut file = parse_file(&root.name, single_file_tokens(root))?;
            allow_unused(&mut file);
            files.insert(file_name.into(), prettyplease::unparse(&file));
        }
        Layout::Tree { root_file } => {
            tree_files(root, std::path::Path::new(""), root_file, &mut files)?;
        }
    }
    Ok(files)
}

fn format_file(module: &str, tokens: TokenStream) -> Result<String, EmitError> {
    Ok(prettyplease::unparse(&parse_file(module, tokens)?))
}

fn parse_file(module: &str, tokens: TokenStream) -> Result<syn::File, EmitError> {
    syn::parse2(tokens).map_err(|source| EmitError::Unparsable {
        module: module.to_owned(),
        source,
    })
}

/// Marks every top-level item `#[allow(dead_code)]`. One file is `include!`d into a module of
/// the user's crate, often a binary's, which uses a few of its informers, listers and
/// clients: the rest must not warn. A module's attribute covers everything inside it.
fn allow_unused(file: &mut syn::File) {
    for item in &mut file.items {
        let attrs = match item {
            syn::Item::Struct(i) => &mut i.attrs,
            syn::Item::Enum(i) => &mut i.attrs,
            syn::Item::Impl(i) => &mut i.attrs,
            syn::Item::Fn(i) => &mut i.attrs,
            syn::Item::Mod(i) => &mut i.attrs,
            syn::Item::Trait(i) => &mut i.attrs,
            syn::Item::Type(i) => &mut i.attrs,
            syn::Item::Const(i) => &mut i.attrs,
            syn::Item::Static(i) => &mut i.attrs,
            _ => continue,
        };
        attrs.push(syn::parse_quote!(#[allow(dead_code)]));
    }
}

/// A module's items with inline child modules. No inner doc at the top: `include!`
/// does not accept inner attributes.
fn single_file_tokens(m: &Module) -> TokenStream {
    let items = &m.items;
    let type_items = m.types.iter().map(|(_, _, t)| t);
    let children = m.children.iter().map(inline_module);
    quote!(#items #(#type_items)* #(#children)*)
}

/// `pub mod name { ... }` with the module's doc as outer attributes.
fn inline_module(m: &Module) -> TokenStream {
    let name = ident(&m.name);
    let d = doc(&m.doc);
    let inner = single_file_tokens(m);
    quote!(#d pub mod #name { #inner })
}

/// Writes `m` as `dir/file_name` (with inner docs), its types as `dir/<type>.rs` and its
/// children below `dir`: a child with children or types of its own as `dir/<child>/mod.rs`,
/// a leaf as `dir/<child>.rs` (a directory holding one file says nothing more).
fn tree_files(
    m: &Module,
    dir: &std::path::Path,
    file_name: &str,
    files: &mut GeneratedFiles,
) -> Result<(), EmitError> {
    let head = inner_doc(&m.doc);
    let items = &m.items;
    let type_mods = m.types.iter().map(|(name, _, _)| {
        let name = ident(name);
        quote!(mod #name; pub use self::#name::*;)
    });
    let child_mods = m.children.iter().map(|c| {
        let name = ident(&c.name);
        quote!(pub mod #name;)
    });
    let tokens = quote!(#head #(#child_mods)* #(#type_mods)* #items);
    files.insert(dir.join(file_name), format_file(&m.name, tokens)?);
    for (name, type_doc, tokens) in &m.types {
        let head = inner_doc(type_doc);
        files.insert(
            dir.join(format!("{name}.rs")),
            format_file(name, quote!(#head #tokens))?,
        );
    }
    for child in &m.children {
        if child.children.is_empty() && child.types.is_empty() {
            tree_files(child, dir, &format!("{}.rs", child.name), files)?;
        } else {
            tree_files(child, &dir.join(&child.name), "mod.rs", files)?;
        }
    }
    Ok(())
}

fn root_module(ctx: &Ctx<'_>, api: &Api) -> Result<Module, EmitError> {
    let what = if ctx.informers() {
        "Typed shared informers, the `SharedInformerFactory`, the typed `Clientset` and the \
         metadata-only accessors of `MetadataGroups`"
    } else {
        "Typed listers"
    };
    let doc = format!(
        "{what} for {}.\n\nGenerated by informer-gen: do not edit.",
        ctx.options.source_description
    );
    let items = if ctx.informers() {
        let mut items = factory::factory_items(ctx, api);
        items.extend(clientset::root_items(ctx, api));
        items.extend(metadata::root_items(ctx, api));
        items
    } else {
        quote!()
    };
    let children = api
        .groups
        .iter()
        .map(|g| group_module(ctx, g))
        .collect::<Result<_, _>>()?;
    Ok(Module {
        name: "root".to_owned(),
        doc,
        items,
        types: Vec::new(),
        children,
    })
}

fn group_module(ctx: &Ctx<'_>, group: &ApiGroup) -> Result<Module, EmitError> {
    let shown = if group.name.is_empty() {
        "the core API group"
    } else {
        group.name.as_str()
    };
    let what = if ctx.informers() {
        "Informers"
    } else {
        "Listers"
    };
    let items = if ctx.informers() {
        let mut items = informers::group_items(ctx, group);
        items.extend(clientset::group_items(ctx, group));
        items.extend(metadata::group_items(ctx, group));
        items
    } else {
        quote!()
    };
    Ok(Module {
        name: group.module.clone(),
        doc: format!("{what} of {shown}."),
        items,
        types: Vec::new(),
        children: group
            .versions
            .iter()
            .map(|v| version_module(ctx, group, v))
            .collect::<Result<_, _>>()?,
    })
}

fn version_module(
    ctx: &Ctx<'_>,
    group: &ApiGroup,
    version: &ApiVersion,
) -> Result<Module, EmitError> {
    let shown = if group.name.is_empty() {
        format!("core/{}", version.name)
    } else {
        format!("{}/{}", group.name, version.name)
    };
    let what = if ctx.informers() {
        "Informers"
    } else {
        "Listers"
    };
    let items = if ctx.informers() {
        let mut items = informers::version_items(ctx, &shown, version);
        items.extend(clientset::version_items(ctx, &shown, version)?);
        items.extend(metadata::version_items(ctx, &shown, version)?);
        items
    } else {
        quote!()
    };
    let mut types = Vec::with_capacity(version.resources.len());
    for r in &version.resources {
        let mut tokens = TokenStream::new();
        if ctx.informers() {
            tokens.extend(informers::resource_items(ctx, group, version, r)?);
        }
        if ctx.inline_listers() {
            tokens.extend(listers::resource_items(ctx, r)?);
        }
        types.push((
            r.snake_kind.clone(),
            format!("{what} of {} ({}).", r.def.kind, gvk_text(r)),
            tokens,
        ));
    }
    Ok(Module {
        name: version.name.clone(),
        doc: format!("{what} of {shown}."),
        items,
        types,
        children: Vec::new(),
    })
}
