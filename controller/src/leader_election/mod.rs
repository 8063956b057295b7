//! Leader election over a `coordination.k8s.io/v1` Lease, with client-go's
//! `tools/leaderelection` semantics: several replicas run, one leads.
//!
//! Candidates try to acquire the Lease every `retry_period` (with jitter). The leader renews
//! it every `retry_period`; if no renewal succeeds within `renew_deadline` it stops leading.
//! A candidate takes a Lease held by another only after seeing it unchanged for
//! `lease_duration` by its OWN clock (the holder's `renewTime` is never trusted, so the
//! offset between machines' clocks does not matter). Every write is guarded by the
//! resourceVersion it was based on, so two candidates can never both win the same Lease.
//!
//! # Why one leader at a time
//!
//! The leader cancels its leading token at the latest `retry_period + renew_deadline` after
//! it *sent* its last successful renewal (the renew loop does not jitter: it waits
//! `retry_period` from that send, then retries for `renew_deadline`). Another candidate
//! can only read that renewal after the server wrote it, hence after it was sent, and
//! waits `lease_duration` from that read before it takes the Lease. So
//! [`LeaderElectionConfig`] requires `lease_duration > renew_deadline + retry_period`,
//! counting `lease_duration` in the whole seconds the Lease stores; the defaults
//! (15 s > 10 s + 2 s) leave a margin of 3 s.
//!
//! The durations are measured by each machine's monotonic clock. Clocks may run at
//! different rates, not only with an offset: the argument holds while the candidate's
//! clock runs at most `lease_duration / (renew_deadline + retry_period)` times as fast as
//! the leader's (the defaults tolerate 25 %; NTP-disciplined clocks differ by well under
//! 0.1 %). What the margin must also absorb: the time the started-leading future takes to
//! stop acting once its token is cancelled, and pauses of the leader's process that its
//! monotonic clock does not see (a suspended VM or machine). A leader frozen past the
//! margin may act after another took over, as with client-go: fence writes that must never
//! overlap (e.g. with the Lease's resourceVersion) when that matters.
//!
//! ```no_run
//! use informer_controller::leader_election::{LeaderElectionConfig, LeaderElector, LeaseLock};
//! use tokio_util::sync::CancellationToken;
//!
//! # async fn run() -> Result<(), Box<dyn std::error::Error>> {
//! let client = informer_runtime::Client::try_default().await?;
//! let identity = std::env::var("POD_NAME")?;
//! let elector = LeaderElector::new(
//!     LeaseLock::new(client, "shop", "sample-controller", identity),
//!     LeaderElectionConfig::default(),
//! )?
//! .on_started_leading(|leading: CancellationToken| async move {
//!     // Run the controller until `leading` is cancelled: leadership was lost or `run` ends.
//!     leading.cancelled().await;
//! })
//! .on_new_leader(|identity| println!("{identity} leads"));
//! elector.run(CancellationToken::new()).await?;
//! # Ok(()) }
//! ```

mod lease_lock;

use std::future::Future;
use std::pin::Pin;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Mutex, MutexGuard};
use std::time::{Duration, SystemTime};

use k8s_openapi::api::coordination::v1::{Lease, LeaseSpec};
use k8s_openapi::jiff::Timestamp;
use rand::Rng;
use tokio::time::Instant;
use tokio_util::sync::CancellationToken;

pub use lease_lock::LeaseLock;

use lease_lock::Record;

/// client-go's `JitterFactor`: acquire attempts wait `retry_period * (1 + rand[0, 1.2))`,
/// and `renew_deadline` must exceed `retry_period * 1.2`.
pub const JITTER_FACTOR: f64 = 1.2;

/// Timings of a [`LeaderElector`] (client-go's `LeaderElectionConfig`).
#[derive(Clone, Debug, PartialEq)]
pub struct LeaderElectionConfig {
    /// How long non-leaders wait, after last seeing the Lease change, before they take it
    /// (15 s). Written to the Lease in whole seconds, so at least one second.
    pub lease_duration: Duration,
    /// How long the leader keeps trying to renew before it gives up leading (10 s).
    pub renew_deadline: Duration,
    /// How long candidates wait between attempts (2 s).
    pub retry_period: Duration,
    /// Whether the leader gives the Lease up when it stops leading (true): it writes an
    /// empty holder and a one-second duration, so the next leader need not wait for the
    /// Lease to expire.
    pub release_on_cancel: bool,
    /// A name for logs and errors; empty: the Lease's `namespace/name`.
    pub name: String,
}

