//! The top-level `SharedInformerFactory`: a typed wrapper over the runtime's
//! `SharedInformerFactoryCore` with group accessors and `for_resource`.

use proc_macro2::TokenStream;
use quote::quote;

use crate::model::Api;

use super::{ident, Ctx};

/// The factory struct and its impls.
pub(super) fn factory_items(ctx: &Ctx<'_>, api: &Api) -> TokenStream {
    let rt = &ctx.runtime;
    let groups = api.groups.iter().map(|g| {
        let name = ident(&g.module);
        let shown = if g.name.is_empty() {
            "the core API group (`\"\"`)".to_owned()
        } else {
            format!("`{}`", g.name)
        };
        let d = super::doc(&format!("The informers of {shown}."));
        quote! {
            #d
            #[inline]
            pub fn #name(&self) -> #name::Group {
                #name::Group::new(self.factory.clone())
            }
        }
    });
    let arms = api.resources().map(|(g, v, r)| {
        let group = &r.def.group;
        let version = &r.def.version;
        let plural = &r.def.plural;
        let g = ident(&g.module);
        let v = ident(&v.name);
        let m = ident(&r.method);
        quote! {
            (#group, #version, #plural) => ::std::result::Result::Ok(
                #rt::GenericInformer::new(gvr.clone(), self.#g().#v().#m().informer())
            ),
        }
    });
    let unknown =
        quote!(::std::result::Result::Err(#rt::generic::UnknownResource { gvr: gvr.clone() }));
    // A match with only the fallback arm would trip clippy when no group is generated.
    let lookup = if api.is_empty() {
        unknown
    } else {
        quote! {
            match (gvr.group.as_str(), gvr.version.as_str(), gvr.resource.as_str()) {
                #(#arms)*
                _ => #unknown,
            }
        }
    };
    let source = &ctx.options.source_description;
    let factory_doc = super::doc(&format!(
        "Shared informers of every resource of {source}: one informer per type, started, \
         synced and shut down together (client-go's `SharedInformerFactory`)."
    ));
    quote! {
        #factory_doc
        #[derive(Clone)]
        pub struct SharedInformerFactory {
            factory: #rt::SharedInformerFactoryCore,
        }

        impl ::std::convert::From<#rt::SharedInformerFactoryCore> for SharedInformerFactory {
            fn from(factory: #rt::SharedInformerFactoryCore) -> Self {
                Self { factory }
            }
        }

        /// `start()`, `wait_for_cache_sync()`, `wait_for_cache_sync_timeout()` and
        /// `shutdown()`, as every factory of the runtime has them.
        impl #rt::InformerFactory for SharedInformerFactory {
            #[inline]
            fn factory_core(&self) -> &#rt::SharedInformerFactoryCore {
                &self.factory
            }
        }

        impl SharedInformerFactory {
            /// A builder for a factory with options: namespace, tweak_list_options,
            /// default and per-type resync, transform.
            #[inline]
            pub fn builder(client: #rt::Client) -> #rt::FactoryBuilder<Self> {
                #rt::FactoryBuilder::new(client)
            }

            /// A factory with default options: every namespace, no resync.
            #[inline]
            pub fn new(client: #rt::Client) -> Self {
                Self::builder(client).build()
            }

            /// The factory's shared informer of `source`, the same on every call (client-go's
            /// `InformerFor`): for types this factory does not generate, e.g. a kube-rs type's
            /// `informer_runtime::kube::resource::<Widget>()`.
            #[inline]
            pub fn informer_for<K: #rt::Object>(
                &self,
                source: impl #rt::InformerSource<K>,
            ) -> #rt::SharedIndexInformer<K> {
                self.factory.informer_for(source)
            }

            /// The shared informer of the resource `gvr`, type-erased
            /// (client-go's `ForResource`).
            #[inline]
            pub fn for_resource(
                &self,
                gvr: &#rt::GroupVersionResource,
            ) -> ::std::result::Result<#rt::GenericInformer, #rt::generic::UnknownResource> {
                #lookup
            }

            #(#groups)*
        }
    }
}
