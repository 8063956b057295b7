//! Generic listers: typed reads from an informer's indexer. Objects are handed out as
//! `Arc<K>`: no copies, and immutable by type.

use std::sync::Arc;

use crate::object::Object;
use crate::selector::Selector;
use crate::store::{Indexer, NAMESPACE_INDEX};

/// Reads objects of `K` from an indexer (client-go's generated `XLister`, generically).
pub struct Lister<K> {
    indexer: Indexer<K>,
}

impl<K> Clone for Lister<K> {
    fn clone(&self) -> Self {
        Self {
            indexer: self.indexer.clone(),
        }
    }
}

impl<K: Object> std::fmt::Debug for Lister<K> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Lister")
            .field("indexer", &self.indexer)
            .finish()
    }
}

/// Reads objects of `K` in one namespace.
pub struct NamespaceLister<K> {
    indexer: Indexer<K>,
    namespace: String,
}

impl<K> Clone for NamespaceLister<K> {
    fn clone(&self) -> Self {
        Self {
            indexer: self.indexer.clone(),
            namespace: self.namespace.clone(),
        }
    }
}

impl<K: Object> std::fmt::Debug for NamespaceLister<K> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("NamespaceLister")
            .field("namespace", &self.namespace)
            .field("indexer", &self.indexer)
            .finish()
    }
}

fn select<K: Object>(objs: Vec<Arc<K>>, selector: &Selector) -> Vec<Arc<K>> {
    if selector.is_empty() {
        return objs;
    }
    objs.into_iter()
        .filter(|o| selector.matches(o.meta().labels.as_ref()))
        .collect()
}

impl<K: Object> Lister<K> {
    /// A lister over `indexer`.
    pub fn new(indexer: Indexer<K>) -> Self {
        Self { indexer }
    }

    /// The indexer this lister reads.
    pub fn indexer(&self) -> &Indexer<K> {
        &self.indexer
    }

    /// Every object matching `selector`.
    pub fn list(&self, selector: &Selector) -> Vec<Arc<K>> {
        select(self.indexer.list(), selector)
    }

    /// The cluster-scoped object named `name`.
    pub fn get(&self, name: &str) -> Option<Arc<K>> {
        self.indexer.get_by_key(name)
    }

    /// A lister for one namespace.
    pub fn namespaced(&self, namespace: &str) -> NamespaceLister<K> {
        NamespaceLister {
            indexer: self.indexer.clone(),
            namespace: namespace.to_owned(),
        }
    }
}

impl<K: Object> NamespaceLister<K> {
    /// The namespace this lister reads.
    pub fn namespace(&self) -> &str {
        &self.namespace
    }

    /// Every object in the namespace matching `selector`. Uses the namespace index when the
    /// indexer has one (cost proportional to the namespace), else scans every object.
    pub fn list(&self, selector: &Selector) -> Vec<Arc<K>> {
        let in_namespace = match self.indexer.by_index(NAMESPACE_INDEX, &self.namespace) {
            Ok(objs) => objs,
            Err(_) => self
                .indexer
                .list()
                .into_iter()
                .filter(|o| o.meta().namespace.as_deref() == Some(self.namespace.as_str()))
                .collect(),
        };
        select(in_namespace, selector)
    }

    /// The object `name` in the namespace.
    pub fn get(&self, name: &str) -> Option<Arc<K>> {
        let mut key = String::with_capacity(self.namespace.len() + 1 + name.len());
        key.push_str(&self.namespace);
        key.push('/');
        key.push_str(name);
        self.indexer.get_by_key(&key)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::store::Indexers;
    use k8s_openapi::api::core::v1::ConfigMap;
    use k8s_openapi::apimachinery::pkg::apis::meta::v1::ObjectMeta;

    fn cm(ns: &str, name: &str, tier: &str) -> Arc<ConfigMap> {
        Arc::new(ConfigMap {
            metadata: ObjectMeta {
                namespace: (!ns.is_empty()).then(|| ns.to_owned()),
                name: Some(name.to_owned()),
                labels: Some([("tier".to_owned(), tier.to_owned())].into()),
                ..Default::default()
            },
            ..Default::default()
        })
    }

    fn names(mut v: Vec<Arc<ConfigMap>>) -> Vec<String> {
        let mut n: Vec<String> = v
            .drain(..)
            .map(|o| o.metadata.name.clone().unwrap_or_default())
            .collect();
        n.sort();
        n
    }

    fn fill(indexers: Indexers<ConfigMap>) -> Lister<ConfigMap> {
        let idx = Indexer::new(indexers);
        for o in [
            cm("a", "web-0", "web"),
            cm("a", "db-0", "db"),
            cm("b", "web-1", "web"),
            cm("", "global", "web"),
        ] {
            idx.insert(o);
        }
        Lister::new(idx)
    }

    #[test]
    fn get_by_namespace_and_cluster_scope() {
        let l = fill(Indexers::namespace());
        assert!(l.namespaced("a").get("web-0").is_some());
        assert!(l.namespaced("b").get("web-0").is_none());
        assert!(l.get("global").is_some());
        assert!(l.get("web-0").is_none());
    }

    #[test]
    fn list_with_and_without_namespace_index() {
        for indexers in [Indexers::namespace(), Indexers::new()] {
            let l = fill(indexers);
            assert_eq!(
                names(l.namespaced("a").list(&Selector::everything())),
                vec!["db-0", "web-0"]
            );
            assert_eq!(names(l.list(&Selector::everything())).len(), 4);
            let web: Selector = "tier=web".parse().unwrap();
            assert_eq!(names(l.list(&web)), vec!["global", "web-0", "web-1"]);
            assert_eq!(names(l.namespaced("a").list(&web)), vec!["web-0"]);
            assert!(l.namespaced("zzz").list(&web).is_empty());
        }
    }
}
