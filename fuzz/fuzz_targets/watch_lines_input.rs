//! One input through the watch-line decoder and the decode pool; shared by the fuzz target and
//! the stable test `tests/fuzz_replay.rs`, so that both make exactly the same calls.
//!
//! Errors are fine; panics are bugs, and so are: events that depend on where the stream was
//! cut, and an ADDED, MODIFIED or DELETED line in UTF-8 that serde_json reads and the decoder
//! refuses or reads otherwise, with the object's `metadata.managedFields` kept or cut out
//! before parsing. Within a line limit the input draws from its hash (up to its length), the
//! events are those before the first line over it, then an error for that line, whatever the
//! cuts (unless an earlier line fails to decode).

use informer_client::fuzz::watch_body;
use informer_runtime::error::ErrorKind;
use informer_runtime::{DynamicObject, Error, WatchEvent};
use k8s_openapi::api::core::v1::Pod;
use serde_json::Value;

use crate::{runtime, split};

/// A watch line as serde_json reads it: the reference the decoder is checked against.
#[derive(serde::Deserialize)]
struct Reference {
    #[serde(rename = "type")]
    kind: String,
    object: Value,
}

type Event = Result<WatchEvent<Value>, Error>;
type Events = Vec<Event>;

/// Runs `data` as a watch body through the decoder, fed whole, byte by byte and in hashed
/// chunks, into JSON values and into typed objects.
pub fn run(data: &[u8]) {
    for omit in [false, true] {
        run_as(data, omit);
    }
}

fn run_as(data: &[u8], omit: bool) {
    runtime::block_on(async {
        let mut first: Option<(&str, Events)> = None;
        for feed in split::feeds(data) {
            let max_line = usize::MAX;
            let got = comparable_events(
                watch_body::<Value>(feed.chunks.iter().copied(), feed.batch, omit, max_line).await,
                omit,
            );
            check_events(&got);
            match &first {
                None => first = Some((feed.name, got)),
                Some((name, want)) => same_events(name, want, feed.name, &got),
            }
        }
        if let Some((_, events)) = &first {
            against_serde_json(data, events, omit);
            within_line_limit(data, omit, events).await;
        }
        check_events(&watch_body::<Pod>([data], 2, omit, usize::MAX).await);
        check_events(&watch_body::<DynamicObject>([data], 2, omit, usize::MAX).await);
    });
}

/// `events` with every object as compared when `omit`.
fn comparable_events(mut events: Events, omit: bool) -> Events {
    for event in events.iter_mut().flatten() {
        if let WatchEvent::Added(o) | WatchEvent::Modified(o) | WatchEvent::Deleted(o) = event {
            comparable(o, omit);
        }
    }
    events
}

/// The stream under the line limit its hash draws, against `unlimited`, its events without.
async fn within_line_limit(data: &[u8], omit: bool, unlimited: &Events) {
    let max_line = (split::fnv1a(data) % (data.len() as u64 + 1)) as usize;
    let before_long = data
        .split(|&b| b == b'\n')
        .take_while(|line| line.len() <= max_line)
        .filter(|line| !line.iter().all(u8::is_ascii_whitespace))
        .count();
    let long = data
        .split(|&b| b == b'\n')
        .any(|line| line.len() > max_line);
    let earlier_failure = unlimited.iter().take(before_long).any(Result::is_err);
    for feed in split::feeds(data) {
        let got = comparable_events(
            watch_body::<Value>(feed.chunks.iter().copied(), feed.batch, omit, max_line).await,
            omit,
        );
        check_events(&got);
        if !long || earlier_failure {
            same_events("without a limit", unlimited, feed.name, &got);
            continue;
        }
        let (events, last) = got.split_at(got.len().saturating_sub(1));
        same_events(
            "without a limit",
            &unlimited[..before_long],
            feed.name,
            events,
        );
        match last {
            [Err(e)] => assert_eq!(
                e.kind(),
                Some(ErrorKind::TooLarge),
                "fed {}: {e}",
                feed.name
            ),
            other => panic!(
                "fed {}, a line over {max_line} bytes gave {other:?}",
                feed.name
            ),
        }
    }
}

/// `object` as compared when `omit`: without `metadata.managedFields` on either side, since
/// the decoder leaves in one whose key is written with escapes and serde_json reads it
/// unescaped.
fn comparable(object: &mut Value, omit: bool) {
    if let Some(meta) = object.get_mut("metadata").and_then(Value::as_object_mut) {
        if omit {
            meta.remove("managedFields");
        }
    }
}

/// No decoding task failed (it would have panicked), and only the last event is an error.
fn check_events<T>(events: &[Result<WatchEvent<T>, Error>]) {
    for (i, event) in events.iter().enumerate() {
        if let Err(e) = event {
            assert_ne!(e.kind(), Some(ErrorKind::Task), "{e}");
            assert_eq!(i + 1, events.len(), "events go on after an error: {e}");
        }
    }
}

/// Two feeds of one stream give the same events and the same error.
fn same_events(a: &str, want: &[Event], b: &str, got: &[Event]) {
    let text = |events: &[Event]| -> Vec<Result<WatchEvent<Value>, String>> {
        events
            .iter()
            .map(|e| e.as_ref().cloned().map_err(ToString::to_string))
            .collect()
    };
    assert_eq!(text(want), text(got), "fed {a} and {b}, the events differ");
}

/// Every non-blank line serde_json reads as an ADDED, MODIFIED or DELETED event, before the
/// first error, is that event.
fn against_serde_json(data: &[u8], events: &Events, omit: bool) {
    let lines = data
        .split(|&b| b == b'\n')
        .filter(|line| !line.iter().all(u8::is_ascii_whitespace));
    for (line, event) in lines.zip(events) {
        // serde_json skips the fields it ignores without checking their UTF-8; JSON text must
        // be UTF-8 throughout, so only valid UTF-8 is compared.
        let want = std::str::from_utf8(line)
            .ok()
            .filter(|text| !has_huge_integer(text))
            .and_then(|text| serde_json::from_str::<Reference>(text).ok())
            .map(|mut reference| {
                comparable(&mut reference.object, omit);
                reference
            })
            .and_then(|reference| match reference.kind.as_str() {
                "ADDED" => Some(WatchEvent::Added(reference.object)),
                "MODIFIED" => Some(WatchEvent::Modified(reference.object)),
                "DELETED" => Some(WatchEvent::Deleted(reference.object)),
                _ => None,
            });
        let quoted = String::from_utf8_lossy(line);
        match (event, want) {
            (Ok(event), Some(want)) => assert_eq!(event, &want, "the line {quoted:?}"),
            (Err(e), Some(_)) => {
                panic!("serde_json reads the line {quoted:?}, the decoder fails: {e}")
            }
            (Err(_), None) => return,
            (Ok(_), None) => {}
        }
    }
}

/// True when `text` holds an integer of more than 20 digits: serde_json reads it as a float,
/// simd-json refuses it, and kube-apiserver never writes one (Go prints such numbers as floats
/// with an exponent), so the two parsers are not compared on it.
fn has_huge_integer(text: &str) -> bool {
    text.as_bytes()
        .split(|b| !b.is_ascii_digit())
        .any(|digits| digits.len() > 20)
}
