//! What a worker does for one Foo key (upstream's `syncHandler`): make the Foo's Deployment
//! exist with the Foo's replicas, then copy the Deployment's available replicas into the
//! Foo's status.
//!
//! Reads come from the informers' caches (listers), writes go to the API server. A write
//! that fails returns `Err`: the runner logs it and retries the key with backoff.
//!
//! Every write is a server-side apply of the fields the controller owns (as modern
//! controllers write): the Deployment's name, owner, selector, template and replicas, the
//! Foo's `status.availableReplicas`. The server merges them by field ownership, so what
//! others set on the same objects (an annotation, a sidecar, a scaler's replicas when the
//! Foo names none) survives every reconcile, and a stale cache cannot overwrite anyone's
//! change: an apply carries no resourceVersion to be stale, only the controller's fields.

use std::sync::{Arc, OnceLock};

use kube_informers::apply::ApplyParams;
use kube_informers::controller::events::{reference, EventRecorder, EventType};
use kube_informers::controller::{Action, ObjectRef};
use kube_informers::informers::apply::api::apps::v1::{extract_deployment, DeploymentApply};
use kube_informers::k8s_openapi::api::apps::v1::Deployment;

use crate::deployment::{is_controlled_by, new_deployment};
use crate::generated::samplecontroller::v1alpha1::FooLister;
use crate::generated::samplecontroller_k8s_io::v1alpha1::{FooApply, FooStatusApply};
use crate::{generated, Foo, FIELD_MANAGER};

/// What a reconcile reads and writes through.
pub(crate) struct Context {
    pub(crate) foos: FooLister,
    pub(crate) deployments: kube_informers::listers::apps::v1::DeploymentLister,
    pub(crate) kube: kube_informers::informers::Clientset,
    pub(crate) samples: generated::Clientset,
    /// Set when the controller runs (the recorder's tasks need the runtime).
    pub(crate) recorder: OnceLock<EventRecorder>,
}

impl Context {
    /// Records an Event about `foo`, as upstream's `c.recorder.Event` (never blocks).
    fn record(
        &self,
        foo: &Foo,
        related: Option<&Deployment>,
        type_: EventType,
        reason: &str,
        note: &str,
    ) {
        if let Some(recorder) = self.recorder.get() {
            let related = related.map(reference);
            recorder.publish(
                &reference(foo),
                related.as_ref(),
                type_,
                reason,
                "Sync",
                note,
            );
        }
    }
}

/// Why reconciling one Foo failed; it is retried with backoff.
#[derive(Debug, thiserror::Error)]
pub enum ReconcileError {
    /// The Deployment the Foo names exists and is not controlled by the Foo. The
    /// controller does not take it over (upstream's `ErrResourceExists`); the Foo is
    /// retried, so it recovers once the Deployment is deleted or renamed in the Foo.
    #[error("Resource {deployment:?} already exists and is not managed by Foo {foo}")]
    ResourceExists {
        /// The Foo.
        foo: ObjectRef,
        /// The Deployment's name.
        deployment: String,
    },
    /// Reading or applying the Deployment failed.
    #[error("{verb} deployment {namespace}/{name} for Foo {foo}: {source}")]
    Deployment {
        /// `reading` (a Deployment the cache has not seen) or `applying`.
        verb: &'static str,
        /// The Foo.
        foo: ObjectRef,
        /// The Deployment's namespace.
        namespace: String,
        /// The Deployment's name.
        name: String,
        /// The server's answer.
        #[source]
        source: kube_informers::Error,
    },
    /// Writing the Foo's status failed.
    #[error("updating the status of Foo {foo}: {source}")]
    FooStatus {
        /// The Foo.
        foo: ObjectRef,
        /// The server's answer.
        #[source]
        source: kube_informers::Error,
    },
}

