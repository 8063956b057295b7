//! Starting, restarting and stopping the server, and its in-process API.

use std::collections::{BTreeMap, HashMap, HashSet};
use std::net::{Ipv4Addr, SocketAddr};
use std::ops::Range;
use std::path::Path;
use std::sync::atomic::Ordering;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use hyper::body::Incoming;
use hyper::server::conn::http1;
use hyper::service::service_fn;
use hyper::Request;
use hyper_util::rt::TokioIo;
use serde_json::Value;
use tokio::net::{TcpListener, TcpSocket, TcpStream};
use tokio::task::JoinHandle;
use tokio_util::sync::CancellationToken;

use crate::crd::{install_sources, install_text, CrdSource};
use crate::cut::{CutIo, CutSwitch};
use crate::error::Error;
use crate::faults::Faults;
use crate::fixtures;
use crate::http::handle;
use crate::patch::Patch;
use crate::resource::{builtin_resources, ResourceSpec};
use crate::state::{Config, DeleteOptions, Rights, State, Sub, WriteOptions};
use crate::status::StatusError;
use crate::store::{ListQuery, Snapshot};
use crate::template::marker as template_marker;
use crate::tls::{kubeconfig, TlsMaterial};
use crate::wire::typed_object;

/// Entry point: `TestApiServer::builder()...start().await`.
pub struct TestApiServer;

impl TestApiServer {
    /// A builder with the defaults: plain HTTP on `127.0.0.1:0`, no auth, a history of
    /// 10 000 events per resource, bookmarks every second, nothing seeded.
    pub fn builder() -> TestApiServerBuilder {
        TestApiServerBuilder::default()
    }
}

/// Options of a server; see [`TestApiServer::builder`]. `Debug` never shows tokens.
#[derive(Clone)]
pub struct TestApiServerBuilder {
    listen: SocketAddr,
    history: usize,
    tls: bool,
    tokens: Vec<(String, Option<HashSet<String>>)>,
    bookmark_interval: Duration,
    seed_pods: usize,
    seed_namespaces: usize,
    rv0_ignores_limit: bool,
    partial_metadata: bool,
    resources: Vec<ResourceSpec>,
    namespaces: Vec<String>,
    crds: Vec<CrdSource>,
    garbage_collection: bool,
    collect_unknown_owners: bool,
    service_account_controller: bool,
    admission: bool,
    sharding: bool,
}

impl Default for TestApiServerBuilder {
    fn default() -> Self {
        Self {
            listen: SocketAddr::from((Ipv4Addr::LOCALHOST, 0)),
            history: 10_000,
            tls: false,
            tokens: Vec::new(),
            bookmark_interval: Duration::from_secs(1),
            seed_pods: 0,
            seed_namespaces: 1,
            rv0_ignores_limit: true,
            partial_metadata: true,
            resources: Vec::new(),
            namespaces: Vec::new(),
            crds: Vec::new(),
            garbage_collection: true,
            collect_unknown_owners: true,
            service_account_controller: true,
            admission: true,
            sharding: true,
        }
    }
}

impl std::fmt::Debug for TestApiServerBuilder {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("TestApiServerBuilder")
            .field("listen", &self.listen)
            .field("history", &self.history)
            .field("tls", &self.tls)
            .field("tokens", &format_args!("{} (redacted)", self.tokens.len()))
            .field("bookmark_interval", &self.bookmark_interval)
            .field("seed_pods", &self.seed_pods)
            .field("seed_namespaces", &self.seed_namespaces)
            .field("rv0_ignores_limit", &self.rv0_ignores_limit)
            .field("resources", &self.resources)
            .field("namespaces", &self.namespaces)
            .field("crds", &self.crds)
            .field("garbage_collection", &self.garbage_collection)
            .field("collect_unknown_owners", &self.collect_unknown_owners)
            .field(
                "service_account_controller",
                &self.service_account_controller,
            )
            .field("admission", &self.admission)
            .field("sharding", &self.sharding)
            .finish()
    }
}

impl TestApiServerBuilder {
    /// Events kept per resource for watches and consistent `continue`/exact reads; older
    /// resourceVersions get 410 Expired.
    pub fn history(mut self, events: usize) -> Self {
        self.history = events;
        self
    }

    /// Serve HTTPS with a fresh self-signed CA (see [`RunningServer::ca_pem`]).
    pub fn tls(mut self, on: bool) -> Self {
        self.tls = on;
        self
    }

    /// Require a bearer token; this one may do everything. The first token given is the
    /// one written into the kubeconfig. Without any token, authentication is off.
    pub fn token(mut self, token: impl Into<String>) -> Self {
        self.tokens.push((token.into(), None));
        self
    }

