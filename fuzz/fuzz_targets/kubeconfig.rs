//! Any bytes as a kubeconfig file through the loader: errors are fine (values that name the
//! file), panics are bugs.
#![no_main]

use libfuzzer_sys::fuzz_target;

mod kubeconfig_input;

fuzz_target!(|data: &[u8]| kubeconfig_input::run(data));
