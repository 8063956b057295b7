//! The protobuf wire format: tags, varints, fixed-width values and length-delimited payloads.

use std::fmt;
use std::marker::PhantomData;
use std::sync::Arc;

use crate::error::{DecodeError, ErrorKind};

/// How deep messages may nest inside one another before decoding fails: bounds the stack a
/// hostile body can make the (recursive) decoders use. Kubernetes objects nest about twenty
/// deep; recursive schemas (`JSONSchemaProps`) are what reach further.
pub const MAX_DEPTH: u32 = 64;

// The largest field number protobuf allows.
const MAX_FIELD_NUMBER: u64 = (1 << 29) - 1;

/// The wire type of a field: how its value is delimited on the wire.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum WireType {
    /// A base-128 varint (`int32`, `int64`, `bool`, enums).
    Varint,
    /// Eight little-endian bytes (`double`, `fixed64`).
    Fixed64,
    /// A varint length, then that many bytes (strings, bytes, messages, packed repeated).
    Len,
    /// Four little-endian bytes (`float`, `fixed32`).
    Fixed32,
}

impl WireType {
    /// The wire type a tag's low three bits name; `None` for the proto2 groups (3, 4) and
    /// the unused 6 and 7.
    fn of_tag(tag: u64) -> Option<Self> {
        match tag & 7 {
            0 => Some(Self::Varint),
            1 => Some(Self::Fixed64),
            2 => Some(Self::Len),
            5 => Some(Self::Fixed32),
            _ => None,
        }
    }
}

impl fmt::Display for WireType {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Self::Varint => "varint",
            Self::Fixed64 => "fixed64",
            Self::Len => "length-delimited",
            Self::Fixed32 => "fixed32",
        })
    }
}

/// Options of one decode, carried by every [`Reader`] into nested messages.
#[derive(Debug, Clone, Copy, Default)]
#[non_exhaustive]
pub struct DecodeOptions {
    /// Decode `metadata.managedFields` instead of skipping it. Off by default: the field is
    /// often the larger part of an object and informers rarely read it.
    pub keep_managed_fields: bool,
}

impl DecodeOptions {
    /// Sets [`keep_managed_fields`](Self::keep_managed_fields).
    #[must_use]
    pub fn keep_managed_fields(mut self, keep: bool) -> Self {
        self.keep_managed_fields = keep;
        self
    }
}

/// A cursor over the bytes of one message.
///
/// Offsets in errors count from the start of the outermost input, whichever nested reader
/// reports them.
#[derive(Debug, Clone)]
pub struct Reader<'a> {
    buf: &'a [u8],
    pos: usize,
    // The offset of `buf[0]` in the outermost input.
    base: usize,
    depth: u32,
    options: DecodeOptions,
    // Where the tag of the field last returned by `next_field` started, for errors about it.
    field_start: usize,
}

impl<'a> Reader<'a> {
    /// A reader over the whole of `buf`, a message's fields.
    pub fn new(buf: &'a [u8], options: DecodeOptions) -> Self {
        Self::at(buf, 0, options)
    }

    // A top-level reader over bytes found at `base` of a larger input (an envelope's payload),
    // so that offsets in errors stay those of the larger input.
    pub(crate) fn at(buf: &'a [u8], base: usize, options: DecodeOptions) -> Self {
        Self {
            buf,
            pos: 0,
            base,
            depth: 0,
            options,
            field_start: base,
        }
    }

    /// The options this decode runs with.
    pub fn options(&self) -> DecodeOptions {
        self.options
    }

    // The offset in the outermost input of the next unread byte.
    pub(crate) fn offset(&self) -> usize {
        self.base + self.pos
    }

    pub(crate) fn is_at_end(&self) -> bool {
        self.pos == self.buf.len()
    }

    // The offset of the tag of the current field.
    pub(crate) fn field_start(&self) -> usize {
        self.field_start
    }

