//! One input through informer-protobuf's decoders; shared by the fuzz target and the stable
//! test `tests/fuzz_replay.rs`, so that both make exactly the same calls.
//!
//! The input is decoded as a `ConfigMapList` body, a `Namespace` body (also through their
//! descriptors, as projections decode: into a `serde_json::Value`, and into a view of a few
//! ConfigMap fields, which must equal the typed decoder's when both decode) and a watch frame's
//! payload holding a `Secret`, and split into watch frames, each decoded as a `Secret` event.
//! Errors are fine; panics are bugs, and so are:
//! - an error whose message is empty, or does not name the kind the body's envelope declares
//!   (an error found inside the object), or names one when the envelope failed;
//! - frames that depend on how the stream was cut (whole, byte by byte, in chunks cut where the
//!   input's hash says, in chunks as long as the input's own bytes say), or, under a frame limit
//!   drawn from the hash, anything but the frames before the first longer one and then a
//!   `FrameTooLarge` error for it;
//! - a body that decodes with `keep_managed_fields` and not without it, or to other objects
//!   than without it apart from `metadata.managedFields`; one that decodes without it and not
//!   with it must fail inside `managedFields` (skipped unread without the option);
//! - a recursive message nested deeper than `MAX_DEPTH` that decodes, or fails otherwise than
//!   `TooDeep`;
//! - the client's list decode (the body scanned as it arrives, its items decoded in batches)
//!   reading a list `decode_list` does not read, however the body is cut; fed whole, refusing
//!   one it reads; a failed decoding task.

use informer_client::fuzz::{protobuf_list_body, Limits};
use informer_protobuf::codec::Msg;
use informer_protobuf::view::View;
use informer_protobuf::{
    decode_list, decode_message, decode_object, decode_watch_event, field, DecodeError,
    DecodeOptions, ErrorKind, FrameReader, Message, Reader, WatchEvent, WireType, MAX_DEPTH,
};
use informer_runtime::error::ErrorKind as ClientErrorKind;
use k8s_openapi::api::core::v1::{ConfigMap, Namespace, Secret};

use crate::{runtime, split};

/// Runs `data` as a list body, an object body, a watch event and a watch stream, and inside
/// a recursive message wrapped around `MAX_DEPTH` levels deep.
pub fn run(data: &[u8]) {
    streamed_list(data);
    let kind = envelope_kind(data);
    let list = |options| decode_list::<ConfigMap>(data, options);
    check_error(&list(lean()), data.len(), kind.as_deref());
    same_apart_from_managed_fields("a ConfigMapList", list(lean()), list(keep()), |list| {
        list.items
            .iter_mut()
            .for_each(|item| item.metadata.managed_fields = None)
    });
    let object = |options| decode_object::<Namespace>(data, options);
    check_error(&object(lean()), data.len(), kind.as_deref());
    // Through the descriptor, as projections decode: any bytes, any view type.
    let view = decode_object::<View<serde_json::Value, Namespace>>(data, keep());
    check_error(&view, data.len(), kind.as_deref());
    let view = decode_list::<View<ConfigMapView, ConfigMap>>(data, lean());
    check_error(&view, data.len(), kind.as_deref());
    if let (Ok(view), Ok(typed)) = (view, list(lean())) {
        let typed: Vec<ConfigMapView> = typed
            .items
            .into_iter()
            .map(|item| ConfigMapView {
                metadata: Some(NameOnly {
                    name: item.metadata.name,
                    labels: item.metadata.labels,
                }),
                data: item.data,
            })
            .collect();
        let view: Vec<ConfigMapView> = view
            .items
            .into_iter()
            .map(|mut item| {
                item.metadata.get_or_insert_with(NameOnly::default);
                item
            })
            .collect();
        assert_eq!(
            view, typed,
            "a view decodes what the decoder of its type does"
        );
    }
    same_apart_from_managed_fields("a Namespace", object(lean()), object(keep()), |(_, ns)| {
        ns.metadata.managed_fields = None
    });
    watch_event(data);
    for frame in frames(data) {
        watch_event(&frame);
    }
    nesting(data);
}

/// A projection-like view: two fields, one of them nested, the rest skipped.
#[derive(Debug, PartialEq, serde::Deserialize)]
struct ConfigMapView {
    metadata: Option<NameOnly>,
    data: Option<std::collections::BTreeMap<String, String>>,
}

