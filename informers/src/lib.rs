//! informers (placeholder until its issue lands).
