//! Per-informer counters and the cheap snapshot users export as metrics.

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Mutex;
use std::time::{Duration, Instant};

use crate::handler::QueuePolicy;
use crate::list_options::ShardFilter;

/// Live counters an informer and its reflector update.
#[derive(Debug, Default)]
pub(crate) struct Counters {
    pub(crate) lists: AtomicU64,
    pub(crate) list_pages: AtomicU64,
    pub(crate) relists: AtomicU64,
    pub(crate) expired_relists: AtomicU64,
    pub(crate) streaming_list_fallbacks: AtomicU64,
    pub(crate) watches: AtomicU64,
    pub(crate) errors: AtomicU64,
    pub(crate) added: AtomicU64,
    pub(crate) modified: AtomicU64,
    pub(crate) deleted: AtomicU64,
    pub(crate) bookmarks: AtomicU64,
    /// Counts what the client drops outside the informer's shard selector.
    pub(crate) shard_filter: ShardFilter,
    last_event: Mutex<Option<Instant>>,
}

impl Counters {
    pub(crate) fn bump(counter: &AtomicU64) {
        counter.fetch_add(1, Ordering::Relaxed);
    }

    pub(crate) fn saw_event(&self) {
        *self.last_event.lock().unwrap_or_else(|e| e.into_inner()) = Some(Instant::now());
    }

    pub(crate) fn since_last_event(&self) -> Option<Duration> {
        self.last_event
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .map(|t| t.elapsed())
    }
}

/// A snapshot of one handler's delivery state.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HandlerStats {
    /// The handler's id within its informer, in registration order.
    pub id: u64,
    /// How the handler's queue holds pending notifications.
    pub queue_policy: QueuePolicy,
    /// Notifications queued and not yet handled (the one being handled included); with
    /// [`QueuePolicy::CoalescePerObject`], objects with a notification pending.
    pub queue_depth: usize,
    /// The highest `queue_depth` since the handler was added.
    pub max_queue_depth: usize,
    /// Notifications handled so far (callbacks made).
    pub delivered: u64,
    /// Notifications merged into one already queued for the same object, so not
    /// delivered on their own ([`QueuePolicy::CoalescePerObject`] only).
    pub coalesced: u64,
    /// Notifications whose handling panicked.
    pub panics: u64,
    /// How long the most recently handled notification waited in the queue.
    pub last_wait: Option<Duration>,
}

/// A snapshot of an informer's counters (cheap to take; plain data to export).
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct InformerStats {
    /// The informer's name (e.g. `core/v1/pods`).
    pub name: String,
    /// Lists started (the initial one and every relist).
    pub lists: u64,
    /// List pages received.
    pub list_pages: u64,
    /// Lists after the first one.
    pub relists: u64,
    /// Relists caused by a 410 Expired (in a watch, or refusing one when it is opened).
    pub expired_relists: u64,
    /// Streaming lists given up for list + watch: the server refused `sendInitialEvents`,
    /// or did not end the initial events with the `initial-events-end` bookmark in time
    /// ([`InformerOptions::initial_events_timeout`](crate::InformerOptions::initial_events_timeout)).
    pub streaming_list_fallbacks: u64,
    /// Watch requests made.
    pub watches: u64,
    /// List and watch errors.
    pub errors: u64,
    /// ADDED events received.
    pub added: u64,
    /// MODIFIED events received.
    pub modified: u64,
    /// DELETED events received.
    pub deleted: u64,
    /// BOOKMARK events received.
    pub bookmarks: u64,
    /// List items and watch events outside the informer's shard selector
    /// ([`InformerOptions::shard_selector`](crate::InformerOptions::shard_selector)) that
    /// the server sent anyway, because it ignored the selector, and that were dropped
    /// before being decoded. Zero while the server filters.
    pub shard_skipped: u64,
    /// The resourceVersion the cache reflects.
    pub last_sync_resource_version: String,
    /// Time since the last list item or watch event.
    pub since_last_event: Option<Duration>,
    /// Objects in the cache.
    pub cached_objects: usize,
    /// Every registered handler.
    pub handlers: Vec<HandlerStats>,
}

impl Counters {
    pub(crate) fn snapshot(
        &self,
        name: String,
        last_sync_resource_version: String,
        cached_objects: usize,
        handlers: Vec<HandlerStats>,
    ) -> InformerStats {
        let get = |c: &AtomicU64| c.load(Ordering::Relaxed);
        InformerStats {
            name,
            lists: get(&self.lists),
            list_pages: get(&self.list_pages),
            relists: get(&self.relists),
            expired_relists: get(&self.expired_relists),
            streaming_list_fallbacks: get(&self.streaming_list_fallbacks),
            watches: get(&self.watches),
            errors: get(&self.errors),
            added: get(&self.added),
            modified: get(&self.modified),
            deleted: get(&self.deleted),
            bookmarks: get(&self.bookmarks),
            shard_skipped: self.shard_filter.skipped(),
            last_sync_resource_version,
            since_last_event: self.since_last_event(),
            cached_objects,
            handlers,
        }
    }
}

/// A Prometheus label value, escaped as the text exposition format requires.
pub fn escape_label(value: &str) -> String {
    value
        .replace('\\', "\\\\")
        .replace('"', "\\\"")
        .replace('\n', "\\n")
}

