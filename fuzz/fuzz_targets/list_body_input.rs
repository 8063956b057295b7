//! One input through the list-body decoder and the decode pool; shared by the fuzz target and
//! the stable test `tests/fuzz_replay.rs`, so that both make exactly the same calls.
//!
//! Errors are fine; panics are bugs, and so are: a result that depends on where the body was
//! cut, and a UTF-8 body serde_json reads as a list that the decoder refuses or reads otherwise,
//! with `metadata.managedFields` kept or cut out before parsing (then every other byte must
//! decode as serde_json reads it), and a projection's `ViewMeta` that reads otherwise than the
//! `ObjectMeta` of the same items. Within size limits the input draws from its hash (an item
//! limit up to its length, a body limit of its length or one byte less), a body decodes as
//! without them or fails for being too large, whatever the cuts, and only a body over its
//! limit fails for that.

use informer_client::fuzz::{list_body, Limits};
use informer_runtime::error::ErrorKind;
use informer_runtime::labels::CompactLabels;
use informer_runtime::metadata::{PartialObjectMeta, Untyped};
use informer_runtime::projection::ViewMeta;
use informer_runtime::{DynamicObject, Error, ObjectList};
use k8s_openapi::api::core::v1::Pod;
use k8s_openapi::apimachinery::pkg::apis::meta::v1::ListMeta;
use serde_json::{Map, Value};

use crate::{runtime, split};

/// A list body as serde_json reads it: the reference the decoder is checked against.
#[derive(serde::Deserialize)]
struct Reference {
    #[serde(default)]
    metadata: Option<ListMeta>,
    #[serde(default)]
    items: Option<Vec<Map<String, Value>>>,
}

/// A projection of Pods keeping only the metadata the runtime reads.
#[derive(Clone, serde::Deserialize, serde::Serialize)]
struct LeanPod {
    #[serde(default)]
    metadata: ViewMeta,
}

informer_runtime::projection!(LeanPod => Pod, metadata: ViewMeta);

/// Runs `data` as a list body through the decoder, fed whole, byte by byte and in hashed
/// chunks, into JSON values and into typed objects, with managedFields kept and omitted.
pub fn run(data: &[u8]) {
    for omit in [false, true] {
        run_as(data, omit);
    }
}

fn run_as(data: &[u8], omit: bool) {
    runtime::block_on(async {
        let mut first: Option<(&str, Result<ObjectList<Value>, Error>)> = None;
        for feed in split::feeds(data) {
            let got = comparable_list(
                list_body::<Value>(feed.chunks.iter().copied(), feed.batch, omit, Limits::NONE)
                    .await,
                omit,
            );
            assert_no_task_failure(&got);
            match &first {
                None => first = Some((feed.name, got)),
                Some((name, want)) => same_result(name, want, feed.name, &got),
            }
        }
        // serde_json skips the fields it ignores without checking their UTF-8; JSON text must
        // be UTF-8 throughout, so only valid UTF-8 is compared. And serde_json reads a struct
        // from an array too (`[]`); a list body is an object.
        let reference = std::str::from_utf8(data)
            .ok()
            .filter(|text| text.trim_start().starts_with('{') && !has_huge_integer(text))
            .and_then(|text| serde_json::from_str::<Reference>(text).ok());
        if let (Some(reference), Some((_, got))) = (reference, &first) {
            let list = match got {
                Ok(list) => list,
                Err(e) => panic!("serde_json reads the body as a list, the decoder fails: {e}"),
            };
            let want: Vec<Value> = reference
                .items
                .unwrap_or_default()
                .into_iter()
                .map(|item| {
                    let mut item = Value::Object(item);
                    comparable(&mut item, omit);
                    item
                })
                .collect();
            assert_eq!(list.items, want, "items differ from serde_json's");
            assert_eq!(
                list.metadata,
                reference.metadata.unwrap_or_default(),
                "metadata differs from serde_json's"
            );
        }
        if let Some((_, unlimited)) = &first {
            within_limits(data, omit, unlimited).await;
        }
        let pods = list_body::<Pod>([data], 4096, omit, Limits::NONE).await;
        assert_no_task_failure(&pods);
        let lean = list_body::<LeanPod>([data], 4096, omit, Limits::NONE).await;
        assert_no_task_failure(&lean);
        // Either may refuse a body the other reads (k8s-openapi checks apiVersion and kind,
        // serde's derive refuses a repeated field); what both read must agree.
        if let (Ok(pods), Ok(lean)) = (&pods, &lean) {
            assert_eq!(
                pods.items.len(),
                lean.items.len(),
                "items of Pods and ViewMetas"
            );
            for (pod, view) in pods.items.iter().zip(&lean.items) {
                let m = &pod.metadata;
                let want = ViewMeta {
                    name: m.name.clone(),
                    namespace: m.namespace.clone(),
                    resource_version: m.resource_version.clone(),
                    generation: m.generation,
                    labels: m
                        .labels
                        .clone()
                        .map(CompactLabels::from)
                        .unwrap_or_default(),
                    owner_references: m.owner_references.clone(),
                };
                assert_eq!(view.metadata, want, "ViewMeta against the Pod's ObjectMeta");
            }
        }
        assert_no_task_failure(&list_body::<DynamicObject>([data], 4096, omit, Limits::NONE).await);
        assert_no_task_failure(
            &list_body::<PartialObjectMeta<Untyped>>([data], 4096, omit, Limits::NONE).await,
        );
    });
}

