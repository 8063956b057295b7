//! Streaming splitters and decoders for list and watch bodies: each list item and each
//! watch event is cut out as soon as its bytes have arrived and decoded in batches (see
//! [`super::decode_pool`]), so decoding overlaps the transfer and the whole body is never
//! held in memory at once.

use std::collections::BTreeMap;

use k8s_openapi::apimachinery::pkg::apis::meta::v1::{ListMeta, Status};
use serde::de::{DeserializeOwned, Error as _};
use serde::Deserialize;

use super::decode_pool::Batch;
use crate::error::Error;
use crate::json::Omit;
use crate::shard_scan::ShardScan;
use crate::watch_event::{Bookmark, ShardInfo, WatchEvent};

/// How many bytes of an undecodable watch line an error quotes.
const QUOTED_LINE_BYTES: usize = 200;

/// The most bytes of a top-level key of a list the scanner keeps: `metadata` with every
/// character written as a `\uXXXX` escape is 48, and a longer key names no field of interest.
const MAX_KEY_BYTES: usize = 64;

/// Something in a response is larger than the client's limit for it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Oversized {
    /// What is too large, e.g. `a watch event`.
    pub(crate) what: &'static str,
    /// The limit, in bytes.
    pub(crate) limit: u64,
    /// The `Config` field that sets the limit.
    pub(crate) setting: &'static str,
}

impl Oversized {
    /// One watch line or list item over `limit`.
    pub(crate) fn object(what: &'static str, limit: usize) -> Self {
        Self {
            what,
            limit: u64::try_from(limit).unwrap_or(u64::MAX),
            setting: "max_object_bytes",
        }
    }
}

/// Why a list body could not be scanned.
#[derive(Debug)]
pub(crate) enum ListError {
    /// The body is not a JSON list object.
    Json(serde_json::Error),
    /// An item or the list's metadata is larger than the limit.
    Oversized(Oversized),
}

impl From<serde_json::Error> for ListError {
    fn from(e: serde_json::Error) -> Self {
        ListError::Json(e)
    }
}

/// What a finished capture of the list scanner holds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Captured {
    /// The list's top-level `metadata` object.
    Metadata,
    /// One element of the list's `items` array.
    Item,
}

impl Captured {
    /// The error for a capture of this kind over `limit` bytes.
    fn oversized(self, limit: usize) -> Oversized {
        let what = match self {
            Captured::Metadata => "the list's metadata",
            Captured::Item => "a list item",
        };
        Oversized::object(what, limit)
    }
}

/// Which top-level field of the list the scanner is inside.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Field {
    Metadata,
    Items,
    Other,
}

impl Field {
    /// The field a top-level key names, its escapes (`"it\u0065ms"`) decoded first. A key
    /// that is not valid JSON names no field of interest: the body fails elsewhere or not at all.
    fn of_key(raw: &[u8]) -> Self {
        if raw.len() > MAX_KEY_BYTES {
            return Field::Other;
        }
        let unescaped: String;
        let key = if raw.contains(&b'\\') {
            let mut quoted = Vec::with_capacity(raw.len() + 2);
            quoted.push(b'"');
            quoted.extend_from_slice(raw);
            quoted.push(b'"');
            match serde_json::from_slice::<String>(&quoted) {
                Ok(k) => {
                    unescaped = k;
                    unescaped.as_bytes()
                }
                Err(_) => return Field::Other,
            }
        } else {
            raw
        };
        match key {
            b"metadata" => Field::Metadata,
            b"items" => Field::Items,
            _ => Field::Other,
        }
    }
}

/// Splits a `*List` body chunk by chunk: a small scanner tracks nesting, strings and
/// escapes to find where each element of `items` (and the list's `metadata`) begins and
/// ends. The metadata is decoded at once; complete items are collected into batches for
/// [`decode_items`].
pub(crate) struct ListDecoder {
    /// The largest item (or metadata) taken, in bytes.
    max_item: usize,
    depth: u32,
    in_string: bool,
    escape: bool,
    expect_key: bool,
    reading_key: bool,
    key: Vec<u8>,
    field: Field,
    in_items: bool,
    capture: Option<(Captured, u32)>,
    pending: Vec<u8>,
    done: bool,
    metadata: Option<ListMeta>,
    shard_info: Option<ShardInfo>,
    items: Batch,
}

/// A list's `shardInfo`, read on its own: `ListMeta` holds it only from k8s-openapi's
/// Kubernetes 1.36 types on, and the client builds with any version.
#[derive(Deserialize)]
struct ShardInfoOnly {
    #[serde(default, rename = "shardInfo")]
    shard_info: Option<ShardInfo>,
}

impl ListDecoder {
    /// A decoder at the start of a body, refusing items (and metadata) over `max_item` bytes.
    pub(crate) fn new(max_item: usize) -> Self {
        Self {
            max_item,
            depth: 0,
            in_string: false,
            escape: false,
            expect_key: false,
            reading_key: false,
            key: Vec::new(),
            field: Field::Other,
            in_items: false,
            capture: None,
            pending: Vec::new(),
            done: false,
            metadata: None,
            shard_info: None,
            items: Batch::default(),
        }
    }

