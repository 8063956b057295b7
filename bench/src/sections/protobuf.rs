//! Protobuf against JSON, same server, same run: the size of a Pod list in each, decoding
//! each (informer-protobuf into Pods against serde_json's floor on the JSON), and our
//! informer's initial sync asking for protobuf against the same informer told to ask for JSON
//! (`Config::disable_protobuf`), alternated.

use std::time::Instant;

use informer_protobuf::{decode_list, DecodeOptions};
use informer_runtime::protobuf::ACCEPT;
use k8s_openapi::api::core::v1::Pod;

use super::sync::{check_count, decode_floor, namespaces_for, ours_sync_time, Floor};
use super::{timed, Ctx};
use crate::error::BenchError;
use crate::ours::OursOptions;
use crate::raw_http;
use crate::results::{Record, Target};
use crate::server_process::{ServerProcess, ServerSpec};

const SECTION: &str = "protobuf";

/// Runs the section.
pub async fn run(ctx: Ctx) -> Result<Vec<Record>, BenchError> {
    let n = if ctx.quick { 1_000 } else { 10_000 };
    let server = ServerProcess::start(ServerSpec {
        pods: n,
        namespaces: namespaces_for(n),
        history: 1_000,
    })
    .await?;
    let result = measure(&server, n, ctx).await;
    server.stop().await?;
    result
}

/// Best of 5 decodes of a protobuf Pod list; `keep_managed_fields` as the JSON floor does.
fn protobuf_decode(bytes: &[u8], keep_managed_fields: bool) -> Result<(f64, usize), BenchError> {
    let mut best = f64::INFINITY;
    let mut items = 0;
    for _ in 0..5 {
        let start = Instant::now();
        let list = decode_list::<Pod>(
            bytes,
            DecodeOptions::default().keep_managed_fields(keep_managed_fields),
        )
        .map_err(|e| BenchError::Informer {
            who: "protobuf decode".into(),
            reason: e.to_string(),
        })?;
        best = best.min(start.elapsed().as_secs_f64());
        items = list.items.len();
    }
    Ok((best, items))
}

async fn sync(url: &str, n: usize, disable_protobuf: bool) -> Result<f64, BenchError> {
    let options = OursOptions {
        disable_protobuf,
        ..OursOptions::default()
    };
    ours_sync_time(url, n, &options).await
}

async fn measure(server: &ServerProcess, n: usize, ctx: Ctx) -> Result<Vec<Record>, BenchError> {
    let url = server.url();
    let list_url = format!("{url}/api/v1/pods");
    let json = raw_http::get_bytes_accepting(&list_url, Some("application/json")).await?;
    let protobuf = raw_http::get_bytes_accepting(&list_url, Some(ACCEPT)).await?;
    if !protobuf.starts_with(b"k8s\0") {
        return Err(BenchError::Informer {
            who: "the test server".into(),
            reason: "answered a protobuf-first Pod list without protobuf".into(),
        });
    }
    // Received whole and dropped: what the server and the loopback take for each, best of 3
    // (the server keeps each object's protobuf once encoded, as kube-apiserver's watch cache
    // keeps its serializations).
    let (mut json_transfer, mut protobuf_transfer) = (f64::INFINITY, f64::INFINITY);
    for _ in 0..3 {
        let (t, sent) = timed(raw_http::get_bytes_accepting(
            &list_url,
            Some("application/json"),
        ))
        .await;
        sent?;
        json_transfer = json_transfer.min(t);
        let (t, sent) = timed(raw_http::get_bytes_accepting(&list_url, Some(ACCEPT))).await;
        sent?;
        protobuf_transfer = protobuf_transfer.min(t);
    }
    let Floor {
        warm: json_floor,
        items,
        ..
    } = decode_floor(&json)?;
    check_count(items, n, "JSON decode floor list")?;
    let (protobuf_all, items) = protobuf_decode(&protobuf, true)?;
    check_count(items, n, "protobuf list")?;
    let (protobuf_skip, _) = protobuf_decode(&protobuf, false)?;

    // Alternated, best of 3 each (one each when quick): the machine is shared and noisy.
    let reps = if ctx.quick { 1 } else { 3 };
    let (mut with_protobuf, mut with_json) = (f64::INFINITY, f64::INFINITY);
    for _ in 0..reps {
        with_protobuf = with_protobuf.min(sync(url, n, false).await?);
        with_json = with_json.min(sync(url, n, true).await?);
    }

    let p = format!("{SECTION}.n{n}");
    let per_pod = |bytes: usize| bytes as f64 / n as f64;
    Ok(vec![
        Record::new(
            SECTION,
            format!("{p}.list_bytes_per_pod"),
            per_pod(protobuf.len()),
            "B",
        )
        .against("JSON", per_pod(json.len())),
        Record::new(
            SECTION,
            format!("{p}.list_transfer"),
            protobuf_transfer,
            "s",
        )
        .against("the JSON list", json_transfer)
        .note("a GET of every Pod received without decoding, best of 3"),
        Record::new(
            SECTION,
            format!("{p}.decode_vs_json_floor"),
            protobuf_all,
            "s",
        )
        .against("serde_json floor on the JSON", json_floor)
        .target(Target::ratio_at_most(1.0))
        .note("every field decoded, managedFields included, on both sides; best of 5"),
        Record::new(
            SECTION,
            format!("{p}.decode_skipping_managed_fields"),
            protobuf_skip,
            "s",
        )
        .against("serde_json floor on the JSON", json_floor)
        .note("as our informers decode: managedFields skipped unread"),
        Record::new(SECTION, format!("{p}.sync_vs_json"), with_protobuf, "s")
            .against("ours asking for JSON", with_json)
            .target(Target::ratio_at_most(1.0))
            .note(
                "the default informer against the same with Config::disable_protobuf, same \
                 server, alternated, best of 3; the JSON list is cut and decoded on both cores \
                 as it arrives, the protobuf list decoded whole on one",
            ),
    ])
}
