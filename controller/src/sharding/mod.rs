//! A shard ring over `coordination.k8s.io/v1` Leases: replicas of one controller split the
//! objects among themselves by the FNV-1a hash of their uid (or namespace), the hash
//! kube-apiserver's sharded lists and watches filter on (KEP-5866), so each replica can ask
//! the server for its own objects only.
//!
//! # Membership
//!
//! Each replica holds a Lease of its own, `<ring>-<identity>`, labelled
//! `sharding.kube-informers.io/ring: <ring>`, and renews it every `retry_period`. The members
//! are the replicas whose Lease is live: held (`holderIdentity` set) and seen to change
//! within its own `leaseDurationSeconds`. As in [leader election](crate::leader_election),
//! "seen to change" is measured by the observer's monotonic clock from the moment it read a
//! new resourceVersion; the holder's `renewTime` is written for people and tools but never
//! trusted, so clock offsets between machines do not matter.
//!
//! # Assignment
//!
//! The hash space is cut into `buckets` equal buckets (256 by default) and every bucket goes
//! to one member by rendezvous hashing ([`assign`]): every member computes the same answer
//! from the same member set, with no coordination. Rendezvous hashing over fixed buckets
//! rather than a ring with virtual nodes because it moves the minimum: on a join only the
//! buckets the newcomer wins move (its share, about `1/(n+1)` of the objects, and nothing
//! between old members), on a leave only the leaver's, spread over all the others; its
//! balance is binomial (a member of 4 holds 25 % ± 2.7 points with 256 buckets), and the
//! selector stays short enough for a URL (neighbouring buckets merge into one range).
//!
//! # Handoff
//!
//! Computing the same assignment is not enough: two replicas may briefly see different
//! member sets, and a replica that lost a bucket may still be reconciling one of its
//! objects. So a replica works on a bucket only while its own Lease *claims* it (the
//! `sharding.kube-informers.io/held` annotation), and:
//!
//! 1. **Release**: a bucket no longer assigned is first taken out of the replica's
//!    [`Shards`] (the watch channel: informers re-list with the new selector, the workers
//!    stop taking its keys), then the release waits for its reconciles in flight (what
//!    [`Controller::run_sharded`](crate::Controller::run_sharded) does, after any
//!    [release callback](ShardRing::on_release) of the caller's); only when that returns is
//!    the claim removed from the Lease.
//! 2. **Claim**: a bucket newly assigned is claimed only when no other live Lease claims it,
//!    with a write of the replica's own Lease guarded by the resourceVersion it last read.
//! 3. **Verify**: after that write succeeded, the replica lists the ring's Leases again; it
//!    starts on the bucket only if no other live Lease claims it. If one does, the replica
//!    with the greater identity withdraws its claim, the other waits.
//!
//! Why no bucket is ever worked on by two replicas: say A and B both started on bucket `b`,
//! A's verifying list first. B's claim was written before B's list, and A's claim before
//! A's list and kept until A has stopped working on `b`, so B's list, after A's, saw A's
//! claim, unless B judged A's Lease dead. B does that only after seeing it unchanged for
//! `lease_duration`, and a replica that has not renewed for `renew_deadline` stops working
//! on everything (its buckets leave [`Shards`] and are drained) while keeping its claims in
//! its Lease: the same argument as leader election's, under the same condition
//! `lease_duration > renew_deadline + retry_period` and with the same caveats (a frozen
//! process, reconciles that outlive the margin once told to stop). resourceVersion guards
//! make every Lease have one writer: a 409 (or 404) on a replica's own Lease means another
//! process with its identity took it (or a member deleted it as dead), and the replica stops
//! everything at once, then joins again as a newcomer.
//!
//! # Failover
//!
//! A replica that dies without releasing keeps its claims until its Lease is seen unchanged
//! for `lease_duration`; each other replica looks every `retry_period`, so within
//! `lease_duration + retry_period` of the last renewal the dead member is out, its buckets
//! are reassigned, and claimed and started in the same round (no claim blocks them any
//! more). The first member to see a Lease dead deletes it (guarded by the resourceVersion it
//! saw), so Leases do not pile up and a replica started later does not have to watch a dead
//! one for a lease duration before ignoring its claims. A replica that stops cleanly
//! ([`ShardRing::run`]'s cancel) drains everything and deletes its Lease, and the others take
//! its buckets over on their next round.
//!
//! ```no_run
//! use informer_controller::sharding::{ShardRing, ShardRingConfig};
//! use tokio_util::sync::CancellationToken;
//!
//! # async fn run() -> Result<(), Box<dyn std::error::Error>> {
//! let client = informer_runtime::Client::try_default().await?;
//! let ring = ShardRing::new(client, "shop", "foo-controller", std::env::var("POD_NAME")?,
//!     ShardRingConfig::default())?
//!     .on_release(|released| async move {
//!         // drop the queued keys of `released`, wait for their reconciles in flight
//!         let _ = released;
//!     });
//! let mut shards = ring.subscribe();
//! tokio::spawn(async move {
//!     while shards.changed().await.is_ok() {
//!         let selector = shards.borrow().selector(); // relist with it (None: own nothing)
//!         println!("now owning {:?}", selector.map(|s| s.to_string()));
//!     }
//! });
//! ring.run(CancellationToken::new()).await?;
//! # Ok(()) }
//! ```

