//! The server as a controller's tests and examples use it (feature `client`): started in one
//! call with its CRDs and objects, handing out a ready [`Client`]; and "the configured
//! cluster if there is one, else an embedded server" for examples and demos.
//!
//! A controller test:
//!
//! ```
//! use informer_client::api::{Api, Patch, PatchParams};
//! use informer_client::k8s_openapi::api::core::v1::ConfigMap;
//! use informer_client::{Client, Error};
//! use test_apiserver::harness::TestEnv;
//!
//! /// The controller under test: every ConfigMap of a namespace gets the label `owner=shop`.
//! async fn reconcile(client: &Client, namespace: &str) -> Result<usize, Error> {
//!     let api = Api::<ConfigMap>::namespaced(client.clone(), namespace);
//!     let mut labelled = 0;
//!     for cm in api.list(&Default::default()).await?.items {
//!         let name = cm.metadata.name.clone().unwrap_or_default();
//!         let patch = Patch::Merge(serde_json::json!({"metadata": {"labels": {"owner": "shop"}}}));
//!         api.patch(&name, &patch, &PatchParams::default()).await?;
//!         labelled += 1;
//!     }
//!     Ok(labelled)
//! }
//!
//! # #[tokio::main(flavor = "current_thread")]
//! # async fn main() -> Result<(), Box<dyn std::error::Error>> {
//! let env = TestEnv::builder()
//!     // .crd_file("crd/foo.yaml")          // your CRDs, as `kubectl apply -f` installs them
//!     .objects_yaml(
//!         "fixture",
//!         r#"
//! apiVersion: v1
//! kind: Namespace
//! metadata: {name: shop}
//! ---
//! apiVersion: v1
//! kind: ConfigMap
//! metadata: {name: settings, namespace: shop}
//! data: {mode: fast}
//! "#,
//!     )
//!     .start()
//!     .await?;
//! assert_eq!(reconcile(&env.client(), "shop").await?, 1);
//! let cm = Api::<ConfigMap>::namespaced(env.client(), "shop").get("settings").await?;
//! assert_eq!(cm.metadata.labels.unwrap_or_default().get("owner").map(String::as_str), Some("shop"));
//!
//! // Faults are injected at run time: the next list of ConfigMaps answers 503.
//! env.faults().fail_next(1, 503, test_apiserver::FaultTarget::resource("configmaps").verb("list"));
//! assert!(reconcile(&env.client(), "shop").await.is_err());
//! env.shutdown().await;
//! # Ok(())
//! # }
//! ```

use std::path::{Path, PathBuf};

use informer_client::api::{Api, PostParams};
use informer_client::client::{AuthConfig, Config};
use informer_client::error::ConfigErrorKind;
use informer_client::{Client, Discovery, DynamicObject};
use rustls::pki_types::pem::PemObject;
use rustls::pki_types::CertificateDer;
use serde::Deserialize;

use crate::{Faults, RunningServer, TestApiServerBuilder};

/// Why a [`TestEnv`] could not start or seed its objects, or why [`client_or_embedded`]
/// could not connect. Each message says what to fix.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum HarnessError {
    /// The server did not start (a CRD file it was given is missing or invalid, the port is
    /// taken, ...).
    #[error("the test API server did not start: {0}")]
    Start(#[from] crate::Error),
    /// No client could be built for the server (its TLS material was refused).
    #[error("cannot build a client for the test API server at {url}: {source}")]
    Client {
        /// The server's URL.
        url: String,
        /// The client's error.
        #[source]
        source: Box<informer_client::Error>,
    },
    /// An objects file could not be read.
    #[error("cannot read the objects file {path}: {source}")]
    Read {
        /// The file.
        path: PathBuf,
        /// The I/O error.
        #[source]
        source: std::io::Error,
    },
    /// A document is not a Kubernetes object (not YAML, or without `apiVersion`, `kind` or
    /// `metadata.name`).
    #[error("{origin}, document {document}: {message}")]
    Object {
        /// The file, or the name given with the text.
        origin: String,
        /// The document's position in the text, from 1.
        document: usize,
        /// What is wrong with it.
        message: String,
    },
    /// The server refused to create an object (its kind is not served: install its CRD
    /// first; its namespace does not exist: create it first; it is invalid).
    #[error("{origin}, document {document}: cannot create {what}: {source}")]
    Create {
        /// The file, or the name given with the text.
        origin: String,
        /// The document's position in the text, from 1.
        document: usize,
        /// The object's kind and `namespace/name`.
        what: String,
        /// The server's answer.
        #[source]
        source: Box<informer_client::Error>,
    },
    /// A cluster is configured (a kubeconfig exists, or the process runs in a Pod) but its
    /// configuration cannot be used.
    #[error(
        "a cluster is configured but cannot be used: {source}. Fix the kubeconfig, or set \
         KUBECONFIG to a path that does not exist to use the embedded test API server instead"
    )]
    ClusterConfig {
        /// The client's configuration error.
        #[source]
        source: Box<informer_client::Error>,
    },
}

