//! Raw-HTTP tests of how the test API server stores built-in objects, against
//! kube-apiserver 1.37's own behaviour: the defaults its decoder, registry strategies and
//! default admission plugins add (Deployments, Pods, Services with their cluster IPs and
//! node ports, Jobs, ...), the `spec` validations controllers trip over with their exact
//! `Status` bodies, and the controller bug the defaulting exposes.

mod controller_bug;
mod defaults;
mod service_accounts;
mod services;
mod support;
mod validation;
