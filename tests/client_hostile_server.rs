//! The client against a hostile or broken server (issue 34): watch events, list items and
//! bodies over the client's limits, also when gzip inflates a small body past them;
//! redirects, which must not take a request (its body, credentials, impersonation) anywhere;
//! and a `Retry-After` of u64::MAX seconds, which must not stop an informer.

mod support;

use std::io::Write as _;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use futures_util::StreamExt;
use informer_runtime::api::{Api, PostParams};
use informer_runtime::client::{Config, Impersonate};
use informer_runtime::error::ErrorKind;
use informer_runtime::lister_watcher::{ListWatch, WatchEvent};
use informer_runtime::{Client, Error, Indexers, ListOptions, SharedIndexInformer};
use k8s_openapi::api::core::v1::{Pod, Secret};
use rustls::pki_types::pem::PemObject;
use rustls::pki_types::CertificateDer;
use support::{pod_list, Pki, Reply, Seen, Server};
use tokio_util::sync::CancellationToken;

/// client-go's limit on one watch event, this client's default for one event or list item.
const DEFAULT_OBJECT_LIMIT: usize = 16 << 20;

async fn within<F: std::future::Future>(f: F) -> F::Output {
    tokio::time::timeout(Duration::from_secs(60), f)
        .await
        .expect("test hung")
}

async fn eventually(what: &str, cond: impl Fn() -> bool) {
    let deadline = tokio::time::Instant::now() + Duration::from_secs(60);
    while !cond() {
        assert!(
            tokio::time::Instant::now() < deadline,
            "timed out waiting for {what}"
        );
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
}

fn param(seen: &Seen, name: &str) -> Option<String> {
    seen.query.split('&').find_map(|kv| {
        let (k, v) = kv.split_once('=')?;
        (k == name).then(|| v.to_owned())
    })
}

/// A Pod of `name` at `rv`, with an annotation of `padding` bytes.
fn pod_json(name: &str, rv: &str, padding: usize) -> String {
    format!(
        r#"{{"metadata":{{"name":"{name}","namespace":"team","resourceVersion":"{rv}","annotations":{{"pad":"{}"}}}}}}"#,
        "x".repeat(padding)
    )
}

/// A watch line of `kind` for `pod_json(name, rv, padding)`.
fn event(kind: &str, name: &str, rv: &str, padding: usize) -> Vec<u8> {
    format!(
        "{{\"type\":\"{kind}\",\"object\":{}}}\n",
        pod_json(name, rv, padding)
    )
    .into_bytes()
}

/// `bytes` in chunks of 1 MiB, as a server streams a large body.
fn mebibyte_chunks(bytes: &[u8]) -> Vec<Vec<u8>> {
    bytes.chunks(1 << 20).map(<[u8]>::to_vec).collect()
}

fn gzip(bytes: &[u8]) -> Vec<u8> {
    let mut encoder = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::best());
    encoder.write_all(bytes).unwrap();
    encoder.finish().unwrap()
}

/// A body streamed quickly, `content-encoding: gzip` when `gzipped`.
fn fast(mut reply: Reply, gzipped: bool) -> Reply {
    reply.pause = Duration::from_millis(1);
    if gzipped {
        reply = reply.header("content-encoding", "gzip");
    }
    reply
}

fn assert_too_large(e: &Error, names: &[&str]) {
    assert_eq!(e.kind(), Some(ErrorKind::TooLarge), "{e}");
    let text = e.to_string();
    for name in names {
        assert!(text.contains(name), "{name:?} missing from: {text}");
    }
}

fn watch_options() -> ListOptions {
    ListOptions {
        resource_version: Some("1".into()),
        ..Default::default()
    }
}

#[tokio::test]
async fn watch_event_over_the_default_limit_fails_naming_the_resource_and_limit() {
    let mut body = event("ADDED", "small", "2", 10);
    body.extend(event("MODIFIED", "huge", "3", 20 << 20));
    let chunks = mebibyte_chunks(&body);
    let server = Server::start(None, move |_| {
        fast(Reply::chunks(200, chunks.clone()), false)
    })
    .await;
    let client = Client::new(Config::new(&server.url)).unwrap();
    let stream = within(client.watch::<Pod>(Some("team"), &watch_options()))
        .await
        .unwrap();
    let events: Vec<_> = within(stream.collect::<Vec<_>>()).await;
    assert_eq!(events.len(), 2, "{events:?}");
    assert!(
        matches!(&events[0], Ok(WatchEvent::Added(p)) if p.metadata.name.as_deref() == Some("small")),
        "{:?}",
        events[0]
    );
    let Err(e) = &events[1] else {
        panic!("the 20 MiB event was decoded");
    };
    assert_too_large(
        e,
        &[
            "watch pods at",
            &server.url,
            "a watch event",
            &DEFAULT_OBJECT_LIMIT.to_string(),
            "max_object_bytes",
        ],
    );
}

