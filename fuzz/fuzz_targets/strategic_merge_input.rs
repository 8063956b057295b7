//! One input through the merge rules of `informer-merge`: strategic merge patch and the
//! `fieldsV1` parser; shared by the fuzz target and the stable test `tests/fuzz_replay.rs`,
//! so that both make exactly the same calls.
//!
//! The first byte picks a built-in kind, the rest is the original object and the patch
//! separated by a NUL byte. Errors are fine, and must say something; panics are bugs, and so
//! are an empty patch that changes what a patch produced, and a field set whose `fieldsV1`
//! does not parse back to the same set.

use informer_merge::fieldpath::Set;
use informer_merge::schema::{self, SchemaRef};
use informer_merge::strategic;
use serde_json::{Map, Value};

/// The kinds patched: lists merged by key (containers, ports, volumes, env), sets of
/// primitives (finalizers), atomic lists and maps of strings.
const KINDS: [(&str, &str); 6] = [
    ("apps/v1", "Deployment"),
    ("v1", "Pod"),
    ("v1", "Service"),
    ("v1", "ConfigMap"),
    ("apps/v1", "StatefulSet"),
    ("batch/v1", "Job"),
];

/// Patches the original in `data` with its patch, then reads both parts as `fieldsV1`.
pub fn run(data: &[u8]) {
    let Some((&pick, rest)) = data.split_first() else {
        return;
    };
    let (api_version, kind) = KINDS[usize::from(pick) % KINDS.len()];
    let Some(root) = SchemaRef::root(schema::builtin(), api_version, kind) else {
        panic!("{api_version} {kind} is in the built-in schema");
    };
    let (original, patch) = match rest.iter().position(|b| *b == 0) {
        Some(at) => (&rest[..at], &rest[at + 1..]),
        None => (rest, &b"{}"[..]),
    };
    let parsed = (
        serde_json::from_slice::<Value>(original),
        serde_json::from_slice::<Value>(patch),
    );
    if let (Ok(original), Ok(patch)) = &parsed {
        match strategic::apply(original, patch, root) {
            Ok(patched) => {
                if patched.is_object() {
                    let empty = Value::Object(Map::new());
                    match strategic::apply(&patched, &empty, root) {
                        Ok(again) => assert_eq!(
                            again, patched,
                            "an empty patch changed what {patch} made of {original}"
                        ),
                        Err(e) => panic!("an empty patch failed on {patched}: {e}"),
                    }
                }
            }
            Err(e) => assert!(!e.to_string().is_empty(), "an error without a message"),
        }
    }
    for part in [parsed.0.ok(), parsed.1.ok()].into_iter().flatten() {
        let Ok(set) = Set::from_fields_v1(&part) else {
            continue;
        };
        let printed = set.to_fields_v1();
        match Set::from_fields_v1(&printed) {
            // A float in a list-map key is read to the nearest f64 or a neighbour by
            // serde_json's default float parsing, so it may not come back bit for bit; no
            // Kubernetes type keys a list by a float.
            Ok(_) if float_key(&printed) => {}
            Ok(again) => assert_eq!(again, set, "{part} printed as {printed}"),
            Err(e) => panic!("{part} parses, its fieldsV1 {printed} does not: {e}"),
        }
    }
}

/// True when a `k:` key anywhere in `fields` holds a number that is not an integer.
fn float_key(fields: &Value) -> bool {
    fn float(v: &Value) -> bool {
        match v {
            Value::Number(n) => n.is_f64(),
            Value::Array(a) => a.iter().any(float),
            Value::Object(o) => o.values().any(float),
            _ => false,
        }
    }
    fields.as_object().is_some_and(|o| {
        o.iter().any(|(k, v)| {
            k.strip_prefix("k:")
                .and_then(|key| serde_json::from_str::<Value>(key).ok())
                .is_some_and(|key| float(&key))
                || float_key(v)
        })
    })
}