    /// Accept a token that may only touch these resources (`pods`, `deployments.apps`, ...):
    /// anything else answers 403 Forbidden.
    pub fn token_with_access(mut self, token: impl Into<String>, resources: &[&str]) -> Self {
        let allowed = resources.iter().map(|r| (*r).to_owned()).collect();
        self.tokens.push((token.into(), Some(allowed)));
        self
    }

    /// How often watches that asked for bookmarks get one.
    pub fn bookmark_interval(mut self, every: Duration) -> Self {
        self.bookmark_interval = every;
        self
    }

    /// Seed `n` realistic Pods ([`fixtures::pod`]) named `pod-{i}`, spread round-robin over the namespaces.
    pub fn seed_pods(mut self, n: usize) -> Self {
        self.seed_pods = n;
        self
    }

    /// Seed `k` Namespaces `ns-0` ... `ns-{k-1}` that seeded Pods go to (at least one),
    /// each with the 50 ReplicaSets fixture Pods name as their owners
    /// ([`fixtures::pod_owner`]), so the garbage collector keeps the Pods.
    pub fn seed_namespaces(mut self, k: usize) -> Self {
        self.seed_namespaces = k;
        self
    }

    /// The address to listen on (default `127.0.0.1:0`, any free port).
    pub fn listen(mut self, addr: SocketAddr) -> Self {
        self.listen = addr;
        self
    }

    /// Whether `resourceVersion=0` lists ignore `limit` and return everything in one page,
    /// as kube-apiserver's watch cache does (default true).
    pub fn rv0_ignores_limit(mut self, on: bool) -> Self {
        self.rv0_ignores_limit = on;
        self
    }

    /// Whether lists, watches and delete-collections honour KEP-5866's `shardSelector`
    /// (default true, as kube-apiserver with the `ShardedListAndWatch` feature gate on, which
    /// 1.36 and 1.37 leave off by default): only objects whose FNV-1a hash of
    /// `metadata.uid` or `metadata.namespace` is in the ranges are sent, and a list echoes the
    /// selector in `metadata.shardInfo.selector`. Off, the parameter is ignored and no
    /// `shardInfo` sent, as by an older server, so clients' fallback to filtering on their
    /// side can be tested.
    pub fn sharding(mut self, on: bool) -> Self {
        self.sharding = on;
        self
    }

    /// Whether lists and watches asking for `as=PartialObjectMetadataList` /
    /// `as=PartialObjectMetadata` get metadata only (default true); off, the `Accept`
    /// parameters are ignored and full objects sent, as by a server without the feature.
    pub fn partial_metadata(mut self, on: bool) -> Self {
        self.partial_metadata = on;
        self
    }

    /// Create these Namespaces at start, besides the ones every server has (`default`,
    /// `kube-node-lease`, `kube-public`, `kube-system`) and the seeded `ns-*`: writes into a
    /// namespace that does not exist are 404 `namespaces "x" not found`, as on a cluster.
    /// Each gets the fixture Pods' ReplicaSets ([`fixtures::pod_owner`]), as `ns-*` do.
    pub fn namespaces<I, S>(mut self, names: I) -> Self
    where
        I: IntoIterator<Item = S>,
        S: Into<String>,
    {
        self.namespaces.extend(names.into_iter().map(Into::into));
        self
    }

    /// Install the CRDs of this YAML or JSON text at start, as POSTs of them would
    /// (multi-document YAML: documents of other kinds are skipped). A CRD the server
    /// rejects makes [`TestApiServerBuilder::start`] fail with its message.
    pub fn crd(mut self, yaml_or_json: impl Into<String>) -> Self {
        self.crds.push(CrdSource::Text(yaml_or_json.into()));
        self
    }

    /// Install the CRDs of this YAML or JSON file at start (see
    /// [`TestApiServerBuilder::crd`]); errors name the file.
    pub fn crd_file(mut self, path: impl AsRef<Path>) -> Self {
        self.crds.push(CrdSource::File(path.as_ref().to_path_buf()));
        self
    }

    /// Whether the server collects garbage by `metadata.ownerReferences` (default true), as
    /// kube-controller-manager's garbage collector and kube-apiserver's deletion handling
    /// do: deletes add the `orphan`/`foregroundDeletion` finalizers their propagation policy
    /// asks for and dependents of deleted owners are deleted in the background. Off, deletes
    /// leave dependents alone and add no finalizer, as under envtest (no controller manager).
    pub fn garbage_collection(mut self, on: bool) -> Self {
        self.garbage_collection = on;
        self
    }

