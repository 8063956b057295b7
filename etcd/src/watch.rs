//! The watch half of [`EtcdListerWatcher`]: an etcd watch turned into API-server watch events.

use std::collections::VecDeque;
use std::time::Duration;

use etcd_client::{Event, WatchOptions, WatchResponse};
use futures_util::StreamExt;
use tokio::time::{Instant, Interval};

use super::codec::Codec;
use super::filter::ClientFilter;
use super::lister_watcher::{parse_resource_version, EtcdListerWatcher};
use super::status::{api_error, expired_status, from_etcd};
use informer_client::error::Error;
use informer_client::list_options::ListOptions;
use informer_client::object::Object;
use informer_runtime::lister_watcher::{Bookmark, WatchEvent, WatchStream};

type Item<K> = Result<WatchEvent<K>, Error>;

/// Starts a watch as [`EtcdListerWatcher`] documents it.
pub(crate) async fn start<K: Object, C: Codec<K>>(
    source: EtcdListerWatcher<K, C>,
    options: ListOptions,
) -> Result<WatchStream<K>, Error> {
    let context = source.context("watch");
    let filter = ClientFilter::from_options(&options, &context)?;
    let resource_version = options
        .resource_version
        .as_deref()
        .filter(|rv| !rv.is_empty());
    let streaming_list = options.send_initial_events == Some(true);
    let mut pending = VecDeque::new();
    let last_revision = if streaming_list || matches!(resource_version, None | Some("0")) {
        let (objects, revision) = source.read_all(&options).await?;
        pending.extend(objects.into_iter().map(|o| Ok(WatchEvent::Added(o))));
        if streaming_list {
            pending.push_back(Ok(WatchEvent::Bookmark(Bookmark {
                resource_version: revision.to_string(),
                initial_events_end: true,
            })));
        }
        revision
    } else {
        parse_resource_version(resource_version.unwrap_or_default(), &context)?
    };

    let (range_start, range_end) = source.layout().range();
    let watch_options = WatchOptions::new()
        .with_range(range_end)
        .with_start_revision(last_revision + 1)
        .with_prev_key()
        .with_progress_notify()
        // Events are handled one by one, so a large revision split over several
        // responses needs no reassembly.
        .with_fragment();
    let stream = source
        .etcd()
        .watch_client()
        .watch(range_start, Some(watch_options))
        .await
        .map_err(|e| from_etcd(e, &context))?;
    tracing::debug!(%context, from_revision = last_revision + 1, "etcd watch started");

    let progress = match source.progress_every() {
        Some(every) if options.allow_watch_bookmarks => {
            Some(tokio::time::interval_at(Instant::now() + every, every))
        }
        _ => None,
    };
    let deadline = options
        .timeout_seconds
        .filter(|t| *t > 0)
        .map(|t| Instant::now() + Duration::from_secs(t.unsigned_abs()));
    let state = WatchState {
        source,
        context,
        filter,
        stream,
        pending,
        finished: false,
        last_revision,
        bookmarks: options.allow_watch_bookmarks,
        progress,
        deadline,
    };
    Ok(futures_util::stream::unfold(state, WatchState::next).boxed())
}

struct WatchState<K, C> {
    source: EtcdListerWatcher<K, C>,
    context: String,
    filter: ClientFilter,
    stream: etcd_client::WatchStream,
    pending: VecDeque<Item<K>>,
    finished: bool,
    /// The newest revision delivered, so a bookmark never goes back in time.
    last_revision: i64,
    bookmarks: bool,
    progress: Option<Interval>,
    deadline: Option<Instant>,
}

enum Step {
    Message(Result<Option<WatchResponse>, etcd_client::Error>),
    AskProgress,
    TimedOut,
}

impl<K: Object, C: Codec<K>> WatchState<K, C> {
    async fn next(mut self) -> Option<(Item<K>, Self)> {
        loop {
            if let Some(item) = self.pending.pop_front() {
                return Some((item, self));
            }
            if self.finished {
                tracing::debug!(context = %self.context, "etcd watch ended");
                return None;
            }
            let deadline = self.deadline;
            let step = tokio::select! {
                message = self.stream.message() => Step::Message(message),
                () = tick(self.progress.as_mut()) => Step::AskProgress,
                () = sleep_until(deadline) => Step::TimedOut,
            };
            match step {
                Step::Message(Ok(Some(response))) => self.on_response(&response),
                Step::Message(Ok(None)) => self.finished = true,
                Step::Message(Err(e)) => self.fail(from_etcd(e, &self.context)),
                Step::AskProgress => {
                    if let Err(e) = self.stream.request_progress().await {
                        self.fail(from_etcd(e, &self.context));
                    }
                }
                // A timed-out watch ends cleanly, like the API server's `timeoutSeconds`.
                Step::TimedOut => self.finished = true,
            }
        }
    }

