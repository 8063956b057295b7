//! What kube-apiserver adds to built-in objects on create and update.

use serde_json::{json, Value};

use crate::support::{
    defaulted_container, defaulted_pod_spec, get, post, put, server, with_server_fields,
};

const DEPLOYMENTS: &str = "/apis/apps/v1/namespaces/shop/deployments";

fn minimal_deployment() -> Value {
    json!({
        "apiVersion": "apps/v1",
        "kind": "Deployment",
        "metadata": {"name": "web"},
        "spec": {
            "selector": {"matchLabels": {"app": "web"}},
            "template": {
                "metadata": {"labels": {"app": "web"}},
                "spec": {"containers": [{"name": "web", "image": "nginx:1.27"}]},
            },
        },
    })
}

#[tokio::test]
async fn a_minimal_deployment_reads_back_with_every_default() {
    let server = server().await;
    let (code, created) = post(&server, DEPLOYMENTS, &minimal_deployment()).await;
    assert_eq!(code, 201, "{created}");
    let (code, stored) = get(&server, &format!("{DEPLOYMENTS}/web")).await;
    assert_eq!(code, 200);
    assert_eq!(created, stored);
    let want = json!({
        "apiVersion": "apps/v1",
        "kind": "Deployment",
        "metadata": {"name": "web", "namespace": "shop", "generation": 1},
        "spec": {
            "replicas": 1,
            "selector": {"matchLabels": {"app": "web"}},
            "template": {
                "metadata": {"labels": {"app": "web"}},
                "spec": defaulted_pod_spec(json!([defaulted_container("web", "nginx:1.27")]), "Always"),
            },
            "strategy": {"type": "RollingUpdate", "rollingUpdate": {"maxUnavailable": "25%", "maxSurge": "25%"}},
            "revisionHistoryLimit": 10,
            "progressDeadlineSeconds": 600,
        },
        "status": {},
    });
    assert_eq!(stored, with_server_fields(want, &stored));
}

#[tokio::test]
async fn an_update_is_defaulted_too_so_leaving_defaults_out_changes_nothing() {
    let server = server().await;
    let (code, created) = post(&server, DEPLOYMENTS, &minimal_deployment()).await;
    assert_eq!(code, 201, "{created}");
    // The controller's own object again, without what the server added: after decoding
    // it equals the stored one, so nothing is written (no new resourceVersion or
    // generation), exactly as kube-apiserver answers such a PUT.
    let mut again = minimal_deployment();
    again["metadata"]["resourceVersion"] = created["metadata"]["resourceVersion"].clone();
    let (code, updated) = put(&server, &format!("{DEPLOYMENTS}/web"), &again).await;
    assert_eq!(code, 200, "{updated}");
    assert_eq!(updated, created);
    // A real change is defaulted as well: the new container gets its defaults.
    again["spec"]["template"]["spec"]["containers"] = json!([{"name": "web", "image": "nginx"}]);
    let (code, updated) = put(&server, &format!("{DEPLOYMENTS}/web"), &again).await;
    assert_eq!(code, 200, "{updated}");
    assert_eq!(updated["metadata"]["generation"], 2);
    let mut latest = defaulted_container("web", "nginx");
    latest["imagePullPolicy"] = json!("Always");
    assert_eq!(
        updated["spec"]["template"]["spec"]["containers"],
        json!([latest])
    );
    assert_eq!(updated["spec"]["strategy"], created["spec"]["strategy"]);
}

