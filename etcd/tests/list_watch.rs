//! The etcd lister-watcher against a real etcd: lists, pages, watches, restarts,
//! compaction, selectors, bad values and the writer's optimistic concurrency.

mod support;

use std::collections::BTreeMap;
use std::sync::Arc;
use std::time::Duration;

use futures_util::{stream, StreamExt, TryStreamExt};
use informer_etcd::{Etcd, EtcdListerWatcher, EtcdWriter};
use informer_runtime::k8s_openapi::api::core::v1::ConfigMap;
use informer_runtime::k8s_openapi::apimachinery::pkg::apis::meta::v1::ObjectMeta;
use informer_runtime::list_options::ResourceVersionMatch;
use informer_runtime::{Error, ListOptions, ListerWatcher, WatchEvent, WatchStream};
use support::EtcdServer;

fn cm(ns: &str, name: &str, data: &str) -> ConfigMap {
    ConfigMap {
        metadata: ObjectMeta {
            name: Some(name.into()),
            namespace: Some(ns.into()),
            labels: Some(BTreeMap::from([("app".to_owned(), "web".to_owned())])),
            ..Default::default()
        },
        data: Some(BTreeMap::from([("k".to_owned(), data.to_owned())])),
        ..Default::default()
    }
}

fn rv_of(obj: &ConfigMap) -> i64 {
    obj.metadata
        .resource_version
        .as_deref()
        .unwrap()
        .parse()
        .unwrap()
}

fn name_of(obj: &ConfigMap) -> &str {
    obj.metadata.name.as_deref().unwrap()
}

async fn next(
    stream: &mut WatchStream<Arc<ConfigMap>>,
) -> Result<WatchEvent<Arc<ConfigMap>>, Error> {
    tokio::time::timeout(Duration::from_secs(20), stream.next())
        .await
        .expect("no watch event within 20 s")
        .expect("watch stream ended")
}

/// The next event that is not a bookmark.
async fn next_change(stream: &mut WatchStream<Arc<ConfigMap>>) -> WatchEvent<Arc<ConfigMap>> {
    loop {
        match next(stream).await.unwrap() {
            WatchEvent::Bookmark(_) => continue,
            other => return other,
        }
    }
}

async fn list_rv(lw: &EtcdListerWatcher<ConfigMap>) -> String {
    lw.list(ListOptions::default())
        .await
        .unwrap()
        .metadata
        .resource_version
        .unwrap()
}

fn watch_from(rv: &str) -> ListOptions {
    ListOptions {
        resource_version: Some(rv.to_owned()),
        allow_watch_bookmarks: true,
        ..Default::default()
    }
}

async fn fill(writer: &EtcdWriter<ConfigMap>, namespaces: usize, per_namespace: usize) {
    let objects: Vec<ConfigMap> = (0..namespaces)
        .flat_map(|n| {
            (0..per_namespace).map(move |i| cm(&format!("ns{n}"), &format!("cm{i:05}"), "v"))
        })
        .collect();
    // Concurrent writes let etcd batch its commits.
    stream::iter(objects)
        .map(|o| async move { writer.create(&o).await })
        .buffer_unordered(64)
        .try_collect::<Vec<_>>()
        .await
        .unwrap();
}