/// Renders snapshots in the Prometheus text exposition format (version 0.0.4), one sample
/// per informer (label `informer`) and per handler (labels `informer`, `handler`, `queue`), ready to
/// serve from a `/metrics` endpoint without a metrics library.
pub fn render_prometheus(stats: &[InformerStats]) -> String {
    use std::fmt::Write as _;
    type Field = fn(&InformerStats) -> u64;
    let counters: [(&str, &str, Field); 12] = [
        ("lists_total", "Lists started.", |s| s.lists),
        ("list_pages_total", "List pages received.", |s| s.list_pages),
        ("relists_total", "Lists after the first one.", |s| s.relists),
        (
            "expired_relists_total",
            "Relists caused by 410 Expired.",
            |s| s.expired_relists,
        ),
        (
            "streaming_list_fallbacks_total",
            "Streaming lists given up for list and watch.",
            |s| s.streaming_list_fallbacks,
        ),
        ("watches_total", "Watch requests made.", |s| s.watches),
        ("errors_total", "List and watch errors.", |s| s.errors),
        ("added_events_total", "ADDED events received.", |s| s.added),
        ("modified_events_total", "MODIFIED events received.", |s| {
            s.modified
        }),
        ("deleted_events_total", "DELETED events received.", |s| {
            s.deleted
        }),
        ("bookmarks_total", "BOOKMARK events received.", |s| {
            s.bookmarks
        }),
        (
            "shard_skipped_total",
            "Objects outside the shard selector the server sent anyway, dropped undecoded.",
            |s| s.shard_skipped,
        ),
    ];
    let mut out = String::new();
    for (name, help, get) in counters {
        let _ = writeln!(
            out,
            "# HELP informer_{name} {help}\n# TYPE informer_{name} counter"
        );
        for s in stats {
            let _ = writeln!(
                out,
                "informer_{name}{{informer=\"{}\"}} {}",
                escape_label(&s.name),
                get(s)
            );
        }
    }
    let _ = writeln!(out, "# HELP informer_cached_objects Objects in the cache.\n# TYPE informer_cached_objects gauge");
    for s in stats {
        let _ = writeln!(
            out,
            "informer_cached_objects{{informer=\"{}\"}} {}",
            escape_label(&s.name),
            s.cached_objects
        );
    }
    let _ = writeln!(out, "# HELP informer_seconds_since_last_event Time since the last list item or watch event.\n# TYPE informer_seconds_since_last_event gauge");
    for s in stats {
        if let Some(d) = s.since_last_event {
            let _ = writeln!(
                out,
                "informer_seconds_since_last_event{{informer=\"{}\"}} {}",
                escape_label(&s.name),
                d.as_secs_f64()
            );
        }
    }
    type HandlerField = fn(&HandlerStats) -> u64;
    let per_handler: [(&str, &str, &str, HandlerField); 5] = [
        (
            "queue_depth",
            "gauge",
            "Notifications queued for a handler (coalescing: objects with one pending).",
            |h| h.queue_depth as u64,
        ),
        (
            "queue_depth_max",
            "gauge",
            "The highest queue depth of a handler since it was added.",
            |h| h.max_queue_depth as u64,
        ),
        (
            "delivered_total",
            "counter",
            "Notifications a handler handled.",
            |h| h.delivered,
        ),
        (
            "coalesced_total",
            "counter",
            "Notifications merged into one already queued for the same object.",
            |h| h.coalesced,
        ),
        (
            "panics_total",
            "counter",
            "Notifications whose handler panicked.",
            |h| h.panics,
        ),
    ];
    for (name, kind, help, get) in per_handler {
        let _ = writeln!(
            out,
            "# HELP informer_handler_{name} {help}\n# TYPE informer_handler_{name} {kind}"
        );
        for s in stats {
            for h in &s.handlers {
                let policy = match h.queue_policy {
                    QueuePolicy::Unbounded => "unbounded",
                    QueuePolicy::CoalescePerObject => "coalesce",
                };
                let _ = writeln!(
                    out,
                    "informer_handler_{name}{{informer=\"{}\",handler=\"{}\",queue=\"{policy}\"}} {}",
                    escape_label(&s.name),
                    h.id,
                    get(h)
                );
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn prometheus_text_has_one_sample_per_informer_and_handler() {
        let c = Counters::default();
        Counters::bump(&c.lists);
        Counters::bump(&c.added);
        Counters::bump(&c.added);
        let handler = HandlerStats {
            id: 3,
            queue_policy: QueuePolicy::CoalescePerObject,
            queue_depth: 7,
            max_queue_depth: 9,
            delivered: 1,
            coalesced: 40,
            panics: 2,
            last_wait: None,
        };
        let snap = c.snapshot("core/v1/\"pods\"".into(), "42".into(), 5, vec![handler]);
        let text = render_prometheus(&[snap]);
        assert!(
            text.contains("informer_lists_total{informer=\"core/v1/\\\"pods\\\"\"} 1\n"),
            "{text}"
        );
        assert!(text.contains("informer_added_events_total{informer=\"core/v1/\\\"pods\\\"\"} 2\n"));
        assert!(text.contains("informer_cached_objects{informer=\"core/v1/\\\"pods\\\"\"} 5\n"));
        let labels = "informer=\"core/v1/\\\"pods\\\"\",handler=\"3\",queue=\"coalesce\"";
        assert!(
            text.contains(&format!("informer_handler_queue_depth{{{labels}}} 7\n")),
            "{text}"
        );
        assert!(text.contains(&format!("informer_handler_queue_depth_max{{{labels}}} 9\n")));
        assert!(text.contains(&format!(
            "informer_handler_coalesced_total{{{labels}}} 40\n"
        )));
        assert!(text.contains(&format!("informer_handler_delivered_total{{{labels}}} 1\n")));
        assert!(text.contains("# TYPE informer_handler_panics_total counter\n"));
        assert!(!text.contains("seconds_since_last_event{"));
    }
}