    /// Scans the next chunk of the body, collecting every element it completes.
    pub(crate) fn feed(&mut self, chunk: &[u8]) -> Result<(), ListError> {
        let mut start = self.capture.map(|_| 0usize);
        let mut i = 0;
        while i < chunk.len() {
            if self.in_string {
                if self.escape {
                    self.escape = false;
                    if self.reading_key {
                        self.push_key(&chunk[i..=i]);
                    }
                    i += 1;
                    continue;
                }
                match crate::json::quote_or_backslash(chunk, i) {
                    None => {
                        if self.reading_key {
                            self.push_key(&chunk[i..]);
                        }
                        i = chunk.len();
                    }
                    Some(j) => {
                        let escape = chunk[j] == b'\\';
                        if self.reading_key {
                            // A key keeps its backslashes: it is unescaped whole at its `:`.
                            self.push_key(&chunk[i..if escape { j + 1 } else { j }]);
                        }
                        if escape {
                            self.escape = true;
                        } else {
                            self.in_string = false;
                            self.reading_key = false;
                        }
                        i = j + 1;
                    }
                }
                continue;
            }
            if self.depth > 2 {
                // Inside an item (or the metadata), only strings and nesting matter: run to
                // the bracket that closes the item's own object, or to a string this chunk
                // does not finish.
                while let Some(&b) = chunk.get(i) {
                    match b {
                        b'"' => match crate::json::string_end(chunk, i + 1) {
                            Some(end) => i = end,
                            None => break,
                        },
                        b'{' | b'[' => self.depth += 1,
                        b'}' | b']' if self.depth > 3 => self.depth -= 1,
                        b'}' | b']' => break,
                        _ => {}
                    }
                    i += 1;
                }
                if i == chunk.len() {
                    break;
                }
            }
            let b = chunk[i];
            match b {
                b' ' | b'\t' | b'\n' | b'\r' => {}
                b':' => {
                    if self.depth == 1 {
                        self.expect_key = false;
                        self.field = Field::of_key(&self.key);
                    }
                }
                b',' => {
                    if self.depth == 1 {
                        self.expect_key = true;
                        self.field = Field::Other;
                    }
                }
                b'}' | b']' => {
                    if self.depth == 0 {
                        return Err(serde_json::Error::custom(format!(
                            "unbalanced `{}` in the list body",
                            char::from(b)
                        ))
                        .into());
                    }
                    self.depth -= 1;
                    if self.depth == 1 {
                        self.in_items = false;
                    }
                    if let (Some((what, depth)), Some(s)) = (self.capture, start) {
                        if depth == self.depth {
                            self.capture = None;
                            start = None;
                            self.emit(what, &chunk[s..=i])?;
                        }
                    }
                    if self.depth == 0 {
                        self.done = true;
                    }
                }
                _ => {
                    if self.done {
                        return Err(serde_json::Error::custom(
                            "unexpected bytes after the end of the list body",
                        )
                        .into());
                    }
                    if self.depth == 0 && b != b'{' {
                        return Err(serde_json::Error::custom(
                            "the list body is not a JSON object",
                        )
                        .into());
                    }
                    self.begin_value(b, i, &mut start)?;
                    match b {
                        b'"' => {
                            self.in_string = true;
                            if self.depth == 1 && self.expect_key {
                                self.reading_key = true;
                                self.key.clear();
                            }
                        }
                        b'{' | b'[' => {
                            self.depth += 1;
                            if self.depth == 1 {
                                self.expect_key = true;
                            } else if self.depth == 2 && self.field == Field::Items && b == b'[' {
                                self.in_items = true;
                            }
                        }
                        _ => {}
                    }
                }
            }
            i += 1;
        }
        if let Some(s) = start {
            // Checked before copying: an endless item must not be held whole first.
            if self.pending.len() + (chunk.len() - s) > self.max_item {
                let what = self.capture.map_or(Captured::Item, |(what, _)| what);
                return Err(ListError::Oversized(what.oversized(self.max_item)));
            }
            self.pending.extend_from_slice(&chunk[s..]);
        }
        Ok(())
    }

    /// Appends to the top-level key being read, keeping no more than one byte past
    /// [`MAX_KEY_BYTES`] (enough to know it is too long to matter).
    fn push_key(&mut self, bytes: &[u8]) {
        let room = (MAX_KEY_BYTES + 1).saturating_sub(self.key.len());
        self.key.extend_from_slice(&bytes[..bytes.len().min(room)]);
    }

    /// Starts a capture when a value of interest begins at `i`.
    fn begin_value(&mut self, b: u8, i: usize, start: &mut Option<usize>) -> Result<(), ListError> {
        if self.capture.is_some() {
            return Ok(());
        }
        let container = b == b'{' || b == b'[';
        if self.depth == 1 && !self.expect_key && self.field == Field::Metadata && container {
            self.capture = Some((Captured::Metadata, 1));
            *start = Some(i);
        } else if self.depth == 2 && self.in_items {
            if b != b'{' {
                return Err(serde_json::Error::custom(
                    "an element of `items` is not a JSON object",
                )
                .into());
            }
            self.capture = Some((Captured::Item, 2));
            *start = Some(i);
        }
        Ok(())
    }

    /// Takes in a completed capture whose last bytes are `tail`.
    fn emit(&mut self, what: Captured, tail: &[u8]) -> Result<(), ListError> {
        if self.pending.len() + tail.len() > self.max_item {
            return Err(ListError::Oversized(what.oversized(self.max_item)));
        }
        let bytes: &[u8] = if self.pending.is_empty() {
            tail
        } else {
            self.pending.extend_from_slice(tail);
            &self.pending
        };
        match what {
            Captured::Metadata => {
                self.metadata = Some(crate::json::from_slice(bytes)?);
                // A `shardInfo` of another shape than KEP-5866's is taken as none: the
                // client then filters, which is right whatever the server did, rather than
                // failing a list that is otherwise fine.
                self.shard_info = crate::json::from_slice::<ShardInfoOnly>(bytes)
                    .ok()
                    .and_then(|m| m.shard_info);
            }
            Captured::Item => self.items.push(bytes),
        }
        self.pending.clear();
        Ok(())
    }

