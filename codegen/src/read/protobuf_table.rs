//! The protobuf table: how each Kubernetes protobuf message is decoded into its k8s-openapi
//! struct, for every Kubernetes version k8s-openapi offers.
//!
//! Three sources meet here, so the table is derived once and checked in
//! (`resources/protobuf.txt`), as the [subresource table](super::subresources) is:
//! - the `.proto` files ([`super::proto`]): field numbers, labels and wire types, those of
//!   one release read whole and a later release's additions from a checked-in supplement
//!   (`resources/protobuf-v1.37-fields.txt`), since a field k8s-openapi's newest version has
//!   and the protos lack would keep every resource holding it on JSON;
//! - k8s-openapi's sources ([`super::k8s_openapi`]): each struct's field names and shapes
//!   (`Option`, `Vec`, `BTreeMap`, `Box`) per version, and the Go-inlined structs
//!   (`Volume`'s `volumeSource`) that k8s-openapi flattens into their parent;
//! - how Go declares each scalar field (`resources/protobuf-presence.txt`): Go's protobuf
//!   writes a non-pointer field even when it is zero, which Go's JSON omits when the field is
//!   `omitempty`, so such a zero decodes to `None`, as the JSON of the same object does.
//!
//! A test re-derives the table when its sources are at hand and fails if it drifted.
//! A struct field with no protobuf field in some version is listed as `unmapped` there: the
//! generator emits no decoder for that struct in that version (nor for anything holding it),
//! and those resources stay on JSON rather than lose the field.

use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write as _;
use std::path::Path;

use super::proto::{self, Label, ProtoField, ProtoMessage};
use super::ReadError;
use crate::model::ResourceDef;

/// How a field of a struct stores what the wire carries.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Store {
    /// A required field: `T`.
    Value,
    /// `Option<T>`, `Some` whenever the field is on the wire.
    Optional,
    /// `Option<T>` of a Go non-pointer `omitempty` scalar: a zero is `None`.
    OmitEmpty,
    /// `Vec<T>`.
    Repeated,
    /// `Option<Vec<T>>`.
    OptionalRepeated,
    /// `BTreeMap<String, T>`.
    Map,
    /// `Option<BTreeMap<String, T>>`.
    OptionalMap,
    /// `Option<Box<T>>`.
    Boxed,
    /// `ObjectMeta::managed_fields`, skipped unless the decoder keeps it.
    ManagedFields,
}

impl Store {
    const ALL: [(Store, &'static str); 9] = [
        (Store::Value, "value"),
        (Store::Optional, "optional"),
        (Store::OmitEmpty, "omitempty"),
        (Store::Repeated, "repeated"),
        (Store::OptionalRepeated, "optional_repeated"),
        (Store::Map, "map"),
        (Store::OptionalMap, "optional_map"),
        (Store::Boxed, "boxed"),
        (Store::ManagedFields, "managed_fields"),
    ];

    /// The name in the table, which is also the runtime's `field::` function.
    pub fn name(self) -> &'static str {
        Store::ALL
            .iter()
            .find(|(s, _)| *s == self)
            .map_or("value", |(_, n)| n)
    }

    fn parse(name: &str) -> Option<Store> {
        Store::ALL.iter().find(|(_, n)| *n == name).map(|(s, _)| *s)
    }
}

/// How one value of a field is read: the runtime's `codec::` types.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub enum Codec {
    /// A leaf the runtime decodes itself; the name of its `codec::` type (`Str`, `Time`, …).
    Leaf(&'static str),
    /// A message with a generated decoder, by its full proto name.
    Message(String),
}

