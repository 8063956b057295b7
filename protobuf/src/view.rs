//! Protobuf into any serde type: a [`View`] decodes a message through its [descriptor]
//! (field numbers, JSON names, proto types; generated per message like the decoders) as a
//! serde `Deserializer` that presents the message as its JSON would read, so a struct of your
//! own with only the fields you need (a typed projection) decodes straight from the wire.
//! Fields the struct does not name are skipped without being decoded, `managedFields` too
//! unless [`DecodeOptions::keep_managed_fields`](crate::DecodeOptions) asks for them.
//!
//! Go writes the values of a repeated field one after another, and each field once; values of
//! one field written apart would reach the view as the field twice, which a derived
//! `Deserialize` refuses (an error, never a wrong value).
//!
//! Leaves read as their JSON does: scalars directly; `Time`, `Quantity`, `IntOrString`,
//! `bytes` and the other codec-read types through the value k8s-openapi's JSON form gives
//! them; a Go zero the JSON omits (`omitempty`) is left out as the JSON leaves it out.
//!
//! ```
//! use informer_protobuf::view::View;
//! use informer_protobuf::{decode_object, DecodeOptions};
//! use k8s_openapi::api::core::v1::ConfigMap;
//!
//! #[derive(serde::Deserialize)]
//! struct Keys {
//!     data: Option<std::collections::BTreeMap<String, String>>,
//! }
//!
//! # fn run(body: &[u8]) -> Result<(), informer_protobuf::DecodeError> {
//! let (_, keys) = decode_object::<View<Keys, ConfigMap>>(body, DecodeOptions::default())?;
//! # Ok(())
//! # }
//! ```
//!
//! [descriptor]: MessageDesc

use std::fmt;
use std::marker::PhantomData;

use serde::de::{self, DeserializeOwned, DeserializeSeed, IntoDeserializer, Visitor};

use crate::codec::{self, Codec};
use crate::error::{DecodeError, ErrorKind};
use crate::field::check_wire;
use crate::wire::{Decode, Reader, WireType};

/// The fields of one message, sorted by number.
#[derive(Debug)]
pub struct MessageDesc {
    /// The full proto name (`api.core.v1.Pod`), empty for a Go-embedded struct.
    pub name: &'static str,
    /// The fields, by ascending number.
    pub fields: &'static [FieldDesc],
}

/// One field of a message.
#[derive(Debug)]
pub struct FieldDesc {
    /// The field number.
    pub number: u32,
    /// The field's JSON (and proto) name.
    pub json: &'static str,
    /// How values repeat.
    pub label: Label,
    /// The proto type.
    pub kind: Kind,
}

/// How a field's values occur.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Label {
    /// At most one value; present on the wire is present in the JSON.
    One,
    /// A Go non-pointer scalar tagged `omitempty`: its zero is written in protobuf but not in
    /// JSON, so it is left out.
    OmitEmpty,
    /// A list.
    Repeated,
    /// A map with string keys.
    Map,
    /// `metadata.managedFields`: a list, skipped unless the options keep it.
    ManagedFields,
}

