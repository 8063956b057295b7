//! Sharded informers (KEP-5866): what one replica of N pays, N = 1, 2, 4, over the same
//! Pods.
//!
//! - **server-side**: the test server filters (`ShardedListAndWatch` on): one replica's
//!   heap and sync time against the unsharded informer's, targets ≤ 1.15/N and ≤ 1.2/N.
//! - **client-side**: the server ignores the selector (feature off), so the informer skips
//!   the Pods outside its shard before decoding them. What skipping costs is measured
//!   whole, not as a difference of two syncs (too noisy): a replica whose shard holds no Pod
//!   skips every one, against the unsharded informer decoding every one, on the same server.
//!   Target: skipping ≤ 0.3× decoding. Its floor is measured too: receiving the same list's
//!   bytes and dropping them unread, which any client-side filter pays first.
//!
//! CPU is this process's (the server is a child process), so it is the informer's own:
//! reading, skipping, decoding and caching. Each sync runs twice and the one with less CPU
//! counts, after a warm-up sync.

use std::time::Instant;

use informer_runtime::shard::ShardSelector;

use super::{settle, Ctx};
use crate::alloc;
use crate::cpu::process_cpu_ns;
use crate::error::BenchError;
use crate::ours::{Ours, OursOptions};
use crate::raw_http;
use crate::results::{Record, Target};
use crate::server_process::{ServerProcess, ServerSpec};

const SECTION: &str = "sharding";

/// One replica's sync.
#[derive(Clone, Copy, Debug)]
struct Replica {
    heap: f64,
    sync_s: f64,
    cpu_s: f64,
    cached: usize,
    skipped: u64,
}

/// The first of `shards` equal uid ranges (everything for one shard).
fn first_of(shards: u32) -> Result<Option<ShardSelector>, BenchError> {
    if shards <= 1 {
        return Ok(None);
    }
    let end = (1u128 << 64) / u128::from(shards);
    ShardSelector::uid_range(0, end)
        .map(Some)
        .map_err(|e| BenchError::Informer {
            who: "shard selector".into(),
            reason: e.to_string(),
        })
}

async fn replica(
    server: &ServerProcess,
    selector: Option<ShardSelector>,
) -> Result<Replica, BenchError> {
    settle().await;
    let base = alloc::live_bytes();
    let cpu = process_cpu_ns();
    let start = Instant::now();
    let ours = Ours::start(
        server.url(),
        &OursOptions {
            shard_selector: selector,
            ..Default::default()
        },
    )?;
    ours.wait_synced().await?;
    let sync_s = start.elapsed().as_secs_f64();
    let cpu_s = process_cpu_ns().saturating_sub(cpu) as f64 / 1e9;
    settle().await;
    let heap = alloc::live_bytes().saturating_sub(base) as f64;
    let cached = ours.lister().list(&Default::default()).len();
    let skipped = ours.shard_skipped();
    ours.stop().await;
    Ok(Replica {
        heap,
        sync_s,
        cpu_s,
        cached,
        skipped,
    })
}

/// A shard that holds no Pod (one hash value of 2^64).
fn empty_shard() -> Result<ShardSelector, BenchError> {
    ShardSelector::uid_range(0, 1).map_err(|e| BenchError::Informer {
        who: "shard selector".into(),
        reason: e.to_string(),
    })
}

/// The better of two syncs of one replica (the one with less CPU): a shared machine's noise
/// only ever adds.
async fn replica_best_of_two(
    server: &ServerProcess,
    selector: Option<ShardSelector>,
) -> Result<Replica, BenchError> {
    let first = replica(server, selector.clone()).await?;
    let second = replica(server, selector).await?;
    Ok(if second.cpu_s < first.cpu_s {
        second
    } else {
        first
    })
}

/// CPU seconds of receiving every Pod's bytes in one list and dropping them unread.
async fn receive_floor(server: &ServerProcess) -> Result<f64, BenchError> {
    settle().await;
    let cpu = process_cpu_ns();
    raw_http::drain(&format!("{}/api/v1/pods", server.url())).await?;
    Ok(process_cpu_ns().saturating_sub(cpu) as f64 / 1e9)
}

