//! listers (placeholder until its issue lands).
