//! Bodies, lists and watch streams encoded by protoc from Kubernetes' `.proto` files.

mod common;

use std::collections::BTreeMap;

use common::kube::{
    Container, ControllerRevision, Event, HttpGet, Managed, Meta, Pod, PodMetrics, Port, Probe,
    Resources, Spec,
};
use common::{envelope, frame, literal, protoc, protoc_in, watch_event};
use informer_protobuf::{
    decode_list, decode_object, decode_watch_event, DecodeOptions, ErrorKind, FrameReader,
    TypeMeta, WatchEvent, WireType,
};
use k8s_openapi::apimachinery::pkg::api::resource::Quantity;
use k8s_openapi::apimachinery::pkg::apis::meta::v1 as meta;
use k8s_openapi::apimachinery::pkg::util::intstr::IntOrString;
use k8s_openapi::jiff::Timestamp;

const POD: &str = r#"
metadata {
  name: "web-0" generateName: "" namespace: "default" uid: "u-1" resourceVersion: "123"
  generation: 0
  creationTimestamp { seconds: 1700000000 nanos: 5 }
  labels { key: "app" value: "web" }
  labels { key: "tier" value: "" }
  finalizers: "a" finalizers: "b"
  managedFields {
    manager: "kubectl" operation: "Apply" time { seconds: 1700000001 } fieldsType: "FieldsV1"
    fieldsV1 { Raw: "{\"f:metadata\":{\"f:labels\":{}}}" }
  }
}
spec {
  containers {
    name: "a" image: "nginx" workingDir: "/w" args: "-v" args: ""
    ports { name: "http" hostPort: 0 containerPort: 80 protocol: "TCP" }
    ports { containerPort: -1 }
    resources {
      limits { key: "cpu" value { string: "500m" } }
      requests { key: "memory" value { string: "128Mi" } }
    }
    readinessProbe {
      handler { httpGet { path: "/healthz" port { type: 0 intVal: 8080 } } }
      initialDelaySeconds: 0
    }
  }
  containers {
    name: "b" image: ""
    readinessProbe { handler { httpGet { port { type: 1 strVal: "http" } } } initialDelaySeconds: 3 }
  }
  containers { name: "c" }
  terminationGracePeriodSeconds: 0
  nodeSelector { key: "disk" value: "ssd" }
  restartPolicy: "Always"
}
status { phase: "Running" podIP: "10.0.0.1" }
"#;

fn pod_raw() -> Vec<u8> {
    protoc("api/core/v1/generated.proto", "api.core.v1.Pod", POD)
}

fn at(seconds: i64) -> meta::Time {
    meta::Time(Timestamp::from_second(seconds).expect("in range"))
}

fn strings<const N: usize>(pairs: [(&str, &str); N]) -> BTreeMap<String, String> {
    pairs.map(|(k, v)| (k.to_owned(), v.to_owned())).into()
}

fn expected_pod() -> Pod {
    Pod {
        metadata: Meta {
            name: Some("web-0".into()),
            namespace: Some("default".into()),
            resource_version: Some("123".into()),
            generation: None,
            creation_timestamp: Some(at(1_700_000_000)),
            deletion_timestamp: None,
            labels: Some(strings([("app", "web"), ("tier", "")])),
            finalizers: Some(vec!["a".into(), "b".into()]),
            managed_fields: None,
        },
        spec: Some(Spec {
            containers: vec![
                Container {
                    name: "a".into(),
                    image: Some("nginx".into()),
                    args: Some(vec!["-v".into(), String::new()]),
                    ports: Some(vec![
                        Port {
                            name: Some("http".into()),
                            host_port: None,
                            container_port: 80,
                            protocol: Some("TCP".into()),
                        },
                        Port {
                            container_port: -1,
                            ..Port::default()
                        },
                    ]),
                    resources: Some(Resources {
                        limits: Some([("cpu".to_owned(), Quantity("500m".into()))].into()),
                        requests: Some([("memory".to_owned(), Quantity("128Mi".into()))].into()),
                    }),
                    readiness_probe: Some(Probe {
                        http_get: Some(HttpGet {
                            path: Some("/healthz".into()),
                            port: IntOrString::Int(8080),
                        }),
                        initial_delay_seconds: None,
                    }),
                },
                Container {
                    name: "b".into(),
                    image: None,
                    readiness_probe: Some(Probe {
                        http_get: Some(HttpGet {
                            path: None,
                            port: IntOrString::String("http".into()),
                        }),
                        initial_delay_seconds: Some(3),
                    }),
                    ..Container::default()
                },
                Container {
                    name: "c".into(),
                    ..Container::default()
                },
            ],
            termination_grace_period_seconds: Some(0),
            node_selector: Some(strings([("disk", "ssd")])),
            automount_service_account_token: None,
        }),
    }
}

