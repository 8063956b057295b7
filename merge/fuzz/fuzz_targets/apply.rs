//! Any bytes through the server-side apply engine: errors are fine (values), panics are
//! bugs.
#![no_main]

use libfuzzer_sys::fuzz_target;

mod apply_input;

fuzz_target!(|data: &[u8]| apply_input::run(data));
