//! Request handling: routing of kube-apiserver paths, authentication, request faults,
//! discovery, list, watch, get and writes.

use std::convert::Infallible;
use std::sync::Arc;
use std::time::Duration;

use bytes::{BufMut, Bytes, BytesMut};
use http_body_util::BodyExt;
use hyper::body::Incoming;
use hyper::header::{HeaderValue, AUTHORIZATION, CONTENT_TYPE, HOST, RETRY_AFTER};
use hyper::{Method, Request, Response, StatusCode};
use serde_json::{json, Value};

use crate::body::Body;
use crate::continue_token::ContinueToken;
use crate::faults::Action;
use crate::filter::Filter;
use crate::resource::ResourceSpec;
use crate::state::{Resolved, Rights, State};
use crate::status::StatusError;
use crate::store::{ListQuery, Obj, Snapshot, SnapshotError, WatchFrom};
use crate::watch::{stream, WatchParams};
use crate::wire::{list_head, typed_object};

/// Bytes of list body gathered before a chunk is sent.
const LIST_CHUNK: usize = 256 * 1024;

/// Serves one request; every failure becomes a `Status` response.
pub(crate) async fn handle(
    state: Arc<State>,
    req: Request<Incoming>,
) -> Result<Response<Body>, Infallible> {
    Ok(match route(&state, req).await {
        Ok(resp) => resp,
        Err(e) => status_response(&e),
    })
}

/// The `Status` answer for `e`.
pub(crate) fn status_response(e: &StatusError) -> Response<Body> {
    let mut resp = json_response(
        StatusCode::from_u16(e.code).unwrap_or(StatusCode::INTERNAL_SERVER_ERROR),
        Body::full(e.to_bytes()),
    );
    if let Some(secs) = e.retry_after {
        resp.headers_mut()
            .insert(RETRY_AFTER, HeaderValue::from(secs));
    }
    resp
}

fn json_response(code: StatusCode, body: Body) -> Response<Body> {
    let mut resp = Response::new(body);
    *resp.status_mut() = code;
    resp.headers_mut()
        .insert(CONTENT_TYPE, HeaderValue::from_static("application/json"));
    resp
}

fn json_value(v: &Value) -> Response<Body> {
    json_response(StatusCode::OK, Body::full(v.to_string()))
}

/// Decoded query parameters.
struct Query(Vec<(String, String)>);

impl Query {
    fn parse(raw: Option<&str>) -> Self {
        Self(
            raw.unwrap_or("")
                .split('&')
                .filter(|p| !p.is_empty())
                .map(|p| {
                    let (k, v) = p.split_once('=').unwrap_or((p, ""));
                    (percent_decode(k), percent_decode(v))
                })
                .collect(),
        )
    }

    /// The last value of `name` (empty values count as absent, as Go's `url.Values.Get` + `!= ""`).
    fn get(&self, name: &str) -> Option<&str> {
        self.0
            .iter()
            .rev()
            .find(|(k, _)| k == name)
            .map(|(_, v)| v.as_str())
            .filter(|v| !v.is_empty())
    }

    fn bool(&self, name: &str) -> Result<Option<bool>, StatusError> {
        self.get(name)
            .map(|v| match v {
                "1" | "t" | "T" | "true" | "TRUE" | "True" => Ok(true),
                "0" | "f" | "F" | "false" | "FALSE" | "False" => Ok(false),
                other => Err(StatusError::bad_request(format!(
                    "{name}: invalid value {other:?}: strconv.ParseBool: parsing {other:?}: invalid syntax"
                ))),
            })
            .transpose()
    }

    fn int(&self, name: &str) -> Result<Option<i64>, StatusError> {
        self.get(name)
            .map(|v| {
                v.parse::<i64>().map_err(|_| {
                    StatusError::bad_request(format!(
                        "{name}: invalid value {v:?}: strconv.ParseInt: parsing {v:?}: invalid syntax"
                    ))
                })
            })
            .transpose()
    }
}

fn hex_pair(hi: u8, lo: u8) -> Option<u8> {
    let digit = |c: u8| char::from(c).to_digit(16);
    u8::try_from(digit(hi)? * 16 + digit(lo)?).ok()
}

fn percent_decode(s: &str) -> String {
    let b = s.as_bytes();
    let mut out = Vec::with_capacity(b.len());
    let mut i = 0;
    while i < b.len() {
        match b[i] {
            b'+' => out.push(b' '),
            b'%' if i + 2 < b.len() => match hex_pair(b[i + 1], b[i + 2]) {
                Some(byte) => {
                    out.push(byte);
                    i += 2;
                }
                None => out.push(b'%'),
            },
            c => out.push(c),
        }
        i += 1;
    }
    String::from_utf8_lossy(&out).into_owned()
}