impl Default for LeaderElectionConfig {
    fn default() -> Self {
        Self {
            lease_duration: Duration::from_secs(15),
            renew_deadline: Duration::from_secs(10),
            retry_period: Duration::from_secs(2),
            release_on_cancel: true,
            name: String::new(),
        }
    }
}

impl LeaderElectionConfig {
    /// client-go's rules: every duration positive and `renew_deadline > retry_period * 1.2`
    /// ([`JITTER_FACTOR`]); because the Lease stores whole seconds, `lease_duration` at
    /// least one second; and, stricter than client-go's `lease_duration > renew_deadline`,
    /// `lease_duration` (in whole seconds) `> renew_deadline + retry_period`, so that a
    /// leader has stopped before another candidate can take the Lease (see the
    /// [module docs](self)).
    fn check(&self) -> Result<(), String> {
        for (field, value) in [
            ("lease_duration", self.lease_duration),
            ("renew_deadline", self.renew_deadline),
            ("retry_period", self.retry_period),
        ] {
            if value.is_zero() {
                return Err(format!("{field} must be greater than zero"));
            }
        }
        if self.lease_duration < Duration::from_secs(1) {
            return Err(format!(
                "lease_duration ({:?}) must be at least one second: the Lease stores whole seconds",
                self.lease_duration
            ));
        }
        let stored = seconds(self.lease_duration_seconds());
        let leader_may_act = self.renew_deadline.saturating_add(self.retry_period);
        if stored <= leader_may_act {
            let whole = if stored == self.lease_duration {
                String::new()
            } else {
                format!(", stored in the Lease as {stored:?}")
            };
            return Err(format!(
                "lease_duration ({:?}{whole}) must be greater than renew_deadline + \
                 retry_period ({:?} + {:?} = {leader_may_act:?}): a leader may act for up to \
                 renew_deadline + retry_period after its last renewal, so a shorter lease lets \
                 another candidate take over while it still leads",
                self.lease_duration, self.renew_deadline, self.retry_period
            ));
        }
        if self.renew_deadline <= self.retry_period.mul_f64(JITTER_FACTOR) {
            return Err(format!(
                "renew_deadline ({:?}) must be greater than retry_period ({:?}) * {JITTER_FACTOR}",
                self.renew_deadline, self.retry_period
            ));
        }
        Ok(())
    }

    /// `lease_duration` as the Lease stores it: whole seconds, truncated as client-go does.
    fn lease_duration_seconds(&self) -> i32 {
        i32::try_from(self.lease_duration.as_secs()).unwrap_or(i32::MAX)
    }
}

/// Errors of [`LeaderElector`].
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum LeaderElectionError {
    /// The configuration or the lock cannot work: a duration is zero, `lease_duration` (in
    /// the whole seconds the Lease stores) `> renew_deadline + retry_period` or
    /// `renew_deadline > retry_period * 1.2` ([`JITTER_FACTOR`]) does not hold,
    /// `lease_duration` is under one second, or the identity, namespace or Lease name is
    /// empty.
    #[error("leader election {name}: invalid configuration: {message}")]
    InvalidConfig {
        /// The election's name.
        name: String,
        /// What is wrong.
        message: String,
    },
    /// [`LeaderElector::run`] was called while the same elector was already running.
    #[error("leader election {name}: this elector is already running")]
    AlreadyRunning {
        /// The election's name.
        name: String,
    },
}

type StartedLeading =
    Box<dyn Fn(CancellationToken) -> Pin<Box<dyn Future<Output = ()> + Send>> + Send + Sync>;
type StoppedLeading = Box<dyn Fn() + Send + Sync>;
type NewLeader = Box<dyn Fn(&str) + Send + Sync>;

