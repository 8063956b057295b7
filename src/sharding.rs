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

/// The part of a resource's objects an informer is to hold.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
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
        match self {
            Self::Everything => Some(true),
            Self::Nothing => Some(false),
            Self::Selector(s) => {
                let namespace = meta.namespace().unwrap_or_default();
                let uid = match s.field() {
                    ShardField::Uid => meta.uid()?,
                    ShardField::Namespace => "",
                };
                Some(s.matches(uid, namespace))
            }
        }
    }
}