/// `None` when authentication is off, else the caller's rights; 401 without a known token.
fn authenticate(state: &State, req: &Request<Incoming>) -> Result<Option<Rights>, StatusError> {
    let Some(tokens) = &state.config.tokens else {
        return Ok(None);
    };
    req.headers()
        .get(AUTHORIZATION)
        .and_then(|h| h.to_str().ok())
        .and_then(|h| h.strip_prefix("Bearer "))
        .and_then(|t| tokens.get(t.trim()))
        .cloned()
        .map(Some)
        .ok_or_else(StatusError::unauthorized)
}

async fn route(state: &Arc<State>, req: Request<Incoming>) -> Result<Response<Body>, StatusError> {
    let path = req.uri().path().to_owned();
    let query = Query::parse(req.uri().query());
    let rights = authenticate(state, &req)?;
    let segs: Vec<&str> = path.split('/').filter(|s| !s.is_empty()).collect();
    let host = req
        .headers()
        .get(HOST)
        .and_then(|h| h.to_str().ok())
        .unwrap_or("127.0.0.1")
        .to_owned();
    match segs.as_slice() {
        ["version"] => Ok(json_value(&json!({
            "major": "1", "minor": "33", "gitVersion": "v1.33.0-test-apiserver",
            "gitCommit": "0000000000000000000000000000000000000000", "gitTreeState": "clean",
            "buildDate": "2025-01-01T00:00:00Z", "goVersion": "go1.24.0", "compiler": "gc",
            "platform": "linux/amd64",
        }))),
        ["healthz"] | ["readyz"] | ["livez"] => Ok(Response::new(Body::full("ok"))),
        ["api"] => Ok(json_value(&json!({
            "kind": "APIVersions",
            "versions": ["v1"],
            "serverAddressByClientCIDRs": [{"clientCIDR": "0.0.0.0/0", "serverAddress": host}],
        }))),
        ["api", "v1"] => resource_list(state, "", "v1"),
        ["apis"] => Ok(json_value(&group_list(state))),
        ["apis", group] => {
            let groups = group_list(state);
            groups["groups"]
                .as_array()
                .and_then(|gs| gs.iter().find(|g| g["name"] == *group))
                .map(|g| {
                    let mut g = g.clone();
                    g["kind"] = json!("APIGroup");
                    g["apiVersion"] = json!("v1");
                    json_value(&g)
                })
                .ok_or_else(StatusError::unknown_resource)
        }
        ["apis", group, version] => resource_list(state, group, version),
        ["api", "v1", rest @ ..] => {
            let rest: Vec<String> = rest.iter().map(|s| (*s).to_owned()).collect();
            resource_request(state, req, "", "v1", &rest, &query, rights.as_ref()).await
        }
        ["apis", group, version, rest @ ..] => {
            let (group, version) = ((*group).to_owned(), (*version).to_owned());
            let rest: Vec<String> = rest.iter().map(|s| (*s).to_owned()).collect();
            resource_request(state, req, &group, &version, &rest, &query, rights.as_ref()).await
        }
        _ => Err(StatusError::unknown_resource()),
    }
}

fn resource_list(state: &State, group: &str, version: &str) -> Result<Response<Body>, StatusError> {
    let resources: Vec<Value> = state
        .specs()
        .iter()
        .filter(|s| s.group == group && s.version == version)
        .map(|s| {
            json!({
                "name": s.plural,
                "singularName": s.singular(),
                "namespaced": s.namespaced,
                "kind": s.kind,
                "verbs": ["create", "delete", "get", "list", "patch", "update", "watch"],
            })
        })
        .collect();
    if resources.is_empty() {
        return Err(StatusError::unknown_resource());
    }
    let gv = if group.is_empty() {
        version.to_owned()
    } else {
        format!("{group}/{version}")
    };
    let mut v = json!({"kind": "APIResourceList", "groupVersion": gv, "resources": resources});
    if !group.is_empty() {
        v["apiVersion"] = json!("v1");
    }
    Ok(json_value(&v))
}