    /// Whether the garbage collector deletes dependents whose owner references all name
    /// objects that do not exist (default true), as kube-controller-manager does after
    /// looking each owner up by name and uid. Off, references to uids this server never
    /// issued are left alone (references to deleted owners are still collected): for tests
    /// that write objects owned by objects they never create, as under envtest. Fixture Pods
    /// ([`crate::fixtures::pod`]) find their ReplicaSets in the seeded `ns-*` namespaces.
    pub fn collect_unknown_owners(mut self, on: bool) -> Self {
        self.collect_unknown_owners = on;
        self
    }

    /// Whether the server does what kube-controller-manager's serviceaccounts controller
    /// does (default true): every active namespace, those the server starts with and those
    /// created later, gets a `default` ServiceAccount, created again when it is deleted.
    /// Off, no ServiceAccount exists unless a test creates it, as under envtest (no
    /// controller manager): a Pod create is then refused with 403 `pods "x" is forbidden:
    /// error looking up service account ns/default: serviceaccount "default" not found`
    /// until the account it runs as is created.
    pub fn service_account_controller(mut self, on: bool) -> Self {
        self.service_account_controller = on;
        self
    }

    /// **For benchmarks only.** Whether writes go through admission (default true): the
    /// `NamespaceLifecycle` checks, metadata validation, and a custom resource's pruning,
    /// defaulting and schema validation. Off, writes store what they are given (with the
    /// server-owned metadata and status a create or update always sets), to measure what
    /// those checks cost; CRD writes are always admitted.
    pub fn admission(mut self, on: bool) -> Self {
        self.admission = on;
        self
    }

    /// Serve a resource besides the built-in ones from the start.
    pub fn resource(mut self, spec: ResourceSpec) -> Self {
        self.resources.push(spec);
        self
    }

    /// Binds, seeds and starts serving.
    pub async fn start(self) -> Result<RunningServer, Error> {
        let state = self.build_state()?;
        let tls = if self.tls {
            Some(TlsMaterial::generate(self.listen.ip())?)
        } else {
            None
        };
        let listener = bind(self.listen).await?;
        let addr = listener.local_addr().map_err(|source| Error::Bind {
            addr: self.listen,
            source,
        })?;
        let incarnation = Incarnation::spawn(listener, state.clone(), tls.clone());
        Ok(RunningServer {
            state,
            addr,
            tls,
            token: self.tokens.first().map(|(t, _)| t.clone()),
            incarnation: Mutex::new(Some(incarnation)),
        })
    }

    /// The state a server built from these options starts with: resources registered and
    /// seeded, nothing bound.
    pub(crate) fn build_state(&self) -> Result<Arc<State>, Error> {
        let tokens = (!self.tokens.is_empty()).then(|| {
            self.tokens
                .iter()
                .map(|(t, allowed)| {
                    let rights = match allowed {
                        Some(set) => Rights::Only(set.clone()),
                        None => Rights::All,
                    };
                    (t.clone(), rights)
                })
                .collect::<HashMap<_, _>>()
        });
        let state = Arc::new(State::new(Config {
            history: self.history,
            bookmark_interval: self.bookmark_interval,
            tokens,
            rv0_ignores_limit: self.rv0_ignores_limit,
            partial_metadata: self.partial_metadata,
            garbage_collection: self.garbage_collection,
            collect_unknown_owners: self.collect_unknown_owners,
            service_account_controller: self.service_account_controller,
            admission: self.admission,
            sharding: self.sharding,
        }));
        for spec in builtin_resources()
            .into_iter()
            .chain(self.resources.clone())
        {
            state.register(spec);
        }
        let initial = crate::namespace_lifecycle::INITIAL.map(str::to_owned);
        seed_namespaces(&state, &initial, false)?;
        install_sources(&state, &self.crds)?;
        seed(&state, self.seed_pods, self.seed_namespaces)?;
        seed_namespaces(&state, &self.namespaces, true)?;
        Ok(state)
    }
}

/// Creates these Namespaces, skipping those already there; with `pod_owners`, each new
/// one gets the ReplicaSets fixture Pods name as their owners.
fn seed_namespaces(state: &State, names: &[String], pod_owners: bool) -> Result<(), Error> {
    let seed_err = |source| Error::Seed {
        what: "namespaces".to_owned(),
        source: Box::new(source),
    };
    let r = state.resolve_name("namespaces").map_err(seed_err)?;
    for name in names {
        match state.create(
            &r,
            None,
            fixtures::namespace(name),
            &WriteOptions::default(),
        ) {
            Ok(_) if pod_owners => {
                fixtures::seed_pod_owners(state, name).map_err(|source| Error::Seed {
                    what: "replicasets.apps".to_owned(),
                    source: Box::new(source),
                })?;
            }
            Ok(_) => {}
            Err(e) if e.code == 409 => {}
            Err(e) => return Err(seed_err(e)),
        }
    }
    Ok(())
}