/// Proto leaf types → (runtime codec, the k8s-openapi type it fills, below the crate root).
const LEAVES: &[(&str, &str, &str)] = &[
    ("string", "Str", "std::string::String"),
    ("bytes", "Bytes", "ByteString"),
    ("int32", "I32", "i32"),
    ("int64", "I64", "i64"),
    ("bool", "Bool", "bool"),
    ("double", "F64", "f64"),
    (
        "apimachinery.pkg.api.resource.Quantity",
        "Quantity",
        "apimachinery::pkg::api::resource::Quantity",
    ),
    (
        "apimachinery.pkg.util.intstr.IntOrString",
        "IntOrString",
        "apimachinery::pkg::util::intstr::IntOrString",
    ),
    (
        "apimachinery.pkg.apis.meta.v1.Time",
        "Time",
        "apimachinery::pkg::apis::meta::v1::Time",
    ),
    (
        "apimachinery.pkg.apis.meta.v1.MicroTime",
        "MicroTime",
        "apimachinery::pkg::apis::meta::v1::MicroTime",
    ),
    (
        "apimachinery.pkg.apis.meta.v1.Duration",
        "Duration",
        "std::string::String",
    ),
    (
        "apimachinery.pkg.runtime.RawExtension",
        "RawExtension",
        "apimachinery::pkg::runtime::RawExtension",
    ),
    (
        "apimachinery.pkg.apis.meta.v1.FieldsV1",
        "FieldsV1",
        "apimachinery::pkg::apis::meta::v1::FieldsV1",
    ),
    (
        "apiextensions_apiserver.pkg.apis.apiextensions.v1.JSON",
        "Json",
        "apiextensions_apiserver::pkg::apis::apiextensions::v1::JSON",
    ),
];

/// The k8s-openapi type (below its root) a leaf codec fills, and `Vec<String>` for a
/// string list: what an apply configuration holds of such a field.
pub fn leaf_rust_type(codec: &str) -> Option<&'static str> {
    if codec == STRING_LIST {
        return Some("std::vec::Vec<std::string::String>");
    }
    LEAVES
        .iter()
        .find(|(_, c, _)| *c == codec)
        .map(|(_, _, rust)| *rust)
}

/// The codec of a message of one repeated string field `items`, which Go declares as a
/// named `[]string` (`Verbs`, `ExtraValue`) and k8s-openapi as a `Vec<String>`.
const STRING_LIST: &str = "StringList";

/// Kubernetes minor versions, `33..=37` written `33-37`.
pub type Versions = BTreeSet<u32>;

/// One field as decoded into a struct.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FieldDef {
    /// The field numbers from the struct's message down to this field: more than one when
    /// Go inlines a struct k8s-openapi flattens (`Volume`'s `volumeSource`'s `hostPath` is
    /// `[2, 1]`).
    pub numbers: Vec<u32>,
    /// The proto names along the same path, for error messages.
    pub proto_names: Vec<String>,
    /// The k8s-openapi struct field (`type_`, `generate_name`).
    pub rust_field: String,
    /// How the struct holds it.
    pub store: Store,
    /// How each value is read.
    pub codec: Codec,
    /// The versions in which the struct has this field so.
    pub versions: Versions,
}

/// One message with a k8s-openapi struct in some versions.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MessageDef {
    /// `api.core.v1.Pod`.
    pub proto: String,
    /// The versions with a k8s-openapi struct of this name.
    pub versions: Versions,
    /// Its fields, sorted by their numbers.
    pub fields: Vec<FieldDef>,
    /// Struct fields no protobuf field fills, with the versions where the struct has them.
    pub unmapped: Vec<(String, Versions)>,
}

impl MessageDef {
    /// The struct's path below k8s-openapi's root: `api::core::v1::Pod`.
    pub fn rust_path(&self) -> String {
        rust_path(&self.proto)
    }
}

/// `api.core.v1.Pod` → `api::core::v1::Pod`.
pub fn rust_path(proto: &str) -> String {
    proto.replace('.', "::")
}

/// The whole table.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ProtobufTable {
    /// What it was derived from, one line each.
    pub sources: Vec<String>,
    /// By proto name.
    pub messages: BTreeMap<String, MessageDef>,
}

/// The file name of the checked-in table below `resources/`.
pub const FILE_NAME: &str = "protobuf.txt";
/// The file name of the checked-in Go presence table below `resources/`.
pub const PRESENCE_FILE_NAME: &str = "protobuf-presence.txt";
/// The file name of the checked-in supplement of Kubernetes 1.37's proto additions below
/// `resources/` (see [`super::proto`]).
pub const SUPPLEMENT_FILE_NAME: &str = "protobuf-v1.37-fields.txt";

