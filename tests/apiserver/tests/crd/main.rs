//! CRDs through the API: installation, discovery, versions and deletion; validation,
//! pruning and defaulting of custom resources as kube-apiserver does them; and the
//! real CRDs of `../shared/crds` installed and exercised one by one.

// The Widget CRD is one `json!` literal, deeper than the default limit allows.
#![recursion_limit = "256"]

mod cel;
mod corpus;
mod install;
mod pruning;
mod structural;
mod support;
mod validation;
