//! The shared helpers ([`shared`]: client, watch reader) and the requests sharded lists and
//! watches send.

use informer_selectors::shard::{fnv1a_64, ShardSelector};
use serde_json::Value;
use test_apiserver::RunningServer;

#[allow(dead_code)] // Each suite uses a part of the shared helpers.
#[path = "../support/mod.rs"]
mod shared;

pub use shared::*;

/// Percent-encodes a query value (every byte but unreserved ones), as clients send it.
pub fn enc(s: &str) -> String {
    s.bytes()
        .map(|b| match b {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'.' | b'_' | b'~' => {
                (b as char).to_string()
            }
            _ => format!("%{b:02X}"),
        })
        .collect()
}

/// GET `path`: the status code and the JSON body.
pub async fn get(server: &RunningServer, path: &str) -> (u16, Value) {
    send(server, reqwest::Method::GET, path, JSON, &Value::Null).await
}

/// The uids of a list's items.
pub fn uids(list: &Value) -> Vec<String> {
    list["items"]
        .as_array()
        .expect("items")
        .iter()
        .map(|i| i["metadata"]["uid"].as_str().expect("uid").to_owned())
        .collect()
}

/// True when `selector` selects the object (its uid or namespace hashed).
pub fn selects(selector: &ShardSelector, obj: &Value) -> bool {
    let meta = &obj["metadata"];
    selector.matches(
        meta["uid"].as_str().unwrap_or_default(),
        meta["namespace"].as_str().unwrap_or_default(),
    )
}

/// The hash range `[h, h + 1)` of exactly `value`'s hash.
pub fn exactly(value: &str) -> (u128, u128) {
    let h = u128::from(fnv1a_64(value.as_bytes()));
    (h, h + 1)
}
