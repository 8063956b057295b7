//! Generic listers: typed reads from an informer's indexer. Objects are handed out as
//! `Arc<K>`: no copies, and immutable by type.

use std::sync::Arc;

use crate::object::{Meta as _, Object};
use crate::selector::{Operator, Selector};
use crate::store::{Indexer, LABEL_INDEX, NAMESPACE_INDEX};

/// Reads objects of `K` from an indexer (client-go's generated `XLister`, generically).
/// Reads hand out the cached `Arc`s: no copies.
///
/// ```no_run
/// use std::sync::Arc;
///
/// use informer_runtime::{Lister, Selector, SharedIndexInformer};
/// use k8s_openapi::api::core::v1::Pod;
///
/// fn report(informer: &SharedIndexInformer<Pod>) -> Result<(), Box<dyn std::error::Error>> {
///     let lister = Lister::new(informer.indexer());
///     let web0: Option<Arc<Pod>> = lister.namespaced("shop").get("web-0");
///     let web: Vec<Arc<Pod>> = lister.list(&"tier=web,env in (prod)".parse::<Selector>()?);
///     println!("{} web pods; web-0 cached: {}", web.len(), web0.is_some());
///     Ok(())
/// }
/// ```
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
    namespace: NamespaceName,
}

/// Longest namespace held inline: namespaces are DNS labels of at most 63 bytes.
const INLINE_NAMESPACE: usize = 63;

/// Longest `namespace/name` key built on the stack (a 63-byte label, `/`, a 253-byte name).
const STACK_KEY: usize = 320;

/// A namespace name, inline when it fits: client-go style code makes a namespace lister per
/// read (`lister.pods(ns).get(name)`), and that should not allocate.
#[derive(Clone)]
enum NamespaceName {
    Inline {
        len: u8,
        bytes: [u8; INLINE_NAMESPACE],
    },
    Heap(Box<str>),
}

impl NamespaceName {
    fn new(namespace: &str) -> Self {
        match u8::try_from(namespace.len()) {
            Ok(len) if namespace.len() <= INLINE_NAMESPACE => {
                let mut bytes = [0; INLINE_NAMESPACE];
                bytes[..namespace.len()].copy_from_slice(namespace.as_bytes());
                Self::Inline { len, bytes }
            }
            _ => Self::Heap(namespace.into()),
        }
    }

    fn as_str(&self) -> &str {
        match self {
            // The bytes are a whole `&str`, so they are valid UTF-8.
            Self::Inline { len, bytes } => {
                std::str::from_utf8(&bytes[..usize::from(*len)]).unwrap_or_default()
            }
            Self::Heap(s) => s,
        }
    }
}

/// Calls `f` with the key `namespace/name`, built on the stack when it fits.
fn with_key<R>(namespace: &str, name: &str, f: impl FnOnce(&str) -> R) -> R {
    let len = namespace.len() + 1 + name.len();
    if len <= STACK_KEY {
        let mut buf = [0u8; STACK_KEY];
        buf[..namespace.len()].copy_from_slice(namespace.as_bytes());
        buf[namespace.len()] = b'/';
        buf[namespace.len() + 1..len].copy_from_slice(name.as_bytes());
        if let Ok(key) = std::str::from_utf8(&buf[..len]) {
            return f(key);
        }
    }
    let mut key = String::with_capacity(len);
    key.push_str(namespace);
    key.push('/');
    key.push_str(name);
    f(&key)
}

/// The objects of `indexer` a selector can match, through the label index, when the selector
/// has an equality or `in` requirement and the index exists; `None` means every object.
fn label_candidates<K: Object>(indexer: &Indexer<K>, selector: &Selector) -> Option<Vec<Arc<K>>> {
    let requirement = selector.requirements().iter().find(|r| {
        matches!(
            r.operator(),
            Operator::Equals | Operator::DoubleEquals | Operator::In
        )
    })?;
    let mut candidates = Vec::new();
    for value in requirement.values() {
        let entry = format!("{}={value}", requirement.key());
        // An object has one value per key, so the values' sets are disjoint.
        candidates.extend(indexer.by_index(LABEL_INDEX, &entry).ok()?);
    }
    Some(candidates)
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
            .field("namespace", &self.namespace.as_str())
            .field("indexer", &self.indexer)
            .finish()
    }
}

