//! `application/vnd.kubernetes.protobuf` answers, as kube-apiserver gives them for built-in
//! resources: content negotiation on `Accept`, and an encoder from the JSON the server stores
//! to the bytes Go's gogo-protobuf writes.
//!
//! The encoder is driven by informer-gen's protobuf table (the one the client's decoders are
//! generated from), with the fields of the Kubernetes version the server emulates. It writes
//! what Go writes: fields in number order; a non-pointer field the JSON lacks as its zero value
//! (Go always writes those), a pointer, slice or map field not at all; Go-embedded structs
//! (`Volume`'s `VolumeSource`) as nested messages; map entries sorted by key; repeated scalars
//! unpacked (proto2). An object with a key the table does not know for its message, or of a
//! message the table cannot encode in this version, is not encoded at all: the caller answers
//! JSON instead, rather than drop the field.

use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::sync::OnceLock;

use base64::Engine as _;
use bytes::{BufMut, Bytes, BytesMut};
use informer_gen::read::protobuf_table::{Codec, FieldDef, ProtobufTable, Store};
use serde_json::{json, Map, Value};

use crate::resource::ResourceSpec;
use crate::status::StatusError;
use crate::store::Obj;

/// The Kubernetes minor version whose fields are written (k8s-openapi's `latest`, the version
/// the server emulates).
const MINOR: u32 = 37;

/// The media type of protobuf objects and lists.
pub(crate) const MEDIA_TYPE: &str = "application/vnd.kubernetes.protobuf";
/// The `Content-Type` of a protobuf watch.
pub(crate) const WATCH_MEDIA_TYPE: &str = "application/vnd.kubernetes.protobuf;stream=watch";
/// What kube-apiserver's negotiated serializers list, built-in and custom resources alike:
/// the custom resources' serializer names protobuf too (it serves `PartialObjectMetadata` and
/// `Status` with it), only their objects are refused.
pub(crate) const SERVED_MEDIA_TYPES: [&str; 3] =
    ["application/json", "application/yaml", MEDIA_TYPE];

/// The first bytes of every protobuf body: `k8s` and the envelope type 0 (`runtime.Unknown`).
const MAGIC: &[u8] = b"k8s\0";
const STATUS: &str = "apimachinery.pkg.apis.meta.v1.Status";
const LIST_META: &str = "apimachinery.pkg.apis.meta.v1.ListMeta";
/// Go's zero `time.Time` (January 1, year 1) in Unix seconds: `Time.Marshal` writes nothing
/// for it.
const GO_ZERO_TIME: i64 = -62_135_596_800;

/// The `Content-Type` of a YAML answer.
pub(crate) const YAML_MEDIA_TYPE: &str = "application/yaml";

/// What an answer is written as.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Media {
    /// JSON (also what `*/*`, `application/*` and no `Accept` get).
    Json,
    /// `application/yaml` (gets, lists and write answers; a watch refuses it).
    Yaml,
    /// `application/vnd.kubernetes.protobuf`.
    Protobuf,
    /// Nothing the resource serves was asked for: 406.
    NotAcceptable,
}

/// Negotiates `accept` as kube-apiserver's `NegotiateMediaTypeOptions` does: media ranges by
/// falling `q`, then specific before wildcard, first range the resource serves wins.
/// `protobuf_served` is false for custom resources, whose objects are never protobuf. A range
/// with `as=` (`PartialObjectMetadata`, `Table`) is left to the JSON path. No `Accept` is
/// JSON; one naming nothing served is not acceptable.
pub(crate) fn negotiate(accept: &str, protobuf_served: bool) -> Media {
    let mut ranges: Vec<(f64, bool, bool, &str, bool)> = Vec::new();
    for range in accept.split(',') {
        let mut parts = range.split(';').map(str::trim);
        let media = parts.next().unwrap_or_default();
        if media.is_empty() {
            continue;
        }
        let (mut q, mut conversion) = (1.0, false);
        for param in parts {
            match param.split_once('=').map(|(k, v)| (k.trim(), v.trim())) {
                Some(("q", v)) => q = v.parse().unwrap_or(0.0),
                Some(("as", _)) => conversion = true,
                _ => {}
            }
        }
        let (kind, sub) = media.split_once('/').unwrap_or((media, ""));
        ranges.push((q, kind == "*", sub == "*", media, conversion));
    }
    // Stable, as goautoneg's insertion sort is for the few ranges a client sends.
    ranges.sort_by(|a, b| b.0.total_cmp(&a.0).then(a.1.cmp(&b.1)).then(a.2.cmp(&b.2)));
    if ranges.is_empty() {
        return Media::Json;
    }
    for (q, _, _, media, conversion) in ranges {
        if q <= 0.0 {
            continue;
        }
        if conversion {
            return Media::Json;
        }
        match media {
            "application/json" | "*/*" | "application/*" => return Media::Json,
            YAML_MEDIA_TYPE => return Media::Yaml,
            MEDIA_TYPE if protobuf_served => return Media::Protobuf,
            _ => {}
        }
    }
    Media::NotAcceptable
}

/// Whether kube-apiserver would serve `spec`'s objects in protobuf: a resource of a built-in
/// API group that no CRD defines.
pub(crate) fn is_builtin(spec: &ResourceSpec) -> bool {
    spec.schema.is_none() && proto_package(&spec.group).is_some()
}

