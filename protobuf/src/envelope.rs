//! The `k8s\0` + `runtime.Unknown` envelope of every object body.

use crate::codec::Str;
use crate::error::{DecodeError, ErrorKind};
use crate::field::{check_wire, value};
use crate::wire::{Decode, DecodeOptions, Reader, WireType};

/// The prefix of a Kubernetes protobuf body; its last byte names the envelope, and only 0
/// (`runtime.Unknown`) exists.
pub(crate) const MAGIC: &[u8] = b"k8s\0";

/// The `apiVersion` and `kind` the envelope names.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct TypeMeta {
    /// The group and version, as `apps/v1` (`v1` for the core group).
    pub api_version: String,
    /// The kind, as `Deployment`.
    pub kind: String,
}

// An opened envelope: its type and where its payload (the object's own message) lies.
pub(crate) struct Envelope<'a> {
    pub(crate) type_meta: TypeMeta,
    pub(crate) raw: Reader<'a>,
}

impl Envelope<'_> {
    // Names the kind in an error from the payload, when the envelope named it.
    pub(crate) fn name(&self, e: DecodeError) -> DecodeError {
        if self.type_meta.kind.is_empty() {
            e
        } else {
            e.of(&self.type_meta.kind)
        }
    }
}

// Opens the envelope of `body`, which lies at `base` of the input offsets count from.
pub(crate) fn open(
    body: &[u8],
    base: usize,
    options: DecodeOptions,
) -> Result<Envelope<'_>, DecodeError> {
    let Some(unknown) = body.strip_prefix(MAGIC) else {
        return Err(DecodeError::new(ErrorKind::BadMagic, base));
    };
    let mut r = Reader::at(unknown, base + MAGIC.len(), options);
    let mut type_meta = TypeMeta::default();
    let mut raw = None;
    let mut encoding = (String::new(), 0);
    while let Some((number, wire)) = r.next_field()? {
        match number {
            1 => {
                check_wire(WireType::Len, wire, &r).map_err(|e| e.in_field("typeMeta"))?;
                let mut sub = r.nested().map_err(|e| e.in_field("typeMeta"))?;
                while let Some((number, wire)) =
                    sub.next_field().map_err(|e| e.in_field("typeMeta"))?
                {
                    match number {
                        1 => value::<Str>(&mut type_meta.api_version, wire, &mut sub, "apiVersion"),
                        2 => value::<Str>(&mut type_meta.kind, wire, &mut sub, "kind"),
                        _ => sub.skip(wire),
                    }
                    .map_err(|e| e.in_field("typeMeta"))?;
                }
            }
            2 => {
                check_wire(WireType::Len, wire, &r).map_err(|e| e.in_field("raw"))?;
                let payload = r.bytes().map_err(|e| e.in_field("raw"))?;
                raw = Some(Reader::at(payload, r.offset() - payload.len(), options));
            }
            3 => {
                encoding.1 = r.field_start();
                value::<Str>(&mut encoding.0, wire, &mut r, "contentEncoding")?;
            }
            _ => r.skip(wire)?,
        }
    }
    if !encoding.0.is_empty() {
        return Err(DecodeError::new(
            ErrorKind::Unsupported(format!("content encoding {:?}", encoding.0)),
            encoding.1,
        ));
    }
    // Go decodes an absent payload as an empty object; a server never sends one, and treating
    // it as an error catches bodies cut short after the type.
    let raw = raw.ok_or_else(|| DecodeError::new(ErrorKind::MissingField("raw"), r.offset()))?;
    Ok(Envelope { type_meta, raw })
}

/// Decodes an object body (`k8s\0` + `runtime.Unknown`) as a `D`, with the type the
/// envelope names.
pub fn decode_object<D: Decode>(
    body: &[u8],
    options: DecodeOptions,
) -> Result<(TypeMeta, D::Value), DecodeError> {
    decode_object_at::<D>(body, 0, options)
}