const BUILTIN: &str = include_str!("../../resources/protobuf.txt");
const BUILTIN_PRESENCE: &str = include_str!("../../resources/protobuf-presence.txt");

/// How Go declares a scalar field: `(message, field)` → `pointer`, `omitempty` or `always`.
pub type Presence = BTreeMap<(String, String), String>;

/// The checked-in presence table.
pub fn builtin_presence() -> Result<Presence, ReadError> {
    parse_presence(Path::new("<built-in presence table>"), BUILTIN_PRESENCE)
}

/// Reads a presence table: `<message> <field> <pointer|omitempty|always>` per line.
pub fn parse_presence(path: &Path, text: &str) -> Result<Presence, ReadError> {
    let mut out = Presence::new();
    for (n, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let words: Vec<&str> = line.split_whitespace().collect();
        match words.as_slice() {
            [message, field, kind @ ("pointer" | "omitempty" | "always")] => {
                out.insert(
                    ((*message).to_owned(), (*field).to_owned()),
                    (*kind).to_owned(),
                );
            }
            _ => {
                return Err(ReadError::Invalid {
                    path: path.to_owned(),
                    problem: format!("line {}: not `<message> <field> <presence>`", n + 1),
                })
            }
        }
    }
    Ok(out)
}

impl ProtobufTable {
    /// The checked-in table.
    pub fn builtin() -> Result<Self, ReadError> {
        Self::parse(Path::new("<built-in protobuf table>"), BUILTIN)
    }

    /// Derives the table from the `.proto` files below `protos` with the supplement at
    /// `supplement` merged in, the k8s-openapi crate at `k8s_openapi` (every `src/v1_XX`) and
    /// a presence table.
    pub fn derive(
        protos: &Path,
        protos_description: &str,
        supplement: &Path,
        k8s_openapi: &Path,
        presence: &Presence,
    ) -> Result<Self, ReadError> {
        let mut messages = proto::read_dir(protos)?;
        proto::read_supplement(supplement, &mut messages)?;
        let mut table = ProtobufTable {
            sources: vec![
                protos_description.to_owned(),
                format!(
                    "later protos' additions: resources/{}",
                    supplement
                        .file_name()
                        .map(|n| n.to_string_lossy().into_owned())
                        .unwrap_or_default()
                ),
                format!(
                    "k8s-openapi {}",
                    k8s_openapi
                        .file_name()
                        .map(|n| n.to_string_lossy().into_owned())
                        .unwrap_or_default()
                ),
                "Go field declarations: resources/protobuf-presence.txt".to_owned(),
            ],
            messages: BTreeMap::new(),
        };
        for (minor, dir) in super::k8s_openapi::version_dirs(k8s_openapi)? {
            let structs = structs_of(&dir)?;
            let deriver = Deriver {
                messages: &messages,
                presence,
            };
            for message in messages.values() {
                let (mapped, unmapped) = match structs.get(&rust_path(&message.full_name)) {
                    None => continue,
                    Some(StructForm::Named(fields)) => deriver.map_message(message, fields),
                    // An empty message decodes to `{}`; one with fields would lose them all,
                    // unless a codec reads it (`FieldsV1`, `RawExtension`).
                    Some(StructForm::Json) if message.fields.is_empty() => (Vec::new(), Vec::new()),
                    Some(StructForm::Json)
                        if LEAVES
                            .iter()
                            .any(|(proto, _, _)| *proto == message.full_name) =>
                    {
                        continue
                    }
                    Some(StructForm::Json) => (Vec::new(), vec!["0".to_owned()]),
                };
                table.add(&message.full_name, minor, mapped, unmapped);
            }
        }
        Ok(table)
    }

