//! Readers: each input format becomes [`crate::model::ResourceDef`]s.
pub mod crd;
