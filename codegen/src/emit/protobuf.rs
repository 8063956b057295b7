//! Protobuf decoders: for one Kubernetes version, an `impl Message` per k8s-openapi struct
//! the [protobuf table](crate::read::protobuf_table) says decodes faithfully. Each is one
//! `match` over field numbers that names the struct's fields and the runtime's `field::` and
//! `codec::` items; the wire handling is the runtime's.

use std::collections::{BTreeMap, BTreeSet};

use proc_macro2::TokenStream;
use quote::{format_ident, quote};

use crate::read::protobuf_table::{rust_path, Codec, FieldDef, MessageDef, ProtobufTable, Store};

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

/// Emits the decoders of Kubernetes `1.<minor>` for the messages in `decodable` (all of
/// [`ProtobufTable::faithful`], or [`ProtobufTable::reached_from`] some resources) as one
/// formatted file; `runtime_path` is the decoding runtime (`::informer_protobuf` or
/// `crate`), `k8s_openapi_path` k8s-openapi's root.
pub fn decoders(
    table: &ProtobufTable,
    minor: u32,
    decodable: &BTreeSet<String>,
    runtime_path: &str,
    k8s_openapi_path: &str,
) -> Result<String, EmitError> {
    let rt = path(runtime_path, "runtime_path")?;
    let k8s = path(k8s_openapi_path, "k8s_openapi_path")?;
    let without_default = table.without_default(minor);
    let impls = decodable
        .iter()
        .filter(|name| !RUNTIME_OWNED.contains(&name.as_str()))
        .map(|name| {
            let message = &table.messages[name];
            let ty = type_path(&k8s, &message.proto);
            let fields = fields_in(message, minor);
            // A Go struct without fields has nothing to match a number against.
            let (number, body) = if fields.is_empty() {
                (quote!(_number), quote!(r.skip(wire)))
            } else {
                (quote!(number), arms(&rt, &k8s, &fields, 0, &quote!(self)))
            };
            let empty = empty(&rt, &k8s, &fields, without_default.contains(name));
            let doc = format!(
                " Decodes `{}` from kube-apiserver's protobuf.",
                message.proto
            );
            quote! {
                #[doc = #doc]
                impl #rt::Message for #ty {
                    fn empty() -> Self {
                        #empty
                    }

                    fn merge_field(
                        &mut self,
                        #number: u32,
                        wire: #rt::WireType,
                        r: &mut #rt::Reader<'_>,
                    ) -> ::core::result::Result<(), #rt::DecodeError> {
                        #body
                    }
                }
            }
        });
    let descriptors = decodable.iter().map(|name| {
        let message = &table.messages[name];
        let ty = type_path(&k8s, &message.proto);
        let fields = fields_in(message, minor);
        let ident = descriptor_ident(name);
        let mut statics = Vec::new();
        descriptor(&rt, &ident, name, &fields, 0, &mut statics);
        let doc = format!(" The fields of `{name}`, for decoding it into a type of your own.");
        quote! {
            #(#statics)*
            #[doc = #doc]
            impl #rt::view::Described for #ty {
                fn descriptor() -> &'static #rt::view::MessageDesc {
                    &#ident
                }
            }
        }
    });
    let tokens = quote!(#(#impls)* #(#descriptors)*);
    let file: syn::File = syn::parse2(tokens).map_err(|source| EmitError::Unparsable {
        module: "protobuf decoders".to_owned(),
        source,
    })?;
    Ok(prettyplease::unparse(&file))
}

