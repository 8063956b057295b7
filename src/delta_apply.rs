//! Applying deltas to the indexer, and the events each one means for handlers.
//!
//! The first list goes into the empty store page by page as it arrives: nothing else is
//! there to be consistent with, and the informer has not synced yet.
//!
//! A relist (after a 410, a decode error, a restart of the watch) is applied as one step,
//! KEP-5647's atomic replace: readers see the cache from before it until the list ends, then
//! the cache after it, never a mix, and handlers receive its events together. Only what
//! changed is staged while the list arrives: objects whose resourceVersion differs from the
//! cached one (an unchanged object is not held twice) and the keys the list has shown (keys
//! only, to find what it no longer contains). Peak memory during a relist is therefore the
//! steady state plus the changes, not the old cache plus the whole new list.
//!
//! The store's resourceVersion ([`Indexer::resource_version`](crate::store::Indexer::resource_version))
//! moves with every watch event and bookmark applied, and with a list when it has been
//! applied whole.

use std::collections::HashSet;
use std::sync::Arc;

use crate::delta_channel::Delta;
use crate::handler::{Deleted, Event, Origin};
use crate::object::{object_key, Meta as _, Object};
use crate::sharding::{ShardAssignment, ShardBy};
use crate::store::StoreWriter;

type Seen = HashSet<String, foldhash::fast::RandomState>;

/// What the applier knows of the list being applied.
enum Listing<K> {
    /// No list under way.
    None,
    /// A list into a store that was empty when it started, applied as it arrives: every
    /// key cached when it ends came from it, so none needs remembering (a first sync of 100k
    /// objects skips 100k key copies and the final pass over the store).
    IntoEmpty,
    /// A relist, staged until it ends.
    Relist(Relist<K>),
}

/// A relist as far as it has arrived.
struct Relist<K> {
    /// The keys the list has shown; hashed with foldhash, as the store's maps are: keys
    /// come from the API server, and SipHash would be a visible share of a large relist.
    seen: Seen,
    /// The listed objects that differ from the cache, in list order.
    changed: Vec<(String, Arc<K>)>,
    /// Keys the list showed outside the share (objects placed by a controller that is not
    /// in it): if cached, they left the shard rather than the cluster.
    outside: Seen,
}

impl<K> Relist<K> {
    fn new() -> Self {
        Self {
            seen: Seen::default(),
            changed: Vec::new(),
            outside: Seen::default(),
        }
    }
}

/// Applies deltas to an indexer in order and reports the resulting events.
pub(crate) struct DeltaApplier<K> {
    writer: StoreWriter<K>,
    listing: Listing<K>,
    synced: bool,
    /// The share of the objects the lists hold: what a relist no longer shows and this
    /// does not hold left the shard.
    scope: ShardAssignment,
    /// Whose fields place an object in the share. Placed by its controller, an object is
    /// sent whatever the share (no server can filter on that) and filtered here.
    by: ShardBy,
}

impl<K: Object> DeltaApplier<K> {
    /// An applier writing through `writer`, not yet synced.
    pub(crate) fn new(writer: StoreWriter<K>) -> Self {
        Self {
            writer,
            listing: Listing::None,
            synced: false,
            scope: ShardAssignment::Everything,
            by: ShardBy::Object,
        }
    }

    /// The same, for an informer holding the share `scope` (until a [`Delta::Scope`] moves
    /// it), its objects placed `by` their own fields or their controller's.
    pub(crate) fn sharded(mut self, scope: ShardAssignment, by: ShardBy) -> Self {
        self.scope = scope;
        self.by = by;
        self
    }

    /// False for an object the server sent but the share does not hold: only objects
    /// placed by their controller are sent so.
    fn holds(&self, obj: &K) -> bool {
        self.by == ShardBy::Object || self.scope.holds_by(obj.meta(), self.by) != Some(false)
    }

    /// True once a complete list has been applied.
    pub(crate) fn has_synced(&self) -> bool {
        self.synced
    }

