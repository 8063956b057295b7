//! CRDs whose schema is not structural, whose list extensions cannot be keyed or whose
//! defaults do not validate: each is refused with the 422 kube-apiserver 1.37 answers
//! (the causes in its order, with its paths and messages), and the checks that decide
//! whether the rules are compiled at all.

use serde_json::{json, Value};
use test_apiserver::{RunningServer, TestApiServer};

use crate::support::*;

const ROOT: &str = "spec.validation.openAPIV3Schema";
const REQUIRED: &str = "FieldValueRequired";
const INVALID: &str = "FieldValueInvalid";
const TYPE_INVALID: &str = "FieldValueTypeInvalid";
const FORBIDDEN: &str = "FieldValueForbidden";
const NOT_SUPPORTED: &str = "FieldValueNotSupported";

/// A one-version Gadget CRD with this `openAPIV3Schema`.
fn gadget_crd(schema: Value) -> Value {
    json!({
        "apiVersion": "apiextensions.k8s.io/v1",
        "kind": "CustomResourceDefinition",
        "metadata": {"name": "gadgets.example.com"},
        "spec": {
            "group": "example.com",
            "scope": "Namespaced",
            "names": {"plural": "gadgets", "singular": "gadget", "kind": "Gadget", "listKind": "GadgetList"},
            "versions": [{"name": "v1", "served": true, "storage": true, "schema": {"openAPIV3Schema": schema}}],
        },
    })
}

/// A schema whose `spec` has these properties.
fn with_spec(properties: Value) -> Value {
    json!({"type": "object", "properties": {"spec": {"type": "object", "properties": properties}}})
}

/// The path of property `name` of `spec`.
fn spec_field(name: &str) -> String {
    format!("{ROOT}.properties[spec].properties[{name}]")
}

async fn server() -> RunningServer {
    TestApiServer::builder()
        .start()
        .await
        .expect("server starts")
}

/// POSTs the Gadget CRD with `schema` and expects the 422 with exactly these causes
/// (reason, field, message); nothing is installed.
async fn refused(server: &RunningServer, schema: Value, causes: &[(&str, &str, &str)]) {
    let answer = post(server, CRDS, &gadget_crd(schema.clone())).await;
    assert_eq!(answer.code, 422, "{schema} was accepted: {}", answer.body);
    let want = invalid(
        "CustomResourceDefinition",
        "apiextensions.k8s.io",
        "gadgets.example.com",
        causes,
    );
    assert_eq!(answer.body, want, "for {schema}");
    assert_eq!(get(server, "/apis/example.com/v1").await.code, 404);
}

/// POSTs the Gadget CRD with `schema`, expects it installed, and removes it again.
async fn accepted(server: &RunningServer, schema: Value) {
    let answer = post(server, CRDS, &gadget_crd(schema.clone())).await;
    assert_eq!(answer.code, 201, "{schema} was refused: {}", answer.body);
    let gone = delete(server, &format!("{CRDS}/gadgets.example.com")).await;
    assert_eq!(gone.code, 200, "{}", gone.body);
}

#[tokio::test]
async fn every_specified_node_needs_a_type() {
    let server = server().await;
    refused(
        &server,
        with_spec(json!({"size": {"minimum": 1}})),
        &[(
            REQUIRED,
            &format!("{}.type", spec_field("size")),
            "Required value: must not be empty for specified object fields",
        )],
    )
    .await;
    // Several at once come sorted by their text, as Go sorts them.
    refused(
        &server,
        with_spec(json!({
            "c": {"type": "array", "items": {"maxLength": 1}},
            "a": {"type": "array"},
            "b": {"description": "untyped"},
        })),
        &[
            (
                REQUIRED,
                &format!("{}.items", spec_field("a")),
                "Required value: must be specified",
            ),
            (
                REQUIRED,
                &format!("{}.type", spec_field("b")),
                "Required value: must not be empty for specified object fields",
            ),
            (
                REQUIRED,
                &format!("{}.items.type", spec_field("c")),
                "Required value: must not be empty for specified array items",
            ),
        ],
    )
    .await;
    refused(
        &server,
        json!({"properties": {"spec": {"type": "object"}}}),
        &[(
            REQUIRED,
            &format!("{ROOT}.type"),
            "Required value: must not be empty at the root",
        )],
    )
    .await;
    // Int-or-string and preserved nodes need none.
    accepted(
        &server,
        with_spec(json!({
            "port": {"x-kubernetes-int-or-string": true},
            "blob": {"x-kubernetes-preserve-unknown-fields": true},
        })),
    )
    .await;
}