/// A started test API server with a [`Client`] for it: what a controller's test needs.
///
/// Built with [`TestEnv::builder`]; the server stops when this is dropped, or
/// [`shutdown`](TestEnv::shutdown) waits for it to stop.
pub struct TestEnv {
    server: RunningServer,
    client: Client,
}

impl std::fmt::Debug for TestEnv {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("TestEnv")
            .field("url", &self.server.url())
            .finish_non_exhaustive()
    }
}

/// What a [`TestEnv`] starts with: the server's options, CRDs and objects to create.
#[derive(Debug, Default)]
pub struct TestEnvBuilder {
    server: TestApiServerBuilder,
    objects: Vec<Objects>,
    prefer_embedded: bool,
}

#[derive(Debug)]
enum Objects {
    File(PathBuf),
    Text { origin: String, yaml: String },
}

impl TestEnv {
    /// A builder with the server's defaults: no objects but the namespaces `default`,
    /// `kube-node-lease`, `kube-public` and `kube-system`, plain HTTP, no token.
    pub fn builder() -> TestEnvBuilder {
        TestEnvBuilder::default()
    }

    /// A client for the server (cheap: clones share one connection pool), configured as a
    /// kubeconfig for it would configure it (URL, CA, token).
    pub fn client(&self) -> Client {
        self.client.clone()
    }

    /// The server: in-process reads and writes, request counts, [`RunningServer::restart`].
    pub fn server(&self) -> &RunningServer {
        &self.server
    }

    /// Fault injection: failed, stalled or cut requests, dropped watches, compaction.
    pub fn faults(&self) -> Faults {
        self.server.faults()
    }

    /// A kubeconfig for the server, for code that reads one (or `kube::Config`).
    pub fn kubeconfig_yaml(&self) -> String {
        self.server.kubeconfig_yaml()
    }

    /// Writes the kubeconfig to `path` (mode 0600; see [`RunningServer::write_kubeconfig`]).
    pub fn write_kubeconfig(&self, path: impl AsRef<Path>) -> Result<(), HarnessError> {
        Ok(self.server.write_kubeconfig(path)?)
    }

    /// Creates the objects of a YAML file (multi-document; `kind: List` expanded) in
    /// order, as `kubectl create -f` does: each through the API, its resource found by
    /// discovery, a namespaced object without a namespace in `default`. CRDs among them
    /// are served from the next document on. Returns the created objects.
    pub async fn create_from_file(
        &self,
        path: impl AsRef<Path>,
    ) -> Result<Vec<DynamicObject>, HarnessError> {
        let path = path.as_ref();
        let yaml = std::fs::read_to_string(path).map_err(|source| HarnessError::Read {
            path: path.to_owned(),
            source,
        })?;
        create_all(&self.client, &path.display().to_string(), &yaml).await
    }

    /// Creates the objects of YAML or JSON text as [`create_from_file`](Self::create_from_file)
    /// does; `origin` names the text in errors.
    pub async fn create_from_yaml(
        &self,
        origin: &str,
        yaml: &str,
    ) -> Result<Vec<DynamicObject>, HarnessError> {
        create_all(&self.client, origin, yaml).await
    }