    /// The items collected so far, once they hold at least `min_bytes`.
    pub(crate) fn take_items(&mut self, min_bytes: usize) -> Option<Batch> {
        if self.items.is_empty() || self.items.byte_len() < min_bytes {
            return None;
        }
        // A list that fills one batch usually fills more: the next starts with room for
        // one, rather than doubling its way there and copying everything each time.
        let room = min_bytes.saturating_add(min_bytes / 2);
        Some(std::mem::replace(
            &mut self.items,
            Batch::with_capacity(room),
        ))
    }

    /// The filter items taken now need: `shard` unless the list's metadata, read already,
    /// says the server applied its selector. Items that come before the metadata (a body
    /// with its keys reordered) are filtered, which a server's own filtering makes a no-op.
    pub(crate) fn shard_filter(&self, shard: Option<&ShardScan>) -> Option<ShardScan> {
        let applied = self
            .shard_info
            .as_ref()
            .zip(shard)
            .is_some_and(|(info, shard)| info.applies(shard.selector()));
        shard.filter(|_| !applied).cloned()
    }

    /// Ends the body: the list's metadata, its `shardInfo` and the items not taken yet, or
    /// an error when the body was cut short.
    pub(crate) fn finish(self) -> Result<(ListMeta, Option<ShardInfo>, Batch), serde_json::Error> {
        if !self.done {
            return Err(serde_json::Error::custom(
                "the list body ended before its closing `}`",
            ));
        }
        Ok((
            self.metadata.unwrap_or_default(),
            self.shard_info,
            self.items,
        ))
    }
}

/// Decodes every item of `batch`, in order, leaving out `metadata.managedFields` when
/// `omit_managed_fields`, and, undecoded, the items outside `shard`.
pub(crate) fn decode_items<T: DeserializeOwned>(
    batch: &Batch,
    omit_managed_fields: bool,
    shard: Option<&ShardScan>,
) -> Result<Vec<T>, serde_json::Error> {
    let omit = omit_managed_fields.then_some(Omit::MANAGED_FIELDS);
    let mut items = Vec::with_capacity(batch.len());
    let mut failed = None;
    batch.for_each(|doc| {
        if shard.is_some_and(|s| !s.keeps_item(doc)) {
            return true;
        }
        match crate::json::from_slice_omitting(doc, omit) {
            Ok(item) => {
                items.push(item);
                true
            }
            Err(e) => {
                failed = Some(e);
                false
            }
        }
    });
    match failed {
        Some(e) => Err(e),
        None => Ok(items),
    }
}

/// Splits a watch body into lines; a line may span chunks and a chunk may hold many lines.
pub(crate) struct LineSplitter {
    pending: Vec<u8>,
    /// The longest line taken, in bytes, without its newline.
    max_line: usize,
}

impl LineSplitter {
    /// A splitter refusing lines over `max_line` bytes.
    pub(crate) fn new(max_line: usize) -> Self {
        Self {
            pending: Vec::new(),
            max_line,
        }
    }

    /// Calls `on_line` for every line `chunk` completes, up to a line over the limit: that
    /// one fails, however it was cut, before its bytes past the limit are held.
    pub(crate) fn feed(
        &mut self,
        chunk: &[u8],
        mut on_line: impl FnMut(&[u8]),
    ) -> Result<(), Oversized> {
        let mut rest = chunk;
        while let Some(nl) = memchr::memchr(b'\n', rest) {
            if self.pending.len() + nl > self.max_line {
                return Err(self.oversized());
            }
            if self.pending.is_empty() {
                on_line(&rest[..nl]);
            } else {
                self.pending.extend_from_slice(&rest[..nl]);
                on_line(&self.pending);
                self.pending.clear();
            }
            rest = &rest[nl + 1..];
        }
        if self.pending.len() + rest.len() > self.max_line {
            return Err(self.oversized());
        }
        self.pending.extend_from_slice(rest);
        Ok(())
    }

    fn oversized(&self) -> Oversized {
        Oversized::object("a watch event", self.max_line)
    }

    /// How many bytes of an unfinished line are held.
    #[cfg(test)]
    pub(crate) fn pending_len(&self) -> usize {
        self.pending.len()
    }

    /// The bytes after the last newline, once the body has ended.
    pub(crate) fn take_remainder(&mut self) -> Vec<u8> {
        std::mem::take(&mut self.pending)
    }
}

/// A watch event as it is on the wire: `{"type": ..., "object": ...}`.
///
/// Decoded by hand rather than with serde's adjacently tagged derive: that derive buffers the
/// object into serde's private `Content` tree in case `object` comes before `type`, which
/// compiles every object type's `Deserialize` a second time (about a fifth of an informer
/// app's code) for a case kube-apiserver never produces (Go writes `type` first). When it
/// does happen (a proxy that re-encodes with sorted keys), the line is decoded twice instead:
/// once to read the type, once for the object ([`ObjectOnly`]), both through the same
/// deserializer, so each object type still has one `Deserialize` copy.
enum WireEvent<T> {
    Added(T),
    Modified(T),
    Deleted(T),
    Bookmark(BookmarkObject),
    Error(Box<Status>),
    /// `object` came before `type`: the event's type, to decode the object again knowing it.
    ObjectFirst(EventType),
}

