//! The event recorder against the test API server: `events.k8s.io/v1` with series, the
//! fallback to core `v1`, the spam filter, a full queue, and a server that refuses Events
//! while a controller records them on every reconcile.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::Duration;

use informer_controller::events::{
    reference, EventRecorder, EventType, EventsApi, RecorderConfig, Reporter,
};
use informer_controller::{Action, Controller, WorkQueue};
use informer_runtime::client::{AuthConfig, Config};
use informer_runtime::Client;
use k8s_openapi::api::core::v1::{ConfigMap, ObjectReference};
use serde_json::{json, Value};
use test_apiserver::{FaultTarget, ResourceSpec, TestApiServer};
use tokio_util::sync::CancellationToken;

fn events_v1() -> ResourceSpec {
    ResourceSpec::new("events.k8s.io", "v1", "Event", "events", true)
}

fn core_events() -> ResourceSpec {
    ResourceSpec::new("", "v1", "Event", "events", true)
}

async fn server(specs: Vec<ResourceSpec>) -> test_apiserver::RunningServer {
    let mut builder = TestApiServer::builder().namespaces(["shop"]);
    for spec in specs {
        builder = builder.resource(spec);
    }
    builder.start().await.unwrap()
}

fn config() -> RecorderConfig {
    RecorderConfig {
        retry_pause: Duration::from_millis(20),
        ..RecorderConfig::default()
    }
}

fn recorder(client: Client, config: RecorderConfig) -> (EventRecorder, CancellationToken) {
    let cancel = CancellationToken::new();
    let recorder = EventRecorder::new(
        client,
        Reporter::new("example.com/sample-controller", "replica-1"),
        config,
        cancel.clone(),
    )
    .unwrap();
    (recorder, cancel)
}

fn config_map(server: &test_apiserver::RunningServer, name: &str) -> ConfigMap {
    let created = server
        .create(
            "configmaps",
            Some("shop"),
            json!({"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": name}}),
        )
        .unwrap();
    serde_json::from_value(created).unwrap()
}