fn seed(state: &Arc<State>, pods: usize, namespaces: usize) -> Result<(), Error> {
    if pods == 0 && namespaces <= 1 {
        return Ok(());
    }
    let namespaces = namespaces.max(1);
    let names: Vec<String> = (0..namespaces).map(|i| format!("ns-{i}")).collect();
    let seed_err = |what: &str| {
        let what = what.to_owned();
        move |source| Error::Seed {
            what,
            source: Box::new(source),
        }
    };
    let ns_store = state
        .resolve_name("namespaces")
        .map_err(seed_err("namespaces"))?;
    for n in &names {
        state
            .create(
                &ns_store,
                None,
                fixtures::namespace(n),
                &WriteOptions::default(),
            )
            .map_err(seed_err("namespaces"))?;
    }
    fixture_pods(state, 0..pods, namespaces).map_err(seed_err("pods"))?;
    // The fixture Pods' ReplicaSets, so that the garbage collector finds their owners.
    for n in &names {
        fixtures::seed_pod_owners(state, n).map_err(seed_err("replicasets.apps"))?;
    }
    Ok(())
}

/// Writes fixture Pods `pod-{i}` for `i` in `range` into `ns-{i % namespaces}` in one
/// batch from a compiled template: one ADDED event each (MODIFIED for an existing name).
fn fixture_pods(state: &State, range: Range<usize>, namespaces: usize) -> Result<(), StatusError> {
    let pods = state.resolve_name("pods")?;
    let start = range.start;
    pods.store
        .create_many(&state.clock, range.len(), fixture_pod_template(), &|k| {
            fixture_pod_vars(start + k, namespaces)
        })
}

/// The fixture Pod template, with the server-owned fields a create stamps: a fresh uid
/// (the variable after [`fixture_pod_vars`]' own), the creation time and generation 1.
fn fixture_pod_template() -> Value {
    let mut template = fixtures::pod_template();
    if let Some(meta) = template.get_mut("metadata").and_then(Value::as_object_mut) {
        meta.insert(
            "uid".into(),
            Value::String(template_marker(fixtures::POD_VARS)),
        );
        meta.insert(
            "creationTimestamp".into(),
            Value::String(crate::meta::now_rfc3339()),
        );
        meta.insert("generation".into(), Value::from(1));
    }
    template
}

/// The variables of [`fixture_pod_template`] for `pod-{i}` in `ns-{i % namespaces}`.
fn fixture_pod_vars(i: usize, namespaces: usize) -> Vec<String> {
    let namespaces = namespaces.max(1);
    let mut v = fixtures::pod_vars(&format!("ns-{}", i % namespaces), &format!("pod-{i}"), i);
    v.push(crate::meta::new_uid());
    v
}

/// Binds with `SO_REUSEADDR`, so a restart can take the same port back at once.
async fn bind(addr: SocketAddr) -> Result<TcpListener, Error> {
    let err = |source| Error::Bind { addr, source };
    let mut last = None;
    for _ in 0..50 {
        let socket = if addr.is_ipv4() {
            TcpSocket::new_v4()
        } else {
            TcpSocket::new_v6()
        }
        .map_err(err)?;
        socket.set_reuseaddr(true).map_err(err)?;
        match socket.bind(addr).and_then(|()| socket.listen(1024)) {
            Ok(l) => return Ok(l),
            Err(e) if e.kind() == std::io::ErrorKind::AddrInUse => {
                last = Some(e);
                tokio::time::sleep(Duration::from_millis(100)).await;
            }
            Err(e) => return Err(err(e)),
        }
    }
    Err(err(last.unwrap_or_else(|| {
        std::io::Error::from(std::io::ErrorKind::AddrInUse)
    })))
}

/// One run of the accept loop and bookmark ticker, until cancelled.
struct Incarnation {
    cancel: CancellationToken,
    accept: JoinHandle<()>,
}