#[tokio::test]
async fn the_root_is_an_object_without_additional_properties() {
    let server = server().await;
    refused(
        &server,
        json!({"type": "string"}),
        &[(
            INVALID,
            &format!("{ROOT}.type"),
            r#"Invalid value: "string": must be object at the root"#,
        )],
    )
    .await;
    refused(
        &server,
        json!({"type": "object", "additionalProperties": {"type": "string"}}),
        &[(
            FORBIDDEN,
            &format!("{ROOT}.additionalProperties"),
            "Forbidden: must not be used at the root",
        )],
    )
    .await;
}

#[tokio::test]
async fn value_validations_only_restrict_the_structure() {
    let server = server().await;
    refused(
        &server,
        with_spec(json!({"v": {"type": "string", "anyOf": [
            {"type": "string", "maxLength": 2},
            {"description": "long", "minLength": 5},
        ]}})),
        &[
            (
                FORBIDDEN,
                &format!("{}.anyOf[0].type", spec_field("v")),
                "Forbidden: must be empty to be structural",
            ),
            (
                FORBIDDEN,
                &format!("{}.anyOf[1].description", spec_field("v")),
                "Forbidden: must be empty to be structural",
            ),
        ],
    )
    .await;
    // Completeness is checked for the junctors at the root (Go looks no deeper).
    refused(
        &server,
        json!({
            "type": "object",
            "properties": {"spec": {"type": "object", "properties": {"a": {"type": "string"}}}},
            "oneOf": [
                {"required": ["spec"]},
                {"properties": {"spec": {"properties": {"b": {"minLength": 1}}}}},
            ],
        }),
        &[(
            REQUIRED,
            &format!("{ROOT}.properties[spec].properties[b]"),
            "Required value: because it is defined in spec.validation.openAPIV3Schema.oneOf[1].properties[spec].properties[b]",
        )],
    )
    .await;
    refused(
        &server,
        with_spec(json!({"n": {"type": "integer", "not": {
            "default": 3, "nullable": true, "x-kubernetes-list-type": "atomic",
        }}})),
        &[
            (
                FORBIDDEN,
                &format!("{}.not.default", spec_field("n")),
                "Forbidden: must be undefined to be structural",
            ),
            (
                FORBIDDEN,
                &format!("{}.not.nullable", spec_field("n")),
                "Forbidden: must be false to be structural",
            ),
            (
                FORBIDDEN,
                &format!("{}.not.x-kubernetes-list-type", spec_field("n")),
                "Forbidden: must be undefined to be structural",
            ),
            // The walk over the schema goes into `not` too, and reports after.
            (
                REQUIRED,
                &format!("{}.not.type", spec_field("n")),
                "Required value: must be array if x-kubernetes-list-type is specified",
            ),
        ],
    )
    .await;
    // The int-or-string shapes are the exception.
    accepted(
        &server,
        with_spec(json!({
            "a": {"x-kubernetes-int-or-string": true, "anyOf": [{"type": "integer"}, {"type": "string"}]},
            "b": {"x-kubernetes-int-or-string": true, "allOf": [
                {"anyOf": [{"type": "integer"}, {"type": "string"}]},
                {"pattern": "^[0-9]+%?$"},
            ]},
        })),
    )
    .await;
}