#[tokio::test]
async fn initial_list_of_thousands_of_objects_across_pinned_pages() {
    let server = EtcdServer::start();
    let etcd = server.connect().await;
    let lw = EtcdListerWatcher::<ConfigMap>::new(etcd.clone());
    let writer = lw.writer();
    fill(&writer, 3, 1000).await;

    let mut options = ListOptions {
        limit: Some(500),
        ..Default::default()
    };
    let mut all = Vec::new();
    let mut list_rv = None;
    let mut pages = 0;
    loop {
        let page = lw.list(options.clone()).await.unwrap();
        pages += 1;
        assert!(page.items.len() <= 500);
        let rv = page.metadata.resource_version.clone().unwrap();
        // Every page is read at the first page's revision.
        assert_eq!(list_rv.get_or_insert(rv.clone()), &rv);
        if pages == 1 {
            assert_eq!(page.metadata.remaining_item_count, Some(2500));
            // Written after the first page: not part of this list.
            writer.create(&cm("ns9", "late", "v")).await.unwrap();
        }
        all.extend(page.items);
        match page.metadata.continue_ {
            Some(token) => options.continue_token = Some(token),
            None => break,
        }
    }
    assert_eq!(pages, 6);
    assert_eq!(all.len(), 3000);
    let list_rv: i64 = list_rv.unwrap().parse().unwrap();
    assert!(all.iter().all(|o| rv_of(o) <= list_rv && rv_of(o) > 0));
    assert!(all.iter().all(|o| name_of(o) != "late"));
    let mut keys: Vec<_> = all
        .iter()
        .map(|o| {
            format!(
                "{}/{}",
                o.metadata.namespace.as_deref().unwrap(),
                name_of(o)
            )
        })
        .collect();
    keys.dedup();
    assert_eq!(keys.len(), 3000, "pages overlap");

    // A namespaced source sees only its namespace.
    let ns1 = EtcdListerWatcher::<ConfigMap>::new(etcd).namespace(Some("ns1"));
    let page = ns1.list(ListOptions::default()).await.unwrap();
    assert_eq!(page.items.len(), 1000);
    assert!(page
        .items
        .iter()
        .all(|o| o.metadata.namespace.as_deref() == Some("ns1")));
}

#[tokio::test]
async fn list_resource_version_semantics() {
    let server = EtcdServer::start();
    let etcd = server.connect().await;
    let lw = EtcdListerWatcher::<ConfigMap>::new(etcd);
    let writer = lw.writer();
    let a = writer.create(&cm("ns", "a", "1")).await.unwrap();
    let rv_a = rv_of(&a);
    writer.create(&cm("ns", "b", "1")).await.unwrap();

    let list_at = |rv: i64, rv_match: Option<ResourceVersionMatch>, limit: Option<i64>| {
        lw.list(ListOptions {
            resource_version: Some(rv.to_string()),
            resource_version_match: rv_match,
            limit,
            ..Default::default()
        })
    };
    for (rv_match, limit) in [(Some(ResourceVersionMatch::Exact), None), (None, Some(10))] {
        let at_a = list_at(rv_a, rv_match, limit).await.unwrap();
        assert_eq!(
            at_a.items.len(),
            1,
            "{rv_match:?} {limit:?} reads at that revision"
        );
        assert_eq!(at_a.metadata.resource_version, Some(rv_a.to_string()));
    }
    for rv_match in [Some(ResourceVersionMatch::NotOlderThan), None] {
        let newest = list_at(rv_a, rv_match, None).await.unwrap();
        assert_eq!(
            newest.items.len(),
            2,
            "{rv_match:?} reads the current state"
        );
        assert_eq!(
            newest.metadata.resource_version,
            Some((rv_a + 1).to_string())
        );
    }

    let future = lw
        .list(ListOptions {
            resource_version: Some("999999".into()),
            ..Default::default()
        })
        .await
        .unwrap_err();
    assert_eq!(future.status_code(), Some(504), "{future}");

    let bad = lw
        .list(ListOptions {
            resource_version: Some("abc".into()),
            ..Default::default()
        })
        .await
        .unwrap_err();
    assert_eq!(bad.status_code(), Some(400), "{bad}");

    let bad_token = lw
        .list(ListOptions {
            continue_token: Some("not-a-token".into()),
            ..Default::default()
        })
        .await
        .unwrap_err();
    assert_eq!(bad_token.status_code(), Some(400), "{bad_token}");
}