mod assign;
mod gate;
mod lease;

use std::collections::{BTreeMap, BTreeSet};
use std::future::Future;
use std::pin::Pin;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use k8s_openapi::api::coordination::v1::Lease;
use tokio::sync::watch;
use tokio::time::Instant;
use tokio_util::sync::CancellationToken;

use informer_runtime::api::Api;
use informer_runtime::client::Client;
use informer_runtime::sharding::ShardAssignment;
use informer_selectors::shard::ShardField;

pub use assign::{assign, bucket_of, Shards, DEFAULT_BUCKETS, MAX_BUCKETS};
pub use lease::{HELD_ANNOTATION, RING_LABEL};

pub(crate) use gate::ShardGate;

use lease::{Claims, LeaseIo};

/// Timings and shape of a [`ShardRing`]. Every replica of a ring must use the same
/// `buckets` and `field`.
#[derive(Clone, Debug, PartialEq)]
pub struct ShardRingConfig {
    /// How long a Lease must be seen unchanged before its replica counts as dead (15 s).
    /// Written to the Lease in whole seconds, so at least one second.
    pub lease_duration: Duration,
    /// How long a replica keeps working without a successful renewal (10 s).
    pub renew_deadline: Duration,
    /// How often a replica renews its Lease and looks at the others' (2 s).
    pub retry_period: Duration,
    /// Into how many equal buckets the hash space is cut (256; at most [`MAX_BUCKETS`]).
    pub buckets: u32,
    /// The field hashed: `metadata.uid` (the default) or `metadata.namespace`.
    pub field: ShardField,
}

impl Default for ShardRingConfig {
    fn default() -> Self {
        Self {
            lease_duration: Duration::from_secs(15),
            renew_deadline: Duration::from_secs(10),
            retry_period: Duration::from_secs(2),
            buckets: DEFAULT_BUCKETS,
            field: ShardField::Uid,
        }
    }
}

impl ShardRingConfig {
    fn check(&self) -> Result<(), String> {
        for (field, value) in [
            ("renew_deadline", self.renew_deadline),
            ("retry_period", self.retry_period),
        ] {
            if value.is_zero() {
                return Err(format!("{field} must be greater than zero"));
            }
        }
        let stored = Duration::from_secs(self.lease_duration.as_secs());
        let may_act = self.renew_deadline.saturating_add(self.retry_period);
        if stored <= may_act {
            return Err(format!(
                "lease_duration ({:?}, stored in whole seconds as {stored:?}) must be greater \
                 than renew_deadline + retry_period ({may_act:?}): a replica may work for up to \
                 renew_deadline + retry_period after its last renewal",
                self.lease_duration
            ));
        }
        if self.renew_deadline <= self.retry_period {
            return Err(format!(
                "renew_deadline ({:?}) must be greater than retry_period ({:?})",
                self.renew_deadline, self.retry_period
            ));
        }
        if !(1..=MAX_BUCKETS).contains(&self.buckets) {
            return Err(format!(
                "buckets ({}) must be between 1 and {MAX_BUCKETS}",
                self.buckets
            ));
        }
        Ok(())
    }
}