#[tokio::test]
async fn metadata_embedded_resources_and_int_or_string_keep_their_shapes() {
    let server = server().await;
    refused(
        &server,
        json!({"type": "object", "properties": {"metadata": {"type": "object", "properties": {
            "name": {"type": "string", "maxLength": 5},
            "labels": {"type": "object"},
        }}}}),
        &[(
            FORBIDDEN,
            &format!("{ROOT}.properties[metadata]"),
            "Forbidden: must not specify anything other than name and generateName, but metadata is implicitly specified",
        )],
    )
    .await;
    accepted(
        &server,
        json!({"type": "object", "properties": {"metadata": {"type": "object", "properties": {
            "name": {"type": "string", "maxLength": 5},
        }}}}),
    )
    .await;
    refused(
        &server,
        json!({"type": "object", "properties": {"kind": {"type": "integer"}}}),
        &[(
            INVALID,
            &format!("{ROOT}.properties[kind].type"),
            r#"Invalid value: "integer": must be string"#,
        )],
    )
    .await;
    refused(
        &server,
        with_spec(json!({"t": {"x-kubernetes-embedded-resource": true}})),
        &[
            (
                REQUIRED,
                &format!("{}.properties", spec_field("t")),
                "Required value: must not be empty if x-kubernetes-embedded-resource is true without x-kubernetes-preserve-unknown-fields",
            ),
            (
                REQUIRED,
                &format!("{}.type", spec_field("t")),
                "Required value: must be object if x-kubernetes-embedded-resource is true",
            ),
        ],
    )
    .await;
    refused(
        &server,
        with_spec(json!({"p": {
            "x-kubernetes-int-or-string": true,
            "x-kubernetes-preserve-unknown-fields": true,
        }})),
        &[(
            INVALID,
            &format!("{}.x-kubernetes-preserve-unknown-fields", spec_field("p")),
            "Invalid value: true: must be false if x-kubernetes-int-or-string is true",
        )],
    )
    .await;
}

#[tokio::test]
async fn a_pattern_must_compile_as_go_compiles_it() {
    let server = server().await;
    refused(
        &server,
        with_spec(json!({"s": {"type": "string", "pattern": "[a-"}})),
        &[(
            INVALID,
            &format!("{}.pattern", spec_field("s")),
            r#"Invalid value: "[a-": must be a valid regular expression, but isn't: error parsing regexp: missing closing ]: `[a-`"#,
        )],
    )
    .await;
    refused(
        &server,
        with_spec(json!({"s": {"type": "string", "pattern": "^a**$"}})),
        &[(
            INVALID,
            &format!("{}.pattern", spec_field("s")),
            r#"Invalid value: "^a**$": must be a valid regular expression, but isn't: error parsing regexp: invalid nested repetition operator: `**`"#,
        )],
    )
    .await;
}

#[tokio::test]
async fn list_map_keys_need_a_default_or_must_be_required() {
    let server = server().await;
    let ports = |item: Value| {
        with_spec(json!({"ports": {
            "type": "array",
            "x-kubernetes-list-type": "map",
            "x-kubernetes-list-map-keys": ["name"],
            "items": item,
        }}))
    };
    refused(
        &server,
        ports(json!({"type": "object", "properties": {"name": {"type": "string", "nullable": true}}})),
        &[
            (
                REQUIRED,
                &format!("{}.items.properties[name].default", spec_field("ports")),
                "Required value: this property is in x-kubernetes-list-map-keys, so it must have a default or be a required property",
            ),
            (
                FORBIDDEN,
                &format!("{}.items.properties[name].nullable", spec_field("ports")),
                "Forbidden: this property is in x-kubernetes-list-map-keys, so it cannot be nullable",
            ),
        ],
    )
    .await;
    accepted(
        &server,
        ports(json!({"type": "object", "properties": {"name": {"type": "string", "default": "http"}}})),
    )
    .await;
    accepted(
        &server,
        ports(json!({"type": "object", "required": ["name"], "properties": {"name": {"type": "string"}}})),
    )
    .await;
}