    fn add(&mut self, proto: &str, minor: u32, fields: Vec<FieldDef>, unmapped: Vec<String>) {
        let def = self
            .messages
            .entry(proto.to_owned())
            .or_insert_with(|| MessageDef {
                proto: proto.to_owned(),
                versions: Versions::new(),
                fields: Vec::new(),
                unmapped: Vec::new(),
            });
        def.versions.insert(minor);
        for mut field in fields {
            match def.fields.iter_mut().find(|f| same_field(f, &field)) {
                Some(existing) => {
                    existing.versions.insert(minor);
                }
                None => {
                    field.versions = Versions::from([minor]);
                    def.fields.push(field);
                }
            }
        }
        def.fields
            .sort_by(|a, b| (&a.numbers, &a.rust_field).cmp(&(&b.numbers, &b.rust_field)));
        for name in unmapped {
            match def.unmapped.iter_mut().find(|(n, _)| *n == name) {
                Some((_, versions)) => {
                    versions.insert(minor);
                }
                None => def.unmapped.push((name, Versions::from([minor]))),
            }
        }
        def.unmapped.sort();
    }

    /// The messages of `minor` whose every struct field has a protobuf field, and so has
    /// every message they hold: what decodes into these structs, and what a server can write
    /// from their JSON, without losing a field.
    pub fn faithful(&self, minor: u32) -> BTreeSet<String> {
        let mut set: BTreeSet<String> = self
            .messages
            .values()
            .filter(|m| m.versions.contains(&minor))
            .filter(|m| !m.unmapped.iter().any(|(_, v)| v.contains(&minor)))
            .map(|m| m.proto.clone())
            .collect();
        // Greatest fixed point: recursive types (JSONSchemaProps) stay in.
        loop {
            let drop: Vec<String> = set
                .iter()
                .filter(|name| {
                    self.messages[*name].fields.iter().any(|f| {
                        f.versions.contains(&minor)
                            && matches!(&f.codec, Codec::Message(t) if !set.contains(t))
                    })
                })
                .cloned()
                .collect();
            if drop.is_empty() {
                return set;
            }
            for name in drop {
                set.remove(&name);
            }
        }
    }

