//! Informers that follow a replica's share of a sharded resource (KEP-5866).
//!
//! A fixed [`shard_selector`](crate::informer::InformerOptions::shard_selector) serves a
//! replica whose share never changes. When replicas come and go (the controller kit's Lease
//! ring), each one's share moves: give the informer a channel of [`ShardAssignment`]s instead
//! ([`InformerOptions::shard_assignments`](crate::informer::InformerOptions::shard_assignments)).
//! On every change it ends its watch and relists with the new selector, as one step (the
//! relist is atomic): objects that came into the share are added, and objects that left it
//! are delivered as [`Deleted::LeftShard`](crate::handler::Deleted::LeftShard), not as
//! deletions, so a controller forgets them without running its deletion logic. Assigned
//! nothing, the informer empties its cache the same way and lists nothing until it is
//! assigned a share again.
//!
//! ```
//! use informer_runtime::informer::InformerOptions;
//! use informer_runtime::shard::ShardSelector;
//! use informer_runtime::sharding::ShardAssignment;
//! use k8s_openapi::api::core::v1::Pod;
//!
//! let first_half = ShardSelector::uid_range(0, 1 << 63)?;
//! let (assign, assignments) = tokio::sync::watch::channel(ShardAssignment::Selector(first_half));
//! let options = InformerOptions::<Pod>::default().shard_assignments(assignments);
//! // ... build and run the informer with `options`; later, when the share moves:
//! assign.send_replace(ShardAssignment::Selector(ShardSelector::uid_range(1 << 63, 1 << 64)?));
//! # let _ = options;
//! # Ok::<(), informer_runtime::shard::ShardSelectorError>(())
//! ```

use crate::object::Meta;
use crate::shard::{ShardField, ShardSelector};

/// Whose fields place an object in a share.
///
/// A server hashes only an object's own uid or namespace (KEP-5866). A controller's owned
/// objects (a Foo's Deployments) hash elsewhere than their owner, so a replica that shards
/// both by their own uids caches Deployments of Foos it does not reconcile and misses those
/// of Foos it does. Two ways out, each with its cost:
///
/// - Shard by namespace: an owner and its dependents share a namespace, so both informers
///   keep [`ShardBy::Object`] and the server filters both. Balance is by namespace, so a
///   few large namespaces make uneven shares, and one namespace is never split.
/// - Shard the owner by uid and its dependents by [`ShardBy::ControllerOwner`]: shares are
///   even whatever the namespaces, but the server cannot filter the dependents: their
///   informer lists and watches them all, decodes each, and caches only those whose
///   controller is in the share. Memory is saved, network and decoding are not.
///
/// ```
/// use informer_runtime::informer::InformerOptions;
/// use informer_runtime::sharding::ShardBy;
/// use k8s_openapi::api::apps::v1::Deployment;
///
/// let options = InformerOptions::<Deployment>::default().shard_by(ShardBy::ControllerOwner);
/// assert_eq!(options.shard_by, ShardBy::ControllerOwner);
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[non_exhaustive]
pub enum ShardBy {
    /// The object's own uid or namespace: the server filters, or the client before
    /// decoding when the server ignores the selector.
    #[default]
    Object,
    /// For a uid selector, the uid of the object's controller (its owner reference with
    /// `controller: true`), or its own uid when it has none; a namespace selector places it
    /// by its namespace, which its controller shares. The informer sends no uid selector
    /// and drops objects outside the share after decoding them; an object whose controller
    /// changes to one outside the share leaves as
    /// [`Deleted::LeftShard`](crate::handler::Deleted::LeftShard).
    ControllerOwner,
}

impl ShardBy {
    /// Whether a selector on `field` can be sent to the server: it hashes the object's own
    /// fields only.
    pub fn server_filters(self, field: ShardField) -> bool {
        match self {
            Self::Object => true,
            Self::ControllerOwner => field == ShardField::Namespace,
        }
    }
}

/// The part of a resource's objects an informer is to hold.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
#[non_exhaustive]
pub enum ShardAssignment {
    /// Every object: no shard selector.
    #[default]
    Everything,
    /// The objects the selector matches.
    Selector(ShardSelector),
    /// No object (a replica with no share): nothing is listed or watched.
    Nothing,
}

impl ShardAssignment {
    /// The share of a fixed `shard_selector`: everything without one.
    pub(crate) fn fixed(selector: Option<ShardSelector>) -> Self {
        selector.map_or(Self::Everything, Self::Selector)
    }

    /// The selector to send, if any.
    pub fn selector(&self) -> Option<&ShardSelector> {
        match self {
            Self::Selector(s) => Some(s),
            Self::Everything | Self::Nothing => None,
        }
    }

    /// Whether the object with `meta` belongs to this share; `None` when its hashed field
    /// is not known (a type that does not keep `metadata.uid`).
    pub fn holds(&self, meta: &impl Meta) -> Option<bool> {
        self.holds_by(meta, ShardBy::Object)
    }

    /// Whether the object with `meta` belongs to this share when placed `by` its own fields
    /// or its controller's; `None` when the hashed field is not known.
    pub fn holds_by(&self, meta: &impl Meta, by: ShardBy) -> Option<bool> {
        match self {
            Self::Everything => Some(true),
            Self::Nothing => Some(false),
            Self::Selector(s) => {
                let namespace = meta.namespace().unwrap_or_default();
                let uid = match (s.field(), by) {
                    (ShardField::Uid, ShardBy::Object) => meta.uid()?,
                    (ShardField::Uid, ShardBy::ControllerOwner) => meta
                        .owner_references()
                        .iter()
                        .find(|r| r.controller == Some(true))
                        .map(|r| r.uid.as_str())
                        .or_else(|| meta.uid())?,
                    (ShardField::Namespace, _) => "",
                };
                Some(s.matches(uid, namespace))
            }
        }
    }

    /// The selector a server is sent for objects placed `by` their own fields or their
    /// controller's: none when it cannot filter on the field (see [`ShardBy`]).
    pub fn server_selector(&self, by: ShardBy) -> Option<&ShardSelector> {
        self.selector().filter(|s| by.server_filters(s.field()))
    }
}
