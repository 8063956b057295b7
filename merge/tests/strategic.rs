//! Strategic merge patch cases, most re-expressed from k8s.io/apimachinery's
//! `strategicpatch` tests (their `MergeItem` test type is the schema here), with the
//! results and messages kube-apiserver gives.

use informer_merge::schema::{self, Schema, SchemaRef};
use informer_merge::strategic::{apply, Error, ErrorKind};
use informer_merge::GoPanic;
use proptest::prelude::*;
use serde_json::{json, Value};

/// Go's `MergeItem` and `RetainKeysMergeItem` test types.
fn test_schema() -> Schema {
    let merge_item = json!({"fields": {
        "mergingList": {"type": {"list": {"ref": "mergeItem"}}, "patchStrategy": "merge", "patchMergeKey": "name"},
        "nonMergingList": {"type": {"list": {"ref": "mergeItem"}}},
        "mergingIntList": {"type": {"list": "scalar"}, "patchStrategy": "merge"},
        "nonMergingIntList": {"type": {"list": "scalar"}},
        "simpleMap": {"type": {"map": "scalar"}},
        "replacingItem": {"type": {"ref": "rawExtension"}, "patchStrategy": "replace"},
        "retainKeysMap": {"type": {"ref": "retainKeysMergeItem"}, "patchStrategy": "retainKeys"},
        "retainKeysMergingList": {"type": {"list": {"ref": "mergeItem"}}, "patchStrategy": "merge,retainKeys", "patchMergeKey": "name"},
    }});
    let retain = json!({"fields": {
        "simpleMap": {"type": {"map": "scalar"}},
        "mergingIntList": {"type": {"list": "scalar"}, "patchStrategy": "merge"},
        "mergingList": {"type": {"list": {"ref": "mergeItem"}}, "patchStrategy": "merge", "patchMergeKey": "name"},
        "nonMergingList": {"type": {"list": {"ref": "mergeItem"}}},
    }});
    serde_json::from_value(json!({
        "roots": {"v1/MergeItem": "mergeItem"},
        "definitions": {"mergeItem": merge_item, "retainKeysMergeItem": retain, "rawExtension": {}},
    }))
    .unwrap()
}

fn patch(original: Value, p: Value) -> Result<Value, Error> {
    let schema = test_schema();
    apply(&original, &p, SchemaRef::definition(&schema, "mergeItem"))
}

fn ok(original: Value, p: Value) -> Value {
    patch(original, p).unwrap()
}

#[test]
fn maps_merge_and_null_deletes() {
    assert_eq!(
        ok(
            json!({"name": "a", "value": "1", "simpleMap": {"k": "v", "x": "y"}}),
            json!({"value": null, "other": "o", "simpleMap": {"x": null, "n": "m"}, "gone": null})
        ),
        json!({"name": "a", "other": "o", "simpleMap": {"k": "v", "n": "m"}})
    );
    // A new key's nested nulls are dropped; its directives removed.
    assert_eq!(
        ok(
            json!({}),
            json!({"simpleMap": {"a": null, "b": "c"}, "mergingList": [{"name": 1, "$patch": "delete"}, {"name": 2}]})
        ),
        json!({"simpleMap": {"b": "c"}, "mergingList": [{"name": 2}]})
    );
    assert_eq!(ok(json!({"a": 1}), Value::Null), json!({"a": 1}));
}

#[test]
fn merging_lists_merge_by_key_and_added_items_go_first() {
    // "preserve the order from the patch in a merging list 2"
    assert_eq!(
        ok(
            json!({"mergingList": [{"name": 1}, {"name": 2, "value": "b"}, {"name": 3}]}),
            json!({"mergingList": [{"name": 3, "value": "c"}, {"name": 1, "value": "a"}]})
        ),
        json!({"mergingList": [{"name": 2, "value": "b"}, {"name": 3, "value": "c"}, {"name": 1, "value": "a"}]})
    );
    // An item the list did not have is not ordered against the others: it comes first.
    assert_eq!(
        ok(
            json!({"mergingList": [{"name": 1}, {"name": 2}]}),
            json!({"mergingList": [{"name": 3, "value": "c"}]})
        ),
        json!({"mergingList": [{"name": 3, "value": "c"}, {"name": 1}, {"name": 2}]})
    );
    // Nested merging lists merge too.
    assert_eq!(
        ok(
            json!({"mergingList": [{"name": 1, "mergingList": [{"name": "x", "value": "1"}], "nonMergingList": [{"name": "p"}]}]}),
            json!({"mergingList": [{"name": 1, "mergingList": [{"name": "x", "other": "2"}], "nonMergingList": [{"name": "q"}]}]})
        ),
        json!({"mergingList": [{"name": 1, "mergingList": [{"name": "x", "value": "1", "other": "2"}], "nonMergingList": [{"name": "q"}]}]})
    );
}