/// The proto package of a built-in API group's messages (without the version).
fn proto_package(group: &str) -> Option<&'static str> {
    Some(match group {
        "" => "api.core",
        "admissionregistration.k8s.io" => "api.admissionregistration",
        "apiextensions.k8s.io" => "apiextensions_apiserver.pkg.apis.apiextensions",
        "apiregistration.k8s.io" => "kube_aggregator.pkg.apis.apiregistration",
        "apps" => "api.apps",
        "authentication.k8s.io" => "api.authentication",
        "authorization.k8s.io" => "api.authorization",
        "autoscaling" => "api.autoscaling",
        "batch" => "api.batch",
        "certificates.k8s.io" => "api.certificates",
        "coordination.k8s.io" => "api.coordination",
        "discovery.k8s.io" => "api.discovery",
        "events.k8s.io" => "api.events",
        "flowcontrol.apiserver.k8s.io" => "api.flowcontrol",
        "internal.apiserver.k8s.io" => "api.apiserverinternal",
        "networking.k8s.io" => "api.networking",
        "node.k8s.io" => "api.node",
        "policy" => "api.policy",
        "rbac.authorization.k8s.io" => "api.rbac",
        "resource.k8s.io" => "api.resource",
        "scheduling.k8s.io" => "api.scheduling",
        "storage.k8s.io" => "api.storage",
        "storagemigration.k8s.io" => "api.storagemigration",
        _ => return None,
    })
}

/// Why an object cannot be written faithfully as protobuf.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{}: {problem}", if path.is_empty() { "object".to_owned() } else { path.iter().rev().cloned().collect::<Vec<_>>().join(".") })]
pub(crate) struct EncodeError {
    /// The JSON path, innermost first (built while the error travels up).
    path: Vec<String>,
    problem: String,
}

impl EncodeError {
    fn new(problem: impl Into<String>) -> Self {
        Self {
            path: Vec::new(),
            problem: problem.into(),
        }
    }

    fn at(mut self, segment: impl Into<String>) -> Self {
        self.path.push(segment.into());
        self
    }
}

/// One field of a message as written, or a Go-embedded struct holding some.
#[derive(Debug)]
enum Node {
    Field(FieldDef),
    /// Always written, even empty: Go embeds these structs by value.
    Embedded {
        number: u32,
        children: Vec<Node>,
    },
}

impl Node {
    fn number(&self) -> u32 {
        match self {
            Node::Field(f) => f.numbers.last().copied().unwrap_or_default(),
            Node::Embedded { number, .. } => *number,
        }
    }
}

/// A message's fields in this version, ready to write.
#[derive(Debug)]
struct MessageFields {
    nodes: Vec<Node>,
    /// Normalised JSON key → the field's number path.
    keys: HashMap<String, Vec<u32>>,
    /// Number paths of `optional` scalars Go declares without a pointer nor `omitempty`: Go
    /// writes their zero like a required field's.
    always: BTreeSet<Vec<u32>>,
}

/// The table-driven encoder.
#[derive(Debug)]
pub(crate) struct Encoder {
    /// Only the messages that encode faithfully in [`MINOR`].
    messages: HashMap<String, MessageFields>,
}

/// The encoder of the checked-in table, built once; `None` (and every answer JSON) if the
/// table does not read, which its own tests rule out.
pub(crate) fn encoder() -> Option<&'static Encoder> {
    static ENCODER: OnceLock<Option<Encoder>> = OnceLock::new();
    ENCODER
        .get_or_init(|| match Encoder::builtin() {
            Ok(encoder) => Some(encoder),
            Err(e) => {
                tracing::error!("protobuf answers are off: cannot read the protobuf table: {e}");
                None
            }
        })
        .as_ref()
}

/// `generateName`, `generate_name`, `type_`, `x-kubernetes-map-type`, `$ref` → one key: JSON
/// names, their snake-case k8s-openapi fields and proto names meet.
fn normalise(name: &str) -> String {
    name.chars()
        .filter(|c| !matches!(c, '_' | '-' | '$'))
        .flat_map(char::to_lowercase)
        .collect()
}

impl Encoder {
    fn builtin() -> Result<Self, String> {
        let table = ProtobufTable::builtin().map_err(|e| e.to_string())?;
        let presence =
            informer_gen::read::protobuf_table::builtin_presence().map_err(|e| e.to_string())?;
        let encodable = table.faithful(MINOR);
        let mut messages = HashMap::new();
        for name in &encodable {
            let Some(def) = table.messages.get(name) else {
                continue;
            };
            let mut fields = MessageFields {
                nodes: Vec::new(),
                keys: HashMap::new(),
                always: BTreeSet::new(),
            };
            for field in def.fields.iter().filter(|f| f.versions.contains(&MINOR)) {
                for key in [Some(&field.rust_field), field.proto_names.last()]
                    .into_iter()
                    .flatten()
                {
                    fields
                        .keys
                        .entry(normalise(key))
                        .or_insert_with(|| field.numbers.clone());
                }
                // The JSON name as written, so that most keys are found without normalising.
                if let Some(proto) = field.proto_names.last() {
                    fields
                        .keys
                        .entry(proto.clone())
                        .or_insert_with(|| field.numbers.clone());
                }
                let go_always = field.numbers.len() == 1
                    && field.store == Store::Optional
                    && field.proto_names.last().is_some_and(|proto| {
                        presence
                            .get(&(name.clone(), proto.clone()))
                            .map(String::as_str)
                            == Some("always")
                    });
                if go_always {
                    fields.always.insert(field.numbers.clone());
                }
                insert(&mut fields.nodes, &field.numbers, field.clone());
            }
            sort_nodes(&mut fields.nodes);
            messages.insert(name.clone(), fields);
        }
        Ok(Self { messages })
    }