#[test]
fn a_pod() {
    let body = envelope("v1", "Pod", &pod_raw());
    let (type_meta, pod) = decode_object::<Pod>(&body, DecodeOptions::default()).unwrap();
    assert_eq!(
        type_meta,
        TypeMeta {
            api_version: "v1".into(),
            kind: "Pod".into()
        }
    );
    assert_eq!(pod, expected_pod());
}

#[test]
fn managed_fields_when_kept() {
    let body = envelope("v1", "Pod", &pod_raw());
    let options = DecodeOptions::default().keep_managed_fields(true);
    let (_, pod) = decode_object::<Pod>(&body, options).unwrap();
    assert_eq!(
        pod.metadata.managed_fields,
        Some(vec![Managed {
            manager: Some("kubectl".into()),
            time: Some(at(1_700_000_001)),
            fields_v1: Some(meta::FieldsV1(
                serde_json::json!({"f:metadata": {"f:labels": {}}})
            )),
        }])
    );
}

#[test]
fn negative_int32_is_ten_bytes_from_protoc() {
    let raw = protoc(
        "api/core/v1/generated.proto",
        "api.core.v1.ContainerPort",
        "containerPort: -1",
    );
    assert_eq!(raw.len(), 11);
}

#[test]
fn every_truncation_of_a_pod() {
    let body = envelope("v1", "Pod", &pod_raw());
    // Only the trailing empty contentEncoding and contentType can be cut off unnoticed.
    let boundaries = [body.len() - 4, body.len() - 2];
    for len in 0..body.len() {
        let result = decode_object::<Pod>(&body[..len], DecodeOptions::default());
        assert_eq!(
            result.is_ok(),
            boundaries.contains(&len),
            "prefix of {len} bytes"
        );
    }
}

#[test]
fn a_field_of_the_wrong_type_names_its_path() {
    // A server whose schema disagrees: containerPort is a string.
    let dir = std::env::temp_dir().join(format!("informer-protobuf-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(
        dir.join("wrong.proto"),
        r#"syntax = "proto2";
        package wrong;
        message Pod { optional Spec spec = 2; }
        message Spec { repeated Container containers = 2; }
        message Container { optional string name = 1; repeated Port ports = 6; }
        message Port { optional string containerPort = 3; }
        "#,
    )
    .unwrap();
    let raw = protoc_in(
        std::slice::from_ref(&dir),
        "wrong.proto",
        "wrong.Pod",
        r#"spec { containers { name: "a" } containers { name: "b" }
           containers { name: "c" ports { containerPort: "80" } } }"#,
    );
    std::fs::remove_dir_all(&dir).unwrap();
    let body = envelope("v1", "Pod", &raw);
    let at = body
        .windows(4)
        .position(|w| w == [0x1a, 2, b'8', b'0'])
        .unwrap();
    let err = decode_object::<Pod>(&body, DecodeOptions::default()).unwrap_err();
    assert_eq!(
        err.to_string(),
        format!(
            "decoding a Pod from protobuf: spec.containers[2].ports[0].containerPort: wrong wire \
             type (expected varint, found length-delimited) at byte {at}"
        )
    );
    assert_eq!(
        err.kind(),
        &ErrorKind::WrongWireType {
            expected: WireType::Varint,
            found: WireType::Len
        }
    );
}

#[test]
fn a_pod_list() {
    let text = format!(
        "metadata {{ selfLink: \"\" resourceVersion: \"77\" continue: \"token\" \
         remainingItemCount: 5 }} items {{ {POD} }} items {{ metadata {{ name: \"empty\" }} }}"
    );
    let raw = protoc("api/core/v1/generated.proto", "api.core.v1.PodList", &text);
    let list =
        decode_list::<Pod>(&envelope("v1", "PodList", &raw), DecodeOptions::default()).unwrap();
    assert_eq!(list.type_meta.kind, "PodList");
    assert_eq!(list.metadata.self_link, None);
    assert_eq!(list.metadata.resource_version.as_deref(), Some("77"));
    assert_eq!(list.metadata.continue_.as_deref(), Some("token"));
    assert_eq!(list.metadata.remaining_item_count, Some(5));
    assert_eq!(list.items.len(), 2);
    assert_eq!(list.items[0], expected_pod());
    assert_eq!(list.items[1].metadata.name.as_deref(), Some("empty"));
    assert_eq!(list.items[1].spec, None);
}

