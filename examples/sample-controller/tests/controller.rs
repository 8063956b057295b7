//! The sample controller against the test API server over loopback HTTP: 200 Foos
//! converge to 200 owned Deployments and Foo status follows Deployment status; spec changes
//! propagate; failing writes are retried with exponential backoff; a Deployment the Foo
//! does not control is never taken over; what another manager sets on a Foo's Deployment
//! survives the controller's applies.

mod support;

use std::collections::BTreeMap;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use kube_informers::api::{Api, Patch, PatchParams};
use kube_informers::k8s_openapi::api::apps::v1::Deployment;
use kube_informers::workqueue::{default_rate_limiter, MaxOfRateLimiter, RateLimiter};
use kube_informers::{ObjectRef, WorkQueue};
use sample_controller::{Foo, SampleController};
use serde_json::json;
use support::{
    available, client, create_foo, deployment, foo, replicas, server, Running, DEPLOYMENTS, FOOS,
};
use test_apiserver::{eventually, FaultTarget, RunningServer};

/// Runs a controller over `queue` against `server` until stopped.
fn start(server: &RunningServer, queue: WorkQueue<ObjectRef>) -> Running<()> {
    let controller = SampleController::with_queue(client(server), queue).workers(2);
    Running::start(|cancel| async move {
        controller
            .run(cancel)
            .await
            .expect("the controller runs until cancelled");
    })
}

