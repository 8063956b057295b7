//! `x-kubernetes-validations` (CEL rules) over HTTP: rules compiled at CRD install (a
//! rule that does not compile is a 422 on the CRD), evaluated on every write with the
//! real server's causes: messages, `messageExpression`, `reason`, `fieldPath`,
//! transition rules (`oldSelf`, `optionalOldSelf`), macros and the Kubernetes library.

use serde_json::{json, Value};
use test_apiserver::{RunningServer, TestApiServer};

use crate::support::*;

/// A Widget CRD whose schema carries rules of every kind.
fn cel_crd() -> Value {
    json!({
        "apiVersion": "apiextensions.k8s.io/v1",
        "kind": "CustomResourceDefinition",
        "metadata": {"name": "widgets.example.com"},
        "spec": {
            "group": "example.com",
            "scope": "Namespaced",
            "names": {"plural": "widgets", "singular": "widget", "kind": "Widget", "listKind": "WidgetList"},
            "versions": [{
                "name": "v1", "served": true, "storage": true,
                "schema": {"openAPIV3Schema": {"type": "object", "properties": {
                    "spec": {
                        "type": "object",
                        "x-kubernetes-validations": [
                            {"rule": "self.minReplicas <= self.replicas", "message": "replicas must be at least minReplicas"},
                            {"rule": "self.name.startsWith('w')", "messageExpression": "'name ' + self.name + ' must start with w'"},
                            {"rule": "!has(self.forbidden)", "reason": "FieldValueForbidden", "fieldPath": ".forbidden", "message": "forbidden is not allowed"},
                            {"rule": "self.tags.all(t, t == t.lowerAscii())"},
                        ],
                        "properties": {
                            "name": {"type": "string", "x-kubernetes-validations": [
                                {"rule": "self == oldSelf", "message": "name is immutable"},
                            ]},
                            "replicas": {"type": "integer", "default": 1},
                            "minReplicas": {"type": "integer", "default": 0},
                            "forbidden": {"type": "string"},
                            "namespace": {"type": "string", "x-kubernetes-validations": [
                                {"rule": "self != 'kube-system'", "reason": "FieldValueRequired", "message": "a namespace other than kube-system is required"},
                            ]},
                            "tags": {"type": "array", "default": [], "maxItems": 16, "items": {"type": "string", "maxLength": 63},
                                "x-kubernetes-validations": [
                                    {"rule": "self.filter(t, t == 'primary').size() <= 1", "reason": "FieldValueDuplicate"},
                                ]},
                            "memory": {"type": "string", "x-kubernetes-validations": [
                                {"rule": "isQuantity(self) && quantity(self).isLessThan(quantity('1Gi'))", "message": "memory must be below 1Gi"},
                            ]},
                            "counter": {"type": "integer", "x-kubernetes-validations": [
                                {"rule": "oldSelf.hasValue() ? self >= oldSelf.value() : self == 0", "optionalOldSelf": true, "message": "counter starts at 0 and never decreases"},
                            ]},
                            "ports": {"type": "array", "x-kubernetes-list-type": "map", "x-kubernetes-list-map-keys": ["name"],
                                "items": {"type": "object", "required": ["name"], "properties": {
                                    "name": {"type": "string"},
                                    "number": {"type": "integer", "x-kubernetes-validations": [
                                        {"rule": "self > 0 && self < 65536", "message": "must be a port number"},
                                    ]},
                                }}},
                            "limits": {"type": "object", "additionalProperties": {"type": "integer"},
                                "x-kubernetes-validations": [
                                    {"rule": "self.all(k, self[k] >= 0)", "message": "limits must not be negative"},
                                ]},
                            "when": {"type": "string", "format": "date-time", "x-kubernetes-validations": [
                                {"rule": "self > timestamp('2000-01-01T00:00:00Z')", "message": "must be in this millennium"},
                            ]},
                            "site": {"type": "string", "x-kubernetes-validations": [
                                {"rule": "isURL(self) && url(self).getScheme() == 'https'", "message": "must be an https URL"},
                            ]},
                        },
                    },
                }}},
            }],
        },
    })
}

async fn cel_server() -> RunningServer {
    TestApiServer::builder()
        .crd(cel_crd().to_string())
        .start()
        .await
        .expect("server starts")
}

/// A spec that passes every rule, with `extra` merged in.
fn spec(extra: Value) -> Value {
    let mut s = json!({"name": "wheel", "replicas": 2, "minReplicas": 1});
    for (k, v) in extra.as_object().expect("object") {
        s[k] = v.clone();
    }
    s
}

async fn rejected(server: &RunningServer, spec: Value, causes: &[(&str, &str, &str)]) {
    let answer = post(server, WIDGETS, &widget("w", spec.clone())).await;
    assert_eq!(answer.code, 422, "{spec} was accepted: {}", answer.body);
    assert_eq!(answer.body, widget_invalid("w", causes), "for {spec}");
}

#[tokio::test]
async fn objects_that_pass_every_rule_are_stored() {
    let server = cel_server().await;
    let made = post(
        &server,
        WIDGETS,
        &widget(
            "w",
            spec(json!({
                "tags": ["a", "primary"], "memory": "512Mi", "counter": 0,
                "ports": [{"name": "http", "number": 80}], "limits": {"cpu": 2},
                "when": "2024-05-01T10:00:00Z", "site": "https://example.com/x",
                "namespace": "default",
            })),
        ),
    )
    .await;
    assert_eq!(made.code, 201, "{}", made.body);
}

