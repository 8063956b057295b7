//! `ListOptions`: the query parameters of a list or watch request, encoded
//! exactly as kube-apiserver reads them.

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;

use crate::shard::ShardSelector;

/// How `resource_version` is interpreted on a list (`resourceVersionMatch`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum ResourceVersionMatch {
    /// Data at least as new as `resource_version`.
    NotOlderThan,
    /// Data at exactly `resource_version`.
    Exact,
}

impl ResourceVersionMatch {
    /// The wire value.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::NotOlderThan => "NotOlderThan",
            Self::Exact => "Exact",
        }
    }
}

/// Options for list and watch calls (client-go's `metav1.ListOptions`).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ListOptions {
    /// Label selector, e.g. `app=web,tier in (a,b)`.
    pub label_selector: Option<String>,
    /// Field selector, e.g. `metadata.name=web-0`.
    pub field_selector: Option<String>,
    /// Resource version to list at or watch from.
    pub resource_version: Option<String>,
    /// How `resource_version` applies to a list.
    pub resource_version_match: Option<ResourceVersionMatch>,
    /// Page size of a list.
    pub limit: Option<i64>,
    /// Continue token of the next list page.
    pub continue_token: Option<String>,
    /// Server-side timeout of a watch.
    pub timeout_seconds: Option<i64>,
    /// Ask a watch for BOOKMARK events.
    pub allow_watch_bookmarks: bool,
    /// Ask a watch to start with the current state as ADDED events (streaming list).
    pub send_initial_events: Option<bool>,
    /// Only the objects whose hashed uid or namespace falls in these ranges (KEP-5866,
    /// `shardSelector`; Kubernetes 1.36+ with the feature on). Sent on lists, every page of
    /// them, and watches. A server without the feature ignores it and sends everything:
    /// a list's `metadata.shardInfo` tells which happened.
    ///
    /// ```
    /// use informer_client::ListOptions;
    /// use informer_client::shard::ShardSelector;
    ///
    /// let first_half: ShardSelector =
    ///     "shardRange(object.metadata.uid, '0x0000000000000000', '0x8000000000000000')".parse()?;
    /// let options = ListOptions { shard_selector: Some(first_half), ..Default::default() };
    /// assert_eq!(options.list_query()[0].0, "shardSelector");
    /// # Ok::<(), informer_client::shard::ShardSelectorError>(())
    /// ```
    pub shard_selector: Option<ShardSelector>,
    /// Enforce [`shard_selector`](Self::shard_selector) on the client as well, for a server
    /// that ignores it (one without KEP-5866, or with its feature gate off), counting what
    /// is dropped in the filter. Never sent; ignored without a shard selector.
    ///
    /// Objects outside the selector are dropped **before they are decoded**: their
    /// `metadata.uid` or `metadata.namespace` is found in the item's bytes and hashed, so
    /// an object of another shard costs a scan, not a decode. A list filters only when its
    /// `metadata.shardInfo` does not echo the selector (the server did not apply it),
    /// whatever this says; a watch, which carries no `shardInfo`, filters every event when
    /// this is set, so set it on a watch only after a list showed the server ignores the
    /// selector. Informers do all of that themselves (informer-runtime's
    /// `InformerOptions::shard_selector`).
    ///
    /// ```
    /// use informer_client::list_options::{ListOptions, ShardFilter};
    /// use informer_client::shard::ShardSelector;
    ///
    /// let filter = ShardFilter::new();
    /// let options = ListOptions {
    ///     shard_selector: Some(ShardSelector::uid_range(0, 1 << 63)?),
    ///     client_shard_filter: Some(filter.clone()),
    ///     ..Default::default()
    /// };
    /// // Not a query parameter: only the selector goes to the server.
    /// assert_eq!(options.watch_query().len(), 2);
    /// assert_eq!(filter.skipped(), 0);
    /// # Ok::<(), informer_client::shard::ShardSelectorError>(())
    /// ```
    pub client_shard_filter: Option<ShardFilter>,
}

/// The counter of a client-side shard filter
/// ([`ListOptions::client_shard_filter`]): how many list items and watch events outside
/// the shard selector the server sent anyway were dropped, undecoded. Clones share the
/// count, and compare equal only to each other.
#[derive(Clone, Debug, Default)]
pub struct ShardFilter {
    skipped: Arc<AtomicU64>,
}

