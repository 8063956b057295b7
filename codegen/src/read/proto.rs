//! Kubernetes `generated.proto` files (proto2, as go-to-protobuf writes them) → messages
//! with their fields' numbers, labels and types.
//!
//! Only the subset go-to-protobuf emits is read: `syntax`, `package`, `import`, `option`,
//! top-level `message` blocks of `optional`/`repeated`/`map<K, V>` fields, and comments.
//! Anything else is an error naming the file and line, so that a new construct in a later
//! Kubernetes version is noticed rather than misread.
//!
//! A *supplement* ([`read_supplement`]) adds what a later release's `.proto` files have over
//! the ones at hand: the checked-in `resources/protobuf-v1.37-fields.txt` carries Kubernetes
//! 1.37's additions, so that CI, which has only 1.36's files, derives 1.37's decoders too.
//! Its lines:
//!
//! ```text
//! # a comment
//! message api.core.v1.EvictionResponder       a message the base lacks, whole
//!   optional string name = 1;
//! fields api.core.v1.PodSpec                  fields added to a message of the base
//!   repeated .api.core.v1.EvictionResponder evictionResponders = 44;
//! ```
//!
//! Fields are written as in a `.proto` file, message types absolute (a relative one is taken
//! in its message's package). A supplement only adds: a `message` the base has, a `fields` it
//! lacks, or a field whose name or number its message already uses is an error, so that a
//! changed field is never merged as a second one.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use super::ReadError;

/// How a field repeats.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Label {
    /// `optional T name = N;`
    Optional,
    /// `repeated T name = N;`
    Repeated,
    /// `map<K, T> name = N;` with the key's type.
    Map(String),
}

/// One field of a message.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ProtoField {
    /// The field's name, which is its JSON name (`generateName`).
    pub name: String,
    /// The field number.
    pub number: u32,
    /// Optional, repeated or a map.
    pub label: Label,
    /// A scalar (`string`, `int32`, …) or a message's full name (`api.core.v1.PodSpec`).
    pub ty: String,
}

/// One message.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ProtoMessage {
    /// The full name, `api.core.v1.Pod`.
    pub full_name: String,
    /// Its fields in the order written.
    pub fields: Vec<ProtoField>,
}

/// The scalar types of proto2 (go-to-protobuf uses `string`, `bytes`, `int32`, `int64`,
/// `bool` and `double` of these).
pub const SCALARS: &[&str] = &[
    "string", "bytes", "int32", "int64", "uint32", "uint64", "sint32", "sint64", "fixed32",
    "fixed64", "sfixed32", "sfixed64", "bool", "double", "float",
];

/// Every message of every `*.proto` file below `dir`, by full name.
pub fn read_dir(dir: &Path) -> Result<BTreeMap<String, ProtoMessage>, ReadError> {
    let mut files = Vec::new();
    collect(dir, &mut files)?;
    let mut messages = BTreeMap::new();
    for file in files {
        let text = std::fs::read_to_string(&file).map_err(|source| ReadError::Io {
            path: file.clone(),
            source,
        })?;
        for m in parse(&file, &text)? {
            messages.insert(m.full_name.clone(), m);
        }
    }
    Ok(messages)
}

/// Adds the supplement at `path` (see the module docs) to `messages`.
pub fn read_supplement(
    path: &Path,
    messages: &mut BTreeMap<String, ProtoMessage>,
) -> Result<(), ReadError> {
    let text = std::fs::read_to_string(path).map_err(|source| ReadError::Io {
        path: path.to_owned(),
        source,
    })?;
    merge_supplement(path, &text, messages)
}

