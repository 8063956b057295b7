//! Plain HTTP/1.1 requests to the test server, without any informer code in the way:
//! the bytes the decode floor decodes, and the server's own list and watch throughput.

use bytes::{Bytes, BytesMut};
use http_body_util::{BodyExt, Empty};
use hyper_util::client::legacy::Client;
use hyper_util::rt::TokioExecutor;

use crate::error::BenchError;

type HttpClient = Client<hyper_util::client::legacy::connect::HttpConnector, Empty<Bytes>>;

fn client() -> HttpClient {
    Client::builder(TokioExecutor::new()).build_http()
}

fn http_err(step: &str, url: &str, reason: impl ToString) -> BenchError {
    BenchError::Http {
        step: step.to_owned(),
        url: url.to_owned(),
        reason: reason.to_string(),
    }
}

async fn send(step: &str, url: &str) -> Result<hyper::Response<hyper::body::Incoming>, BenchError> {
    send_accepting(step, url, None).await
}

async fn send_accepting(
    step: &str,
    url: &str,
    accept: Option<&str>,
) -> Result<hyper::Response<hyper::body::Incoming>, BenchError> {
    let mut request = hyper::Request::get(url);
    if let Some(accept) = accept {
        request = request.header(hyper::header::ACCEPT, accept);
    }
    let request = request
        .body(Empty::<Bytes>::new())
        .map_err(|e| http_err(step, url, e))?;
    let resp = client()
        .request(request)
        .await
        .map_err(|e| http_err(step, url, e))?;
    if !resp.status().is_success() {
        return Err(http_err(step, url, format!("status {}", resp.status())));
    }
    Ok(resp)
}

/// The whole body of `GET url`.
pub async fn get_bytes(url: &str) -> Result<Bytes, BenchError> {
    get_bytes_accepting(url, None).await
}

/// The body of a GET of `url` asking for `accept` (the server's default media type, JSON,
/// when `None`).
pub async fn get_bytes_accepting(url: &str, accept: Option<&str>) -> Result<Bytes, BenchError> {
    let resp = send_accepting("GET", url, accept).await?;
    let body = resp
        .into_body()
        .collect()
        .await
        .map_err(|e| http_err("read body of GET", url, e))?;
    Ok(body.to_bytes())
}

/// Reads `GET url` to the end and returns its size, dropping the bytes as they come.
pub async fn drain(url: &str) -> Result<usize, BenchError> {
    let mut body = send("GET", url).await?.into_body();
    let mut total = 0;
    while let Some(frame) = body.frame().await {
        let frame = frame.map_err(|e| http_err("read body of GET", url, e))?;
        if let Some(data) = frame.data_ref() {
            total += data.len();
        }
    }
    Ok(total)
}

/// Opens a watch at `url`; returns once the server has answered with its headers.
pub async fn open_watch(url: &str) -> Result<hyper::body::Incoming, BenchError> {
    open_watch_accepting(url, None).await
}

/// [`open_watch`] asking for `accept` (the server's default, JSON, when `None`).
pub async fn open_watch_accepting(
    url: &str,
    accept: Option<&str>,
) -> Result<hyper::body::Incoming, BenchError> {
    Ok(send_accepting("GET watch", url, accept).await?.into_body())
}

/// Counts newline-terminated events of an open watch until `stop` says enough (called
/// with the running count after every chunk) or the stream ends. Returns the count.
pub async fn count_lines(
    mut body: hyper::body::Incoming,
    mut stop: impl FnMut(usize) -> bool,
) -> Result<usize, BenchError> {
    let mut lines = 0;
    while let Some(frame) = body.frame().await {
        let frame = frame.map_err(|e| http_err("read watch stream", "", e))?;
        if let Some(data) = frame.data_ref() {
            lines += data.iter().filter(|&&b| b == b'\n').count();
            if stop(lines) {
                break;
            }
        }
    }
    Ok(lines)
}

