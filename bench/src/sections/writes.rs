//! Writes per second on the test API server over HTTP, with its admission step
//! (`NamespaceLifecycle`, metadata validation, a custom resource's pruning, defaulting and
//! schema validation) on and off in the same run: the checks must not make the server the
//! bottleneck of a controller's test (issue 31: on/off at least 0.7).
//!
//! Creates, then updates (PUT with the resourceVersion each create answered), of a
//! realistic ~4.8 KB Pod and of a Widget whose CRD has a schema, from a few concurrent
//! writers on kept-alive connections. The server runs in this process, without its garbage
//! collector (it would only add the same work to both sides).
//!
//! Then, for the Pods (three managers in their `managedFields`, as a real server keeps
//! them), server-side applies against merge patches of the same change in the same run
//! (issue 30), and the field-ownership engine's cost per apply in-process, against decoding
//! the same Pod's JSON.

use std::time::Instant;

use bytes::Bytes;
use http_body_util::{BodyExt, Full};
use hyper_util::client::legacy::connect::HttpConnector;
use hyper_util::client::legacy::Client;
use hyper_util::rt::TokioExecutor;
use serde_json::{json, Value};
use test_apiserver::{fixtures, RunningServer, TestApiServer};

use super::Ctx;
use crate::error::BenchError;
use crate::results::{Record, Target};

const SECTION: &str = "writes";

/// Concurrent writers: enough to keep the server busy on two cores.
const WRITERS: usize = 8;

const NAMESPACE: &str = "bench";

type HttpClient = Client<HttpConnector, Full<Bytes>>;

/// What is written.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kind {
    Pod,
    Widget,
}

impl Kind {
    fn name(self) -> &'static str {
        match self {
            Kind::Pod => "pod",
            Kind::Widget => "widget",
        }
    }

    fn collection(self, url: &str) -> String {
        match self {
            Kind::Pod => format!("{url}/api/v1/namespaces/{NAMESPACE}/pods"),
            Kind::Widget => format!("{url}/apis/example.com/v1/namespaces/{NAMESPACE}/widgets"),
        }
    }

    fn object(self, i: usize) -> Value {
        let name = format!("{}-{i}", self.name());
        match self {
            Kind::Pod => fixtures::pod(NAMESPACE, &name, i),
            Kind::Widget => widget(&name, i),
        }
    }
}

/// Writes per second of one kind, creates and updates, with admission on or off.
#[derive(Clone, Copy, Debug, Default)]
struct Rates {
    create: f64,
    update: f64,
    /// Server-side applies of a label by a fourth manager (Pods only).
    apply: f64,
    /// Merge patches of the same label (Pods only).
    merge: f64,
}

/// Runs the section.
pub async fn run(ctx: Ctx) -> Result<Vec<Record>, BenchError> {
    // Quick mode stays at a few seconds; two rounds keep one slow moment from deciding it.
    let n = if ctx.quick { 1_500 } else { 10_000 };
    let rounds: usize = if ctx.quick { 2 } else { 3 };
    let mut records = Vec::new();
    for kind in [Kind::Pod, Kind::Widget] {
        let mut on = Rates::default();
        let mut off = Rates::default();
        let mut size = 0;
        for round in 0..rounds {
            // Alternate which side goes first, so neither always gets the warmer machine.
            let order = if round.is_multiple_of(2) {
                [true, false]
            } else {
                [false, true]
            };
            for admission in order {
                let (rates, bytes) = measure(kind, n, admission).await?;
                size = bytes;
                let best = if admission { &mut on } else { &mut off };
                best.create = best.create.max(rates.create);
                best.update = best.update.max(rates.update);
                best.apply = best.apply.max(rates.apply);
                best.merge = best.merge.max(rates.merge);
            }
        }
        let note = format!(
            "{n} writes of a {:.1} KB {} by {WRITERS} HTTP/1.1 writers, best of {rounds}; baseline: the same server built with .admission(false)",
            size as f64 / 1e3,
            kind.name()
        );
        for (verb, value, baseline) in [
            ("create", on.create, off.create),
            ("update", on.update, off.update),
        ] {
            records.push(
                Record::new(
                    SECTION,
                    format!("writes.{}.{verb}_per_s", kind.name()),
                    value,
                    "writes/s",
                )
                .against("admission off", baseline)
                .target(Target::ratio_at_least(0.7))
                .note(note.clone()),
            );
        }
        if kind == Kind::Pod {
            records.push(
                Record::new(SECTION, "writes.pod.apply_per_s", on.apply, "writes/s")
                    .against("merge patch", on.merge)
                    .note(format!(
                        "{n} server-side applies (force) of one label by a fourth manager to {:.1} KB Pods whose managedFields hold three managers, by {WRITERS} writers, best of {rounds}; baseline: merge patches of the same label on the same server",
                        size as f64 / 1e3
                    )),
            );
        }
    }
    records.push(engine_cost(if ctx.quick { 2_000 } else { 20_000 })?);
    Ok(records)
}

