//! How a field of a message stores what its codec reads, chosen by the Rust field's shape and
//! Go's JSON tags: each function takes the Rust slot, the wire type the tag announced, the
//! reader positioned after the tag, and the field's proto name for error paths.
//!
//! A message field that occurs twice is replaced, not merged: servers write each field once.

use std::collections::BTreeMap;
use std::fmt::Display;

use crate::codec::Codec;
use crate::error::{DecodeError, ErrorKind};
use crate::wire::{Reader, WireType};

pub(crate) fn check_wire(
    expected: WireType,
    found: WireType,
    r: &Reader<'_>,
) -> Result<(), DecodeError> {
    if expected == found {
        Ok(())
    } else {
        Err(DecodeError::new(
            ErrorKind::WrongWireType { expected, found },
            r.field_start(),
        ))
    }
}

fn check(
    expected: WireType,
    found: WireType,
    r: &Reader<'_>,
    name: &'static str,
) -> Result<(), DecodeError> {
    check_wire(expected, found, r).map_err(|e| e.in_field(name))
}

/// One value of field `name`, its wire type checked; errors name the field.
fn read<C: Codec>(
    wire: WireType,
    r: &mut Reader<'_>,
    name: &'static str,
) -> Result<Option<C::Value>, DecodeError> {
    check(C::WIRE, wire, r, name)?;
    C::decode(r, wire).map_err(|e| e.in_field(name))
}

/// A field that always has a value in Rust; a `None` from the codec leaves it as is.
pub fn value<C: Codec>(
    slot: &mut C::Value,
    wire: WireType,
    r: &mut Reader<'_>,
    name: &'static str,
) -> Result<(), DecodeError> {
    if let Some(value) = read::<C>(wire, r, name)? {
        *slot = value;
    }
    Ok(())
}

/// A Go pointer (or `Option` in k8s-openapi for another reason): present on the wire is
/// `Some`, zero values included.
pub fn optional<C: Codec>(
    slot: &mut Option<C::Value>,
    wire: WireType,
    r: &mut Reader<'_>,
    name: &'static str,
) -> Result<(), DecodeError> {
    check(C::WIRE, wire, r, name)?;
    C::decode_into(slot, r, wire).map_err(|e| e.in_field(name))
}

/// A Go non-pointer field tagged `omitempty`: Go's protobuf writes its zero value, which its
/// JSON omits, so a zero value is `None`.
pub fn omitempty<C: Codec>(
    slot: &mut Option<C::Value>,
    wire: WireType,
    r: &mut Reader<'_>,
    name: &'static str,
) -> Result<(), DecodeError>
where
    C::Value: Default + PartialEq,
{
    if let Some(value) = read::<C>(wire, r, name)? {
        *slot = (value != C::Value::default()).then_some(value);
    }
    Ok(())
}

/// A repeated field: appends the value, or every value of a packed run (accepted for varint
/// and fixed-width codecs). Values the codec reads as `None` are left out.
pub fn repeated<C: Codec>(
    slot: &mut Vec<C::Value>,
    wire: WireType,
    r: &mut Reader<'_>,
    name: &'static str,
) -> Result<(), DecodeError> {
    if wire == WireType::Len && C::WIRE != WireType::Len {
        let mut packed = r.nested().map_err(|e| e.in_field(name))?;
        while !packed.is_at_end() {
            let index = slot.len();
            let value =
                C::decode(&mut packed, C::WIRE).map_err(|e| e.at_index(index).in_field(name))?;
            slot.extend(value);
        }
        return Ok(());
    }
    check(C::WIRE, wire, r, name)?;
    if slot.is_empty() {
        slot.reserve_exact(r.run_length());
    }
    let index = slot.len();
    C::decode_onto(slot, r, wire).map_err(|e| e.at_index(index).in_field(name))
}

/// A repeated field k8s-openapi holds as an `Option<Vec<_>>`: `Some` once a value arrived.
pub fn optional_repeated<C: Codec>(
    slot: &mut Option<Vec<C::Value>>,
    wire: WireType,
    r: &mut Reader<'_>,
    name: &'static str,
) -> Result<(), DecodeError> {
    repeated::<C>(slot.get_or_insert_with(Vec::new), wire, r, name)
}

