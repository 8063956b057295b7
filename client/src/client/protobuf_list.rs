//! A protobuf list body decoded as it arrives, as a JSON list is ([`super::decode_list`]):
//! the envelope (`k8s\0` + `runtime.Unknown`, whose `raw` holds the `XxxList {1: ListMeta,
//! 2: repeated items}`) is scanned as its bytes come in, the items whose bytes are all in go
//! to the decode pool in batches, and the results are taken back in order. Decoding thus
//! overlaps the transfer instead of waiting for the whole body.
//!
//! The scanner reads only field numbers and lengths, and lets go of the bytes it has scanned
//! past, so the body is never held whole beside its items. A body it does not expect (no
//! magic, `raw` twice, a wire type no list uses, a body cut short) before it has let go
//! of any byte is decoded whole by the list decoder instead, so that the error names the
//! field and byte as that decoder does, or the body decodes if it was merely unusual; later,
//! the error says what the scanner met and at which byte. Kubernetes never writes such
//! bodies.

use std::future::Future;
use std::ops::Range;
use std::sync::Arc;
use std::time::Duration;

use futures_util::future::BoxFuture;
use futures_util::{FutureExt, StreamExt};
use k8s_openapi::apimachinery::pkg::apis::meta::v1::ListMeta;

use super::decode::Oversized;
use super::decode_pool::{self, Batch, DecodePool, Erased};
use super::{
    http_error, joined, oversized, read_with_timeout, Body, BodyCounter, ErasedList, Limits,
    ListBody, ListItems,
};
use crate::error::{BoxError, Error};
use crate::protobuf::ProtobufDecoders;
use crate::watch_event::ObjectList;

/// The magic that starts every protobuf body.
const MAGIC: &[u8] = b"k8s\0";

/// Where the scanner is in the body.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Level {
    /// Before the magic.
    Magic,
    /// Among the `runtime.Unknown`'s fields.
    Envelope,
    /// Inside `raw`, the list message, which ends at this offset of the body.
    List { end: usize },
}

/// Why scanning stopped.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Stop {
    /// The next field's bytes have not all arrived.
    NeedBytes,
    /// The body is not what the scanner expects, for this reason.
    Unexpected(&'static str),
    /// An item over the limit.
    Oversized(Oversized),
}

/// The body's bytes not yet scanned past, and where the scan is. Offsets count from the
/// body's first byte; the bytes before `base` have been scanned and let go, so that a list
/// of 100k Pods is not held twice (as bytes and as Pods) while it arrives. Every field but
/// the items is kept, for the list decoder to judge as it judges a whole body.
#[derive(Debug)]
struct Scanner {
    /// The body from offset `base` on: mostly an item still arriving.
    held: Vec<u8>,
    base: usize,
    pos: usize,
    level: Level,
    raw_seen: bool,
    /// The envelope's fields other than `raw`, as they came.
    envelope: Vec<u8>,
    /// The list message's fields other than its items (its metadata), as they came.
    list: Vec<u8>,
    max_item: usize,
}

impl Scanner {
    fn new(max_item: usize) -> Self {
        Self {
            held: Vec::new(),
            base: 0,
            pos: 0,
            level: Level::Magic,
            raw_seen: false,
            envelope: Vec::new(),
            list: Vec::new(),
            max_item,
        }
    }

    /// Appends `chunk` and every item it completes to `batch`, then lets go of the bytes
    /// scanned past.
    fn feed(&mut self, chunk: &[u8], batch: &mut Batch) -> Result<(), Stop> {
        self.held.extend_from_slice(chunk);
        let stop = loop {
            if let Err(stop) = self.step(batch) {
                break stop;
            }
        };
        if stop != Stop::NeedBytes {
            // Held as it is, so that a body refused in its first chunk can be decoded whole.
            return Err(stop);
        }
        if !self.raw_seen {
            // The envelope's first fields are held too: a body without `raw` is decoded whole.
            return Ok(());
        }
        self.held.drain(..self.pos - self.base);
        self.base = self.pos;
        Ok(())
    }