/// The field-ownership engine on one ~4.8 KB Pod with three managers, in-process: decode
/// its `managedFields`, apply a label for a fourth manager (merge, field sets, conflicts,
/// removal) and encode them again, as the server does for each apply, against
/// decoding the same Pod's JSON once.
fn engine_cost(iterations: usize) -> Result<Record, BenchError> {
    use informer_merge::managed::{ManagedFields, Manager};
    use informer_merge::schema;
    use informer_merge::typed::TypeRef;

    let mut pod = fixtures::pod(NAMESPACE, "pod-0", 0);
    let managed = pod["metadata"]
        .as_object_mut()
        .and_then(|m| m.remove("managedFields"))
        .unwrap_or(Value::Null);
    let body = encode(&pod, Kind::Pod)?;
    let config = json!({
        "apiVersion": "v1",
        "kind": "Pod",
        "metadata": {"name": "pod-0", "namespace": NAMESPACE, "labels": {"revision": "2"}},
    });
    let ty = TypeRef::builtin(schema::builtin(), "v1", "Pod")
        .ok_or_else(|| BenchError::Server("the built-in schema has no v1 Pod".into()))?;
    let manager = Manager::apply("bench-applier", "");
    let failed = |e: String| BenchError::Server(format!("apply in the engine: {e}"));
    let best_of = |f: &mut dyn FnMut() -> Result<(), BenchError>| {
        let mut best = f64::INFINITY;
        for _ in 0..3 {
            let start = Instant::now();
            for _ in 0..iterations {
                f()?;
            }
            best = best.min(start.elapsed().as_secs_f64() / iterations as f64);
        }
        Ok::<_, BenchError>(best)
    };
    let apply = best_of(&mut || {
        let mut fields = ManagedFields::decode(&managed).map_err(|e| failed(e.to_string()))?;
        let merged = fields
            .apply(
                &pod,
                &config,
                ty,
                &manager,
                true,
                None,
                "2026-01-01T00:00:00Z",
            )
            .map_err(|e| failed(e.to_string()))?;
        std::hint::black_box((merged, fields.to_value()));
        Ok(())
    })?;
    let decode = best_of(&mut || {
        let value: Value = serde_json::from_slice(&body).map_err(|source| BenchError::Decode {
            what: "the bench Pod".into(),
            source,
        })?;
        std::hint::black_box(value);
        Ok(())
    })?;
    Ok(
        Record::new(SECTION, "writes.engine.apply_us", apply * 1e6, "µs")
            .against("decoding the Pod's JSON", decode * 1e6)
            .note(format!(
                "one apply of a label by a fourth manager to a {:.1} KB Pod with three managers: managedFields decoded, merged, owned sets and conflicts computed, encoded; best of 3 × {iterations}",
                body.len() as f64 / 1e3
            )),
    )
}

/// One fresh server: `n` creates, then `n` updates of what they created. Returns the
/// rates and the size of one created body.
async fn measure(kind: Kind, n: usize, admission: bool) -> Result<(Rates, usize), BenchError> {
    let server = TestApiServer::builder()
        .namespaces([NAMESPACE])
        .crd(WIDGET_CRD)
        .garbage_collection(false)
        .admission(admission)
        .start()
        .await
        .map_err(|e| BenchError::Server(format!("start the test server: {e}")))?;
    let result = write_all(&server, kind, n).await;
    server.shutdown().await;
    result
}

