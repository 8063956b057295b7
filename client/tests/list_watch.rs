//! List and watch over real loopback HTTP: paging, streaming decode, watch lines split
//! across chunks, bookmarks, ERROR events, malformed lines, and error statuses.

use scripted_server as support;

use std::time::Duration;

use futures_util::StreamExt;
use informer_client::client::Config;
use informer_client::request::{Request, RequestBuilder};
use informer_client::watch_event::{Bookmark, WatchEvent};
use informer_client::{ApiResource, Client, Error, ListOptions};
use k8s_openapi::api::apps::v1::Deployment;
use k8s_openapi::api::core::v1::{Namespace, Pod};
use support::{pod_list, status, Reply, Server};

fn client(server: &Server) -> Client {
    Client::new(Config::new(&server.url)).unwrap()
}

async fn within<F: std::future::Future>(f: F) -> F::Output {
    tokio::time::timeout(Duration::from_secs(30), f)
        .await
        .expect("test hung")
}

#[tokio::test]
async fn multi_page_list_with_items_lacking_kind() {
    let server = Server::start(None, |seen| {
        if seen.query.contains("continue=page2") {
            Reply::json(200, pod_list(&["c"], "11", None))
        } else {
            // Split the first page mid-item so decoding must stitch chunks.
            let body = pod_list(&["a", "b"], "10", Some("page2")).into_bytes();
            let (x, y) = body.split_at(body.len() / 2 + 3);
            Reply::chunks(200, vec![x.to_vec(), y.to_vec()])
        }
    })
    .await;
    let client = client(&server);
    let mut opts = ListOptions {
        limit: Some(2),
        resource_version: Some("0".into()),
        ..Default::default()
    };
    let page1 = within(
        client.request_list::<Pod>(RequestBuilder::of::<Pod>(Some("team")).list(&opts).unwrap()),
    )
    .await
    .unwrap();
    assert_eq!(page1.items.len(), 2);
    assert_eq!(page1.items[1].metadata.name.as_deref(), Some("b"));
    assert_eq!(page1.metadata.continue_.as_deref(), Some("page2"));
    opts.continue_token = page1.metadata.continue_.clone();
    let page2 = within(
        client.request_list::<Pod>(RequestBuilder::of::<Pod>(Some("team")).list(&opts).unwrap()),
    )
    .await
    .unwrap();
    assert_eq!(page2.items.len(), 1);
    assert_eq!(page2.metadata.resource_version.as_deref(), Some("11"));

    let seen = server.seen();
    assert_eq!(seen[0].path, "/api/v1/namespaces/team/pods");
    assert_eq!(seen[0].query, "resourceVersion=0&limit=2");
    assert_eq!(seen[1].query, "resourceVersion=0&limit=2&continue=page2");
    assert_eq!(seen[0].accept.as_deref(), Some("application/json"));
    assert!(seen[0]
        .user_agent
        .as_deref()
        .is_some_and(|ua| ua.starts_with("informer-runtime/")));
}

