//! Raw-HTTP tests of what the test API server checks before it stores a write, against
//! kube-apiserver's own answers: object metadata validation per resource, ConfigMap and
//! Secret data, and the namespace lifecycle (admission, termination, the controller).

mod data;
mod metadata;
mod namespaces;
mod support;
