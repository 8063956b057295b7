//! Kubernetes protobuf bodies encoded by `protoc` from Kubernetes' own `.proto` files, so
//! decoders are tested against an independent encoder, and scripted servers can answer
//! protobuf. CI installs protoc; the protos are `../shared/protos` next to the workspace.

use std::io::Write;
use std::path::PathBuf;
use std::process::{Command, Stdio};

/// The checked-in Kubernetes `.proto` files.
pub fn protos_dir() -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../shared/protos/v1.36");
    assert!(
        dir.join("api/core/v1/generated.proto").is_file(),
        "the Kubernetes protos are missing at {}: these tests need ../shared/protos next to the \
         workspace",
        dir.display()
    );
    dir
}

/// `text` (protobuf text format) encoded by `protoc --encode=message` with `proto`, a file
/// under `include` (the Kubernetes protos unless given).
pub fn protoc_in(include: &[PathBuf], proto: &str, message: &str, text: &str) -> Vec<u8> {
    let mut command = Command::new("protoc");
    // Maps in key order, as Go's gogo-protobuf writes them.
    command
        .arg(format!("--encode={message}"))
        .arg("--deterministic_output");
    for dir in include {
        command.arg("-I").arg(dir);
    }
    let mut child = match command
        .arg(proto)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
    {
        Ok(child) => child,
        Err(e) => panic!(
            "cannot run protoc ({e}): these tests need protoc on PATH (apt-get install \
             protobuf-compiler; CI installs it)"
        ),
    };
    child
        .stdin
        .take()
        .expect("piped stdin")
        .write_all(text.as_bytes())
        .expect("writing to protoc");
    let output = child.wait_with_output().expect("waiting for protoc");
    assert!(
        output.status.success(),
        "protoc --encode={message} failed: {}\ninput:\n{text}",
        String::from_utf8_lossy(&output.stderr)
    );
    output.stdout
}

/// [`protoc_in`] with the Kubernetes protos.
pub fn protoc(proto: &str, message: &str, text: &str) -> Vec<u8> {
    protoc_in(&[protos_dir()], proto, message, text)
}

/// `bytes` as a text-format string literal.
pub fn literal(bytes: &[u8]) -> String {
    let mut s = String::from("\"");
    for b in bytes {
        s.push_str(&format!("\\{b:03o}"));
    }
    s.push('"');
    s
}

/// A `k8s\0` body: `raw` in a `runtime.Unknown` encoded by protoc, written the way Go writes
/// it (empty contentEncoding and contentType included).
pub fn envelope(api_version: &str, kind: &str, raw: &[u8]) -> Vec<u8> {
    let text = format!(
        "typeMeta {{ apiVersion: {api_version:?} kind: {kind:?} }} raw: {} contentEncoding: \"\" \
         contentType: \"\"",
        literal(raw)
    );
    let mut body = b"k8s\0".to_vec();
    body.extend(protoc(
        "apimachinery/pkg/runtime/generated.proto",
        "apimachinery.pkg.runtime.Unknown",
        &text,
    ));
    body
}

/// A watch frame's payload: a `meta.v1.WatchEvent` encoded by protoc.
pub fn watch_event(event_type: &str, object: &[u8]) -> Vec<u8> {
    protoc(
        "apimachinery/pkg/apis/meta/v1/generated.proto",
        "apimachinery.pkg.apis.meta.v1.WatchEvent",
        &format!("type: {event_type:?} object {{ raw: {} }}", literal(object)),
    )
}

/// `payload` behind its 4-byte big-endian length, as the server frames watch events.
pub fn frame(payload: &[u8]) -> Vec<u8> {
    let mut framed = u32::try_from(payload.len())
        .expect("small frame")
        .to_be_bytes()
        .to_vec();
    framed.extend_from_slice(payload);
    framed
}