    fn fail(&mut self, error: Error) {
        self.pending.push_back(Err(error));
        self.finished = true;
    }

    fn on_response(&mut self, response: &WatchResponse) {
        if response.compact_revision() != 0 {
            tracing::info!(
                context = %self.context,
                compact_revision = response.compact_revision(),
                "etcd watch start revision was compacted"
            );
            self.pending.push_back(Ok(WatchEvent::Error(expired_status(
                response.compact_revision(),
            ))));
            self.finished = true;
            return;
        }
        if response.canceled() {
            let reason = response.cancel_reason();
            let error = if reason.contains("permission denied") {
                api_error(403, "Forbidden", reason.to_owned(), &self.context)
            } else {
                api_error(
                    500,
                    "InternalError",
                    format!("etcd canceled the watch: {reason}"),
                    &self.context,
                )
            };
            self.fail(error);
            return;
        }
        if response.events().is_empty() {
            if response.created() || !self.bookmarks {
                return;
            }
            // A progress notification: every event up to the header's revision was sent.
            if let Some(revision) = response.header().map(|h| h.revision()) {
                if revision >= self.last_revision {
                    self.last_revision = revision;
                    self.pending.push_back(Ok(WatchEvent::Bookmark(Bookmark {
                        resource_version: revision.to_string(),
                        initial_events_end: false,
                    })));
                }
            }
            return;
        }
        for event in response.events() {
            if let Some(item) = self.convert(event) {
                self.pending.push_back(Ok(item));
            }
        }
    }

    fn convert(&mut self, event: &Event) -> Option<WatchEvent<K>> {
        let Some(kv) = event.kv() else {
            tracing::warn!(context = %self.context, "skipping an etcd watch event without a key");
            return None;
        };
        let revision = kv.mod_revision();
        self.last_revision = self.last_revision.max(revision);
        // A delete's key-value is a tombstone holding only the key and the delete's revision;
        // every stored version has `version >= 1`.
        if kv.version() == 0 {
            let Some(prev) = event.prev_kv() else {
                self.source.count_undecodable();
                tracing::warn!(
                    context = %self.context,
                    key = %String::from_utf8_lossy(kv.key()),
                    revision,
                    "skipping an etcd delete whose previous value etcd did not send"
                );
                return None;
            };
            let object = self.source.decode(prev, revision)?;
            return self
                .filter
                .matches(&object)
                .then_some(WatchEvent::Deleted(object));
        }
        let object = self.source.decode(kv, revision)?;
        let created = kv.create_revision() == kv.mod_revision();
        if self.filter.is_everything() {
            return Some(if created {
                WatchEvent::Added(object)
            } else {
                WatchEvent::Modified(object)
            });
        }
        // Like the API server: entering the selection is an add, leaving it a delete.
        let matched_before = !created
            && event
                .prev_kv()
                .and_then(|prev| self.source.decode_value(prev, prev.mod_revision()).ok())
                .is_some_and(|old| self.filter.matches(&old));
        match (matched_before, self.filter.matches(&object)) {
            (false, true) => Some(WatchEvent::Added(object)),
            (true, true) => Some(WatchEvent::Modified(object)),
            (true, false) => Some(WatchEvent::Deleted(object)),
            (false, false) => None,
        }
    }
}

/// Waits for the next tick, forever when there is no interval.
async fn tick(interval: Option<&mut Interval>) {
    match interval {
        Some(interval) => {
            interval.tick().await;
        }
        None => std::future::pending().await,
    }
}

/// Waits until `deadline`, forever when there is none.
async fn sleep_until(deadline: Option<Instant>) {
    match deadline {
        Some(deadline) => tokio::time::sleep_until(deadline).await,
        None => std::future::pending().await,
    }
}
