//! Typed listers for every listable built-in Kubernetes resource: `core::v1::PodLister`
//! with `list(&selector)` and `pods(namespace)` → `PodNamespaceLister` (`list`, `get`);
//! cluster-scoped listers such as `core::v1::NodeLister` have `get` themselves.
//!
//! Generated at build time by `informer-gen` from the resource table of the Kubernetes
//! version the final binary enables in k8s-openapi; modules are `group::version`, one cargo
//! feature per group (all on by default). Listers read an informer's cache and hand out
//! `Arc`s: no copies. Usually obtained from `informers`: `factory.core().v1().pods().lister()`.
#![deny(missing_docs)]
#![cfg_attr(docsrs, feature(doc_cfg))]

include!(concat!(env!("OUT_DIR"), "/listers.rs"));