async fn write_all(
    server: &RunningServer,
    kind: Kind,
    n: usize,
) -> Result<(Rates, usize), BenchError> {
    let client: HttpClient = Client::builder(TokioExecutor::new()).build_http();
    let collection = kind.collection(&server.url());
    let objects: Vec<Value> = (0..n).map(|i| kind.object(i)).collect();
    let creates = objects
        .iter()
        .map(|o| encode(o, kind))
        .collect::<Result<Vec<_>, _>>()?;
    let size = creates.first().map_or(0, Bytes::len);
    let requests: Vec<(hyper::Method, String, Bytes)> = creates
        .into_iter()
        .map(|body| (hyper::Method::POST, collection.clone(), body))
        .collect();
    let start = Instant::now();
    let answers = send_all(&client, requests).await?;
    let create = n as f64 / start.elapsed().as_secs_f64();

    let mut updates = Vec::with_capacity(n);
    for (i, (mut object, answer)) in objects.into_iter().zip(answers).enumerate() {
        let rv = resource_version(&answer)?;
        let name = format!("{}-{i}", kind.name());
        object["metadata"]["resourceVersion"] = json!(rv);
        match kind {
            Kind::Pod => object["metadata"]["labels"]["revision"] = json!("2"),
            Kind::Widget => object["spec"]["size"] = json!(1 + (i + 1) % 10),
        }
        updates.push((
            hyper::Method::PUT,
            format!("{collection}/{name}"),
            encode(&object, kind)?,
        ));
    }
    let start = Instant::now();
    send_all(&client, updates).await?;
    let update = n as f64 / start.elapsed().as_secs_f64();
    let mut rates = Rates {
        create,
        update,
        ..Rates::default()
    };
    if kind == Kind::Pod {
        rates.merge = patch_all(&client, &collection, n, false).await?;
        rates.apply = patch_all(&client, &collection, n, true).await?;
    }
    Ok((rates, size))
}

/// Sets label `revision` of every Pod to a new value, by server-side apply as manager
/// `bench-applier` (forced) or by merge patch as `bench-patcher`; returns writes per second.
async fn patch_all(
    client: &HttpClient,
    collection: &str,
    n: usize,
    apply: bool,
) -> Result<f64, BenchError> {
    let (content_type, query) = if apply {
        (
            "application/apply-patch+yaml",
            "fieldManager=bench-applier&force=true",
        )
    } else {
        ("application/merge-patch+json", "fieldManager=bench-patcher")
    };
    let mut requests = Vec::with_capacity(n);
    for i in 0..n {
        let name = format!("{}-{i}", Kind::Pod.name());
        let body = if apply {
            json!({
                "apiVersion": "v1",
                "kind": "Pod",
                "metadata": {"name": name, "namespace": NAMESPACE, "labels": {"revision": "apply"}},
            })
        } else {
            json!({"metadata": {"labels": {"revision": "merge"}}})
        };
        requests.push((
            hyper::Method::PATCH,
            format!("{collection}/{name}?{query}"),
            encode(&body, Kind::Pod)?,
        ));
    }
    let start = Instant::now();
    send_all_as(client, requests, content_type).await?;
    Ok(n as f64 / start.elapsed().as_secs_f64())
}

fn encode(object: &Value, kind: Kind) -> Result<Bytes, BenchError> {
    serde_json::to_vec(object)
        .map(Bytes::from)
        .map_err(|source| BenchError::Encode {
            what: format!("a {}", kind.name()),
            source,
        })
}

/// Sends every request, `WRITERS` at a time, each writer taking the next one in turn.
/// Returns the answers' bodies in request order; any answer other than 200/201 fails.
async fn send_all(
    client: &HttpClient,
    requests: Vec<(hyper::Method, String, Bytes)>,
) -> Result<Vec<Bytes>, BenchError> {
    send_all_as(client, requests, "application/json").await
}

/// [`send_all`] with bodies of `content_type`.
async fn send_all_as(
    client: &HttpClient,
    requests: Vec<(hyper::Method, String, Bytes)>,
    content_type: &'static str,
) -> Result<Vec<Bytes>, BenchError> {
    let total = requests.len();
    let queue = std::sync::Arc::new(std::sync::Mutex::new(
        requests.into_iter().enumerate().collect::<Vec<_>>(),
    ));
    let mut writers = Vec::new();
    for _ in 0..WRITERS {
        let client = client.clone();
        let queue = queue.clone();
        writers.push(tokio::spawn(async move {
            let mut done = Vec::new();
            loop {
                let next = queue.lock().unwrap_or_else(|p| p.into_inner()).pop();
                let Some((i, (method, url, body))) = next else {
                    return Ok::<_, BenchError>(done);
                };
                done.push((i, send(&client, method, &url, body, content_type).await?));
            }
        }));
    }
    let mut answers: Vec<Option<Bytes>> = vec![None; total];
    for writer in writers {
        let done = writer
            .await
            .map_err(|e| BenchError::Server(format!("writer task: {e}")))??;
        for (i, body) in done {
            answers[i] = Some(body);
        }
    }
    answers
        .into_iter()
        .map(|a| a.ok_or_else(|| BenchError::Server("a write got no answer".into())))
        .collect()
}