    /// How many values of the current field follow one another from it on, this one included:
    /// Go writes a repeated field's values together, so a `Vec` can be given its exact
    /// capacity up front, as the JSON decoder gives it (it knows each array's length).
    pub(crate) fn run_length(&self) -> usize {
        let mut peek = self.clone();
        peek.pos = self.field_start - self.base;
        let Ok(Some(first)) = peek.next_field() else {
            return 1;
        };
        let mut n = 0;
        while peek.skip(first.1).is_ok() {
            n += 1;
            match peek.next_field() {
                Ok(Some(next)) if next == first => {}
                _ => break,
            }
        }
        n.max(1)
    }

    fn error(&self, kind: ErrorKind, at: usize) -> DecodeError {
        DecodeError::new(kind, self.base + at)
    }

    /// The next field's number and wire type, or `None` at the end of the message.
    #[inline]
    pub fn next_field(&mut self) -> Result<Option<(u32, WireType)>, DecodeError> {
        // Every field a Kubernetes message numbers below 16 has a one-byte tag.
        if let Some(&tag) = self.buf.get(self.pos) {
            if let (8..0x80, Some(wire)) = (tag, WireType::of_tag(u64::from(tag))) {
                self.field_start = self.base + self.pos;
                self.pos += 1;
                return Ok(Some((u32::from(tag >> 3), wire)));
            }
        }
        self.long_field()
    }

    // The end of the message, a tag of more than one byte, or a bad one.
    fn long_field(&mut self) -> Result<Option<(u32, WireType)>, DecodeError> {
        if self.is_at_end() {
            return Ok(None);
        }
        let start = self.pos;
        self.field_start = self.base + start;
        let tag = self.varint()?;
        let number = tag >> 3;
        if number == 0 || number > MAX_FIELD_NUMBER {
            return Err(self.error(ErrorKind::InvalidFieldNumber(number), start));
        }
        let Some(wire) = WireType::of_tag(tag) else {
            // Masked to three bits, so the cast is lossless.
            let bits = (tag & 7) as u8;
            return Err(self.error(ErrorKind::InvalidWireType(bits), start));
        };
        // Bounded by MAX_FIELD_NUMBER above.
        Ok(Some((number as u32, wire)))
    }

    /// Skips one value of wire type `wire` (a field this decoder does not know).
    pub fn skip(&mut self, wire: WireType) -> Result<(), DecodeError> {
        match wire {
            WireType::Varint => self.varint().map(drop),
            WireType::Fixed64 => self.fixed64().map(drop),
            WireType::Len => self.bytes().map(drop),
            WireType::Fixed32 => self.fixed32().map(drop),
        }
    }

    /// Reads a varint.
    #[inline]
    pub fn varint(&mut self) -> Result<u64, DecodeError> {
        // Tags, lengths and most numbers of a Kubernetes object fit in one byte.
        if let Some(&byte) = self.buf.get(self.pos) {
            if byte < 0x80 {
                self.pos += 1;
                return Ok(u64::from(byte));
            }
        }
        self.long_varint()
    }

    // A varint of more than one byte, or none at all.
    fn long_varint(&mut self) -> Result<u64, DecodeError> {
        let start = self.pos;
        let mut value = 0u64;
        for i in 0..10 {
            let Some(&byte) = self.buf.get(self.pos) else {
                return Err(self.error(ErrorKind::Truncated, start));
            };
            self.pos += 1;
            // The tenth byte holds bit 63 only.
            if i == 9 && byte > 1 {
                return Err(self.error(ErrorKind::VarintOverflow, start));
            }
            value |= u64::from(byte & 0x7f) << (7 * i);
            if byte < 0x80 {
                return Ok(value);
            }
        }
        Err(self.error(ErrorKind::VarintOverflow, start))
    }