#[tokio::test]
async fn a_false_rule_reports_its_message_with_scalar_values_only() {
    let server = cel_server().await;
    rejected(
        &server,
        spec(json!({"replicas": 1, "minReplicas": 3})),
        &[(
            "FieldValueInvalid",
            "spec",
            "Invalid value: replicas must be at least minReplicas",
        )],
    )
    .await;
    rejected(
        &server,
        spec(json!({"ports": [{"name": "http", "number": 70000}]})),
        &[(
            "FieldValueInvalid",
            "spec.ports[0].number",
            "Invalid value: 70000: must be a port number",
        )],
    )
    .await;
    rejected(
        &server,
        spec(json!({"limits": {"cpu": -1}})),
        &[(
            "FieldValueInvalid",
            "spec.limits",
            "Invalid value: limits must not be negative",
        )],
    )
    .await;
}

#[tokio::test]
async fn message_expression_default_message_reason_and_field_path() {
    let server = cel_server().await;
    rejected(
        &server,
        spec(json!({"name": "gear"})),
        &[(
            "FieldValueInvalid",
            "spec",
            "Invalid value: name gear must start with w",
        )],
    )
    .await;
    rejected(
        &server,
        spec(json!({"tags": ["Loud"]})),
        &[(
            "FieldValueInvalid",
            "spec",
            "Invalid value: failed rule: self.tags.all(t, t == t.lowerAscii())",
        )],
    )
    .await;
    rejected(
        &server,
        spec(json!({"forbidden": "x"})),
        &[(
            "FieldValueForbidden",
            "spec.forbidden",
            "Forbidden: forbidden is not allowed",
        )],
    )
    .await;
    rejected(
        &server,
        spec(json!({"namespace": "kube-system"})),
        &[(
            "FieldValueRequired",
            "spec.namespace",
            "Required value: a namespace other than kube-system is required",
        )],
    )
    .await;
    rejected(
        &server,
        spec(json!({"tags": ["primary", "primary"]})),
        &[("FieldValueDuplicate", "spec.tags", "Duplicate value")],
    )
    .await;
}

#[tokio::test]
async fn the_kubernetes_library_quantity_url_and_timestamps() {
    let server = cel_server().await;
    rejected(
        &server,
        spec(json!({"memory": "2Gi"})),
        &[(
            "FieldValueInvalid",
            "spec.memory",
            r#"Invalid value: "2Gi": memory must be below 1Gi"#,
        )],
    )
    .await;
    rejected(
        &server,
        spec(json!({"memory": "lots"})),
        &[(
            "FieldValueInvalid",
            "spec.memory",
            r#"Invalid value: "lots": memory must be below 1Gi"#,
        )],
    )
    .await;
    rejected(
        &server,
        spec(json!({"site": "http://example.com"})),
        &[(
            "FieldValueInvalid",
            "spec.site",
            r#"Invalid value: "http://example.com": must be an https URL"#,
        )],
    )
    .await;
    rejected(
        &server,
        spec(json!({"when": "1999-12-31T23:59:59Z"})),
        &[(
            "FieldValueInvalid",
            "spec.when",
            r#"Invalid value: "1999-12-31T23:59:59Z": must be in this millennium"#,
        )],
    )
    .await;
}

#[tokio::test]
async fn transition_rules_see_the_old_value_on_update_only() {
    let server = cel_server().await;
    let made = post(&server, WIDGETS, &widget("w", spec(json!({"counter": 0})))).await;
    assert_eq!(made.code, 201, "{}", made.body);
    let renamed = merge_patch(
        &server,
        &format!("{WIDGETS}/w"),
        &json!({"spec": {"name": "wagon"}}),
    )
    .await;
    assert_eq!(renamed.code, 422, "{}", renamed.body);
    assert_eq!(
        renamed.body,
        widget_invalid(
            "w",
            &[(
                "FieldValueInvalid",
                "spec.name",
                r#"Invalid value: "wagon": name is immutable"#
            )]
        )
    );
    let up = merge_patch(
        &server,
        &format!("{WIDGETS}/w"),
        &json!({"spec": {"counter": 5}}),
    )
    .await;
    assert_eq!(up.code, 200, "{}", up.body);
    let down = merge_patch(
        &server,
        &format!("{WIDGETS}/w"),
        &json!({"spec": {"counter": 4}}),
    )
    .await;
    assert_eq!(
        down.body,
        widget_invalid(
            "w",
            &[(
                "FieldValueInvalid",
                "spec.counter",
                "Invalid value: 4: counter starts at 0 and never decreases"
            )]
        )
    );
}

#[tokio::test]
async fn optional_old_self_rules_run_on_create_with_no_old_value() {
    let server = cel_server().await;
    rejected(
        &server,
        spec(json!({"counter": 3})),
        &[(
            "FieldValueInvalid",
            "spec.counter",
            "Invalid value: 3: counter starts at 0 and never decreases",
        )],
    )
    .await;
}

