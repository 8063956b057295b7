//! The checked-in protobuf table (`resources/protobuf.txt`) must equal a fresh derivation
//! from the Kubernetes `.proto` files (`../shared/protos/v1.36`), the k8s-openapi sources in
//! the cargo registry and the checked-in Go presence table. `INFORMER_GEN_BLESS=1` rewrites
//! it instead; review the diff.

use std::path::PathBuf;

use informer_gen::read::protobuf_table::{self, ProtobufTable};
use informer_gen::read::{k8s_openapi, table};

const PROTOS: &str = "Kubernetes v1.36.0 generated.proto files";

fn derive() -> ProtobufTable {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let protos = root.join("../../shared/protos/v1.36");
    assert!(
        protos.is_dir(),
        "{} is missing: the shared reference data must sit beside the repository",
        protos.display()
    );
    let source = table::builtin("1.37").expect("built-in table").source;
    let crate_version = source
        .strip_prefix("k8s-openapi ")
        .expect("table source names the k8s-openapi version");
    let k8s = k8s_openapi::locate_registry_sources(crate_version).unwrap_or_else(|| {
        panic!("k8s-openapi {crate_version} sources not in the cargo registry (run `cargo fetch`)")
    });
    let presence = protobuf_table::builtin_presence().expect("presence table parses");
    ProtobufTable::derive(&protos, PROTOS, &k8s, &presence).expect("derives")
}

#[test]
fn checked_in_protobuf_table_matches_its_sources() {
    let fresh = derive();
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("resources")
        .join(protobuf_table::FILE_NAME);
    if std::env::var_os("INFORMER_GEN_BLESS").is_some() {
        std::fs::write(&path, fresh.to_text()).expect("writes the table");
        return;
    }
    let checked_in = ProtobufTable::builtin().expect("the checked-in table parses");
    if fresh != checked_in {
        let fresh_text = fresh.to_text();
        let old_text = checked_in.to_text();
        let first = fresh_text
            .lines()
            .zip(old_text.lines())
            .position(|(a, b)| a != b)
            .unwrap_or(0);
        panic!(
            "{} drifted from its sources (first difference at line {}: {:?} vs {:?}); \
             rerun with INFORMER_GEN_BLESS=1 and review the diff",
            path.display(),
            first + 1,
            fresh_text.lines().nth(first),
            old_text.lines().nth(first)
        );
    }
}
