//! The reflector: lists, then watches, and feeds the delta queue (client-go's `Reflector`).
//!
//! - The first list asks for resourceVersion "0" (servable from the watch cache) in pages of
//!   `page_size`, following `continue`. A 410 during a list, or an expired continue token,
//!   restarts the list at resourceVersion "" (a quorum read).
//! - The watch starts at the list's resourceVersion with bookmarks and a timeout drawn from
//!   [300, 600) s. A cleanly closed watch is re-opened at the last resourceVersion seen; a
//!   410 relists at that resourceVersion (never back in time), then at "" if that is gone too.
//! - Other failures back off (800 ms doubling to 30 s, with jitter, reset after 2 min without
//!   failures), at least as long as the server's `Retry-After` up to that 30 s.
//! - A watch event larger than the client's limit, or a watch line that does not decode,
//!   fails the watch and relists: watching again from the same resourceVersion would replay
//!   the same event.
//! - With streaming lists enabled, the state arrives as the initial events of a watch
//!   (`sendInitialEvents`) up to a bookmark marked `initial-events-end`; if the server cannot
//!   do that (it refuses the parameters, or that bookmark does not come within
//!   `initial_events_timeout`), the reflector falls back to list + watch for good. A 410
//!   for the resourceVersion asked for streams again from the current state (routine, not
//!   an error).
//! - With a shard selector (KEP-5866), every list and watch carries it. A list page whose
//!   `metadata.shardInfo` does not echo it came from a server that ignored it: the client
//!   drops that page's objects outside the shard before decoding them, and the watches
//!   after that list are filtered the same way, as a watch has no `shardInfo` to tell.
//!   Streaming lists have none either, so they are always filtered on the client.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use futures_util::future::BoxFuture;
use futures_util::StreamExt;
use tokio_util::sync::CancellationToken;

use tokio::sync::watch;

use crate::backoff::{Backoff, BackoffConfig};
use crate::delta_channel::{Delta, DeltaSender, Erased};
use crate::error::{ApiError, Error, ErrorKind};
use crate::failure::{ListFailure, Step};
use crate::informer::{Prepare, WatchErrorHandler};
use crate::list_options::{ListOptions, ResourceVersionMatch, TweakListOptions};
use crate::lister_watcher::{ListerWatcher, ObjectList, WatchEvent, WatchStream};
use crate::object::{Meta as _, Object};
use crate::shard::ShardSelector;
use crate::sharding::{ShardAssignment, ShardBy};
use crate::stats::Counters;
use crate::watch_event::ShardInfo;

/// The default page size of a list.
pub(crate) const DEFAULT_PAGE_SIZE: i64 = 500;

/// How long a streaming list may take to reach its `initial-events-end` bookmark before
/// the reflector gives up on streaming and lists instead. kube-apiserver streams the
/// initial events from its watch cache at memory speed (client-go starts warning after
/// 10 s without the bookmark), so a minute is several times what even a very large
/// resource takes; giving up too early costs one redundant list, never correctness, while
/// a server that never sends the bookmark delays the first sync by this much, once.
pub(crate) const DEFAULT_INITIAL_EVENTS_TIMEOUT: Duration = Duration::from_secs(60);

/// What a running reflector shares with its informer.
#[derive(Debug)]
pub(crate) struct ReflectorStatus {
    last_sync_resource_version: Mutex<String>,
    list_failure: Mutex<Option<ListFailure>>,
    last_failure: Mutex<Option<ListFailure>>,
    /// Bumped whenever sync progress may have changed (a list failed or succeeded, the
    /// informer synced or stopped), so waits are woken instead of polling.
    changed: watch::Sender<()>,
    pub(crate) counters: Counters,
}

impl Default for ReflectorStatus {
    fn default() -> Self {
        Self {
            last_sync_resource_version: Mutex::default(),
            list_failure: Mutex::default(),
            last_failure: Mutex::default(),
            changed: watch::channel(()).0,
            counters: Counters::default(),
        }
    }
}

impl ReflectorStatus {
    /// The resourceVersion of the last list, watch event or bookmark applied.
    pub(crate) fn last_sync_resource_version(&self) -> String {
        self.last_sync_resource_version
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .clone()
    }