#[tokio::test]
async fn watch_maps_create_update_delete_and_the_writer_guards_revisions() {
    let server = EtcdServer::start();
    let etcd = server.connect().await;
    let lw = EtcdListerWatcher::<ConfigMap>::new(etcd);
    let writer = lw.writer();
    writer.create(&cm("ns", "before", "0")).await.unwrap();
    let rv = list_rv(&lw).await;
    let mut watch = lw.watch(watch_from(&rv)).await.unwrap();

    let created = writer.create(&cm("ns", "a", "1")).await.unwrap();
    match next_change(&mut watch).await {
        WatchEvent::Added(o) => {
            assert_eq!(name_of(&o), "a");
            assert_eq!(rv_of(&o), rv_of(&created));
        }
        other => panic!("expected ADDED, got {other:?}"),
    }

    let mut changed = created.clone();
    changed.data = Some(BTreeMap::from([("k".to_owned(), "2".to_owned())]));
    let updated = writer.update(&changed).await.unwrap();
    assert!(rv_of(&updated) > rv_of(&created));
    match next_change(&mut watch).await {
        WatchEvent::Modified(o) => {
            assert_eq!(o.data.as_ref().unwrap()["k"], "2");
            assert_eq!(rv_of(&o), rv_of(&updated));
        }
        other => panic!("expected MODIFIED, got {other:?}"),
    }

    // Optimistic concurrency: the stale version loses, a second create too.
    let stale = writer.update(&changed).await.unwrap_err();
    assert_eq!(stale.status_code(), Some(409), "{stale}");
    let dup = writer.create(&cm("ns", "a", "x")).await.unwrap_err();
    assert_eq!(dup.status_code(), Some(409), "{dup}");
    let stale_delete = writer
        .delete(Some("ns"), "a", Some(rv_of(&created)))
        .await
        .unwrap_err();
    assert_eq!(stale_delete.status_code(), Some(409));

    let deleted_at = writer
        .delete(Some("ns"), "a", Some(rv_of(&updated)))
        .await
        .unwrap();
    match next_change(&mut watch).await {
        WatchEvent::Deleted(o) => {
            assert_eq!(name_of(&o), "a");
            assert_eq!(o.data.as_ref().unwrap()["k"], "2", "carries the last value");
            assert_eq!(rv_of(&o), deleted_at, "RV is the delete's revision");
        }
        other => panic!("expected DELETED, got {other:?}"),
    }
    let missing = writer.delete(Some("ns"), "a", None).await.unwrap_err();
    assert_eq!(missing.status_code(), Some(404));
    let missing = writer.update(&cm("ns", "nope", "1")).await.unwrap_err();
    assert_eq!(missing.status_code(), Some(404));
    assert_eq!(
        rv_of(&writer.get(Some("ns"), "before").await.unwrap().unwrap()),
        rv.parse::<i64>().unwrap()
    );
    assert!(writer.get(Some("ns"), "a").await.unwrap().is_none());
}

#[tokio::test]
async fn progress_notifications_become_bookmarks_and_initial_events_end_with_one() {
    let server = EtcdServer::start();
    let etcd = server.connect().await;
    let lw = EtcdListerWatcher::<ConfigMap>::new(etcd)
        .progress_interval(Some(Duration::from_millis(200)));
    let writer = lw.writer();
    writer.create(&cm("ns", "a", "1")).await.unwrap();
    writer.create(&cm("ns", "b", "1")).await.unwrap();
    let rv = list_rv(&lw).await;

    let mut watch = lw.watch(watch_from(&rv)).await.unwrap();
    match next(&mut watch).await.unwrap() {
        WatchEvent::Bookmark(b) => {
            assert!(b.resource_version.parse::<i64>().unwrap() >= rv.parse::<i64>().unwrap());
            assert!(!b.initial_events_end);
        }
        other => panic!("expected BOOKMARK, got {other:?}"),
    }

    let mut streaming = lw
        .watch(ListOptions {
            send_initial_events: Some(true),
            allow_watch_bookmarks: true,
            resource_version_match: Some(ResourceVersionMatch::NotOlderThan),
            ..Default::default()
        })
        .await
        .unwrap();
    let mut names = Vec::new();
    loop {
        match next(&mut streaming).await.unwrap() {
            WatchEvent::Added(o) => names.push(name_of(&o).to_owned()),
            WatchEvent::Bookmark(b) => {
                assert!(b.initial_events_end);
                assert_eq!(b.resource_version, rv);
                break;
            }
            other => panic!("unexpected {other:?}"),
        }
    }
    assert_eq!(names, ["a", "b"]);
    writer.create(&cm("ns", "c", "1")).await.unwrap();
    assert!(
        matches!(next_change(&mut streaming).await, WatchEvent::Added(o) if name_of(&o) == "c")
    );

    // A watch with a timeout ends cleanly.
    let mut short = lw
        .watch(ListOptions {
            resource_version: Some(rv),
            timeout_seconds: Some(1),
            ..Default::default()
        })
        .await
        .unwrap();
    let mut events = 0;
    while let Some(item) = tokio::time::timeout(Duration::from_secs(20), short.next())
        .await
        .expect("the watch did not time out")
    {
        item.unwrap();
        events += 1;
    }
    assert_eq!(events, 1, "only the create of c");
}

