//! The generated decoders: an `impl Message` for every k8s-openapi struct of the enabled
//! Kubernetes version that decodes faithfully from protobuf (see informer-gen's
//! `read::protobuf_table`). A struct with a field the protobuf definitions lack in this
//! version has none, so its resources stay on JSON rather than lose the field.

include!(concat!(env!("OUT_DIR"), "/decoders.rs"));
