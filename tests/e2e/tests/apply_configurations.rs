//! Typed server-side apply end to end (#30 items 4 and 5): the generated apply
//! configurations (`informers::apply`) sent through the generated clientset's
//! `apply`/`apply_status` to the test API server, which tracks field ownership as
//! kube-apiserver does, and `extract_<kind>` reading back what a manager owns.

use std::collections::BTreeMap;

use informer_runtime::api::{Patch, PatchParams, PostParams};
use informer_runtime::apply::ApplyParams;
use informer_runtime::client::Config;
use informer_runtime::Client;
use informers::apply::api::apps::v1::{
    extract_deployment, extract_deployment_status, DeploymentApply, DeploymentConditionApply,
    DeploymentSpecApply, DeploymentStatusApply,
};
use informers::apply::api::core::v1::{
    extract_config_map, ConfigMapApply, ContainerApply, ContainerPortApply, EnvVarApply,
    PodSpecApply, PodTemplateSpecApply,
};
use informers::apply::apimachinery::pkg::apis::meta::v1::LabelSelectorApply;
use informers::Clientset;
use k8s_openapi::api::apps::v1::Deployment;
use proptest::prelude::*;
use serde_json::json;
use test_apiserver::{RunningServer, TestApiServer};

const NS: &str = "shop";

async fn server() -> RunningServer {
    TestApiServer::builder()
        .seed_namespaces(0)
        .namespaces([NS])
        .start()
        .await
        .unwrap()
}

fn clientset(server: &RunningServer) -> Clientset {
    Clientset::new(Client::new(Config::new(server.url())).unwrap())
}

fn container(name: &str, image: &str) -> ContainerApply {
    ContainerApply::new().name(name).image(image)
}

/// A Deployment configuration of `name` running `containers`, labelled `app=<name>`.
fn web(name: &str, replicas: i32, containers: Vec<ContainerApply>) -> DeploymentApply {
    DeploymentApply::new(name, NS).spec(
        DeploymentSpecApply::new()
            .replicas(replicas)
            .selector(LabelSelectorApply::new().match_labels([("app", name)]))
            .template(
                PodTemplateSpecApply::new()
                    .metadata(
                        informer_runtime::apply::ObjectMetaApply::new().labels([("app", name)]),
                    )
                    .spec(PodSpecApply::new().containers(containers)),
            ),
    )
}

#[test]
fn a_configuration_serialises_only_what_was_set() {
    let config = DeploymentApply::new("web", NS)
        .labels([("tier", "web")])
        .spec(DeploymentSpecApply::new().replicas(3));
    assert_eq!(
        serde_json::to_value(&config).unwrap(),
        json!({
            "apiVersion": "apps/v1",
            "kind": "Deployment",
            "metadata": {"name": "web", "namespace": NS, "labels": {"tier": "web"}},
            "spec": {"replicas": 3},
        })
    );
}

#[tokio::test]
async fn apply_claims_exactly_the_fields_set_and_leaves_the_rest() {
    let server = server().await;
    let deployments = clientset(&server).apps().v1().deployments(NS);
    // Another manager created the Deployment with its container.
    deployments
        .apply(
            "web",
            &web("web", 1, vec![container("app", "app:1")]),
            &ApplyParams::new("creator"),
        )
        .await
        .unwrap();
    // A scaler sets the replicas and nothing else: a k8s-openapi `Deployment` would send
    // an empty container list and take it over.
    let scaled = deployments
        .apply(
            "web",
            &DeploymentApply::new("web", NS).spec(DeploymentSpecApply::new().replicas(5)),
            &ApplyParams::new("scaler").force(),
        )
        .await
        .unwrap();
    let spec = &scaled.spec;
    assert_eq!(spec.replicas, Some(5));
    let containers = &spec.template.spec.as_ref().unwrap().containers;
    assert_eq!(containers.len(), 1);
    assert_eq!(containers[0].image.as_deref(), Some("app:1"));
    let scaler = extract_deployment(&scaled, "scaler").unwrap();
    assert_eq!(
        scaler,
        DeploymentApply::new("web", NS).spec(DeploymentSpecApply::new().replicas(5))
    );
    // The creator no longer owns the replicas: force moved them.
    let creator = extract_deployment(&scaled, "creator").unwrap();
    assert_eq!(creator.spec.as_ref().unwrap().replicas, None);
    assert_eq!(
        creator
            .spec
            .unwrap()
            .template
            .unwrap()
            .spec
            .unwrap()
            .containers,
        Some(vec![container("app", "app:1")])
    );
}

