//! kube-apiserver's protobuf for typed informers and `Api`s: informer-protobuf's generated
//! decoders, handed to the client as the [`ProtobufDecoders`] it negotiates with.
//!
//! Generated informers of built-in resources use them ([`typed_protobuf`](crate::source::typed_protobuf))
//! for every type informer-protobuf decodes in the Kubernetes version the binary enables; a
//! client built with [`Config::disable_protobuf`](crate::client::Config::disable_protobuf)
//! asks for JSON only.
//!
//! ```no_run
//! use informer_runtime::protobuf::decoders;
//! use informer_runtime::{Api, Client};
//! use k8s_openapi::api::core::v1::ConfigMap;
//!
//! # async fn run() -> Result<(), Box<dyn std::error::Error>> {
//! let client = Client::try_default().await?;
//! let config_maps = Api::<ConfigMap>::namespaced(client, "shop").with_protobuf(decoders());
//! let settings = config_maps.get("settings").await?;
//! # Ok(())
//! # }
//! ```

use std::marker::PhantomData;

use informer_client::error::BoxError;
pub use informer_client::protobuf::{DecodeFn, ProtobufDecoders, ACCEPT, MEDIA_TYPE};
use informer_client::watch_event::{Bookmark, WatchEvent};
use informer_protobuf::view::{Described, View};
use informer_protobuf::{Decode, DecodeOptions, Message, Reader, Shared};
use k8s_openapi::apimachinery::pkg::apis::meta::v1::{ListMeta, ObjectMeta};

use crate::source::Cached;

/// The protobuf decoders of `K` for [`Api::with_protobuf`](crate::Api::with_protobuf).
pub fn decoders<K>() -> ProtobufDecoders<K>
where
    K: Message + k8s_openapi::Metadata<Ty = ObjectMeta> + Send,
{
    ProtobufDecoders {
        object: object::<K>,
        list: list::<K>,
        item: item::<K>,
        event: event::<K>,
    }
}

/// The protobuf decoders of `K` for typed informers: each object decoded in place in the
/// `Arc` their cache keeps ([`Shared`]), so that it reaches the cache without being moved on
/// the way.
pub(crate) fn cached_decoders<K>() -> ProtobufDecoders<Cached<K>>
where
    K: Message + k8s_openapi::Metadata<Ty = ObjectMeta> + Send + Sync,
{
    ProtobufDecoders {
        object: object::<InCache<K>>,
        list: list::<InCache<K>>,
        item: item::<InCache<K>>,
        event: cached_event::<K>,
    }
}

/// The protobuf decoders of `V`, a view of the resource `Of` (a
/// [projection](mod@crate::projection)), decoded through `Of`'s descriptor: only the fields `V`
/// names are decoded, each view handed out in the `Arc` a projected informer caches it in.
pub(crate) fn cached_view_decoders<V, Of>() -> ProtobufDecoders<Cached<V>>
where
    V: serde::de::DeserializeOwned + Send + Sync,
    Of: Described,
{
    ProtobufDecoders {
        object: object::<InCache<View<V, Of>>>,
        list: list::<InCache<View<V, Of>>>,
        item: item::<InCache<View<V, Of>>>,
        event: cached_view_event::<V, Of>,
    }
}

/// Decodes what `D` decodes as a [`Cached`] object: in place in its `Arc`.
struct InCache<D>(PhantomData<fn() -> D>);

impl<D: Decode> Decode for InCache<D> {
    type Value = Cached<D::Value>;
    fn decode(r: &mut Reader<'_>) -> Result<Cached<D::Value>, informer_protobuf::DecodeError> {
        Shared::<D>::decode(r).map(Cached)
    }
}

fn options(keep_managed_fields: bool) -> DecodeOptions {
    DecodeOptions::default().keep_managed_fields(keep_managed_fields)
}

fn object<D: Decode>(body: &[u8], keep_managed_fields: bool) -> Result<D::Value, BoxError> {
    let (_, object) = informer_protobuf::decode_object::<D>(body, options(keep_managed_fields))?;
    Ok(object)
}

/// One list item's message, as the list decoder would decode it.
fn item<D: Decode>(bytes: &[u8], keep_managed_fields: bool) -> Result<D::Value, BoxError> {
    Ok(D::decode(&mut Reader::new(
        bytes,
        options(keep_managed_fields),
    ))?)
}