#[tokio::test]
async fn etcd_restart_ends_the_watch_with_an_error_and_a_rewatch_resumes() {
    let mut server = EtcdServer::start();
    let etcd = server.connect().await;
    let lw = EtcdListerWatcher::<ConfigMap>::new(etcd.clone());
    let writer = lw.writer();
    let rv = list_rv(&lw).await;
    let mut watch = lw.watch(watch_from(&rv)).await.unwrap();
    writer.create(&cm("ns", "a", "1")).await.unwrap();
    let last = match next_change(&mut watch).await {
        WatchEvent::Added(o) => rv_of(&o),
        other => panic!("expected ADDED, got {other:?}"),
    };

    server.kill();
    let err = loop {
        match next(&mut watch).await {
            Ok(WatchEvent::Bookmark(_)) => continue,
            Ok(other) => panic!("expected an error, got {other:?}"),
            Err(e) => break e,
        }
    };
    assert!(matches!(err, Error::Http { .. }), "{err:?}");
    assert!(err.to_string().contains(&server.endpoint()), "{err}");
    assert!(tokio::time::timeout(Duration::from_secs(20), watch.next())
        .await
        .unwrap()
        .is_none());

    // While etcd is down: a clear transport error naming etcd.
    let down = lw.list(ListOptions::default()).await.unwrap_err();
    assert!(matches!(down, Error::Http { .. }), "{down:?}");
    assert!(down.to_string().contains("cannot reach etcd"), "{down}");

    server.restart();
    server.connect().await;
    writer.create(&cm("ns", "b", "1")).await.unwrap();
    let mut watch = lw.watch(watch_from(&last.to_string())).await.unwrap();
    assert!(matches!(next_change(&mut watch).await, WatchEvent::Added(o) if name_of(&o) == "b"));
}

#[tokio::test]
async fn compaction_is_410_expired_for_watch_continue_and_list() {
    let server = EtcdServer::start();
    let etcd = server.connect().await;
    let lw = EtcdListerWatcher::<ConfigMap>::new(etcd.clone());
    let writer = lw.writer();
    fill(&writer, 1, 10).await;
    let first = lw
        .list(ListOptions {
            limit: Some(4),
            ..Default::default()
        })
        .await
        .unwrap();
    let old_rv = first.metadata.resource_version.clone().unwrap();
    writer.create(&cm("ns", "new", "1")).await.unwrap();
    let newest = writer.create(&cm("ns", "newest", "1")).await.unwrap();
    // Keeps only revisions from `newest` on: the list's revision and the one after are gone.
    etcd.client().compact(rv_of(&newest), None).await.unwrap();

    let err = lw
        .list(ListOptions {
            limit: Some(4),
            continue_token: first.metadata.continue_.clone(),
            ..Default::default()
        })
        .await
        .unwrap_err();
    assert!(err.is_gone(), "{err}");
    assert!(err.to_string().contains("continue"), "{err}");

    let err = lw
        .list(ListOptions {
            resource_version: Some(old_rv.clone()),
            resource_version_match: Some(ResourceVersionMatch::Exact),
            ..Default::default()
        })
        .await
        .unwrap_err();
    assert!(err.is_gone(), "{err}");
    // Not older than a compacted revision: the current state will do, as on the API server.
    let current = lw
        .list(ListOptions {
            resource_version: Some(old_rv.clone()),
            ..Default::default()
        })
        .await
        .unwrap();
    assert_eq!(current.items.len(), 12);

    let mut watch = lw.watch(watch_from(&old_rv)).await.unwrap();
    match next(&mut watch).await.unwrap() {
        WatchEvent::Error(status) => {
            assert_eq!(status.code, Some(410));
            assert_eq!(status.reason.as_deref(), Some("Expired"));
        }
        other => panic!("expected an ERROR event, got {other:?}"),
    }
    assert!(tokio::time::timeout(Duration::from_secs(20), watch.next())
        .await
        .unwrap()
        .is_none());

    // Relisting from scratch works and sees everything.
    let relist = lw.list(ListOptions::default()).await.unwrap();
    assert_eq!(relist.items.len(), 12);
}

