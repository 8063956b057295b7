//! Protobuf negotiated over loopback (issue 35): typed informers and `Api`s of built-ins ask
//! for `application/vnd.kubernetes.protobuf, application/json`, decode whichever the server
//! answers, and ask for JSON only when told to or when only JSON can answer (a shard
//! selector). The protobuf bodies are encoded by protoc from Kubernetes' `.proto` files.

use scripted_server as support;

use std::time::Duration;

use futures_util::StreamExt;
use informer_runtime::client::Config;
use informer_runtime::protobuf::decoders;
use informer_runtime::source::typed_protobuf;
use informer_runtime::{new_informer, Api, Client, InformerOptions, ListOptions, WatchEvent};
use k8s_openapi::api::core::v1::ConfigMap;
use support::protoc::{envelope, frame, protoc, watch_event};
use support::{Reply, Server};
use tokio_util::sync::CancellationToken;

const CORE: &str = "api/core/v1/generated.proto";
const PROTOBUF: &str = "application/vnd.kubernetes.protobuf";

/// A ConfigMap as Go's protobuf writes it (every non-pointer field, zeros too).
fn config_map_text(name: &str, rv: &str, value: &str) -> String {
    format!(
        "metadata {{ name: {name:?} generateName: \"\" namespace: \"shop\" selfLink: \"\" \
         uid: \"uid-{name}\" resourceVersion: {rv:?} generation: 0 \
         creationTimestamp {{ seconds: 1700000000 }} \
         managedFields {{ manager: \"m\" operation: \"Update\" fieldsType: \"FieldsV1\" \
         fieldsV1 {{ Raw: \"{{}}\" }} }} }} \
         data {{ key: \"k\" value: {value:?} }}"
    )
}

fn config_map(name: &str, rv: &str, value: &str) -> Vec<u8> {
    let raw = protoc(
        CORE,
        "api.core.v1.ConfigMap",
        &config_map_text(name, rv, value),
    );
    envelope("v1", "ConfigMap", &raw)
}

fn config_map_list(names: &[&str], rv: &str) -> Vec<u8> {
    let items: String = names
        .iter()
        .map(|n| format!("items {{ {} }} ", config_map_text(n, "1", "a")))
        .collect();
    let text =
        format!("metadata {{ selfLink: \"\" resourceVersion: {rv:?} continue: \"\" }} {items}");
    envelope(
        "v1",
        "ConfigMapList",
        &protoc(CORE, "api.core.v1.ConfigMapList", &text),
    )
}

fn bookmark(rv: &str) -> Vec<u8> {
    let text = format!(
        "metadata {{ resourceVersion: {rv:?} annotations {{ key: \"k8s.io/initial-events-end\" value: \"true\" }} }}"
    );
    envelope(
        "v1",
        "ConfigMap",
        &protoc(CORE, "api.core.v1.ConfigMap", &text),
    )
}

fn gone() -> Vec<u8> {
    let text = "metadata { selfLink: \"\" resourceVersion: \"\" } status: \"Failure\" \
                message: \"too old resource version: 1 (50)\" reason: \"Expired\" code: 410";
    let raw = protoc(
        "apimachinery/pkg/apis/meta/v1/generated.proto",
        "apimachinery.pkg.apis.meta.v1.Status",
        text,
    );
    envelope("v1", "Status", &raw)
}

fn protobuf_reply(chunks: Vec<Vec<u8>>, content_type: &str) -> Reply {
    let mut reply = Reply::chunks(200, chunks).fast(false);
    reply.headers = vec![("content-type", content_type.to_owned())];
    reply
}

fn watch_body() -> Vec<Vec<u8>> {
    let mut body = Vec::new();
    for (kind, object) in [
        ("ADDED", config_map("c", "11", "x")),
        ("MODIFIED", config_map("a", "12", "y")),
        ("BOOKMARK", bookmark("13")),
        ("DELETED", config_map("b", "14", "a")),
        ("ERROR", gone()),
    ] {
        body.extend(frame(&watch_event(kind, &object)));
    }
    // Cut across frame boundaries, as a network would.
    body.chunks(7).map(<[u8]>::to_vec).collect()
}

