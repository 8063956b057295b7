//! A ring member's Lease: its name and label, the claims it records, and the requests that
//! read and write it.

use std::collections::{BTreeMap, BTreeSet};
use std::fmt;
use std::future::Future;
use std::time::Duration;

use k8s_openapi::api::coordination::v1::{Lease, LeaseSpec};
use k8s_openapi::apimachinery::pkg::apis::meta::v1::{MicroTime, ObjectMeta};

use informer_runtime::api::{Api, DeleteParams, PostParams, Preconditions};
use informer_runtime::ListOptions;
use informer_selectors::is_dns_subdomain;

/// The label every Lease of a ring carries, with the ring's name as its value.
pub const RING_LABEL: &str = "sharding.kube-informers.io/ring";

/// The annotation listing the buckets a member claims, as ranges: `0-3,7,9-12`.
pub const HELD_ANNOTATION: &str = "sharding.kube-informers.io/held";

/// The annotation recording the member's bucket count.
const BUCKETS_ANNOTATION: &str = "sharding.kube-informers.io/buckets";

/// What a member's Lease claims, to be written.
pub(super) struct Claims {
    pub(super) buckets: u32,
    pub(super) held: BTreeSet<u32>,
}

/// What a Lease says about its member.
pub(super) struct Read {
    /// Empty when nobody holds it.
    pub(super) identity: String,
    pub(super) duration: Duration,
    pub(super) held: BTreeSet<u32>,
    /// 0 when not recorded.
    pub(super) buckets: u32,
}

/// Reads a Lease's member record; what cannot be read counts as absent, never as an error:
/// a Lease with no duration is dead at once, one with no claims blocks nothing.
pub(super) fn read(lease: &Lease) -> Read {
    let spec = lease.spec.clone().unwrap_or_default();
    let annotations = lease.metadata.annotations.clone().unwrap_or_default();
    let buckets = annotations
        .get(BUCKETS_ANNOTATION)
        .and_then(|b| b.parse::<u32>().ok())
        .unwrap_or(0);
    Read {
        identity: spec.holder_identity.unwrap_or_default(),
        duration: Duration::from_secs(
            u64::try_from(spec.lease_duration_seconds.unwrap_or(0)).unwrap_or(0),
        ),
        held: annotations
            .get(HELD_ANNOTATION)
            .map(|h| parse_held(h))
            .unwrap_or_default(),
        buckets,
    }
}

/// `0-3,7` → {0, 1, 2, 3, 7}; malformed parts are skipped, ranges capped at the most
/// buckets a ring may have.
fn parse_held(text: &str) -> BTreeSet<u32> {
    let mut out = BTreeSet::new();
    for part in text.split(',').map(str::trim).filter(|p| !p.is_empty()) {
        let (lo, hi) = part.split_once('-').unwrap_or((part, part));
        let (Ok(lo), Ok(hi)) = (lo.trim().parse::<u32>(), hi.trim().parse::<u32>()) else {
            continue;
        };
        out.extend(lo..=hi.min(super::MAX_BUCKETS - 1));
    }
    out
}

fn format_held(held: &BTreeSet<u32>) -> String {
    let mut runs: Vec<(u32, u32)> = Vec::new();
    for b in held {
        match runs.last_mut() {
            Some((_, hi)) if hi.checked_add(1) == Some(*b) => *hi = *b,
            _ => runs.push((*b, *b)),
        }
    }
    runs.iter()
        .map(|(lo, hi)| {
            if lo == hi {
                lo.to_string()
            } else {
                format!("{lo}-{hi}")
            }
        })
        .collect::<Vec<_>>()
        .join(",")
}

/// A failed request: whether it shows the Lease is no longer this member's (409 Conflict:
/// someone else wrote it; 404: someone deleted it).
#[derive(Debug)]
pub(super) struct WriteError {
    pub(super) lost: bool,
    pub(super) message: String,
}

/// The requests of one member.
pub(super) struct LeaseIo {
    api: Api<Lease>,
    namespace: String,
    ring: String,
    identity: String,
    lease_name: String,
}

impl fmt::Debug for LeaseIo {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "lease {}/{}", self.namespace, self.lease_name)
    }
}

/// A label value: at most 63 of `[A-Za-z0-9._-]`, alphanumeric at both ends.
fn label_value(v: &str) -> bool {
    v.len() <= 63
        && v.bytes()
            .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'-' | b'_' | b'.'))
        && v.bytes().next().is_some_and(|b| b.is_ascii_alphanumeric())
        && v.bytes().last().is_some_and(|b| b.is_ascii_alphanumeric())
}

async fn within<T, E: fmt::Display>(
    limit: Duration,
    what: &str,
    call: impl Future<Output = Result<T, E>>,
) -> Result<T, WriteError> {
    match tokio::time::timeout(limit, call).await {
        Ok(Ok(v)) => Ok(v),
        Ok(Err(e)) => Err(WriteError {
            lost: false,
            message: format!("{what}: {e}"),
        }),
        Err(_) => Err(WriteError {
            lost: false,
            message: format!("{what}: no answer within {limit:?}"),
        }),
    }
}

