//! Request handling: routing of kube-apiserver paths, authentication, request faults,
//! discovery, list, watch, get and writes.

use std::convert::Infallible;
use std::sync::Arc;
use std::time::Duration;

use bytes::{BufMut, Bytes, BytesMut};
use http_body_util::BodyExt;
use hyper::body::Incoming;
use hyper::header::{
    HeaderName, HeaderValue, ACCEPT, AUTHORIZATION, CONTENT_TYPE, HOST, RETRY_AFTER, USER_AGENT,
};
use hyper::{Method, Request, Response, StatusCode};
use serde_json::{json, Value};

use crate::body::Body;
use crate::continue_token::ContinueToken;
use crate::cut::CutSwitch;
use crate::faults::Action;
use crate::filter::Filter;
use crate::patch::Patch;
use crate::protobuf::{self, Media};
use crate::recorded::RecordedRequest;
use crate::resource::ResourceSpec;
use crate::state::{DeleteOptions, Resolved, Rights, State, Sub, WriteOptions};
use crate::status::StatusError;
use crate::store::{ListQuery, Obj, Outcome, Snapshot, SnapshotError, WatchFrom};
use crate::watch::{stream, WatchParams};
use crate::wire::{list_head, list_metadata, put_typed, type_prefix, typed_object};
use crate::{namespace_lifecycle, partial_metadata};

/// Bytes a connection may still send after a `cut_next` fault hits it.
const CUT_AFTER: u64 = 200;

/// Bytes of list body gathered before a chunk is sent.
const LIST_CHUNK: usize = 256 * 1024;

/// Serves one request; every failure becomes a `Status` response.
pub(crate) async fn handle(
    state: Arc<State>,
    req: Request<Incoming>,
) -> Result<Response<Body>, Infallible> {
    let accept = accept_header(&req).to_owned();
    Ok(match route(&state, req).await {
        Ok(resp) => resp,
        Err(e) => status_response(&e, &accept),
    })
}

fn accept_header<B>(req: &Request<B>) -> &str {
    req.headers()
        .get(ACCEPT)
        .and_then(|h| h.to_str().ok())
        .unwrap_or_default()
}

/// The `Status` answer for `e`, in protobuf or YAML when `accept` prefers it: kube-apiserver
/// writes errors through `responsewriters.ErrorNegotiated`, whose serializers (custom
/// resources' included) all write a `Status` in protobuf.
pub(crate) fn status_response(e: &StatusError, accept: &str) -> Response<Body> {
    let code = StatusCode::from_u16(e.code).unwrap_or(StatusCode::INTERNAL_SERVER_ERROR);
    let protobuf = (protobuf::negotiate(accept, true) == Media::Protobuf)
        .then(|| protobuf::status_body(e))
        .flatten();
    let yaml = (protobuf::negotiate(accept, true) == Media::Yaml)
        .then(|| json_to_yaml(&e.to_bytes()).ok())
        .flatten();
    let mut resp = match (protobuf, yaml) {
        (Some(body), _) => typed_response(code, protobuf::MEDIA_TYPE, Body::full(body)),
        (None, Some(yaml)) => typed_response(code, protobuf::YAML_MEDIA_TYPE, Body::full(yaml)),
        (None, None) => json_response(code, Body::full(e.to_bytes())),
    };
    if let Some(secs) = e.retry_after {
        resp.headers_mut()
            .insert(RETRY_AFTER, HeaderValue::from(secs));
    }
    resp
}

fn json_response(code: StatusCode, body: Body) -> Response<Body> {
    typed_response(code, "application/json", body)
}