pub(crate) fn decode_object_at<D: Decode>(
    body: &[u8],
    base: usize,
    options: DecodeOptions,
) -> Result<(TypeMeta, D::Value), DecodeError> {
    let mut envelope = open(body, base, options)?;
    match D::decode(&mut envelope.raw) {
        Ok(object) => Ok((envelope.type_meta, object)),
        Err(e) => Err(envelope.name(e)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testutil::{config_map, config_map_value, Cm, Enc};

    #[test]
    fn decodes_an_object() {
        let body = Enc::envelope("v1", "ConfigMap", &config_map("a", "5", "k", "v"));
        let (type_meta, cm) = decode_object::<Cm>(&body, DecodeOptions::default()).unwrap();
        assert_eq!(
            type_meta,
            TypeMeta {
                api_version: "v1".into(),
                kind: "ConfigMap".into()
            }
        );
        assert_eq!(cm, config_map_value("a", "5", "k", "v"));
    }

    #[test]
    fn unknown_fields_of_every_wire_type_are_skipped() {
        let raw = Enc::new()
            .raw(&config_map("a", "5", "k", "v"))
            .uint(100, u64::MAX)
            .double(101, 1.0)
            .bytes(102, b"ignored")
            .tag(103, 5)
            .raw(&[1, 2, 3, 4])
            .finish();
        let body = Enc::new()
            .raw(MAGIC)
            .uint(9, 1)
            .bytes(2, &raw)
            .tag(10, 1)
            .raw(&[0; 8])
            .tag(11, 5)
            .raw(&[0; 4])
            .bytes(12, b"x")
            .finish();
        let (type_meta, cm) = decode_object::<Cm>(&body, DecodeOptions::default()).unwrap();
        assert_eq!(type_meta, TypeMeta::default());
        assert_eq!(cm, config_map_value("a", "5", "k", "v"));
    }

    #[test]
    fn envelope_errors() {
        let err = |body: &[u8]| {
            decode_object::<Cm>(body, DecodeOptions::default())
                .unwrap_err()
                .to_string()
        };
        assert_eq!(
            err(br#"{"kind":"ConfigMap"}"#),
            "decoding from protobuf: not a Kubernetes protobuf body (no `k8s\\0` prefix) at byte 0"
        );
        assert_eq!(err(b"k8s"), err(b"{}"));
        let gzip = Enc::new()
            .raw(MAGIC)
            .bytes(2, &[])
            .string(3, "gzip")
            .finish();
        assert_eq!(
            err(&gzip),
            "decoding from protobuf: unsupported: content encoding \"gzip\" at byte 6"
        );
        let no_raw = Enc::new()
            .raw(MAGIC)
            .bytes(1, &Enc::new().string(2, "ConfigMap").finish())
            .finish();
        assert_eq!(
            err(&no_raw),
            "decoding from protobuf: missing field `raw` at byte 17"
        );
        let bad_kind = Enc::new()
            .raw(MAGIC)
            .bytes(1, &Enc::new().uint(2, 1).finish())
            .finish();
        assert_eq!(
            err(&bad_kind),
            "decoding from protobuf: typeMeta.kind: wrong wire type (expected length-delimited, found varint) at byte 6"
        );
        let bad_raw = Enc::new().raw(MAGIC).uint(2, 1).finish();
        assert!(err(&bad_raw).contains("raw: wrong wire type"));
    }

    #[test]
    fn errors_in_the_object_name_its_kind_and_path() {
        let entry = Enc::new().string(1, "key").bytes(2, &[0xff]).finish();
        let raw = Enc::new().bytes(2, &entry).finish();
        let body = Enc::envelope("v1", "ConfigMap", &raw);
        let err = decode_object::<Cm>(&body, DecodeOptions::default()).unwrap_err();
        assert_eq!(
            err.to_string(),
            format!(
                "decoding a ConfigMap from protobuf: data[\"key\"]: invalid UTF-8 in a string at byte {}",
                body.len() - 6
            )
        );
    }

    #[test]
    fn every_truncation_fails_or_only_drops_trailing_empty_fields() {
        let body = Enc::envelope("v1", "ConfigMap", &config_map("a", "5", "k", "v"));
        let whole = decode_object::<Cm>(&body, DecodeOptions::default()).unwrap();
        // The envelope ends with the empty contentEncoding and contentType Go always writes;
        // cutting exactly before either loses nothing.
        let boundaries = [body.len() - 4, body.len() - 2];
        for len in 0..body.len() {
            match decode_object::<Cm>(&body[..len], DecodeOptions::default()) {
                Err(_) => assert!(!boundaries.contains(&len), "prefix of {len} bytes failed"),
                Ok(decoded) => {
                    assert!(boundaries.contains(&len), "prefix of {len} bytes decoded");
                    assert_eq!(decoded, whole);
                }
            }
        }
    }
}
