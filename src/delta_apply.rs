//! Applying deltas to the indexer, and the events each one means for handlers.
//!
//! A relist is applied page by page as it arrives: the keys it has shown are remembered
//! (keys only, not objects), objects whose resourceVersion did not change are left alone,
//! and when the list ends every cached key it did not show becomes a
//! `Deleted::FinalStateUnknown`. Peak memory during a relist therefore stays near the
//! steady state instead of holding the old cache and the whole new list at once.

use std::collections::HashSet;

use crate::delta_channel::Delta;
use crate::handler::{Deleted, Event, Origin};
use crate::object::{object_key, Meta as _, Object};
use crate::store::StoreWriter;

type Seen = HashSet<String, foldhash::fast::RandomState>;

/// What the applier knows of the list being applied.
enum Listing {
    /// No list under way.
    None,
    /// A list into a store that was empty when it started: every key cached when it ends
    /// came from it, so none needs remembering (a first sync of 100k objects skips 100k key
    /// copies and the final pass over the store).
    IntoEmpty,
    /// The keys the list has shown; hashed with foldhash, as the store's maps are: keys
    /// come from the API server, and SipHash would be a visible share of a large relist.
    Seen(Seen),
}

/// Applies deltas to an indexer in order and reports the resulting events.
pub(crate) struct DeltaApplier<K> {
    writer: StoreWriter<K>,
    listing: Listing,
    synced: bool,
}

impl<K: Object> DeltaApplier<K> {
    /// An applier writing through `writer`, not yet synced.
    pub(crate) fn new(writer: StoreWriter<K>) -> Self {
        Self {
            writer,
            listing: Listing::None,
            synced: false,
        }
    }

    /// True once a complete list has been applied.
    pub(crate) fn has_synced(&self) -> bool {
        self.synced
    }

    /// Applies `delta` and calls `emit` for every event it means, in order.
    pub(crate) fn apply(&mut self, delta: Delta<K>, emit: &mut dyn FnMut(Event<K>, Origin)) {
        match delta {
            Delta::ListStart => {
                self.listing = if self.writer.store().is_empty() {
                    Listing::IntoEmpty
                } else {
                    Listing::Seen(Seen::default())
                };
            }
            Delta::Replaced(obj) => {
                let key = object_key(obj.as_ref());
                let old = self.writer.store().get_by_key(&key);
                match &mut self.listing {
                    Listing::IntoEmpty => {}
                    Listing::Seen(seen) => {
                        seen.insert(key.clone());
                    }
                    Listing::None => {
                        self.listing = Listing::Seen(Seen::from_iter([key.clone()]));
                    }
                }
                match old {
                    Some(old) if same_version(old.as_ref(), &obj) => {}
                    Some(old) => {
                        self.writer.insert_with_key(key, obj.clone());
                        emit(Event::Updated { old, new: obj }, Origin::Change);
                    }
                    None => {
                        self.writer.insert_with_key(key, obj.clone());
                        let in_initial_list = !self.synced;
                        emit(
                            Event::Added {
                                obj,
                                in_initial_list,
                            },
                            Origin::Change,
                        );
                    }
                }
            }
            Delta::ListEnd => {
                let seen = match std::mem::replace(&mut self.listing, Listing::None) {
                    Listing::IntoEmpty => {
                        self.synced = true;
                        return;
                    }
                    Listing::Seen(seen) => seen,
                    Listing::None => Seen::default(),
                };
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
                for key in gone {
                    if let Some(last_known) = self.writer.remove(&key) {
                        emit(
                            Event::Deleted(Deleted::FinalStateUnknown { key, last_known }),
                            Origin::Change,
                        );
                    }
                }
                self.synced = true;
            }
            Delta::Added(new) | Delta::Updated(new) => {
                let key = object_key(new.as_ref());
                match self.writer.insert_with_key(key, new.clone()) {
                    Some(old) => emit(Event::Updated { old, new }, Origin::Change),
                    None => emit(
                        Event::Added {
                            obj: new,
                            in_initial_list: false,
                        },
                        Origin::Change,
                    ),
                }
            }
            Delta::Deleted(obj) => {
                // A handler that never saw the object must not see its deletion either:
                // each handler's sequence per object is Add, Update*, Delete.
                if self.writer.remove(&object_key(obj.as_ref())).is_some() {
                    emit(Event::Deleted(Deleted::Object(obj)), Origin::Change);
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
                Delta::ListEnd,
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
                Delta::ListEnd,
            ],
        );
        let out = run(
            &mut a,
            vec![
                Delta::ListStart,
                Delta::Replaced(cm("a", "1")),
                Delta::Replaced(cm("b", "7")),
                Delta::Replaced(cm("d", "8")),
                Delta::ListEnd,
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
    fn an_aborted_list_does_not_protect_keys_from_deletion() {
        let (_, writer) = store(Indexers::namespace());
        let mut a = DeltaApplier::new(writer);
        run(
            &mut a,
            vec![
                Delta::ListStart,
                Delta::Replaced(cm("a", "1")),
                Delta::Replaced(cm("b", "2")),
                Delta::ListEnd,
                // a relist that failed after its first page, then a restarted one
                Delta::ListStart,
                Delta::Replaced(cm("a", "1")),
                Delta::ListStart,
                Delta::Replaced(cm("b", "2")),
            ],
        );
        let out = run(&mut a, vec![Delta::ListEnd]);
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
                Delta::ListEnd,
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
                Delta::ListEnd,
            ],
        );
        assert_eq!(
            run(&mut a, vec![Delta::Sync]),
            vec!["resync update a@1->a@1"]
        );
    }
}
