//! One factory shell for the object types that serve many resources: dynamic objects and
//! metadata-only ones (client-go's `DynamicSharedInformerFactory` and
//! `metadatainformer.SharedInformerFactory` are this one type over two object types).

use std::marker::PhantomData;
use std::time::Duration;

use futures_util::future::{self, BoxFuture, FutureExt};

use crate::client::Client;
use crate::discovery::{ApiResource, Discovery};
use crate::error::Error;
use crate::factory::{FactoryBuilder, FactoryOptions, InformerFactory, SharedInformerFactoryCore};
use crate::object::{GroupVersionResource, Object};
use crate::source::Collection;

use super::ResourceInformer;

/// An object type that serves many resources, as dynamic and metadata-only objects do:
/// how its informers reach one resource.
pub trait ResourceObject: Object {
    /// The source of `resource`'s objects as `Self`, one informer per resource in a factory.
    fn collection(resource: &ApiResource) -> Collection<Self>;
}

/// What names a resource for [`ResourceInformerFactory::for_resource`]: a
/// [`GroupVersionResource`], resolved through discovery, or an [`ApiResource`] described by
/// hand (no round trip).
pub trait ResourceRef: Sync {
    /// The resource, or an error naming it and the server when the server does not serve
    /// it or cannot list and watch it. `discovery` asks `client`'s server.
    fn resolve<'a>(
        &'a self,
        discovery: &'a Discovery,
        client: &'a Client,
    ) -> BoxFuture<'a, Result<ApiResource, Error>>;
}

impl ResourceRef for GroupVersionResource {
    fn resolve<'a>(
        &'a self,
        discovery: &'a Discovery,
        client: &'a Client,
    ) -> BoxFuture<'a, Result<ApiResource, Error>> {
        async move {
            let resource = discovery.resolve(self).await?;
            require_list_watch(&resource, client)?;
            Ok(resource)
        }
        .boxed()
    }
}

impl ResourceRef for ApiResource {
    fn resolve<'a>(
        &'a self,
        _: &'a Discovery,
        _: &'a Client,
    ) -> BoxFuture<'a, Result<ApiResource, Error>> {
        future::ready(Ok(self.clone())).boxed()
    }
}

/// One informer of `T` objects per resource, started, synced and shut down together.
/// Cheap to clone. See [`DynamicSharedInformerFactory`](super::DynamicSharedInformerFactory)
/// and [`MetadataSharedInformerFactory`](crate::MetadataSharedInformerFactory).
pub struct ResourceInformerFactory<T> {
    core: SharedInformerFactoryCore,
    discovery: Discovery,
    _t: PhantomData<fn() -> T>,
}

impl<T> Clone for ResourceInformerFactory<T> {
    fn clone(&self) -> Self {
        Self {
            core: self.core.clone(),
            discovery: self.discovery.clone(),
            _t: PhantomData,
        }
    }
}

impl<T> std::fmt::Debug for ResourceInformerFactory<T> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ResourceInformerFactory")
            .field("objects", &std::any::type_name::<T>())
            .field("core", &self.core)
            .field("discovery", &self.discovery)
            .finish()
    }
}

impl<T> From<SharedInformerFactoryCore> for ResourceInformerFactory<T> {
    fn from(core: SharedInformerFactoryCore) -> Self {
        let discovery = Discovery::new(core.client().clone());
        Self {
            core,
            discovery,
            _t: PhantomData,
        }
    }
}

impl<T> InformerFactory for ResourceInformerFactory<T> {
    fn factory_core(&self) -> &SharedInformerFactoryCore {
        &self.core
    }
}

impl<T: ResourceObject> ResourceInformerFactory<T> {
    /// A factory for every namespace, resyncing every `default_resync` (zero: never).
    pub fn new(client: Client, default_resync: Duration) -> Self {
        Self::from(SharedInformerFactoryCore::new(
            client,
            FactoryOptions {
                default_resync,
                ..FactoryOptions::default()
            },
        ))
    }

    /// A builder for namespace, tweak, resync and transform options.
    pub fn builder(client: Client) -> FactoryBuilder<Self> {
        FactoryBuilder::new(client)
    }

    /// The discovery client resources are resolved with (cached, shared with the factory).
    pub fn discovery(&self) -> &Discovery {
        &self.discovery
    }

    /// The informer of `resource` (client-go's `ForResource`), the same one on every call:
    /// a [`GroupVersionResource`] takes its kind and scope from discovery, and a resource
    /// the server does not serve, or cannot list and watch, is an error naming it and the
    /// server; an [`ApiResource`] described by hand is used as it is.
    pub async fn for_resource(
        &self,
        resource: &(impl ResourceRef + ?Sized),
    ) -> Result<ResourceInformer<T>, Error> {
        let resource = resource
            .resolve(&self.discovery, self.core.client())
            .await?;
        Ok(ResourceInformer::from_factory(
            &self.core,
            T::collection(&resource),
        ))
    }
}

/// An error unless discovery says `resource` can be listed and watched: informers of
/// e.g. `bindings` (create only) could never sync.
fn require_list_watch(resource: &ApiResource, client: &Client) -> Result<(), Error> {
    match ["list", "watch"]
        .into_iter()
        .find(|v| !resource.supports(v))
    {
        None => Ok(()),
        Some(verb) => Err(Error::UnknownResource {
            resource: resource.gvr().to_string(),
            server: client.base_url().to_owned(),
            reason: format!(
                "discovery lists no {verb:?} verb (verbs: {})",
                resource.verbs.join(", ")
            ),
        }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::client::Config;

    #[test]
    fn resources_that_cannot_be_watched_are_refused() {
        let client = Client::new(Config::new("http://127.0.0.1:1")).unwrap();
        let mut bindings = ApiResource::new("", "v1", "Binding", "bindings", true);
        bindings.verbs = vec!["create".into()];
        let err = require_list_watch(&bindings, &client)
            .unwrap_err()
            .to_string();
        assert!(err.contains("v1/bindings"), "{err}");
        assert!(err.contains("\"list\" verb"), "{err}");
        assert!(err.contains("http://127.0.0.1:1"), "{err}");
        let mut pods = ApiResource::new("", "v1", "Pod", "pods", true);
        pods.verbs = vec!["list".into(), "watch".into()];
        assert!(require_list_watch(&pods, &client).is_ok());
    }
}
