//! Any bytes as one HTTP/1.1 connection to a fresh test API server: any answer is fine,
//! panics are bugs.
#![no_main]

use libfuzzer_sys::fuzz_target;

mod request_input;

fuzz_target!(|data: &[u8]| {
    request_input::answer(data);
});
