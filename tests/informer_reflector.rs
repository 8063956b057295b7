//! The reflector's request sequence over real loopback HTTP with the real client, against a
//! scripted server: paged first list at resourceVersion "0", watch from the list's
//! resourceVersion with bookmarks and a randomised timeout, re-watch after a clean close,
//! relist from the last resourceVersion after a 410 (then from "" when that is gone too),
//! `FinalStateUnknown` for objects deleted meanwhile, and terminal list errors.

use scripted_server as support;

use std::sync::{Arc, Mutex};
use std::time::Duration;

use futures_util::StreamExt;
use informer_runtime::client::Config;
use informer_runtime::{
    new_informer, typed, Client, Deleted, Event, Indexers, InformerOptions,
    ResourceEventHandlerFuncs, SharedIndexInformer,
};
use k8s_openapi::api::core::v1::Pod;
use support::{status, Reply, Seen, Server};
use test_apiserver::eventually;
use tokio_util::sync::CancellationToken;

fn param(seen: &Seen, name: &str) -> Option<String> {
    seen.query.split('&').find_map(|kv| {
        let (k, v) = kv.split_once('=')?;
        (k == name).then(|| v.to_owned())
    })
}

fn pod(name: &str, rv: &str) -> String {
    format!(r#"{{"metadata":{{"name":"{name}","namespace":"team","resourceVersion":"{rv}"}}}}"#)
}

fn list(items: &[(&str, &str)], rv: &str, cont: Option<&str>) -> String {
    let items: Vec<String> = items.iter().map(|(n, r)| pod(n, r)).collect();
    let cont = cont
        .map(|c| format!(r#","continue":"{c}""#))
        .unwrap_or_default();
    format!(
        r#"{{"kind":"PodList","apiVersion":"v1","metadata":{{"resourceVersion":"{rv}"{cont}}},"items":[{}]}}"#,
        items.join(",")
    )
}

fn event(kind: &str, name: &str, rv: &str) -> Vec<u8> {
    format!(
        "{{\"type\":\"{kind}\",\"object\":{{\"kind\":\"Pod\",\"apiVersion\":\"v1\",\"metadata\":{{\"name\":\"{name}\",\"namespace\":\"team\",\"resourceVersion\":\"{rv}\"}}}}}}\n"
    )
    .into_bytes()
}

fn bookmark(rv: &str) -> Vec<u8> {
    format!("{{\"type\":\"BOOKMARK\",\"object\":{{\"kind\":\"Pod\",\"apiVersion\":\"v1\",\"metadata\":{{\"resourceVersion\":\"{rv}\"}}}}}}\n").into_bytes()
}

fn informer(server: &Server) -> SharedIndexInformer<Pod> {
    informer_with(server, |o| o)
}

fn informer_with(
    server: &Server,
    configure: impl FnOnce(InformerOptions<Pod>) -> InformerOptions<Pod>,
) -> SharedIndexInformer<Pod> {
    let client = Client::new(Config::new(&server.url)).unwrap();
    let options = InformerOptions::default().indexers(Indexers::namespace());
    new_informer(&client, &typed::<Pod>(), None, configure(options))
}

type Log = Arc<Mutex<Vec<String>>>;

/// (is a watch, resourceVersion, limit, continue) of one request.
type RequestShape = (bool, Option<String>, Option<String>, Option<String>);

fn recording_handler(log: &Log) -> ResourceEventHandlerFuncs<Pod> {
    let (a, u, d) = (log.clone(), log.clone(), log.clone());
    let name = |p: &Pod| {
        format!(
            "{}@{}",
            p.metadata.name.clone().unwrap_or_default(),
            p.metadata.resource_version.clone().unwrap_or_default()
        )
    };
    ResourceEventHandlerFuncs::default()
        .on_add(move |p, initial| a.lock().unwrap().push(format!("add {} {initial}", name(p))))
        .on_update(move |o, n| {
            u.lock()
                .unwrap()
                .push(format!("update {} {}", name(o), name(n)))
        })
        .on_delete(move |gone| {
            let line = match gone {
                Deleted::Object(p) => format!("delete {}", name(p)),
                Deleted::FinalStateUnknown { key, last_known } => {
                    format!("unknown {key} {}", name(last_known))
                }
                Deleted::LeftShard { key, last_known } => {
                    format!("left {key} {}", name(last_known))
                }
                other => format!("unknown {} {}", other.key(), name(other.object())),
            };
            d.lock().unwrap().push(line);
        })
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn pages_watch_rewatch_and_410_relist_from_last_resource_version() {
    let watches = Arc::new(Mutex::new(0u32));
    let w = watches.clone();
    let server = Server::start(None, move |seen| {
        let rv = param(seen, "resourceVersion");
        if param(seen, "watch").is_none() {
            return match (rv.as_deref(), param(seen, "continue").as_deref()) {
                (Some("0"), None) => Reply::json(200, list(&[("a", "5"), ("b", "6")], "10", Some("c1"))),
                (None, Some("c1")) => Reply::json(200, list(&[("c", "7")], "10", None)),
                (Some("12"), None) => Reply::json(410, status(410, "Expired", "too old resource version: 12")),
                (None, None) => Reply::json(200, list(&[("a", "12"), ("d", "11")], "20", None)),
                _ => Reply::json(500, status(500, "InternalError", "unexpected list")),
            };
        }
        let mut n = w.lock().unwrap();
        *n += 1;
        match (*n, rv.as_deref()) {
            (1, Some("10")) => Reply::chunks(200, vec![event("ADDED", "d", "11"), event("MODIFIED", "a", "12")]),
            (2, Some("12")) => Reply::chunks(
                200,
                vec![b"{\"type\":\"ERROR\",\"object\":{\"kind\":\"Status\",\"apiVersion\":\"v1\",\"status\":\"Failure\",\"message\":\"too old resource version: 12 (15)\",\"reason\":\"Expired\",\"code\":410}}\n".to_vec()],
            ),
            (3, Some("20")) => {
                let mut r = Reply::chunks(200, vec![bookmark("21"), bookmark("22")]);
                r.pause = Duration::from_millis(200);
                r
            }
            _ => Reply::json(500, status(500, "InternalError", "unexpected watch")),
        }
    })
    .await;
    let inf = informer(&server);
    let log: Log = Arc::default();
    inf.add_event_handler(recording_handler(&log));
    let cancel = CancellationToken::new();
    let task = tokio::spawn(inf.run(cancel.clone()));

    eventually("the final watch", || *watches.lock().unwrap() >= 3).await;
    eventually("the relist's deletions", || log.lock().unwrap().len() >= 7).await;
    assert!(inf.has_synced());
    let mut keys = inf.indexer().list_keys();
    keys.sort();
    assert_eq!(keys, vec!["team/a", "team/d"]);
    assert_eq!(
        *log.lock().unwrap(),
        vec![
            "add a@5 true",
            "add b@6 true",
            "add c@7 true",
            "add d@11 false",
            "update a@5 a@12",
            "unknown team/b b@6",
            "unknown team/c c@7",
        ]
    );

    let seen: Vec<RequestShape> = server
        .seen()
        .iter()
        .map(|s| {
            (
                param(s, "watch").is_some(),
                param(s, "resourceVersion"),
                param(s, "limit"),
                param(s, "continue"),
            )
        })
        .collect();
    let s = |b: bool, rv: Option<&str>, limit: Option<&str>, cont: Option<&str>| {
        (
            b,
            rv.map(str::to_owned),
            limit.map(str::to_owned),
            cont.map(str::to_owned),
        )
    };
    assert_eq!(
        seen[..7],
        [
            s(false, Some("0"), Some("500"), None),
            s(false, None, Some("500"), Some("c1")),
            s(true, Some("10"), None, None),
            s(true, Some("12"), None, None),
            s(false, Some("12"), Some("500"), None),
            s(false, None, Some("500"), None),
            s(true, Some("20"), None, None),
        ]
    );
    for w in server.seen().iter().filter(|s| param(s, "watch").is_some()) {
        assert_eq!(param(w, "allowWatchBookmarks").as_deref(), Some("true"));
        let t: i64 = param(w, "timeoutSeconds").unwrap().parse().unwrap();
        assert!((300..600).contains(&t), "timeoutSeconds {t}");
    }
    eventually("the bookmark's resourceVersion", || {
        inf.last_sync_resource_version() == "22"
    })
    .await;
    let stats = inf.stats();
    assert_eq!(
        (stats.lists, stats.relists, stats.expired_relists),
        (2, 1, 1)
    );
    assert_eq!(stats.list_pages, 3);
    cancel.cancel();
    tokio::time::timeout(Duration::from_secs(30), task)
        .await
        .expect("informer did not stop")
        .unwrap();
    assert!(inf.is_stopped());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn streaming_list_syncs_from_initial_events_and_falls_back_when_unsupported() {
    // A server that streams: initial ADDED events, then the initial-events-end bookmark.
    let server = Server::start(None, move |seen| {
        if param(seen, "sendInitialEvents").as_deref() == Some("true")
            && param(seen, "resourceVersionMatch").as_deref() == Some("NotOlderThan")
        {
            let mut end = bookmark("30");
            let text = String::from_utf8(end.clone()).unwrap().replace(
                "\"metadata\":{",
                "\"metadata\":{\"annotations\":{\"k8s.io/initial-events-end\":\"true\"},",
            );
            end = text.into_bytes();
            let mut r = Reply::chunks(
                200,
                vec![event("ADDED", "a", "28"), event("ADDED", "b", "29"), end],
            );
            r.pause = Duration::from_millis(50);
            return r;
        }
        Reply::json(500, status(500, "InternalError", "unexpected request"))
    })
    .await;
    let inf = informer_with(&server, |o| o.streaming_list(true));
    let log: Log = Arc::default();
    inf.add_event_handler(recording_handler(&log));
    let cancel = CancellationToken::new();
    let task = tokio::spawn(inf.run(cancel.clone()));
    tokio::time::timeout(Duration::from_secs(30), inf.wait_for_sync())
        .await
        .expect("no sync")
        .unwrap();
    assert_eq!(*log.lock().unwrap(), vec!["add a@28 true", "add b@29 true"]);
    assert_eq!(inf.last_sync_resource_version(), "30");
    assert!(server.seen().iter().all(|s| param(s, "watch").is_some()));
    cancel.cancel();
    task.await.unwrap();

    // A server that rejects sendInitialEvents: the informer lists and watches instead.
    let server = Server::start(None, move |seen| {
        if param(seen, "sendInitialEvents").is_some() {
            return Reply::json(
                400,
                status(400, "BadRequest", "sendInitialEvents is not supported"),
            );
        }
        if param(seen, "watch").is_none() {
            return Reply::json(200, list(&[("a", "3")], "4", None));
        }
        let mut r = Reply::chunks(200, vec![bookmark("4"), event("ADDED", "z", "5")]);
        r.pause = Duration::from_millis(50);
        r
    })
    .await;
    let errors = Arc::new(Mutex::new(Vec::new()));
    let e2 = errors.clone();
    let inf = informer_with(&server, |o| {
        o.streaming_list(true)
            .watch_error_handler(move |e| e2.lock().unwrap().push(e.to_string()))
    });
    let cancel = CancellationToken::new();
    let task = tokio::spawn(inf.run(cancel.clone()));
    tokio::time::timeout(Duration::from_secs(30), inf.wait_for_sync())
        .await
        .expect("no sync")
        .unwrap();
    eventually("the watched object", || {
        inf.indexer().get_by_key("team/z").is_some()
    })
    .await;
    assert!(inf.indexer().get_by_key("team/a").is_some());
    // The fallback is expected: no error counted, none reported, none recorded.
    assert_eq!(inf.stats().errors, 0);
    assert!(errors.lock().unwrap().is_empty(), "{errors:?}");
    assert!(inf.last_failure().is_none());
    // Falling back is for good: one streaming attempt, then lists and watches only.
    let streaming = server
        .seen()
        .iter()
        .filter(|s| param(s, "sendInitialEvents").is_some())
        .count();
    assert_eq!(streaming, 1);
    cancel.cancel();
    task.await.unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn streaming_list_refused_as_invalid_falls_back_without_an_error() {
    // What a kube-apiserver without the WatchList feature answers.
    let server = Server::start(None, move |seen| {
        if param(seen, "sendInitialEvents").is_some() {
            return Reply::json(
                422,
                status(
                    422,
                    "Invalid",
                    "sendInitialEvents: Forbidden: sendInitialEvents is forbidden for watch unless the WatchList feature gate is enabled",
                ),
            );
        }
        if param(seen, "watch").is_none() {
            return Reply::json(200, list(&[("a", "3")], "4", None));
        }
        let mut r = Reply::chunks(200, vec![bookmark("4")]);
        r.pause = Duration::from_secs(5);
        r
    })
    .await;
    let inf = informer_with(&server, |o| o.streaming_list(true));
    let cancel = CancellationToken::new();
    let task = tokio::spawn(inf.run(cancel.clone()));
    tokio::time::timeout(Duration::from_secs(30), inf.wait_for_sync())
        .await
        .expect("no sync")
        .unwrap();
    assert!(inf.indexer().get_by_key("team/a").is_some());
    let stats = inf.stats();
    assert_eq!((stats.errors, stats.lists), (0, 1), "{stats:?}");
    assert!(inf.last_failure().is_none());
    cancel.cancel();
    task.await.unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn throttled_list_is_retried_and_errors_reach_the_watch_error_handler() {
    let lists = Arc::new(Mutex::new(0u32));
    let l = lists.clone();
    let server = Server::start(None, move |seen| {
        if param(seen, "watch").is_none() {
            let mut n = l.lock().unwrap();
            *n += 1;
            if *n == 1 {
                return Reply::json(429, status(429, "TooManyRequests", "slow down"))
                    .header("retry-after", "1");
            }
            return Reply::json(200, list(&[("a", "3")], "4", None));
        }
        let mut r = Reply::chunks(200, vec![bookmark("4")]);
        r.pause = Duration::from_secs(5);
        r
    })
    .await;
    let errors = Arc::new(Mutex::new(Vec::new()));
    let e2 = errors.clone();
    let inf = informer_with(&server, |o| {
        o.watch_error_handler(move |e| e2.lock().unwrap().push(e.status_code()))
    });
    let cancel = CancellationToken::new();
    let task = tokio::spawn(inf.run(cancel.clone()));
    tokio::time::timeout(Duration::from_secs(30), inf.wait_for_sync())
        .await
        .expect("no sync")
        .unwrap();
    assert_eq!(*errors.lock().unwrap(), vec![Some(429)]);
    assert_eq!(*lists.lock().unwrap(), 2);
    assert!(inf.list_failure().is_none());
    cancel.cancel();
    task.await.unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn forbidden_list_fails_wait_for_sync_with_the_reason() {
    let server = Server::start(None, |_| {
        Reply::json(
            403,
            status(
                403,
                "Forbidden",
                "pods is forbidden: User \"x\" cannot list resource \"pods\"",
            ),
        )
    })
    .await;
    let inf = informer(&server);
    let cancel = CancellationToken::new();
    let task = tokio::spawn(inf.run(cancel.clone()));
    let err = tokio::time::timeout(Duration::from_secs(30), inf.wait_for_sync())
        .await
        .expect("wait_for_sync hung")
        .unwrap_err()
        .to_string();
    assert!(err.contains("403") && err.contains("forbidden"), "{err}");
    let failure = inf.list_failure().unwrap();
    assert_eq!(failure.code, Some(403));
    assert!(failure.terminal);
    assert!(!inf.has_synced());
    cancel.cancel();
    task.await.unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn late_handlers_get_the_contents_and_resync_redelivers_them() {
    let server = Server::start(None, move |seen| {
        if param(seen, "watch").is_none() {
            return Reply::json(200, list(&[("a", "3"), ("b", "4")], "4", None));
        }
        let mut r = Reply::chunks(200, vec![bookmark("4"), bookmark("4")]);
        r.pause = Duration::from_secs(5);
        r
    })
    .await;
    let inf = informer(&server);
    let cancel = CancellationToken::new();
    let task = tokio::spawn(inf.run(cancel.clone()));
    tokio::time::timeout(Duration::from_secs(30), inf.wait_for_sync())
        .await
        .expect("no sync")
        .unwrap();
    let log: Log = Arc::default();
    let reg =
        inf.add_event_handler_with_resync_period(recording_handler(&log), Duration::from_secs(1));
    eventually("the late handler's sync", || reg.has_synced()).await;
    let mut initial = log.lock().unwrap().clone();
    initial.sort();
    assert_eq!(initial, vec!["add a@3 true", "add b@4 true"]);
    eventually("a resync", || log.lock().unwrap().len() >= 4).await;
    let mut resync: Vec<String> = log.lock().unwrap()[2..4].to_vec();
    resync.sort();
    assert_eq!(resync, vec!["update a@3 a@3", "update b@4 b@4"]);
    reg.remove();
    assert!(reg.is_removed());

    let (stream_reg, mut events) = inf.stream();
    let mut names = Vec::new();
    for _ in 0..2 {
        let e = tokio::time::timeout(Duration::from_secs(30), events.next())
            .await
            .expect("stream hung")
            .unwrap();
        match e {
            Event::Added {
                obj,
                in_initial_list,
            } => {
                assert!(in_initial_list);
                names.push(obj.metadata.name.clone().unwrap());
            }
            other => panic!("unexpected {other:?}"),
        }
    }
    names.sort();
    assert_eq!(names, vec!["a", "b"]);
    assert!(stream_reg.has_synced());
    let stats = inf.stats();
    assert_eq!(stats.cached_objects, 2);
    cancel.cancel();
    task.await.unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_watch_line_that_does_not_decode_relists_instead_of_replaying_it() {
    // A deterministic server: every watch from before resourceVersion 7 replays the same
    // broken line after b's ADDED event.
    let server = Server::start(None, move |seen| {
        let rv = param(seen, "resourceVersion");
        if param(seen, "watch").is_none() {
            return match rv.as_deref() {
                Some("0") => Reply::json(200, list(&[("a", "3")], "4", None)),
                Some("5") => {
                    Reply::json(200, list(&[("a", "3"), ("b", "5"), ("c", "6")], "7", None))
                }
                _ => Reply::json(500, status(500, "InternalError", "unexpected list")),
            };
        }
        match rv.as_deref() {
            Some("7") => {
                let mut r = Reply::chunks(200, vec![bookmark("7")]);
                r.pause = Duration::from_secs(5);
                r
            }
            _ => Reply::chunks(
                200,
                vec![
                    event("ADDED", "b", "5"),
                    b"{\"type\":\"MODIFIED\",\"object\":{\"kind\": this is not JSON\n".to_vec(),
                ],
            ),
        }
    })
    .await;
    let inf = informer(&server);
    let cancel = CancellationToken::new();
    let task = tokio::spawn(inf.run(cancel.clone()));
    eventually("the object listed after the broken line", || {
        inf.indexer().get_by_key("team/c").is_some()
    })
    .await;
    let watches_from = |rv: &str| {
        server
            .seen()
            .iter()
            .filter(|s| {
                param(s, "watch").is_some() && param(s, "resourceVersion").as_deref() == Some(rv)
            })
            .count()
    };
    // One watch met the broken line; the next request was the relist, not a re-watch.
    assert_eq!((watches_from("4"), watches_from("5")), (1, 0));
    let stats = inf.stats();
    assert_eq!(
        (stats.lists, stats.relists, stats.expired_relists),
        (2, 1, 0)
    );
    assert_eq!(stats.errors, 1, "{stats:?}");
    let failure = inf.last_failure().expect("the decode error is recorded");
    assert!(failure.error.to_string().contains("decode"), "{failure:?}");
    cancel.cancel();
    task.await.unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_streaming_list_refused_with_410_when_opened_is_an_expired_relist_not_an_error() {
    let end_bookmark = |rv: &str| {
        String::from_utf8(bookmark(rv))
            .unwrap()
            .replace(
                "\"metadata\":{",
                "\"metadata\":{\"annotations\":{\"k8s.io/initial-events-end\":\"true\"},",
            )
            .into_bytes()
    };
    let streams = Arc::new(Mutex::new(0u32));
    let server = Server::start(None, move |seen| {
        let streaming = param(seen, "sendInitialEvents").as_deref() == Some("true");
        match (streaming, param(seen, "resourceVersion").as_deref()) {
            (true, Some("")) => {
                let mut n = streams.lock().unwrap();
                *n += 1;
                if *n == 1 {
                    // The first streaming list, then a clean close.
                    return Reply::chunks(200, vec![event("ADDED", "a", "28"), end_bookmark("30")]);
                }
                let mut r = Reply::chunks(
                    200,
                    vec![
                        event("ADDED", "a", "31"),
                        event("ADDED", "b", "32"),
                        end_bookmark("33"),
                    ],
                );
                r.pause = Duration::from_secs(5);
                r
            }
            // The re-watch, then the streaming relist from its resourceVersion: both get a
            // 410 when they are opened.
            (_, Some("30")) => Reply::json(
                410,
                status(410, "Expired", "too old resource version: 30 (31)"),
            ),
            _ => Reply::json(500, status(500, "InternalError", "unexpected request")),
        }
    })
    .await;
    let errors = Arc::new(Mutex::new(Vec::new()));
    let e2 = errors.clone();
    let inf = informer_with(&server, |o| {
        o.streaming_list(true)
            .watch_error_handler(move |e| e2.lock().unwrap().push(e.to_string()))
    });
    let cancel = CancellationToken::new();
    let task = tokio::spawn(inf.run(cancel.clone()));
    eventually("the second streaming list", || {
        inf.last_sync_resource_version() == "33"
    })
    .await;
    let mut keys = inf.indexer().list_keys();
    keys.sort();
    assert_eq!(keys, vec!["team/a", "team/b"]);
    let shapes: Vec<(bool, Option<String>)> = server
        .seen()
        .iter()
        .map(|s| {
            (
                param(s, "sendInitialEvents").is_some(),
                param(s, "resourceVersion"),
            )
        })
        .collect();
    let rv = |s: &str| Some(s.to_owned());
    assert_eq!(
        shapes,
        [
            (true, rv("")),
            (false, rv("30")),
            (true, rv("30")),
            (true, rv(""))
        ]
    );
    let stats = inf.stats();
    // One relist, caused by the first 410; the second restarts it from the current state,
    // as a paged list does. Neither is an error, and streaming goes on.
    assert_eq!(
        (
            stats.errors,
            stats.expired_relists,
            stats.streaming_list_fallbacks
        ),
        (0, 1, 0),
        "{stats:?}"
    );
    assert_eq!((stats.lists, stats.relists), (2, 1), "{stats:?}");
    assert!(errors.lock().unwrap().is_empty(), "{errors:?}");
    assert!(inf.last_failure().is_none());
    cancel.cancel();
    task.await.unwrap();
}