/// Items a list must hold before its decoding is split over threads, and the fewest each
/// thread takes: below this, starting a thread costs more than it saves.
const ITEMS_PER_THREAD: usize = 256;

/// A list body, its items decoded on as many threads as there are cores (the client calls
/// this off its async threads), in order.
fn list<D: Decode>(
    body: &[u8],
    keep_managed_fields: bool,
) -> Result<(ListMeta, Vec<D::Value>), BoxError>
where
    D::Value: Send,
{
    let parts = informer_protobuf::split_list(body, options(keep_managed_fields))?;
    let cores = std::thread::available_parallelism().map_or(1, usize::from);
    let threads = (parts.len() / ITEMS_PER_THREAD).clamp(1, cores);
    if threads == 1 {
        let items = parts.decode_items::<D>(0..parts.len())?;
        return Ok((parts.metadata, items));
    }
    let per_thread = parts.len().div_ceil(threads);
    let chunks = std::thread::scope(|scope| {
        let handles: Vec<_> = (0..threads)
            .map(|t| {
                let parts = &parts;
                scope.spawn(move || parts.decode_items::<D>(t * per_thread..(t + 1) * per_thread))
            })
            .collect();
        handles
            .into_iter()
            .map(|h| h.join().map_err(|_| "a protobuf decoding thread panicked"))
            .collect::<Result<Vec<_>, _>>()
    })?;
    let mut items = Vec::with_capacity(parts.len());
    for chunk in chunks {
        items.extend(chunk?);
    }
    Ok((parts.metadata, items))
}

fn event<K>(frame: &[u8], keep_managed_fields: bool) -> Result<WatchEvent<K>, BoxError>
where
    K: Message + k8s_openapi::Metadata<Ty = ObjectMeta>,
{
    from_wire(
        informer_protobuf::decode_watch_event::<K>(frame, options(keep_managed_fields))?,
        |o| bookmark(o.metadata()),
    )
}

fn cached_event<K>(
    frame: &[u8],
    keep_managed_fields: bool,
) -> Result<WatchEvent<Cached<K>>, BoxError>
where
    K: Message + k8s_openapi::Metadata<Ty = ObjectMeta>,
{
    from_wire(
        informer_protobuf::decode_watch_event::<InCache<K>>(frame, options(keep_managed_fields))?,
        |o| bookmark(o.0.metadata()),
    )
}

/// A view's watch event; a bookmark's metadata is decoded again whole, as a view need not
/// keep the annotation that ends a streaming list's initial events.
fn cached_view_event<V, Of: Described>(
    frame: &[u8],
    keep_managed_fields: bool,
) -> Result<WatchEvent<Cached<V>>, BoxError>
where
    V: serde::de::DeserializeOwned,
{
    #[derive(serde::Deserialize)]
    struct Marked {
        #[serde(default)]
        metadata: ObjectMeta,
    }
    let options = options(keep_managed_fields);
    from_wire(
        informer_protobuf::decode_watch_event::<InCache<View<V, Of>>>(frame, options)?,
        |_| match informer_protobuf::decode_watch_event::<View<Marked, Of>>(frame, options)? {
            informer_protobuf::WatchEvent::Bookmark(marked) => bookmark(&marked.metadata),
            _ => Err("a BOOKMARK decoded as another event type".into()),
        },
    )
}

fn from_wire<K>(
    event: informer_protobuf::WatchEvent<K>,
    bookmark: impl FnOnce(K) -> Result<Bookmark, BoxError>,
) -> Result<WatchEvent<K>, BoxError> {
    use informer_protobuf::WatchEvent as Wire;
    Ok(match event {
        Wire::Added(o) => WatchEvent::Added(o),
        Wire::Modified(o) => WatchEvent::Modified(o),
        Wire::Deleted(o) => WatchEvent::Deleted(o),
        Wire::Error(status) => WatchEvent::Error(status),
        Wire::Bookmark(o) => WatchEvent::Bookmark(bookmark(o)?),
    })
}

fn bookmark(metadata: &ObjectMeta) -> Result<Bookmark, BoxError> {
    Bookmark::from_metadata(
        metadata.resource_version.clone(),
        metadata.annotations.as_ref(),
    )
    .ok_or_else(|| "BOOKMARK without metadata.resourceVersion".into())
}
