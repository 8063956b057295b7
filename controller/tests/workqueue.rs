//! The work queue's client-go semantics: dedup, one worker per item, re-adds during
//! processing, delays in time order, rate-limit timings on a paused clock, and shutdown.

use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::Duration;

use informer_controller::workqueue::{
    render_prometheus, Config, ItemExponentialFailureRateLimiter, WorkQueue,
};
use tokio::time::{timeout, Instant};

const MS: Duration = Duration::from_millis(1);

/// True when `get` hands nothing out within `wait` (a paused clock makes this instant).
async fn nothing_within(q: &WorkQueue<String>, wait: Duration) -> bool {
    timeout(wait, q.get()).await.is_err()
}

#[tokio::test(start_paused = true)]
async fn an_item_added_many_times_is_handed_out_once() {
    let q = WorkQueue::<String>::new();
    for _ in 0..5 {
        q.add("a".into());
    }
    q.add("b".into());
    q.add("a".into());
    assert_eq!(q.len(), 2);
    assert_eq!(q.get().await.as_deref(), Some("a"));
    assert_eq!(q.get().await.as_deref(), Some("b"));
    assert!(q.is_empty());
    assert!(nothing_within(&q, Duration::from_secs(1)).await);
    assert_eq!(q.stats().adds, 2, "only adds that queued count");
}

#[tokio::test(start_paused = true)]
async fn an_item_readded_while_in_process_is_queued_again_after_done() {
    let q = WorkQueue::<String>::new();
    q.add("a".into());
    let a = q.get().await.unwrap();
    q.add("a".into());
    q.add("a".into());
    assert_eq!(q.len(), 0, "not handed out while in process");
    assert!(nothing_within(&q, Duration::from_secs(1)).await);
    assert_eq!(q.stats().depth, 1, "but it is dirty");
    q.done(&a);
    assert_eq!(q.len(), 1);
    assert_eq!(q.get().await.as_deref(), Some("a"));
    q.done(&a);
    assert!(q.is_empty());
    q.done(&a);
    assert!(q.is_empty(), "a stray done queues nothing");
}