#[tokio::test]
async fn field_selectors_apply_on_the_client_for_lists_and_watches() {
    let server = EtcdServer::start();
    let etcd = server.connect().await;
    let lw = EtcdListerWatcher::<ConfigMap>::new(etcd);
    let writer = lw.writer();
    for ns in ["a", "b"] {
        for name in ["x", "y", "z"] {
            writer.create(&cm(ns, name, "1")).await.unwrap();
        }
    }
    let selected = |fields: &str, limit: Option<i64>| ListOptions {
        field_selector: Some(fields.to_owned()),
        limit,
        ..Default::default()
    };
    let page = lw
        .list(selected("metadata.namespace=b,metadata.name!=y", None))
        .await
        .unwrap();
    let names: Vec<_> = page.items.iter().map(|o| name_of(o)).collect();
    assert_eq!(names, ["x", "z"]);

    // Pages are filled up to the limit despite the filter.
    let page = lw.list(selected("metadata.name=z", Some(1))).await.unwrap();
    assert_eq!(page.items.len(), 1);
    assert_eq!(page.metadata.remaining_item_count, None);
    let rest = lw
        .list(ListOptions {
            continue_token: page.metadata.continue_.clone(),
            ..selected("metadata.name=z", Some(1))
        })
        .await
        .unwrap();
    assert_eq!(rest.items.len(), 1);
    assert_eq!(rest.items[0].metadata.namespace.as_deref(), Some("b"));

    let err = lw
        .list(selected("spec.nodeName=n1", None))
        .await
        .unwrap_err();
    assert_eq!(err.status_code(), Some(400));

    let rv = list_rv(&lw).await;
    let mut watch = lw
        .watch(ListOptions {
            field_selector: Some("metadata.name=w".into()),
            ..watch_from(&rv)
        })
        .await
        .unwrap();
    writer.create(&cm("a", "ignored", "1")).await.unwrap();
    writer.create(&cm("a", "w", "1")).await.unwrap();
    assert!(matches!(next_change(&mut watch).await, WatchEvent::Added(o) if name_of(&o) == "w"));
}

