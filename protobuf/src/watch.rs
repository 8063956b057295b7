//! Watch streams: length-prefixed frames of `meta.v1.WatchEvent`.
//!
//! The frames are written by apimachinery's raw (envelope-less) protobuf serializer behind a
//! 4-byte big-endian length (`framer.NewLengthDelimitedFrameWriter`), while the event's object
//! is encoded by the ordinary serializer first, so its bytes carry their own `k8s\0` envelope
//! (client-go's `rest/watch` decoder reads them with its embedded decoder).

use k8s_openapi::apimachinery::pkg::apis::meta::v1::Status;

use crate::codec::Str;
use crate::envelope::decode_object_at;
use crate::error::{DecodeError, ErrorKind};
use crate::field::{check_wire, value};
use crate::wire::{Decode, DecodeOptions, Reader, WireType};

// The frame header: the payload's length as a big-endian u32.
const HEADER: usize = 4;

/// Splits a watch response into frames as its bytes arrive.
#[derive(Debug)]
pub struct FrameReader {
    buf: Vec<u8>,
    // The first byte of `buf` not yet returned in a frame.
    start: usize,
    // The offset in the stream of `buf[start]`, for errors.
    offset: usize,
    max_frame: usize,
}

impl FrameReader {
    /// A reader that refuses frames longer than `max_frame` bytes (before buffering them).
    pub fn new(max_frame: usize) -> Self {
        Self {
            buf: Vec::new(),
            start: 0,
            offset: 0,
            max_frame,
        }
    }

    /// Appends bytes of the stream.
    pub fn push(&mut self, bytes: &[u8]) {
        // Dropping returned frames once they are at least half the buffer keeps the copying
        // linear in the stream's length.
        if self.start > 0 && self.start * 2 >= self.buf.len() {
            self.buf.drain(..self.start);
            self.start = 0;
        }
        self.buf.extend_from_slice(bytes);
    }

    /// The next whole frame's payload, or `None` until more bytes are pushed. A frame longer
    /// than the limit is an error, every time it is asked for: the stream cannot resume.
    pub fn next_frame(&mut self) -> Result<Option<Vec<u8>>, DecodeError> {
        let pending = &self.buf[self.start..];
        let Some(header) = pending.first_chunk::<HEADER>() else {
            return Ok(None);
        };
        let len = u32::from_be_bytes(*header);
        let len = usize::try_from(len)
            .ok()
            .filter(|&len| len <= self.max_frame)
            .ok_or_else(|| {
                DecodeError::new(
                    ErrorKind::FrameTooLarge {
                        len: u64::from(len),
                        max: self.max_frame,
                    },
                    self.offset,
                )
            })?;
        let Some(frame) = pending[HEADER..].get(..len) else {
            return Ok(None);
        };
        let frame = frame.to_vec();
        self.start += HEADER + len;
        self.offset += HEADER + len;
        Ok(Some(frame))
    }

    /// Checks that the stream ended between frames.
    pub fn finish(&self) -> Result<(), DecodeError> {
        if self.start == self.buf.len() {
            Ok(())
        } else {
            Err(DecodeError::new(ErrorKind::Truncated, self.offset))
        }
    }
}

/// One event of a watch.
#[derive(Debug, Clone, PartialEq)]
// The lint sees `M` as zero-sized; real objects (a Pod is about 1 KiB) outweigh a Status.
#[allow(clippy::large_enum_variant)]
pub enum WatchEvent<M> {
    /// `ADDED`: the new object.
    Added(M),
    /// `MODIFIED`: the object's new state.
    Modified(M),
    /// `DELETED`: the object's last state.
    Deleted(M),
    /// `BOOKMARK`: an object with only `metadata.resourceVersion` (and annotations) set.
    Bookmark(M),
    /// `ERROR`: why the server ended the watch (410 Gone when the resource version is too
    /// old).
    Error(Status),
}

