//! How one value of a field is read, chosen by the field's proto type: a codec turns the wire
//! form Go's protobuf writes into the Rust value k8s-openapi holds for Go's JSON form.

use std::marker::PhantomData;

use k8s_openapi::apiextensions_apiserver::pkg::apis::apiextensions::v1::JSON;
use k8s_openapi::apimachinery::pkg::api::resource::Quantity as QuantityValue;
use k8s_openapi::apimachinery::pkg::apis::meta::v1::{
    FieldsV1 as FieldsV1Value, MicroTime as MicroTimeValue, Time as TimeValue,
};
use k8s_openapi::apimachinery::pkg::runtime::RawExtension as RawExtensionValue;
use k8s_openapi::apimachinery::pkg::util::intstr::IntOrString as IntOrStringValue;
use k8s_openapi::jiff::Timestamp;
use k8s_openapi::ByteString;

use crate::error::{DecodeError, ErrorKind};
use crate::field::{optional, repeated, value};
use crate::wire::{decode_message, merge_message, Message, Reader, WireType};

/// Reads one value of a proto type.
pub trait Codec {
    /// The Rust type k8s-openapi uses for the value.
    type Value;
    /// The wire type the value is written with (packed repeated fields aside).
    const WIRE: WireType;
    /// Reads one value written with wire type `wire`. `None` is an encoding Go's JSON writes as
    /// `null` or omits (an empty `Time`), which leaves the Rust field as it was.
    fn decode(r: &mut Reader<'_>, wire: WireType) -> Result<Option<Self::Value>, DecodeError>;

    /// Reads one value into `slot`, which a `None` leaves as it was.
    fn decode_into(
        slot: &mut Option<Self::Value>,
        r: &mut Reader<'_>,
        wire: WireType,
    ) -> Result<(), DecodeError> {
        if let Some(value) = Self::decode(r, wire)? {
            *slot = Some(value);
        }
        Ok(())
    }

    /// Reads one value onto the end of `values`, unless it is `None`.
    fn decode_onto(
        values: &mut Vec<Self::Value>,
        r: &mut Reader<'_>,
        wire: WireType,
    ) -> Result<(), DecodeError> {
        values.extend(Self::decode(r, wire)?);
        Ok(())
    }
}

// Codecs are called through the `field` functions, which check the wire type first; checking
// again keeps a direct call from misreading the bytes.
fn expect<C: Codec + ?Sized>(r: &Reader<'_>, wire: WireType) -> Result<(), DecodeError> {
    if wire == C::WIRE {
        Ok(())
    } else {
        Err(DecodeError::new(
            ErrorKind::WrongWireType {
                expected: C::WIRE,
                found: wire,
            },
            r.field_start(),
        ))
    }
}

fn utf8(bytes: &[u8], offset: usize) -> Result<String, DecodeError> {
    match std::str::from_utf8(bytes) {
        Ok(s) => Ok(s.to_owned()),
        Err(_) => Err(DecodeError::new(ErrorKind::InvalidUtf8, offset)),
    }
}

/// `string`, checked to be UTF-8.
#[derive(Debug)]
pub struct Str;

impl Codec for Str {
    type Value = String;
    const WIRE: WireType = WireType::Len;
    fn decode(r: &mut Reader<'_>, wire: WireType) -> Result<Option<String>, DecodeError> {
        expect::<Self>(r, wire)?;
        let start = r.offset();
        utf8(r.bytes()?, start).map(Some)
    }
}

/// `bytes`, as k8s-openapi's [`ByteString`].
#[derive(Debug)]
pub struct Bytes;

impl Codec for Bytes {
    type Value = ByteString;
    const WIRE: WireType = WireType::Len;
    fn decode(r: &mut Reader<'_>, wire: WireType) -> Result<Option<ByteString>, DecodeError> {
        expect::<Self>(r, wire)?;
        Ok(Some(ByteString(r.bytes()?.to_vec())))
    }
}

/// `int32`: a varint truncated to 32 bits, as Go does (negatives are ten-byte varints).
#[derive(Debug)]
pub struct I32;

impl Codec for I32 {
    type Value = i32;
    const WIRE: WireType = WireType::Varint;
    fn decode(r: &mut Reader<'_>, wire: WireType) -> Result<Option<i32>, DecodeError> {
        expect::<Self>(r, wire)?;
        Ok(Some(r.varint()? as i64 as i32))
    }
}

/// `int64`.
#[derive(Debug)]
pub struct I64;

impl Codec for I64 {
    type Value = i64;
    const WIRE: WireType = WireType::Varint;
    fn decode(r: &mut Reader<'_>, wire: WireType) -> Result<Option<i64>, DecodeError> {
        expect::<Self>(r, wire)?;
        Ok(Some(r.varint()? as i64))
    }
}

/// `bool`: any non-zero varint is true.
#[derive(Debug)]
pub struct Bool;

impl Codec for Bool {
    type Value = bool;
    const WIRE: WireType = WireType::Varint;
    fn decode(r: &mut Reader<'_>, wire: WireType) -> Result<Option<bool>, DecodeError> {
        expect::<Self>(r, wire)?;
        Ok(Some(r.varint()? != 0))
    }
}

/// `double`.
#[derive(Debug)]
pub struct F64;

impl Codec for F64 {
    type Value = f64;
    const WIRE: WireType = WireType::Fixed64;
    fn decode(r: &mut Reader<'_>, wire: WireType) -> Result<Option<f64>, DecodeError> {
        expect::<Self>(r, wire)?;
        Ok(Some(f64::from_bits(r.fixed64()?)))
    }
}

/// An embedded message `M`.
#[derive(Debug)]
pub struct Msg<M>(PhantomData<M>);

impl<M: Message> Msg<M> {
    /// The message's own fields: the payload of a field written with wire type `wire`.
    fn payload<'a>(r: &mut Reader<'a>, wire: WireType) -> Result<Reader<'a>, DecodeError> {
        expect::<Self>(r, wire)?;
        r.nested()
    }
}