/// Errors of [`ShardRing`].
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum ShardRingError {
    /// The configuration cannot work (see [`ShardRingConfig`]), or the ring name, namespace
    /// or identity is empty or makes a Lease name kube-apiserver would refuse.
    #[error("shard ring {ring}: invalid configuration: {message}")]
    InvalidConfig {
        /// The ring's name.
        ring: String,
        /// What is wrong.
        message: String,
    },
    /// [`ShardRing::run`] was called while the same ring was already running.
    #[error("shard ring {ring}: this replica is already running")]
    AlreadyRunning {
        /// The ring's name.
        ring: String,
    },
}

type Release = Arc<dyn Fn(Shards) -> Pin<Box<dyn Future<Output = ()> + Send>> + Send + Sync>;

/// One replica's membership of a shard ring. See the [module docs](self).
pub struct ShardRing {
    io: LeaseIo,
    config: ShardRingConfig,
    tx: watch::Sender<Shards>,
    /// The same, as informers follow it.
    assignments: watch::Sender<ShardAssignment>,
    release: Option<Release>,
    running: AtomicBool,
}

impl std::fmt::Debug for ShardRing {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ShardRing")
            .field("lease", &self.io)
            .field("config", &self.config)
            .field("owned", &self.tx.borrow().owned().len())
            .finish()
    }
}

impl ShardRing {
    /// The replica `identity` of ring `ring`, whose Leases live in `namespace`. Nothing is
    /// sent until [`run`](Self::run).
    pub fn new(
        client: Client,
        namespace: &str,
        ring: &str,
        identity: impl Into<String>,
        config: ShardRingConfig,
    ) -> Result<Self, ShardRingError> {
        let identity = identity.into();
        let invalid = |message: String| ShardRingError::InvalidConfig {
            ring: ring.to_owned(),
            message,
        };
        config.check().map_err(invalid)?;
        let io = LeaseIo::new(
            Api::namespaced(client, namespace),
            namespace,
            ring,
            &identity,
        )
        .map_err(invalid)?;
        let (tx, _) = watch::channel(Shards::none(config.field, config.buckets));
        let (assignments, _) = watch::channel(ShardAssignment::Nothing);
        Ok(Self {
            io,
            config,
            tx,
            assignments,
            release: None,
            running: AtomicBool::new(false),
        })
    }

    /// Called with the buckets this replica gives up, after they left [`Shards`] and
    /// before its Lease stops claiming them: drop their queued keys and resolve once no
    /// reconcile of theirs is in flight. The default resolves at once, which is right only
    /// for a consumer that does nothing but read [`subscribe`](Self::subscribe).
    /// [`Controller::run_sharded`](crate::Controller::run_sharded) does this for its own
    /// queue and workers, after this callback: set one only for work of your own besides.
    #[must_use]
    pub fn on_release<F, Fut>(mut self, release: F) -> Self
    where
        F: Fn(Shards) -> Fut + Send + Sync + 'static,
        Fut: Future<Output = ()> + Send + 'static,
    {
        self.release = Some(Arc::new(move |s| Box::pin(release(s))));
        self
    }

    /// Adds `release` after the release callback already set: the controller runner's
    /// drain, after the caller's own.
    pub(crate) fn and_on_release<F, Fut>(mut self, release: F) -> Self
    where
        F: Fn(Shards) -> Fut + Send + Sync + 'static,
        Fut: Future<Output = ()> + Send + 'static,
    {
        let first = self.release.take();
        let release = Arc::new(release);
        self.release = Some(Arc::new(move |s: Shards| {
            let first = first.clone();
            let release = release.clone();
            Box::pin(async move {
                if let Some(first) = first {
                    first(s.clone()).await;
                }
                release(s).await;
            })
        }));
        self
    }

    /// The buckets this replica may work on now, and every change: subscribe before
    /// [`run`](Self::run) starts to see them all.
    pub fn subscribe(&self) -> watch::Receiver<Shards> {
        self.tx.subscribe()
    }

    /// The share this replica may work on, as informers follow it
    /// ([`InformerOptions::shard_assignments`](informer_runtime::informer::InformerOptions::shard_assignments)):
    /// they relist whenever it moves, and deliver objects that left it as
    /// [`Deleted::LeftShard`](informer_runtime::Deleted::LeftShard). Nothing until
    /// [`run`](Self::run) claims buckets.
    pub fn assignments(&self) -> watch::Receiver<ShardAssignment> {
        self.assignments.subscribe()
    }

    /// The buckets this replica may work on now.
    pub fn current(&self) -> Shards {
        self.tx.borrow().clone()
    }