impl Incarnation {
    fn spawn(listener: TcpListener, state: Arc<State>, tls: Option<TlsMaterial>) -> Self {
        let cancel = CancellationToken::new();
        tokio::spawn(crate::namespace_lifecycle::run(
            state.clone(),
            cancel.clone(),
        ));
        tokio::spawn(crate::gc::run(state.clone(), cancel.clone()));
        let ticker_cancel = cancel.clone();
        let ticker_state = state.clone();
        tokio::spawn(async move {
            let mut tick = tokio::time::interval(
                ticker_state
                    .config
                    .bookmark_interval
                    .max(Duration::from_millis(10)),
            );
            tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Skip);
            loop {
                tokio::select! {
                    _ = ticker_cancel.cancelled() => return,
                    _ = tick.tick() => {
                        for store in ticker_state.stores() {
                            store.bookmark(&ticker_state.clock);
                        }
                    }
                }
            }
        });
        let accept_cancel = cancel.clone();
        let accept = tokio::spawn(async move {
            loop {
                let (stream, _) = tokio::select! {
                    _ = accept_cancel.cancelled() => return,
                    r = listener.accept() => match r {
                        Ok(s) => s,
                        Err(e) => {
                            tracing::warn!(error = %e, "test-apiserver: accept failed");
                            tokio::time::sleep(Duration::from_millis(10)).await;
                            continue;
                        }
                    },
                };
                let _ = stream.set_nodelay(true);
                tokio::spawn(serve_connection(
                    stream,
                    state.clone(),
                    tls.clone(),
                    accept_cancel.clone(),
                ));
            }
        });
        Self { cancel, accept }
    }

    async fn stop(self) {
        self.cancel.cancel();
        let _ = self.accept.await;
    }
}

async fn serve_connection(
    stream: TcpStream,
    state: Arc<State>,
    tls: Option<TlsMaterial>,
    cancel: CancellationToken,
) {
    let switch = CutSwitch::default();
    let request_switch = switch.clone();
    let service = service_fn(move |mut req: Request<Incoming>| {
        req.extensions_mut().insert(request_switch.clone());
        handle(state.clone(), req)
    });
    let result = match tls {
        Some(tls) => {
            let stream = tokio::select! {
                _ = cancel.cancelled() => return,
                s = tls.acceptor.accept(stream) => match s {
                    Ok(s) => s,
                    Err(e) => {
                        tracing::debug!(error = %e, "test-apiserver: TLS handshake failed");
                        return;
                    }
                },
            };
            let io = TokioIo::new(CutIo::new(stream, switch));
            let conn = http1::Builder::new().serve_connection(io, service);
            tokio::select! {
                _ = cancel.cancelled() => return,
                r = conn => r,
            }
        }
        None => {
            let io = TokioIo::new(CutIo::new(stream, switch));
            let conn = http1::Builder::new().serve_connection(io, service);
            tokio::select! {
                _ = cancel.cancelled() => return,
                r = conn => r,
            }
        }
    };
    if let Err(e) = result {
        tracing::debug!(error = %e, "test-apiserver: connection ended with an error");
    }
}

/// Pod writes made by [`RunningServer::prepare_pods`], waiting for
/// [`RunningServer::publish_pods`].
pub struct PreparedPods {
    /// The resourceVersion of the first write.
    first_rv: u64,
    objs: Vec<crate::store::Obj>,
}

impl PreparedPods {
    /// Number of writes, one watch event each.
    pub fn len(&self) -> usize {
        self.objs.len()
    }

    /// True when there is nothing to write.
    pub fn is_empty(&self) -> bool {
        self.objs.is_empty()
    }

    /// The resourceVersion the writes follow: their events are the ones above it.
    pub fn after_resource_version(&self) -> u64 {
        self.first_rv - 1
    }

    /// The resourceVersion of the last write (= [`PreparedPods::after_resource_version`]
    /// when empty).
    pub fn last_resource_version(&self) -> u64 {
        self.after_resource_version() + self.objs.len() as u64
    }
}

impl std::fmt::Debug for PreparedPods {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("PreparedPods")
            .field("after_resource_version", &self.after_resource_version())
            .field("len", &self.len())
            .finish()
    }
}

/// A running server. Dropping it stops serving (prefer [`RunningServer::shutdown`]).
pub struct RunningServer {
    state: Arc<State>,
    addr: SocketAddr,
    tls: Option<TlsMaterial>,
    token: Option<String>,
    incarnation: Mutex<Option<Incarnation>>,
}

impl RunningServer {
    /// `http://127.0.0.1:PORT` or `https://...`.
    pub fn url(&self) -> String {
        let scheme = if self.tls.is_some() { "https" } else { "http" };
        format!("{scheme}://{}", self.addr)
    }

    /// The bound address.
    pub fn addr(&self) -> SocketAddr {
        self.addr
    }

    /// The CA certificate (PEM) clients must trust, when serving TLS.
    pub fn ca_pem(&self) -> Option<&str> {
        self.tls.as_ref().map(|t| t.ca_pem.as_str())
    }

    /// The first configured bearer token, if any.
    pub fn token(&self) -> Option<&str> {
        self.token.as_deref()
    }

    /// A kubeconfig for this server: its URL, the CA data when serving TLS and the first token.
    pub fn kubeconfig_yaml(&self) -> String {
        kubeconfig(&self.url(), self.ca_pem(), self.token())
    }

