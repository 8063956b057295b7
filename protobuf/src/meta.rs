//! Decoders of the `meta.v1` messages the list and watch decoders need themselves, written by
//! hand because they must exist in every Kubernetes version: the generator leaves a struct
//! out where k8s-openapi has a field the protobuf table lacks (`ListMeta::shard_info` in
//! 1.37), and informer-gen's `emit::protobuf::RUNTIME_OWNED` skips these four.

use k8s_openapi::apimachinery::pkg::apis::meta::v1::{
    ListMeta, Status, StatusCause, StatusDetails,
};

use crate::codec::{Msg, Str, I32, I64};
use crate::error::DecodeError;
use crate::field::{omitempty, optional, optional_repeated, value};
use crate::wire::{Message, Reader, WireType};

impl Message for ListMeta {
    fn empty() -> Self {
        Self::default()
    }

    fn merge_field(
        &mut self,
        number: u32,
        wire: WireType,
        r: &mut Reader<'_>,
    ) -> Result<(), DecodeError> {
        match number {
            1 => omitempty::<Str>(&mut self.self_link, wire, r, "selfLink"),
            2 => omitempty::<Str>(&mut self.resource_version, wire, r, "resourceVersion"),
            3 => omitempty::<Str>(&mut self.continue_, wire, r, "continue"),
            4 => optional::<I64>(
                &mut self.remaining_item_count,
                wire,
                r,
                "remainingItemCount",
            ),
            _ => r.skip(wire),
        }
    }
}

impl Message for Status {
    fn empty() -> Self {
        Self::default()
    }

    fn merge_field(
        &mut self,
        number: u32,
        wire: WireType,
        r: &mut Reader<'_>,
    ) -> Result<(), DecodeError> {
        match number {
            1 => value::<Msg<ListMeta>>(&mut self.metadata, wire, r, "metadata"),
            2 => omitempty::<Str>(&mut self.status, wire, r, "status"),
            3 => omitempty::<Str>(&mut self.message, wire, r, "message"),
            4 => omitempty::<Str>(&mut self.reason, wire, r, "reason"),
            5 => optional::<Msg<StatusDetails>>(&mut self.details, wire, r, "details"),
            6 => omitempty::<I32>(&mut self.code, wire, r, "code"),
            _ => r.skip(wire),
        }
    }
}

impl Message for StatusDetails {
    fn empty() -> Self {
        Self::default()
    }

    fn merge_field(
        &mut self,
        number: u32,
        wire: WireType,
        r: &mut Reader<'_>,
    ) -> Result<(), DecodeError> {
        match number {
            1 => omitempty::<Str>(&mut self.name, wire, r, "name"),
            2 => omitempty::<Str>(&mut self.group, wire, r, "group"),
            3 => omitempty::<Str>(&mut self.kind, wire, r, "kind"),
            4 => optional_repeated::<Msg<StatusCause>>(&mut self.causes, wire, r, "causes"),
            5 => omitempty::<I32>(&mut self.retry_after_seconds, wire, r, "retryAfterSeconds"),
            6 => omitempty::<Str>(&mut self.uid, wire, r, "uid"),
            _ => r.skip(wire),
        }
    }
}

impl Message for StatusCause {
    fn empty() -> Self {
        Self::default()
    }

    fn merge_field(
        &mut self,
        number: u32,
        wire: WireType,
        r: &mut Reader<'_>,
    ) -> Result<(), DecodeError> {
        match number {
            1 => omitempty::<Str>(&mut self.reason, wire, r, "reason"),
            2 => omitempty::<Str>(&mut self.message, wire, r, "message"),
            3 => omitempty::<Str>(&mut self.field, wire, r, "field"),
            _ => r.skip(wire),
        }
    }
}
