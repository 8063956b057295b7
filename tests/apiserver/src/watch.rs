//! The streaming side of a watch: initial ADDED events, the history backlog, live
//! events filtered by the request's selectors, bookmarks, timeouts and injected faults.

use std::sync::Arc;
use std::time::Duration;

use bytes::{BufMut, Bytes, BytesMut};
use serde_json::Value;
use tokio::sync::mpsc::error::TryRecvError;
use tokio::time::Instant;

use crate::body::ChunkSender;
use crate::cut::CutSwitch;
use crate::filter::Filter;
use crate::partial_metadata;
use crate::protobuf;
use crate::resource::ResourceSpec;
use crate::state::State;
use crate::store::{Event, EventType, Obj, Subscription, WatchMsg};
use crate::wire::{bookmark_line, put_event, type_prefix};

/// Flush the buffer to the socket once it holds this much.
const CHUNK: usize = 64 * 1024;

/// How one watch request streams.
pub(crate) struct WatchParams {
    pub spec: ResourceSpec,
    pub filter: Filter,
    pub sub: Subscription,
    /// Only events with a larger resourceVersion are sent.
    pub since: u64,
    /// Send the initial objects as ADDED and end them with the `initial-events-end` bookmark.
    pub initial_end_bookmark: bool,
    pub timeout: Option<Duration>,
    /// The connection's switch, for the cut-watches fault.
    pub switch: CutSwitch,
    /// Reduce event objects to `PartialObjectMetadata`.
    pub partial: bool,
    /// Write length-prefixed protobuf `WatchEvent`s instead of JSON lines.
    pub protobuf: bool,
}

/// A line that is not JSON, for the malformed-line fault.
const MALFORMED_LINE: &[u8] = b"{\"type\":\"MODIFIED\",\"object\":{\"kind\": this is not JSON\n";
/// A frame whose payload is not a `WatchEvent` (field 0 does not exist), for the same fault
/// on a protobuf watch.
const MALFORMED_FRAME: &[u8] = b"\x00\x00\x00\x08\x00this is";

enum Flow {
    Continue,
    /// End the stream cleanly.
    Stop,
    /// Cut the connection in the middle of these bytes.
    Cut(Bytes),
}

struct Writer {
    state: Arc<State>,
    spec: ResourceSpec,
    prefix: String,
    filter: Filter,
    tx: ChunkSender,
    switch: CutSwitch,
    buf: BytesMut,
    last_rv: u64,
    sent_events: u64,
    partial: bool,
    protobuf: bool,
}

impl Writer {
    /// Sends the buffer; false when the client is gone.
    async fn flush(&mut self) -> bool {
        if self.buf.is_empty() {
            return true;
        }
        let chunk = self.buf.split().freeze();
        self.tx.send(chunk).await.is_ok()
    }

    /// An event of a stored object, whose protobuf is encoded once for every watch (as
    /// kube-apiserver's watch cache keeps each object's serializations).
    fn put_obj(&mut self, kind: EventType, obj: &Obj) -> Flow {
        if !self.protobuf {
            return self.put(kind, &obj.bytes);
        }
        let Some(encoder) = protobuf::encoder() else {
            return Flow::Stop;
        };
        match encoder.kept_raw(&self.spec, obj) {
            Ok(raw) => {
                let body = protobuf::envelope(&self.spec.api_version(), &self.spec.kind, &raw);
                self.buf
                    .put_slice(&protobuf::watch_frame(kind.as_str(), &body));
                self.count_sent()
            }
            Err(e) => {
                tracing::warn!(
                    "ending a protobuf watch: a {} does not encode: {e}",
                    self.spec.kind
                );
                Flow::Stop
            }
        }
    }

    fn put(&mut self, kind: EventType, stored: &[u8]) -> Flow {
        if self.protobuf {
            // kube-apiserver's watch server ends the stream when an object fails to encode.
            let Some(body) = self.encode(stored) else {
                return Flow::Stop;
            };
            self.buf
                .put_slice(&protobuf::watch_frame(kind.as_str(), &body));
        } else if self.partial {
            let reduced = partial_metadata::reduce(stored);
            put_event(&mut self.buf, kind.as_str(), &self.prefix, &reduced);
        } else {
            put_event(&mut self.buf, kind.as_str(), &self.prefix, stored);
        }
        self.count_sent()
    }

    /// Counts an event written; `Stop` once the fault that drops watches after so many says so.
    fn count_sent(&mut self) -> Flow {
        self.sent_events += 1;
        match self.state.faults.drop_watches_after() {
            Some(n) if self.sent_events >= n => Flow::Stop,
            _ => Flow::Continue,
        }
    }

    /// A stored object's protobuf body; `None` (logged) when it does not encode.
    fn encode(&self, stored: &[u8]) -> Option<Vec<u8>> {
        let encoder = protobuf::encoder()?;
        encoder
            .stored(&self.spec, stored)
            .map_err(|e| {
                tracing::warn!(
                    "ending a protobuf watch: a {} does not encode: {e}",
                    self.spec.kind
                )
            })
            .ok()
    }

    /// A BOOKMARK event at `rv`.
    fn put_bookmark(&mut self, rv: u64, initial_events_end: bool) -> Flow {
        if !self.protobuf {
            let line = bookmark_line(&self.spec, rv, initial_events_end);
            self.buf.put_slice(&line);
            return Flow::Continue;
        }
        let object = protobuf::bookmark_object(rv, initial_events_end);
        let body = protobuf::encoder().map(|e| e.object(&self.spec, &object));
        match body {
            Some(Ok(body)) => {
                self.buf
                    .put_slice(&protobuf::watch_frame("BOOKMARK", &body));
                Flow::Continue
            }
            _ => Flow::Stop,
        }
    }