    /// Applies `delta` and calls `emit` for every event it means, in order.
    pub(crate) fn apply(&mut self, delta: Delta<K>, emit: &mut dyn FnMut(Event<K>, Origin)) {
        match delta {
            Delta::ListStart => {
                // A list that starts again drops what an aborted one staged: the new one
                // brings it again if it still holds.
                self.listing = if self.writer.store().is_empty() {
                    Listing::IntoEmpty
                } else {
                    Listing::Relist(Relist::new())
                };
            }
            Delta::Replaced(obj) => {
                let key = object_key(obj.as_ref());
                if matches!(self.listing, Listing::None) {
                    self.listing = Listing::Relist(Relist::new());
                }
                if !self.holds(&obj) {
                    if let Listing::Relist(relist) = &mut self.listing {
                        relist.outside.insert(key);
                    }
                    return;
                }
                match &mut self.listing {
                    Listing::IntoEmpty | Listing::None => self.upsert(key, obj, emit),
                    Listing::Relist(relist) => {
                        let unchanged = self
                            .writer
                            .store()
                            .peek(&key)
                            .is_some_and(|old| same_version(old.as_ref(), &obj));
                        if !unchanged {
                            relist.changed.push((key.clone(), obj));
                        }
                        relist.seen.insert(key);
                    }
                }
            }
            Delta::ListEnd(resource_version) => {
                match std::mem::replace(&mut self.listing, Listing::None) {
                    Listing::IntoEmpty => {}
                    Listing::Relist(relist) => self.replace(relist, emit),
                    Listing::None => self.replace(Relist::new(), emit),
                }
                self.writer.set_resource_version(&resource_version);
                self.synced = true;
            }
            Delta::Bookmark(resource_version) => {
                self.writer.set_resource_version(&resource_version);
            }
            Delta::Scope(scope) => self.scope = scope,
            Delta::Added(new) | Delta::Updated(new) => {
                let rv = new.meta().resource_version().map(str::to_owned);
                if self.holds(&new) {
                    self.upsert(object_key(new.as_ref()), new, emit);
                } else {
                    // Its controller changed to one outside the share.
                    let key = object_key(new.as_ref());
                    if let Some(last_known) = self.writer.remove(&key) {
                        emit(
                            Event::Deleted(Deleted::LeftShard { key, last_known }),
                            Origin::Change,
                        );
                    }
                }
                if let Some(rv) = rv {
                    self.writer.set_resource_version(&rv);
                }
            }
            Delta::Deleted(obj) => {
                // A handler that never saw the object must not see its deletion either:
                // each handler's sequence per object is Add, Update*, Delete.
                let rv = obj.meta().resource_version().map(str::to_owned);
                if self.writer.remove(&object_key(obj.as_ref())).is_some() {
                    emit(Event::Deleted(Deleted::Object(obj)), Origin::Change);
                }
                if let Some(rv) = rv {
                    self.writer.set_resource_version(&rv);
                }
            }
            Delta::Sync => {
                for obj in self.writer.store().list() {
                    emit(
                        Event::Updated {
                            old: obj.clone(),
                            new: obj,
                        },
                        Origin::Resync,
                    );
                }
            }
        }
    }

    /// Stores `obj` and emits its add or update.
    fn upsert(&mut self, key: String, obj: Arc<K>, emit: &mut dyn FnMut(Event<K>, Origin)) {
        let in_initial_list = !self.synced;
        emit(
            event(
                self.writer.insert_with_key(key, obj.clone()),
                obj,
                in_initial_list,
            ),
            Origin::Change,
        );
    }

    /// Applies a finished relist as one write: its changed objects, then the removal of
    /// every cached key it did not show; then emits the events of both, in that order.
    fn replace(&mut self, relist: Relist<K>, emit: &mut dyn FnMut(Event<K>, Origin)) {
        let Relist {
            seen,
            changed,
            outside,
        } = relist;
        let mut gone: Vec<String> = self
            .writer
            .store()
            .list_keys()
            .into_iter()
            .filter(|k| !seen.contains(k))
            .collect();
        drop(seen);
        // Sorted so handlers see a reproducible order.
        gone.sort_unstable();
        let changes: Vec<(String, Option<Arc<K>>)> = changed
            .into_iter()
            .map(|(key, obj)| (key, Some(obj)))
            .chain(gone.into_iter().map(|key| (key, None)))
            .collect();
        let olds = self.writer.apply_all(&changes);
        let in_initial_list = !self.synced;
        for ((key, change), old) in changes.into_iter().zip(olds) {
            match (change, old) {
                (Some(new), old) => emit(event(old, new, in_initial_list), Origin::Change),
                (None, Some(last_known)) => {
                    // Known to be outside the share: it left; otherwise it was deleted.
                    let gone = if outside.contains(&key)
                        || self.scope.holds_by(last_known.meta(), self.by) == Some(false)
                    {
                        Deleted::LeftShard { key, last_known }
                    } else {
                        Deleted::FinalStateUnknown { key, last_known }
                    };
                    emit(Event::Deleted(gone), Origin::Change)
                }
                (None, None) => {}
            }
        }
    }
}

