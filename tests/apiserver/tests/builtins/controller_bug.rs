//! The reconcile that never converges: a controller that compares the object it wants
//! with the object the server stored sees a difference on every pass, because the
//! server added defaults the controller did not set, and writes again, forever.
//! Against a server that stores objects as sent, the same controller looks correct.

use serde_json::{json, Value};

use crate::support::{get, post, put, server};

const DEPLOYMENT: &str = "/apis/apps/v1/namespaces/shop/deployments/web";

/// What the controller builds on each pass.
fn desired() -> Value {
    json!({
        "apiVersion": "apps/v1",
        "kind": "Deployment",
        "metadata": {"name": "web", "namespace": "shop"},
        "spec": {
            "replicas": 2,
            "selector": {"matchLabels": {"app": "web"}},
            "template": {
                "metadata": {"labels": {"app": "web"}},
                "spec": {"containers": [{"name": "web", "image": "nginx:1.27"}]},
            },
        },
    })
}

/// The naive check: "update when the stored spec is not the one I want".
fn naive_needs_update(stored: &Value) -> bool {
    stored["spec"] != desired()["spec"]
}

/// A correct check: only the fields the controller owns.
fn needs_update(stored: &Value) -> bool {
    let want = desired();
    stored["spec"]["replicas"] != want["spec"]["replicas"]
        || stored["spec"]["selector"] != want["spec"]["selector"]
        || stored["spec"]["template"]["metadata"]["labels"]
            != want["spec"]["template"]["metadata"]["labels"]
        || stored["spec"]["template"]["spec"]["containers"][0]["image"]
            != want["spec"]["template"]["spec"]["containers"][0]["image"]
}

#[tokio::test]
async fn a_naive_desired_versus_stored_comparison_never_converges() {
    let server = server().await;
    let (code, created) = post(
        &server,
        "/apis/apps/v1/namespaces/shop/deployments",
        &desired(),
    )
    .await;
    assert_eq!(code, 201, "{created}");
    let mut updates = 0;
    for _ in 0..3 {
        let (_, stored) = get(&server, DEPLOYMENT).await;
        if naive_needs_update(&stored) {
            let (code, _) = put(&server, DEPLOYMENT, &desired()).await;
            assert_eq!(code, 200);
            updates += 1;
        }
    }
    // Every pass "fixed" the Deployment, and it still differs: the loop is endless.
    assert_eq!(updates, 3);
    let (_, stored) = get(&server, DEPLOYMENT).await;
    assert!(naive_needs_update(&stored));
    assert_eq!(stored["spec"]["strategy"]["type"], "RollingUpdate");
    // The writes changed nothing the server keeps (same generation), which is why the
    // difference never goes away. Comparing only what the controller owns converges.
    assert_eq!(stored["metadata"]["generation"], 1);
    assert!(!needs_update(&stored));
}
