//! Filtering on the client for a shard selector the server ignored (KEP-5866 on a server
//! without the feature): each list item or watch event is placed by the hash of its
//! `metadata.uid` or `metadata.namespace`, found in the raw bytes, so an object outside the
//! shard costs a scan instead of a decode.
//!
//! The scan walks only the objects on the way to the field (the document, its `metadata`)
//! member by member, skips every other value by its brackets and strings, and stops at the
//! field: `metadata` comes early in what a server sends and `uid` early in it, so a skipped
//! object costs a few hundred bytes of scanning, not its whole length. It answers only when
//! the way there is unambiguous; anything else (a key written with escapes, which could spell
//! the field; a value with escapes, whose hash needs the unescaped text; structure it cannot
//! follow before the field) makes it give up, and the document is then decoded and placed by
//! its decoded metadata. The first `metadata` and its first field decide: kube-apiserver
//! never repeats a key (Go's encoders cannot), so for what a server sends the answer is the
//! one decoding would give; a document broken after the field is placed by it, and decoded
//! (its error reported) only if it is kept. A missing field, or missing `metadata`, counts as
//! the empty string, as kube-apiserver hashes it (a cluster-scoped object's namespace).

use informer_selectors::shard::{fnv1a_64, ShardField, ShardSelector};
use serde_json::Value;

use crate::json::string_end;
use crate::list_options::ShardFilter;

/// How deeply the values the scan skips may nest before it gives up (and the document is
/// decoded, whose parser has its own limit).
const MAX_SKIP_DEPTH: usize = 128;

/// The event types whose object a shard selector places; BOOKMARK and ERROR events always
/// pass.
const OBJECT_EVENTS: [&[u8]; 3] = [b"ADDED", b"MODIFIED", b"DELETED"];

/// What the scan found at a path of object keys.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Found<'a> {
    /// A string value without escapes: its bytes are its text.
    Str(&'a [u8]),
    /// The last object on the path has no such member.
    Absent,
    /// The scan cannot tell: decode instead.
    Unknown,
}

/// The string at `path` (object keys from the document's root) in the JSON document `doc`.
pub(crate) fn find_string<'a>(doc: &'a [u8], path: &[&str]) -> Found<'a> {
    let Some(mut at) = skip_ws(doc, 0) else {
        return Found::Unknown;
    };
    for (step, key) in path.iter().enumerate() {
        let Some(value) = member(doc, at, key.as_bytes()) else {
            return Found::Unknown;
        };
        let last = step + 1 == path.len();
        match value {
            None if last => return Found::Absent,
            None => return Found::Unknown,
            Some(v) if last => return string_at(doc, v),
            Some(v) => at = v,
        }
    }
    Found::Unknown
}

/// The text of the string value at `at`, when it has no escapes.
fn string_at(doc: &[u8], at: usize) -> Found<'_> {
    if doc.get(at) != Some(&b'"') {
        return Found::Unknown;
    }
    match string_end(doc, at + 1) {
        Some(end) if !doc[at + 1..end].contains(&b'\\') => Found::Str(&doc[at + 1..end]),
        _ => Found::Unknown,
    }
}

/// In the object that opens at `at`: the offset of the value of its first member `key`
/// (`None` when it has none). `None` when the object cannot be followed up to there: not an
/// object, broken, or a key with escapes before it.
fn member(doc: &[u8], at: usize, key: &[u8]) -> Option<Option<usize>> {
    if doc.get(at) != Some(&b'{') {
        return None;
    }
    let mut i = skip_ws(doc, at + 1)?;
    if doc[i] == b'}' {
        return Some(None);
    }
    loop {
        if doc[i] != b'"' {
            return None;
        }
        let end = string_end(doc, i + 1)?;
        let name = &doc[i + 1..end];
        if name.contains(&b'\\') {
            return None;
        }
        i = skip_ws(doc, end + 1)?;
        if doc[i] != b':' {
            return None;
        }
        i = skip_ws(doc, i + 1)?;
        if name == key {
            return Some(Some(i));
        }
        i = skip_ws(doc, skip_value(doc, i)?)?;
        match doc[i] {
            b',' => i = skip_ws(doc, i + 1)?,
            b'}' => return Some(None),
            _ => return None,
        }
    }
}

/// The offset of the first byte at or after `at` that is not JSON whitespace.
fn skip_ws(doc: &[u8], at: usize) -> Option<usize> {
    doc.get(at..)?
        .iter()
        .position(|b| !matches!(b, b' ' | b'\t' | b'\n' | b'\r'))
        .map(|off| at + off)
}