#[tokio::test]
async fn a_pod_gets_the_decoder_defaults_and_the_default_admission_plugins() {
    let server = server().await;
    let pod = json!({
        "metadata": {"name": "web-0"},
        "spec": {
            "containers": [{
                "name": "web",
                "image": "nginx",
                "ports": [{"containerPort": 80}],
                "env": [{"name": "POD", "valueFrom": {"fieldRef": {"fieldPath": "metadata.name"}}}],
                "resources": {"limits": {"cpu": "1"}},
                "livenessProbe": {"httpGet": {"port": 80}},
                "volumeMounts": [{"name": "config", "mountPath": "/etc/web"}],
            }],
            "volumes": [{"name": "config", "configMap": {"name": "web"}}, {"name": "scratch"}],
        },
    });
    let (code, stored) = post(&server, "/api/v1/namespaces/shop/pods", &pod).await;
    assert_eq!(code, 201, "{stored}");
    let token_volume = stored["spec"]["volumes"][2]["name"]
        .as_str()
        .expect("a token volume")
        .to_owned();
    let suffix = token_volume
        .strip_prefix("kube-api-access-")
        .expect("kube-api-access-xxxxx");
    assert!(
        suffix.len() == 5
            && suffix
                .bytes()
                .all(|b| b"bcdfghjklmnpqrstvwxz2456789".contains(&b)),
        "{token_volume}"
    );
    let want = json!({
        "apiVersion": "v1",
        "kind": "Pod",
        "metadata": {"name": "web-0", "namespace": "shop", "generation": 1},
        "spec": {
            "containers": [{
                "name": "web",
                "image": "nginx",
                "ports": [{"containerPort": 80, "protocol": "TCP"}],
                "env": [{"name": "POD", "valueFrom": {"fieldRef": {"apiVersion": "v1", "fieldPath": "metadata.name"}}}],
                "resources": {"limits": {"cpu": "1"}, "requests": {"cpu": "1"}},
                "livenessProbe": {
                    "httpGet": {"port": 80, "path": "/", "scheme": "HTTP"},
                    "timeoutSeconds": 1, "periodSeconds": 10, "successThreshold": 1, "failureThreshold": 3,
                },
                "volumeMounts": [
                    {"name": "config", "mountPath": "/etc/web"},
                    {"name": token_volume, "readOnly": true, "mountPath": "/var/run/secrets/kubernetes.io/serviceaccount"},
                ],
                "terminationMessagePath": "/dev/termination-log",
                "terminationMessagePolicy": "File",
                "imagePullPolicy": "Always",
            }],
            "volumes": [
                {"name": "config", "configMap": {"name": "web", "defaultMode": 420}},
                {"name": "scratch", "emptyDir": {}},
                {"name": token_volume, "projected": {"defaultMode": 420, "sources": [
                    {"serviceAccountToken": {"expirationSeconds": 3607, "path": "token"}},
                    {"configMap": {"name": "kube-root-ca.crt", "items": [{"key": "ca.crt", "path": "ca.crt"}]}},
                    {"downwardAPI": {"items": [{"path": "namespace", "fieldRef": {"apiVersion": "v1", "fieldPath": "metadata.namespace"}}]}},
                ]}},
            ],
            "restartPolicy": "Always",
            "terminationGracePeriodSeconds": 30,
            "dnsPolicy": "ClusterFirst",
            "serviceAccountName": "default",
            "serviceAccount": "default",
            "securityContext": {},
            "schedulerName": "default-scheduler",
            "tolerations": [
                {"key": "node.kubernetes.io/not-ready", "operator": "Exists", "effect": "NoExecute", "tolerationSeconds": 300},
                {"key": "node.kubernetes.io/unreachable", "operator": "Exists", "effect": "NoExecute", "tolerationSeconds": 300},
            ],
            "priority": 0,
            "enableServiceLinks": true,
            "preemptionPolicy": "PreemptLowerPriority",
        },
        "status": {"phase": "Pending", "qosClass": "Burstable"},
    });
    assert_eq!(stored, with_server_fields(want, &stored));
}

#[tokio::test]
async fn a_job_gets_its_generated_selector_and_labels() {
    let server = server().await;
    let job = json!({
        "metadata": {"name": "migrate"},
        "spec": {"template": {
            "metadata": {"labels": {"app": "shop"}},
            "spec": {"restartPolicy": "Never", "containers": [{"name": "migrate", "image": "shop/migrate:1"}]},
        }},
    });
    let (code, stored) = post(&server, "/apis/batch/v1/namespaces/shop/jobs", &job).await;
    assert_eq!(code, 201, "{stored}");
    let uid = stored["metadata"]["uid"].as_str().expect("uid").to_owned();
    // The template's labels became the Job's (the same map in Go), so the generated
    // ones show on both.
    let labels = json!({
        "app": "shop",
        "batch.kubernetes.io/controller-uid": uid,
        "batch.kubernetes.io/job-name": "migrate",
        "controller-uid": uid,
        "job-name": "migrate",
    });
    let want = json!({
        "apiVersion": "batch/v1",
        "kind": "Job",
        "metadata": {"name": "migrate", "namespace": "shop", "generation": 1, "labels": labels},
        "spec": {
            "parallelism": 1,
            "completions": 1,
            "backoffLimit": 6,
            "selector": {"matchLabels": {"batch.kubernetes.io/controller-uid": uid}},
            "manualSelector": false,
            "template": {
                "metadata": {"labels": labels},
                "spec": defaulted_pod_spec(json!([defaulted_container("migrate", "shop/migrate:1")]), "Never"),
            },
            "completionMode": "NonIndexed",
            "suspend": false,
            "podReplacementPolicy": "TerminatingOrFailed",
        },
        "status": {},
    });
    assert_eq!(stored, with_server_fields(want, &stored));
}

