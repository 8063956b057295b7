//! The real CRDs of `../shared/crds`: each installed through the API, Established and
//! served; an object built from its storage schema (required fields filled from their
//! types, enums, formats, patterns and defaults) accepted; then broken (a wrong type, a
//! missing required field, a value outside an enum) and answered with the right causes.

use std::path::{Path, PathBuf};

use regex::Regex;
use serde::Deserialize;
use serde_json::{json, Map, Value};
use test_apiserver::TestApiServer;

use crate::support::*;

fn corpus_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared/crds")
}

fn crds_of(path: &Path) -> Vec<Value> {
    let text = std::fs::read_to_string(path).unwrap();
    serde_yaml_ng::Deserializer::from_str(&text)
        .map(|doc| Value::deserialize(doc).unwrap())
        .filter(|v| v["kind"] == "CustomResourceDefinition")
        .collect()
}

const STRING_CANDIDATES: &[&str] = &[
    "abc",
    "a",
    "example",
    "example.com",
    "a1",
    "1",
    "10",
    "1s",
    "30s",
    "1m",
    "5m",
    "1h",
    "http://example.com",
    "https://example.com",
    "/",
    "/abc",
    "Abc",
    "A",
    "a-b",
    "v1",
    "1.0.0",
    "v1.0.0",
    "abc.example.com/abc",
    "example.com/abc",
    "10.0.0.1",
    "10.0.0.0/8",
    "*",
    "*.example.com",
    "abc=def",
    "ABC",
    "1Gi",
    "100m",
    "0",
    "true",
    "HTTP",
    "TCP",
];

/// A string the schema accepts: by format, else the first candidate matching the
/// pattern and length bounds.
fn string_for(s: &Value) -> Value {
    let by_format = match s["format"].as_str().unwrap_or_default() {
        "date-time" => Some("2024-01-01T00:00:00Z"),
        "date" => Some("2024-01-01"),
        "byte" => Some("YWJj"),
        "duration" => Some("1s"),
        "uuid" => Some("123e4567-e89b-12d3-a456-426614174000"),
        "ipv4" => Some("10.0.0.1"),
        "ipv6" => Some("::1"),
        "cidr" => Some("10.0.0.0/8"),
        "hostname" => Some("example.com"),
        "uri" => Some("https://example.com"),
        "email" => Some("a@example.com"),
        _ => None,
    };
    let min = s["minLength"].as_u64().unwrap_or(0) as usize;
    let max = s["maxLength"].as_u64().map_or(usize::MAX, |m| m as usize);
    let pattern = s["pattern"].as_str().and_then(|p| Regex::new(p).ok());
    let fits = |c: &str| {
        let n = c.chars().count();
        n >= min && n <= max && pattern.as_ref().is_none_or(|r| r.is_match(c))
    };
    if let Some(f) = by_format.filter(|f| fits(f)) {
        return json!(f);
    }
    if let Some(c) = STRING_CANDIDATES.iter().find(|c| fits(c)) {
        return json!(c);
    }
    json!("a".repeat(min.max(1)))
}

fn number_for(s: &Value, integer: bool) -> Value {
    let mut n = s["minimum"].as_f64().unwrap_or(0.0).max(
        if s["maximum"].as_f64().is_some_and(|m| m < 0.0) {
            f64::MIN
        } else {
            0.0
        },
    );
    if s["exclusiveMinimum"].as_bool() == Some(true) {
        n += 1.0;
    }
    if let Some(m) = s["multipleOf"].as_f64() {
        n = (n / m).ceil() * m;
    }
    if let Some(max) = s["maximum"].as_f64() {
        n = n.min(max);
    }
    if integer {
        json!(n.ceil() as i64)
    } else {
        json!(n)
    }
}

/// A minimal value `s` accepts: defaults, first enum values, required fields filled.
fn minimal(s: &Value) -> Value {
    if let Some(d) = s.get("default") {
        return d.clone();
    }
    if let Some(first) = s["enum"].as_array().and_then(|e| e.first()) {
        return first.clone();
    }
    if s["x-kubernetes-int-or-string"] == true {
        return json!(1);
    }
    match s["type"].as_str().unwrap_or_default() {
        "object" => {
            let mut obj = Map::new();
            let props = s["properties"].as_object();
            for r in s["required"]
                .as_array()
                .into_iter()
                .flatten()
                .filter_map(Value::as_str)
            {
                let sub = props
                    .and_then(|p| p.get(r))
                    .or_else(|| s.get("additionalProperties").filter(|a| a.is_object()))
                    .cloned()
                    .unwrap_or(json!({"type": "string"}));
                obj.insert(r.to_owned(), minimal(&sub));
            }
            if s["x-kubernetes-embedded-resource"] == true {
                obj.entry("apiVersion").or_insert(json!("v1"));
                obj.entry("kind").or_insert(json!("ConfigMap"));
            }
            let min_props = s["minProperties"].as_u64().unwrap_or(0) as usize;
            if let Some(extra) = s.get("additionalProperties").filter(|a| a.is_object()) {
                let mut k = 0;
                while obj.len() < min_props {
                    obj.insert(format!("key{k}"), minimal(extra));
                    k += 1;
                }
            }
            Value::Object(obj)
        }
        "array" => {
            let n = s["minItems"].as_u64().unwrap_or(0) as usize;
            let items = s.get("items").cloned().unwrap_or(json!({}));
            Value::Array((0..n).map(|i| distinct(minimal(&items), i)).collect())
        }
        "string" => string_for(s),
        "integer" => number_for(s, true),
        "number" => number_for(s, false),
        "boolean" => json!(false),
        _ => json!({}),
    }
}

