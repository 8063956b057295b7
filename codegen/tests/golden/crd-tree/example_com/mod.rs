//! Custom resources of API group `example.com`.
pub mod v1;
pub mod v1beta1;