#[tokio::test]
async fn changed_values_are_checked_again_on_update() {
    let server = cel_server().await;
    let made = post(&server, WIDGETS, &widget("w", spec(json!({})))).await;
    assert_eq!(made.code, 201, "{}", made.body);
    let mut stored = made.body;
    stored["spec"]["minReplicas"] = json!(9);
    stored["spec"]["replicas"] = json!(1);
    let bad = put(&server, &format!("{WIDGETS}/w"), &stored).await;
    assert_eq!(bad.code, 422, "{}", bad.body);
    stored["spec"]["minReplicas"] = json!(1);
    let fine = put(&server, &format!("{WIDGETS}/w"), &stored).await;
    assert_eq!(fine.code, 200, "{}", fine.body);
}

#[tokio::test]
async fn failures_of_unchanged_values_are_ratcheted_but_not_of_changed_ones() {
    let mut crd = cel_crd();
    let memory = "/spec/versions/0/schema/openAPIV3Schema/properties/spec/properties/memory";
    let rules = crd
        .pointer_mut(memory)
        .and_then(|m| m.as_object_mut())
        .and_then(|m| m.remove("x-kubernetes-validations"))
        .expect("the memory rule");
    let server = TestApiServer::builder()
        .crd(crd.to_string())
        .start()
        .await
        .expect("server");
    let made = post(
        &server,
        WIDGETS,
        &widget("w", spec(json!({"memory": "2Gi"}))),
    )
    .await;
    assert_eq!(made.code, 201, "{}", made.body);
    let mut installed = get(&server, &format!("{CRDS}/widgets.example.com"))
        .await
        .body;
    installed
        .pointer_mut(memory)
        .and_then(|m| m.as_object_mut())
        .expect("memory")
        .insert("x-kubernetes-validations".to_owned(), rules);
    let updated = put(&server, &format!("{CRDS}/widgets.example.com"), &installed).await;
    assert_eq!(updated.code, 200, "{}", updated.body);
    let other = merge_patch(
        &server,
        &format!("{WIDGETS}/w"),
        &json!({"spec": {"replicas": 3}}),
    )
    .await;
    assert_eq!(other.code, 200, "{}", other.body);
    let changed = merge_patch(
        &server,
        &format!("{WIDGETS}/w"),
        &json!({"spec": {"memory": "3Gi"}}),
    )
    .await;
    assert_eq!(
        changed.body,
        widget_invalid(
            "w",
            &[(
                "FieldValueInvalid",
                "spec.memory",
                r#"Invalid value: "3Gi": memory must be below 1Gi"#
            )]
        )
    );
}

#[tokio::test]
async fn a_rule_that_loops_too_much_exceeds_the_call_cost_limit() {
    let mut crd = cel_crd();
    crd["spec"]["versions"][0]["schema"]["openAPIV3Schema"]["properties"]["spec"]["properties"]
        ["items"] = json!({
        "type": "array", "maxItems": 100, "items": {"type": "string", "maxLength": 8},
        "x-kubernetes-validations": [
            {"rule": "self.all(a, self.all(b, self.all(c, c != '')))"},
            {"rule": "self.size() < 50", "message": "never reached"},
        ],
    });
    let server = TestApiServer::builder()
        .crd(crd.to_string())
        .start()
        .await
        .expect("server");
    let few: Vec<String> = (0..10).map(|i| format!("i{i}")).collect();
    let made = post(
        &server,
        WIDGETS,
        &widget("few", spec(json!({"items": few}))),
    )
    .await;
    assert_eq!(made.code, 201, "{}", made.body);
    let many: Vec<String> = (0..100).map(|i| format!("i{i}")).collect();
    let answer = post(&server, WIDGETS, &widget("w", spec(json!({"items": many})))).await;
    assert_eq!(
        answer.body,
        widget_invalid(
            "w",
            &[(
                "FieldValueInvalid",
                "spec.items",
                r#"Invalid value: "array": 'operation cancelled: actual cost limit exceeded': no further validation rules will be run due to call cost exceeds limit for rule: self.all(a, self.all(b, self.all(c, c != '')))"#
            )]
        )
    );
}

#[tokio::test]
async fn evaluation_errors_and_blocking_schema_errors() {
    let server = cel_server().await;
    rejected(
        &server,
        json!({"replicas": 2, "minReplicas": 1}),
        &[(
            "FieldValueInvalid",
            "spec",
            r#"Invalid value: "object": no such key: name evaluating rule: self.name.startsWith('w')"#,
        )],
    )
    .await;
    rejected(
        &server,
        spec(json!({"replicas": "two"})),
        &[
            (
                "FieldValueTypeInvalid",
                "spec.replicas",
                r#"Invalid value: "string": spec.replicas in body must be of type integer: "string""#,
            ),
            (
                "FieldValueInvalid",
                "<nil>",
                r#"Invalid value: "null": some validation rules were not checked because the object was invalid; correct the existing errors to complete validation"#,
            ),
        ],
    )
    .await;
}

