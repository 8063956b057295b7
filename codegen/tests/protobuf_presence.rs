//! `resources/protobuf-presence.txt` says, for every scalar field of the built-in protobuf
//! messages, how Go declares it: a pointer, a value whose JSON omits its zero (`omitempty`), or a
//! value JSON always writes. gogo-protobuf writes non-pointer scalars even when zero, so a
//! protobuf decoder needs the table to give the value JSON would (see the file's header).
//!
//! The table has no versions, and the decoders of every Kubernetes version read it. So its
//! lines come from 1.36's Go sources (the release of `../shared/protos/v1.36`), and for the
//! fields 1.37 adds (`resources/protobuf-v1.37-fields.txt`) from 1.37's: a field 1.36 has keeps
//! 1.36's declaration, one 1.37 removed keeps its line for 1.33..1.36, and a field whose
//! declaration 1.37 changed fails the derivation, since one line could not say both.
//!
//! Two checks: the table still derives from the Go sources (only when they are given, through
//! `K8S_API_SRC` and `K8S_APIMACHINERY_SRC` for 1.36 and `K8S_API_SRC_1_37` and
//! `K8S_APIMACHINERY_SRC_1_37` for 1.37), and it covers every optional scalar field of the 1.36
//! protos in `../shared/protos/v1.36` and of the 1.37 supplement (always).

use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::fs;
use std::path::{Path, PathBuf};

use informer_gen::read::proto::{self, Label, SCALARS};
use informer_gen::read::protobuf_table::SUPPLEMENT_FILE_NAME;

const TABLE: &str = "resources/protobuf-presence.txt";

/// Proto scalars with no Go struct field behind them: these messages are written by
/// hand-written marshalling code, not from tagged fields.
const NO_GO_FIELD: &[(&str, &str, &str)] = &[
    (
        "apimachinery.pkg.apis.meta.v1.Time",
        "seconds",
        "Go's Time wraps time.Time (protobuf:\"-\"); time_proto.go marshals a Timestamp",
    ),
    (
        "apimachinery.pkg.apis.meta.v1.Time",
        "nanos",
        "as Time.seconds",
    ),
    (
        "apimachinery.pkg.apis.meta.v1.MicroTime",
        "seconds",
        "Go's MicroTime wraps time.Time; micro_time_proto.go marshals it as a Timestamp",
    ),
    (
        "apimachinery.pkg.apis.meta.v1.MicroTime",
        "nanos",
        "as MicroTime.seconds",
    ),
    (
        "apimachinery.pkg.api.resource.Quantity",
        "string",
        "Go's Quantity has no tagged fields; quantity_proto.go writes its canonical string",
    ),
    (
        "apimachinery.pkg.api.resource.QuantityValue",
        "string",
        "QuantityValue embeds Quantity (untagged) and marshals through its methods",
    ),
];

/// One line of the table: (`<proto package>.<Message>`, proto field name) -> presence.
type Table = BTreeMap<(String, String), String>;

/// The table's lines, `#` comments and blank lines skipped.
fn parse_table(text: &str) -> Table {
    let mut table = Table::new();
    for (n, line) in text.lines().enumerate() {
        if line.trim().is_empty() || line.starts_with('#') {
            continue;
        }
        let words: Vec<&str> = line.split_whitespace().collect();
        let [message, field, presence] = words[..] else {
            panic!(
                "{TABLE}:{}: not `<message> <field> <presence>`: {line}",
                n + 1
            );
        };
        assert!(
            matches!(presence, "pointer" | "omitempty" | "always"),
            "{TABLE}:{}: unknown presence {presence}",
            n + 1
        );
        let old = table.insert((message.into(), field.into()), presence.into());
        assert!(old.is_none(), "{TABLE}:{}: duplicate line", n + 1);
    }
    table
}

/// What a package-level `type` declaration says, its type names resolved to
/// `<import path>.<Name>` (see [`GoFile::resolve`]).
enum Decl {
    Struct,
    /// `type X Y`; `alias` for `type X = Y`.
    Named {
        underlying: String,
        alias: bool,
    },
}

/// A struct field with a `protobuf:"..."` tag.
#[derive(Clone)]
struct TaggedField {
    /// The struct's `<import path>.<Name>`.
    owner: String,
    go_type: String,
    tag: String,
    at: String,
}

/// The package-level types of all Go files, by `<import path>.<Name>`, and the tagged fields
/// of their structs.
#[derive(Default)]
struct GoSources {
    decls: HashMap<String, Decl>,
    fields: Vec<TaggedField>,
}