#[derive(Debug, Default, PartialEq, serde::Deserialize)]
struct NameOnly {
    name: Option<String>,
    labels: Option<std::collections::BTreeMap<String, String>>,
}

/// `data` as a ConfigMap list body through the client, fed as each of [`split::feeds`] cuts it,
/// against `decode_list` over the whole body.
fn streamed_list(data: &[u8]) {
    let whole = decode_list::<ConfigMap>(data, lean());
    for feed in split::feeds(data) {
        let streamed = runtime::block_on(protobuf_list_body(
            feed.chunks.iter().copied(),
            feed.batch,
            informer_runtime::protobuf::decoders::<ConfigMap>(),
            false,
            Limits::NONE,
        ));
        match (streamed, &whole) {
            (Ok(streamed), Ok(whole)) => {
                assert_eq!(streamed.items, whole.items, "{}: items", feed.name);
                assert_eq!(streamed.metadata, whole.metadata, "{}: metadata", feed.name);
            }
            (Ok(_), Err(e)) => panic!(
                "{}: the client reads a list decode_list refuses ({e})",
                feed.name
            ),
            (Err(e), whole) => {
                assert_ne!(e.kind(), Some(ClientErrorKind::Task), "{}: {e}", feed.name);
                // Whole, a body the scan does not expect is still held whole.
                assert!(
                    feed.name != "whole" || whole.is_err(),
                    "whole: the client refuses a list decode_list reads ({e})"
                );
            }
        }
    }
}

fn lean() -> DecodeOptions {
    DecodeOptions::default()
}

fn keep() -> DecodeOptions {
    DecodeOptions::default().keep_managed_fields(true)
}

/// `frame` as a watch event's payload, with and without managedFields.
fn watch_event(frame: &[u8]) {
    let event = |options| decode_watch_event::<Secret>(frame, options);
    // An error inside the object (or an ERROR event's Status) names the kind its envelope
    // declares; one in the frame, the event type or the object's envelope names none.
    let kind = event_object(frame)
        .filter(|(event_type, raw)| EVENT_TYPES.contains(event_type) && !raw.is_empty())
        .and_then(|(_, raw)| envelope_kind(raw));
    check_error(&event(lean()), frame.len(), kind.as_deref());
    same_apart_from_managed_fields("a Secret event", event(lean()), event(keep()), |event| {
        match event {
            WatchEvent::Added(o)
            | WatchEvent::Modified(o)
            | WatchEvent::Deleted(o)
            | WatchEvent::Bookmark(o) => o.metadata.managed_fields = None,
            WatchEvent::Error(_) => {}
        }
    });
}

/// What one way of feeding a stream to a [`FrameReader`] gives: the frames, then the error
/// that stopped it, or what `finish` said.
#[derive(Debug, PartialEq)]
struct Frames {
    frames: Vec<Vec<u8>>,
    end: Result<(), DecodeError>,
}

/// Feeds `chunks` to a reader of frames up to `max` bytes, taking every frame as soon as it
/// is whole.
fn read_frames<'a>(chunks: impl IntoIterator<Item = &'a [u8]>, max: usize) -> Frames {
    let mut reader = FrameReader::new(max);
    let mut frames = Vec::new();
    for chunk in chunks {
        reader.push(chunk);
        loop {
            match reader.next_frame() {
                Ok(Some(frame)) => frames.push(frame),
                Ok(None) => break,
                Err(e) => {
                    // The stream cannot resume: asking again gives the same error.
                    assert_eq!(reader.next_frame(), Err(e.clone()), "a second next_frame");
                    return Frames {
                        frames,
                        end: Err(e),
                    };
                }
            }
        }
    }
    Frames {
        frames,
        end: reader.finish(),
    }
}