/// Adds the supplement `text` to `messages`; `path` names it in errors.
pub fn merge_supplement(
    path: &Path,
    text: &str,
    messages: &mut BTreeMap<String, ProtoMessage>,
) -> Result<(), ReadError> {
    let invalid = |line: usize, problem: String| ReadError::Invalid {
        path: path.to_owned(),
        problem: format!("line {}: {problem}", line + 1),
    };
    let full_name = |n: usize, name: &str| {
        let name = name.trim();
        let valid = name.contains('.')
            && name.split('.').all(|part| {
                !part.is_empty() && part.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
            });
        if valid {
            Ok(name.to_owned())
        } else {
            Err(invalid(n, format!("not a message's full name: {name:?}")))
        }
    };
    let not_in_base = |n: usize, name: &str| {
        invalid(
            n,
            format!("message {name} is not in the base protos: add it whole with `message {name}`"),
        )
    };
    // The message fields are being added to, and each added field's line, message and type,
    // to check the type once every message is in.
    let mut current: Option<String> = None;
    let mut added: Vec<(usize, String, String)> = Vec::new();
    for (n, raw) in text.lines().enumerate() {
        let line = raw.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        if let Some(name) = line.strip_prefix("message ") {
            let name = full_name(n, name)?;
            if messages.contains_key(&name) {
                return Err(invalid(
                    n,
                    format!(
                        "message {name} is in the base protos already: \
                         list its new fields under `fields {name}`"
                    ),
                ));
            }
            messages.insert(
                name.clone(),
                ProtoMessage {
                    full_name: name.clone(),
                    fields: Vec::new(),
                },
            );
            current = Some(name);
        } else if let Some(name) = line.strip_prefix("fields ") {
            let name = full_name(n, name)?;
            if !messages.contains_key(&name) {
                return Err(not_in_base(n, &name));
            }
            current = Some(name);
        } else {
            let Some(name) = &current else {
                return Err(invalid(
                    n,
                    "a field before any `message` or `fields` line".into(),
                ));
            };
            let package = name.rsplit_once('.').map_or("", |(package, _)| package);
            let field = parse_field(line, package).ok_or_else(|| {
                invalid(n, format!("not a field go-to-protobuf writes: {line:?}"))
            })?;
            let message = messages.get_mut(name).ok_or_else(|| not_in_base(n, name))?;
            if let Some(old) = message
                .fields
                .iter()
                .find(|f| f.name == field.name || f.number == field.number)
            {
                return Err(invalid(
                    n,
                    format!(
                        "{name} has field {} = {} already, so {} = {} is no addition",
                        old.name, old.number, field.name, field.number
                    ),
                ));
            }
            added.push((n, name.clone(), field.ty.clone()));
            message.fields.push(field);
        }
    }
    // A misspelt type would leave its field silently unmapped by every struct.
    for (n, name, ty) in added {
        if !SCALARS.contains(&ty.as_str()) && !messages.contains_key(&ty) {
            return Err(invalid(n, format!("{name}: no message {ty}")));
        }
    }
    Ok(())
}

fn collect(dir: &Path, out: &mut Vec<PathBuf>) -> Result<(), ReadError> {
    let io = |source| ReadError::Io {
        path: dir.to_owned(),
        source,
    };
    let mut entries: Vec<PathBuf> = std::fs::read_dir(dir)
        .map_err(io)?
        .map(|e| e.map(|e| e.path()))
        .collect::<Result<_, _>>()
        .map_err(io)?;
    entries.sort();
    for path in entries {
        if path.is_dir() {
            collect(&path, out)?;
        } else if path.extension().is_some_and(|e| e == "proto") {
            out.push(path);
        }
    }
    Ok(())
}

