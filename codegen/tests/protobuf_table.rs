//! The checked-in protobuf table (`resources/protobuf.txt`) must equal a fresh derivation
//! from the Kubernetes `.proto` files (`../shared/protos/v1.36`) with Kubernetes 1.37's
//! additions (`resources/protobuf-v1.37-fields.txt`), the k8s-openapi sources in the cargo
//! registry and the checked-in Go presence table. `INFORMER_GEN_BLESS=1` rewrites it instead;
//! review the diff.
//!
//! The supplement in turn must equal what the 1.37 `generated.proto` files of k8s.io/api and
//! k8s.io/apimachinery add to the 1.36 ones: checked only when their extracted source trees are
//! given (`K8S_API_SRC_1_37`, `K8S_APIMACHINERY_SRC_1_37`; the supplement's header says how),
//! as CI has only the 1.36 files. That check also fails if a 1.36 field changed its number,
//! label or type in 1.37, which an additions-only supplement cannot say.

use std::collections::BTreeMap;
use std::fs;
use std::path::{Path, PathBuf};

use informer_gen::read::proto::{self, Label, ProtoField, ProtoMessage, SCALARS};
use informer_gen::read::protobuf_table::{self, ProtobufTable};
use informer_gen::read::{k8s_openapi, table};

const PROTOS: &str = "Kubernetes v1.36.0 generated.proto files";

fn resources() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("resources")
}

fn shared_protos() -> PathBuf {
    let protos = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../shared/protos/v1.36");
    assert!(
        protos.is_dir(),
        "{} is missing: the shared reference data must sit beside the repository",
        protos.display()
    );
    protos
}

fn derive() -> ProtobufTable {
    let protos = shared_protos();
    let source = table::builtin("1.37").expect("built-in table").source;
    let crate_version = source
        .strip_prefix("k8s-openapi ")
        .expect("table source names the k8s-openapi version");
    let k8s = k8s_openapi::locate_registry_sources(crate_version).unwrap_or_else(|| {
        panic!("k8s-openapi {crate_version} sources not in the cargo registry (run `cargo fetch`)")
    });
    let presence = protobuf_table::builtin_presence().expect("presence table parses");
    let supplement = resources().join(protobuf_table::SUPPLEMENT_FILE_NAME);
    ProtobufTable::derive(&protos, PROTOS, &supplement, &k8s, &presence).expect("derives")
}

#[test]
fn checked_in_protobuf_table_matches_its_sources() {
    let fresh = derive();
    let path = resources().join(protobuf_table::FILE_NAME);
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

type Messages = BTreeMap<String, ProtoMessage>;

/// The messages of every `generated.proto` below `root`, a k8s.io/api or k8s.io/apimachinery
/// source tree, in the shared files' naming: upstream's `package k8s.io.api.core.v1` and
/// `.k8s.io.apimachinery.…` types are `api.core.v1` and `.apimachinery.…` there, as collected
/// by k8s-pb.
fn upstream_messages(root: &Path, out: &mut Messages) {
    let mut dirs = vec![root.to_owned()];
    while let Some(dir) = dirs.pop() {
        for entry in fs::read_dir(&dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display())) {
            let path = entry.expect("a directory entry").path();
            if path.is_dir() {
                dirs.push(path);
            } else if path.file_name().is_some_and(|n| n == "generated.proto") {
                let text = fs::read_to_string(&path).expect("proto file is readable");
                let text = text
                    .replace("package k8s.io.", "package ")
                    .replace(" .k8s.io.", " .");
                for m in proto::parse(&path, &text).unwrap_or_else(|e| panic!("{e}")) {
                    out.insert(m.full_name.clone(), m);
                }
            }
        }
    }
}

/// What `new` adds to `base`, as (message, whole, added fields), and the fields both have
/// whose number, label or type differ.
type Additions = Vec<(String, bool, Vec<ProtoField>)>;

fn additions(base: &Messages, new: &Messages) -> (Additions, Vec<String>) {
    let mut added = Additions::new();
    let mut changed = Vec::new();
    for (name, message) in new {
        let Some(old) = base.get(name) else {
            added.push((name.clone(), true, message.fields.clone()));
            continue;
        };
        let mut fields = Vec::new();
        for field in &message.fields {
            match old.fields.iter().find(|f| f.name == field.name) {
                None => fields.push(field.clone()),
                Some(f) if f == field => {}
                Some(f) => changed.push(format!("{name}: {} -> {}", render(f), render(field))),
            }
        }
        if !fields.is_empty() {
            added.push((name.clone(), false, fields));
        }
    }
    (added, changed)
}

