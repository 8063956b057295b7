//! Several replicas, one leader: the controller runs only while this replica holds the
//! Lease, so two replicas never write the same Deployment at once.

use std::sync::{Arc, Mutex, PoisonError};

use kube_informers::leader_election::{LeaderElectionConfig, LeaderElector, LeaseLock};
use rand::Rng;
use tokio_util::sync::CancellationToken;

use crate::{Error, SampleController};

/// This replica's name in the Lease: the host name (a Pod's name in a cluster) and a
/// random suffix, so that a restarted process never mistakes the previous one's lease
/// for its own.
pub fn identity() -> String {
    let host = std::env::var("HOSTNAME")
        .ok()
        .or_else(|| std::fs::read_to_string("/proc/sys/kernel/hostname").ok())
        .map(|h| h.trim().to_owned())
        .filter(|h| !h.is_empty())
        .unwrap_or_else(|| "sample-controller".to_owned());
    let suffix: u32 = rand::rng().random();
    format!("{host}_{suffix:08x}")
}

/// Stands for election on `lock` and runs `controller` while leading.
///
/// Returns `Ok(())` once `cancel` fires (the controller has stopped and the Lease is
/// released, so another replica takes over within a retry period), and
/// [`Error::LostLeadership`] if the Lease was lost while leading: the controller has
/// stopped by then, before another replica could start. One leadership term per call: a
/// replica that lost the Lease should exit and be restarted, as client-go controllers do,
/// rather than lead again with state left from its first term.
pub async fn run_leader_elected(
    controller: SampleController,
    lock: LeaseLock,
    config: LeaderElectionConfig,
    cancel: CancellationToken,
) -> Result<(), Error> {
    let lease = format!("{}/{}", lock.namespace(), lock.name());
    let identity = lock.identity().to_owned();
    let controller = Arc::new(Mutex::new(Some(controller)));
    let failed: Arc<Mutex<Option<Error>>> = Arc::default();
    // Cancelled by the caller, or by a controller that cannot run (to end the election).
    let stop = cancel.child_token();

    let elector = LeaderElector::new(lock, config)?
        .on_started_leading({
            let (failed, stop) = (failed.clone(), stop.clone());
            move |leading: CancellationToken| {
                let controller = take(&controller);
                let (failed, stop) = (failed.clone(), stop.clone());
                async move {
                    let Some(controller) = controller else {
                        return;
                    };
                    tracing::info!("started leading; starting the controller");
                    if let Err(e) = controller.run(leading).await {
                        *failed.lock().unwrap_or_else(PoisonError::into_inner) = Some(e);
                        stop.cancel();
                    }
                }
            }
        })
        .on_new_leader(move |leader| {
            if leader != identity {
                tracing::info!(leader, "another replica leads; standing by");
            }
        });
    elector.run(stop).await?;

    if let Some(e) = take(&failed) {
        return Err(e);
    }
    if cancel.is_cancelled() {
        Ok(())
    } else {
        Err(Error::LostLeadership { lease })
    }
}

fn take<T>(slot: &Mutex<Option<T>>) -> Option<T> {
    slot.lock().unwrap_or_else(PoisonError::into_inner).take()
}
