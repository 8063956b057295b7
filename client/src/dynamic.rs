//! `DynamicObject`: an object of any resource, its body kept as JSON.

use k8s_openapi::apimachinery::pkg::apis::meta::v1::ObjectMeta;
use serde::{Deserialize, Serialize};

use crate::error::Error;
use crate::object::{object_key, Object};

/// An object of a resource known only at run time (client-go's `unstructured.Unstructured`):
/// `apiVersion`, `kind` and `metadata` decoded, every other top-level field kept as JSON.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct DynamicObject {
    /// `apiVersion`, e.g. `example.com/v1` (filled in from the resource for list items,
    /// which arrive without it).
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub api_version: String,
    /// `kind`, e.g. `Widget` (filled in from the resource for list items).
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub kind: String,
    /// The object's metadata.
    #[serde(default)]
    pub metadata: ObjectMeta,
    /// Every other top-level field (`spec`, `status`, `data`, ...).
    #[serde(flatten)]
    pub rest: serde_json::Map<String, serde_json::Value>,
}

impl Object for DynamicObject {
    type Meta = ObjectMeta;

    fn meta(&self) -> &ObjectMeta {
        &self.metadata
    }

    fn meta_mut(&mut self) -> &mut ObjectMeta {
        &mut self.metadata
    }
}

impl DynamicObject {
    /// The object as `K`, a k8s-openapi or generated type. A missing `apiVersion`/`kind`
    /// is taken from `K`; a different one is an error naming both.
    pub fn try_parse<K>(&self) -> Result<K, Error>
    where
        K: k8s_openapi::Resource + serde::de::DeserializeOwned,
    {
        let context = || {
            format!(
                "parsing {} {} as {} {}",
                if self.kind.is_empty() {
                    "object"
                } else {
                    &self.kind
                },
                object_key(self),
                K::API_VERSION,
                K::KIND
            )
        };
        let same_kind = self.kind.is_empty() || self.kind == K::KIND;
        let same_version = self.api_version.is_empty() || self.api_version == K::API_VERSION;
        if !same_kind || !same_version {
            return Err(Error::other(
                crate::error::ErrorKind::WrongKind,
                context(),
                format!("the object is {} {}", self.api_version, self.kind),
            ));
        }
        let mut value = serde_json::Map::with_capacity(self.rest.len() + 3);
        value.insert("apiVersion".into(), K::API_VERSION.into());
        value.insert("kind".into(), K::KIND.into());
        let metadata = serde_json::to_value(&self.metadata).map_err(|source| Error::Decode {
            context: context(),
            what: "the metadata".to_owned(),
            source: source.into(),
        })?;
        value.insert("metadata".into(), metadata);
        value.extend(self.rest.iter().map(|(k, v)| (k.clone(), v.clone())));
        serde_json::from_value(serde_json::Value::Object(value)).map_err(|source| Error::Decode {
            context: context(),
            what: "the object".to_owned(),
            source: source.into(),
        })
    }

    /// Sets `apiVersion` and `kind` where they are empty.
    pub fn fill_type_meta(&mut self, api_version: &str, kind: &str) {
        if self.api_version.is_empty() {
            api_version.clone_into(&mut self.api_version);
        }
        if self.kind.is_empty() {
            kind.clone_into(&mut self.kind);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use k8s_openapi::api::core::v1::{ConfigMap, Pod};

    fn list_item() -> DynamicObject {
        serde_json::from_value(serde_json::json!({
            "metadata": {"name": "web-0", "namespace": "shop", "resourceVersion": "7"},
            "spec": {"containers": [{"name": "app", "image": "nginx"}]},
            "status": {"phase": "Running"}
        }))
        .unwrap()
    }

    #[test]
    fn keeps_unknown_fields_and_round_trips() {
        let obj = list_item();
        assert!(obj.kind.is_empty());
        assert_eq!(obj.rest["status"]["phase"], "Running");
        let json = serde_json::to_value(&obj).unwrap();
        assert_eq!(json["spec"]["containers"][0]["image"], "nginx");
        assert!(json.get("kind").is_none());
    }

    #[test]
    fn parses_list_item_without_type_meta() {
        let pod: Pod = list_item().try_parse().unwrap();
        assert_eq!(pod.metadata.name.as_deref(), Some("web-0"));
        assert_eq!(pod.status.and_then(|s| s.phase).as_deref(), Some("Running"));
    }

    #[test]
    fn refuses_another_kind() {
        let mut obj = list_item();
        obj.fill_type_meta("v1", "Pod");
        let err = obj.try_parse::<ConfigMap>().unwrap_err().to_string();
        assert!(err.contains("Pod shop/web-0 as v1 ConfigMap"), "{err}");
    }

    #[test]
    fn reports_a_body_that_does_not_fit() {
        let mut obj = list_item();
        obj.rest
            .insert("spec".into(), serde_json::json!({"containers": "nope"}));
        let err = obj.try_parse::<Pod>().unwrap_err().to_string();
        assert!(err.contains("parsing object shop/web-0 as v1 Pod"), "{err}");
    }
}
