//! [`EtcdListerWatcher`]: lists and watches the objects under one etcd key prefix.

use std::sync::Arc;
use std::time::Duration;

use etcd_client::{GetOptions, KeyValue};
use futures_util::future::BoxFuture;
use futures_util::{FutureExt, StreamExt};
use k8s_openapi::apimachinery::pkg::apis::meta::v1::ListMeta;

use super::codec::{Codec, JsonCodec};
use super::connection::Etcd;
use super::continue_token::ContinueToken;
use super::filter::ClientFilter;
use super::layout::KeyLayout;
use super::stats::EtcdStats;
use super::status::{
    api_error, bad_request, expired, from_etcd, is_compacted, is_too_large,
    CONTINUE_EXPIRED_MESSAGE,
};
use super::writer::EtcdWriter;
use informer_client::error::Error;
use informer_client::list_options::{ListOptions, ResourceVersionMatch, TweakListOptions};
use informer_client::object::{Meta as _, Object};
use informer_client::shard::ShardSelector;
use informer_client::ShardInfo;
use informer_runtime::lister_watcher::{ListWatch, ListerWatcher, ObjectList, WatchStream};
use informer_runtime::source::InformerSource;
use informer_runtime::{ApiResource, Client};

/// Page size of the reads a watch makes when it starts with the current state.
const INITIAL_EVENTS_PAGE: i64 = 500;
/// Most keys one etcd range read returns; larger pages take several reads at one revision.
/// A read whose answer exceeds [`Etcd::max_response_bytes`] is retried with half as many.
const READ_CHUNK: i64 = 500;

/// A [`ListerWatcher`] over the objects stored under one etcd key prefix
/// (see [`KeyLayout`] for the key scheme), so informers run without an API server.
///
/// - **list**: a range read of the prefix at one etcd revision. `resourceVersion` unset,
///   `""` or `"0"` reads the current state. An explicit one follows kube-apiserver: with
///   `resourceVersionMatch=Exact`, or with no match but a `limit`, it reads at exactly that
///   revision (410 once compacted); with `NotOlderThan`, or with neither match nor limit,
///   it reads the current state (504 "Too large resource version" if that is older).
///   `limit` pages the read; the `continue` token pins every later page to the first page's
///   revision. The list's `resourceVersion` is that revision, each object's is its
///   `mod_revision`.
/// - **watch**: an etcd watch from `resourceVersion + 1` with previous values: a create is
///   ADDED, an update MODIFIED, a delete DELETED carrying the last stored value (its
///   `resourceVersion` is the delete's revision). Progress notifications become BOOKMARKs
///   when `allowWatchBookmarks` is set. `resourceVersion` unset, `""` or `"0"`, or
///   `sendInitialEvents=true`, first sends the current state as ADDED events (the latter
///   ends them with a bookmark annotated `k8s.io/initial-events-end`).
/// - **compaction**: a list, continue or watch at a compacted revision fails exactly as
///   kube-apiserver does (410 `Expired`, or an ERROR event with that status), so the
///   reflector relists.
/// - **selectors**: label selectors and `metadata.name` / `metadata.namespace` field
///   selectors are applied here, on the client, after decoding; etcd only sees the prefix.
/// - **bad values**: a value the codec cannot decode is logged (`tracing::warn!`), counted
///   in [`EtcdStats::undecodable_values`] and skipped.
pub struct EtcdListerWatcher<K, C = JsonCodec<K>> {
    etcd: Etcd,
    layout: KeyLayout,
    codec: Arc<C>,
    stats: Arc<EtcdStats>,
    progress_interval: Option<Duration>,
    _k: std::marker::PhantomData<fn() -> K>,
}

impl<K, C> Clone for EtcdListerWatcher<K, C> {
    fn clone(&self) -> Self {
        Self {
            etcd: self.etcd.clone(),
            layout: self.layout.clone(),
            codec: self.codec.clone(),
            stats: self.stats.clone(),
            progress_interval: self.progress_interval,
            _k: std::marker::PhantomData,
        }
    }
}