/// The offset just past the value that starts at `at`. Containers are followed by their
/// brackets (which must match) and strings; scalars must be a literal or number-shaped.
fn skip_value(doc: &[u8], at: usize) -> Option<usize> {
    match *doc.get(at)? {
        b'"' => string_end(doc, at + 1).map(|end| end + 1),
        b'{' | b'[' => skip_container(doc, at),
        _ => {
            let len = doc[at..]
                .iter()
                .position(|b| matches!(b, b',' | b'}' | b']' | b' ' | b'\t' | b'\n' | b'\r'))
                .unwrap_or(doc.len() - at);
            let token = &doc[at..at + len];
            let number = token
                .iter()
                .all(|b| b.is_ascii_digit() || matches!(b, b'-' | b'+' | b'.' | b'e' | b'E'));
            let literal = matches!(token, b"true" | b"false" | b"null");
            (len > 0 && (literal || number)).then_some(at + len)
        }
    }
}

/// The offset just past the container that opens at `at`.
fn skip_container(doc: &[u8], at: usize) -> Option<usize> {
    // Bit `d` is set while the container `d` levels inside the skipped one is an object.
    let mut objects = 0u128;
    let mut depth = 0usize;
    let mut i = at;
    while let Some(&b) = doc.get(i) {
        match b {
            b'"' => i = string_end(doc, i + 1)?,
            b'{' | b'[' => {
                if depth >= MAX_SKIP_DEPTH {
                    return None;
                }
                let bit = 1u128 << depth;
                objects = if b == b'{' {
                    objects | bit
                } else {
                    objects & !bit
                };
                depth += 1;
            }
            b'}' | b']' => {
                depth = depth.checked_sub(1)?;
                let object = objects & (1u128 << depth) != 0;
                if object != (b == b'}') {
                    return None;
                }
                if depth == 0 {
                    return Some(i + 1);
                }
            }
            _ => {}
        }
        i += 1;
    }
    None
}

/// A shard selector a request enforces on the client, and where it counts what it drops.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct ShardScan {
    selector: ShardSelector,
    filter: ShardFilter,
}

impl ShardScan {
    pub(crate) fn new(selector: ShardSelector, filter: ShardFilter) -> Self {
        Self { selector, filter }
    }

    /// The selector enforced.
    pub(crate) fn selector(&self) -> &ShardSelector {
        &self.selector
    }