impl<M: Message> Codec for Msg<M> {
    type Value = M;
    const WIRE: WireType = WireType::Len;
    fn decode(r: &mut Reader<'_>, wire: WireType) -> Result<Option<M>, DecodeError> {
        decode_message(&mut Self::payload(r, wire)?).map(Some)
    }

    // Decoded where it is kept: built apart and moved in, a PodSpec (kilobytes) or a
    // Container would be copied once more per level.
    fn decode_into(
        slot: &mut Option<M>,
        r: &mut Reader<'_>,
        wire: WireType,
    ) -> Result<(), DecodeError> {
        let mut fields = Self::payload(r, wire)?;
        merge_message(slot.insert(M::empty()), &mut fields)
    }

    fn decode_onto(
        values: &mut Vec<M>,
        r: &mut Reader<'_>,
        wire: WireType,
    ) -> Result<(), DecodeError> {
        let mut fields = Self::payload(r, wire)?;
        let at = values.len();
        values.push(M::empty());
        merge_message(&mut values[at], &mut fields)
    }
}

// Reads a message of a few scalar fields with `each`, which must skip numbers it does not
// know. Returns whether the payload was empty, which several Go types give a meaning.
fn fields<'a>(
    r: &mut Reader<'a>,
    mut each: impl FnMut(u32, WireType, &mut Reader<'a>) -> Result<(), DecodeError>,
) -> Result<bool, DecodeError> {
    let mut sub = r.nested()?;
    let mut empty = true;
    while let Some((number, wire)) = sub.next_field()? {
        empty = false;
        each(number, wire, &mut sub)?;
    }
    Ok(empty)
}

/// `resource.Quantity` (`{1: string}`), kept in the canonical form the server wrote.
#[derive(Debug)]
pub struct Quantity;

impl Codec for Quantity {
    type Value = QuantityValue;
    const WIRE: WireType = WireType::Len;
    fn decode(r: &mut Reader<'_>, wire: WireType) -> Result<Option<QuantityValue>, DecodeError> {
        expect::<Self>(r, wire)?;
        let start = r.offset();
        let mut string = None;
        fields(r, |number, wire, r| match number {
            1 => optional::<Str>(&mut string, wire, r, "string"),
            _ => r.skip(wire),
        })?;
        match string {
            // Go's zero Quantity, which its JSON writes as "0".
            None => Ok(Some(QuantityValue("0".to_owned()))),
            // Go's ParseQuantity refuses an empty string too.
            Some(s) if s.is_empty() => Err(DecodeError::new(
                ErrorKind::InvalidValue("an empty quantity".to_owned()),
                start,
            )),
            Some(s) => Ok(Some(QuantityValue(s))),
        }
    }
}

