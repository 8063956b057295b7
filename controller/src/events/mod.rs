//! Kubernetes Events, with client-go's `tools/events` semantics: an [`EventRecorder`]
//! that never blocks the controller and never fails it.
//!
//! - **Non-blocking**: [`EventRecorder::publish`] only puts the event on a bounded queue
//!   (1000); when the queue is full the event is dropped and counted
//!   ([`RecorderStats::dropped`]). Writers in the background (8) send it.
//! - **Series** (client-go's `EventBroadcaster`): an event isomorphic to one recorded in the
//!   last 6 minutes (same type, action, reason, reporting controller and instance,
//!   `regarding` and `related`) is not written again: the first repetition turns the
//!   recorded Event into a series (`series.count: 2`, `series.lastObservedTime`, a patch);
//!   further ones only count in memory. A series is written again when it has been quiet
//!   for 6 minutes (then forgotten), every 30 minutes while it goes on, and on
//!   [`flush`](EventRecorder::flush).
//! - **Spam filter** (client-go's `EventSourceObjectSpamFilter`): per reporting controller,
//!   object and type, a token bucket of 25 refilled one per 5 minutes, over the last 4096
//!   such keys. It limits the writes a new event or a new series would make; repetitions
//!   folded into a series cost nothing and are never filtered.
//! - **Retries** as client-go's `recordToSink`: a write the server refuses with a `Status`
//!   is not retried (counted in [`RecorderStats::rejected`]), except a series write that
//!   finds its Event already there; a transport failure is retried up to 12 times, 10 s
//!   (±25 %) apart.
//! - **Validation** as kube-apiserver's for `events.k8s.io/v1`: the reporting controller
//!   is a qualified name, the reporting instance at most 128 characters (both checked by
//!   [`EventRecorder::new`]); `reason` and `action` non-empty and at most 128 characters
//!   (else the event is not recorded and counted in [`RecorderStats::invalid`]); `note` at
//!   most 1024 bytes (cut at a character boundary if longer).
//! - **API**: `events.k8s.io/v1` when discovery shows it (client-go's
//!   `NewEventBroadcasterAdapter`), else core `v1` Events with the same content; a 404 from
//!   `events.k8s.io/v1` also switches to core `v1`.
//!
//! ```no_run
//! # async fn demo(client: informer_runtime::Client, foo: k8s_openapi::api::core::v1::ConfigMap) -> Result<(), informer_controller::events::EventError> {
//! use informer_controller::events::{reference, EventRecorder, EventType, RecorderConfig, Reporter};
//! use tokio_util::sync::CancellationToken;
//!
//! let recorder = EventRecorder::new(
//!     client,
//!     Reporter::new("example.com/sample-controller", "sample-controller-7d9f-x2x4b"),
//!     RecorderConfig::default(),
//!     CancellationToken::new(),
//! )?;
//! recorder.publish(&reference(&foo), None, EventType::Normal, "Synced", "Sync", "Foo synced successfully");
//! # Ok(()) }
//! ```

mod write;

use std::collections::HashMap;
use std::hash::BuildHasher as _;
use std::sync::atomic::{AtomicU64, AtomicU8, AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::Duration;

use k8s_openapi::api::core::v1::ObjectReference;
use k8s_openapi::api::events::v1::{Event, EventSeries};
use k8s_openapi::apimachinery::pkg::apis::meta::v1::{MicroTime, ObjectMeta};
use rand::Rng;
use tokio::sync::{mpsc, oneshot, Notify};
use tokio::time::Instant;
use tokio_util::sync::CancellationToken;

use informer_runtime::Client;
use informer_selectors::is_dns_subdomain;

use crate::leader_election::wall_clock;

/// kube-apiserver's limits on an Event (`pkg/apis/core/validation/events.go`).
const REPORTING_INSTANCE_LIMIT: usize = 128;
const ACTION_LIMIT: usize = 128;
const REASON_LIMIT: usize = 128;
const NOTE_LIMIT: usize = 1024;

type Map<K, V> = HashMap<K, V, foldhash::fast::RandomState>;

/// Who reports the events: `reportingController` and `reportingInstance`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Reporter {
    /// The controller, a qualified name such as `example.com/sample-controller`.
    pub controller: String,
    /// This replica of it, such as the Pod's name (at most 128 characters).
    pub instance: String,
}

