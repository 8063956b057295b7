//! Argument parsing and the subcommands of the `informer-gen` binary.
//!
//! Every subcommand returns its standard output as a string, so that `main` is the only
//! place that prints, and errors are single lines.

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use informer_gen::emit::{self, EmitOptions, Layout, Target};
use informer_gen::model::{
    escape_ident, is_snake_case_ident, Api, GroupAccessorError, ResourceDef, Scope,
};
use informer_gen::read::{self, k8s_openapi, openapi, table};

const USAGE: &str = "\
informer-gen: typed Kubernetes informers, listers and shared informer factories

Usage: informer-gen <COMMAND> [OPTIONS]

Commands:
  extract   Extract resource tables from the k8s-openapi sources
  list      List the resources that would be generated
  generate  Generate informers or listers into a directory
  crd       Generate typed resources, informers, listers and a factory for CRD manifests

Run `informer-gen <COMMAND> --help` for a command's options.
";

const EXTRACT_USAGE: &str = "\
Extract one resource table per Kubernetes version (v1_XX.json) from the k8s-openapi sources.

Usage: informer-gen extract [--k8s-openapi <DIR>] [--crate-version <VERSION>] --out <DIR>

Options:
  --k8s-openapi <DIR>        The k8s-openapi crate sources (default: found in the cargo registry)
  --crate-version <VERSION>  The k8s-openapi version to find in the registry (default: 0.29.0)
  --out <DIR>                Where to write the tables (e.g. codegen/resources)
";

const SOURCE_OPTIONS: &str = "\
Input (exactly one):
  --k8s-version <VERSION>    A built-in table, e.g. 1.37
  --table <FILE>             A table file written by `extract`
  --openapi <PATH>           An OpenAPI v2 swagger.json, a v3 document, or a directory of v3 documents
Filters:
  --group <GROUP>            Only this API group (name like `apps` or accessor like `core`); repeatable
  --exclude-group <GROUP>    Not this API group; repeatable
Names:
  --group-accessor <GROUP=NAME>  Name the accessor and module of API group GROUP (`\"\"` for core)
                             NAME instead of the derived one: `apps=workloads` gives
                             `factory.workloads()`; repeatable. Filters see the new name
";

const LIST_USAGE_HEAD: &str = "\
List the resources that would be generated: group/version/plural, kind, scope, Rust type.

Usage: informer-gen list <INPUT> [FILTERS]

";

const GENERATE_USAGE_HEAD: &str = "\
Generate informers (or listers) into a directory; the directory is replaced as a whole,
and nothing is written when anything fails.

Usage: informer-gen generate <INPUT> --out <DIR> [OPTIONS] [FILTERS]

Options:
  --out <DIR>                Output directory (replaced)
  --target <informers|listers>  What to generate (default: informers)
  --listers-path <PATH>      Informers use listers from this module path (default: emitted inline)
  --runtime-path <PATH>      Path of the runtime crate (default: ::informer_runtime)
  --k8s-openapi-path <PATH>  Path of k8s-openapi (default: ::informer_runtime::k8s_openapi)
  --single-file <NAME>       Write one file NAME instead of a tree
  --root-file <NAME>         Root file of a tree (default: mod.rs)
";