/// A field's proto type.
#[derive(Debug, Clone, Copy)]
pub enum Kind {
    /// `string`.
    Str,
    /// `int32`.
    I32,
    /// `int64`.
    I64,
    /// `bool`.
    Bool,
    /// `double`.
    F64,
    /// `bytes` (base64 in JSON).
    Bytes,
    /// `resource.Quantity`.
    Quantity,
    /// `intstr.IntOrString`.
    IntOrString,
    /// `meta.v1.Time`.
    Time,
    /// `meta.v1.MicroTime`.
    MicroTime,
    /// `meta.v1.Duration`.
    Duration,
    /// `runtime.RawExtension`.
    RawExtension,
    /// `meta.v1.FieldsV1`.
    FieldsV1,
    /// apiextensions' `JSON`.
    Json,
    /// A message of one repeated string (`{1: items}`), a list in JSON.
    StringList,
    /// Another message.
    Message(&'static MessageDesc),
    /// A Go-embedded struct, whose fields JSON flattens into the enclosing object.
    Inline(&'static MessageDesc),
}

impl Kind {
    fn wire(self) -> WireType {
        match self {
            Kind::I32 | Kind::I64 | Kind::Bool => WireType::Varint,
            Kind::F64 => WireType::Fixed64,
            _ => WireType::Len,
        }
    }
}

/// The descriptor of a message type, generated for every type informer-protobuf decodes.
pub trait Described {
    /// The type's message descriptor.
    fn descriptor() -> &'static MessageDesc;
}

/// Decodes a message of `Of` into `V`, any type that deserializes from `Of`'s JSON: pass it
/// where a [`Decode`] goes (`decode_list::<View<PodView, Pod>>`).
pub struct View<V, Of>(PhantomData<fn() -> (V, Of)>);

impl<V: DeserializeOwned, Of: Described> Decode for View<V, Of> {
    type Value = V;
    fn decode(r: &mut Reader<'_>) -> Result<V, DecodeError> {
        let start = r.offset();
        V::deserialize(MessageDe {
            r: r.clone(),
            desc: Of::descriptor(),
        })
        .map_err(|e| with_offset(e, start))
    }
}

impl de::Error for DecodeError {
    fn custom<T: fmt::Display>(msg: T) -> Self {
        // The offset is set by the field that failed (see `at_field`).
        DecodeError::new(ErrorKind::InvalidValue(msg.to_string()), usize::MAX)
    }
}

/// Completes an error from a serde visitor (which knows no offsets) with `start`, where the
/// value it was given starts.
fn with_offset(e: DecodeError, start: usize) -> DecodeError {
    if e.offset() == usize::MAX {
        e.with_offset(start)
    } else {
        e
    }
}

fn at_field(e: DecodeError, start: usize, name: &'static str) -> DecodeError {
    with_offset(e, start).in_field(name)
}

/// A message as a JSON object.
struct MessageDe<'a> {
    r: Reader<'a>,
    desc: &'static MessageDesc,
}

impl<'de> de::Deserializer<'de> for MessageDe<'_> {
    type Error = DecodeError;

    fn deserialize_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, DecodeError> {
        visitor.visit_map(Fields {
            stack: vec![(self.r, self.desc)],
            pending: None,
        })
    }

    fn deserialize_option<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, DecodeError> {
        visitor.visit_some(self)
    }

    fn deserialize_ignored_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, DecodeError> {
        visitor.visit_unit()
    }

    serde::forward_to_deserialize_any! {
        bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string
        bytes byte_buf unit unit_struct newtype_struct seq tuple
        tuple_struct map struct enum identifier
    }
}

/// The fields of a message (and of the Go-embedded structs in it) as map entries.
struct Fields<'a> {
    /// The message, then each embedded struct being read.
    stack: Vec<(Reader<'a>, &'static MessageDesc)>,
    /// The value of the key last returned, its field and where the field starts.
    pending: Option<(Value<'a>, &'static FieldDesc, usize)>,
}