#[test]
fn set_element_order_orders_the_merged_list() {
    // "merge lists of maps", applied to the current object.
    assert_eq!(
        ok(
            json!({"mergingList": [{"name": 1, "other": "a"}, {"name": 2, "value": 2, "other": "b"}]}),
            json!({
                "$setElementOrder/mergingList": [{"name": 4}, {"name": 1}, {"name": 2}, {"name": 3}],
                "mergingList": [{"name": 4, "value": 4}, {"name": 3, "value": 3}],
            })
        ),
        json!({"mergingList": [
            {"name": 4, "value": 4},
            {"name": 1, "other": "a"},
            {"name": 2, "value": 2, "other": "b"},
            {"name": 3, "value": 3},
        ]})
    );
    // "$setElementOrder contains item that is not present in the list to be merged"
    assert_eq!(
        ok(
            json!({"mergingList": [{"name": 1}, {"name": 3}]}),
            json!({
                "$setElementOrder/mergingList": [{"name": 3}, {"name": 2}, {"name": 1}],
                "mergingList": [{"name": 3, "value": 3}, {"name": 1, "value": 1}],
            })
        ),
        json!({"mergingList": [{"name": 3, "value": 3}, {"name": 1, "value": 1}]})
    );
    assert_eq!(
        ok(
            json!({"mergingIntList": [1, 3]}),
            json!({"$setElementOrder/mergingIntList": [3, 2, 1]})
        ),
        json!({"mergingIntList": [3, 1]})
    );
    // A deletion alongside the order, as kubectl apply sends it.
    assert_eq!(
        ok(
            json!({"mergingList": [{"name": "a"}, {"name": "b"}, {"name": "c"}]}),
            json!({
                "$setElementOrder/mergingList": [{"name": "c"}, {"name": "a"}],
                "mergingList": [{"name": "b", "$patch": "delete"}],
            })
        ),
        json!({"mergingList": [{"name": "c"}, {"name": "a"}]})
    );
}

#[test]
fn set_element_order_keeps_server_only_items_between_their_neighbours() {
    let names = |v: &Value| -> Vec<i64> {
        v["mergingList"]
            .as_array()
            .unwrap()
            .iter()
            .map(|i| i["name"].as_i64().unwrap())
            .collect()
    };
    // "set elements order in a list with server-only items" 1, 2 and 3.
    for (current, order, expected) in [
        (vec![1, 3, 4, 2, 9], vec![4, 2, 3, 1], vec![4, 2, 3, 1, 9]),
        (vec![1, 2, 9, 3, 4], vec![2, 1, 4, 3], vec![2, 1, 9, 4, 3]),
        (
            vec![1, 2, 7, 9, 8, 3, 4],
            vec![2, 1, 4, 3],
            vec![2, 1, 7, 9, 8, 4, 3],
        ),
    ] {
        let list = |names: &[i64]| Value::Array(names.iter().map(|n| json!({"name": n})).collect());
        let out = ok(
            json!({"mergingList": list(&current)}),
            json!({"$setElementOrder/mergingList": list(&order)}),
        );
        assert_eq!(names(&out), expected, "{current:?} {order:?}");
    }
}

#[test]
fn set_element_order_mismatch_is_an_internal_error() {
    let e = patch(
        json!({"mergingList": [{"name": 1}, {"name": 3}, {"name": 2}]}),
        json!({
            "$setElementOrder/mergingList": [{"name": 1}, {"name": 2}, {"name": 3}],
            "mergingList": [{"name": 3, "value": 3}, {"name": 1, "value": 1}],
        }),
    )
    .unwrap_err();
    assert_eq!(e.kind(), ErrorKind::Internal);
    assert_eq!(
        e.to_string(),
        "The order in patch list:\n[map[name:3 value:3] map[name:1 value:1]]\n doesn't match $setElementOrder list:\n[map[name:1] map[name:2] map[name:3]]\n"
    );
    let e = patch(json!({}), json!({"$setElementOrder": []})).unwrap_err();
    assert_eq!(e, Error::BadPatchFormatForSetElementOrderList);
    assert_eq!(e.kind(), ErrorKind::BadRequest);
    let e = patch(json!({}), json!({"$setElementOrder/mergingList": "x"})).unwrap_err();
    assert_eq!(
        e.to_string(),
        "expected a []interface {}, but received a string"
    );
}