    fn take<const N: usize>(&mut self) -> Result<[u8; N], DecodeError> {
        let start = self.pos;
        let bytes = self
            .buf
            .get(start..)
            .and_then(|rest| rest.first_chunk::<N>())
            .ok_or_else(|| self.error(ErrorKind::Truncated, start))?;
        self.pos += N;
        Ok(*bytes)
    }

    /// Reads eight little-endian bytes.
    pub fn fixed64(&mut self) -> Result<u64, DecodeError> {
        self.take().map(u64::from_le_bytes)
    }

    /// Reads four little-endian bytes.
    pub fn fixed32(&mut self) -> Result<u32, DecodeError> {
        self.take().map(u32::from_le_bytes)
    }

    /// Reads a length-delimited payload.
    #[inline]
    pub fn bytes(&mut self) -> Result<&'a [u8], DecodeError> {
        let start = self.pos;
        let len = self.varint()?;
        let rest = &self.buf[self.pos..];
        let payload = usize::try_from(len)
            .ok()
            .and_then(|len| rest.get(..len))
            .ok_or_else(|| self.error(ErrorKind::Truncated, start))?;
        self.pos += payload.len();
        Ok(payload)
    }

    /// A reader over the next length-delimited payload, one level deeper.
    pub fn nested(&mut self) -> Result<Reader<'a>, DecodeError> {
        if self.depth >= MAX_DEPTH {
            return Err(self.error(ErrorKind::TooDeep, self.pos));
        }
        let payload = self.bytes()?;
        Ok(Reader {
            buf: payload,
            pos: 0,
            base: self.base + self.pos - payload.len(),
            depth: self.depth + 1,
            options: self.options,
            field_start: self.base + self.pos - payload.len(),
        })
    }
}

/// A protobuf message decoded straight into a Rust type (generated for every Kubernetes
/// message).
pub trait Message: Sized {
    /// The value decoding starts from: what Go holds before any field is set. Not always
    /// `Default`: k8s-openapi derives none for a struct with a required `Time`
    /// (`meta.v1.Condition`), and its empty structs hold a JSON `{}`, not `null`.
    fn empty() -> Self;

    /// Merges one field of the wire into `self`; numbers it does not know must be skipped with
    /// `r.skip(wire)`.
    fn merge_field(
        &mut self,
        number: u32,
        wire: WireType,
        r: &mut Reader<'_>,
    ) -> Result<(), DecodeError>;
}

/// What the fields of a message decode into: a [`Message`] into itself, a
/// [`View`](crate::view::View) into a serde type of your own through the descriptor of the
/// message. The body decoders ([`decode_object`](crate::decode_object),
/// [`decode_list`](crate::decode_list), [`decode_watch_event`](crate::decode_watch_event))
/// take either.
pub trait Decode {
    /// The decoded value.
    type Value;
    /// Decodes every field left in `r`.
    fn decode(r: &mut Reader<'_>) -> Result<Self::Value, DecodeError>;

    /// Decodes every field left in `r` into a new [`Arc`], as [`Shared`] hands it out. By
    /// default the value is decoded, then moved into the `Arc`.
    fn decode_shared(r: &mut Reader<'_>) -> Result<Arc<Self::Value>, DecodeError> {
        Self::decode(r).map(Arc::new)
    }
}

impl<M: Message> Decode for M {
    type Value = M;
    fn decode(r: &mut Reader<'_>) -> Result<M, DecodeError> {
        decode_message(r)
    }