/// The frames of `data` as a watch stream, the same however it is cut; and under a limit
/// drawn from its hash, those before the first longer frame, then an error for it.
fn frames(data: &[u8]) -> Vec<Vec<u8>> {
    let whole = read_frames([data], usize::MAX);
    // Chunks as long as the input's bytes, in turn; a 0 pushes nothing, then one byte.
    let mut own = Vec::new();
    let mut rest = data;
    for &len in data.iter().cycle() {
        if rest.is_empty() {
            break;
        }
        if len == 0 {
            own.push(&rest[..0]);
        }
        let (chunk, tail) = rest.split_at(usize::from(len).clamp(1, rest.len()));
        own.push(chunk);
        rest = tail;
    }
    let feeds = split::feeds(data);
    let feeds = feeds
        .iter()
        .map(|feed| (feed.name, &feed.chunks))
        .chain([("in chunks of its own bytes", &own)]);
    for (name, chunks) in feeds {
        let got = read_frames(chunks.iter().copied(), usize::MAX);
        assert_eq!(got, whole, "frames fed {name} and whole");
    }
    // Within a limit: the frames up to the first over it, whose header is then an error.
    let max = (split::fnv1a(data) % (data.len() as u64 + 1)) as usize;
    let mut offset = 0;
    let mut want = Frames {
        frames: Vec::new(),
        end: whole.end.clone(),
    };
    for frame in &whole.frames {
        if frame.len() > max {
            break;
        }
        want.frames.push(frame.clone());
        offset += 4 + frame.len();
    }
    let header = data
        .get(offset..)
        .and_then(|rest| rest.first_chunk::<4>())
        .map(|header| u32::from_be_bytes(*header));
    if let Some(len) = header.filter(|&len| len as usize > max) {
        let kind = ErrorKind::FrameTooLarge {
            len: u64::from(len),
            max,
        };
        want.end = Err(DecodeError::new(kind, offset));
    }
    for feed in split::feeds(data) {
        let got = read_frames(feed.chunks.iter().copied(), max);
        assert_eq!(got, want, "frames fed {} within {max} bytes", feed.name);
    }
    whole.frames
}

/// The decode of one input without and with `keep_managed_fields`: the same but for
/// managedFields, or a failure only with it and inside managedFields.
fn same_apart_from_managed_fields<T: PartialEq + std::fmt::Debug>(
    what: &str,
    lean: Result<T, DecodeError>,
    full: Result<T, DecodeError>,
    strip: impl Fn(&mut T),
) {
    match (lean, full) {
        (Ok(lean), Ok(mut full)) => {
            strip(&mut full);
            assert_eq!(lean, full, "{what} with and without managedFields");
        }
        (Err(e), Ok(_)) => panic!("{what} decodes with managedFields, fails without: {e}"),
        (Ok(_), Err(e)) => assert!(
            e.path().contains("metadata.managedFields"),
            "{what} decodes without managedFields, fails with them elsewhere: {e}"
        ),
        (Err(_), Err(_)) => {}
    }
}

/// An error names what was decoded (the kind the envelope declares, when it opened and
/// declares one), the path to where it failed, why and at which byte of the input.
fn check_error<T>(result: &Result<T, DecodeError>, len: usize, kind: Option<&str>) {
    let Err(e) = result else {
        return;
    };
    let text = e.to_string();
    let why = e.kind().to_string();
    assert!(!why.is_empty(), "{e:?} displays as nothing");
    assert!(
        e.offset() <= len,
        "{text}: past the {len} bytes of the input"
    );
    let path = e.path();
    let place = if path.is_empty() {
        String::new()
    } else {
        format!("{path}: ")
    };
    let tail = format!("{place}{why} at byte {}", e.offset());
    let Some(head) = text.strip_suffix(&tail) else {
        panic!("{text:?} does not end with {tail:?}");
    };
    match kind.filter(|kind| !kind.is_empty()) {
        // The envelope opened and names the kind: the error is inside that object.
        Some(kind) => assert!(
            [
                format!("decoding a {kind} from protobuf: "),
                format!("decoding an {kind} from protobuf: ")
            ]
            .iter()
            .any(|want| head == want),
            "{text:?} does not name the {kind:?} its envelope declares"
        ),
        None => assert_eq!(head, "decoding from protobuf: ", "{text:?}"),
    }
}

/// The kind a `k8s\0` + `runtime.Unknown` body declares, read with the bare wire reader, when
/// the envelope is one the decoders open (empty when it declares none); `None` otherwise.
fn envelope_kind(body: &[u8]) -> Option<String> {
    let mut r = Reader::new(body.strip_prefix(b"k8s\0")?, lean());
    let string = |r: &mut Reader<'_>| -> Option<String> {
        Some(std::str::from_utf8(r.bytes().ok()?).ok()?.to_owned())
    };
    let (mut kind, mut raw, mut encoding) = (String::new(), false, String::new());
    while let Some((number, wire)) = r.next_field().ok()? {
        match (number, wire) {
            (1, WireType::Len) => {
                let mut type_meta = r.nested().ok()?;
                while let Some((number, wire)) = type_meta.next_field().ok()? {
                    match (number, wire) {
                        (1, WireType::Len) => drop(string(&mut type_meta)?),
                        (2, WireType::Len) => kind = string(&mut type_meta)?,
                        (1 | 2, _) => return None,
                        _ => type_meta.skip(wire).ok()?,
                    }
                }
            }
            (2, WireType::Len) => {
                r.bytes().ok()?;
                raw = true;
            }
            (3, WireType::Len) => encoding = string(&mut r)?,
            (1..=3, _) => return None,
            _ => r.skip(wire).ok()?,
        }
    }
    (raw && encoding.is_empty()).then_some(kind)
}