/// Makes list items differ (sets and map keys must be unique).
fn distinct(v: Value, i: usize) -> Value {
    match v {
        Value::String(s) if i > 0 => json!(format!("{s}{i}")),
        Value::Number(n) if i > 0 => json!(n.as_f64().unwrap_or(0.0) + i as f64),
        Value::Object(mut m) if i > 0 => {
            if let Some(Value::String(s)) = m.get_mut("name") {
                s.push_str(&i.to_string());
            }
            Value::Object(m)
        }
        other => other,
    }
}

/// A required leaf of `spec` with no default (path below spec, its schema), breadth first.
fn required_leaf<'a>(spec_schema: &'a Value, obj: &Value) -> Option<(Vec<String>, &'a Value)> {
    let mut queue: Vec<(Vec<String>, &Value)> = vec![(Vec::new(), spec_schema)];
    while let Some((path, s)) = queue.first().cloned() {
        queue.remove(0);
        for r in s["required"]
            .as_array()
            .into_iter()
            .flatten()
            .filter_map(Value::as_str)
        {
            let Some(sub) = s["properties"].get(r) else {
                continue;
            };
            let mut p = path.clone();
            p.push(r.to_owned());
            if value_at(obj, &p).is_none() {
                continue;
            }
            let scalar = matches!(sub["type"].as_str(), Some("string" | "integer" | "boolean"));
            if scalar && sub.get("default").is_none() && sub["x-kubernetes-int-or-string"] != true {
                return Some((p, sub));
            }
            if sub["type"] == "object" && sub.get("default").is_none() {
                queue.push((p, sub));
            }
        }
    }
    None
}

fn value_at<'a>(v: &'a Value, path: &[String]) -> Option<&'a Value> {
    path.iter().try_fold(v, |v, k| v.get(k))
}

fn value_at_mut<'a>(v: &'a mut Value, path: &[String]) -> Option<&'a mut Value> {
    path.iter().try_fold(v, |v, k| v.get_mut(k))
}

fn has_cause(body: &Value, reason: &str, field: &str) -> bool {
    body["details"]["causes"].as_array().is_some_and(|c| {
        c.iter()
            .any(|c| c["reason"] == reason && c["field"] == field)
    })
}

#[derive(Default, Debug)]
struct Exercised {
    crds: usize,
    wrong_type: usize,
    missing: usize,
    enums: usize,
}

