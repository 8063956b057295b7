//! Any bytes as a list response body, cut into chunks, through the list decoder and the
//! decode pool: errors are fine, panics and cut-dependent results are bugs.
#![no_main]

use libfuzzer_sys::fuzz_target;

mod list_body_input;
mod runtime;
mod split;

fuzz_target!(|data: &[u8]| list_body_input::run(data));
