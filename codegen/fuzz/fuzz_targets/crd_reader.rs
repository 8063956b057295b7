//! Any bytes through the CRD reader, typer and emitter: errors are fine, panics are bugs.
#![no_main]

use libfuzzer_sys::fuzz_target;

mod crd_reader_input;

fuzz_target!(|data: &[u8]| crd_reader_input::run(data));