impl Reporter {
    /// `controller` as run by `instance`.
    pub fn new(controller: impl Into<String>, instance: impl Into<String>) -> Self {
        Self {
            controller: controller.into(),
            instance: instance.into(),
        }
    }
}

/// The `type` of an Event. Kubernetes defines `Normal` and `Warning` and may add more.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum EventType {
    /// Something expected happened.
    Normal,
    /// Something may need attention.
    Warning,
}

impl EventType {
    /// As the API writes it.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Normal => "Normal",
            Self::Warning => "Warning",
        }
    }
}

/// The recorder's limits and timings; the defaults are client-go's.
#[derive(Clone, Debug, PartialEq)]
pub struct RecorderConfig {
    /// Events waiting to be processed before new ones are dropped (1000).
    pub queue_capacity: usize,
    /// Writes in flight at once (8).
    pub workers: usize,
    /// Attempts per write when the server cannot be reached (12).
    pub max_tries: u32,
    /// The pause between those attempts, ±25 % (10 s).
    pub retry_pause: Duration,
    /// How long a series stays open without a repetition, and an event is remembered (6 min).
    pub finish_after: Duration,
    /// How often open series are written (30 min).
    pub refresh_every: Duration,
    /// Writes per object and type at once before the spam filter holds them back (25).
    pub spam_burst: u32,
    /// How often the spam filter gives back one write (5 min).
    pub spam_refill: Duration,
    /// Objects the spam filter remembers (4096).
    pub spam_keys: usize,
}

impl Default for RecorderConfig {
    fn default() -> Self {
        Self {
            queue_capacity: 1000,
            workers: 8,
            max_tries: 12,
            retry_pause: Duration::from_secs(10),
            finish_after: Duration::from_secs(6 * 60),
            refresh_every: Duration::from_secs(30 * 60),
            spam_burst: 25,
            spam_refill: Duration::from_secs(300),
            spam_keys: 4096,
        }
    }
}

/// Why an [`EventRecorder`] cannot be made.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum EventError {
    /// The reporter's names would make every Event invalid.
    #[error("event reporter {field} {value:?} is invalid: {message}")]
    InvalidReporter {
        /// `reportingController` or `reportingInstance`.
        field: &'static str,
        /// The value given.
        value: String,
        /// What kube-apiserver would say about it.
        message: String,
    },
}

/// The API the recorder writes Events to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum EventsApi {
    /// `events.k8s.io/v1`.
    EventsV1,
    /// Core `v1`, for servers without `events.k8s.io/v1`.
    CoreV1,
}

/// What a recorder did so far ([`EventRecorder::stats`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct RecorderStats {
    /// Events accepted by [`EventRecorder::publish`].
    pub published: u64,
    /// Events dropped because the queue was full or the recorder stopped.
    pub dropped: u64,
    /// Events not recorded because a field would fail validation.
    pub invalid: u64,
    /// Events held back by the spam filter.
    pub filtered: u64,
    /// Repetitions folded into a series.
    pub aggregated: u64,
    /// Writes the server accepted.
    pub written: u64,
    /// Writes the server refused (not retried).
    pub rejected: u64,
    /// Writes given up after [`RecorderConfig::max_tries`] attempts.
    pub abandoned: u64,
}

#[derive(Default)]
struct Counters {
    published: AtomicU64,
    dropped: AtomicU64,
    invalid: AtomicU64,
    filtered: AtomicU64,
    aggregated: AtomicU64,
    written: AtomicU64,
    rejected: AtomicU64,
    abandoned: AtomicU64,
}

fn bump(counter: &AtomicU64) {
    counter.fetch_add(1, Ordering::Relaxed);
}

/// What the intake task is asked.
enum Msg {
    Record(Box<Event>),
    Flush(oneshot::Sender<()>),
}

/// State the handles, the intake task and the writers share.
struct Shared {
    reporter: Reporter,
    counters: Counters,
    /// 0: not known yet, 1: `events.k8s.io/v1`, 2: core `v1`.
    api: AtomicU8,
    /// Writes queued or in flight, and a wake-up when they reach zero (for `flush`).
    pending: AtomicUsize,
    idle: Notify,
}