fn select<K: Object>(objs: Vec<Arc<K>>, selector: &Selector) -> Vec<Arc<K>> {
    if selector.is_empty() {
        return objs;
    }
    objs.into_iter()
        .filter(|o| selector.matches(o.meta().labels()))
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

    /// Every object matching `selector`. With the `labels` index, a selector with an
    /// equality or `in` requirement visits only the objects carrying one of its values.
    pub fn list(&self, selector: &Selector) -> Vec<Arc<K>> {
        let objs = label_candidates(&self.indexer, selector).unwrap_or_else(|| self.indexer.list());
        select(objs, selector)
    }

    /// The cluster-scoped object named `name`.
    pub fn get(&self, name: &str) -> Option<Arc<K>> {
        self.indexer.get_by_key(name)
    }

    /// A lister for one namespace.
    pub fn namespaced(&self, namespace: &str) -> NamespaceLister<K> {
        NamespaceLister {
            indexer: self.indexer.clone(),
            namespace: NamespaceName::new(namespace),
        }
    }
}

impl<K: Object> NamespaceLister<K> {
    /// The namespace this lister reads.
    pub fn namespace(&self) -> &str {
        self.namespace.as_str()
    }

    /// Every object in the namespace matching `selector`. Uses the `labels` index for a
    /// selector with an equality or `in` requirement, else the namespace index, when the
    /// indexer has them (cost proportional to the result), else scans every object.
    pub fn list(&self, selector: &Selector) -> Vec<Arc<K>> {
        let namespace = self.namespace.as_str();
        let in_namespace = |o: &Arc<K>| o.meta().namespace() == Some(namespace);
        let objs = match label_candidates(&self.indexer, selector) {
            Some(candidates) => candidates.into_iter().filter(in_namespace).collect(),
            None => match self.indexer.by_index(NAMESPACE_INDEX, namespace) {
                Ok(objs) => objs,
                Err(_) => self
                    .indexer
                    .list()
                    .into_iter()
                    .filter(in_namespace)
                    .collect(),
            },
        };
        select(objs, selector)
    }

    /// The object `name` in the namespace.
    pub fn get(&self, name: &str) -> Option<Arc<K>> {
        with_key(self.namespace.as_str(), name, |key| {
            self.indexer.get_by_key(key)
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::store::{store, Indexers};
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
        let (idx, mut writer) = store(indexers);
        for o in [
            cm("a", "web-0", "web"),
            cm("a", "db-0", "db"),
            cm("b", "web-1", "web"),
            cm("", "global", "web"),
        ] {
            writer.insert(o);
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
        for indexers in [Indexers::standard(), Indexers::namespace(), Indexers::new()] {
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
            let web_or_db: Selector = "tier in (web,db),tier!=db".parse().unwrap();
            assert_eq!(names(l.list(&web_or_db)), vec!["global", "web-0", "web-1"]);
            let not_web: Selector = "tier notin (web)".parse().unwrap();
            assert_eq!(names(l.namespaced("a").list(&not_web)), vec!["db-0"]);
        }
    }

    #[test]
    fn long_namespaces_and_keys_still_resolve() {
        let long_ns = "n".repeat(100);
        let long_name = "x".repeat(400);
        let (idx, mut writer) = store(Indexers::standard());
        writer.insert(cm(&long_ns, &long_name, "web"));
        writer.insert(cm("é", "ü", "web"));
        let l = Lister::new(idx);
        assert_eq!(l.namespaced(&long_ns).namespace(), long_ns);
        assert!(l.namespaced(&long_ns).get(&long_name).is_some());
        assert!(l.namespaced("é").get("ü").is_some());
        assert_eq!(
            l.namespaced(&long_ns)
                .list(&"tier=web".parse().unwrap())
                .len(),
            1
        );
    }
}
