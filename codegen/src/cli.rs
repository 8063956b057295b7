//! Argument parsing and the subcommands of the `informer-gen` binary.
//!
//! Every subcommand returns its standard output as a string, so that `main` is the only
//! place that prints, and errors are single lines.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use informer_gen::emit::{self, EmitOptions, Layout, Target};
use informer_gen::model::{Api, ResourceDef, Scope};
use informer_gen::read::{self, k8s_openapi, openapi, table};

const USAGE: &str = "\
informer-gen: typed Kubernetes informers, listers and shared informer factories

Usage: informer-gen <COMMAND> [OPTIONS]

Commands:
  extract   Extract resource tables from the k8s-openapi sources
  list      List the resources that would be generated
  generate  Generate informers or listers into a directory

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
}

/// Runs the command line `args` (without the program name); returns standard output.
pub fn run(args: &[String]) -> Result<String, CliError> {
    let Some((command, rest)) = args.split_first() else {
        return Ok(USAGE.to_owned());
    };
    match command.as_str() {
        "-h" | "--help" | "help" => Ok(USAGE.to_owned()),
        "extract" => extract(&Args::parse(rest, &["--k8s-openapi", "--crate-version", "--out"])?),
        "list" => list(&Args::parse(rest, INPUT_FLAGS)?),
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
        files.insert(PathBuf::from(table::file_name(&t.kubernetes_version)), table::to_json(t));
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
            r.def.rust_type_path
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