    /// The [faithful](ProtobufTable::faithful) messages of `minor` that a program decoding
    /// `roots` needs: the roots themselves, every message their fields reach, and the
    /// `apimachinery` messages the list and watch envelopes and metadata-only decoding use.
    /// Roots that do not decode faithfully are left out, with what only they reach.
    pub fn reached_from<'s>(
        &self,
        minor: u32,
        roots: impl IntoIterator<Item = &'s str>,
    ) -> BTreeSet<String> {
        let faithful = self.faithful(minor);
        let mut todo: Vec<&str> = roots.into_iter().collect();
        todo.extend(
            faithful
                .iter()
                .filter(|name| name.starts_with("apimachinery."))
                .map(String::as_str),
        );
        let mut out = BTreeSet::new();
        while let Some(name) = todo.pop() {
            if !faithful.contains(name) || !out.insert(name.to_owned()) {
                continue;
            }
            for f in &self.messages[name].fields {
                if let Codec::Message(m) = &f.codec {
                    if f.versions.contains(&minor) {
                        todo.push(m);
                    }
                }
            }
        }
        out
    }

    /// The structs of `minor` k8s-openapi derives no `Default` for: those with a required
    /// `Time` or `MicroTime` (which have none), or a required struct without one
    /// (`meta.v1.Condition`). Their decoders start from a value built field by field.
    pub fn without_default(&self, minor: u32) -> BTreeSet<String> {
        let mut set = BTreeSet::new();
        loop {
            let more: Vec<String> = self
                .messages
                .values()
                .filter(|m| !set.contains(&m.proto))
                .filter(|m| {
                    m.fields.iter().any(|f| {
                        f.versions.contains(&minor)
                            && f.store == Store::Value
                            && match &f.codec {
                                Codec::Leaf(leaf) => matches!(*leaf, "Time" | "MicroTime"),
                                Codec::Message(t) => set.contains(t),
                            }
                    })
                })
                .map(|m| m.proto.clone())
                .collect();
            if more.is_empty() {
                return set;
            }
            set.extend(more);
        }
    }

    /// Sets [`ResourceDef::protobuf`] on every k8s-openapi resource of `defs` whose struct
    /// decodes in Kubernetes `1.<minor>`.
    pub fn mark_protobuf(&self, minor: u32, defs: &mut [ResourceDef]) {
        let decodable = self.faithful(minor);
        for def in defs {
            if let Some(proto) = def.ty.k8s_openapi_dotted() {
                def.protobuf = decodable.contains(&proto);
            }
        }
    }

    /// The table as checked in.
    pub fn to_text(&self) -> String {
        let mut out = String::from(
            "# How each Kubernetes protobuf message is decoded into its k8s-openapi struct.\n\
             # Derived by informer-gen's read::protobuf_table; regenerate with\n\
             # `INFORMER_GEN_BLESS=1 cargo test -p informer-gen --test protobuf_table`.\n",
        );
        for source in &self.sources {
            let _ = writeln!(out, "source {source}");
        }
        for m in self.messages.values() {
            let _ = writeln!(out, "message {} {}", m.proto, versions_text(&m.versions));
            for f in &m.fields {
                let numbers: Vec<String> = f.numbers.iter().map(u32::to_string).collect();
                let codec = match &f.codec {
                    Codec::Leaf(name) => (*name).to_owned(),
                    Codec::Message(name) => format!("msg:{name}"),
                };
                let _ = write!(
                    out,
                    "  field {} {} {} {} {}",
                    numbers.join("."),
                    f.proto_names.join("/"),
                    f.rust_field,
                    f.store.name(),
                    codec
                );
                if f.versions != m.versions {
                    let _ = write!(out, " {}", versions_text(&f.versions));
                }
                out.push('\n');
            }
            for (name, versions) in &m.unmapped {
                let _ = writeln!(out, "  unmapped {name} {}", versions_text(versions));
            }
        }
        out
    }

    /// Reads a table written by [`ProtobufTable::to_text`].
    pub fn parse(path: &Path, text: &str) -> Result<Self, ReadError> {
        let mut table = ProtobufTable::default();
        let mut current: Option<MessageDef> = None;
        for (n, line) in text.lines().enumerate() {
            let invalid = |problem: &str| ReadError::Invalid {
                path: path.to_owned(),
                problem: format!("line {}: {problem}", n + 1),
            };
            let words: Vec<&str> = line.split_whitespace().collect();
            match words.as_slice() {
                [] => {}
                [first, ..] if first.starts_with('#') => {}
                ["source", ..] => {
                    let rest = line.trim_start().trim_start_matches("source").trim();
                    table.sources.push(rest.to_owned());
                }
                ["message", proto, versions] => {
                    if let Some(done) = current.take() {
                        table.messages.insert(done.proto.clone(), done);
                    }
                    current = Some(MessageDef {
                        proto: (*proto).to_owned(),
                        versions: parse_versions(versions)
                            .ok_or_else(|| invalid("bad versions"))?,
                        fields: Vec::new(),
                        unmapped: Vec::new(),
                    });
                }
                ["field", numbers, names, rust_field, store, codec, rest @ ..] => {
                    let message = current
                        .as_mut()
                        .ok_or_else(|| invalid("a field outside a message"))?;
                    let numbers = numbers
                        .split('.')
                        .map(|n| n.parse::<u32>().ok())
                        .collect::<Option<Vec<u32>>>()
                        .ok_or_else(|| invalid("bad field numbers"))?;
                    let versions = match rest {
                        [] => message.versions.clone(),
                        [v] => parse_versions(v).ok_or_else(|| invalid("bad versions"))?,
                        _ => return Err(invalid("trailing words")),
                    };
                    message.fields.push(FieldDef {
                        numbers,
                        proto_names: names.split('/').map(str::to_owned).collect(),
                        rust_field: (*rust_field).to_owned(),
                        store: Store::parse(store).ok_or_else(|| invalid("unknown store"))?,
                        codec: parse_codec(codec).ok_or_else(|| invalid("unknown codec"))?,
                        versions,
                    });
                }
                ["unmapped", name, versions] => {
                    let message = current
                        .as_mut()
                        .ok_or_else(|| invalid("unmapped outside a message"))?;
                    message.unmapped.push((
                        (*name).to_owned(),
                        parse_versions(versions).ok_or_else(|| invalid("bad versions"))?,
                    ));
                }
                _ => return Err(invalid("not a line of a protobuf table")),
            }
        }
        if let Some(done) = current.take() {
            table.messages.insert(done.proto.clone(), done);
        }
        Ok(table)
    }
}

