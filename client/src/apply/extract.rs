//! The apply configuration a field manager owns in a live object (client-go's
//! `Extract<Kind>` over `managedfields.ExtractInto`).

use informer_merge::extract::extract_items;
use informer_merge::fieldpath::{FieldsV1Error, Set};
use k8s_openapi::apimachinery::pkg::apis::meta::v1::ObjectMeta;
use serde::Serialize;
use serde_json::{Map, Value};

use super::ApplyConfiguration;

/// Why [`extract`] could not read a manager's configuration.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum ExtractError {
    /// An entry of `metadata.managedFields` holds a `fieldsV1` that is not a field set.
    #[error(
        "{kind} {name:?}: the managedFields entry of {manager:?} is not a field set: {source}"
    )]
    ManagedFields {
        /// The object's kind.
        kind: &'static str,
        /// The object's name.
        name: String,
        /// The manager whose entry it is.
        manager: String,
        /// What is wrong with it.
        #[source]
        source: FieldsV1Error,
    },
    /// The object does not serialize, or the fields the manager owns do not fit the
    /// configuration type (a configuration generated for another version of the type).
    #[error("{kind} {name:?}: the fields {manager:?} owns do not decode as its apply configuration: {source}")]
    Decode {
        /// The object's kind.
        kind: &'static str,
        /// The object's name.
        name: String,
        /// The manager whose fields they are.
        manager: String,
        /// What serde said.
        #[source]
        source: serde_json::Error,
    },
}

/// The configuration `manager` applied to `object`, read back from its `managedFields`:
/// the fields of its `Apply` entries for `subresource` (`""` for the object itself,
/// `"status"` for its status), with `apiVersion`, `kind`, `metadata.name` and
/// `metadata.namespace` set as an apply needs them. A manager that never applied gets a
/// configuration with only those four.
///
/// Generated code calls it as `extract_<kind>(&obj, manager)` and
/// `extract_<kind>_status(&obj, manager)`. Modify what it returns and apply it again to
/// change a manager's fields without claiming anyone else's:
///
/// ```
/// use informer_client::apply::{extract, ApplyConfiguration};
/// use k8s_openapi::api::core::v1::ConfigMap;
/// use k8s_openapi::apimachinery::pkg::apis::meta::v1::{FieldsV1, ManagedFieldsEntry, ObjectMeta};
/// use serde::{Deserialize, Serialize};
/// use std::collections::BTreeMap;
///
/// #[derive(Debug, Default, PartialEq, Serialize, Deserialize)]
/// #[serde(rename_all = "camelCase")]
/// struct ConfigMapApply {
///     #[serde(skip_serializing_if = "Option::is_none")]
///     data: Option<BTreeMap<String, String>>,
/// }
/// impl ApplyConfiguration for ConfigMapApply {
///     type Resource = ConfigMap;
/// }
///
/// let live = ConfigMap {
///     metadata: ObjectMeta {
///         name: Some("settings".into()),
///         managed_fields: Some(vec![ManagedFieldsEntry {
///             manager: Some("ctl".into()),
///             operation: Some("Apply".into()),
///             fields_v1: Some(FieldsV1(serde_json::json!({"f:data": {"f:a": {}}}))),
///             ..Default::default()
///         }]),
///         ..Default::default()
///     },
///     data: Some(BTreeMap::from([("a".into(), "1".into()), ("b".into(), "2".into())])),
///     ..Default::default()
/// };
/// let owned: ConfigMapApply = extract(&live, "ctl", "")?;
/// assert_eq!(owned.data, Some(BTreeMap::from([("a".into(), "1".into())])));
/// # Ok::<(), informer_client::apply::ExtractError>(())
/// ```
pub fn extract<C>(object: &C::Resource, manager: &str, subresource: &str) -> Result<C, ExtractError>
where
    C: ApplyConfiguration,
    C::Resource: k8s_openapi::Resource + k8s_openapi::Metadata<Ty = ObjectMeta> + Serialize,
{
    let kind = <C::Resource as k8s_openapi::Resource>::KIND;
    let meta = k8s_openapi::Metadata::metadata(object);
    let name = meta.name.clone().unwrap_or_default();
    let mut owned = Set::new();
    for entry in meta.managed_fields.iter().flatten() {
        let applied = entry.manager.as_deref() == Some(manager)
            && entry.operation.as_deref() == Some("Apply")
            && entry.subresource.as_deref().unwrap_or("") == subresource;
        let Some(fields) = entry.fields_v1.as_ref().filter(|_| applied) else {
            continue;
        };
        let set = Set::from_fields_v1(&fields.0).map_err(|source| ExtractError::ManagedFields {
            kind,
            name: name.clone(),
            manager: manager.to_owned(),
            source,
        })?;
        owned = owned.union(&set);
    }
    let decode = |source| ExtractError::Decode {
        kind,
        name: name.clone(),
        manager: manager.to_owned(),
        source,
    };
    let live = serde_json::to_value(object).map_err(decode)?;
    let mut config = match extract_items(&live, &owned) {
        Value::Object(map) => map,
        _ => Map::new(),
    };
    config.insert(
        "apiVersion".to_owned(),
        <C::Resource as k8s_openapi::Resource>::API_VERSION.into(),
    );
    config.insert("kind".to_owned(), kind.into());
    let metadata = config
        .entry("metadata")
        .or_insert_with(|| Value::Object(Map::new()));
    if !metadata.is_object() {
        *metadata = Value::Object(Map::new());
    }
    if let Value::Object(metadata) = metadata {
        metadata.insert("name".to_owned(), name.clone().into());
        match &meta.namespace {
            Some(ns) => metadata.insert("namespace".to_owned(), ns.clone().into()),
            None => metadata.remove("namespace"),
        };
    }
    serde_json::from_value(Value::Object(config)).map_err(decode)
}
