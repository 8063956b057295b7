//! Properties of the server-side apply engine over random Deployments (map lists of
//! containers and env vars, atomic lists, granular and atomic maps, sets): merging a
//! configuration twice is merging it once; applying the same configuration again changes
//! neither the object nor its managed fields; `fieldsV1` produced from a set parses back
//! to it, and a produced value is what parsing it and producing again gives.

use informer_merge::apply::{field_set, merge};
use informer_merge::fieldpath::Set;
use informer_merge::managed::{ManagedFields, Manager};
use informer_merge::schema::builtin;
use informer_merge::typed::TypeRef;
use proptest::prelude::*;
use serde_json::{json, Map, Value};

fn ty() -> TypeRef<'static> {
    TypeRef::builtin(builtin(), "apps/v1", "Deployment").unwrap()
}

fn name() -> impl Strategy<Value = String> {
    prop::sample::select(vec!["a", "b", "c", "d"]).prop_map(str::to_owned)
}

fn small_map() -> impl Strategy<Value = Map<String, Value>> {
    prop::collection::btree_map(name(), name(), 0..3)
        .prop_map(|m| m.into_iter().map(|(k, v)| (k, json!(v))).collect())
}

fn container() -> impl Strategy<Value = Value> {
    (
        name(),
        prop::option::of(name()),
        prop::option::of(prop::collection::vec(name(), 0..3)),
        prop::option::of(prop::collection::btree_map(name(), name(), 0..3)),
    )
        .prop_map(|(n, image, args, env)| {
            let mut c = json!({"name": n});
            if let Some(image) = image {
                c["image"] = json!(image);
            }
            if let Some(args) = args {
                c["args"] = json!(args);
            }
            if let Some(env) = env {
                let vars: Vec<Value> = env
                    .into_iter()
                    .map(|(k, v)| json!({"name": k, "value": v}))
                    .collect();
                c["env"] = json!(vars);
            }
            c
        })
}

/// A Deployment configuration; map-list items are unique by key, as apply requires.
fn deployment() -> impl Strategy<Value = Value> {
    (
        prop::option::of(small_map()),
        prop::option::of(prop::collection::btree_set(name(), 0..3)),
        prop::option::of(0..5i64),
        prop::option::of(small_map()),
        prop::collection::btree_map(name(), container(), 0..3),
    )
        .prop_map(|(labels, finalizers, replicas, node_selector, containers)| {
            let mut d = json!({"apiVersion": "apps/v1", "kind": "Deployment", "metadata": {"name": "web"}});
            if let Some(labels) = labels {
                d["metadata"]["labels"] = Value::Object(labels);
            }
            if let Some(f) = finalizers {
                d["metadata"]["finalizers"] = json!(f);
            }
            if let Some(r) = replicas {
                d["spec"]["replicas"] = json!(r);
            }
            if let Some(ns) = node_selector {
                d["spec"]["template"]["spec"]["nodeSelector"] = Value::Object(ns);
            }
            if !containers.is_empty() {
                let list: Vec<Value> = containers
                    .into_iter()
                    .map(|(n, mut c)| {
                        c["name"] = json!(n);
                        c
                    })
                    .collect();
                d["spec"]["template"]["spec"]["containers"] = json!(list);
            }
            d
        })
}

const NOW: &str = "2026-01-01T00:00:00Z";
const LATER: &str = "2026-01-01T00:00:09Z";

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn merging_a_configuration_twice_is_merging_it_once(live in deployment(), config in deployment()) {
        let once = merge(&live, &config, ty()).unwrap();
        let twice = merge(&once, &config, ty()).unwrap();
        prop_assert_eq!(once, twice);
    }

    #[test]
    fn reapplying_the_same_configuration_changes_nothing(
        first in deployment(),
        other in deployment(),
        config in deployment(),
    ) {
        let mut managed = ManagedFields::default();
        let owner = Manager::apply("other", "");
        let me = Manager::apply("me", "");
        let live = managed
            .apply(&json!({}), &first, ty(), &owner, true, None, NOW)
            .unwrap()
            .unwrap_or_else(|| json!({}));
        let live = managed
            .apply(&live, &other, ty(), &owner, true, None, NOW)
            .unwrap()
            .unwrap_or(live);
        let applied = managed
            .apply(&live, &config, ty(), &me, true, None, NOW)
            .unwrap()
            .unwrap_or(live);
        let before = managed.clone();
        let again = managed.apply(&applied, &config, ty(), &me, false, None, LATER).unwrap();
        prop_assert!(again.is_none(), "the object changed: {:?}", again);
        prop_assert_eq!(before, managed);
    }

    #[test]
    fn fields_v1_round_trips(config in deployment()) {
        let set = field_set(&config, ty(), true).unwrap();
        let produced = set.to_fields_v1();
        let parsed = Set::from_fields_v1(&produced).unwrap();
        prop_assert_eq!(&parsed, &set);
        prop_assert_eq!(parsed.to_fields_v1(), produced);
    }
}
