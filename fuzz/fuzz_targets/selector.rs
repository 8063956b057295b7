//! Any bytes as a label selector: errors are fine; panics, and canonical text that does not
//! parse back to the same selector, are bugs.
#![no_main]

use libfuzzer_sys::fuzz_target;

mod selector_input;

fuzz_target!(|data: &[u8]| selector_input::run(data));
