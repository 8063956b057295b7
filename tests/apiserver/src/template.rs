//! Object templates for fast bulk seeding: a fixture is built once with marker strings
//! in place of its varying values and stored once; each object is then made by
//! substituting the markers in the stored bytes, labels and selectable fields, with no
//! JSON building or encoding per object.

use std::collections::BTreeMap;

use bytes::Bytes;

use crate::store::{object_key, Obj};

/// The marker of variable `k`. It survives JSON encoding unchanged.
pub(crate) fn marker(k: usize) -> String {
    format!("@@{k}@@")
}

#[derive(Clone, Debug, PartialEq, Eq)]
enum Part {
    Lit(String),
    Var(usize),
}

fn split(s: &str) -> Vec<Part> {
    let mut parts = Vec::new();
    let mut rest = s;
    while let Some(start) = rest.find("@@") {
        let after = &rest[start + 2..];
        let var = after
            .find("@@")
            .and_then(|end| after[..end].parse::<usize>().ok().map(|k| (k, end)));
        match var {
            Some((k, end)) => {
                if start > 0 {
                    parts.push(Part::Lit(rest[..start].to_owned()));
                }
                parts.push(Part::Var(k));
                rest = &after[end + 2..];
            }
            None => {
                parts.push(Part::Lit(rest[..start + 2].to_owned()));
                rest = after;
            }
        }
    }
    if !rest.is_empty() {
        parts.push(Part::Lit(rest.to_owned()));
    }
    parts
}

/// Appends `parts` with variables substituted; `json` escapes them for use inside a JSON string.
fn fill(parts: &[Part], vars: &[String], json: bool, out: &mut String) {
    for p in parts {
        match p {
            Part::Lit(s) => out.push_str(s),
            Part::Var(k) => {
                let v = vars.get(*k).map(String::as_str).unwrap_or("");
                if json && v.bytes().any(|b| b == b'"' || b == b'\\' || b < 0x20) {
                    let quoted = serde_json::Value::from(v).to_string();
                    out.push_str(&quoted[1..quoted.len() - 1]);
                } else {
                    out.push_str(v);
                }
            }
        }
    }
}

fn filled(parts: &[Part], vars: &[String]) -> String {
    let mut s = String::new();
    fill(parts, vars, false, &mut s);
    s
}

/// A stored object with variables.
pub(crate) struct ObjTemplate {
    bytes: Vec<Part>,
    name: Vec<Part>,
    namespace: Option<Vec<Part>>,
    uid: Vec<Part>,
    labels: Vec<(Vec<Part>, Vec<Part>)>,
    fields: Vec<(&'static str, Vec<Part>)>,
    size_hint: usize,
}

impl ObjTemplate {
    /// The template of objects shaped like `obj`, whose strings hold [`marker`]s.
    pub fn compile(obj: &Obj) -> Self {
        let text = String::from_utf8_lossy(&obj.bytes);
        Self {
            bytes: split(&text),
            name: split(&obj.name),
            namespace: obj.namespace.as_deref().map(split),
            uid: split(&obj.uid),
            labels: obj
                .labels
                .iter()
                .map(|(k, v)| (split(k), split(v)))
                .collect(),
            fields: obj.fields.iter().map(|(l, v)| (*l, split(v))).collect(),
            size_hint: obj.bytes.len() + 64,
        }
    }

    /// The object with these variable values, at resourceVersion `rv`.
    pub fn instantiate(&self, vars: &[String], rv: u64) -> Obj {
        let mut text = String::with_capacity(self.size_hint);
        fill(&self.bytes, vars, true, &mut text);
        let name = filled(&self.name, vars);
        let namespace = self.namespace.as_ref().map(|ns| filled(ns, vars));
        let labels: BTreeMap<String, String> = self
            .labels
            .iter()
            .map(|(k, v)| (filled(k, vars), filled(v, vars)))
            .collect();
        Obj {
            key: object_key(namespace.as_deref(), &name),
            name,
            namespace,
            uid: filled(&self.uid, vars),
            rv,
            bytes: Bytes::from(text),
            labels,
            fields: self
                .fields
                .iter()
                .map(|(l, v)| (*l, filled(v, vars)))
                .collect(),
            protobuf: std::sync::OnceLock::new(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn markers_split_and_fill_with_json_escaping() {
        let parts = split("a@@0@@b@@x@@@@1@@");
        assert_eq!(
            parts,
            vec![
                Part::Lit("a".into()),
                Part::Var(0),
                Part::Lit("b@@".into()),
                Part::Lit("x@@".into()),
                Part::Var(1)
            ]
        );
        let mut out = String::new();
        fill(&parts, &["q\"".into(), "z".into()], true, &mut out);
        assert_eq!(out, "aq\\\"b@@x@@z");
    }

    #[test]
    fn the_pod_template_makes_exactly_the_fixture_pod() {
        use crate::fixtures::{pod, pod_template, pod_vars, POD_VARS};
        use crate::resource::selectable_fields;
        use serde_json::Value;

        let fields = selectable_fields("", "pods");
        let stamp = |mut v: Value, uid: &str| {
            let meta = v["metadata"].as_object_mut().unwrap();
            meta.insert("uid".into(), Value::from(uid));
            meta.insert(
                "creationTimestamp".into(),
                Value::from("2025-01-01T00:00:00Z"),
            );
            meta.insert("generation".into(), Value::from(1));
            v
        };
        let template = stamp(pod_template(), &marker(POD_VARS));
        let compiled = ObjTemplate::compile(
            &Obj::build_stamped(template, 0, Some(marker(POD_VARS + 1)), fields).unwrap(),
        );
        for i in [0, 1, 7, 12_345, 99_999] {
            let (ns, name) = (format!("ns-{}", i % 3), format!("pod-{i}"));
            let mut vars = pod_vars(&ns, &name, i);
            vars.push("uid-x".into());
            vars.push("42".into());
            let fast = compiled.instantiate(&vars, 42);
            let slow = Obj::build_stamped(
                stamp(pod(&ns, &name, i), "uid-x"),
                42,
                Some("42".into()),
                fields,
            )
            .unwrap();
            let parse = |b: &[u8]| serde_json::from_slice::<Value>(b).unwrap();
            assert_eq!(parse(&fast.bytes), parse(&slow.bytes), "pod {i}");
            assert_eq!(
                (&fast.key, &fast.name, &fast.namespace),
                (&slow.key, &slow.name, &slow.namespace)
            );
            assert_eq!(fast.uid, slow.uid);
            assert_eq!(fast.labels, slow.labels);
            assert_eq!(fast.fields, slow.fields);
            assert_eq!(fast.rv, slow.rv);
        }
    }
}
