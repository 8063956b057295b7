//! [`EtcdWriter`]: creates, updates and deletes typed objects under a key prefix, with
//! optimistic concurrency on each key's `mod_revision`.

use std::sync::Arc;

use etcd_client::{
    Compare, CompareOp, GetOptions, KeyValue, Txn, TxnOp, TxnOpResponse, TxnResponse,
};
use serde::Serialize;

use super::codec::{Codec, JsonCodec};
use super::connection::Etcd;
use super::layout::KeyLayout;
use super::lister_watcher::parse_resource_version;
use super::status::{api_error, from_etcd};
use informer_client::error::Error;
use informer_client::object::{Meta as _, Object};

/// What the API server says when an update's resourceVersion is stale.
const CONFLICT_MESSAGE: &str =
    "the object has been modified; please apply your changes to the latest version and try again";

/// Writes objects where an [`EtcdListerWatcher`](super::EtcdListerWatcher) with the same
/// layout reads them. Cheap to clone.
///
/// Objects are stored without `metadata.resourceVersion`: the version of a stored object is
/// its key's `mod_revision`, which every returned object carries as its resourceVersion.
/// Failures use the API server's codes: 409 AlreadyExists, 409 Conflict, 404 NotFound.
pub struct EtcdWriter<K, C = JsonCodec<K>> {
    etcd: Etcd,
    layout: KeyLayout,
    codec: Arc<C>,
    _k: std::marker::PhantomData<fn() -> K>,
}

impl<K, C> Clone for EtcdWriter<K, C> {
    fn clone(&self) -> Self {
        Self {
            etcd: self.etcd.clone(),
            layout: self.layout.clone(),
            codec: self.codec.clone(),
            _k: std::marker::PhantomData,
        }
    }
}

impl<K> EtcdWriter<K, JsonCodec<K>>
where
    K: Object + k8s_openapi::Resource + Serialize,
{
    /// A JSON writer for `K` under its default prefix (see [`KeyLayout::default_prefix`]).
    pub fn new(etcd: Etcd) -> Self {
        Self::with_prefix(
            etcd,
            &KeyLayout::default_prefix(K::GROUP, K::URL_PATH_SEGMENT),
        )
    }
}

impl<K: Object + Serialize> EtcdWriter<K, JsonCodec<K>> {
    /// A JSON writer under `prefix`.
    pub fn with_prefix(etcd: Etcd, prefix: &str) -> Self {
        Self::from_parts(etcd, KeyLayout::new(prefix), Arc::new(JsonCodec::new()))
    }
}

impl<K, C> EtcdWriter<K, C> {
    pub(crate) fn from_parts(etcd: Etcd, layout: KeyLayout, codec: Arc<C>) -> Self {
        Self {
            etcd,
            layout,
            codec,
            _k: std::marker::PhantomData,
        }
    }
}

impl<K: Object + Clone, C: Codec<K>> EtcdWriter<K, C> {
    /// The key layout this writer writes.
    pub fn layout(&self) -> &KeyLayout {
        &self.layout
    }

    /// Stores a new object; 409 AlreadyExists when its key is taken. Returns the object as
    /// stored, with its resourceVersion.
    pub async fn create(&self, object: &K) -> Result<K, Error> {
        let (key, context) = self.key_of(object, "create")?;
        let value = self.encode(object, &context)?;
        let txn = Txn::new()
            .when([Compare::create_revision(key.clone(), CompareOp::Equal, 0)])
            .and_then([TxnOp::put(key.clone(), value, None)]);
        let response = self.txn(txn, &context).await?;
        if !response.succeeded() {
            return Err(api_error(
                409,
                "AlreadyExists",
                format!("{key:?} already exists"),
                &context,
            ));
        }
        Ok(stamped(object, revision_of(&response, &context)?))
    }

    /// Replaces a stored object. With a `metadata.resourceVersion`, only if the key's
    /// `mod_revision` still equals it (else 409 Conflict); without one, unconditionally.
    /// 404 NotFound when the key does not exist.
    pub async fn update(&self, object: &K) -> Result<K, Error> {
        let (key, context) = self.key_of(object, "update")?;
        let precondition = self.precondition(object, &context)?;
        let value = self.encode(object, &context)?;
        let txn = Txn::new()
            .when(compares(&key, precondition))
            .and_then([TxnOp::put(key.clone(), value, None)])
            .or_else([TxnOp::get(key.clone(), None)]);
        let response = self.txn(txn, &context).await?;
        if !response.succeeded() {
            return Err(failed_precondition(&response, &key, &context));
        }
        Ok(stamped(object, revision_of(&response, &context)?))
    }