    /// The message of `spec`'s objects, when the server can write them in protobuf.
    fn message_of(&self, spec: &ResourceSpec) -> Option<String> {
        let name = format!(
            "{}.{}.{}",
            proto_package(&spec.group)?,
            spec.version,
            spec.kind
        );
        self.messages.contains_key(&name).then_some(name)
    }

    /// Whether `spec`'s objects can be written in protobuf (each object may still carry a
    /// field the table lacks).
    pub(crate) fn serves(&self, spec: &ResourceSpec) -> bool {
        is_builtin(spec) && self.message_of(spec).is_some()
    }

    /// An object (`kind`/`apiVersion` optional, taken from `spec`) as its message, without
    /// the envelope: a list's item.
    pub(crate) fn object_raw(
        &self,
        spec: &ResourceSpec,
        object: &Value,
    ) -> Result<Vec<u8>, EncodeError> {
        let message = self
            .message_of(spec)
            .filter(|_| is_builtin(spec))
            .ok_or_else(|| {
                EncodeError::new(format!(
                    "{} {} has no protobuf message this server can write",
                    spec.api_version(),
                    spec.kind
                ))
            })?;
        self.message(&message, top_level(object)?)
    }

    /// An object body: `k8s\0` + `runtime.Unknown` around its message.
    pub(crate) fn object(
        &self,
        spec: &ResourceSpec,
        object: &Value,
    ) -> Result<Vec<u8>, EncodeError> {
        let raw = self.object_raw(spec, object)?;
        Ok(envelope(&spec.api_version(), &spec.kind, &raw))
    }

    /// A stored object (JSON bytes without `kind`/`apiVersion`) as an object body.
    pub(crate) fn stored(
        &self,
        spec: &ResourceSpec,
        stored: &[u8],
    ) -> Result<Vec<u8>, EncodeError> {
        let raw = self.stored_raw(spec, stored)?;
        Ok(envelope(&spec.api_version(), &spec.kind, &raw))
    }

    /// A stored object's message, encoded on the first call and kept in [`Obj::protobuf`]
    /// for every later list and watch.
    pub(crate) fn kept_raw(&self, spec: &ResourceSpec, obj: &Obj) -> Result<Bytes, String> {
        obj.protobuf
            .get_or_init(|| {
                self.stored_raw(spec, &obj.bytes)
                    .map(Bytes::from)
                    .map_err(|e| e.to_string())
            })
            .clone()
    }

    /// A stored object as a list item's message.
    pub(crate) fn stored_raw(
        &self,
        spec: &ResourceSpec,
        stored: &[u8],
    ) -> Result<Vec<u8>, EncodeError> {
        let value: Value = serde_json::from_slice(stored)
            .map_err(|e| EncodeError::new(format!("the stored object is unreadable: {e}")))?;
        self.object_raw(spec, &value)
    }

    /// A list body, `XxxList {1: ListMeta, 2: repeated items}` in the envelope, `items` being
    /// [`Encoder::object_raw`]'s: the bytes before the items and after them. The items go
    /// between, each as [`list_item`] frames it, so that the body streams as kube-apiserver's
    /// does (KEP-5116) instead of being copied whole before its first byte leaves.
    pub(crate) fn list(
        &self,
        spec: &ResourceSpec,
        metadata: &Value,
        items: &[impl AsRef<[u8]>],
    ) -> Result<ListBody, EncodeError> {
        let mut meta = Vec::new();
        len_field(
            &mut meta,
            1,
            &self.message(LIST_META, top_level(metadata)?)?,
        );
        let raw_len = meta.len()
            + items
                .iter()
                .map(|i| list_item_len(i.as_ref().len()))
                .sum::<usize>();
        let mut head = envelope_head(&spec.api_version(), &spec.list_kind, raw_len);
        head.extend_from_slice(&meta);
        Ok(ListBody {
            head,
            tail: ENVELOPE_TAIL.to_vec(),
        })
    }

    /// A `meta.v1.Status` (as [`StatusError::to_value`] gives it) in its envelope.
    pub(crate) fn status(&self, status: &Value) -> Result<Vec<u8>, EncodeError> {
        let raw = self.message(STATUS, top_level(status)?)?;
        Ok(envelope("v1", "Status", &raw))
    }

    /// `object`'s fields as message `name`.
    fn message(&self, name: &str, object: &Map<String, Value>) -> Result<Vec<u8>, EncodeError> {
        let fields = self.messages.get(name).ok_or_else(|| {
            EncodeError::new(format!(
                "message {name} cannot be written in Kubernetes 1.{MINOR}"
            ))
        })?;
        let mut found: BTreeMap<&[u32], &Value> = BTreeMap::new();
        for (key, value) in object {
            // Go's JSON decoder leaves a field at its zero value for `null`. `kind` and
            // `apiVersion` of a message without such fields are an object's type, which the
            // envelope carries.
            if value.is_null() {
                continue;
            }
            let numbers = match fields
                .keys
                .get(key.as_str())
                .or_else(|| fields.keys.get(&normalise(key)))
            {
                Some(numbers) => numbers,
                // `kind` and `apiVersion` of a message without such fields are an object's
                // type, which the envelope carries.
                None if matches!(key.as_str(), "kind" | "apiVersion") => continue,
                None => return Err(EncodeError::new(format!("{name} has no field {key:?}"))),
            };
            if found.insert(numbers, value).is_some() {
                return Err(EncodeError::new(format!("two keys for one field of {name}")).at(key));
            }
        }
        let mut out = Vec::new();
        self.write_nodes(&mut out, &fields.nodes, &found, &fields.always)?;
        Ok(out)
    }