    /// Stops the server and waits until it has stopped.
    pub async fn shutdown(self) {
        self.server.shutdown().await;
    }
}

impl TestEnvBuilder {
    /// Sets every server option at once, from a [`TestApiServer::builder`](crate::TestApiServer::builder): TLS and tokens,
    /// seeded fixture Pods, garbage collection, ... CRDs and namespaces given to it are kept.
    pub fn server(mut self, server: TestApiServerBuilder) -> Self {
        self.server = server;
        self
    }

    /// Installs the CRDs of this file (YAML or JSON, multi-document) before anything else,
    /// as `kubectl apply -f` would: their objects are validated, pruned and defaulted by
    /// the CRDs' schemas.
    pub fn crd_file(mut self, path: impl AsRef<Path>) -> Self {
        self.server = self.server.crd_file(path);
        self
    }

    /// Installs the CRDs of this YAML or JSON text, as [`crd_file`](Self::crd_file) does.
    pub fn crd(mut self, yaml_or_json: impl Into<String>) -> Self {
        self.server = self.server.crd(yaml_or_json);
        self
    }

    /// Creates these namespaces at start (besides `default` and the `kube-*` ones): objects
    /// can only be written into a namespace that exists.
    pub fn namespaces<I, S>(mut self, names: I) -> Self
    where
        I: IntoIterator<Item = S>,
        S: Into<String>,
    {
        self.server = self.server.namespaces(names);
        self
    }

    /// Creates the objects of this YAML file once the server runs (see
    /// [`TestEnv::create_from_file`]); files and texts are created in the order given.
    pub fn objects_file(mut self, path: impl AsRef<Path>) -> Self {
        self.objects.push(Objects::File(path.as_ref().to_owned()));
        self
    }

    /// Creates the objects of this YAML text once the server runs (see
    /// [`TestEnv::create_from_yaml`]); `origin` names it in errors.
    pub fn objects_yaml(mut self, origin: impl Into<String>, yaml: impl Into<String>) -> Self {
        self.objects.push(Objects::Text {
            origin: origin.into(),
            yaml: yaml.into(),
        });
        self
    }

    /// Makes [`client_or_embedded`](Self::client_or_embedded) start the embedded server
    /// even when a cluster is configured (an example's `--embedded` flag).
    pub fn prefer_embedded(mut self, yes: bool) -> Self {
        self.prefer_embedded = yes;
        self
    }

    /// Starts the server, installs the CRDs, creates the objects and builds the client.
    pub async fn start(self) -> Result<TestEnv, HarnessError> {
        let server = self.server.start().await?;
        let client = client_for(&server)?;
        let env = TestEnv { server, client };
        for objects in &self.objects {
            match objects {
                Objects::File(path) => env.create_from_file(path).await?,
                Objects::Text { origin, yaml } => env.create_from_yaml(origin, yaml).await?,
            };
        }
        Ok(env)
    }

    /// The configured cluster (`KUBECONFIG`, `~/.kube/config`, or the Pod's service
    /// account) if there is one, else this environment started in-process. Says on stderr
    /// which it uses. The [`Embedded`] guard keeps an embedded server running: hold it as
    /// long as the client is used.
    ///
    /// A configuration that exists but cannot be used (a broken kubeconfig) is an error,
    /// not a reason to fall back: a user who configured a cluster means that cluster.
    pub async fn client_or_embedded(self) -> Result<(Client, Embedded), HarnessError> {
        if self.prefer_embedded {
            eprintln!(
                "the embedded test API server was asked for: not looking for a configured cluster"
            );
            return self.embedded().await;
        }
        let configured = Config::infer();
        self.configured_or_embedded(configured).await
    }

    async fn configured_or_embedded(
        self,
        configured: Result<Config, informer_client::Error>,
    ) -> Result<(Client, Embedded), HarnessError> {
        match configured {
            Ok(config) => {
                let url = config.cluster_url.clone();
                let client = Client::new(config).map_err(|source| HarnessError::ClusterConfig {
                    source: Box::new(source),
                })?;
                eprintln!("using the cluster at {url}");
                Ok((client, Embedded(None)))
            }
            Err(e) if e.config_kind() == Some(ConfigErrorKind::NotFound) => {
                eprintln!("no cluster configured: {e}");
                self.embedded().await
            }
            Err(source) => Err(HarnessError::ClusterConfig {
                source: Box::new(source),
            }),
        }
    }

