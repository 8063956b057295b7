//! The `status` and `scale` subresources, offered only by an [`Api`] whose marker type says
//! the resource has them, so calling one a resource lacks does not compile.

use k8s_openapi::api::autoscaling::v1::Scale;
use k8s_openapi::apimachinery::pkg::apis::meta::v1::ObjectMeta;
use serde::Serialize;

use super::{Api, Patch, PatchParams, PostParams};
use crate::apply::{ApplyConfiguration, ApplyParams};
use crate::error::Error;
use crate::object::Object;

mod sealed {
    pub trait Sealed {}
    impl Sealed for super::NoSubresources {}
    impl Sealed for super::StatusSubresource {}
    impl Sealed for super::ScaleSubresource {}
    impl Sealed for super::StatusAndScale {}
}

/// Which subresources an [`Api`] offers methods for: one of [`NoSubresources`],
/// [`StatusSubresource`], [`ScaleSubresource`], [`StatusAndScale`].
pub trait Subresources: sealed::Sealed + 'static {}

/// Markers whose [`Api`] has `get_status`, `update_status` and `patch_status`.
pub trait HasStatus: Subresources {}

/// Markers whose [`Api`] has `get_scale`, `update_scale` and `patch_scale`.
pub trait HasScale: Subresources {}

/// The resource has neither a `status` nor a `scale` subresource (ConfigMaps, Secrets, ...).
#[derive(Debug)]
pub enum NoSubresources {}

/// The resource has a `status` subresource (Pods, Nodes, CRDs with `subresources.status`).
#[derive(Debug)]
pub enum StatusSubresource {}

/// The resource has a `scale` subresource but no `status` one.
#[derive(Debug)]
pub enum ScaleSubresource {}

/// The resource has both (Deployments, StatefulSets, ReplicaSets, CRDs with both).
#[derive(Debug)]
pub enum StatusAndScale {}

impl Subresources for NoSubresources {}
impl Subresources for StatusSubresource {}
impl Subresources for ScaleSubresource {}
impl Subresources for StatusAndScale {}
impl HasStatus for StatusSubresource {}
impl HasStatus for StatusAndScale {}
impl HasScale for ScaleSubresource {}
impl HasScale for StatusAndScale {}

impl<K, S> Api<K, S>
where
    K: Object<Meta = ObjectMeta>,
    S: HasStatus,
{
    /// GETs the `status` subresource: the whole object, as the server has it.
    pub async fn get_status(&self, name: &str) -> Result<K, Error> {
        let request = self
            .by_name(self.namespace.as_deref(), "get", name)?
            .get_subresource("status", name);
        self.send(request).await
    }

    /// PUTs the object's `status` (the rest of the object is ignored by the server);
    /// `metadata.name` names it and a stale `metadata.resourceVersion` answers 409 Conflict.
    ///
    /// ```no_run
    /// # use informer_client::api::{Api, PostParams, StatusSubresource};
    /// # use k8s_openapi::api::core::v1::{Pod, PodStatus};
    /// # async fn run(client: informer_client::Client) -> Result<(), informer_client::Error> {
    /// let pods: Api<Pod, StatusSubresource> = Api::namespaced(client, "shop");
    /// let mut pod = pods.get_status("web-0").await?;
    /// pod.status.get_or_insert_with(PodStatus::default).message = Some("draining".into());
    /// pods.update_status(&pod, &PostParams::default()).await?;
    /// # Ok(()) }
    /// ```
    pub async fn update_status(&self, object: &K, params: &PostParams) -> Result<K, Error> {
        self.put("update_status", object, Some("status"), params)
            .await
    }

    /// PATCHes the `status` subresource.
    pub async fn patch_status<P: Serialize>(
        &self,
        name: &str,
        patch: &Patch<P>,
        params: &PatchParams,
    ) -> Result<K, Error> {
        self.patch_at("patch_status", name, Some("status"), patch, params)
            .await
    }

    /// Applies `config` to the `status` subresource of the object `name`: only its
    /// `status` counts, recorded under the manager as a `status` entry of its own (what a
    /// controller reporting status does).
    pub async fn apply_status<C>(
        &self,
        name: &str,
        config: &C,
        params: &ApplyParams,
    ) -> Result<K, Error>
    where
        C: ApplyConfiguration<Resource = K>,
    {
        self.patch_at(
            "apply_status",
            name,
            Some("status"),
            &Patch::Apply(config),
            &params.patch_params(),
        )
        .await
    }
}

impl<K, S> Api<K, S>
where
    K: Object<Meta = ObjectMeta>,
    S: HasScale,
{
    /// GETs the `scale` subresource (`autoscaling/v1` `Scale`).
    ///
    /// ```no_run
    /// # use informer_client::api::{Api, PostParams, StatusAndScale};
    /// # use k8s_openapi::api::apps::v1::Deployment;
    /// # async fn run(client: informer_client::Client) -> Result<(), informer_client::Error> {
    /// let deployments: Api<Deployment, StatusAndScale> = Api::namespaced(client, "shop");
    /// let mut scale = deployments.get_scale("web").await?;
    /// scale.spec.get_or_insert_with(Default::default).replicas = Some(5);
    /// deployments.update_scale("web", &scale, &PostParams::default()).await?;
    /// # Ok(()) }
    /// ```
    pub async fn get_scale(&self, name: &str) -> Result<Scale, Error> {
        let request = self
            .by_name(self.namespace.as_deref(), "get_scale", name)?
            .get_subresource("scale", name);
        self.send(request).await
    }

    /// PUTs a `Scale`; a stale `metadata.resourceVersion` in it answers 409 Conflict.
    pub async fn update_scale(
        &self,
        name: &str,
        scale: &Scale,
        params: &PostParams,
    ) -> Result<Scale, Error> {
        let request = self
            .by_name(self.namespace.as_deref(), "update_scale", name)?
            .replace_subresource("scale", name, params, scale);
        self.send(request).await
    }

    /// PATCHes the `scale` subresource, e.g. `Patch::Merge(json!({"spec": {"replicas": 3}}))`.
    pub async fn patch_scale<P: Serialize>(
        &self,
        name: &str,
        patch: &Patch<P>,
        params: &PatchParams,
    ) -> Result<Scale, Error> {
        self.patch_at("patch_scale", name, Some("scale"), patch, params)
            .await
    }
}