    fn write_nodes(
        &self,
        out: &mut Vec<u8>,
        nodes: &[Node],
        found: &BTreeMap<&[u32], &Value>,
        always: &BTreeSet<Vec<u32>>,
    ) -> Result<(), EncodeError> {
        for node in nodes {
            match node {
                Node::Field(field) => {
                    let value = found.get(field.numbers.as_slice()).copied();
                    self.write_field(out, field, value, always.contains(&field.numbers))
                        .map_err(|e| e.at(field.proto_names.last().cloned().unwrap_or_default()))?;
                }
                Node::Embedded { number, children } => {
                    let mut inner = Vec::new();
                    self.write_nodes(&mut inner, children, found, always)?;
                    len_field(out, *number, &inner);
                }
            }
        }
        Ok(())
    }

    fn write_field(
        &self,
        out: &mut Vec<u8>,
        field: &FieldDef,
        value: Option<&Value>,
        go_always: bool,
    ) -> Result<(), EncodeError> {
        let number = field.numbers.last().copied().unwrap_or_default();
        match (field.store, value) {
            (Store::Repeated | Store::OptionalRepeated | Store::ManagedFields, Some(v)) => {
                let items = v
                    .as_array()
                    .ok_or_else(|| EncodeError::new(format!("{v} is not a list")))?;
                for (i, item) in items.iter().enumerate() {
                    self.write_value(out, number, &field.codec, item)
                        .map_err(|e| e.at(format!("[{i}]")))?;
                }
                Ok(())
            }
            (Store::Map | Store::OptionalMap, Some(v)) => {
                let entries = v
                    .as_object()
                    .ok_or_else(|| EncodeError::new(format!("{v} is not a map")))?;
                // gogo's generated code sorts map keys, as a BTreeMap iterates them.
                let sorted: BTreeMap<&String, &Value> = entries.iter().collect();
                for (key, item) in sorted {
                    let mut entry = Vec::new();
                    len_field(&mut entry, 1, key.as_bytes());
                    self.write_value(&mut entry, 2, &field.codec, item)
                        .map_err(|e| e.at(format!("[{key:?}]")))?;
                    len_field(out, number, &entry);
                }
                Ok(())
            }
            (_, Some(v)) => self.write_value(out, number, &field.codec, v),
            (Store::Value | Store::OmitEmpty, None) => self.write_zero(out, number, &field.codec),
            (Store::Optional, None) if go_always => self.write_zero(out, number, &field.codec),
            (_, None) => Ok(()),
        }
    }

    /// What Go writes for a non-pointer field holding its zero value.
    fn write_zero(&self, out: &mut Vec<u8>, number: u32, codec: &Codec) -> Result<(), EncodeError> {
        match codec {
            Codec::Leaf("Str") => len_field(out, number, b""),
            Codec::Leaf("I32" | "I64" | "Bool") => varint_field(out, number, 0),
            Codec::Leaf("F64") => {
                tag(out, number, 1);
                out.extend_from_slice(&0f64.to_bits().to_le_bytes());
            }
            // A nil `[]byte` is not written.
            Codec::Leaf("Bytes") => {}
            // The zero Quantity prints as "0".
            Codec::Leaf("Quantity") => {
                let mut inner = Vec::new();
                len_field(&mut inner, 1, b"0");
                len_field(out, number, &inner);
            }
            Codec::Leaf("IntOrString") => len_field(out, number, &int_or_string(0, 0, "")),
            Codec::Leaf("Duration") => {
                let mut inner = Vec::new();
                varint_field(&mut inner, 1, 0);
                len_field(out, number, &inner);
            }
            // Zero times, nil raw JSON and nil string lists marshal to nothing inside.
            Codec::Leaf(_) => len_field(out, number, b""),
            Codec::Message(name) => {
                let inner = self.message(name, &Map::new())?;
                len_field(out, number, &inner);
            }
        }
        Ok(())
    }