    async fn embedded(self) -> Result<(Client, Embedded), HarnessError> {
        let env = self.start().await?;
        eprintln!(
            "using the embedded test API server at {} (in this process; it stops when the program ends)",
            env.server.url()
        );
        Ok((env.client(), Embedded(Some(env))))
    }
}

/// The configured cluster if there is one, else an embedded test API server with nothing
/// but its default namespaces; see [`TestEnvBuilder::client_or_embedded`] to start it with
/// objects, CRDs or fixture Pods.
///
/// ```no_run
/// # async fn run() -> Result<(), Box<dyn std::error::Error>> {
/// let (client, embedded) = test_apiserver::client_or_embedded().await?;
/// // ... use `client`; `embedded` keeps the server (if one was started) running ...
/// embedded.shutdown().await;
/// # Ok(()) }
/// ```
pub async fn client_or_embedded() -> Result<(Client, Embedded), HarnessError> {
    TestEnv::builder().client_or_embedded().await
}

/// Keeps the embedded server of [`client_or_embedded`] running; holds nothing when a
/// cluster is used.
#[derive(Debug)]
#[must_use = "the embedded server stops when its guard is dropped"]
pub struct Embedded(Option<TestEnv>);

impl Embedded {
    /// The embedded environment, `None` when a configured cluster is used.
    pub fn env(&self) -> Option<&TestEnv> {
        self.0.as_ref()
    }

    /// The embedded server, `None` when a configured cluster is used.
    pub fn server(&self) -> Option<&RunningServer> {
        self.0.as_ref().map(TestEnv::server)
    }

    /// Whether the client talks to the embedded server.
    pub fn is_embedded(&self) -> bool {
        self.0.is_some()
    }

    /// Stops the embedded server, if any, and waits until it has stopped.
    pub async fn shutdown(self) {
        if let Some(env) = self.0 {
            env.shutdown().await;
        }
    }
}

/// A client configured as the server's own kubeconfig says: its URL, its CA, its token.
fn client_for(server: &RunningServer) -> Result<Client, HarnessError> {
    let client_error = |source| HarnessError::Client {
        url: server.url(),
        source: Box::new(source),
    };
    let mut config = Config::new(server.url());
    if let Some(pem) = server.ca_pem() {
        let certs = CertificateDer::pem_slice_iter(pem.as_bytes())
            .collect::<Result<Vec<_>, _>>()
            .map_err(|e| {
                client_error(informer_client::Error::config(
                    ConfigErrorKind::Tls,
                    "the test API server's CA",
                    format!("not PEM: {e}"),
                ))
            })?;
        config.root_certs = Some(certs);
    }
    if let Some(token) = server.token() {
        config.auth = AuthConfig::Token(token.to_owned());
    }
    Client::new(config).map_err(client_error)
}

/// Creates every object of `yaml`, in order, through the API.
async fn create_all(
    client: &Client,
    origin: &str,
    yaml: &str,
) -> Result<Vec<DynamicObject>, HarnessError> {
    let discovery = Discovery::new(client.clone());
    let mut created = Vec::new();
    for (document, object) in parse_objects(origin, yaml)? {
        let what = describe(&object);
        let create_error = |source| HarnessError::Create {
            origin: origin.to_owned(),
            document,
            what: what.clone(),
            source: Box::new(source),
        };
        let (group, version) = match object.api_version.split_once('/') {
            Some((group, version)) => (group, version),
            None => ("", object.api_version.as_str()),
        };
        let resource = discovery
            .resolve_kind(group, Some(version), &object.kind)
            .await
            .map_err(create_error)?;
        let namespace = match (&object.metadata.namespace, resource.namespaced) {
            (_, false) => None,
            (Some(ns), true) => Some(ns.clone()),
            (None, true) => Some(client.default_namespace().to_owned()),
        };
        let api: Api<DynamicObject> =
            Api::for_resource(client.clone(), &resource, namespace.as_deref());
        created.push(
            api.create(&object, &PostParams::default())
                .await
                .map_err(create_error)?,
        );
    }
    Ok(created)
}

