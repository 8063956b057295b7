//! Property: random creates, updates and deletes interleaved with random faults (dropped
//! and cut watches, compaction → 410, 429/500/503, stalls, malformed watch lines) → once the
//! faults stop, the cache equals the server's objects exactly, and every handler's replayed
//! events reproduce it with each object's sequence Add, Update*, Delete.

mod common;

use std::collections::BTreeMap;
use std::time::Duration;

use common::{cache_state, client, informer, Replay};
use k8s_openapi::api::core::v1::ConfigMap;
use proptest::prelude::*;
use serde_json::json;
use test_apiserver::{eventually, FaultTarget, RunningServer, TestApiServer};
use tokio_util::sync::CancellationToken;

#[derive(Clone, Debug)]
enum Fault {
    DropWatchesAfter(u64),
    Compact,
    Fail { code: u16, verb: &'static str },
    Stall(u64),
    CutWatches,
    Malformed,
}

#[derive(Clone, Debug)]
enum Op {
    Create(u8),
    Update(u8),
    Delete(u8),
    Fault(Fault),
    Pause(u64),
    /// Cut the watch, keep the informer out, write meanwhile, then compact: the informer
    /// must relist after a 410 and infer the deletions it missed.
    Outage(Vec<Op>),
}

fn fault() -> impl Strategy<Value = Fault> {
    prop_oneof![
        (1u64..4).prop_map(Fault::DropWatchesAfter),
        Just(Fault::Compact),
        (
            prop_oneof![Just(429u16), Just(500), Just(503)],
            prop_oneof![Just("list"), Just("watch")]
        )
            .prop_map(|(code, verb)| Fault::Fail { code, verb }),
        (50u64..300).prop_map(Fault::Stall),
        Just(Fault::CutWatches),
        Just(Fault::Malformed),
    ]
}

fn write() -> impl Strategy<Value = Op> {
    prop_oneof![
        4 => (0u8..8).prop_map(Op::Create),
        4 => (0u8..8).prop_map(Op::Update),
        3 => (0u8..8).prop_map(Op::Delete),
    ]
}

fn op() -> impl Strategy<Value = Op> {
    prop_oneof![
        11 => write(),
        2 => fault().prop_map(Op::Fault),
        1 => (10u64..150).prop_map(Op::Pause),
        1 => proptest::collection::vec(write(), 1..6).prop_map(Op::Outage),
    ]
}

fn server_state(server: &RunningServer) -> BTreeMap<String, String> {
    server
        .list("configmaps", None)
        .unwrap()
        .iter()
        .map(|o| {
            let m = &o["metadata"];
            (
                format!(
                    "{}/{}",
                    m["namespace"].as_str().unwrap(),
                    m["name"].as_str().unwrap()
                ),
                m["resourceVersion"].as_str().unwrap().to_owned(),
            )
        })
        .collect()
}

fn apply(server: &RunningServer, op: &Op, step: usize) {
    let name = |i: &u8| format!("cm-{i}");
    // Writes may fail (409 on a create of an existing object, 404 on a missing one): the
    // property is about whatever the server ends up holding.
    match op {
        Op::Create(i) => {
            let _ = server.create(
                "configmaps",
                Some("p"),
                json!({"apiVersion": "v1", "kind": "ConfigMap",
                       "metadata": {"name": name(i), "namespace": "p"},
                       "data": {"step": step.to_string()}}),
            );
        }
        Op::Update(i) => {
            let _ = server.patch_merge(
                "configmaps",
                Some("p"),
                &name(i),
                json!({"data": {"step": step.to_string()}}),
            );
        }
        Op::Delete(i) => {
            let _ = server.delete("configmaps", Some("p"), &name(i));
        }
        Op::Fault(f) => {
            let faults = server.faults();
            let target = |verb: &str| FaultTarget::resource("configmaps").verb(verb);
            match f {
                Fault::DropWatchesAfter(n) => faults.drop_watches_after(*n),
                Fault::Compact => faults.compact_history(),
                Fault::Fail { code, verb } => faults.fail_next(1, *code, target(verb)),
                Fault::Stall(ms) => faults.stall_next(
                    1,
                    Duration::from_millis(*ms),
                    FaultTarget::resource("configmaps"),
                ),
                Fault::CutWatches => faults.cut_watches(),
                Fault::Malformed => faults.malformed_watch_line(),
            }
        }
        Op::Pause(_) => {}
        Op::Outage(writes) => {
            let faults = server.faults();
            faults.fail_next(2, 503, FaultTarget::resource("configmaps").verb("watch"));
            faults.cut_watches();
            for w in writes {
                apply(server, w, step);
            }
            faults.compact_history();
        }
    }
}

async fn run_case(ops: Vec<Op>) {
    let server = TestApiServer::builder()
        .history(64)
        .bookmark_interval(Duration::from_millis(200))
        .start()
        .await
        .unwrap();
    for i in 0..3u8 {
        apply(&server, &Op::Create(i), 0);
    }
    let inf = informer::<ConfigMap>(&client(&server.url()));
    let early = Replay::default();
    inf.add_event_handler(early.clone());
    let cancel = CancellationToken::new();
    let task = tokio::spawn(inf.run(cancel.clone()));
    eventually("sync", || inf.has_synced()).await;

    let mut late = None;
    for (step, op) in ops.iter().enumerate() {
        apply(&server, op, step + 1);
        let pause = match op {
            Op::Pause(ms) => *ms,
            _ => 5,
        };
        tokio::time::sleep(Duration::from_millis(pause)).await;
        if step == ops.len() / 2 {
            let replay = Replay::default();
            inf.add_event_handler(replay.clone());
            late = Some(replay);
        }
    }
    server.faults().clear();

    let want = server_state(&server);
    eventually("the cache to converge", || cache_state(&inf) == want).await;
    eventually("the handler replay to converge", || early.objects() == want).await;
    assert!(early.violations().is_empty(), "{:?}", early.violations());
    if let Some(late) = late {
        eventually("the late handler replay", || late.objects() == want).await;
        assert!(late.violations().is_empty(), "{:?}", late.violations());
    }
    cancel.cancel();
    tokio::time::timeout(Duration::from_secs(30), task)
        .await
        .expect("informer did not stop")
        .unwrap();
}

proptest! {
    #![proptest_config(ProptestConfig {
        cases: 6,
        max_shrink_iters: 2,
        failure_persistence: None,
        ..ProptestConfig::default()
    })]

    #[test]
    fn cache_converges_to_server_state_under_faults(ops in proptest::collection::vec(op(), 5..30)) {
        let rt = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(2)
            .enable_all()
            .build()
            .unwrap();
        rt.block_on(run_case(ops));
    }
}