    /// Writes [`RunningServer::kubeconfig_yaml`] to `path` as a new file only its owner can
    /// read or write (mode 0600): it holds the bearer token. Whatever was at `path` (a file,
    /// or a symlink someone planted there) is replaced, never written through.
    pub fn write_kubeconfig(&self, path: impl AsRef<Path>) -> Result<(), Error> {
        let path = path.as_ref();
        replace_with_private_file(path, self.kubeconfig_yaml().as_bytes()).map_err(|source| {
            Error::Write {
                path: path.display().to_string(),
                source,
            }
        })
    }

    /// Serves another resource (e.g. a CRD's version) from now on; discovery lists it.
    pub fn register(&self, spec: ResourceSpec) {
        self.state.register(spec);
    }

    /// Installs the CRDs of this YAML or JSON text (multi-document YAML allowed) as POSTs
    /// of them would: served at once, their objects validated against their schemas.
    pub fn install_crd(&self, yaml_or_json: &str) -> Result<(), Error> {
        install_text(&self.state, "the given text", yaml_or_json)
    }

    /// Creates an object as a POST would (`resource` is `pods`, `deployments.apps`, ...;
    /// `namespace` overrides the object's). Returns the stored object with kind/apiVersion.
    pub fn create(
        &self,
        resource: &str,
        namespace: Option<&str>,
        obj: Value,
    ) -> Result<Value, StatusError> {
        let r = self.state.resolve_name(resource)?;
        let stored = self
            .state
            .create(&r, namespace, obj, &WriteOptions::default())?;
        typed_value(&r.spec, &stored.bytes)
    }

    /// Replaces an object as a PUT would (the name comes from the object; a non-empty
    /// `metadata.resourceVersion` must be current, else 409 Conflict).
    pub fn update(
        &self,
        resource: &str,
        namespace: Option<&str>,
        obj: Value,
    ) -> Result<Value, StatusError> {
        let r = self.state.resolve_name(resource)?;
        let name = crate::meta::meta_str(&obj, "name")
            .unwrap_or_default()
            .to_owned();
        let ns = namespace
            .or(crate::meta::meta_str(&obj, "namespace"))
            .map(str::to_owned);
        let (_, stored) = self.state.update(
            &r,
            ns.as_deref(),
            &name,
            obj,
            Sub::Main,
            &WriteOptions::default(),
        )?;
        typed_value(&r.spec, &stored.bytes)
    }

    /// Replaces only the `status` of an object, as a PUT to its `status` subresource would.
    pub fn update_status(
        &self,
        resource: &str,
        namespace: Option<&str>,
        obj: Value,
    ) -> Result<Value, StatusError> {
        let r = self.state.resolve_name(resource)?;
        let name = crate::meta::meta_str(&obj, "name")
            .unwrap_or_default()
            .to_owned();
        let ns = namespace
            .or(crate::meta::meta_str(&obj, "namespace"))
            .map(str::to_owned);
        let (_, stored) = self.state.update(
            &r,
            ns.as_deref(),
            &name,
            obj,
            Sub::Status,
            &WriteOptions::default(),
        )?;
        typed_value(&r.spec, &stored.bytes)
    }

    /// Applies a JSON merge patch as a PATCH with `application/merge-patch+json` would.
    pub fn patch_merge(
        &self,
        resource: &str,
        namespace: Option<&str>,
        name: &str,
        patch: Value,
    ) -> Result<Value, StatusError> {
        self.patch_with(resource, namespace, name, &Patch::Merge(patch))
    }

    /// Applies an RFC 6902 JSON patch (an array of operations) as a PATCH with
    /// `application/json-patch+json` would: all operations or none; 422 when one does not
    /// apply (a failed `test`, a missing path).
    pub fn patch_json(
        &self,
        resource: &str,
        namespace: Option<&str>,
        name: &str,
        operations: Value,
    ) -> Result<Value, StatusError> {
        self.patch_with(resource, namespace, name, &Patch::Json(operations))
    }

    fn patch_with(
        &self,
        resource: &str,
        namespace: Option<&str>,
        name: &str,
        patch: &Patch,
    ) -> Result<Value, StatusError> {
        let r = self.state.resolve_name(resource)?;
        let (_, stored) = self.state.patch(
            &r,
            namespace,
            name,
            patch,
            Sub::Main,
            &WriteOptions::default(),
        )?;
        typed_value(&r.spec, &stored.bytes)
    }