/// A field's value, found but not decoded (unless it had to be, to see it is not zero).
enum Value<'a> {
    /// One value: the reader at its bytes and its wire type.
    One(Reader<'a>, WireType, Kind),
    /// Every occurrence of a repeated or map field.
    Many(Vec<(Reader<'a>, WireType)>, Kind, Label),
    /// A scalar already read.
    Scalar(Scalar),
}

#[derive(Debug, PartialEq)]
enum Scalar {
    Str(String),
    Int(i64),
    Bool(bool),
    F64(f64),
}

impl Scalar {
    fn is_zero(&self) -> bool {
        match self {
            Scalar::Str(s) => s.is_empty(),
            Scalar::Int(i) => *i == 0,
            Scalar::Bool(b) => !*b,
            Scalar::F64(f) => *f == 0.0,
        }
    }

    fn visit<'de, V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, DecodeError> {
        match self {
            Scalar::Str(s) => visitor.visit_string(s),
            Scalar::Int(i) => visitor.visit_i64(i),
            Scalar::Bool(b) => visitor.visit_bool(b),
            Scalar::F64(f) => visitor.visit_f64(f),
        }
    }
}

/// Reads one scalar of `kind`; `None` for a kind that is not a plain scalar.
fn scalar(r: &mut Reader<'_>, wire: WireType, kind: Kind) -> Result<Option<Scalar>, DecodeError> {
    Ok(match kind {
        Kind::Str => codec::Str::decode(r, wire)?.map(Scalar::Str),
        Kind::I32 => codec::I32::decode(r, wire)?.map(|i| Scalar::Int(i.into())),
        Kind::I64 => codec::I64::decode(r, wire)?.map(Scalar::Int),
        Kind::Bool => codec::Bool::decode(r, wire)?.map(Scalar::Bool),
        Kind::F64 => codec::F64::decode(r, wire)?.map(Scalar::F64),
        _ => None,
    })
}

/// A leaf a codec reads, as the JSON value k8s-openapi writes for it; `None` where its JSON is
/// `null` (Go's zero `Time`).
fn leaf_json(
    r: &mut Reader<'_>,
    wire: WireType,
    kind: Kind,
) -> Result<Option<serde_json::Value>, DecodeError> {
    fn json<C: Codec>(
        r: &mut Reader<'_>,
        wire: WireType,
    ) -> Result<Option<serde_json::Value>, DecodeError>
    where
        C::Value: serde::Serialize,
    {
        let start = r.offset();
        match C::decode(r, wire)? {
            None => Ok(None),
            Some(value) => serde_json::to_value(value)
                .map(Some)
                .map_err(|e| DecodeError::new(ErrorKind::InvalidValue(e.to_string()), start)),
        }
    }
    match kind {
        Kind::Bytes => json::<codec::Bytes>(r, wire),
        Kind::Quantity => json::<codec::Quantity>(r, wire),
        Kind::IntOrString => json::<codec::IntOrString>(r, wire),
        Kind::Time => json::<codec::Time>(r, wire),
        Kind::MicroTime => json::<codec::MicroTime>(r, wire),
        Kind::Duration => json::<codec::Duration>(r, wire),
        Kind::RawExtension => json::<codec::RawExtension>(r, wire),
        Kind::FieldsV1 => json::<codec::FieldsV1>(r, wire),
        Kind::Json => json::<codec::Json>(r, wire),
        Kind::StringList => json::<codec::StringList>(r, wire),
        Kind::Str
        | Kind::I32
        | Kind::I64
        | Kind::Bool
        | Kind::F64
        | Kind::Message(_)
        | Kind::Inline(_) => Ok(None),
    }
}

impl<'a> Fields<'a> {
    /// The next field the message holds and JSON would write, its value found.
    fn next(&mut self) -> Result<Option<(Value<'a>, &'static FieldDesc, usize)>, DecodeError> {
        loop {
            let Some((r, desc)) = self.stack.last_mut() else {
                return Ok(None);
            };
            let Some((number, wire)) = r.next_field()? else {
                self.stack.pop();
                continue;
            };
            let Ok(index) = desc.fields.binary_search_by_key(&number, |f| f.number) else {
                r.skip(wire)?;
                continue;
            };
            let field = &desc.fields[index];
            let start = r.field_start();
            let in_field = |e: DecodeError| e.in_field(field.json);
            match (field.label, field.kind) {
                (_, Kind::Inline(inner)) => {
                    check_wire(WireType::Len, wire, r).map_err(in_field)?;
                    let nested = r.nested().map_err(in_field)?;
                    self.stack.push((nested, inner));
                }
                (Label::ManagedFields, _) if !r.options().keep_managed_fields => r.skip(wire)?,
                (Label::Repeated | Label::Map | Label::ManagedFields, kind) => {
                    let mut occurrences = vec![(r.clone(), wire)];
                    r.skip(wire).map_err(in_field)?;
                    // Go writes a repeated field's values one after another.
                    loop {
                        let mut peek = r.clone();
                        match peek.next_field()? {
                            Some((n, w)) if n == number => {
                                occurrences.push((peek.clone(), w));
                                peek.skip(w).map_err(in_field)?;
                                *r = peek;
                            }
                            _ => break,
                        }
                    }
                    return Ok(Some((
                        Value::Many(occurrences, kind, field.label),
                        field,
                        start,
                    )));
                }
                (Label::OmitEmpty, kind) => {
                    check_wire(kind.wire(), wire, r).map_err(in_field)?;
                    match scalar(r, wire, kind).map_err(in_field)? {
                        Some(value) if value.is_zero() => {}
                        Some(value) => return Ok(Some((Value::Scalar(value), field, start))),
                        None => {
                            return Err(in_field(DecodeError::new(
                                ErrorKind::Unsupported(format!("omitempty field of type {kind:?}")),
                                start,
                            )))
                        }
                    }
                }
                (Label::One, kind) => {
                    let at = r.clone();
                    r.skip(wire).map_err(in_field)?;
                    return Ok(Some((Value::One(at, wire, kind), field, start)));
                }
            }
        }
    }
}

impl<'de> de::MapAccess<'de> for Fields<'_> {
    type Error = DecodeError;

    fn next_key_seed<K: DeserializeSeed<'de>>(
        &mut self,
        seed: K,
    ) -> Result<Option<K::Value>, DecodeError> {
        match self.next()? {
            None => Ok(None),
            Some((value, field, start)) => {
                self.pending = Some((value, field, start));
                seed.deserialize(field.json.into_deserializer()).map(Some)
            }
        }
    }

    fn next_value_seed<S: DeserializeSeed<'de>>(
        &mut self,
        seed: S,
    ) -> Result<S::Value, DecodeError> {
        let Some((value, field, start)) = self.pending.take() else {
            return Err(de::Error::custom("a value asked for before its key"));
        };
        seed.deserialize(ValueDe(value))
            .map_err(|e| at_field(e, start, field.json))
    }
}