#[test]
fn list_item_directives_delete_and_replace() {
    // "delete all duplicate entries in a merging list"
    assert_eq!(
        ok(
            json!({"mergingList": [{"name": 1}, {"name": 1}, {"name": 2, "value": "a"}, {"name": 3}, {"name": 3}]}),
            json!({"mergingList": [{"name": 1, "$patch": "delete"}, {"name": 3, "$patch": "delete"}]})
        ),
        json!({"mergingList": [{"name": 2, "value": "a"}]})
    );
    // "delete all items from merging list"
    assert_eq!(
        ok(
            json!({"mergingList": [{"name": 1}, {"name": 2}]}),
            json!({"mergingList": [{"$patch": "replace"}]})
        ),
        json!({"mergingList": []})
    );
    assert_eq!(
        ok(
            json!({"mergingList": [{"name": 1}, {"name": 2}]}),
            json!({"mergingList": [{"name": 3}, {"$patch": "replace"}]})
        ),
        json!({"mergingList": [{"name": 3}]})
    );
    let e = patch(
        json!({"mergingList": [{"name": 1}]}),
        json!({"mergingList": [{"name": 1, "$patch": "merge"}]}),
    )
    .unwrap_err();
    assert_eq!(e, Error::MergeDirectiveInList);
    let e = patch(
        json!({"mergingList": [{"name": 1}]}),
        json!({"mergingList": [{"name": 1, "$patch": "x"}]}),
    )
    .unwrap_err();
    assert_eq!(
        e.to_string(),
        "unknown patch type: x in map: map[$patch:x name:1]"
    );
    assert_eq!(e.kind(), ErrorKind::Internal);
    let e = patch(
        json!({"mergingList": [{"name": 1}]}),
        json!({"mergingList": [{"$patch": "delete", "value": "v"}]}),
    )
    .unwrap_err();
    assert_eq!(
        e.to_string(),
        "map: map[$patch:delete value:v] does not contain declared merge key: name"
    );
}

#[test]
fn map_directives_replace_delete_and_refuse_others() {
    // "delete map from nested map", "add key and delete all keys from map"
    assert_eq!(
        ok(
            json!({"simpleMap": {"key1": 1, "key2": 1}}),
            json!({"simpleMap": {"$patch": "delete"}})
        ),
        json!({"simpleMap": {}})
    );
    assert_eq!(
        ok(
            json!({"name": 1, "value": 1}),
            json!({"other": "a", "$patch": "replace"})
        ),
        json!({"other": "a"})
    );
    // A directive on a key the object lacks is dropped with the key.
    assert_eq!(
        ok(json!({}), json!({"simpleMap": {"$patch": "delete"}})),
        json!({})
    );
    let e = patch(
        json!({"simpleMap": {"a": "b"}}),
        json!({"simpleMap": {"$patch": "merge", "c": "d"}}),
    )
    .unwrap_err();
    assert_eq!(
        e.to_string(),
        "unknown patch type: merge in map: map[$patch:merge c:d]"
    );
    let e = patch(
        json!({"simpleMap": {}}),
        json!({"simpleMap": {"$patch": 7}}),
    )
    .unwrap_err();
    assert_eq!(
        e.to_string(),
        "unknown patch type: %!s(int64=7) in map: map[$patch:7]"
    );
}