/// `list` with every item as compared when `omit`.
fn comparable_list(
    list: Result<ObjectList<Value>, Error>,
    omit: bool,
) -> Result<ObjectList<Value>, Error> {
    list.map(|mut list| {
        list.items
            .iter_mut()
            .for_each(|item| comparable(item, omit));
        list
    })
}

/// The body under the limits its hash draws, against `unlimited`, what it decodes to without.
async fn within_limits(data: &[u8], omit: bool, unlimited: &Result<ObjectList<Value>, Error>) {
    let hash = split::fnv1a(data);
    let len = data.len() as u64;
    let object = Limits {
        object: (hash % (len + 1)) as usize,
        body: u64::MAX,
    };
    let mut first: Option<(&str, Result<ObjectList<Value>, Error>)> = None;
    for feed in split::feeds(data) {
        let got = comparable_list(
            list_body::<Value>(feed.chunks.iter().copied(), feed.batch, omit, object).await,
            omit,
        );
        assert_no_task_failure(&got);
        match (unlimited, &got) {
            (Ok(want), Ok(got)) => {
                assert_eq!(want, got, "fed {}, a limit changed the list", feed.name)
            }
            (Err(_), Err(_)) => {}
            (Err(e), Ok(_)) => panic!(
                "fed {}, the body fails without limits ({e}), decodes within {object:?}",
                feed.name
            ),
            (Ok(_), Err(e)) => assert_eq!(
                e.kind(),
                Some(ErrorKind::TooLarge),
                "fed {}, the body decodes without limits and fails within {object:?}: {e}",
                feed.name
            ),
        }
        match &first {
            None => first = Some((feed.name, got)),
            Some((name, want)) => same_result(name, want, feed.name, &got),
        }
    }
    let body = len.saturating_sub(hash >> 63);
    let limits = Limits {
        object: usize::MAX,
        body,
    };
    let got = comparable_list(list_body::<Value>([data], 4096, omit, limits).await, omit);
    assert_no_task_failure(&got);
    if len > body {
        assert!(got.is_err(), "a body of {len} bytes decodes within {body}");
    } else {
        same_result("without limits", unlimited, "within a body limit", &got);
    }
}

/// `item` as compared when `omit`: without `metadata.managedFields` on either side, since the
/// decoder leaves in one whose key is written with escapes and serde_json reads it unescaped.
fn comparable(item: &mut Value, omit: bool) {
    if let Some(meta) = item.get_mut("metadata").and_then(Value::as_object_mut) {
        if omit {
            meta.remove("managedFields");
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

/// A decoding task that failed panicked: a bug, not a verdict on the body.
fn assert_no_task_failure<T>(result: &Result<ObjectList<T>, Error>) {
    if let Err(e) = result {
        assert_ne!(e.kind(), Some(ErrorKind::Task), "{e}");
    }
}

/// Two feeds of one body succeed or fail together, and succeed with the same list. (Which
/// error a broken body gives first may depend on the batches: items are decoded apart from
/// the scan.)
fn same_result(
    a: &str,
    want: &Result<ObjectList<Value>, Error>,
    b: &str,
    got: &Result<ObjectList<Value>, Error>,
) {
    match (want, got) {
        (Ok(want), Ok(got)) => assert_eq!(want, got, "fed {a} and {b}, the lists differ"),
        (Err(_), Err(_)) => {}
        (Ok(_), Err(e)) => panic!("fed {a} the body decodes; fed {b} it fails: {e}"),
        (Err(e), Ok(_)) => panic!("fed {a} the body fails: {e}; fed {b} it decodes"),
    }
}