#[tokio::test]
async fn label_selectors_apply_on_the_client_and_watches_see_objects_enter_and_leave() {
    let server = EtcdServer::start();
    let etcd = server.connect().await;
    let lw = EtcdListerWatcher::<ConfigMap>::new(etcd);
    let writer = lw.writer();
    let mut db = cm("ns", "db", "1");
    db.metadata.labels = Some(BTreeMap::from([("app".to_owned(), "db".to_owned())]));
    let db = writer.create(&db).await.unwrap();
    writer.create(&cm("ns", "web", "1")).await.unwrap();

    let web_only = |rv: Option<String>| ListOptions {
        label_selector: Some("app in (web, api)".into()),
        resource_version: rv,
        allow_watch_bookmarks: true,
        ..Default::default()
    };
    let page = lw.list(web_only(None)).await.unwrap();
    let names: Vec<_> = page.items.iter().map(|o| name_of(o)).collect();
    assert_eq!(names, ["web"]);
    let err = lw
        .list(ListOptions {
            label_selector: Some("app in (".into()),
            ..Default::default()
        })
        .await
        .unwrap_err();
    assert_eq!(err.status_code(), Some(400), "{err}");

    let mut watch = lw
        .watch(web_only(page.metadata.resource_version))
        .await
        .unwrap();
    // db enters the selection: ADDED; leaves it: DELETED; changes outside it: nothing.
    let mut relabelled = db.clone();
    relabelled.metadata.labels = Some(BTreeMap::from([("app".to_owned(), "api".to_owned())]));
    let relabelled = writer.update(&relabelled).await.unwrap();
    assert!(matches!(next_change(&mut watch).await, WatchEvent::Added(o) if name_of(&o) == "db"));
    let mut back = relabelled.clone();
    back.metadata.labels = Some(BTreeMap::from([("app".to_owned(), "db".to_owned())]));
    let back = writer.update(&back).await.unwrap();
    match next_change(&mut watch).await {
        WatchEvent::Deleted(o) => {
            assert_eq!(name_of(&o), "db");
            assert_eq!(rv_of(&o), rv_of(&back));
        }
        other => panic!("expected DELETED, got {other:?}"),
    }
    let mut outside = back.clone();
    outside.data = Some(BTreeMap::from([("k".to_owned(), "2".to_owned())]));
    writer.update(&outside).await.unwrap();
    writer.delete(Some("ns"), "db", None).await.unwrap();
    writer.delete(Some("ns"), "web", None).await.unwrap();
    match next_change(&mut watch).await {
        WatchEvent::Deleted(o) => assert_eq!(name_of(&o), "web"),
        other => panic!("expected DELETED of web, got {other:?}"),
    }
}

#[tokio::test]
async fn undecodable_values_are_counted_and_skipped() {
    let server = EtcdServer::start();
    let etcd = server.connect().await;
    let lw = EtcdListerWatcher::<ConfigMap>::new(etcd.clone());
    let writer = lw.writer();
    writer.create(&cm("ns", "good", "1")).await.unwrap();
    let rv = list_rv(&lw).await;
    let mut watch = lw.watch(watch_from(&rv)).await.unwrap();
    etcd.client()
        .put(
            "/registry/configmaps/ns/bad",
            b"k8s\x00\x0a\xff not json".to_vec(),
            None,
        )
        .await
        .unwrap();
    writer.create(&cm("ns", "good2", "1")).await.unwrap();
    assert!(
        matches!(next_change(&mut watch).await, WatchEvent::Added(o) if name_of(&o) == "good2")
    );

    let page = lw.list(ListOptions::default()).await.unwrap();
    let names: Vec<_> = page.items.iter().map(|o| name_of(o)).collect();
    assert_eq!(names, ["good", "good2"]);
    assert_eq!(
        lw.stats().undecodable_values(),
        2,
        "once in the watch, once in the list"
    );
}

#[tokio::test]
async fn unreachable_etcd_and_bad_credentials_are_clear_errors() {
    let server = EtcdServer::start();
    let etcd = server.connect().await;
    let mut client = etcd.client();
    client.user_add("root", "secret", None).await.unwrap();
    client.user_grant_role("root", "root").await.unwrap();
    client.user_add("nobody", "pw", None).await.unwrap();
    client.auth_enable().await.unwrap();

    let options = |user: &str, pw: &str| {
        Some(informer_etcd::etcd_client::ConnectOptions::new().with_user(user, pw))
    };
    let err = Etcd::connect(&[server.endpoint()], options("root", "wrong"))
        .await
        .unwrap_err();
    assert_eq!(err.status_code(), Some(401), "{err}");
    assert!(err.to_string().contains(&server.endpoint()), "{err}");

    let nobody = Etcd::connect(&[server.endpoint()], options("nobody", "pw"))
        .await
        .unwrap();
    let err = EtcdListerWatcher::<ConfigMap>::new(nobody)
        .list(ListOptions::default())
        .await
        .unwrap_err();
    assert_eq!(err.status_code(), Some(403), "{err}");

    let root = Etcd::connect(&[server.endpoint()], options("root", "secret"))
        .await
        .unwrap();
    EtcdListerWatcher::<ConfigMap>::new(root)
        .list(ListOptions::default())
        .await
        .unwrap();

    let closed = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let endpoint = closed.local_addr().unwrap().to_string();
    drop(closed);
    let nowhere = Etcd::connect(&[endpoint.as_str()], None).await.unwrap();
    let err = EtcdListerWatcher::<ConfigMap>::new(nowhere)
        .list(ListOptions::default())
        .await
        .unwrap_err();
    assert!(matches!(err, Error::Http { .. }), "{err:?}");
    assert!(err.to_string().contains(&endpoint), "{err}");
}

