//! Label, field and shard selectors, applied on the client: etcd cannot look inside values.
//!
//! Field selectors support what kube-apiserver supports for every resource:
//! `metadata.name` and `metadata.namespace`, with `=`, `==` and `!=`, comma-joined. Shard
//! selectors (KEP-5866) place an object by the FNV-1a hash of its uid or namespace, as a
//! server with the feature does, and lists echo them in `shardInfo` as it does.

use std::str::FromStr;

use informer_client::list_options::ListOptions;
use informer_client::object::{Meta as _, Object};
use informer_client::selector::Selector;
use informer_client::shard::ShardSelector;

use super::status::bad_request;
use informer_client::error::Error;

/// The field a field requirement looks at.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Field {
    Name,
    Namespace,
}

/// One `field=value` or `field!=value` requirement.
#[derive(Clone, Debug, PartialEq, Eq)]
struct FieldRequirement {
    field: Field,
    value: String,
    equal: bool,
}

/// The selectors of one list or watch call.
#[derive(Clone, Debug, Default)]
pub(crate) struct ClientFilter {
    labels: Option<Selector>,
    fields: Vec<FieldRequirement>,
    shard: Option<ShardSelector>,
}

impl ClientFilter {
    /// The filter `options` asks for; 400 BadRequest when a selector does not parse or
    /// names an unsupported field.
    pub fn from_options(options: &ListOptions, context: &str) -> Result<Self, Error> {
        let labels = match options.label_selector.as_deref() {
            Some(s) => {
                Some(Selector::from_str(s).map_err(|e| bad_request(e.to_string(), context))?)
                    .filter(|s| !s.is_empty())
            }
            None => None,
        };
        let fields = match options.field_selector.as_deref() {
            Some(s) => parse_fields(s).map_err(|m| bad_request(m, context))?,
            None => Vec::new(),
        };
        Ok(Self {
            labels,
            fields,
            shard: options.shard_selector.clone(),
        })
    }

    /// The shard selector applied, if any.
    pub fn shard(&self) -> Option<&ShardSelector> {
        self.shard.as_ref()
    }

    /// True when the filter lets everything through.
    pub fn is_everything(&self) -> bool {
        self.labels.is_none() && self.fields.is_empty() && self.shard.is_none()
    }

    /// True when `object` satisfies every selector.
    pub fn matches<K: Object>(&self, object: &K) -> bool {
        let meta = object.meta();
        let fields_match = self.fields.iter().all(|r| {
            let actual = match r.field {
                Field::Name => meta.name(),
                Field::Namespace => meta.namespace(),
            }
            .unwrap_or_default();
            (actual == r.value) == r.equal
        });
        fields_match
            && self
                .labels
                .as_ref()
                .is_none_or(|s| s.matches(meta.labels()))
            && self.shard.as_ref().is_none_or(|s| {
                s.matches(
                    meta.uid().unwrap_or_default(),
                    meta.namespace().unwrap_or_default(),
                )
            })
    }
}

fn parse_fields(selector: &str) -> Result<Vec<FieldRequirement>, String> {
    let mut out = Vec::new();
    for term in selector.split(',').map(str::trim).filter(|t| !t.is_empty()) {
        let (field, value, equal) = if let Some((f, v)) = term.split_once("!=") {
            (f, v, false)
        } else if let Some((f, v)) = term.split_once("==") {
            (f, v, true)
        } else if let Some((f, v)) = term.split_once('=') {
            (f, v, true)
        } else {
            return Err(format!(
                "invalid field selector {selector:?}: {term:?} is not of the form field=value or field!=value"
            ));
        };
        let field = match field.trim() {
            "metadata.name" => Field::Name,
            "metadata.namespace" => Field::Namespace,
            other => {
                return Err(format!(
                    "field label not supported: {other} (an etcd source filters only on metadata.name and metadata.namespace)"
                ))
            }
        };
        out.push(FieldRequirement {
            field,
            value: value.trim().to_owned(),
            equal,
        });
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use k8s_openapi::api::core::v1::ConfigMap;
    use k8s_openapi::apimachinery::pkg::apis::meta::v1::ObjectMeta;

    fn cm(ns: &str, name: &str) -> ConfigMap {
        ConfigMap {
            metadata: ObjectMeta {
                name: Some(name.into()),
                namespace: Some(ns.into()),
                ..Default::default()
            },
            ..Default::default()
        }
    }

    fn filter(fields: &str) -> Result<ClientFilter, Error> {
        ClientFilter::from_options(
            &ListOptions {
                field_selector: Some(fields.into()),
                ..Default::default()
            },
            "test",
        )
    }

    #[test]
    fn field_selectors() {
        let f = filter("metadata.name=a, metadata.namespace!=kube-system").unwrap();
        assert!(f.matches(&cm("default", "a")));
        assert!(!f.matches(&cm("kube-system", "a")));
        assert!(!f.matches(&cm("default", "b")));
        assert!(filter("metadata.name==b").unwrap().matches(&cm("x", "b")));
        assert!(filter("").unwrap().is_everything());
    }

    #[test]
    fn label_selectors() {
        let labelled = |labels: &str| {
            ClientFilter::from_options(
                &ListOptions {
                    label_selector: Some(labels.into()),
                    ..Default::default()
                },
                "test",
            )
        };
        let mut web = cm("ns", "a");
        web.metadata.labels = Some([("app".to_owned(), "web".to_owned())].into());
        assert!(labelled("app=web").unwrap().matches(&web));
        assert!(!labelled("app in (db)").unwrap().matches(&web));
        assert!(!labelled("app").unwrap().matches(&cm("ns", "b")));
        assert!(labelled("").unwrap().is_everything());
        assert_eq!(labelled("app in (").unwrap_err().status_code(), Some(400));
    }

    #[test]
    fn bad_field_selectors_are_bad_requests() {
        let e = filter("spec.nodeName=n1").unwrap_err();
        assert_eq!(e.status_code(), Some(400));
        assert!(e
            .to_string()
            .contains("field label not supported: spec.nodeName"));
        assert_eq!(
            filter("metadata.name").unwrap_err().status_code(),
            Some(400)
        );
    }

    #[test]
    fn shard_selectors_place_objects_by_uid_or_namespace() {
        let sharded = |selector: ShardSelector| {
            ClientFilter::from_options(
                &ListOptions {
                    shard_selector: Some(selector),
                    ..Default::default()
                },
                "test",
            )
            .unwrap()
        };
        let low = ShardSelector::uid_range(0, 1 << 63).unwrap();
        let f = sharded(low.clone());
        assert!(!f.is_everything());
        assert_eq!(f.shard(), Some(&low));
        for i in 0..64 {
            let mut obj = cm("ns", "a");
            let uid = format!("uid-{i}");
            obj.metadata.uid = Some(uid.clone());
            assert_eq!(f.matches(&obj), low.contains(&uid), "{uid}");
        }
        let by_namespace = ShardSelector::namespace_range(0, 1 << 63).unwrap();
        let f = sharded(by_namespace.clone());
        for ns in ["a", "b", "c", "default", "kube-system"] {
            assert_eq!(f.matches(&cm(ns, "x")), by_namespace.contains(ns), "{ns}");
        }
    }
}