    /// The identity this replica holds its Lease as.
    pub fn identity(&self) -> &str {
        self.io.identity()
    }

    /// Takes part in the ring until `cancel` fires: then stops working on everything, waits
    /// for the release callback, and deletes its Lease so the others take over at once.
    /// Errors of the API server are retried every `retry_period`, never returned.
    pub async fn run(&self, cancel: CancellationToken) -> Result<(), ShardRingError> {
        if self.running.swap(true, Ordering::SeqCst) {
            return Err(ShardRingError::AlreadyRunning {
                ring: self.io.ring().to_owned(),
            });
        }
        let mut round = Round::default();
        loop {
            let started = Instant::now();
            // While it works on buckets, a replica must stop by its renew deadline even in
            // the middle of a round whose requests hang: the round is dropped then.
            let deadline = round
                .last_renew
                .filter(|_| !round.active.is_empty())
                .map(|t| t + self.config.renew_deadline);
            match deadline {
                Some(d) => {
                    if tokio::time::timeout_at(d, self.round(&mut round))
                        .await
                        .is_err()
                    {
                        self.give_up(&mut round);
                    }
                }
                None => self.round(&mut round).await,
            }
            tokio::select! {
                () = cancel.cancelled() => break,
                () = tokio::time::sleep_until(started + self.config.retry_period) => {}
            }
        }
        self.stop(&mut round).await;
        self.running.store(false, Ordering::SeqCst);
        Ok(())
    }

    async fn stop(&self, round: &mut Round) {
        let all: BTreeSet<u32> = round.active.iter().copied().collect();
        self.deactivate(round, &all);
        for task in std::mem::take(&mut round.drains) {
            let _ = task.await;
        }
        if let Some(own) = &round.own {
            if let Err(e) = self.io.delete(own, self.timeout()).await {
                tracing::warn!(ring = self.io.ring(), error = %e, "cannot delete this replica's Lease");
            }
        }
    }

    fn timeout(&self) -> Duration {
        self.config.renew_deadline
    }

    fn publish(&self, active: &BTreeSet<u32>) {
        let next = Shards::new(self.config.field, self.config.buckets, active.clone());
        let assignment = next.assignment();
        self.tx.send_if_modified(|s| {
            let changed = *s != next;
            *s = next;
            changed
        });
        self.assignments.send_if_modified(|a| {
            let changed = *a != assignment;
            *a = assignment;
            changed
        });
    }

    /// Stops working on `buckets` and drains them in the background; they stay claimed
    /// until the drain is over.
    fn deactivate(&self, round: &mut Round, buckets: &BTreeSet<u32>) {
        if buckets.is_empty() {
            return;
        }
        round.active.retain(|b| !buckets.contains(b));
        round.draining.extend(buckets.iter().copied());
        self.publish(&round.active);
        tracing::info!(
            ring = self.io.ring(),
            identity = self.identity(),
            released = buckets.len(),
            owned = round.active.len(),
            "releasing buckets"
        );
        let released = Shards::new(self.config.field, self.config.buckets, buckets.clone());
        let release = self.release.clone();
        let done = round.drained.clone();
        let task = tokio::spawn(async move {
            let owned = released.owned().clone();
            if let Some(release) = release {
                release(released).await;
            }
            done.lock().unwrap_or_else(|e| e.into_inner()).extend(owned);
        });
        round.drains.push(task);
    }

