//! Typed informers: per resource `XInformer` with `new_x_informer` and
//! `new_filtered_x_informer`, thin shells that name the type for the runtime's generic
//! `new_informer` over `source::typed` (which lists and watches through `Api`); per version
//! and group, the accessor structs. An `XInformer` is the factory's ask for its
//! informer (counted by `start()` and `wait_for_cache_sync()`, built on first use), which
//! `projected::<V>()` turns into the informer of a projection of the resource instead.

use proc_macro2::TokenStream;
use quote::{format_ident, quote};

use crate::model::{ApiGroup, ApiResource, ApiVersion, Scope};

use super::{doc, gvk_text, ident, sanitize_description, Ctx, EmitError};

/// `XInformer`, `new_x_informer`, `new_filtered_x_informer` of one resource.
pub(super) fn resource_items(
    ctx: &Ctx<'_>,
    group: &ApiGroup,
    version: &ApiVersion,
    r: &ApiResource,
) -> Result<TokenStream, EmitError> {
    let rt = &ctx.runtime;
    let ty = ctx.type_path(r)?;
    // Built-ins informer-protobuf decodes list and watch kube-apiserver's protobuf.
    let source = if r.def.protobuf {
        format_ident!("typed_protobuf")
    } else {
        format_ident!("typed")
    };
    let projected_body = if r.def.protobuf {
        quote!(self.ask.projected_from(#rt::projection::Projected::protobuf()))
    } else {
        quote!(self.ask.projected())
    };
    let link = ctx.type_doc_link(r)?;
    let kind = &r.def.kind;
    let gvk = gvk_text(r);
    let informer = format_ident!("{}Informer", kind);
    let new_fn = format_ident!("new_{}_informer", r.snake_kind);
    let new_filtered_fn = format_ident!("new_filtered_{}_informer", r.snake_kind);
    let lister = format_ident!("{}Lister", kind);
    let lister_path = match &ctx.listers {
        Some(base) => {
            let g = ident(&group.module);
            let v = ident(&version.name);
            quote!(#base::#g::#v::#lister)
        }
        None => quote!(#lister),
    };
    let name = r.informer_name();
    let namespaced = r.def.scope == Scope::Namespaced;

    let mut informer_doc = format!(
        "The shared informer of [`{kind}`]({link}) objects ({gvk}) in a factory \
         (client-go's `{kind}Informer`)."
    );
    if let Some(text) = &r.def.doc {
        informer_doc.push_str("\n\n");
        informer_doc.push_str(&sanitize_description(text));
    }
    let informer_doc = doc(&informer_doc);
    let informer_new_doc = doc(&format!(
        "The {kind} informer of `factory`, asked for there (as `{name}`), so that the \
         factory's `start()` and `wait_for_cache_sync()` include it; built on first use \
         (or when the factory starts), the same informer on every later call (what the \
         version accessor returns)."
    ));
    let informer_fn_doc = doc(&format!(
        "The factory's shared informer of {kind} objects, registered as `{name}`."
    ));
    let lister_fn_doc = doc(&format!(
        "A lister reading the shared {kind} informer's cache."
    ));
    let scope_note = if namespaced {
        "in `namespace` (every namespace when `None`)"
    } else {
        "(cluster-scoped)"
    };
    let new_doc = doc(&format!(
        "A new, unshared informer of [`{kind}`]({link}) objects ({gvk}) {scope_note} \
         (client-go's `New{kind}Informer`).\n\n\
         Prefer the factory's shared informer; this one is for callers that need their own."
    ));
    let new_filtered_doc = doc(&format!(
        "A new, unshared informer of [`{kind}`]({link}) objects ({gvk}) {scope_note}, \
         whose list and watch requests are first edited by `tweak_list_options` \
         (client-go's `NewFiltered{kind}Informer`). It lists and watches through the \
         clientset's typed client of {kind} objects, as client-go's does."
    ));
    let projected_doc = doc(&format!(
        "The factory's shared informer of the projection `V` of {kind} objects: a struct \
         of your own with only the fields you read (declared with \
         `informer_runtime::projection!(View => {kind})`), decoded straight from the list \
         and watch bytes, cached and indexed instead of whole {kind} objects. One informer \
         per view type, registered as `{name} as <V>` on the first call and listing and \
         watching as the {kind} informer does (the factory's namespace, \
         `tweak_list_options`, resync and transforms apply). Asking for the projection does \
         not build the full {kind} informer."
    ));
    let (ns_param, ns_forward, ns_arg) = if namespaced {
        (
            quote!(namespace: ::std::option::Option<&str>,),
            quote!(namespace,),
            quote!(namespace),
        )
    } else {
        (quote!(), quote!(), quote!(::std::option::Option::None))
    };

    Ok(quote! {
        #informer_doc
        #[derive(Clone)]
        pub struct #informer {
            ask: #rt::InformerAsk<#ty>,
        }

        impl #informer {
            #informer_new_doc
            #[inline]
            pub fn new(factory: #rt::SharedInformerFactoryCore) -> Self {
                Self {
                    ask: #rt::InformerAsk::new(factory, #rt::source::#source::<#ty>()),
                }
            }

            #informer_fn_doc
            #[inline]
            pub fn informer(&self) -> #rt::SharedIndexInformer<#ty> {
                self.ask.informer()
            }

            #lister_fn_doc
            #[inline]
            pub fn lister(&self) -> #lister_path {
                #lister_path::new(self.ask.informer().indexer())
            }

            #projected_doc
            #[inline]
            pub fn projected<V: #rt::Projection<Of = #ty>>(self) -> #rt::ProjectedInformer<V> {
                #projected_body
            }
        }

        #new_doc
        #[inline]
        pub fn #new_fn(
            client: #rt::Client,
            #ns_param
            resync: ::std::time::Duration,
            indexers: #rt::Indexers<#ty>,
        ) -> #rt::SharedIndexInformer<#ty> {
            #new_filtered_fn(client, #ns_forward resync, indexers, ::std::option::Option::None)
        }

        #new_filtered_doc
        #[inline]
        pub fn #new_filtered_fn(
            client: #rt::Client,
            #ns_param
            resync: ::std::time::Duration,
            indexers: #rt::Indexers<#ty>,
            tweak_list_options: ::std::option::Option<#rt::TweakListOptions>,
        ) -> #rt::SharedIndexInformer<#ty> {
            let mut options = #rt::InformerOptions::default().resync(resync).indexers(indexers);
            options.tweak_list_options = tweak_list_options;
            #rt::new_informer(&client, &#rt::source::#source::<#ty>(), #ns_arg, options)
        }
    })
}