/// The body of `Message::empty`: `Default` where k8s-openapi derives it; k8s-openapi's
/// newtype over a JSON value for a Go struct without fields (the table maps none); else the
/// struct field by field, required times and structs without `Default` at Go's zero.
fn empty(
    rt: &TokenStream,
    k8s: &TokenStream,
    fields: &[&FieldDef],
    without_default: bool,
) -> TokenStream {
    if fields.is_empty() {
        return quote!(Self(#rt::codec::empty_object()));
    }
    if !without_default {
        return quote!(::core::default::Default::default());
    }
    let mut seen = BTreeSet::new();
    let inits = fields
        .iter()
        .filter(|f| seen.insert(f.rust_field.as_str()))
        .map(|f| {
            let field = field_ident(&f.rust_field);
            let value = match (f.store, &f.codec) {
                (Store::Value, Codec::Leaf("Time")) => quote!(#rt::codec::zero_time()),
                (Store::Value, Codec::Leaf("MicroTime")) => quote!(#rt::codec::zero_micro_time()),
                (Store::Value, Codec::Message(message)) => {
                    let ty = type_path(k8s, message);
                    quote!(<#ty as #rt::Message>::empty())
                }
                _ => quote!(::core::default::Default::default()),
            };
            quote!(#field: #value)
        });
    quote!(Self { #(#inits),* })
}

/// The fields `message` has in Kubernetes `1.<minor>`.
fn fields_in(message: &MessageDef, minor: u32) -> Vec<&FieldDef> {
    message
        .fields
        .iter()
        .filter(|f| f.versions.contains(&minor))
        .collect()
}

/// `api.core.v1.Pod` → `API_CORE_V1_POD`.
fn descriptor_ident(proto: &str) -> syn::Ident {
    format_ident!("{}", proto.replace('.', "_").to_uppercase())
}

/// The static `ident` describing `fields` at `depth` of their paths (a Go-embedded struct at
/// depth 1 and more), with the statics of the embedded structs it holds pushed first.
fn descriptor(
    rt: &TokenStream,
    ident: &syn::Ident,
    name: &str,
    fields: &[&FieldDef],
    depth: usize,
    statics: &mut Vec<TokenStream>,
) {
    let mut by_number: BTreeMap<u32, Vec<&FieldDef>> = BTreeMap::new();
    for f in fields {
        if let Some(n) = f.numbers.get(depth) {
            by_number.entry(*n).or_default().push(f);
        }
    }
    let entries: Vec<TokenStream> = by_number
        .iter()
        .filter_map(|(number, group)| {
            let first = group.first()?;
            let json = first.proto_names.get(depth).cloned().unwrap_or_default();
            let inlined = group.iter().any(|f| f.numbers.len() > depth + 1);
            let (label, kind) = if inlined {
                let inner = format_ident!("{ident}_{number}");
                descriptor(rt, &inner, "", group, depth + 1, statics);
                (quote!(One), quote!(Inline(&#inner)))
            } else {
                let label = match first.store {
                    Store::Value | Store::Optional | Store::Boxed => quote!(One),
                    Store::OmitEmpty => quote!(OmitEmpty),
                    Store::Repeated | Store::OptionalRepeated => quote!(Repeated),
                    Store::Map | Store::OptionalMap => quote!(Map),
                    Store::ManagedFields => quote!(ManagedFields),
                };
                let kind = match &first.codec {
                    Codec::Leaf(leaf) => {
                        let leaf = format_ident!("{}", leaf);
                        quote!(#leaf)
                    }
                    Codec::Message(message) => {
                        let target = descriptor_ident(message);
                        quote!(Message(&#target))
                    }
                };
                (label, kind)
            };
            let number = proc_macro2::Literal::u32_unsuffixed(*number);
            Some(quote! {
                #rt::view::FieldDesc {
                    number: #number,
                    json: #json,
                    label: #rt::view::Label::#label,
                    kind: #rt::view::Kind::#kind,
                }
            })
        })
        .collect();
    statics.push(quote! {
        static #ident: #rt::view::MessageDesc = #rt::view::MessageDesc {
            name: #name,
            fields: &[#(#entries),*],
        };
    });
}

pub(super) fn field_ident(name: &str) -> TokenStream {
    syn::parse_str::<syn::Ident>(name)
        .map(|i| quote!(#i))
        .unwrap_or_else(|_| {
            let raw = format_ident!("r#{}", name);
            quote!(#raw)
        })
}

pub(super) fn path(value: &str, option: &'static str) -> Result<TokenStream, EmitError> {
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
    let field = field_ident(&f.rust_field);
    let function = format_ident!("{}", f.store.name());
    let generics = match f.store {
        Store::Map | Store::OptionalMap => quote!(<#rt::codec::Str, #codec>),
        _ => quote!(<#codec>),
    };
    quote!(#rt::field::#function::#generics(&mut #receiver.#field, wire, r, #name))
}