impl Shared {
    fn api(&self) -> Option<EventsApi> {
        match self.api.load(Ordering::Acquire) {
            1 => Some(EventsApi::EventsV1),
            2 => Some(EventsApi::CoreV1),
            _ => None,
        }
    }

    fn set_api(&self, api: EventsApi) {
        let code = match api {
            EventsApi::EventsV1 => 1,
            EventsApi::CoreV1 => 2,
        };
        self.api.store(code, Ordering::Release);
    }

    fn write_finished(&self) {
        if self.pending.fetch_sub(1, Ordering::AcqRel) == 1 {
            self.idle.notify_waiters();
        }
    }
}

/// Records Kubernetes Events for a controller; a cheap-to-clone handle. See the
/// [module docs](self).
#[derive(Clone)]
pub struct EventRecorder {
    tx: mpsc::Sender<Msg>,
    shared: Arc<Shared>,
}

impl std::fmt::Debug for EventRecorder {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("EventRecorder")
            .field("reporter", &self.shared.reporter)
            .finish_non_exhaustive()
    }
}

impl EventRecorder {
    /// Starts a recorder writing through `client` as `reporter` until `cancel` fires
    /// (events still queued then are dropped; [`flush`](Self::flush) first to write them).
    /// Spawns its tasks, so it must be called within a tokio runtime. Fails only if the
    /// reporter's names are invalid.
    pub fn new(
        client: Client,
        reporter: Reporter,
        config: RecorderConfig,
        cancel: CancellationToken,
    ) -> Result<Self, EventError> {
        check_reporter(&reporter)?;
        let (tx, rx) = mpsc::channel(config.queue_capacity.max(1));
        let shared = Arc::new(Shared {
            reporter,
            counters: Counters::default(),
            api: AtomicU8::new(0),
            pending: AtomicUsize::new(0),
            idle: Notify::new(),
        });
        let workers = config.workers.max(1);
        let per_writer = config.queue_capacity.div_ceil(workers).max(1);
        let mut writes = Vec::with_capacity(workers);
        for _ in 0..workers {
            let (writes_tx, writes_rx) = mpsc::channel(per_writer);
            let writer = write::Writer {
                client: client.clone(),
                shared: shared.clone(),
                max_tries: config.max_tries.max(1),
                retry_pause: config.retry_pause,
            };
            tokio::spawn(writer.run(writes_rx, cancel.clone()));
            writes.push(writes_tx);
        }
        let intake = Intake {
            shared: shared.clone(),
            writes,
            hasher: foldhash::fast::RandomState::default(),
            cache: Map::default(),
            spam: Map::default(),
            config,
        };
        tokio::spawn(intake.run(rx, cancel));
        Ok(Self { tx, shared })
    }

    /// Records an event about `regarding` (see [`reference()`]), optionally `related` to a
    /// second object: `reason` says why (`Synced`, `ErrResourceExists`), `action` what was
    /// done or failed (`Sync`, `Create`), `note` the human-readable detail. Never blocks:
    /// the event is queued, or dropped and counted when the queue is full.
    pub fn publish(
        &self,
        regarding: &ObjectReference,
        related: Option<&ObjectReference>,
        type_: EventType,
        reason: &str,
        action: &str,
        note: &str,
    ) {
        let counters = &self.shared.counters;
        if let Err(problem) = check_event(reason, action) {
            bump(&counters.invalid);
            tracing::error!(
                reason,
                action,
                problem,
                "event not recorded: it would be invalid"
            );
            return;
        }
        let event = make_event(
            &self.shared.reporter,
            regarding,
            related,
            type_,
            reason,
            action,
            note,
        );
        match self.tx.try_send(Msg::Record(Box::new(event))) {
            Ok(()) => bump(&counters.published),
            Err(mpsc::error::TrySendError::Full(_)) => {
                bump(&counters.dropped);
                tracing::warn!(
                    reason,
                    action,
                    "unable to record event: too many queued events; dropped it"
                );
            }
            Err(mpsc::error::TrySendError::Closed(_)) => {
                bump(&counters.dropped);
                tracing::debug!(
                    reason,
                    action,
                    "the event recorder has stopped; dropped an event"
                );
            }
        }
    }