/// The event types a watch event may have.
const EVENT_TYPES: [&str; 5] = ["ADDED", "MODIFIED", "DELETED", "BOOKMARK", "ERROR"];

/// The type and object bytes (the last `raw` of its `object`s, empty without one) of a watch
/// event, read with the bare wire reader, when the event's own fields are well-formed.
fn event_object(frame: &[u8]) -> Option<(&str, &[u8])> {
    let mut r = Reader::new(frame, lean());
    let (mut event_type, mut object): (&str, &[u8]) = ("", &[]);
    while let Some((number, wire)) = r.next_field().ok()? {
        match (number, wire) {
            (1, WireType::Len) => event_type = std::str::from_utf8(r.bytes().ok()?).ok()?,
            (2, WireType::Len) => {
                let mut raw_extension = r.nested().ok()?;
                while let Some((number, wire)) = raw_extension.next_field().ok()? {
                    match (number, wire) {
                        (1, WireType::Len) => object = raw_extension.bytes().ok()?,
                        (1, _) => return None,
                        _ => raw_extension.skip(wire).ok()?,
                    }
                }
            }
            (1 | 2, _) => return None,
            _ => r.skip(wire).ok()?,
        }
    }
    Some((event_type, object))
}

/// A recursive message (field 1 is another of itself), boxed and decoded as the generated
/// decoders of recursive Kubernetes types (`JSONSchemaProps`) are.
#[derive(Debug, Default)]
struct Nest(Option<Box<Nest>>);

impl Message for Nest {
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
            1 => field::boxed::<Msg<Nest>>(&mut self.0, wire, r, "child"),
            _ => r.skip(wire),
        }
    }
}

impl Nest {
    /// How many messages nest inside this one.
    fn depth(&self) -> usize {
        std::iter::successors(self.0.as_deref(), |nest| nest.0.as_deref()).count()
    }
}

/// `inner` as the innermost of `levels` messages nested as field 1.
fn wrap(inner: &[u8], levels: usize) -> Vec<u8> {
    let mut headers = Vec::with_capacity(levels);
    let mut len = inner.len();
    for _ in 0..levels {
        let mut header = vec![0x0a];
        let mut n = len;
        while n >= 0x80 {
            header.push((n as u8 & 0x7f) | 0x80);
            n >>= 7;
        }
        header.push(n as u8);
        len += header.len();
        headers.push(header);
    }
    let mut wrapped: Vec<u8> = headers.into_iter().rev().flatten().collect();
    wrapped.extend_from_slice(inner);
    wrapped
}

/// `data` as a recursive message, bare, in an envelope and wrapped in levels around
/// `MAX_DEPTH`: never deeper than `MAX_DEPTH`, and `TooDeep` past it.
fn nesting(data: &[u8]) {
    let max = MAX_DEPTH as usize;
    let decode = |bytes: &[u8]| decode_message::<Nest>(&mut Reader::new(bytes, lean()));
    if let Ok(nest) = decode(data) {
        assert!(nest.depth() <= max, "nested {} deep", nest.depth());
    }
    if let Ok((_, nest)) = decode_object::<Nest>(data, lean()) {
        assert!(nest.depth() <= max, "nested {} deep", nest.depth());
    }
    for levels in [max, max + 1] {
        match decode(&wrap(&[], levels)) {
            Ok(nest) => assert_eq!((levels, nest.depth()), (max, max)),
            Err(e) => assert_eq!((levels, e.kind()), (max + 1, &ErrorKind::TooDeep), "{e}"),
        }
    }
    let levels = max - 2 + (split::fnv1a(data) % 4) as usize;
    match decode(&wrap(data, levels)) {
        Ok(nest) => assert!(
            (levels..=max).contains(&nest.depth()),
            "{levels} levels nested {} deep",
            nest.depth()
        ),
        Err(e) if levels > max => assert_eq!(e.kind(), &ErrorKind::TooDeep, "{e}"),
        Err(_) => {}
    }
}