/// A map field: one entry message `{1: key, 2: value}` per call; a missing key is the empty
/// key, as in Go. Go always writes the value, so an entry without one is an error (a zero `Time`
/// has no value in k8s-openapi's map either). Errors in a value name its key.
pub fn map<K: Codec, V: Codec>(
    slot: &mut BTreeMap<K::Value, V::Value>,
    wire: WireType,
    r: &mut Reader<'_>,
    name: &'static str,
) -> Result<(), DecodeError>
where
    K::Value: Ord + Default + Display,
{
    check(WireType::Len, wire, r, name)?;
    let mut entry = r.nested().map_err(|e| e.in_field(name))?;
    let mut key = None;
    // The value is decoded once the key is known, which may come after it, so that its errors
    // can name the key.
    let mut value_at = None;
    while let Some((number, wire)) = entry.next_field().map_err(|e| e.in_field(name))? {
        match number {
            1 => {
                check(K::WIRE, wire, &entry, name)?;
                if let Some(k) = K::decode(&mut entry, wire).map_err(|e| e.in_field(name))? {
                    key = Some(k);
                }
            }
            2 => {
                value_at = Some((entry.clone(), wire));
                entry.skip(wire).map_err(|e| e.in_field(name))?;
            }
            _ => entry.skip(wire).map_err(|e| e.in_field(name))?,
        }
    }
    let key = key.unwrap_or_default();
    let in_value = |e: DecodeError| e.at_key(&key.to_string()).in_field(name);
    let (mut at, wire) = value_at.ok_or_else(|| {
        in_value(DecodeError::new(
            ErrorKind::MissingField("value"),
            entry.offset(),
        ))
    })?;
    check_wire(V::WIRE, wire, &at).map_err(in_value)?;
    let start = at.offset();
    let value = V::decode(&mut at, wire)
        .map_err(in_value)?
        .ok_or_else(|| in_value(DecodeError::new(ErrorKind::MissingField("value"), start)))?;
    slot.insert(key, value);
    Ok(())
}

/// A map field k8s-openapi holds as an `Option<BTreeMap<_, _>>`: `Some` once an entry arrived.
pub fn optional_map<K: Codec, V: Codec>(
    slot: &mut Option<BTreeMap<K::Value, V::Value>>,
    wire: WireType,
    r: &mut Reader<'_>,
    name: &'static str,
) -> Result<(), DecodeError>
where
    K::Value: Ord + Default + Display,
{
    map::<K, V>(slot.get_or_insert_with(BTreeMap::new), wire, r, name)
}

