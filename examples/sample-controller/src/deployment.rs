//! The Deployment a Foo asks for, and whether a Deployment belongs to a Foo
//! (upstream's `newDeployment` and `metav1.IsControlledBy`).

use std::collections::BTreeMap;

use kube_informers::k8s_openapi::api::apps::v1::{Deployment, DeploymentSpec};
use kube_informers::k8s_openapi::api::core::v1::{Container, PodSpec, PodTemplateSpec};
use kube_informers::k8s_openapi::apimachinery::pkg::apis::meta::v1::{
    LabelSelector, ObjectMeta, OwnerReference,
};
use kube_informers::k8s_openapi::Resource as _;

use crate::Foo;

/// The image every Foo's Deployment runs, as upstream's.
const IMAGE: &str = "nginx:latest";

/// The Deployment `foo` asks for: named `spec.deploymentName` in the Foo's namespace,
/// `spec.replicas` nginx Pods labelled `app=nginx, controller=<foo name>`, and an owner
/// reference making the Foo its controller, so that the Deployment's events reach the
/// Foo's key ([`enqueue_owner`](kube_informers::controller::enqueue_owner)) and the
/// garbage collector deletes it with the Foo.
pub fn new_deployment(foo: &Foo) -> Deployment {
    let foo_name = foo.metadata.name.clone().unwrap_or_default();
    let spec = foo.spec.clone().unwrap_or_default();
    let labels = BTreeMap::from([
        ("app".to_owned(), "nginx".to_owned()),
        ("controller".to_owned(), foo_name),
    ]);
    Deployment {
        metadata: ObjectMeta {
            name: spec.deployment_name,
            namespace: foo.metadata.namespace.clone(),
            owner_references: Some(vec![controller_ref(foo)]),
            ..ObjectMeta::default()
        },
        spec: DeploymentSpec {
            replicas: spec.replicas,
            selector: LabelSelector {
                match_labels: Some(labels.clone()),
                ..LabelSelector::default()
            },
            template: PodTemplateSpec {
                metadata: Some(ObjectMeta {
                    labels: Some(labels),
                    ..ObjectMeta::default()
                }),
                spec: Some(PodSpec {
                    containers: vec![Container {
                        name: "nginx".to_owned(),
                        image: Some(IMAGE.to_owned()),
                        ..Container::default()
                    }],
                    ..PodSpec::default()
                }),
            },
            ..DeploymentSpec::default()
        },
        status: None,
    }
}

/// The owner reference that makes `foo` the controller of what carries it
/// (`metav1.NewControllerRef`): `blockOwnerDeletion` keeps a foreground deletion of the
/// Foo waiting until the Deployment is gone.
fn controller_ref(foo: &Foo) -> OwnerReference {
    OwnerReference {
        api_version: Foo::API_VERSION.to_owned(),
        kind: Foo::KIND.to_owned(),
        name: foo.metadata.name.clone().unwrap_or_default(),
        uid: foo.metadata.uid.clone().unwrap_or_default(),
        controller: Some(true),
        block_owner_deletion: Some(true),
    }
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

    #[test]
    fn the_deployment_is_named_scaled_and_controlled_as_the_foo_says() {
        let d = new_deployment(&foo("u-1"));
        assert_eq!(d.metadata.name.as_deref(), Some("web"));
        assert_eq!(d.metadata.namespace.as_deref(), Some("shop"));
        assert_eq!(d.spec.replicas, Some(3));
        assert_eq!(
            d.spec.selector.match_labels,
            d.spec
                .template
                .metadata
                .as_ref()
                .and_then(|m| m.labels.clone()),
            "the selector selects the template's Pods"
        );
        assert!(is_controlled_by(&d.metadata, &foo("u-1")));
    }

    #[test]
    fn only_the_controller_reference_with_the_foos_uid_counts() {
        let d = new_deployment(&foo("u-1"));
        assert!(
            !is_controlled_by(&d.metadata, &foo("u-2")),
            "a Foo recreated under the same name is another Foo"
        );
        let mut merely_owned = d.metadata.clone();
        for r in merely_owned.owner_references.iter_mut().flatten() {
            r.controller = None;
        }
        assert!(!is_controlled_by(&merely_owned, &foo("u-1")));
        assert!(!is_controlled_by(&ObjectMeta::default(), &foo("u-1")));
    }
}