#[tokio::test]
async fn gzip_watch_inflating_past_the_limit_fails() {
    let line = event("ADDED", "bomb", "2", 20 << 20);
    let compressed = gzip(&line);
    assert!(compressed.len() < 100 << 10, "{} bytes", compressed.len());
    let server = Server::start(None, move |_| {
        fast(Reply::chunks(200, vec![compressed.clone()]), true)
    })
    .await;
    let client = Client::new(Config::new(&server.url)).unwrap();
    let stream = within(client.watch::<Pod>(None, &watch_options()))
        .await
        .unwrap();
    let events: Vec<_> = within(stream.collect::<Vec<_>>()).await;
    assert_eq!(events.len(), 1, "{events:?}");
    let Err(e) = &events[0] else {
        panic!("the inflated event was decoded");
    };
    assert_too_large(e, &["watch pods at", &DEFAULT_OBJECT_LIMIT.to_string()]);
}

#[tokio::test]
async fn list_item_over_the_default_limit_fails() {
    let body = format!(
        r#"{{"kind":"PodList","apiVersion":"v1","metadata":{{"resourceVersion":"5"}},"items":[{},{}]}}"#,
        pod_json("small", "4", 10),
        pod_json("huge", "5", 17 << 20)
    );
    let chunks = mebibyte_chunks(body.as_bytes());
    let server = Server::start(None, move |_| {
        fast(Reply::chunks(200, chunks.clone()), false)
    })
    .await;
    let client = Client::new(Config::new(&server.url)).unwrap();
    let Err(e) = within(client.list::<Pod>(Some("team"), &ListOptions::default())).await else {
        panic!("the 17 MiB item was decoded");
    };
    assert_too_large(
        &e,
        &[
            "list pods at",
            &server.url,
            "a list item",
            &DEFAULT_OBJECT_LIMIT.to_string(),
        ],
    );
}

#[tokio::test]
async fn list_and_get_bodies_over_the_configured_limit_fail_also_gzipped() {
    let limit = 1 << 20;
    let items: Vec<String> = (0..400)
        .map(|i| pod_json(&format!("p{i}"), "5", 4096))
        .collect();
    let list = format!(
        r#"{{"kind":"PodList","apiVersion":"v1","metadata":{{"resourceVersion":"5"}},"items":[{}]}}"#,
        items.join(",")
    );
    assert!(list.len() > limit);
    let big_list = gzip(list.as_bytes());
    let big_pod = gzip(pod_json("huge", "5", 2 << 20).as_bytes());
    let small_list = pod_list(&["a"], "5", None);
    let server = Server::start(None, move |seen| {
        if seen.path.ends_with("/pods/huge") {
            fast(Reply::json(200, big_pod.clone()), true)
        } else if seen.path.contains("/namespaces/big/") {
            fast(Reply::json(200, big_list.clone()), true)
        } else {
            Reply::json(200, small_list.clone())
        }
    })
    .await;
    let mut config = Config::new(&server.url);
    config.max_body_bytes = u64::try_from(limit).unwrap();
    let client = Client::new(config).unwrap();
    let ok = within(client.list::<Pod>(Some("team"), &ListOptions::default()))
        .await
        .unwrap();
    assert_eq!(ok.items.len(), 1);
    let Err(e) = within(client.list::<Pod>(Some("big"), &ListOptions::default())).await else {
        panic!("the list over the body limit was decoded");
    };
    assert_too_large(
        &e,
        &[
            "list pods at",
            "the response body",
            "1048576",
            "max_body_bytes",
        ],
    );
    let Err(e) = within(Api::<Pod>::namespaced(client, "team").get("huge")).await else {
        panic!("the Pod over the body limit was decoded");
    };
    assert_too_large(&e, &["huge", &server.url, "the response body", "1048576"]);
}