fn foos(server: &RunningServer) -> Vec<Foo> {
    server
        .list(FOOS, None)
        .unwrap()
        .into_iter()
        .map(|v| serde_json::from_value(v).unwrap())
        .collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_hundred_foos_converge_to_owned_deployments_and_status_follows_them() {
    let server = server().await;
    for i in 0..200 {
        let ns = format!("ns-{}", i % 4);
        create_foo(
            &server,
            &ns,
            &format!("foo-{i}"),
            &format!("app-{i}"),
            i % 10 + 1,
        );
    }
    let running = start(&server, WorkQueue::new());

    eventually("200 Deployments and every Foo's status", || {
        server.count(DEPLOYMENTS) == 200 && foos(&server).iter().all(|f| available(f).is_some())
    })
    .await;
    for foo in foos(&server) {
        let ns = foo.metadata.namespace.clone().unwrap();
        let name = foo.metadata.name.clone().unwrap();
        let spec = foo.spec.clone().unwrap();
        let deployment_name = spec.deployment_name.unwrap();
        let d = deployment(&server, &ns, &deployment_name).expect("the Foo's Deployment");
        let owners = d.metadata.owner_references.clone().unwrap_or_default();
        assert_eq!(owners.len(), 1, "{ns}/{deployment_name}: {owners:?}");
        let owner = &owners[0];
        assert_eq!(owner.api_version, "samplecontroller.k8s.io/v1alpha1");
        assert_eq!(owner.kind, "Foo");
        assert_eq!(owner.name, name);
        assert_eq!(Some(&owner.uid), foo.metadata.uid.as_ref());
        assert_eq!(owner.controller, Some(true));
        assert_eq!(owner.block_owner_deletion, Some(true));
        assert_eq!(replicas(&d), spec.replicas, "{ns}/{deployment_name}");
        assert_eq!(d.metadata.namespace.as_deref(), Some(ns.as_str()));
        let template_labels = d.spec.template.metadata.as_ref().unwrap();
        assert_eq!(
            template_labels.labels,
            Some(BTreeMap::from([
                ("app".to_owned(), "nginx".to_owned()),
                ("controller".to_owned(), name.clone()),
            ]))
        );
        assert_eq!(
            available(&foo),
            Some(0),
            "no Deployment controller: 0 available"
        );
    }

    // Standing in for kube-controller-manager: every tenth Deployment becomes available.
    // Only Deployment events can tell the Foos (their own spec does not change), so this
    // exercises `enqueue_owner`.
    let ready: Vec<usize> = (0..200).step_by(10).collect();
    for &i in &ready {
        let ns = format!("ns-{}", i % 4);
        let n = i32::try_from(i % 10 + 1).unwrap();
        server
            .update_status(
                DEPLOYMENTS,
                Some(&ns),
                json!({"metadata": {"name": format!("app-{i}")}, "status": {"replicas": n, "availableReplicas": n}}),
            )
            .unwrap();
    }
    eventually("the owning Foos' status to follow", || {
        ready.iter().all(|&i| {
            let f = foo(&server, &format!("ns-{}", i % 4), &format!("foo-{i}"));
            available(&f) == f.spec.as_ref().and_then(|s| s.replicas)
        })
    })
    .await;
    let others = foos(&server)
        .iter()
        .filter(|f| available(f) != Some(0))
        .count();
    assert_eq!(
        others,
        ready.len(),
        "only the owners of the changed Deployments"
    );
    running.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_spec_change_scales_the_deployment_in_place() {
    let server = server().await;
    create_foo(&server, "shop", "web", "web", 2);
    let running = start(&server, WorkQueue::new());
    eventually("the Deployment", || {
        deployment(&server, "shop", "web").is_some_and(|d| replicas(&d) == Some(2))
    })
    .await;
    let uid = deployment(&server, "shop", "web").unwrap().metadata.uid;

    server
        .patch_merge(FOOS, Some("shop"), "web", json!({"spec": {"replicas": 5}}))
        .unwrap();
    eventually("the Deployment to follow the Foo", || {
        deployment(&server, "shop", "web").is_some_and(|d| replicas(&d) == Some(5))
    })
    .await;
    assert_eq!(
        deployment(&server, "shop", "web").unwrap().metadata.uid,
        uid,
        "updated, not recreated"
    );
    // Scaled by an apply of the controller's fields, never by replacing the Deployment.
    assert!(server.request_count("patch", DEPLOYMENTS) >= 2);
    assert_eq!(server.request_count("update", DEPLOYMENTS), 0);
    assert_eq!(server.request_count("delete", DEPLOYMENTS), 0);

    server
        .patch_merge(FOOS, Some("shop"), "web", json!({"spec": {"replicas": 1}}))
        .unwrap();
    eventually("scaling down too", || {
        deployment(&server, "shop", "web").is_some_and(|d| replicas(&d) == Some(1))
    })
    .await;
    running.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn what_another_manager_sets_on_the_deployment_survives_reconciles() {
    let server = server().await;
    create_foo(&server, "shop", "web", "web", 2);
    let running = start(&server, WorkQueue::new());
    eventually("the Deployment", || {
        deployment(&server, "shop", "web").is_some_and(|d| replicas(&d) == Some(2))
    })
    .await;

    // A sidecar injector adds its container and an annotation, by apply as its own manager.
    let deployments = Api::<Deployment>::namespaced(client(&server), "shop");
    let injected = json!({
        "apiVersion": "apps/v1",
        "kind": "Deployment",
        "metadata": {"name": "web", "annotations": {"sidecar/injected": "true"}},
        "spec": {"template": {"spec": {"containers": [{"name": "proxy", "image": "envoy:1"}]}}},
    });
    deployments
        .patch(
            "web",
            &Patch::Apply(&injected),
            &PatchParams::apply("sidecar-injector"),
        )
        .await
        .unwrap();
    // The user scales the Foo: the controller applies its fields again.
    server
        .patch_merge(FOOS, Some("shop"), "web", json!({"spec": {"replicas": 4}}))
        .unwrap();
    eventually("the Deployment to follow the Foo", || {
        deployment(&server, "shop", "web").is_some_and(|d| replicas(&d) == Some(4))
    })
    .await;

    let after = deployment(&server, "shop", "web").unwrap();
    let containers: Vec<(String, Option<String>)> = after
        .spec
        .template
        .spec
        .as_ref()
        .unwrap()
        .containers
        .iter()
        .map(|c| (c.name.clone(), c.image.clone()))
        .collect();
    assert_eq!(
        containers,
        [
            ("nginx".to_owned(), Some("nginx:latest".to_owned())),
            ("proxy".to_owned(), Some("envoy:1".to_owned()))
        ],
        "the controller's container and the injector's"
    );
    assert_eq!(
        after.metadata.annotations.unwrap()["sidecar/injected"],
        "true"
    );
    let managers: Vec<(String, String)> = after
        .metadata
        .managed_fields
        .unwrap()
        .into_iter()
        .map(|m| (m.manager.unwrap(), m.operation.unwrap()))
        .collect();
    assert!(
        managers.contains(&("sample-controller".to_owned(), "Apply".to_owned())),
        "{managers:?}"
    );
    assert!(
        managers.contains(&("sidecar-injector".to_owned(), "Apply".to_owned())),
        "{managers:?}"
    );
    running.stop().await;
}

/// client-go's default limiter, recording the delay it hands out for each retry.
struct Recording {
    inner: MaxOfRateLimiter<ObjectRef>,
    delays: Arc<Mutex<Vec<(ObjectRef, Duration)>>>,
}

impl RateLimiter<ObjectRef> for Recording {
    fn when(&self, item: &ObjectRef) -> Duration {
        let delay = self.inner.when(item);
        self.delays.lock().unwrap().push((item.clone(), delay));
        delay
    }

    fn forget(&self, item: &ObjectRef) {
        self.inner.forget(item);
    }

    fn num_requeues(&self, item: &ObjectRef) -> usize {
        self.inner.num_requeues(item)
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn failing_deployment_creates_are_retried_with_exponential_backoff() {
    let server = server().await;
    server
        .faults()
        .fail_next(3, 500, FaultTarget::resource(DEPLOYMENTS).verb("patch"));
    create_foo(&server, "shop", "flaky", "flaky", 1);
    let delays = Arc::new(Mutex::new(Vec::new()));
    let queue = WorkQueue::rate_limited(Recording {
        inner: default_rate_limiter(),
        delays: delays.clone(),
    });
    let running = start(&server, queue.clone());

    let key = ObjectRef::new("shop", "flaky");
    // The reconcile that succeeded has returned once the queue forgot the key's failures.
    eventually(
        "the Deployment, the Foo's status, and the failures forgotten",
        || {
            deployment(&server, "shop", "flaky").is_some()
                && available(&foo(&server, "shop", "flaky")).is_some()
                && queue.num_requeues(&key) == 0
        },
    )
    .await;
    // Created by apply: a PATCH that creates what does not exist.
    let applies = server
        .requests()
        .iter()
        .filter(|r| {
            r.method == "PATCH" && r.path == "/apis/apps/v1/namespaces/shop/deployments/flaky"
        })
        .count();
    assert_eq!(applies, 4, "three answered 500, the fourth created it");
    assert_eq!(server.count(DEPLOYMENTS), 1);
    // Each failure waited twice as long as the one before (client-go's 5 ms base), whatever
    // the machine's speed: these are the delays the queue was told to wait.
    let ms = Duration::from_millis;
    assert_eq!(
        *delays.lock().unwrap(),
        [
            (key.clone(), ms(5)),
            (key.clone(), ms(10)),
            (key.clone(), ms(20))
        ]
    );
    assert_eq!(queue.stats().retries, 3);
    running.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_foo_without_a_deployment_name_is_reported_not_retried() {
    let server = server().await;
    server
        .create(
            FOOS,
            Some("shop"),
            json!({"metadata": {"name": "nameless"}, "spec": {"replicas": 1}}),
        )
        .unwrap();
    let queue = WorkQueue::new();
    let running = start(&server, queue.clone());
    // Both Foos are queued at the initial sync; once the second converged, the first was
    // reconciled too (two workers, one pass each).
    create_foo(&server, "shop", "named", "named", 1);
    eventually("the named Foo to converge", || {
        available(&foo(&server, "shop", "named")).is_some() && queue.stats().in_flight == 0
    })
    .await;
    assert_eq!(
        queue.stats().retries,
        0,
        "waiting for a user's fix, not retrying"
    );
    assert_eq!(server.count(DEPLOYMENTS), 1);
    assert_eq!(available(&foo(&server, "shop", "nameless")), None);
    running.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_deployment_the_foo_does_not_control_is_not_taken_over() {
    let server = server().await;
    let theirs = server
        .create(
            DEPLOYMENTS,
            Some("shop"),
            json!({
                "apiVersion": "apps/v1",
                "kind": "Deployment",
                "metadata": {"name": "taken", "labels": {"app": "theirs"}},
                "spec": {
                    "replicas": 7,
                    "selector": {"matchLabels": {"app": "theirs"}},
                    "template": {
                        "metadata": {"labels": {"app": "theirs"}},
                        "spec": {"containers": [{"name": "app", "image": "nginx"}]},
                    },
                },
            }),
        )
        .unwrap();
    create_foo(&server, "shop", "greedy", "taken", 2);
    create_foo(&server, "shop", "fine", "fine", 1);
    let queue = WorkQueue::new();
    let running = start(&server, queue.clone());

    let greedy = ObjectRef::new("shop", "greedy");
    eventually("the other Foo converged and the greedy one retried", || {
        available(&foo(&server, "shop", "fine")).is_some() && queue.num_requeues(&greedy) >= 2
    })
    .await;
    let after = server.get(DEPLOYMENTS, Some("shop"), "taken").unwrap();
    assert_eq!(
        after, theirs,
        "not a field changed, not even the resourceVersion"
    );
    assert_eq!(server.request_count("update", DEPLOYMENTS), 0);
    assert!(
        !server
            .requests()
            .iter()
            .any(|r| r.method == "PATCH" && r.path.ends_with("/deployments/taken")),
        "never applied to"
    );
    assert_eq!(
        available(&foo(&server, "shop", "greedy")),
        None,
        "no status until the Foo controls its Deployment"
    );

    // Once the other owner's Deployment is gone, the Foo gets its own.
    server.delete(DEPLOYMENTS, Some("shop"), "taken").unwrap();
    eventually("the Foo's own Deployment", || {
        deployment(&server, "shop", "taken").is_some_and(|d| {
            d.metadata
                .owner_references
                .is_some_and(|o| o.iter().any(|r| r.name == "greedy"))
        })
    })
    .await;
    running.stop().await;
}
