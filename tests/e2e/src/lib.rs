//! e2e (placeholder until its issue lands).