    /// Writes every open series now and waits until everything published before the call
    /// was written, refused or given up (for shutdown, and for tests).
    pub async fn flush(&self) {
        let (done, wait) = oneshot::channel();
        if self.tx.send(Msg::Flush(done)).await.is_err() {
            return;
        }
        let _ = wait.await;
    }

    /// What the recorder did so far.
    pub fn stats(&self) -> RecorderStats {
        let c = &self.shared.counters;
        let get = |n: &AtomicU64| n.load(Ordering::Relaxed);
        RecorderStats {
            published: get(&c.published),
            dropped: get(&c.dropped),
            invalid: get(&c.invalid),
            filtered: get(&c.filtered),
            aggregated: get(&c.aggregated),
            written: get(&c.written),
            rejected: get(&c.rejected),
            abandoned: get(&c.abandoned),
        }
    }

    /// The API Events go to, once the first write found out.
    pub fn api(&self) -> Option<EventsApi> {
        self.shared.api()
    }
}

/// A reference to `obj` for [`EventRecorder::publish`]: its apiVersion, kind, namespace,
/// name, uid and resourceVersion (client-go's `reference.GetReference`).
pub fn reference<K>(obj: &K) -> ObjectReference
where
    K: k8s_openapi::Resource + k8s_openapi::Metadata<Ty = ObjectMeta>,
{
    let meta = obj.metadata();
    ObjectReference {
        api_version: Some(K::API_VERSION.to_owned()),
        kind: Some(K::KIND.to_owned()),
        name: meta.name.clone(),
        namespace: meta.namespace.clone().filter(|ns| !ns.is_empty()),
        uid: meta.uid.clone(),
        resource_version: meta.resource_version.clone(),
        field_path: None,
    }
}

fn check_reporter(reporter: &Reporter) -> Result<(), EventError> {
    let invalid = |field, value: &str, message: String| EventError::InvalidReporter {
        field,
        value: value.to_owned(),
        message,
    };
    let controller = &reporter.controller;
    if controller.is_empty() {
        return Err(invalid(
            "reportingController",
            controller,
            "Required value".into(),
        ));
    }
    if let Some(problem) = qualified_name_problem(controller) {
        return Err(invalid("reportingController", controller, problem));
    }
    let instance = &reporter.instance;
    if instance.is_empty() {
        return Err(invalid(
            "reportingInstance",
            instance,
            "Required value".into(),
        ));
    }
    if instance.len() > REPORTING_INSTANCE_LIMIT {
        return Err(invalid(
            "reportingInstance",
            instance,
            format!("can have at most {REPORTING_INSTANCE_LIMIT} characters"),
        ));
    }
    Ok(())
}

/// What apimachinery's `IsQualifiedName` finds wrong with `value`, if anything: an
/// optional DNS-subdomain prefix and `/`, then a name of at most 63 characters,
/// alphanumeric at both ends, `-`, `_` and `.` inside.
fn qualified_name_problem(value: &str) -> Option<String> {
    let (prefix, name) = match value.split_once('/') {
        Some((prefix, name)) => (Some(prefix), name),
        None => (None, value),
    };
    if let Some(prefix) = prefix {
        if !is_dns_subdomain(prefix) {
            return Some("prefix part must be a lowercase RFC 1123 subdomain".into());
        }
    }
    let inner = |c: char| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.');
    let ends = |c: Option<char>| c.is_some_and(|c| c.is_ascii_alphanumeric());
    if name.is_empty()
        || name.len() > 63
        || !name.chars().all(inner)
        || !ends(name.chars().next())
        || !ends(name.chars().last())
    {
        return Some("name part must consist of at most 63 alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character".into());
    }
    None
}

fn check_event(reason: &str, action: &str) -> Result<(), String> {
    for (field, value, limit) in [
        ("reason", reason, REASON_LIMIT),
        ("action", action, ACTION_LIMIT),
    ] {
        if value.is_empty() {
            return Err(format!("{field}: Required value"));
        }
        if value.len() > limit {
            return Err(format!("{field}: can have at most {limit} characters"));
        }
    }
    Ok(())
}

/// `note` cut to the API's limit at a character boundary.
fn truncate_note(note: &str) -> String {
    if note.len() <= NOTE_LIMIT {
        return note.to_owned();
    }
    let mut end = NOTE_LIMIT;
    while !note.is_char_boundary(end) {
        end -= 1;
    }
    note[..end].to_owned()
}

