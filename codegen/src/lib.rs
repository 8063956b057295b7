//! informer-gen (placeholder until its issue lands).