/// `intstr.IntOrString` (`{1: type int64 (0 int, 1 string), 2: intVal int32, 3: strVal
/// string}`).
#[derive(Debug)]
pub struct IntOrString;

impl Codec for IntOrString {
    type Value = IntOrStringValue;
    const WIRE: WireType = WireType::Len;
    fn decode(r: &mut Reader<'_>, wire: WireType) -> Result<Option<IntOrStringValue>, DecodeError> {
        expect::<Self>(r, wire)?;
        let start = r.offset();
        let (mut kind, mut int, mut string) = (0i64, 0i32, String::new());
        fields(r, |number, wire, r| match number {
            1 => value::<I64>(&mut kind, wire, r, "type"),
            2 => value::<I32>(&mut int, wire, r, "intVal"),
            3 => value::<Str>(&mut string, wire, r, "strVal"),
            _ => r.skip(wire),
        })?;
        match kind {
            0 => Ok(Some(IntOrStringValue::Int(int))),
            1 => Ok(Some(IntOrStringValue::String(string))),
            // Go's MarshalJSON fails on it as well.
            other => Err(DecodeError::new(
                ErrorKind::InvalidValue(format!("IntOrString of type {other}")),
                start,
            )),
        }
    }
}

/// Go's zero `time.Time` (0001-01-01T00:00:00Z): what a required `Time` holds before a value
/// arrives. Its JSON is `null`, which k8s-openapi's required `Time` cannot hold, so the
/// decoder keeps Go's value instead.
pub fn zero_time() -> TimeValue {
    TimeValue(GO_ZERO_TIME)
}

/// [`zero_time`] for a required `MicroTime`.
pub fn zero_micro_time() -> MicroTimeValue {
    MicroTimeValue(GO_ZERO_TIME)
}

const GO_ZERO_TIME: Timestamp = Timestamp::constant(-62_135_596_800, 0);

/// What an empty Go struct (`struct{}`) decodes to: k8s-openapi holds it as a JSON value,
/// which Go's JSON writes as `{}`.
pub fn empty_object() -> serde_json::Value {
    serde_json::Value::Object(serde_json::Map::new())
}

// A `{1: seconds int64, 2: nanos int32}` timestamp; `None` for an empty payload, which is how
// Go writes its zero time (JSON `null`).
fn timestamp(r: &mut Reader<'_>) -> Result<Option<(i64, i32, usize)>, DecodeError> {
    let start = r.offset();
    let (mut seconds, mut nanos) = (0i64, 0i32);
    let empty = fields(r, |number, wire, r| match number {
        1 => value::<I64>(&mut seconds, wire, r, "seconds"),
        2 => value::<I32>(&mut nanos, wire, r, "nanos"),
        _ => r.skip(wire),
    })?;
    Ok((!empty).then_some((seconds, nanos, start)))
}

fn to_timestamp(seconds: i64, nanos: i64, start: usize) -> Result<Timestamp, DecodeError> {
    // Go normalizes nanoseconds outside 0..1e9 into the seconds (time.Unix).
    let total = i128::from(seconds) * 1_000_000_000 + i128::from(nanos);
    Timestamp::from_nanosecond(total).map_err(|_| {
        DecodeError::new(
            ErrorKind::InvalidValue(format!(
                "time {seconds}s {nanos}ns past the years JSON can write"
            )),
            start,
        )
    })
}

/// `meta.v1.Time`: whole seconds only, since Go drops the nanoseconds (its JSON has none);
/// an empty message is Go's zero time, JSON `null`, so `None`.
#[derive(Debug)]
pub struct Time;

impl Codec for Time {
    type Value = TimeValue;
    const WIRE: WireType = WireType::Len;
    fn decode(r: &mut Reader<'_>, wire: WireType) -> Result<Option<TimeValue>, DecodeError> {
        expect::<Self>(r, wire)?;
        match timestamp(r)? {
            None => Ok(None),
            Some((seconds, _, start)) => {
                to_timestamp(seconds, 0, start).map(|t| Some(TimeValue(t)))
            }
        }
    }
}