async fn exercise(crd: &Value, seen: &mut Exercised) {
    let name = crd["metadata"]["name"].as_str().unwrap().to_owned();
    let server = TestApiServer::builder().start().await.unwrap();
    let created = post(&server, CRDS, crd).await;
    assert_eq!(created.code, 201, "{name}: {}", created.body);
    let established = created.body["status"]["conditions"]
        .as_array()
        .unwrap()
        .iter()
        .any(|c| c["type"] == "Established" && c["status"] == "True");
    assert!(established, "{name} is not Established");
    let group = crd["spec"]["group"].as_str().unwrap();
    let plural = crd["spec"]["names"]["plural"].as_str().unwrap();
    let kind = crd["spec"]["names"]["kind"].as_str().unwrap();
    let namespaced = crd["spec"]["scope"] == "Namespaced";
    let versions = crd["spec"]["versions"].as_array().unwrap();
    let collection = |v: &str| {
        if namespaced {
            format!("/apis/{group}/{v}/namespaces/default/{plural}")
        } else {
            format!("/apis/{group}/{v}/{plural}")
        }
    };
    for v in versions {
        let code = get(&server, &collection(v["name"].as_str().unwrap()))
            .await
            .code;
        let want = if v["served"] == true { 200 } else { 404 };
        assert_eq!(code, want, "{name} {}", v["name"]);
    }
    let version = versions
        .iter()
        .find(|v| v["storage"] == true && v["served"] == true)
        .or_else(|| versions.iter().find(|v| v["served"] == true))
        .unwrap();
    let v = version["name"].as_str().unwrap();
    let schema = &version["schema"]["openAPIV3Schema"];
    let mut obj = minimal(schema);
    obj["apiVersion"] = json!(format!("{group}/{v}"));
    obj["kind"] = json!(kind);
    obj["metadata"] = json!({"name": "sample"});
    let path = collection(v);
    let accepted = post(&server, &path, &obj).await;
    assert_eq!(
        accepted.code, 201,
        "{name}: the minimal {obj} was rejected: {}",
        accepted.body
    );
    delete(&server, &format!("{path}/sample")).await;
    seen.crds += 1;

    let spec_schema = &schema["properties"]["spec"];
    let required = required_leaf(spec_schema, &obj["spec"]);
    let wrong_target = required.clone().or_else(|| {
        spec_schema["properties"].as_object().and_then(|props| {
            props
                .iter()
                .find(|(_, p)| matches!(p["type"].as_str(), Some("string" | "integer" | "boolean")))
                .map(|(k, p)| (vec![k.clone()], p))
        })
    });
    if let Some((leaf, leaf_schema)) = wrong_target {
        let field = format!("spec.{}", leaf.join("."));
        let mut wrong = obj.clone();
        if !wrong["spec"].is_object() {
            wrong["spec"] = json!({});
        }
        let wrong_value = if leaf_schema["type"] == "string" {
            json!(12345)
        } else {
            json!("text")
        };
        let (last, parent) = leaf.split_last().unwrap();
        let mut parent_path = vec!["spec".to_owned()];
        parent_path.extend(parent.iter().cloned());
        value_at_mut(&mut wrong, &parent_path).unwrap()[last] = wrong_value;
        let answer = post(&server, &path, &wrong).await;
        assert_eq!(
            answer.code, 422,
            "{name}: a wrong type at {field} was accepted"
        );
        assert!(
            has_cause(&answer.body, "FieldValueTypeInvalid", &field),
            "{name}: {}",
            answer.body
        );
        seen.wrong_type += 1;
    }
    if let Some((leaf, _)) = required {
        let field = format!("spec.{}", leaf.join("."));
        let mut full = vec!["spec".to_owned()];
        full.extend(leaf.clone());
        let mut missing = obj.clone();
        let (last, parent) = full.split_last().unwrap();
        value_at_mut(&mut missing, parent)
            .unwrap()
            .as_object_mut()
            .unwrap()
            .remove(last);
        let answer = post(&server, &path, &missing).await;
        assert_eq!(answer.code, 422, "{name}: a missing {field} was accepted");
        assert!(
            has_cause(&answer.body, "FieldValueRequired", &field),
            "{name}: {}",
            answer.body
        );
        seen.missing += 1;
    }

    let enum_prop = spec_schema["properties"].as_object().and_then(|props| {
        props
            .iter()
            .find(|(_, p)| p["type"] == "string" && p["enum"].is_array())
    });
    if let Some((prop, _)) = enum_prop {
        let mut outside = obj.clone();
        if !outside["spec"].is_object() {
            outside["spec"] = json!({});
        }
        outside["spec"][prop] = json!("surely-not-allowed");
        let answer = post(&server, &path, &outside).await;
        assert_eq!(
            answer.code, 422,
            "{name}: spec.{prop} outside its enum was accepted"
        );
        let field = format!("spec.{prop}");
        assert!(
            has_cause(&answer.body, "FieldValueNotSupported", &field),
            "{name}: {}",
            answer.body
        );
        seen.enums += 1;
    }

    let gone = delete(&server, &format!("{CRDS}/{name}")).await;
    assert_eq!(gone.code, 200, "{name}");
    assert_eq!(get(&server, &path).await.code, 404);
}

#[tokio::test]
async fn every_real_crd_installs_serves_and_validates() {
    let mut files: Vec<PathBuf> = std::fs::read_dir(corpus_dir())
        .expect("the shared CRD corpus")
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "yaml"))
        .collect();
    files.sort();
    let mut seen = Exercised::default();
    for file in &files {
        for crd in crds_of(file) {
            exercise(&crd, &mut seen).await;
        }
    }
    // 22 files, 25 CRDs (two files hold several).
    assert_eq!(seen.crds, 25, "{seen:?}");
    // Not every CRD has a scalar or a required field below spec, or an enum directly in it.
    assert_eq!(
        (seen.wrong_type, seen.missing, seen.enums),
        (18, 6, 7),
        "{seen:?}"
    );
}

#[tokio::test]
async fn the_builder_installs_a_multi_document_install_manifest() {
    let file = corpus_dir().join("argo-cd__multi.core-install.argoproj.io.yaml");
    let server = TestApiServer::builder()
        .crd_file(&file)
        .start()
        .await
        .unwrap();
    for plural in ["applications", "applicationsets", "appprojects"] {
        let list = get(
            &server,
            &format!("/apis/argoproj.io/v1alpha1/namespaces/default/{plural}"),
        )
        .await;
        assert_eq!(list.code, 200, "{plural}");
    }
}