/// The `type` of a watch event.
#[derive(Clone, Copy, Debug, Deserialize, PartialEq, Eq)]
enum EventType {
    #[serde(rename = "ADDED")]
    Added,
    #[serde(rename = "MODIFIED")]
    Modified,
    #[serde(rename = "DELETED")]
    Deleted,
    #[serde(rename = "BOOKMARK")]
    Bookmark,
    #[serde(rename = "ERROR")]
    Error,
}

/// A member name of a watch event.
#[derive(Deserialize)]
#[serde(field_identifier, rename_all = "lowercase")]
enum EventMember {
    Type,
    Object,
    #[serde(other)]
    Other,
}

impl<'de, T: Deserialize<'de>> Deserialize<'de> for WireEvent<T> {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct Visitor<T>(std::marker::PhantomData<fn() -> T>);

        impl<'de, T: Deserialize<'de>> serde::de::Visitor<'de> for Visitor<T> {
            type Value = WireEvent<T>;

            fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str("a watch event with `type` and `object`")
            }

            fn visit_map<A: serde::de::MapAccess<'de>>(
                self,
                mut map: A,
            ) -> Result<Self::Value, A::Error> {
                let mut kind = None;
                let mut event = None;
                let mut object_first = false;
                while let Some(member) = map.next_key::<EventMember>()? {
                    match member {
                        EventMember::Type if kind.is_some() => {
                            return Err(A::Error::duplicate_field("type"))
                        }
                        EventMember::Type => kind = Some(map.next_value::<EventType>()?),
                        EventMember::Object if event.is_some() || object_first => {
                            return Err(A::Error::duplicate_field("object"))
                        }
                        EventMember::Object => match kind {
                            Some(EventType::Added) => {
                                event = Some(WireEvent::Added(map.next_value()?))
                            }
                            Some(EventType::Modified) => {
                                event = Some(WireEvent::Modified(map.next_value()?))
                            }
                            Some(EventType::Deleted) => {
                                event = Some(WireEvent::Deleted(map.next_value()?))
                            }
                            Some(EventType::Bookmark) => {
                                event = Some(WireEvent::Bookmark(map.next_value()?))
                            }
                            Some(EventType::Error) => {
                                event = Some(WireEvent::Error(map.next_value()?))
                            }
                            None => {
                                map.next_value::<serde::de::IgnoredAny>()?;
                                object_first = true;
                            }
                        },
                        EventMember::Other => {
                            map.next_value::<serde::de::IgnoredAny>()?;
                        }
                    }
                }
                match (event, kind) {
                    (Some(event), _) => Ok(event),
                    (None, Some(kind)) if object_first => Ok(WireEvent::ObjectFirst(kind)),
                    (None, Some(_)) => Err(A::Error::missing_field("object")),
                    (None, None) => Err(A::Error::missing_field("type")),
                }
            }
        }

        deserializer.deserialize_map(Visitor(std::marker::PhantomData))
    }
}

/// The object of a watch event whose type is known (the second decode of an event whose
/// `object` came first); every other member is skipped.
#[derive(Deserialize)]
struct ObjectOnly<T> {
    object: T,
}

/// The only parts of a BOOKMARK's object that matter.
#[derive(Deserialize)]
struct BookmarkObject {
    #[serde(default)]
    metadata: BookmarkMeta,
}

#[derive(Deserialize, Default)]
struct BookmarkMeta {
    #[serde(default, rename = "resourceVersion")]
    resource_version: Option<String>,
    #[serde(default)]
    annotations: Option<BTreeMap<String, String>>,
}

/// True when a line holds nothing but whitespace (skipped, not an error).
pub(crate) fn is_blank(line: &[u8]) -> bool {
    line.iter().all(u8::is_ascii_whitespace)
}

/// Decodes one watch line, leaving out its object's `metadata.managedFields` when
/// `omit_managed_fields`.
pub(crate) fn decode_event<T: DeserializeOwned>(
    line: &[u8],
    omit_managed_fields: bool,
) -> Result<WatchEvent<T>, serde_json::Error> {
    let omit = omit_managed_fields.then_some(Omit::EVENT_MANAGED_FIELDS);
    let again = || crate::json::from_slice_omitting::<ObjectOnly<T>>(line, omit);
    let event = match crate::json::from_slice_omitting::<WireEvent<T>>(line, omit)? {
        WireEvent::ObjectFirst(kind) => match kind {
            EventType::Added => WireEvent::Added(again()?.object),
            EventType::Modified => WireEvent::Modified(again()?.object),
            EventType::Deleted => WireEvent::Deleted(again()?.object),
            EventType::Bookmark => WireEvent::Bookmark(
                crate::json::from_slice_omitting::<ObjectOnly<_>>(line, omit)?.object,
            ),
            EventType::Error => WireEvent::Error(
                crate::json::from_slice_omitting::<ObjectOnly<_>>(line, omit)?.object,
            ),
        },
        event => event,
    };
    Ok(match event {
        WireEvent::ObjectFirst(_) => {
            return Err(serde_json::Error::custom(
                "a watch event decoded without its object",
            ))
        }
        WireEvent::Added(o) => WatchEvent::Added(o),
        WireEvent::Modified(o) => WatchEvent::Modified(o),
        WireEvent::Deleted(o) => WatchEvent::Deleted(o),
        WireEvent::Error(s) => WatchEvent::Error(*s),
        WireEvent::Bookmark(b) => WatchEvent::Bookmark(
            Bookmark::from_metadata(b.metadata.resource_version, b.metadata.annotations.as_ref())
                .ok_or_else(|| {
                serde_json::Error::custom("BOOKMARK without metadata.resourceVersion")
            })?,
        ),
    })
}

