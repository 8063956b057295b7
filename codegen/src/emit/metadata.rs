//! Metadata-only accessors: the `MetadataGroups` extension trait of the runtime's
//! `MetadataSharedInformerFactory`, with per group and version the `MetadataGroup` and
//! `MetadataVersion` structs, so `metadata_factory.core().v1().pods()` is the factory's
//! `typed::<Pod>()` informer (`PartialObjectMeta<Pod>` objects).
//!
//! A trait rather than a generated factory type: every generated crate (built-ins, each
//! CRD crate) adds its groups to the one runtime factory, so their metadata informers
//! share a factory and start, sync and shut down together.

use proc_macro2::TokenStream;
use quote::quote;

use crate::model::{Api, ApiGroup, ApiVersion};

use super::{doc, gvk_text, ident, Ctx, EmitError};

/// The `MetadataGroups` trait and its impl for the runtime's factory.
pub(super) fn root_items(ctx: &Ctx<'_>, api: &Api) -> TokenStream {
    let rt = &ctx.runtime;
    let (decls, impls): (Vec<_>, Vec<_>) = api
        .groups
        .iter()
        .map(|g| {
            let name = ident(&g.module);
            let shown = if g.name.is_empty() {
                "the core API group (`\"\"`)".to_owned()
            } else {
                format!("`{}`", g.name)
            };
            let d = doc(&format!("The metadata-only informers of {shown}."));
            let decl = quote! {
                #d
                fn #name(&self) -> #name::MetadataGroup;
            };
            let imp = quote! {
                #[inline]
                fn #name(&self) -> #name::MetadataGroup {
                    #name::MetadataGroup::new(self.clone())
                }
            };
            (decl, imp)
        })
        .unzip();
    let source = &ctx.options.source_description;
    let trait_doc = doc(&format!(
        "Metadata-only informers of every resource of {source}, by group and version: \
         `metadata_factory.<group>().<version>().<resources>()` is the factory's \
         `typed::<Kind>()` informer, caching only each object's `ObjectMeta` \
         (`PartialObjectMeta<Kind>`), the same informer on every call.\n\n\
         Implemented for the runtime's `MetadataSharedInformerFactory`; bring it into scope \
         to use the accessors."
    ));
    quote! {
        #trait_doc
        pub trait MetadataGroups {
            #(#decls)*
        }

        impl MetadataGroups for #rt::MetadataSharedInformerFactory {
            #(#impls)*
        }
    }
}

/// The `MetadataGroup` accessor struct of one group.
pub(super) fn group_items(ctx: &Ctx<'_>, group: &ApiGroup) -> TokenStream {
    let rt = &ctx.runtime;
    let shown = if group.name.is_empty() {
        "the core API group"
    } else {
        group.name.as_str()
    };
    let struct_doc = doc(&format!(
        "The metadata-only informers of {shown} in a `MetadataSharedInformerFactory`, \
         by version."
    ));
    let methods = group.versions.iter().map(|v| {
        let name = ident(&v.name);
        let d = doc(&format!(
            "The metadata-only informers of version {}.",
            v.name
        ));
        quote! {
            #d
            #[inline]
            pub fn #name(&self) -> #name::MetadataVersion {
                #name::MetadataVersion::new(self.factory.clone())
            }
        }
    });
    quote! {
        #struct_doc
        #[derive(Clone, Debug)]
        pub struct MetadataGroup {
            factory: #rt::MetadataSharedInformerFactory,
        }

        impl MetadataGroup {
            /// The accessor over `factory`.
            #[inline]
            pub fn new(factory: #rt::MetadataSharedInformerFactory) -> Self {
                Self { factory }
            }

            #(#methods)*
        }
    }
}

/// The `MetadataVersion` accessor struct of one version.
pub(super) fn version_items(
    ctx: &Ctx<'_>,
    shown: &str,
    version: &ApiVersion,
) -> Result<TokenStream, EmitError> {
    let rt = &ctx.runtime;
    let struct_doc = doc(&format!(
        "The metadata-only informers of {shown} in a `MetadataSharedInformerFactory`."
    ));
    let methods = version
        .resources
        .iter()
        .map(|r| {
            let method = ident(&r.method);
            let ty = ctx.type_path(r)?;
            let link = ctx.type_doc_link(r)?;
            let kind = &r.def.kind;
            let d = doc(&format!(
                "The metadata-only informer of [`{kind}`]({link}) objects ({}): \
                 `PartialObjectMeta<{kind}>`, made on the first call, the same on every \
                 later call (`metadata::typed::<{kind}>()` in the factory).",
                gvk_text(r)
            ));
            Ok(quote! {
                #d
                #[inline]
                pub fn #method(&self) -> #rt::metadata::MetadataInformer<#ty> {
                    #rt::dynamic::ResourceInformer::from_factory(
                        #rt::InformerFactory::factory_core(&self.factory),
                        #rt::metadata::typed::<#ty>(),
                    )
                }
            })
        })
        .collect::<Result<Vec<_>, EmitError>>()?;
    Ok(quote! {
        #struct_doc
        #[derive(Clone, Debug)]
        pub struct MetadataVersion {
            factory: #rt::MetadataSharedInformerFactory,
        }

        impl MetadataVersion {
            /// The accessor over `factory`.
            #[inline]
            pub fn new(factory: #rt::MetadataSharedInformerFactory) -> Self {
                Self { factory }
            }

            #(#methods)*
        }
    })
}
