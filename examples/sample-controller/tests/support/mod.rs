//! What every suite of the sample controller shares: the test API server with the Foo
//! CRD registered, Foos written as a user would, reads of the server's objects, and a
//! controller running in a task.

#![allow(dead_code)] // each test binary uses its own part of this module

use std::future::Future;

use kube_informers::client::Config;
use kube_informers::k8s_openapi::api::apps::v1::Deployment;
use kube_informers::Client;
use sample_controller::Foo;
use serde_json::json;
use test_apiserver::{ResourceSpec, RunningServer, TestApiServer};
use tokio::task::JoinHandle;
use tokio_util::sync::CancellationToken;

pub const FOOS: &str = "foos.samplecontroller.k8s.io";
pub const DEPLOYMENTS: &str = "deployments.apps";
pub const LEASES: &str = "leases.coordination.k8s.io";

/// A server serving Foos as `crd/foo.yaml` declares them (namespaced, status subresource).
pub async fn server() -> RunningServer {
    TestApiServer::builder()
        .namespaces(["shop", "ns-0", "ns-1", "ns-2", "ns-3"])
        .resource(
            ResourceSpec::new("samplecontroller.k8s.io", "v1alpha1", "Foo", "foos", true)
                .with_status_subresource(),
        )
        .start()
        .await
        .expect("the test API server starts")
}

pub fn client(server: &RunningServer) -> Client {
    Client::new(Config::new(server.url())).expect("a client for the test server")
}

/// Creates a Foo as `kubectl apply` of upstream's example would.
pub fn create_foo(server: &RunningServer, ns: &str, name: &str, deployment: &str, replicas: i32) {
    server
        .create(
            FOOS,
            Some(ns),
            json!({
                "apiVersion": "samplecontroller.k8s.io/v1alpha1",
                "kind": "Foo",
                "metadata": {"name": name},
                "spec": {"deploymentName": deployment, "replicas": replicas},
            }),
        )
        .expect("the Foo is created");
}

pub fn foo(server: &RunningServer, ns: &str, name: &str) -> Foo {
    serde_json::from_value(server.get(FOOS, Some(ns), name).expect("the Foo exists"))
        .expect("a Foo")
}

/// The Deployment, if the server has it.
pub fn deployment(server: &RunningServer, ns: &str, name: &str) -> Option<Deployment> {
    let value = server.get(DEPLOYMENTS, Some(ns), name).ok()?;
    Some(serde_json::from_value(value).expect("a Deployment"))
}

pub fn replicas(deployment: &Deployment) -> Option<i32> {
    deployment.spec.replicas
}

pub fn available(foo: &Foo) -> Option<i32> {
    foo.status.as_ref().and_then(|s| s.available_replicas)
}

/// A task running until its token is cancelled.
pub struct Running<T> {
    pub cancel: CancellationToken,
    task: JoinHandle<T>,
}

impl<T: Send + 'static> Running<T> {
    pub fn start<F>(run: impl FnOnce(CancellationToken) -> F) -> Self
    where
        F: Future<Output = T> + Send + 'static,
    {
        let cancel = CancellationToken::new();
        let task = tokio::spawn(run(cancel.clone()));
        Self { cancel, task }
    }

    /// Cancels the task and returns what it returned.
    pub async fn stop(self) -> T {
        self.cancel.cancel();
        self.task.await.expect("the task does not panic")
    }
}