fn typed_response(code: StatusCode, content_type: &'static str, body: Body) -> Response<Body> {
    let mut resp = Response::new(body);
    *resp.status_mut() = code;
    resp.headers_mut()
        .insert(CONTENT_TYPE, HeaderValue::from_static(content_type));
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

    /// Every non-empty value of a repeatable parameter, in order.
    fn all(&self, name: &str) -> Vec<&str> {
        self.0
            .iter()
            .filter(|(k, v)| k == name && !v.is_empty())
            .map(|(_, v)| v.as_str())
            .collect()
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

fn header(req: &Request<Incoming>, name: HeaderName) -> Option<String> {
    req.headers()
        .get(name)
        .and_then(|h| h.to_str().ok())
        .map(str::to_owned)
}

async fn route(state: &Arc<State>, req: Request<Incoming>) -> Result<Response<Body>, StatusError> {
    let path = req.uri().path().to_owned();
    let query = Query::parse(req.uri().query());
    state.recorder.record(RecordedRequest {
        method: req.method().as_str().to_owned(),
        path: path.clone(),
        query: query.0.clone(),
        content_type: header(&req, CONTENT_TYPE),
        accept: header(&req, ACCEPT),
    });
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
            "major": "1", "minor": "37", "gitVersion": "v1.37.0-test-apiserver",
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
        .flat_map(|s| {
            let mut verbs = vec![
                "create",
                "delete",
                "deletecollection",
                "get",
                "list",
                "patch",
                "update",
                "watch",
            ];
            if namespace_lifecycle::is_namespaces(s) {
                verbs.retain(|v| *v != "deletecollection");
            }
            let mut entry = json!({
                "name": s.plural,
                "singularName": s.singular(),
                "namespaced": s.namespaced,
                "kind": s.kind,
                "verbs": verbs,
            });
            let short = crate::resource::short_names(&s.group, &s.plural);
            if !short.is_empty() {
                entry["shortNames"] = json!(short);
            }
            let mut entries = vec![entry];
            if s.status_subresource {
                entries.push(json!({
                    "name": format!("{}/status", s.plural),
                    "singularName": "",
                    "namespaced": s.namespaced,
                    "kind": s.kind,
                    "verbs": ["get", "patch", "update"],
                }));
            }
            if s.scale.is_some() {
                entries.push(json!({
                    "name": format!("{}/scale", s.plural),
                    "singularName": "",
                    "namespaced": s.namespaced,
                    "group": "autoscaling",
                    "version": "v1",
                    "kind": "Scale",
                    "verbs": ["get", "patch", "update"],
                }));
            }
            entries
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
            json!({
                "name": g,
                "preferredVersion": vs.first().cloned().unwrap_or_default(),
                "versions": vs,
            })
        })
        .collect();
    json!({"kind": "APIGroupList", "apiVersion": "v1", "groups": groups})
}

/// Where a resource path points.
struct Target {
    namespace: Option<String>,
    plural: String,
    name: Option<String>,
    /// A subresource: `status` or `scale`.
    sub: Option<String>,
}

fn parse_target(rest: &[String]) -> Result<Target, StatusError> {
    let (namespace, tail) = match rest {
        [ns_seg, ns, tail @ ..] if ns_seg == "namespaces" && !tail.is_empty() => {
            (Some(ns.clone()), tail)
        }
        _ => (None, rest),
    };
    let target = |plural: &String, name: Option<&String>, sub: Option<&String>| Target {
        namespace: namespace.clone(),
        plural: plural.clone(),
        name: name.cloned(),
        sub: sub.cloned(),
    };
    match tail {
        [plural] => Ok(target(plural, None, None)),
        [plural, name] => Ok(target(plural, Some(name), None)),
        [plural, name, sub] if sub == "status" || sub == "scale" => {
            Ok(target(plural, Some(name), Some(sub)))
        }
        _ => Err(StatusError::unknown_resource()),
    }
}

/// The `dryRun` and `fieldManager` (and for patches `force`) of a write, validated as
/// kube-apiserver validates `CreateOptions`/`UpdateOptions`/`PatchOptions`; the manager
/// the write is recorded under comes from `fieldManager`, else from `user_agent`.
fn write_options(
    query: &Query,
    options_kind: &str,
    user_agent: &str,
    apply: bool,
) -> Result<WriteOptions, StatusError> {
    let mut causes: Vec<(&str, String)> = Vec::new();
    if options_kind == "PatchOptions" && !apply && query.get("force").is_some() {
        causes.push((
            "force",
            "Forbidden: may not be specified for non-apply patch".into(),
        ));
    }
    if apply && query.get("fieldManager").is_none_or(str::is_empty) {
        causes.push((
            "fieldManager",
            "Required value: is required for apply patch".into(),
        ));
    }
    if let Some(manager) = query.get("fieldManager") {
        if manager.len() > 128 {
            causes.push((
                "fieldManager",
                "Too long: may not be more than 128 bytes".into(),
            ));
        }
        for (i, c) in manager.char_indices().filter(|(_, c)| c.is_control()) {
            causes.push((
                "fieldManager",
                format!(
                    "Invalid value: {manager:?}: invalid character U+{:04X} (at position {i})",
                    u32::from(c)
                ),
            ));
        }
    }
    let dry_run = query.all("dryRun");
    if let Some(cause) = dry_run_cause(&dry_run) {
        causes.push(cause);
    }
    if let Some(v) = query
        .get("fieldValidation")
        .filter(|v| !["Ignore", "Strict", "Warn"].contains(v))
    {
        causes.push((
            "fieldValidation",
            format!("Unsupported value: {v:?}: supported values: \"\", \"Ignore\", \"Strict\", \"Warn\""),
        ));
    }
    if !causes.is_empty() {
        return Err(StatusError::invalid_options(options_kind, &causes));
    }
    Ok(WriteOptions {
        dry_run: !dry_run.is_empty(),
        field_validation: crate::crd::FieldValidation::parse(query.get("fieldValidation")),
        warnings: Default::default(),
        manager: Some(crate::managed_fields::manager_name(
            query.get("fieldManager"),
            user_agent,
        )),
        force: apply && query.bool("force")? == Some(true),
        applied: None,
    })
}

/// `resp` with a `Warning` header per warning the write collected.
fn with_warnings(mut resp: Response<Body>, opts: &WriteOptions) -> Response<Body> {
    for w in opts.warnings.header_values() {
        if let Ok(v) = HeaderValue::from_str(&w) {
            resp.headers_mut().append(hyper::header::WARNING, v);
        }
    }
    resp
}

/// The field error for `dryRun` values other than `All`.
fn dry_run_cause(values: &[&str]) -> Option<(&'static str, String)> {
    values.iter().any(|v| *v != "All").then(|| {
        let list = values
            .iter()
            .map(|v| format!("{v:?}"))
            .collect::<Vec<_>>()
            .join(", ");
        (
            "dryRun",
            format!("Unsupported value: []string{{{list}}}: supported values: \"All\""),
        )
    })
}

/// `DeleteOptions` from the body, or (without one) from the query, validated as
/// kube-apiserver does. Returns the options and whether `orphanDependents` is `false`.
async fn delete_options(
    req: Request<Incoming>,
    query: &Query,
) -> Result<(DeleteOptions, bool), StatusError> {
    refuse_protobuf_body(&req)?;
    let body = read_body(req).await?;
    let mut dry_run: Vec<String> = Vec::new();
    let mut propagation: Option<String> = None;
    let mut orphan: Option<bool> = None;
    let mut opts = DeleteOptions::default();
    if body.iter().any(|b| !b.is_ascii_whitespace()) {
        let v: Value = serde_json::from_slice(&body).map_err(|e| {
            StatusError::bad_request(format!("couldn't get version/kind; json parse error: {e}"))
        })?;
        let bad = |field: &str| {
            StatusError::bad_request(format!(
                "json: cannot unmarshal {} into Go struct field DeleteOptions.{field}",
                v[field]
            ))
        };
        if let Some(list) = v.get("dryRun").filter(|d| !d.is_null()) {
            dry_run = list
                .as_array()
                .and_then(|l| l.iter().map(|x| x.as_str().map(str::to_owned)).collect())
                .ok_or_else(|| bad("dryRun"))?;
        }
        if let Some(p) = v.get("propagationPolicy").filter(|d| !d.is_null()) {
            propagation = Some(
                p.as_str()
                    .ok_or_else(|| bad("propagationPolicy"))?
                    .to_owned(),
            );
        }
        if let Some(o) = v.get("orphanDependents").filter(|d| !d.is_null()) {
            orphan = Some(o.as_bool().ok_or_else(|| bad("orphanDependents"))?);
        }
        if let Some(g) = v.get("gracePeriodSeconds").filter(|d| !d.is_null()) {
            g.as_i64().ok_or_else(|| bad("gracePeriodSeconds"))?;
        }
        if let Some(pre) = v.get("preconditions").filter(|d| !d.is_null()) {
            let text = |field: &str| -> Result<Option<String>, StatusError> {
                pre.get(field)
                    .filter(|x| !x.is_null())
                    .map(|x| {
                        x.as_str()
                            .map(str::to_owned)
                            .ok_or_else(|| bad("preconditions"))
                    })
                    .transpose()
            };
            opts.uid = text("uid")?;
            opts.resource_version = text("resourceVersion")?;
        }
    } else {
        dry_run = query.all("dryRun").into_iter().map(str::to_owned).collect();
        propagation = query.get("propagationPolicy").map(str::to_owned);
        orphan = query.bool("orphanDependents")?;
        query.int("gracePeriodSeconds")?;
    }
    let mut causes: Vec<(&str, String)> = Vec::new();
    if let (Some(p), Some(_)) = (&propagation, orphan) {
        causes.push((
            "propagationPolicy",
            format!(
                "Invalid value: {p:?}: orphanDependents and deletionPropagation cannot be both set"
            ),
        ));
    }
    if let Some(p) = propagation
        .as_deref()
        .filter(|p| !["Foreground", "Background", "Orphan"].contains(p))
    {
        causes.push((
            "propagationPolicy",
            format!("Unsupported value: {p:?}: supported values: \"Foreground\", \"Background\", \"Orphan\", \"nil\""),
        ));
    }
    let dry_refs: Vec<&str> = dry_run.iter().map(String::as_str).collect();
    if let Some(cause) = dry_run_cause(&dry_refs) {
        causes.push(cause);
    }
    if !causes.is_empty() {
        return Err(StatusError::invalid_options("DeleteOptions", &causes));
    }
    opts.dry_run = !dry_run.is_empty();
    opts.propagation = propagation
        .as_deref()
        .and_then(crate::gc::Propagation::parse);
    opts.orphan_dependents = orphan;
    Ok((opts, orphan == Some(false)))
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
    let sub = target.sub.as_deref();
    let served = match sub {
        None => true,
        Some("status") => r.spec.status_subresource,
        Some(_) => r.spec.scale.is_some(),
    };
    if !served {
        return Err(StatusError::unknown_resource());
    }
    let collection_path = target.namespace.is_some() || !r.spec.namespaced;
    let verb = match (req.method(), target.name.is_some()) {
        (&Method::GET, true) => "get",
        (&Method::GET, false) if query.bool("watch")? == Some(true) => "watch",
        (&Method::GET, false) => "list",
        (&Method::POST, false) if collection_path => "create",
        (&Method::PUT, true) => "update",
        (&Method::PATCH, true) => "patch",
        (&Method::DELETE, true) if sub.is_none() => "delete",
        // The namespace registry serves no delete-collection.
        (&Method::DELETE, false)
            if collection_path && !namespace_lifecycle::is_namespaces(&r.spec) =>
        {
            "deletecollection"
        }
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
    // kube-apiserver's handlers negotiate the answer's media type before anything else; custom
    // resources' objects are never protobuf.
    let accept = accept_header(&req).to_owned();
    let media = match protobuf::negotiate(&accept, protobuf::is_builtin(&r.spec)) {
        Media::NotAcceptable => {
            return Err(StatusError::not_acceptable(&protobuf::SERVED_MEDIA_TYPES))
        }
        // YAML has no stream serializer: kube-apiserver's watch negotiation refuses it.
        Media::Yaml if verb == "watch" => {
            return Err(StatusError::not_acceptable(&protobuf::SERVED_MEDIA_TYPES))
        }
        media => media,
    };
    // A YAML answer is the JSON one converted, as kube-apiserver's YAML serializer converts
    // the JSON it encodes.
    let yaml = media == Media::Yaml;
    let media = if yaml { Media::Json } else { media };
    let switch = req
        .extensions()
        .get::<CutSwitch>()
        .cloned()
        .unwrap_or_default();
    match state.faults.take(verb, &resource) {
        Some(Action::Fail(e)) => return Err(e),
        Some(Action::Stall(d)) => tokio::time::sleep(d).await,
        // The response head is about 120 bytes: the cut lands inside the first body chunk.
        Some(Action::Cut) => switch.arm(CUT_AFTER),
        None => {}
    }
    let ns = target.namespace.as_deref();
    let name = target.name.as_deref().unwrap_or_default();
    let wanted = if verb == "list" {
        partial_metadata::LIST
    } else {
        partial_metadata::OBJECT
    };
    let partial = media == Media::Json
        && state.config.partial_metadata
        && partial_metadata::requested(&accept, wanted);
    let spec = &r.spec;
    let user_agent = req
        .headers()
        .get(USER_AGENT)
        .and_then(|h| h.to_str().ok())
        .unwrap_or_default()
        .to_owned();
    let main_or_status = if sub == Some("status") {
        Sub::Status
    } else {
        Sub::Main
    };
    let resp = match (verb, sub) {
        ("list", _) => list(state, &r, target.namespace.clone(), query, partial, media)?,
        ("watch", _) => {
            let format = WatchFormat { partial, media };
            watch(state, &r, target.namespace.clone(), query, switch, format)?
        }
        ("get", Some("scale")) => json_value(&state.get_scale(&r, ns, name)?),
        ("get", _) => object_response(StatusCode::OK, spec, &state.get(&r, ns, name)?, media),
        ("create", _) => {
            let opts = write_options(query, "CreateOptions", &user_agent, false)?;
            refuse_protobuf_body(&req)?;
            let body = read_json(req).await?;
            let obj = state.create(&r, ns, body, &opts)?;
            with_warnings(
                object_response(StatusCode::CREATED, spec, &obj, media),
                &opts,
            )
        }
        ("update", Some("scale")) => {
            let opts = write_options(query, "UpdateOptions", &user_agent, false)?;
            refuse_protobuf_body(&req)?;
            let body = read_json(req).await?;
            json_value(&state.write_scale(&r, ns, name, &opts, &|_| Ok(body.clone()))?)
        }
        ("update", _) => {
            let opts = write_options(query, "UpdateOptions", &user_agent, false)?;
            refuse_protobuf_body(&req)?;
            let body = read_json(req).await?;
            let (outcome, obj) = state.update(&r, ns, name, body, main_or_status, &opts)?;
            let code = if outcome == Outcome::Created {
                StatusCode::CREATED
            } else {
                StatusCode::OK
            };
            with_warnings(object_response(code, spec, &obj, media), &opts)
        }
        ("patch", _) => {
            let content_type = req
                .headers()
                .get(CONTENT_TYPE)
                .and_then(|h| h.to_str().ok())
                .unwrap_or("")
                .to_owned();
            if Patch::is_apply(&content_type, sub)? {
                let opts = write_options(query, "PatchOptions", &user_agent, true)?;
                let config = Patch::apply_config(&read_body(req).await?)?;
                let (outcome, obj) = state.apply(&r, ns, name, &config, main_or_status, &opts)?;
                let code = if outcome == Outcome::Created {
                    StatusCode::CREATED
                } else {
                    StatusCode::OK
                };
                with_warnings(object_response(code, spec, &obj, media), &opts)
            } else {
                let body = read_json(req).await?;
                let patch = Patch::from_request(&content_type, body, spec, sub)?;
                let opts = write_options(query, "PatchOptions", &user_agent, false)?;
                if sub == Some("scale") {
                    let scale = state.write_scale(&r, ns, name, &opts, &|mut current| {
                        patch.apply(&mut current)?;
                        Ok(current)
                    })?;
                    json_value(&scale)
                } else {
                    let (_, obj) = state.patch(&r, ns, name, &patch, main_or_status, &opts)?;
                    with_warnings(object_response(StatusCode::OK, spec, &obj, media), &opts)
                }
            }
        }
        ("deletecollection", _) => {
            let filter = Filter::parse(
                &r.store,
                target.namespace.clone(),
                query.get("labelSelector"),
                query.get("fieldSelector"),
            )?
            .with_shard(query.get("shardSelector"), state.config.sharding)?;
            let (opts, _) = delete_options(req, query).await?;
            let (rv, items) =
                state.delete_collection(&r, ns, &|o| filter.matches_selectors(o), &opts)?;
            let mut buf = BytesMut::new();
            buf.put_slice(list_head(spec, rv, None, None, filter.shard()).as_bytes());
            for (i, item) in items.iter().enumerate() {
                if i > 0 {
                    buf.put_u8(b',');
                }
                buf.put_slice(&item.bytes);
            }
            buf.put_slice(b"]}");
            json_response(StatusCode::OK, Body::full(buf.freeze()))
        }
        _ => {
            let (opts, accepted_if_pending) = delete_options(req, query).await?;
            match state.delete(&r, ns, name, &opts)? {
                (Outcome::Deleted, obj) if !spec.delete_returns_object => {
                    status_value_response(&deleted_status(spec, &obj)?, media)
                }
                (Outcome::Deleted, obj) => object_response(StatusCode::OK, spec, &obj, media),
                (_, obj) if accepted_if_pending => {
                    object_response(StatusCode::ACCEPTED, spec, &obj, media)
                }
                (_, obj) => object_response(StatusCode::OK, spec, &obj, media),
            }
        }
    };
    if yaml {
        yaml_response(resp).await
    } else {
        Ok(resp)
    }
}

/// `resp`, a JSON answer, as YAML: keys in order and block style, as Go's `sigs.k8s.io/yaml`
/// writes them.
async fn yaml_response(resp: Response<Body>) -> Result<Response<Body>, StatusError> {
    let (mut parts, body) = resp.into_parts();
    let bytes = body
        .collect()
        .await
        .map_err(|e| StatusError::internal(&format!("reading the answer: {e}")))?
        .to_bytes();
    let yaml = json_to_yaml(&bytes)?;
    parts.headers.insert(
        CONTENT_TYPE,
        HeaderValue::from_static(protobuf::YAML_MEDIA_TYPE),
    );
    parts.headers.remove(hyper::header::CONTENT_LENGTH);
    Ok(Response::from_parts(parts, Body::full(yaml)))
}

fn json_to_yaml(json: &[u8]) -> Result<String, StatusError> {
    let value: Value = serde_json::from_slice(json)
        .map_err(|e| StatusError::internal(&format!("the answer is not JSON: {e}")))?;
    serde_yaml_ng::to_string(&value)
        .map_err(|e| StatusError::internal(&format!("writing the answer as YAML: {e}")))
}

/// The `Status` of `Success` a delete answers with for resources that do not return the
/// deleted object; its details name the resource (plural), as kube-apiserver's do.
fn deleted_status(spec: &ResourceSpec, obj: &Obj) -> Result<Value, StatusError> {
    let value = obj.to_value()?;
    let mut details = json!({"name": obj.name, "kind": spec.plural});
    if !spec.group.is_empty() {
        details["group"] = json!(spec.group);
    }
    if let Some(uid) = value["metadata"]["uid"].as_str() {
        details["uid"] = json!(uid);
    }
    Ok(json!({
        "kind": "Status",
        "apiVersion": "v1",
        "metadata": {},
        "status": "Success",
        "details": details,
    }))
}

async fn read_body(req: Request<Incoming>) -> Result<Bytes, StatusError> {
    Ok(req
        .into_body()
        .collect()
        .await
        .map_err(|e| StatusError::bad_request(format!("cannot read the request body: {e}")))?
        .to_bytes())
}

async fn read_json(req: Request<Incoming>) -> Result<Value, StatusError> {
    let bytes = read_body(req).await?;
    serde_json::from_slice(&bytes).map_err(|e| {
        StatusError::bad_request(format!("couldn't get version/kind; json parse error: {e}"))
    })
}

/// The object as answered: in protobuf when negotiated and the object encodes, else JSON
/// (an object with a field the protobuf table lacks is not cut down to what it has).
fn object_response(
    code: StatusCode,
    spec: &ResourceSpec,
    obj: &Arc<Obj>,
    media: Media,
) -> Response<Body> {
    if media == Media::Protobuf {
        if let Some(body) = protobuf_stored(spec, &obj.bytes) {
            return typed_response(code, protobuf::MEDIA_TYPE, Body::full(body));
        }
    }
    json_response(code, Body::full(typed_object(spec, &obj.bytes)))
}

/// A stored object's protobuf body, if the resource is served in protobuf and the object
/// encodes.
fn protobuf_stored(spec: &ResourceSpec, stored: &[u8]) -> Option<Vec<u8>> {
    let encoder = protobuf::encoder().filter(|e| e.serves(spec))?;
    encoder
        .stored(spec, stored)
        .map_err(|e| tracing::debug!("answering JSON: a {} does not encode: {e}", spec.kind))
        .ok()
}

/// A `Status` of success (a delete's answer) in the negotiated media type.
fn status_value_response(status: &Value, media: Media) -> Response<Body> {
    let protobuf = (media == Media::Protobuf)
        .then(protobuf::encoder)
        .flatten()
        .and_then(|e| e.status(status).ok());
    match protobuf {
        Some(body) => typed_response(StatusCode::OK, protobuf::MEDIA_TYPE, Body::full(body)),
        None => json_value(status),
    }
}

/// 415 for a protobuf request body, which this server cannot decode: the answer
/// kube-apiserver gives a body in a media type its serializers lack.
fn refuse_protobuf_body<B>(req: &Request<B>) -> Result<(), StatusError> {
    let media = req
        .headers()
        .get(CONTENT_TYPE)
        .and_then(|h| h.to_str().ok())
        .and_then(|v| v.split(';').next())
        .unwrap_or_default()
        .trim();
    if media.eq_ignore_ascii_case(protobuf::MEDIA_TYPE) {
        Err(StatusError::unsupported_media_type(
            &protobuf::SERVED_MEDIA_TYPES,
        ))
    } else {
        Ok(())
    }
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
    partial: bool,
    media: Media,
) -> Result<Response<Body>, StatusError> {
    let filter = Filter::parse(
        &r.store,
        namespace,
        q.get("labelSelector"),
        q.get("fieldSelector"),
    )?
    .with_shard(q.get("shardSelector"), state.config.sharding)?;
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
    if media == Media::Protobuf {
        let metadata = list_metadata(page.rv, token.as_deref(), page.remaining, filter.shard());
        if let Some((list, items)) = protobuf_list(&r.spec, &metadata, &page.items) {
            let body = stream_list(list.head, items, list.tail, |buf, _, item| {
                protobuf::list_item(buf, item);
            });
            return Ok(typed_response(StatusCode::OK, protobuf::MEDIA_TYPE, body));
        }
    }
    let head_spec = if partial {
        partial_metadata::spec(&r.spec)
    } else {
        r.spec.clone()
    };
    let head = list_head(
        &head_spec,
        page.rv,
        token.as_deref(),
        page.remaining,
        // kube-apiserver builds a PartialObjectMetadataList's metadata from resourceVersion,
        // continue and remainingItemCount alone: the shardInfo is lost.
        filter.shard().filter(|_| !partial),
    );
    let item_prefix = type_prefix(&head_spec);
    let body = stream_list(head, page.items, b"]}", move |buf, i, item| {
        if i > 0 {
            buf.put_u8(b',');
        }
        if partial {
            put_typed(buf, &item_prefix, &partial_metadata::reduce(&item.bytes));
        } else {
            buf.put_slice(&item.bytes);
        }
    });
    Ok(json_response(StatusCode::OK, body))
}

/// A list body streamed in chunks of about [`LIST_CHUNK`] bytes as it is written: `head`,
/// each item as `put` writes it (given its index), `tail`.
fn stream_list<T: Send + Sync + 'static>(
    head: impl AsRef<[u8]> + Send + 'static,
    items: Vec<T>,
    tail: impl AsRef<[u8]> + Send + 'static,
    put: impl Fn(&mut BytesMut, usize, &T) + Send + 'static,
) -> Body {
    let (tx, body) = Body::channel();
    tokio::spawn(async move {
        let mut buf = BytesMut::with_capacity(LIST_CHUNK + 8 * 1024);
        buf.put_slice(head.as_ref());
        for (i, item) in items.iter().enumerate() {
            put(&mut buf, i, item);
            if buf.len() >= LIST_CHUNK && tx.send(buf.split().freeze()).await.is_err() {
                return;
            }
        }
        buf.put_slice(tail.as_ref());
        let _ = tx.send(buf.freeze()).await;
    });
    body
}

/// A list in protobuf and its items' messages, if every item encodes: one that does not
/// makes the whole list JSON.
fn protobuf_list(
    spec: &ResourceSpec,
    metadata: &Value,
    items: &[Arc<Obj>],
) -> Option<(protobuf::ListBody, Vec<Bytes>)> {
    let encoder = protobuf::encoder().filter(|e| e.serves(spec))?;
    let raw: Result<Vec<Bytes>, _> = items
        .iter()
        .map(|item| {
            encoder
                .kept_raw(spec, item)
                .map_err(|e| format!("{}: {e}", item.key))
        })
        .collect();
    let encoded = raw.and_then(|raw| {
        let list = encoder
            .list(spec, metadata, &raw)
            .map_err(|e| e.to_string())?;
        Ok((list, raw))
    });
    encoded
        .map_err(|e| tracing::debug!("answering the {} list in JSON: {e}", spec.kind))
        .ok()
}

/// How a watch's events are written.
struct WatchFormat {
    /// Objects reduced to `PartialObjectMetadata` (JSON only).
    partial: bool,
    /// The negotiated media type.
    media: Media,
}

fn watch(
    state: &Arc<State>,
    r: &Resolved,
    namespace: Option<String>,
    q: &Query,
    switch: CutSwitch,
    format: WatchFormat,
) -> Result<Response<Body>, StatusError> {
    let WatchFormat { partial, media } = format;
    // The kind decides, not each object: a stream cannot change its media type midway.
    let protobuf = media == Media::Protobuf
        && !partial
        && protobuf::encoder().is_some_and(|e| e.serves(&r.spec));
    let filter = Filter::parse(
        &r.store,
        namespace,
        q.get("labelSelector"),
        q.get("fieldSelector"),
    )?
    .with_shard(q.get("shardSelector"), state.config.sharding)?;
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
                switch,
                partial,
                protobuf,
            };
            tokio::spawn(stream(state.clone(), params, tx));
        }
        Err(window_start) => {
            let status = StatusError::expired(format!(
                "too old resource version: {since} ({window_start})"
            ));
            let frame = protobuf
                .then(|| protobuf::status_body(&status))
                .flatten()
                .map(|body| Bytes::from(protobuf::watch_frame("ERROR", &body)));
            let event = frame.unwrap_or_else(|| {
                Bytes::from(format!(
                    "{}\n",
                    json!({"type": "ERROR", "object": status.to_value()})
                ))
            });
            tokio::spawn(async move {
                let _ = tx.send(event).await;
            });
        }
    }
    if protobuf {
        Ok(typed_response(
            StatusCode::OK,
            protobuf::WATCH_MEDIA_TYPE,
            body,
        ))
    } else {
        Ok(json_response(StatusCode::OK, body))
    }
}