/// One field's value.
struct ValueDe<'a>(Value<'a>);

impl<'de> de::Deserializer<'de> for ValueDe<'_> {
    type Error = DecodeError;

    fn deserialize_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, DecodeError> {
        match self.0 {
            Value::Scalar(scalar) => scalar.visit(visitor),
            Value::One(mut r, wire, kind) => {
                check_wire(kind.wire(), wire, &r)?;
                if let Kind::Message(desc) | Kind::Inline(desc) = kind {
                    return MessageDe {
                        r: r.nested()?,
                        desc,
                    }
                    .deserialize_any(visitor);
                }
                if let Some(scalar) = scalar(&mut r, wire, kind)? {
                    return scalar.visit(visitor);
                }
                match leaf_json(&mut r, wire, kind)? {
                    None => visitor.visit_unit(),
                    Some(json) => json.deserialize_any(visitor).map_err(|e| {
                        DecodeError::new(ErrorKind::InvalidValue(e.to_string()), usize::MAX)
                    }),
                }
            }
            Value::Many(occurrences, kind, Label::Map) => visitor.visit_map(Entries {
                occurrences: occurrences.into_iter(),
                kind,
                value: None,
            }),
            Value::Many(occurrences, kind, _) => visitor.visit_seq(Items {
                occurrences: occurrences.into_iter(),
                packed: None,
                kind,
                index: 0,
            }),
        }
    }

    fn deserialize_option<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, DecodeError> {
        // Go's zero `Time` is `null` in JSON, `None` here as there.
        if let Value::One(r, wire, kind) = &self.0 {
            if matches!(kind, Kind::Time | Kind::MicroTime) {
                let mut r = r.clone();
                check_wire(kind.wire(), *wire, &r)?;
                return match leaf_json(&mut r, *wire, *kind)? {
                    None => visitor.visit_none(),
                    Some(json) => visitor.visit_some(json).map_err(|e: serde_json::Error| {
                        DecodeError::new(ErrorKind::InvalidValue(e.to_string()), usize::MAX)
                    }),
                };
            }
        }
        visitor.visit_some(self)
    }

    fn deserialize_ignored_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, DecodeError> {
        // Found and skipped already: nothing to decode.
        visitor.visit_unit()
    }

    serde::forward_to_deserialize_any! {
        bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string
        bytes byte_buf unit unit_struct newtype_struct seq tuple
        tuple_struct map struct enum identifier
    }
}

