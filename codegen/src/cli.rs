//! Arguments (clap) and the subcommands of the `informer-gen` binary.
//!
//! Every subcommand returns its standard output as a string, so that `main` is the only
//! place that prints, and errors are single lines.

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::io::Read as _;
use std::path::{Path, PathBuf};

use clap::{Args, CommandFactory, Parser, Subcommand, ValueEnum};
use informer_gen::emit::{self, EmitOptions, Layout, Target};
use informer_gen::model::{
    escape_ident, is_snake_case_ident, Api, GroupAccessorError, ResourceDef, Scope,
};
use informer_gen::read::{self, k8s_openapi, openapi, table};

/// informer-gen: typed Kubernetes informers, listers and shared informer factories.
#[derive(Debug, Parser)]
#[command(name = "informer-gen", version, arg_required_else_help = true)]
pub struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// Extract resource tables from the k8s-openapi sources
    ///
    /// Writes one resource table per Kubernetes version (v1_XX.json).
    Extract(ExtractArgs),
    /// List the resources that would be generated
    ///
    /// One line per resource: group/version/plural, kind, scope, accessor, Rust type.
    List(SourceArgs),
    /// Generate informers or listers into a directory
    ///
    /// The directory is replaced as a whole, and nothing is written when anything fails.
    Generate(GenerateArgs),
    /// Generate typed resources, informers, listers and a factory for CRD manifests
    ///
    /// Reads CustomResourceDefinition manifests (YAML or JSON, multi-document, files or
    /// directories, `-` for standard input), or with `--from-cluster` the CRDs of the cluster
    /// of the kubeconfig. Nothing is written when anything fails.
    Crd(CrdArgs),
    /// Print a completion script for a shell
    ///
    /// e.g. `informer-gen completions bash > ~/.local/share/bash-completion/completions/informer-gen`
    Completions {
        /// The shell
        shell: clap_complete::Shell,
    },
}

#[derive(Debug, Args)]
struct ExtractArgs {
    /// The k8s-openapi crate sources (default: found in the cargo registry)
    #[arg(long = "k8s-openapi", value_name = "DIR")]
    k8s_openapi: Option<PathBuf>,
    /// The k8s-openapi version to find in the registry
    #[arg(long, value_name = "VERSION", default_value = "0.29.0")]
    crate_version: String,
    /// Where to write the tables (e.g. codegen/resources)
    #[arg(long, value_name = "DIR")]
    out: PathBuf,
}

/// Exactly one input.
#[derive(Debug, Args)]
#[group(required = true, multiple = false)]
struct InputArgs {
    /// A built-in table, e.g. 1.37
    #[arg(long, value_name = "VERSION", help_heading = "Input (exactly one)")]
    k8s_version: Option<String>,
    /// A table file written by `extract`
    #[arg(long, value_name = "FILE", help_heading = "Input (exactly one)")]
    table: Option<PathBuf>,
    /// An OpenAPI v2 swagger.json, a v3 document, or a directory of v3 documents
    #[arg(long, value_name = "PATH", help_heading = "Input (exactly one)")]
    openapi: Option<PathBuf>,
}

#[derive(Debug, Args)]
struct SourceArgs {
    #[command(flatten)]
    input: InputArgs,
    /// Only this API group (name like `apps` or accessor like `core`); repeatable
    #[arg(long = "group", value_name = "GROUP", help_heading = "Filters")]
    groups: Vec<String>,
    /// Not this API group; repeatable
    #[arg(long = "exclude-group", value_name = "GROUP", help_heading = "Filters")]
    exclude_groups: Vec<String>,
    /// Name the accessor and module of API group GROUP (`""` for core) NAME instead of the
    /// derived one: `apps=workloads` gives `factory.workloads()`; repeatable. Filters see the
    /// new name
    #[arg(
        long = "group-accessor",
        value_name = "GROUP=NAME",
        help_heading = "Names"
    )]
    group_accessors: Vec<String>,
}

#[derive(Debug, Clone, Copy, ValueEnum)]
enum TargetKind {
    /// Informers, the factory and (unless --listers-path) listers
    Informers,
    /// Listers only
    Listers,
}