/// Decodes every line of `batch` in order, leaving out, undecoded, the events whose object
/// is outside `shard`. A line that does not decode ends the events with an
/// `Error::Decode` quoting it, under `context`.
pub(crate) fn decode_lines<T: DeserializeOwned>(
    batch: &Batch,
    context: &str,
    omit_managed_fields: bool,
    shard: Option<&ShardScan>,
) -> Vec<Result<WatchEvent<T>, Error>> {
    let mut events = Vec::with_capacity(batch.len());
    batch.for_each(|line| {
        if shard.is_some_and(|s| !s.keeps_event(line)) {
            return true;
        }
        match decode_event(line, omit_managed_fields) {
            Ok(event) => {
                events.push(Ok(event));
                true
            }
            Err(source) => {
                events.push(Err(Error::Decode {
                    context: context.to_owned(),
                    what: quote_line(line),
                    source: source.into(),
                }));
                false
            }
        }
    });
    events
}

/// A printable copy of a line, cut to about 200 bytes, for error messages.
pub(crate) fn quote_line(line: &[u8]) -> String {
    let cut = line.len().min(QUOTED_LINE_BYTES + 4);
    let text = String::from_utf8_lossy(&line[..cut]);
    let mut end = text.len().min(QUOTED_LINE_BYTES);
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    let mut quoted = text[..end].to_owned();
    if line.len() > end {
        quoted.push('…');
    }
    quoted
}

#[cfg(test)]
mod tests {
    use super::*;
    use k8s_openapi::api::core::v1::Pod;

    fn pod_list(n: usize) -> Vec<u8> {
        let items: Vec<String> = (0..n)
            .map(|i| {
                format!(
                    r#"{{"metadata":{{"name":"p{i}","namespace":"ns","labels":{{"a\"}}":"x\\y"}}}},"spec":{{"containers":[{{"name":"c","image":"i:[{{1}}]"}}]}}}}"#
                )
            })
            .collect();
        format!(
            r#"{{"kind":"PodList","apiVersion":"v1","metadata":{{"resourceVersion":"42","continue":"tok"}},"items":[{}]}}"#,
            items.join(",\n ")
        )
        .into_bytes()
    }