/// The proto package of a Go package: go-to-protobuf's `k8s.io/api/core/v1` -> `api.core.v1`.
fn proto_package(import_path: &str) -> String {
    import_path.trim_start_matches("k8s.io/").replace('/', ".")
}

/// Go's source text of a file, comments removed, line by line. Raw strings (struct tags) and
/// quoted strings are kept whole so that a `//` inside them is not taken for a comment.
fn strip_comments(source: &str) -> Vec<String> {
    let (mut in_block, mut in_raw) = (false, false);
    let mut lines = Vec::new();
    for line in source.lines() {
        let mut code = String::new();
        let mut chars = line.chars().peekable();
        let mut quote: Option<char> = None;
        while let Some(c) = chars.next() {
            if in_block {
                if c == '*' && chars.peek() == Some(&'/') {
                    chars.next();
                    in_block = false;
                }
                continue;
            }
            code.push(c);
            if in_raw {
                in_raw = c != '`';
            } else if let Some(q) = quote {
                if c == '\\' {
                    code.extend(chars.next());
                } else if c == q {
                    quote = None;
                }
            } else if c == '`' {
                in_raw = true;
            } else if c == '"' || c == '\'' {
                quote = Some(c);
            } else if c == '/' && chars.peek() == Some(&'/') {
                code.pop();
                break;
            } else if c == '/' && chars.peek() == Some(&'*') {
                code.pop();
                chars.next();
                in_block = true;
            }
        }
        lines.push(code);
    }
    lines
}

/// The value of `key:"..."` in a struct tag.
fn tag_value<'t>(tag: &'t str, key: &str) -> Option<&'t str> {
    let start = tag
        .match_indices(&format!("{key}:\""))
        .find(|(i, _)| *i == 0 || tag[..*i].ends_with(' '))?
        .0
        + key.len()
        + 2;
    tag[start..].split('"').next()
}

const BUILTIN: &[&str] = &[
    "bool", "string", "byte", "int", "int8", "int16", "int32", "int64", "uint", "uint8", "uint16",
    "uint32", "uint64", "float32", "float64",
];

struct GoFile {
    import_path: String,
    /// Import name -> import path.
    imports: HashMap<String, String>,
}

impl GoFile {
    /// `*corev1.Protocol` -> `*k8s.io/api/core/v1.Protocol`, `Protocol` in core/v1 -> the same.
    /// Anything else (built-in, slice, map, func types, unknown imports) stays as written: a
    /// field needs only its outermost type resolved, and `derive` rejects what it cannot place.
    fn resolve(&self, go_type: &str) -> String {
        let base = go_type.trim_start_matches('*');
        let stars = &go_type[..go_type.len() - base.len()];
        let ident = |s: &str| !s.is_empty() && s.chars().all(|c| c.is_alphanumeric() || c == '_');
        let resolved = match base.split_once('.') {
            Some((import, name)) if ident(import) && ident(name) => {
                match self.imports.get(import) {
                    Some(path) => format!("{path}.{name}"),
                    None => base.to_owned(),
                }
            }
            None if ident(base) && !BUILTIN.contains(&base) => {
                format!("{}.{base}", self.import_path)
            }
            _ => base.to_owned(),
        };
        format!("{stars}{resolved}")
    }
}