/// Brings the Foo `key` and its Deployment in line. `Ok(Action::Done)` also for Foos that
/// cannot be acted on until a user changes them (gone, or no Deployment name): their next
/// change queues them again, so retrying meanwhile would only spin.
pub(crate) async fn reconcile(ctx: Arc<Context>, key: ObjectRef) -> Result<Action, ReconcileError> {
    let Some(namespace) = key.namespace.as_deref() else {
        tracing::error!(key = %key, "Foos are namespaced; dropping a key without a namespace");
        return Ok(Action::Done);
    };
    let Some(foo) = ctx.foos.foos(namespace).get(&key.name) else {
        tracing::info!(foo = %key, "Foo no longer exists");
        return Ok(Action::Done);
    };
    let spec = foo.spec.clone().unwrap_or_default();
    let deployment_name = spec.deployment_name.unwrap_or_default();
    if deployment_name.is_empty() {
        tracing::error!(foo = %key, "deployment name must be specified");
        return Ok(Action::Done);
    }

    let deployments = ctx.kube.apps().v1().deployments(namespace);
    let failed = |verb, source| ReconcileError::Deployment {
        verb,
        foo: key.clone(),
        namespace: namespace.to_owned(),
        name: deployment_name.clone(),
        source,
    };
    // A Deployment the cache has not seen may still exist (created a moment ago, by us or
    // by someone else): the server's copy decides whether it is the Foo's to apply to.
    let existing = match ctx.deployments.deployments(namespace).get(&deployment_name) {
        Some(cached) => Some(cached),
        None => match deployments.get(&deployment_name).await {
            Ok(live) => Some(Arc::new(live)),
            Err(e) if e.is_not_found() => None,
            Err(e) => return Err(failed("reading", e)),
        },
    };
    if let Some(existing) = existing
        .as_ref()
        .filter(|d| !is_controlled_by(&d.metadata, &foo))
    {
        ctx.record(
            &foo,
            Some(existing),
            EventType::Warning,
            "ErrResourceExists",
            &format!("Resource {deployment_name:?} already exists and is not managed by Foo"),
        );
        return Err(ReconcileError::ResourceExists {
            foo: key,
            deployment: deployment_name,
        });
    }

    let desired = new_deployment(&foo);
    let deployment = match existing {
        Some(existing) if owns_as_desired(&existing, &desired) => existing,
        existing => {
            tracing::info!(foo = %key, deployment = %deployment_name, created = existing.is_none(), "applying deployment");
            let params = ApplyParams::new(FIELD_MANAGER).force();
            let applied = deployments
                .apply(&deployment_name, &desired, &params)
                .await
                .map_err(|e| failed("applying", e))?;
            Arc::new(applied)
        }
    };

    update_foo_status(&ctx, &key, &foo, &deployment).await?;
    ctx.record(
        &foo,
        None,
        EventType::Normal,
        "Synced",
        "Foo synced successfully",
    );
    Ok(Action::Done)
}

/// Whether the controller's fields of `deployment` are `desired` already, so that applying
/// would change nothing: most Deployment events (status updates) change none of them.
/// Fields the controller owns that were removed or changed by a forced apply of another
/// manager show here as a difference, and the next apply takes them back.
fn owns_as_desired(deployment: &Deployment, desired: &DeploymentApply) -> bool {
    extract_deployment(deployment, FIELD_MANAGER).is_ok_and(|owned| owned == *desired)
}

/// Writes the Deployment's available replicas into the Foo's status, through the status
/// subresource (the Foo's spec is the user's; the controller only ever writes status).
///
/// An apply of just that field: the value is computed from the Deployment alone, so there
/// is nothing to guard with a resourceVersion, and a Foo cache that has not yet seen this
/// controller's previous status write (a Deployment event can overtake it) does not turn
/// into a 409 and a retry. Skips the write when the status already says so: every
/// Deployment event queues its Foo, and most of them change nothing the Foo reports.
async fn update_foo_status(
    ctx: &Context,
    key: &ObjectRef,
    foo: &Foo,
    deployment: &Deployment,
) -> Result<(), ReconcileError> {
    let available = deployment
        .status
        .as_ref()
        .and_then(|s| s.available_replicas)
        .unwrap_or(0);
    if foo.status.as_ref().and_then(|s| s.available_replicas) == Some(available) {
        return Ok(());
    }
    let namespace = key.namespace.as_deref().unwrap_or_default();
    let status = FooApply::new(&key.name, namespace)
        .status(FooStatusApply::new().available_replicas(available));
    ctx.samples
        .samplecontroller()
        .v1alpha1()
        .foos(namespace)
        .apply_status(&key.name, &status, &ApplyParams::new(FIELD_MANAGER).force())
        .await
        .map_err(|source| ReconcileError::FooStatus {
            foo: key.clone(),
            source,
        })?;
    tracing::debug!(foo = %key, available, "updated Foo status");
    Ok(())
}
