//! Entry points for the fuzz targets in `fuzz/` and their replay test `tests/fuzz_replay.rs`:
//! the list-body and watch-line decoders driven the way the client drives them over a
//! response body, here a body in memory cut into chunks at points the caller picks, and the
//! kubeconfig loader over the bytes of one file. Not a stable API: hidden from the docs and
//! free to change with the decoders.

use std::path::{Component, Path};

use serde::de::DeserializeOwned;

use super::config::{from_selected, Config};
use super::decode::{self, LineSplitter, ListDecoder};
use super::decode_pool::{Batch, DecodePool};
use super::kubeconfig::{KubeConfigOptions, Kubeconfig, Sourced};
use crate::error::{Error, ErrorKind};
use crate::watch_event::{ObjectList, WatchEvent};

/// The context decoding errors carry.
const CONTEXT: &str = "fuzz";

/// A list body arriving in `chunks`, decoded as `Client::list` decodes one: items are cut out
/// as their bytes arrive, handed to the decode pool in batches of at least `batch_bytes` and
/// taken back in order.
///
/// A decoding task that failed (it panicked) is an `Error::Other` of kind
/// [`ErrorKind::Task`]: a bug, where every other error is a verdict on the body.
pub async fn list_body<'a, T>(
    chunks: impl IntoIterator<Item = &'a [u8]>,
    batch_bytes: usize,
) -> Result<ObjectList<T>, Error>
where
    T: DeserializeOwned + Send + 'static,
{
    let decode_error = |source| Error::Decode {
        context: CONTEXT.to_owned(),
        what: "the list body".to_owned(),
        source,
    };
    let mut decoder = ListDecoder::new();
    let mut pool = DecodePool::<Result<Vec<T>, serde_json::Error>>::new();
    let mut items = Vec::new();
    for chunk in chunks {
        decoder.feed(chunk).map_err(decode_error)?;
        if let Some(batch) = decoder.take_items(batch_bytes) {
            if pool.is_full() {
                if let Some(decoded) = pool.next().await {
                    items.extend(joined(decoded)?.map_err(decode_error)?);
                }
            }
            pool.submit(false, move || decode::decode_items::<T>(&batch));
        }
    }
    let (metadata, rest) = decoder.finish().map_err(decode_error)?;
    if !rest.is_empty() {
        pool.submit(true, move || decode::decode_items::<T>(&rest));
    }
    while let Some(decoded) = pool.next().await {
        items.extend(joined(decoded)?.map_err(decode_error)?);
    }
    Ok(ObjectList { metadata, items })
}

/// A watch body arriving in `chunks`, decoded as `Client::watch` decodes one: split into
/// lines, blank lines skipped, the lines each chunk completes decoded as one batch (inline
/// when it holds at most `inline_events`) and taken back in order. The events end with the
/// first error, as the watch stream does.
pub async fn watch_body<'a, T>(
    chunks: impl IntoIterator<Item = &'a [u8]>,
    inline_events: usize,
) -> Vec<Result<WatchEvent<T>, Error>>
where
    T: DeserializeOwned + Send + 'static,
{
    let mut lines = LineSplitter::default();
    let mut pool = DecodePool::<Vec<Result<WatchEvent<T>, Error>>>::new();
    let mut events = Vec::new();
    for chunk in chunks {
        let mut batch = Batch::default();
        lines.feed(chunk, |line| keep_line(&mut batch, line));
        if pool.is_full() {
            if let Some(decoded) = pool.next().await {
                if take_events(&mut events, decoded) {
                    return events;
                }
            }
        }
        submit_lines(&mut pool, batch, inline_events);
    }
    let mut batch = Batch::default();
    keep_line(&mut batch, &lines.into_remainder());
    submit_lines(&mut pool, batch, inline_events);
    while let Some(decoded) = pool.next().await {
        if take_events(&mut events, decoded) {
            break;
        }
    }
    events
}

/// Sends a batch of watch lines to be decoded, unless it is empty.
fn submit_lines<T>(
    pool: &mut DecodePool<Vec<Result<WatchEvent<T>, Error>>>,
    batch: Batch,
    inline_events: usize,
) where
    T: DeserializeOwned + Send + 'static,
{
    if !batch.is_empty() {
        pool.submit(batch.len() <= inline_events, move || {
            decode::decode_lines(&batch, CONTEXT)
        });
    }
}

/// Adds a watch line to `batch` unless it is blank.
fn keep_line(batch: &mut Batch, line: &[u8]) {
    if !decode::is_blank(line) {
        batch.push(line);
    }
}

/// Appends a decoded batch's events; true when the events ended with an error.
fn take_events<T>(
    events: &mut Vec<Result<WatchEvent<T>, Error>>,
    decoded: Result<Vec<Result<WatchEvent<T>, Error>>, String>,
) -> bool {
    match joined(decoded) {
        Ok(batch) => events.extend(batch),
        Err(e) => events.push(Err(e)),
    }
    events.last().is_some_and(Result::is_err)
}

/// A decoding task's result, or an `ErrorKind::Task` error when the task failed.
fn joined<R>(result: Result<R, String>) -> Result<R, Error> {
    result.map_err(|reason| {
        Error::other(
            ErrorKind::Task,
            CONTEXT,
            format!("a decoding task failed: {reason}"),
        )
    })
}

/// The `Config` a kubeconfig file holding `yaml` gives, as `Config::from_kubeconfig_file`
/// loads it, with the file taken to be `dir/config`.
///
/// Every file the selected entries name (`certificate-authority`, `client-certificate`,
/// `client-key`, `tokenFile`) is looked up in `dir` by its last path component: arbitrary
/// input must not read the machine's files (a `/dev/zero` never ends).
pub fn kubeconfig(dir: &Path, yaml: &[u8], options: &KubeConfigOptions) -> Result<Config, Error> {
    let mut merged = Kubeconfig::default();
    merged.merge(&dir.join("config"), yaml)?;
    let mut selected = merged.select(options)?;
    confine(&mut selected.cluster, |c| {
        [c.certificate_authority.as_mut()].into_iter().flatten()
    });
    if let Some(user) = selected.user.as_mut() {
        confine(user, |u| {
            [
                u.client_certificate.as_mut(),
                u.client_key.as_mut(),
                u.token_file.as_mut(),
            ]
            .into_iter()
            .flatten()
        });
    }
    from_selected(&selected)
}

/// Rewrites the path fields `fields` picks out of `entry` to plain file names, so that they
/// resolve inside the directory of the entry's file.
fn confine<'a, T: 'a, I>(entry: &'a mut Sourced<T>, fields: impl FnOnce(&'a mut T) -> I)
where
    I: Iterator<Item = &'a mut String>,
{
    for path in fields(&mut entry.value).filter(|p| !p.is_empty()) {
        let name = Path::new(path.as_str())
            .components()
            .filter_map(|c| match c {
                Component::Normal(name) => name.to_str(),
                _ => None,
            })
            .next_back()
            .unwrap_or("missing")
            .to_owned();
        *path = name;
    }
}