    /// The failure of the last list, cleared by the next successful one.
    pub(crate) fn list_failure(&self) -> Option<ListFailure> {
        self.list_failure
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .clone()
    }

    /// The last list or watch failure.
    pub(crate) fn last_failure(&self) -> Option<ListFailure> {
        self.last_failure
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .clone()
    }

    /// A receiver woken on every change of sync progress.
    pub(crate) fn subscribe(&self) -> watch::Receiver<()> {
        self.changed.subscribe()
    }

    /// Wakes every wait on this informer.
    pub(crate) fn notify(&self) {
        self.changed.send_replace(());
    }

    fn set_resource_version(&self, rv: &str) {
        let mut cur = self
            .last_sync_resource_version
            .lock()
            .unwrap_or_else(|e| e.into_inner());
        if cur.as_str() != rv {
            rv.clone_into(&mut cur);
        }
    }

    fn set_list_failure(&self, failure: Option<ListFailure>) {
        *self.list_failure.lock().unwrap_or_else(|e| e.into_inner()) = failure;
        self.notify();
    }

    fn set_last_failure(&self, failure: ListFailure) {
        *self.last_failure.lock().unwrap_or_else(|e| e.into_inner()) = Some(failure);
        self.notify();
    }
}

/// How a reflector lists and watches.
#[derive(Clone)]
pub(crate) struct ReflectorConfig {
    /// Used in logs, e.g. `core/v1/pods`.
    pub(crate) name: String,
    /// Page size of lists.
    pub(crate) page_size: i64,
    /// The shard of the objects listed and watched (KEP-5866).
    pub(crate) shard_selector: Option<ShardSelector>,
    /// A share that moves, in place of `shard_selector`.
    pub(crate) shard_assignments: Option<watch::Receiver<ShardAssignment>>,
    /// Whose fields place an object in the share: a selector the server cannot apply to
    /// them is not sent, and the applier filters instead.
    pub(crate) shard_by: ShardBy,
    /// Edits every list and watch request, last.
    pub(crate) tweak_list_options: Option<TweakListOptions>,
    /// Try streaming lists (`sendInitialEvents`) before list + watch.
    pub(crate) streaming_list: bool,
    /// How long a streaming list may wait for its `initial-events-end` bookmark.
    pub(crate) initial_events_timeout: Duration,
    /// Retry delays.
    pub(crate) backoff: BackoffConfig,
    /// Receives every list and watch error; by default they are logged.
    pub(crate) watch_error_handler: Option<WatchErrorHandler>,
}

impl std::fmt::Debug for ReflectorConfig {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ReflectorConfig")
            .field("name", &self.name)
            .field("page_size", &self.page_size)
            .field("shard_selector", &self.shard_selector)
            .field("shard_assignments", &self.shard_assignments.is_some())
            .field("shard_by", &self.shard_by)
            .field("tweak_list_options", &self.tweak_list_options.is_some())
            .field("streaming_list", &self.streaming_list)
            .field("initial_events_timeout", &self.initial_events_timeout)
            .field("backoff", &self.backoff)
            .field("watch_error_handler", &self.watch_error_handler.is_some())
            .finish()
    }
}

impl Default for ReflectorConfig {
    fn default() -> Self {
        Self {
            name: String::new(),
            page_size: DEFAULT_PAGE_SIZE,
            shard_selector: None,
            shard_assignments: None,
            shard_by: ShardBy::Object,
            tweak_list_options: None,
            streaming_list: false,
            initial_events_timeout: DEFAULT_INITIAL_EVENTS_TIMEOUT,
            backoff: BackoffConfig::default(),
            watch_error_handler: None,
        }
    }
}

