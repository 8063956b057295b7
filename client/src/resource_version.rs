//! When two resourceVersions may be compared for order, not only for equality.
//!
//! Until Kubernetes 1.35 a resourceVersion was an opaque string: clients could only ask
//! whether two were equal. KEP-5504 (stable in 1.35) made kube-apiserver promise more:
//! the resourceVersions of one resource type (one group and resource, any namespace) are
//! decimal integers that grow with every change, for built-in types and custom resources
//! alike. An extension API server behind the aggregator makes no such promise, and neither
//! does an older kube-apiserver.
//!
//! So a comparison needs two things, and [`ResourceVersionOrder`] records the first:
//! - the caller knows the server keeps the promise for this resource (a kube-apiserver of
//!   1.35 or later, see [`ResourceVersionOrder::of_server`], serving the resource itself,
//!   not through the aggregator);
//! - both strings are well-formed, as apimachinery's `CompareResourceVersion` requires: a
//!   non-empty run of ASCII digits without a leading zero, that fits in 64 bits.
//!
//! Anything else compares for equality only, as client-go does.
//!
//! ```
//! use std::cmp::Ordering;
//! use informer_client::resource_version::ResourceVersionOrder;
//!
//! let ordered = ResourceVersionOrder::Comparable;
//! assert_eq!(ordered.compare("1009", "998"), Some(Ordering::Greater));
//! // Malformed strings (and everything under `EqualityOnly`) only know equality.
//! assert_eq!(ordered.compare("0998", "998"), None);
//! assert_eq!(ResourceVersionOrder::EqualityOnly.compare("1009", "998"), None);
//! assert_eq!(ResourceVersionOrder::EqualityOnly.compare("7", "7"), Some(Ordering::Equal));
//! // "at least": true when provably not older, never a guess.
//! assert!(ordered.at_least("1009", "998"));
//! assert!(!ResourceVersionOrder::EqualityOnly.at_least("1009", "998"));
//! ```

use std::cmp::Ordering;

use k8s_openapi::apimachinery::pkg::version::Info;

/// Whether the resourceVersions of a resource may be compared for order.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum ResourceVersionOrder {
    /// Opaque strings: equal or not, nothing more (every server before Kubernetes 1.35, and
    /// extension API servers). The safe default.
    #[default]
    EqualityOnly,
    /// Well-formed resourceVersions are integers that grow with every change of the
    /// resource type (kube-apiserver 1.35 and later, KEP-5504).
    Comparable,
}

impl ResourceVersionOrder {
    /// What a server that reports `version` (its `/version`) promises for the resources it
    /// serves itself: [`Comparable`](Self::Comparable) from 1.35 on. A `minor` such as
    /// `"35+"` (as managed distributions report it) counts as 35. Resources served through
    /// the aggregator by an extension API server are not covered by this: use
    /// [`EqualityOnly`](Self::EqualityOnly) for them.
    pub fn of_server(version: &Info) -> Self {
        let number = |s: &str| -> Option<u32> {
            let digits: &str = s.trim_end_matches('+');
            digits.parse().ok()
        };
        match (number(&version.major), number(&version.minor)) {
            (Some(major), Some(minor)) if major > 1 || (major == 1 && minor >= 35) => {
                Self::Comparable
            }
            _ => Self::EqualityOnly,
        }
    }

    /// How `a` compares with `b`: `Some(Equal)` for equal strings whatever the order, an
    /// ordering of the integers when comparable and both well-formed, `None` otherwise.
    pub fn compare(self, a: &str, b: &str) -> Option<Ordering> {
        if a == b {
            return Some(Ordering::Equal);
        }
        match self {
            Self::EqualityOnly => None,
            Self::Comparable => Some(parse(a)?.cmp(&parse(b)?)),
        }
    }

    /// True when `current` is provably `wanted` or newer.
    pub fn at_least(self, current: &str, wanted: &str) -> bool {
        matches!(
            self.compare(current, wanted),
            Some(Ordering::Equal | Ordering::Greater)
        )
    }
}

/// A well-formed resourceVersion's integer: ASCII digits, no leading zero, within `u64`.
pub fn parse(rv: &str) -> Option<u64> {
    let bytes = rv.as_bytes();
    if bytes.is_empty() || !bytes.iter().all(u8::is_ascii_digit) {
        return None;
    }
    if bytes.len() > 1 && bytes[0] == b'0' {
        return None;
    }
    rv.parse().ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn info(major: &str, minor: &str) -> Info {
        Info {
            major: major.into(),
            minor: minor.into(),
            ..Default::default()
        }
    }

    #[test]
    fn only_servers_from_1_35_promise_an_order() {
        for (major, minor, order) in [
            ("1", "34", ResourceVersionOrder::EqualityOnly),
            ("1", "35", ResourceVersionOrder::Comparable),
            ("1", "37+", ResourceVersionOrder::Comparable),
            ("1", "33+", ResourceVersionOrder::EqualityOnly),
            ("2", "0", ResourceVersionOrder::Comparable),
            ("", "", ResourceVersionOrder::EqualityOnly),
            ("1", "x", ResourceVersionOrder::EqualityOnly),
        ] {
            assert_eq!(
                ResourceVersionOrder::of_server(&info(major, minor)),
                order,
                "{major}.{minor}"
            );
        }
    }

    #[test]
    fn malformed_versions_compare_for_equality_only() {
        let c = ResourceVersionOrder::Comparable;
        assert_eq!(c.compare("10", "9"), Some(Ordering::Greater));
        assert_eq!(c.compare("9", "10"), Some(Ordering::Less));
        for bad in ["", "01", "-1", "1a", "+5", " 5", "18446744073709551616"] {
            assert_eq!(c.compare(bad, "5"), None, "{bad:?}");
            assert_eq!(c.compare("5", bad), None, "{bad:?}");
            assert!(!c.at_least(bad, "5"), "{bad:?}");
        }
        assert_eq!(c.compare("01", "01"), Some(Ordering::Equal));
        assert_eq!(parse("0"), Some(0));
        assert_eq!(parse("18446744073709551615"), Some(u64::MAX));
    }
}
