//! The one error type of every decoder, with where in the bytes and in the object it happened.

use std::fmt;

use crate::wire::WireType;

/// Why decoding failed.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum ErrorKind {
    /// The input ended inside a value, a length-delimited payload or a frame.
    #[error("unexpected end of input")]
    Truncated,
    /// A varint ran past ten bytes or past 64 bits.
    #[error("varint overflows 64 bits")]
    VarintOverflow,
    /// A field arrived with a wire type its schema does not allow.
    #[error("wrong wire type (expected {expected}, found {found})")]
    WrongWireType {
        /// The wire type the field's proto type is written with.
        expected: WireType,
        /// The wire type in the input.
        found: WireType,
    },
    /// A tag carried a wire type that is not 0, 1, 2 or 5 (3 and 4 are proto2 groups, which
    /// Kubernetes never writes).
    #[error("unsupported wire type {0}")]
    InvalidWireType(u8),
    /// A tag carried field number 0 or one above 2^29-1.
    #[error("invalid field number {0}")]
    InvalidFieldNumber(u64),
    /// A string field was not UTF-8.
    #[error("invalid UTF-8 in a string")]
    InvalidUtf8,
    /// Messages nested deeper than [`MAX_DEPTH`](crate::MAX_DEPTH).
    #[error("messages nested deeper than {} levels", crate::MAX_DEPTH)]
    TooDeep,
    /// A body did not start with the `k8s\0` prefix of Kubernetes protobuf.
    #[error("not a Kubernetes protobuf body (no `k8s\\0` prefix)")]
    BadMagic,
    /// A field that must be present was not.
    #[error("missing field `{0}`")]
    MissingField(&'static str),
    /// A value Go would also refuse, or one that has no JSON form (a time outside years 1 to
    /// 9999, an `IntOrString` of unknown type).
    #[error("invalid value: {0}")]
    InvalidValue(String),
    /// A well-formed input this decoder does not handle (a compressed envelope, a
    /// protobuf-encoded `RawExtension`).
    #[error("unsupported: {0}")]
    Unsupported(String),
    /// An embedded JSON document (`RawExtension`, `FieldsV1`, `JSON`) did not parse.
    #[error("invalid JSON: {0}")]
    InvalidJson(String),
    /// A watch frame announced more bytes than the reader's limit.
    #[error("frame of {len} bytes exceeds the limit of {max} bytes")]
    FrameTooLarge {
        /// The announced length.
        len: u64,
        /// The limit given to [`FrameReader::new`](crate::FrameReader::new).
        max: usize,
    },
    /// A watch event of a type other than ADDED, MODIFIED, DELETED, BOOKMARK and ERROR.
    #[error("unknown watch event type {0:?}")]
    UnknownEventType(String),
}

/// A decoding failure: its [`ErrorKind`], the byte offset where it happened, the path of
/// fields that led there and what was being decoded.
///
/// Displays as `decoding a Pod from protobuf: spec.containers[2].ports[0].containerPort: wrong
/// wire type (expected varint, found length-delimited) at byte 1234`.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("decoding {}from protobuf: {}{} at byte {}", What(.0.what.as_deref()), PathPrefix(&.0.path), .0.kind, .0.offset)]
// Boxed so that the `Result`s of the hot path stay two words.
pub struct DecodeError(Box<Inner>);

#[derive(Debug, Clone, PartialEq, Eq)]
struct Inner {
    kind: ErrorKind,
    offset: usize,
    // Innermost first: each enclosing decoder appends its own segment while the error unwinds.
    path: Vec<Segment>,
    what: Option<String>,
}

#[derive(Debug, Clone, PartialEq, Eq)]
enum Segment {
    Field(&'static str),
    Index(usize),
    Key(String),
}

impl DecodeError {
    /// An error of `kind` at byte `offset` of the input, with an empty path.
    pub fn new(kind: ErrorKind, offset: usize) -> Self {
        Self(Box::new(Inner {
            kind,
            offset,
            path: Vec::new(),
            what: None,
        }))
    }

    /// Why decoding failed.
    pub fn kind(&self) -> &ErrorKind {
        &self.0.kind
    }

    /// The byte offset in the input where it failed.
    pub fn offset(&self) -> usize {
        self.0.offset
    }

    /// The path of fields to the failing value, as `spec.containers[2].ports[0]` (empty at the
    /// top level).
    pub fn path(&self) -> String {
        Path(&self.0.path).to_string()
    }

    /// The same error at byte `offset`.
    pub(crate) fn with_offset(mut self, offset: usize) -> Self {
        self.0.offset = offset;
        self
    }

    /// Prefixes the path with the field `name` (the error happened inside it).
    #[must_use]
    pub fn in_field(mut self, name: &'static str) -> Self {
        self.0.path.push(Segment::Field(name));
        self
    }

    /// Prefixes the path with the list index `i`.
    #[must_use]
    pub fn at_index(mut self, i: usize) -> Self {
        self.0.path.push(Segment::Index(i));
        self
    }