/// The objects of a multi-document YAML (or JSON) text with their document numbers; empty
/// documents are skipped and `kind: List` documents expanded, as kubectl does.
fn parse_objects(origin: &str, yaml: &str) -> Result<Vec<(usize, DynamicObject)>, HarnessError> {
    let mut objects = Vec::new();
    for (i, document) in serde_yaml_ng::Deserializer::from_str(yaml).enumerate() {
        let number = i + 1;
        let invalid = |message: String| HarnessError::Object {
            origin: origin.to_owned(),
            document: number,
            message,
        };
        let value = serde_json::Value::deserialize(document)
            .map_err(|e| invalid(format!("not YAML: {e}")))?;
        if value.is_null() {
            continue;
        }
        let items = match value.get("kind").and_then(|k| k.as_str()) {
            Some("List") => match value.get("items") {
                Some(serde_json::Value::Array(items)) => items.clone(),
                _ => return Err(invalid("a List without `items`".to_owned())),
            },
            _ => vec![value],
        };
        for item in items {
            let object: DynamicObject = serde_json::from_value(item)
                .map_err(|e| invalid(format!("not a Kubernetes object: {e}")))?;
            if object.api_version.is_empty() || object.kind.is_empty() {
                return Err(invalid(
                    "an object needs `apiVersion` and `kind` (e.g. `apiVersion: v1`, `kind: ConfigMap`)"
                        .to_owned(),
                ));
            }
            if object.metadata.name.is_none() && object.metadata.generate_name.is_none() {
                return Err(invalid(format!(
                    "a {} needs `metadata.name` (or `metadata.generateName`)",
                    object.kind
                )));
            }
            objects.push((number, object));
        }
    }
    Ok(objects)
}

