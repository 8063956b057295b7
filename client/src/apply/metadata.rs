//! The metadata of an apply configuration (client-go's `ObjectMetaApplyConfiguration`):
//! what an apply may set of `ObjectMeta`. `managedFields` is the server's record of the
//! apply itself, so it has no place here.

use std::collections::BTreeMap;

use k8s_openapi::apimachinery::pkg::apis::meta::v1::Time;
use serde::{Deserialize, Serialize};

/// The `metadata` of an apply configuration; every field optional, only the set ones sent.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ObjectMetaApply {
    /// `name`: the object's name, which an apply's URL repeats.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    /// `generateName`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub generate_name: Option<String>,
    /// `namespace`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub namespace: Option<String>,
    /// `uid`: a precondition when set.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub uid: Option<String>,
    /// `resourceVersion`: a precondition when set (optimistic concurrency).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub resource_version: Option<String>,
    /// `generation`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub generation: Option<i64>,
    /// `creationTimestamp`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub creation_timestamp: Option<Time>,
    /// `deletionTimestamp`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub deletion_timestamp: Option<Time>,
    /// `deletionGracePeriodSeconds`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub deletion_grace_period_seconds: Option<i64>,
    /// `labels`: each key is owned on its own.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub labels: Option<BTreeMap<String, String>>,
    /// `annotations`: each key is owned on its own.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub annotations: Option<BTreeMap<String, String>>,
    /// `ownerReferences`, keyed by `uid`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub owner_references: Option<Vec<OwnerReferenceApply>>,
    /// `finalizers`, a set.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub finalizers: Option<Vec<String>>,
}

impl ObjectMetaApply {
    /// Metadata with nothing set.
    pub fn new() -> Self {
        Self::default()
    }

    /// Sets `name`.
    #[must_use]
    pub fn name(mut self, value: impl Into<String>) -> Self {
        self.name = Some(value.into());
        self
    }

    /// Sets `generateName`.
    #[must_use]
    pub fn generate_name(mut self, value: impl Into<String>) -> Self {
        self.generate_name = Some(value.into());
        self
    }

    /// Sets `namespace`.
    #[must_use]
    pub fn namespace(mut self, value: impl Into<String>) -> Self {
        self.namespace = Some(value.into());
        self
    }

    /// Sets `uid`.
    #[must_use]
    pub fn uid(mut self, value: impl Into<String>) -> Self {
        self.uid = Some(value.into());
        self
    }

    /// Sets `resourceVersion`.
    #[must_use]
    pub fn resource_version(mut self, value: impl Into<String>) -> Self {
        self.resource_version = Some(value.into());
        self
    }

    /// Sets `generation`.
    #[must_use]
    pub fn generation(mut self, value: i64) -> Self {
        self.generation = Some(value);
        self
    }

    /// Sets `creationTimestamp`.
    #[must_use]
    pub fn creation_timestamp(mut self, value: Time) -> Self {
        self.creation_timestamp = Some(value);
        self
    }

    /// Sets `deletionTimestamp`.
    #[must_use]
    pub fn deletion_timestamp(mut self, value: Time) -> Self {
        self.deletion_timestamp = Some(value);
        self
    }

    /// Sets `deletionGracePeriodSeconds`.
    #[must_use]
    pub fn deletion_grace_period_seconds(mut self, value: i64) -> Self {
        self.deletion_grace_period_seconds = Some(value);
        self
    }

    /// Adds `labels` (a key given again keeps its last value).
    #[must_use]
    pub fn labels(
        mut self,
        entries: impl IntoIterator<Item = (impl Into<String>, impl Into<String>)>,
    ) -> Self {
        extend_map(&mut self.labels, entries);
        self
    }

    /// Adds `annotations` (a key given again keeps its last value).
    #[must_use]
    pub fn annotations(
        mut self,
        entries: impl IntoIterator<Item = (impl Into<String>, impl Into<String>)>,
    ) -> Self {
        extend_map(&mut self.annotations, entries);
        self
    }

    /// Adds `ownerReferences`.
    #[must_use]
    pub fn owner_references(
        mut self,
        values: impl IntoIterator<Item = OwnerReferenceApply>,
    ) -> Self {
        self.owner_references
            .get_or_insert_with(Vec::new)
            .extend(values);
        self
    }

    /// Adds `finalizers`.
    #[must_use]
    pub fn finalizers(mut self, values: impl IntoIterator<Item = impl Into<String>>) -> Self {
        self.finalizers
            .get_or_insert_with(Vec::new)
            .extend(values.into_iter().map(Into::into));
        self
    }
}

fn extend_map(
    map: &mut Option<BTreeMap<String, String>>,
    entries: impl IntoIterator<Item = (impl Into<String>, impl Into<String>)>,
) {
    map.get_or_insert_with(BTreeMap::new)
        .extend(entries.into_iter().map(|(k, v)| (k.into(), v.into())));
}

/// An owner reference of an apply configuration (client-go's
/// `OwnerReferenceApplyConfiguration`).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct OwnerReferenceApply {
    /// `apiVersion` of the owner.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub api_version: Option<String>,
    /// `kind` of the owner.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub kind: Option<String>,
    /// `name` of the owner.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    /// `uid` of the owner: the key of the list.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub uid: Option<String>,
    /// `controller`: whether the owner is the managing controller.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub controller: Option<bool>,
    /// `blockOwnerDeletion`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub block_owner_deletion: Option<bool>,
}

impl OwnerReferenceApply {
    /// A reference with nothing set.
    pub fn new() -> Self {
        Self::default()
    }

    /// Sets `apiVersion`.
    #[must_use]
    pub fn api_version(mut self, value: impl Into<String>) -> Self {
        self.api_version = Some(value.into());
        self
    }

    /// Sets `kind`.
    #[must_use]
    pub fn kind(mut self, value: impl Into<String>) -> Self {
        self.kind = Some(value.into());
        self
    }

    /// Sets `name`.
    #[must_use]
    pub fn name(mut self, value: impl Into<String>) -> Self {
        self.name = Some(value.into());
        self
    }

    /// Sets `uid`.
    #[must_use]
    pub fn uid(mut self, value: impl Into<String>) -> Self {
        self.uid = Some(value.into());
        self
    }

    /// Sets `controller`.
    #[must_use]
    pub fn controller(mut self, value: bool) -> Self {
        self.controller = Some(value);
        self
    }

    /// Sets `blockOwnerDeletion`.
    #[must_use]
    pub fn block_owner_deletion(mut self, value: bool) -> Self {
        self.block_owner_deletion = Some(value);
        self
    }
}
