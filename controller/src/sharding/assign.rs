//! The deterministic part of the ring: which buckets of the hash space each member owns.

use std::collections::{BTreeMap, BTreeSet};

use informer_selectors::shard::{fnv1a_64, ShardField, ShardRange, ShardSelector};

use informer_runtime::sharding::ShardAssignment;

/// How many buckets the hash space is cut into unless configured otherwise.
pub const DEFAULT_BUCKETS: u32 = 256;

/// The most buckets a ring may have.
pub const MAX_BUCKETS: u32 = 1 << 16;

/// The bucket of `buckets` equal parts of the hash space that `hash` falls in: bucket `i`
/// is [`ShardRange::nth_of`]`(i, buckets)`. `buckets` must be at least one.
pub fn bucket_of(hash: u64, buckets: u32) -> u32 {
    let n = u128::from(buckets.max(1));
    let width = ShardRange::END / n;
    let i = (u128::from(hash) / width).min(n - 1);
    u32::try_from(i).unwrap_or(buckets.max(1) - 1)
}

/// Splits `buckets` buckets among `members` by rendezvous (highest-random-weight) hashing:
/// each bucket goes to the member with the highest score `mix(hash(member), bucket)`.
/// Every member that computes it from the same member set gets the same answer, whatever
/// the order of `members` (duplicates count once). Members with no bucket are absent.
///
/// When a member joins, the only buckets that move are those it now wins, about
/// `buckets / (n + 1)`: exactly its share, none between the members already there. When
/// one leaves, only its buckets move, spread over the rest as evenly as chance allows.
pub fn assign<'a>(
    members: impl IntoIterator<Item = &'a str>,
    buckets: u32,
) -> BTreeMap<String, BTreeSet<u32>> {
    let members: BTreeSet<&str> = members.into_iter().collect();
    let hashed: Vec<(&str, u64)> = members
        .iter()
        .map(|m| (*m, fnv1a_64(m.as_bytes())))
        .collect();
    let mut out: BTreeMap<String, BTreeSet<u32>> = BTreeMap::new();
    for bucket in 0..buckets {
        // Ties (practically impossible) go to the greater identity, so all agree.
        let winner = hashed
            .iter()
            .max_by_key(|(m, h)| (score(*h, bucket), *m))
            .map(|(m, _)| *m);
        if let Some(m) = winner {
            out.entry(m.to_owned()).or_default().insert(bucket);
        }
    }
    out
}

/// splitmix64's finaliser over the member's hash and the bucket: FNV-1a alone mixes too
/// little for the scores of neighbouring buckets to be independent.
fn score(member: u64, bucket: u32) -> u64 {
    let mut z = member ^ u64::from(bucket).wrapping_mul(0x9e37_79b9_7f4a_7c15);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// The part of the hash space a replica may work on: some of the ring's buckets. Cheap to
/// clone; what [`ShardRing::subscribe`](super::ShardRing::subscribe) sends.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Shards {
    field: ShardField,
    buckets: u32,
    owned: BTreeSet<u32>,
}

impl Shards {
    /// `owned` buckets of `buckets` over `field`.
    pub fn new(field: ShardField, buckets: u32, owned: BTreeSet<u32>) -> Self {
        Self {
            field,
            buckets: buckets.max(1),
            owned,
        }
    }

    /// No bucket of `buckets` over `field`.
    pub fn none(field: ShardField, buckets: u32) -> Self {
        Self::new(field, buckets, BTreeSet::new())
    }

    /// The field hashed.
    pub fn field(&self) -> ShardField {
        self.field
    }

    /// How many buckets the ring has.
    pub fn buckets(&self) -> u32 {
        self.buckets
    }

    /// The buckets owned.
    pub fn owned(&self) -> &BTreeSet<u32> {
        &self.owned
    }

    /// True when no bucket is owned: the replica must work on nothing.
    pub fn is_empty(&self) -> bool {
        self.owned.is_empty()
    }

    /// The share of the hash space owned, from 0 to 1.
    pub fn fraction(&self) -> f64 {
        self.owned.len() as f64 / f64::from(self.buckets)
    }