impl<K> EtcdListerWatcher<K, JsonCodec<K>>
where
    K: Object + k8s_openapi::Resource,
    JsonCodec<K>: Codec<K>,
{
    /// A lister-watcher for `K` under its default prefix
    /// ([`KeyLayout::default_prefix`] of `K`'s group and plural), storing JSON.
    pub fn new(etcd: Etcd) -> Self {
        Self::with_prefix(
            etcd,
            &KeyLayout::default_prefix(K::GROUP, K::URL_PATH_SEGMENT),
        )
    }
}

impl<K> EtcdListerWatcher<K, JsonCodec<K>>
where
    K: Object,
    JsonCodec<K>: Codec<K>,
{
    /// A lister-watcher for the JSON objects under `prefix`.
    pub fn with_prefix(etcd: Etcd, prefix: &str) -> Self {
        Self {
            etcd,
            layout: KeyLayout::new(prefix),
            codec: Arc::new(JsonCodec::new()),
            stats: Arc::default(),
            progress_interval: Some(Duration::from_secs(60)),
            _k: std::marker::PhantomData,
        }
    }
}

impl<K: Object, C: Codec<K>> EtcdListerWatcher<K, C> {
    /// The same source with another codec.
    pub fn with_codec<C2: Codec<K>>(self, codec: C2) -> EtcdListerWatcher<K, C2> {
        EtcdListerWatcher {
            etcd: self.etcd,
            layout: self.layout,
            codec: Arc::new(codec),
            stats: self.stats,
            progress_interval: self.progress_interval,
            _k: std::marker::PhantomData,
        }
    }

    /// Narrows lists and watches to one namespace (`None` or `""`: every namespace).
    pub fn namespace(mut self, namespace: Option<&str>) -> Self {
        self.layout = self.layout.with_namespace(namespace);
        self
    }

    /// How often a watch asks etcd for a progress notification, which becomes a BOOKMARK
    /// (default 60 s; `None`: only etcd's own, by default every 10 minutes).
    pub fn progress_interval(mut self, interval: Option<Duration>) -> Self {
        self.progress_interval = interval.filter(|d| !d.is_zero());
        self
    }

    /// The key layout this source reads.
    pub fn layout(&self) -> &KeyLayout {
        &self.layout
    }

    /// The counters of this source and every list and watch it started.
    pub fn stats(&self) -> Arc<EtcdStats> {
        self.stats.clone()
    }

    /// This source as a [`ListWatch`] (the hook generated informers take), applying `tweak`
    /// to the options of every list and watch first.
    pub fn into_list_watch(self, tweak: Option<TweakListOptions>) -> ListWatch<K> {
        let watcher = self.clone();
        let list_tweak = tweak.clone();
        ListWatch::new(
            move |mut options| {
                if let Some(t) = &list_tweak {
                    t(&mut options);
                }
                self.list(options)
            },
            move |mut options| {
                if let Some(t) = &tweak {
                    t(&mut options);
                }
                watcher.watch(options)
            },
        )
    }

    pub(crate) fn etcd(&self) -> &Etcd {
        &self.etcd
    }

    /// Counts a value that could not be decoded (or was missing).
    pub(crate) fn count_undecodable(&self) {
        self.stats.count_undecodable();
    }

    pub(crate) fn progress_every(&self) -> Option<Duration> {
        self.progress_interval
    }

    /// What a `verb` on this source is, for error contexts.
    pub(crate) fn context(&self, verb: &str) -> String {
        let (start, _) = self.layout.range();
        format!(
            "{verb} {} in etcd at {}",
            String::from_utf8_lossy(&start),
            self.etcd.description()
        )
    }

    /// Decodes a stored value and stamps `resource_version`; an undecodable value is logged,
    /// counted and dropped.
    pub(crate) fn decode(&self, kv: &KeyValue, resource_version: i64) -> Option<K> {
        match self.decode_value(kv, resource_version) {
            Ok(object) => Some(object),
            Err(error) => {
                self.stats.count_undecodable();
                tracing::warn!(
                    key = %String::from_utf8_lossy(kv.key()),
                    mod_revision = kv.mod_revision(),
                    endpoints = self.etcd.endpoints(),
                    %error,
                    "skipping an etcd value that does not decode"
                );
                None
            }
        }
    }

