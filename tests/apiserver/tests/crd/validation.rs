//! Structural-schema validation of custom resources: every rule with the real
//! server's `Status` body, several errors in one answer, updates (with ratcheting),
//! patches and the status subresource.

use serde_json::{json, Value};

use crate::support::*;

/// POSTs a Widget with `spec` and expects the 422 with these causes.
async fn rejected(
    server: &test_apiserver::RunningServer,
    spec: Value,
    causes: &[(&str, &str, &str)],
) {
    let answer = post(server, WIDGETS, &widget("w", spec.clone())).await;
    assert_eq!(answer.code, 422, "{spec} was accepted: {}", answer.body);
    assert_eq!(answer.body, widget_invalid("w", causes), "for {spec}");
}

#[tokio::test]
async fn a_minimal_widget_is_accepted_and_defaulted() {
    let server = widget_server().await;
    let made = post(
        &server,
        WIDGETS,
        &widget("w", json!({"name": "abc", "ports": [{"name": "http"}]})),
    )
    .await;
    assert_eq!(made.code, 201, "{}", made.body);
    assert_eq!(
        made.body["spec"],
        json!({"name": "abc", "size": 3, "options": {"verbose": false}, "ports": [{"name": "http", "number": 80}]})
    );
}

#[tokio::test]
async fn each_schema_rule_answers_with_the_real_message() {
    let server = widget_server().await;
    let base = |extra: Value| {
        let mut spec = json!({"name": "abc"});
        for (k, v) in extra.as_object().unwrap() {
            spec[k] = v.clone();
        }
        spec
    };
    let invalid = "FieldValueInvalid";
    let type_invalid = "FieldValueTypeInvalid";
    rejected(
        &server,
        base(json!({"size": 0})),
        &[(
            invalid,
            "spec.size",
            "Invalid value: 0: spec.size in body should be greater than or equal to 1",
        )],
    )
    .await;
    rejected(
        &server,
        base(json!({"size": 11})),
        &[(
            invalid,
            "spec.size",
            "Invalid value: 11: spec.size in body should be less than or equal to 10",
        )],
    )
    .await;
    rejected(
        &server,
        base(json!({"size": "3"})),
        &[(
            type_invalid,
            "spec.size",
            r#"Invalid value: "string": spec.size in body must be of type integer: "string""#,
        )],
    )
    .await;
    rejected(
        &server,
        base(json!({"ratio": 0.0})),
        &[(
            invalid,
            "spec.ratio",
            "Invalid value: 0: spec.ratio in body should be greater than 0",
        )],
    )
    .await;
    rejected(
        &server,
        base(json!({"ratio": 1.0})),
        &[(
            invalid,
            "spec.ratio",
            "Invalid value: 1: spec.ratio in body should be less than 1",
        )],
    )
    .await;
    rejected(
        &server,
        base(json!({"ratio": 0.3})),
        &[(
            invalid,
            "spec.ratio",
            "Invalid value: 0.3: spec.ratio in body should be a multiple of 0.25",
        )],
    )
    .await;
    // An integer checked against a fractional multipleOf: kube-openapi truncates the
    // factor to 0 and reports it.
    rejected(
        &server,
        base(json!({"ratio": 0})),
        &[
            (
                invalid,
                "spec.ratio",
                "Invalid value: 0: factor MultipleOf declared for spec.ratio must be positive: 0",
            ),
            (
                invalid,
                "spec.ratio",
                "Invalid value: 0: spec.ratio in body should be greater than 0",
            ),
        ],
    )
    .await;
    rejected(
        &server,
        base(json!({"speed": "medium"})),
        &[(
            "FieldValueNotSupported",
            "spec.speed",
            r#"Unsupported value: "medium": supported values: "fast", "slow""#,
        )],
    )
    .await;
    rejected(
        &server,
        json!({"size": 2}),
        &[("FieldValueRequired", "spec.name", "Required value")],
    )
    .await;
    rejected(
        &server,
        json!({"name": "a"}),
        &[(
            invalid,
            "spec.name",
            r#"Invalid value: "a": spec.name in body should be at least 2 chars long"#,
        )],
    )
    .await;
    rejected(
        &server,
        json!({"name": "abcdefghijk"}),
        &[(
            "FieldValueTooLong",
            "spec.name",
            "Too long: may not be more than 10 bytes",
        )],
    )
    .await;
    rejected(
        &server,
        json!({"name": "ABC"}),
        &[(
            invalid,
            "spec.name",
            r#"Invalid value: "ABC": spec.name in body should match '^[a-z]+$'"#,
        )],
    )
    .await;
    rejected(&server, base(json!({"when": "yesterday"})), &[(type_invalid, "spec.when", r#"Invalid value: "yesterday": spec.when in body must be of type date-time: "yesterday""#)]).await;
    rejected(&server, base(json!({"data": "not base64!"})), &[(type_invalid, "spec.data", r#"Invalid value: "not base64!": spec.data in body must be of type byte: "not base64!""#)]).await;
    rejected(
        &server,
        base(json!({"tags": []})),
        &[(
            invalid,
            "spec.tags",
            "Invalid value: 0: spec.tags in body should have at least 1 items",
        )],
    )
    .await;
    rejected(
        &server,
        base(json!({"tags": ["a", "b", "c", "d"]})),
        &[(
            "FieldValueTooMany",
            "spec.tags",
            "Too many: 4: must have at most 3 items",
        )],
    )
    .await;
    rejected(
        &server,
        base(json!({"tags": ["a", "b", "a"]})),
        &[(
            "FieldValueDuplicate",
            "spec.tags[2]",
            r#"Duplicate value: "a""#,
        )],
    )
    .await;
    rejected(
        &server,
        base(json!({"ports": [{"name": "x"}, {"name": "x", "number": 1}]})),
        &[(
            "FieldValueDuplicate",
            "spec.ports[1]",
            r#"Duplicate value: {"name":"x"}"#,
        )],
    )
    .await;
    rejected(
        &server,
        base(json!({"ports": [{"number": 1}]})),
        &[("FieldValueRequired", "spec.ports[0].name", "Required value")],
    )
    .await;
    rejected(
        &server,
        base(json!({"labels": {}})),
        &[(
            invalid,
            "spec.labels",
            "Invalid value: 0: spec.labels in body should have at least 1 properties",
        )],
    )
    .await;
    rejected(
        &server,
        base(json!({"labels": {"a": "1", "b": "2", "c": "3"}})),
        &[(
            "FieldValueTooMany",
            "spec.labels",
            "Too many: 3: must have at most 2 items",
        )],
    )
    .await;
    rejected(
        &server,
        base(json!({"labels": {"a": "toolong"}})),
        &[(
            "FieldValueTooLong",
            "spec.labels.a",
            "Too long: may not be more than 5 bytes",
        )],
    )
    .await;
    rejected(
        &server,
        base(json!({"template": {"spec": {}}})),
        &[
            (
                "FieldValueRequired",
                "spec.template.apiVersion",
                "Required value",
            ),
            ("FieldValueRequired", "spec.template.kind", "Required value"),
        ],
    )
    .await;
    rejected(&server, base(json!({"template": {"apiVersion": "v1", "kind": "Config_Map"}})), &[
        (invalid, "spec.template.kind", r#"Invalid value: "Config_Map": may have mixed case, but should otherwise match: a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character (e.g. 'my-name',  or 'abc-123', regex used for validation is '[a-z]([-a-z0-9]*[a-z0-9])?')"#),
    ]).await;
    // A null where the schema allows none and has no default is dropped before validation.
    rejected(
        &server,
        json!({"name": null}),
        &[("FieldValueRequired", "spec.name", "Required value")],
    )
    .await;
    rejected(&server, base(json!({"replicas": 3_000_000_000_i64})), &[
        (invalid, "<nil>", r#"Invalid value: "": Checked value must be of type integer with format int32 in spec.replicas"#),
        (invalid, ".spec.replicas", "Invalid value: 3000000000: should be less than or equal to 2147483647"),
    ]).await;
    rejected(&server, base(json!({"port": true})), &[
        (type_invalid, "spec.port", r#"Invalid value: "boolean": spec.port in body must be of type integer,string: "boolean""#),
        (invalid, "<nil>", r#"Invalid value: "": "spec.port" must validate at least one schema (anyOf)"#),
        (type_invalid, "spec.port", r#"Invalid value: "boolean": spec.port in body must be of type integer: "boolean""#),
    ]).await;

    for (i, ok) in [
        json!({"note": null}),
        json!({"port": 80}),
        json!({"port": "http"}),
        json!({"ratio": 0.5}),
        json!({"when": "2024-05-01T10:00:00Z"}),
        json!({"data": "aGVsbG8="}),
        json!({"template": {"apiVersion": "v1", "kind": "ConfigMap", "data": {"k": "v"}}}),
    ]
    .into_iter()
    .enumerate()
    {
        let name = format!("ok-{i}");
        let answer = post(&server, WIDGETS, &widget(&name, base(ok.clone()))).await;
        assert_eq!(answer.code, 201, "{ok}: {}", answer.body);
    }
}

#[tokio::test]
async fn several_errors_come_in_one_answer_in_the_real_order() {
    let server = widget_server().await;
    rejected(
        &server,
        json!({"size": 0, "speed": "medium", "tags": []}),
        &[
            (
                "FieldValueInvalid",
                "spec.size",
                "Invalid value: 0: spec.size in body should be greater than or equal to 1",
            ),
            (
                "FieldValueNotSupported",
                "spec.speed",
                r#"Unsupported value: "medium": supported values: "fast", "slow""#,
            ),
            (
                "FieldValueInvalid",
                "spec.tags",
                "Invalid value: 0: spec.tags in body should have at least 1 items",
            ),
            ("FieldValueRequired", "spec.name", "Required value"),
        ],
    )
    .await;
}

#[tokio::test]
async fn metadata_and_schema_errors_come_in_one_answer_metadata_first() {
    let server = widget_server().await;
    let label = "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')";
    let mut body = widget("w", json!({"name": "abc", "size": 0}));
    body["metadata"]["labels"] = json!({"tier": "-web"});
    let answer = post(&server, WIDGETS, &body).await;
    let causes = [
        (
            "FieldValueInvalid",
            "metadata.labels",
            format!("Invalid value: \"-web\": {label}"),
        ),
        (
            "FieldValueInvalid",
            "spec.size",
            "Invalid value: 0: spec.size in body should be greater than or equal to 1".to_owned(),
        ),
    ];
    let causes: Vec<(&str, &str, &str)> = causes
        .iter()
        .map(|(r, f, m)| (*r, *f, m.as_str()))
        .collect();
    assert_eq!(
        (answer.code, answer.body),
        (422, widget_invalid("w", &causes))
    );

    // An update checks the metadata (three times: `rest.ValidateUpdate`'s create and update
    // passes, then the custom-resource strategy's update pass) and the schema in one
    // answer too.
    let made = post(&server, WIDGETS, &widget("w", json!({"name": "abc"}))).await;
    assert_eq!(made.code, 201, "{}", made.body);
    let mut bad = made.body.clone();
    bad["metadata"]["labels"] = json!({"tier": "-web"});
    bad["spec"]["size"] = json!(0);
    let answer = put(&server, &format!("{WIDGETS}/w"), &bad).await;
    let update_causes = [causes[0], causes[0], causes[0], causes[1]];
    assert_eq!(
        (answer.code, answer.body),
        (422, widget_invalid("w", &update_causes))
    );
}

#[tokio::test]
async fn updates_patches_and_status_are_validated() {
    let server = widget_server().await;
    let made = post(&server, WIDGETS, &widget("w", json!({"name": "abc"})))
        .await
        .body;

    let mut bad = made.clone();
    bad["spec"]["size"] = json!(0);
    let answer = put(&server, &format!("{WIDGETS}/w"), &bad).await;
    assert_eq!(answer.code, 422);
    assert_eq!(
        answer.body,
        widget_invalid(
            "w",
            &[(
                "FieldValueInvalid",
                "spec.size",
                "Invalid value: 0: spec.size in body should be greater than or equal to 1"
            )]
        )
    );

    let answer = merge_patch(
        &server,
        &format!("{WIDGETS}/w"),
        &json!({"spec": {"speed": "warp"}}),
    )
    .await;
    assert_eq!(answer.code, 422);
    assert_eq!(
        answer.body,
        widget_invalid(
            "w",
            &[(
                "FieldValueNotSupported",
                "spec.speed",
                r#"Unsupported value: "warp": supported values: "fast", "slow""#
            )]
        )
    );

    let answer = merge_patch(
        &server,
        &format!("{WIDGETS}/w/status"),
        &json!({"status": {"replicas": -1, "phase": "Gone"}}),
    )
    .await;
    assert_eq!(answer.code, 422);
    assert_eq!(
        answer.body,
        widget_invalid(
            "w",
            &[
                (
                    "FieldValueNotSupported",
                    "status.phase",
                    r#"Unsupported value: "Gone": supported values: "Pending", "Ready""#
                ),
                (
                    "FieldValueInvalid",
                    "status.replicas",
                    "Invalid value: -1: replicas in body should be greater than or equal to 0"
                ),
                (
                    "FieldValueInvalid",
                    ".status.replicas",
                    "Invalid value: -1: should be a non-negative integer"
                ),
            ]
        )
    );
    let answer = merge_patch(
        &server,
        &format!("{WIDGETS}/w/status"),
        &json!({"status": {"replicas": 2, "phase": "Ready"}}),
    )
    .await;
    assert_eq!(answer.code, 200, "{}", answer.body);
    assert_eq!(
        answer.body["status"],
        json!({"replicas": 2, "phase": "Ready"})
    );
}

#[tokio::test]
async fn unchanged_invalid_values_are_ratcheted_on_update() {
    let server = widget_server().await;
    post(
        &server,
        WIDGETS,
        &widget("w", json!({"name": "abc", "size": 8})),
    )
    .await;
    let crd_path = format!("{CRDS}/widgets.example.com");
    let mut crd = get(&server, &crd_path).await.body;
    crd["spec"]["versions"][0]["schema"]["openAPIV3Schema"]["properties"]["spec"]["properties"]
        ["size"]["maximum"] = json!(5);
    assert_eq!(put(&server, &crd_path, &crd).await.code, 200);

    let answer = merge_patch(
        &server,
        &format!("{WIDGETS}/w"),
        &json!({"spec": {"speed": "fast"}}),
    )
    .await;
    assert_eq!(answer.code, 200, "size 8 was not changed: {}", answer.body);
    let answer = merge_patch(
        &server,
        &format!("{WIDGETS}/w"),
        &json!({"spec": {"size": 9}}),
    )
    .await;
    assert_eq!(answer.code, 422);
    assert_eq!(
        answer.body,
        widget_invalid(
            "w",
            &[(
                "FieldValueInvalid",
                "spec.size",
                "Invalid value: 9: spec.size in body should be less than or equal to 5"
            )]
        )
    );
}