#[test]
fn primitive_lists_union_and_delete() {
    // "unique scalars when merging lists"
    assert_eq!(
        ok(
            json!({"mergingIntList": [1, 2]}),
            json!({"mergingIntList": [2, 3]})
        ),
        json!({"mergingIntList": [1, 2, 3]})
    );
    // "preserve the order from the patch in a merging int list"
    assert_eq!(
        ok(
            json!({"mergingIntList": [1, 2, 3]}),
            json!({"mergingIntList": [3, 1]})
        ),
        json!({"mergingIntList": [2, 3, 1]})
    );
    assert_eq!(
        ok(
            json!({"nonMergingIntList": [1, 2]}),
            json!({"nonMergingIntList": [3]})
        ),
        json!({"nonMergingIntList": [3]})
    );
    for (original, p, expected) in [
        (
            json!({"mergingIntList": [1, 2]}),
            json!({"$deleteFromPrimitiveList/mergingIntList": [3]}),
            json!({"mergingIntList": [1, 2]}),
        ),
        (
            json!({"mergingIntList": null}),
            json!({"$deleteFromPrimitiveList/mergingIntList": [3]}),
            json!({"mergingIntList": null}),
        ),
        (
            json!({"foo": ["bar"]}),
            json!({"$deleteFromPrimitiveList/mergingIntList": [3]}),
            json!({"foo": ["bar"]}),
        ),
        (
            json!({"mergingIntList": [1, 2, 3]}),
            json!({"$deleteFromPrimitiveList/mergingIntList": [2]}),
            json!({"mergingIntList": [1, 3]}),
        ),
        (
            json!({"nonMergingIntList": [1, 2, 3]}),
            json!({"$deleteFromPrimitiveList/nonMergingIntList": [2]}),
            json!({"nonMergingIntList": [1, 3]}),
        ),
        // "add and delete items in lists of scalars"
        (
            json!({"mergingIntList": [1, 2, 3]}),
            json!({"$deleteFromPrimitiveList/mergingIntList": [3], "mergingIntList": [4]}),
            json!({"mergingIntList": [4, 1, 2]}),
        ),
        (
            json!({"mergingIntList": [1, 2, 3]}),
            json!({"$setElementOrder/mergingIntList": [1, 2, 4], "$deleteFromPrimitiveList/mergingIntList": [3], "mergingIntList": [4]}),
            json!({"mergingIntList": [1, 2, 4]}),
        ),
        (
            json!({"mergingIntList": [1, 2, 3, 4]}),
            json!({"$setElementOrder/mergingIntList": [1, 2, 4], "$deleteFromPrimitiveList/mergingIntList": [3]}),
            json!({"mergingIntList": [1, 2, 4]}),
        ),
    ] {
        assert_eq!(ok(original, p.clone()), expected, "{p}");
    }
    assert_eq!(
        patch(json!({}), json!({"$deleteFromPrimitiveListx": [1]})).unwrap_err(),
        Error::BadPatchFormatForPrimitiveList
    );
}

#[test]
fn retain_keys_clears_unlisted_keys_and_checks_the_patch() {
    // "retainKeys map should clear defaulted field"
    assert_eq!(
        ok(
            json!({"retainKeysMap": {"name": "foo", "value": "a", "other": "b"}}),
            json!({"retainKeysMap": {"$retainKeys": ["name", "other"], "other": "c"}})
        ),
        json!({"retainKeysMap": {"name": "foo", "other": "c"}})
    );
    // "retainKeys list of maps clears a field"
    assert_eq!(
        ok(
            json!({"retainKeysMergingList": [{"name": "bar"}, {"name": "foo", "value": "a", "other": "b"}]}),
            json!({"retainKeysMergingList": [{"name": "foo", "$retainKeys": ["name", "value"], "value": "a"}]})
        ),
        json!({"retainKeysMergingList": [{"name": "bar"}, {"name": "foo", "value": "a"}]})
    );
    // A key the patch sets that the list does not name: 400.
    let e = patch(
        json!({"retainKeysMap": {"name": "foo"}}),
        json!({"retainKeysMap": {"$retainKeys": ["name"], "value": "v"}}),
    )
    .unwrap_err();
    assert_eq!(e, Error::BadPatchFormatForRetainKeys);
    assert_eq!(e.kind(), ErrorKind::BadRequest);
    assert_eq!(e.to_string(), "invalid patch format of retainKeys");
    // Naming a key the patch does not set keeps that key.
    assert_eq!(
        ok(
            json!({"retainKeysMap": {"name": "foo", "value": "a"}}),
            json!({"retainKeysMap": {"$retainKeys": ["name", "value"]}})
        ),
        json!({"retainKeysMap": {"name": "foo", "value": "a"}})
    );
    assert_eq!(
        patch(json!({"a": {}}), json!({"a": {"$retainKeys": "name"}})).unwrap_err(),
        Error::BadPatchFormatForRetainKeys
    );
}

#[test]
fn replace_strategy_and_untyped_fields_replace() {
    // "replace RawExtension field"
    assert_eq!(
        ok(
            json!({"replacingItem": {"Some": "Generic", "Yaml": "Inside"}}),
            json!({"replacingItem": {"Newly": "Modified"}})
        ),
        json!({"replacingItem": {"Newly": "Modified"}})
    );
    let schema = test_schema();
    let out = apply(
        &json!({"l": [{"name": 1}], "m": {"a": 1}}),
        &json!({"l": [{"name": 2}], "m": {"b": 2}}),
        SchemaRef::untyped(&schema),
    )
    .unwrap();
    assert_eq!(out, json!({"l": [{"name": 2}], "m": {"a": 1, "b": 2}}));
}

