//! Any bytes as a watch response body, cut into chunks, through the watch-line decoder and
//! the decode pool: errors are fine, panics and cut-dependent events are bugs.
#![no_main]

use libfuzzer_sys::fuzz_target;

mod runtime;
mod split;
mod watch_lines_input;

fuzz_target!(|data: &[u8]| watch_lines_input::run(data));
