//! Kubernetes label selectors: parse the full syntax and match label sets.
//!
//! CONTRACT STUB: filled in by the selector work; signatures are the contract.

use std::collections::BTreeMap;

/// A parsed label selector (`a=b`, `a==b`, `a!=b`, `a in (x,y)`, `a notin (x)`, `a`, `!a`, comma-joined).
/// The empty selector matches everything.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Selector {
    _private: (),
}

/// Why a selector string is invalid.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("invalid label selector {input:?}: {reason}")]
pub struct SelectorError {
    /// The selector text.
    pub input: String,
    /// What is wrong, and where.
    pub reason: String,
}

impl Selector {
    /// The selector that matches everything.
    pub fn everything() -> Self {
        Self::default()
    }

    /// True when `labels` satisfies every requirement.
    pub fn matches(&self, labels: Option<&BTreeMap<String, String>>) -> bool {
        let _ = labels;
        todo!()
    }

    /// True for the empty selector.
    pub fn is_empty(&self) -> bool {
        todo!()
    }
}

impl std::str::FromStr for Selector {
    type Err = SelectorError;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let _ = s;
        todo!()
    }
}