/// What this candidate last saw of the Lease.
#[derive(Default)]
struct State {
    /// The record last read or written (client-go's `observedRecord`).
    observed: Option<Record>,
    /// When `observed` last changed, by the local monotonic clock (`observedTime`).
    observed_time: Option<Instant>,
    /// The spec as last read, to tell whether the Lease changed (`observedRawRecord`).
    observed_spec: Option<LeaseSpec>,
    /// The Lease last read or written: its resourceVersion guards the next write.
    lease: Option<Lease>,
    /// The holder last reported to the new-leader callback.
    reported_leader: String,
    /// Between acquiring and losing leadership in `run`.
    leading: bool,
}

impl State {
    fn holder(&self) -> &str {
        self.observed
            .as_ref()
            .map_or("", |r| r.holder_identity.as_str())
    }

    /// Whether the record last seen expires after `now` (client-go's `isLeaseValid`).
    fn lease_valid(&self, now: Instant) -> bool {
        match (&self.observed, self.observed_time) {
            (Some(record), Some(at)) => at + seconds(record.lease_duration_seconds) > now,
            _ => false,
        }
    }
}

/// Now, for the Lease's `acquireTime` and `renewTime` (informational: no candidate
/// trusts another's clock). k8s-openapi builds jiff without its clock, hence by hand.
pub(crate) fn wall_clock() -> Timestamp {
    let since_epoch = SystemTime::now()
        .duration_since(SystemTime::UNIX_EPOCH)
        .unwrap_or_default();
    let seconds = i64::try_from(since_epoch.as_secs()).unwrap_or(i64::MAX);
    let nanos = i32::try_from(since_epoch.subsec_nanos()).unwrap_or(0);
    Timestamp::new(seconds, nanos).unwrap_or(Timestamp::UNIX_EPOCH)
}

fn seconds(s: i32) -> Duration {
    Duration::from_secs(u64::try_from(s).unwrap_or(0))
}

/// Runs one candidate of a leader election (client-go's `LeaderElector`). See the
/// [module docs](self).
///
/// [`run`](Self::run) waits until this candidate acquires the Lease, calls the
/// started-leading callback with a token, renews the Lease until it cannot or `run`'s
/// token is cancelled, then cancels the leading token, waits for the started-leading
/// future to finish, releases the Lease (if configured) and returns. Call `run` again to
/// stand for election again.
pub struct LeaderElector {
    lock: LeaseLock,
    config: LeaderElectionConfig,
    name: String,
    started_leading: Option<StartedLeading>,
    stopped_leading: Option<StoppedLeading>,
    new_leader: Option<NewLeader>,
    state: Mutex<State>,
    running: AtomicBool,
}

impl std::fmt::Debug for LeaderElector {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("LeaderElector")
            .field("lock", &self.lock)
            .field("config", &self.config)
            .field("is_leader", &self.is_leader())
            .field("leader", &self.get_leader())
            .finish_non_exhaustive()
    }
}

impl LeaderElector {
    /// A candidate holding `lock` with `config`'s timings; fails if the configuration
    /// breaks client-go's rules or a name is empty.
    pub fn new(lock: LeaseLock, config: LeaderElectionConfig) -> Result<Self, LeaderElectionError> {
        let name = if config.name.is_empty() {
            format!("{}/{}", lock.namespace(), lock.name())
        } else {
            config.name.clone()
        };
        let invalid = |message: String| LeaderElectionError::InvalidConfig {
            name: name.clone(),
            message,
        };
        config.check().map_err(invalid)?;
        for (what, value) in [
            ("the lock's identity", lock.identity()),
            ("the Lease's namespace", lock.namespace()),
            ("the Lease's name", lock.name()),
        ] {
            if value.is_empty() {
                return Err(invalid(format!("{what} is empty")));
            }
        }
        Ok(Self {
            lock,
            config,
            name,
            started_leading: None,
            stopped_leading: None,
            new_leader: None,
            state: Mutex::new(State::default()),
            running: AtomicBool::new(false),
        })
    }

