//! Decoding kube-apiserver's protobuf (`application/vnd.kubernetes.protobuf`) straight into
//! [k8s-openapi] types: the runtime the generated per-message decoders call.
//!
//! Start from [`decode_object`], [`decode_list`] or, for a watch, [`FrameReader`] with
//! [`decode_watch_event`]. They need a [`Message`] implementation of the object's type, which
//! `informer-gen` generates from Kubernetes' `.proto` files: each generated
//! [`Message::merge_field`] dispatches on the field number to a function of [`field`] (how the
//! Rust field stores values) with a [`codec`] (how the proto type is read).
//!
//! What comes out is what decoding the same object's JSON would give: Go writes zero values in
//! protobuf that its JSON omits, keeps only seconds of a `Time`, prints a `Duration` as a
//! string, and the codecs and field functions undo each of these.
//!
//! The crate's cargo features choose which resources have decoders: every built-in one by
//! default; without default features, those of the API groups named (`core`, `apps`, …, as
//! `informers` names them), which is how a binary watching Pods builds only the decoders it
//! can use.
//!
//! [k8s-openapi]: https://docs.rs/k8s-openapi

#![deny(missing_docs)]
#![forbid(unsafe_code)]

pub mod codec;
mod envelope;
mod error;
pub mod field;
mod generated;
mod list;
mod meta;
pub mod view;
mod watch;
mod wire;

#[cfg(test)]
mod testutil;

pub use codec::Codec;
pub use envelope::{decode_object, TypeMeta};
pub use error::{DecodeError, ErrorKind};
pub use list::{decode_list, split_list, List, ListParts};
pub use watch::{decode_watch_event, FrameReader, WatchEvent};
pub use wire::{
    decode_message, Decode, DecodeOptions, Message, Reader, Shared, WireType, MAX_DEPTH,
};