/// The values of a repeated field, packed runs expanded.
struct Items<'a> {
    occurrences: std::vec::IntoIter<(Reader<'a>, WireType)>,
    /// The rest of a packed run being read.
    packed: Option<Reader<'a>>,
    kind: Kind,
    index: usize,
}

impl<'de> de::SeqAccess<'de> for Items<'_> {
    type Error = DecodeError;

    // Exact unless packed runs hold several values each: serde sizes the `Vec` by it.
    fn size_hint(&self) -> Option<usize> {
        Some(self.occurrences.len())
    }

    fn next_element_seed<T: DeserializeSeed<'de>>(
        &mut self,
        seed: T,
    ) -> Result<Option<T::Value>, DecodeError> {
        let index = self.index;
        let mut at = 0;
        let value = loop {
            if let Some(packed) = &mut self.packed {
                at = packed.offset();
                if !packed.is_at_end() {
                    let scalar = scalar(packed, self.kind.wire(), self.kind)
                        .map_err(|e| e.at_index(index))?;
                    break scalar.map(Value::Scalar);
                }
                self.packed = None;
            }
            let Some((mut r, wire)) = self.occurrences.next() else {
                return Ok(None);
            };
            if wire == WireType::Len && self.kind.wire() != WireType::Len {
                self.packed = Some(r.nested().map_err(|e| e.at_index(index))?);
                continue;
            }
            break Some(Value::One(r, wire, self.kind));
        };
        let Some(value) = value else {
            return Err(DecodeError::new(
                ErrorKind::Unsupported(format!("packed values of type {:?}", self.kind)),
                at,
            )
            .at_index(index));
        };
        self.index += 1;
        seed.deserialize(ValueDe(value))
            .map(Some)
            .map_err(|e| e.at_index(index))
    }
}

/// The entries of a map field (`{1: key, 2: value}` messages).
struct Entries<'a> {
    occurrences: std::vec::IntoIter<(Reader<'a>, WireType)>,
    kind: Kind,
    value: Option<(Value<'a>, String)>,
}

impl<'de> de::MapAccess<'de> for Entries<'_> {
    type Error = DecodeError;

    fn next_key_seed<K: DeserializeSeed<'de>>(
        &mut self,
        seed: K,
    ) -> Result<Option<K::Value>, DecodeError> {
        let Some((mut r, wire)) = self.occurrences.next() else {
            return Ok(None);
        };
        check_wire(WireType::Len, wire, &r)?;
        let mut entry = r.nested()?;
        let (mut key, mut value) = (String::new(), None);
        while let Some((number, wire)) = entry.next_field()? {
            match number {
                1 => {
                    if let Some(k) = codec::Str::decode(&mut entry, wire)? {
                        key = k;
                    }
                }
                2 => {
                    value = Some(Value::One(entry.clone(), wire, self.kind));
                    entry.skip(wire)?;
                }
                _ => entry.skip(wire)?,
            }
        }
        let value = value.ok_or_else(|| {
            DecodeError::new(ErrorKind::MissingField("value"), entry.offset()).at_key(&key)
        })?;
        let k = seed.deserialize(key.as_str().into_deserializer())?;
        self.value = Some((value, key));
        Ok(Some(k))
    }

    fn next_value_seed<S: DeserializeSeed<'de>>(
        &mut self,
        seed: S,
    ) -> Result<S::Value, DecodeError> {
        let Some((value, key)) = self.value.take() else {
            return Err(de::Error::custom("a value asked for before its key"));
        };
        seed.deserialize(ValueDe(value)).map_err(|e| e.at_key(&key))
    }
}
