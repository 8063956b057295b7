//! The typed clientset (client-gen's counterpart): `Clientset` at the root, per group a
//! `ClientsetGroup` and per version a `ClientsetVersion`, whose accessors name the
//! runtime's `Api<K, S>` for each resource: `clientset.core().v1().pods("shop")` is
//! `Api::<Pod, StatusSubresource>::namespaced(client, "shop")`. `S` says which subresources
//! the resource has, so `update_status` exists only where the server serves `/status`.
//! The generated code only names types; every request is the runtime's.

use proc_macro2::TokenStream;
use quote::quote;

use crate::model::{escape_ident, Api, ApiGroup, ApiResource, ApiVersion, Scope};

use super::{doc, gvk_text, ident, Ctx, EmitError};

/// `Api<K, S>` of the resource, `S` the marker of its subresources.
pub(super) fn api_type(ctx: &Ctx<'_>, r: &ApiResource) -> Result<TokenStream, EmitError> {
    let rt = &ctx.runtime;
    let ty = ctx.type_path(r)?;
    let marker = match (r.def.subresources.status, r.def.subresources.scale) {
        (false, false) => quote!(NoSubresources),
        (true, false) => quote!(StatusSubresource),
        (false, true) => quote!(ScaleSubresource),
        (true, true) => quote!(StatusAndScale),
    };
    Ok(quote!(#rt::api::Api<#ty, #rt::api::#marker>))
}

/// What the resource's typed client offers beyond the verbs, for docs.
fn subresource_note(r: &ApiResource) -> &'static str {
    match (r.def.subresources.status, r.def.subresources.scale) {
        (false, false) => "No status or scale subresource.",
        (true, false) => {
            "With the status subresource (`get_status`, `update_status`, `patch_status`)."
        }
        (false, true) => "With the scale subresource (`get_scale`, `update_scale`, `patch_scale`).",
        (true, true) => {
            "With the status and scale subresources (`get_status`, `update_status`, \
             `patch_status`, `get_scale`, `update_scale`, `patch_scale`)."
        }
    }
}

/// The name of the all-namespaces accessor of a namespaced resource: `pods_all`.
fn all_namespaces_method(r: &ApiResource) -> String {
    format!("{}_all", r.method)
}

/// The `Clientset` struct.
pub(super) fn root_items(ctx: &Ctx<'_>, api: &Api) -> TokenStream {
    let rt = &ctx.runtime;
    let groups = api.groups.iter().map(|g| {
        let name = ident(&g.module);
        let shown = if g.name.is_empty() {
            "the core API group (`\"\"`)".to_owned()
        } else {
            format!("`{}`", g.name)
        };
        let d = doc(&format!("The typed clients of {shown}."));
        quote! {
            #d
            #[inline]
            pub fn #name(&self) -> #name::ClientsetGroup {
                #name::ClientsetGroup::new(self.client.clone())
            }
        }
    });
    let source = &ctx.options.source_description;
    let struct_doc = doc(&format!(
        "Typed clients of every resource of {source}, by group and version \
         (client-go's `Clientset`): `clientset.<group>().<version>().<resources>(namespace)` \
         is the runtime's `Api` of that resource in that namespace, \
         `<resources>_all()` the same in every namespace, and `<resources>()` the `Api` of a \
         cluster-scoped resource. Subresource methods (`update_status`, `get_scale`, ...) \
         exist only where the resource has the subresource. Cheap to clone."
    ));
    let example = example_doc(ctx, api);
    quote! {
        #struct_doc
        #example
        #[derive(Clone)]
        pub struct Clientset {
            client: #rt::Client,
        }

        impl Clientset {
            /// The clientset over `client` (its server, credentials and default namespace).
            #[inline]
            pub fn new(client: #rt::Client) -> Self {
                Self { client }
            }

            #(#groups)*
        }
    }
}

/// A `no_run` example reading the first resource of `api`, naming the clientset by the
/// path of the module the output is included in (`module_path!()`), so it compiles
/// wherever that module is public. Empty when `api` has no resources.
fn example_doc(ctx: &Ctx<'_>, api: &Api) -> TokenStream {
    let Some((g, v, r)) = api.resources().next() else {
        return quote!();
    };
    let rt = &ctx.options.runtime_path;
    let method = escape_ident(&r.method);
    let accessor = match r.def.scope {
        Scope::Namespaced => format!("{method}(\"default\")"),
        Scope::Cluster => format!("{method}()"),
    };
    let head = " ```no_run".to_owned();
    let lines = [
        format!(
            " # async fn run(client: {rt}::Client) -> ::std::result::Result<(), {rt}::Error> {{"
        ),
        " let clientset = Clientset::new(client);".to_owned(),
        format!(
            " let {method} = clientset.{}().{}().{accessor};",
            escape_ident(&g.module),
            escape_ident(&v.name)
        ),
        format!(" let listed = {method}.list(&{rt}::ListOptions::default()).await?;"),
        format!(" match {method}.get(\"example\").await {{"),
        "     Ok(found) => println!(\"{:?}\", found.metadata.name),".to_owned(),
        "     Err(e) if e.is_not_found() => println!(\"not there\"),".to_owned(),
        "     Err(e) => return Err(e),".to_owned(),
        " }".to_owned(),
        " # let _ = listed;".to_owned(),
        " # Ok(()) }".to_owned(),
        " ```".to_owned(),
    ];
    quote! {
        #[doc = ""]
        #[doc = #head]
        #[doc = concat!(" use ", module_path!(), "::Clientset;")]
        #(#[doc = #lines])*
    }
}

