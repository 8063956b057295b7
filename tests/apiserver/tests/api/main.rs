//! Raw-HTTP tests of the test API server: every semantic an informer depends on.

mod auth_tls;
mod binary;
mod discovery;
mod faults;
mod list;
mod semantics;
mod support;
mod watch;
mod writes;