async fn server() -> Server {
    Server::start(None, |seen| {
        let protobuf = seen
            .accept
            .as_deref()
            .is_some_and(|a| a.starts_with(PROTOBUF));
        match (seen.param("watch").as_deref(), protobuf) {
            (Some("1"), true) => protobuf_reply(
                watch_body(),
                "application/vnd.kubernetes.protobuf;stream=watch",
            ),
            (None, true) if seen.path.ends_with("/configmaps") => {
                protobuf_reply(vec![config_map_list(&["a", "b"], "10")], PROTOBUF)
            }
            (None, true) => protobuf_reply(vec![config_map("a", "10", "a")], PROTOBUF),
            // A server that cannot answer protobuf answers JSON.
            _ => Reply::json(
                200,
                r#"{"kind":"ConfigMapList","apiVersion":"v1","metadata":{"resourceVersion":"10"},
                    "items":[{"metadata":{"name":"j","namespace":"shop","resourceVersion":"3"}}]}"#,
            ),
        }
    })
    .await
}

fn client(url: &str, disable_protobuf: bool) -> Client {
    let mut config = Config::new(url);
    config.disable_protobuf = disable_protobuf;
    Client::new(config).expect("client")
}

#[tokio::test]
async fn an_api_lists_gets_and_watches_as_protobuf() {
    let server = server().await;
    let api =
        Api::<ConfigMap>::namespaced(client(&server.url, false), "shop").with_protobuf(decoders());

    let list = api.list(&ListOptions::default()).await.expect("list");
    assert_eq!(list.metadata.resource_version.as_deref(), Some("10"));
    let names: Vec<_> = list
        .items
        .iter()
        .map(|c| c.metadata.name.clone().unwrap_or_default())
        .collect();
    assert_eq!(names, ["a", "b"]);
    assert_eq!(
        list.items[0].metadata.generate_name, None,
        "Go's zero of an omitempty field"
    );
    assert!(
        list.items[0].metadata.managed_fields.is_some(),
        "kept unless the client omits them"
    );

    let got = api.get("a").await.expect("get");
    assert_eq!(
        got.data.and_then(|d| d.get("k").cloned()).as_deref(),
        Some("a")
    );

    let mut events = api.watch(&ListOptions::default()).await.expect("watch");
    let mut seen = Vec::new();
    while let Some(event) = events.next().await {
        seen.push(match event.expect("event") {
            WatchEvent::Added(c) => format!("added {}", c.metadata.name.unwrap_or_default()),
            WatchEvent::Modified(c) => format!("modified {}", c.metadata.name.unwrap_or_default()),
            WatchEvent::Deleted(c) => format!("deleted {}", c.metadata.name.unwrap_or_default()),
            WatchEvent::Bookmark(b) => {
                format!("bookmark {} {}", b.resource_version, b.initial_events_end)
            }
            WatchEvent::Error(s) => format!("error {:?} {:?}", s.code, s.reason),
            other => format!("unexpected {other:?}"),
        });
    }
    assert_eq!(
        seen,
        [
            "added c",
            "modified a",
            "bookmark 13 true",
            "deleted b",
            "error Some(410) Some(\"Expired\")"
        ]
    );
    for request in server.seen() {
        assert_eq!(
            request.accept.as_deref(),
            Some("application/vnd.kubernetes.protobuf, application/json"),
            "{}",
            request.path
        );
    }
}

#[tokio::test]
async fn json_when_the_client_disables_protobuf_or_the_request_needs_json() {
    let server = server().await;
    let api =
        Api::<ConfigMap>::namespaced(client(&server.url, true), "shop").with_protobuf(decoders());
    let list = api.list(&ListOptions::default()).await.expect("list");
    assert_eq!(list.items[0].metadata.name.as_deref(), Some("j"));

    let api =
        Api::<ConfigMap>::namespaced(client(&server.url, false), "shop").with_protobuf(decoders());
    let sharded = ListOptions {
        shard_selector: Some(
            "shardRange(object.metadata.uid, '0x0000000000000000', '0x8000000000000000')"
                .parse()
                .expect("selector"),
        ),
        ..Default::default()
    };
    // Only a JSON list says whether the server applied the selector.
    api.list(&sharded).await.expect("sharded list");
    let accepts: Vec<_> = server
        .seen()
        .into_iter()
        .map(|s| s.accept.unwrap_or_default())
        .collect();
    assert_eq!(accepts, ["application/json", "application/json"]);
}