/// client-go's `makeEvent`: named `<regarding's name>.<unix nanos in hex>` (a random
/// UUID when that is no valid name), in `regarding`'s namespace or `default`.
fn make_event(
    reporter: &Reporter,
    regarding: &ObjectReference,
    related: Option<&ObjectReference>,
    type_: EventType,
    reason: &str,
    action: &str,
    note: &str,
) -> Event {
    let now = wall_clock();
    let nanos = now.as_nanosecond();
    let name = format!(
        "{}.{nanos:x}",
        regarding.name.as_deref().unwrap_or_default()
    );
    let name = if is_dns_subdomain(&name) && regarding.name.is_some() {
        name
    } else {
        random_uuid()
    };
    let namespace = regarding
        .namespace
        .clone()
        .filter(|ns| !ns.is_empty())
        .unwrap_or_else(|| "default".to_owned());
    Event {
        metadata: ObjectMeta {
            name: Some(name),
            namespace: Some(namespace),
            ..ObjectMeta::default()
        },
        event_time: Some(MicroTime(now)),
        reporting_controller: Some(reporter.controller.clone()),
        reporting_instance: Some(reporter.instance.clone()),
        action: Some(action.to_owned()),
        reason: Some(reason.to_owned()),
        regarding: Some(regarding.clone()),
        related: related.cloned(),
        note: Some(truncate_note(note)),
        type_: Some(type_.as_str().to_owned()),
        ..Event::default()
    }
}

fn random_uuid() -> String {
    let mut b: [u8; 16] = rand::rng().random();
    b[6] = (b[6] & 0x0f) | 0x40;
    b[8] = (b[8] & 0x3f) | 0x80;
    let h: Vec<String> = b.iter().map(|x| format!("{x:02x}")).collect();
    format!(
        "{}-{}-{}-{}-{}",
        h[..4].concat(),
        h[4..6].concat(),
        h[6..8].concat(),
        h[8..10].concat(),
        h[10..].concat()
    )
}

/// client-go's `eventKey`: what makes two events the same series.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
struct EventKey {
    type_: Option<String>,
    action: Option<String>,
    reason: Option<String>,
    reporting_controller: Option<String>,
    reporting_instance: Option<String>,
    regarding: String,
    related: String,
}

/// An `ObjectReference` as a key (it does not implement `Hash`).
fn reference_key(r: Option<&ObjectReference>) -> String {
    r.map(|r| {
        [
            &r.api_version,
            &r.kind,
            &r.namespace,
            &r.name,
            &r.uid,
            &r.resource_version,
            &r.field_path,
        ]
        .map(|f| f.as_deref().unwrap_or_default())
        .join("\u{0}")
    })
    .unwrap_or_default()
}

fn event_key(e: &Event) -> EventKey {
    EventKey {
        type_: e.type_.clone(),
        action: e.action.clone(),
        reason: e.reason.clone(),
        reporting_controller: e.reporting_controller.clone(),
        reporting_instance: e.reporting_instance.clone(),
        regarding: reference_key(e.regarding.as_ref()),
        related: reference_key(e.related.as_ref()),
    }
}

/// client-go's `getSpamKey`, with the reporting controller and instance as the source.
fn spam_key(e: &Event) -> String {
    let r = e.regarding.clone().unwrap_or_default();
    [
        e.reporting_controller.as_deref(),
        e.reporting_instance.as_deref(),
        r.kind.as_deref(),
        r.namespace.as_deref(),
        r.name.as_deref(),
        r.uid.as_deref(),
        r.api_version.as_deref(),
        e.type_.as_deref(),
    ]
    .map(Option::unwrap_or_default)
    .join("\u{0}")
}

/// A token bucket of `burst`, one token back every `refill`.
struct Bucket {
    tokens: f64,
    at: Instant,
    used: Instant,
}

/// An event remembered for its series.
struct Cached {
    event: Event,
    /// When it or its last repetition was seen, by the local clock.
    seen: Instant,
}

/// The task between `publish` and the writers: spam filter, series, timers.
struct Intake {
    shared: Arc<Shared>,
    /// One queue per writer; an Event's writes always go to the same one, so they reach
    /// the server in order (a series' older count never overwrites a newer one).
    writes: Vec<mpsc::Sender<Box<Event>>>,
    hasher: foldhash::fast::RandomState,
    cache: Map<EventKey, Cached>,
    spam: Map<String, Bucket>,
    config: RecorderConfig,
}

