//! A protobuf encoder for building the unit tests' inputs byte by byte, and hand-written
//! decoders of a few Kubernetes messages to decode them with.

use k8s_openapi::api::core::v1::ConfigMap;
use k8s_openapi::apimachinery::pkg::apis::meta::v1::{
    ManagedFieldsEntry, ObjectMeta, Time as MetaTime,
};

use crate::codec::{Bool, Bytes, FieldsV1, Msg, Str, Time, I64};
use crate::error::DecodeError;
use crate::field::{managed_fields, omitempty, optional, optional_map, optional_repeated, value};
use crate::wire::{Message, Reader, WireType};

/// Appends wire items to a buffer.
#[derive(Default)]
pub(crate) struct Enc(Vec<u8>);

impl Enc {
    pub(crate) fn new() -> Self {
        Self::default()
    }

    pub(crate) fn finish(self) -> Vec<u8> {
        self.0
    }

    pub(crate) fn varint(mut self, mut value: u64) -> Self {
        while value >= 0x80 {
            self.0.push((value as u8) | 0x80);
            value >>= 7;
        }
        self.0.push(value as u8);
        self
    }

    pub(crate) fn raw(mut self, bytes: &[u8]) -> Self {
        self.0.extend_from_slice(bytes);
        self
    }

    pub(crate) fn tag(self, number: u32, wire: u8) -> Self {
        self.varint((u64::from(number) << 3) | u64::from(wire))
    }

    pub(crate) fn uint(self, number: u32, value: u64) -> Self {
        self.tag(number, 0).varint(value)
    }

    pub(crate) fn int(self, number: u32, value: i64) -> Self {
        self.uint(number, value as u64)
    }

    pub(crate) fn bytes(self, number: u32, payload: &[u8]) -> Self {
        self.tag(number, 2)
            .varint(payload.len() as u64)
            .raw(payload)
    }

    pub(crate) fn string(self, number: u32, s: &str) -> Self {
        self.bytes(number, s.as_bytes())
    }

    pub(crate) fn double(self, number: u32, value: f64) -> Self {
        self.tag(number, 1).raw(&value.to_bits().to_le_bytes())
    }

    /// A `k8s\0` body: the `runtime.Unknown` envelope around `raw`.
    pub(crate) fn envelope(api_version: &str, kind: &str, raw: &[u8]) -> Vec<u8> {
        let type_meta = Enc::new().string(1, api_version).string(2, kind).finish();
        Enc::new()
            .raw(b"k8s\0")
            .bytes(1, &type_meta)
            .bytes(2, raw)
            .string(3, "")
            .string(4, "")
            .finish()
    }
}

/// A hand-written decoder of part of `core.v1.ConfigMap`, for the envelope, list and watch
/// tests. A newtype, so that it cannot collide with the generated `impl Message for
/// ConfigMap`.
#[derive(Debug, Default, PartialEq)]
pub(crate) struct Cm(pub(crate) ConfigMap);

#[derive(Debug, Default, PartialEq)]
pub(crate) struct Meta(pub(crate) ObjectMeta);

#[derive(Debug, Default, PartialEq)]
pub(crate) struct Managed(pub(crate) ManagedFieldsEntry);

impl Message for Cm {
    fn empty() -> Self {
        Self::default()
    }

    fn merge_field(
        &mut self,
        number: u32,
        wire: WireType,
        r: &mut Reader<'_>,
    ) -> Result<(), DecodeError> {
        let cm = &mut self.0;
        match number {
            1 => {
                let mut meta = Meta(std::mem::take(&mut cm.metadata));
                let result = value::<Msg<Meta>>(&mut meta, wire, r, "metadata");
                cm.metadata = meta.0;
                result
            }
            2 => optional_map::<Str, Str>(&mut cm.data, wire, r, "data"),
            3 => optional_map::<Str, Bytes>(&mut cm.binary_data, wire, r, "binaryData"),
            4 => optional::<Bool>(&mut cm.immutable, wire, r, "immutable"),
            _ => r.skip(wire),
        }
    }
}

impl Message for Meta {
    fn empty() -> Self {
        Self::default()
    }

    fn merge_field(
        &mut self,
        number: u32,
        wire: WireType,
        r: &mut Reader<'_>,
    ) -> Result<(), DecodeError> {
        let m = &mut self.0;
        match number {
            1 => omitempty::<Str>(&mut m.name, wire, r, "name"),
            3 => omitempty::<Str>(&mut m.namespace, wire, r, "namespace"),
            6 => omitempty::<Str>(&mut m.resource_version, wire, r, "resourceVersion"),
            7 => omitempty::<I64>(&mut m.generation, wire, r, "generation"),
            8 => optional::<Time>(&mut m.creation_timestamp, wire, r, "creationTimestamp"),
            11 => optional_map::<Str, Str>(&mut m.labels, wire, r, "labels"),
            14 => optional_repeated::<Str>(&mut m.finalizers, wire, r, "finalizers"),
            17 => {
                let mut managed = m
                    .managed_fields
                    .take()
                    .map(|entries| entries.into_iter().map(Managed).collect());
                let result = managed_fields::<Msg<Managed>>(&mut managed, wire, r, "managedFields");
                m.managed_fields =
                    managed.map(|entries| entries.into_iter().map(|e| e.0).collect());
                result
            }
            _ => r.skip(wire),
        }
    }
}

impl Message for Managed {
    fn empty() -> Self {
        Self::default()
    }

    fn merge_field(
        &mut self,
        number: u32,
        wire: WireType,
        r: &mut Reader<'_>,
    ) -> Result<(), DecodeError> {
        let m = &mut self.0;
        match number {
            1 => omitempty::<Str>(&mut m.manager, wire, r, "manager"),
            2 => omitempty::<Str>(&mut m.operation, wire, r, "operation"),
            4 => optional::<Time>(&mut m.time, wire, r, "time"),
            7 => optional::<FieldsV1>(&mut m.fields_v1, wire, r, "fieldsV1"),
            _ => r.skip(wire),
        }
    }
}

/// A ConfigMap's message: `ns/name` at resourceVersion `rv`, with one data entry.
pub(crate) fn config_map(name: &str, rv: &str, key: &str, value: &str) -> Vec<u8> {
    let meta = Enc::new()
        .string(1, name)
        .string(2, "")
        .string(3, "ns")
        .string(6, rv)
        .bytes(8, &Enc::new().int(1, 1_700_000_000).finish())
        .finish();
    let entry = Enc::new().string(1, key).string(2, value).finish();
    Enc::new().bytes(1, &meta).bytes(2, &entry).finish()
}

/// The `ConfigMap` [`config_map`] encodes.
pub(crate) fn config_map_value(name: &str, rv: &str, key: &str, value: &str) -> Cm {
    Cm(ConfigMap {
        metadata: ObjectMeta {
            name: Some(name.to_owned()),
            namespace: Some("ns".to_owned()),
            resource_version: Some(rv.to_owned()),
            creation_timestamp: Some(MetaTime(
                k8s_openapi::jiff::Timestamp::from_second(1_700_000_000).expect("in range"),
            )),
            ..ObjectMeta::default()
        },
        data: Some([(key.to_owned(), value.to_owned())].into()),
        ..ConfigMap::default()
    })
}