impl fmt::Display for WriteError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl LeaseIo {
    pub(super) fn new(
        api: Api<Lease>,
        namespace: &str,
        ring: &str,
        identity: &str,
    ) -> Result<Self, String> {
        if namespace.is_empty() || ring.is_empty() || identity.is_empty() {
            return Err("the namespace, ring name and identity must not be empty".into());
        }
        if !label_value(ring) {
            return Err(format!(
                "the ring name {ring:?} must be a label value (at most 63 characters of \
                 [A-Za-z0-9._-], alphanumeric at both ends)"
            ));
        }
        let lease_name = format!("{ring}-{identity}");
        if !is_dns_subdomain(&lease_name) {
            return Err(format!(
                "the Lease name {lease_name:?} (<ring>-<identity>) must be a lowercase DNS \
                 subdomain of at most 253 characters"
            ));
        }
        Ok(Self {
            api,
            namespace: namespace.to_owned(),
            ring: ring.to_owned(),
            identity: identity.to_owned(),
            lease_name,
        })
    }

    pub(super) fn ring(&self) -> &str {
        &self.ring
    }

    pub(super) fn identity(&self) -> &str {
        &self.identity
    }

    pub(super) fn lease_name(&self) -> &str {
        &self.lease_name
    }

    /// Every Lease of the ring (a quorum read: no resourceVersion).
    pub(super) async fn list(&self, limit: Duration) -> Result<Vec<Lease>, WriteError> {
        let options = ListOptions {
            label_selector: Some(format!("{RING_LABEL}={}", self.ring)),
            ..ListOptions::default()
        };
        within(limit, "list", self.api.list(&options))
            .await
            .map(|l| l.items)
    }

    /// `base` (this member's Lease, or a free one to take over) held by this member with
    /// `claims`, PUT with `base`'s resourceVersion: 409 if anyone wrote it since.
    pub(super) async fn renew(
        &self,
        base: &Lease,
        claims: &Claims,
        duration: Duration,
        limit: Duration,
    ) -> Result<Lease, WriteError> {
        let mut lease = base.clone();
        self.stamp(&mut lease, claims, duration);
        match tokio::time::timeout(limit, self.api.update(&lease, &PostParams::default())).await {
            Ok(Ok(l)) => Ok(l),
            Ok(Err(e)) => Err(WriteError {
                lost: e.is_conflict() || e.is_not_found(),
                message: format!("update: {e}"),
            }),
            Err(_) => Err(WriteError {
                lost: false,
                message: format!("update: no answer within {limit:?}"),
            }),
        }
    }

    /// POSTs this member's Lease; 409 AlreadyExists if another process created it first.
    pub(super) async fn create(
        &self,
        claims: &Claims,
        duration: Duration,
        limit: Duration,
    ) -> Result<Lease, WriteError> {
        let mut lease = Lease {
            metadata: ObjectMeta {
                name: Some(self.lease_name.clone()),
                namespace: Some(self.namespace.clone()),
                ..ObjectMeta::default()
            },
            spec: None,
        };
        self.stamp(&mut lease, claims, duration);
        within(
            limit,
            "create",
            self.api.create(&lease, &PostParams::default()),
        )
        .await
    }

    /// DELETEs the Lease `lease` of the ring if nobody wrote it since it was read.
    pub(super) async fn delete(&self, lease: &Lease, limit: Duration) -> Result<(), WriteError> {
        let name = lease.metadata.name.as_deref().unwrap_or(&self.lease_name);
        let params = DeleteParams {
            preconditions: Some(Preconditions {
                uid: None,
                resource_version: lease.metadata.resource_version.clone(),
            }),
            ..DeleteParams::default()
        };
        within(limit, "delete", self.api.delete(name, &params))
            .await
            .map(drop)
    }

    fn stamp(&self, lease: &mut Lease, claims: &Claims, duration: Duration) {
        let labels = lease.metadata.labels.get_or_insert_with(BTreeMap::new);
        labels.insert(RING_LABEL.to_owned(), self.ring.clone());
        let annotations = lease.metadata.annotations.get_or_insert_with(BTreeMap::new);
        annotations.insert(HELD_ANNOTATION.to_owned(), format_held(&claims.held));
        annotations.insert(BUCKETS_ANNOTATION.to_owned(), claims.buckets.to_string());
        let now = crate::leader_election::wall_clock();
        let spec = lease.spec.get_or_insert_with(LeaseSpec::default);
        if spec.holder_identity.as_deref() != Some(self.identity.as_str()) {
            spec.holder_identity = Some(self.identity.clone());
            spec.acquire_time = Some(MicroTime(now));
            spec.lease_transitions = Some(spec.lease_transitions.unwrap_or(0).saturating_add(1));
        }
        spec.lease_duration_seconds = Some(i32::try_from(duration.as_secs()).unwrap_or(i32::MAX));
        spec.renew_time = Some(MicroTime(now));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn claims_round_trip_through_the_annotation() {
        let held: BTreeSet<u32> = [0, 1, 2, 3, 7, 9, 10, 255].into();
        assert_eq!(format_held(&held), "0-3,7,9-10,255");
        assert_eq!(parse_held(&format_held(&held)), held);
        assert_eq!(format_held(&BTreeSet::new()), "");
        assert!(parse_held("").is_empty());
        assert_eq!(parse_held("x,3,5-4,-,7-x,9"), [3, 9].into());
        assert_eq!(
            parse_held("0-4294967295").len(),
            super::super::MAX_BUCKETS as usize
        );
    }

    #[test]
    fn names_must_make_a_valid_lease() {
        assert!(is_dns_subdomain("ring-replica-0"));
        assert!(!is_dns_subdomain("Ring-0"));
        assert!(!is_dns_subdomain("ring-"));
        assert!(label_value("foo-controller"));
        assert!(!label_value("-foo"));
    }
}
