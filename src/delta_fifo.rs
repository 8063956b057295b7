//! The in-order delta queue between the reflector and the store + handlers.
//!
//! CONTRACT STUB: filled in by the runtime work.