    /// How many bytes of the body have arrived.
    fn received(&self) -> usize {
        self.base + self.held.len()
    }

    /// Whether the whole body is still held (nothing was scanned past).
    fn holds_everything(&self) -> bool {
        self.base == 0
    }

    /// Whether the body ended where a list body may end.
    fn complete(&self) -> bool {
        self.level == Level::Envelope && self.raw_seen && self.pos == self.received()
    }

    /// The body without its items: what the list decoder reads for the list's metadata, and
    /// to refuse what it refuses in a whole body outside the items.
    fn without_items(&self) -> Vec<u8> {
        let mut body = Vec::with_capacity(MAGIC.len() + self.envelope.len() + self.list.len() + 11);
        body.extend_from_slice(MAGIC);
        body.extend_from_slice(&self.envelope);
        body.push((2 << 3) | LEN);
        put_varint(&mut body, self.list.len() as u64);
        body.extend_from_slice(&self.list);
        body
    }

    /// The bytes at `range` of the body, once they have all arrived.
    fn bytes(&self, range: Range<usize>) -> Result<&[u8], Stop> {
        let range = self.in_held(range)?;
        Ok(&self.held[range])
    }

    /// Where the bytes at `range` of the body are in `held`, once they have all arrived.
    fn in_held(&self, range: Range<usize>) -> Result<Range<usize>, Stop> {
        // Offsets before `base` are never asked for: the scan only moves forward.
        let start = range.start.checked_sub(self.base).ok_or(Stop::NeedBytes)?;
        let end = range.end.checked_sub(self.base).ok_or(Stop::NeedBytes)?;
        if start > end || end > self.held.len() {
            return Err(Stop::NeedBytes);
        }
        Ok(start..end)
    }

    /// Scans one field (or the magic).
    fn step(&mut self, batch: &mut Batch) -> Result<(), Stop> {
        match self.level {
            Level::Magic => {
                if self.bytes(0..MAGIC.len())? != MAGIC {
                    return Err(Stop::Unexpected(
                        "it does not start with the protobuf magic",
                    ));
                }
                self.pos = MAGIC.len();
                self.level = Level::Envelope;
                Ok(())
            }
            Level::Envelope => {
                if self.pos == self.received() {
                    return Err(Stop::NeedBytes);
                }
                let (field, wire, at) = self.tag(self.pos)?;
                if field == 2 && wire == LEN {
                    if self.raw_seen {
                        return Err(Stop::Unexpected("the envelope's raw field comes twice"));
                    }
                    let (len, start) = self.varint(at)?;
                    let end = offset_after(start, len)?;
                    self.raw_seen = true;
                    self.pos = start;
                    self.level = Level::List { end };
                } else {
                    let next = self.value_end(wire, at)?;
                    let field = self.in_held(self.pos..next)?;
                    self.envelope.extend_from_slice(&self.held[field]);
                    self.pos = next;
                }
                Ok(())
            }
            Level::List { end } => {
                if self.pos == end {
                    self.level = Level::Envelope;
                    return Ok(());
                }
                if self.pos == self.received() {
                    return Err(Stop::NeedBytes);
                }
                let (field, wire, at) = self.tag(self.pos)?;
                let next = if (field, wire) == (2, LEN) {
                    let (len, start) = self.varint(at)?;
                    if usize::try_from(len).map_or(true, |l| l > self.max_item) {
                        return Err(Stop::Oversized(Oversized::object(
                            "a list item",
                            self.max_item,
                        )));
                    }
                    let next = offset_after(start, len)?;
                    if next > end {
                        return Err(Stop::Unexpected(PAST_THE_LIST));
                    }
                    batch.push(self.bytes(start..next)?);
                    next
                } else {
                    let next = self.value_end(wire, at)?;
                    if next > end {
                        return Err(Stop::Unexpected(PAST_THE_LIST));
                    }
                    let field = self.in_held(self.pos..next)?;
                    self.list.extend_from_slice(&self.held[field]);
                    next
                };
                self.pos = next;
                Ok(())
            }
        }
    }