impl Intake {
    async fn run(mut self, mut rx: mpsc::Receiver<Msg>, cancel: CancellationToken) {
        let mut finish =
            tokio::time::interval(self.config.finish_after.max(Duration::from_millis(1)));
        let mut refresh =
            tokio::time::interval(self.config.refresh_every.max(Duration::from_millis(1)));
        // Both fire at once first; there is nothing to do yet.
        finish.tick().await;
        refresh.tick().await;
        loop {
            tokio::select! {
                biased;
                () = cancel.cancelled() => return,
                msg = rx.recv() => match msg {
                    Some(Msg::Record(event)) => self.record(*event),
                    Some(Msg::Flush(done)) => self.flush(done, &cancel),
                    None => return,
                },
                _ = finish.tick() => self.finish_series(),
                _ = refresh.tick() => self.refresh_series(),
            }
        }
    }

    /// client-go's `recordToSink`, with the spam filter in front of new writes.
    fn record(&mut self, event: Event) {
        let now = Instant::now();
        let key = event_key(&event);
        let counters = &self.shared.counters;
        if let Some(cached) = self.cache.get_mut(&key) {
            cached.seen = now;
            let observed = MicroTime(wall_clock());
            if let Some(series) = &mut cached.event.series {
                series.count = series.count.saturating_add(1);
                series.last_observed_time = observed;
                bump(&counters.aggregated);
                return;
            }
            if !take_token(&mut self.spam, spam_key(&event), &self.config, now) {
                bump(&counters.filtered);
                return;
            }
            cached.event.series = Some(EventSeries {
                count: 2,
                last_observed_time: observed,
            });
            bump(&counters.aggregated);
            let write = cached.event.clone();
            self.send(write);
            return;
        }
        if !take_token(&mut self.spam, spam_key(&event), &self.config, now) {
            bump(&counters.filtered);
            return;
        }
        self.cache.insert(
            key,
            Cached {
                event: event.clone(),
                seen: now,
            },
        );
        self.send(event);
    }

    fn send(&self, event: Event) {
        self.shared.pending.fetch_add(1, Ordering::AcqRel);
        let name = event.metadata.name.as_deref().unwrap_or_default();
        let writer =
            usize::try_from(self.hasher.hash_one(name)).unwrap_or(0) % self.writes.len().max(1);
        let sent = self
            .writes
            .get(writer)
            .map(|w| w.try_send(Box::new(event)).is_ok());
        if sent != Some(true) {
            self.shared.write_finished();
            bump(&self.shared.counters.dropped);
            tracing::warn!("unable to write event: too many writes queued; dropped it");
        }
    }

    /// Writes series quiet for `finish_after` and forgets them, and forgets single events
    /// that old (client-go's `finishSeries`).
    fn finish_series(&mut self) {
        let Some(cutoff) = Instant::now().checked_sub(self.config.finish_after) else {
            return;
        };
        let mut finished = Vec::new();
        self.cache.retain(|_, cached| {
            if cached.seen >= cutoff {
                return true;
            }
            if cached.event.series.is_some() {
                finished.push(cached.event.clone());
            }
            false
        });
        for event in finished {
            self.send(event);
        }
    }

    /// Writes every open series (client-go's `refreshExistingEventSeries`).
    fn refresh_series(&self) {
        let open: Vec<Event> = self
            .cache
            .values()
            .filter(|c| c.event.series.is_some())
            .map(|c| c.event.clone())
            .collect();
        for event in open {
            self.send(event);
        }
    }

    /// Answers `done` once no write is queued or in flight (or the recorder stops).
    fn flush(&self, done: oneshot::Sender<()>, cancel: &CancellationToken) {
        self.refresh_series();
        let shared = self.shared.clone();
        let cancel = cancel.clone();
        tokio::spawn(async move {
            loop {
                let idle = shared.idle.notified();
                tokio::pin!(idle);
                idle.as_mut().enable();
                if shared.pending.load(Ordering::Acquire) == 0 {
                    break;
                }
                tokio::select! {
                    () = cancel.cancelled() => break,
                    () = idle => {}
                }
            }
            let _ = done.send(());
        });
    }
}

