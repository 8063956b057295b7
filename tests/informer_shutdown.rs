//! `factory.shutdown()` with a list stalled between two pages, handlers in the middle of
//! slow callbacks, and informers backing off from 500s and 429s: it returns promptly, no
//! callback runs after it, every handler thread has ended, the server has no watch left
//! open, and once the factory and client are dropped the runtime has exactly the tasks it
//! had before. The server runs on a runtime of its own, so the count is the client's alone.

use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use informer_runtime::client::Config;
use informer_runtime::handler::HandlerOptions;
use informer_runtime::{Client, InformerFactory, ResourceEventHandlerFuncs};
use informers::SharedInformerFactory;
use k8s_openapi::api::core::v1::ConfigMap;
use serde_json::json;
use test_apiserver::{eventually, FaultTarget, TestApiServer};

/// Threads named like the runtime's handler threads (`informer-handler-N`, cut to the 15
/// bytes Linux keeps).
fn handler_threads() -> usize {
    let Ok(tasks) = std::fs::read_dir("/proc/self/task") else {
        return 0;
    };
    tasks
        .filter_map(|t| std::fs::read_to_string(t.ok()?.path().join("comm")).ok())
        .filter(|name| name.starts_with("informer-handle"))
        .count()
}

/// A handler whose callbacks take `cost`, recording whether one is running and how many ran.
#[derive(Clone, Default)]
struct Slow {
    running: Arc<AtomicBool>,
    calls: Arc<AtomicUsize>,
}

impl Slow {
    fn handler(&self, cost: Duration) -> ResourceEventHandlerFuncs<ConfigMap> {
        let (running, calls) = (self.running.clone(), self.calls.clone());
        let (running2, calls2) = (self.running.clone(), self.calls.clone());
        ResourceEventHandlerFuncs::default()
            .on_add(move |_: &Arc<ConfigMap>, _| {
                running.store(true, Ordering::SeqCst);
                std::thread::sleep(cost);
                calls.fetch_add(1, Ordering::SeqCst);
                running.store(false, Ordering::SeqCst);
            })
            .on_update(move |_, _| {
                running2.store(true, Ordering::SeqCst);
                std::thread::sleep(cost);
                calls2.fetch_add(1, Ordering::SeqCst);
                running2.store(false, Ordering::SeqCst);
            })
    }
}

/// Config maps the slow handlers get as initial adds, 300 ms each: busy for 12 s.
const CONFIG_MAPS: usize = 40;