#[tokio::test]
async fn an_informer_syncs_from_protobuf_and_falls_back_to_json() {
    for disable in [false, true] {
        let server = server().await;
        let client = client(&server.url, disable).omitting_managed_fields();
        let informer = new_informer(
            &client,
            &typed_protobuf::<ConfigMap>(),
            Some("shop"),
            InformerOptions::default(),
        );
        let cancel = CancellationToken::new();
        let run = tokio::spawn(informer.run(cancel.clone()));
        tokio::time::timeout(Duration::from_secs(30), async {
            while !informer.has_synced() {
                tokio::time::sleep(Duration::from_millis(5)).await;
            }
        })
        .await
        .expect("synced");
        let mut names: Vec<_> = informer
            .indexer()
            .list()
            .iter()
            .map(|c| c.metadata.name.clone().unwrap_or_default())
            .collect();
        names.sort();
        if disable {
            assert_eq!(names, ["j"]);
        } else {
            assert_eq!(names, ["a", "b"]);
            let a = informer
                .indexer()
                .list()
                .into_iter()
                .find(|c| c.metadata.name.as_deref() == Some("a"))
                .expect("a");
            assert_eq!(
                a.metadata.managed_fields, None,
                "omitted by the client, never decoded"
            );
        }
        cancel.cancel();
        let _ = run.await;
    }
}

/// A server answering every list with `body`, cut into chunks of `cut` bytes.
async fn list_server(body: Vec<u8>, cut: usize) -> Server {
    Server::start(None, move |_| {
        protobuf_reply(body.chunks(cut).map(<[u8]>::to_vec).collect(), PROTOBUF)
    })
    .await
}

fn names(list: &informer_runtime::ObjectList<ConfigMap>) -> Vec<String> {
    list.items
        .iter()
        .map(|c| c.metadata.name.clone().unwrap_or_default())
        .collect()
}

#[tokio::test]
async fn a_list_is_decoded_as_it_arrives_however_it_is_cut() {
    let few = ["a", "b", "c"].map(String::from).to_vec();
    let many: Vec<String> = (0..300).map(|i| format!("cm-{i:03}")).collect();
    // One byte at a time, cuts inside most fields, and chunks larger than a decode batch.
    for (names_in, cut) in [(&few, 1), (&many, 13), (&many, 1000), (&many, 300 * 1024)] {
        let refs: Vec<&str> = names_in.iter().map(String::as_str).collect();
        let body = config_map_list(&refs, "77");
        let server = list_server(body, cut).await;
        let api = Api::<ConfigMap>::namespaced(client(&server.url, false), "shop")
            .with_protobuf(decoders());
        let list = api.list(&ListOptions::default()).await.expect("list");
        assert_eq!(list.metadata.resource_version.as_deref(), Some("77"));
        assert_eq!(&names(&list), names_in, "cut every {cut} bytes");
    }
}

#[tokio::test]
async fn a_bad_item_or_an_unexpected_body_fails_naming_what() {
    // Item 1's metadata field gets wire type 7, which no message uses.
    let mut body = config_map_list(&["a", "b", "c"], "5");
    let second = config_map_text("b", "1", "a");
    let encoded = protoc(CORE, "api.core.v1.ConfigMap", &second);
    let at = body
        .windows(encoded.len())
        .position(|w| w == encoded.as_slice())
        .expect("item b in the list");
    assert_eq!(body[at], 0x0a, "field 1, length-delimited");
    body[at] = 0x0f;
    let server = list_server(body, 64).await;
    let api =
        Api::<ConfigMap>::namespaced(client(&server.url, false), "shop").with_protobuf(decoders());
    let err = api.list(&ListOptions::default()).await.unwrap_err();
    assert!(
        err.to_string().contains("item 1 of the protobuf list body"),
        "{err}"
    );

    // No magic: the whole-body decoder says what is wrong with it.
    let mut body = config_map_list(&["a"], "5");
    body[0] = b'j';
    let server = list_server(body, 64).await;
    let api =
        Api::<ConfigMap>::namespaced(client(&server.url, false), "shop").with_protobuf(decoders());
    let err = api.list(&ListOptions::default()).await.unwrap_err();
    assert!(err.to_string().contains("the protobuf list body"), "{err}");

    // Cut short inside an item.
    let body = config_map_list(&["a", "b"], "5");
    let server = list_server(body[..body.len() - 3].to_vec(), 64).await;
    let api =
        Api::<ConfigMap>::namespaced(client(&server.url, false), "shop").with_protobuf(decoders());
    let err = api.list(&ListOptions::default()).await.unwrap_err();
    assert!(err.to_string().contains("the protobuf list body"), "{err}");
}