#[derive(Debug, Args)]
struct GenerateArgs {
    #[command(flatten)]
    source: SourceArgs,
    /// Output directory (replaced)
    #[arg(long, value_name = "DIR")]
    out: PathBuf,
    /// What to generate
    #[arg(long, value_enum, default_value = "informers")]
    target: TargetKind,
    /// Informers use listers from this module path (default: emitted inline)
    #[arg(long, value_name = "PATH")]
    listers_path: Option<String>,
    /// Path of the runtime crate
    #[arg(long, value_name = "PATH", default_value = "::kube_informers")]
    runtime_path: String,
    /// Path of k8s-openapi
    #[arg(
        long,
        value_name = "PATH",
        default_value = "::kube_informers::k8s_openapi"
    )]
    k8s_openapi_path: String,
    /// Write one file NAME instead of a tree
    #[arg(long, value_name = "NAME")]
    single_file: Option<String>,
    /// Root file of a tree
    #[arg(long, value_name = "NAME", default_value = "mod.rs")]
    root_file: String,
}

#[derive(Debug, Args)]
struct CrdArgs {
    /// CRD manifests: files or directories, `-` for standard input. With --from-cluster, the
    /// names of the CRDs to read (`certificates.cert-manager.io`; default: every CRD)
    #[arg(value_name = "FILE|DIR|-")]
    inputs: Vec<String>,
    /// Read the CRDs from the cluster of the kubeconfig (`KUBECONFIG`, else `~/.kube/config`,
    /// else the in-cluster config), as `kopium` does
    #[arg(long)]
    from_cluster: bool,
    /// Write a module tree into DIR (replaced): DIR/mod.rs with the factory and
    /// MetadataGroups, DIR/<group>/<version>/ with a file per resource's informer and lister,
    /// DIR/<group_types>/<version>.rs with the types. Make DIR `src/<NAME>` and declare
    /// `pub mod <NAME>;` in the crate root: generated code names its types
    /// `crate::<NAME>::...`. NAME is --factory-module, by default DIR's last component
    /// (`--out src/crds` → `pub mod crds;`)
    #[arg(long, value_name = "DIR")]
    out: Option<String>,
    /// Write a complete crate into DIR (replaced): Cargo.toml and that tree rooted at
    /// src/lib.rs; with `--factory-module crds`, src/lib.rs declares `pub mod crds;` and the
    /// tree is src/crds/ (used as `<crate>::crds::...`). `cargo build` works in it: its
    /// default feature picks k8s-openapi's `latest` Kubernetes version (turn it off with
    /// `default-features = false` where a binary picks its own)
    #[arg(long, value_name = "DIR")]
    crate_out: Option<String>,
    /// The crate's name (with --crate-out)
    #[arg(long, value_name = "NAME")]
    crate_name: Option<String>,
    /// kube-informers dependency of that crate: a path, or a version (default: this
    /// informer-gen's version, with the path of the kube-informers checkout it was built from
    /// when that exists)
    #[arg(long, value_name = "PATH|VERSION")]
    runtime_dep: Option<String>,
    /// Name the accessor and informer module of API group GROUP NAME instead of the derived
    /// one: `cert-manager.io=certs` gives `factory.certs().v1().certificates()`; repeatable
    #[arg(
        long = "group-accessor",
        value_name = "GROUP=NAME",
        help_heading = "Names"
    )]
    group_accessors: Vec<String>,
    /// The output lives in module NAME under the crate root
    /// (`crate::NAME::SharedInformerFactory`); default: DIR's name with --out, the crate root
    /// itself with --crate-out
    #[arg(long, value_name = "NAME", help_heading = "Names")]
    factory_module: Option<String>,
}

