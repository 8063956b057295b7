//! List bodies: the envelope around an `XxxList` message.

use k8s_openapi::apimachinery::pkg::apis::meta::v1::ListMeta;

use std::ops::Range;

use crate::codec::Msg;
use crate::envelope::{open, TypeMeta};
use crate::error::DecodeError;
use crate::field::{check_wire, value};
use crate::wire::{Decode, DecodeOptions, Reader, WireType};

/// A decoded list body.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct List<M> {
    /// The list's own type, as `PodList`.
    pub type_meta: TypeMeta,
    /// The list's `resourceVersion`, `continue` token and remaining count.
    pub metadata: ListMeta,
    /// The objects.
    pub items: Vec<M>,
}

/// Decodes a list body (`k8s\0` + `runtime.Unknown` around an `XxxList {1: ListMeta, 2:
/// repeated items}`).
pub fn decode_list<D: Decode>(
    body: &[u8],
    options: DecodeOptions,
) -> Result<List<D::Value>, DecodeError> {
    let parts = split_list(body, options)?;
    let items = parts.decode_items::<D>(0..parts.len())?;
    Ok(List {
        type_meta: parts.type_meta,
        metadata: parts.metadata,
        items,
    })
}

/// A list body opened, its metadata decoded and its items found but not decoded, so that
/// they can be decoded in parallel, each range on its own thread
/// ([`ListParts::decode_items`]); [`decode_list`] decodes them all in one go.
#[derive(Debug)]
pub struct ListParts<'a> {
    /// The list's own type, as `PodList`.
    pub type_meta: TypeMeta,
    /// The list's `resourceVersion`, `continue` token and remaining count.
    pub metadata: ListMeta,
    /// A reader over each item's message.
    items: Vec<Reader<'a>>,
}

/// Splits a list body into its metadata and its items' messages (see [`ListParts`]).
pub fn split_list(body: &[u8], options: DecodeOptions) -> Result<ListParts<'_>, DecodeError> {
    let mut envelope = open(body, 0, options)?;
    let mut metadata = ListMeta::default();
    let mut items = Vec::new();
    let r = &mut envelope.raw;
    let fields = (|| {
        while let Some((number, wire)) = r.next_field()? {
            match number {
                1 => value::<Msg<ListMeta>>(&mut metadata, wire, r, "metadata")?,
                2 => {
                    let item = check_wire(WireType::Len, wire, r)
                        .and_then(|()| r.nested())
                        .map_err(|e| e.at_index(items.len()).in_field("items"))?;
                    items.push(item);
                }
                _ => r.skip(wire)?,
            }
        }
        Ok(())
    })();
    match fields {
        Ok(()) => Ok(ListParts {
            type_meta: envelope.type_meta,
            metadata,
            items,
        }),
        Err(e) => Err(envelope.name(e)),
    }
}

impl ListParts<'_> {
    /// How many items the list holds.
    pub fn len(&self) -> usize {
        self.items.len()
    }

    /// Whether the list holds no items.
    pub fn is_empty(&self) -> bool {
        self.items.is_empty()
    }

    /// Decodes the items in `range` (clamped to the list), in order; an error names the
    /// item's index in the whole list.
    pub fn decode_items<D: Decode>(
        &self,
        range: Range<usize>,
    ) -> Result<Vec<D::Value>, DecodeError> {
        let end = range.end.min(self.items.len());
        let start = range.start.min(end);
        let mut out = Vec::with_capacity(end - start);
        for (index, item) in self.items[start..end].iter().enumerate() {
            let decoded = D::decode(&mut item.clone()).map_err(|e| {
                let e = e.at_index(start + index).in_field("items");
                if self.type_meta.kind.is_empty() {
                    e
                } else {
                    e.of(&self.type_meta.kind)
                }
            })?;
            out.push(decoded);
        }
        Ok(out)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testutil::{config_map, config_map_value, Cm, Enc};

    fn list_body(items: &[Vec<u8>]) -> Vec<u8> {
        let meta = Enc::new()
            .string(1, "")
            .string(2, "42")
            .string(3, "next")
            .int(4, 7)
            .finish();
        let mut raw = Enc::new().bytes(1, &meta);
        for item in items {
            raw = raw.bytes(2, item);
        }
        Enc::envelope("v1", "ConfigMapList", &raw.uint(99, 1).finish())
    }

    #[test]
    fn decodes_a_list() {
        let items = [
            config_map("a", "1", "k", "v"),
            config_map("b", "2", "x", "y"),
        ];
        let list = decode_list::<Cm>(&list_body(&items), DecodeOptions::default()).unwrap();
        assert_eq!(list.type_meta.kind, "ConfigMapList");
        assert_eq!(
            list.metadata,
            ListMeta {
                resource_version: Some("42".into()),
                continue_: Some("next".into()),
                remaining_item_count: Some(7),
                ..ListMeta::default()
            }
        );
        assert_eq!(
            list.items,
            [
                config_map_value("a", "1", "k", "v"),
                config_map_value("b", "2", "x", "y")
            ]
        );
        let empty = decode_list::<Cm>(&list_body(&[]), DecodeOptions::default()).unwrap();
        assert!(empty.items.is_empty());
    }

    #[test]
    fn errors_name_the_item() {
        let bad = Enc::new().bytes(1, &Enc::new().int(1, 5).finish()).finish();
        let items = [config_map("a", "1", "k", "v"), bad];
        let err = decode_list::<Cm>(&list_body(&items), DecodeOptions::default()).unwrap_err();
        assert!(
            err.to_string().starts_with(
                "decoding a ConfigMapList from protobuf: items[1].metadata.name: wrong wire type"
            ),
            "{err}"
        );
    }

    #[test]
    fn every_truncation_is_handled() {
        let body = list_body(&[config_map("a", "1", "k", "v")]);
        let whole = decode_list::<Cm>(&body, DecodeOptions::default()).unwrap();
        for len in 0..body.len() {
            if let Ok(list) = decode_list::<Cm>(&body[..len], DecodeOptions::default()) {
                assert!(len >= body.len() - 4, "prefix of {len} bytes decoded");
                assert_eq!(list, whole);
            }
        }
    }
}