/// client-go's `EventSourceObjectSpamFilter.Filter`, inverted: true when `key` may write.
fn take_token(
    spam: &mut Map<String, Bucket>,
    key: String,
    config: &RecorderConfig,
    now: Instant,
) -> bool {
    let burst = f64::from(config.spam_burst.max(1));
    if !spam.contains_key(&key) && spam.len() >= config.spam_keys.max(1) {
        let oldest = spam
            .iter()
            .min_by_key(|(_, b)| b.used)
            .map(|(k, _)| k.clone());
        if let Some(oldest) = oldest {
            spam.remove(&oldest);
        }
    }
    let bucket = spam.entry(key).or_insert(Bucket {
        tokens: burst,
        at: now,
        used: now,
    });
    let refill = config.spam_refill.as_secs_f64();
    if refill > 0.0 {
        let gained = now.saturating_duration_since(bucket.at).as_secs_f64() / refill;
        bucket.tokens = (bucket.tokens + gained).min(burst);
    } else {
        bucket.tokens = burst;
    }
    bucket.at = now;
    bucket.used = now;
    if bucket.tokens >= 1.0 {
        bucket.tokens -= 1.0;
        true
    } else {
        false
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reporter_names_are_checked_as_the_api_server_does() {
        let ok = Reporter::new("example.com/sample-controller", "replica-1");
        assert_eq!(check_reporter(&ok), Ok(()));
        for (controller, instance, field) in [
            ("", "i", "reportingController"),
            ("Bad Name", "i", "reportingController"),
            ("UPPER.example/x", "i", "reportingController"),
            ("sample-controller", "", "reportingInstance"),
        ] {
            let err = check_reporter(&Reporter::new(controller, instance)).unwrap_err();
            let EventError::InvalidReporter { field: got, .. } = err;
            assert_eq!(got, field, "{controller:?} {instance:?}");
        }
        let long = "i".repeat(129);
        assert!(check_reporter(&Reporter::new("c", long)).is_err());
    }

    #[test]
    fn notes_are_cut_to_1024_bytes_on_a_character_boundary() {
        let note = "é".repeat(600);
        let cut = truncate_note(&note);
        assert_eq!(cut.len(), 1024);
        assert!(cut.chars().all(|c| c == 'é'));
        assert_eq!(truncate_note("short"), "short");
    }

    #[test]
    fn reason_and_action_must_be_present_and_short() {
        assert!(check_event("Synced", "Sync").is_ok());
        assert!(check_event("", "Sync").is_err());
        assert!(check_event("Synced", &"a".repeat(129)).is_err());
    }

    #[test]
    fn the_spam_filter_allows_a_burst_then_one_per_refill() {
        let config = RecorderConfig {
            spam_burst: 2,
            spam_refill: Duration::from_secs(10),
            ..RecorderConfig::default()
        };
        let mut spam = Map::default();
        let t0 = Instant::now();
        let mut take = |at: Duration| take_token(&mut spam, "k".into(), &config, t0 + at);
        assert!(take(Duration::ZERO));
        assert!(take(Duration::ZERO));
        assert!(!take(Duration::from_secs(5)));
        assert!(take(Duration::from_secs(10)));
        assert!(!take(Duration::from_secs(11)));
    }

    #[test]
    fn events_are_named_after_their_object_or_a_uuid() {
        let reporter = Reporter::new("c", "i");
        let regarding = ObjectReference {
            name: Some("web".into()),
            namespace: Some("shop".into()),
            ..ObjectReference::default()
        };
        let e = make_event(
            &reporter,
            &regarding,
            None,
            EventType::Normal,
            "R",
            "A",
            "n",
        );
        let name = e.metadata.name.unwrap_or_default();
        assert!(name.starts_with("web."), "{name}");
        assert_eq!(e.metadata.namespace.as_deref(), Some("shop"));
        let cluster = ObjectReference {
            name: Some("Node_1".into()),
            ..ObjectReference::default()
        };
        let e = make_event(&reporter, &cluster, None, EventType::Warning, "R", "A", "n");
        assert_eq!(e.metadata.name.map(|n| n.len()), Some(36));
        assert_eq!(e.metadata.namespace.as_deref(), Some("default"));
    }
}