    fn write_value(
        &self,
        out: &mut Vec<u8>,
        number: u32,
        codec: &Codec,
        v: &Value,
    ) -> Result<(), EncodeError> {
        let wrong = |what: &str| EncodeError::new(format!("{v} is not {what}"));
        match codec {
            Codec::Leaf("Str") => len_field(
                out,
                number,
                v.as_str().ok_or_else(|| wrong("a string"))?.as_bytes(),
            ),
            Codec::Leaf("Bytes") => {
                let text = v.as_str().ok_or_else(|| wrong("a base64 string"))?;
                let bytes = base64::engine::general_purpose::STANDARD
                    .decode(text)
                    .map_err(|e| EncodeError::new(format!("{v} is not base64: {e}")))?;
                len_field(out, number, &bytes);
            }
            Codec::Leaf("I32") => {
                let n = v
                    .as_i64()
                    .and_then(|n| i32::try_from(n).ok())
                    .ok_or_else(|| wrong("an int32"))?;
                // Sign-extended: a negative int32 is a ten-byte varint, as Go writes it.
                varint_field(out, number, i64::from(n) as u64);
            }
            Codec::Leaf("I64") => {
                let n = v.as_i64().ok_or_else(|| wrong("an int64"))?;
                varint_field(out, number, n as u64);
            }
            Codec::Leaf("Bool") => varint_field(
                out,
                number,
                u64::from(v.as_bool().ok_or_else(|| wrong("a bool"))?),
            ),
            Codec::Leaf("F64") => {
                let n = v.as_f64().ok_or_else(|| wrong("a number"))?;
                tag(out, number, 1);
                out.extend_from_slice(&n.to_bits().to_le_bytes());
            }
            Codec::Leaf("Quantity") => {
                // Stored as sent (the server does not canonicalise), so its JSON and its
                // protobuf agree; Go's ParseQuantity refuses an empty string.
                let text = match v {
                    Value::String(s) if !s.is_empty() => s.clone(),
                    Value::Number(n) => n.to_string(),
                    _ => return Err(wrong("a quantity")),
                };
                let mut inner = Vec::new();
                len_field(&mut inner, 1, text.as_bytes());
                len_field(out, number, &inner);
            }
            Codec::Leaf("IntOrString") => {
                let inner = match v {
                    Value::String(s) => int_or_string(1, 0, s),
                    _ => {
                        let n = v
                            .as_i64()
                            .and_then(|n| i32::try_from(n).ok())
                            .ok_or_else(|| wrong("an int or string"))?;
                        int_or_string(0, n, "")
                    }
                };
                len_field(out, number, &inner);
            }
            Codec::Leaf(kind @ ("Time" | "MicroTime")) => {
                let text = v.as_str().ok_or_else(|| wrong("a time"))?;
                let (seconds, nanos) =
                    parse_rfc3339(text).ok_or_else(|| wrong("an RFC 3339 time"))?;
                let mut inner = Vec::new();
                if seconds != GO_ZERO_TIME || nanos != 0 {
                    varint_field(&mut inner, 1, seconds as u64);
                    // `Time` keeps whole seconds only (its JSON has no more); `MicroTime`
                    // keeps the nanoseconds Go parsed.
                    let nanos = if *kind == "Time" { 0 } else { nanos };
                    varint_field(&mut inner, 2, i64::from(nanos) as u64);
                }
                len_field(out, number, &inner);
            }
            Codec::Leaf("Duration") => {
                let text = v.as_str().ok_or_else(|| wrong("a duration"))?;
                let nanos = parse_go_duration(text).ok_or_else(|| wrong("a Go duration"))?;
                let mut inner = Vec::new();
                varint_field(&mut inner, 1, nanos as u64);
                len_field(out, number, &inner);
            }
            Codec::Leaf("RawExtension" | "FieldsV1" | "Json") => {
                let raw = serde_json::to_vec(v)
                    .map_err(|e| EncodeError::new(format!("cannot write {v}: {e}")))?;
                let mut inner = Vec::new();
                len_field(&mut inner, 1, &raw);
                len_field(out, number, &inner);
            }
            Codec::Leaf("StringList") => {
                let items = v.as_array().ok_or_else(|| wrong("a list of strings"))?;
                let mut inner = Vec::new();
                for item in items {
                    len_field(
                        &mut inner,
                        1,
                        item.as_str()
                            .ok_or_else(|| wrong("a list of strings"))?
                            .as_bytes(),
                    );
                }
                len_field(out, number, &inner);
            }
            Codec::Leaf(other) => {
                return Err(EncodeError::new(format!("no encoder for {other} values")))
            }
            Codec::Message(name) => {
                let object = v.as_object().ok_or_else(|| wrong("an object"))?;
                let inner = self.message(name, object)?;
                len_field(out, number, &inner);
            }
        }
        Ok(())
    }
}

/// Files `field` under the embedded structs its number path goes through.
fn insert(nodes: &mut Vec<Node>, numbers: &[u32], field: FieldDef) {
    match numbers {
        [] | [_] => nodes.push(Node::Field(field)),
        [first, rest @ ..] => {
            let at = nodes
                .iter()
                .position(|n| matches!(n, Node::Embedded { number, .. } if number == first));
            let index = at.unwrap_or_else(|| {
                nodes.push(Node::Embedded {
                    number: *first,
                    children: Vec::new(),
                });
                nodes.len() - 1
            });
            if let Some(Node::Embedded { children, .. }) = nodes.get_mut(index) {
                insert(children, rest, field);
            }
        }
    }
}

/// Field-number order, the order gogo's generated marshallers write.
fn sort_nodes(nodes: &mut [Node]) {
    nodes.sort_by_key(Node::number);
    for node in nodes {
        if let Node::Embedded { children, .. } = node {
            sort_nodes(children);
        }
    }
}

/// An object's fields (its `kind` and `apiVersion` are skipped by [`Encoder::message`]: the
/// envelope carries them).
fn top_level(object: &Value) -> Result<&Map<String, Value>, EncodeError> {
    object
        .as_object()
        .ok_or_else(|| EncodeError::new(format!("{object} is not an object")))
}