    /// The field number and wire type of the tag at `at`, and the offset after it.
    fn tag(&self, at: usize) -> Result<(u64, u8, usize), Stop> {
        let (tag, next) = self.varint(at)?;
        // The low three bits always fit.
        let wire = (tag & 7) as u8;
        Ok((tag >> 3, wire, next))
    }

    /// The varint at `at` and the offset after it.
    fn varint(&self, at: usize) -> Result<(u64, usize), Stop> {
        let mut value = 0u64;
        for i in 0..10 {
            let byte = self.bytes(at + i..at + i + 1)?[0];
            value |= u64::from(byte & 0x7f) << (7 * i);
            if byte & 0x80 == 0 {
                return Ok((value, at + i + 1));
            }
        }
        Err(Stop::Unexpected("a varint longer than ten bytes"))
    }

    /// The offset after a value of `wire` type starting at `at`, known before its bytes are
    /// all in (but for a varint's), so that a field reaching past its message is refused at
    /// once rather than waited for.
    fn value_end(&self, wire: u8, at: usize) -> Result<usize, Stop> {
        let end = match wire {
            VARINT => self.varint(at)?.1,
            FIXED64 => at + 8,
            LEN => {
                let (len, start) = self.varint(at)?;
                offset_after(start, len)?
            }
            FIXED32 => at + 4,
            _ => {
                return Err(Stop::Unexpected(
                    "a field of a wire type no Kubernetes list uses",
                ))
            }
        };
        Ok(end)
    }
}

/// The error of a protobuf list body whose `what` does not decode.
fn decode_error(context: &str, what: String, source: BoxError) -> Error {
    Error::Decode {
        context: context.to_owned(),
        what,
        source,
    }
}

/// Writes `v` as a protobuf varint.
fn put_varint(out: &mut Vec<u8>, mut v: u64) {
    while v >= 0x80 {
        out.push((v as u8) | 0x80);
        v >>= 7;
    }
    out.push(v as u8);
}

/// Why a field reaching past the list's end is refused.
const PAST_THE_LIST: &str = "a field reaches past the end of the list";

/// The offset `len` bytes after `start`.
fn offset_after(start: usize, len: u64) -> Result<usize, Stop> {
    usize::try_from(len)
        .ok()
        .and_then(|len| start.checked_add(len))
        .ok_or(Stop::Unexpected("a length past any body"))
}

const VARINT: u8 = 0;
const FIXED64: u8 = 1;
const LEN: u8 = 2;
const FIXED32: u8 = 5;

/// A batch's items decoded in order, or the first one that fails, with its index in the list.
type Decoded<T> = Result<Vec<T>, (usize, BoxError)>;

/// Decodes the items of `batch`, the first of which is item `first` of the list.
fn decode_batch<T>(
    batch: &Batch,
    first: usize,
    decoders: ProtobufDecoders<T>,
    keep_managed_fields: bool,
) -> Decoded<T> {
    let mut items = Vec::with_capacity(batch.len());
    let mut failed = None;
    batch.for_each(|bytes| match (decoders.item)(bytes, keep_managed_fields) {
        Ok(item) => {
            items.push(item);
            true
        }
        Err(e) => {
            failed = Some((first + items.len(), e));
            false
        }
    });
    match failed {
        Some(failure) => Err(failure),
        None => Ok(items),
    }
}

/// Decodes a batch's items, the first of which is item `first` of the list, keeping
/// `managedFields` or not.
type BatchFn = dyn Fn(&Batch, usize, bool) -> Result<Erased, (usize, BoxError)> + Send + Sync;

/// Decodes a whole list body: its metadata and items.
type ListFn = dyn Fn(&[u8], bool) -> Result<(ListMeta, Erased), BoxError> + Send + Sync;

/// One type's list decoders, their items erased (a `Vec` of them as [`Erased`]).
struct ErasedDecoders {
    batch: Arc<BatchFn>,
    list: Arc<ListFn>,
}

