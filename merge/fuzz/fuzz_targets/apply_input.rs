//! One input through the server-side apply engine; shared by the fuzz target and the
//! stable test `tests/fuzz_replay.rs`, so that both make exactly the same calls.
//!
//! The first byte picks what the rest (JSON) is read as: a `fieldsV1` value, a
//! `managedFields` list, or a live object and an applied configuration separated by a NUL
//! byte, applied to a Deployment, a custom resource (its schema the first document's
//! `schema`, when it has one) and an untyped object, and what each manager owns extracted
//! back. Errors are fine; panics are bugs, and so is a `fieldsV1` or `managedFields` value
//! that does not survive a round trip.

use informer_merge::apply::{compare, field_set, merge};
use informer_merge::extract::extract_items;
use informer_merge::fieldpath::Set;
use informer_merge::managed::{ManagedFields, Manager};
use informer_merge::schema::builtin;
use informer_merge::typed::TypeRef;
use serde_json::{json, Value};

/// Runs one input.
pub fn run(data: &[u8]) {
    let Some((&mode, rest)) = data.split_first() else {
        return;
    };
    match mode % 3 {
        0 => fields_v1(rest),
        1 => managed_fields(rest),
        _ => apply(rest),
    }
}

fn fields_v1(text: &[u8]) {
    let Ok(value) = serde_json::from_slice::<Value>(text) else {
        return;
    };
    if let Ok(set) = Set::from_fields_v1(&value) {
        let produced = set.to_fields_v1();
        let parsed = Set::from_fields_v1(&produced).expect("a produced fieldsV1 parses");
        assert_eq!(parsed, set, "fieldsV1 round trip");
        for path in set.paths() {
            let _ = path.to_string();
        }
    }
}

fn managed_fields(text: &[u8]) {
    let Ok(value) = serde_json::from_slice::<Value>(text) else {
        return;
    };
    if let Ok(managed) = ManagedFields::decode(&value) {
        let encoded = managed.to_value();
        let decoded = ManagedFields::decode(&encoded).expect("encoded managedFields decode");
        assert_eq!(decoded, managed, "managedFields round trip");
    }
}

fn apply(text: &[u8]) {
    let mut parts = text.splitn(2, |b| *b == 0);
    let (Some(live), Some(config)) = (parts.next(), parts.next()) else {
        return;
    };
    let (Ok(live), Ok(config)) = (
        serde_json::from_slice::<Value>(live),
        serde_json::from_slice::<Value>(config),
    ) else {
        return;
    };
    let table = builtin();
    let schema = live
        .get("schema")
        .cloned()
        .unwrap_or_else(|| json!({"type": "object"}));
    let types = [
        TypeRef::builtin(table, "apps/v1", "Deployment"),
        Some(TypeRef::custom_resource(table, &schema)),
        Some(TypeRef::deduced()),
    ];
    for ty in types.into_iter().flatten() {
        let _ = field_set(&config, ty, true);
        let _ = compare(&live, &config, ty);
        let _ = merge(&live, &config, ty);
        let mut managed = ManagedFields::default();
        let first = Manager::apply("first", "");
        let second = Manager::apply("second", "");
        let now = "2026-01-01T00:00:00Z";
        let Ok(merged) = managed.apply(&live, &live, ty, &first, false, None, now) else {
            continue;
        };
        let merged = merged.unwrap_or_else(|| live.clone());
        let _ = managed.apply(&merged, &config, ty, &second, false, None, now);
        if let Ok(Some(applied)) = managed.apply(&merged, &config, ty, &second, true, None, now) {
            for entry in managed.entries().values() {
                let _ = extract_items(&applied, &entry.fields);
            }
        }
        let updater = Manager::update("updater", "apps/v1", "");
        let _ = managed.update(&merged, &config, ty, &updater, None, now);
        let _ = ManagedFields::decode(&managed.to_value());
    }
}
