//! The `listers` and `informers` crates declare one cargo feature per API group of every
//! built-in table, named like the group's accessor, all on by default; besides them only
//! the informers' opt-in `apply` (the apply configurations).

use std::collections::BTreeSet;

use informer_gen::model::Api;
use informer_gen::read::table;

/// Features that are not API groups, by crate.
const NOT_GROUPS: &[(&str, &str)] = &[("informers", "apply")];

fn declared(krate: &str, manifest: &str) -> (BTreeSet<String>, String) {
    let text = std::fs::read_to_string(manifest).unwrap();
    let features = text
        .split("[features]")
        .nth(1)
        .expect("a [features] section")
        .to_owned();
    let names = features
        .lines()
        .filter_map(|l| l.split_once(" = ").map(|(n, _)| n.trim().to_owned()))
        .filter(|n| n != "default" && !NOT_GROUPS.contains(&(krate, n.as_str())))
        .collect();
    (names, features)
}

#[test]
fn every_group_of_every_table_has_a_default_feature() {
    let mut groups = BTreeSet::new();
    for version in table::builtin_versions() {
        let t = table::builtin(version).unwrap();
        let api = Api::new(version, &t.resources).unwrap();
        groups.extend(api.groups.into_iter().map(|g| g.module));
    }
    for krate in ["listers", "informers"] {
        let manifest = format!("{}/../{krate}/Cargo.toml", env!("CARGO_MANIFEST_DIR"));
        let (names, section) = declared(krate, &manifest);
        assert_eq!(names, groups, "{krate}/Cargo.toml features");
        let default = section
            .lines()
            .find(|l| l.starts_with("default = "))
            .unwrap();
        for g in &groups {
            assert!(
                default.contains(&format!("\"{g}\"")),
                "{krate}: {g} not default"
            );
        }
    }
}
