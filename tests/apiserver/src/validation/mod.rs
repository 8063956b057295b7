//! What kube-apiserver's registries check before they store a write: the string formats
//! of names, labels and keys, and object metadata.

pub(crate) mod builtins;
pub(crate) mod data;
pub(crate) mod names;
pub(crate) mod objectmeta;