#[tokio::test]
async fn list_and_map_types_must_be_usable() {
    let server = server().await;
    refused(
        &server,
        with_spec(json!({"l": {"type": "array", "items": {"type": "string"}, "x-kubernetes-list-type": "bag"}})),
        &[(
            NOT_SUPPORTED,
            &format!("{}.x-kubernetes-list-type", spec_field("l")),
            r#"Unsupported value: "bag": supported values: "atomic", "set", "map""#,
        )],
    )
    .await;
    refused(
        &server,
        with_spec(json!({"l": {"type": "array", "items": {"type": "string"}, "x-kubernetes-list-map-keys": ["a"]}})),
        &[(
            REQUIRED,
            &format!("{}.x-kubernetes-list-type", spec_field("l")),
            "Required value: must be map if x-kubernetes-list-map-keys is non-empty",
        )],
    )
    .await;
    refused(
        &server,
        with_spec(json!({"l": {"type": "array", "items": {"type": "string"}, "x-kubernetes-list-type": "map"}})),
        &[
            (
                REQUIRED,
                &format!("{}.x-kubernetes-list-map-keys", spec_field("l")),
                "Required value: must not be empty if x-kubernetes-list-type is map",
            ),
            (
                INVALID,
                &format!("{}.items.type", spec_field("l")),
                r#"Invalid value: "string": must be object if parent array's x-kubernetes-list-type is map"#,
            ),
        ],
    )
    .await;
    refused(
        &server,
        with_spec(json!({"l": {
            "type": "array",
            "x-kubernetes-list-type": "map",
            "x-kubernetes-list-map-keys": ["a", "a", "spec"],
            "items": {"type": "object", "required": ["spec"], "properties": {"spec": {"type": "object"}}},
        }})),
        &[
            (
                INVALID,
                &format!("{}.x-kubernetes-list-map-keys", spec_field("l")),
                r#"Invalid value: ["a","a","spec"]: entries must all be names of item properties"#,
            ),
            (
                INVALID,
                &format!("{}.x-kubernetes-list-map-keys", spec_field("l")),
                r#"Invalid value: ["a","a","spec"]: entries must all be names of item properties"#,
            ),
            (
                INVALID,
                &format!("{}.x-kubernetes-list-map-keys", spec_field("l")),
                r#"Invalid value: ["a","a","spec"]: must not contain duplicate entries"#,
            ),
            (
                INVALID,
                &format!("{}.items.properties[spec].type", spec_field("l")),
                r#"Invalid value: "object": must be a scalar type if parent array's x-kubernetes-list-type is map"#,
            ),
        ],
    )
    .await;
    refused(
        &server,
        with_spec(json!({"s": {
            "type": "array",
            "x-kubernetes-list-type": "set",
            "items": {"type": "object", "nullable": true, "properties": {"a": {"type": "string"}}},
        }})),
        &[
            (
                INVALID,
                &format!("{}.items.x-kubernetes-map-type", spec_field("s")),
                r#"Invalid value: "null": must be atomic as item of a list with x-kubernetes-list-type=set"#,
            ),
            (
                FORBIDDEN,
                &format!("{}.items.nullable", spec_field("s")),
                "Forbidden: cannot be nullable when x-kubernetes-list-type is set",
            ),
        ],
    )
    .await;
    refused(
        &server,
        with_spec(json!({"m": {"type": "object", "x-kubernetes-map-type": "loose"}})),
        &[(
            NOT_SUPPORTED,
            &format!("{}.x-kubernetes-map-type", spec_field("m")),
            r#"Unsupported value: "loose": supported values: "atomic", "granular""#,
        )],
    )
    .await;
}

#[tokio::test]
async fn defaults_must_validate_against_their_node() {
    let server = server().await;
    // One default each: Go walks properties in random order.
    refused(
        &server,
        with_spec(json!({"count": {"type": "integer", "minimum": 1, "default": 0}})),
        &[(
            INVALID,
            &format!("{}.default", spec_field("count")),
            "Invalid value: 0:  in body should be greater than or equal to 1",
        )],
    )
    .await;
    refused(
        &server,
        with_spec(json!({"size": {"type": "integer", "default": "big"}})),
        &[(
            TYPE_INVALID,
            &format!("{}.default", spec_field("size")),
            r#"Invalid value: "string":  in body must be of type integer: "string""#,
        )],
    )
    .await;
    refused(
        &server,
        with_spec(json!({"opts": {
            "type": "object",
            "properties": {"a": {"type": "string"}},
            "default": {"a": "x", "b": 1},
        }})),
        &[(
            INVALID,
            &format!("{}.default", spec_field("opts")),
            r#"Invalid value: {"a":"x","b":1}: must not have unknown fields"#,
        )],
    )
    .await;
    refused(
        &server,
        with_spec(json!({"t": {
            "type": "object",
            "x-kubernetes-embedded-resource": true,
            "properties": {"metadata": {"type": "object", "properties": {
                "name": {"type": "string", "default": "a/b"},
            }}},
        }})),
        &[(
            INVALID,
            &format!("{}.properties[metadata].properties[name].default", spec_field("t")),
            r#"Invalid value: "a/b": must result in valid metadata: metadata.name: Invalid value: "a/b": may not contain '/'"#,
        )],
    )
    .await;
    accepted(
        &server,
        with_spec(json!({
            "size": {"type": "integer", "minimum": 1, "default": 3},
            "opts": {"type": "object", "properties": {"a": {"type": "string"}}, "default": {"a": "x"}},
        })),
    )
    .await;
}