#[tokio::test(start_paused = true)]
async fn a_delayed_readd_that_comes_due_during_processing_runs_after_done() {
    let q = WorkQueue::<String>::new();
    q.add("a".into());
    let a = q.get().await.unwrap();
    q.add_after("a".into(), 5 * MS);
    tokio::time::sleep(10 * MS).await;
    assert_eq!(q.len(), 0, "due, but in process");
    q.done(&a);
    assert_eq!(q.len(), 1);
    assert_eq!(q.get().await.as_deref(), Some("a"));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn no_item_is_ever_in_two_workers_at_once() {
    const KEYS: usize = 16;
    const ADDS: usize = 4_000;
    let q = WorkQueue::<usize>::new();
    let busy: Arc<Vec<AtomicBool>> = Arc::new((0..KEYS).map(|_| AtomicBool::new(false)).collect());
    let overlaps = Arc::new(AtomicUsize::new(0));
    let processed = Arc::new(AtomicUsize::new(0));
    let mut workers = Vec::new();
    for _ in 0..8 {
        let (q, busy, overlaps, processed) =
            (q.clone(), busy.clone(), overlaps.clone(), processed.clone());
        workers.push(tokio::spawn(async move {
            while let Some(k) = q.get().await {
                if busy[k].swap(true, Ordering::SeqCst) {
                    overlaps.fetch_add(1, Ordering::SeqCst);
                }
                tokio::task::yield_now().await;
                std::thread::sleep(Duration::from_micros(20));
                busy[k].store(false, Ordering::SeqCst);
                processed.fetch_add(1, Ordering::SeqCst);
                q.done(&k);
            }
        }));
    }
    let producers: Vec<_> = (0..2)
        .map(|p| {
            let q = q.clone();
            tokio::spawn(async move {
                for i in 0..ADDS {
                    q.add((i * 7 + p) % KEYS);
                    if i % 64 == 0 {
                        tokio::task::yield_now().await;
                    }
                }
            })
        })
        .collect();
    for p in producers {
        p.await.unwrap();
    }
    q.shut_down_with_drain().await;
    for w in workers {
        w.await.unwrap();
    }
    assert_eq!(overlaps.load(Ordering::SeqCst), 0);
    let n = processed.load(Ordering::SeqCst);
    assert!(n >= KEYS, "every key processed at least once: {n}");
    let s = q.stats();
    assert_eq!((s.depth, s.in_flight), (0, 0));
    assert_eq!(s.work_duration.count as usize, n);
}

#[tokio::test(start_paused = true)]
async fn delayed_items_arrive_in_time_order() {
    let q = WorkQueue::<String>::new();
    let t0 = Instant::now();
    q.add_after("c".into(), 30 * MS);
    q.add_after("a".into(), 10 * MS);
    q.add_after("b".into(), 20 * MS);
    q.add_after("b".into(), 50 * MS);
    q.add_after("now".into(), Duration::ZERO);
    assert_eq!(q.len(), 1, "a zero delay adds at once");
    assert_eq!(q.get().await.as_deref(), Some("now"));
    for (key, at) in [("a", 10), ("b", 20), ("c", 30)] {
        assert_eq!(q.get().await.as_deref(), Some(key));
        assert_eq!(t0.elapsed(), at * MS, "{key}");
    }
    assert!(
        nothing_within(&q, Duration::from_secs(1)).await,
        "b waited once, at its earlier time"
    );
    assert_eq!(q.stats().retries, 5);
}

#[tokio::test(start_paused = true)]
async fn a_sleeping_worker_wakes_for_an_earlier_delayed_item() {
    let q = WorkQueue::<String>::new();
    q.add_after("late".into(), Duration::from_secs(10));
    let t0 = Instant::now();
    let getter = tokio::spawn({
        let q = q.clone();
        async move { (q.get().await, t0.elapsed()) }
    });
    tokio::task::yield_now().await;
    q.add_after("early".into(), 5 * MS);
    let (got, at) = getter.await.unwrap();
    assert_eq!((got.as_deref(), at), (Some("early"), 5 * MS));
}

#[tokio::test(start_paused = true)]
async fn default_rate_limiter_backs_off_exponentially_per_item() {
    let q = WorkQueue::<String>::new();
    let mut delays = Vec::new();
    for _ in 0..6 {
        let t0 = Instant::now();
        q.add_rate_limited("k".into());
        let k = q.get().await.unwrap();
        delays.push(t0.elapsed());
        q.done(&k);
    }
    assert_eq!(delays, [5, 10, 20, 40, 80, 160].map(|ms| ms * MS));
    assert_eq!(q.num_requeues(&"k".to_owned()), 6);
    q.forget(&"k".to_owned());
    assert_eq!(q.num_requeues(&"k".to_owned()), 0);
    let t0 = Instant::now();
    q.add_rate_limited("k".into());
    q.get().await.unwrap();
    assert_eq!(t0.elapsed(), 5 * MS, "forget starts the backoff over");
}

#[tokio::test(start_paused = true)]
async fn default_rate_limiter_spaces_retries_at_10_per_second_after_a_burst_of_100() {
    let q = WorkQueue::<String>::new();
    let t0 = Instant::now();
    for i in 0..103 {
        q.add_rate_limited(format!("k{i}"));
    }
    let mut arrivals = HashMap::new();
    for _ in 0..103 {
        let k = q.get().await.unwrap();
        arrivals.insert(k.clone(), t0.elapsed());
        q.done(&k);
    }
    for i in 0..100 {
        assert_eq!(
            arrivals[&format!("k{i}")],
            5 * MS,
            "k{i}: in the burst, first failure"
        );
    }
    assert_eq!(arrivals["k100"], 100 * MS);
    assert_eq!(arrivals["k101"], 200 * MS);
    assert_eq!(arrivals["k102"], 300 * MS);
}

#[tokio::test(start_paused = true)]
async fn a_custom_limiter_is_used_and_capped() {
    let q = WorkQueue::with_config(
        Config::default()
            .name("capped")
            .rate_limiter(ItemExponentialFailureRateLimiter::new(100 * MS, 300 * MS)),
    );
    let mut delays = Vec::new();
    for _ in 0..4 {
        let t0 = Instant::now();
        q.add_rate_limited(1u8);
        q.get().await.unwrap();
        delays.push(t0.elapsed());
        q.done(&1);
    }
    assert_eq!(delays, [100, 200, 300, 300].map(|ms| ms * MS));
}

#[tokio::test(start_paused = true)]
async fn shutdown_with_drain_waits_for_items_in_process() {
    let q = WorkQueue::<String>::new();
    q.add("a".into());
    q.add("b".into());
    q.add_after("later".into(), Duration::from_secs(1));
    let a = q.get().await.unwrap();
    let b = q.get().await.unwrap();
    let drained = Arc::new(AtomicBool::new(false));
    let drain = tokio::spawn({
        let (q, drained) = (q.clone(), drained.clone());
        async move {
            q.shut_down_with_drain().await;
            drained.store(true, Ordering::SeqCst);
        }
    });
    tokio::time::sleep(Duration::from_secs(5)).await;
    assert!(!drained.load(Ordering::SeqCst), "two items in process");
    assert!(q.is_shutting_down());
    q.add("c".into());
    assert!(q.is_empty(), "adds are ignored once shut down");
    q.done(&a);
    tokio::time::sleep(Duration::from_secs(5)).await;
    assert!(!drained.load(Ordering::SeqCst), "one item in process");
    q.done(&b);
    drain.await.unwrap();
    assert!(drained.load(Ordering::SeqCst));
    assert_eq!(q.get().await, None, "the delayed item was dropped");
}

#[tokio::test(start_paused = true)]
async fn get_returns_none_after_shutdown_once_the_queue_is_empty() {
    let q = WorkQueue::<String>::new();
    let waiting = tokio::spawn({
        let q = q.clone();
        async move { q.get().await }
    });
    tokio::task::yield_now().await;
    q.shut_down();
    assert_eq!(
        waiting.await.unwrap(),
        None,
        "a waiting get wakes with None"
    );

    let q = WorkQueue::<String>::new();
    q.add("queued".into());
    q.shut_down();
    assert_eq!(
        q.get().await.as_deref(),
        Some("queued"),
        "as client-go, items queued before shutdown are still handed out"
    );
    assert_eq!(q.get().await, None);
    q.add_after("x".into(), MS);
    q.add_rate_limited("y".into());
    assert_eq!(q.get().await, None);
}

#[tokio::test(start_paused = true)]
async fn shut_down_ends_a_drain_wait() {
    let q = WorkQueue::<String>::new();
    q.add("a".into());
    let _a = q.get().await.unwrap();
    let drain = tokio::spawn({
        let q = q.clone();
        async move { q.shut_down_with_drain().await }
    });
    tokio::time::sleep(Duration::from_secs(1)).await;
    assert!(!drain.is_finished());
    q.shut_down();
    drain.await.unwrap();
}

#[tokio::test(start_paused = true)]
async fn a_dropped_get_loses_no_wakeup() {
    let q = WorkQueue::<String>::new();
    let dropped = tokio::spawn({
        let q = q.clone();
        async move { q.get().await }
    });
    let kept = tokio::spawn({
        let q = q.clone();
        async move { q.get().await }
    });
    tokio::task::yield_now().await;
    dropped.abort();
    q.add("a".into());
    assert_eq!(kept.await.unwrap().as_deref(), Some("a"));
    q.add("b".into());
    assert_eq!(
        timeout(Duration::from_secs(1), q.get())
            .await
            .unwrap()
            .as_deref(),
        Some("b")
    );
}

#[tokio::test(start_paused = true)]
async fn metrics_render_as_prometheus_text() {
    let q = WorkQueue::with_config(Config::default().name("foos"));
    q.add("a".to_owned());
    tokio::time::advance(2 * MS).await;
    let a = q.get().await.unwrap();
    tokio::time::advance(30 * MS).await;
    let before = render_prometheus(&[q.stats()]);
    q.done(&a);
    q.add_rate_limited(a);
    let after = render_prometheus(&[q.stats()]);
    assert!(
        before.contains("workqueue_unfinished_work_seconds{name=\"foos\"} 0.03\n"),
        "{before}"
    );
    assert!(before.contains("workqueue_longest_running_processor_seconds{name=\"foos\"} 0.03\n"));
    assert!(
        before.contains("workqueue_queue_duration_seconds_bucket{name=\"foos\",le=\"1e-2\"} 1\n")
    );
    assert!(
        before.contains("workqueue_queue_duration_seconds_bucket{name=\"foos\",le=\"1e-3\"} 0\n")
    );
    assert!(
        after.contains("workqueue_adds_total{name=\"foos\"} 1\n"),
        "{after}"
    );
    assert!(after.contains("workqueue_retries_total{name=\"foos\"} 1\n"));
    assert!(after.contains("workqueue_depth{name=\"foos\"} 0\n"));
    assert!(after.contains("workqueue_work_duration_seconds_sum{name=\"foos\"} 0.03\n"));
    assert!(after.contains("workqueue_unfinished_work_seconds{name=\"foos\"} 0\n"));
}