#[tokio::test]
async fn a_rule_that_does_not_compile_makes_the_crd_invalid() {
    let server = TestApiServer::builder().start().await.expect("server");
    let mut crd = cel_crd();
    crd["spec"]["versions"][0]["schema"]["openAPIV3Schema"]["properties"]["spec"]
        ["x-kubernetes-validations"] = json!([{"rule": "self.replicas >"}]);
    let answer = post(&server, CRDS, &crd).await;
    assert_eq!(answer.code, 422, "{}", answer.body);
    let cause = &answer.body["details"]["causes"][0];
    assert_eq!(
        cause["field"],
        "spec.validation.openAPIV3Schema.properties[spec].x-kubernetes-validations[0].rule"
    );
    let message = cause["message"].as_str().expect("message");
    assert!(
        message.starts_with(
            r#"Invalid value: apiextensions.ValidationRule{Rule:"self.replicas >", Message:"", MessageExpression:"", Reason:(*apiextensions.FieldValueErrorReason)(nil), FieldPath:"", OptionalOldSelf:(*bool)(nil)}: compilation failed: ERROR: <input>:1:16: Syntax error: "#
        ),
        "{message}"
    );
    assert!(
        message.ends_with("\n | self.replicas >\n | ...............^"),
        "{message}"
    );
    assert_eq!(get(&server, "/apis/example.com/v1").await.code, 404);
}

fn corpus_crd(file: &str) -> Value {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../../shared/crds")
        .join(file);
    let text = std::fs::read_to_string(&path).expect("a CRD of the shared corpus");
    serde_yaml_ng::from_str(&text).expect("YAML")
}

