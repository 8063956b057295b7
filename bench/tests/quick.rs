//! The benchmark suite in quick mode, so its code cannot rot: every section runs against
//! its servers and baselines and `results.json` is written. No figure is judged here: a
//! shared machine is too noisy for targets, and a debug build's figures mean nothing; the
//! suite judges its targets in its own release runs (`cargo run --release -p bench`).

use std::collections::BTreeSet;
use std::process::Command;

#[test]
fn every_section_runs_in_quick_mode_and_writes_its_results() {
    let out = tempfile::tempdir().expect("a temporary directory");
    // Its tables are kept out of the test's output unless it fails.
    let run = Command::new(env!("CARGO_BIN_EXE_bench"))
        .args(["all", "--quick", "--out"])
        .arg(out.path())
        .output()
        .expect("the bench binary starts");
    assert!(
        run.status.success(),
        "`bench all --quick` failed: {}\n--- stdout\n{}\n--- stderr\n{}",
        run.status,
        String::from_utf8_lossy(&run.stdout),
        String::from_utf8_lossy(&run.stderr)
    );
    let results = std::fs::read_to_string(out.path().join("results.json"))
        .expect("`bench all --quick` writes results.json");
    let records: Vec<serde_json::Value> =
        serde_json::from_str(&results).expect("results.json is a JSON array of records");
    let sections: BTreeSet<&str> = records
        .iter()
        .filter_map(|r| r.get("section").and_then(serde_json::Value::as_str))
        .collect();
    let expected = [
        "codegen",
        "kube",
        "listers",
        "memory",
        "protobuf",
        "server",
        "sharding",
        "soak",
        "sync",
        "watch",
        "workqueue",
        "writes",
    ];
    for section in expected {
        assert!(
            sections.contains(section),
            "no record of section {section} in results.json (sections: {sections:?})"
        );
    }
}