#[tokio::test]
async fn large_objects_list_without_limit_and_a_bulk_delete_is_watched() {
    let server = EtcdServer::start();
    let etcd = server.connect().await;
    let lw = EtcdListerWatcher::<ConfigMap>::new(etcd.clone());
    let writer = lw.writer();
    let big = "x".repeat(200 * 1024);
    for i in 0..60 {
        writer
            .create(&cm("ns", &format!("big{i:02}"), &big))
            .await
            .unwrap();
    }
    // 12 MB: more than one gRPC message of the default size.
    let all = lw.list(ListOptions::default()).await.unwrap();
    assert_eq!(all.items.len(), 60);
    assert_eq!(all.metadata.continue_, None);

    let mut watch = lw
        .watch(watch_from(&all.metadata.resource_version.unwrap()))
        .await
        .unwrap();
    // One revision deleting every object, with every previous value.
    etcd.client()
        .delete(
            "/registry/configmaps/",
            Some(informer_etcd::etcd_client::DeleteOptions::new().with_prefix()),
        )
        .await
        .unwrap();
    for i in 0..60 {
        match next_change(&mut watch).await {
            WatchEvent::Deleted(o) => {
                assert_eq!(name_of(&o), format!("big{i:02}"));
                assert_eq!(o.data.as_ref().unwrap()["k"].len(), big.len());
            }
            other => panic!("expected DELETED, got {other:?}"),
        }
    }
}

/// Stores JSON behind a one-byte version tag, as a stand-in for any custom encoding.
struct TaggedJson;

impl informer_etcd::Codec<ConfigMap> for TaggedJson {
    fn encode(&self, object: &ConfigMap) -> Result<Vec<u8>, informer_etcd::CodecError> {
        let mut out = vec![1u8];
        out.extend(serde_json::to_vec(object)?);
        Ok(out)
    }

    fn decode(&self, value: &[u8]) -> Result<ConfigMap, informer_etcd::CodecError> {
        match value.split_first() {
            Some((1, json)) => Ok(serde_json::from_slice(json)?),
            _ => Err("not a tagged value".into()),
        }
    }
}

#[tokio::test]
async fn a_custom_codec_reads_and_writes_its_own_encoding() {
    let server = EtcdServer::start();
    let etcd = server.connect().await;
    let lw = EtcdListerWatcher::<ConfigMap>::with_prefix(etcd.clone(), "/custom/configmaps/")
        .with_codec(TaggedJson);
    let writer = lw.writer();
    let created = writer.create(&cm("ns", "a", "1")).await.unwrap();
    let raw = etcd
        .client()
        .get("/custom/configmaps/ns/a", None)
        .await
        .unwrap();
    let stored = raw.kvs()[0].value();
    assert_eq!(stored[0], 1);
    let stored: serde_json::Value = serde_json::from_slice(&stored[1..]).unwrap();
    assert!(
        stored["metadata"].get("resourceVersion").is_none(),
        "the version lives in mod_revision, not in the value"
    );
    // A plain JSON value under the same prefix is not this codec's: skipped and counted.
    etcd.client()
        .put(
            "/custom/configmaps/ns/plain",
            serde_json::to_vec(&cm("ns", "plain", "1")).unwrap(),
            None,
        )
        .await
        .unwrap();
    let page = lw.list(ListOptions::default()).await.unwrap();
    assert_eq!(page.items, vec![Arc::new(created)]);
    assert_eq!(lw.stats().undecodable_values(), 1);
}