/// The imports, `type` declarations and tagged struct fields of one Go file. Line-based, on
/// gofmt'ed source: top-level `type` lines start in column 0, and a struct's fields are the
/// lines at brace depth 1 of its body.
fn parse_go_file(path: &Path, import_path: &str, sources: &mut GoSources) {
    let source = fs::read_to_string(path).expect("Go source is readable UTF-8");
    let lines = strip_comments(&source);
    let mut file = GoFile {
        import_path: import_path.to_owned(),
        imports: HashMap::new(),
    };
    // Imports first: a type may be declared above an import only in invalid Go.
    let mut in_imports = false;
    for line in &lines {
        let spec = if in_imports {
            in_imports = line.trim() != ")";
            line.trim()
        } else if line.starts_with("import (") {
            in_imports = true;
            continue;
        } else if let Some(spec) = line.strip_prefix("import ") {
            spec.trim()
        } else {
            continue;
        };
        let (name, quoted) = match spec.rsplit_once(' ') {
            Some((name, quoted)) => (Some(name.trim()), quoted),
            None => (None, spec),
        };
        let Some(path) = quoted.strip_prefix('"').and_then(|p| p.strip_suffix('"')) else {
            continue;
        };
        // Kubernetes' packages are named after their directory (v1, intstr, types, ...).
        let name = name.unwrap_or_else(|| path.rsplit('/').next().unwrap_or(path));
        file.imports.insert(name.to_owned(), path.to_owned());
    }

    let mut in_type_group = false;
    let mut current: Option<String> = None;
    let mut depth = 0usize;
    for (n, line) in lines.iter().enumerate() {
        let at = || format!("{}:{}", path.display(), n + 1);
        if let Some(owner) = &current {
            let (code, tag) = match line.split_once('`') {
                Some((code, rest)) => (code, rest.rsplit_once('`').map(|(tag, _)| tag)),
                None => (line.as_str(), None),
            };
            if depth == 1 {
                if let Some(tag) = tag.filter(|t| tag_value(t, "protobuf").is_some()) {
                    let go_type = match code.split_whitespace().collect::<Vec<_>>()[..] {
                        [embedded] | [_, embedded] => embedded,
                        _ => panic!("{}: unexpected field syntax: {line}", at()),
                    };
                    sources.fields.push(TaggedField {
                        owner: owner.clone(),
                        go_type: file.resolve(go_type),
                        tag: tag.to_owned(),
                        at: at(),
                    });
                }
            }
            // Nested anonymous structs open and close braces of their own.
            depth += code.matches('{').count();
            depth -= code.matches('}').count();
            if depth == 0 {
                current = None;
            }
            continue;
        }
        let spec = if in_type_group {
            if line.trim() == ")" {
                in_type_group = false;
                continue;
            }
            line.trim()
        } else if line.starts_with("type (") {
            in_type_group = true;
            continue;
        } else if let Some(spec) = line.strip_prefix("type ") {
            spec
        } else {
            continue;
        };
        let Some((name, rest)) = spec.split_once(char::is_whitespace) else {
            continue;
        };
        let rest = rest.trim();
        let (alias, rest) = match rest.strip_prefix("= ") {
            Some(rest) => (true, rest),
            None => (false, rest),
        };
        let key = format!("{import_path}.{name}");
        if rest.starts_with("struct") {
            depth = rest.matches('{').count() - rest.matches('}').count();
            if depth > 0 {
                current = Some(key.clone());
            }
            sources.decls.insert(key, Decl::Struct);
        } else if !rest.is_empty() {
            let underlying = file.resolve(rest);
            sources.decls.insert(key, Decl::Named { underlying, alias });
        }
    }
}

/// Every non-test Go file of `root` (a module whose import path is `module`), with the import
/// path of its package.
fn go_files(root: &Path, module: &str) -> Vec<(PathBuf, String)> {
    let mut found = Vec::new();
    let mut dirs = vec![PathBuf::new()];
    while let Some(rel) = dirs.pop() {
        let entries = fs::read_dir(root.join(&rel))
            .unwrap_or_else(|e| panic!("{}: {e}", root.join(&rel).display()));
        for entry in entries {
            let path = entry.expect("a directory entry").path();
            let name = path.file_name().unwrap_or_default().to_string_lossy();
            if path.is_dir() {
                if !name.starts_with('.') && name != "testdata" {
                    dirs.push(rel.join(&*name));
                }
            } else if name.ends_with(".go") && !name.ends_with("_test.go") {
                let dir = rel.to_string_lossy().replace('\\', "/");
                found.push((
                    path,
                    format!("{module}/{dir}").trim_end_matches('/').to_owned(),
                ));
            }
        }
    }
    found
}