fn group_list(state: &State) -> Value {
    let mut groups: Vec<(String, Vec<String>)> = Vec::new();
    for s in state.specs().iter().filter(|s| !s.group.is_empty()) {
        match groups.iter_mut().find(|(g, _)| *g == s.group) {
            Some((_, versions)) if !versions.contains(&s.version) => {
                versions.push(s.version.clone())
            }
            Some(_) => {}
            None => groups.push((s.group.clone(), vec![s.version.clone()])),
        }
    }
    let groups: Vec<Value> = groups
        .iter()
        .map(|(g, versions)| {
            let vs: Vec<Value> = versions
                .iter()
                .map(|v| json!({"groupVersion": format!("{g}/{v}"), "version": v}))
                .collect();
            json!({"name": g, "versions": vs.clone(), "preferredVersion": vs[0]})
        })
        .collect();
    json!({"kind": "APIGroupList", "apiVersion": "v1", "groups": groups})
}

/// Where a resource path points.
struct Target {
    namespace: Option<String>,
    plural: String,
    name: Option<String>,
}

fn parse_target(rest: &[String]) -> Result<Target, StatusError> {
    let (namespace, tail) = match rest {
        [ns_seg, ns, tail @ ..] if ns_seg == "namespaces" && !tail.is_empty() => {
            (Some(ns.clone()), tail)
        }
        _ => (None, rest),
    };
    match tail {
        [plural] => Ok(Target {
            namespace,
            plural: plural.clone(),
            name: None,
        }),
        [plural, name] => Ok(Target {
            namespace,
            plural: plural.clone(),
            name: Some(name.clone()),
        }),
        _ => Err(StatusError::unknown_resource()),
    }
}

async fn resource_request(
    state: &Arc<State>,
    req: Request<Incoming>,
    group: &str,
    version: &str,
    rest: &[String],
    query: &Query,
    rights: Option<&Rights>,
) -> Result<Response<Body>, StatusError> {
    let target = parse_target(rest)?;
    let r = state
        .resolve(group, version, &target.plural)
        .ok_or_else(StatusError::unknown_resource)?;
    if target.namespace.is_some() && !r.spec.namespaced {
        return Err(StatusError::unknown_resource());
    }
    if target.name.is_some() && target.namespace.is_none() && r.spec.namespaced {
        return Err(StatusError::unknown_resource());
    }
    let verb = match (req.method(), target.name.is_some()) {
        (&Method::GET, true) => "get",
        (&Method::GET, false) if query.bool("watch")? == Some(true) => "watch",
        (&Method::GET, false) => "list",
        (&Method::POST, false) if target.namespace.is_some() || !r.spec.namespaced => "create",
        (&Method::PUT, true) => "update",
        (&Method::PATCH, true) => "patch",
        (&Method::DELETE, true) => "delete",
        _ => return Err(StatusError::method_not_allowed()),
    };
    let resource = r.spec.group_resource();
    state.count(verb, &resource);
    if let Some(Rights::Only(allowed)) = rights {
        if !allowed.contains(&resource) {
            return Err(StatusError::forbidden(
                "test-user",
                verb,
                group,
                &r.spec.plural,
                target.namespace.as_deref(),
            ));
        }
    }
    let mut cut = false;
    match state.faults.take(verb, &resource) {
        Some(Action::Fail(e)) => return Err(e),
        Some(Action::Stall(d)) => tokio::time::sleep(d).await,
        Some(Action::Cut) => cut = true,
        None => {}
    }
    let ns = target.namespace.as_deref();
    let name = target.name.as_deref().unwrap_or_default();
    let resp = match verb {
        "list" => list(state, &r, target.namespace.clone(), query)?,
        "watch" => watch(state, &r, target.namespace.clone(), query)?,
        "get" => object_response(StatusCode::OK, &r.spec, &state.get(&r, ns, name)?),
        "create" => {
            let body = read_json(req).await?;
            object_response(StatusCode::CREATED, &r.spec, &state.create(&r, ns, body)?)
        }
        "update" => {
            let body = read_json(req).await?;
            object_response(StatusCode::OK, &r.spec, &state.update(&r, ns, name, body)?)
        }
        "patch" => {
            let content_type = req
                .headers()
                .get(CONTENT_TYPE)
                .and_then(|h| h.to_str().ok())
                .unwrap_or("")
                .to_owned();
            let media = content_type.split(';').next().unwrap_or("").trim();
            if media != "application/merge-patch+json"
                && media != "application/strategic-merge-patch+json"
            {
                return Err(StatusError::unsupported_media_type(&content_type));
            }
            let patch = read_json(req).await?;
            object_response(StatusCode::OK, &r.spec, &state.patch(&r, ns, name, &patch)?)
        }
        _ => object_response(StatusCode::OK, &r.spec, &state.delete(&r, ns, name)?),
    };
    Ok(if cut { resp.map(Body::cut) } else { resp })
}