/// What a reflector needs of its resource's type, behind one object so that the reflector
/// itself is not generic: its lists and watches are compiled once, where a generic one would
/// be compiled again for every resource in every binary that watches it.
pub(crate) trait Upstream: Send + Sync {
    /// One page, its objects erased.
    fn list(
        &self,
        options: ListOptions,
    ) -> BoxFuture<'static, Result<ObjectList<Arc<Erased>>, Error>>;
    /// A watch, its objects erased.
    fn watch(
        &self,
        options: ListOptions,
    ) -> BoxFuture<'static, Result<WatchStream<Arc<Erased>>, Error>>;
    /// The object's `metadata.resourceVersion`, as it came from the server.
    fn resource_version<'a>(&self, obj: &'a Erased) -> Option<&'a str>;
    /// The object as it is cached and delivered (the informer's transforms applied).
    fn prepare(&self, obj: Arc<Erased>) -> Arc<Erased>;
}

/// A [`ListerWatcher<K>`] and the transforms of `K`s, as a reflector's [`Upstream`].
pub(crate) struct TypedUpstream<K> {
    pub(crate) lister_watcher: Arc<dyn ListerWatcher<K>>,
    pub(crate) prepare: Option<Prepare<K>>,
}

impl<K: Object> Upstream for TypedUpstream<K> {
    fn list(
        &self,
        options: ListOptions,
    ) -> BoxFuture<'static, Result<ObjectList<Arc<Erased>>, Error>> {
        let page = self.lister_watcher.list(options);
        Box::pin(async move { Ok(page.await?.map(erase)) })
    }

    fn watch(
        &self,
        options: ListOptions,
    ) -> BoxFuture<'static, Result<WatchStream<Arc<Erased>>, Error>> {
        let stream = self.lister_watcher.watch(options);
        Box::pin(async move {
            let events = stream.await?.map(|event| event.map(|e| e.map(erase)));
            Ok(events.boxed())
        })
    }

    fn resource_version<'a>(&self, obj: &'a Erased) -> Option<&'a str> {
        obj.downcast_ref::<K>()?.meta().resource_version()
    }

    fn prepare(&self, obj: Arc<Erased>) -> Arc<Erased> {
        let Some(prepare) = &self.prepare else {
            return obj;
        };
        match obj.downcast::<K>() {
            Ok(obj) => prepare(obj),
            Err(other) => other,
        }
    }
}

fn erase<K: Object>(obj: Arc<K>) -> Arc<Erased> {
    obj
}

/// Lists and watches one resource into a delta queue.
pub(crate) struct Reflector {
    upstream: Arc<dyn Upstream>,
    queue: DeltaSender<Erased>,
    config: ReflectorConfig,
    status: Arc<ReflectorStatus>,
    /// The server was found to ignore the shard selector, and that was logged.
    shard_ignored_logged: AtomicBool,
    /// The share the current list and watch hold.
    in_force: Mutex<ShardAssignment>,
}

/// Wraps a watched object into the delta its event type means.
type MakeDelta = fn(Arc<Erased>) -> Delta<Erased>;

enum ListEnd {
    Done {
        resource_version: String,
        /// A shard selector was asked for and the server did not apply it: the watch that
        /// follows must be filtered on the client.
        client_filters: bool,
    },
    Failed(Error),
    Stopped,
}

enum WatchEnd {
    Closed {
        events: u64,
        elapsed: Duration,
    },
    Expired,
    Failed(Error),
    Stopped,
    /// A streaming list's `initial-events-end` bookmark did not come in time.
    NoInitialEventsEnd,
    /// The informer's share of the objects moved: relist with the new one.
    Reassigned,
}

/// How a streaming list ended.
enum StreamingEnd {
    /// The initial events are in; how the watch that went on after them ended.
    Synced(WatchEnd),
    Stopped,
    /// The resourceVersion asked for is gone (410): stream again from the current state.
    Expired,
    /// List and watch instead, for good: the server refused streaming (expected of servers
    /// without the feature) or is `broken` (it did not end the initial events).
    FallBack {
        reason: String,
        broken: bool,
    },
}

impl Reflector {
    /// A reflector feeding `queue` from `upstream`.
    pub(crate) fn new(
        upstream: Arc<dyn Upstream>,
        queue: DeltaSender<Erased>,
        config: ReflectorConfig,
        status: Arc<ReflectorStatus>,
    ) -> Self {
        let in_force = ShardAssignment::fixed(config.shard_selector.clone());
        Self {
            upstream,
            queue,
            in_force: Mutex::new(in_force),
            config,
            status,
            shard_ignored_logged: AtomicBool::new(false),
        }
    }

