//! The client against a hostile or broken server (issue 34): watch events, list items and
//! bodies over the client's limits, also when gzip inflates a small body past them;
//! redirects, which must not take a request (its body, credentials, impersonation) anywhere;
//! and a `Retry-After` of u64::MAX seconds. What an informer does with each: the runtime's
//! `informer_hostile_server` suite.

use scripted_server as support;

use std::io::Write as _;
use std::time::Duration;

use futures_util::StreamExt;
use informer_client::api::{Api, PostParams};
use informer_client::client::{Config, Impersonate};
use informer_client::error::ErrorKind;
use informer_client::request::RequestBuilder;
use informer_client::watch_event::WatchEvent;
use informer_client::{Client, Error, ListOptions};
use k8s_openapi::api::core::v1::{Pod, Secret};
use rustls::pki_types::pem::PemObject;
use rustls::pki_types::CertificateDer;
use support::{mebibyte_chunks, pod_json, pod_list, watch_line, Pki, Reply, Server};

/// client-go's limit on one watch event, this client's default for one event or list item.
const DEFAULT_OBJECT_LIMIT: usize = 16 << 20;

async fn within<F: std::future::Future>(f: F) -> F::Output {
    tokio::time::timeout(Duration::from_secs(60), f)
        .await
        .expect("test hung")
}

fn gzip(bytes: &[u8]) -> Vec<u8> {
    let mut encoder = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::best());
    encoder.write_all(bytes).unwrap();
    encoder.finish().unwrap()
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
    let mut body = watch_line("ADDED", "small", "2", 10);
    body.extend(watch_line("MODIFIED", "huge", "3", 20 << 20));
    let chunks = mebibyte_chunks(&body);
    let server = Server::start(None, move |_| {
        Reply::chunks(200, chunks.clone()).fast(false)
    })
    .await;
    let client = Client::new(Config::new(&server.url)).unwrap();
    let stream = within(
        client.request_events::<Pod>(
            RequestBuilder::of::<Pod>(Some("team"))
                .watch(&watch_options())
                .unwrap(),
        ),
    )
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
    let line = watch_line("ADDED", "bomb", "2", 20 << 20);
    let compressed = gzip(&line);
    assert!(compressed.len() < 100 << 10, "{} bytes", compressed.len());
    let server = Server::start(None, move |_| {
        Reply::chunks(200, vec![compressed.clone()]).fast(true)
    })
    .await;
    let client = Client::new(Config::new(&server.url)).unwrap();
    let stream = within(
        client.request_events::<Pod>(
            RequestBuilder::of::<Pod>(None)
                .watch(&watch_options())
                .unwrap(),
        ),
    )
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
        Reply::chunks(200, chunks.clone()).fast(false)
    })
    .await;
    let client = Client::new(Config::new(&server.url)).unwrap();
    let Err(e) = within(
        client.request_list::<Pod>(
            RequestBuilder::of::<Pod>(Some("team"))
                .list(&ListOptions::default())
                .unwrap(),
        ),
    )
    .await
    else {
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
            Reply::json(200, big_pod.clone()).fast(true)
        } else if seen.path.contains("/namespaces/big/") {
            Reply::json(200, big_list.clone()).fast(true)
        } else {
            Reply::json(200, small_list.clone())
        }
    })
    .await;
    let mut config = Config::new(&server.url);
    config.max_body_bytes = u64::try_from(limit).unwrap();
    let client = Client::new(config).unwrap();
    let ok = within(
        client.request_list::<Pod>(
            RequestBuilder::of::<Pod>(Some("team"))
                .list(&ListOptions::default())
                .unwrap(),
        ),
    )
    .await
    .unwrap();
    assert_eq!(ok.items.len(), 1);
    let Err(e) = within(
        client.request_list::<Pod>(
            RequestBuilder::of::<Pod>(Some("big"))
                .list(&ListOptions::default())
                .unwrap(),
        ),
    )
    .await
    else {
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
        let e = within(
            client.request_list::<Pod>(
                RequestBuilder::of::<Pod>(None)
                    .list(&ListOptions::default())
                    .unwrap(),
            ),
        )
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
