//! What can stop the controller as a whole. A failing reconcile of one Foo is not here: it
//! is a [`ReconcileError`](crate::ReconcileError), logged and retried with backoff.

use kube_informers::controller::ControllerError;
use kube_informers::leader_election::LeaderElectionError;

/// Why [`SampleController::run`](crate::SampleController::run),
/// [`run_leader_elected`](crate::run_leader_elected) or
/// [`check_foos_served`](crate::check_foos_served) failed.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// The cluster does not serve `foos.samplecontroller.k8s.io`.
    #[error(
        "the cluster does not serve foos.samplecontroller.k8s.io: apply the CRD first \
         (kubectl apply -f examples/sample-controller/crd/foo.yaml): {source}"
    )]
    CrdMissing {
        /// The server's 404.
        #[source]
        source: kube_informers::Error,
    },
    /// A request outside reconciling failed (e.g. the check for the CRD).
    #[error(transparent)]
    Api(kube_informers::Error),
    /// An informer the workers read could not sync, so no worker started.
    #[error(transparent)]
    Controller(#[from] ControllerError),
    /// The leader election could not run (its configuration or lock is invalid).
    #[error(transparent)]
    LeaderElection(#[from] LeaderElectionError),
    /// Another replica took the Lease, or this one could not renew it in time. The
    /// controller has stopped; exit and let a restart stand for election afresh, as
    /// client-go controllers do.
    #[error("lost the leadership of lease {lease}; the controller has stopped")]
    LostLeadership {
        /// The Lease, `namespace/name`.
        lease: String,
    },
}
