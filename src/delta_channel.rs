//! A bounded channel of deltas from the reflector to the loop that applies them to the
//! store and hands them to handlers. It does what client-go's `RealFIFO` does for
//! informers (every change the reflector sees is delivered once, in the order it was
//! seen), but it is a channel, not client-go's keyed `DeltaFIFO`: nothing is merged or
//! looked up by key on the way.
//!
//! It is bounded so a reflector that decodes faster than the cache applies waits instead
//! of piling up pages: a relist never holds much more than one page beyond the cache
//! itself.

use std::any::Any;
use std::sync::Arc;

use tokio::sync::mpsc;

/// An object whose type only the informer at the consuming end of the queue knows. The
/// reflector at the producing end moves objects as this, so it is compiled once rather than
/// once per resource in every binary that watches that resource.
pub(crate) type Erased = dyn Any + Send + Sync;

/// One change to apply to the cache. Objects are already shared (`Arc<K>`), as the cache
/// and handlers hold them: the reflector allocates them, so the task applying deltas
/// only moves pointers.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Delta<K: ?Sized> {
    /// A (re)list begins: keys seen by an earlier, aborted list no longer count.
    ListStart,
    /// One object of the current (re)list, as its page arrived.
    Replaced(Arc<K>),
    /// The (re)list is complete, at this resourceVersion: cached keys it did not contain
    /// were deleted meanwhile.
    ListEnd(String),
    /// Nothing changed up to this resourceVersion (a watch bookmark).
    Bookmark(String),
    /// The lists and watches that follow hold this share of the objects: what a relist
    /// no longer shows and this share does not hold left the shard, rather than being
    /// deleted.
    Scope(crate::sharding::ShardAssignment),
    /// The object was created.
    Added(Arc<K>),
    /// The object was changed.
    Updated(Arc<K>),
    /// The object was deleted; this is its last state.
    Deleted(Arc<K>),
    /// Re-deliver every cached object to the handlers whose resync period is due.
    Sync,
}

impl Delta<Erased> {
    /// This delta with its object as the `K` it is; the object, if it is another type.
    pub(crate) fn downcast<K: Any + Send + Sync>(self) -> Result<Delta<K>, Arc<Erased>> {
        Ok(match self {
            Delta::ListStart => Delta::ListStart,
            Delta::Replaced(o) => Delta::Replaced(o.downcast()?),
            Delta::ListEnd(rv) => Delta::ListEnd(rv),
            Delta::Bookmark(rv) => Delta::Bookmark(rv),
            Delta::Scope(share) => Delta::Scope(share),
            Delta::Added(o) => Delta::Added(o.downcast()?),
            Delta::Updated(o) => Delta::Updated(o.downcast()?),
            Delta::Deleted(o) => Delta::Deleted(o.downcast()?),
            Delta::Sync => Delta::Sync,
        })
    }
}

/// The consumer of the queue is gone (the informer stopped).
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[error("the delta queue is closed: its informer stopped")]
pub(crate) struct QueueClosed;

/// The producing end of a delta queue. Cheap to clone.
#[derive(Debug)]
pub(crate) struct DeltaSender<K: ?Sized> {
    tx: mpsc::Sender<Delta<K>>,
}

impl<K: ?Sized> Clone for DeltaSender<K> {
    fn clone(&self) -> Self {
        Self {
            tx: self.tx.clone(),
        }
    }
}

/// The consuming end of a delta queue.
#[derive(Debug)]
pub(crate) struct DeltaReceiver<K: ?Sized> {
    rx: mpsc::Receiver<Delta<K>>,
}

/// A new queue holding at most `capacity` deltas (at least one).
pub(crate) fn delta_queue<K: ?Sized>(capacity: usize) -> (DeltaSender<K>, DeltaReceiver<K>) {
    let (tx, rx) = mpsc::channel(capacity.max(1));
    (DeltaSender { tx }, DeltaReceiver { rx })
}

