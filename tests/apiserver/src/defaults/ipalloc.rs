//! The Service registry's allocators, as kubeadm configures a cluster: cluster IPs from
//! `10.96.0.0/12` and node ports from `30000-32767`. Like kube-apiserver's, a random free
//! value is taken from the upper part of the range (the lower band is left for values
//! clients ask for), a value stays taken until its Service is deleted (or stops using it)
//! and is never handed out twice.

use std::collections::HashSet;
use std::net::Ipv4Addr;
use std::sync::Mutex;

use rand::Rng;

/// The service CIDR: `--service-cluster-ip-range=10.96.0.0/12`.
pub(crate) const SERVICE_CIDR: &str = "10.96.0.0/12";
const NETWORK: u32 = u32::from_be_bytes([10, 96, 0, 0]);
const PREFIX_BITS: u32 = 12;
/// The node port range: `--service-node-port-range=30000-32767`.
pub(crate) const NODE_PORTS: std::ops::RangeInclusive<u32> = 30000..=32767;

/// One range of values: `first + offset` for offsets below `size`.
struct Range {
    first: u32,
    size: u32,
}

impl Range {
    /// The dynamic band starts after `min(max(16, size/16), cap)` values (the
    /// allocators' `calculateRangeOffset`).
    fn band_start(&self, cap: u32) -> u32 {
        (self.size / 16).clamp(16, cap).min(self.size)
    }
}

fn ip_range() -> Range {
    // The network and broadcast addresses are never handed out.
    Range {
        first: NETWORK + 1,
        size: (1u32 << (32 - PREFIX_BITS)) - 2,
    }
}

fn port_range() -> Range {
    Range {
        first: *NODE_PORTS.start(),
        size: NODE_PORTS.end() - NODE_PORTS.start() + 1,
    }
}

/// Why a value was refused, in the allocators' words.
#[derive(Debug, PartialEq, Eq)]
pub(crate) enum Refused {
    /// `ErrAllocated`.
    Allocated,
    /// `ErrNotInRange`.
    NotInRange,
    /// `ErrFull`.
    Full,
}

/// The cluster IPs and node ports in use.
#[derive(Default)]
pub(crate) struct Allocator {
    taken: Mutex<Taken>,
}

#[derive(Default)]
struct Taken {
    ips: HashSet<u32>,
    ports: HashSet<u32>,
}

/// Which of the two pools.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) enum Pool {
    ClusterIp,
    NodePort,
}

impl Allocator {
    fn with<T>(&self, f: impl FnOnce(&mut Taken) -> T) -> T {
        f(&mut self.taken.lock().unwrap_or_else(|p| p.into_inner()))
    }

    /// A random free value of `pool` (not recorded when `dry_run`).
    pub(crate) fn next(&self, pool: Pool, dry_run: bool) -> Result<u32, Refused> {
        let (range, cap) = match pool {
            Pool::ClusterIp => (ip_range(), 256),
            Pool::NodePort => (port_range(), 128),
        };
        self.with(|t| {
            let set = t.set(pool);
            let start = range.band_start(cap);
            let upper = range.size - start;
            let mut rng = rand::rng();
            // The upper band first, then the lower one, each from a random point.
            for (base, len) in [(start, upper), (0, start)] {
                if len == 0 {
                    continue;
                }
                let from = rng.random_range(0..len);
                for i in 0..len {
                    let value = range.first + base + (from + i) % len;
                    if !set.contains(&value) {
                        if !dry_run {
                            set.insert(value);
                        }
                        return Ok(value);
                    }
                }
            }
            Err(Refused::Full)
        })
    }

    /// Takes `value` of `pool` (only checks when `dry_run`).
    pub(crate) fn take(&self, pool: Pool, value: u32, dry_run: bool) -> Result<(), Refused> {
        let range = match pool {
            Pool::ClusterIp => ip_range(),
            Pool::NodePort => port_range(),
        };
        if value < range.first || value - range.first >= range.size {
            return Err(Refused::NotInRange);
        }
        self.with(|t| {
            let set = t.set(pool);
            if set.contains(&value) {
                return Err(Refused::Allocated);
            }
            if !dry_run {
                set.insert(value);
            }
            Ok(())
        })
    }

    /// Frees `value` of `pool`.
    pub(crate) fn release(&self, pool: Pool, value: u32) {
        self.with(|t| t.set(pool).remove(&value));
    }
}

impl Taken {
    fn set(&mut self, pool: Pool) -> &mut HashSet<u32> {
        match pool {
            Pool::ClusterIp => &mut self.ips,
            Pool::NodePort => &mut self.ports,
        }
    }
}

/// An IPv4 address as a number, if `s` is one.
pub(crate) fn parse_ip(s: &str) -> Option<u32> {
    s.parse::<Ipv4Addr>().ok().map(u32::from)
}

/// A number as an IPv4 address.
pub(crate) fn format_ip(n: u32) -> String {
    Ipv4Addr::from(n).to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn values_are_taken_once_and_freed() {
        let a = Allocator::default();
        let ip = a.next(Pool::ClusterIp, false).unwrap();
        assert!((NETWORK + 1 + 256..NETWORK + (1 << 20) - 1).contains(&ip));
        assert_eq!(a.take(Pool::ClusterIp, ip, false), Err(Refused::Allocated));
        a.release(Pool::ClusterIp, ip);
        assert_eq!(a.take(Pool::ClusterIp, ip, false), Ok(()));
        assert_eq!(
            a.take(Pool::ClusterIp, parse_ip("10.112.0.1").unwrap(), false),
            Err(Refused::NotInRange)
        );
        assert_eq!(
            a.take(Pool::ClusterIp, NETWORK, false),
            Err(Refused::NotInRange)
        );
        assert_eq!(
            a.take(Pool::NodePort, 29999, false),
            Err(Refused::NotInRange)
        );
        let port = a.next(Pool::NodePort, false).unwrap();
        assert!((30128..=32767).contains(&port));
    }
}