/// A command-line error: one line, naming what was wrong.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
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
    /// Standard input could not be read.
    #[error("reading CRD manifests from standard input: {0}")]
    Stdin(#[source] std::io::Error),
    /// The async runtime for talking to the cluster could not start.
    #[error("starting the runtime to talk to the cluster: {0}")]
    AsyncRuntime(#[source] std::io::Error),
    /// No client for the cluster of the kubeconfig.
    #[error("reading CRDs from the cluster: {0}")]
    Client(#[source] informer_client::Error),
    /// The cluster did not answer a GET of CRDs.
    #[error("reading CRDs from the cluster: GET {path}: {source}")]
    Cluster {
        /// The path.
        path: String,
        /// The client's error.
        source: informer_client::Error,
    },
}

/// Prints what a failed parse has to say: help and version on standard output (success),
/// anything else as one error line on standard error (exit code 2), with clap's suggestions.
pub fn parse_failure(error: &clap::Error) -> std::process::ExitCode {
    use clap::error::ErrorKind;
    use std::io::Write as _;
    match error.kind() {
        ErrorKind::DisplayHelp
        | ErrorKind::DisplayVersion
        | ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand => {
            // A closed pipe (`informer-gen --help | head`) is not an error worth a panic.
            let _ = std::io::stdout().write_all(error.render().to_string().as_bytes());
            std::process::ExitCode::SUCCESS
        }
        _ => {
            eprintln!(
                "informer-gen: error: {}",
                one_line(&error.render().to_string())
            );
            std::process::ExitCode::from(2)
        }
    }
}

/// clap's multi-line error (message, tips, usage) as one line: the usage is left out, since
/// `--help` gives it.
fn one_line(rendered: &str) -> String {
    let parts: Vec<&str> = rendered
        .lines()
        .map(str::trim)
        .filter(|l| {
            !l.is_empty() && !l.starts_with("Usage:") && !l.starts_with("For more information")
        })
        .map(|l| l.strip_prefix("error: ").unwrap_or(l))
        .collect();
    format!("{} (see --help)", parts.join("; "))
}

/// Runs a parsed command line; returns standard output.
pub fn run(cli: Cli) -> Result<String, CliError> {
    match cli.command {
        Command::Extract(args) => extract(&args),
        Command::List(args) => list(&args),
        Command::Generate(args) => generate(&args),
        Command::Crd(args) => crd(&args),
        Command::Completions { shell } => {
            let mut script = Vec::new();
            clap_complete::generate(shell, &mut Cli::command(), "informer-gen", &mut script);
            Ok(String::from_utf8_lossy(&script).into_owned())
        }
    }
}

fn extract(args: &ExtractArgs) -> Result<String, CliError> {
    let crate_dir = match &args.k8s_openapi {
        Some(dir) => dir.clone(),
        None => {
            let version = &args.crate_version;
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
    files.write_files_into(&args.out)?;
    Ok(report)
}

/// The resources and a description of where they came from.
fn load(input: &InputArgs) -> Result<(String, Vec<ResourceDef>), CliError> {
    match (&input.k8s_version, &input.table, &input.openapi) {
        (Some(v), None, None) => {
            let t = table::builtin(v)?;
            Ok((
                format!("Kubernetes {} ({})", t.kubernetes_version, t.source),
                t.resources,
            ))
        }
        (None, Some(file), None) => {
            let t = table::read(file)?;
            Ok((
                format!("Kubernetes {} ({})", t.kubernetes_version, t.source),
                t.resources,
            ))
        }
        (None, None, Some(path)) => {
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

fn model(args: &SourceArgs) -> Result<(String, Api), CliError> {
    let (description, defs) = load(&args.input)?;
    let mut api = Api::new(&description, &defs)?;
    // Renamed before filtering, as `Config` does.
    api.rename_groups(&group_accessors(&args.group_accessors)?)?;
    let only = &args.groups;
    let except = &args.exclude_groups;
    api.retain_groups(|g| {
        let named = |list: &[String]| list.iter().any(|n| *n == g.name || *n == g.module);
        (only.is_empty() || named(only)) && !named(except)
    });
    if api.is_empty() {
        return Err(CliError::Usage(format!(
            "{description}: no resources left after the group filters"
        )));
    }
    Ok((description, api))
}

/// `--group-accessor GROUP=NAME` values as API group → accessor name.
fn group_accessors(values: &[String]) -> Result<BTreeMap<String, String>, CliError> {
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

fn list(args: &SourceArgs) -> Result<String, CliError> {
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

fn generate(args: &GenerateArgs) -> Result<String, CliError> {
    let target = match args.target {
        TargetKind::Informers => Target::Informers {
            listers_path: args.listers_path.clone(),
        },
        TargetKind::Listers => Target::Listers,
    };
    let layout = match &args.single_file {
        Some(name) => Layout::SingleFile {
            file_name: name.clone(),
        },
        None => Layout::Tree {
            root_file: args.root_file.clone(),
        },
    };
    let (description, api) = model(&args.source)?;
    let options = EmitOptions {
        target,
        layout,
        runtime_path: args.runtime_path.clone(),
        k8s_openapi_path: args.k8s_openapi_path.clone(),
        source_description: description,
    };
    let files = emit::generate(&api, &options)?;
    files.write_dir(&args.out)?;
    Ok(format!(
        "wrote {} files ({} resources) to {}\n",
        files.files().len(),
        api.resources().count(),
        args.out.display()
    ))
}

/// `informer-gen crd`.
fn crd(args: &CrdArgs) -> Result<String, CliError> {
    let mut config = informer_gen::Config::new();
    config.emit_cargo_directives(false);
    let mut manifests = 0;
    if args.from_cluster {
        for (name, text) in cluster_manifests(&args.inputs)? {
            config.crd_manifest(name, text);
            manifests += 1;
        }
    } else {
        if args.inputs.is_empty() {
            return Err(CliError::Usage("no CRD manifest or directory given".into()));
        }
        let mut stdin_read = false;
        for input in &args.inputs {
            if input != "-" {
                config.crd(input);
                continue;
            }
            if stdin_read {
                return Err(CliError::Usage("`-` (standard input) given twice".into()));
            }
            stdin_read = true;
            let mut text = String::new();
            std::io::stdin()
                .read_to_string(&mut text)
                .map_err(CliError::Stdin)?;
            config.crd_manifest("<stdin>", text);
            manifests += 1;
        }
    }
    for (group, name) in group_accessors(&args.group_accessors)? {
        config.group_accessor(group, name);
    }
    let module = args.factory_module.as_deref();
    match (&args.out, &args.crate_out, &args.crate_name) {
        (Some(out), None, None) => {
            let module = match module {
                Some(module) => module,
                None => module_of_dir(out)?,
            };
            config.factory_module(module);
            let (generated, files) = config.render_crd_tree("mod.rs")?;
            generated.write_dir(Path::new(out))?;
            Ok(format!(
                "{out}: {} from {}; declare `pub mod {};` in the crate root\n",
                counted(generated.files().len(), "Rust file"),
                counted(files.len() + manifests, "manifest"),
                escape_ident(module),
            ))
        }
        (None, Some(out), Some(name)) => {
            let mut generated = emit::GeneratedFiles::default();
            let runtime = match &args.runtime_dep {
                Some(dep) => runtime_dep(dep),
                None => default_runtime_dep(),
            };
            let runtime_by_path = runtime.contains("path = ");
            generated.insert(PathBuf::from("Cargo.toml"), crate_manifest(name, &runtime));
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
            let runtime_note = if runtime_by_path {
                "\nkube-informers comes from the `path` in its Cargo.toml (drop the path to \
                 take the version from crates.io; `cargo publish` keeps only the version)"
            } else {
                ""
            };
            Ok(format!(
                "{out}: crate `{name}` ({}) from {}\n\
                 `cargo build` there builds it for k8s-openapi's newest Kubernetes version (its \
                 default feature enables `k8s-openapi/latest`); a binary that enables its own \
                 k8s-openapi version feature depends on it with `default-features = false`\
                 {runtime_note}\n",
                counted(tree.files().len(), "Rust file"),
                counted(files.len() + manifests, "manifest"),
            ))
        }
        (None, Some(_), None) => Err(CliError::Usage("`--crate-out` needs `--crate-name`".into())),
        _ => Err(CliError::Usage(
            "give either `--out <DIR>` or `--crate-out <DIR> --crate-name <NAME>`".into(),
        )),
    }
}

/// `1 manifest`, `2 manifests`.
fn counted(n: usize, noun: &str) -> String {
    if n == 1 {
        format!("1 {noun}")
    } else {
        format!("{n} {noun}s")
    }
}

/// Where the API server serves CRDs.
const CRDS_PATH: &str = "/apis/apiextensions.k8s.io/v1/customresourcedefinitions";

/// The CRDs `names` (every CRD when empty) from the cluster of the kubeconfig, one manifest
/// each, named `cluster:<name>` for errors.
fn cluster_manifests(names: &[String]) -> Result<Vec<(PathBuf, String)>, CliError> {
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .map_err(CliError::AsyncRuntime)?;
    runtime.block_on(async {
        let client = informer_client::Client::try_default()
            .await
            .map_err(CliError::Client)?;
        let get = |path: String| {
            let client = &client;
            async move {
                let fetched = match informer_client::request::Request::get_path(&path) {
                    Ok(request) => client.request::<serde_json::Value>(request).await,
                    Err(e) => Err(e),
                };
                fetched.map_err(|source| CliError::Cluster { path, source })
            }
        };
        let crds = if names.is_empty() {
            let list = get(CRDS_PATH.to_owned()).await?;
            match list.get("items") {
                Some(serde_json::Value::Array(items)) => items.clone(),
                _ => Vec::new(),
            }
        } else {
            let mut crds = Vec::with_capacity(names.len());
            for name in names {
                crds.push(get(format!("{CRDS_PATH}/{name}")).await?);
            }
            crds
        };
        if crds.is_empty() {
            return Err(CliError::Usage(
                "the cluster has no CustomResourceDefinition".into(),
            ));
        }
        Ok(crds.into_iter().map(cluster_manifest).collect())
    })
}

/// One CRD as the API server returned it, as a manifest: list items carry no `apiVersion`
/// and `kind`, which a manifest needs.
fn cluster_manifest(mut crd: serde_json::Value) -> (PathBuf, String) {
    let name = crd
        .pointer("/metadata/name")
        .and_then(serde_json::Value::as_str)
        .unwrap_or("unnamed")
        .to_owned();
    if let Some(object) = crd.as_object_mut() {
        object
            .entry("apiVersion")
            .or_insert_with(|| "apiextensions.k8s.io/v1".into());
        object
            .entry("kind")
            .or_insert_with(|| "CustomResourceDefinition".into());
    }
    (PathBuf::from(format!("cluster:{name}")), crd.to_string())
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

/// `--runtime-dep` as a dependency value: a version requirement when it starts with a digit,
/// else a path. Without default features: a CRD crate needs the runtime, not the built-in
/// informers or the controller kit.
fn runtime_dep(dep: &str) -> String {
    if dep.starts_with(|c: char| c.is_ascii_digit()) {
        format!("{{ version = {dep:?}, default-features = false }}")
    } else {
        format!("{{ path = {dep:?}, default-features = false }}")
    }
}

/// The kube-informers dependency of a generated crate when `--runtime-dep` is not given: the
/// kube-informers next to this informer-gen, by path, when that is a checkout; else the one
/// of this version from crates.io (an installed binary's sources are gone, or sit in
/// cargo's registry or git cache, which is no place to depend on).
fn default_runtime_dep() -> String {
    let cargo_home = std::env::var_os("CARGO_HOME")
        .map(PathBuf::from)
        .or_else(|| std::env::var_os("HOME").map(|home| PathBuf::from(home).join(".cargo")));
    runtime_dep_from(
        &Path::new(env!("CARGO_MANIFEST_DIR")).join("../kube-informers"),
        cargo_home.as_deref(),
    )
}

/// [`default_runtime_dep`] for the kube-informers checkout `root` and cargo's home `cargo_home`:
/// the version, with the checkout's path when there is one (cargo builds from the path, and
/// `cargo publish` keeps only the version).
fn runtime_dep_from(root: &Path, cargo_home: Option<&Path>) -> String {
    let version = env!("CARGO_PKG_VERSION");
    let from_registry = format!("{{ version = {version:?}, default-features = false }}");
    let Ok(root) = root.canonicalize() else {
        return from_registry;
    };
    let in_cargo_home = cargo_home
        .and_then(|home| home.canonicalize().ok())
        .is_some_and(|home| root.starts_with(home));
    if in_cargo_home || !root.join("Cargo.toml").is_file() {
        return from_registry;
    }
    format!(
        "{{ version = {version:?}, path = {:?}, default-features = false }}",
        root.display().to_string()
    )
}

/// The Cargo.toml of a generated CRD crate. Generated code needs nothing but kube-informers
/// (which re-exports the runtime, k8s-openapi, serde and serde_json for it). k8s-openapi builds
/// only with exactly one Kubernetes version feature: the crate enables kube-informers' `latest`
/// by default, so that `cargo build` in it works, and a binary that picks its own version turns
/// that off.
fn crate_manifest(name: &str, runtime: &str) -> String {
    format!(
        "[package]\n\
         name = {name:?}\n\
         version = \"0.1.0\"\n\
         edition = \"2021\"\n\
         publish = false\n\
         \n\
         [features]\n\
         # k8s-openapi needs exactly one Kubernetes version feature in a build. `latest` makes\n\
         # `cargo build` here work; a binary that enables its own version (e.g. `v1_35`) depends\n\
         # on this crate with `default-features = false`.\n\
         default = [\"kube-informers/latest\"]\n\
         \n\
         [dependencies]\n\
         # With a `path`, cargo builds kube-informers from there; `cargo publish` keeps the version.\n\
         kube-informers = {runtime}\n"
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_runtime_is_a_path_only_in_a_checkout_outside_cargo_home() {
        let dir = tempfile::tempdir().unwrap();
        let checkout = dir.path().join("checkout");
        std::fs::create_dir_all(&checkout).unwrap();
        std::fs::write(checkout.join("Cargo.toml"), "[package]\n").unwrap();
        let version = format!("{:?}", env!("CARGO_PKG_VERSION"));
        let registry_dep = format!("{{ version = {version}, default-features = false }}");
        let dep = runtime_dep_from(&checkout, None);
        assert!(
            dep.starts_with(&format!("{{ version = {version}, path = ")),
            "{dep}"
        );
        assert!(dep.contains("checkout"), "{dep}");
        assert!(dep.ends_with(", default-features = false }"), "{dep}");
        // Installed from crates.io (or git): the sources sit in cargo's home.
        let cargo_home = dir.path().join("cargo");
        let registry = cargo_home.join("registry/src/index.crates.io-0000/informer-gen-0.1.0");
        std::fs::create_dir_all(&registry).unwrap();
        std::fs::write(registry.join("Cargo.toml"), "[package]\n").unwrap();
        assert_eq!(runtime_dep_from(&registry, Some(&cargo_home)), registry_dep);
        // Built elsewhere and the sources are gone.
        assert_eq!(
            runtime_dep_from(&dir.path().join("gone"), None),
            registry_dep
        );
        // A directory without a crate.
        assert_eq!(runtime_dep_from(dir.path(), None), registry_dep);
    }

    #[test]
    fn runtime_dep_is_a_version_or_a_path() {
        assert_eq!(
            runtime_dep("0.1"),
            "{ version = \"0.1\", default-features = false }"
        );
        assert_eq!(
            runtime_dep("../kube-informers"),
            "{ path = \"../kube-informers\", default-features = false }"
        );
    }

    #[test]
    fn clap_errors_become_one_line() {
        let error = Cli::try_parse_from(["informer-gen", "generat"]).unwrap_err();
        let line = one_line(&error.render().to_string());
        assert!(!line.contains('\n'), "{line}");
        assert!(line.contains("generat"), "{line}");
        assert!(line.contains("generate"), "a suggestion: {line}");
    }

    #[test]
    fn the_command_line_is_consistent() {
        Cli::command().debug_assert();
    }
}