/// The table, from the sources of k8s.io/api and k8s.io/apimachinery.
fn derive(api: &Path, apimachinery: &Path) -> Table {
    let mut sources = GoSources::default();
    let files = go_files(api, "k8s.io/api");
    for (path, import_path) in files
        .into_iter()
        .chain(go_files(apimachinery, "k8s.io/apimachinery"))
    {
        parse_go_file(&path, &import_path, &mut sources);
    }
    let GoSources { decls, mut fields } = sources;
    let final_type = |ty: &str| {
        let mut ty = ty.to_owned();
        while let Some(Decl::Named { underlying, .. }) = decls.get(&ty) {
            ty = underlying.clone();
        }
        ty
    };
    // `type MatchCondition v1.MatchCondition` (admissionregistration/v1alpha1) is a message of
    // its own, with the fields of the struct it is defined from. An alias (`=`) is not.
    for (key, decl) in &decls {
        if let Decl::Named {
            underlying,
            alias: false,
        } = decl
        {
            let from = final_type(underlying);
            if !matches!(decls.get(&from), Some(Decl::Struct)) {
                continue;
            }
            let copies: Vec<TaggedField> =
                fields.iter().filter(|f| f.owner == from).cloned().collect();
            fields.extend(copies.into_iter().map(|f| TaggedField {
                owner: key.clone(),
                ..f
            }));
        }
    }
    // Test fixtures, not APIs: no kube-apiserver serves them.
    let fixture = |p: &str| {
        p.starts_with("k8s.io/apimachinery/pkg/apis/testapigroup")
            || p.starts_with("k8s.io/apimachinery/pkg/test.")
    };
    let mut table = Table::new();
    for field in fields.iter().filter(|f| !fixture(&f.owner)) {
        let protobuf = tag_value(&field.tag, "protobuf").unwrap_or_default();
        if protobuf == "-" {
            continue;
        }
        let pointer = field.go_type.starts_with('*');
        // Hand-written tags can be wrong (`*bool` as bytes, a string marked `rep`, a slice
        // without `rep`); go-to-protobuf goes by the Go type, and so does this.
        let ty = final_type(field.go_type.trim_start_matches('*'));
        let scalar = match ty.as_str() {
            "[]byte" => true,
            t if t.starts_with('[') || t.starts_with("map[") => false,
            t if BUILTIN.contains(&t) => true,
            t if matches!(decls.get(t), Some(Decl::Struct)) => false,
            // Outside both modules only time.Duration occurs (meta/v1 Duration's embedded
            // field); any other type must be looked at before it gets a line.
            "time.Duration" => true,
            t => panic!("{}: cannot tell whether {t} is scalar", field.at),
        };
        if !scalar {
            continue;
        }
        // (An embedded struct's tag may have no name; a scalar's always has.)
        let name = protobuf.split(',').find_map(|p| p.strip_prefix("name="));
        let name = name.unwrap_or_else(|| panic!("{}: protobuf tag without name=", field.at));
        let json = tag_value(&field.tag, "json").unwrap_or_default();
        // For a scalar, omitzero (Go 1.24) omits the same values omitempty does.
        let omits_zero = json
            .split(',')
            .skip(1)
            .any(|o| o == "omitempty" || o == "omitzero");
        let presence = match (pointer, omits_zero) {
            (true, _) => "pointer",
            (false, true) => "omitempty",
            (false, false) => "always",
        };
        let (import_path, name_in_go) = field.owner.rsplit_once('.').unwrap_or_default();
        let message = format!("{}.{name_in_go}", proto_package(import_path));
        let old = table.insert((message, name.to_owned()), presence.to_owned());
        assert!(old.is_none(), "{}: a second Go field for {name}", field.at);
    }
    table
}

fn render(table: &Table) -> String {
    table
        .iter()
        .map(|((message, field), presence)| format!("{message} {field} {presence}\n"))
        .collect()
}

fn checked_in() -> (PathBuf, String) {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join(TABLE);
    let text = fs::read_to_string(&path).expect("the checked-in table is readable");
    (path, text)
}

/// 1.36's table, with 1.37's lines for the fields 1.36 lacks; a field both declare
/// differently is an error (see the module docs).
fn derive_both(v1_36: (&Path, &Path), v1_37: (&Path, &Path)) -> Table {
    let mut table = derive(v1_36.0, v1_36.1);
    let mut changed = Vec::new();
    for (key, presence) in derive(v1_37.0, v1_37.1) {
        match table.get(&key) {
            None => {
                table.insert(key, presence);
            }
            Some(old) if *old == presence => {}
            Some(old) => changed.push(format!("{} {}: {old} -> {presence}", key.0, key.1)),
        }
    }
    assert!(
        changed.is_empty(),
        "1.37 declares {} fields differently from 1.36; the table needs versions for them:\n{}",
        changed.len(),
        changed.join("\n")
    );
    table
}