    /// The owned hash ranges, neighbouring buckets merged, in order.
    pub fn ranges(&self) -> Vec<ShardRange> {
        let mut out: Vec<(u128, u128)> = Vec::new();
        for b in &self.owned {
            let Some(r) = ShardRange::nth_of(u64::from(*b), u64::from(self.buckets)) else {
                continue;
            };
            match out.last_mut() {
                Some(last) if last.1 == r.start() => last.1 = r.end(),
                _ => out.push((r.start(), r.end())),
            }
        }
        out.into_iter()
            .filter_map(|(s, e)| ShardRange::new(s, e).ok())
            .collect()
    }

    /// The `shardSelector` that lists and watches exactly the owned ranges; `None` when
    /// nothing is owned (no selector can say "nothing": stop listing instead).
    pub fn selector(&self) -> Option<ShardSelector> {
        ShardSelector::new(self.field, self.ranges())
    }

    /// The share as an informer follows it: [`ShardAssignment::Nothing`] when no bucket is
    /// owned, else the [`selector`](Self::selector) of the owned ranges.
    pub fn assignment(&self) -> ShardAssignment {
        self.selector()
            .map_or(ShardAssignment::Nothing, ShardAssignment::Selector)
    }

    /// True when an object whose field hashes to `hash` is owned.
    pub fn contains_hash(&self, hash: u64) -> bool {
        self.owned.contains(&bucket_of(hash, self.buckets))
    }

    /// True when an object whose field (uid or namespace) is `value` is owned.
    pub fn contains(&self, value: &str) -> bool {
        self.contains_hash(fnv1a_64(value.as_bytes()))
    }

    /// True when an object with this uid and namespace (`""` when cluster-scoped) is owned.
    pub fn matches(&self, uid: &str, namespace: &str) -> bool {
        match self.field {
            ShardField::Uid => self.contains(uid),
            ShardField::Namespace => self.contains(namespace),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names(n: usize) -> Vec<String> {
        (0..n).map(|i| format!("replica-{i}")).collect()
    }

    #[test]
    fn every_bucket_has_exactly_one_owner_whatever_the_order() {
        let members = names(5);
        let forward = assign(members.iter().map(String::as_str), 256);
        let backward = assign(members.iter().rev().map(String::as_str), 256);
        assert_eq!(forward, backward);
        let mut all = BTreeSet::new();
        for owned in forward.values() {
            for b in owned {
                assert!(all.insert(*b), "bucket {b} twice");
            }
        }
        assert_eq!(all, (0..256).collect());
        for owned in forward.values() {
            // Binomial(256, 1/5): 51 on average; far tails only.
            assert!((25..=80).contains(&owned.len()), "{}", owned.len());
        }
    }

    #[test]
    fn a_join_moves_only_buckets_to_the_newcomer_and_a_leave_only_the_leavers() {
        let three = names(3);
        let four = names(4);
        let before = assign(three.iter().map(String::as_str), 256);
        let after = assign(four.iter().map(String::as_str), 256);
        for (m, owned) in &before {
            assert!(after[m].is_subset(owned), "{m} gained on a join");
        }
        let back = assign(three.iter().map(String::as_str), 256);
        assert_eq!(back, before, "the leave undoes the join");
        let two = assign(three[..2].iter().map(String::as_str), 256);
        for (m, owned) in &two {
            assert!(before[m].is_subset(owned), "{m} lost on a leave");
        }
    }

    #[test]
    fn buckets_ranges_and_selectors_agree() {
        let owned: BTreeSet<u32> = [0, 1, 2, 7, 255].into();
        let s = Shards::new(ShardField::Uid, 256, owned);
        let ranges = s.ranges();
        assert_eq!(ranges.len(), 3);
        assert_eq!(ranges[0].start(), 0);
        assert_eq!(ranges[2].end(), ShardRange::END);
        let selector = s.selector().unwrap();
        for i in 0..2_000 {
            let uid = format!("uid-{i}");
            assert_eq!(s.contains(&uid), selector.contains(&uid), "{uid}");
        }
        for (hash, bucket) in [(0, 0), (u64::MAX, 255), (1 << 56, 1), ((1 << 56) - 1, 0)] {
            assert_eq!(bucket_of(hash, 256), bucket);
        }
        assert_eq!(bucket_of(u64::MAX, 3), 2);
        assert_eq!(Shards::none(ShardField::Uid, 8).selector(), None);
    }
}
