//! Decoding JSON into serde types, the hot path of every list and watch.
//!
//! simd-json is used instead of `serde_json::from_slice` for two measured reasons: it
//! decodes a list of Pods faster, and it knows every array's length before serde builds
//! the `Vec`, so vectors get their exact capacity instead of doubling (serde_json gives no
//! size hint). That alone makes a cached k8s-openapi `Pod` about 30% smaller.
//!
//! simd-json parses in place, so the input is copied into a per-thread scratch buffer
//! that is reused, with simd-json's own buffers, from one document to the next.

use std::cell::RefCell;

use serde::de::{DeserializeOwned, Error as _};

/// How deeply arrays and objects may nest, as in serde_json: simd-json's deserializer recurses
/// once per level, so a document nested thousands deep (from a broken or hostile server) would
/// overflow the decoding thread's stack, which aborts the process. Kubernetes objects nest a few
/// dozen levels at most.
const MAX_DEPTH: usize = 128;

thread_local! {
    static SCRATCH: RefCell<Scratch> = RefCell::new(Scratch::default());
}

#[derive(Default)]
struct Scratch {
    input: Vec<u8>,
    buffers: simd_json::Buffers,
}

impl Scratch {
    fn decode<T: DeserializeOwned>(&mut self, bytes: &[u8]) -> Result<T, serde_json::Error> {
        check_depth(bytes)?;
        self.input.clear();
        self.input.extend_from_slice(bytes);
        simd_json::serde::from_slice_with_buffers(&mut self.input, &mut self.buffers)
            .map_err(|e| serde_json::Error::custom(e.to_string()))
    }
}

/// Fails when arrays and objects in `bytes` nest deeper than [`MAX_DEPTH`], naming the byte
/// where they do. Brackets inside strings do not count.
fn check_depth(bytes: &[u8]) -> Result<(), serde_json::Error> {
    let mut depth = 0usize;
    let mut at = 0;
    while at < bytes.len() {
        match bytes[at] {
            b'"' => {
                // Skip the string: to its closing quote, past escaped characters.
                at += 1;
                loop {
                    match bytes
                        .get(at..)
                        .and_then(|rest| memchr::memchr2(b'"', b'\\', rest))
                    {
                        Some(off) if bytes[at + off] == b'\\' => at += off + 2,
                        Some(off) => {
                            at += off;
                            break;
                        }
                        // Unterminated: the parser reports that.
                        None => return Ok(()),
                    }
                }
            }
            b'[' | b'{' => {
                depth += 1;
                if depth > MAX_DEPTH {
                    return Err(serde_json::Error::custom(format!(
                        "arrays and objects nested deeper than {MAX_DEPTH} levels at byte {at}"
                    )));
                }
            }
            b']' | b'}' => depth = depth.saturating_sub(1),
            _ => {}
        }
        at += 1;
    }
    Ok(())
}

/// Decodes one JSON document into `T`, with serde_json's error type so callers need not
/// know which parser ran.
pub(crate) fn from_slice<T: DeserializeOwned>(bytes: &[u8]) -> Result<T, serde_json::Error> {
    SCRATCH.with(|scratch| match scratch.try_borrow_mut() {
        Ok(mut scratch) => scratch.decode(bytes),
        // A `Deserialize` impl that itself decodes JSON through this function re-enters it;
        // it gets fresh buffers instead of a second borrow.
        Err(_) => Scratch::default().decode(bytes),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use k8s_openapi::api::core::v1::Pod;

    #[test]
    fn decodes_like_serde_json() {
        let text = br#"{"apiVersion":"v1","kind":"Pod","metadata":{"name":"p","namespace":"n",
            "labels":{"a":"b"},"managedFields":[{"fieldsV1":{"f:spec":{"k:{\"x\":1}":{}}}}]},
            "spec":{"containers":[{"name":"c","args":["--x=\u00e9\ud83d\ude00"],
            "ports":[{"containerPort":8080}]}]}}"#;
        let ours: Pod = from_slice(text).unwrap();
        let theirs: Pod = serde_json::from_slice(text).unwrap();
        assert_eq!(ours, theirs);
    }

    #[test]
    fn vectors_get_their_exact_length_as_capacity() {
        let pod: Pod =
            from_slice(br#"{"spec":{"containers":[{"name":"c","args":["a","b","c"]}]}}"#).unwrap();
        let mut containers = pod.spec.unwrap().containers;
        let args = containers.remove(0).args.unwrap();
        assert_eq!((args.len(), args.capacity()), (3, 3));
    }

    #[test]
    fn nesting_deeper_than_serde_json_allows_is_an_error_not_a_stack_overflow() {
        let deep = |levels: usize| {
            let mut doc = r#"{"s":"[[{{\"]]","a":"#.to_owned();
            doc.push_str(&"[".repeat(levels));
            doc.push_str(&"]".repeat(levels));
            doc.push('}');
            doc
        };
        from_slice::<serde_json::Value>(deep(MAX_DEPTH - 1).as_bytes()).unwrap();
        let err = from_slice::<serde_json::Value>(deep(100_000).as_bytes()).unwrap_err();
        assert!(
            err.to_string()
                .contains("nested deeper than 128 levels at byte 147"),
            "{err}"
        );
    }

    #[test]
    fn errors_are_serde_json_errors() {
        let err = from_slice::<Pod>(b"{\"metadata\":").unwrap_err();
        assert!(!err.to_string().is_empty());
        let err = from_slice::<Pod>(b"{\"metadata\":{\"name\":1}}").unwrap_err();
        assert!(!err.to_string().is_empty());
    }
}
