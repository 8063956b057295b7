//! Dynamic informers: informers for any resource known only at run time, caching
//! [`DynamicObject`]s (client-go's `dynamicinformer`). The resource's scope comes from
//! API discovery.

mod list_watch;
mod resource_informer;

use std::time::Duration;

pub use informer_client::dynamic::DynamicObject;
pub use list_watch::{FixUp, PathListWatch};
pub use resource_informer::ResourceInformer;

use crate::client::Client;
use crate::discovery::{ApiResource, Discovery};
use crate::error::Error;
use crate::factory::{FactoryBuilder, FactoryOptions, InformerFactory, SharedInformerFactoryCore};
use crate::informer::SharedIndexInformer;
use crate::list_options::TweakListOptions;
use crate::object::GroupVersionResource;
use crate::store::Indexers;

/// An informer of [`DynamicObject`]s of one resource.
pub type DynamicInformer = ResourceInformer<DynamicObject>;

/// A `ListWatch` of `resource` as [`DynamicObject`]s, in `namespace` (all when `None`;
/// ignored when the resource is cluster-scoped), with `tweak` applied to every request
/// (client-go's `NewFilteredDynamicInformer` list/watch functions).
pub fn dynamic_list_watch(
    client: &Client,
    resource: &ApiResource,
    namespace: Option<&str>,
    tweak: Option<TweakListOptions>,
) -> crate::lister_watcher::ListWatch<DynamicObject> {
    let (api_version, kind) = (resource.api_version(), resource.kind.clone());
    PathListWatch {
        path: resource.collection_path(namespace),
        list_accept: None,
        watch_accept: None,
        tweak,
        fix_up: std::sync::Arc::new(move |o: &mut DynamicObject| {
            o.fill_type_meta(&api_version, &kind)
        }),
    }
    .build(client)
}

/// One informer per resource, started, synced and shut down together
/// (client-go's `DynamicSharedInformerFactory`). Cheap to clone.
#[derive(Clone, Debug)]
pub struct DynamicSharedInformerFactory {
    core: SharedInformerFactoryCore,
    discovery: Discovery,
}

impl From<SharedInformerFactoryCore> for DynamicSharedInformerFactory {
    fn from(core: SharedInformerFactoryCore) -> Self {
        let discovery = Discovery::new(core.client().clone());
        Self { core, discovery }
    }
}

impl InformerFactory for DynamicSharedInformerFactory {
    fn factory_core(&self) -> &SharedInformerFactoryCore {
        &self.core
    }
}

impl DynamicSharedInformerFactory {
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

    /// The informer for `gvr`, the same one on every call. The resource's kind and scope
    /// come from discovery; a resource the server does not serve, or cannot list and
    /// watch, is an error naming it and the server.
    pub async fn for_resource(&self, gvr: &GroupVersionResource) -> Result<DynamicInformer, Error> {
        let resource = self.discovery.resolve(gvr).await?;
        require_list_watch(&resource, self.core.client())?;
        Ok(self.for_api_resource(&resource))
    }

    /// The informer for a resource described by hand (no discovery round trip).
    pub fn for_api_resource(&self, resource: &ApiResource) -> DynamicInformer {
        let informer = self.core.informer_for_key(
            &resource.gvr().to_string(),
            &resource.informer_name(),
            |core| {
                let lw = dynamic_list_watch(
                    &core.informer_client(),
                    resource,
                    core.namespace(),
                    core.tweak_list_options(),
                );
                SharedIndexInformer::new(lw, core.options().default_resync, Indexers::standard())
            },
        );
        ResourceInformer::new(resource.clone(), informer)
    }
}

/// An error unless discovery says `resource` can be listed and watched: informers of
/// e.g. `bindings` (create only) could never sync.
pub(crate) fn require_list_watch(resource: &ApiResource, client: &Client) -> Result<(), Error> {
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
