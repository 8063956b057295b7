//! Decoding JSON into serde types, the hot path of every list and watch.
//!
//! simd-json is used instead of `serde_json::from_slice` for two measured reasons: it
//! decodes a list of Pods faster, and it knows every array's length before serde builds
//! the `Vec`, so vectors get their exact capacity instead of doubling (serde_json gives no
//! size hint). That alone makes a cached k8s-openapi `Pod` about 30% smaller.
//!
//! simd-json parses in place, so the input is copied into a per-thread scratch buffer
//! that is reused, with simd-json's own buffers, from one document to the next.

use std::cell::RefCell;
use std::ops::Range;

use serde::de::{DeserializeOwned, Error as _};

/// How deeply arrays and objects may nest, as in serde_json: simd-json's deserializer recurses
/// once per level, so a document nested thousands deep (from a broken or hostile server) would
/// overflow the decoding thread's stack, which aborts the process. Kubernetes objects nest a few
/// dozen levels at most.
const MAX_DEPTH: usize = 128;

thread_local! {
    static SCRATCH: RefCell<Scratch> = RefCell::new(Scratch::default());
}

#[derive(Default)]
struct Scratch {
    input: Vec<u8>,
    buffers: simd_json::Buffers,
}

impl Scratch {
    fn decode<T: DeserializeOwned>(
        &mut self,
        bytes: &[u8],
        omit: Option<Omit>,
    ) -> Result<T, serde_json::Error> {
        let cut = scan(bytes, omit)?;
        self.input.clear();
        match cut {
            Some(cut) => {
                self.input.extend_from_slice(&bytes[..cut.start]);
                self.input.extend_from_slice(&bytes[cut.end..]);
            }
            None => self.input.extend_from_slice(bytes),
        }
        self.parse()
    }

    /// Parses what `input` holds.
    fn parse<T: DeserializeOwned>(&mut self) -> Result<T, serde_json::Error> {
        simd_json::serde::from_slice_with_buffers(&mut self.input, &mut self.buffers)
            .map_err(|e| serde_json::Error::custom(e.to_string()))
    }

    #[cfg(feature = "compact")]
    fn decode_lz4<T: DeserializeOwned>(&mut self, block: &[u8]) -> Result<T, String> {
        let (size, compressed) =
            lz4_flex::block::uncompressed_size(block).map_err(|e| e.to_string())?;
        self.input.clear();
        self.input.resize(size, 0);
        let written = lz4_flex::block::decompress_into(compressed, &mut self.input)
            .map_err(|e| e.to_string())?;
        self.input.truncate(written);
        self.parse().map_err(|e| e.to_string())
    }
}

/// A member of a document left out before it is parsed, named by the object keys that lead
/// to it from the document's root. Cutting the bytes, rather than dropping the member after
/// decoding, saves its parsing and its allocations: `metadata.managedFields` is about 40%
/// of a real Pod's JSON and decodes into trees of maps.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Omit(&'static [&'static str]);

impl Omit {
    /// `metadata.managedFields` of an object (a list item).
    pub(crate) const MANAGED_FIELDS: Omit = Omit(&["metadata", "managedFields"]);
    /// `object.metadata.managedFields` of a watch event.
    pub(crate) const EVENT_MANAGED_FIELDS: Omit = Omit(&["object", "metadata", "managedFields"]);
}