    fn key(&self) -> &'static str {
        match self.selector.field() {
            ShardField::Uid => "uid",
            ShardField::Namespace => "namespace",
        }
    }

    /// True when the list item `doc` is in the shard (or cannot be placed: it is then
    /// decoded as without a filter); a dropped item is counted.
    pub(crate) fn keeps_item(&self, doc: &[u8]) -> bool {
        let keep = match find_string(doc, &["metadata", self.key()]) {
            Found::Str(value) => self.selector.contains_hash(fnv1a_64(value)),
            Found::Absent => self.selector.contains(""),
            Found::Unknown => self.decoded_keeps(doc, false),
        };
        self.counted(keep)
    }

    /// True when the watch line `line` is in the shard: an event other than ADDED,
    /// MODIFIED and DELETED, or one whose object is; a dropped event is counted.
    pub(crate) fn keeps_event(&self, line: &[u8]) -> bool {
        let keep = match find_string(line, &["type"]) {
            Found::Str(kind) if OBJECT_EVENTS.contains(&kind) => {
                match find_string(line, &["object", "metadata", self.key()]) {
                    Found::Str(value) => self.selector.contains_hash(fnv1a_64(value)),
                    Found::Absent => self.selector.contains(""),
                    Found::Unknown => self.decoded_keeps(line, true),
                }
            }
            Found::Str(_) | Found::Absent => true,
            Found::Unknown => self.decoded_keeps(line, true),
        };
        self.counted(keep)
    }

    fn counted(&self, keep: bool) -> bool {
        if !keep {
            self.filter.count_skipped();
        }
        keep
    }

    /// Places a document the scan could not by decoding it (as a tree, which takes the last
    /// of repeated keys, as the typed decoders do). A document that does not decode, or
    /// whose field is not a string, is kept: its own decode reports it.
    fn decoded_keeps(&self, doc: &[u8], event: bool) -> bool {
        let Ok(root) = crate::json::from_slice::<Value>(doc) else {
            return true;
        };
        let object = if event {
            let placed = root
                .get("type")
                .and_then(Value::as_str)
                .is_some_and(|t| OBJECT_EVENTS.contains(&t.as_bytes()));
            if !placed {
                return true;
            }
            match root.get("object") {
                Some(object) => object,
                None => return true,
            }
        } else {
            &root
        };
        let value = match object.get("metadata") {
            None | Some(Value::Null) => "",
            Some(Value::Object(meta)) => match meta.get(self.key()) {
                None | Some(Value::Null) => "",
                Some(Value::String(s)) => s,
                Some(_) => return true,
            },
            Some(_) => return true,
        };
        self.selector.contains(value)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use informer_selectors::shard::ShardRange;
    use proptest::prelude::*;

    fn uid_path() -> [&'static str; 2] {
        ["metadata", "uid"]
    }

    #[test]
    fn finds_the_field_past_lookalikes() {
        let cases: &[(&str, Found<'_>)] = &[
            (
                r#"{"metadata":{"name":"a","uid":"u-1"}}"#,
                Found::Str(b"u-1"),
            ),
            (
                " {\n \"kind\" : \"Pod\" ,\"metadata\" :\t{ \"uid\" : \"u-2\" } , \"spec\":{}}\n",
                Found::Str(b"u-2"),
            ),
            // The key inside a string value, and inside nested objects that are not the
            // item's metadata.
            (
                r#"{"spec":{"metadata":{"uid":"wrong"}},"note":"\"metadata\":{\"uid\":\"x\"}","metadata":{"uid":"right"}}"#,
                Found::Str(b"right"),
            ),
            (
                r#"{"metadata":{"annotations":{"metadata":"{\"uid\":\"no\"}","uid":"no"},"labels":{"uid":"no"},"uid":"yes"}}"#,
                Found::Str(b"yes"),
            ),
            (
                r#"{"metadata":{"ownerReferences":[{"uid":"owner"}],"uid":"self"}}"#,
                Found::Str(b"self"),
            ),
            (r#"{"metadata":{"name":"a"}}"#, Found::Absent),
            (r#"{"metadata":{}}"#, Found::Absent),
            // Escapes: the key may spell `uid`, the value's hash needs its text.
            (r#"{"metadata":{"\u0075id":"u"}}"#, Found::Unknown),
            (r#"{"metadata":{"uid":"a\"b"}}"#, Found::Unknown),
            (r#"{"meta\u0064ata":{"uid":"u"}}"#, Found::Unknown),
            // The first of repeated keys decides (a server never repeats one), and what
            // follows the field is not read.
            (r#"{"metadata":{"uid":"a","uid":"b"}}"#, Found::Str(b"a")),
            (
                r#"{"metadata":{"uid":"a"},"metadata":{"uid":"b"}}"#,
                Found::Str(b"a"),
            ),
            (r#"{"metadata":{"uid":"u"}"#, Found::Str(b"u")),
            (r#"{"metadata":{"uid":"u"}} x"#, Found::Str(b"u")),
            (r#"{"metadata":{"uid":"u",}}"#, Found::Str(b"u")),
            (r#"{"metadata":{"uid":"u"#, Found::Unknown),
            (r#"{"metadata":{"uid":"u"},"spec":[1}]}"#, Found::Str(b"u")),
            // Missing or odd metadata, broken structure before the field.
            (r#"{"kind":"Pod"}"#, Found::Unknown),
            (r#"{"metadata":null}"#, Found::Unknown),
            (r#"{"metadata":{"uid":null}}"#, Found::Unknown),
            (r#"{"metadata":{"uid":7}}"#, Found::Unknown),
            (r#"{"spec":[1}],"metadata":{"uid":"u"}}"#, Found::Unknown),
            (r#"{"spec":tru,"metadata":{"uid":"u"}}"#, Found::Unknown),
            (r#"{"metadata":{"uid" "u"}}"#, Found::Unknown),
            (r#"{"metadata":{"uid":"#, Found::Unknown),
            ("", Found::Unknown),
            ("[]", Found::Unknown),
        ];
        for (doc, want) in cases {
            assert_eq!(find_string(doc.as_bytes(), &uid_path()), *want, "{doc}");
        }
    }

    #[test]
    fn deep_nesting_is_given_up_not_overflowed() {
        let deep = format!(
            r#"{{"spec":{}{},"metadata":{{"uid":"u"}}}}"#,
            "[".repeat(100_000),
            "]".repeat(100_000)
        );
        assert_eq!(find_string(deep.as_bytes(), &uid_path()), Found::Unknown);
        let unclosed = "[".repeat(100_000);
        assert_eq!(
            find_string(unclosed.as_bytes(), &uid_path()),
            Found::Unknown
        );
    }

    fn lower_half() -> ShardScan {
        ShardScan::new(
            ShardSelector::uid_range(0, 1 << 63).unwrap(),
            ShardFilter::default(),
        )
    }

    #[test]
    fn events_other_than_object_events_always_pass() {
        let scan = lower_half();
        let out = (0..)
            .map(|i| format!("uid-{i}"))
            .find(|u| !scan.selector.contains(u))
            .unwrap();
        assert!(scan
            .keeps_event(br#"{"type":"BOOKMARK","object":{"metadata":{"resourceVersion":"9"}}}"#));
        assert!(scan.keeps_event(br#"{"type":"ERROR","object":{"code":410}}"#));
        for kind in ["ADDED", "MODIFIED", "DELETED"] {
            let line = format!(r#"{{"type":"{kind}","object":{{"metadata":{{"uid":"{out}"}}}}}}"#);
            assert!(!scan.keeps_event(line.as_bytes()), "{line}");
            // Written with escapes, the event is placed by decoding it, the same way.
            let escaped = line.replace("\"uid\"", "\"\\u0075id\"");
            assert!(!scan.keeps_event(escaped.as_bytes()), "{escaped}");
        }
        assert_eq!(scan.filter.skipped(), 6);
    }

    /// Decodes `doc` and places it as the informer would place a decoded object: `None`
    /// when the item does not decode as an object with string metadata.
    fn decode_then_filter(doc: &[u8], selector: &ShardSelector) -> Option<bool> {
        let v: Value = serde_json::from_slice(doc).ok()?;
        let meta = match v.get("metadata") {
            None | Some(Value::Null) => return Some(selector.contains("")),
            Some(m) => m.as_object()?,
        };
        let field = match selector.field() {
            ShardField::Uid => "uid",
            ShardField::Namespace => "namespace",
        };
        Some(match meta.get(field) {
            None | Some(Value::Null) => selector.contains(""),
            Some(s) => selector.contains(s.as_str()?),
        })
    }

    /// JSON text for `s`, with some characters written as escapes.
    fn quoted(s: &str, escape: bool) -> String {
        if !escape {
            return serde_json::to_string(s).unwrap();
        }
        let inner: String = s
            .chars()
            .map(|c| format!("\\u{:04x}", u32::from(c)))
            .collect();
        format!("\"{inner}\"")
    }

    fn item() -> impl Strategy<Value = String> {
        let text = "[a-z0-9\"\\\\{}:, -]{0,12}";
        (
            proptest::option::of(text),
            proptest::option::of(text),
            text,
            proptest::collection::vec(0u8..7, 0..6),
            any::<bool>(),
            any::<bool>(),
        )
            .prop_map(|(uid, ns, noise, order, esc_key, esc_value)| {
                let mut meta = vec![format!(r#""name":{}"#, quoted(&noise, false))];
                if let Some(uid) = &uid {
                    let key = if esc_key { "\"\\u0075id\"" } else { "\"uid\"" };
                    meta.push(format!("{key}:{}", quoted(uid, esc_value)));
                }
                if let Some(ns) = &ns {
                    meta.push(format!(r#""namespace":{}"#, quoted(ns, false)));
                }
                meta.push(format!(
                    r#""annotations":{{"metadata":{},"uid":{}}}"#,
                    quoted(&format!(r#"{{"uid":"{noise}"}}"#), false),
                    quoted(&noise, false)
                ));
                let mut members = [
                    format!(r#""metadata" : {{ {} }}"#, meta.join(" , ")),
                    format!(
                        r#""spec":{{"metadata":{{"uid":{}}},"list":[1,-2.5e3,true,null,{{}}]}}"#,
                        quoted(&noise, false)
                    ),
                    format!(r#""kind":{}"#, quoted(&noise, false)),
                ];
                for o in order {
                    let n = members.len();
                    members.swap(usize::from(o) % n, 0);
                }
                format!("{{{}}}", members.join(","))
            })
    }

    proptest! {
        #[test]
        fn scan_then_filter_agrees_with_decode_then_filter(
            doc in item(),
            start in any::<u64>(),
            namespace in any::<bool>(),
        ) {
            let start = u128::from(start);
            let range = if namespace {
                ShardSelector::namespace_range(start, ShardRange::END)
            } else {
                ShardSelector::uid_range(start, ShardRange::END)
            };
            let selector = range.unwrap();
            let scan = ShardScan::new(selector.clone(), ShardFilter::default());
            let want = decode_then_filter(doc.as_bytes(), &selector);
            let got = scan.keeps_item(doc.as_bytes());
            prop_assert_eq!(Some(got), want, "{}", doc);
            prop_assert_eq!(scan.filter.skipped(), u64::from(!got));
        }

        #[test]
        fn arbitrary_bytes_never_panic(doc in proptest::collection::vec(any::<u8>(), 0..64)) {
            let scan = lower_half();
            let _ = scan.keeps_item(&doc);
            let _ = scan.keeps_event(&doc);
        }

        #[test]
        fn json_shaped_text_never_panics(
            parts in proptest::collection::vec(
                proptest::sample::select(vec![
                    "{", "}", "[", "]", ",", ":", "\"", "\\", "\"metadata\"", "\"uid\"",
                    "\"type\"", "\"ADDED\"", "\"object\"", "null", "1", " ", "\"u\"",
                ]),
                0..40,
            )
        ) {
            let text: String = parts.concat();
            let scan = lower_half();
            let _ = scan.keeps_item(text.as_bytes());
            let _ = scan.keeps_event(text.as_bytes());
        }
    }
}