#[tokio::test]
async fn a_different_value_conflicts_until_forced() {
    let server = server().await;
    let config_maps = clientset(&server).core().v1().config_maps(NS);
    config_maps
        .apply(
            "settings",
            &ConfigMapApply::new("settings", NS).data([("mode", "fast")]),
            &ApplyParams::new("mgr-1"),
        )
        .await
        .unwrap();
    let theirs = ConfigMapApply::new("settings", NS).data([("mode", "slow")]);
    let err = config_maps
        .apply("settings", &theirs, &ApplyParams::new("mgr-2"))
        .await
        .unwrap_err();
    assert!(err.is_conflict(), "{err}");
    let message = err.api().map(|e| e.message.clone()).unwrap_or_default();
    assert!(
        message.contains(r#"conflict with "mgr-1": .data.mode"#),
        "{message}"
    );
    // Dry run applies nothing even when forced.
    config_maps
        .apply(
            "settings",
            &theirs,
            &ApplyParams::new("mgr-2").force().dry_run(),
        )
        .await
        .unwrap();
    let stored = config_maps.get("settings").await.unwrap();
    assert_eq!(stored.data.unwrap()["mode"], "fast");
    let forced = config_maps
        .apply("settings", &theirs, &ApplyParams::new("mgr-2").force())
        .await
        .unwrap();
    assert_eq!(extract_config_map(&forced, "mgr-2").unwrap(), theirs);
    assert_eq!(
        extract_config_map(&forced, "mgr-1").unwrap(),
        ConfigMapApply::new("settings", NS),
        "mgr-1 lost its only field"
    );
}

#[tokio::test]
async fn fields_a_manager_stops_applying_go_but_a_foreign_field_stays() {
    let server = server().await;
    let deployments = clientset(&server).apps().v1().deployments(NS);
    let both = vec![container("app", "app:1"), container("proxy", "proxy:1")];
    deployments
        .apply("web", &web("web", 2, both), &ApplyParams::new("ctl"))
        .await
        .unwrap();
    // Someone else annotates it by hand (an Update manager).
    deployments
        .patch(
            "web",
            &Patch::Merge(json!({"metadata": {"annotations": {"owner": "team-a"}}})),
            &PatchParams::default().field_manager("kubectl-annotate"),
        )
        .await
        .unwrap();
    // The controller drops the proxy and applies again.
    let after = deployments
        .apply(
            "web",
            &web("web", 2, vec![container("app", "app:2")]),
            &ApplyParams::new("ctl"),
        )
        .await
        .unwrap();
    let containers = &after.spec.template.spec.as_ref().unwrap().containers;
    let names: Vec<&str> = containers.iter().map(|c| c.name.as_str()).collect();
    assert_eq!(names, ["app"]);
    assert_eq!(containers[0].image.as_deref(), Some("app:2"));
    assert_eq!(
        after.metadata.annotations.as_ref().unwrap()["owner"],
        "team-a",
        "a field the controller never applied survives its apply"
    );
    assert_eq!(
        extract_deployment(&after, "ctl").unwrap(),
        web("web", 2, vec![container("app", "app:2")])
    );
}

#[tokio::test]
async fn status_is_applied_and_extracted_through_its_subresource() {
    let server = server().await;
    let deployments = clientset(&server).apps().v1().deployments(NS);
    deployments
        .apply(
            "web",
            &web("web", 1, vec![container("app", "app:1")]),
            &ApplyParams::new("ctl"),
        )
        .await
        .unwrap();
    let status = DeploymentApply::new("web", NS).status(
        DeploymentStatusApply::new()
            .observed_generation(1)
            .conditions([DeploymentConditionApply::new()
                .type_("Available")
                .status("True")
                .reason("MinimumReplicasAvailable")]),
    );
    let applied = deployments
        .apply_status("web", &status, &ApplyParams::new("deployment-controller"))
        .await
        .unwrap();
    assert_eq!(
        extract_deployment_status(&applied, "deployment-controller").unwrap(),
        status
    );
    // The status entry is the status subresource's, not the object's.
    assert_eq!(
        extract_deployment(&applied, "deployment-controller").unwrap(),
        DeploymentApply::new("web", NS)
    );
    // An apply of the object ignores the status it carries, as kube-apiserver does.
    let ignored = deployments
        .apply(
            "web",
            &web("web", 1, vec![container("app", "app:1")])
                .status(DeploymentStatusApply::new().observed_generation(9)),
            &ApplyParams::new("ctl"),
        )
        .await
        .unwrap();
    assert_eq!(ignored.status.unwrap().observed_generation, Some(1));
}

#[tokio::test]
async fn extract_of_a_manager_that_never_applied_names_only_the_object() {
    let server = server().await;
    let deployments = clientset(&server).apps().v1().deployments(NS);
    let created = deployments
        .create(
            &serde_json::from_value::<Deployment>(
                serde_json::to_value(web("web", 1, vec![container("app", "app:1")])).unwrap(),
            )
            .unwrap(),
            &PostParams::default().field_manager("creator"),
        )
        .await
        .unwrap();
    // `creator` is an Update manager: an apply configuration is only what was applied.
    assert_eq!(
        extract_deployment(&created, "creator").unwrap(),
        DeploymentApply::new("web", NS)
    );
}

/// A random Deployment configuration: the fields a controller sets, each maybe.
fn deployment_config() -> impl Strategy<Value = DeploymentApply> {
    let env = ("[A-Z]{1,4}", "[a-z0-9]{1,6}")
        .prop_map(|(name, value)| EnvVarApply::new().name(name).value(value));
    let port = (1..65535i32).prop_map(|p| ContainerPortApply::new().container_port(p));
    let container = (
        "[a-z]{1,6}",
        "[a-z]{1,6}:[0-9]",
        proptest::collection::vec(env, 0..3),
        proptest::collection::vec(port, 0..3),
    )
        .prop_map(|(name, image, env, ports)| {
            let mut c = ContainerApply::new().name(name).image(image);
            if !env.is_empty() {
                c = c.env(dedup_by(env, |e| e.name.clone()));
            }
            if !ports.is_empty() {
                c = c.ports(dedup_by(ports, |p| p.container_port));
            }
            c
        });
    (
        proptest::option::of(0..10i32),
        proptest::collection::btree_map("[a-z]{1,5}", "[a-z0-9]{0,5}", 0..3),
        proptest::collection::vec(container, 1..3),
    )
        .prop_map(|(replicas, labels, containers)| {
            let mut spec = DeploymentSpecApply::new()
                .selector(LabelSelectorApply::new().match_labels([("app", "web")]))
                .template(
                    PodTemplateSpecApply::new()
                        .metadata(
                            informer_runtime::apply::ObjectMetaApply::new()
                                .labels([("app", "web")]),
                        )
                        .spec(
                            PodSpecApply::new()
                                .containers(dedup_by(containers, |c| c.name.clone())),
                        ),
                );
            if let Some(r) = replicas {
                spec = spec.replicas(r);
            }
            let mut config = DeploymentApply::new("web", NS).spec(spec);
            if !labels.is_empty() {
                config = config.labels(labels);
            }
            config
        })
}

/// `items` without those whose key an earlier one has (list map keys are unique).
fn dedup_by<T, K: Ord>(items: Vec<T>, key: impl Fn(&T) -> K) -> Vec<T> {
    let mut seen = BTreeMap::new();
    items
        .into_iter()
        .filter(|item| seen.insert(key(item), ()).is_none())
        .collect()
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 24, ..ProptestConfig::default() })]

    /// extract ∘ apply is the identity, and re-applying what was extracted changes nothing,
    /// whatever the server defaulted around the applied fields.
    #[test]
    fn extract_after_apply_returns_the_configuration(first in deployment_config(), second in deployment_config()) {
        let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap();
        runtime.block_on(async {
            let server = server().await;
            let deployments = clientset(&server).apps().v1().deployments(NS);
            let params = ApplyParams::new("ctl");
            for config in [&first, &second] {
                let applied = deployments.apply("web", config, &params).await.unwrap();
                let extracted = extract_deployment(&applied, "ctl").unwrap();
                prop_assert_eq!(&extracted, config);
                let again = deployments.apply("web", &extracted, &params).await.unwrap();
                prop_assert_eq!(
                    &again.metadata.resource_version,
                    &applied.metadata.resource_version,
                    "re-applying the extracted configuration wrote something"
                );
            }
            Ok(())
        })?;
    }
}