/// One pass over `bytes` that fails when arrays and objects nest deeper than [`MAX_DEPTH`]
/// (naming the byte where they do) and finds the bytes to cut for `omit`: the member's key,
/// value and one comma next to it. Brackets, commas and keys inside strings do not count.
///
/// Nothing is cut from a document whose structure around the member is broken (no colon,
/// not exactly one value, a stray comma, mismatched brackets), so the parser reports it. The
/// member's inner syntax is not checked beyond that, as its content is never read. A key
/// written with escapes is not recognised: the member is then decoded, which is what callers
/// that must not see it guard against.
fn scan(bytes: &[u8], omit: Option<Omit>) -> Result<Option<Range<usize>>, serde_json::Error> {
    let path = omit.map_or(&[][..], |o| o.0);
    let mut depth = 0usize;
    // Bit `d - 1` is set while the container at depth `d` is an object.
    let mut objects = 0u128;
    // The containers at depths `1..=on_path` are the root and the values of `path`'s keys.
    let mut on_path = 0usize;
    let mut expect_key = false;
    // The last key read, in an on-path object, is `path`'s next step.
    let mut key_hit = false;
    let mut member: Option<Member> = None;
    let mut cut = None;
    let mut broken = false;
    let mut at = 0;
    while at < bytes.len() {
        let byte = bytes[at];
        let in_member = member.as_mut().filter(|m| m.depth == depth);
        match byte {
            b'"' => {
                let start = at;
                match string_end(bytes, at + 1) {
                    Some(end) => at = end,
                    // Unterminated: the parser reports that.
                    None => return Ok(None),
                }
                if let Some(m) = in_member {
                    m.value(false);
                }
                key_hit = false;
                if std::mem::take(&mut expect_key)
                    && depth == on_path
                    && cut.is_none()
                    && member.is_none()
                {
                    if let Some(step) = depth.checked_sub(1).and_then(|i| path.get(i)) {
                        if &bytes[start + 1..at] == step.as_bytes() {
                            if depth == path.len() {
                                member = Some(Member::new(start, depth));
                            } else {
                                key_hit = true;
                            }
                        }
                    }
                }
            }
            b'[' | b'{' => {
                if let Some(m) = in_member {
                    m.value(false);
                }
                depth += 1;
                let object = byte == b'{';
                enter(&mut objects, depth, object, at)?;
                if object && depth - 1 == on_path && (depth == 1 || key_hit) {
                    on_path = depth;
                }
                key_hit = false;
                expect_key = object;
                if depth > on_path {
                    // Off the path only nesting matters: skip to the container's close,
                    // which the next turn handles as any other.
                    match skip_nested(bytes, at + 1, depth, &mut objects, &mut broken)? {
                        Some(close) => {
                            at = close;
                            continue;
                        }
                        None => return Ok(None),
                    }
                }
            }
            b']' | b'}' => {
                broken |= mismatched(objects, depth, byte);
                if let Some(m) = in_member {
                    broken |= !m.is_whole();
                    cut = Some(last_member(bytes, m.key, at));
                    member = None;
                }
                if on_path == depth {
                    on_path = on_path.saturating_sub(1);
                }
                depth = depth.saturating_sub(1);
                key_hit = false;
                expect_key = false;
            }
            b',' => {
                if let Some(m) = in_member {
                    let next = bytes[at + 1..].iter().find(|b| !b.is_ascii_whitespace());
                    broken |= !m.is_whole() || next != Some(&b'"');
                    cut = Some(m.key..at + 1);
                    member = None;
                }
                key_hit = false;
                expect_key = depth
                    .checked_sub(1)
                    .is_some_and(|bit| objects & (1u128 << bit) != 0);
            }
            b' ' | b'\t' | b'\n' | b'\r' => {
                if let Some(m) = in_member {
                    m.in_scalar = false;
                }
            }
            b':' => {
                if let Some(m) = in_member {
                    broken |= m.colon || m.values > 0;
                    m.colon = true;
                    m.in_scalar = false;
                }
            }
            _ => {
                if let Some(m) = in_member {
                    m.value(true);
                }
            }
        }
        at += 1;
    }
    Ok(cut.filter(|_| !broken && member.is_none()))
}

/// The offset of the bracket that closes the container at `depth` whose content starts at
/// `from` (the end of `bytes` if none does; `None` for an unterminated string), checking
/// the nesting on the way as [`scan`] does: too deep is an error, a mismatched bracket
/// sets `broken`. Keys, values and separators are not looked at.
fn skip_nested(
    bytes: &[u8],
    from: usize,
    depth: usize,
    objects: &mut u128,
    broken: &mut bool,
) -> Result<Option<usize>, serde_json::Error> {
    let mut inner = depth;
    let mut at = from;
    while let Some(&byte) = bytes.get(at) {
        match byte {
            b'"' => match string_end(bytes, at + 1) {
                Some(end) => at = end,
                None => return Ok(None),
            },
            b'[' | b'{' => {
                inner += 1;
                enter(objects, inner, byte == b'{', at)?;
            }
            b']' | b'}' => {
                if inner == depth {
                    return Ok(Some(at));
                }
                *broken |= mismatched(*objects, inner, byte);
                inner -= 1;
            }
            _ => {}
        }
        at += 1;
    }
    Ok(Some(bytes.len()))
}