impl<K: ?Sized> DeltaSender<K> {
    /// Queues `delta`, waiting while the queue is full.
    pub(crate) async fn push(&self, delta: Delta<K>) -> Result<(), QueueClosed> {
        self.tx.send(delta).await.map_err(|_| QueueClosed)
    }

    /// True once the consumer is gone.
    pub(crate) fn is_closed(&self) -> bool {
        self.tx.is_closed()
    }
}

impl<K: ?Sized> DeltaReceiver<K> {
    /// The next delta, in order; `None` once every sender is gone and the queue is drained.
    pub(crate) async fn pop(&mut self) -> Option<Delta<K>> {
        self.rx.recv().await
    }

    /// The next delta if one is queued now, without waiting.
    pub(crate) fn try_pop(&mut self) -> Option<Delta<K>> {
        self.rx.try_recv().ok()
    }

    #[cfg(test)]
    fn len(&self) -> usize {
        self.rx.len()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn deltas_come_out_in_order() {
        let (tx, mut rx) = delta_queue::<u32>(4);
        tx.push(Delta::ListStart).await.unwrap();
        tx.push(Delta::Replaced(Arc::new(1))).await.unwrap();
        tx.push(Delta::ListEnd("3".into())).await.unwrap();
        tx.push(Delta::Added(Arc::new(2))).await.unwrap();
        assert_eq!(rx.len(), 4);
        assert_eq!(rx.pop().await, Some(Delta::ListStart));
        assert!(matches!(rx.pop().await, Some(Delta::Replaced(_))));
        assert_eq!(rx.pop().await, Some(Delta::ListEnd("3".into())));
        assert_eq!(rx.pop().await, Some(Delta::Added(Arc::new(2))));
        assert_eq!(rx.try_pop(), None);
        tx.push(Delta::Added(Arc::new(3))).await.unwrap();
        assert_eq!(rx.try_pop(), Some(Delta::Added(Arc::new(3))));
        drop(tx);
        assert_eq!(rx.pop().await, None);
    }

    /// A delta of every kind, those that carry an object carrying `obj`.
    fn every_kind<K: ?Sized>(obj: Arc<K>) -> Vec<Delta<K>> {
        vec![
            Delta::ListStart,
            Delta::Replaced(obj.clone()),
            Delta::ListEnd("3".into()),
            Delta::Bookmark("4".into()),
            Delta::Scope(crate::sharding::ShardAssignment::Nothing),
            Delta::Added(obj.clone()),
            Delta::Updated(obj.clone()),
            Delta::Deleted(obj),
            Delta::Sync,
        ]
    }

    #[test]
    fn erased_deltas_come_back_as_the_type_they_carry() {
        let erased = every_kind::<Erased>(Arc::new(1u32));
        let typed: Vec<Delta<u32>> = erased
            .into_iter()
            .map(|d| d.downcast::<u32>().unwrap())
            .collect();
        assert_eq!(typed, every_kind(Arc::new(1u32)));
        let other: Delta<Erased> = Delta::Updated(Arc::new("not a u32"));
        let back = other.downcast::<u32>().unwrap_err();
        assert_eq!(back.downcast_ref::<&str>(), Some(&"not a u32"));
    }

    #[tokio::test]
    async fn a_full_queue_makes_the_producer_wait() {
        let (tx, mut rx) = delta_queue::<u32>(1);
        tx.push(Delta::Added(Arc::new(1))).await.unwrap();
        let tx2 = tx.clone();
        let pushed = tokio::spawn(async move { tx2.push(Delta::Added(Arc::new(2))).await });
        tokio::task::yield_now().await;
        assert_eq!(rx.len(), 1);
        assert_eq!(rx.pop().await, Some(Delta::Added(Arc::new(1))));
        pushed.await.unwrap().unwrap();
        assert_eq!(rx.pop().await, Some(Delta::Added(Arc::new(2))));
        drop(rx);
        assert_eq!(tx.push(Delta::Sync).await, Err(QueueClosed));
    }
}
