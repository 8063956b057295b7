//! What a worker does for one Foo key (upstream's `syncHandler`): make the Foo's Deployment
//! exist with the Foo's replicas, then copy the Deployment's available replicas into the
//! Foo's status.
//!
//! Reads come from the informers' caches (listers), writes go to the API server. A write
//! that fails returns `Err`: the runner logs it and retries the key with backoff. The
//! caches may lag behind the server; a Deployment update carries the resourceVersion it
//! was based on, so acting on a stale copy ends in a 409 Conflict and a retry, never in
//! overwriting someone else's change.

use std::sync::{Arc, OnceLock};

use kube_informers::api::{Patch, PatchParams, PostParams};
use kube_informers::controller::events::{reference, EventRecorder, EventType};
use kube_informers::controller::{Action, ObjectRef};
use kube_informers::k8s_openapi::api::apps::v1::Deployment;

use crate::deployment::{is_controlled_by, new_deployment};
use crate::generated::samplecontroller::v1alpha1::FooLister;
use crate::{generated, Foo, FooStatus, FIELD_MANAGER};

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
    /// Creating or updating the Deployment failed.
    #[error("{verb} deployment {namespace}/{name} for Foo {foo}: {source}")]
    Deployment {
        /// `creating`, `reading` (after a create found it existing) or `updating`.
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

    let deployment = match ctx.deployments.deployments(namespace).get(&deployment_name) {
        Some(cached) => cached,
        None => Arc::new(create_deployment(&ctx, &key, &foo, &deployment_name).await?),
    };
    if !is_controlled_by(&deployment.metadata, &foo) {
        ctx.record(
            &foo,
            Some(&deployment),
            EventType::Warning,
            "ErrResourceExists",
            &format!("Resource {deployment_name:?} already exists and is not managed by Foo"),
        );
        return Err(ReconcileError::ResourceExists {
            foo: key,
            deployment: deployment_name,
        });
    }

    let deployment = match spec.replicas {
        Some(want) if deployment.spec.replicas != Some(want) => {
            tracing::info!(foo = %key, deployment = %deployment_name, replicas = want, "scaling deployment");
            Arc::new(scale_deployment(&ctx, &key, &deployment, want).await?)
        }
        _ => deployment,
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

/// Creates the Foo's Deployment. If the cache had not seen it yet but the server has it
/// (our own create a moment ago, say), reads the server's copy: the ownership check then
/// decides, as for a cached one.
async fn create_deployment(
    ctx: &Context,
    key: &ObjectRef,
    foo: &Foo,
    name: &str,
) -> Result<Deployment, ReconcileError> {
    let namespace = key.namespace.as_deref().unwrap_or_default();
    let api = ctx.kube.apps().v1().deployments(namespace);
    let failed = |verb, source| ReconcileError::Deployment {
        verb,
        foo: key.clone(),
        namespace: namespace.to_owned(),
        name: name.to_owned(),
        source,
    };
    match api.create(&new_deployment(foo), &post_params()).await {
        Ok(created) => {
            tracing::info!(foo = %key, deployment = name, "created deployment");
            Ok(created)
        }
        Err(e) if e.is_already_exists() => api.get(name).await.map_err(|e| failed("reading", e)),
        Err(e) => Err(failed("creating", e)),
    }
}

/// Sets the Deployment's replicas. Upstream replaces the whole Deployment with
/// `newDeployment(foo)`; changing only the replicas of the cached copy keeps what others
/// (defaulting, admission, users) set, and keeps its resourceVersion, so a Deployment
/// changed since the cache saw it is a 409 and a retry instead of a lost write.
async fn scale_deployment(
    ctx: &Context,
    key: &ObjectRef,
    cached: &Deployment,
    replicas: i32,
) -> Result<Deployment, ReconcileError> {
    let namespace = key.namespace.as_deref().unwrap_or_default();
    let mut deployment = cached.clone();
    deployment.spec.replicas = Some(replicas);
    ctx.kube
        .apps()
        .v1()
        .deployments(namespace)
        .update(&deployment, &post_params())
        .await
        .map_err(|source| ReconcileError::Deployment {
            verb: "updating",
            foo: key.clone(),
            namespace: namespace.to_owned(),
            name: deployment.metadata.name.clone().unwrap_or_default(),
            source,
        })
}

/// Writes the Deployment's available replicas into the Foo's status, through the status
/// subresource (the Foo's spec is the user's; the controller only ever writes status).
///
/// A merge patch of just that field, without a resourceVersion: the value is computed
/// from the Deployment alone and no one else writes it, so there is nothing to guard, and
/// a Foo cache that has not yet seen this controller's previous status write (a Deployment
/// event can overtake it) does not turn into a 409 and a retry. Skips the write when the
/// status already says so: every Deployment event queues its Foo, and most of them change
/// nothing the Foo reports.
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
    let status = FooStatus {
        available_replicas: Some(available),
    };
    ctx.samples
        .samplecontroller()
        .v1alpha1()
        .foos(key.namespace.as_deref().unwrap_or_default())
        .patch_status(
            &key.name,
            &Patch::Merge(serde_json::json!({ "status": status })),
            &PatchParams::default().field_manager(FIELD_MANAGER),
        )
        .await
        .map_err(|source| ReconcileError::FooStatus {
            foo: key.clone(),
            source,
        })?;
    tracing::debug!(foo = %key, available, "updated Foo status");
    Ok(())
}

fn post_params() -> PostParams {
    PostParams::default().field_manager(FIELD_MANAGER)
}