/// A Go-embedded struct (`json:",inline"`), whose fields k8s-openapi flattens into the outer
/// struct: `merge` gets each of its fields with the outer value. Errors inside it have paths
/// without `name`, as JSON paths do.
pub fn inline<S>(
    this: &mut S,
    wire: WireType,
    r: &mut Reader<'_>,
    name: &'static str,
    mut merge: impl FnMut(&mut S, u32, WireType, &mut Reader<'_>) -> Result<(), DecodeError>,
) -> Result<(), DecodeError> {
    check(WireType::Len, wire, r, name)?;
    let mut inner = r.nested().map_err(|e| e.in_field(name))?;
    while let Some((number, wire)) = inner.next_field()? {
        merge(this, number, wire, &mut inner)?;
    }
    Ok(())
}

/// `metadata.managedFields`: skipped without decoding unless the reader's options keep it.
pub fn managed_fields<C: Codec>(
    slot: &mut Option<Vec<C::Value>>,
    wire: WireType,
    r: &mut Reader<'_>,
    name: &'static str,
) -> Result<(), DecodeError> {
    if r.options().keep_managed_fields {
        optional_repeated::<C>(slot, wire, r, name)
    } else {
        check(C::WIRE, wire, r, name)?;
        r.skip(wire).map_err(|e| e.in_field(name))
    }
}

/// A field of a recursive type, which k8s-openapi boxes.
pub fn boxed<C: Codec>(
    slot: &mut Option<Box<C::Value>>,
    wire: WireType,
    r: &mut Reader<'_>,
    name: &'static str,
) -> Result<(), DecodeError> {
    if let Some(value) = read::<C>(wire, r, name)? {
        *slot = Some(Box::new(value));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::codec::{Bool, Msg, Str, Time, F64, I32, I64};
    use crate::testutil::{Enc, Managed};
    use crate::wire::{DecodeOptions, Message};

    // Runs `each` on every field of `bytes`.
    fn each(
        bytes: &[u8],
        options: DecodeOptions,
        mut f: impl FnMut(u32, WireType, &mut Reader<'_>) -> Result<(), DecodeError>,
    ) -> Result<(), DecodeError> {
        let mut r = Reader::new(bytes, options);
        while let Some((number, wire)) = r.next_field()? {
            f(number, wire, &mut r)?;
        }
        Ok(())
    }

    #[test]
    fn value_optional_omitempty() {
        let bytes = Enc::new()
            .int(1, 0)
            .int(2, 0)
            .int(3, 0)
            .string(4, "")
            .string(5, "x")
            .finish();
        let (mut v, mut opt, mut empty, mut s_empty, mut s) =
            (7i64, None, Some(9i32), Some(String::new()), None);
        each(&bytes, DecodeOptions::default(), |n, w, r| match n {
            1 => value::<I64>(&mut v, w, r, "v"),
            2 => optional::<I32>(&mut opt, w, r, "opt"),
            3 => omitempty::<I32>(&mut empty, w, r, "empty"),
            4 => omitempty::<Str>(&mut s_empty, w, r, "sEmpty"),
            _ => omitempty::<Str>(&mut s, w, r, "s"),
        })
        .unwrap();
        assert_eq!(
            (v, opt, empty, s_empty, s.as_deref()),
            (0, Some(0), None, None, Some("x"))
        );
    }

    #[test]
    fn codec_none_leaves_the_slot() {
        let bytes = Enc::new().bytes(1, &[]).bytes(2, &[]).finish();
        let epoch = k8s_openapi::apimachinery::pkg::apis::meta::v1::Time(
            k8s_openapi::jiff::Timestamp::UNIX_EPOCH,
        );
        let (mut a, mut b) = (None, Some(epoch.clone()));
        each(&bytes, DecodeOptions::default(), |n, w, r| match n {
            1 => optional::<Time>(&mut a, w, r, "a"),
            _ => optional::<Time>(&mut b, w, r, "b"),
        })
        .unwrap();
        assert_eq!((a, b), (None, Some(epoch)));
    }

    #[test]
    fn repeated_packed_and_unpacked() {
        let packed_ints = Enc::new()
            .varint(1)
            .varint(-2i64 as u64)
            .varint(300)
            .finish();
        let packed_doubles = Enc::new()
            .raw(&1.5f64.to_bits().to_le_bytes())
            .raw(&(-0.5f64).to_bits().to_le_bytes())
            .finish();
        let bytes = Enc::new()
            .int(1, -1)
            .bytes(1, &packed_ints)
            .int(1, 4)
            .bytes(1, &[])
            .bytes(2, &packed_doubles)
            .double(2, 2.0)
            .bytes(3, &[1, 0, 1])
            .uint(3, 0)
            .string(4, "a")
            .string(4, "b")
            .finish();
        let (mut ints, mut doubles, mut bools, mut strings) =
            (Vec::new(), Vec::new(), None, Vec::new());
        each(&bytes, DecodeOptions::default(), |n, w, r| match n {
            1 => repeated::<I32>(&mut ints, w, r, "ints"),
            2 => repeated::<F64>(&mut doubles, w, r, "doubles"),
            3 => optional_repeated::<Bool>(&mut bools, w, r, "bools"),
            _ => repeated::<Str>(&mut strings, w, r, "strings"),
        })
        .unwrap();
        assert_eq!(ints, [-1, 1, -2, 300, 4]);
        assert_eq!(doubles, [1.5, -0.5, 2.0]);
        assert_eq!(bools, Some(vec![true, false, true, false]));
        assert_eq!(strings, ["a", "b"]);
    }

    #[test]
    fn a_repeated_run_gets_its_exact_capacity() {
        // As the JSON decoder sizes a `Vec` by its array: a cached object holds no spare room.
        let bytes = Enc::new()
            .string(1, "a")
            .string(1, "b")
            .string(1, "c")
            .string(2, "x")
            .string(1, "d")
            .finish();
        let (mut strings, mut other) = (Vec::new(), Vec::new());
        each(&bytes, DecodeOptions::default(), |n, w, r| match n {
            1 => repeated::<Str>(&mut strings, w, r, "strings"),
            _ => repeated::<Str>(&mut other, w, r, "other"),
        })
        .unwrap();
        assert_eq!(strings, ["a", "b", "c", "d"]);
        assert_eq!(other, ["x"]);
        assert_eq!(other.capacity(), 1);
        // The run of three was reserved exactly; the straggler grew it as any push would.
        assert!(strings.capacity() >= 4);
        let mut three = Vec::new();
        let run = Enc::new()
            .string(1, "a")
            .string(1, "b")
            .string(1, "c")
            .finish();
        each(&run, DecodeOptions::default(), |_, w, r| {
            repeated::<Str>(&mut three, w, r, "strings")
        })
        .unwrap();
        assert_eq!((three.len(), three.capacity()), (3, 3));
    }

    #[test]
    fn repeated_errors_name_the_index() {
        let bytes = Enc::new().string(1, "a").bytes(1, &[0xff]).finish();
        let mut strings = Vec::new();
        let err = each(&bytes, DecodeOptions::default(), |_, w, r| {
            repeated::<Str>(&mut strings, w, r, "args")
        })
        .unwrap_err();
        assert_eq!(
            err.to_string(),
            "decoding from protobuf: args[1]: invalid UTF-8 in a string at byte 4"
        );
        // A packed run cut inside its third value.
        let bytes = Enc::new().bytes(1, &[1, 2, 0x80]).finish();
        let mut ints = Vec::new();
        let err = each(&bytes, DecodeOptions::default(), |_, w, r| {
            repeated::<I64>(&mut ints, w, r, "ints")
        })
        .unwrap_err();
        assert_eq!(
            err.to_string(),
            "decoding from protobuf: ints[2]: unexpected end of input at byte 4"
        );
        let bytes = Enc::new().double(1, 1.0).finish();
        let err = each(&bytes, DecodeOptions::default(), |_, w, r| {
            repeated::<I64>(&mut ints, w, r, "ints")
        })
        .unwrap_err();
        assert_eq!(
            err.to_string(),
            "decoding from protobuf: ints: wrong wire type (expected varint, found fixed64) at byte 0"
        );
    }

    #[test]
    fn wrong_wire_types() {
        let bytes = Enc::new().string(3, "80").finish();
        let mut port = 0i32;
        let err = each(&bytes, DecodeOptions::default(), |_, w, r| {
            value::<I32>(&mut port, w, r, "containerPort")
        })
        .unwrap_err();
        assert_eq!(
            err.kind(),
            &ErrorKind::WrongWireType {
                expected: WireType::Varint,
                found: WireType::Len
            }
        );
        assert_eq!(err.path(), "containerPort");
        let bytes = Enc::new().int(1, 1).finish();
        let mut s: Option<String> = None;
        let err = each(&bytes, DecodeOptions::default(), |_, w, r| {
            optional::<Str>(&mut s, w, r, "name")
        })
        .unwrap_err();
        assert_eq!(err.path(), "name");
    }

    #[test]
    fn maps() {
        // Value before key, a missing key, and a key that repeats.
        let bytes = Enc::new()
            .bytes(1, &Enc::new().string(2, "v").string(1, "k").finish())
            .bytes(1, &Enc::new().string(2, "nokey").uint(9, 1).finish())
            .bytes(1, &Enc::new().string(1, "k").string(2, "w").finish())
            .finish();
        let mut labels = None;
        each(&bytes, DecodeOptions::default(), |_, w, r| {
            optional_map::<Str, Str>(&mut labels, w, r, "labels")
        })
        .unwrap();
        let want: BTreeMap<String, String> = [("k", "w"), ("", "nokey")]
            .map(|(k, v)| (k.to_owned(), v.to_owned()))
            .into();
        assert_eq!(labels, Some(want));
        // Go always writes the value: an entry without one is refused, naming its key.
        let bytes = Enc::new()
            .bytes(1, &Enc::new().string(1, "novalue").finish())
            .finish();
        let err = each(&bytes, DecodeOptions::default(), |_, w, r| {
            optional_map::<Str, Str>(&mut labels, w, r, "labels")
        })
        .unwrap_err();
        assert_eq!(err.kind(), &ErrorKind::MissingField("value"));
        assert_eq!(err.path(), "labels[\"novalue\"]");
    }

    #[test]
    fn map_errors_name_the_key() {
        let bytes = Enc::new()
            .bytes(2, &Enc::new().bytes(2, &[0xc0]).string(1, "app").finish())
            .finish();
        let mut labels = BTreeMap::new();
        let err = each(&bytes, DecodeOptions::default(), |_, w, r| {
            map::<Str, Str>(&mut labels, w, r, "labels")
        })
        .unwrap_err();
        assert_eq!(
            err.to_string(),
            "decoding from protobuf: labels[\"app\"]: invalid UTF-8 in a string at byte 3"
        );
        let bytes = Enc::new()
            .bytes(2, &Enc::new().string(1, "k").uint(2, 1).finish())
            .finish();
        let err = each(&bytes, DecodeOptions::default(), |_, w, r| {
            map::<Str, Str>(&mut labels, w, r, "labels")
        })
        .unwrap_err();
        assert_eq!(err.path(), "labels[\"k\"]");
        assert_eq!(err.offset(), 5);
        let bytes = Enc::new().uint(2, 1).finish();
        let err = each(&bytes, DecodeOptions::default(), |_, w, r| {
            map::<Str, Str>(&mut labels, w, r, "labels")
        })
        .unwrap_err();
        assert_eq!(err.path(), "labels");
    }

    #[derive(Debug, Default, PartialEq)]
    struct Volume {
        name: String,
        host_path: Option<String>,
        empty_dir: Option<bool>,
    }

    #[test]
    fn inline_flattens_fields_and_paths() {
        let source = Enc::new().string(1, "/tmp").uint(2, 1).finish();
        let bytes = Enc::new().string(1, "v").bytes(2, &source).finish();
        let mut volume = Volume::default();
        let merge_source = |v: &mut Volume, n: u32, w: WireType, r: &mut Reader<'_>| match n {
            1 => optional::<Str>(&mut v.host_path, w, r, "hostPath"),
            2 => optional::<Bool>(&mut v.empty_dir, w, r, "emptyDir"),
            _ => r.skip(w),
        };
        each(&bytes, DecodeOptions::default(), |n, w, r| match n {
            1 => value::<Str>(&mut volume.name, w, r, "name"),
            _ => inline(&mut volume, w, r, "volumeSource", merge_source),
        })
        .unwrap();
        assert_eq!(
            volume,
            Volume {
                name: "v".into(),
                host_path: Some("/tmp".into()),
                empty_dir: Some(true)
            }
        );

        let bad = Enc::new()
            .bytes(2, &Enc::new().uint(1, 1).finish())
            .finish();
        let err = each(&bad, DecodeOptions::default(), |_, w, r| {
            inline(&mut volume, w, r, "volumeSource", merge_source)
        })
        .unwrap_err();
        assert_eq!(err.path(), "hostPath");
        let bad = Enc::new().uint(2, 1).finish();
        let err = each(&bad, DecodeOptions::default(), |_, w, r| {
            inline(&mut volume, w, r, "volumeSource", merge_source)
        })
        .unwrap_err();
        assert_eq!(err.path(), "volumeSource");
    }

    #[test]
    fn managed_fields_are_skipped_unless_kept() {
        // The FieldsV1 message wraps the JSON in its own field 1.
        let entry = Enc::new()
            .string(1, "kubectl")
            .bytes(7, &Enc::new().bytes(1, br#"{"f:data":{}}"#).finish())
            .finish();
        let bytes = Enc::new().bytes(17, &entry).bytes(17, &entry).finish();
        let mut skipped: Option<Vec<Managed>> = None;
        each(&bytes, DecodeOptions::default(), |_, w, r| {
            managed_fields::<Msg<Managed>>(&mut skipped, w, r, "managedFields")
        })
        .unwrap();
        assert_eq!(skipped, None);
        let mut kept: Option<Vec<Managed>> = None;
        let options = DecodeOptions::default().keep_managed_fields(true);
        each(&bytes, options, |_, w, r| {
            managed_fields::<Msg<Managed>>(&mut kept, w, r, "managedFields")
        })
        .unwrap();
        let kept = kept.unwrap();
        assert_eq!(kept.len(), 2);
        assert_eq!(kept[1].0.manager.as_deref(), Some("kubectl"));
        assert_eq!(
            kept[1].0.fields_v1.as_ref().map(|f| &f.0),
            Some(&serde_json::json!({"f:data": {}}))
        );
        // Skipping still checks the wire type.
        let bad = Enc::new().uint(17, 1).finish();
        let err = each(&bad, DecodeOptions::default(), |_, w, r| {
            managed_fields::<Msg<Managed>>(&mut skipped, w, r, "managedFields")
        })
        .unwrap_err();
        assert_eq!(err.path(), "managedFields");
    }

    #[derive(Debug, Default, PartialEq)]
    struct Props {
        id: Option<String>,
        not: Option<Box<Props>>,
    }

    impl Message for Props {
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
                1 => optional::<Str>(&mut self.id, wire, r, "id"),
                2 => boxed::<Msg<Props>>(&mut self.not, wire, r, "not"),
                _ => r.skip(wire),
            }
        }
    }

    #[test]
    fn boxed_recursion_and_its_depth_limit() {
        let inner = Enc::new().string(1, "b").finish();
        let bytes = Enc::new().string(1, "a").bytes(2, &inner).finish();
        let props: Props =
            crate::decode_message(&mut Reader::new(&bytes, DecodeOptions::default())).unwrap();
        assert_eq!(props.not.unwrap().id.as_deref(), Some("b"));

        let mut bytes = Vec::new();
        for _ in 0..100 {
            bytes = Enc::new().bytes(2, &bytes).finish();
        }
        let err =
            crate::decode_message::<Props>(&mut Reader::new(&bytes, DecodeOptions::default()))
                .unwrap_err();
        assert_eq!(err.kind(), &ErrorKind::TooDeep);
        assert!(err.path().starts_with("not.not.not."), "{}", err.path());
    }
}
