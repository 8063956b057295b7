//! The test API server's own throughput, with no informer in the way: objects listed
//! per second and watch events streamed per second to a client that only counts lines.

use std::time::Instant;

use super::Ctx;
use crate::error::BenchError;
use crate::raw_http;
use crate::results::Record;
use crate::server_process::{reply_field, ServerProcess, ServerSpec};

const SECTION: &str = "server";

/// Runs the section.
pub async fn run(ctx: Ctx) -> Result<Vec<Record>, BenchError> {
    let n = if ctx.quick { 1_000 } else { 100_000 };
    let m = if ctx.quick { 5_000 } else { 100_000 };
    let mut server = ServerProcess::start(ServerSpec {
        pods: n,
        namespaces: super::sync::namespaces_for(n),
        history: m + 1_000,
    })
    .await?;
    let result = measure(&mut server, n, m).await;
    server.stop().await?;
    result
}

async fn current_rv(url: &str) -> Result<String, BenchError> {
    let page = raw_http::get_bytes(&format!("{url}/api/v1/pods?limit=1")).await?;
    let v: serde_json::Value = serde_json::from_slice(&page).map_err(|e| BenchError::Decode {
        what: format!("one-item pod list from {url}"),
        source: e,
    })?;
    v["metadata"]["resourceVersion"]
        .as_str()
        .map(str::to_owned)
        .ok_or_else(|| BenchError::Http {
            step: "read list resourceVersion".into(),
            url: url.to_owned(),
            reason: "no metadata.resourceVersion".into(),
        })
}

async fn measure(
    server: &mut ServerProcess,
    n: usize,
    m: usize,
) -> Result<Vec<Record>, BenchError> {
    let url = server.url().to_owned();
    let mut best = f64::INFINITY;
    let mut size = 0;
    for _ in 0..3 {
        let start = Instant::now();
        size = raw_http::drain(&format!("{url}/api/v1/pods")).await?;
        best = best.min(start.elapsed().as_secs_f64());
    }
    let mut paged_best = f64::INFINITY;
    for _ in 0..3 {
        let start = Instant::now();
        let mut token: Option<String> = None;
        loop {
            let mut page_url = format!("{url}/api/v1/pods?limit=500");
            if let Some(t) = &token {
                page_url.push_str("&continue=");
                page_url.push_str(&raw_http::query_value(t));
            }
            let page = raw_http::get_bytes(&page_url).await?;
            let meta: PageMeta = serde_json::from_slice(&page).map_err(|e| BenchError::Decode {
                what: format!("list page metadata from {page_url}"),
                source: e,
            })?;
            token = meta.metadata.continue_token.filter(|t| !t.is_empty());
            if token.is_none() {
                break;
            }
        }
        paged_best = paged_best.min(start.elapsed().as_secs_f64());
    }

    let rv = current_rv(&url).await?;
    let watch =
        raw_http::open_watch(&format!("{url}/api/v1/pods?watch=1&resourceVersion={rv}")).await?;
    let counter = tokio::spawn(raw_http::count_lines(watch, move |lines| lines >= m));
    let start = Instant::now();
    let reply = server.command(&format!("modify {m}")).await?;
    let lines = counter
        .await
        .map_err(|e| BenchError::Server(format!("watch counter task: {e}")))??;
    let secs = start.elapsed().as_secs_f64();
    let write_secs = reply_field(&reply, "secs").unwrap_or(secs);
    Ok(vec![
        Record::new(
            SECTION,
            format!("server.n{n}.list_objects_per_s"),
            n as f64 / best,
            "objects/s",
        )
        .note(format!(
            "one unpaged list of {:.1} MB, best of 3",
            size as f64 / 1e6
        )),
        Record::new(
            SECTION,
            format!("server.n{n}.list_mb_per_s"),
            size as f64 / best / 1e6,
            "MB/s",
        ),
        Record::new(
            SECTION,
            format!("server.n{n}.paged_list_objects_per_s"),
            n as f64 / paged_best,
            "objects/s",
        )
        .note("limit=500 pages following continue (body read whole, metadata decoded), best of 3"),
        Record::new(
            SECTION,
            format!("server.m{m}.write_events_per_s"),
            m as f64 / write_secs,
            "events/s",
        )
        .note("in-process merge patches by the server child"),
        Record::new(
            SECTION,
            format!("server.m{m}.watch_events_per_s"),
            lines.min(m) as f64 / secs,
            "events/s",
        )
        .note("written and streamed to one raw watch that only counts lines"),
    ])
}

#[derive(serde::Deserialize)]
struct PageMeta {
    metadata: ListMetaContinue,
}

#[derive(serde::Deserialize)]
struct ListMetaContinue {
    #[serde(rename = "continue")]
    continue_token: Option<String>,
}
