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
    Ok(send("GET watch", url).await?.into_body())
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
    fn query_values_are_escaped() {
        assert_eq!(query_value("a+b/c=="), "a%2Bb%2Fc%3D%3D");
        assert_eq!(query_value("plain-1.2_x~"), "plain-1.2_x~");
    }
}
