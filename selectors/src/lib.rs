//! Kubernetes label sets and label selectors, the part of `k8s.io/apimachinery/pkg/labels`
//! that both sides of the wire need, and KEP-5866's shard selectors ([`shard`]): the informer
//! runtime matches cached objects with them, and the test API server filters lists and
//! watches with the same code, so the two can never disagree about what a selector means.
//!
//! ```
//! use std::collections::BTreeMap;
//! use informer_selectors::Selector;
//!
//! let selector: Selector = "tier in (web, api), !canary".parse()?;
//! let labels = BTreeMap::from([("tier".to_owned(), "web".to_owned())]);
//! assert!(selector.matches(&labels));
//! # Ok::<(), informer_selectors::selector::SelectorError>(())
//! ```
#![deny(missing_docs)]

pub mod labels;
pub mod selector;
pub mod shard;

pub use labels::{CompactLabels, Labels};
pub use selector::{is_dns_subdomain, Selector};
pub use shard::{ShardField, ShardRange, ShardSelector, ShardSelectorError};