#[test]
fn checked_in_table_matches_the_go_sources() {
    let vars = [
        "K8S_API_SRC",
        "K8S_APIMACHINERY_SRC",
        "K8S_API_SRC_1_37",
        "K8S_APIMACHINERY_SRC_1_37",
    ]
    .map(std::env::var_os);
    let [Some(api), Some(apimachinery), Some(api_1_37), Some(apimachinery_1_37)] = &vars else {
        eprintln!(
            "skipped: K8S_API_SRC and K8S_APIMACHINERY_SRC (1.36), K8S_API_SRC_1_37 and \
             K8S_APIMACHINERY_SRC_1_37 (1.37) not all set (extracted source trees of \
             k8s.io/api and k8s.io/apimachinery; {TABLE}'s header says how)"
        );
        return;
    };
    let fresh = derive_both(
        (Path::new(api), Path::new(apimachinery)),
        (Path::new(api_1_37), Path::new(apimachinery_1_37)),
    );
    let (path, text) = checked_in();
    if std::env::var_os("INFORMER_GEN_BLESS").is_some() {
        // The header (sources, commits) is written by hand; only the lines are derived.
        let header: String = text
            .lines()
            .take_while(|l| l.starts_with('#'))
            .map(|l| format!("{l}\n"))
            .collect();
        fs::write(&path, header + &render(&fresh)).expect("the table is writable");
        return;
    }
    let table = parse_table(&text);
    let mut diff = Vec::new();
    for (key, presence) in &fresh {
        match table.get(key) {
            Some(p) if p == presence => {}
            Some(p) => diff.push(format!("~ {} {} {p} -> {presence}", key.0, key.1)),
            None => diff.push(format!("+ {} {} {presence}", key.0, key.1)),
        }
    }
    for (key, presence) in table.iter().filter(|(k, _)| !fresh.contains_key(*k)) {
        diff.push(format!("- {} {} {presence}", key.0, key.1));
    }
    assert!(
        diff.is_empty(),
        "{TABLE} drifted from the Go sources ({} lines; rerun with INFORMER_GEN_BLESS=1 and \
         update the header's commits):\n{}",
        diff.len(),
        diff.join("\n")
    );
}

/// The optional scalar fields of every message of the protos the decoders read, 1.36's below
/// `dir` with the 1.37 supplement merged in, as (`<package>.<Message>`, field).
fn proto_scalars(dir: &Path) -> BTreeSet<(String, String)> {
    let mut messages = proto::read_dir(&dir.join("api")).unwrap_or_else(|e| panic!("{e}"));
    messages.extend(proto::read_dir(&dir.join("apimachinery")).unwrap_or_else(|e| panic!("{e}")));
    let supplement = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("resources")
        .join(SUPPLEMENT_FILE_NAME);
    proto::read_supplement(&supplement, &mut messages).unwrap_or_else(|e| panic!("{e}"));
    messages
        .values()
        .filter(|m| {
            !m.full_name
                .starts_with("apimachinery.pkg.apis.testapigroup.")
        })
        .flat_map(|m| {
            m.fields
                .iter()
                .filter(|f| f.label == Label::Optional && SCALARS.contains(&f.ty.as_str()))
                .map(|f| (m.full_name.clone(), f.name.clone()))
        })
        .collect()
}

#[test]
fn every_optional_proto_scalar_has_a_line() {
    let protos = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../shared/protos/v1.36");
    assert!(
        protos.is_dir(),
        "{} is missing: the shared reference data (Kubernetes 1.36's generated.proto files) \
         must sit next to the repository, in ../shared/protos/v1.36",
        protos.display()
    );
    let scalars = proto_scalars(&protos);
    assert!(scalars.len() > 1000, "only {} scalars found", scalars.len());
    let table = parse_table(&checked_in().1);
    let exempt: BTreeSet<(String, String)> = NO_GO_FIELD
        .iter()
        .map(|(m, f, _)| ((*m).to_owned(), (*f).to_owned()))
        .collect();
    let missing: Vec<String> = scalars
        .iter()
        .filter(|k| !table.contains_key(*k) && !exempt.contains(*k))
        .map(|(m, f)| format!("{m} {f}"))
        .collect();
    assert!(
        missing.is_empty(),
        "{} proto scalars have no line in {TABLE}:\n{}",
        missing.len(),
        missing.join("\n")
    );
    // The other way round: a line for a field the protos lack means the table came from
    // other sources than the protos' release.
    let extra: Vec<String> = table
        .keys()
        .chain(&exempt)
        .filter(|k| !scalars.contains(*k))
        .map(|(m, f)| format!("{m} {f}"))
        .collect();
    assert!(
        extra.is_empty(),
        "{} lines of {TABLE} (or exemptions) are no optional scalar of the protos:\n{}",
        extra.len(),
        extra.join("\n")
    );
}