#[test]
fn a_watch_stream_byte_by_byte() {
    let pod = envelope("v1", "Pod", &pod_raw());
    let bookmark_raw = protoc(
        "api/core/v1/generated.proto",
        "api.core.v1.Pod",
        r#"metadata { resourceVersion: "200" annotations { key: "k8s.io/initial-events-end" value: "true" } }"#,
    );
    let status_raw = protoc(
        "apimachinery/pkg/apis/meta/v1/generated.proto",
        "apimachinery.pkg.apis.meta.v1.Status",
        r#"metadata { } status: "Failure" message: "too old resource version: 1 (200)"
           reason: "Expired" code: 410"#,
    );
    let mut stream = Vec::new();
    for (event_type, object) in [
        ("ADDED", pod.clone()),
        ("MODIFIED", pod.clone()),
        ("BOOKMARK", envelope("v1", "Pod", &bookmark_raw)),
        ("DELETED", pod),
        ("ERROR", envelope("v1", "Status", &status_raw)),
    ] {
        stream.extend(frame(&watch_event(event_type, &object)));
    }

    let mut frames = FrameReader::new(1 << 20);
    let mut events = Vec::new();
    for byte in &stream {
        frames.push(std::slice::from_ref(byte));
        while let Some(frame) = frames.next_frame().unwrap() {
            events.push(decode_watch_event::<Pod>(&frame, DecodeOptions::default()).unwrap());
        }
    }
    frames.finish().unwrap();

    let bookmark = Pod {
        metadata: Meta {
            resource_version: Some("200".into()),
            ..Meta::default()
        },
        spec: None,
    };
    let status = meta::Status {
        status: Some("Failure".into()),
        message: Some("too old resource version: 1 (200)".into()),
        reason: Some("Expired".into()),
        code: Some(410),
        ..meta::Status::default()
    };
    assert_eq!(
        events,
        [
            WatchEvent::Added(expected_pod()),
            WatchEvent::Modified(expected_pod()),
            WatchEvent::Bookmark(bookmark),
            WatchEvent::Deleted(expected_pod()),
            WatchEvent::Error(status),
        ]
    );
}

#[test]
fn micro_time_and_time_of_an_event() {
    let raw = protoc(
        "api/events/v1/generated.proto",
        "api.events.v1.Event",
        r#"eventTime { seconds: 1700000000 nanos: 123456789 } deprecatedFirstTimestamp { }
           deprecatedCount: 0 note: "pulled""#,
    );
    let (_, event) = decode_object::<Event>(
        &envelope("events.k8s.io/v1", "Event", &raw),
        DecodeOptions::default(),
    )
    .unwrap();
    assert_eq!(
        event.event_time.map(|t| t.0.to_string()).as_deref(),
        Some("2023-11-14T22:13:20.123456Z")
    );
    // An empty Time is Go's zero time: JSON null.
    assert_eq!(event.deprecated_first_timestamp, None);
    assert_eq!(event.deprecated_count, None);
    assert_eq!(event.note.as_deref(), Some("pulled"));
}

#[test]
fn duration_of_pod_metrics() {
    for (nanos, want) in [
        (30_000_000_000i64, "30s"),
        (90_500_000_000, "1m30.5s"),
        (0, "0s"),
    ] {
        let raw = protoc(
            "metrics/pkg/apis/metrics/v1beta1/generated.proto",
            "metrics.pkg.apis.metrics.v1beta1.PodMetrics",
            &format!("timestamp {{ seconds: 1 }} window {{ duration: {nanos} }}"),
        );
        let body = envelope("metrics.k8s.io/v1beta1", "PodMetrics", &raw);
        let (_, metrics) = decode_object::<PodMetrics>(&body, DecodeOptions::default()).unwrap();
        assert_eq!(metrics.window, want);
        assert_eq!(metrics.timestamp, Some(at(1)));
    }
}

#[test]
fn raw_extension_of_a_controller_revision() {
    let raw = protoc(
        "api/apps/v1/generated.proto",
        "api.apps.v1.ControllerRevision",
        &format!(
            "data {{ raw: {} }} revision: 3",
            literal(br#"{"spec":{"template":{"metadata":{"labels":{"app":"web"}}}}}"#)
        ),
    );
    let body = envelope("apps/v1", "ControllerRevision", &raw);
    let (_, revision) =
        decode_object::<ControllerRevision>(&body, DecodeOptions::default()).unwrap();
    assert_eq!(revision.revision, 3);
    assert_eq!(
        revision.data.map(|d| d.0),
        Some(serde_json::json!({"spec": {"template": {"metadata": {"labels": {"app": "web"}}}}}))
    );

    let raw = protoc(
        "api/apps/v1/generated.proto",
        "api.apps.v1.ControllerRevision",
        &format!("data {{ raw: {} }}", literal(b"k8s\0\x0a\x00")),
    );
    let body = envelope("apps/v1", "ControllerRevision", &raw);
    let err = decode_object::<ControllerRevision>(&body, DecodeOptions::default()).unwrap_err();
    assert!(matches!(err.kind(), ErrorKind::Unsupported(_)), "{err}");
    assert_eq!(err.path(), "data");
}