#[tokio::test]
async fn other_workloads_get_their_defaults() {
    let server = server().await;
    let template = json!({
        "metadata": {"labels": {"app": "db"}},
        "spec": {"containers": [{"name": "db", "image": "postgres:17"}]},
    });
    let defaulted_template = json!({
        "metadata": {"labels": {"app": "db"}},
        "spec": defaulted_pod_spec(json!([defaulted_container("db", "postgres:17")]), "Always"),
    });
    let selector = json!({"matchLabels": {"app": "db"}});
    let cases = [
        (
            "/apis/apps/v1/namespaces/shop/statefulsets",
            json!({"metadata": {"name": "db"}, "spec": {"serviceName": "db", "selector": selector, "template": template}}),
            json!({
                "serviceName": "db",
                "selector": selector,
                "template": defaulted_template,
                "replicas": 1,
                "podManagementPolicy": "OrderedReady",
                "updateStrategy": {"type": "RollingUpdate", "rollingUpdate": {"partition": 0, "maxUnavailable": 1}},
                "revisionHistoryLimit": 10,
                "persistentVolumeClaimRetentionPolicy": {"whenDeleted": "Retain", "whenScaled": "Retain"},
            }),
        ),
        (
            "/apis/apps/v1/namespaces/shop/daemonsets",
            json!({"metadata": {"name": "db"}, "spec": {"selector": selector, "template": template}}),
            json!({
                "selector": selector,
                "template": defaulted_template,
                "updateStrategy": {"type": "RollingUpdate", "rollingUpdate": {"maxUnavailable": 1, "maxSurge": 0}},
                "revisionHistoryLimit": 10,
            }),
        ),
        (
            "/apis/apps/v1/namespaces/shop/replicasets",
            json!({"metadata": {"name": "db"}, "spec": {"selector": selector, "template": template}}),
            json!({"replicas": 1, "selector": selector, "template": defaulted_template}),
        ),
        (
            "/api/v1/namespaces/shop/replicationcontrollers",
            json!({"metadata": {"name": "db"}, "spec": {"template": template}}),
            json!({"replicas": 1, "selector": {"app": "db"}, "template": defaulted_template}),
        ),
    ];
    for (path, body, want) in cases {
        let (code, stored) = post(&server, path, &body).await;
        assert_eq!(code, 201, "{path}: {stored}");
        assert_eq!(stored["spec"], want, "{path}");
    }
    let cron = json!({"metadata": {"name": "nightly"}, "spec": {
        "schedule": "0 3 * * *",
        "jobTemplate": {"spec": {"template": {"spec": {"restartPolicy": "OnFailure", "containers": [{"name": "db", "image": "postgres:17"}]}}}},
    }});
    let (code, stored) = post(&server, "/apis/batch/v1/namespaces/shop/cronjobs", &cron).await;
    assert_eq!(code, 201, "{stored}");
    assert_eq!(
        stored["spec"],
        json!({
            "schedule": "0 3 * * *",
            "concurrencyPolicy": "Allow",
            "suspend": false,
            "successfulJobsHistoryLimit": 3,
            "failedJobsHistoryLimit": 1,
            "jobTemplate": {"metadata": {}, "spec": {"template": {
                "metadata": {},
                "spec": defaulted_pod_spec(json!([defaulted_container("db", "postgres:17")]), "OnFailure"),
            }}},
        })
    );
    // A ReplicationController's labels come from its template too.
    let (_, rc) = get(&server, "/api/v1/namespaces/shop/replicationcontrollers/db").await;
    assert_eq!(rc["metadata"]["labels"], json!({"app": "db"}));
}