#[tokio::test]
async fn urls_follow_group_version_and_scope() {
    let server = Server::start(None, |_| {
        Reply::json(200, r#"{"metadata":{"resourceVersion":"1"},"items":[]}"#)
    })
    .await;
    let client = client(&server);
    let o = ListOptions::default();
    within(
        client.request_list::<Deployment>(
            RequestBuilder::of::<Deployment>(Some("a"))
                .list(&o)
                .unwrap(),
        ),
    )
    .await
    .unwrap();
    within(
        client.request_list::<Deployment>(RequestBuilder::of::<Deployment>(None).list(&o).unwrap()),
    )
    .await
    .unwrap();
    within(
        client.request_list::<Namespace>(
            RequestBuilder::of::<Namespace>(Some("ignored"))
                .list(&o)
                .unwrap(),
        ),
    )
    .await
    .unwrap();
    let widgets = ApiResource::new("example.com", "v1", "Widget", "widgets", true);
    let metadata = RequestBuilder::for_resource(&widgets, None)
        .list(&o)
        .unwrap()
        .with_accept("application/json;as=PartialObjectMetadataList;g=meta.k8s.io;v=v1")
        .unwrap();
    within(client.request_list::<serde_json::Value>(metadata))
        .await
        .unwrap();
    let paths: Vec<String> = server.seen().into_iter().map(|s| s.path).collect();
    assert_eq!(
        paths,
        [
            "/apis/apps/v1/namespaces/a/deployments",
            "/apis/apps/v1/deployments",
            "/api/v1/namespaces",
            "/apis/example.com/v1/widgets"
        ]
    );
    assert_eq!(
        server.seen()[3].accept.as_deref(),
        Some("application/json;as=PartialObjectMetadataList;g=meta.k8s.io;v=v1")
    );
}

#[tokio::test]
async fn watch_lines_split_across_chunks_bookmark_and_error() {
    let lines = [
        r#"{"type":"ADDED","object":{"metadata":{"name":"a","resourceVersion":"5"}}}"#,
        r#"{"type":"MODIFIED","object":{"kind":"Pod","apiVersion":"v1","metadata":{"name":"a","resourceVersion":"6"}}}"#,
        r#"{"type":"BOOKMARK","object":{"kind":"Pod","apiVersion":"v1","metadata":{"resourceVersion":"7","annotations":{"k8s.io/initial-events-end":"true"}}}}"#,
        r#"{"type":"DELETED","object":{"metadata":{"name":"a","resourceVersion":"8"}}}"#,
        r#"{"type":"ERROR","object":{"kind":"Status","apiVersion":"v1","status":"Failure","message":"too old resource version: 1 (8)","reason":"Expired","code":410}}"#,
    ];
    let mut body = String::new();
    for l in lines {
        body.push_str(l);
        body.push('\n');
    }
    // Chunks of 37 bytes: lines span chunks and some chunks hold line ends of two lines.
    let chunks: Vec<Vec<u8>> = body.as_bytes().chunks(37).map(<[u8]>::to_vec).collect();
    let server = Server::start(None, move |_| {
        let mut r = Reply::chunks(200, chunks.clone());
        r.pause = Duration::from_millis(2);
        r
    })
    .await;
    let client = client(&server);
    let opts = ListOptions {
        resource_version: Some("4".into()),
        allow_watch_bookmarks: true,
        timeout_seconds: Some(300),
        ..Default::default()
    };
    let stream =
        within(client.request_events::<Pod>(RequestBuilder::of::<Pod>(None).watch(&opts).unwrap()))
            .await
            .unwrap();
    let events: Vec<_> = within(stream.collect::<Vec<_>>()).await;
    assert_eq!(events.len(), 5, "{events:?}");
    let events: Vec<WatchEvent<Pod>> = events.into_iter().map(Result::unwrap).collect();
    assert!(
        matches!(&events[0], WatchEvent::Added(p) if p.metadata.resource_version.as_deref() == Some("5"))
    );
    assert!(
        matches!(&events[1], WatchEvent::Modified(p) if p.metadata.resource_version.as_deref() == Some("6"))
    );
    assert_eq!(
        events[2],
        WatchEvent::Bookmark(Bookmark {
            resource_version: "7".into(),
            initial_events_end: true
        })
    );
    assert!(matches!(&events[3], WatchEvent::Deleted(_)));
    match &events[4] {
        WatchEvent::Error(s) => {
            assert_eq!(s.code, Some(410));
            assert_eq!(s.reason.as_deref(), Some("Expired"));
        }
        other => panic!("expected ERROR, got {other:?}"),
    }
    let seen = server.seen();
    assert_eq!(seen[0].path, "/api/v1/pods");
    assert_eq!(
        seen[0].query,
        "watch=1&resourceVersion=4&timeoutSeconds=300&allowWatchBookmarks=true"
    );
}

#[tokio::test]
async fn malformed_watch_line_is_one_decode_error_naming_resource_and_line() {
    let good = r#"{"type":"ADDED","object":{"metadata":{"name":"a"}}}"#;
    let bad = format!("this is not json {}", "x".repeat(500));
    let after = r#"{"type":"ADDED","object":{"metadata":{"name":"never"}}}"#;
    let body = format!("{good}\n{bad}\n{after}\n");
    let server = Server::start(None, move |_| Reply::json(200, body.clone())).await;
    let client = client(&server);
    let stream = within(
        client.request_events::<Pod>(
            RequestBuilder::of::<Pod>(Some("team"))
                .watch(&ListOptions::default())
                .unwrap(),
        ),
    )
    .await
    .unwrap();
    let events: Vec<_> = within(stream.collect::<Vec<_>>()).await;
    assert_eq!(events.len(), 2, "stream must end after the bad line");
    assert!(events[0].is_ok());
    match &events[1] {
        Err(Error::Decode { what, context, .. }) => {
            assert!(what.starts_with("this is not json xxx"), "{what}");
            assert!(what.len() < 220, "line must be truncated: {}", what.len());
            assert!(
                context.starts_with("watch pods at http://127.0.0.1:")
                    && context.ends_with("/api/v1/namespaces/team/pods"),
                "{context}"
            );
        }
        other => panic!("expected a decode error, got {other:?}"),
    }
}

#[tokio::test]
async fn dropped_watch_connection_ends_with_an_error() {
    let server = Server::start(None, |_| {
        Reply::chunks(
            200,
            vec![
                br#"{"type":"ADDED","object":{"metadata":{"name":"a"}}}"#.to_vec(),
                b"\n{\"type\":\"ADD".to_vec(),
            ],
        )
        .abort()
    })
    .await;
    let client = client(&server);
    let stream = within(
        client.request_events::<Pod>(
            RequestBuilder::of::<Pod>(None)
                .watch(&ListOptions::default())
                .unwrap(),
        ),
    )
    .await
    .unwrap();
    let events: Vec<_> = within(stream.collect::<Vec<_>>()).await;
    assert_eq!(events.len(), 2, "{events:?}");
    assert!(events[0].is_ok());
    let err = events[1].as_ref().unwrap_err();
    assert!(matches!(err, Error::Http { .. }), "{err:?}");
    assert!(
        err.to_string().contains("watch pods at http://127.0.0.1:"),
        "{err}"
    );
}

#[tokio::test]
async fn truncated_list_body_is_an_error() {
    let server = Server::start(None, |_| {
        let body = pod_list(&["a", "b"], "3", None);
        Reply::chunks(200, vec![body.as_bytes()[..body.len() - 20].to_vec()]).abort()
    })
    .await;
    let err = within(
        client(&server).request_list::<Pod>(
            RequestBuilder::of::<Pod>(None)
                .list(&ListOptions::default())
                .unwrap(),
        ),
    )
    .await
    .unwrap_err();
    assert!(
        err.to_string()
            .starts_with("list pods at http://127.0.0.1:"),
        "{err}"
    );
}

#[tokio::test]
async fn error_statuses_become_api_errors() {
    let server = Server::start(None, |seen| match seen.path.as_str() {
        "/api/v1/namespaces/forbidden/pods" => Reply::json(
            403,
            status(
                403,
                "Forbidden",
                "pods is forbidden: User \\\"x\\\" cannot list",
            ),
        ),
        "/api/v1/namespaces/missing/pods" => {
            Reply::json(404, "404 page not found").header("content-type", "text/plain")
        }
        "/api/v1/namespaces/gone/pods" => Reply::json(
            410,
            status(410, "Expired", "The provided continue parameter is too old"),
        ),
        _ => {
            Reply::json(429, status(429, "TooManyRequests", "slow down")).header("retry-after", "7")
        }
    })
    .await;
    let client = client(&server);
    let o = ListOptions::default();
    let api = |e: Error| match e {
        Error::Api(a) => *a,
        other => panic!("expected an API error, got {other:?}"),
    };

    let e = api(within(
        client.request_list::<Pod>(
            RequestBuilder::of::<Pod>(Some("forbidden"))
                .list(&o)
                .unwrap(),
        ),
    )
    .await
    .unwrap_err());
    assert_eq!((e.code, e.reason.as_str()), (403, "Forbidden"));
    assert!(e.message.contains("cannot list"));
    assert!(e.context.starts_with("list pods at http://"));
    assert!(e.context.ends_with("/api/v1/namespaces/forbidden/pods"));

    let e = api(within(
        client.request_list::<Pod>(RequestBuilder::of::<Pod>(Some("missing")).list(&o).unwrap()),
    )
    .await
    .unwrap_err());
    assert_eq!((e.code, e.reason.as_str()), (404, "NotFound"));
    assert_eq!(e.message, "404 page not found");

    let err = within(
        client.request_list::<Pod>(RequestBuilder::of::<Pod>(Some("gone")).list(&o).unwrap()),
    )
    .await
    .unwrap_err();
    assert!(err.is_gone());
    assert_eq!(api(err).reason, "Expired");

    let err = within(
        client.request_events::<Pod>(RequestBuilder::of::<Pod>(Some("busy")).watch(&o).unwrap()),
    )
    .await
    .err()
    .unwrap();
    assert_eq!(err.retry_after(), Some(Duration::from_secs(7)));
    let e = api(err);
    assert_eq!((e.code, e.reason.as_str()), (429, "TooManyRequests"));
    assert!(e.context.starts_with("watch pods at"));
}

#[tokio::test]
async fn connection_refused_names_the_request() {
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let url = format!("http://{}", listener.local_addr().unwrap());
    drop(listener);
    let client = Client::new(Config::new(&url)).unwrap();
    let err = within(
        client.request_list::<Pod>(
            RequestBuilder::of::<Pod>(None)
                .list(&ListOptions::default())
                .unwrap(),
        ),
    )
    .await
    .unwrap_err();
    assert!(matches!(err, Error::Http { .. }));
    assert!(
        err.to_string()
            .starts_with(&format!("list pods at {url}/api/v1/pods")),
        "{err}"
    );
}

#[tokio::test]
async fn get_path_reads_discovery() {
    let server = Server::start(None, |_| {
        Reply::json(200, r#"{"kind":"APIVersions","versions":["v1"]}"#)
    })
    .await;
    let v: serde_json::Value = within(client(&server).request(Request::get_path("/api").unwrap()))
        .await
        .unwrap();
    assert_eq!(v["versions"][0], "v1");
}

#[tokio::test]
async fn large_list_streams_in_many_chunks() {
    let names: Vec<String> = (0..2000).map(|i| format!("pod-{i}")).collect();
    let refs: Vec<&str> = names.iter().map(String::as_str).collect();
    let body = pod_list(&refs, "99", None).into_bytes();
    let chunks: Vec<Vec<u8>> = body.chunks(997).map(<[u8]>::to_vec).collect();
    let server = Server::start(None, move |_| {
        let mut r = Reply::chunks(200, chunks.clone());
        r.pause = Duration::ZERO;
        r
    })
    .await;
    let list = within(
        client(&server).request_list::<Pod>(
            RequestBuilder::of::<Pod>(None)
                .list(&ListOptions::default())
                .unwrap(),
        ),
    )
    .await
    .unwrap();
    assert_eq!(list.items.len(), 2000);
    assert_eq!(list.items[1999].metadata.name.as_deref(), Some("pod-1999"));
    assert_eq!(list.metadata.resource_version.as_deref(), Some("99"));
}
