//! Any bytes as a protobuf list body, object body, watch event and watch stream (cut into
//! chunks) through informer-protobuf's decoders: errors are fine, panics, errors that do not
//! say what failed, cut-dependent frames and managedFields changing anything but
//! managedFields are bugs.
#![no_main]

use libfuzzer_sys::fuzz_target;

mod protobuf_decode_input;
mod runtime;
mod split;

fuzz_target!(|data: &[u8]| protobuf_decode_input::run(data));
