//! Typed listers: `PodLister` (and `PodNamespaceLister` for namespaced kinds), thin names
//! over the runtime's generic `Lister<K>`.

use proc_macro2::TokenStream;
use quote::{format_ident, quote};

use crate::model::{ApiResource, Scope};

use super::{doc, gvk_text, ident, sanitize_description, Ctx, EmitError};

/// The lister types of one resource.
pub(super) fn resource_items(ctx: &Ctx<'_>, r: &ApiResource) -> Result<TokenStream, EmitError> {
    let rt = &ctx.runtime;
    let ty = ctx.type_path(r)?;
    let link = ctx.type_doc_link(r)?;
    let kind = &r.def.kind;
    let gvk = gvk_text(r);
    let lister = format_ident!("{}Lister", kind);
    let method = ident(&r.method);

    let mut lister_doc = format!(
        "Reads [`{kind}`]({link}) objects ({gvk}) from an informer's cache \
         (client-go's `{kind}Lister`)."
    );
    if let Some(text) = &r.def.doc {
        lister_doc.push_str("\n\n");
        lister_doc.push_str(&sanitize_description(text));
    }
    let lister_doc = doc(&lister_doc);
    let new_doc = doc(&format!(
        "A lister of {kind} objects over `indexer` (usually an informer's)."
    ));
    let list_doc = doc(&format!(
        "Every {kind} ({gvk}) in the cache matching `selector`{}.",
        if r.def.scope == Scope::Namespaced {
            ", in every namespace"
        } else {
            ""
        }
    ));

    let scoped = match r.def.scope {
        Scope::Namespaced => {
            let ns_lister = format_ident!("{}NamespaceLister", kind);
            let ns_doc = doc(&format!(
                "A lister of the {kind} objects ({gvk}) in one namespace."
            ));
            let ns_lister_doc = doc(&format!(
                "Reads [`{kind}`]({link}) objects ({gvk}) of one namespace from an informer's cache \
                 (client-go's `{kind}NamespaceLister`)."
            ));
            let ns_list_doc = doc(&format!(
                "Every {kind} in this namespace matching `selector`."
            ));
            let ns_get_doc = doc(&format!(
                "The {kind} named `name` in this namespace, if cached."
            ));
            quote! {
                impl #lister {
                    #ns_doc
                    pub fn #method(&self, namespace: &str) -> #ns_lister {
                        #ns_lister { lister: self.lister.namespaced(namespace) }
                    }
                }

                #ns_lister_doc
                pub struct #ns_lister {
                    lister: #rt::NamespaceLister<#ty>,
                }

                impl #ns_lister {
                    #ns_list_doc
                    pub fn list(&self, selector: &#rt::Selector) -> ::std::vec::Vec<::std::sync::Arc<#ty>> {
                        self.lister.list(selector)
                    }

                    #ns_get_doc
                    pub fn get(&self, name: &str) -> ::std::option::Option<::std::sync::Arc<#ty>> {
                        self.lister.get(name)
                    }
                }
            }
        }
        Scope::Cluster => {
            let get_doc = doc(&format!("The {kind} named `name`, if cached."));
            quote! {
                impl #lister {
                    #get_doc
                    pub fn get(&self, name: &str) -> ::std::option::Option<::std::sync::Arc<#ty>> {
                        self.lister.get(name)
                    }
                }
            }
        }
    };

    Ok(quote! {
        #lister_doc
        #[derive(Clone)]
        pub struct #lister {
            lister: #rt::Lister<#ty>,
        }

        impl #lister {
            #new_doc
            pub fn new(indexer: #rt::Indexer<#ty>) -> Self {
                Self { lister: #rt::Lister::new(indexer) }
            }

            #list_doc
            pub fn list(&self, selector: &#rt::Selector) -> ::std::vec::Vec<::std::sync::Arc<#ty>> {
                self.lister.list(selector)
            }
        }

        #scoped
    })
}