    /// Decodes a stored value and stamps `resource_version`, reporting nothing.
    pub(crate) fn decode_value(
        &self,
        kv: &KeyValue,
        resource_version: i64,
    ) -> Result<K, super::codec::CodecError> {
        let mut object = self.codec.decode(kv.value())?;
        object
            .meta_mut()
            .set_resource_version(Some(resource_version.to_string()));
        Ok(object)
    }

    /// One page of a list.
    pub(crate) async fn list_page(&self, options: ListOptions) -> Result<ObjectList<K>, Error> {
        let context = self.context("list");
        let filter = ClientFilter::from_options(&options, &context)?;
        let (range_start, range_end) = self.layout.range();
        let resource_version = options
            .resource_version
            .as_deref()
            .filter(|rv| !rv.is_empty());
        let token = options.continue_token.as_deref().filter(|t| !t.is_empty());

        // `revision` 0 reads the current state; `at_least` is the NotOlderThan floor.
        let (mut revision, mut key, at_least) = match token {
            Some(token) => {
                if resource_version.is_some_and(|rv| rv != "0") {
                    return Err(bad_request(
                        "specifying resource version is not allowed when using continue".into(),
                        &context,
                    ));
                }
                let token = ContinueToken::decode(token).map_err(|m| bad_request(m, &context))?;
                let mut key = range_start.clone();
                key.extend_from_slice(&token.start);
                (token.revision, key, 0)
            }
            None => match resource_version {
                None | Some("0") => (0, range_start.clone(), 0),
                Some(rv) => {
                    let rv = parse_resource_version(rv, &context)?;
                    let exact = match options.resource_version_match {
                        Some(ResourceVersionMatch::Exact) => true,
                        Some(ResourceVersionMatch::NotOlderThan) => false,
                        None => options.limit.is_some_and(|l| l > 0),
                        Some(other) => {
                            return Err(bad_request(
                                format!("resourceVersionMatch: {other:?} is not supported by the etcd backend"),
                                &context,
                            ))
                        }
                    };
                    if exact {
                        (rv, range_start.clone(), 0)
                    } else {
                        (0, range_start.clone(), rv)
                    }
                }
            },
        };
        let continuing = token.is_some();
        let limit = options.limit.filter(|l| *l > 0);
        let mut kv = self.etcd.kv();
        let mut items = Vec::new();
        let mut keys_per_read = READ_CHUNK;
        loop {
            // Never more than `limit` items, even when the filter drops some.
            let chunk = limit.map_or(keys_per_read, |l| {
                (l - items.len() as i64).min(keys_per_read)
            });
            let get = GetOptions::new()
                .with_range(range_end.clone())
                .with_revision(revision)
                .with_limit(chunk);
            let response = match kv.get(key.clone(), Some(get)).await {
                Ok(response) => response,
                // Large values: the same read with fewer keys, at the same revision.
                Err(e) if chunk > 1 && is_too_large(&e) => {
                    keys_per_read = chunk / 2;
                    tracing::debug!(%context, keys_per_read, "etcd's answer was over the response limit; reading fewer keys at a time");
                    continue;
                }
                Err(e) if continuing && is_compacted(&e) => {
                    return Err(expired(CONTINUE_EXPIRED_MESSAGE, &context));
                }
                Err(e) => return Err(from_etcd(e, &context)),
            };
            if revision == 0 {
                revision = response
                    .header()
                    .map(|h| h.revision())
                    .filter(|r| *r > 0)
                    .ok_or_else(|| {
                        Error::other(
                            informer_client::error::ErrorKind::Protocol,
                            context.as_str(),
                            "etcd answered without a revision",
                        )
                    })?;
                if revision < at_least {
                    return Err(api_error(
                        504,
                        "Timeout",
                        format!("Too large resource version: {at_least}, current: {revision}"),
                        &context,
                    ));
                }
            }
            for kv in response.kvs() {
                if let Some(object) = self.decode(kv, kv.mod_revision()) {
                    if filter.matches(&object) {
                        items.push(object);
                    }
                }
            }
            let last = match response.kvs().last() {
                Some(last) if response.more() => last.key().to_vec(),
                _ => return Ok(list(revision, None, None, items, filter.shard())),
            };
            if limit.is_some_and(|l| items.len() as i64 >= l) {
                let relative = last.strip_prefix(range_start.as_slice()).unwrap_or(&last);
                let token = ContinueToken::after(revision, relative).encode();
                // Like the API server: no remaining count when a selector filtered the page.
                let remaining = filter
                    .is_everything()
                    .then(|| response.count() - response.kvs().len() as i64);
                return Ok(list(
                    revision,
                    Some(token),
                    remaining,
                    items,
                    filter.shard(),
                ));
            }
            key = last;
            key.push(0);
        }
    }