fn same_field(a: &FieldDef, b: &FieldDef) -> bool {
    a.numbers == b.numbers
        && a.rust_field == b.rust_field
        && a.store == b.store
        && a.codec == b.codec
        && a.proto_names == b.proto_names
}

fn parse_codec(text: &str) -> Option<Codec> {
    if let Some(name) = text.strip_prefix("msg:") {
        return Some(Codec::Message(name.to_owned()));
    }
    LEAVES
        .iter()
        .map(|(_, codec, _)| *codec)
        .chain([STRING_LIST])
        .find(|c| *c == text)
        .map(Codec::Leaf)
}

/// `{33, 34, 35, 37}` → `33-35,37`.
fn versions_text(versions: &Versions) -> String {
    let mut parts: Vec<String> = Vec::new();
    let mut run: Option<(u32, u32)> = None;
    for &v in versions {
        run = match run {
            Some((start, end)) if end + 1 == v => Some((start, v)),
            Some(done) => {
                parts.push(run_text(done));
                Some((v, v))
            }
            None => Some((v, v)),
        };
    }
    parts.extend(run.map(run_text));
    parts.join(",")
}

fn run_text((start, end): (u32, u32)) -> String {
    if start == end {
        start.to_string()
    } else {
        format!("{start}-{end}")
    }
}

fn parse_versions(text: &str) -> Option<Versions> {
    let mut out = Versions::new();
    for part in text.split(',') {
        match part.split_once('-') {
            Some((a, b)) => out.extend(a.parse::<u32>().ok()?..=b.parse::<u32>().ok()?),
            None => {
                out.insert(part.parse().ok()?);
            }
        }
    }
    (!out.is_empty()).then_some(out)
}

/// The shape of a k8s-openapi field's type.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Shape {
    Option(Box<Shape>),
    Vec(Box<Shape>),
    Map(Box<Shape>, Box<Shape>),
    Boxed(Box<Shape>),
    /// A type path below the crate root (`api::core::v1::PodSpec`, `std::string::String`).
    Path(String),
}

/// Every struct of one `src/v1_XX` directory: path below the root → its form.
type Structs = BTreeMap<String, StructForm>;

/// How k8s-openapi declares a struct.
enum StructForm {
    /// Named fields, in order.
    Named(Vec<(String, Shape)>),
    /// `struct X(pub serde_json::Value)`: k8s-openapi's form of a Go struct without fields.
    Json,
}

fn structs_of(version_dir: &Path) -> Result<Structs, ReadError> {
    let mut out = Structs::new();
    for (file, module) in super::k8s_openapi::rs_files_with_modules(version_dir)? {
        let text = std::fs::read_to_string(&file).map_err(|source| ReadError::Io {
            path: file.clone(),
            source,
        })?;
        if !text.contains("pub struct") {
            continue;
        }
        let parsed = syn::parse_file(&text).map_err(|source| ReadError::Rust {
            path: file.clone(),
            source,
        })?;
        for item in parsed.items {
            let syn::Item::Struct(s) = item else { continue };
            if !s.generics.params.is_empty() {
                continue;
            }
            let form = match &s.fields {
                syn::Fields::Named(named) => StructForm::Named(
                    named
                        .named
                        .iter()
                        .filter_map(|f| Some((f.ident.as_ref()?.to_string(), shape(&f.ty))))
                        .collect(),
                ),
                syn::Fields::Unnamed(unnamed)
                    if unnamed.unnamed.len() == 1
                        && unnamed.unnamed.iter().all(|f| {
                            shape(&f.ty) == Shape::Path("serde_json::Value".to_owned())
                        }) =>
                {
                    StructForm::Json
                }
                _ => continue,
            };
            let mut path = module.clone();
            path.push(s.ident.to_string());
            out.insert(path.join("::"), form);
        }
    }
    Ok(out)
}

