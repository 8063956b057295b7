//! Inputs encoded by `protoc` (scripted-server's `protoc` module) and mirror types.

#![allow(dead_code)] // Each test file uses part of this module.

pub use scripted_server::protoc::*;

pub mod kube;
