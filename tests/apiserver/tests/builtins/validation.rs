//! The `spec` validations controllers trip over, with kube-apiserver's exact answers.

use serde_json::{json, Value};

use crate::support::{invalid, post, put, server};

const INVALID: &str = "FieldValueInvalid";
const REQUIRED: &str = "FieldValueRequired";
const DUPLICATE: &str = "FieldValueDuplicate";
const NOT_SUPPORTED: &str = "FieldValueNotSupported";
const DEPLOYMENTS: &str = "/apis/apps/v1/namespaces/shop/deployments";
const LABEL: &str = "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')";

fn deployment(selector: Value, labels: Value) -> Value {
    json!({
        "metadata": {"name": "web"},
        "spec": {
            "selector": selector,
            "template": {
                "metadata": {"labels": labels},
                "spec": {"containers": [{"name": "web", "image": "nginx:1.27"}]},
            },
        },
    })
}

#[tokio::test]
async fn a_deployment_selector_must_match_its_template() {
    let server = server().await;
    let body = deployment(
        json!({"matchLabels": {"app": "web"}}),
        json!({"app": "api", "tier": "front"}),
    );
    let (code, got) = post(&server, DEPLOYMENTS, &body).await;
    let want = invalid(
        "Deployment",
        "apps",
        "web",
        &[(
            INVALID,
            "spec.template.metadata.labels",
            "Invalid value: map[string]string{\"app\":\"api\", \"tier\":\"front\"}: `selector` does not match template `labels`",
        )],
    );
    assert_eq!((code, got), (422, want));

    // apps/v1 has no selector defaulting: none is required, and matches nothing.
    let mut body = deployment(json!(null), json!({"app": "web"}));
    body["spec"].as_object_mut().map(|s| s.remove("selector"));
    body["spec"]["replicas"] = json!(-1);
    let (code, got) = post(&server, DEPLOYMENTS, &body).await;
    let want = invalid(
        "Deployment",
        "apps",
        "web",
        &[
            (INVALID, "spec.replicas", "Invalid value: -1: must be greater than or equal to 0"),
            (REQUIRED, "spec.selector", "Required value"),
            (
                INVALID,
                "spec.template.metadata.labels",
                "Invalid value: map[string]string{\"app\":\"web\"}: `selector` does not match template `labels`",
            ),
        ],
    );
    assert_eq!((code, got), (422, want));
}

#[tokio::test]
async fn a_deployment_selector_is_immutable() {
    let server = server().await;
    let body = deployment(
        json!({"matchLabels": {"app": "web"}}),
        json!({"app": "web"}),
    );
    let (code, created) = post(&server, DEPLOYMENTS, &body).await;
    assert_eq!(code, 201, "{created}");
    let moved = deployment(
        json!({"matchLabels": {"app": "web2"}}),
        json!({"app": "web2"}),
    );
    let (code, got) = put(&server, &format!("{DEPLOYMENTS}/web"), &moved).await;
    let want = invalid(
        "Deployment",
        "apps",
        "web",
        &[(
            INVALID,
            "spec.selector",
            "Invalid value: v1.LabelSelector{MatchLabels:map[string]string{\"app\":\"web2\"}, MatchExpressions:[]v1.LabelSelectorRequirement(nil)}: field is immutable",
        )],
    );
    assert_eq!((code, got), (422, want));
}

#[tokio::test]
async fn pods_need_containers_with_valid_names_images_and_ports() {
    let server = server().await;
    let pods = "/api/v1/namespaces/shop/pods";
    let (code, got) = post(
        &server,
        pods,
        &json!({"metadata": {"name": "p"}, "spec": {}}),
    )
    .await;
    assert_eq!(
        (code, got),
        (
            422,
            invalid(
                "Pod",
                "",
                "p",
                &[(REQUIRED, "spec.containers", "Required value")]
            )
        )
    );

    let body = json!({"metadata": {"name": "p"}, "spec": {"containers": [
        {"name": "Web_1", "image": "nginx", "ports": [{"containerPort": 70000}]},
        {"name": "side", "ports": [{"containerPort": 80, "protocol": "ICMP"}]},
        {"name": "side", "image": "busybox"},
    ]}});
    let (code, got) = post(&server, pods, &body).await;
    let want = invalid(
        "Pod",
        "",
        "p",
        &[
            (
                INVALID,
                "spec.containers[0].name",
                &format!("Invalid value: \"Web_1\": {LABEL}"),
            ),
            (
                INVALID,
                "spec.containers[0].ports[0].containerPort",
                "Invalid value: 70000: must be between 1 and 65535, inclusive",
            ),
            (REQUIRED, "spec.containers[1].image", "Required value"),
            (
                NOT_SUPPORTED,
                "spec.containers[1].ports[0].protocol",
                "Unsupported value: \"ICMP\": supported values: \"SCTP\", \"TCP\", \"UDP\"",
            ),
            (
                DUPLICATE,
                "spec.containers[2].name",
                "Duplicate value: \"side\"",
            ),
        ],
    );
    assert_eq!((code, got), (422, want));
}

#[tokio::test]
async fn a_job_template_must_not_restart_always() {
    let server = server().await;
    let body = json!({"metadata": {"name": "migrate"}, "spec": {"template": {"spec": {
        "containers": [{"name": "migrate", "image": "shop/migrate:1"}],
    }}}});
    let (code, got) = post(&server, "/apis/batch/v1/namespaces/shop/jobs", &body).await;
    let want = invalid(
        "Job",
        "batch",
        "migrate",
        &[(
            NOT_SUPPORTED,
            "spec.template.spec.restartPolicy",
            "Unsupported value: \"Always\": supported values: \"OnFailure\", \"Never\"",
        )],
    );
    assert_eq!((code, got), (422, want));
}

#[tokio::test]
async fn service_ports_need_unique_names_a_port_and_a_supported_protocol() {
    let server = server().await;
    let body = json!({"metadata": {"name": "web"}, "spec": {"ports": [
        {"port": 80},
        {"name": "http", "port": 0, "protocol": "HTTP"},
        {"name": "http", "port": 8080, "targetPort": 70000},
    ]}});
    let (code, got) = post(&server, "/api/v1/namespaces/shop/services", &body).await;
    let want = invalid(
        "Service",
        "",
        "web",
        &[
            (REQUIRED, "spec.ports[0].name", "Required value"),
            (
                INVALID,
                "spec.ports[1].port",
                "Invalid value: 0: must be between 1 and 65535, inclusive",
            ),
            (
                NOT_SUPPORTED,
                "spec.ports[1].protocol",
                "Unsupported value: \"HTTP\": supported values: \"SCTP\", \"TCP\", \"UDP\"",
            ),
            // The target port defaulted to the (invalid) port.
            (
                INVALID,
                "spec.ports[1].targetPort",
                "Invalid value: 0: must be between 1 and 65535, inclusive",
            ),
            (DUPLICATE, "spec.ports[2].name", "Duplicate value: \"http\""),
            (
                INVALID,
                "spec.ports[2].targetPort",
                "Invalid value: 70000: must be between 1 and 65535, inclusive",
            ),
        ],
    );
    assert_eq!((code, got), (422, want));
}