    fn malformed(&self) -> &'static [u8] {
        if self.protobuf {
            MALFORMED_FRAME
        } else {
            MALFORMED_LINE
        }
    }

    fn on_event(&mut self, event: &Event) -> Flow {
        if event.rv <= self.last_rv {
            return Flow::Continue;
        }
        self.last_rv = event.rv;
        let now = self.filter.matches(&event.obj);
        match event.kind {
            EventType::Added | EventType::Deleted if now => self.put_obj(event.kind, &event.obj),
            EventType::Added | EventType::Deleted => Flow::Continue,
            EventType::Modified => {
                let before = event.prev.as_ref().is_some_and(|p| self.filter.matches(p));
                match (before, now) {
                    (true, true) => self.put_obj(EventType::Modified, &event.obj),
                    (false, true) => self.put_obj(EventType::Added, &event.obj),
                    (true, false) => match event.prev.as_ref().and_then(|p| restamp(p, event.rv)) {
                        // Like the real cacher: the previous content, at the event's resourceVersion.
                        Some(bytes) => self.put(EventType::Deleted, &bytes),
                        None => Flow::Continue,
                    },
                    (false, false) => Flow::Continue,
                }
            }
        }
    }

    fn on_message(&mut self, msg: WatchMsg) -> Flow {
        match msg {
            WatchMsg::Event(e) => self.on_event(&e),
            WatchMsg::Bookmark(rv) => {
                if rv >= self.last_rv {
                    self.last_rv = rv;
                    return self.put_bookmark(rv, false);
                }
                Flow::Continue
            }
            WatchMsg::Malformed => {
                self.buf.put_slice(self.malformed());
                Flow::Continue
            }
            WatchMsg::Cut => {
                let malformed = self.malformed();
                self.buf.put_slice(&malformed[..malformed.len() / 2]);
                Flow::Cut(self.buf.split().freeze())
            }
        }
    }

    /// Ends the stream: cleanly, or by failing the body so the connection drops mid-line.
    async fn finish(mut self, flow: Flow) {
        match flow {
            Flow::Cut(bytes) => {
                // Chunks already queued may not be written yet: the budget then ends inside
                // one of them, still in the middle of a chunk.
                self.switch.arm(bytes.len() as u64 / 2);
                let _ = self.tx.send(bytes).await;
            }
            Flow::Continue | Flow::Stop => {
                self.flush().await;
            }
        }
    }
}

/// The object's stored bytes with `metadata.resourceVersion` replaced.
fn restamp(obj: &Obj, rv: u64) -> Option<Bytes> {
    let mut v: Value = serde_json::from_slice(&obj.bytes).ok()?;
    v.get_mut("metadata")?
        .as_object_mut()?
        .insert("resourceVersion".into(), Value::String(rv.to_string()));
    serde_json::to_vec(&v).ok().map(Bytes::from)
}

/// Streams the watch into `tx` until the client leaves, the timeout passes, the server
/// closes the watch or a fault ends it.
pub(crate) async fn stream(state: Arc<State>, params: WatchParams, tx: ChunkSender) {
    let WatchParams {
        spec,
        filter,
        sub,
        since,
        initial_end_bookmark,
        timeout,
        switch,
        partial,
        protobuf,
    } = params;
    let spec = if partial {
        partial_metadata::spec(&spec)
    } else {
        spec
    };
    let Subscription {
        initial,
        backlog,
        rv: subscribed_at,
        mut rx,
    } = sub;
    // An absurd timeoutSeconds would overflow `Instant`: treat it as no timeout.
    let deadline = timeout.and_then(|t| Instant::now().checked_add(t));
    let mut w = Writer {
        state,
        prefix: type_prefix(&spec),
        spec,
        filter,
        tx,
        switch,
        buf: BytesMut::with_capacity(CHUNK),
        last_rv: since,
        sent_events: 0,
        partial,
        protobuf,
    };
    if !initial.is_empty() || initial_end_bookmark {
        for obj in &initial {
            if !w.filter.matches(obj) {
                continue;
            }
            if let Flow::Stop = w.put_obj(EventType::Added, obj) {
                return w.finish(Flow::Stop).await;
            }
            if w.buf.len() >= CHUNK && !w.flush().await {
                return;
            }
        }
        w.last_rv = w.last_rv.max(subscribed_at);
        if initial_end_bookmark && !w.state.faults.omits_initial_events_end() {
            if let Flow::Stop = w.put_bookmark(subscribed_at, true) {
                return w.finish(Flow::Stop).await;
            }
        }
    }
    for event in &backlog {
        if let Flow::Stop = w.on_event(event) {
            return w.finish(Flow::Stop).await;
        }
        if w.buf.len() >= CHUNK && !w.flush().await {
            return;
        }
    }
    if !w.flush().await {
        return;
    }
    loop {
        let timeout = async {
            match deadline {
                Some(d) => tokio::time::sleep_until(d).await,
                None => std::future::pending().await,
            }
        };
        let msg = tokio::select! {
            biased;
            _ = w.tx.closed() => return,
            m = rx.recv() => m,
            _ = timeout => return w.finish(Flow::Stop).await,
        };
        let Some(msg) = msg else {
            return w.finish(Flow::Stop).await;
        };
        let mut flow = w.on_message(msg);
        // Batch whatever is already queued into one chunk.
        while matches!(flow, Flow::Continue) && w.buf.len() < CHUNK {
            match rx.try_recv() {
                Ok(m) => flow = w.on_message(m),
                Err(TryRecvError::Empty) => break,
                Err(TryRecvError::Disconnected) => {
                    flow = Flow::Stop;
                    break;
                }
            }
        }
        match flow {
            Flow::Continue => {
                if !w.flush().await {
                    return;
                }
            }
            other => return w.finish(other).await,
        }
    }
}