    /// Deletes an object as a DELETE without options would. Returns its last state (at
    /// the delete's resourceVersion); while `metadata.finalizers` hold it, the object stays,
    /// marked with `deletionTimestamp`, and that is returned.
    pub fn delete(
        &self,
        resource: &str,
        namespace: Option<&str>,
        name: &str,
    ) -> Result<Value, StatusError> {
        let r = self.state.resolve_name(resource)?;
        let (_, stored) = self
            .state
            .delete(&r, namespace, name, &DeleteOptions::default())?;
        typed_value(&r.spec, &stored.bytes)
    }

    /// The current object, as a GET returns it.
    pub fn get(
        &self,
        resource: &str,
        namespace: Option<&str>,
        name: &str,
    ) -> Result<Value, StatusError> {
        let r = self.state.resolve_name(resource)?;
        let stored = self.state.get(&r, namespace, name)?;
        typed_value(&r.spec, &stored.bytes)
    }

    /// Every current object of `resource` (in `namespace`, or all), with kind/apiVersion, in key order.
    pub fn list(&self, resource: &str, namespace: Option<&str>) -> Result<Vec<Value>, StatusError> {
        let r = self.state.resolve_name(resource)?;
        let page = r
            .store
            .list(
                &self.state.clock,
                &ListQuery {
                    snapshot: Snapshot::Latest,
                    namespace,
                    after: None,
                    limit: None,
                    keep: &|_| true,
                    count_remaining: false,
                },
            )
            .map_err(|_| StatusError::internal("cannot read the current state"))?;
        page.items
            .iter()
            .map(|o| typed_value(&r.spec, &o.bytes))
            .collect()
    }

    /// Writes fixture Pods `pod-{i}` ([`fixtures::pod`]) for `i` in `range`, spread over
    /// `ns-0` ... `ns-{namespaces-1}`, in one fast batch: an ADDED event per Pod, or MODIFIED
    /// when the name exists. A quick source of many watch events for benchmarks. Returns the
    /// resourceVersion after the batch.
    pub fn create_pods(&self, range: Range<usize>, namespaces: usize) -> Result<u64, StatusError> {
        fixture_pods(&self.state, range, namespaces)?;
        Ok(self.resource_version())
    }

    /// Builds `count` writes of fixture Pods `pod-{i}` ([`fixtures::pod`]), `i` cycling
    /// over `range`, in `ns-{i % namespaces}`, without writing anything yet:
    /// [`RunningServer::publish_pods`] writes them later in one batch. Making the objects is
    /// the costly part of a write and happens here, so publishing them, and streaming the
    /// watch events that follow, leaves the server's CPU to the clients: for benchmarks
    /// that must measure watch clients rather than the server. The writes take the
    /// resourceVersions after the current one, so any other write before publishing makes
    /// [`RunningServer::publish_pods`] fail.
    pub fn prepare_pods(
        &self,
        range: Range<usize>,
        namespaces: usize,
        count: usize,
    ) -> Result<PreparedPods, StatusError> {
        if range.is_empty() && count > 0 {
            return Err(StatusError::bad_request(
                "prepare_pods: an empty range of pods to write",
            ));
        }
        let pods = self.state.resolve_name("pods")?;
        let first_rv = self.resource_version() + 1;
        let (start, len) = (range.start, range.len().max(1));
        let objs = pods
            .store
            .build_many(first_rv, count, fixture_pod_template(), &|k| {
                fixture_pod_vars(start + k % len, namespaces)
            })?;
        // Their protobuf too, off the clock of whatever watches them.
        if let Some(encoder) = crate::protobuf::encoder().filter(|e| e.serves(&pods.spec)) {
            for obj in &objs {
                if let Err(e) = encoder.kept_raw(&pods.spec, obj) {
                    tracing::debug!("a prepared Pod does not encode in protobuf: {e}");
                }
            }
        }
        Ok(PreparedPods { first_rv, objs })
    }

    /// Writes Pods built by [`RunningServer::prepare_pods`] in one batch, under one lock, at
    /// consecutive resourceVersions: an ADDED event per write, or MODIFIED when the name
    /// exists. Returns the resourceVersion of the last write. 409 Conflict, writing
    /// nothing, if anything was written on this server since they were prepared.
    pub fn publish_pods(&self, prepared: PreparedPods) -> Result<u64, StatusError> {
        let pods = self.state.resolve_name("pods")?;
        let last = prepared.last_resource_version();
        pods.store
            .publish_built(&self.state.clock, prepared.first_rv, prepared.objs)?;
        Ok(last)
    }

    /// Number of watches currently open on `resource` (0 for an unknown resource): wait
    /// for it before injecting faults that act on open watches.
    pub fn open_watches(&self, resource: &str) -> usize {
        self.state
            .resolve_name(resource)
            .map_or(0, |r| r.store.open_watches())
    }