async fn send(
    client: &HttpClient,
    method: hyper::Method,
    url: &str,
    body: Bytes,
    content_type: &str,
) -> Result<Bytes, BenchError> {
    let step = format!("{method} write");
    let err = |reason: String| BenchError::Http {
        step: step.clone(),
        url: url.to_owned(),
        reason,
    };
    let req = hyper::Request::builder()
        .method(method.clone())
        .uri(url)
        .header("content-type", content_type)
        .body(Full::new(body))
        .map_err(|e| err(e.to_string()))?;
    let resp = client.request(req).await.map_err(|e| err(e.to_string()))?;
    let status = resp.status();
    let bytes = resp
        .into_body()
        .collect()
        .await
        .map_err(|e| err(e.to_string()))?
        .to_bytes();
    if !status.is_success() {
        return Err(err(format!(
            "status {status}: {}",
            String::from_utf8_lossy(&bytes)
        )));
    }
    Ok(bytes)
}

fn resource_version(answer: &[u8]) -> Result<String, BenchError> {
    #[derive(serde::Deserialize)]
    struct Answer {
        metadata: Meta,
    }
    #[derive(serde::Deserialize)]
    struct Meta {
        #[serde(rename = "resourceVersion")]
        resource_version: String,
    }
    serde_json::from_slice::<Answer>(answer)
        .map(|a| a.metadata.resource_version)
        .map_err(|source| BenchError::Decode {
            what: "a create's answer".into(),
            source,
        })
}

/// A Widget as a controller would keep one: a spec the schema checks field by field,
/// a status, labels and annotations.
fn widget(name: &str, i: usize) -> Value {
    json!({
        "apiVersion": "example.com/v1",
        "kind": "Widget",
        "metadata": {
            "name": name,
            "namespace": NAMESPACE,
            "labels": {"app": "shop", "tier": if i.is_multiple_of(2) { "web" } else { "db" }, "index": i.to_string()},
            "annotations": {"example.com/owner": "team-a", "example.com/revision": "1"},
        },
        "spec": {
            "name": "widget",
            "size": 1 + i % 10,
            "speed": if i.is_multiple_of(2) { "fast" } else { "slow" },
            "replicas": 3,
            "port": "http",
            "when": "2025-06-01T10:00:00Z",
            "tags": ["a", "b", "c"],
            "ports": [
                {"name": "http", "number": 8080},
                {"name": "metrics", "number": 9090},
            ],
            "labels": {"zone": "eu", "rack": "r1"},
            "options": {"verbose": true},
            "template": {
                "apiVersion": "v1",
                "kind": "ConfigMap",
                "metadata": {"name": format!("{name}-config")},
                "data": {"key": "value"},
            },
        },
        "status": {"replicas": 3, "phase": "Ready"},
    })
}

/// The Widget CRD: a structural schema with the rules a real CRD uses (types, bounds,
/// patterns, enums, formats, list types, defaults, an embedded resource).
const WIDGET_CRD: &str = r#"
apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: widgets.example.com
spec:
  group: example.com
  scope: Namespaced
  names: {plural: widgets, singular: widget, kind: Widget, listKind: WidgetList}
  versions:
  - name: v1
    served: true
    storage: true
    subresources: {status: {}}
    schema:
      openAPIV3Schema:
        type: object
        properties:
          spec:
            type: object
            required: [name]
            properties:
              name: {type: string, minLength: 2, maxLength: 10, pattern: "^[a-z]+$"}
              size: {type: integer, minimum: 1, maximum: 10, default: 3}
              speed: {type: string, enum: [fast, slow]}
              replicas: {type: integer, format: int32}
              port: {x-kubernetes-int-or-string: true, anyOf: [{type: integer}, {type: string}]}
              when: {type: string, format: date-time}
              tags: {type: array, maxItems: 8, x-kubernetes-list-type: set, items: {type: string}}
              ports:
                type: array
                x-kubernetes-list-type: map
                x-kubernetes-list-map-keys: [name]
                items:
                  type: object
                  required: [name]
                  properties:
                    name: {type: string}
                    number: {type: integer, default: 80}
              labels: {type: object, maxProperties: 8, additionalProperties: {type: string, maxLength: 63}}
              options: {type: object, default: {}, properties: {verbose: {type: boolean, default: false}}}
              template: {type: object, x-kubernetes-embedded-resource: true, x-kubernetes-preserve-unknown-fields: true}
          status:
            type: object
            properties:
              replicas: {type: integer, minimum: 0}
              phase: {type: string, enum: [Pending, Ready]}
"#;