/// A field as a `.proto` file writes it, message types absolute.
fn render(field: &ProtoField) -> String {
    let ty = if SCALARS.contains(&field.ty.as_str()) {
        field.ty.clone()
    } else {
        format!(".{}", field.ty)
    };
    let (name, number) = (&field.name, field.number);
    match &field.label {
        Label::Optional => format!("optional {ty} {name} = {number};"),
        Label::Repeated => format!("repeated {ty} {name} = {number};"),
        Label::Map(key) => format!("map<{key}, {ty}> {name} = {number};"),
    }
}

fn render_additions(added: &Additions) -> String {
    let mut out = String::new();
    for (name, whole, fields) in added {
        let keyword = if *whole { "message" } else { "fields" };
        out.push_str(&format!("{keyword} {name}\n"));
        for field in fields {
            out.push_str(&format!("  {}\n", render(field)));
        }
    }
    out
}

#[test]
fn checked_in_supplement_matches_the_1_37_protos() {
    let (Some(api), Some(apimachinery)) = (
        std::env::var_os("K8S_API_SRC_1_37"),
        std::env::var_os("K8S_APIMACHINERY_SRC_1_37"),
    ) else {
        eprintln!(
            "skipped: K8S_API_SRC_1_37 and K8S_APIMACHINERY_SRC_1_37 not set (extracted 1.37 \
             source trees of k8s.io/api and k8s.io/apimachinery; {}'s header says how)",
            protobuf_table::SUPPLEMENT_FILE_NAME
        );
        return;
    };
    let shared = shared_protos();
    let mut base = proto::read_dir(&shared.join("api")).expect("1.36 api protos read");
    base.extend(proto::read_dir(&shared.join("apimachinery")).expect("1.36 apimachinery read"));
    let mut new = Messages::new();
    upstream_messages(Path::new(&api), &mut new);
    upstream_messages(Path::new(&apimachinery), &mut new);
    assert!(
        new.len() > 1000,
        "only {} messages below the 1.37 trees",
        new.len()
    );
    let (added, changed) = additions(&base, &new);
    assert!(
        changed.is_empty(),
        "1.37 changed {} fields of 1.36 (a supplement only adds; the derivation needs \
         per-version protos for these):\n{}",
        changed.len(),
        changed.join("\n")
    );
    // Removals need no line: k8s-openapi's 1.37 structs lack the field too, so it maps in
    // the versions that have it only. Listed for whoever regenerates.
    for (name, message) in &base {
        match new.get(name) {
            None => eprintln!("note: 1.37 removed message {name}"),
            Some(m) => {
                for f in message
                    .fields
                    .iter()
                    .filter(|f| m.fields.iter().all(|g| g.name != f.name))
                {
                    eprintln!("note: 1.37 removed {name}.{} = {}", f.name, f.number);
                }
            }
        }
    }
    let path = resources().join(protobuf_table::SUPPLEMENT_FILE_NAME);
    let text = fs::read_to_string(&path).expect("the supplement is readable");
    // The header (sources, commits) is written by hand; only the lines are derived.
    let header: String = text
        .lines()
        .take_while(|l| l.starts_with('#'))
        .map(|l| format!("{l}\n"))
        .collect();
    let fresh = render_additions(&added);
    if std::env::var_os("INFORMER_GEN_BLESS").is_some() {
        fs::write(&path, header + &fresh).expect("the supplement is writable");
        return;
    }
    let body = &text[header.len()..];
    if body != fresh {
        let first = fresh
            .lines()
            .zip(body.lines())
            .position(|(a, b)| a != b)
            .unwrap_or_else(|| fresh.lines().count().min(body.lines().count()));
        panic!(
            "{} drifted from the 1.37 protos (first difference at body line {}: {:?} vs \
             {:?}); rerun with INFORMER_GEN_BLESS=1, update the header's commits and re-bless \
             {}",
            path.display(),
            first + 1,
            fresh.lines().nth(first),
            body.lines().nth(first),
            protobuf_table::FILE_NAME
        );
    }
    // And it merges: every type it names resolves, nothing collides.
    proto::read_supplement(&path, &mut base).unwrap_or_else(|e| panic!("{e}"));
}