/// Notes the container opened at byte `at`, `depth` levels deep (the root is 1), in
/// `objects` (bit `depth - 1` set for an object); deeper than [`MAX_DEPTH`] is an error.
fn enter(
    objects: &mut u128,
    depth: usize,
    object: bool,
    at: usize,
) -> Result<(), serde_json::Error> {
    if depth > MAX_DEPTH {
        return Err(serde_json::Error::custom(format!(
            "arrays and objects nested deeper than {MAX_DEPTH} levels at byte {at}"
        )));
    }
    let bit = 1u128 << (depth - 1);
    *objects = if object {
        *objects | bit
    } else {
        *objects & !bit
    };
    Ok(())
}

/// True when the bracket `close` does not close the container `depth` levels deep (or
/// none is open).
fn mismatched(objects: u128, depth: usize, close: u8) -> bool {
    let closes_object = depth
        .checked_sub(1)
        .is_some_and(|bit| objects & (1u128 << bit) != 0);
    depth == 0 || closes_object != (close == b'}')
}

/// The offset of the quote that closes the string whose text starts at `from`, past
/// escaped characters.
pub(crate) fn string_end(bytes: &[u8], from: usize) -> Option<usize> {
    let mut at = from;
    loop {
        at = quote_or_backslash(bytes, at)?;
        if bytes[at] == b'"' {
            return Some(at);
        }
        at += 2;
    }
}

/// The offset of the first `"` or `\\` in `bytes` at or after `from`: where a string's text
/// ends or an escape begins. Eight bytes are tested at a time: most strings of an object are
/// short keys and values, where `memchr`'s setup would cost more than the search.
pub(crate) fn quote_or_backslash(bytes: &[u8], from: usize) -> Option<usize> {
    let mut at = from;
    while let Some(word) = bytes
        .get(at..at + 8)
        .and_then(|w| <[u8; 8]>::try_from(w).ok())
    {
        let word = u64::from_le_bytes(word);
        let found = has_byte(word, b'"') | has_byte(word, b'\\');
        if found != 0 {
            // The lowest flagged byte is exact (later ones may be false positives).
            return Some(at + (found.trailing_zeros() / 8) as usize);
        }
        at += 8;
    }
    let tail = bytes.get(at..)?;
    tail.iter()
        .position(|&b| b == b'"' || b == b'\\')
        .map(|off| at + off)
}

/// The high bit set in every byte of `word` equal to `byte`, and maybe in bytes above the
/// lowest such byte (the classic zero-byte test on `word ^ byte`).
fn has_byte(word: u64, byte: u8) -> u64 {
    const ONES: u64 = u64::from_ne_bytes([1; 8]);
    const HIGHS: u64 = ONES << 7;
    let x = word ^ (ONES * u64::from(byte));
    x.wrapping_sub(ONES) & !x & HIGHS
}

/// The member to cut, from its key on.
struct Member {
    /// Offset of its key's opening quote.
    key: usize,
    /// Depth of the object holding it.
    depth: usize,
    colon: bool,
    /// Values begun after the key (one when the member is well formed).
    values: u8,
    /// Inside a number or literal.
    in_scalar: bool,
}

impl Member {
    fn new(key: usize, depth: usize) -> Self {
        Self {
            key,
            depth,
            colon: false,
            values: 0,
            in_scalar: false,
        }
    }

    /// Notes a byte that begins a value or continues a scalar.
    fn value(&mut self, scalar: bool) {
        if !(scalar && self.in_scalar) {
            self.values = self.values.saturating_add(1);
        }
        self.in_scalar = scalar;
    }

    fn is_whole(&self) -> bool {
        self.colon && self.values == 1
    }
}

/// The bytes to cut for an object's last member, whose key starts at `key` and whose
/// object closes at `close`: from the comma before it, if any, so the object stays valid.
fn last_member(bytes: &[u8], key: usize, close: usize) -> Range<usize> {
    let before = bytes[..key].iter().rposition(|b| !b.is_ascii_whitespace());
    match before {
        Some(comma) if bytes[comma] == b',' => comma..close,
        _ => key..close,
    }
}

/// Decodes one JSON document into `T`, with serde_json's error type so callers need not
/// know which parser ran.
pub fn from_slice<T: DeserializeOwned>(bytes: &[u8]) -> Result<T, serde_json::Error> {
    from_slice_omitting(bytes, None)
}

/// [`from_slice`] with `omit`'s member, when the document has it, left out before parsing.
pub(crate) fn from_slice_omitting<T: DeserializeOwned>(
    bytes: &[u8],
    omit: Option<Omit>,
) -> Result<T, serde_json::Error> {
    with_scratch(|scratch| scratch.decode(bytes, omit))
}

