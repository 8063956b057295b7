//! The Deployment a Foo asks for, as the apply configuration the controller owns, and
//! whether a Deployment belongs to a Foo (upstream's `newDeployment` and
//! `metav1.IsControlledBy`).

use kube_informers::apply::{ObjectMetaApply, OwnerReferenceApply};
use kube_informers::informers::apply::api::apps::v1::{DeploymentApply, DeploymentSpecApply};
use kube_informers::informers::apply::api::core::v1::{
    ContainerApply, PodSpecApply, PodTemplateSpecApply,
};
use kube_informers::informers::apply::apimachinery::pkg::apis::meta::v1::LabelSelectorApply;
use kube_informers::k8s_openapi::apimachinery::pkg::apis::meta::v1::ObjectMeta;
use kube_informers::k8s_openapi::Resource as _;

use crate::Foo;

/// The image every Foo's Deployment runs, as upstream's.
const IMAGE: &str = "nginx:latest";

/// The fields of the Deployment `foo` asks for, and only those: named
/// `spec.deploymentName` in the Foo's namespace, `spec.replicas` nginx Pods labelled
/// `app=nginx, controller=<foo name>`, and an owner reference making the Foo its
/// controller, so that the Deployment's events reach the Foo's key
/// ([`enqueue_owner`](kube_informers::controller::enqueue_owner)) and the garbage
/// collector deletes it with the Foo. Applied, the controller owns exactly these; what
/// others set on the Deployment (annotations, more containers, defaults) stays theirs.
pub fn new_deployment(foo: &Foo) -> DeploymentApply {
    let foo_name = foo.metadata.name.clone().unwrap_or_default();
    let spec = foo.spec.clone().unwrap_or_default();
    let labels = [("app", "nginx".to_owned()), ("controller", foo_name)];
    let mut deployment_spec = DeploymentSpecApply::new()
        .selector(LabelSelectorApply::new().match_labels(labels.clone()))
        .template(
            PodTemplateSpecApply::new()
                .metadata(ObjectMetaApply::new().labels(labels))
                .spec(
                    PodSpecApply::new()
                        .containers([ContainerApply::new().name("nginx").image(IMAGE)]),
                ),
        );
    // A Foo that says nothing about replicas leaves them to the Deployment's default (and
    // to whoever else scales it).
    if let Some(replicas) = spec.replicas {
        deployment_spec = deployment_spec.replicas(replicas);
    }
    DeploymentApply::new(
        spec.deployment_name.unwrap_or_default(),
        foo.metadata.namespace.clone().unwrap_or_default(),
    )
    .owner_references([controller_ref(foo)])
    .spec(deployment_spec)
}

/// The owner reference that makes `foo` the controller of what carries it
/// (`metav1.NewControllerRef`): `blockOwnerDeletion` keeps a foreground deletion of the
/// Foo waiting until the Deployment is gone.
fn controller_ref(foo: &Foo) -> OwnerReferenceApply {
    OwnerReferenceApply::new()
        .api_version(Foo::API_VERSION)
        .kind(Foo::KIND)
        .name(foo.metadata.name.clone().unwrap_or_default())
        .uid(foo.metadata.uid.clone().unwrap_or_default())
        .controller(true)
        .block_owner_deletion(true)
}

/// Whether `foo` is the controller of the object with `meta`: its `controller: true`
/// owner reference carries the Foo's uid. The uid, not the name, so that a Foo deleted and
/// created again under the same name does not adopt what the old one left behind.
pub fn is_controlled_by(meta: &ObjectMeta, foo: &Foo) -> bool {
    let Some(uid) = foo.metadata.uid.as_deref() else {
        return false;
    };
    meta.owner_references
        .iter()
        .flatten()
        .find(|r| r.controller == Some(true))
        .is_some_and(|r| r.uid == uid)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::FooSpec;

    fn foo(uid: &str) -> Foo {
        Foo {
            metadata: ObjectMeta {
                name: Some("example-foo".into()),
                namespace: Some("shop".into()),
                uid: Some(uid.into()),
                ..ObjectMeta::default()
            },
            spec: Some(FooSpec {
                deployment_name: Some("web".into()),
                replicas: Some(3),
            }),
            status: None,
        }
    }

    /// The metadata a Deployment stored from `config` would have.
    fn stored(config: &DeploymentApply) -> ObjectMeta {
        serde_json::from_value(serde_json::to_value(&config.metadata).unwrap()).unwrap()
    }

    #[test]
    fn the_deployment_is_named_scaled_and_controlled_as_the_foo_says() {
        let d = new_deployment(&foo("u-1"));
        let meta = d.metadata.as_ref().unwrap();
        assert_eq!(meta.name.as_deref(), Some("web"));
        assert_eq!(meta.namespace.as_deref(), Some("shop"));
        let spec = d.spec.as_ref().unwrap();
        assert_eq!(spec.replicas, Some(3));
        assert_eq!(
            spec.selector.as_ref().unwrap().match_labels,
            spec.template
                .as_ref()
                .and_then(|t| t.metadata.as_ref())
                .and_then(|m| m.labels.clone()),
            "the selector selects the template's Pods"
        );
        assert!(is_controlled_by(&stored(&d), &foo("u-1")));
    }

    #[test]
    fn replicas_the_foo_leaves_out_are_not_claimed() {
        let mut unscaled = foo("u-1");
        unscaled.spec.as_mut().unwrap().replicas = None;
        let d = new_deployment(&unscaled);
        assert_eq!(d.spec.unwrap().replicas, None);
    }

    #[test]
    fn only_the_controller_reference_with_the_foos_uid_counts() {
        let d = stored(&new_deployment(&foo("u-1")));
        assert!(
            !is_controlled_by(&d, &foo("u-2")),
            "a Foo recreated under the same name is another Foo"
        );
        let mut merely_owned = d.clone();
        for r in merely_owned.owner_references.iter_mut().flatten() {
            r.controller = None;
        }
        assert!(!is_controlled_by(&merely_owned, &foo("u-1")));
        assert!(!is_controlled_by(&ObjectMeta::default(), &foo("u-1")));
    }
}