/// One real CRD with rules: objects (`spec`s) that satisfy them and are stored, and
/// one that breaks a rule, with the cause the real server gives.
struct Case {
    file: &'static str,
    version: &'static str,
    valid: Vec<Value>,
    broken: Value,
    cause: (&'static str, &'static str, &'static str),
}

fn corpus_cases() -> Vec<Case> {
    vec![
        Case {
            file: "gateway-api__gateways.gateway.networking.k8s.io.yaml",
            version: "v1",
            valid: vec![json!({
                "gatewayClassName": "eg",
                "listeners": [
                    {"name": "http", "port": 80, "protocol": "HTTP", "hostname": "*.example.com"},
                    {"name": "https", "port": 443, "protocol": "HTTPS", "hostname": "example.com",
                     "tls": {"mode": "Terminate", "certificateRefs": [{"name": "cert"}]}},
                    {"name": "tcp", "port": 9000, "protocol": "TCP"},
                ],
                "addresses": [{"type": "IPAddress", "value": "10.0.0.1"}, {"type": "Hostname", "value": "gw.example.com"}],
                "infrastructure": {"labels": {"example.com/team": "a"}, "annotations": {"note": "x"}},
            })],
            broken: json!({
                "gatewayClassName": "eg",
                "listeners": [{"name": "tcp", "port": 9000, "protocol": "TCP", "hostname": "example.com"}],
            }),
            cause: (
                "FieldValueInvalid",
                "spec.listeners",
                r#"Invalid value: hostname must not be specified for protocols ['TCP', 'UDP']"#,
            ),
        },
        Case {
            file: "gateway-api__httproutes.gateway.networking.k8s.io.yaml",
            version: "v1",
            valid: vec![
                json!({}),
                json!({
                    "parentRefs": [
                        {"name": "gw", "namespace": "infra", "sectionName": "http"},
                        {"name": "gw", "namespace": "infra", "sectionName": "https"},
                    ],
                    "hostnames": ["example.com"],
                    "rules": [
                        {
                            "matches": [{"path": {"type": "PathPrefix", "value": "/api"}, "headers": [{"name": "x-env", "value": "prod"}]}],
                            "filters": [{"type": "RequestHeaderModifier", "requestHeaderModifier": {"add": [{"name": "x-a", "value": "1"}]}},
                                        {"type": "URLRewrite", "urlRewrite": {"path": {"type": "ReplacePrefixMatch", "replacePrefixMatch": "/v2"}}}],
                            "backendRefs": [{"name": "api", "port": 8080, "weight": 1}],
                            "timeouts": {"request": "10s", "backendRequest": "5s"},
                        },
                        {"matches": [{"path": {"type": "Exact", "value": "/healthz"}}],
                         "filters": [{"type": "RequestRedirect", "requestRedirect": {"scheme": "https", "statusCode": 301}}]},
                    ],
                }),
            ],
            broken: json!({
                "rules": [{
                    "matches": [{"path": {"type": "PathPrefix", "value": "/"}}],
                    "backendRefs": [{"name": "api", "port": 8080}],
                    "timeouts": {"request": "1s", "backendRequest": "5s"},
                }],
            }),
            cause: (
                "FieldValueInvalid",
                "spec.rules[0].timeouts",
                r#"Invalid value: backendRequest timeout cannot be longer than request timeout"#,
            ),
        },
        Case {
            file: "crossplane__compositeresourcedefinitions.apiextensions.crossplane.io.yaml",
            version: "v1",
            valid: vec![json!({
                "group": "example.org",
                "names": {"kind": "XDatabase", "plural": "xdatabases"},
                "claimNames": {"kind": "Database", "plural": "databases"},
                "versions": [{"name": "v1", "served": true, "referenceable": true,
                              "schema": {"openAPIV3Schema": {"type": "object"}}}],
            })],
            broken: json!({
                "group": "example.org",
                "names": {"kind": "XDatabase", "plural": "XDatabases"},
                "versions": [{"name": "v1", "served": true, "referenceable": true}],
            }),
            cause: (
                "FieldValueInvalid",
                "spec.names",
                r#"Invalid value: Plural name must be lowercase"#,
            ),
        },
        Case {
            file: "crossplane__compositions.apiextensions.crossplane.io.yaml",
            version: "v1",
            valid: vec![json!({
                "compositeTypeRef": {"apiVersion": "example.org/v1", "kind": "XDatabase"},
                "mode": "Pipeline",
                "pipeline": [{"step": "render", "functionRef": {"name": "fn"},
                              "credentials": [{"name": "c", "source": "Secret", "secretRef": {"namespace": "ns", "name": "s"}}]}],
            })],
            broken: json!({
                "compositeTypeRef": {"apiVersion": "example.org/v1", "kind": "XDatabase"},
                "mode": "Pipeline",
            }),
            cause: (
                "FieldValueInvalid",
                "spec",
                r#"Invalid value: an array of pipeline steps is required in Pipeline mode"#,
            ),
        },
        Case {
            file: "cert-manager__issuers.cert-manager.io.yaml",
            version: "v1",
            valid: vec![
                json!({"selfSigned": {}}),
                json!({"venafi": {"zone": "z", "cloud": {"apiTokenSecretRef": {"name": "t"}}}}),
            ],
            broken: json!({"venafi": {"zone": "z"}}),
            cause: (
                "FieldValueInvalid",
                "spec.venafi",
                r#"Invalid value: exactly one of tpp, cloud, or ngts must be configured"#,
            ),
        },
        Case {
            file: "keda__scaledobjects.keda.sh.yaml",
            version: "v1alpha1",
            valid: vec![json!({
                "scaleTargetRef": {"name": "app"}, "minReplicaCount": 1, "maxReplicaCount": 5,
                "triggers": [{"type": "cpu", "metadata": {"value": "50"}}],
            })],
            broken: json!({
                "scaleTargetRef": {"name": "app"}, "minReplicaCount": 7, "maxReplicaCount": 5,
                "triggers": [{"type": "cpu", "metadata": {"value": "50"}}],
            }),
            cause: (
                "FieldValueInvalid",
                "spec",
                r#"Invalid value: minReplicaCount must be less than or equal to maxReplicaCount"#,
            ),
        },
        Case {
            file: "prometheus-operator__prometheuses.monitoring.coreos.com.yaml",
            version: "v1",
            valid: vec![
                json!({"replicas": 2, "updateStrategy": {"type": "RollingUpdate", "rollingUpdate": {}}}),
            ],
            broken: json!({"updateStrategy": {"type": "OnDelete", "rollingUpdate": {}}}),
            cause: (
                "FieldValueInvalid",
                "spec.updateStrategy",
                r#"Invalid value: rollingUpdate requires type to be RollingUpdate"#,
            ),
        },
    ]
}

#[tokio::test]
async fn real_crds_with_rules_accept_valid_objects_and_refuse_broken_ones() {
    for case in corpus_cases() {
        let crd = corpus_crd(case.file);
        let server = TestApiServer::builder().start().await.expect("server");
        let installed = post(&server, CRDS, &crd).await;
        assert_eq!(installed.code, 201, "{}: {}", case.file, installed.body);
        let group = crd["spec"]["group"].as_str().expect("group");
        let kind = crd["spec"]["names"]["kind"].as_str().expect("kind");
        let plural = crd["spec"]["names"]["plural"].as_str().expect("plural");
        let path = if crd["spec"]["scope"] == "Namespaced" {
            format!("/apis/{group}/{}/namespaces/default/{plural}", case.version)
        } else {
            format!("/apis/{group}/{}/{plural}", case.version)
        };
        let object = |name: &str, spec: &Value| {
            json!({"apiVersion": format!("{group}/{}", case.version), "kind": kind,
                   "metadata": {"name": name}, "spec": spec})
        };
        for (i, spec) in case.valid.iter().enumerate() {
            let made = post(&server, &path, &object(&format!("ok{i}"), spec)).await;
            assert_eq!(
                made.code, 201,
                "{}: {spec} refused: {}",
                case.file, made.body
            );
        }
        let refused = post(&server, &path, &object("broken", &case.broken)).await;
        assert_eq!(refused.code, 422, "{}: {}", case.file, refused.body);
        assert_eq!(
            refused.body,
            invalid(kind, group, "broken", &[case.cause]),
            "{}",
            case.file
        );
    }
}

#[tokio::test]
async fn a_rule_reading_an_undeclared_name_makes_the_crd_invalid() {
    let server = TestApiServer::builder().start().await.expect("server");
    let mut crd = cel_crd();
    crd["spec"]["versions"][0]["schema"]["openAPIV3Schema"]["properties"]["spec"]
        ["x-kubernetes-validations"] =
        json!([{"rule": "self.replicas > 0 && replicas < 9", "message": "m"}]);
    let answer = post(&server, CRDS, &crd).await;
    assert_eq!(
        answer.body,
        invalid(
            "CustomResourceDefinition",
            "apiextensions.k8s.io",
            "widgets.example.com",
            &[(
                "FieldValueInvalid",
                "spec.validation.openAPIV3Schema.properties[spec].x-kubernetes-validations[0].rule",
                "Invalid value: apiextensions.ValidationRule{Rule:\"self.replicas > 0 && replicas < 9\", Message:\"m\", MessageExpression:\"\", Reason:(*apiextensions.FieldValueErrorReason)(nil), FieldPath:\"\", OptionalOldSelf:(*bool)(nil)}: compilation failed: ERROR: <input>:1:22: undeclared reference to 'replicas' (in container '')\n | self.replicas > 0 && replicas < 9\n | .....................^",
            )]
        )
    );
}

#[tokio::test]
async fn a_rule_selecting_a_field_the_schema_does_not_declare_makes_the_crd_invalid() {
    let server = TestApiServer::builder().start().await.expect("server");
    let mut crd = cel_crd();
    crd["spec"]["versions"][0]["schema"]["openAPIV3Schema"]["properties"]["spec"]
        ["x-kubernetes-validations"] =
        json!([{"rule": "self.replica > 0 && self.metadata.name != ''"}]);
    let answer = post(&server, CRDS, &crd).await;
    assert_eq!(
        answer.body,
        invalid(
            "CustomResourceDefinition",
            "apiextensions.k8s.io",
            "widgets.example.com",
            &[(
                "FieldValueInvalid",
                "spec.validation.openAPIV3Schema.properties[spec].x-kubernetes-validations[0].rule",
                "Invalid value: apiextensions.ValidationRule{Rule:\"self.replica > 0 && self.metadata.name != ''\", Message:\"\", MessageExpression:\"\", Reason:(*apiextensions.FieldValueErrorReason)(nil), FieldPath:\"\", OptionalOldSelf:(*bool)(nil)}: compilation failed: ERROR: <input>:1:5: undefined field 'replica'\n | self.replica > 0 && self.metadata.name != ''\n | ....^\nERROR: <input>:1:25: undefined field 'metadata'\n | self.replica > 0 && self.metadata.name != ''\n | ........................^",
            )],
        )
    );
}

/// A CRD whose rules use the Kubernetes `ip`, `cidr` and `format` libraries.
fn net_crd() -> Value {
    json!({
        "apiVersion": "apiextensions.k8s.io/v1",
        "kind": "CustomResourceDefinition",
        "metadata": {"name": "nets.example.com"},
        "spec": {
            "group": "example.com",
            "scope": "Namespaced",
            "names": {"plural": "nets", "singular": "net", "kind": "Net", "listKind": "NetList"},
            "versions": [{
                "name": "v1", "served": true, "storage": true,
                "schema": {"openAPIV3Schema": {"type": "object", "properties": {
                    "spec": {"type": "object", "properties": {
                        "gateway": {"type": "string", "x-kubernetes-validations": [
                            {"rule": "isIP(self) && ip(self).family() == 4 && !ip(self).isLoopback()", "message": "must be a non-loopback IPv4 address"},
                            {"rule": "ip(self).isGlobalUnicast()"},
                        ]},
                        "subnet": {"type": "string", "x-kubernetes-validations": [
                            {"rule": "string(cidr(self).masked()) == self", "message": "must be a network address"},
                            {"rule": "cidr('10.0.0.0/8').containsCIDR(self)", "message": "must be inside 10.0.0.0/8"},
                        ]},
                        "host": {"type": "string", "maxLength": 63, "x-kubernetes-validations": [
                            {"rule": "!format.dns1123Label().validate(self).hasValue()",
                             "messageExpression": "format.dns1123Label().validate(self).value()[0]"},
                            {"rule": "!format.named('labelValue').value().validate(self).hasValue()", "message": "must be a label value"},
                        ]},
                    }},
                }}},
            }],
        },
    })
}

#[tokio::test]
async fn the_ip_cidr_and_format_libraries_with_their_errors() {
    let server = TestApiServer::builder()
        .crd(net_crd().to_string())
        .start()
        .await
        .expect("server starts");
    let nets = "/apis/example.com/v1/namespaces/default/nets";
    let net = |spec: Value| json!({"apiVersion": "example.com/v1", "kind": "Net", "metadata": {"name": "n"}, "spec": spec});
    let made = post(
        &server,
        nets,
        &net(json!({"gateway": "10.1.2.3", "subnet": "10.1.0.0/16", "host": "edge-1"})),
    )
    .await;
    assert_eq!(made.code, 201, "{}", made.body);
    let refused = |spec: Value, causes: Vec<(&'static str, &'static str, String)>| {
        let server = &server;
        async move {
            let answer = post(server, nets, &net(spec.clone())).await;
            let causes: Vec<(&str, &str, &str)> = causes
                .iter()
                .map(|(r, f, m)| (*r, *f, m.as_str()))
                .collect();
            assert_eq!(
                (answer.code, answer.body),
                (422, invalid("Net", "example.com", "n", &causes)),
                "for {spec}"
            );
        }
    };
    refused(
        json!({"gateway": "127.0.0.1"}),
        vec![
            (
                "FieldValueInvalid",
                "spec.gateway",
                r#"Invalid value: "127.0.0.1": must be a non-loopback IPv4 address"#.to_owned(),
            ),
            (
                "FieldValueInvalid",
                "spec.gateway",
                r#"Invalid value: "127.0.0.1": failed rule: ip(self).isGlobalUnicast()"#.to_owned(),
            ),
        ],
    )
    .await;
    refused(
        json!({"gateway": "10.0.0.01"}),
        vec![(
            "FieldValueInvalid",
            "spec.gateway",
            r#"Invalid value: "10.0.0.01": must be a non-loopback IPv4 address"#.to_owned(),
        ), (
            "FieldValueInvalid",
            "spec.gateway",
            r#"Invalid value: "string": IP Address "10.0.0.01" parse error during conversion from string: ParseAddr("10.0.0.01"): IPv4 field has octet with leading zero evaluating rule: ip(self).isGlobalUnicast()"#.to_owned(),
        )],
    )
    .await;
    refused(
        json!({"subnet": "10.1.2.3/16"}),
        vec![(
            "FieldValueInvalid",
            "spec.subnet",
            r#"Invalid value: "10.1.2.3/16": must be a network address"#.to_owned(),
        )],
    )
    .await;
    refused(
        json!({"subnet": "192.168.0.0/16"}),
        vec![(
            "FieldValueInvalid",
            "spec.subnet",
            r#"Invalid value: "192.168.0.0/16": must be inside 10.0.0.0/8"#.to_owned(),
        )],
    )
    .await;
    refused(
        json!({"subnet": "10.0.0.0"}),
        vec![(
            "FieldValueInvalid",
            "spec.subnet",
            r#"Invalid value: "string": network address parse error during conversion from string: network address parse error during conversion from string: netip.ParsePrefix("10.0.0.0"): no '/' evaluating rule: must be a network address"#.to_owned(),
        ), (
            "FieldValueInvalid",
            "spec.subnet",
            r#"Invalid value: "string": network address parse error during conversion from string: network address parse error during conversion from string: netip.ParsePrefix("10.0.0.0"): no '/' evaluating rule: must be inside 10.0.0.0/8"#.to_owned(),
        )],
    )
    .await;
    refused(
        json!({"host": "Edge_1"}),
        vec![(
            "FieldValueInvalid",
            "spec.host",
            r#"Invalid value: "Edge_1": a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')"#.to_owned(),
        )],
    )
    .await;
    refused(
        json!({"host": "-"}),
        vec![(
            "FieldValueInvalid",
            "spec.host",
            r#"Invalid value: "-": a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')"#.to_owned(),
        ), (
            "FieldValueInvalid",
            "spec.host",
            r#"Invalid value: "-": must be a label value"#.to_owned(),
        )],
    )
    .await;
}

/// The causes of the 422 a `cel_crd` answers with `rules` on its `spec` and `extra`
/// properties added to the spec's schema: (field, message) pairs.
async fn crd_causes(rules: Value, extra: Value) -> Vec<(String, String)> {
    let server = TestApiServer::builder().start().await.expect("server");
    let mut crd = cel_crd();
    let spec = &mut crd["spec"]["versions"][0]["schema"]["openAPIV3Schema"]["properties"]["spec"];
    spec["x-kubernetes-validations"] = rules;
    for (k, v) in extra.as_object().expect("object") {
        spec["properties"][k] = v.clone();
    }
    let answer = post(&server, CRDS, &crd).await;
    assert_eq!(answer.code, 422, "{}", answer.body);
    answer.body["details"]["causes"]
        .as_array()
        .expect("causes")
        .iter()
        .map(|c| {
            let text = |k: &str| c[k].as_str().unwrap_or_default().to_owned();
            (text("field"), text("message"))
        })
        .collect()
}

const SPEC_RULE: &str =
    "spec.validation.openAPIV3Schema.properties[spec].x-kubernetes-validations[0]";

#[tokio::test]
async fn a_rule_with_a_type_error_makes_the_crd_invalid() {
    let causes = crd_causes(json!([{"rule": "self.replicas > 'a'"}]), json!({})).await;
    assert_eq!(
        causes,
        [(
            format!("{SPEC_RULE}.rule"),
            "Invalid value: apiextensions.ValidationRule{Rule:\"self.replicas > 'a'\", Message:\"\", MessageExpression:\"\", Reason:(*apiextensions.FieldValueErrorReason)(nil), FieldPath:\"\", OptionalOldSelf:(*bool)(nil)}: compilation failed: ERROR: <input>:1:15: found no matching overload for '_>_' applied to '(int, string)'\n | self.replicas > 'a'\n | ..............^".to_owned()
        )]
    );
    let causes = crd_causes(
        json!([{"rule": "self.name.exists(c, c == 'a') || self.name.frobnicate()"}]),
        json!({}),
    )
    .await;
    let message = &causes[0].1;
    assert!(
        message.contains("ERROR: <input>:1:5: expression of type 'string' cannot be range of a comprehension (must be list, map, or dynamic)")
            && message.contains("undeclared reference to 'frobnicate' (in container '')"),
        "{message}"
    );
}

#[tokio::test]
async fn a_rule_must_be_bool_and_a_message_expression_a_string() {
    let causes = crd_causes(
        json!([{"rule": "self.replicas + 1"}, {"rule": "self.replicas > 0", "messageExpression": "self.replicas"}]),
        json!({}),
    )
    .await;
    assert_eq!(
        causes,
        [
            (
                format!("{SPEC_RULE}.rule"),
                "Invalid value: apiextensions.ValidationRule{Rule:\"self.replicas + 1\", Message:\"\", MessageExpression:\"\", Reason:(*apiextensions.FieldValueErrorReason)(nil), FieldPath:\"\", OptionalOldSelf:(*bool)(nil)}: cel expression must evaluate to a bool".to_owned()
            ),
            (
                "spec.validation.openAPIV3Schema.properties[spec].x-kubernetes-validations[1].messageExpression".to_owned(),
                "Invalid value: apiextensions.ValidationRule{Rule:\"self.replicas > 0\", Message:\"\", MessageExpression:\"self.replicas\", Reason:(*apiextensions.FieldValueErrorReason)(nil), FieldPath:\"\", OptionalOldSelf:(*bool)(nil)}: messageExpression must evaluate to a string".to_owned()
            ),
        ]
    );
}

#[tokio::test]
async fn old_self_is_refused_below_a_list_whose_items_do_not_correlate() {
    let causes = crd_causes(
        json!([{"rule": "self.replicas >= 0"}]),
        json!({"steps": {"type": "array", "maxItems": 4, "items": {"type": "object", "properties": {
            "name": {"type": "string", "maxLength": 10, "x-kubernetes-validations": [{"rule": "self == oldSelf"}]},
        }}}}),
    )
    .await;
    assert_eq!(
        causes,
        [(
            "spec.validation.openAPIV3Schema.properties[spec].properties[steps].items.properties[name].x-kubernetes-validations[0].rule".to_owned(),
            "Invalid value: \"self == oldSelf\": oldSelf cannot be used on the uncorrelatable portion of the schema within spec.validation.openAPIV3Schema.properties[spec].properties[steps]".to_owned()
        )]
    );
}

#[tokio::test]
async fn a_rule_too_expensive_for_its_schema_bounds_makes_the_crd_invalid() {
    let unbounded = json!({"names": {"type": "array", "items": {"type": "string"}}});
    let causes = crd_causes(
        json!([{"rule": "self.names.all(n, n.contains('x'))"}]),
        unbounded,
    )
    .await;
    let contributed = "Forbidden: contributed to estimated rule cost total exceeding cost limit for entire OpenAPIv3 schema";
    let hint = "(try simplifying the rule, or adding maxItems, maxProperties, and maxLength where arrays, maps, and strings are declared)";
    assert_eq!(
        causes,
        [
            (
                format!("{SPEC_RULE}.rule"),
                format!("Forbidden: estimated rule cost exceeds budget by factor of more than 100x {hint}")
            ),
            (format!("{SPEC_RULE}.rule"), contributed.to_owned()),
            // Unbounded lists and maps make rules that cost little per run count: the
            // port and limit rules may run once per request byte or so.
            (
                "spec.validation.openAPIV3Schema.properties[spec].properties[ports].items.properties[number].x-kubernetes-validations[0].rule".to_owned(),
                contributed.to_owned()
            ),
            (
                "spec.validation.openAPIV3Schema.properties[spec].properties[limits].x-kubernetes-validations[0].rule".to_owned(),
                contributed.to_owned()
            ),
            (
                "spec.validation.openAPIV3Schema".to_owned(),
                format!("Forbidden: x-kubernetes-validations estimated rule cost total for entire OpenAPIv3 schema exceeds budget by factor of more than 100x {hint}")
            ),
        ]
    );

    let server = TestApiServer::builder().start().await.expect("server");
    let mut crd = cel_crd();
    let spec = &mut crd["spec"]["versions"][0]["schema"]["openAPIV3Schema"]["properties"]["spec"];
    spec["x-kubernetes-validations"] = json!([{"rule": "self.names.all(n, n.contains('x'))"}]);
    spec["properties"]["names"] =
        json!({"type": "array", "maxItems": 10, "items": {"type": "string", "maxLength": 20}});
    let answer = post(&server, CRDS, &crd).await;
    assert_eq!(
        answer.code, 201,
        "bounded, the same rule is cheap: {}",
        answer.body
    );
}

#[tokio::test]
async fn a_default_must_pass_the_rules_of_its_node() {
    let causes = crd_causes(
        json!([{"rule": "self.replicas >= 0"}]),
        json!({"level": {"type": "integer", "default": 0, "x-kubernetes-validations": [
            {"rule": "self >= 1", "message": "levels start at 1"},
        ]}}),
    )
    .await;
    assert_eq!(
        causes,
        [(
            "spec.validation.openAPIV3Schema.properties[spec].properties[level].default".to_owned(),
            "Invalid value: 0: levels start at 1".to_owned()
        )]
    );
    let server = TestApiServer::builder().start().await.expect("server");
    let mut crd = cel_crd();
    crd["spec"]["versions"][0]["schema"]["openAPIV3Schema"]["properties"]["spec"]["properties"]
        ["level"] = json!({"type": "integer", "default": 1, "x-kubernetes-validations": [
        {"rule": "self >= 1", "message": "levels start at 1"},
        {"rule": "self >= oldSelf", "message": "levels never go down"},
    ]});
    let answer = post(&server, CRDS, &crd).await;
    assert_eq!(
        answer.code, 201,
        "a default that passes installs: {}",
        answer.body
    );
}