impl ShardFilter {
    /// A filter that has dropped nothing yet.
    pub fn new() -> Self {
        Self::default()
    }

    /// List items and watch events dropped so far, by this filter and its clones.
    pub fn skipped(&self) -> u64 {
        self.skipped.load(Ordering::Relaxed)
    }

    /// Counts one more dropped object.
    pub(crate) fn count_skipped(&self) {
        self.skipped.fetch_add(1, Ordering::Relaxed);
    }
}

impl PartialEq for ShardFilter {
    fn eq(&self, other: &Self) -> bool {
        Arc::ptr_eq(&self.skipped, &other.skipped)
    }
}

impl Eq for ShardFilter {}

impl ListOptions {
    /// Query pairs for a list request, in a stable order.
    pub fn list_query(&self) -> Vec<(&'static str, String)> {
        let mut q = self.common_query();
        if let Some(limit) = self.limit {
            q.push(("limit", limit.to_string()));
        }
        if let Some(token) = self.continue_token.as_deref().filter(|t| !t.is_empty()) {
            q.push(("continue", token.to_owned()));
        }
        q
    }

    /// Query pairs for a watch request (`watch=1` first), in a stable order.
    pub fn watch_query(&self) -> Vec<(&'static str, String)> {
        let mut q = vec![("watch", "1".to_owned())];
        q.extend(self.common_query());
        if let Some(t) = self.timeout_seconds {
            q.push(("timeoutSeconds", t.to_string()));
        }
        if self.allow_watch_bookmarks {
            q.push(("allowWatchBookmarks", "true".to_owned()));
        }
        if let Some(send) = self.send_initial_events {
            q.push(("sendInitialEvents", send.to_string()));
        }
        q
    }

    /// The filter a request of these options enforces on the client, if any.
    pub(crate) fn shard_scan(&self) -> Option<crate::shard_scan::ShardScan> {
        let selector = self.shard_selector.clone()?;
        let filter = self.client_shard_filter.clone()?;
        Some(crate::shard_scan::ShardScan::new(selector, filter))
    }

    fn common_query(&self) -> Vec<(&'static str, String)> {
        let mut q = Vec::new();
        if let Some(s) = self.label_selector.as_deref().filter(|s| !s.is_empty()) {
            q.push(("labelSelector", s.to_owned()));
        }
        if let Some(s) = self.field_selector.as_deref().filter(|s| !s.is_empty()) {
            q.push(("fieldSelector", s.to_owned()));
        }
        if let Some(rv) = self.resource_version.as_deref() {
            q.push(("resourceVersion", rv.to_owned()));
        }
        if let Some(m) = self.resource_version_match {
            q.push(("resourceVersionMatch", m.as_str().to_owned()));
        }
        if let Some(shards) = &self.shard_selector {
            q.push(("shardSelector", shards.to_string()));
        }
        q
    }
}

/// A hook that edits the options of every list and watch call an informer makes
/// (client-go's `internalinterfaces.TweakListOptionsFunc`).
pub type TweakListOptions = Arc<dyn Fn(&mut ListOptions) + Send + Sync>;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn list_query_skips_unset_fields() {
        let o = ListOptions {
            resource_version: Some("0".into()),
            limit: Some(500),
            ..Default::default()
        };
        assert_eq!(
            o.list_query(),
            vec![("resourceVersion", "0".into()), ("limit", "500".into())]
        );
    }

    #[test]
    fn watch_query_has_watch_and_bookmarks() {
        let o = ListOptions {
            label_selector: Some("app=web".into()),
            resource_version: Some("42".into()),
            timeout_seconds: Some(300),
            allow_watch_bookmarks: true,
            send_initial_events: Some(true),
            resource_version_match: Some(ResourceVersionMatch::NotOlderThan),
            ..Default::default()
        };
        assert_eq!(
            o.watch_query(),
            vec![
                ("watch", "1".into()),
                ("labelSelector", "app=web".into()),
                ("resourceVersion", "42".into()),
                ("resourceVersionMatch", "NotOlderThan".into()),
                ("timeoutSeconds", "300".into()),
                ("allowWatchBookmarks", "true".into()),
                ("sendInitialEvents", "true".into()),
            ]
        );
    }
}
