//! The generated decoders: an `impl Message` for every k8s-openapi struct of the enabled
//! Kubernetes version that decodes faithfully from protobuf (see informer-gen's
//! `read::protobuf_table`) and that a resource of an enabled API group reaches (the crate's
//! group features; every group by default), or that lists, watches and metadata need. A
//! struct with a field the protobuf definitions lack in this version has none, so its
//! resources stay on JSON rather than lose the field.

include!(concat!(env!("OUT_DIR"), "/decoders.rs"));
