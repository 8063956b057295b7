//! ServiceAccounts as a cluster keeps them: kube-controller-manager's serviceaccounts
//! controller, which gives every active namespace its `default` ServiceAccount and creates
//! it again when it is deleted, and the look-up the `ServiceAccount` admission plugin makes
//! for each new Pod (see `defaults::pod`).
//!
//! The controller acts right after the write that calls for it (a namespace created, a
//! `default` ServiceAccount deleted), through the same create a client's POST takes, so
//! watchers see the same events. kube-apiserver's admission plugin waits for a missing
//! `default` account (it retries for up to about two seconds while the controller catches
//! up); acting at once gives the Pod create that follows a namespace create the same answer.

use serde_json::{json, Value};

use crate::resource::ResourceSpec;
use crate::state::{State, WriteOptions};
use crate::status::StatusError;
use crate::store::{object_key, Obj, Outcome};

/// The account every namespace gets, and the one a Pod without `serviceAccountName` runs as.
pub(crate) const DEFAULT: &str = "default";

/// True for the core `serviceaccounts` resource.
pub(crate) fn is_service_accounts(spec: &ResourceSpec) -> bool {
    spec.group.is_empty() && spec.plural == "serviceaccounts"
}

/// The stored ServiceAccount `namespace/name`, if any (the admission plugin's look-up).
pub(crate) fn get(
    state: &State,
    namespace: &str,
    name: &str,
) -> Result<Option<Value>, StatusError> {
    let Ok(r) = state.resolve_name("serviceaccounts") else {
        return Ok(None);
    };
    r.store
        .get(&object_key(Some(namespace), name))
        .map(|o| o.to_value())
        .transpose()
}

/// The controller's part after a stored write: a new namespace gets its `default`
/// account; a deleted `default` account is created again while its namespace is active.
/// Off with `TestApiServerBuilder::service_account_controller(false)`.
pub(crate) fn after_write(state: &State, spec: &ResourceSpec, outcome: Outcome, obj: &Obj) {
    if !state.config.service_account_controller {
        return;
    }
    let namespace = match outcome {
        Outcome::Created if crate::namespace_lifecycle::is_namespaces(spec) => obj.name.as_str(),
        Outcome::Deleted if is_service_accounts(spec) && obj.name == DEFAULT => {
            match obj.namespace.as_deref() {
                Some(ns) => ns,
                None => return,
            }
        }
        _ => return,
    };
    if let Err(e) = ensure_default(state, namespace) {
        tracing::warn!("serviceaccounts controller: cannot create {namespace}/{DEFAULT}: {e}");
    }
}

/// The controller's `syncNamespace`: an active namespace without a `default` account gets
/// one, `{metadata: {name: default, namespace}}` and nothing else. A namespace that is gone
/// or terminating is left alone, and so is a create that finds the account there (another
/// write made it in between) or the namespace terminating.
fn ensure_default(state: &State, namespace: &str) -> Result<(), StatusError> {
    let namespaces = state.resolve_name("namespaces")?;
    let Some(ns) = namespaces.store.get(&object_key(None, namespace)) else {
        return Ok(());
    };
    if ns
        .to_value()?
        .pointer("/status/phase")
        .and_then(Value::as_str)
        != Some("Active")
    {
        return Ok(());
    }
    let accounts = state.resolve_name("serviceaccounts")?;
    if accounts
        .store
        .get(&object_key(Some(namespace), DEFAULT))
        .is_some()
    {
        return Ok(());
    }
    let account = json!({
        "apiVersion": "v1",
        "kind": "ServiceAccount",
        "metadata": {"name": DEFAULT, "namespace": namespace},
    });
    match state.create(
        &accounts,
        Some(namespace),
        account,
        &WriteOptions::default(),
    ) {
        Ok(_) => Ok(()),
        Err(e) if e.code == 409 || e.code == 403 => Ok(()),
        Err(e) => Err(e),
    }
}