/// Counts the length-prefixed frames of an open protobuf watch (`;stream=watch`: each
/// event a 4-byte big-endian length and that many bytes) until `stop` says enough (called
/// with the running count after every chunk) or the stream ends. Returns the count.
pub async fn count_frames(
    mut body: hyper::body::Incoming,
    mut stop: impl FnMut(usize) -> bool,
) -> Result<usize, BenchError> {
    let mut frames = FrameCounter::default();
    while let Some(frame) = body.frame().await {
        let frame = frame.map_err(|e| http_err("read protobuf watch stream", "", e))?;
        if let Some(data) = frame.data_ref() {
            frames.push(data);
            if stop(frames.complete) {
                break;
            }
        }
    }
    Ok(frames.complete)
}

/// Finds protobuf watch frames in a stream however its chunks cut them, without keeping
/// their bytes.
#[derive(Default)]
struct FrameCounter {
    /// Frames seen whole.
    complete: usize,
    /// The length prefix read so far of the frame being started.
    prefix: Vec<u8>,
    /// Payload bytes of the current frame still to come.
    remaining: usize,
}

impl FrameCounter {
    fn push(&mut self, mut data: &[u8]) {
        while !data.is_empty() {
            if self.remaining > 0 {
                let take = self.remaining.min(data.len());
                self.remaining -= take;
                data = &data[take..];
                if self.remaining == 0 {
                    self.complete += 1;
                }
                continue;
            }
            let take = (4 - self.prefix.len()).min(data.len());
            self.prefix.extend_from_slice(&data[..take]);
            data = &data[take..];
            if let Ok(prefix) = <[u8; 4]>::try_from(self.prefix.as_slice()) {
                self.prefix.clear();
                self.remaining = u32::from_be_bytes(prefix) as usize;
                if self.remaining == 0 {
                    self.complete += 1;
                }
            }
        }
    }
}

/// Reads the first `n` newline-terminated lines of an open watch (without their `\n`).
/// Fails if the stream ends before.
pub async fn read_lines(
    mut body: hyper::body::Incoming,
    n: usize,
) -> Result<Vec<Bytes>, BenchError> {
    let mut lines = Vec::with_capacity(n);
    let mut partial = BytesMut::new();
    while lines.len() < n {
        let Some(frame) = body.frame().await else {
            return Err(http_err(
                "read watch stream",
                "",
                format!("ended after {} of {n} lines", lines.len()),
            ));
        };
        let frame = frame.map_err(|e| http_err("read watch stream", "", e))?;
        if let Some(data) = frame.data_ref() {
            partial.extend_from_slice(data);
            while let Some(end) = partial.iter().position(|&b| b == b'\n') {
                let line = partial.split_to(end + 1).freeze();
                if lines.len() < n {
                    lines.push(line.slice(..end));
                }
            }
        }
    }
    Ok(lines)
}

/// Percent-encodes `s` for use as one query value.
pub fn query_value(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for b in s.bytes() {
        if b.is_ascii_alphanumeric() || matches!(b, b'-' | b'_' | b'.' | b'~') {
            out.push(b as char);
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn frames_are_counted_however_the_stream_is_cut() {
        let mut stream = Vec::new();
        for payload in [&b"abc"[..], b"", b"0123456789"] {
            stream.extend_from_slice(&(payload.len() as u32).to_be_bytes());
            stream.extend_from_slice(payload);
        }
        for chunk in 1..=stream.len() {
            let mut counter = FrameCounter::default();
            let mut seen = Vec::new();
            for piece in stream.chunks(chunk) {
                counter.push(piece);
                seen.push(counter.complete);
            }
            assert_eq!(counter.complete, 3, "chunks of {chunk}");
            assert!(seen.windows(2).all(|w| w[0] <= w[1]));
        }
        let mut counter = FrameCounter::default();
        counter.push(&stream[..stream.len() - 1]);
        assert_eq!(counter.complete, 2, "the last frame is not whole yet");
    }

    #[test]
    fn query_values_are_escaped() {
        assert_eq!(query_value("a+b/c=="), "a%2Bb%2Fc%3D%3D");
        assert_eq!(query_value("plain-1.2_x~"), "plain-1.2_x~");
    }
}
