//! What a list or watch of the API server yields: a page of objects, and the events of a
//! watch stream. The client produces them; informer-runtime's `ListerWatcher`s and its
//! reflector consume them.

use futures_util::stream::BoxStream;
use k8s_openapi::apimachinery::pkg::apis::meta::v1::{ListMeta, Status};

use crate::error::Error;
use crate::shard::ShardSelector;

/// One page of a list response: its `ListMeta` (resourceVersion, continue,
/// remainingItemCount) and its decoded items.
#[derive(Debug, Clone, PartialEq)]
pub struct ObjectList<K> {
    /// The list's metadata.
    pub metadata: ListMeta,
    /// The items of this page.
    pub items: Vec<K>,
    /// The list's `metadata.shardInfo` (KEP-5866), whatever Kubernetes version k8s-openapi
    /// is built for (its `ListMeta` holds it only from 1.36 on): present
    /// when the server applied a shard selector. A list that asked for one and has none
    /// was answered by a server that ignored it. (A delete-collection's answer leaves it
    /// out, as do `PartialObjectMetadataList`s, which kube-apiserver sends without it.)
    pub shard_info: Option<ShardInfo>,
}

impl<K> ObjectList<K> {
    /// This page with every item passed through `f`: `list.map(Arc::new)` is the page as an
    /// informer's `ListerWatcher` hands it out.
    pub fn map<T>(self, f: impl FnMut(K) -> T) -> ObjectList<T> {
        ObjectList {
            metadata: self.metadata,
            items: self.items.into_iter().map(f).collect(),
            shard_info: self.shard_info,
        }
    }
}

/// A list's `metadata.shardInfo` (KEP-5866): the shard selector the server applied.
#[derive(Debug, Clone, Default, PartialEq, Eq, serde::Deserialize)]
pub struct ShardInfo {
    /// The selector applied, in kube-apiserver's canonical text.
    #[serde(default)]
    pub selector: String,
}

impl ShardInfo {
    /// True when the server applied exactly `selector` (compared parsed, not as text).
    ///
    /// ```
    /// use informer_client::shard::ShardSelector;
    /// use informer_client::watch_event::ShardInfo;
    ///
    /// let asked = ShardSelector::uid_range(0, 1 << 63)?;
    /// let echoed = ShardInfo { selector: asked.to_string().replace(", ", ",") };
    /// assert!(echoed.applies(&asked));
    /// assert!(!ShardInfo::default().applies(&asked));
    /// # Ok::<(), informer_client::shard::ShardSelectorError>(())
    /// ```
    pub fn applies(&self, selector: &ShardSelector) -> bool {
        self.selector
            .parse::<ShardSelector>()
            .is_ok_and(|applied| applied == *selector)
    }
}

/// A BOOKMARK event: a resourceVersion the watch has reached.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Bookmark {
    /// The resourceVersion the stream has caught up to.
    pub resource_version: String,
    /// True when annotated `k8s.io/initial-events-end: "true"` (end of a streaming list).
    pub initial_events_end: bool,
}

impl Bookmark {
    /// The annotation a BOOKMARK carries at the end of a streaming list's initial events.
    pub const INITIAL_EVENTS_END: &'static str = "k8s.io/initial-events-end";

    /// The bookmark a BOOKMARK event's object metadata says, whatever the encoding it came
    /// in; `None` without a resourceVersion, which a bookmark exists to carry.
    pub fn from_metadata(
        resource_version: Option<String>,
        annotations: Option<&std::collections::BTreeMap<String, String>>,
    ) -> Option<Self> {
        let resource_version = resource_version.filter(|rv| !rv.is_empty())?;
        let initial_events_end = annotations
            .and_then(|a| a.get(Self::INITIAL_EVENTS_END))
            .is_some_and(|v| v == "true");
        Some(Bookmark {
            resource_version,
            initial_events_end,
        })
    }
}

/// One decoded event of a watch stream.
// `Status` outweighs a bookmark, but ERROR events are rare and the object variants are
// usually larger still: boxing would cost an allocation for nothing.
#[allow(clippy::large_enum_variant)]
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub enum WatchEvent<K> {
    /// The object was created (or is part of the initial state).
    Added(K),
    /// The object was changed.
    Modified(K),
    /// The object was deleted; this is its last state.
    Deleted(K),
    /// Progress marker; carries no object.
    Bookmark(Bookmark),
    /// The server reported an error inside the stream (e.g. 410 Expired).
    Error(Status),
}

impl<K> WatchEvent<K> {
    /// This event with its object, if it carries one, passed through `f`:
    /// `event.map(Arc::new)` is the event as an informer's `ListerWatcher` hands it out.
    pub fn map<T>(self, f: impl FnOnce(K) -> T) -> WatchEvent<T> {
        match self {
            WatchEvent::Added(o) => WatchEvent::Added(f(o)),
            WatchEvent::Modified(o) => WatchEvent::Modified(f(o)),
            WatchEvent::Deleted(o) => WatchEvent::Deleted(f(o)),
            WatchEvent::Bookmark(b) => WatchEvent::Bookmark(b),
            WatchEvent::Error(status) => WatchEvent::Error(status),
        }
    }
}

/// A stream of watch events. It ends when the server closes the watch.
pub type WatchStream<K> = BoxStream<'static, Result<WatchEvent<K>, Error>>;