async fn read_json(req: Request<Incoming>) -> Result<Value, StatusError> {
    let bytes = req
        .into_body()
        .collect()
        .await
        .map_err(|e| StatusError::bad_request(format!("cannot read the request body: {e}")))?
        .to_bytes();
    serde_json::from_slice(&bytes).map_err(|e| {
        StatusError::bad_request(format!("couldn't get version/kind; json parse error: {e}"))
    })
}

fn object_response(code: StatusCode, spec: &ResourceSpec, obj: &Arc<Obj>) -> Response<Body> {
    json_response(code, Body::full(typed_object(spec, &obj.bytes)))
}

/// 422 for `ListOptions` kube-apiserver's validation rejects.
fn invalid_options(field: &str, message: String) -> StatusError {
    StatusError::invalid("ListOptions", "meta.k8s.io", "", &[(field, message)])
}

fn parse_rv(raw: Option<&str>) -> Result<Option<u64>, StatusError> {
    raw.map(|v| {
        v.parse::<u64>().map_err(|_| {
            StatusError::bad_request(format!(
                "resourceVersion: Invalid value: \"{v}\": strconv.ParseUint: parsing \"{v}\": invalid syntax"
            ))
        })
    })
    .transpose()
}

fn list(
    state: &Arc<State>,
    r: &Resolved,
    namespace: Option<String>,
    q: &Query,
) -> Result<Response<Body>, StatusError> {
    let filter = Filter::parse(
        &r.store,
        namespace,
        q.get("labelSelector"),
        q.get("fieldSelector"),
    )?;
    let rv_raw = q.get("resourceVersion");
    let rv_match = q.get("resourceVersionMatch");
    let continue_raw = q.get("continue");
    if let Some(m) = rv_match {
        if m != "Exact" && m != "NotOlderThan" {
            return Err(invalid_options(
                "resourceVersionMatch",
                format!("Unsupported value: \"{m}\": supported values: \"Exact\", \"NotOlderThan\", \"\""),
            ));
        }
        if rv_raw.is_none() {
            return Err(invalid_options(
                "resourceVersionMatch",
                "Forbidden: resourceVersionMatch is forbidden unless resourceVersion is provided"
                    .into(),
            ));
        }
        if continue_raw.is_some() {
            return Err(invalid_options(
                "resourceVersionMatch",
                "Forbidden: resourceVersionMatch is forbidden when continue is provided".into(),
            ));
        }
        if m == "Exact" && rv_raw == Some("0") {
            return Err(invalid_options(
                "resourceVersionMatch",
                "Forbidden: resourceVersionMatch \"exact\" is forbidden for resourceVersion \"0\""
                    .into(),
            ));
        }
    }
    if q.get("sendInitialEvents").is_some() {
        return Err(invalid_options(
            "sendInitialEvents",
            "Forbidden: sendInitialEvents is forbidden for list".into(),
        ));
    }
    let rv = parse_rv(rv_raw)?;
    let mut limit = q
        .int("limit")?
        .filter(|l| *l > 0)
        .map(|l| usize::try_from(l).unwrap_or(usize::MAX));
    let (snapshot, after) = match continue_raw {
        Some(token) => {
            if rv.is_some_and(|rv| rv != 0) {
                return Err(StatusError::bad_request(
                    "specifying resource version is not allowed when using continue",
                ));
            }
            let t = ContinueToken::decode(token)?;
            (Snapshot::At(t.rv), Some(t.after))
        }
        None => match (rv, rv_match) {
            (None, _) => (Snapshot::Latest, None),
            (Some(0), _) => {
                if state.config.rv0_ignores_limit {
                    limit = None;
                }
                (Snapshot::Latest, None)
            }
            (Some(n), Some("Exact")) => (Snapshot::At(n), None),
            // Without a match rule, a limited list at an RV is an exact read (legacy behaviour).
            (Some(n), None) if limit.is_some() => (Snapshot::At(n), None),
            (Some(n), _) => {
                let current = state.clock.load(std::sync::atomic::Ordering::SeqCst);
                if n > current {
                    return Err(StatusError::too_large_resource_version(n, current));
                }
                (Snapshot::Latest, None)
            }
        },
    };
    let count_remaining = filter.selects_everything();
    let page = r
        .store
        .list(
            &state.clock,
            &ListQuery {
                snapshot,
                namespace: filter.namespace.as_deref(),
                after: after.as_deref(),
                limit,
                keep: &|o| filter.matches_selectors(o),
                count_remaining,
            },
        )
        .map_err(|e| match (e, continue_raw) {
            (SnapshotError::TooOld { .. }, Some(_)) => StatusError::continue_expired(),
            (SnapshotError::TooOld { .. }, None) => {
                StatusError::expired("The resourceVersion for the provided list is too old.")
            }
            (SnapshotError::TooNew { current }, _) => StatusError::too_large_resource_version(
                match snapshot {
                    Snapshot::At(n) => n,
                    Snapshot::Latest => current,
                },
                current,
            ),
        })?;
    let token = page.continue_after.as_ref().map(|after| {
        ContinueToken {
            rv: page.rv,
            after: after.clone(),
        }
        .encode()
    });
    let head = list_head(&r.spec, page.rv, token.as_deref(), page.remaining);
    let (tx, body) = Body::channel();
    tokio::spawn(async move {
        let mut buf = BytesMut::with_capacity(LIST_CHUNK + 8 * 1024);
        buf.put_slice(head.as_bytes());
        for (i, item) in page.items.iter().enumerate() {
            if i > 0 {
                buf.put_u8(b',');
            }
            buf.put_slice(&item.bytes);
            if buf.len() >= LIST_CHUNK && tx.send(Ok(buf.split().freeze())).await.is_err() {
                return;
            }
        }
        buf.put_slice(b"]}");
        let _ = tx.send(Ok(buf.freeze())).await;
    });
    Ok(json_response(StatusCode::OK, body))
}