#[test]
fn malformed_lists_answer_as_kube_apiserver() {
    let e = patch(
        json!({"mergingList": [{"name": 1}]}),
        json!({"mergingList": [{"value": "b"}]}),
    )
    .unwrap_err();
    assert_eq!(
        e.to_string(),
        "map: map[value:b] does not contain declared merge key: name"
    );
    assert_eq!(e.kind(), ErrorKind::Internal);
    let e = patch(
        json!({"mergingIntList": [1]}),
        json!({"mergingIntList": [[2]]}),
    )
    .unwrap_err();
    assert_eq!(
        e.to_string(),
        "list element types are not identical: [[1] [[2]]]"
    );
    let e = patch(
        json!({"mergingIntList": []}),
        json!({"mergingIntList": [[2]]}),
    )
    .unwrap_err();
    assert_eq!(e, Error::NoListOfLists);
    assert_eq!(e.kind(), ErrorKind::Invalid);
    let e = patch(
        json!({"mergingIntList": []}),
        json!({"mergingIntList": [null, 1]}),
    )
    .unwrap_err();
    assert_eq!(e, Error::Panic(GoPanic::NilDereference));
    assert_eq!(e.kind(), ErrorKind::Panic);
    let e = patch(
        json!({"mergingList": [{"name": 1}]}),
        json!({"mergingList": [{"name": 1}, "x"]}),
    )
    .unwrap_err();
    assert_eq!(
        e.to_string(),
        "list element types are not identical: [[map[name:1]] [map[name:1] x]]"
    );
    // Merge keys that are objects: Go's `==` panics comparing them.
    let e = patch(
        json!({"mergingList": [{"name": {}}]}),
        json!({"mergingList": [{"name": {}}]}),
    )
    .unwrap_err();
    assert_eq!(e.kind(), ErrorKind::Panic);
    assert_eq!(
        e.to_string(),
        "runtime error: comparing uncomparable type map[string]interface {}"
    );
    let e = patch(json!({}), json!([1])).unwrap_err();
    assert_eq!(
        e.to_string(),
        "json: cannot unmarshal array into Go value of type map[string]interface {}"
    );
    assert_eq!(e.kind(), ErrorKind::BadRequest);
}

#[test]
fn deployment_containers_merge_by_name() {
    let deployment = json!({"spec": {"template": {"spec": {
        "containers": [{"name": "app", "image": "a:1", "env": [{"name": "A", "value": "1"}]}],
        "tolerations": [{"key": "k1"}],
    }}}});
    let p = json!({"spec": {"template": {"spec": {
        "containers": [{"name": "app", "env": [{"name": "B", "value": "2"}]}],
        "tolerations": [{"key": "k2"}],
    }}}});
    let root = SchemaRef::root(schema::builtin(), "apps/v1", "Deployment").unwrap();
    let out = apply(&deployment, &p, root).unwrap();
    assert_eq!(
        out["spec"]["template"]["spec"],
        json!({
            "containers": [{"name": "app", "image": "a:1", "env": [{"name": "B", "value": "2"}, {"name": "A", "value": "1"}]}],
            "tolerations": [{"key": "k2"}],
        })
    );
}

fn json_value() -> impl Strategy<Value = Value> {
    let keys = prop::sample::select(vec![
        "name",
        "value",
        "$patch",
        "$retainKeys",
        "$setElementOrder/mergingList",
        "$setElementOrder/mergingIntList",
        "$deleteFromPrimitiveList/mergingIntList",
        "$deleteFromPrimitiveList/mergingList",
        "$setElementOrder",
        "mergingList",
        "mergingIntList",
        "nonMergingList",
        "simpleMap",
        "retainKeysMap",
        "replacingItem",
        "spec",
        "template",
        "containers",
        "env",
        "volumes",
    ]);
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::from),
        (-3i64..4).prop_map(Value::from),
        Just(json!(1.5)),
        prop::sample::select(vec!["delete", "replace", "merge", "name", "a", "b"])
            .prop_map(Value::from),
    ];
    leaf.prop_recursive(5, 64, 6, move |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..5).prop_map(Value::Array),
            prop::collection::btree_map(keys.clone(), inner, 0..5).prop_map(|m| {
                Value::Object(m.into_iter().map(|(k, v)| (k.to_owned(), v)).collect())
            }),
        ]
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]
    #[test]
    fn random_patches_never_panic(original in json_value(), p in json_value()) {
        let schema = test_schema();
        let original = match original {
            Value::Object(_) => original,
            other => json!({"mergingList": other}),
        };
        let _ = apply(&original, &p, SchemaRef::definition(&schema, "mergeItem"));
        let root = SchemaRef::root(schema::builtin(), "apps/v1", "Deployment").unwrap();
        let _ = apply(&original, &p, root);
    }
}
