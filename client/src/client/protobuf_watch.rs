//! The events of a protobuf watch body: length-prefixed frames, each decoded as it arrives
//! (a frame is one object, decoded in microseconds: no pool, unlike JSON batches). The
//! stream ends after the first error.

use std::collections::VecDeque;
use std::sync::Arc;

use futures_util::StreamExt;

use super::{http_error, oversized, Body};
use crate::client::decode::Oversized;
use crate::error::Error;
use crate::protobuf::{FrameSplitter, FrameTooLarge, ProtobufDecoders};
use crate::watch_event::{WatchEvent, WatchStream};

struct State<T> {
    body: Body,
    frames: FrameSplitter,
    decoders: ProtobufDecoders<T>,
    keep_managed_fields: bool,
    max_frame: usize,
    ready: VecDeque<Result<WatchEvent<T>, Error>>,
    ended: bool,
    context: Arc<str>,
}

/// The events of `body`, a watch answered as protobuf; one frame is at most `max_frame`
/// bytes.
pub(super) fn events<T: Send + 'static>(
    body: Body,
    decoders: ProtobufDecoders<T>,
    keep_managed_fields: bool,
    max_frame: usize,
    context: Arc<str>,
) -> WatchStream<T> {
    let state = State {
        body,
        frames: FrameSplitter::default(),
        decoders,
        keep_managed_fields,
        max_frame,
        ready: VecDeque::new(),
        ended: false,
        context,
    };
    futures_util::stream::unfold(state, next).boxed()
}

async fn next<T: Send + 'static>(
    mut st: State<T>,
) -> Option<(Result<WatchEvent<T>, Error>, State<T>)> {
    loop {
        if st.ended {
            return None;
        }
        if let Some(event) = st.ready.pop_front() {
            st.ended = event.is_err();
            return Some((event, st));
        }
        match st.body.next().await {
            Some(Ok(bytes)) => {
                st.frames.push(&bytes);
                st.decode_frames();
            }
            Some(Err(e)) => {
                let e = http_error(&st.context, "reading the watch stream", &*e);
                st.ready.push_back(Err(e));
            }
            None if st.frames.has_partial() => {
                st.ready.push_back(Err(Error::other(
                    crate::error::ErrorKind::Protocol,
                    &*st.context,
                    "the watch stream ended inside a protobuf frame",
                )));
            }
            None => return None,
        }
    }
}

impl<T> State<T> {
    /// Decodes every frame that has arrived, in order; stops at the first error.
    fn decode_frames(&mut self) {
        loop {
            match self.frames.next_frame(self.max_frame) {
                Ok(Some(frame)) => {
                    let event =
                        (self.decoders.event)(&frame, self.keep_managed_fields).map_err(|source| {
                            Error::Decode {
                                context: self.context.to_string(),
                                what: format!("a protobuf watch event of {} bytes", frame.len()),
                                source,
                            }
                        });
                    let failed = event.is_err();
                    self.ready.push_back(event);
                    if failed {
                        return;
                    }
                }
                Ok(None) => return,
                Err(FrameTooLarge(_)) => {
                    let what = Oversized {
                        what: "a watch event",
                        limit: u64::try_from(self.max_frame).unwrap_or(u64::MAX),
                        setting: "max_object_bytes",
                    };
                    self.ready.push_back(Err(oversized(&self.context, what)));
                    return;
                }
            }
        }
    }
}