/// The event of storing `new` where `old` was.
fn event<K>(old: Option<Arc<K>>, new: Arc<K>, in_initial_list: bool) -> Event<K> {
    match old {
        Some(old) => Event::Updated { old, new },
        None => Event::Added {
            obj: new,
            in_initial_list,
        },
    }
}

fn same_version<K: Object>(old: &K, new: &K) -> bool {
    match (old.meta().resource_version(), new.meta().resource_version()) {
        (Some(a), Some(b)) => !a.is_empty() && a == b,
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::store::{store, Indexers};
    use k8s_openapi::api::core::v1::ConfigMap;
    use k8s_openapi::apimachinery::pkg::apis::meta::v1::ObjectMeta;
    use std::sync::Arc;

    fn cm(name: &str, rv: &str) -> Arc<ConfigMap> {
        Arc::new(ConfigMap {
            metadata: ObjectMeta {
                namespace: Some("ns".into()),
                name: Some(name.into()),
                resource_version: Some(rv.into()),
                ..Default::default()
            },
            ..Default::default()
        })
    }

    fn describe(e: &Event<ConfigMap>, o: Origin) -> String {
        let name = |c: &ConfigMap| {
            format!(
                "{}@{}",
                c.metadata.name.clone().unwrap_or_default(),
                c.metadata.resource_version.clone().unwrap_or_default()
            )
        };
        let tag = if o == Origin::Resync { "resync " } else { "" };
        match e {
            Event::Added {
                obj,
                in_initial_list,
            } => format!("{tag}add {} initial={in_initial_list}", name(obj)),
            Event::Updated { old, new } => format!("{tag}update {}->{}", name(old), name(new)),
            Event::Deleted(Deleted::Object(o)) => format!("delete {}", name(o)),
            Event::Deleted(Deleted::FinalStateUnknown { key, last_known }) => {
                format!("unknown {key} {}", name(last_known))
            }
            Event::Deleted(Deleted::LeftShard { key, last_known }) => {
                format!("left {key} {}", name(last_known))
            }
        }
    }

    fn run(a: &mut DeltaApplier<ConfigMap>, deltas: Vec<Delta<ConfigMap>>) -> Vec<String> {
        let mut out = Vec::new();
        for d in deltas {
            a.apply(d, &mut |e, o| out.push(describe(&e, o)));
        }
        out
    }

    #[test]
    fn initial_list_then_watch_events() {
        let (idx, writer) = store(Indexers::namespace());
        let mut a = DeltaApplier::new(writer);
        let out = run(
            &mut a,
            vec![
                Delta::ListStart,
                Delta::Replaced(cm("a", "1")),
                Delta::Replaced(cm("b", "2")),
            ],
        );
        assert!(!a.has_synced());
        assert_eq!(out, vec!["add a@1 initial=true", "add b@2 initial=true"]);
        let out = run(
            &mut a,
            vec![
                Delta::ListEnd("100".into()),
                Delta::Added(cm("c", "3")),
                Delta::Updated(cm("a", "4")),
                Delta::Deleted(cm("b", "5")),
                Delta::Deleted(cm("never", "6")),
            ],
        );
        assert!(a.has_synced());
        assert_eq!(
            out,
            vec!["add c@3 initial=false", "update a@1->a@4", "delete b@5"]
        );
        assert_eq!(idx.len(), 2);
    }

    #[test]
    fn relist_updates_only_changed_and_deletes_unseen_as_unknown() {
        let (idx, writer) = store(Indexers::namespace());
        let mut a = DeltaApplier::new(writer);
        run(
            &mut a,
            vec![
                Delta::ListStart,
                Delta::Replaced(cm("a", "1")),
                Delta::Replaced(cm("b", "2")),
                Delta::Replaced(cm("c", "3")),
                Delta::ListEnd("100".into()),
            ],
        );
        let out = run(
            &mut a,
            vec![
                Delta::ListStart,
                Delta::Replaced(cm("a", "1")),
                Delta::Replaced(cm("b", "7")),
                Delta::Replaced(cm("d", "8")),
                Delta::ListEnd("100".into()),
            ],
        );
        assert_eq!(
            out,
            vec![
                "update b@2->b@7",
                "add d@8 initial=false",
                "unknown ns/c c@3"
            ]
        );
        let mut keys = idx.list_keys();
        keys.sort();
        assert_eq!(keys, vec!["ns/a", "ns/b", "ns/d"]);
    }

    #[test]
    fn a_relist_changes_the_store_only_when_it_ends() {
        let (idx, writer) = store(Indexers::namespace());
        let mut a = DeltaApplier::new(writer);
        run(
            &mut a,
            vec![
                Delta::ListStart,
                Delta::Replaced(cm("a", "1")),
                Delta::Replaced(cm("b", "2")),
                Delta::ListEnd("2".into()),
            ],
        );
        assert_eq!(idx.resource_version(), "2");
        let staged = run(
            &mut a,
            vec![
                Delta::ListStart,
                Delta::Replaced(cm("b", "5")),
                Delta::Replaced(cm("c", "6")),
            ],
        );
        assert_eq!(
            staged,
            Vec::<String>::new(),
            "no event before the list ends"
        );
        let mut keys = idx.list_keys();
        keys.sort();
        assert_eq!(keys, vec!["ns/a", "ns/b"]);
        assert_eq!(
            idx.get_by_key("ns/b")
                .unwrap()
                .metadata
                .resource_version
                .as_deref(),
            Some("2")
        );
        assert_eq!(idx.resource_version(), "2");
        let out = run(&mut a, vec![Delta::ListEnd("7".into())]);
        assert_eq!(
            out,
            vec![
                "update b@2->b@5",
                "add c@6 initial=false",
                "unknown ns/a a@1"
            ]
        );
        assert_eq!(idx.resource_version(), "7");
    }

    #[test]
    fn the_store_resource_version_follows_events_and_bookmarks() {
        let (idx, writer) = store(Indexers::namespace());
        let mut a = DeltaApplier::new(writer);
        run(
            &mut a,
            vec![Delta::ListStart, Delta::Replaced(cm("a", "3"))],
        );
        assert_eq!(
            idx.resource_version(),
            "",
            "a list counts once applied whole"
        );
        run(&mut a, vec![Delta::ListEnd("4".into())]);
        assert_eq!(idx.resource_version(), "4");
        let changes = idx.resource_version_changes();
        run(&mut a, vec![Delta::Updated(cm("a", "9"))]);
        assert!(changes.has_changed().unwrap());
        assert_eq!(idx.resource_version(), "9");
        run(
            &mut a,
            vec![Delta::Deleted(cm("a", "10")), Delta::Bookmark("12".into())],
        );
        assert_eq!(idx.resource_version(), "12");
    }

    /// Two uids whose hashes are below and above the middle of the hash space.
    fn uids_either_side_of_the_middle() -> (String, String) {
        use crate::shard::fnv1a_64;
        let uids: Vec<String> = (0..64).map(|i| format!("uid-{i:04}-a8f3")).collect();
        let side = |low: bool| {
            uids.iter()
                .find(|u| (fnv1a_64(u.as_bytes()) < 1 << 63) == low)
                .cloned()
                .unwrap()
        };
        (side(true), side(false))
    }

    #[test]
    fn a_relist_under_a_new_scope_tells_left_from_deleted() {
        use crate::shard::ShardSelector;
        let with_uid = |name: &str, uid: &str| {
            let mut c = (*cm(name, "1")).clone();
            c.metadata.uid = Some(uid.into());
            Arc::new(c)
        };
        let (low, high) = &uids_either_side_of_the_middle();
        let (_, writer) = store(Indexers::namespace());
        let mut a = DeltaApplier::new(writer);
        run(
            &mut a,
            vec![
                Delta::ListStart,
                Delta::Replaced(with_uid("low", low)),
                Delta::Replaced(with_uid("high", high)),
                Delta::Replaced(with_uid("gone", low)),
                Delta::ListEnd("2".into()),
            ],
        );
        let low_half = ShardSelector::uid_range(0, 1 << 63).unwrap();
        let out = run(
            &mut a,
            vec![
                Delta::Scope(ShardAssignment::Selector(low_half)),
                Delta::ListStart,
                Delta::Replaced(with_uid("low", low)),
                Delta::ListEnd("3".into()),
            ],
        );
        assert_eq!(out, vec!["unknown ns/gone gone@1", "left ns/high high@1"]);
        let out = run(
            &mut a,
            vec![
                Delta::Scope(ShardAssignment::Nothing),
                Delta::ListStart,
                Delta::ListEnd("4".into()),
            ],
        );
        assert_eq!(out, vec!["left ns/low low@1"]);
    }

    #[test]
    fn objects_placed_by_their_controller_follow_it() {
        use crate::shard::ShardSelector;
        use k8s_openapi::apimachinery::pkg::apis::meta::v1::OwnerReference;
        let (low, high) = &uids_either_side_of_the_middle();
        // Its own uid is `own`; its controller's `controller` (none: placed by its own).
        let owned = |name: &str, rv: &str, own: &str, controller: Option<&str>| {
            let mut c = (*cm(name, rv)).clone();
            c.metadata.uid = Some(own.into());
            c.metadata.owner_references = controller.map(|uid| {
                vec![
                    OwnerReference {
                        uid: high.clone(),
                        controller: Some(false),
                        ..OwnerReference::default()
                    },
                    OwnerReference {
                        uid: uid.into(),
                        controller: Some(true),
                        ..OwnerReference::default()
                    },
                ]
            });
            Arc::new(c)
        };
        let low_half = ShardAssignment::Selector(ShardSelector::uid_range(0, 1 << 63).unwrap());
        let (idx, writer) = store(Indexers::namespace());
        let mut a = DeltaApplier::new(writer).sharded(low_half, ShardBy::ControllerOwner);
        let out = run(
            &mut a,
            vec![
                Delta::ListStart,
                Delta::Replaced(owned("mine", "1", high, Some(low))),
                Delta::Replaced(owned("theirs", "2", low, Some(high))),
                Delta::Replaced(owned("orphan", "3", low, None)),
                Delta::ListEnd("3".into()),
            ],
        );
        assert_eq!(
            out,
            vec!["add mine@1 initial=true", "add orphan@3 initial=true"]
        );
        let out = run(
            &mut a,
            vec![
                Delta::Added(owned("theirs-2", "4", low, Some(high))),
                Delta::Updated(owned("mine", "5", high, Some(high))),
                Delta::Updated(owned("theirs", "6", high, Some(low))),
            ],
        );
        assert_eq!(
            out,
            vec!["left ns/mine mine@1", "add theirs@6 initial=false"]
        );
        assert_eq!(idx.list_keys().len(), 2);
        assert_eq!(idx.resource_version(), "6");
        // A relist that shows the same: nothing moves; one whose controller moved: it left.
        let out = run(
            &mut a,
            vec![
                Delta::ListStart,
                Delta::Replaced(owned("theirs", "6", high, Some(low))),
                Delta::Replaced(owned("orphan", "7", low, Some(high))),
                Delta::ListEnd("7".into()),
            ],
        );
        assert_eq!(out, vec!["left ns/orphan orphan@3"]);
    }

    #[test]
    fn an_aborted_list_does_not_protect_keys_from_deletion() {
        let (_, writer) = store(Indexers::namespace());
        let mut a = DeltaApplier::new(writer);
        run(
            &mut a,
            vec![
                Delta::ListStart,
                Delta::Replaced(cm("a", "1")),
                Delta::Replaced(cm("b", "2")),
                Delta::ListEnd("100".into()),
                // a relist that failed after its first page, then a restarted one
                Delta::ListStart,
                Delta::Replaced(cm("a", "1")),
                Delta::ListStart,
                Delta::Replaced(cm("b", "2")),
            ],
        );
        let out = run(&mut a, vec![Delta::ListEnd("100".into())]);
        assert_eq!(out, vec!["unknown ns/a a@1"]);
    }

    #[test]
    fn a_first_list_cut_short_and_restarted_still_drops_what_the_restart_lacks() {
        // The first list starts into an empty store; a 410 after its first page restarts
        // it when the store already holds that page.
        let (idx, writer) = store(Indexers::namespace());
        let mut a = DeltaApplier::new(writer);
        let out = run(
            &mut a,
            vec![
                Delta::ListStart,
                Delta::Replaced(cm("a", "1")),
                Delta::Replaced(cm("b", "2")),
                Delta::ListStart,
                Delta::Replaced(cm("b", "3")),
                Delta::Replaced(cm("c", "4")),
                Delta::ListEnd("100".into()),
            ],
        );
        assert_eq!(
            out,
            vec![
                "add a@1 initial=true",
                "add b@2 initial=true",
                "update b@2->b@3",
                "add c@4 initial=true",
                "unknown ns/a a@1"
            ]
        );
        assert!(a.has_synced());
        let mut keys = idx.list_keys();
        keys.sort();
        assert_eq!(keys, vec!["ns/b", "ns/c"]);
    }

    #[test]
    fn sync_redelivers_every_object_as_resync_update() {
        let (_, writer) = store(Indexers::namespace());
        let mut a = DeltaApplier::new(writer);
        run(
            &mut a,
            vec![
                Delta::ListStart,
                Delta::Replaced(cm("a", "1")),
                Delta::ListEnd("100".into()),
            ],
        );
        assert_eq!(
            run(&mut a, vec![Delta::Sync]),
            vec!["resync update a@1->a@1"]
        );
    }
}