/// Runs the section.
pub async fn run(ctx: Ctx) -> Result<Vec<Record>, BenchError> {
    let n = if ctx.quick { 2_000 } else { 100_000 };
    let spec = ServerSpec {
        pods: n,
        namespaces: super::sync::namespaces_for(n),
        history: 1_000,
    };
    let shard_counts = [2u32, 4];
    let server = ServerProcess::start(spec).await?;
    let measured = async {
        // The first sync of the process grows its heap from nothing (page faults, the
        // allocator's first arenas): a warm-up, so the unsharded sync is not charged for it.
        replica(&server, None).await?;
        let whole = replica_best_of_two(&server, None).await?;
        let mut server_side = Vec::new();
        for shards in shard_counts {
            server_side.push(replica_best_of_two(&server, first_of(shards)?).await?);
        }
        Ok::<_, BenchError>((whole, server_side))
    }
    .await;
    server.stop().await?;
    let (whole, server_side) = measured?;

    let server = ServerProcess::start_with(spec, &["--no-sharding"]).await?;
    let measured = async {
        let mut client_side = Vec::new();
        for shards in shard_counts {
            client_side.push(replica_best_of_two(&server, first_of(shards)?).await?);
        }
        let decode_all = replica_best_of_two(&server, None).await?;
        let skip_all = replica_best_of_two(&server, Some(empty_shard()?)).await?;
        let receive_all = receive_floor(&server).await?;
        Ok::<_, BenchError>((client_side, decode_all, skip_all, receive_all))
    }
    .await;
    server.stop().await?;
    let (client_side, decode_all, skip_all, receive_all) = measured?;

    let p = format!("sharding.n{n}");
    let mut records = vec![
        Record::new(SECTION, format!("{p}.unsharded_sync"), whole.sync_s, "s").note(format!(
            "one informer over all {n} Pods: {:.1} MB held, {:.2} s CPU",
            whole.heap / 1e6,
            whole.cpu_s
        )),
    ];
    for ((shards, s), c) in shard_counts.iter().zip(&server_side).zip(&client_side) {
        let n_f = f64::from(*shards);
        records.extend([
            Record::new(SECTION, format!("{p}.server_{shards}_shards_heap"), s.heap / 1e6, "MB")
                .against("unsharded", whole.heap / 1e6)
                .target(Target::ratio_at_most(1.15 / n_f))
                .note(format!("one replica of {shards}: {} Pods of {n} cached", s.cached)),
            Record::new(SECTION, format!("{p}.server_{shards}_shards_sync"), s.sync_s, "s")
                .against("unsharded", whole.sync_s)
                .target(Target::ratio_at_most(1.2 / n_f)),
            Record::new(SECTION, format!("{p}.client_{shards}_shards_heap"), c.heap / 1e6, "MB")
                .against("unsharded", whole.heap / 1e6)
                .note(format!(
                    "the server ignores the selector: {} Pods cached, {} skipped before decoding (the two servers seed different uids)",
                    c.cached, c.skipped
                )),
            Record::new(SECTION, format!("{p}.client_{shards}_shards_sync"), c.sync_s, "s")
                .against("server-side", s.sync_s),
        ]);
    }
    let per_pod = |cpu: f64| cpu / n as f64 * 1e6;
    records.extend([
        Record::new(SECTION, format!("{p}.client_skip_cpu"), skip_all.cpu_s, "s")
            .against("decoding them", decode_all.cpu_s)
            .target(Target::ratio_at_most(0.3))
            .note(format!(
                "the server ignores the selector: a replica whose shard holds none of the {n} Pods skips {} of them before decoding ({:.1} µs a Pod), against one informer decoding and caching all of them ({:.1} µs a Pod)",
                skip_all.skipped,
                per_pod(skip_all.cpu_s),
                per_pod(decode_all.cpu_s)
            )),
        Record::new(SECTION, format!("{p}.client_receive_floor"), receive_all, "s")
            .against("decoding them", decode_all.cpu_s)
            .note(format!(
                "receiving the same {n} Pods' bytes in one list and dropping them unread ({:.1} µs a Pod): what any client-side filter pays before it looks at an object",
                per_pod(receive_all)
            )),
    ]);
    Ok(records)
}
