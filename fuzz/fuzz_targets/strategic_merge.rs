//! Any bytes as a built-in kind, an object and a strategic merge patch, and as `fieldsV1`:
//! errors are fine; panics, an empty patch that changes a patched object, and field sets
//! that do not survive their own `fieldsV1` are bugs.
#![no_main]

use libfuzzer_sys::fuzz_target;

mod strategic_merge_input;

fuzz_target!(|data: &[u8]| strategic_merge_input::run(data));