fn informer(client: &Client) -> SharedIndexInformer<Pod> {
    let (c1, c2) = (client.clone(), client.clone());
    let lw = ListWatch::new(
        move |o: ListOptions| c1.list::<Pod>(None, &o),
        move |o: ListOptions| c2.watch::<Pod>(None, &o),
    );
    SharedIndexInformer::new(lw, Duration::ZERO, Indexers::namespace())
}

fn list_of(pods: &[(&str, &str)], rv: &str) -> String {
    let items: Vec<String> = pods.iter().map(|(n, r)| pod_json(n, r, 0)).collect();
    format!(
        r#"{{"kind":"PodList","apiVersion":"v1","metadata":{{"resourceVersion":"{rv}"}},"items":[{}]}}"#,
        items.join(",")
    )
}

fn bookmark(rv: &str) -> Vec<u8> {
    format!("{{\"type\":\"BOOKMARK\",\"object\":{{\"kind\":\"Pod\",\"apiVersion\":\"v1\",\"metadata\":{{\"resourceVersion\":\"{rv}\"}}}}}}\n").into_bytes()
}

/// A watch that stays open (a bookmark now and then), as a quiet server's does.
fn quiet_watch(rv: &str) -> Reply {
    let mut reply = Reply::chunks(200, vec![bookmark(rv); 100]);
    reply.pause = Duration::from_secs(1);
    reply
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn informer_relists_after_an_oversized_watch_event_and_converges() {
    let mut first_watch = event("ADDED", "b", "11", 10);
    first_watch.extend(event("MODIFIED", "a", "12", 20 << 20));
    let first_watch = mebibyte_chunks(&first_watch);
    let server = Server::start(None, move |seen| {
        let rv = param(seen, "resourceVersion");
        if param(seen, "watch").is_none() {
            return match rv.as_deref() {
                Some("0") => Reply::json(200, list_of(&[("a", "10")], "10")),
                // The relist: the server's state has moved on meanwhile.
                _ => Reply::json(200, list_of(&[("b", "11"), ("c", "20")], "20")),
            };
        }
        match rv.as_deref() {
            Some("10") => fast(Reply::chunks(200, first_watch.clone()), false),
            _ => quiet_watch("21"),
        }
    })
    .await;
    let inf = informer(&Client::new(Config::new(&server.url)).unwrap());
    let errors: Arc<Mutex<Vec<String>>> = Arc::default();
    let seen_errors = errors.clone();
    inf.set_watch_error_handler(move |e| {
        if e.kind() == Some(ErrorKind::TooLarge) {
            seen_errors.lock().unwrap().push(e.to_string());
        }
    })
    .unwrap();
    let cancel = CancellationToken::new();
    let task = tokio::spawn(inf.run(cancel.clone()));
    let keys = || {
        let mut keys = inf.indexer().list_keys();
        keys.sort();
        keys
    };
    eventually("the cache to hold the relisted state", || {
        keys() == ["team/b", "team/c"]
    })
    .await;
    let errors = errors.lock().unwrap().clone();
    assert_eq!(errors.len(), 1, "{errors:?}");
    assert!(errors[0].contains("watch pods at"), "{}", errors[0]);
    let lists: Vec<Option<String>> = server
        .seen()
        .iter()
        .filter(|s| param(s, "watch").is_none())
        .map(|s| param(s, "resourceVersion"))
        .collect();
    // Relisted from the last resourceVersion applied, not from the start.
    assert_eq!(lists, [Some("0".to_owned()), Some("11".to_owned())]);
    cancel.cancel();
    within(task).await.unwrap();
}

#[tokio::test]
async fn a_write_answered_with_a_redirect_goes_nowhere_else() {
    let elsewhere = Server::start(None, |_| {
        Reply::json(
            201,
            r#"{"apiVersion":"v1","kind":"Secret","metadata":{"name":"s","namespace":"a"}}"#,
        )
    })
    .await;
    let port = elsewhere.url.rsplit(':').next().unwrap().to_owned();
    let target = format!("http://thief:hunter2@127.0.0.1:{port}/api/v1/namespaces/a/secrets");
    let redirecting = Server::start(None, move |_| {
        Reply::json(307, "").header("location", &target)
    })
    .await;
    let mut config = Config::new(&redirecting.url);
    config.impersonate = Impersonate {
        user: Some("admin".into()),
        ..Default::default()
    };
    let secrets = Api::<Secret>::namespaced(Client::new(config).unwrap(), "a");
    let mut secret = Secret::default();
    secret.metadata.name = Some("s".into());
    secret.string_data = Some([("password".to_owned(), "swordfish".to_owned())].into());
    let e = within(secrets.create(&secret, &PostParams::default()))
        .await
        .unwrap_err();
    assert_eq!(elsewhere.seen().len(), 0, "the create was re-sent: {e}");
    assert_eq!(e.kind(), Some(ErrorKind::Protocol), "{e}");
    let text = e.to_string();
    assert!(
        text.contains(&format!(
            "http://127.0.0.1:{port}/api/v1/namespaces/a/secrets"
        )),
        "{text}"
    );
    assert!(text.contains("create secrets"), "{text}");
    assert!(
        !text.contains("thief") && !text.contains("hunter2"),
        "{text}"
    );
}

#[tokio::test]
async fn an_https_server_redirecting_to_http_is_not_followed() {
    let plain = Server::start(None, |_| Reply::json(200, pod_json("x", "1", 0))).await;
    let target = format!("{}/api/v1/namespaces/a/pods/x", plain.url);
    let pki = Pki::new();
    let tls = Server::start(Some(pki.server_tls(false)), move |_| {
        Reply::json(302, "").header("location", &target)
    })
    .await;
    let mut config = Config::new(&tls.url);
    config.root_certs = Some(
        CertificateDer::pem_slice_iter(pki.ca_pem.as_bytes())
            .collect::<Result<_, _>>()
            .unwrap(),
    );
    let pods = Api::<Pod>::namespaced(Client::new(config).unwrap(), "a");
    let e = within(pods.get("x")).await.unwrap_err();
    assert_eq!(plain.seen().len(), 0, "the get went over http: {e}");
    assert_eq!(tls.seen().len(), 1);
    assert!(e.to_string().contains(&plain.url), "{e}");
}

#[tokio::test]
async fn retry_after_beyond_any_duration_parses_without_overflow() {
    for asked in ["18446744073709551615", "99999999999999999999999999"] {
        let server = Server::start(None, move |_| {
            Reply::json(429, support::status(429, "TooManyRequests", "slow down"))
                .header("retry-after", asked)
        })
        .await;
        let client = Client::new(Config::new(&server.url)).unwrap();
        let e = within(client.list::<Pod>(None, &ListOptions::default()))
            .await
            .unwrap_err();
        assert!(e.is_too_many_requests(), "{e}");
        assert_eq!(
            e.retry_after(),
            Some(Duration::from_secs(24 * 60 * 60)),
            "{asked}"
        );
    }
}

/// On tokio's paused clock, with a ticker so that time moves in small steps while the
/// runtime waits on the loopback sockets: the informer must list again within the backoff
/// maximum (30 s) of a 429 asking for u64::MAX seconds.
#[tokio::test(start_paused = true)]
async fn a_huge_retry_after_does_not_stop_an_informer() {
    let lists: Arc<Mutex<Vec<tokio::time::Instant>>> = Arc::default();
    let seen_lists = lists.clone();
    let server = Server::start(None, move |seen| {
        if param(seen, "watch").is_some() {
            return quiet_watch("11");
        }
        let mut lists = seen_lists.lock().unwrap();
        lists.push(tokio::time::Instant::now());
        if lists.len() == 1 {
            Reply::json(429, support::status(429, "TooManyRequests", "slow down"))
                .header("retry-after", &u64::MAX.to_string())
        } else {
            Reply::json(200, list_of(&[("a", "10")], "10"))
        }
    })
    .await;
    let ticker = tokio::spawn(async {
        loop {
            tokio::time::sleep(Duration::from_millis(10)).await;
        }
    });
    let inf = informer(&Client::new(Config::new(&server.url)).unwrap());
    let cancel = CancellationToken::new();
    let task = tokio::spawn(inf.run(cancel.clone()));
    let synced = tokio::time::timeout(Duration::from_secs(120), async {
        while !inf.has_synced() {
            tokio::time::sleep(Duration::from_millis(10)).await;
        }
    })
    .await;
    assert!(
        synced.is_ok(),
        "the informer did not list again within 120 s of a 429 asking for u64::MAX seconds"
    );
    let lists = lists.lock().unwrap().clone();
    let waited = lists[1] - lists[0];
    assert!(
        waited >= Duration::from_secs(30) && waited < Duration::from_secs(45),
        "waited {waited:?}"
    );
    cancel.cancel();
    task.await.unwrap();
    ticker.abort();
}