/// `Kind namespace/name`, as messages name an object.
fn describe(object: &DynamicObject) -> String {
    let name = object
        .metadata
        .name
        .as_deref()
        .or(object.metadata.generate_name.as_deref())
        .unwrap_or_default();
    match &object.metadata.namespace {
        Some(ns) => format!("{} {ns}/{name}", object.kind),
        None => format!("{} {name}", object.kind),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::TestApiServer;

    const FOO_CRD: &str = r#"
apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: {name: foos.example.com}
spec:
  group: example.com
  scope: Namespaced
  names: {plural: foos, singular: foo, kind: Foo, listKind: FooList}
  versions:
  - name: v1
    served: true
    storage: true
    schema:
      openAPIV3Schema:
        type: object
        properties:
          spec:
            type: object
            properties:
              size: {type: integer, minimum: 1}
"#;

    #[tokio::test]
    async fn objects_are_created_in_order_through_the_api() -> Result<(), HarnessError> {
        let objects = format!(
            "{FOO_CRD}\n---\n{}",
            r#"
apiVersion: v1
kind: Namespace
metadata: {name: shop}
---
# an empty document, as files ending in `---` have
---
apiVersion: v1
kind: List
items:
- {apiVersion: v1, kind: ConfigMap, metadata: {name: a, namespace: shop}, data: {k: v}}
- {apiVersion: v1, kind: ConfigMap, metadata: {name: b}}
---
apiVersion: example.com/v1
kind: Foo
metadata: {name: web, namespace: shop}
spec: {size: 3, unknown: pruned}
"#
        );
        let env = TestEnv::builder()
            .objects_yaml("objects.yaml", objects)
            .start()
            .await?;
        let server = env.server();
        assert!(server.get("configmaps", Some("shop"), "a").is_ok());
        // No namespace: the client's default, as kubectl creates it.
        assert!(server.get("configmaps", Some("default"), "b").is_ok());
        let foo = server
            .get("foos.example.com", Some("shop"), "web")
            .expect("the Foo was created");
        // Created through the CRD's schema: the unknown field is pruned.
        assert_eq!(foo["spec"], serde_json::json!({"size": 3}));
        env.shutdown().await;
        Ok(())
    }

    #[tokio::test]
    async fn a_refused_object_names_its_document_and_the_reason() {
        let refused = TestEnv::builder()
            .objects_yaml(
                "fixture.yaml",
                "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: ok}\n---\n\
                 apiVersion: example.com/v1\nkind: Foo\nmetadata: {name: web}\n",
            )
            .start()
            .await;
        let message = match refused {
            Err(e @ HarnessError::Create { document: 2, .. }) => e.to_string(),
            other => panic!("expected the second document to be refused, got {other:?}"),
        };
        assert!(
            message.starts_with("fixture.yaml, document 2: cannot create Foo web: "),
            "{message}"
        );

        let no_kind = TestEnv::builder()
            .objects_yaml("inline", "apiVersion: v1\nmetadata: {name: x}\n")
            .start()
            .await;
        match no_kind {
            Err(e @ HarnessError::Object { document: 1, .. }) => assert_eq!(
                e.to_string(),
                "inline, document 1: an object needs `apiVersion` and `kind` (e.g. `apiVersion: v1`, `kind: ConfigMap`)"
            ),
            other => panic!("expected a missing kind to be refused, got {other:?}"),
        }
    }

    #[tokio::test]
    async fn the_client_of_a_tls_server_with_a_token_is_ready() -> Result<(), HarnessError> {
        let env = TestEnv::builder()
            .server(TestApiServer::builder().tls(true).token("t0ken"))
            .crd(FOO_CRD)
            .namespaces(["shop"])
            .objects_yaml(
                "foo",
                "apiVersion: example.com/v1\nkind: Foo\nmetadata: {name: web, namespace: shop}\n",
            )
            .start()
            .await?;
        assert!(env.client().base_url().starts_with("https://"));
        let created = env
            .create_from_yaml("more", "{\"apiVersion\": \"v1\", \"kind\": \"ConfigMap\", \"metadata\": {\"name\": \"c\", \"namespace\": \"shop\"}}")
            .await?;
        assert_eq!(created.len(), 1);
        assert_eq!(created[0].metadata.namespace.as_deref(), Some("shop"));
        assert!(created[0].metadata.resource_version.is_some());
        env.shutdown().await;
        Ok(())
    }

    #[tokio::test]
    async fn nothing_configured_starts_the_embedded_server() -> Result<(), HarnessError> {
        let nothing = Err(informer_client::Error::config(
            ConfigErrorKind::NotFound,
            "",
            "no kubeconfig",
        ));
        let (client, embedded) = TestEnv::builder()
            .server(TestApiServer::builder().seed_pods(3))
            .configured_or_embedded(nothing)
            .await?;
        let server = embedded
            .server()
            .map(RunningServer::url)
            .unwrap_or_default();
        assert_eq!(client.base_url(), server);
        assert_eq!(embedded.server().map(|s| s.count("pods")), Some(3));
        embedded.shutdown().await;
        Ok(())
    }

    #[tokio::test]
    async fn a_configured_cluster_is_used_and_a_broken_one_is_an_error() -> Result<(), HarnessError>
    {
        let cluster = TestEnv::builder().start().await?;
        let configured = Ok(Config::new(cluster.server().url()));
        let (client, embedded) = TestEnv::builder()
            .configured_or_embedded(configured)
            .await?;
        assert!(!embedded.is_embedded());
        assert_eq!(client.base_url(), cluster.server().url());

        let broken = Err(informer_client::Error::config(
            ConfigErrorKind::Parse,
            "kubeconfig /home/me/.kube/config",
            "not YAML",
        ));
        match TestEnv::builder().configured_or_embedded(broken).await {
            Err(e @ HarnessError::ClusterConfig { .. }) => {
                assert!(e.to_string().contains("Fix the kubeconfig"), "{e}")
            }
            other => panic!("expected the broken configuration to be reported, got {other:?}"),
        }
        cluster.shutdown().await;
        Ok(())
    }
}