    /// Number of objects of `resource` (0 for an unknown resource).
    pub fn count(&self, resource: &str) -> usize {
        self.state
            .resolve_name(resource)
            .map_or(0, |r| r.store.len())
    }

    /// The latest resourceVersion the server handed out.
    pub fn resource_version(&self) -> u64 {
        self.state.clock.load(Ordering::SeqCst)
    }

    /// The fault-injection handle.
    pub fn faults(&self) -> Faults {
        Faults {
            state: self.state.clone(),
        }
    }

    /// Requests served for (`verb`, `resource`): verbs are `list`, `watch`, `get`,
    /// `create`, `update`, `patch`, `delete`; resources `pods`, `deployments.apps`, ...
    pub fn request_count(&self, verb: &str, resource: &str) -> u64 {
        self.state
            .counts()
            .get(&(verb.to_owned(), resource.to_owned()))
            .copied()
            .unwrap_or(0)
    }

    /// Every request counter, keyed by (verb, resource).
    pub fn request_counts(&self) -> BTreeMap<(String, String), u64> {
        self.state.counts()
    }

    /// The last 1 000 requests received (discovery included), oldest first: what a client
    /// sent, including requests the server refused (e.g. a 415 patch type).
    pub fn requests(&self) -> Vec<crate::RecordedRequest> {
        self.state.recorder.all()
    }

    /// Zeroes the request counters.
    pub fn reset_request_counts(&self) {
        self.state.reset_counts();
    }

    /// Stops serving (every connection, including watches, is closed) and serves again on
    /// the same port. Objects survive; with `keep_history = false` the event history is
    /// lost too, as when a real kube-apiserver restarts and rebuilds its watch cache, so
    /// watches from older resourceVersions get 410 Expired.
    pub async fn restart(&self, keep_history: bool) -> Result<(), Error> {
        self.stop_serving().await;
        if !keep_history {
            self.faults().compact_history();
        }
        let listener = bind(self.addr).await?;
        let incarnation = Incarnation::spawn(listener, self.state.clone(), self.tls.clone());
        *self.incarnation.lock().unwrap_or_else(|p| p.into_inner()) = Some(incarnation);
        Ok(())
    }

    async fn stop_serving(&self) {
        let current = self
            .incarnation
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .take();
        if let Some(inc) = current {
            inc.stop().await;
        }
        for store in self.state.stores() {
            store.close_watches();
        }
    }

    /// Stops serving and closes every connection.
    pub async fn shutdown(self) {
        self.stop_serving().await;
    }
}

impl Drop for RunningServer {
    fn drop(&mut self) {
        if let Some(inc) = self
            .incarnation
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .take()
        {
            inc.cancel.cancel();
        }
    }
}

fn typed_value(spec: &ResourceSpec, stored: &[u8]) -> Result<Value, StatusError> {
    serde_json::from_slice(&typed_object(spec, stored))
        .map_err(|e| StatusError::internal(&format!("stored object is unreadable: {e}")))
}

/// Writes `contents` to a fresh owner-only file beside `path`, then renames it over `path`.
///
/// `create_new` (O_CREAT|O_EXCL) refuses to open an existing name, symlinks included, so
/// nothing planted in the directory is written through; the rename replaces a symlink at
/// `path` rather than its target; and readers never see a half-written kubeconfig.
fn replace_with_private_file(path: &Path, contents: &[u8]) -> std::io::Result<()> {
    use std::io::Write as _;

    let name = path.file_name().ok_or_else(|| {
        std::io::Error::new(std::io::ErrorKind::InvalidInput, "not a path to a file")
    })?;
    let dir = path
        .parent()
        .filter(|d| !d.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    let mut options = std::fs::OpenOptions::new();
    options.write(true).create_new(true);
    #[cfg(unix)]
    std::os::unix::fs::OpenOptionsExt::mode(&mut options, 0o600);
    // Someone able to write to the directory may take a name first: try a few others.
    let mut attempts = 0;
    let (temp, mut file) = loop {
        let mut temp_name = std::ffi::OsString::from(".");
        temp_name.push(name);
        temp_name.push(format!(".{:016x}.tmp", rand::random::<u64>()));
        let temp = dir.join(temp_name);
        match options.open(&temp) {
            Ok(file) => break (temp, file),
            Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists && attempts < 8 => {
                attempts += 1;
            }
            Err(e) => return Err(e),
        }
    };
    let written = file
        .write_all(contents)
        .and_then(|()| file.sync_all())
        .and_then(|()| std::fs::rename(&temp, path));
    if written.is_err() {
        // Best effort: the error that matters is the write's, not the clean-up's.
        let _ = std::fs::remove_file(&temp);
    }
    written
}
