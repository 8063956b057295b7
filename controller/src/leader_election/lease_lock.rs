//! The lock candidates compete for: one `coordination.k8s.io/v1` Lease (client-go's
//! `resourcelock.LeaseLock`), and the leader election record it stores in its spec.

use std::fmt;

use k8s_openapi::api::coordination::v1::{Lease, LeaseSpec};
use k8s_openapi::apimachinery::pkg::apis::meta::v1::{MicroTime, ObjectMeta};
use k8s_openapi::jiff::Timestamp;

use informer_runtime::api::{Api, PostParams};
use informer_runtime::client::Client;
use informer_runtime::error::Error;

/// The Lease `namespace/name` that candidates for one leadership compete for, and the
/// identity this candidate writes into `spec.holderIdentity` when it leads. Every
/// candidate needs an identity of its own (a pod name, or a hostname plus a random suffix).
///
/// ```no_run
/// # use informer_controller::leader_election::LeaseLock;
/// # async fn run() -> Result<(), informer_runtime::Error> {
/// let client = informer_runtime::Client::try_default().await?;
/// let lock = LeaseLock::new(client, "shop", "sample-controller", "sample-controller-7d9f-x2x4q");
/// # Ok(()) }
/// ```
#[derive(Clone)]
pub struct LeaseLock {
    api: Api<Lease>,
    namespace: String,
    name: String,
    identity: String,
}

impl fmt::Debug for LeaseLock {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("LeaseLock")
            .field("namespace", &self.namespace)
            .field("name", &self.name)
            .field("identity", &self.identity)
            .field("server", &self.api.client().base_url())
            .finish()
    }
}

impl fmt::Display for LeaseLock {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "lease {}/{}", self.namespace, self.name)
    }
}

impl LeaseLock {
    /// The Lease `namespace/name`, held as `identity`. Nothing is sent until the elector
    /// runs; [`LeaderElector::new`](super::LeaderElector::new) rejects empty names.
    pub fn new(client: Client, namespace: &str, name: &str, identity: impl Into<String>) -> Self {
        Self {
            api: Api::namespaced(client, namespace),
            namespace: namespace.to_owned(),
            name: name.to_owned(),
            identity: identity.into(),
        }
    }

    /// The identity this candidate holds the Lease as.
    pub fn identity(&self) -> &str {
        &self.identity
    }

    /// The Lease's namespace.
    pub fn namespace(&self) -> &str {
        &self.namespace
    }

    /// The Lease's name.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// GETs the Lease.
    pub(super) async fn get(&self) -> Result<Lease, Error> {
        self.api.get(&self.name).await
    }

    /// POSTs the Lease with `record` as its spec; 409 AlreadyExists if another created it first.
    pub(super) async fn create(&self, record: &Record) -> Result<Lease, Error> {
        let mut spec = LeaseSpec::default();
        record.write_to(&mut spec);
        let lease = Lease {
            metadata: ObjectMeta {
                name: Some(self.name.clone()),
                namespace: Some(self.namespace.clone()),
                ..ObjectMeta::default()
            },
            spec: Some(spec),
        };
        self.api.create(&lease, &PostParams::default()).await
    }

    /// PUTs `base` with `record` in its spec. `base` keeps the resourceVersion it was read
    /// or written with, so if anyone wrote the Lease since, the server answers 409 Conflict
    /// and nothing changes: two candidates can never both win one version.
    pub(super) async fn update(&self, base: &Lease, record: &Record) -> Result<Lease, Error> {
        let mut lease = base.clone();
        record.write_to(lease.spec.get_or_insert_with(LeaseSpec::default));
        self.api.update(&lease, &PostParams::default()).await
    }
}

/// What a Lease says about its holder (client-go's `LeaderElectionRecord`).
#[derive(Clone, Debug, Default, PartialEq)]
pub(super) struct Record {
    /// Empty when nobody holds the Lease (it was released).
    pub(super) holder_identity: String,
    pub(super) lease_duration_seconds: i32,
    pub(super) acquire_time: Option<Timestamp>,
    pub(super) renew_time: Option<Timestamp>,
    pub(super) leader_transitions: i32,
}

impl Record {
    pub(super) fn from_spec(spec: &LeaseSpec) -> Self {
        Self {
            holder_identity: spec.holder_identity.clone().unwrap_or_default(),
            lease_duration_seconds: spec.lease_duration_seconds.unwrap_or_default(),
            acquire_time: spec.acquire_time.as_ref().map(|t| t.0),
            renew_time: spec.renew_time.as_ref().map(|t| t.0),
            leader_transitions: spec.lease_transitions.unwrap_or_default(),
        }
    }

    /// Writes the fields the record owns; other fields of the spec (`preferredHolder`,
    /// `strategy`) are left as they are.
    fn write_to(&self, spec: &mut LeaseSpec) {
        spec.holder_identity = Some(self.holder_identity.clone());
        spec.lease_duration_seconds = Some(self.lease_duration_seconds);
        spec.acquire_time = self.acquire_time.map(MicroTime);
        spec.renew_time = self.renew_time.map(MicroTime);
        spec.lease_transitions = Some(self.leader_transitions);
    }
}