/// A protobuf list body around its items (see [`Encoder::list`]).
#[derive(Debug)]
pub(crate) struct ListBody {
    /// The magic, the envelope's type meta, `raw`'s tag and length, and the list's metadata.
    pub(crate) head: Vec<u8>,
    /// The envelope's fields after `raw`.
    pub(crate) tail: Vec<u8>,
}

/// Writes one list item (an [`Encoder::object_raw`]) as the list's field 2.
pub(crate) fn list_item(out: &mut BytesMut, item: &[u8]) {
    len_field(out, 2, item);
}

/// The length of a list item of `len` bytes once framed by [`list_item`].
fn list_item_len(len: usize) -> usize {
    1 + varint_len(len as u64) + len
}

fn varint_len(v: u64) -> usize {
    // One byte per started 7 bits, at least one.
    (64 - (v | 1).leading_zeros() as usize).div_ceil(7)
}

/// The envelope's `contentEncoding` and `contentType`: Go writes them empty.
const ENVELOPE_TAIL: &[u8] = &[(3 << 3) | 2, 0, (4 << 3) | 2, 0];

/// `k8s\0` + `runtime.Unknown {1: typeMeta {1: apiVersion, 2: kind}, 2: raw, 3:
/// contentEncoding, 4: contentType}` up to `raw`'s bytes, which are `raw_len` long.
fn envelope_head(api_version: &str, kind: &str, raw_len: usize) -> Vec<u8> {
    let mut type_meta = Vec::new();
    len_field(&mut type_meta, 1, api_version.as_bytes());
    len_field(&mut type_meta, 2, kind.as_bytes());
    let mut out = Vec::with_capacity(type_meta.len() + 24);
    out.extend_from_slice(MAGIC);
    len_field(&mut out, 1, &type_meta);
    tag(&mut out, 2, 2);
    varint(&mut out, raw_len as u64);
    out
}

/// `k8s\0` + `runtime.Unknown {1: typeMeta {1: apiVersion, 2: kind}, 2: raw, 3:
/// contentEncoding, 4: contentType}`; Go writes the empty 3 and 4.
pub(crate) fn envelope(api_version: &str, kind: &str, raw: &[u8]) -> Vec<u8> {
    let mut out = envelope_head(api_version, kind, raw.len());
    out.reserve(raw.len() + ENVELOPE_TAIL.len());
    out.extend_from_slice(raw);
    out.extend_from_slice(ENVELOPE_TAIL);
    out
}

/// One watch frame: a 4-byte big-endian length, then `meta.v1.WatchEvent {1: type, 2:
/// RawExtension {1: raw}}`, `raw` being the object's own enveloped body.
pub(crate) fn watch_frame(event_type: &str, object: &[u8]) -> Vec<u8> {
    let mut extension = Vec::with_capacity(object.len() + 6);
    len_field(&mut extension, 1, object);
    let mut event = Vec::with_capacity(extension.len() + event_type.len() + 8);
    len_field(&mut event, 1, event_type.as_bytes());
    len_field(&mut event, 2, &extension);
    // A frame longer than 4 GiB cannot be written; no object comes near it.
    let len = u32::try_from(event.len()).unwrap_or(u32::MAX);
    let mut out = len.to_be_bytes().to_vec();
    out.extend_from_slice(&event);
    out
}

/// The object of a BOOKMARK event: only `metadata.resourceVersion` (and the annotation that
/// ends a streaming list's initial events).
pub(crate) fn bookmark_object(rv: u64, initial_events_end: bool) -> Value {
    let mut metadata = json!({"resourceVersion": rv.to_string()});
    if initial_events_end {
        metadata["annotations"] = json!({"k8s.io/initial-events-end": "true"});
    }
    json!({ "metadata": metadata })
}

/// The `Status` body of `e` in protobuf, if it encodes (it always should).
pub(crate) fn status_body(e: &StatusError) -> Option<Vec<u8>> {
    let encoder = encoder()?;
    match encoder.status(&e.to_value()) {
        Ok(body) => Some(body),
        Err(err) => {
            tracing::warn!("answering JSON: cannot write a Status as protobuf: {err}");
            None
        }
    }
}

fn varint(out: &mut impl BufMut, mut v: u64) {
    while v >= 0x80 {
        out.put_u8((v as u8) | 0x80);
        v >>= 7;
    }
    out.put_u8(v as u8);
}

fn tag(out: &mut impl BufMut, number: u32, wire: u8) {
    varint(out, (u64::from(number) << 3) | u64::from(wire));
}

fn varint_field(out: &mut Vec<u8>, number: u32, v: u64) {
    tag(out, number, 0);
    varint(out, v);
}

fn len_field(out: &mut impl BufMut, number: u32, bytes: &[u8]) {
    tag(out, number, 2);
    varint(out, bytes.len() as u64);
    out.put_slice(bytes);
}

/// `intstr.IntOrString {1: type, 2: intVal, 3: strVal}`, all three written as Go does.
fn int_or_string(kind: u64, int: i32, string: &str) -> Vec<u8> {
    let mut inner = Vec::new();
    varint_field(&mut inner, 1, kind);
    varint_field(&mut inner, 2, i64::from(int) as u64);
    len_field(&mut inner, 3, string.as_bytes());
    inner
}