#[test]
fn shutdown_mid_page_mid_call_and_mid_backoff_returns_promptly_and_leaves_nothing() {
    let server_rt = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(1)
        .enable_all()
        .build()
        .unwrap();
    let server = server_rt
        .block_on(
            TestApiServer::builder()
                .namespaces(["a"])
                // Lists at resourceVersion 0 paginate, as without a watch cache.
                .rv0_ignores_limit(false)
                .seed_pods(1_200)
                .seed_namespaces(4)
                .start(),
        )
        .unwrap();
    for i in 0..CONFIG_MAPS {
        let cm = json!({"apiVersion": "v1", "kind": "ConfigMap",
                        "metadata": {"name": format!("c{i}"), "namespace": "a"}});
        server.create("configmaps", Some("a"), cm).unwrap();
    }
    let faults = server.faults();
    // Pods: the first page (of three) comes, the second stalls for a minute.
    let pod_lists = FaultTarget::resource("pods").verb("list");
    faults.stall_next(1, Duration::from_millis(1), pod_lists.clone());
    faults.stall_next(1, Duration::from_secs(60), pod_lists);
    // Secrets and services never list: 500s and 429s (Retry-After: 1), so they back off.
    faults.fail_next(u64::MAX, 500, FaultTarget::resource("secrets"));
    faults.fail_next(u64::MAX, 429, FaultTarget::resource("services"));

    let rt = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .unwrap();
    let url = server.url();
    let server = &server;
    rt.block_on(async move {
        let metrics = tokio::runtime::Handle::current().metrics();
        let tasks_before = metrics.num_alive_tasks();
        let threads_before = handler_threads();

        let client = Client::new(Config::new(url)).unwrap();
        let factory = SharedInformerFactory::builder(client.clone()).build();
        let pods = factory.core().v1().pods().informer();
        let config_maps = factory.core().v1().config_maps().informer();
        let secrets = factory.core().v1().secrets().informer();
        let services = factory.core().v1().services().informer();
        // A factory never started: its informer's handler thread must end too.
        let idle = SharedInformerFactory::builder(client.clone()).build();
        let never_started = idle.core().v1().nodes().informer();
        never_started.add_event_handler(ResourceEventHandlerFuncs::default());
        let (slow, slow_coalescing) = (Slow::default(), Slow::default());
        config_maps.add_event_handler(slow.handler(Duration::from_millis(300)));
        config_maps.add_event_handler_with(
            slow_coalescing.handler(Duration::from_millis(300)),
            HandlerOptions::coalescing(),
        );
        // A thread names itself once it runs.
        eventually("three handler threads", || {
            handler_threads() == threads_before + 3
        })
        .await;
        factory.start();

        eventually("a callback in flight", || {
            slow.running.load(Ordering::SeqCst) && slow_coalescing.running.load(Ordering::SeqCst)
        })
        .await;
        eventually("the second page of pods to be asked for", || {
            server.request_count("list", "pods") >= 2
        })
        .await;
        eventually("secrets and services to fail and back off", || {
            secrets.list_failure().is_some() && services.list_failure().is_some()
        })
        .await;
        eventually("the config map watch", || {
            server.open_watches("configmaps") > 0
        })
        .await;
        assert!(!pods.has_synced());

        let started = Instant::now();
        tokio::time::timeout(Duration::from_secs(10), factory.shutdown())
            .await
            .expect("shutdown did not return within 10 s");
        let took = started.elapsed();
        println!("shutdown took {took:?}");

        // No handler code runs once shutdown returned.
        assert!(!slow.running.load(Ordering::SeqCst));
        assert!(!slow_coalescing.running.load(Ordering::SeqCst));
        let calls = (
            slow.calls.load(Ordering::SeqCst),
            slow_coalescing.calls.load(Ordering::SeqCst),
        );
        assert!(calls.0 < CONFIG_MAPS && calls.1 < CONFIG_MAPS, "{calls:?}");
        assert!(pods.is_stopped() && secrets.is_stopped() && services.is_stopped());
        assert!(config_maps.is_stopped() && !never_started.is_stopped());
        tokio::time::timeout(Duration::from_secs(1), idle.shutdown())
            .await
            .expect("shutting down a factory never started returns at once");
        assert!(never_started.is_stopped());
        // A second call waits for the same end and returns at once.
        tokio::time::timeout(Duration::from_secs(1), factory.shutdown())
            .await
            .expect("a second shutdown returns at once");

        eventually("handler threads to exit", || {
            handler_threads() == threads_before
        })
        .await;
        eventually("the server to see the watch closed", || {
            server.open_watches("configmaps") == 0
        })
        .await;
        tokio::time::sleep(Duration::from_millis(400)).await;
        assert_eq!(
            (
                slow.calls.load(Ordering::SeqCst),
                slow_coalescing.calls.load(Ordering::SeqCst)
            ),
            calls,
            "a callback ran after shutdown"
        );

        // What is left is the client's connection pool; dropping the client ends it.
        drop((pods, config_maps, secrets, services, never_started));
        drop((factory, idle, client));
        eventually("the runtime to be back to its tasks before", || {
            metrics.num_alive_tasks() == tasks_before
        })
        .await;
    });
    rt.shutdown_timeout(Duration::from_secs(5));
    server_rt.shutdown_background();
}
