//! The HTTP client informers list and watch with: reqwest over rustls,
//! configured from a kubeconfig or the in-cluster service account.
//!
//! CONTRACT STUB: bodies are filled in by the client work; signatures are the contract.

use std::future::Future;

use k8s_openapi::apimachinery::pkg::apis::meta::v1::ObjectMeta;
use serde::de::DeserializeOwned;

use crate::error::Error;
use crate::list_options::ListOptions;
use crate::lister_watcher::{ObjectList, WatchStream};

/// A Kubernetes API client. Cheap to clone; clones share connections and credentials.
#[derive(Clone)]
pub struct Client {
    _private: (),
}

impl Client {
    /// Loads the kubeconfig (`KUBECONFIG`, else `~/.kube/config`), else the in-cluster config.
    pub async fn try_default() -> Result<Self, Error> {
        todo!()
    }

    /// Lists one page of `K` (all namespaces when `namespace` is `None`; ignored for cluster-scoped `K`).
    pub fn list<K>(
        &self,
        namespace: Option<&str>,
        options: &ListOptions,
    ) -> impl Future<Output = Result<ObjectList<K>, Error>> + Send + 'static
    where
        K: k8s_openapi::ListableResource
            + k8s_openapi::Metadata<Ty = ObjectMeta>
            + DeserializeOwned
            + Send
            + 'static,
    {
        let _ = (namespace, options);
        async { todo!() }
    }

    /// Starts a watch of `K`; events are decoded line by line as they stream in.
    pub fn watch<K>(
        &self,
        namespace: Option<&str>,
        options: &ListOptions,
    ) -> impl Future<Output = Result<WatchStream<K>, Error>> + Send + 'static
    where
        K: k8s_openapi::ListableResource
            + k8s_openapi::Metadata<Ty = ObjectMeta>
            + DeserializeOwned
            + Send
            + 'static,
    {
        let _ = (namespace, options);
        async { todo!() }
    }
}