fn watch(
    state: &Arc<State>,
    r: &Resolved,
    namespace: Option<String>,
    q: &Query,
) -> Result<Response<Body>, StatusError> {
    let filter = Filter::parse(
        &r.store,
        namespace,
        q.get("labelSelector"),
        q.get("fieldSelector"),
    )?;
    let rv = parse_rv(q.get("resourceVersion"))?;
    let bookmarks = q.bool("allowWatchBookmarks")?.unwrap_or(false);
    let send_initial = q.bool("sendInitialEvents")?;
    let rv_match = q.get("resourceVersionMatch");
    let timeout = q
        .int("timeoutSeconds")?
        .filter(|t| *t > 0)
        .map(|t| Duration::from_secs(t.unsigned_abs()));
    match (send_initial, rv_match) {
        (Some(_), Some("NotOlderThan")) => {}
        (Some(_), Some(other)) => {
            return Err(invalid_options(
                "resourceVersionMatch",
                format!("Unsupported value: \"{other}\": supported values: \"NotOlderThan\""),
            ))
        }
        (Some(_), None) => {
            return Err(invalid_options(
                "resourceVersionMatch",
                "Forbidden: sendInitialEvents requires setting resourceVersionMatch to NotOlderThan".into(),
            ))
        }
        (None, Some(_)) => {
            return Err(invalid_options(
                "resourceVersionMatch",
                "Forbidden: resourceVersionMatch is forbidden for watch unless sendInitialEvents is provided".into(),
            ))
        }
        (None, None) => {}
    }
    if send_initial == Some(true) && !bookmarks {
        return Err(invalid_options(
            "allowWatchBookmarks",
            "Forbidden: sendInitialEvents requires setting allowWatchBookmarks to true".into(),
        ));
    }
    let current = state.clock.load(std::sync::atomic::Ordering::SeqCst);
    let (from, since) = match (send_initial, rv) {
        (Some(true), _) => (WatchFrom::Current, 0),
        (Some(false), None | Some(0)) => (WatchFrom::Rv(current), current),
        (None, None | Some(0)) => (WatchFrom::Current, 0),
        (_, Some(n)) => (WatchFrom::Rv(n), n),
    };
    let (tx, body) = Body::channel();
    match r.store.watch(&state.clock, from, bookmarks) {
        Ok(sub) => {
            let params = WatchParams {
                spec: r.spec.clone(),
                filter,
                sub,
                since,
                initial_end_bookmark: send_initial == Some(true),
                timeout,
            };
            tokio::spawn(stream(state.clone(), params, tx));
        }
        Err(window_start) => {
            let status = StatusError::expired(format!(
                "too old resource version: {since} ({window_start})"
            ));
            let line = Bytes::from(format!(
                "{}\n",
                json!({"type": "ERROR", "object": status.to_value()})
            ));
            tokio::spawn(async move {
                let _ = tx.send(Ok(line)).await;
            });
        }
    }
    Ok(json_response(StatusCode::OK, body))
}