    /// Every object matching `options`' selectors, read page by page at one revision,
    /// and that revision.
    pub(crate) async fn read_all(&self, options: &ListOptions) -> Result<(Vec<K>, i64), Error> {
        let mut options = ListOptions {
            label_selector: options.label_selector.clone(),
            field_selector: options.field_selector.clone(),
            limit: Some(INITIAL_EVENTS_PAGE),
            ..Default::default()
        };
        let mut all = Vec::new();
        loop {
            let page = self.list_page(options.clone()).await?;
            all.extend(page.items);
            match page.metadata.continue_ {
                Some(token) => options.continue_token = Some(token),
                None => {
                    let revision = page
                        .metadata
                        .resource_version
                        .as_deref()
                        .and_then(|rv| rv.parse().ok())
                        .unwrap_or_default();
                    return Ok((all, revision));
                }
            }
        }
    }
}

impl<K: Object + Clone, C: Codec<K>> EtcdListerWatcher<K, C> {
    /// A writer for the same prefix, namespace and codec.
    pub fn writer(&self) -> EtcdWriter<K, C> {
        EtcdWriter::from_parts(self.etcd.clone(), self.layout.clone(), self.codec.clone())
    }
}

/// An etcd source is an informer source too, so a factory registers its informer of `K`
/// over etcd (`factory.informer_for(source)`) and every generated accessor of `K` then
/// uses that one: one informer per type, named after the resource (`core/v1/configmaps`),
/// in the factory's namespace. The factory's client is not used.
impl<K, C> InformerSource<K> for EtcdListerWatcher<K, C>
where
    K: Object + k8s_openapi::Resource,
    K::Scope: 'static,
    C: Codec<K>,
{
    fn informer_name(&self) -> String {
        ApiResource::of::<K>().informer_name()
    }

    fn list_watch(&self, _client: Client, namespace: Option<&str>) -> ListWatch<K> {
        self.clone().namespace(namespace).into_list_watch(None)
    }
}

impl<K: Object, C: Codec<K>> ListerWatcher<K> for EtcdListerWatcher<K, C> {
    fn list(&self, options: ListOptions) -> BoxFuture<'static, Result<ObjectList<Arc<K>>, Error>> {
        let this = self.clone();
        async move { Ok(this.list_page(options).await?.map(Arc::new)) }.boxed()
    }

    fn watch(
        &self,
        options: ListOptions,
    ) -> BoxFuture<'static, Result<WatchStream<Arc<K>>, Error>> {
        let this = self.clone();
        async move {
            let events = super::watch::start(this, options).await?;
            Ok(events.map(|e| e.map(|e| e.map(Arc::new))).boxed())
        }
        .boxed()
    }
}

/// A resourceVersion as an etcd revision; 400 BadRequest when it is not one.
pub(crate) fn parse_resource_version(rv: &str, context: &str) -> Result<i64, Error> {
    rv.parse::<i64>()
        .ok()
        .filter(|r| *r >= 0)
        .ok_or_else(|| bad_request(format!("invalid resource version {rv:?}"), context))
}

/// A list page; a shard selector applied is echoed as kube-apiserver echoes it.
fn list<K>(
    revision: i64,
    continue_: Option<String>,
    remaining_item_count: Option<i64>,
    items: Vec<K>,
    shard: Option<&ShardSelector>,
) -> ObjectList<K> {
    ObjectList {
        metadata: ListMeta {
            resource_version: Some(revision.to_string()),
            continue_,
            remaining_item_count,
            ..Default::default()
        },
        items,
        shard_info: shard.map(|s| ShardInfo {
            selector: s.to_string(),
        }),
    }
}