/// `2006-01-02T15:04:05.999999999Z07:00` → Unix seconds and nanoseconds.
fn parse_rfc3339(text: &str) -> Option<(i64, i32)> {
    let b = text.as_bytes();
    let digits = |range: std::ops::Range<usize>| -> Option<i64> {
        let part = b.get(range)?;
        if part.is_empty() || !part.iter().all(u8::is_ascii_digit) {
            return None;
        }
        std::str::from_utf8(part).ok()?.parse().ok()
    };
    let (year, month, day) = (digits(0..4)?, digits(5..7)?, digits(8..10)?);
    let (hour, minute, second) = (digits(11..13)?, digits(14..16)?, digits(17..19)?);
    if b.get(4) != Some(&b'-')
        || b.get(7) != Some(&b'-')
        || !matches!(b.get(10), Some(b'T' | b't'))
        || b.get(13) != Some(&b':')
        || b.get(16) != Some(&b':')
        || !(1..=12).contains(&month)
        || !(1..=31).contains(&day)
        || hour > 23
        || minute > 59
        || second > 60
    {
        return None;
    }
    let mut at = 19;
    let mut nanos = 0i64;
    if b.get(at) == Some(&b'.') {
        let start = at + 1;
        let len = b[start..].iter().take_while(|c| c.is_ascii_digit()).count();
        if len == 0 || len > 9 {
            return None;
        }
        nanos = digits(start..start + len)? * 10i64.pow(9 - len as u32);
        at = start + len;
    }
    let offset = match b.get(at..)? {
        [b'Z' | b'z'] => 0,
        [sign @ (b'+' | b'-'), _, _, b':', _, _] => {
            let minutes = digits(at + 1..at + 3)? * 60 + digits(at + 4..at + 6)?;
            if *sign == b'+' {
                minutes * 60
            } else {
                -minutes * 60
            }
        }
        _ => return None,
    };
    let days = days_from_civil(year, month, day);
    let seconds = days * 86_400 + hour * 3_600 + minute * 60 + second - offset;
    Some((seconds, i32::try_from(nanos).ok()?))
}

/// Days since 1970-01-01 of a proleptic Gregorian date (Howard Hinnant's algorithm).
fn days_from_civil(year: i64, month: i64, day: i64) -> i64 {
    let y = if month <= 2 { year - 1 } else { year };
    let era = y.div_euclid(400);
    let yoe = y - era * 400;
    let mp = (month + 9) % 12;
    let doy = (153 * mp + 2) / 5 + day - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    era * 146_097 + doe - 719_468
}