/// A protobuf list body, decoded as it arrives: items go to the decode pool in batches of at
/// least `batch_bytes`; a chunk late by more than `read_timeout`, an item or a body over its
/// limit, or bytes that do not decode fail.
pub(crate) fn decode<T: Send + 'static>(
    body: Body,
    read_timeout: Option<Duration>,
    batch_bytes: usize,
    decoders: ProtobufDecoders<T>,
    keep_managed_fields: bool,
    limits: Limits,
    context: &str,
) -> impl Future<Output = Result<ObjectList<T>, Error>> + Send + '_ {
    let erased = ErasedDecoders {
        batch: Arc::new(move |batch: &Batch, first, keep| {
            decode_batch(batch, first, decoders, keep).map(|items| Box::new(items) as Erased)
        }),
        list: Arc::new(move |body: &[u8], keep| {
            (decoders.list)(body, keep)
                .map(|(metadata, items)| (metadata, Box::new(items) as Erased))
        }),
    };
    let list = ListBody {
        read_timeout,
        batch_bytes,
        limits,
        context,
    };
    decode_erased(body, list, keep_managed_fields, erased).map(move |list| list?.typed(context))
}

/// [`decode`] for items that `decoders` make, compiled once whatever they are.
fn decode_erased<'a>(
    mut body: Body,
    list: ListBody<'a>,
    keep_managed_fields: bool,
    decoders: ErasedDecoders,
) -> BoxFuture<'a, Result<ErasedList, Error>> {
    Box::pin(async move {
        let context = list.context;
        let body_error =
            |source| decode_error(context, "the protobuf list body".to_owned(), source);
        let owned_context: Arc<str> = context.into();
        let job = |batch: Batch, first: usize| {
            let decode = decoders.batch.clone();
            let context = owned_context.clone();
            decode_pool::job(move || -> Result<Erased, Error> {
                decode(&batch, first, keep_managed_fields).map_err(|(index, source)| {
                    let what = format!("item {index} of the protobuf list body");
                    decode_error(&context, what, source)
                })
            })
        };
        let mut scanner = Scanner::new(list.limits.object);
        let mut counter = BodyCounter::new(list.limits.body);
        let mut items = ListItems::new(context);
        let mut batch = Batch::default();
        let mut batched = 0;
        // Set when the scanner meets a body it does not expect, which is then only collected.
        let mut unexpected = None;
        while let Some(chunk) = read_with_timeout(body.next(), list.read_timeout, context)
            .await?
            .transpose()
            .map_err(|e| http_error(context, "reading the list body", &*e))?
        {
            counter.add(chunk.len(), context)?;
            if unexpected.is_some() {
                scanner.held.extend_from_slice(&chunk);
                continue;
            }
            match scanner.feed(&chunk, &mut batch) {
                Ok(()) => {}
                Err(Stop::Oversized(what)) => return Err(oversized(context, what)),
                Err(stop) => unexpected = Some(stop),
            }
            if unexpected.is_none() && batch.byte_len() >= list.batch_bytes {
                // The next batch starts with room for one, rather than doubling its way there.
                let room = list.batch_bytes.saturating_add(list.batch_bytes / 2);
                let full = std::mem::replace(&mut batch, Batch::with_capacity(room));
                let first = batched;
                batched += full.len();
                items.submit(false, job(full, first)).await?;
            }
        }
        if unexpected.is_some() || !scanner.complete() {
            if !scanner.holds_everything() {
                // Items went to the decoder already: the body cannot be decoded whole any more.
                let what = match unexpected {
                    Some(Stop::Unexpected(why)) => format!("{why}, at byte {}", scanner.pos),
                    _ => format!(
                        "it ended after {} bytes, inside the list",
                        scanner.received()
                    ),
                };
                return Err(body_error(what.into()));
            }
            // The list decoder reads the whole body and names what is wrong with it.
            let body = std::mem::take(&mut scanner.held);
            let decode = decoders.list.clone();
            let mut whole = DecodePool::new();
            whole.submit(
                false,
                decode_pool::job(move || decode(&body, keep_managed_fields)),
            );
            let decoded = match whole.next().await {
                Some(done) => joined(
                    decode_pool::typed::<Result<(ListMeta, Erased), BoxError>>(done),
                    context,
                )?,
                None => Err("the decoding task ended without an answer".into()),
            };
            let (metadata, items) = decoded.map_err(body_error)?;
            return Ok(ErasedList::new(metadata, vec![items], None));
        }
        if !batch.is_empty() {
            items.submit(true, job(batch, batched)).await?;
        }
        let (metadata, _) =
            (decoders.list)(&scanner.without_items(), keep_managed_fields).map_err(body_error)?;
        Ok(ErasedList::new(metadata, items.finish().await?, None))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn field(number: u64, bytes: &[u8], out: &mut Vec<u8>) {
        put_varint(out, number << 3 | 2);
        put_varint(out, bytes.len() as u64);
        out.extend_from_slice(bytes);
    }

    /// A list body: type meta, then raw holding metadata, items and an unknown varint field,
    /// then the envelope's content type.
    fn list_body(metadata: &[u8], items: &[&[u8]]) -> Vec<u8> {
        let mut raw = Vec::new();
        field(1, metadata, &mut raw);
        for item in items {
            field(2, item, &mut raw);
        }
        put_varint(&mut raw, 9 << 3);
        put_varint(&mut raw, 300);
        let mut body = MAGIC.to_vec();
        field(1, b"\x0a\x02v1\x12\x07PodList", &mut body);
        field(2, &raw, &mut body);
        field(4, b"", &mut body);
        body
    }

    /// What [`list_body`] leaves without its items, its envelope's fields before `raw`.
    fn without_items(metadata: &[u8]) -> Vec<u8> {
        let mut raw = Vec::new();
        field(1, metadata, &mut raw);
        put_varint(&mut raw, 9 << 3);
        put_varint(&mut raw, 300);
        let mut body = MAGIC.to_vec();
        field(1, b"\x0a\x02v1\x12\x07PodList", &mut body);
        field(4, b"", &mut body);
        field(2, &raw, &mut body);
        body
    }

    fn scan(body: &[u8], cut: usize) -> (Scanner, Vec<Vec<u8>>, Result<(), Stop>) {
        let mut scanner = Scanner::new(1024);
        let mut batch = Batch::default();
        let mut result = Ok(());
        for chunk in body.chunks(cut) {
            result = scanner.feed(chunk, &mut batch);
            if result.is_err() {
                break;
            }
        }
        let mut items = Vec::new();
        batch.for_each(|i| {
            items.push(i.to_vec());
            true
        });
        (scanner, items, result)
    }

    #[test]
    fn items_are_found_however_the_body_is_cut() {
        let body = list_body(b"meta", &[b"one", b"", &[7u8; 200]]);
        for cut in 1..=body.len() {
            let (scanner, items, result) = scan(&body, cut);
            assert_eq!(result, Ok(()), "cut every {cut} bytes");
            assert_eq!(items, [b"one".to_vec(), Vec::new(), vec![7u8; 200]]);
            assert!(scanner.complete(), "cut every {cut} bytes");
            assert_eq!(scanner.without_items(), without_items(b"meta"));
        }
    }

    #[test]
    fn a_body_cut_short_is_not_complete() {
        let body = list_body(b"meta", &[b"one", b"two"]);
        // The envelope's last field, an empty content type (2 bytes), may be left out.
        for len in 0..body.len() - 2 {
            let (scanner, _, result) = scan(&body[..len], body.len());
            assert_eq!(result, Ok(()));
            assert!(!scanner.complete(), "{len} of {} bytes", body.len());
        }
    }

    #[test]
    fn what_the_scanner_does_not_expect_goes_to_the_whole_decoder() {
        let mut no_magic = list_body(b"", &[b"x"]);
        no_magic[0] = b'j';
        let mut raw_twice = list_body(b"", &[b"x"]);
        field(2, b"", &mut raw_twice);
        let mut group = MAGIC.to_vec();
        put_varint(&mut group, 5 << 3 | 3);
        let mut overlong = MAGIC.to_vec();
        overlong.extend_from_slice(&[0xff; 11]);
        let mut item_past_raw = MAGIC.to_vec();
        field(2, &[0x12, 0x05, b'a'], &mut item_past_raw);
        item_past_raw.extend_from_slice(b"bcdef");
        for body in [no_magic, raw_twice, group, overlong, item_past_raw] {
            let (_, _, result) = scan(&body, body.len());
            assert!(matches!(result, Err(Stop::Unexpected(_))), "{body:?}");
        }
    }

    #[test]
    fn bytes_scanned_past_are_let_go() {
        let item = [9u8; 100];
        let body = list_body(b"meta", &[&item[..]; 50]);
        let mut scanner = Scanner::new(1024);
        let mut batch = Batch::default();
        for chunk in body.chunks(7) {
            assert_eq!(scanner.feed(chunk, &mut batch), Ok(()));
            // At most the one field still arriving (tag, length and 100 bytes) is held.
            assert!(
                scanner.held.len() < 103,
                "{} bytes held",
                scanner.held.len()
            );
        }
        assert!(scanner.complete());
        assert_eq!(batch.len(), 50);
    }

    /// Feeds `body` in chunks of the sizes in `cuts` (cycled); the scan's outcome and items.
    fn scan_cut(body: &[u8], cuts: &[usize]) -> (Scanner, Vec<Vec<u8>>, Result<(), Stop>) {
        let mut scanner = Scanner::new(1024);
        let mut batch = Batch::default();
        let mut result = Ok(());
        let mut rest = body;
        for &cut in cuts.iter().cycle() {
            if rest.is_empty() || result.is_err() {
                break;
            }
            let (chunk, after) = rest.split_at(cut.min(rest.len()));
            result = scanner.feed(chunk, &mut batch);
            rest = after;
        }
        let mut items = Vec::new();
        batch.for_each(|i| {
            items.push(i.to_vec());
            true
        });
        (scanner, items, result)
    }

    proptest::proptest! {
        #[test]
        fn any_cut_of_a_list_finds_its_items_and_metadata(
            items in proptest::collection::vec(proptest::collection::vec(0u8..=255, 0..300), 0..8),
            metadata in proptest::collection::vec(0u8..=255, 0..200),
            cuts in proptest::collection::vec(1usize..64, 1..16),
        ) {
            let refs: Vec<&[u8]> = items.iter().map(Vec::as_slice).collect();
            let body = list_body(&metadata, &refs);
            let (scanner, found, result) = scan_cut(&body, &cuts);
            proptest::prop_assert_eq!(result, Ok(()));
            proptest::prop_assert!(scanner.complete());
            proptest::prop_assert_eq!(found, items);
            proptest::prop_assert_eq!(scanner.without_items(), without_items(&metadata));
        }

        #[test]
        fn arbitrary_bytes_never_panic(
            body in proptest::collection::vec(0u8..=255, 0..512),
            cuts in proptest::collection::vec(1usize..64, 1..16),
        ) {
            // Behind a real magic, so that the scan goes past the first four bytes.
            let mut with_magic = MAGIC.to_vec();
            with_magic.extend_from_slice(&body);
            for input in [&body, &with_magic] {
                let (scanner, found, _) = scan_cut(input, &cuts);
                // Whatever was found lies inside the body.
                proptest::prop_assert!(found.iter().map(Vec::len).sum::<usize>() <= input.len());
                let _ = scanner.complete();
            }
        }
    }

    #[test]
    fn an_item_over_the_limit_is_refused_before_it_arrives() {
        let big = vec![0u8; 2048];
        let body = list_body(b"", &[&big]);
        let (_, items, result) = scan(&body[..40], 40);
        assert!(items.is_empty());
        assert_eq!(
            result,
            Err(Stop::Oversized(Oversized::object("a list item", 1024)))
        );
    }
}
