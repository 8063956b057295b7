//! The checked-in tables (`resources/v1_XX.json`) must equal a fresh extraction from the
//! k8s-openapi sources in the cargo registry; when k8s-openapi is bumped, rerun
//! `informer-gen extract --out codegen/resources` and review the diff.

use informer_gen::read::{k8s_openapi, table};

#[test]
fn checked_in_tables_match_the_k8s_openapi_sources() {
    let source = table::builtin("1.37").unwrap().source;
    let crate_version = source
        .strip_prefix("k8s-openapi ")
        .expect("table source names the k8s-openapi version");
    let dir = k8s_openapi::locate_registry_sources(crate_version).unwrap_or_else(|| {
        panic!("k8s-openapi {crate_version} sources not in the cargo registry (run `cargo fetch`)")
    });
    let extracted = k8s_openapi::extract(&dir).unwrap();
    let versions: Vec<&str> = extracted
        .iter()
        .map(|t| t.kubernetes_version.as_str())
        .collect();
    assert_eq!(
        versions,
        table::builtin_versions(),
        "k8s-openapi supports other Kubernetes versions than the checked-in tables"
    );
    for fresh in &extracted {
        let checked_in = table::builtin_as_extracted(&fresh.kubernetes_version).unwrap();
        assert!(
            *fresh == checked_in,
            "resources/{} drifted from k8s-openapi: rerun `informer-gen extract --out codegen/resources`",
            table::file_name(&fresh.kubernetes_version)
        );
    }
    assert_eq!(
        table::builtin("1.37").unwrap().resources.len(),
        92,
        "93 listable types in 1.37, minus ComponentStatus (list-only)"
    );
}