    /// Called (in a task of its own) each time this candidate becomes the leader, with a
    /// token that is cancelled when it stops leading. `run` waits for the future to finish
    /// before it releases the Lease, so work guarded by the Lease must end soon after the
    /// token is cancelled.
    #[must_use]
    pub fn on_started_leading<F, Fut>(mut self, callback: F) -> Self
    where
        F: Fn(CancellationToken) -> Fut + Send + Sync + 'static,
        Fut: Future<Output = ()> + Send + 'static,
    {
        self.started_leading = Some(Box::new(move |token| Box::pin(callback(token))));
        self
    }

    /// Called when this candidate has stopped leading: after the started-leading future
    /// finished and the Lease was released. Never called if it did not lead.
    #[must_use]
    pub fn on_stopped_leading(mut self, callback: impl Fn() + Send + Sync + 'static) -> Self {
        self.stopped_leading = Some(Box::new(callback));
        self
    }

    /// Called with the holder's identity whenever this candidate sees the Lease held by a
    /// different identity than last time (itself included). A released Lease (no holder)
    /// is not reported. Runs inline in the election loop: it must not block.
    #[must_use]
    pub fn on_new_leader(mut self, callback: impl Fn(&str) + Send + Sync + 'static) -> Self {
        self.new_leader = Some(Box::new(callback));
        self
    }

    /// Whether this candidate leads now: `run` acquired the Lease, has not lost it, and
    /// the Lease last seen names this candidate.
    pub fn is_leader(&self) -> bool {
        let state = self.state();
        state.leading && state.holder() == self.lock.identity()
    }

    /// The holder of the Lease as last seen, `None` if it was not seen yet or nobody
    /// holds it.
    pub fn get_leader(&self) -> Option<String> {
        Some(self.state().holder().to_owned()).filter(|h| !h.is_empty())
    }

    /// The lock this candidate competes for.
    pub fn lock(&self) -> &LeaseLock {
        &self.lock
    }

    /// Stands for election until `cancel` is cancelled or leadership, once acquired, is
    /// lost. See the [type docs](Self). Fails only if this elector is already running.
    pub async fn run(&self, cancel: CancellationToken) -> Result<(), LeaderElectionError> {
        if self.running.swap(true, Ordering::AcqRel) {
            return Err(LeaderElectionError::AlreadyRunning {
                name: self.name.clone(),
            });
        }
        let _running = ResetOnDrop(&self.running);
        let Some(acquired) = self.acquire(&cancel).await else {
            return Ok(());
        };
        let leadership = Leadership::start(self, cancel.child_token());
        let task = self
            .started_leading
            .as_ref()
            .map(|callback| tokio::spawn(callback(leadership.token.clone())));
        self.renew(&cancel, acquired).await;
        drop(leadership);
        if let Some(task) = task {
            if let Err(e) = task.await {
                tracing::error!(election = %self.name, error = %e, "the started-leading callback failed");
            }
        }
        if self.config.release_on_cancel {
            self.release().await;
        }
        if let Some(callback) = &self.stopped_leading {
            callback();
        }
        Ok(())
    }

    fn state(&self) -> MutexGuard<'_, State> {
        self.state.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// Tries every `retry_period` with jitter until the Lease is acquired or `cancel` fires
    /// (`None`): client-go's `acquire` with `wait.JitterUntil`. Returns when the successful
    /// attempt started, no later than the write that took the Lease was sent.
    async fn acquire(&self, cancel: &CancellationToken) -> Option<Instant> {
        tracing::info!(election = %self.name, lock = %self.lock, identity = self.lock.identity(), "attempting to acquire the leader lease");
        loop {
            let started = Instant::now();
            // client-go bounds this by the HTTP client's timeout; a request hung longer
            // than the renew deadline would be useless to the leader anyway.
            let attempt =
                tokio::time::timeout(self.config.renew_deadline, self.try_acquire_or_renew());
            let acquired = tokio::select! {
                biased;
                () = cancel.cancelled() => return None,
                acquired = attempt => acquired.unwrap_or(false),
            };
            self.maybe_report_transition();
            if acquired {
                tracing::info!(election = %self.name, lock = %self.lock, identity = self.lock.identity(), "acquired the leader lease");
                return Some(started);
            }
            let jitter = rand::rng().random_range(0.0..JITTER_FACTOR);
            let pause = self.config.retry_period.mul_f64(1.0 + jitter);
            tokio::select! {
                biased;
                () = cancel.cancelled() => return None,
                () = tokio::time::sleep(pause) => {}
            }
        }
    }