/// Decodes `T` from an LZ4 block of JSON prefixed with its length, as
/// `lz4_flex::compress_prepend_size` writes it, that this process encoded from a decoded
/// `T` (the compact cache): decompressed straight into the scratch buffer, and not scanned
/// for depth, since its nesting is that of an object that passed the scan when first decoded.
#[cfg(feature = "compact")]
#[cfg_attr(docsrs, doc(cfg(feature = "compact")))]
pub fn from_lz4_block<T: DeserializeOwned>(block: &[u8]) -> Result<T, String> {
    with_scratch(|scratch| scratch.decode_lz4(block))
}

/// Runs `f` with this thread's scratch buffers. A `Deserialize` impl that itself decodes
/// JSON through this module re-enters it; it gets fresh buffers instead of a second borrow.
fn with_scratch<R>(f: impl FnOnce(&mut Scratch) -> R) -> R {
    SCRATCH.with(|scratch| match scratch.try_borrow_mut() {
        Ok(mut scratch) => f(&mut scratch),
        Err(_) => f(&mut Scratch::default()),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use k8s_openapi::api::core::v1::Pod;

    #[test]
    fn decodes_like_serde_json() {
        let text = br#"{"apiVersion":"v1","kind":"Pod","metadata":{"name":"p","namespace":"n",
            "labels":{"a":"b"},"managedFields":[{"fieldsV1":{"f:spec":{"k:{\"x\":1}":{}}}}]},
            "spec":{"containers":[{"name":"c","args":["--x=\u00e9\ud83d\ude00"],
            "ports":[{"containerPort":8080}]}]}}"#;
        let ours: Pod = from_slice(text).unwrap();
        let theirs: Pod = serde_json::from_slice(text).unwrap();
        assert_eq!(ours, theirs);
    }

    #[test]
    fn vectors_get_their_exact_length_as_capacity() {
        let pod: Pod =
            from_slice(br#"{"spec":{"containers":[{"name":"c","args":["a","b","c"]}]}}"#).unwrap();
        let mut containers = pod.spec.unwrap().containers;
        let args = containers.remove(0).args.unwrap();
        assert_eq!((args.len(), args.capacity()), (3, 3));
    }

    #[test]
    fn nesting_deeper_than_serde_json_allows_is_an_error_not_a_stack_overflow() {
        let deep = |levels: usize| {
            let mut doc = r#"{"s":"[[{{\"]]","a":"#.to_owned();
            doc.push_str(&"[".repeat(levels));
            doc.push_str(&"]".repeat(levels));
            doc.push('}');
            doc
        };
        from_slice::<serde_json::Value>(deep(MAX_DEPTH - 1).as_bytes()).unwrap();
        let err = from_slice::<serde_json::Value>(deep(100_000).as_bytes()).unwrap_err();
        assert!(
            err.to_string()
                .contains("nested deeper than 128 levels at byte 147"),
            "{err}"
        );
    }

    /// What `omit` leaves of `doc`, re-read as a value.
    fn omitted(doc: &str, omit: Omit) -> serde_json::Value {
        from_slice_omitting(doc.as_bytes(), Some(omit)).unwrap()
    }

    #[test]
    fn omitting_cuts_the_member_wherever_it_sits_in_its_object() {
        let expect = |doc: &str, want: serde_json::Value| {
            assert_eq!(omitted(doc, Omit::MANAGED_FIELDS), want, "{doc}");
        };
        let mf = r#"[{"manager":"kubelet","fieldsV1":{"f:status":{"k:{\"type\":\"Ready\"}":{}}}}]"#;
        let want = serde_json::json!({"metadata": {"name": "a", "uid": "u"}, "spec": {}});
        expect(
            &format!(r#"{{"metadata":{{"name":"a","managedFields":{mf},"uid":"u"}},"spec":{{}}}}"#),
            want.clone(),
        );
        expect(
            &format!(r#"{{"metadata":{{"managedFields":{mf},"name":"a","uid":"u"}},"spec":{{}}}}"#),
            want.clone(),
        );
        expect(
            &format!(r#"{{"metadata":{{"name":"a","uid":"u","managedFields":{mf}}},"spec":{{}}}}"#),
            want.clone(),
        );
        expect(&format!("{{ \"metadata\" : {{ \"name\" : \"a\" ,\n \"uid\":\"u\" , \"managedFields\" :\n {mf} \n}} , \"spec\":{{}} }}"), want);
        expect(
            &format!(r#"{{"metadata":{{"managedFields":{mf}}}}}"#),
            serde_json::json!({"metadata": {}}),
        );
        expect(
            r#"{"metadata":{"managedFields":null,"name":"a"}}"#,
            serde_json::json!({"metadata": {"name": "a"}}),
        );
    }

    #[test]
    fn omitting_leaves_members_of_the_same_name_elsewhere() {
        let doc = r#"{"kind":"X","spec":{"managedFields":[1],"metadata":{"managedFields":[2]}},
            "items":[{"metadata":{"managedFields":[3]}}],"s":"{\"metadata\":{\"managedFields\":1}}",
            "metadata":{"annotations":{"managedFields":"4"},"labels":{"x":"managedFields"}}}"#;
        let whole: serde_json::Value = serde_json::from_str(doc).unwrap();
        assert_eq!(omitted(doc, Omit::MANAGED_FIELDS), whole);
        // An escaped key is not recognised: the member is decoded (and dropped later).
        let escaped = r#"{"metadata":{"managedFi\u0065lds":[1],"name":"a"}}"#;
        assert_eq!(
            omitted(escaped, Omit::MANAGED_FIELDS),
            serde_json::json!({"metadata": {"managedFields": [1], "name": "a"}})
        );
    }

    #[test]
    fn omitting_follows_the_path_of_a_watch_event() {
        let line = r#"{"type":"MODIFIED","metadata":{"managedFields":[0]},
            "object":{"kind":"Pod","metadata":{"name":"p","managedFields":[{"manager":"m"}]}}}"#;
        assert_eq!(
            omitted(line, Omit::EVENT_MANAGED_FIELDS),
            serde_json::json!({"type": "MODIFIED", "metadata": {"managedFields": [0]},
                "object": {"kind": "Pod", "metadata": {"name": "p"}}})
        );
        // Omitting nothing leaves it whole.
        let whole: serde_json::Value = from_slice(line.as_bytes()).unwrap();
        assert_eq!(
            whole,
            serde_json::from_str::<serde_json::Value>(line).unwrap()
        );
    }

    #[test]
    fn strings_end_at_their_closing_quote_whatever_their_length() {
        for len in 0..40usize {
            for escape_at in [None, Some(0), Some(len / 2), Some(len.saturating_sub(1))] {
                let mut text: Vec<u8> = (0..len).map(|i| b'a' + (i % 26) as u8).collect();
                if let Some(at) = escape_at.filter(|_| len > 0) {
                    text[at] = b'\\';
                    text.insert(at + 1, b'"');
                }
                let doc = [&b"\""[..], &text, b"\",1"].concat();
                assert_eq!(string_end(&doc, 1), Some(text.len() + 1), "{doc:?}");
                assert_eq!(string_end(&doc[..text.len() + 1], 1), None, "{doc:?}");
            }
        }
    }

    #[test]
    fn omitting_from_broken_documents_still_fails_to_parse() {
        for doc in [
            r#"{"metadata":{"managedFields":[1}"#,
            r#"{"metadata":{"managedFields":"#,
            r#"{"metadata":{"managedFields":[1],}}"#,
            r#"{"metadata":{"managedFields""#,
            r#"{"metadata":{"managedFields":[1] "name":"a"}}"#,
            r#"{"metadata":{"managedFields" [1],"name":"a"}}"#,
            r#"{"metadata":{"managedFields"::[1],"name":"a"}}"#,
            r#"{"metadata":{"managedFields":nu ll,"name":"a"}}"#,
            r#"{"metadata":{"managedFields":[1},"name":"a"}}"#,
            r#"{"metadata":{"managedFields":[1]]}}"#,
            r#"{"metadata":{"a":1,,"managedFields":[1]}}"#,
            r#"{"metadata":{"managedFields":[{"a":[1}]}],"name":"a"}}"#,
            r#"{"spec":{"a":[1}},"metadata":{"managedFields":[1]}}"#,
        ] {
            assert!(
                from_slice_omitting::<serde_json::Value>(
                    doc.as_bytes(),
                    Some(Omit::MANAGED_FIELDS)
                )
                .is_err(),
                "{doc}"
            );
        }
    }

    #[test]
    fn errors_are_serde_json_errors() {
        let err = from_slice::<Pod>(b"{\"metadata\":").unwrap_err();
        assert!(!err.to_string().is_empty());
        let err = from_slice::<Pod>(b"{\"metadata\":{\"name\":1}}").unwrap_err();
        assert!(!err.to_string().is_empty());
    }
}