/// Go's `time.ParseDuration`: `"1h2m3.5s"`, `"300ms"`, `"-1.5µs"`, `"0"`.
fn parse_go_duration(text: &str) -> Option<i64> {
    let (negative, mut rest) = match text.as_bytes().first() {
        Some(b'-') => (true, &text[1..]),
        Some(b'+') => (false, &text[1..]),
        _ => (false, text),
    };
    if rest == "0" {
        return Some(0);
    }
    if rest.is_empty() {
        return None;
    }
    let mut total: u128 = 0;
    while !rest.is_empty() {
        let int_len = rest.bytes().take_while(u8::is_ascii_digit).count();
        let int = &rest[..int_len];
        rest = &rest[int_len..];
        let mut fraction = "";
        if let Some(after) = rest.strip_prefix('.') {
            let len = after.bytes().take_while(u8::is_ascii_digit).count();
            fraction = &after[..len];
            rest = &after[len..];
        }
        if int.is_empty() && fraction.is_empty() {
            return None;
        }
        let unit_len = rest
            .find(|c: char| c == '.' || c.is_ascii_digit())
            .unwrap_or(rest.len());
        let unit: u128 = match &rest[..unit_len] {
            "ns" => 1,
            "us" | "µs" | "μs" => 1_000,
            "ms" => 1_000_000,
            "s" => 1_000_000_000,
            "m" => 60_000_000_000,
            "h" => 3_600_000_000_000,
            _ => return None,
        };
        rest = &rest[unit_len..];
        let whole: u128 = if int.is_empty() { 0 } else { int.parse().ok()? };
        let mut part = whole.checked_mul(unit)?;
        // Go truncates the fraction's nanoseconds; past 20 digits no unit (at most an hour,
        // 3.6e12 ns) gets another nanosecond, and 1e20 × 3.6e12 stays far inside a u128.
        let (mut numerator, mut scale) = (0u128, 1u128);
        for d in fraction.bytes().take(20) {
            numerator = numerator * 10 + u128::from(d - b'0');
            scale *= 10;
        }
        part = part.checked_add(numerator * unit / scale)?;
        total = total.checked_add(part)?;
    }
    let limit = if negative {
        1u128 << 63
    } else {
        (1u128 << 63) - 1
    };
    if total > limit {
        return None;
    }
    let total = i128::try_from(total).ok()?;
    i64::try_from(if negative { -total } else { total }).ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_streamed_list_is_the_enveloped_list_message() {
        let Some(encoder) = encoder() else {
            panic!("the built-in protobuf table loads");
        };
        let spec = ResourceSpec::new("", "v1", "ConfigMap", "configmaps", true);
        let metadata = json!({"resourceVersion": "7", "continue": "abc"});
        // Lengths whose varints take one, two and three bytes.
        let items = [
            vec![1u8; 3],
            vec![2u8; 127],
            vec![3u8; 128],
            vec![4u8; 20_000],
        ];
        let list = encoder.list(&spec, &metadata, &items).unwrap();
        let mut streamed = BytesMut::from(&list.head[..]);
        for item in &items {
            list_item(&mut streamed, item);
        }
        streamed.extend_from_slice(&list.tail);

        let mut raw = Vec::new();
        len_field(
            &mut raw,
            1,
            &encoder
                .message(LIST_META, top_level(&metadata).unwrap())
                .unwrap(),
        );
        for item in &items {
            len_field(&mut raw, 2, item);
        }
        assert_eq!(&streamed[..], envelope("v1", "ConfigMapList", &raw));
    }

    #[test]
    fn negotiates_like_kube_apiserver() {
        let pb = "application/vnd.kubernetes.protobuf";
        assert_eq!(negotiate("", true), Media::Json);
        assert_eq!(negotiate("*/*", true), Media::Json);
        assert_eq!(negotiate(pb, true), Media::Protobuf);
        assert_eq!(
            negotiate(&format!("{pb}, application/json"), true),
            Media::Protobuf
        );
        assert_eq!(
            negotiate(&format!("application/json, {pb}"), true),
            Media::Json
        );
        assert_eq!(
            negotiate(&format!("application/json;q=0.5, {pb}"), true),
            Media::Protobuf
        );
        // A higher q wins; at equal q a specific range beats a wildcard wherever it stands.
        assert_eq!(negotiate(&format!("*/*, {pb};q=0.9"), true), Media::Json);
        assert_eq!(negotiate(&format!("*/*, {pb}"), true), Media::Protobuf);
        assert_eq!(
            negotiate(&format!("{pb}, application/json"), false),
            Media::Json
        );
        assert_eq!(negotiate(pb, false), Media::NotAcceptable);
        assert_eq!(
            negotiate(
                &format!("{pb};as=PartialObjectMetadataList;g=meta.k8s.io;v=v1"),
                true
            ),
            Media::Json
        );
        // Nothing served asked for: 406, as kube-apiserver answers; no Accept is JSON.
        assert_eq!(negotiate("text/plain", true), Media::NotAcceptable);
        assert_eq!(
            negotiate("application/json;q=0", true),
            Media::NotAcceptable
        );
        assert_eq!(negotiate(" ", true), Media::Json);
        assert_eq!(negotiate("application/yaml", false), Media::Yaml);
        assert_eq!(
            negotiate(&format!("application/yaml;q=0.8, {pb}"), true),
            Media::Protobuf
        );
    }

    #[test]
    fn go_durations() {
        let cases = [
            ("0", 0),
            ("1h2m3.5s", 3_723_500_000_000),
            ("300ms", 300_000_000),
            ("-1.5s", -1_500_000_000),
            ("1.5µs", 1_500),
            ("1.0000000000000000000000000000009h", 3_600_000_000_000),
            ("2562047h47m16.854775807s", i64::MAX),
            ("-2562047h47m16.854775808s", i64::MIN),
        ];
        for (text, nanos) in cases {
            assert_eq!(parse_go_duration(text), Some(nanos), "{text}");
        }
        for bad in ["", "1", "1x", ".s", "2562047h47m16.854775808s", "-"] {
            assert_eq!(parse_go_duration(bad), None, "{bad}");
        }
    }

    #[test]
    fn rfc3339_times() {
        assert_eq!(parse_rfc3339("1970-01-01T00:00:00Z"), Some((0, 0)));
        assert_eq!(
            parse_rfc3339("2023-11-14T22:13:20Z"),
            Some((1_700_000_000, 0))
        );
        assert_eq!(
            parse_rfc3339("2023-11-14T23:13:20.123456+01:00"),
            Some((1_700_000_000, 123_456_000))
        );
        assert_eq!(
            parse_rfc3339("0001-01-01T00:00:00Z"),
            Some((GO_ZERO_TIME, 0))
        );
        assert_eq!(parse_rfc3339("2023-11-14 22:13:20Z"), None);
        assert_eq!(parse_rfc3339("2023-11-14T22:13:20"), None);
    }

    #[test]
    fn every_field_of_the_served_version_has_a_key() {
        let encoder = encoder().expect("the table reads");
        let cm = &encoder.messages["api.core.v1.ConfigMap"];
        assert_eq!(cm.keys.get("binarydata"), Some(&vec![3]));
        // A kind whose 1.37 struct has a field the table maps to no protobuf field (in the
        // checked-in table, `NodeSystemInfo.runningInUserNamespace`) is not written at all.
        let table = ProtobufTable::builtin().expect("the table reads");
        for (name, def) in &table.messages {
            let unmapped = def.unmapped.iter().any(|(_, v)| v.contains(&MINOR));
            if unmapped {
                assert!(!encoder.messages.contains_key(name), "{name}");
            }
        }
    }

    #[test]
    fn embedded_structs_nest() {
        let encoder = encoder().expect("the table reads");
        let selector = json!({"name": "cm", "key": "k"});
        let raw = encoder
            .message(
                "api.core.v1.ConfigMapKeySelector",
                selector.as_object().expect("object"),
            )
            .expect("encodes");
        // {1: LocalObjectReference {1: "cm"}, 2: "k"}; `optional` is a pointer: absent.
        assert_eq!(raw, b"\x0a\x04\x0a\x02cm\x12\x01k");
        let err = encoder
            .message(
                "api.core.v1.ConfigMapKeySelector",
                json!({"nope": 1}).as_object().expect("object"),
            )
            .expect_err("unknown key");
        assert!(err.to_string().contains("has no field \"nope\""), "{err}");
    }
}