fn with_reason<'a>(events: &'a [Value], reason: &str) -> Vec<&'a Value> {
    events.iter().filter(|e| e["reason"] == reason).collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn events_go_to_events_k8s_io_v1_and_repetitions_become_one_series() {
    let server = server(vec![events_v1(), core_events()]).await;
    let web = config_map(&server, "web");
    let db = config_map(&server, "db");
    let client = Client::new(Config::new(server.url())).unwrap();
    let (recorder, cancel) = recorder(client, config());
    let regarding = reference(&web);
    for _ in 0..5 {
        recorder.publish(
            &regarding,
            None,
            EventType::Normal,
            "Synced",
            "Sync",
            "Foo synced successfully",
        );
    }
    recorder.publish(
        &regarding,
        Some(&reference(&db)),
        EventType::Warning,
        "ErrResourceExists",
        "Sync",
        &"x".repeat(2000),
    );
    recorder.flush().await;

    let events = server.list("events.events.k8s.io", Some("shop")).unwrap();
    assert_eq!(events.len(), 2, "{events:#?}");
    let synced = with_reason(&events, "Synced");
    let synced = synced.first().expect("the Synced event");
    assert_eq!(synced["series"]["count"], 5, "{synced:#}");
    assert!(synced["series"]["lastObservedTime"].is_string());
    assert_eq!(synced["type"], "Normal");
    assert_eq!(synced["action"], "Sync");
    assert_eq!(synced["note"], "Foo synced successfully");
    assert_eq!(
        synced["reportingController"],
        "example.com/sample-controller"
    );
    assert_eq!(synced["reportingInstance"], "replica-1");
    assert_eq!(synced["regarding"]["kind"], "ConfigMap");
    assert_eq!(synced["regarding"]["name"], "web");
    assert_eq!(synced["regarding"]["uid"], json!(web.metadata.uid));
    assert!(synced["eventTime"].is_string());
    assert!(synced["metadata"]["name"]
        .as_str()
        .unwrap_or_default()
        .starts_with("web."));

    let warning = with_reason(&events, "ErrResourceExists");
    let warning = warning.first().expect("the warning");
    assert_eq!(warning["type"], "Warning");
    assert_eq!(warning["related"]["name"], "db");
    assert_eq!(
        warning["note"].as_str().map(str::len),
        Some(1024),
        "cut to the API's limit"
    );
    assert!(warning.get("series").is_none_or(Value::is_null));

    assert!(
        server.list("events", Some("shop")).unwrap().is_empty(),
        "nothing in core v1"
    );
    assert_eq!(recorder.api(), Some(EventsApi::EventsV1));
    let stats = recorder.stats();
    assert_eq!(
        (stats.published, stats.aggregated, stats.dropped),
        (6, 4, 0)
    );
    assert_eq!((stats.rejected, stats.abandoned), (0, 0));
    cancel.cancel();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn without_events_k8s_io_v1_events_go_to_core_v1() {
    let server = server(vec![core_events()]).await;
    let web = config_map(&server, "web");
    let client = Client::new(Config::new(server.url())).unwrap();
    let (recorder, cancel) = recorder(client, config());
    for _ in 0..3 {
        recorder.publish(
            &reference(&web),
            None,
            EventType::Normal,
            "Synced",
            "Sync",
            "Foo synced successfully",
        );
    }
    recorder.flush().await;

    let events = server.list("events", Some("shop")).unwrap();
    assert_eq!(events.len(), 1, "{events:#?}");
    let e = &events[0];
    assert_eq!(e["involvedObject"]["name"], "web");
    assert_eq!(e["message"], "Foo synced successfully");
    assert_eq!(e["reason"], "Synced");
    assert_eq!(e["action"], "Sync");
    assert_eq!(e["reportingComponent"], "example.com/sample-controller");
    assert_eq!(e["reportingInstance"], "replica-1");
    assert_eq!(e["series"]["count"], 3);
    assert_eq!(recorder.api(), Some(EventsApi::CoreV1));
    cancel.cancel();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_spam_filter_holds_back_an_objects_26th_write_but_never_a_series_count() {
    let server = server(vec![events_v1()]).await;
    let web = config_map(&server, "web");
    let client = Client::new(Config::new(server.url())).unwrap();
    let (recorder, cancel) = recorder(client, config());
    for i in 0..24 {
        recorder.publish(
            &reference(&web),
            None,
            EventType::Normal,
            &format!("Reason{i}"),
            "Sync",
            "n",
        );
    }
    // Starting a series is a write (the 25th); counting on in it costs none.
    for _ in 0..3 {
        recorder.publish(
            &reference(&web),
            None,
            EventType::Normal,
            "Reason0",
            "Sync",
            "n",
        );
    }
    recorder.publish(
        &reference(&web),
        None,
        EventType::Normal,
        "Late",
        "Sync",
        "n",
    );
    recorder.flush().await;
    let stats = recorder.stats();
    assert_eq!((stats.filtered, stats.aggregated), (1, 3), "{stats:?}");
    let events = server.list("events.events.k8s.io", Some("shop")).unwrap();
    assert_eq!(events.len(), 24);
    assert!(with_reason(&events, "Late").is_empty());
    assert_eq!(with_reason(&events, "Reason0")[0]["series"]["count"], 4);
    cancel.cancel();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_full_queue_drops_and_counts_instead_of_blocking() {
    let server = server(vec![events_v1()]).await;
    // Writes hang for a while, so the queues fill up.
    server.faults().stall_next(
        1000,
        Duration::from_secs(2),
        FaultTarget::resource("events.events.k8s.io").verb("create"),
    );
    let client = Client::new(Config::new(server.url())).unwrap();
    let config = RecorderConfig {
        queue_capacity: 4,
        workers: 2,
        ..config()
    };
    let (recorder, cancel) = recorder(client, config);
    for i in 0..200 {
        let regarding = ObjectReference {
            kind: Some("ConfigMap".into()),
            namespace: Some("shop".into()),
            name: Some(format!("cm-{i}")),
            ..ObjectReference::default()
        };
        recorder.publish(&regarding, None, EventType::Normal, "Synced", "Sync", "n");
    }
    // Every call returned while the writes hang; what did not fit was dropped, counted
    // either at `publish` or when handed to a full writer queue.
    let stats = recorder.stats();
    let dropped_at_publish = 200 - stats.published;
    assert!(stats.dropped >= dropped_at_publish, "{stats:?}");
    assert!(
        stats.dropped > 150,
        "at most the queues' room went through: {stats:?}"
    );
    cancel.cancel();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_server_that_forbids_events_never_blocks_or_fails_the_controller() {
    let server = TestApiServer::builder()
        .namespaces(["shop"])
        .resource(events_v1())
        .resource(core_events())
        .token_with_access("t", &["configmaps"])
        .start()
        .await
        .unwrap();
    let mut config = Config::new(server.url());
    config.auth = AuthConfig::Token("t".into());
    let client = Client::new(config).unwrap();
    let (recorder, cancel_recorder) = recorder(client, self::config());

    let queue = WorkQueue::<String>::new();
    for i in 0..50 {
        queue.add(format!("cm-{i}"));
    }
    let reconciled = Arc::new(AtomicUsize::new(0));
    let cancel = CancellationToken::new();
    let run = {
        let (recorder, reconciled) = (recorder.clone(), reconciled.clone());
        Controller::new(queue.clone(), move |key: String| {
            let regarding = ObjectReference {
                kind: Some("ConfigMap".into()),
                namespace: Some("shop".into()),
                name: Some(key),
                ..ObjectReference::default()
            };
            recorder.publish(
                &regarding,
                None,
                EventType::Normal,
                "Synced",
                "Sync",
                "synced",
            );
            reconciled.fetch_add(1, Ordering::SeqCst);
            async { Ok::<_, String>(Action::Done) }
        })
        .workers(4)
        .run(cancel.clone())
    };
    let task = tokio::spawn(run);
    let deadline = tokio::time::Instant::now() + Duration::from_secs(60);
    while reconciled.load(Ordering::SeqCst) < 50 {
        assert!(
            tokio::time::Instant::now() < deadline,
            "the controller stalled"
        );
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    recorder.flush().await;
    cancel.cancel();
    task.await.unwrap().unwrap();

    let stats = recorder.stats();
    assert_eq!(stats.written, 0, "{stats:?}");
    assert_eq!(
        stats.rejected, 50,
        "each refusal is final, as client-go's: {stats:?}"
    );
    assert_eq!(stats.abandoned, 0, "a 403 is not retried: {stats:?}");
    cancel_recorder.cancel();
}