    /// Renews every `retry_period` until a renewal cycle finds no success within
    /// `renew_deadline` or `cancel` fires (client-go's `renew`: `wait.Until` over
    /// `PollUntilContextTimeout`). The deadline also cuts a request in flight.
    ///
    /// Both the pause and the deadline count from when the last successful attempt
    /// started (`renewed`), not from when its answer came: other candidates start waiting
    /// out the lease once the server has the write, which may be long before a slow answer
    /// arrives, so leadership ends at most `retry_period + renew_deadline` after the
    /// renewal was sent, whatever the latency.
    async fn renew(&self, cancel: &CancellationToken, mut renewed: Instant) {
        let retry = self.config.retry_period;
        loop {
            tokio::select! {
                biased;
                () = cancel.cancelled() => return,
                () = tokio::time::sleep_until(renewed + retry) => {}
            }
            let deadline = renewed + retry + self.config.renew_deadline;
            let cycle = async {
                loop {
                    let started = Instant::now();
                    if self.try_acquire_or_renew().await {
                        return started;
                    }
                    tokio::time::sleep_until(started + retry).await;
                }
            };
            let outcome = tokio::select! {
                biased;
                () = cancel.cancelled() => return,
                outcome = tokio::time::timeout_at(deadline, cycle) => outcome,
            };
            self.maybe_report_transition();
            match outcome {
                Ok(started) => renewed = started,
                Err(_) => {
                    tracing::warn!(election = %self.name, lock = %self.lock, deadline = ?self.config.renew_deadline, "failed to renew the leader lease within the renew deadline: stopping leading");
                    return;
                }
            }
        }
    }

    /// One attempt to acquire or renew the Lease (client-go's `tryAcquireOrRenew`).
    async fn try_acquire_or_renew(&self) -> bool {
        let identity = self.lock.identity();
        let wall = wall_clock();
        let now = Instant::now();
        let mut desired = Record {
            holder_identity: identity.to_owned(),
            lease_duration_seconds: self.config.lease_duration_seconds(),
            acquire_time: Some(wall),
            renew_time: Some(wall),
            leader_transitions: 0,
        };

        // 1. The leader writes optimistically over the version it wrote last.
        let fast = {
            let state = self.state();
            match (&state.observed, &state.lease) {
                (Some(observed), Some(lease))
                    if state.holder() == identity && state.lease_valid(now) =>
                {
                    Some((observed.clone(), lease.clone()))
                }
                _ => None,
            }
        };
        if let Some((observed, lease)) = fast {
            desired.acquire_time = observed.acquire_time;
            desired.leader_transitions = observed.leader_transitions;
            match self.lock.update(&lease, &desired).await {
                Ok(written) => {
                    self.set_observed(desired, written);
                    return true;
                }
                Err(e) => {
                    tracing::debug!(election = %self.name, error = %e, "optimistic renewal failed; reading the lease");
                }
            }
        }

        // 2. Read the Lease, or create it.
        let lease = match self.lock.get().await {
            Ok(lease) => lease,
            Err(e) if e.is_not_found() => {
                return match self.lock.create(&desired).await {
                    Ok(created) => {
                        self.set_observed(desired, created);
                        true
                    }
                    Err(e) => {
                        tracing::warn!(election = %self.name, error = %e, "cannot create the leader lease");
                        false
                    }
                };
            }
            Err(e) => {
                tracing::warn!(election = %self.name, error = %e, "cannot read the leader lease");
                return false;
            }
        };

        // 3. Held by another and not expired by our clock: wait.
        let spec = lease.spec.clone().unwrap_or_default();
        let current = Record::from_spec(&spec);
        let is_leader = {
            let mut state = self.state();
            if state.observed_spec.as_ref() != Some(&spec) {
                state.observed = Some(current.clone());
                state.observed_time = Some(Instant::now());
                state.observed_spec = Some(spec);
            }
            state.lease = Some(lease.clone());
            let expired = state
                .observed_time
                .is_none_or(|at| at + seconds(current.lease_duration_seconds) < now);
            let is_leader = state.holder() == identity;
            if !current.holder_identity.is_empty() && !expired && !is_leader {
                tracing::debug!(election = %self.name, holder = %current.holder_identity, "the lease is held and has not expired");
                return false;
            }
            is_leader
        };

        // 4. Take or renew it, guarded by the resourceVersion just read.
        if is_leader {
            desired.acquire_time = current.acquire_time;
            desired.leader_transitions = current.leader_transitions;
        } else {
            desired.leader_transitions = current.leader_transitions.saturating_add(1);
        }
        match self.lock.update(&lease, &desired).await {
            Ok(written) => {
                self.set_observed(desired, written);
                true
            }
            Err(e) if e.is_conflict() => {
                tracing::debug!(election = %self.name, error = %e, "another candidate wrote the lease first");
                false
            }
            Err(e) => {
                tracing::warn!(election = %self.name, error = %e, "cannot update the leader lease");
                false
            }
        }
    }