/// Decodes one frame's payload (see [`FrameReader`]) as a `meta.v1.WatchEvent` whose object
/// is a `D` (or a `Status` for `ERROR`).
pub fn decode_watch_event<D: Decode>(
    frame: &[u8],
    options: DecodeOptions,
) -> Result<WatchEvent<D::Value>, DecodeError> {
    let mut r = Reader::new(frame, options);
    let mut event_type = String::new();
    let mut type_at = 0;
    let mut object = None;
    while let Some((number, wire)) = r.next_field()? {
        match number {
            1 => {
                type_at = r.field_start();
                value::<Str>(&mut event_type, wire, &mut r, "type")?;
            }
            2 => {
                check_wire(WireType::Len, wire, &r).map_err(|e| e.in_field("object"))?;
                let mut raw_extension = r.nested().map_err(|e| e.in_field("object"))?;
                while let Some((number, wire)) = raw_extension
                    .next_field()
                    .map_err(|e| e.in_field("object"))?
                {
                    if number == 1 {
                        let in_raw = |e: DecodeError| e.in_field("raw").in_field("object");
                        check_wire(WireType::Len, wire, &raw_extension).map_err(in_raw)?;
                        let raw = raw_extension.bytes().map_err(in_raw)?;
                        object = Some((raw, raw_extension.offset() - raw.len()));
                    } else {
                        raw_extension.skip(wire).map_err(|e| e.in_field("object"))?;
                    }
                }
            }
            _ => r.skip(wire)?,
        }
    }
    let (raw, at) = match object {
        Some((raw, at)) if !raw.is_empty() => (raw, at),
        _ => {
            return Err(DecodeError::new(
                ErrorKind::MissingField("object"),
                frame.len(),
            ))
        }
    };
    let object = || decode_object_at::<D>(raw, at, options).map(|(_, object)| object);
    Ok(match event_type.as_str() {
        "ADDED" => WatchEvent::Added(object()?),
        "MODIFIED" => WatchEvent::Modified(object()?),
        "DELETED" => WatchEvent::Deleted(object()?),
        "BOOKMARK" => WatchEvent::Bookmark(object()?),
        "ERROR" => WatchEvent::Error(decode_object_at::<Status>(raw, at, options)?.1),
        _ => {
            return Err(DecodeError::new(
                ErrorKind::UnknownEventType(event_type),
                type_at,
            ))
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testutil::{config_map, config_map_value, Cm, Enc};

    fn event(event_type: &str, object: &[u8]) -> Vec<u8> {
        let raw_extension = Enc::new().bytes(1, object).finish();
        Enc::new()
            .string(1, event_type)
            .bytes(2, &raw_extension)
            .finish()
    }

    fn frame(payload: &[u8]) -> Vec<u8> {
        let mut framed = (payload.len() as u32).to_be_bytes().to_vec();
        framed.extend_from_slice(payload);
        framed
    }

    fn status_410() -> Vec<u8> {
        let cause = Enc::new()
            .string(1, "FieldValueInvalid")
            .string(3, "spec")
            .finish();
        let details = Enc::new().string(1, "").bytes(4, &cause).int(5, 0).finish();
        let status = Enc::new()
            .bytes(
                1,
                &Enc::new()
                    .string(1, "")
                    .string(2, "")
                    .string(3, "")
                    .finish(),
            )
            .string(2, "Failure")
            .string(3, "too old resource version: 1 (5)")
            .string(4, "Expired")
            .bytes(5, &details)
            .int(6, 410)
            .finish();
        Enc::envelope("v1", "Status", &status)
    }

    fn stream() -> Vec<u8> {
        let object = |name, rv| Enc::envelope("v1", "ConfigMap", &config_map(name, rv, "k", "v"));
        let bookmark = Enc::envelope(
            "v1",
            "ConfigMap",
            &Enc::new()
                .bytes(1, &Enc::new().string(6, "9").finish())
                .finish(),
        );
        [
            event("ADDED", &object("a", "1")),
            event("MODIFIED", &object("a", "2")),
            event("DELETED", &object("a", "3")),
            event("BOOKMARK", &bookmark),
            event("ERROR", &status_410()),
        ]
        .iter()
        .flat_map(|payload| frame(payload))
        .collect()
    }

    #[test]
    fn a_stream_pushed_byte_by_byte() {
        let mut frames = FrameReader::new(1 << 20);
        let mut events = Vec::new();
        for byte in stream() {
            frames.push(&[byte]);
            while let Some(frame) = frames.next_frame().unwrap() {
                events.push(decode_watch_event::<Cm>(&frame, DecodeOptions::default()).unwrap());
            }
        }
        frames.finish().unwrap();
        let mut bookmark = Cm::default();
        bookmark.0.metadata.resource_version = Some("9".into());
        let WatchEvent::Error(status) = &events[4] else {
            panic!("not an error event: {:?}", events[4]);
        };
        assert_eq!(status.code, Some(410));
        assert_eq!(status.reason.as_deref(), Some("Expired"));
        assert_eq!(status.status.as_deref(), Some("Failure"));
        assert_eq!(status.metadata, ListMeta::default());
        let details = status.details.as_ref().unwrap();
        assert_eq!(
            (details.name.as_deref(), details.retry_after_seconds),
            (None, None)
        );
        let cause = &details.causes.as_ref().unwrap()[0];
        assert_eq!(
            (
                cause.reason.as_deref(),
                cause.message.as_deref(),
                cause.field.as_deref()
            ),
            (Some("FieldValueInvalid"), None, Some("spec"))
        );
        assert_eq!(
            events[..4],
            [
                WatchEvent::Added(config_map_value("a", "1", "k", "v")),
                WatchEvent::Modified(config_map_value("a", "2", "k", "v")),
                WatchEvent::Deleted(config_map_value("a", "3", "k", "v")),
                WatchEvent::Bookmark(bookmark),
            ]
        );
    }

    use k8s_openapi::apimachinery::pkg::apis::meta::v1::ListMeta;

    #[test]
    fn whole_stream_in_one_push() {
        let mut frames = FrameReader::new(1 << 20);
        frames.push(&stream());
        let mut count = 0;
        while let Some(frame) = frames.next_frame().unwrap() {
            decode_watch_event::<Cm>(&frame, DecodeOptions::default()).unwrap();
            count += 1;
        }
        assert_eq!(count, 5);
        frames.finish().unwrap();
    }

    #[test]
    fn shared_events_decode_in_place_as_owned_ones_decode() {
        let shared = |frame: &[u8]| {
            decode_watch_event::<crate::Shared<Cm>>(frame, DecodeOptions::default())
                .map(|e| match e {
                    WatchEvent::Added(o) => WatchEvent::Added(o.0.clone()),
                    WatchEvent::Modified(o) => WatchEvent::Modified(o.0.clone()),
                    WatchEvent::Deleted(o) => WatchEvent::Deleted(o.0.clone()),
                    WatchEvent::Bookmark(o) => WatchEvent::Bookmark(o.0.clone()),
                    WatchEvent::Error(status) => WatchEvent::Error(status),
                })
                .map_err(|e| e.to_string())
        };
        let owned = |frame: &[u8]| {
            decode_watch_event::<Cm>(frame, DecodeOptions::default())
                .map(|e| match e {
                    WatchEvent::Added(o) => WatchEvent::Added(o.0),
                    WatchEvent::Modified(o) => WatchEvent::Modified(o.0),
                    WatchEvent::Deleted(o) => WatchEvent::Deleted(o.0),
                    WatchEvent::Bookmark(o) => WatchEvent::Bookmark(o.0),
                    WatchEvent::Error(status) => WatchEvent::Error(status),
                })
                .map_err(|e| e.to_string())
        };
        let mut frames = FrameReader::new(1 << 20);
        frames.push(&stream());
        let mut count = 0;
        while let Some(frame) = frames.next_frame().unwrap() {
            assert!(shared(&frame).is_ok());
            assert_eq!(shared(&frame), owned(&frame));
            for cut in 0..frame.len() {
                assert_eq!(shared(&frame[..cut]), owned(&frame[..cut]), "cut at {cut}");
            }
            count += 1;
        }
        assert_eq!(count, 5);
    }

    #[test]
    fn a_partial_frame_at_the_end_is_an_error() {
        let stream = stream();
        let mut frames = FrameReader::new(1 << 20);
        frames.push(&stream[..stream.len() - 1]);
        while frames.next_frame().unwrap().is_some() {}
        let err = frames.finish().unwrap_err();
        assert_eq!(err.kind(), &ErrorKind::Truncated);
        let last = 4 + u32::from_be_bytes(*stream[..4].first_chunk().unwrap()) as usize;
        assert!(err.offset() >= last, "{err}");
        // A header cut short too.
        let mut frames = FrameReader::new(10);
        frames.push(&[0, 0]);
        assert_eq!(frames.next_frame().unwrap(), None);
        assert_eq!(frames.finish().unwrap_err().offset(), 0);
    }

    #[test]
    fn an_oversized_frame_is_an_error_without_allocating() {
        let mut frames = FrameReader::new(1024);
        frames.push(&frame(b"ok"));
        frames.push(&u32::MAX.to_be_bytes());
        assert_eq!(frames.next_frame().unwrap(), Some(b"ok".to_vec()));
        let err = frames.next_frame().unwrap_err();
        assert_eq!(
            err.to_string(),
            "decoding from protobuf: frame of 4294967295 bytes exceeds the limit of 1024 bytes at byte 6"
        );
        assert!(frames.buf.capacity() < 1024, "{}", frames.buf.capacity());
        // The stream cannot resume past it.
        assert!(frames.next_frame().is_err());
        // The limit itself is allowed.
        let mut frames = FrameReader::new(3);
        frames.push(&frame(b"abc"));
        assert_eq!(frames.next_frame().unwrap(), Some(b"abc".to_vec()));
        frames.push(&frame(b""));
        assert_eq!(frames.next_frame().unwrap(), Some(Vec::new()));
    }

    #[test]
    fn event_errors() {
        let err = |frame: &[u8]| {
            decode_watch_event::<Cm>(frame, DecodeOptions::default())
                .unwrap_err()
                .to_string()
        };
        let object = Enc::envelope("v1", "ConfigMap", &config_map("a", "1", "k", "v"));
        assert_eq!(
            err(&event("RESYNC", &object)),
            "decoding from protobuf: unknown watch event type \"RESYNC\" at byte 0"
        );
        assert_eq!(
            err(&Enc::new().string(1, "ADDED").finish()),
            "decoding from protobuf: missing field `object` at byte 7"
        );
        assert_eq!(
            err(&event("ADDED", b"")),
            "decoding from protobuf: missing field `object` at byte 11"
        );
        // The object carries its envelope; a bare message is refused.
        assert_eq!(
            err(&event("ADDED", &config_map("a", "1", "k", "v"))),
            "decoding from protobuf: not a Kubernetes protobuf body (no `k8s\\0` prefix) at byte 11"
        );
        let wrong = Enc::new()
            .string(1, "ADDED")
            .bytes(2, &Enc::new().uint(1, 3).finish())
            .finish();
        assert_eq!(
            err(&wrong),
            "decoding from protobuf: object.raw: wrong wire type (expected length-delimited, found varint) at byte 9"
        );
        // Offsets inside the object count from the frame's start.
        let entry = Enc::new().string(1, "key").bytes(2, &[0xff]).finish();
        let bad = Enc::envelope("v1", "ConfigMap", &Enc::new().bytes(2, &entry).finish());
        let frame = event("MODIFIED", &bad);
        assert_eq!(
            err(&frame),
            format!(
                "decoding a ConfigMap from protobuf: data[\"key\"]: invalid UTF-8 in a string at byte {}",
                frame.len() - 6
            )
        );
    }

    #[test]
    fn every_truncation_of_an_event_fails() {
        let object = Enc::envelope("v1", "ConfigMap", &config_map("a", "1", "k", "v"));
        let frame = event("ADDED", &object);
        for len in 0..frame.len() {
            assert!(
                decode_watch_event::<Cm>(&frame[..len], DecodeOptions::default()).is_err(),
                "prefix of {len} bytes decoded"
            );
        }
    }
}
