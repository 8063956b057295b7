//! How a generated apply configuration deserializes: the object read once as a JSON map,
//! then each field taken out of it by name. One small generic function per field type
//! instead of a derived visitor per struct keeps the hundreds of generated configurations
//! cheap to compile; configurations are read back from JSON (by [`extract`](super::extract))
//! far less often than they are written.

use std::collections::BTreeMap;

use serde::de::{DeserializeOwned, Error};
use serde::{Deserialize, Deserializer};
use serde_json::{Map, Value};

/// The fields of one object being deserialized into an apply configuration.
///
/// ```
/// use informer_client::apply::Fields;
/// use serde::Deserialize;
///
/// let mut fields = Fields::deserialize(serde_json::json!({"replicas": 3, "paused": null}))?;
/// assert_eq!(fields.take::<i32, serde_json::Error>("replicas")?, Some(3));
/// assert_eq!(fields.take::<bool, serde_json::Error>("paused")?, None);
/// assert_eq!(fields.take::<String, serde_json::Error>("missing")?, None);
/// # Ok::<(), serde_json::Error>(())
/// ```
#[derive(Debug, Default)]
pub struct Fields(Map<String, Value>);

impl Fields {
    /// The field `name` as a `T`: `None` when absent or `null` (an apply configuration
    /// cannot tell them apart), an error naming the field when it does not decode.
    pub fn take<T: DeserializeOwned, E: Error>(&mut self, name: &str) -> Result<Option<T>, E> {
        match self.0.remove(name) {
            None | Some(Value::Null) => Ok(None),
            Some(value) => T::deserialize(value)
                .map(Some)
                .map_err(|e| E::custom(format_args!("{name}: {e}"))),
        }
    }
}

impl Fields {
    /// The fields no [`take`](Self::take) has taken, each as a `T`: a configuration's map
    /// of fields its schema does not declare.
    pub fn rest<T: DeserializeOwned, E: Error>(self) -> Result<BTreeMap<String, T>, E> {
        self.0
            .into_iter()
            .map(|(name, value)| {
                T::deserialize(value)
                    .map(|v| (name.clone(), v))
                    .map_err(|e| E::custom(format_args!("{name}: {e}")))
            })
            .collect()
    }
}

impl<'de> Deserialize<'de> for Fields {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        Map::deserialize(deserializer).map(Fields)
    }
}