    /// Takes the latest shard assignment, when the informer follows one, as the share of
    /// the list about to start and the watches after it; `None` otherwise.
    fn begin_assignment(&self) -> Option<ShardAssignment> {
        let mut source = self.config.shard_assignments.clone()?;
        let assignment = source.borrow_and_update().clone();
        *self.in_force.lock().unwrap_or_else(|e| e.into_inner()) = assignment.clone();
        Some(assignment)
    }

    /// Resolves when the shard assignment moves past the one in force; never when the
    /// informer follows none (or its sender is gone).
    async fn reassigned(&self) {
        let current = self
            .in_force
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .clone();
        match self.config.shard_assignments.clone() {
            Some(mut source) => {
                if source.wait_for(|a| *a != current).await.is_err() {
                    std::future::pending::<()>().await;
                }
            }
            None => std::future::pending().await,
        }
    }

    /// `options` as the informer sends them: with its shard selector, then edited by its
    /// tweak; when `client_filters` and a shard selector is set (by either), with the
    /// client-side filter that counts into this informer's stats.
    fn request_options(&self, mut options: ListOptions, client_filters: bool) -> ListOptions {
        options.shard_selector = self
            .in_force
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .server_selector(self.config.shard_by)
            .cloned();
        if let Some(tweak) = &self.config.tweak_list_options {
            tweak(&mut options);
        }
        options.client_shard_filter = (client_filters && options.shard_selector.is_some())
            .then(|| self.status.counters.shard_filter.clone());
        options
    }