/// The `Version` accessor struct of one version.
pub(super) fn version_items(ctx: &Ctx<'_>, shown: &str, version: &ApiVersion) -> TokenStream {
    let rt = &ctx.runtime;
    let struct_doc = doc(&format!(
        "The informers of {shown} in a factory (client-go's `{shown}` `Interface`)."
    ));
    let methods = version.resources.iter().map(|r| {
        let method = ident(&r.method);
        let informer = format_ident!("{}Informer", r.def.kind);
        let d = doc(&format!(
            "The shared informer of {} objects ({}), registered in the factory on the first \
             call (so `start()` and `wait_for_cache_sync()` include it), the same on every \
             later call.",
            r.def.kind,
            gvk_text(r)
        ));
        quote! {
            #d
            #[inline]
            pub fn #method(&self) -> #informer {
                #informer::new(self.factory.clone())
            }
        }
    });
    quote! {
        #struct_doc
        #[derive(Clone)]
        pub struct Version {
            factory: #rt::SharedInformerFactoryCore,
        }

        impl Version {
            /// The accessor over `factory`.
            #[inline]
            pub fn new(factory: #rt::SharedInformerFactoryCore) -> Self {
                Self { factory }
            }

            #(#methods)*
        }
    }
}

/// The `Group` accessor struct of one group.
pub(super) fn group_items(ctx: &Ctx<'_>, group: &ApiGroup) -> TokenStream {
    let rt = &ctx.runtime;
    let shown = if group.name.is_empty() {
        "the core API group"
    } else {
        group.name.as_str()
    };
    let struct_doc = doc(&format!(
        "The informers of {shown} in a factory, by version."
    ));
    let methods = group.versions.iter().map(|v| {
        let name = ident(&v.name);
        let d = doc(&format!("The informers of version {}.", v.name));
        quote! {
            #d
            #[inline]
            pub fn #name(&self) -> #name::Version {
                #name::Version::new(self.factory.clone())
            }
        }
    });
    quote! {
        #struct_doc
        #[derive(Clone)]
        pub struct Group {
            factory: #rt::SharedInformerFactoryCore,
        }

        impl Group {
            /// The accessor over `factory`.
            #[inline]
            pub fn new(factory: #rt::SharedInformerFactoryCore) -> Self {
                Self { factory }
            }

            #(#methods)*
        }
    }
}
