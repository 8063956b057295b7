//! Derives the built-in schema table (`src/schema/builtin.json`) from the Kubernetes
//! OpenAPI v2 document again and fails when the checked-in table differs. Run with
//! `INFORMER_GEN_BLESS=1` to write the table anew after an intended change.
//!
//! The document is read from `$INFORMER_MERGE_OPENAPI`, else from
//! `/work/shared/openapi/v1.36/swagger.json`; without either the test says so and passes
//! (the table is checked in; only its derivation needs the document). Which fields the Go
//! zero value of a type holds (non-pointer structs, which the v3 documents mark with
//! `default: {}`, and required fields) comes from the OpenAPI v3 documents in
//! `$INFORMER_MERGE_OPENAPI_V3`, else `/work/shared/openapi/v1.35/v3` (the newest v3
//! documents at hand).

use std::collections::{BTreeMap, BTreeSet, VecDeque};
use std::path::{Path, PathBuf};

use serde_json::{json, Map, Value};

const DEFAULT_OPENAPI: &str = "/work/shared/openapi/v1.36/swagger.json";
const DEFAULT_OPENAPI_V3: &str = "/work/shared/openapi/v1.35/v3";
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
    let v3_dir = std::env::var_os("INFORMER_MERGE_OPENAPI_V3")
        .map_or_else(|| DEFAULT_OPENAPI_V3.into(), PathBuf::from);
    let Some(defaults) = defaults(&v3_dir) else {
        eprintln!(
            "{} is not readable: the table is not re-derived",
            v3_dir.display()
        );
        return;
    };
    let derived = derive(&doc, &defaults);
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
fn derive(doc: &Value, defaults: &Defaults) -> String {
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
        .map(|name| {
            format!(
                "{}: {}",
                json!(name),
                definition(defs, name, &defs[name], defaults)
            )
        })
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

/// For each v3 schema, the defaults of its properties: `{}` marks the Go type's
/// non-pointer struct fields, which its zero value holds as empty objects; a map list's key
/// fields' defaults stand in for keys an item leaves out.
type Defaults = BTreeMap<String, BTreeMap<String, Value>>;

fn defaults(dir: &Path) -> Option<Defaults> {
    let mut out = Defaults::new();
    let mut paths: Vec<PathBuf> = std::fs::read_dir(dir)
        .ok()?
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "json"))
        .collect();
    paths.sort();
    for path in paths {
        let doc: Value = serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
        for (name, schema) in doc["components"]["schemas"]
            .as_object()
            .into_iter()
            .flatten()
        {
            for (field, prop) in schema["properties"].as_object().into_iter().flatten() {
                if let Some(default) = prop.get("default") {
                    out.entry(name.clone())
                        .or_default()
                        .insert(field.clone(), default.clone());
                }
            }
        }
    }
    Some(out)
}

fn definition(defs: &Map<String, Value>, name: &str, def: &Value, defaults: &Defaults) -> Value {
    let own_defaults = defaults.get(name);
    let required: BTreeSet<&str> = def["required"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(Value::as_str)
        .collect();
    let mut fields = Map::new();
    for (name, prop) in def["properties"].as_object().into_iter().flatten() {
        let mut field = Map::new();
        let shape = shape(defs, prop);
        for (ext, key) in EXTENSIONS {
            if let Some(v) = prop.get(ext) {
                field.insert(key.to_owned(), v.clone());
            }
        }
        // What the Go zero value of the type holds in this field, when it is not a
        // scalar: an empty object for a non-pointer struct, null for a required pointer,
        // list or map.
        if shape != "scalar" {
            let struct_default = own_defaults
                .and_then(|d| d.get(name))
                .is_some_and(|d| d == &json!({}));
            if struct_default && shape.get("ref").is_some() {
                field.insert("zero".to_owned(), json!("object"));
            } else if required.contains(name.as_str()) {
                field.insert("zero".to_owned(), json!("null"));
            }
        }
        // The defaults of a map list's key fields, which stand in for keys an item
        // leaves out (structured-merge-diff reads them from the item type).
        if let (Some(keys), Some(item)) = (
            prop["x-kubernetes-list-map-keys"].as_array(),
            shape["list"]["ref"].as_str(),
        ) {
            let key_defaults: Map<String, Value> = keys
                .iter()
                .filter_map(Value::as_str)
                .filter_map(|k| {
                    let d = defaults.get(item)?.get(k)?;
                    Some((k.to_owned(), d.clone()))
                })
                .collect();
            if !key_defaults.is_empty() {
                field.insert("listMapKeyDefaults".to_owned(), Value::Object(key_defaults));
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