/// The messages of one file; `path` names it in errors.
pub fn parse(path: &Path, text: &str) -> Result<Vec<ProtoMessage>, ReadError> {
    let invalid = |line: usize, problem: String| ReadError::Invalid {
        path: path.to_owned(),
        problem: format!("line {}: {problem}", line + 1),
    };
    let mut package: Option<String> = None;
    let mut messages = Vec::new();
    let mut current: Option<ProtoMessage> = None;
    let mut in_block_comment = false;
    for (n, raw) in text.lines().enumerate() {
        let mut line = raw.split("//").next().unwrap_or("").trim();
        // The licence header is a `/* … */` block; go-to-protobuf writes no other.
        if in_block_comment || line.starts_with("/*") {
            match raw.split_once("*/") {
                Some((_, rest)) => {
                    in_block_comment = false;
                    line = rest.trim();
                }
                None => {
                    in_block_comment = true;
                    continue;
                }
            }
        }
        if line.is_empty() {
            continue;
        }
        if let Some(message) = current.as_mut() {
            if line == "}" {
                messages.extend(current.take());
                continue;
            }
            let field = parse_field(line, package.as_deref().unwrap_or("")).ok_or_else(|| {
                invalid(n, format!("not a field go-to-protobuf writes: {line:?}"))
            })?;
            message.fields.push(field);
            continue;
        }
        if let Some(rest) = line.strip_prefix("package ") {
            package = Some(rest.trim_end_matches(';').trim().to_owned());
        } else if let Some(rest) = line.strip_prefix("message ") {
            let name = rest.trim_end_matches('{').trim();
            let Some(package) = &package else {
                return Err(invalid(n, "a message before the package".into()));
            };
            current = Some(ProtoMessage {
                full_name: format!("{package}.{name}"),
                fields: Vec::new(),
            });
        } else if !(line.starts_with("syntax ")
            || line.starts_with("import ")
            || line.starts_with("option "))
        {
            return Err(invalid(n, format!("unexpected statement {line:?}")));
        }
    }
    if let Some(m) = current {
        return Err(ReadError::Invalid {
            path: path.to_owned(),
            problem: format!("message {} is not closed", m.full_name),
        });
    }
    Ok(messages)
}