    /// Prefixes the path with the map key `key`.
    #[must_use]
    pub fn at_key(mut self, key: &str) -> Self {
        self.0.path.push(Segment::Key(key.to_owned()));
        self
    }

    /// Names what was being decoded (a kind such as `Pod`); the outermost caller's name wins.
    #[must_use]
    pub fn of(mut self, what: &str) -> Self {
        self.0.what = Some(what.to_owned());
        self
    }
}

struct What<'a>(Option<&'a str>);

impl fmt::Display for What<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.0 {
            None => Ok(()),
            Some(what) => {
                // "an Ingress", "a Pod"; kinds starting with U mostly read as "you" (UserInfo).
                let article = match what.chars().next() {
                    Some('A' | 'E' | 'I' | 'O' | 'a' | 'e' | 'i' | 'o') => "an",
                    _ => "a",
                };
                write!(f, "{article} {what} ")
            }
        }
    }
}

struct Path<'a>(&'a [Segment]);

impl fmt::Display for Path<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, segment) in self.0.iter().rev().enumerate() {
            match segment {
                Segment::Field(name) if i == 0 => f.write_str(name)?,
                Segment::Field(name) => write!(f, ".{name}")?,
                Segment::Index(index) => write!(f, "[{index}]")?,
                Segment::Key(key) => write!(f, "[{key:?}]")?,
            }
        }
        Ok(())
    }
}

struct PathPrefix<'a>(&'a [Segment]);

impl fmt::Display for PathPrefix<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.0.is_empty() {
            Ok(())
        } else {
            write!(f, "{}: ", Path(self.0))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn display_names_the_resource_path_and_offset() {
        let err = DecodeError::new(
            ErrorKind::WrongWireType {
                expected: WireType::Varint,
                found: WireType::Len,
            },
            1234,
        )
        .in_field("containerPort")
        .at_index(0)
        .in_field("ports")
        .at_index(2)
        .in_field("containers")
        .in_field("spec")
        .of("Pod");
        assert_eq!(
            err.to_string(),
            "decoding a Pod from protobuf: spec.containers[2].ports[0].containerPort: wrong wire \
             type (expected varint, found length-delimited) at byte 1234"
        );
        assert_eq!(err.path(), "spec.containers[2].ports[0].containerPort");
        assert_eq!(err.offset(), 1234);
    }

    #[test]
    fn keys_articles_and_bare_errors() {
        let err = DecodeError::new(ErrorKind::InvalidUtf8, 7)
            .at_key("a.b\"c")
            .in_field("annotations")
            .in_field("metadata")
            .of("Ingress");
        assert_eq!(
            err.to_string(),
            "decoding an Ingress from protobuf: metadata.annotations[\"a.b\\\"c\"]: invalid UTF-8 \
             in a string at byte 7"
        );
        let bare = DecodeError::new(ErrorKind::Truncated, 0);
        assert_eq!(
            bare.to_string(),
            "decoding from protobuf: unexpected end of input at byte 0"
        );
        assert_eq!(bare.path(), "");
        // The outermost name wins.
        assert_eq!(
            bare.of("PodList").of("Pod").to_string(),
            "decoding a Pod from protobuf: unexpected end of input at byte 0"
        );
    }

    #[test]
    fn every_kind_displays() {
        let cases = [
            (ErrorKind::Truncated, "unexpected end of input"),
            (ErrorKind::VarintOverflow, "varint overflows 64 bits"),
            (ErrorKind::InvalidWireType(3), "unsupported wire type 3"),
            (ErrorKind::InvalidFieldNumber(0), "invalid field number 0"),
            (ErrorKind::InvalidUtf8, "invalid UTF-8 in a string"),
            (ErrorKind::TooDeep, "messages nested deeper than 64 levels"),
            (
                ErrorKind::BadMagic,
                "not a Kubernetes protobuf body (no `k8s\\0` prefix)",
            ),
            (ErrorKind::MissingField("raw"), "missing field `raw`"),
            (ErrorKind::InvalidValue("x".into()), "invalid value: x"),
            (ErrorKind::Unsupported("y".into()), "unsupported: y"),
            (ErrorKind::InvalidJson("z".into()), "invalid JSON: z"),
            (
                ErrorKind::FrameTooLarge { len: 10, max: 5 },
                "frame of 10 bytes exceeds the limit of 5 bytes",
            ),
            (
                ErrorKind::UnknownEventType("NOPE".into()),
                "unknown watch event type \"NOPE\"",
            ),
            (
                ErrorKind::WrongWireType {
                    expected: WireType::Fixed32,
                    found: WireType::Fixed64,
                },
                "wrong wire type (expected fixed32, found fixed64)",
            ),
        ];
        for (kind, want) in cases {
            assert_eq!(kind.to_string(), want);
            let err = DecodeError::new(kind.clone(), 3).in_field("f");
            assert_eq!(err.kind(), &kind);
            assert_eq!(
                err.to_string(),
                format!("decoding from protobuf: f: {want} at byte 3")
            );
        }
    }
}
