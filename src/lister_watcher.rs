//! `ListerWatcher`: the source an informer lists and watches, and `ListWatch`,
//! the closure-built implementation every [`InformerSource`](crate::source::InformerSource)
//! makes.
//!
//! Objects arrive in the [`Arc`] the informer's cache will keep them in (client-go's
//! `ListerWatcher` hands out pointers too), so that a decoder that builds an object in place
//! there (informer-protobuf's `Shared`, which typed informers of built-ins decode with)
//! never has it moved again.

use std::future::Future;
use std::sync::Arc;

use futures_util::future::BoxFuture;
use futures_util::FutureExt;

use crate::error::Error;
use crate::list_options::{ListOptions, TweakListOptions};
// What a `ListerWatcher` yields; re-exported here, beside the trait that names them.
pub use crate::watch_event::{Bookmark, ObjectList, WatchEvent, WatchStream};

/// A source that can list and watch objects of type `K` (client-go's `cache.ListerWatcher`),
/// each handed out in its own [`Arc`].
pub trait ListerWatcher<K>: Send + Sync + 'static {
    /// List one page.
    fn list(&self, options: ListOptions) -> BoxFuture<'static, Result<ObjectList<Arc<K>>, Error>>;
    /// Start a watch.
    fn watch(&self, options: ListOptions)
        -> BoxFuture<'static, Result<WatchStream<Arc<K>>, Error>>;
}

type ListFn<K> =
    Arc<dyn Fn(ListOptions) -> BoxFuture<'static, Result<ObjectList<Arc<K>>, Error>> + Send + Sync>;
type WatchFn<K> = Arc<
    dyn Fn(ListOptions) -> BoxFuture<'static, Result<WatchStream<Arc<K>>, Error>> + Send + Sync,
>;

/// A `ListerWatcher` made of two closures (client-go's `cache.ListWatch`).
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
        LF: Future<Output = Result<ObjectList<Arc<K>>, Error>> + Send + 'static,
        W: Fn(ListOptions) -> WF + Send + Sync + 'static,
        WF: Future<Output = Result<WatchStream<Arc<K>>, Error>> + Send + 'static,
    {
        Self {
            list: Arc::new(move |o| list(o).boxed()),
            watch: Arc::new(move |o| watch(o).boxed()),
        }
    }

    /// This `ListWatch` with the options of every list and watch request first edited by
    /// `tweak` (client-go's `tweakListOptions`); unchanged when `tweak` is `None`.
    pub fn tweaked(self, tweak: Option<TweakListOptions>) -> Self {
        let Some(tweak) = tweak else { return self };
        let Self { list, watch } = self;
        let list_tweak = tweak.clone();
        Self {
            list: Arc::new(move |mut o| {
                list_tweak(&mut o);
                list(o)
            }),
            watch: Arc::new(move |mut o| {
                tweak(&mut o);
                watch(o)
            }),
        }
    }
}

impl<K: Send + 'static> ListerWatcher<K> for ListWatch<K> {
    fn list(&self, options: ListOptions) -> BoxFuture<'static, Result<ObjectList<Arc<K>>, Error>> {
        (self.list)(options)
    }

    fn watch(
        &self,
        options: ListOptions,
    ) -> BoxFuture<'static, Result<WatchStream<Arc<K>>, Error>> {
        (self.watch)(options)
    }
}