    /// Feeds `chunks`, decoding items in batches of at least `batch_bytes` as the list
    /// client does, then the rest.
    fn decode_list<'a>(
        chunks: impl IntoIterator<Item = &'a [u8]>,
        batch_bytes: usize,
    ) -> Result<(ListMeta, Vec<Pod>), String> {
        decode_list_limited(chunks, batch_bytes, usize::MAX)
    }

    fn decode_list_limited<'a>(
        chunks: impl IntoIterator<Item = &'a [u8]>,
        batch_bytes: usize,
        max_item: usize,
    ) -> Result<(ListMeta, Vec<Pod>), String> {
        let text = |e: serde_json::Error| e.to_string();
        let mut d = ListDecoder::new(max_item);
        let mut items = Vec::new();
        for chunk in chunks {
            d.feed(chunk).map_err(|e| format!("{e:?}"))?;
            if let Some(batch) = d.take_items(batch_bytes) {
                items.extend(decode_items::<Pod>(&batch, false, None).map_err(text)?);
            }
        }
        let (meta, _, rest) = d.finish().map_err(text)?;
        items.extend(decode_items::<Pod>(&rest, false, None).map_err(text)?);
        Ok((meta, items))
    }

    /// A uid-like string, spread over the hash space as real uids are (FNV-1a puts short
    /// strings that differ in one digit close together).
    fn uid(i: u64) -> String {
        format!(
            "{:08x}-0000-4000-8000-{i:012x}",
            i.wrapping_mul(2_654_435_761) % (1 << 32)
        )
    }

    /// A list of Pods with the uids `uid(0)`..`uid(n-1)`, with `shard_info` in its metadata.
    fn sharded_list(n: u64, shard_info: &str) -> Vec<u8> {
        let items: Vec<String> = (0..n)
            .map(|i| {
                format!(
                    r#"{{"metadata":{{"name":"p{i}","namespace":"ns","uid":"{}"}}}}"#,
                    uid(i)
                )
            })
            .collect();
        format!(
            r#"{{"kind":"PodList","apiVersion":"v1","metadata":{{"resourceVersion":"7"{shard_info}}},"items":[{}]}}"#,
            items.join(",")
        )
        .into_bytes()
    }

    /// Decodes `body` in small chunks and batches with `shard`, as the list client does:
    /// the uids kept and the list's `shardInfo`.
    fn decode_sharded(body: &[u8], shard: &ShardScan) -> (Vec<String>, Option<ShardInfo>) {
        let mut d = ListDecoder::new(usize::MAX);
        let mut items = Vec::new();
        for chunk in body.chunks(50) {
            d.feed(chunk).unwrap();
            if let Some(batch) = d.take_items(100) {
                let filter = d.shard_filter(Some(shard));
                items.extend(decode_items::<Pod>(&batch, false, filter.as_ref()).unwrap());
            }
        }
        let filter = d.shard_filter(Some(shard));
        let (_, info, rest) = d.finish().unwrap();
        items.extend(decode_items::<Pod>(&rest, false, filter.as_ref()).unwrap());
        let uids = items.into_iter().filter_map(|p| p.metadata.uid).collect();
        (uids, info)
    }

    #[test]
    fn a_list_is_filtered_on_the_client_unless_its_shard_info_echoes_the_selector() {
        use crate::list_options::ShardFilter;
        use informer_selectors::shard::ShardSelector;

        let selector = ShardSelector::uid_range(0, 1 << 63).unwrap();
        let inside: Vec<String> = (0..40).map(uid).filter(|u| selector.contains(u)).collect();
        assert!(inside.len() > 5 && inside.len() < 35);

        let filter = ShardFilter::new();
        let shard = ShardScan::new(selector.clone(), filter.clone());
        // No shardInfo: an older server sent everything; the client keeps the shard's.
        let (uids, info) = decode_sharded(&sharded_list(40, ""), &shard);
        assert_eq!((uids, info), (inside.clone(), None));
        assert_eq!(filter.skipped(), 40 - inside.len() as u64);

        // The echo, in another spacing: the server filtered (here, pretend it sent all 40
        // to show the client trusts it and scans nothing).
        let echo = format!(
            r#","shardInfo":{{"selector":"{}"}}"#,
            selector.to_string().replace(", ", ",")
        );
        let (uids, info) = decode_sharded(&sharded_list(40, &echo), &shard);
        assert_eq!(uids.len(), 40);
        assert!(info.is_some_and(|i| i.applies(&selector)));
        assert_eq!(filter.skipped(), 40 - inside.len() as u64);

        // Another selector echoed than the one asked: filtered on the client.
        let other = r#","shardInfo":{"selector":"shardRange(object.metadata.uid, '0x0000000000000000', '0x10000000000000000')"}"#;
        let (uids, _) = decode_sharded(&sharded_list(40, other), &shard);
        assert_eq!(uids, inside);
    }

    #[test]
    fn watch_lines_outside_the_shard_are_dropped_before_decoding() {
        use crate::list_options::ShardFilter;
        use informer_selectors::shard::ShardSelector;

        let selector = ShardSelector::uid_range(0, 1 << 63).unwrap();
        let inside = (0..100).map(uid).find(|u| selector.contains(u)).unwrap();
        let outside = (0..100).map(uid).find(|u| !selector.contains(u)).unwrap();
        let mut batch = Batch::default();
        for (kind, uid) in [
            ("ADDED", &outside),
            ("ADDED", &inside),
            ("MODIFIED", &outside),
            ("DELETED", &outside),
            ("DELETED", &inside),
        ] {
            batch.push(format!(r#"{{"type":"{kind}","object":{{"metadata":{{"name":"{uid}","uid":"{uid}"}}}}}}"#).as_bytes());
        }
        // An object outside the shard that would not even decode is dropped unread.
        batch.push(format!(r#"{{"type":"MODIFIED","object":{{"metadata":{{"uid":"{outside}"}},"spec":{{"containers":7}}}}}}"#).as_bytes());
        batch.push(br#"{"type":"BOOKMARK","object":{"metadata":{"resourceVersion":"9"}}}"#);
        let filter = ShardFilter::new();
        let shard = ShardScan::new(selector, filter.clone());
        let events: Vec<_> = decode_lines::<Pod>(&batch, "watch pods", false, Some(&shard))
            .into_iter()
            .map(|e| match e.unwrap() {
                WatchEvent::Added(p) => format!("added {}", p.metadata.uid.unwrap_or_default()),
                WatchEvent::Deleted(p) => format!("deleted {}", p.metadata.uid.unwrap_or_default()),
                WatchEvent::Bookmark(b) => format!("bookmark {}", b.resource_version),
                other => format!("{other:?}"),
            })
            .collect();
        assert_eq!(
            events,
            [
                format!("added {inside}"),
                format!("deleted {inside}"),
                "bookmark 9".to_owned()
            ]
        );
        assert_eq!(filter.skipped(), 4);
    }

    fn decode_in_chunks(body: &[u8], size: usize) -> (ListMeta, Vec<Pod>) {
        decode_list(body.chunks(size), size).unwrap()
    }

    #[test]
    fn list_decodes_items_without_kind_at_any_chunking() {
        let body = pod_list(7);
        for size in [1, 2, 3, 7, 64, 1000, body.len()] {
            let (meta, items) = decode_in_chunks(&body, size);
            assert_eq!(meta.resource_version.as_deref(), Some("42"), "size {size}");
            assert_eq!(meta.continue_.as_deref(), Some("tok"));
            assert_eq!(items.len(), 7);
            assert_eq!(items[3].metadata.name.as_deref(), Some("p3"));
            let labels = items[3].metadata.labels.as_ref().unwrap();
            assert_eq!(labels.get("a\"}").map(String::as_str), Some("x\\y"));
        }
    }

    #[test]
    fn list_with_metadata_after_items_and_empty_items() {
        let body = br#"{"items":[],"metadata":{"resourceVersion":"7"},"kind":"PodList"}"#;
        let (meta, items) = decode_in_chunks(body, 5);
        assert_eq!(meta.resource_version.as_deref(), Some("7"));
        assert!(items.is_empty());
        let body = br#"{"metadata":{"resourceVersion":"8"},"items":null}"#;
        let (meta, items) = decode_in_chunks(body, 3);
        assert_eq!(meta.resource_version.as_deref(), Some("8"));
        assert!(items.is_empty());
    }

    #[test]
    fn truncated_or_invalid_list_is_an_error() {
        let body = pod_list(3);
        let mut d = ListDecoder::new(usize::MAX);
        d.feed(&body[..body.len() - 10]).unwrap();
        assert!(d.finish().is_err());
        for bad in [
            &b"[1,2]"[..],
            br#"{"items":[{"metadata":{"name":3}}]}"#,
            br#"{"items":[1]}"#,
            br#"{"items":[]}}"#,
            br#"{"metadata":{"resourceVersion":5},"items":[]}"#,
        ] {
            for batch_bytes in [0, usize::MAX] {
                let got = decode_list([bad], batch_bytes);
                assert!(got.is_err(), "{}", String::from_utf8_lossy(bad));
            }
        }
    }

    #[test]
    fn wrong_kind_in_item_is_rejected() {
        let body = br#"{"items":[{"kind":"Service","metadata":{}}]}"#;
        assert!(decode_list([&body[..]], 0).is_err());
    }

    #[test]
    fn items_are_taken_in_batches_of_the_size_asked() {
        let body = pod_list(10);
        let mut d = ListDecoder::new(usize::MAX);
        d.feed(&body).unwrap();
        let batch = d.take_items(1).unwrap();
        assert_eq!(batch.len(), 10);
        assert!(d.take_items(0).is_none(), "nothing left");
        let mut d = ListDecoder::new(usize::MAX);
        d.feed(&body).unwrap();
        assert!(d.take_items(usize::MAX).is_none());
        let (_, _, rest) = d.finish().unwrap();
        assert_eq!(decode_items::<Pod>(&rest, false, None).unwrap().len(), 10);
    }

    #[test]
    fn lines_split_across_chunks() {
        let body = b"one\ntwo\n\nthree-is-long\nrest";
        for size in 1..body.len() {
            let mut s = LineSplitter::new(usize::MAX);
            let mut lines = Vec::new();
            for chunk in body.chunks(size) {
                s.feed(chunk, |l| {
                    lines.push(String::from_utf8(l.to_vec()).unwrap())
                })
                .unwrap();
            }
            assert_eq!(lines, ["one", "two", "", "three-is-long"]);
            assert_eq!(s.take_remainder(), b"rest");
        }
    }

    #[test]
    fn events_decode() {
        let e: WatchEvent<Pod> = decode_event(
            br#"{"type":"ADDED","object":{"metadata":{"name":"a"}}}"#,
            false,
        )
        .unwrap();
        assert!(matches!(e, WatchEvent::Added(p) if p.metadata.name.as_deref() == Some("a")));
        let e: WatchEvent<Pod> = decode_event(
            br#"{"type":"BOOKMARK","object":{"kind":"Pod","apiVersion":"v1","metadata":{"resourceVersion":"9","annotations":{"k8s.io/initial-events-end":"true"}}}}"#,
            true,
        )
        .unwrap();
        assert_eq!(
            e,
            WatchEvent::Bookmark(Bookmark {
                resource_version: "9".into(),
                initial_events_end: true
            })
        );
        let e: WatchEvent<Pod> = decode_event(
            br#"{"type":"ERROR","object":{"kind":"Status","code":410,"reason":"Expired"}}"#,
            true,
        )
        .unwrap();
        assert!(matches!(e, WatchEvent::Error(s) if s.code == Some(410)));
        assert!(decode_event::<Pod>(br#"{"type":"BOOKMARK","object":{}}"#, false).is_err());
        assert!(decode_event::<Pod>(br#"{"type":"NOPE","object":{}}"#, false).is_err());
        assert!(decode_event::<Pod>(b"garbage", false).is_err());
    }

    #[test]
    fn managed_fields_are_left_out_of_items_and_event_objects_on_request() {
        let pod = br#"{"metadata":{"name":"a","managedFields":[{"manager":"kubelet"}],"uid":"u"}}"#;
        let line = [&br#"{"type":"MODIFIED","object":"#[..], pod, b"}"].concat();
        let mut batch = Batch::default();
        batch.push(pod);
        for omit in [false, true] {
            let kept = |p: &Pod| p.metadata.managed_fields.as_ref().map(Vec::len);
            let want = (!omit).then_some(1);
            let items = decode_items::<Pod>(&batch, omit, None).unwrap();
            assert_eq!(
                (kept(&items[0]), items[0].metadata.uid.as_deref()),
                (want, Some("u"))
            );
            let WatchEvent::Modified(p) = decode_event::<Pod>(&line, omit).unwrap() else {
                panic!("not a MODIFIED event");
            };
            assert_eq!((kept(&p), p.metadata.name.as_deref()), (want, Some("a")));
        }
    }

    fn labelled_pod(name: &str, value: &str) -> Pod {
        let mut pod = Pod::default();
        pod.metadata.name = Some(name.to_owned());
        pod.metadata.labels = Some([("k".to_owned(), value.to_owned())].into());
        pod
    }

    proptest::proptest! {
        #[test]
        fn any_split_of_any_list_decodes_to_the_same_items(
            values in proptest::collection::vec(r#"[a-z\\"{}\[\],:é\n ]{0,12}"#, 0..6),
            cuts in proptest::collection::vec(1usize..40, 1..30),
        ) {
            let pods: Vec<Pod> = values
                .iter()
                .enumerate()
                .map(|(i, v)| labelled_pod(&format!("p{i}"), v))
                .collect();
            let body = serde_json::to_vec(&serde_json::json!({
                "kind": "PodList",
                "apiVersion": "v1",
                "metadata": { "resourceVersion": "5" },
                "items": pods,
            }))
            .unwrap();
            let mut chunks = Vec::new();
            let mut rest = body.as_slice();
            for cut in cuts.iter().cycle() {
                if rest.is_empty() {
                    break;
                }
                let (chunk, tail) = rest.split_at((*cut).min(rest.len()));
                chunks.push(chunk);
                rest = tail;
            }
            let (meta, items) = decode_list(chunks, cuts[0] * 4).unwrap();
            proptest::prop_assert_eq!(meta.resource_version.as_deref(), Some("5"));
            proptest::prop_assert_eq!(items, pods);
        }

        #[test]
        fn any_split_of_watch_lines_yields_every_event(
            values in proptest::collection::vec(r#"[a-z\\"{}é ]{0,12}"#, 1..6),
            cuts in proptest::collection::vec(1usize..40, 1..30),
        ) {
            let pods: Vec<Pod> = values
                .iter()
                .enumerate()
                .map(|(i, v)| labelled_pod(&format!("p{i}"), v))
                .collect();
            let mut body = Vec::new();
            for pod in &pods {
                serde_json::to_writer(&mut body, &serde_json::json!({"type": "MODIFIED", "object": pod}))
                    .unwrap();
                body.push(b'\n');
            }
            let mut splitter = LineSplitter::new(usize::MAX);
            let mut seen = Vec::new();
            let mut rest = body.as_slice();
            for cut in cuts.iter().cycle() {
                if rest.is_empty() {
                    break;
                }
                let (chunk, tail) = rest.split_at((*cut).min(rest.len()));
                splitter.feed(chunk, |line| seen.push(decode_event::<Pod>(line, false).unwrap())).unwrap();
                rest = tail;
            }
            proptest::prop_assert!(splitter.take_remainder().is_empty());
            let expected: Vec<WatchEvent<Pod>> = pods.into_iter().map(WatchEvent::Modified).collect();
            proptest::prop_assert_eq!(seen, expected);
        }
    }

    #[test]
    fn lines_over_the_limit_fail_however_cut_and_lines_at_it_pass() {
        let body = b"12345\n1234567\nrest";
        for size in 1..=body.len() {
            let run = |max_line| {
                let mut s = LineSplitter::new(max_line);
                let mut lines = Vec::new();
                let mut failed = None;
                for chunk in body.chunks(size) {
                    if let Err(e) = s.feed(chunk, |l| lines.push(l.len())) {
                        failed = Some(e);
                        break;
                    }
                    assert!(s.pending_len() <= max_line);
                }
                (lines, failed)
            };
            assert_eq!(run(7), (vec![5, 7], None), "size {size}");
            let (lines, failed) = run(6);
            assert_eq!(lines, [5], "size {size}");
            let failed = failed.expect("a 7-byte line over a 6-byte limit");
            assert_eq!((failed.what, failed.limit), ("a watch event", 6));
        }
        // An unfinished line is held only up to the limit.
        let mut s = LineSplitter::new(3);
        assert!(s.feed(b"1234", |_| {}).is_err());
        assert_eq!(s.pending_len(), 0);
    }

    #[test]
    fn list_items_and_metadata_over_the_limit_fail_however_cut() {
        let body = br#"{"metadata":{"resourceVersion":"1"},"items":[{"a":1},{"bb":22}]}"#;
        let longest_item = r#"{"bb":22}"#.len();
        let metadata = r#"{"resourceVersion":"1"}"#.len();
        for size in 1..=body.len() {
            let run = |max_item| {
                let mut d = ListDecoder::new(max_item);
                for chunk in body.chunks(size) {
                    d.feed(chunk)?;
                    assert!(d.pending.len() <= max_item);
                }
                Ok::<_, ListError>(d.items.len())
            };
            assert_eq!(run(metadata).unwrap(), 2, "size {size}");
            match run(longest_item - 1) {
                Err(ListError::Oversized(o)) => {
                    assert_eq!((o.what, o.limit), ("the list's metadata", 8), "size {size}")
                }
                other => panic!("size {size}: {other:?}"),
            }
            match run(metadata - 1) {
                Err(ListError::Oversized(o)) => assert_eq!(o.what, "the list's metadata"),
                other => panic!("size {size}: {other:?}"),
            }
        }
        let items_first = br#"{"items":[{"a":1},{"bb":22}]}"#;
        for size in 1..=items_first.len() {
            let mut d = ListDecoder::new(longest_item - 1);
            let failed = items_first.chunks(size).find_map(|c| d.feed(c).err());
            match failed {
                Some(ListError::Oversized(o)) => assert_eq!(o.what, "a list item"),
                other => panic!("size {size}: {other:?}"),
            }
            assert_eq!(d.items.len(), 1, "size {size}");
        }
    }

    #[test]
    fn long_top_level_keys_are_not_held_and_name_no_field() {
        let key = "k".repeat(100_000);
        let body = format!(r#"{{"{key}":{{"a":1}},"items":[{{"metadata":{{"name":"x"}}}}]}}"#);
        let mut d = ListDecoder::new(usize::MAX);
        for chunk in body.as_bytes().chunks(7) {
            d.feed(chunk).unwrap();
            assert!(d.key.len() <= MAX_KEY_BYTES + 1);
        }
        let (_, _, items) = d.finish().unwrap();
        assert_eq!(items.len(), 1);
        let escaped = r#"{"\u006d\u0065\u0074\u0061\u0064\u0061\u0074\u0061":{"resourceVersion":"9"},"items":[]}"#;
        assert_eq!(
            decode_list([escaped.as_bytes()], 0)
                .unwrap()
                .0
                .resource_version
                .as_deref(),
            Some("9")
        );
    }

    #[test]
    fn quoting_cuts_on_char_boundaries() {
        let line = "é".repeat(300);
        let q = quote_line(line.as_bytes());
        assert!(q.len() <= QUOTED_LINE_BYTES + '…'.len_utf8());
        assert!(q.ends_with('…'));
        assert_eq!(quote_line(b"short"), "short");
    }
}