    async fn round(&self, round: &mut Round) {
        let now = Instant::now();
        let drained = std::mem::take(&mut *round.drained.lock().unwrap_or_else(|e| e.into_inner()));
        round.draining.retain(|b| !drained.contains(b));
        round.drains.retain(|t| !t.is_finished());

        if round
            .last_renew
            .is_some_and(|t| now.duration_since(t) > self.config.renew_deadline)
        {
            self.give_up(round);
        }

        match self.io.list(self.timeout()).await {
            Ok(leases) => round.observe(&self.io, self.config.buckets, leases, now),
            Err(e) => {
                tracing::warn!(ring = self.io.ring(), error = %e, "cannot list the ring's Leases");
                self.renew(round).await;
                return;
            }
        }
        if round.own.is_none() {
            self.acquire(round, now).await;
            return;
        }

        self.collect_dead(round, now).await;
        let live = round.live_others(now);
        let mut members: Vec<&str> = live.iter().map(|(m, _)| m.as_str()).collect();
        members.push(self.identity());
        let target = assign(members, self.config.buckets)
            .remove(self.identity())
            .unwrap_or_default();

        let leaving: BTreeSet<u32> = round.active.difference(&target).copied().collect();
        self.deactivate(round, &leaving);

        let held_elsewhere: BTreeSet<u32> = live
            .iter()
            .flat_map(|(_, held)| held.iter().copied())
            .collect();
        let keep: BTreeSet<u32> = round
            .claimed
            .iter()
            .copied()
            .filter(|b| {
                (target.contains(b) && !round.withdrawn.contains(b))
                    || round.draining.contains(b)
                    || round.active.contains(b)
            })
            .collect();
        let fresh = target
            .iter()
            .copied()
            .filter(|b| !round.claimed.contains(b) && !held_elsewhere.contains(b));
        round.claimed = keep.into_iter().chain(fresh).collect();
        round.withdrawn.clear();
        if !self.renew(round).await {
            return;
        }

        let pending: BTreeSet<u32> = round
            .claimed
            .iter()
            .copied()
            .filter(|b| {
                target.contains(b) && !round.active.contains(b) && !round.draining.contains(b)
            })
            .collect();
        if pending.is_empty() {
            return;
        }
        // Verify: a list that started after the claim was written.
        let leases = match self.io.list(self.timeout()).await {
            Ok(l) => l,
            Err(e) => {
                tracing::warn!(ring = self.io.ring(), error = %e, "cannot list the ring's Leases");
                return;
            }
        };
        let after = Instant::now();
        round.observe(&self.io, self.config.buckets, leases, after);
        let live = round.live_others(after);
        let mut started = false;
        for b in pending {
            let rivals: Vec<&str> = live
                .iter()
                .filter(|(_, held)| held.contains(&b))
                .map(|(m, _)| m.as_str())
                .collect();
            if rivals.is_empty() {
                round.active.insert(b);
                started = true;
            } else if rivals.iter().any(|r| *r < self.identity()) {
                round.withdrawn.insert(b);
            }
        }
        if started {
            tracing::info!(
                ring = self.io.ring(),
                identity = self.identity(),
                owned = round.active.len(),
                "starting on buckets"
            );
            self.publish(&round.active);
        }
    }

    /// Stops working on everything when the Lease was not renewed within renew_deadline; the
    /// claims stay in the Lease until the others see it dead, or until this replica verifies
    /// them again after a renewal.
    fn give_up(&self, round: &mut Round) {
        if round.active.is_empty() {
            return;
        }
        tracing::warn!(
            ring = self.io.ring(),
            identity = self.identity(),
            "cannot renew the Lease within renew_deadline; stopping all work"
        );
        let all = round.active.clone();
        self.deactivate(round, &all);
    }

    /// Deletes the Leases seen dead (guarded by the resourceVersion seen), so they do not
    /// pile up and a replica that starts later need not watch them for a lease duration
    /// before it can ignore their claims.
    async fn collect_dead(&self, round: &mut Round, now: Instant) {
        let dead: Vec<(String, Lease)> = round
            .others
            .iter()
            .filter(|(_, s)| !s.live(now))
            .map(|(n, s)| (n.clone(), s.lease.clone()))
            .collect();
        for (name, lease) in dead {
            match self.io.delete(&lease, self.timeout()).await {
                Ok(()) => {
                    round.others.remove(&name);
                    tracing::info!(ring = self.io.ring(), lease = %name, "deleted a dead member's Lease");
                }
                Err(e) => {
                    tracing::debug!(ring = self.io.ring(), lease = %name, error = %e, "cannot delete a dead member's Lease")
                }
            }
        }
    }

    /// Writes this replica's Lease with its claims; false when there is none or the write
    /// failed.
    async fn renew(&self, round: &mut Round) -> bool {
        let Some(own) = round.own.as_ref() else {
            return false;
        };
        let sent = Instant::now();
        let claims = Claims {
            buckets: self.config.buckets,
            held: round.claimed.clone(),
        };
        match self
            .io
            .renew(own, &claims, self.config.lease_duration, self.timeout())
            .await
        {
            Ok(lease) => {
                round.own = Some(lease);
                round.last_renew = Some(sent);
                true
            }
            Err(e) if e.lost => {
                tracing::error!(
                    ring = self.io.ring(),
                    identity = self.identity(),
                    error = %e,
                    "this replica's Lease was written or deleted by another; stopping all work"
                );
                let all = round.active.clone();
                self.deactivate(round, &all);
                round.own = None;
                round.last_renew = None;
                false
            }
            Err(e) => {
                tracing::warn!(ring = self.io.ring(), error = %e, "cannot renew the Lease");
                false
            }
        }
    }

