//! Entry points for the fuzz targets in `fuzz/` and their replay test `tests/fuzz_replay.rs`:
//! the list-body (JSON and protobuf) and watch-line decoders driven the way the client drives them over a
//! response body, here a body in memory cut into chunks at points the caller picks, and the
//! kubeconfig loader over the bytes of one file. Not a stable API: hidden from the docs and
//! free to change with the decoders.

use std::path::Path;

use serde::de::DeserializeOwned;

use bytes::Bytes;
use futures_util::StreamExt;

use crate::client::config::Config;
use crate::client::kubeconfig::{KubeConfigOptions, Kubeconfig};
use crate::error::{BoxError, Error};
use crate::protobuf::ProtobufDecoders;
use crate::watch_event::{ObjectList, WatchEvent};

/// The context decoding errors carry.
const CONTEXT: &str = "fuzz";

/// How much of a body the decoders take, as [`Config::max_object_bytes`] and
/// [`Config::max_body_bytes`] set it for a client.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Limits {
    /// The largest list item (or list metadata) or watch line, in bytes.
    pub object: usize,
    /// The largest list body, in bytes (watch bodies have no limit as a whole).
    pub body: u64,
}

impl From<Limits> for crate::client::Limits {
    fn from(limits: Limits) -> Self {
        Self {
            object: limits.object,
            body: limits.body,
        }
    }
}

impl Limits {
    /// No limit at all.
    pub const NONE: Limits = Limits {
        object: usize::MAX,
        body: u64::MAX,
    };
}

/// A list body arriving in `chunks`, decoded by the function `Client::request_list` decodes one
/// with, in batches of at least `batch_bytes`, within `limits`.
///
/// A decoding task that failed (it panicked) is an `Error::Other` of kind
/// [`ErrorKind::Task`](crate::error::ErrorKind::Task): a bug, where every other error is a verdict
/// on the body. An item or body over `limits` is an `Error::Other` of kind
/// [`ErrorKind::TooLarge`](crate::error::ErrorKind::TooLarge).
/// `omit_managed_fields` cuts every item's `metadata.managedFields` out before parsing, as a
/// client made with `Client::omitting_managed_fields` does.
pub async fn list_body<'a, T>(
    chunks: impl IntoIterator<Item = &'a [u8]>,
    batch_bytes: usize,
    omit_managed_fields: bool,
    limits: Limits,
) -> Result<ObjectList<T>, Error>
where
    T: DeserializeOwned + Send + 'static,
{
    crate::client::decode_list(
        body(chunks),
        None,
        batch_bytes,
        omit_managed_fields,
        None,
        limits.into(),
        CONTEXT,
    )
    .await
}

/// A watch body arriving in `chunks`, decoded by the function `Client::request_events` decodes one
/// with, batches of at most `inline_events` lines decoded inline. The events end with the
/// first error, as the watch stream does. `omit_managed_fields` cuts every event object's
/// `metadata.managedFields` out before parsing. A line over `max_line` bytes ends the events
/// with an `Error::Other` of kind [`ErrorKind::TooLarge`](crate::error::ErrorKind::TooLarge).
pub async fn watch_body<'a, T>(
    chunks: impl IntoIterator<Item = &'a [u8]>,
    inline_events: usize,
    omit_managed_fields: bool,
    max_line: usize,
) -> Vec<Result<WatchEvent<T>, Error>>
where
    T: DeserializeOwned + Send + 'static,
{
    crate::client::watch_events(
        body(chunks),
        inline_events,
        omit_managed_fields,
        None,
        max_line,
        CONTEXT.into(),
    )
    .collect()
    .await
}

/// A protobuf list body arriving in `chunks`, decoded by the function `Client::request_list`
/// decodes one with when the server answers protobuf: scanned as it arrives, its items decoded
/// with `decoders.item` in batches of at least `batch_bytes`, within `limits`; a body the scan
/// does not expect before it lets go of any byte is decoded whole with `decoders.list`.
/// Errors are as [`list_body`]'s.
pub async fn protobuf_list_body<'a, T>(
    chunks: impl IntoIterator<Item = &'a [u8]>,
    batch_bytes: usize,
    decoders: ProtobufDecoders<T>,
    keep_managed_fields: bool,
    limits: Limits,
) -> Result<ObjectList<T>, Error>
where
    T: Send + 'static,
{
    crate::client::protobuf_list::decode(
        body(chunks),
        None,
        batch_bytes,
        decoders,
        keep_managed_fields,
        limits.into(),
        CONTEXT,
    )
    .await
}

/// A response body that yields `chunks`, in order.
fn body<'a>(chunks: impl IntoIterator<Item = &'a [u8]>) -> crate::client::Body {
    let chunks: Vec<Result<Bytes, BoxError>> = chunks
        .into_iter()
        .map(|chunk| Ok(Bytes::copy_from_slice(chunk)))
        .collect();
    futures_util::stream::iter(chunks).boxed()
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
    selected.confine_paths();
    selected.to_config()
}
