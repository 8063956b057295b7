//! test-apiserver (placeholder until its issue lands).