/// `meta.v1.MicroTime`: nanoseconds truncated to microseconds, the precision of its JSON;
/// empty is `None` as for [`Time`].
#[derive(Debug)]
pub struct MicroTime;

impl Codec for MicroTime {
    type Value = MicroTimeValue;
    const WIRE: WireType = WireType::Len;
    fn decode(r: &mut Reader<'_>, wire: WireType) -> Result<Option<MicroTimeValue>, DecodeError> {
        expect::<Self>(r, wire)?;
        match timestamp(r)? {
            None => Ok(None),
            Some((seconds, nanos, start)) => {
                // Go's Duration.Truncate, which rounds toward zero.
                let micros = i64::from(nanos) - i64::from(nanos) % 1000;
                to_timestamp(seconds, micros, start).map(|t| Some(MicroTimeValue(t)))
            }
        }
    }
}

/// `meta.v1.Duration` (`{1: duration int64}`, nanoseconds), as the string Go's
/// `time.Duration.String()` writes in JSON (`"1h0m0s"`, `"1.5s"`, `"300ms"`).
#[derive(Debug)]
pub struct Duration;

impl Codec for Duration {
    type Value = String;
    const WIRE: WireType = WireType::Len;
    fn decode(r: &mut Reader<'_>, wire: WireType) -> Result<Option<String>, DecodeError> {
        expect::<Self>(r, wire)?;
        let mut nanos = 0i64;
        fields(r, |number, wire, r| match number {
            1 => value::<I64>(&mut nanos, wire, r, "duration"),
            _ => r.skip(wire),
        })?;
        Ok(Some(format_duration(nanos)))
    }
}

/// Go's `time.Duration.String()`.
fn format_duration(nanos: i64) -> String {
    let mut u = nanos.unsigned_abs();
    let mut out = String::new();
    if u < 1_000_000_000 {
        // Below a second Go picks the largest unit and prints a fraction of it.
        let (unit, precision) = match u {
            0 => return "0s".to_owned(),
            1..1_000 => ("ns", 0),
            1_000..1_000_000 => ("µs", 3),
            _ => ("ms", 6),
        };
        let fraction = fraction(&mut u, precision);
        out.push_str(&u.to_string());
        out.push_str(&fraction);
        out.push_str(unit);
    } else {
        let fraction = fraction(&mut u, 9);
        let seconds = u % 60;
        u /= 60;
        if u > 0 {
            let minutes = u % 60;
            u /= 60;
            if u > 0 {
                out.push_str(&format!("{u}h"));
            }
            out.push_str(&format!("{minutes}m"));
        }
        out.push_str(&format!("{seconds}{fraction}s"));
    }
    if nanos < 0 {
        out.insert(0, '-');
    }
    out
}

// Go's fmtFrac: splits off the last `precision` digits of `v` as ".ddd" without trailing
// zeros (nothing when they are all zero), leaving the integer part in `v`.
fn fraction(v: &mut u64, precision: u32) -> String {
    let divisor = 10u64.pow(precision);
    let digits = *v % divisor;
    *v /= divisor;
    if digits == 0 {
        return String::new();
    }
    let padded = format!("{digits:0width$}", width = precision as usize);
    format!(".{}", padded.trim_end_matches('0'))
}

// The `{1: raw bytes}` messages that carry JSON: `None` when empty, as Go's JSON writes
// `null` for them.
fn json(r: &mut Reader<'_>) -> Result<Option<serde_json::Value>, DecodeError> {
    let mut raw: &[u8] = &[];
    let mut raw_start = r.offset();
    fields(r, |number, wire, r| match number {
        1 if wire == WireType::Len => {
            raw = r.bytes()?;
            raw_start = r.offset() - raw.len();
            Ok(())
        }
        1 => Err(DecodeError::new(
            ErrorKind::WrongWireType {
                expected: WireType::Len,
                found: wire,
            },
            r.field_start(),
        )
        .in_field("raw")),
        _ => r.skip(wire),
    })?;
    if raw.is_empty() {
        return Ok(None);
    }
    if raw.starts_with(crate::envelope::MAGIC) {
        return Err(DecodeError::new(
            ErrorKind::Unsupported("protobuf inside a RawExtension (only JSON is)".to_owned()),
            raw_start,
        ));
    }
    serde_json::from_slice(raw)
        .map(Some)
        .map_err(|e| DecodeError::new(ErrorKind::InvalidJson(e.to_string()), raw_start))
}