fn shape(ty: &syn::Type) -> Shape {
    let syn::Type::Path(p) = ty else {
        return Shape::Path(String::new());
    };
    let Some(last) = p.path.segments.last() else {
        return Shape::Path(String::new());
    };
    let args: Vec<Shape> = match &last.arguments {
        syn::PathArguments::AngleBracketed(a) => a
            .args
            .iter()
            .filter_map(|arg| match arg {
                syn::GenericArgument::Type(t) => Some(shape(t)),
                _ => None,
            })
            .collect(),
        _ => Vec::new(),
    };
    let one =
        |args: &[Shape]| Box::new(args.first().cloned().unwrap_or(Shape::Path(String::new())));
    match (last.ident.to_string().as_str(), args.as_slice()) {
        ("Option", [_]) => Shape::Option(one(&args)),
        ("Vec", [_]) => Shape::Vec(one(&args)),
        ("Box", [_]) => Shape::Boxed(one(&args)),
        ("BTreeMap", [k, v]) => Shape::Map(Box::new(k.clone()), Box::new(v.clone())),
        _ => {
            let segments: Vec<String> = p
                .path
                .segments
                .iter()
                .map(|s| s.ident.to_string())
                .skip_while(|s| s == "crate")
                .collect();
            Shape::Path(segments.join("::"))
        }
    }
}

/// `generateName`, `generate_name`, `type_`, `externalIPs` → the same key: k8s-openapi's
/// names are its JSON names in snake case, with a `_` after keywords.
fn name_key(name: &str) -> String {
    name.trim_start_matches("r#")
        .chars()
        .filter(|c| *c != '_')
        .flat_map(char::to_lowercase)
        .collect()
}

/// Embedded structs whose protobuf field keeps an older name: `Probe`'s `ProbeHandler`
/// was `Handler`, and its field number and name stayed.
const RENAMED_EMBEDDED: &[(&str, &str)] = &[("api.core.v1.ProbeHandler", "handler")];

/// Whether `field` is a Go-embedded struct: named as its type, first letter lowered.
fn is_embedded(field: &ProtoField) -> bool {
    if RENAMED_EMBEDDED.contains(&(field.ty.as_str(), field.name.as_str())) {
        return true;
    }
    let type_name = field.ty.rsplit('.').next().unwrap_or("");
    let mut chars = type_name.chars();
    chars.next().is_some_and(|first| {
        let lowered: String = first.to_lowercase().chain(chars).collect();
        lowered == field.name
    })
}

struct Deriver<'a> {
    messages: &'a BTreeMap<String, ProtoMessage>,
    presence: &'a Presence,
}

