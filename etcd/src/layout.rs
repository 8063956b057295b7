//! Where objects live in etcd: `{prefix}/{namespace}/{name}` or `{prefix}/{name}`.

use informer_client::error::{ApiError, Error};

/// The etcd key layout of one resource: a prefix, optionally narrowed to one namespace.
///
/// Namespaced objects live at `{prefix}/{namespace}/{name}`, cluster-scoped ones at
/// `{prefix}/{name}`. The default prefix (see [`KeyLayout::default_prefix`]) is
/// `/registry/{resource}` for the core group and `/registry/{group}/{resource}` otherwise,
/// the layout kube-apiserver uses for custom resources.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct KeyLayout {
    prefix: String,
    namespace: Option<String>,
}

impl KeyLayout {
    /// A layout under `prefix` (a trailing `/` is ignored), covering every namespace.
    pub fn new(prefix: &str) -> Self {
        Self {
            prefix: prefix.trim_end_matches('/').to_owned(),
            namespace: None,
        }
    }

    /// The default prefix of a resource: `/registry/{resource}` for the core group (`""`),
    /// `/registry/{group}/{resource}` for any other group.
    pub fn default_prefix(group: &str, resource: &str) -> String {
        if group.is_empty() {
            format!("/registry/{resource}")
        } else {
            format!("/registry/{group}/{resource}")
        }
    }

    /// The same layout narrowed to `namespace` (`None` or `""`: every namespace).
    pub fn with_namespace(mut self, namespace: Option<&str>) -> Self {
        self.namespace = namespace.filter(|ns| !ns.is_empty()).map(str::to_owned);
        self
    }

    /// The prefix, without a trailing `/`.
    pub fn prefix(&self) -> &str {
        &self.prefix
    }

    /// The namespace this layout is narrowed to, if any.
    pub fn namespace(&self) -> Option<&str> {
        self.namespace.as_deref()
    }

    /// The half-open key range `[start, end)` holding every object of this layout.
    pub fn range(&self) -> (Vec<u8>, Vec<u8>) {
        let mut start = self.prefix.as_bytes().to_vec();
        start.push(b'/');
        if let Some(ns) = &self.namespace {
            start.extend_from_slice(ns.as_bytes());
            start.push(b'/');
        }
        let end = prefix_end(&start);
        (start, end)
    }

    /// The key of the object `name` in `namespace` (`None` or `""`: cluster-scoped).
    ///
    /// Fails (422 Invalid) on an empty name or a `/` in the name or namespace, which would
    /// put the object under another key, and (400 BadRequest) when the namespace is not
    /// the one this layout is narrowed to.
    pub fn key(&self, namespace: Option<&str>, name: &str) -> Result<String, Error> {
        let namespace = namespace.filter(|ns| !ns.is_empty());
        if name.is_empty() || name.contains('/') {
            return Err(invalid(format!(
                "metadata.name {name:?} under etcd prefix {:?}: a name must be non-empty and contain no '/'",
                self.prefix
            )));
        }
        if let Some(ns) = namespace.filter(|ns| ns.contains('/')) {
            return Err(invalid(format!(
                "metadata.namespace {ns:?} of {name:?} under etcd prefix {:?}: a namespace must contain no '/'",
                self.prefix
            )));
        }
        if let Some(scope) = &self.namespace {
            if namespace != Some(scope.as_str()) {
                return Err(ApiError::new(
                    400,
                    "BadRequest",
                    format!(
                        "the namespace of the object ({}) does not match the namespace {scope:?} of this etcd writer",
                        namespace.unwrap_or("none")
                    ),
                    format!("write {name:?} under etcd prefix {:?}", self.prefix),
                )
                .into());
            }
        }
        Ok(match namespace {
            Some(ns) => format!("{}/{ns}/{name}", self.prefix),
            None => format!("{}/{name}", self.prefix),
        })
    }
}

fn invalid(message: String) -> Error {
    ApiError::new(422, "Invalid", message, "build the etcd key of an object").into()
}

/// The smallest key greater than every key starting with `prefix` (etcd's `GetPrefixRangeEnd`).
fn prefix_end(prefix: &[u8]) -> Vec<u8> {
    let mut end = prefix.to_vec();
    while let Some(last) = end.pop() {
        if last < 0xff {
            end.push(last + 1);
            return end;
        }
    }
    // Only 0xff bytes: etcd reads "\0" as "to the end of the keyspace".
    vec![0]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn default_prefixes() {
        assert_eq!(KeyLayout::default_prefix("", "pods"), "/registry/pods");
        assert_eq!(
            KeyLayout::default_prefix("example.com", "widgets"),
            "/registry/example.com/widgets"
        );
    }

    #[test]
    fn ranges_cover_exactly_the_prefix() {
        let l = KeyLayout::new("/registry/pods/");
        assert_eq!(
            l.range(),
            (b"/registry/pods/".to_vec(), b"/registry/pods0".to_vec())
        );
        let l = l.with_namespace(Some("shop"));
        assert_eq!(
            l.range(),
            (
                b"/registry/pods/shop/".to_vec(),
                b"/registry/pods/shop0".to_vec()
            )
        );
        assert_eq!(prefix_end(&[b'a', 0xff]), vec![b'b']);
        assert_eq!(prefix_end(&[0xff]), vec![0]);
    }

    #[test]
    fn keys_and_their_validation() {
        let l = KeyLayout::new("/r/pods");
        assert_eq!(l.key(Some("ns"), "a").unwrap(), "/r/pods/ns/a");
        assert_eq!(l.key(None, "a").unwrap(), "/r/pods/a");
        assert_eq!(l.key(Some(""), "a").unwrap(), "/r/pods/a");
        assert_eq!(l.key(None, "").unwrap_err().status_code(), Some(422));
        assert_eq!(l.key(None, "a/b").unwrap_err().status_code(), Some(422));
        assert_eq!(
            l.key(Some("x/y"), "a").unwrap_err().status_code(),
            Some(422)
        );
        let scoped = l.with_namespace(Some("ns"));
        assert_eq!(
            scoped.key(Some("other"), "a").unwrap_err().status_code(),
            Some(400)
        );
        assert_eq!(scoped.key(Some("ns"), "a").unwrap(), "/r/pods/ns/a");
    }
}