/// `runtime.RawExtension` (`{1: raw bytes}`) holding JSON, as k8s-openapi's
/// `RawExtension(serde_json::Value)`; empty is `None`; a protobuf payload is unsupported.
#[derive(Debug)]
pub struct RawExtension;

impl Codec for RawExtension {
    type Value = RawExtensionValue;
    const WIRE: WireType = WireType::Len;
    fn decode(
        r: &mut Reader<'_>,
        wire: WireType,
    ) -> Result<Option<RawExtensionValue>, DecodeError> {
        expect::<Self>(r, wire)?;
        Ok(json(r)?.map(RawExtensionValue))
    }
}

/// `meta.v1.FieldsV1` (`{1: Raw bytes}`, JSON), empty is `None`.
#[derive(Debug)]
pub struct FieldsV1;

impl Codec for FieldsV1 {
    type Value = FieldsV1Value;
    const WIRE: WireType = WireType::Len;
    fn decode(r: &mut Reader<'_>, wire: WireType) -> Result<Option<FieldsV1Value>, DecodeError> {
        expect::<Self>(r, wire)?;
        Ok(json(r)?.map(FieldsV1Value))
    }
}

/// apiextensions' `JSON` (`{1: raw bytes}`), as k8s-openapi's `JSON(serde_json::Value)`;
/// empty is `None`.
#[derive(Debug)]
pub struct Json;

impl Codec for Json {
    type Value = JSON;
    const WIRE: WireType = WireType::Len;
    fn decode(r: &mut Reader<'_>, wire: WireType) -> Result<Option<JSON>, DecodeError> {
        expect::<Self>(r, wire)?;
        Ok(json(r)?.map(JSON))
    }
}

/// A message that wraps a Go `[]string` (`{1: repeated string items}`: `ExtraValue`,
/// `Verbs`).
#[derive(Debug)]
pub struct StringList;

