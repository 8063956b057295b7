//! Turning a non-2xx response into an [`ApiError`]: the server's `Status` body when
//! there is one, else the HTTP status itself.

use futures_util::StreamExt;
use http::header::RETRY_AFTER;
use k8s_openapi::apimachinery::pkg::apis::meta::v1::Status;

use super::transport::Response;
use crate::error::{retry_after_from_secs, ApiError, Error};

/// How much of a body that is not a `Status` the error quotes.
const QUOTED_BODY_BYTES: usize = 300;

/// The largest error body read; a `Status` is small, anything bigger is not one.
const MAX_ERROR_BODY: usize = 64 * 1024;

/// The `ApiError` for a response whose status is not a success.
pub(crate) async fn api_error(mut response: Response, context: &str) -> Error {
    let code = response.status.as_u16();
    let retry_after = response
        .headers
        .get(RETRY_AFTER)
        .and_then(|v| v.to_str().ok())
        .and_then(retry_after_seconds)
        .map(retry_after_from_secs);
    let mut body = Vec::new();
    while body.len() < MAX_ERROR_BODY {
        match response.body.next().await {
            Some(Ok(chunk)) => {
                let room = MAX_ERROR_BODY - body.len();
                body.extend_from_slice(&chunk[..chunk.len().min(room)]);
            }
            None | Some(Err(_)) => break,
        }
    }
    let canonical = response
        .status
        .canonical_reason()
        .unwrap_or("Unknown")
        .to_owned();
    let mut error = match serde_json::from_slice::<Status>(&body) {
        Ok(status) if status.reason.is_some() || status.message.is_some() => {
            ApiError::from_status(&status, context)
        }
        _ => ApiError {
            code,
            // The HTTP reason phrase without spaces matches Kubernetes' StatusReason names
            // (`NotFound`, `Forbidden`, `TooManyRequests`, ...).
            reason: canonical.replace(' ', ""),
            message: quote_body(&body).unwrap_or(canonical),
            details: None,
            context: context.to_owned(),
            retry_after: None,
        },
    };
    error.code = code;
    if retry_after.is_some() {
        error.retry_after = retry_after;
    }
    error.into()
}

/// The seconds of a `Retry-After` header (kube-apiserver sends whole seconds, never a date).
/// A number too large for a `u64` is still a number: it saturates rather than being ignored.
fn retry_after_seconds(value: &str) -> Option<u64> {
    let digits = value.trim();
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    Some(digits.parse::<u64>().unwrap_or(u64::MAX))
}

fn quote_body(body: &[u8]) -> Option<String> {
    let text = String::from_utf8_lossy(&body[..body.len().min(QUOTED_BODY_BYTES + 4)]);
    let text = text.trim();
    if text.is_empty() {
        return None;
    }
    let mut end = text.len().min(QUOTED_BODY_BYTES);
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    Some(text[..end].to_owned())
}
