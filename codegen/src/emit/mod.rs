//! Emitters: the model becomes tokens and then formatted Rust files.
pub mod types;
