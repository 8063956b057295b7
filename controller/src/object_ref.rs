//! The key a controller queues for an object: its namespace and name.

use std::fmt;
use std::str::FromStr;

use informer_runtime::object::{Meta as _, Object};

/// An object's namespace and name; `namespace/name` as text (`name` alone for a
/// cluster-scoped object), the key client-go's `MetaNamespaceKeyFunc` makes and
/// `SplitMetaNamespaceKey` parses.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct ObjectRef {
    /// The namespace; `None` for a cluster-scoped object.
    pub namespace: Option<String>,
    /// The name.
    pub name: String,
}

impl ObjectRef {
    /// A namespaced object's key.
    pub fn new(namespace: impl Into<String>, name: impl Into<String>) -> Self {
        Self {
            namespace: Some(namespace.into()),
            name: name.into(),
        }
    }

    /// A cluster-scoped object's key.
    pub fn cluster_scoped(name: impl Into<String>) -> Self {
        Self {
            namespace: None,
            name: name.into(),
        }
    }

    /// The key of `obj` (an empty namespace counts as none, as in the store's keys).
    pub fn from_obj<K: Object>(obj: &K) -> Self {
        let meta = obj.meta();
        Self {
            namespace: meta
                .namespace()
                .filter(|ns| !ns.is_empty())
                .map(str::to_owned),
            name: meta.name().unwrap_or_default().to_owned(),
        }
    }
}

impl fmt::Display for ObjectRef {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.namespace {
            Some(ns) => write!(f, "{ns}/{}", self.name),
            None => f.write_str(&self.name),
        }
    }
}

/// A text that is not a `namespace/name` or `name` key.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{key:?} is not an object key: want \"namespace/name\" or \"name\" with a non-empty name")]
pub struct ParseObjectRefError {
    /// The text given.
    pub key: String,
}

impl FromStr for ObjectRef {
    type Err = ParseObjectRefError;

    /// Parses `namespace/name` or `name`; `/name` has no namespace, as client-go reads it.
    fn from_str(key: &str) -> Result<Self, Self::Err> {
        let bad = || ParseObjectRefError {
            key: key.to_owned(),
        };
        let (namespace, name) = match key.split_once('/') {
            Some((ns, name)) => ((!ns.is_empty()).then(|| ns.to_owned()), name),
            None => (None, key),
        };
        if name.is_empty() || name.contains('/') {
            return Err(bad());
        }
        Ok(Self {
            namespace,
            name: name.to_owned(),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn text_round_trips() {
        for (text, key) in [
            ("shop/web", ObjectRef::new("shop", "web")),
            ("node-1", ObjectRef::cluster_scoped("node-1")),
        ] {
            assert_eq!(key.to_string(), text);
            assert_eq!(text.parse::<ObjectRef>(), Ok(key));
        }
        assert_eq!(
            "/web".parse::<ObjectRef>(),
            Ok(ObjectRef::cluster_scoped("web"))
        );
    }

    #[test]
    fn malformed_keys_are_errors() {
        for bad in ["", "a/", "/", "a/b/c"] {
            let e = bad.parse::<ObjectRef>().unwrap_err();
            assert_eq!(e.key, bad);
        }
    }
}
