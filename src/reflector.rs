//! The reflector: lists, then watches, and feeds the delta queue.
//!
//! CONTRACT STUB: filled in by the runtime work.