impl Deriver<'_> {
    /// Maps `message`'s fields onto a struct's; returns the fields and the struct fields
    /// nothing filled.
    fn map_message(
        &self,
        message: &ProtoMessage,
        struct_fields: &[(String, Shape)],
    ) -> (Vec<FieldDef>, Vec<String>) {
        let mut mapped = Vec::new();
        self.map_into(message, struct_fields, &[], &[], &mut mapped);
        let filled: BTreeSet<&str> = mapped.iter().map(|f| f.rust_field.as_str()).collect();
        let unmapped = struct_fields
            .iter()
            .filter(|(name, _)| !filled.contains(name.as_str()))
            .map(|(name, _)| name.clone())
            .collect();
        (mapped, unmapped)
    }

    fn map_into(
        &self,
        message: &ProtoMessage,
        struct_fields: &[(String, Shape)],
        numbers: &[u32],
        names: &[String],
        out: &mut Vec<FieldDef>,
    ) {
        for field in &message.fields {
            let mut numbers = numbers.to_vec();
            numbers.push(field.number);
            let mut names = names.to_vec();
            names.push(field.name.clone());
            let key = name_key(&field.name);
            if let Some((rust_field, shape)) =
                struct_fields.iter().find(|(n, _)| name_key(n) == key)
            {
                if let Some((store, codec)) = self.store_and_codec(message, field, shape) {
                    out.push(FieldDef {
                        numbers,
                        proto_names: names,
                        rust_field: rust_field.clone(),
                        store,
                        codec,
                        versions: Versions::new(),
                    });
                }
                continue;
            }
            // A struct Go embeds (`json:",inline"`) is flattened into its parent by
            // k8s-openapi; go-to-protobuf names such a field after its type
            // (`volumeSource`, `localObjectReference`), which a named field never is.
            if field.label == Label::Optional && is_embedded(field) {
                if let Some(inner) = self.messages.get(&field.ty) {
                    self.map_into(inner, struct_fields, &numbers, &names, out);
                }
            }
        }
    }

    fn store_and_codec(
        &self,
        message: &ProtoMessage,
        field: &ProtoField,
        shape: &Shape,
    ) -> Option<(Store, Codec)> {
        if message.full_name == "apimachinery.pkg.apis.meta.v1.ObjectMeta"
            && field.name == "managedFields"
        {
            let Shape::Option(inner) = shape else {
                return None;
            };
            let Shape::Vec(leaf) = &**inner else {
                return None;
            };
            return Some((Store::ManagedFields, self.codec(&field.ty, leaf)?));
        }
        match (&field.label, shape) {
            (Label::Repeated, Shape::Vec(leaf)) => {
                Some((Store::Repeated, self.codec(&field.ty, leaf)?))
            }
            (Label::Repeated, Shape::Option(inner)) => match &**inner {
                Shape::Vec(leaf) => Some((Store::OptionalRepeated, self.codec(&field.ty, leaf)?)),
                _ => None,
            },
            (Label::Map(key), Shape::Map(k, v)) => {
                (key == "string" && **k == Shape::Path("std::string::String".into()))
                    .then_some(())?;
                Some((Store::Map, self.codec(&field.ty, v)?))
            }
            (Label::Map(key), Shape::Option(inner)) => match &**inner {
                Shape::Map(k, v)
                    if key == "string" && **k == Shape::Path("std::string::String".into()) =>
                {
                    Some((Store::OptionalMap, self.codec(&field.ty, v)?))
                }
                _ => None,
            },
            (Label::Optional, Shape::Option(inner)) => match &**inner {
                Shape::Boxed(leaf) => Some((Store::Boxed, self.codec(&field.ty, leaf)?)),
                leaf => {
                    let codec = self.codec(&field.ty, leaf)?;
                    let omit = self
                        .presence
                        .get(&(message.full_name.clone(), field.name.clone()))
                        .is_some_and(|p| p == "omitempty");
                    Some((
                        if omit {
                            Store::OmitEmpty
                        } else {
                            Store::Optional
                        },
                        codec,
                    ))
                }
            },
            (Label::Optional, leaf) => Some((Store::Value, self.codec(&field.ty, leaf)?)),
            _ => None,
        }
    }

    /// The codec that reads proto type `ty` into a value of shape `leaf`, if they agree.
    fn codec(&self, ty: &str, leaf: &Shape) -> Option<Codec> {
        if let Some((_, codec, rust)) = LEAVES.iter().find(|(p, _, _)| *p == ty) {
            return (*leaf == Shape::Path((*rust).to_owned())).then_some(Codec::Leaf(codec));
        }
        let message = self.messages.get(ty)?;
        if let Shape::Vec(inner) = leaf {
            let string_list = matches!(message.fields.as_slice(),
                [f] if f.name == "items" && f.number == 1 && f.label == Label::Repeated && f.ty == "string");
            return (string_list && **inner == Shape::Path("std::string::String".into()))
                .then_some(Codec::Leaf(STRING_LIST));
        }
        (*leaf == Shape::Path(rust_path(ty))).then(|| Codec::Message(ty.to_owned()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn versions_round_trip() {
        for text in ["33-37", "33,35-37", "37"] {
            let parsed = parse_versions(text).expect("parses");
            assert_eq!(versions_text(&parsed), text);
        }
        assert_eq!(parse_versions(""), None);
    }

    #[test]
    fn names_meet_across_cases() {
        assert_eq!(name_key("externalIPs"), name_key("external_ips"));
        assert_eq!(name_key("type"), name_key("type_"));
        assert_eq!(name_key("generateName"), name_key("generate_name"));
    }

    #[test]
    fn the_checked_in_table_reads_and_writes_back() {
        let table = ProtobufTable::builtin().expect("the checked-in table parses");
        let pod = &table.messages["api.core.v1.Pod"];
        assert!(pod.fields.iter().any(|f| f.rust_field == "spec"));
        assert_eq!(table.to_text(), BUILTIN);
    }
}