    /// Records a write of ours (client-go's `setObservedRecord`).
    fn set_observed(&self, record: Record, lease: Lease) {
        let mut state = self.state();
        state.observed = Some(record);
        state.observed_time = Some(Instant::now());
        state.lease = Some(lease);
    }

    fn maybe_report_transition(&self) {
        let holder = {
            let mut state = self.state();
            let holder = state.holder().to_owned();
            if holder == state.reported_leader {
                return;
            }
            state.reported_leader.clone_from(&holder);
            holder
        };
        if holder.is_empty() {
            return;
        }
        tracing::info!(election = %self.name, leader = %holder, "new leader observed");
        if let Some(callback) = &self.new_leader {
            callback(&holder);
        }
    }

    /// Gives the Lease up if we hold it: an empty holder, a one-second duration, the
    /// transitions kept; guarded by the resourceVersion of our last write, so a Lease
    /// someone else took meanwhile is left alone (409).
    async fn release(&self) {
        let (observed, lease) = {
            let state = self.state();
            if state.holder() != self.lock.identity() {
                return;
            }
            match (&state.observed, &state.lease) {
                (Some(observed), Some(lease)) => (observed.clone(), lease.clone()),
                _ => return,
            }
        };
        let now = wall_clock();
        let released = Record {
            holder_identity: String::new(),
            lease_duration_seconds: 1,
            acquire_time: Some(now),
            renew_time: Some(now),
            leader_transitions: observed.leader_transitions,
        };
        match tokio::time::timeout(
            self.config.renew_deadline,
            self.lock.update(&lease, &released),
        )
        .await
        {
            Ok(Ok(written)) => {
                tracing::info!(election = %self.name, lock = %self.lock, "released the leader lease");
                self.set_observed(released, written);
            }
            Ok(Err(e)) => {
                tracing::warn!(election = %self.name, error = %e, "cannot release the leader lease");
            }
            Err(_) => {
                tracing::warn!(election = %self.name, deadline = ?self.config.renew_deadline, "cannot release the leader lease within the renew deadline");
            }
        }
    }
}

/// Leadership held by `run`: dropping it (when leadership ends, or when `run`'s future is
/// dropped) marks the elector as not leading and cancels the leading token.
struct Leadership<'a> {
    elector: &'a LeaderElector,
    token: CancellationToken,
}

impl<'a> Leadership<'a> {
    fn start(elector: &'a LeaderElector, token: CancellationToken) -> Self {
        elector.state().leading = true;
        Self { elector, token }
    }
}

impl Drop for Leadership<'_> {
    fn drop(&mut self) {
        self.elector.state().leading = false;
        self.token.cancel();
    }
}

struct ResetOnDrop<'a>(&'a AtomicBool);

impl Drop for ResetOnDrop<'_> {
    fn drop(&mut self) {
        self.0.store(false, Ordering::Release);
    }
}