/// The `ClientsetGroup` accessor struct of one group.
pub(super) fn group_items(ctx: &Ctx<'_>, group: &ApiGroup) -> TokenStream {
    let rt = &ctx.runtime;
    let shown = if group.name.is_empty() {
        "the core API group"
    } else {
        group.name.as_str()
    };
    let struct_doc = doc(&format!("The typed clients of {shown}, by version."));
    let methods = group.versions.iter().map(|v| {
        let name = ident(&v.name);
        let d = doc(&format!("The typed clients of version {}.", v.name));
        quote! {
            #d
            #[inline]
            pub fn #name(&self) -> #name::ClientsetVersion {
                #name::ClientsetVersion::new(self.client.clone())
            }
        }
    });
    quote! {
        #struct_doc
        #[derive(Clone)]
        pub struct ClientsetGroup {
            client: #rt::Client,
        }

        impl ClientsetGroup {
            /// The accessor over `client`.
            #[inline]
            pub fn new(client: #rt::Client) -> Self {
                Self { client }
            }

            #(#methods)*
        }
    }
}

/// The `ClientsetVersion` accessor struct of one version.
pub(super) fn version_items(
    ctx: &Ctx<'_>,
    shown: &str,
    version: &ApiVersion,
) -> Result<TokenStream, EmitError> {
    let rt = &ctx.runtime;
    let struct_doc = doc(&format!(
        "The typed clients of {shown}, one accessor per resource."
    ));
    let mut methods = Vec::with_capacity(version.resources.len());
    for r in &version.resources {
        methods.push(resource_methods(ctx, version, r)?);
    }
    Ok(quote! {
        #struct_doc
        #[derive(Clone)]
        pub struct ClientsetVersion {
            client: #rt::Client,
        }

        impl ClientsetVersion {
            /// The accessor over `client`.
            #[inline]
            pub fn new(client: #rt::Client) -> Self {
                Self { client }
            }

            #(#methods)*
        }
    })
}

/// `pods(namespace)` and `pods_all()` of a namespaced resource, `nodes()` of a
/// cluster-scoped one.
fn resource_methods(
    ctx: &Ctx<'_>,
    version: &ApiVersion,
    r: &ApiResource,
) -> Result<TokenStream, EmitError> {
    let rt = &ctx.runtime;
    let api = api_type(ctx, r)?;
    let link = ctx.type_doc_link(r)?;
    let kind = &r.def.kind;
    let gvk = gvk_text(r);
    let note = subresource_note(r);
    let method = ident(&r.method);
    // Built-ins informer-protobuf decodes read kube-apiserver's protobuf, as their informers do.
    let protobuf = if r.def.protobuf {
        quote!(.with_protobuf(#rt::protobuf::decoders()))
    } else {
        quote!()
    };
    Ok(match r.def.scope {
        Scope::Namespaced => {
            let all_name = all_namespaces_method(r);
            if let Some(other) = version.resources.iter().find(|o| o.method == all_name) {
                return Err(EmitError::AccessorClash {
                    resource: gvk,
                    accessor: all_name,
                    other: gvk_text(other),
                });
            }
            let all = ident(&all_name);
            let d = doc(&format!(
                "The typed client of [`{kind}`]({link}) objects ({gvk}) in `namespace`. \
                 {note}"
            ));
            let all_doc = doc(&format!(
                "The typed client of [`{kind}`]({link}) objects ({gvk}) in every namespace: \
                 list, watch and delete_collection span all namespaces, create and update take \
                 the object's namespace, by-name calls need [`Self::{}`]. {note}",
                r.method
            ));
            quote! {
                #d
                #[inline]
                pub fn #method(&self, namespace: &str) -> #api {
                    #rt::api::Api::namespaced(self.client.clone(), namespace) #protobuf
                }

                #all_doc
                #[inline]
                pub fn #all(&self) -> #api {
                    #rt::api::Api::all(self.client.clone()) #protobuf
                }
            }
        }
        Scope::Cluster => {
            let d = doc(&format!(
                "The typed client of [`{kind}`]({link}) objects ({gvk}), cluster-scoped. \
                 {note}"
            ));
            quote! {
                #d
                #[inline]
                pub fn #method(&self) -> #api {
                    #rt::api::Api::all(self.client.clone()) #protobuf
                }
            }
        }
    })
}
