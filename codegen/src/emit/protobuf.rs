//! Protobuf decoders: for one Kubernetes version, an `impl Message` per k8s-openapi struct
//! the [protobuf table](crate::read::protobuf_table) says decodes faithfully. Each is one
//! `match` over field numbers that names the struct's fields and the runtime's `field::` and
//! `codec::` items; the wire handling is the runtime's.

use std::collections::BTreeMap;

use proc_macro2::TokenStream;
use quote::{format_ident, quote};

use crate::read::protobuf_table::{rust_path, Codec, FieldDef, ProtobufTable, Store};

use super::EmitError;

/// Messages the runtime decodes itself: the list and watch envelopes need them in every
/// Kubernetes version, including those whose k8s-openapi struct has a field the protobuf
/// table lacks (`ListMeta::shard_info` in 1.37).
pub const RUNTIME_OWNED: &[&str] = &[
    "apimachinery.pkg.apis.meta.v1.ListMeta",
    "apimachinery.pkg.apis.meta.v1.Status",
    "apimachinery.pkg.apis.meta.v1.StatusCause",
    "apimachinery.pkg.apis.meta.v1.StatusDetails",
];

/// Emits the decoders of Kubernetes `1.<minor>` as one formatted file; `runtime_path` is the
/// decoding runtime (`::informer_protobuf` or `crate`), `k8s_openapi_path` k8s-openapi's root.
pub fn decoders(
    table: &ProtobufTable,
    minor: u32,
    runtime_path: &str,
    k8s_openapi_path: &str,
) -> Result<String, EmitError> {
    let rt = path(runtime_path, "runtime_path")?;
    let k8s = path(k8s_openapi_path, "k8s_openapi_path")?;
    let decodable = table.decodable(minor);
    let impls = decodable
        .iter()
        .filter(|name| !RUNTIME_OWNED.contains(&name.as_str()))
        .map(|name| {
            let message = &table.messages[name];
            let ty = type_path(&k8s, &message.proto);
            let fields: Vec<&FieldDef> = message
                .fields
                .iter()
                .filter(|f| f.versions.contains(&minor))
                .collect();
            let body = arms(&rt, &k8s, &fields, 0, &quote!(self));
            let doc = format!(
                " Decodes `{}` from kube-apiserver's protobuf.",
                message.proto
            );
            quote! {
                #[doc = #doc]
                impl #rt::Message for #ty {
                    fn merge_field(
                        &mut self,
                        number: u32,
                        wire: #rt::WireType,
                        r: &mut #rt::Reader<'_>,
                    ) -> ::core::result::Result<(), #rt::DecodeError> {
                        #body
                    }
                }
            }
        });
    let tokens = quote!(#(#impls)*);
    let file: syn::File = syn::parse2(tokens).map_err(|source| EmitError::Unparsable {
        module: "protobuf decoders".to_owned(),
        source,
    })?;
    Ok(prettyplease::unparse(&file))
}

fn path(value: &str, option: &'static str) -> Result<TokenStream, EmitError> {
    syn::parse_str::<syn::Path>(value)
        .map(|p| quote!(#p))
        .map_err(|_| EmitError::BadPath {
            option,
            value: value.to_owned(),
        })
}

/// `api.core.v1.Pod` → `<k8s>::api::core::v1::Pod`.
fn type_path(k8s: &TokenStream, proto: &str) -> TokenStream {
    let segments = rust_path(proto)
        .split("::")
        .map(|s| format_ident!("{}", s))
        .collect::<Vec<_>>();
    quote!(#k8s #(:: #segments)*)
}

/// The `match` over the field numbers at `depth` of `fields`' paths, storing into
/// `receiver` (`self`, or `this` inside an inlined struct).
fn arms(
    rt: &TokenStream,
    k8s: &TokenStream,
    fields: &[&FieldDef],
    depth: usize,
    receiver: &TokenStream,
) -> TokenStream {
    let mut by_number: BTreeMap<u32, Vec<&FieldDef>> = BTreeMap::new();
    for f in fields {
        if let Some(n) = f.numbers.get(depth) {
            by_number.entry(*n).or_default().push(f);
        }
    }
    let arms = by_number.iter().map(|(number, group)| {
        let number = proc_macro2::Literal::u32_unsuffixed(*number);
        let inlined = group.iter().any(|f| f.numbers.len() > depth + 1);
        let name = group
            .first()
            .and_then(|f| f.proto_names.get(depth))
            .cloned()
            .unwrap_or_default();
        if inlined {
            let inner = arms(rt, k8s, group, depth + 1, &quote!(this));
            quote! {
                #number => #rt::field::inline(#receiver, wire, r, #name, |this, number, wire, r| {
                    #inner
                }),
            }
        } else {
            let mut stores = group.iter().map(|f| store(rt, k8s, f, receiver, &name));
            let first = stores.next().unwrap_or_default();
            quote!(#number => #first,)
        }
    });
    quote! {
        match number {
            #(#arms)*
            _ => r.skip(wire),
        }
    }
}

fn store(
    rt: &TokenStream,
    k8s: &TokenStream,
    f: &FieldDef,
    receiver: &TokenStream,
    name: &str,
) -> TokenStream {
    let codec = match &f.codec {
        Codec::Leaf(leaf) => {
            let leaf = format_ident!("{}", leaf);
            quote!(#rt::codec::#leaf)
        }
        Codec::Message(message) => {
            let ty = type_path(k8s, message);
            quote!(#rt::codec::Msg<#ty>)
        }
    };
    let field = syn::parse_str::<syn::Ident>(&f.rust_field)
        .map(|i| quote!(#i))
        .unwrap_or_else(|_| {
            let raw = format_ident!("r#{}", f.rust_field);
            quote!(#raw)
        });
    let function = format_ident!("{}", f.store.name());
    let generics = match f.store {
        Store::Map | Store::OptionalMap => quote!(<#rt::codec::Str, #codec>),
        _ => quote!(<#codec>),
    };
    quote!(#rt::field::#function::#generics(&mut #receiver.#field, wire, r, #name))
}
