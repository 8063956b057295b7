//! An object's labels as the runtime reads them ([`Labels`]), and a compact way for a
//! projection to hold them ([`CompactLabels`]).

use std::collections::BTreeMap;
use std::fmt;

use serde::de::{Deserializer, MapAccess, Visitor};
use serde::ser::{SerializeMap, Serializer};
use serde::{Deserialize, Serialize};

/// A borrowed set of labels, however the object holds them: what selectors match, label
/// indexes index and the runtime's `Meta::labels` returns. `ObjectMeta`'s
/// labels convert into it (`Labels::from(meta.labels.as_ref())`, `None` being no labels), and
/// [`CompactLabels::as_labels`] gives one.
#[derive(Clone, Copy, Debug)]
pub enum Labels<'a> {
    /// Labels held in a map, as `ObjectMeta` holds them.
    Map(&'a BTreeMap<String, String>),
    /// Labels held sorted by key, as [`CompactLabels`] holds them.
    Sorted(&'a [(Box<str>, Box<str>)]),
}

impl<'a> Labels<'a> {
    /// The value of the label `key`.
    pub fn get(&self, key: &str) -> Option<&'a str> {
        match *self {
            Labels::Map(map) => map.get(key).map(String::as_str),
            Labels::Sorted(pairs) => pairs
                .binary_search_by(|(k, _)| (**k).cmp(key))
                .ok()
                .map(|i| &*pairs[i].1),
        }
    }

    /// Every label as `(key, value)`, in key order.
    pub fn iter(self) -> impl Iterator<Item = (&'a str, &'a str)> + 'a {
        let (map, pairs) = match self {
            Labels::Map(map) => (Some(map.iter()), None),
            Labels::Sorted(pairs) => (None, Some(pairs.iter())),
        };
        map.into_iter()
            .flatten()
            .map(|(k, v)| (k.as_str(), v.as_str()))
            .chain(pairs.into_iter().flatten().map(|(k, v)| (&**k, &**v)))
    }

    /// How many labels there are.
    pub fn len(&self) -> usize {
        match *self {
            Labels::Map(map) => map.len(),
            Labels::Sorted(pairs) => pairs.len(),
        }
    }

    /// True without labels.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

impl PartialEq for Labels<'_> {
    fn eq(&self, other: &Self) -> bool {
        self.len() == other.len() && self.iter().eq(other.iter())
    }
}

impl Eq for Labels<'_> {}

impl<'a> From<&'a BTreeMap<String, String>> for Labels<'a> {
    fn from(map: &'a BTreeMap<String, String>) -> Self {
        Labels::Map(map)
    }
}

impl<'a> From<Option<&'a BTreeMap<String, String>>> for Labels<'a> {
    /// `None` (an object without labels) is the empty set.
    fn from(map: Option<&'a BTreeMap<String, String>>) -> Self {
        map.map_or(Labels::Sorted(&[]), Labels::Map)
    }
}

/// Labels held as one slice of `(key, value)` pairs sorted by key: the same JSON as
/// `ObjectMeta`'s `BTreeMap`, in about half the memory for the handful of labels objects
/// carry (a `BTreeMap` allocates room for 11 entries for its first one).
///
/// Lookups are binary searches; it is built once when decoded and not meant to be edited
/// in place (build a new one from a map or an iterator of pairs).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct CompactLabels(Box<[(Box<str>, Box<str>)]>);

impl CompactLabels {
    /// The labels, to read or to match against a selector.
    pub fn as_labels(&self) -> Labels<'_> {
        Labels::Sorted(&self.0)
    }

    /// The value of the label `key`.
    pub fn get(&self, key: &str) -> Option<&str> {
        self.as_labels().get(key)
    }

    /// Every label as `(key, value)`, in key order.
    pub fn iter(&self) -> impl Iterator<Item = (&str, &str)> {
        self.as_labels().iter()
    }

    /// How many labels there are.
    pub fn len(&self) -> usize {
        self.0.len()
    }

    /// True without labels.
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// Sorts `pairs` by key in place; of pairs with the same key the last one stays, as in
    /// a map.
    fn from_pairs(mut pairs: Vec<(Box<str>, Box<str>)>) -> Self {
        // Stable, so equal keys keep their order.
        pairs.sort_by(|a, b| a.0.cmp(&b.0));
        // `dedup_by` keeps the first of a run; swapping each later pair into the kept slot
        // keeps the last instead.
        pairs.dedup_by(|later, kept| {
            let same = later.0 == kept.0;
            if same {
                std::mem::swap(later, kept);
            }
            same
        });
        Self(pairs.into_boxed_slice())
    }
}