#[tokio::test]
async fn structure_first_then_defaults_then_rules() {
    let server = server().await;
    let bad_rule = json!([{"rule": "1"}]);
    let rule_error = r#"Invalid value: apiextensions.ValidationRule{Rule:"1", Message:"", MessageExpression:"", Reason:(*apiextensions.FieldValueErrorReason)(nil), FieldPath:"", OptionalOldSelf:(*bool)(nil)}: cel expression must evaluate to a bool"#;
    // A structural error hides the bad default and the rule that does not compile.
    refused(
        &server,
        json!({"type": "object", "properties": {"spec": {
            "type": "object",
            "x-kubernetes-validations": bad_rule,
            "properties": {"a": {"minimum": 1}, "b": {"type": "integer", "default": "x"}},
        }}}),
        &[(
            REQUIRED,
            &format!("{}.type", spec_field("a")),
            "Required value: must not be empty for specified object fields",
        )],
    )
    .await;
    // A bad default hides the rule too.
    refused(
        &server,
        json!({"type": "object", "properties": {"spec": {
            "type": "object",
            "x-kubernetes-validations": bad_rule,
            "properties": {"b": {"type": "integer", "default": "x"}},
        }}}),
        &[(
            TYPE_INVALID,
            &format!("{}.default", spec_field("b")),
            r#"Invalid value: "string":  in body must be of type integer: "string""#,
        )],
    )
    .await;
    // An error of the walk skips the rules at its node and above, not elsewhere; the
    // rules' errors come after the walk's.
    refused(
        &server,
        json!({"type": "object", "x-kubernetes-validations": bad_rule, "properties": {
            "spec": {"type": "object", "x-kubernetes-validations": bad_rule, "properties": {
                "ports": {
                    "type": "array",
                    "x-kubernetes-list-type": "map",
                    "x-kubernetes-list-map-keys": ["name"],
                    "items": {"type": "object", "properties": {"name": {"type": "string"}}},
                },
            }},
            "status": {"type": "object", "x-kubernetes-validations": bad_rule},
        }}),
        &[
            (
                REQUIRED,
                &format!("{}.items.properties[name].default", spec_field("ports")),
                "Required value: this property is in x-kubernetes-list-map-keys, so it must have a default or be a required property",
            ),
            (
                INVALID,
                &format!("{ROOT}.properties[status].x-kubernetes-validations[0].rule"),
                rule_error,
            ),
        ],
    )
    .await;
}

#[tokio::test]
async fn keywords_a_structural_schema_cannot_have_are_refused() {
    let server = server().await;
    refused(
        &server,
        with_spec(json!({"l": {"type": "array", "items": [{"type": "string"}]}})),
        &[(
            FORBIDDEN,
            &format!("{}.items", spec_field("l")),
            "Forbidden: items must be a schema object and not an array",
        )],
    )
    .await;
    refused(
        &server,
        with_spec(json!({"r": {"type": "string", "$ref": "#/definitions/x"}})),
        &[(
            FORBIDDEN,
            &format!("{}.$ref", spec_field("r")),
            "Forbidden: $ref is not supported",
        )],
    )
    .await;
    refused(
        &server,
        with_spec(json!({"p": {"type": "object", "x-kubernetes-preserve-unknown-fields": false}})),
        &[(
            INVALID,
            &format!("{}.x-kubernetes-preserve-unknown-fields", spec_field("p")),
            "Invalid value: false: must be true or undefined",
        )],
    )
    .await;
}
