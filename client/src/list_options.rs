//! `ListOptions`: the query parameters of a list or watch request, encoded
//! exactly as kube-apiserver reads them.

use std::sync::Arc;

use crate::shard::ShardSelector;

/// How `resource_version` is interpreted on a list (`resourceVersionMatch`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
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
}

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