impl Codec for StringList {
    type Value = Vec<String>;
    const WIRE: WireType = WireType::Len;
    fn decode(r: &mut Reader<'_>, wire: WireType) -> Result<Option<Vec<String>>, DecodeError> {
        expect::<Self>(r, wire)?;
        let mut items = Vec::new();
        fields(r, |number, wire, r| match number {
            1 => repeated::<Str>(&mut items, wire, r, "items"),
            _ => r.skip(wire),
        })?;
        Ok(Some(items))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testutil::Enc;
    use crate::wire::DecodeOptions;

    // Decodes `payload` as the value of a field of codec C.
    fn decode<C: Codec>(payload: &[u8]) -> Result<Option<C::Value>, DecodeError> {
        let bytes = Enc::new().bytes(1, payload).finish();
        let mut r = Reader::new(&bytes, DecodeOptions::default());
        let (_, wire) = r.next_field()?.expect("a field");
        C::decode(&mut r, wire)
    }

    #[test]
    fn duration_formats_as_go() {
        // Go's time.Duration.String documentation and tests.
        let cases: &[(i64, &str)] = &[
            (0, "0s"),
            (1, "1ns"),
            (1_100, "1.1µs"),
            (2_200_000, "2.2ms"),
            (300_000_000, "300ms"),
            (1_500_000_000, "1.5s"),
            (3_300_000_000, "3.3s"),
            (60_000_000_000, "1m0s"),
            (3_600_000_000_000, "1h0m0s"),
            (4 * 60_000_000_000 + 5_000_000_000, "4m5s"),
            (4 * 60_000_000_000 + 5_001_000_000, "4m5.001s"),
            (
                5 * 3_600_000_000_000 + 6 * 60_000_000_000 + 7_001_000_000,
                "5h6m7.001s",
            ),
            (8 * 60_000_000_000 + 1, "8m0.000000001s"),
            (2 * 3_600_000_000_000 + 45 * 60_000_000_000, "2h45m0s"),
            (-1, "-1ns"),
            (-1_500_000_000, "-1.5s"),
            (-5_400_000_000_000, "-1h30m0s"),
            (i64::MAX, "2562047h47m16.854775807s"),
            (i64::MIN, "-2562047h47m16.854775808s"),
        ];
        for &(nanos, want) in cases {
            assert_eq!(format_duration(nanos), want, "{nanos}ns");
            let payload = Enc::new().int(1, nanos).finish();
            assert_eq!(decode::<Duration>(&payload).unwrap().as_deref(), Some(want));
        }
        assert_eq!(decode::<Duration>(&[]).unwrap().as_deref(), Some("0s"));
    }

    #[test]
    fn time_keeps_seconds_only() {
        let payload = Enc::new()
            .int(1, 1_700_000_000)
            .int(2, 999_999_999)
            .finish();
        let time = decode::<Time>(&payload).unwrap().unwrap();
        assert_eq!(time.0.to_string(), "2023-11-14T22:13:20Z");
        // Explicit zero seconds is the epoch, not the zero time.
        let epoch = decode::<Time>(&Enc::new().int(1, 0).finish())
            .unwrap()
            .unwrap();
        assert_eq!(epoch.0, Timestamp::UNIX_EPOCH);
        assert_eq!(decode::<Time>(&[]).unwrap(), None);
        let negative = decode::<Time>(&Enc::new().int(1, -1).finish())
            .unwrap()
            .unwrap();
        assert_eq!(negative.0.to_string(), "1969-12-31T23:59:59Z");
    }

    #[test]
    fn time_out_of_range_is_an_error() {
        let payload = Enc::new().int(1, i64::MAX).finish();
        let err = decode::<Time>(&payload).unwrap_err();
        assert!(matches!(err.kind(), ErrorKind::InvalidValue(_)), "{err}");
        assert_eq!(err.offset(), 1);
    }

    #[test]
    fn micro_time_truncates_to_microseconds() {
        let payload = Enc::new()
            .int(1, 1_700_000_000)
            .int(2, 123_456_789)
            .finish();
        let time = decode::<MicroTime>(&payload).unwrap().unwrap();
        assert_eq!(time.0.to_string(), "2023-11-14T22:13:20.123456Z");
        assert_eq!(decode::<MicroTime>(&[]).unwrap(), None);
        // Negative nanos count back from the seconds, truncated toward zero as Go does.
        let payload = Enc::new().int(1, 10).int(2, -1_999).finish();
        let time = decode::<MicroTime>(&payload).unwrap().unwrap();
        assert_eq!(time.0.as_nanosecond(), 10_000_000_000 - 1_000);
    }

    #[test]
    fn int_or_string_both_arms() {
        let int = Enc::new().int(1, 0).int(2, -8080).finish();
        assert_eq!(
            decode::<IntOrString>(&int).unwrap(),
            Some(IntOrStringValue::Int(-8080))
        );
        let string = Enc::new().int(1, 1).string(3, "http").finish();
        assert_eq!(
            decode::<IntOrString>(&string).unwrap(),
            Some(IntOrStringValue::String("http".to_owned()))
        );
        assert_eq!(
            decode::<IntOrString>(&[]).unwrap(),
            Some(IntOrStringValue::Int(0))
        );
        let err = decode::<IntOrString>(&Enc::new().int(1, 2).finish()).unwrap_err();
        assert_eq!(
            err.to_string(),
            "decoding from protobuf: invalid value: IntOrString of type 2 at byte 1"
        );
        let wrong = Enc::new().string(2, "x").finish();
        assert_eq!(
            decode::<IntOrString>(&wrong).unwrap_err().to_string(),
            "decoding from protobuf: intVal: wrong wire type (expected varint, found \
             length-delimited) at byte 2"
        );
    }

    #[test]
    fn quantity() {
        let payload = Enc::new().string(1, "100Mi").finish();
        assert_eq!(
            decode::<Quantity>(&payload).unwrap(),
            Some(QuantityValue("100Mi".to_owned()))
        );
        assert_eq!(
            decode::<Quantity>(&[]).unwrap(),
            Some(QuantityValue("0".to_owned()))
        );
        let empty = Enc::new().string(1, "").finish();
        assert!(matches!(
            decode::<Quantity>(&empty).unwrap_err().kind(),
            ErrorKind::InvalidValue(_)
        ));
    }

    #[test]
    fn json_payloads() {
        let payload = Enc::new().string(1, r#"{"a":[1,true]}"#).finish();
        let want = serde_json::json!({"a": [1, true]});
        assert_eq!(
            decode::<RawExtension>(&payload).unwrap(),
            Some(RawExtensionValue(want.clone()))
        );
        assert_eq!(
            decode::<FieldsV1>(&payload).unwrap(),
            Some(FieldsV1Value(want.clone()))
        );
        assert_eq!(decode::<Json>(&payload).unwrap(), Some(JSON(want)));
        assert_eq!(decode::<RawExtension>(&[]).unwrap(), None);
        assert_eq!(
            decode::<FieldsV1>(&Enc::new().string(1, "").finish()).unwrap(),
            None
        );
        assert_eq!(decode::<Json>(&[]).unwrap(), None);

        let bad = Enc::new().string(1, "{").finish();
        let err = decode::<Json>(&bad).unwrap_err();
        assert!(matches!(err.kind(), ErrorKind::InvalidJson(_)), "{err}");
        assert_eq!(err.offset(), 4);

        let proto = Enc::new().bytes(1, b"k8s\0\x0a\x00").finish();
        let err = decode::<RawExtension>(&proto).unwrap_err();
        assert_eq!(
            err.to_string(),
            "decoding from protobuf: unsupported: protobuf inside a RawExtension (only JSON is) \
             at byte 4"
        );
        let wrong = Enc::new().uint(1, 3).finish();
        assert_eq!(
            decode::<FieldsV1>(&wrong).unwrap_err().to_string(),
            "decoding from protobuf: raw: wrong wire type (expected length-delimited, found \
             varint) at byte 2"
        );
    }

    #[test]
    fn scalars() {
        let bytes = Enc::new()
            .int(1, -5)
            .int(2, i64::MIN)
            .uint(3, 2)
            .double(4, -0.25)
            .string(5, "hé")
            .bytes(6, &[0, 255])
            .finish();
        let mut r = Reader::new(&bytes, DecodeOptions::default());
        let next = |r: &mut Reader<'_>| r.next_field().unwrap().unwrap().1;
        let w = next(&mut r);
        assert_eq!(I32::decode(&mut r, w).unwrap(), Some(-5));
        let w = next(&mut r);
        assert_eq!(I64::decode(&mut r, w).unwrap(), Some(i64::MIN));
        let w = next(&mut r);
        assert_eq!(Bool::decode(&mut r, w).unwrap(), Some(true));
        let w = next(&mut r);
        assert_eq!(F64::decode(&mut r, w).unwrap(), Some(-0.25));
        let w = next(&mut r);
        assert_eq!(Str::decode(&mut r, w).unwrap().as_deref(), Some("hé"));
        let w = next(&mut r);
        assert_eq!(
            Bytes::decode(&mut r, w).unwrap(),
            Some(ByteString(vec![0, 255]))
        );
    }

    #[test]
    fn int32_truncates_like_go() {
        let bytes = Enc::new().uint(1, (1 << 32) + 7).finish();
        let mut r = Reader::new(&bytes, DecodeOptions::default());
        r.next_field().unwrap();
        assert_eq!(I32::decode(&mut r, WireType::Varint).unwrap(), Some(7));
    }

    #[test]
    fn invalid_utf8() {
        let bytes = Enc::new().bytes(1, &[b'a', 0xff]).finish();
        let mut r = Reader::new(&bytes, DecodeOptions::default());
        r.next_field().unwrap();
        let err = Str::decode(&mut r, WireType::Len).unwrap_err();
        assert_eq!(err.kind(), &ErrorKind::InvalidUtf8);
        assert_eq!(err.offset(), 1);
    }

    #[test]
    fn direct_call_with_the_wrong_wire_type() {
        let bytes = Enc::new().uint(1, 1).finish();
        let mut r = Reader::new(&bytes, DecodeOptions::default());
        r.next_field().unwrap();
        let err = Str::decode(&mut r, WireType::Varint).unwrap_err();
        assert_eq!(
            err.kind(),
            &ErrorKind::WrongWireType {
                expected: WireType::Len,
                found: WireType::Varint
            }
        );
    }

    #[test]
    fn string_list() {
        let payload = Enc::new().string(1, "get").string(1, "list").finish();
        assert_eq!(
            decode::<StringList>(&payload).unwrap(),
            Some(vec!["get".to_owned(), "list".to_owned()])
        );
        assert_eq!(decode::<StringList>(&[]).unwrap(), Some(vec![]));
    }
}