    /// Deletes an object, only if its key's `mod_revision` equals `resource_version` when one
    /// is given (else 409 Conflict); 404 NotFound when it does not exist. Returns the
    /// revision of the delete.
    pub async fn delete(
        &self,
        namespace: Option<&str>,
        name: &str,
        resource_version: Option<i64>,
    ) -> Result<i64, Error> {
        let key = self.layout.key(namespace, name)?;
        let context = self.context("delete", &key);
        let txn = Txn::new()
            .when(compares(&key, resource_version))
            .and_then([TxnOp::delete(key.clone(), None)])
            .or_else([TxnOp::get(key.clone(), None)]);
        let response = self.txn(txn, &context).await?;
        if !response.succeeded() {
            return Err(failed_precondition(&response, &key, &context));
        }
        revision_of(&response, &context)
    }

    /// The stored object, with its resourceVersion; `None` when the key does not exist.
    /// A value the codec cannot decode is an error naming the key.
    pub async fn get(&self, namespace: Option<&str>, name: &str) -> Result<Option<K>, Error> {
        let key = self.layout.key(namespace, name)?;
        let context = self.context("get", &key);
        let response = self
            .etcd
            .kv()
            .get(key.clone(), Some(GetOptions::new()))
            .await
            .map_err(|e| from_etcd(e, &context))?;
        response
            .kvs()
            .first()
            .map(|kv| self.decode(kv, &context))
            .transpose()
    }

    fn decode(&self, kv: &KeyValue, context: &str) -> Result<K, Error> {
        let mut object = self.codec.decode(kv.value()).map_err(|e| {
            Error::other(
                informer_client::error::ErrorKind::Backend,
                context,
                format!("cannot decode the stored value: {e}"),
            )
        })?;
        object
            .meta_mut()
            .set_resource_version(Some(kv.mod_revision().to_string()));
        Ok(object)
    }

    fn key_of(&self, object: &K, verb: &str) -> Result<(String, String), Error> {
        let meta = object.meta();
        let key = self
            .layout
            .key(meta.namespace(), meta.name().unwrap_or_default())?;
        let context = self.context(verb, &key);
        Ok((key, context))
    }

    fn context(&self, verb: &str, key: &str) -> String {
        format!("{verb} {key} in etcd at {}", self.etcd.description())
    }

    fn precondition(&self, object: &K, context: &str) -> Result<Option<i64>, Error> {
        match object.meta().resource_version() {
            None | Some("") => Ok(None),
            Some(rv) => parse_resource_version(rv, context).map(Some),
        }
    }

    /// The value to store: the object without its resourceVersion.
    fn encode(&self, object: &K, context: &str) -> Result<Vec<u8>, Error> {
        let mut object = object.clone();
        object.meta_mut().set_resource_version(None);
        self.codec.encode(&object).map_err(|e| {
            Error::other(
                informer_client::error::ErrorKind::Encode,
                context,
                format!("cannot encode the object: {e}"),
            )
        })
    }

    async fn txn(&self, txn: Txn, context: &str) -> Result<TxnResponse, Error> {
        self.etcd
            .kv()
            .txn(txn)
            .await
            .map_err(|e| from_etcd(e, context))
    }
}

/// The key exists and, if given, was last modified at `mod_revision`.
fn compares(key: &str, mod_revision: Option<i64>) -> Vec<Compare> {
    let mut compares = vec![Compare::version(key, CompareOp::Greater, 0)];
    if let Some(revision) = mod_revision {
        compares.push(Compare::mod_revision(key, CompareOp::Equal, revision));
    }
    compares
}

/// Why a conditional write did not happen: the `or_else` read tells missing from modified.
fn failed_precondition(response: &TxnResponse, key: &str, context: &str) -> Error {
    let exists = response.op_responses().iter().any(|op| match op {
        TxnOpResponse::Get(get) => !get.kvs().is_empty(),
        _ => false,
    });
    if exists {
        api_error(409, "Conflict", CONFLICT_MESSAGE.to_owned(), context)
    } else {
        api_error(404, "NotFound", format!("{key:?} not found"), context)
    }
}

fn revision_of(response: &TxnResponse, context: &str) -> Result<i64, Error> {
    response
        .header()
        .map(|h| h.revision())
        .filter(|r| *r > 0)
        .ok_or_else(|| {
            Error::other(
                informer_client::error::ErrorKind::Protocol,
                context,
                "etcd answered without a revision",
            )
        })
}

fn stamped<K: Object + Clone>(object: &K, revision: i64) -> K {
    let mut object = object.clone();
    object
        .meta_mut()
        .set_resource_version(Some(revision.to_string()));
    object
}