    // Decoded where the `Arc` keeps it: a Pod is kilobytes of struct, and every move on its
    // way from the decoder to a cache would copy all of it.
    fn decode_shared(r: &mut Reader<'_>) -> Result<Arc<M>, DecodeError> {
        let mut shared = Arc::new(M::empty());
        match Arc::get_mut(&mut shared) {
            Some(message) => merge_message(message, r)?,
            // A new `Arc` is never shared; decode apart rather than assume it.
            None => return decode_message(r).map(Arc::new),
        }
        Ok(shared)
    }
}

/// Decodes what `D` decodes into an [`Arc`]: `decode_watch_event::<Shared<Pod>>` hands out
/// `WatchEvent<Arc<Pod>>`, each Pod decoded in place in the `Arc` an informer's cache keeps.
#[derive(Debug)]
pub struct Shared<D>(PhantomData<fn() -> D>);

impl<D: Decode> Decode for Shared<D> {
    type Value = Arc<D::Value>;
    fn decode(r: &mut Reader<'_>) -> Result<Arc<D::Value>, DecodeError> {
        D::decode_shared(r)
    }
}

/// Decodes every field left in `r` into a new `M`.
pub fn decode_message<M: Message>(r: &mut Reader<'_>) -> Result<M, DecodeError> {
    let mut message = M::empty();
    merge_message(&mut message, r)?;
    Ok(message)
}

/// Decodes every field left in `r` into `message`.
pub(crate) fn merge_message<M: Message>(
    message: &mut M,
    r: &mut Reader<'_>,
) -> Result<(), DecodeError> {
    while let Some((number, wire)) = r.next_field()? {
        message.merge_field(number, wire, r)?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testutil::Enc;

    fn kind(result: Result<impl fmt::Debug, DecodeError>) -> (ErrorKind, usize) {
        let err = result.expect_err("decoding should fail");
        (err.kind().clone(), err.offset())
    }

    #[test]
    fn varints() {
        for value in [0, 1, 127, 128, 300, u64::from(u32::MAX), u64::MAX] {
            let bytes = Enc::new().varint(value).finish();
            let mut r = Reader::new(&bytes, DecodeOptions::default());
            assert_eq!(r.varint().unwrap(), value);
            assert_eq!(r.next_field().unwrap(), None);
        }
    }

    #[test]
    fn negative_int32_is_a_ten_byte_varint() {
        let bytes = Enc::new().varint(-1i64 as u64).finish();
        assert_eq!(bytes.len(), 10);
        let mut r = Reader::new(&bytes, DecodeOptions::default());
        assert_eq!(r.varint().unwrap() as i64 as i32, -1);
    }

    #[test]
    fn varint_errors() {
        let eleven = [0xff; 11];
        assert_eq!(
            kind(Reader::new(&eleven, DecodeOptions::default()).varint()),
            (ErrorKind::VarintOverflow, 0)
        );
        let mut big_tenth = [0xff; 10];
        big_tenth[9] = 0x02;
        assert_eq!(
            kind(Reader::new(&big_tenth, DecodeOptions::default()).varint()),
            (ErrorKind::VarintOverflow, 0)
        );
        assert_eq!(
            kind(Reader::new(&[0x80, 0x80], DecodeOptions::default()).varint()),
            (ErrorKind::Truncated, 0)
        );
    }

    #[test]
    fn fixed_values() {
        let bytes = [1, 0, 0, 0, 0, 0, 0, 0x80, 2, 0, 0, 0];
        let mut r = Reader::new(&bytes, DecodeOptions::default());
        assert_eq!(r.fixed64().unwrap(), 0x8000_0000_0000_0001);
        assert_eq!(r.fixed32().unwrap(), 2);
        assert_eq!(kind(r.fixed32()), (ErrorKind::Truncated, 12));
        assert_eq!(
            kind(Reader::new(&bytes[..7], DecodeOptions::default()).fixed64()),
            (ErrorKind::Truncated, 0)
        );
    }

    #[test]
    fn tags() {
        let bytes = Enc::new()
            .tag(1, 0)
            .tag(536_870_911, 2)
            .tag(7, 1)
            .tag(8, 5)
            .finish();
        let mut r = Reader::new(&bytes, DecodeOptions::default());
        assert_eq!(r.next_field().unwrap(), Some((1, WireType::Varint)));
        assert_eq!(r.next_field().unwrap(), Some((536_870_911, WireType::Len)));
        assert_eq!(r.next_field().unwrap(), Some((7, WireType::Fixed64)));
        assert_eq!(r.next_field().unwrap(), Some((8, WireType::Fixed32)));
        assert_eq!(r.next_field().unwrap(), None);
    }

    #[test]
    fn bad_tags() {
        let field_zero = Enc::new().tag(0, 0).finish();
        assert_eq!(
            kind(Reader::new(&field_zero, DecodeOptions::default()).next_field()),
            (ErrorKind::InvalidFieldNumber(0), 0)
        );
        let too_big = Enc::new().varint(1 << 32).finish();
        assert_eq!(
            kind(Reader::new(&too_big, DecodeOptions::default()).next_field()),
            (ErrorKind::InvalidFieldNumber(1 << 29), 0)
        );
        for wire in [3, 4, 6, 7] {
            let bytes = Enc::new().varint(1).tag(1, wire).finish();
            let mut r = Reader::new(&bytes, DecodeOptions::default());
            r.varint().unwrap();
            assert_eq!(kind(r.next_field()), (ErrorKind::InvalidWireType(wire), 1));
        }
    }

    #[test]
    fn length_delimited() {
        let bytes = Enc::new().bytes(1, b"abc").finish();
        let mut r = Reader::new(&bytes, DecodeOptions::default());
        assert_eq!(r.next_field().unwrap(), Some((1, WireType::Len)));
        assert_eq!(r.bytes().unwrap(), b"abc");
        // A length past the input, and one past usize on 32-bit targets.
        for len in [4, u64::MAX] {
            let bytes = Enc::new().varint(len).raw(b"abc").finish();
            assert_eq!(
                kind(Reader::new(&bytes, DecodeOptions::default()).bytes()),
                (ErrorKind::Truncated, 0)
            );
        }
    }

    #[test]
    fn nested_offsets_are_absolute() {
        let inner = Enc::new().tag(1, 0).finish(); // a tag without its varint
        let bytes = Enc::new().bytes(2, b"xy").bytes(3, &inner).finish();
        let mut r = Reader::new(&bytes, DecodeOptions::default());
        r.next_field().unwrap();
        r.skip(WireType::Len).unwrap();
        r.next_field().unwrap();
        let mut sub = r.nested().unwrap();
        assert_eq!(sub.next_field().unwrap(), Some((1, WireType::Varint)));
        assert_eq!(kind(sub.varint()), (ErrorKind::Truncated, 7));
    }

    #[test]
    fn depth_limit() {
        let mut bytes = Vec::new();
        for _ in 0..=MAX_DEPTH {
            bytes = Enc::new().bytes(1, &bytes).finish();
        }
        let mut r = Reader::new(&bytes, DecodeOptions::default());
        for _ in 0..MAX_DEPTH {
            r.next_field().unwrap();
            r = r.nested().unwrap();
        }
        r.next_field().unwrap();
        assert_eq!(r.nested().unwrap_err().kind(), &ErrorKind::TooDeep);
    }

    #[test]
    fn skip_every_wire_type() {
        let bytes = Enc::new()
            .tag(1, 0)
            .varint(u64::MAX)
            .tag(2, 1)
            .raw(&[0; 8])
            .bytes(3, b"abc")
            .tag(4, 5)
            .raw(&[0; 4])
            .finish();
        let mut r = Reader::new(&bytes, DecodeOptions::default());
        while let Some((_, wire)) = r.next_field().unwrap() {
            r.skip(wire).unwrap();
        }
    }

    #[test]
    fn options_reach_nested_readers() {
        let bytes = Enc::new().bytes(1, b"").finish();
        let options = DecodeOptions::default().keep_managed_fields(true);
        let mut r = Reader::new(&bytes, options);
        r.next_field().unwrap();
        assert!(r.nested().unwrap().options().keep_managed_fields);
        assert!(!DecodeOptions::default().keep_managed_fields);
    }
}