impl<K: Into<Box<str>>, V: Into<Box<str>>> FromIterator<(K, V)> for CompactLabels {
    /// Sorted by key; of pairs with the same key the last one stays, as in a map.
    fn from_iter<I: IntoIterator<Item = (K, V)>>(pairs: I) -> Self {
        Self::from_pairs(
            pairs
                .into_iter()
                .map(|(k, v)| (k.into(), v.into()))
                .collect(),
        )
    }
}

impl From<BTreeMap<String, String>> for CompactLabels {
    fn from(map: BTreeMap<String, String>) -> Self {
        map.into_iter().collect()
    }
}

impl Serialize for CompactLabels {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut map = serializer.serialize_map(Some(self.0.len()))?;
        for (k, v) in self.iter() {
            map.serialize_entry(k, v)?;
        }
        map.end()
    }
}

impl<'de> Deserialize<'de> for CompactLabels {
    /// A JSON object of strings; `null` is no labels, as it is for `ObjectMeta`.
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserializer.deserialize_option(LabelsVisitor)
    }
}

struct LabelsVisitor;

impl<'de> Visitor<'de> for LabelsVisitor {
    type Value = CompactLabels;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a map of label keys to string values")
    }

    fn visit_none<E: serde::de::Error>(self) -> Result<CompactLabels, E> {
        Ok(CompactLabels::default())
    }

    fn visit_unit<E: serde::de::Error>(self) -> Result<CompactLabels, E> {
        Ok(CompactLabels::default())
    }

    fn visit_some<D: Deserializer<'de>>(self, d: D) -> Result<CompactLabels, D::Error> {
        d.deserialize_map(self)
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<CompactLabels, A::Error> {
        let mut pairs: Vec<(Box<str>, Box<str>)> = Vec::with_capacity(map.size_hint().unwrap_or(0));
        while let Some((k, v)) = map.next_entry::<String, String>()? {
            pairs.push((k.into(), v.into()));
        }
        Ok(CompactLabels::from_pairs(pairs))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn compact_labels_read_like_the_map_they_come_from() {
        let map: BTreeMap<String, String> = [("tier", "web"), ("app", "shop"), ("z", "")]
            .into_iter()
            .map(|(k, v)| (k.to_owned(), v.to_owned()))
            .collect();
        let compact = CompactLabels::from(map.clone());
        assert_eq!(compact.as_labels(), Labels::from(&map));
        assert_eq!(
            compact.iter().collect::<Vec<_>>(),
            [("app", "shop"), ("tier", "web"), ("z", "")]
        );
        for key in ["app", "tier", "z", "missing", ""] {
            assert_eq!(compact.get(key), map.get(key).map(String::as_str), "{key}");
        }
        assert_ne!(
            compact.as_labels(),
            Labels::from(&BTreeMap::from([("app".to_owned(), "shop".to_owned())]))
        );
        assert_eq!(Labels::from(None), CompactLabels::default().as_labels());
    }

    #[test]
    fn compact_labels_round_trip_json_and_keep_the_last_duplicate() {
        let decoded: CompactLabels =
            serde_json::from_str(r#"{"b": "2", "a": "1", "b": "3"}"#).unwrap();
        assert_eq!(decoded.iter().collect::<Vec<_>>(), [("a", "1"), ("b", "3")]);
        assert_eq!(
            serde_json::to_string(&decoded).unwrap(),
            r#"{"a":"1","b":"3"}"#
        );
        let none: CompactLabels = serde_json::from_str("null").unwrap();
        assert!(none.is_empty());
        let err = serde_json::from_str::<CompactLabels>(r#"{"a": 1}"#).unwrap_err();
        assert!(err.to_string().contains("invalid type"), "{err}");
    }
}
