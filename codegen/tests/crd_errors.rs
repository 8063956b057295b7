//! Bad CRD input yields one error naming the file, the CRD and the JSON path, never a panic.

use std::path::{Path, PathBuf};

use informer_gen::read::crd::{parse_file, read_paths, CrdErrorKind};

fn bad(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/crd-bad")
        .join(name)
}

/// Reads `name` and returns the error, checking its message names the file.
fn error_for(name: &str) -> (informer_gen::read::crd::CrdError, String) {
    let Err(err) = read_paths(&[bad(name)]) else {
        panic!("{name} was accepted");
    };
    let message = err.to_string();
    let file_name = Path::new(name).file_name().unwrap().to_str().unwrap();
    assert!(message.contains(file_name), "{message}");
    (err, message)
}

#[test]
fn text_that_is_not_yaml_names_the_file() {
    let (err, message) = error_for("not-yaml.yaml");
    assert!(matches!(err.kind, CrdErrorKind::Syntax(_)), "{message}");
    assert!(message.contains("not valid YAML or JSON"), "{message}");
}

#[test]
fn truncated_json_names_the_file() {
    let (err, message) = error_for("truncated.json");
    assert!(matches!(err.kind, CrdErrorKind::Syntax(_)), "{message}");
}

#[test]
fn a_document_that_is_not_a_kubernetes_object_is_rejected() {
    let (err, message) = error_for("not-an-object.yaml");
    assert!(
        matches!(err.kind, CrdErrorKind::NotAnObject(1)),
        "{message}"
    );
    assert!(message.contains("document 1"), "{message}");
}

#[test]
fn a_file_without_any_crd_is_rejected() {
    let (err, message) = error_for("no-crd.yaml");
    assert!(matches!(err.kind, CrdErrorKind::NoCrd), "{message}");
}

#[test]
fn a_crd_without_served_versions_names_the_crd() {
    let (err, message) = error_for("no-served-version.yaml");
    assert!(
        matches!(err.kind, CrdErrorKind::NoServedVersion),
        "{message}"
    );
    assert!(message.contains("CRD `sleepers.example.com`"), "{message}");
    assert!(message.contains("at `spec.versions`"), "{message}");
}

#[test]
fn an_untypeable_schema_names_crd_and_json_path() {
    let (err, message) = error_for("untypeable.yaml");
    assert!(matches!(err.kind, CrdErrorKind::Untypeable(_)), "{message}");
    assert!(message.contains("CRD `policies.example.com`"), "{message}");
    assert!(
        message.contains(
            "at `spec.versions[1].schema.openAPIV3Schema.properties.spec.properties.rules.items`"
        ),
        "{message}"
    );
}

#[test]
fn an_unknown_type_names_the_type_node() {
    let (_, message) = error_for("unknown-type.yaml");
    assert!(message.contains("CRD `things.example.com`"), "{message}");
    assert!(
        message.contains(
            "at `spec.versions[0].schema.openAPIV3Schema.properties.spec.properties.size.type`"
        ),
        "{message}"
    );
    assert!(message.contains("unknown type `bignum`"), "{message}");
}

#[test]
fn an_old_crd_api_version_is_named() {
    let (err, message) = error_for("v1beta1.yaml");
    assert!(
        matches!(err.kind, CrdErrorKind::UnsupportedApiVersion(_)),
        "{message}"
    );
    assert!(message.contains("CRD `olds.example.com`"), "{message}");
    assert!(
        message.contains("apiextensions.k8s.io/v1beta1"),
        "{message}"
    );
}

#[test]
fn clashing_crds_name_both_files_and_crds() {
    let Err(err) = read_paths(&[bad("clash")]) else {
        panic!("clashing CRDs were accepted");
    };
    let message = err.to_string();
    assert!(matches!(err.kind, CrdErrorKind::Clash(_)), "{message}");
    assert!(
        message.contains("b.yaml: CRD `gizmos.example.com`"),
        "{message}"
    );
    assert!(
        message.contains("CRD `widgets.example.com` from"),
        "{message}"
    );
    assert!(message.contains("a.yaml"), "{message}");
    assert!(message.contains("kind `Widget`"), "{message}");
}

#[test]
fn a_missing_path_is_an_io_error() {
    let (err, _) = error_for("does-not-exist.yaml");
    assert!(matches!(err.kind, CrdErrorKind::Io(_)));
}

#[test]
fn odd_inputs_never_panic() {
    let inputs = [
        "",
        "---\n---\n",
        "[]",
        "{}",
        "42",
        "kind: CustomResourceDefinition\napiVersion: apiextensions.k8s.io/v1\n",
        "kind: CustomResourceDefinition\napiVersion: apiextensions.k8s.io/v1\nmetadata: {name: x}\nspec: {group: g, names: {kind: K, plural: ks}, scope: Weird, versions: []}\n",
        "kind: CustomResourceDefinition\napiVersion: apiextensions.k8s.io/v1\nmetadata: {name: x}\nspec: {group: g, names: {kind: K, plural: ks}, scope: Cluster, versions: [{name: v1, served: true, schema: {openAPIV3Schema: {type: string}}}]}\n",
        "kind: List\napiVersion: v1\nitems: [1, 2]\n",
        "a: &a [*a]\n",
    ];
    for input in inputs {
        if let Ok(crds) = parse_file(Path::new("mem.yaml"), input) {
            let _ = informer_gen::read::crd::build_model(&crds);
        }
    }
}

#[test]
fn deep_nesting_is_an_error_not_a_stack_overflow() {
    let mut schema = String::from("{\"type\": \"string\"}");
    for _ in 0..120 {
        schema = format!("{{\"type\": \"array\", \"items\": {schema}}}");
    }
    let crd = format!(
        "{{\"apiVersion\": \"apiextensions.k8s.io/v1\", \"kind\": \"CustomResourceDefinition\", \"metadata\": {{\"name\": \"deep.example.com\"}}, \"spec\": {{\"group\": \"example.com\", \"names\": {{\"kind\": \"Deep\", \"plural\": \"deeps\"}}, \"scope\": \"Cluster\", \"versions\": [{{\"name\": \"v1\", \"served\": true, \"storage\": true, \"schema\": {{\"openAPIV3Schema\": {{\"type\": \"object\", \"properties\": {{\"spec\": {schema}}}}}}}}}]}}}}"
    );
    let outcome = parse_file(Path::new("deep.json"), &crd)
        .map(|crds| informer_gen::read::crd::build_model(&crds));
    match outcome {
        Ok(Err(err)) => assert!(
            err.to_string()
                .contains("deep.json: CRD `deep.example.com`"),
            "{err}"
        ),
        Err(err) => assert!(err.to_string().contains("deep.json"), "{err}"),
        Ok(Ok(_)) => panic!("a 120-deep schema was accepted"),
    }
}