/// `optional string name = 1;`, `repeated Container containers = 2;`,
/// `map<string, string> labels = 11;`.
fn parse_field(line: &str, package: &str) -> Option<ProtoField> {
    let body = line.strip_suffix(';')?.trim();
    let (decl, number) = body.rsplit_once('=')?;
    let number: u32 = number.trim().parse().ok()?;
    let decl = decl.trim();
    let (label, ty, name) = if let Some(rest) = decl.strip_prefix("map<") {
        let (types, name) = rest.split_once('>')?;
        let (key, value) = types.split_once(',')?;
        (Label::Map(key.trim().to_owned()), value.trim(), name.trim())
    } else {
        let mut words = decl.split_whitespace();
        let label = match words.next()? {
            "optional" => Label::Optional,
            "repeated" => Label::Repeated,
            _ => return None,
        };
        let ty = words.next()?;
        let name = words.next()?;
        if words.next().is_some() {
            return None;
        }
        (label, ty, name)
    };
    if name.is_empty() || !name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_') {
        return None;
    }
    let ty = if SCALARS.contains(&ty) {
        ty.to_owned()
    } else if let Some(absolute) = ty.strip_prefix('.') {
        absolute.to_owned()
    } else {
        format!("{package}.{ty}")
    };
    Some(ProtoField {
        name: name.to_owned(),
        number,
        label,
        ty,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_what_go_to_protobuf_writes() {
        let text = r#"
syntax = "proto2";

package api.core.v1;

import "apimachinery/pkg/api/resource/generated.proto";

// Package-wide variables from generator "generated".
option go_package = "k8s.io/api/core/v1";

// Pod is a collection of containers.
message Pod {
  // Standard object's metadata.
  // +optional
  optional .apimachinery.pkg.apis.meta.v1.ObjectMeta metadata = 1;

  optional PodSpec spec = 2;

  repeated string finalizers = 3;

  map<string, .apimachinery.pkg.api.resource.Quantity> overhead = 4;
}
"#;
        let messages = parse(Path::new("x.proto"), text).expect("parses");
        assert_eq!(messages.len(), 1);
        let pod = &messages[0];
        assert_eq!(pod.full_name, "api.core.v1.Pod");
        let fields: Vec<_> = pod
            .fields
            .iter()
            .map(|f| (f.number, f.name.as_str(), f.label.clone(), f.ty.as_str()))
            .collect();
        assert_eq!(
            fields,
            [
                (
                    1,
                    "metadata",
                    Label::Optional,
                    "apimachinery.pkg.apis.meta.v1.ObjectMeta"
                ),
                (2, "spec", Label::Optional, "api.core.v1.PodSpec"),
                (3, "finalizers", Label::Repeated, "string"),
                (
                    4,
                    "overhead",
                    Label::Map("string".into()),
                    "apimachinery.pkg.api.resource.Quantity"
                ),
            ]
        );
    }

    fn base() -> BTreeMap<String, ProtoMessage> {
        let text = "package api.core.v1;\nmessage PodSpec {\n  optional string hostname = 16;\n}\n";
        parse(Path::new("base.proto"), text)
            .expect("parses")
            .into_iter()
            .map(|m| (m.full_name.clone(), m))
            .collect()
    }

    #[test]
    fn a_supplement_adds_messages_and_fields() {
        let mut messages = base();
        // `\x20` keeps the indentation a `\` continuation would strip.
        let text = "# 1.37\n\
                    message api.core.v1.EvictionResponder\n\
                    \x20 optional string name = 1;\n\
                    fields api.core.v1.PodSpec\n\
                    \x20 repeated .api.core.v1.EvictionResponder evictionResponders = 44;\n\
                    \x20 map<string, EvictionResponder> byName = 45;\n";
        merge_supplement(Path::new("s.txt"), text, &mut messages).expect("merges");
        let spec = &messages["api.core.v1.PodSpec"];
        let added: Vec<_> = spec
            .fields
            .iter()
            .map(|f| (f.number, f.name.as_str(), f.ty.as_str()))
            .collect();
        assert_eq!(
            added,
            [
                (16, "hostname", "string"),
                (44, "evictionResponders", "api.core.v1.EvictionResponder"),
                (45, "byName", "api.core.v1.EvictionResponder"),
            ]
        );
        assert_eq!(messages["api.core.v1.EvictionResponder"].fields.len(), 1);
    }

    #[test]
    fn a_supplement_only_adds() {
        let cases = [
            (
                "message api.core.v1.PodSpec\n",
                "line 1: message api.core.v1.PodSpec is in the base",
            ),
            (
                "fields api.core.v1.Pod\n",
                "line 1: message api.core.v1.Pod is not in the base",
            ),
            ("  optional string x = 1;\n", "line 1: a field before"),
            (
                "fields api.core.v1.PodSpec\n  optional int64 hostname = 99;\n",
                "line 2: api.core.v1.PodSpec has field hostname = 16 already",
            ),
            (
                "fields api.core.v1.PodSpec\n  optional string renamed = 16;\n",
                "line 2: api.core.v1.PodSpec has field hostname = 16 already",
            ),
            (
                "fields api.core.v1.PodSpec\n  optional Missing m = 50;\n",
                "line 2: api.core.v1.PodSpec: no message api.core.v1.Missing",
            ),
            (
                "fields api.core.v1.PodSpec\n  oneof x {\n",
                "line 2: not a field",
            ),
            ("message Pod {\n", "line 1: not a message's full name"),
        ];
        for (text, expected) in cases {
            let err = merge_supplement(Path::new("s.txt"), text, &mut base()).expect_err(text);
            let err = err.to_string();
            assert!(err.starts_with("s.txt: "), "{err}");
            assert!(err.contains(expected), "{text:?}: {err}");
        }
    }

    #[test]
    fn refuses_what_it_does_not_know() {
        let err = parse(
            Path::new("x.proto"),
            "package a;\nmessage M {\n  oneof x {\n}\n",
        )
        .expect_err("oneof is not go-to-protobuf's");
        assert!(err.to_string().contains("x.proto: line 3"), "{err}");
        let err = parse(Path::new("y.proto"), "package a;\nmessage M {\n").expect_err("unclosed");
        assert!(err.to_string().contains("not closed"), "{err}");
    }
}
