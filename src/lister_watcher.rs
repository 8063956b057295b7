//! `ListerWatcher`: the source an informer lists and watches, and `ListWatch`,
//! the closure-built implementation generated code uses.

use std::future::Future;
use std::sync::Arc;

use futures_util::future::BoxFuture;
use futures_util::stream::BoxStream;
use futures_util::FutureExt;
use k8s_openapi::apimachinery::pkg::apis::meta::v1::{ListMeta, Status};

use crate::error::Error;
use crate::list_options::ListOptions;

/// One page of a list response: its `ListMeta` (resourceVersion, continue,
/// remainingItemCount) and its decoded items.
#[derive(Debug, Clone, PartialEq)]
pub struct ObjectList<K> {
    /// The list's metadata.
    pub metadata: ListMeta,
    /// The items of this page.
    pub items: Vec<K>,
}

/// A BOOKMARK event: a resourceVersion the watch has reached.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Bookmark {
    /// The resourceVersion the stream has caught up to.
    pub resource_version: String,
    /// True when annotated `k8s.io/initial-events-end: "true"` (end of a streaming list).
    pub initial_events_end: bool,
}

/// One decoded event of a watch stream.
// `Status` is large, but ERROR events are rare and boxing would change the contract.
#[allow(clippy::large_enum_variant)]
#[derive(Debug, Clone, PartialEq)]
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

/// A stream of watch events. It ends when the server closes the watch.
pub type WatchStream<K> = BoxStream<'static, Result<WatchEvent<K>, Error>>;

/// A source that can list and watch objects of type `K` (client-go's `cache.ListerWatcher`).
pub trait ListerWatcher<K>: Send + Sync + 'static {
    /// List one page.
    fn list(&self, options: ListOptions) -> BoxFuture<'static, Result<ObjectList<K>, Error>>;
    /// Start a watch.
    fn watch(&self, options: ListOptions) -> BoxFuture<'static, Result<WatchStream<K>, Error>>;
}

type ListFn<K> =
    Arc<dyn Fn(ListOptions) -> BoxFuture<'static, Result<ObjectList<K>, Error>> + Send + Sync>;
type WatchFn<K> =
    Arc<dyn Fn(ListOptions) -> BoxFuture<'static, Result<WatchStream<K>, Error>> + Send + Sync>;

/// A `ListerWatcher` made of two closures (client-go's `cache.ListWatch`):
/// generated informers wrap `tweak_list_options` around the client's list and watch.
pub struct ListWatch<K> {
    list: ListFn<K>,
    watch: WatchFn<K>,
}

impl<K> Clone for ListWatch<K> {
    fn clone(&self) -> Self {
        Self {
            list: self.list.clone(),
            watch: self.watch.clone(),
        }
    }
}

impl<K: Send + 'static> ListWatch<K> {
    /// A `ListWatch` from a list function and a watch function.
    pub fn new<L, LF, W, WF>(list: L, watch: W) -> Self
    where
        L: Fn(ListOptions) -> LF + Send + Sync + 'static,
        LF: Future<Output = Result<ObjectList<K>, Error>> + Send + 'static,
        W: Fn(ListOptions) -> WF + Send + Sync + 'static,
        WF: Future<Output = Result<WatchStream<K>, Error>> + Send + 'static,
    {
        Self {
            list: Arc::new(move |o| list(o).boxed()),
            watch: Arc::new(move |o| watch(o).boxed()),
        }
    }
}

impl<K: Send + 'static> ListerWatcher<K> for ListWatch<K> {
    fn list(&self, options: ListOptions) -> BoxFuture<'static, Result<ObjectList<K>, Error>> {
        (self.list)(options)
    }

    fn watch(&self, options: ListOptions) -> BoxFuture<'static, Result<WatchStream<K>, Error>> {
        (self.watch)(options)
    }
}
