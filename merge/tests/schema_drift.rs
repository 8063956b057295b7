//! Derives the built-in schema table (`src/schema/builtin.json`) from the Kubernetes
//! OpenAPI v2 document again and fails when the checked-in table differs. Run with
//! `INFORMER_GEN_BLESS=1` to write the table anew after an intended change.
//!
//! The document is read from `$INFORMER_MERGE_OPENAPI`, else from
//! `/work/shared/openapi/v1.36/swagger.json`; without either the test says so and passes
//! (the table is checked in; only its derivation needs the document).

use std::collections::{BTreeMap, BTreeSet, VecDeque};
use std::path::{Path, PathBuf};

use serde_json::{json, Map, Value};

const DEFAULT_OPENAPI: &str = "/work/shared/openapi/v1.36/swagger.json";
const SOURCE: &str = "Kubernetes v1.36.0 OpenAPI v2 (api/openapi-spec/swagger.json)";
const EXTENSIONS: [(&str, &str); 5] = [
    ("x-kubernetes-patch-strategy", "patchStrategy"),
    ("x-kubernetes-patch-merge-key", "patchMergeKey"),
    ("x-kubernetes-list-type", "listType"),
    ("x-kubernetes-list-map-keys", "listMapKeys"),
    ("x-kubernetes-map-type", "mapType"),
];

fn table_path() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("src/schema/builtin.json")
}

#[test]
fn checked_in_table_matches_the_openapi_document() {
    let source = std::env::var_os("INFORMER_MERGE_OPENAPI")
        .map_or_else(|| DEFAULT_OPENAPI.into(), PathBuf::from);
    let Ok(text) = std::fs::read_to_string(&source) else {
        eprintln!(
            "{} is not readable: the table is not re-derived",
            source.display()
        );
        return;
    };
    let doc: Value = serde_json::from_str(&text).unwrap();
    let derived = derive(&doc);
    let path = table_path();
    if std::env::var_os("INFORMER_GEN_BLESS").is_some() {
        std::fs::write(&path, &derived).unwrap();
    }
    let checked_in = std::fs::read_to_string(&path).unwrap();
    assert!(
        checked_in == derived,
        "{} differs from the table derived from {}; rerun with INFORMER_GEN_BLESS=1 and review the diff",
        path.display(),
        source.display()
    );
}

/// The table as text: the roots, then one definition a line, so that a change to the
/// document is a reviewable diff.
fn derive(doc: &Value) -> String {
    let defs = doc["definitions"].as_object().unwrap();
    let roots = roots(doc, defs);
    let mut reachable = BTreeSet::new();
    let mut queue: VecDeque<String> = roots.values().cloned().collect();
    while let Some(name) = queue.pop_front() {
        if !reachable.insert(name.clone()) {
            continue;
        }
        for prop in defs[&name]["properties"].as_object().into_iter().flatten() {
            collect_refs(prop.1, &mut queue);
        }
    }
    let mut out = format!("{{\n\"source\": {},\n\"roots\": {{\n", json!(SOURCE));
    let roots: Vec<String> = roots
        .iter()
        .map(|(k, v)| format!("{}: {}", json!(k), json!(v)))
        .collect();
    out.push_str(&roots.join(",\n"));
    out.push_str("\n},\n\"definitions\": {\n");
    let lines: Vec<String> = reachable
        .iter()
        .filter(|name| is_object(&defs[*name]))
        .map(|name| format!("{}: {}", json!(name), definition(defs, &defs[name])))
        .collect();
    out.push_str(&lines.join(",\n"));
    out.push_str("\n}\n}\n");
    out
}

/// `apiVersion/Kind` of every kind a PATCH path serves, to its definition.
fn roots(doc: &Value, defs: &Map<String, Value>) -> BTreeMap<String, String> {
    let gvk_key = |gvk: &Value| {
        let (group, version, kind) = (
            gvk["group"].as_str().unwrap(),
            gvk["version"].as_str().unwrap(),
            gvk["kind"].as_str().unwrap(),
        );
        if group.is_empty() {
            format!("{version}/{kind}")
        } else {
            format!("{group}/{version}/{kind}")
        }
    };
    let mut by_gvk = BTreeMap::new();
    for (name, def) in defs {
        for gvk in def["x-kubernetes-group-version-kind"]
            .as_array()
            .into_iter()
            .flatten()
        {
            by_gvk.insert(gvk_key(gvk), name.clone());
        }
    }
    let mut roots = BTreeMap::new();
    for ops in doc["paths"].as_object().unwrap().values() {
        for op in ops.as_object().unwrap().values() {
            if op["x-kubernetes-action"] == "patch" {
                let key = gvk_key(&op["x-kubernetes-group-version-kind"]);
                if let Some(name) = by_gvk.get(&key) {
                    roots.insert(key, name.clone());
                }
            }
        }
    }
    roots
}

fn ref_name(schema: &Value) -> Option<&str> {
    schema["$ref"].as_str()?.strip_prefix("#/definitions/")
}

fn collect_refs(schema: &Value, queue: &mut VecDeque<String>) {
    if let Some(name) = ref_name(schema) {
        queue.push_back(name.to_owned());
    }
    for nested in [&schema["items"], &schema["additionalProperties"]] {
        if nested.is_object() {
            collect_refs(nested, queue);
        }
    }
}

/// A definition is an object type when it has properties or says `type: object`
/// (`RawExtension`); `Quantity`, `Time`, `IntOrString` are scalars.
fn is_object(def: &Value) -> bool {
    def.get("properties").is_some() || def["type"] == "object"
}

fn shape(defs: &Map<String, Value>, schema: &Value) -> Value {
    if let Some(name) = ref_name(schema) {
        return if defs.get(name).is_some_and(is_object) {
            json!({"ref": name})
        } else {
            json!("scalar")
        };
    }
    match schema["type"].as_str() {
        Some("array") => json!({"list": shape(defs, &schema["items"])}),
        Some("object") if schema["additionalProperties"].is_object() => {
            json!({"map": shape(defs, &schema["additionalProperties"])})
        }
        _ => json!("scalar"),
    }
}

fn definition(defs: &Map<String, Value>, def: &Value) -> Value {
    let mut fields = Map::new();
    for (name, prop) in def["properties"].as_object().into_iter().flatten() {
        let mut field = Map::new();
        let shape = shape(defs, prop);
        for (ext, key) in EXTENSIONS {
            if let Some(v) = prop.get(ext) {
                field.insert(key.to_owned(), v.clone());
            }
        }
        if shape != "scalar" || !field.is_empty() {
            field.insert("type".to_owned(), shape);
            fields.insert(name.clone(), Value::Object(field));
        }
    }
    let mut out = Map::new();
    out.insert("fields".to_owned(), Value::Object(fields));
    if let Some(map_type) = def.get("x-kubernetes-map-type") {
        out.insert("mapType".to_owned(), map_type.clone());
    }
    Value::Object(out)
}