    /// Creates this replica's Lease, or takes it over once it is free: released, or seen
    /// unchanged for its duration (a previous process of this identity died).
    async fn acquire(&self, round: &mut Round, now: Instant) {
        let name = self.io.lease_name().to_owned();
        let claims = Claims {
            buckets: self.config.buckets,
            held: BTreeSet::new(),
        };
        let existing = round.others.get(&name);
        let sent = Instant::now();
        let result = match existing {
            None => {
                self.io
                    .create(&claims, self.config.lease_duration, self.timeout())
                    .await
            }
            Some(seen) if seen.identity.is_empty() || !seen.live(now) => {
                let base = seen.lease.clone();
                self.io
                    .renew(&base, &claims, self.config.lease_duration, self.timeout())
                    .await
            }
            Some(_) => return,
        };
        match result {
            Ok(lease) => {
                round.others.remove(&name);
                round.own = Some(lease);
                round.last_renew = Some(sent);
                round.claimed.clear();
                tracing::info!(
                    ring = self.io.ring(),
                    identity = self.identity(),
                    "joined the ring"
                );
            }
            Err(e) => {
                tracing::warn!(ring = self.io.ring(), error = %e, "cannot take this replica's Lease");
            }
        }
    }
}

/// What one replica's loop keeps between rounds.
#[derive(Default)]
struct Round {
    /// This replica's Lease as last written: its resourceVersion guards the next write.
    own: Option<Lease>,
    /// When the last successful write of it was sent.
    last_renew: Option<Instant>,
    /// The buckets this replica's Lease claims (or will at the next write).
    claimed: BTreeSet<u32>,
    /// The buckets it works on: claimed and verified.
    active: BTreeSet<u32>,
    /// Claimed, no longer worked on, drain not finished.
    draining: BTreeSet<u32>,
    /// Claims to drop at the next write: a rival with a smaller identity claims them too.
    withdrawn: BTreeSet<u32>,
    /// Buckets whose drain finished since the last round.
    drained: Arc<Mutex<BTreeSet<u32>>>,
    /// The drains running, awaited when the ring stops.
    drains: Vec<tokio::task::JoinHandle<()>>,
    /// The other Leases of the ring (and this replica's before it holds it), by name.
    others: BTreeMap<String, Seen>,
}

/// Another Lease as this replica saw it.
struct Seen {
    lease: Lease,
    resource_version: String,
    /// When this resourceVersion was first read, by the local monotonic clock.
    since: Instant,
    duration: Duration,
    identity: String,
    held: BTreeSet<u32>,
}

impl Seen {
    fn live(&self, now: Instant) -> bool {
        !self.identity.is_empty() && now.duration_since(self.since) < self.duration
    }
}

impl Round {
    fn observe(&mut self, io: &LeaseIo, buckets: u32, leases: Vec<Lease>, now: Instant) {
        let own_name = io.lease_name();
        let mut next = BTreeMap::new();
        for lease in leases {
            let Some(name) = lease.metadata.name.clone() else {
                continue;
            };
            if self.own.is_some() && name == own_name {
                continue;
            }
            let rv = lease.metadata.resource_version.clone().unwrap_or_default();
            let since = match self.others.get(&name) {
                Some(seen) if seen.resource_version == rv => seen.since,
                _ => now,
            };
            let read = lease::read(&lease);
            if read.buckets != 0 && read.buckets != buckets {
                tracing::warn!(lease = %name, buckets = read.buckets, "a member of the ring uses another bucket count");
            }
            next.insert(
                name,
                Seen {
                    resource_version: rv,
                    since,
                    duration: read.duration,
                    identity: read.identity,
                    held: read.held,
                    lease,
                },
            );
        }
        self.others = next;
    }

    /// The identities and claims of the live Leases besides this replica's.
    fn live_others(&self, now: Instant) -> Vec<(String, BTreeSet<u32>)> {
        self.others
            .values()
            .filter(|s| s.live(now))
            .map(|s| (s.identity.clone(), s.held.clone()))
            .collect()
    }
}