/// A command-line error: one line, naming what was wrong.
#[derive(Debug, thiserror::Error)]
pub enum CliError {
    /// Bad arguments.
    #[error("{0} (see --help)")]
    Usage(String),
    /// Generation failed.
    #[error(transparent)]
    Read(#[from] read::ReadError),
    /// Resources are invalid.
    #[error(transparent)]
    Model(#[from] informer_gen::model::ModelError),
    /// Emission failed.
    #[error(transparent)]
    Emit(#[from] emit::EmitError),
    /// Writing failed.
    #[error(transparent)]
    Write(#[from] emit::WriteError),
    /// A `--group-accessor` name cannot be used (names the group and the name).
    #[error(transparent)]
    GroupAccessor(#[from] GroupAccessorError),
    /// CRD generation failed (names the file, the CRD and the JSON path).
    #[error(transparent)]
    Generate(#[from] informer_gen::GenerateError),
}

/// Runs the command line `args` (without the program name); returns standard output.
pub fn run(args: &[String]) -> Result<String, CliError> {
    let Some((command, rest)) = args.split_first() else {
        return Ok(USAGE.to_owned());
    };
    match command.as_str() {
        "-h" | "--help" | "help" => Ok(USAGE.to_owned()),
        "extract" => extract(&Args::parse(
            rest,
            &["--k8s-openapi", "--crate-version", "--out"],
        )?),
        "list" => list(&Args::parse(rest, INPUT_FLAGS)?),
        "crd" => crd(rest),
        "generate" => {
            let mut flags = INPUT_FLAGS.to_vec();
            flags.extend([
                "--out",
                "--target",
                "--listers-path",
                "--runtime-path",
                "--k8s-openapi-path",
                "--single-file",
                "--root-file",
            ]);
            generate(&Args::parse(rest, &flags)?)
        }
        other => Err(CliError::Usage(format!("unknown command `{other}`"))),
    }
}

const INPUT_FLAGS: &[&str] = &[
    "--k8s-version",
    "--table",
    "--openapi",
    "--group",
    "--exclude-group",
    "--group-accessor",
];

/// `--flag value` pairs (also `--flag=value`), plus `--help`.
struct Args {
    pairs: Vec<(String, String)>,
    help: bool,
}

impl Args {
    fn parse(args: &[String], known: &[&str]) -> Result<Self, CliError> {
        let mut pairs = Vec::new();
        let mut help = false;
        let mut iter = args.iter();
        while let Some(arg) = iter.next() {
            if arg == "-h" || arg == "--help" {
                help = true;
                continue;
            }
            let (flag, inline) = match arg.split_once('=') {
                Some((f, v)) => (f, Some(v.to_owned())),
                None => (arg.as_str(), None),
            };
            if !known.contains(&flag) {
                return Err(CliError::Usage(format!("unknown argument `{arg}`")));
            }
            let value = match inline {
                Some(v) => v,
                None => iter
                    .next()
                    .cloned()
                    .ok_or_else(|| CliError::Usage(format!("`{flag}` needs a value")))?,
            };
            pairs.push((flag.to_owned(), value));
        }
        Ok(Self { pairs, help })
    }

    fn one<'a>(&'a self, flag: &'a str) -> Result<Option<&'a str>, CliError> {
        let mut values = self.all(flag);
        let first = values.next();
        if values.next().is_some() {
            return Err(CliError::Usage(format!("`{flag}` given twice")));
        }
        Ok(first)
    }

    fn all<'a>(&'a self, flag: &'a str) -> impl Iterator<Item = &'a str> + 'a {
        self.pairs
            .iter()
            .filter(move |(f, _)| f == flag)
            .map(|(_, v)| v.as_str())
    }
}

fn extract(args: &Args) -> Result<String, CliError> {
    if args.help {
        return Ok(EXTRACT_USAGE.to_owned());
    }
    let out = args
        .one("--out")?
        .ok_or_else(|| CliError::Usage("`--out <DIR>` is required".into()))?;
    let crate_dir = match args.one("--k8s-openapi")? {
        Some(dir) => PathBuf::from(dir),
        None => {
            let version = args.one("--crate-version")?.unwrap_or("0.29.0");
            k8s_openapi::locate_registry_sources(version).ok_or_else(|| {
                CliError::Usage(format!(
                    "k8s-openapi {version} sources not found in the cargo registry; pass --k8s-openapi <DIR>"
                ))
            })?
        }
    };
    let tables = k8s_openapi::extract(&crate_dir)?;
    let mut files = emit::GeneratedFiles::default();
    let mut report = String::new();
    for t in &tables {
        files.insert(
            PathBuf::from(table::file_name(&t.kubernetes_version)),
            table::to_json(t),
        );
        let _ = writeln!(
            report,
            "{}: {} resources",
            table::file_name(&t.kubernetes_version),
            t.resources.len()
        );
    }
    files.write_files_into(Path::new(out))?;
    Ok(report)
}

/// The resources and a description of where they came from.
fn load(args: &Args) -> Result<(String, Vec<ResourceDef>), CliError> {
    let sources = [
        args.one("--k8s-version")?,
        args.one("--table")?,
        args.one("--openapi")?,
    ];
    match sources {
        [Some(v), None, None] => {
            let t = table::builtin(v)?;
            Ok((
                format!("Kubernetes {} ({})", t.kubernetes_version, t.source),
                t.resources,
            ))
        }
        [None, Some(file), None] => {
            let t = table::read(Path::new(file))?;
            Ok((
                format!("Kubernetes {} ({})", t.kubernetes_version, t.source),
                t.resources,
            ))
        }
        [None, None, Some(path)] => {
            let path = Path::new(path);
            let defs = openapi::read(path)?;
            let name = path
                .file_name()
                .map(|n| n.to_string_lossy().into_owned())
                .unwrap_or_else(|| path.display().to_string());
            Ok((format!("the OpenAPI spec `{name}`"), defs))
        }
        _ => Err(CliError::Usage(
            "give exactly one of --k8s-version, --table, --openapi".into(),
        )),
    }
}

fn model(args: &Args) -> Result<(String, Api), CliError> {
    let (description, defs) = load(args)?;
    let mut api = Api::new(&description, &defs)?;
    // Renamed before filtering, as `Config` does.
    api.rename_groups(&group_accessors(args.all("--group-accessor"))?)?;
    let only: Vec<&str> = args.all("--group").collect();
    let except: Vec<&str> = args.all("--exclude-group").collect();
    api.retain_groups(|g| {
        let named = |list: &[&str]| list.iter().any(|n| *n == g.name || *n == g.module);
        (only.is_empty() || named(&only)) && !named(&except)
    });
    if api.is_empty() {
        return Err(CliError::Usage(format!(
            "{description}: no resources left after the group filters"
        )));
    }
    Ok((description, api))
}

/// `--group-accessor GROUP=NAME` values as API group → accessor name.
fn group_accessors<'a>(
    values: impl Iterator<Item = &'a str>,
) -> Result<BTreeMap<String, String>, CliError> {
    let mut accessors = BTreeMap::new();
    for value in values {
        let (group, name) = value.split_once('=').ok_or_else(|| {
            CliError::Usage(format!(
                "`--group-accessor {value}`: expected GROUP=NAME, e.g. cert-manager.io=certs"
            ))
        })?;
        if accessors
            .insert(group.to_owned(), name.to_owned())
            .is_some()
        {
            return Err(CliError::Usage(format!(
                "`--group-accessor`: group `{group}` named twice"
            )));
        }
    }
    Ok(accessors)
}

fn list(args: &Args) -> Result<String, CliError> {
    if args.help {
        return Ok(format!("{LIST_USAGE_HEAD}{SOURCE_OPTIONS}"));
    }
    let (_, api) = model(args)?;
    let mut out = String::new();
    for (g, v, r) in api.resources() {
        let scope = match r.def.scope {
            Scope::Namespaced => "namespaced",
            Scope::Cluster => "cluster",
        };
        let _ = writeln!(
            out,
            "{}\t{}\t{scope}\t{}().{}().{}()\t{}",
            r.informer_name(),
            r.def.kind,
            g.module,
            v.name,
            r.method,
            r.def.ty
        );
    }
    Ok(out)
}

fn generate(args: &Args) -> Result<String, CliError> {
    if args.help {
        return Ok(format!("{GENERATE_USAGE_HEAD}{SOURCE_OPTIONS}"));
    }
    let out = args
        .one("--out")?
        .ok_or_else(|| CliError::Usage("`--out <DIR>` is required".into()))?;
    let target = match args.one("--target")?.unwrap_or("informers") {
        "informers" => Target::Informers {
            listers_path: args.one("--listers-path")?.map(str::to_owned),
        },
        "listers" => Target::Listers,
        other => {
            return Err(CliError::Usage(format!(
                "`--target {other}`: expected `informers` or `listers`"
            )))
        }
    };
    let layout = match args.one("--single-file")? {
        Some(name) => Layout::SingleFile {
            file_name: name.to_owned(),
        },
        None => Layout::Tree {
            root_file: args.one("--root-file")?.unwrap_or("mod.rs").to_owned(),
        },
    };
    let (description, api) = model(args)?;
    let options = EmitOptions {
        target,
        layout,
        runtime_path: args
            .one("--runtime-path")?
            .unwrap_or("::informer_runtime")
            .to_owned(),
        k8s_openapi_path: args
            .one("--k8s-openapi-path")?
            .unwrap_or("::informer_runtime::k8s_openapi")
            .to_owned(),
        source_description: description,
    };
    let files = emit::generate(&api, &options)?;
    files.write_dir(Path::new(out))?;
    Ok(format!(
        "wrote {} files ({} resources) to {out}\n",
        files.files().len(),
        api.resources().count()
    ))
}

const CRD_USAGE: &str = "\
Generate typed resources, informers, listers and a SharedInformerFactory for
CustomResourceDefinition manifests (YAML or JSON, multi-document, files or directories).
Nothing is written when anything fails.

Usage: informer-gen crd <FILE|DIR>... --out <DIR> [NAMES]
       informer-gen crd <FILE|DIR>... --crate-out <DIR> --crate-name <NAME> [--runtime-dep <PATH|VERSION>] [NAMES]

Options:
  --out <DIR>                 Write a module tree into DIR (replaced): DIR/mod.rs with the factory
                              and MetadataGroups, DIR/<group>/<version>/ with a file per resource's
                              informer and lister, DIR/<group_types>/<version>.rs with the types.
                              Make DIR `src/<NAME>` and declare `pub mod <NAME>;` in the crate
                              root: generated code names its types `crate::<NAME>::...`. NAME is
                              `--factory-module`, by default DIR's last component
                              (`--out src/crds` → `pub mod crds;`)
  --crate-out <DIR>           Write a complete crate into DIR (replaced): Cargo.toml and that tree
                              rooted at src/lib.rs; with `--factory-module crds`, src/lib.rs
                              declares `pub mod crds;` and the tree is src/crds/ (used as
                              `<crate>::crds::...`)
  --crate-name <NAME>         The crate's name (with --crate-out)
  --runtime-dep <PATH|VERSION>  informer-runtime dependency of that crate: a path, or a version
                              (default: the path of the runtime this informer-gen was built from)
Names:
  --group-accessor <GROUP=NAME>  Name the accessor and informer module of API group GROUP NAME
                              instead of the derived one: `cert-manager.io=certs` gives
                              `factory.certs().v1().certificates()`; repeatable
  --factory-module <NAME>     The output lives in module NAME under the crate root
                              (`crate::NAME::SharedInformerFactory`); default: DIR's name with
                              `--out`, the crate root itself with `--crate-out`
";

/// `informer-gen crd`: inputs are positional, options are `--flag value`.
fn crd(args: &[String]) -> Result<String, CliError> {
    let mut inputs = Vec::new();
    let mut options: Vec<(String, String)> = Vec::new();
    let mut iter = args.iter();
    while let Some(arg) = iter.next() {
        if arg == "-h" || arg == "--help" {
            return Ok(CRD_USAGE.to_owned());
        }
        if !arg.starts_with("--") {
            inputs.push(PathBuf::from(arg));
            continue;
        }
        let (flag, inline) = match arg.split_once('=') {
            Some((f, v)) => (f.to_owned(), Some(v.to_owned())),
            None => (arg.clone(), None),
        };
        if ![
            "--out",
            "--crate-out",
            "--crate-name",
            "--runtime-dep",
            "--group-accessor",
            "--factory-module",
        ]
        .contains(&flag.as_str())
        {
            return Err(CliError::Usage(format!("unknown argument `{arg}`")));
        }
        let value = match inline {
            Some(v) => v,
            None => iter
                .next()
                .cloned()
                .ok_or_else(|| CliError::Usage(format!("`{flag}` needs a value")))?,
        };
        if flag != "--group-accessor" && options.iter().any(|(f, _)| *f == flag) {
            return Err(CliError::Usage(format!("`{flag}` given twice")));
        }
        options.push((flag, value));
    }
    let option = |flag: &str| {
        options
            .iter()
            .find(|(f, _)| f == flag)
            .map(|(_, v)| v.as_str())
    };
    if inputs.is_empty() {
        return Err(CliError::Usage("no CRD manifest or directory given".into()));
    }
    let mut config = informer_gen::Config::new();
    config.emit_cargo_directives(false);
    for input in &inputs {
        config.crd(input);
    }
    let accessors = options
        .iter()
        .filter(|(f, _)| f == "--group-accessor")
        .map(|(_, v)| v.as_str());
    for (group, name) in group_accessors(accessors)? {
        config.group_accessor(group, name);
    }
    let module = option("--factory-module");
    match (
        option("--out"),
        option("--crate-out"),
        option("--crate-name"),
    ) {
        (Some(out), None, None) => {
            let module = match module {
                Some(module) => module,
                None => module_of_dir(out)?,
            };
            config.factory_module(module);
            let (generated, files) = config.render_crd_tree("mod.rs")?;
            generated.write_dir(Path::new(out))?;
            Ok(format!(
                "{out}: {} Rust files from {} manifest file(s); declare `pub mod {};` in the crate root\n",
                generated.files().len(),
                files.len(),
                escape_ident(module),
            ))
        }
        (None, Some(out), Some(name)) => {
            let mut generated = emit::GeneratedFiles::default();
            generated.insert(
                PathBuf::from("Cargo.toml"),
                crate_manifest(name, option("--runtime-dep")),
            );
            if let Some(module) = module {
                config.factory_module(module);
            }
            let (tree, files) = match module {
                // The tree's root doc is the crate's doc.
                None => {
                    let (tree, files) = config.render_crd_tree("lib.rs")?;
                    nest(&tree, Path::new("src"), &mut generated);
                    (tree, files)
                }
                Some(module) => {
                    let (tree, files) = config.render_crd_tree("mod.rs")?;
                    // render_crd_tree accepted the name, so it is an identifier (maybe `r#type`).
                    let escaped = escape_ident(module);
                    let dir = escaped.strip_prefix("r#").unwrap_or(&escaped);
                    nest(&tree, &Path::new("src").join(dir), &mut generated);
                    generated.insert(
                        PathBuf::from("src/lib.rs"),
                        format!(
                            "//! Typed custom resources, informers, listers and a `SharedInformerFactory`,\n\
                             //! generated by informer-gen from CustomResourceDefinition manifests.\n\
                             \n\
                             /// The custom resources, their informers and listers, and the factory.\n\
                             pub mod {escaped};\n"
                        ),
                    );
                    (tree, files)
                }
            };
            generated.write_dir(Path::new(out))?;
            Ok(format!(
                "{out}: crate `{name}` ({} Rust files) from {} manifest file(s)\n",
                tree.files().len(),
                files.len()
            ))
        }
        (None, Some(_), None) => Err(CliError::Usage("`--crate-out` needs `--crate-name`".into())),
        _ => Err(CliError::Usage(
            "give either `--out <DIR>` or `--crate-out <DIR> --crate-name <NAME>`".into(),
        )),
    }
}

/// The module a tree written to `dir` is declared as when no `--factory-module` is given:
/// the directory's name, so that `--out src/crds` is `pub mod crds;`.
fn module_of_dir(dir: &str) -> Result<&str, CliError> {
    // `pub mod r#type;` is the directory `type/`, but `self` has to be declared as `self_`,
    // which is not the directory `self/`.
    let declares = |name: &str| {
        let escaped = escape_ident(name);
        is_snake_case_ident(name) && escaped.strip_prefix("r#").unwrap_or(&escaped) == name
    };
    match Path::new(dir).file_name().and_then(|n| n.to_str()) {
        Some(name) if declares(name) => Ok(name),
        _ => Err(CliError::Usage(format!(
            "`--out {dir}`: its directory name is not a Rust module name to declare it as; \
             give `--factory-module <NAME>`"
        ))),
    }
}

/// Adds the files of `tree` to `into`, below `dir`.
fn nest(tree: &emit::GeneratedFiles, dir: &Path, into: &mut emit::GeneratedFiles) {
    for (path, contents) in tree.files() {
        into.insert(dir.join(path), contents.clone());
    }
}

/// The Cargo.toml of a generated CRD crate. k8s-openapi has no version feature: the final
/// binary picks one.
fn crate_manifest(name: &str, runtime_dep: Option<&str>) -> String {
    let runtime = match runtime_dep {
        Some(v) if v.starts_with(|c: char| c.is_ascii_digit()) => format!("{v:?}"),
        Some(path) => format!("{{ path = {path:?} }}"),
        None => {
            let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
            let root = root.canonicalize().unwrap_or(root);
            format!("{{ path = {:?} }}", root.display().to_string())
        }
    };
    format!(
        "[package]\n\
         name = {name:?}\n\
         version = \"0.1.0\"\n\
         edition = \"2021\"\n\
         publish = false\n\
         \n\
         [dependencies]\n\
         informer-runtime = {runtime}\n\
         k8s-openapi = {{ version = \"0.29\", default-features = false, features = [\"std\"] }}\n\
         serde = {{ version = \"1\", features = [\"derive\"] }}\n\
         serde_json = \"1\"\n"
    )
}
