//! The checked-in subresource table (`resources/subresources.json`) must equal a fresh
//! derivation from the Kubernetes OpenAPI specs in `../shared/openapi` (present in CI
//! clones, not for users, so the build never reads it). Run with `INFORMER_GEN_BLESS=1`
//! to rewrite the table, and review the diff.

use std::path::{Path, PathBuf};

use informer_gen::model::Subresources;
use informer_gen::read::subresources::{SubresourceTable, FILE_NAME};
use informer_gen::read::{openapi, table};

fn shared_openapi() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../shared/openapi")
}

fn derived() -> Option<SubresourceTable> {
    let dir = shared_openapi();
    if !dir.is_dir() {
        return None;
    }
    let specs = [
        (
            "Kubernetes 1.35 OpenAPI v3 (openapi/v3/*_openapi.json)",
            dir.join("v1.35/v3"),
        ),
        (
            "Kubernetes 1.36 OpenAPI v2 (swagger.json)",
            dir.join("v1.36/swagger.json"),
        ),
    ];
    let specs: Vec<(&str, &Path)> = specs.iter().map(|(d, p)| (*d, p.as_path())).collect();
    Some(SubresourceTable::from_specs(&specs).unwrap())
}

#[test]
fn checked_in_subresources_match_the_openapi_specs() {
    let Some(fresh) = derived() else {
        eprintln!(
            "skipped: {} not present (only CI clones have the specs)",
            shared_openapi().display()
        );
        return;
    };
    let checked_in = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("resources")
        .join(FILE_NAME);
    if std::env::var_os("INFORMER_GEN_BLESS").is_some() {
        std::fs::write(&checked_in, fresh.to_json()).unwrap();
        return;
    }
    assert!(
        SubresourceTable::builtin().unwrap() == fresh,
        "resources/{FILE_NAME} drifted from the OpenAPI specs: rerun this test with \
         INFORMER_GEN_BLESS=1 and review the diff"
    );
}

/// The derivation itself, on a spec whose paths say what the table must hold.
#[test]
fn subresources_are_the_status_and_scale_paths_of_a_named_object() {
    let doc = serde_json::json!({
        "swagger": "2.0",
        "paths": {
            "/api/v1/namespaces/{namespace}/pods/{name}/status": {},
            "/api/v1/namespaces/{namespace}/pods/{name}/log": {},
            "/api/v1/namespaces/{name}/status": {},
            "/api/v1/namespaces/{name}/finalize": {},
            "/api/v1/namespaces/{namespace}/configmaps/{name}": {},
            "/apis/apps/v1/namespaces/{namespace}/deployments/{name}/scale": {},
            "/apis/apps/v1/namespaces/{namespace}/deployments/{name}/status": {},
            "/apis/example.com/v1/widgets/{name}/scale": {},
            "/apis/apps/v1/watch/namespaces/{namespace}/deployments/{name}": {},
        }
    });
    let found = openapi::subresources_of(&doc);
    let key = |g: &str, v: &str, p: &str| (g.to_owned(), v.to_owned(), p.to_owned());
    let status = Subresources {
        status: true,
        scale: false,
    };
    assert_eq!(found.get(&key("", "v1", "pods")), Some(&status));
    assert_eq!(found.get(&key("", "v1", "namespaces")), Some(&status));
    assert_eq!(
        found.get(&key("apps", "v1", "deployments")),
        Some(&Subresources {
            status: true,
            scale: true
        })
    );
    assert_eq!(
        found.get(&key("example.com", "v1", "widgets")),
        Some(&Subresources {
            status: false,
            scale: true
        })
    );
    assert_eq!(found.len(), 4, "{found:?}");
}

/// Every built-in table gets the subresources; the tables as checked in have none (they are
/// what the k8s-openapi extraction writes).
#[test]
fn builtin_tables_carry_the_subresources() {
    for version in table::builtin_versions() {
        let with = table::builtin(version).unwrap();
        let deployment = with
            .resources
            .iter()
            .find(|r| r.group == "apps" && r.version == "v1" && r.plural == "deployments")
            .unwrap();
        assert!(deployment.subresources.status && deployment.subresources.scale);
        let without = table::builtin_as_extracted(version).unwrap();
        assert!(without.resources.iter().all(|r| r.subresources.is_empty()));
        assert_eq!(with.resources.len(), without.resources.len());
    }
}