    /// Lists and watches until `cancel` fires or the queue's consumer is gone. Boxed here,
    /// so the loop is compiled in this crate only: an `async fn` awaited from another crate
    /// is compiled again in that crate.
    pub(crate) fn run(self, cancel: CancellationToken) -> BoxFuture<'static, ()> {
        Box::pin(self.run_until(cancel))
    }

    async fn run_until(self, cancel: CancellationToken) {
        let mut backoff = Backoff::new(self.config.backoff);
        let mut streaming = self.config.streaming_list;
        let mut list_from = "0".to_owned();
        let mut last_rv = String::new();
        let mut listed = false;
        let mut lists_started = 0u64;
        let mut same_list = false;
        // The last list found the server ignoring the shard selector.
        let mut client_filters = false;
        loop {
            if cancel.is_cancelled() || self.queue.is_closed() {
                return;
            }
            let end = if listed {
                Counters::bump(&self.status.counters.watches);
                let options = self.request_options(
                    ListOptions {
                        resource_version: Some(last_rv.clone()),
                        allow_watch_bookmarks: true,
                        timeout_seconds: Some(random_watch_timeout()),
                        ..Default::default()
                    },
                    client_filters,
                );
                match self.open_watch(&cancel, options).await {
                    None => return,
                    Some(Ok(stream)) => {
                        self.consume(stream, &cancel, &mut last_rv, &mut false, None)
                            .await
                    }
                    Some(Err(e)) if e.is_gone() => WatchEnd::Expired,
                    Some(Err(e)) => WatchEnd::Failed(e),
                }
            } else {
                // The list that follows a refused or expired streaming list is the same list,
                // not a relist.
                if !std::mem::take(&mut same_list) {
                    self.count_list(&mut lists_started);
                }
                if let Some(assignment) = self.begin_assignment() {
                    let nothing = assignment == ShardAssignment::Nothing;
                    if !self.push(Delta::Scope(assignment)).await {
                        return;
                    }
                    if nothing {
                        // No share: a relist that shows nothing empties the cache, and
                        // nothing is listed or watched until a share is assigned.
                        let rv = if list_from == "0" {
                            ""
                        } else {
                            list_from.as_str()
                        };
                        if !self.push(Delta::ListStart).await
                            || !self.push(Delta::ListEnd(rv.to_owned())).await
                        {
                            return;
                        }
                        tracing::info!(informer = %self.config.name, "assigned no shard: the cache is emptied until a share is assigned");
                        tokio::select! {
                            _ = cancel.cancelled() => return,
                            () = self.reassigned() => continue,
                        }
                    }
                }
                if streaming {
                    match self.streaming_list(&cancel, &mut last_rv).await {
                        StreamingEnd::Synced(end) => {
                            listed = true;
                            end
                        }
                        StreamingEnd::Stopped => return,
                        StreamingEnd::Expired => {
                            // client-go's watch list does the same: the resourceVersion is
                            // unavailable, so the next attempt asks for the current state.
                            // As a paged list that meets a 410 starts over at "", this is
                            // routine and the same list: what made it a relist counted it.
                            tracing::info!(informer = %self.config.name, resource_version = %last_rv, "streaming list expired (410); streaming again from the current state");
                            last_rv.clear();
                            same_list = true;
                            continue;
                        }
                        StreamingEnd::FallBack { reason, broken } => {
                            if broken {
                                tracing::warn!(informer = %self.config.name, %reason, "streaming list failed; falling back to list and watch for good");
                            } else {
                                tracing::info!(informer = %self.config.name, %reason, "streaming list not available; falling back to list and watch");
                            }
                            Counters::bump(&self.status.counters.streaming_list_fallbacks);
                            streaming = false;
                            same_list = true;
                            continue;
                        }
                    }
                } else {
                    match self.list(&cancel, &list_from).await {
                        ListEnd::Done {
                            resource_version: rv,
                            client_filters: filters,
                        } => {
                            tracing::debug!(informer = %self.config.name, resource_version = %rv, "list complete");
                            last_rv = rv;
                            client_filters = filters;
                            self.status.set_resource_version(&last_rv);
                            self.status.set_list_failure(None);
                            listed = true;
                            continue;
                        }
                        ListEnd::Stopped => return,
                        ListEnd::Failed(e) => {
                            let failure = self.report(Step::List, e);
                            self.status.set_list_failure(Some(failure.clone()));
                            if !self.pause(&cancel, &mut backoff, &failure.error).await {
                                return;
                            }
                            continue;
                        }
                    }
                }
            };
            match end {
                WatchEnd::Stopped => return,
                // Only a streaming list's initial events have a deadline, and those end above.
                WatchEnd::NoInitialEventsEnd => {}
                WatchEnd::Reassigned => {
                    tracing::info!(informer = %self.config.name, resource_version = %last_rv, "the shard assignment moved; relisting with the new share");
                    list_from = last_rv.clone();
                    listed = false;
                }
                WatchEnd::Closed { events, elapsed } => {
                    // A watch that closes at once with nothing in it would otherwise spin.
                    if events == 0 && elapsed < Duration::from_secs(1) {
                        let e = Error::other(
                            ErrorKind::Protocol,
                            format!("watch {}", self.config.name),
                            "the server closed the watch immediately",
                        );
                        let failure = self.report(Step::Watch, e);
                        if !self.pause(&cancel, &mut backoff, &failure.error).await {
                            return;
                        }
                    }
                }
                WatchEnd::Expired => {
                    tracing::info!(informer = %self.config.name, resource_version = %last_rv, "watch expired (410); relisting from the last resourceVersion");
                    Counters::bump(&self.status.counters.expired_relists);
                    list_from = last_rv.clone();
                    listed = false;
                }
                WatchEnd::Failed(e) => {
                    let failure = self.report(Step::Watch, e);
                    let e = &failure.error;
                    // A client error other than throttling means the watch itself is wrong
                    // (e.g. permissions changed): start over with a list, which records it.
                    // So does an event over the size limit, and a line that does not
                    // decode: a new watch from the same resourceVersion would replay it,
                    // forever against a deterministic server. client-go relists after a
                    // decode error too (its stream watcher ends with an error event, and
                    // any watch error but 429 ends ListAndWatch); the list's
                    // resourceVersion is past the broken event.
                    let client_error = matches!(e.status_code(), Some(code) if (400..500).contains(&code) && code != 429);
                    let replays = e.kind() == Some(ErrorKind::TooLarge)
                        || matches!(**e, Error::Decode { .. });
                    if client_error || replays {
                        list_from = last_rv.clone();
                        listed = false;
                    }
                    if !self.pause(&cancel, &mut backoff, e).await {
                        return;
                    }
                }
            }
        }
    }

    fn count_list(&self, lists_started: &mut u64) {
        Counters::bump(&self.status.counters.lists);
        if *lists_started > 0 {
            Counters::bump(&self.status.counters.relists);
        }
        *lists_started += 1;
    }

    /// Counts, logs (or hands to the watch error handler) and records a failure.
    fn report(&self, step: Step, error: Error) -> ListFailure {
        Counters::bump(&self.status.counters.errors);
        match &self.config.watch_error_handler {
            Some(handler) => handler(&error),
            None if error.is_gone() => {
                tracing::info!(informer = %self.config.name, %error, "resource version expired")
            }
            None => tracing::warn!(informer = %self.config.name, %error, "list/watch failed"),
        }
        let failure = ListFailure::new(step, error);
        self.status.set_last_failure(failure.clone());
        failure
    }

    /// Sleeps the backoff delay; false when cancelled meanwhile.
    async fn pause(
        &self,
        cancel: &CancellationToken,
        backoff: &mut Backoff,
        error: &Error,
    ) -> bool {
        let mut delay = backoff.next_delay(Instant::now());
        if let Some(asked) = error.retry_after() {
            // Honoured up to the backoff's ceiling: a server asking for hours (or for
            // u64::MAX seconds) would otherwise stop the informer.
            delay = delay.max(asked.min(self.config.backoff.max));
        }
        tracing::debug!(informer = %self.config.name, ?delay, "backing off");
        tokio::select! {
            _ = cancel.cancelled() => false,
            _ = tokio::time::sleep(delay) => true,
        }
    }

    async fn push(&self, delta: Delta<Erased>) -> bool {
        self.queue.push(delta).await.is_ok()
    }

    async fn open_watch(
        &self,
        cancel: &CancellationToken,
        options: ListOptions,
    ) -> Option<Result<WatchStream<Arc<Erased>>, Error>> {
        tokio::select! {
            _ = cancel.cancelled() => None,
            r = self.upstream.watch(options) => Some(r),
        }
    }

    async fn list(&self, cancel: &CancellationToken, from: &str) -> ListEnd {
        if !self.push(Delta::ListStart).await {
            return ListEnd::Stopped;
        }
        let mut rv = from.to_owned();
        let mut continue_token: Option<String> = None;
        let mut list_rv = String::new();
        let mut client_filters = false;
        loop {
            // Every page may be filtered on the client: the client does so unless the
            // page's own `shardInfo` says the server applied the selector.
            let options = self.request_options(
                ListOptions {
                    // The server rejects a resourceVersion next to a continue token: the
                    // token already pins the list's resourceVersion.
                    resource_version: continue_token
                        .is_none()
                        .then(|| rv.clone())
                        .filter(|rv| !rv.is_empty()),
                    limit: Some(self.config.page_size),
                    continue_token: continue_token.clone(),
                    ..Default::default()
                },
                true,
            );
            let asked = options.shard_selector.clone();
            let page = tokio::select! {
                _ = cancel.cancelled() => return ListEnd::Stopped,
                r = self.upstream.list(options) => r,
            };
            let page = match page {
                Ok(page) => page,
                Err(e) if e.is_gone() && (continue_token.is_some() || !rv.is_empty()) => {
                    tracing::info!(informer = %self.config.name, resource_version = %rv, error = %e, "list expired (410); listing again from the current state");
                    rv.clear();
                    continue_token = None;
                    client_filters = false;
                    if !self.push(Delta::ListStart).await {
                        return ListEnd::Stopped;
                    }
                    continue;
                }
                Err(e) => return ListEnd::Failed(e),
            };
            Counters::bump(&self.status.counters.list_pages);
            if let Some(asked) = &asked {
                if !page.shard_info.as_ref().is_some_and(|i| i.applies(asked)) {
                    client_filters = true;
                    self.log_shard_ignored(asked, page.shard_info.as_ref());
                }
            }
            if let Some(page_rv) = page.metadata.resource_version.filter(|r| !r.is_empty()) {
                list_rv = page_rv;
            }
            continue_token = page.metadata.continue_.filter(|c| !c.is_empty());
            if !page.items.is_empty() {
                self.status.counters.saw_event();
            }
            for item in page.items {
                if !self
                    .push(Delta::Replaced(self.upstream.prepare(item)))
                    .await
                {
                    return ListEnd::Stopped;
                }
            }
            if continue_token.is_none() {
                break;
            }
        }
        if !self.push(Delta::ListEnd(list_rv.clone())).await {
            return ListEnd::Stopped;
        }
        ListEnd::Done {
            resource_version: list_rv,
            client_filters,
        }
    }

    /// Says, once per informer, that the server did not apply the shard selector.
    fn log_shard_ignored(&self, asked: &ShardSelector, echoed: Option<&ShardInfo>) {
        if self.shard_ignored_logged.swap(true, Ordering::Relaxed) {
            return;
        }
        match echoed {
            None => {
                tracing::info!(informer = %self.config.name, shard_selector = %asked, "the server ignored the shard selector (no shardInfo in the list: it predates KEP-5866 or has the ShardedListAndWatch feature gate off); filtering on the client, before decoding")
            }
            Some(info) => {
                tracing::info!(informer = %self.config.name, shard_selector = %asked, applied = %info.selector, "the server applied another shard selector than the one asked for; filtering on the client, before decoding")
            }
        }
    }

    /// A streaming list from `last_rv` (the current state when empty).
    async fn streaming_list(
        &self,
        cancel: &CancellationToken,
        last_rv: &mut String,
    ) -> StreamingEnd {
        let asked_for = last_rv.clone();
        // A streaming list carries no shardInfo to tell whether the server applied a shard
        // selector, so the client filters it (a no-op when the server did).
        let options = self.request_options(
            ListOptions {
                resource_version: Some(asked_for.clone()),
                resource_version_match: Some(ResourceVersionMatch::NotOlderThan),
                send_initial_events: Some(true),
                allow_watch_bookmarks: true,
                timeout_seconds: Some(random_watch_timeout()),
                ..Default::default()
            },
            true,
        );
        // A 410 for the current state would only repeat: that server cannot stream.
        let expired = || {
            if asked_for.is_empty() {
                StreamingEnd::FallBack {
                    reason: "the watch expired (410) at the current state".to_owned(),
                    broken: true,
                }
            } else {
                StreamingEnd::Expired
            }
        };
        Counters::bump(&self.status.counters.watches);
        let stream = match self.open_watch(cancel, options).await {
            None => return StreamingEnd::Stopped,
            Some(Ok(stream)) => stream,
            Some(Err(e)) if e.is_gone() => return expired(),
            Some(Err(e)) if refuses_streaming(&e) => {
                return StreamingEnd::FallBack {
                    reason: e.to_string(),
                    broken: false,
                }
            }
            Some(Err(e)) => {
                let reason = e.to_string();
                self.report(Step::List, e);
                return StreamingEnd::FallBack {
                    reason,
                    broken: false,
                };
            }
        };
        if !self.push(Delta::ListStart).await {
            return StreamingEnd::Stopped;
        }
        let mut initial = true;
        // A timeout too large for the clock means none.
        let deadline = Instant::now().checked_add(self.config.initial_events_timeout);
        let end = self
            .consume(stream, cancel, last_rv, &mut initial, deadline)
            .await;
        if !initial {
            return StreamingEnd::Synced(end);
        }
        match end {
            WatchEnd::Stopped => StreamingEnd::Stopped,
            WatchEnd::Closed { .. } => StreamingEnd::FallBack {
                reason: "the watch ended before the initial-events-end bookmark".to_owned(),
                broken: true,
            },
            WatchEnd::NoInitialEventsEnd => StreamingEnd::FallBack {
                reason: format!(
                    "no initial-events-end bookmark within {:?}",
                    self.config.initial_events_timeout
                ),
                broken: true,
            },
            // A reassignment is only watched for after the initial events, so this is the
            // 410 alone; either way the list starts again.
            WatchEnd::Expired | WatchEnd::Reassigned => expired(),
            WatchEnd::Failed(e) => {
                let reason = e.to_string();
                self.report(Step::List, e);
                StreamingEnd::FallBack {
                    reason,
                    broken: false,
                }
            }
        }
    }

    /// Applies a watch stream; while `initial` is true its ADDED events are the state of a
    /// streaming list, which ends at the `initial-events-end` bookmark, by `deadline`.
    async fn consume(
        &self,
        mut stream: WatchStream<Arc<Erased>>,
        cancel: &CancellationToken,
        last_rv: &mut String,
        initial: &mut bool,
        deadline: Option<Instant>,
    ) -> WatchEnd {
        let started = Instant::now();
        let mut events = 0u64;
        let counters = &self.status.counters;
        let initial_deadline = async {
            match deadline {
                Some(at) => tokio::time::sleep_until(at.into()).await,
                None => std::future::pending().await,
            }
        };
        tokio::pin!(initial_deadline);
        loop {
            let next = tokio::select! {
                _ = cancel.cancelled() => return WatchEnd::Stopped,
                _ = &mut initial_deadline, if *initial => return WatchEnd::NoInitialEventsEnd,
                () = self.reassigned(), if !*initial => return WatchEnd::Reassigned,
                n = stream.next() => n,
            };
            let event = match next {
                None => {
                    return WatchEnd::Closed {
                        events,
                        elapsed: started.elapsed(),
                    }
                }
                Some(Err(e)) if e.is_gone() => return WatchEnd::Expired,
                Some(Err(e)) => return WatchEnd::Failed(e),
                Some(Ok(event)) => event,
            };
            events += 1;
            counters.saw_event();
            let (obj, make): (Arc<Erased>, MakeDelta) = match event {
                WatchEvent::Added(o) => {
                    Counters::bump(&counters.added);
                    (
                        o,
                        if *initial {
                            Delta::Replaced
                        } else {
                            Delta::Added
                        },
                    )
                }
                WatchEvent::Modified(o) => {
                    Counters::bump(&counters.modified);
                    (o, Delta::Updated)
                }
                WatchEvent::Deleted(o) => {
                    Counters::bump(&counters.deleted);
                    (o, Delta::Deleted)
                }
                WatchEvent::Bookmark(b) => {
                    Counters::bump(&counters.bookmarks);
                    if !b.resource_version.is_empty() {
                        *last_rv = b.resource_version;
                    }
                    if *initial && b.initial_events_end {
                        if !self.push(Delta::ListEnd(last_rv.clone())).await {
                            return WatchEnd::Stopped;
                        }
                        *initial = false;
                        self.status.set_list_failure(None);
                    } else if !*initial && !self.push(Delta::Bookmark(last_rv.clone())).await {
                        return WatchEnd::Stopped;
                    }
                    self.status.set_resource_version(last_rv);
                    continue;
                }
                WatchEvent::Error(status) => {
                    let e = Error::from(ApiError::from_status(
                        &status,
                        format!("watch {}", self.config.name),
                    ));
                    return if e.is_gone() {
                        WatchEnd::Expired
                    } else {
                        WatchEnd::Failed(e)
                    };
                }
                // A kind of event this runtime does not know (the enum is non-exhaustive):
                // client-go's reflector logs it and watches on, and so does this one.
                _ => {
                    tracing::warn!(informer = %self.config.name, "a watch event of a kind this informer does not understand was skipped");
                    continue;
                }
            };
            if let Some(rv) = self.upstream.resource_version(&*obj) {
                if !rv.is_empty() {
                    rv.clone_into(last_rv);
                }
            }
            if !self.push(make(self.upstream.prepare(obj))).await {
                return WatchEnd::Stopped;
            }
            if !*initial {
                self.status.set_resource_version(last_rv);
            }
        }
    }
}

/// True when the server answered but refused the streaming-list parameters: it cannot
/// stream lists (an older server, or the WatchList feature is off). That is expected, not
/// an error; a real problem (e.g. a forbidden list) shows in the list that follows.
fn refuses_streaming(e: &Error) -> bool {
    matches!(e.status_code(), Some(c) if (400..500).contains(&c) && !matches!(c, 408 | 410 | 429))
}

fn random_watch_timeout() -> i64 {
    crate::jitter::between(300, 600)
}
