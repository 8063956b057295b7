//! The `build.rs` API: a prost-build-style [`Config`] that generates informers (or listers)
//! into `OUT_DIR` and tells cargo when to run again.
//!
//! ```no_run
//! // build.rs of a crate depending on kube-informers (and informer-gen as build dependency)
//! fn main() -> Result<(), Box<dyn std::error::Error>> {
//!     informer_gen::Config::new()
//!         .allow_groups(["", "apps"])
//!         .generate()?;
//!     Ok(())
//! }
//! // src/lib.rs: include!(concat!(env!("OUT_DIR"), "/informers.rs"));
//! ```

use std::collections::{BTreeMap, BTreeSet};
use std::io::Write;
use std::path::{Path, PathBuf};

use crate::emit::{self, EmitOptions, GeneratedFiles, Layout, Target};
use crate::model::{escape_ident, is_snake_case_ident, Api, GroupAccessorError, ResourceDef};
use crate::read::protobuf_table::ProtobufTable;
use crate::read::{self, table, ReadError};

/// Why [`Config::generate`] failed. Its `Debug` form is its message, so that a build script
/// whose `main` returns it prints what went wrong and what to do, not a struct.
#[derive(thiserror::Error)]
#[non_exhaustive]
pub enum GenerateError {
    /// An input could not be read.
    #[error(transparent)]
    Read(#[from] read::ReadError),
    /// The resources are not valid.
    #[error(transparent)]
    Model(#[from] crate::model::ModelError),
    /// Code generation failed.
    #[error(transparent)]
    Emit(#[from] emit::EmitError),
    /// The output could not be written.
    #[error(transparent)]
    Write(#[from] emit::WriteError),
    /// A CRD manifest could not be read or typed (names the file, the CRD and the JSON path).
    #[error(transparent)]
    Crd(Box<crate::read::crd::CrdError>),
    /// A name given to [`Config::group_accessor`] cannot be used (names the group and the name).
    #[error(transparent)]
    GroupAccessor(#[from] GroupAccessorError),
    /// The name given to [`Config::factory_module`] is not a snake_case Rust identifier.
    #[error(
        "factory module `{0}`: not a snake_case Rust identifier (ASCII lowercase letters, \
         digits and `_`, not starting with a digit)"
    )]
    FactoryModule(String),
    /// Generated CRD type modules and informer group modules would share a name.
    #[error("{0}")]
    CrdModuleClash(String),
    /// The CRD inputs hold no CustomResourceDefinition (empty directories).
    #[error(
        "no CustomResourceDefinition in {0}: put CRD manifests (.yaml, .yml or .json) there, \
         or give the path of one"
    )]
    NoCrds(String),
    /// No output directory: neither `out_dir` nor `OUT_DIR` is set.
    #[error("no output directory: call `out_dir(..)` or run from a build script (OUT_DIR unset)")]
    NoOutDir,
    /// The Kubernetes version is unknown.
    #[error(
        "no Kubernetes version: call `k8s_version(..)`, or depend on k8s-openapi directly so that \
         cargo sets DEP_K8S_OPENAPI_*_VERSION (and let the final binary enable one version feature)"
    )]
    NoK8sVersion,
    /// `DEP_K8S_OPENAPI_*_VERSION` holds something unexpected.
    #[error("{var}=`{value}`: not a k8s-openapi version number")]
    BadK8sVersion {
        /// The variable.
        var: String,
        /// Its value.
        value: String,
    },
}

impl std::fmt::Debug for GenerateError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        std::fmt::Display::fmt(self, f)
    }
}

impl From<crate::read::crd::CrdError> for GenerateError {
    fn from(e: crate::read::crd::CrdError) -> Self {
        Self::Crd(Box::new(e))
    }
}

/// Configures and runs generation from a build script.
#[derive(Debug, Clone)]
pub struct Config {
    out_dir: Option<PathBuf>,
    k8s_version: Option<String>,
    allow_groups: Option<BTreeSet<String>>,
    deny_groups: BTreeSet<String>,
    groups_from_features: bool,
    target: Target,
    file_name: String,
    runtime_path: String,
    k8s_openapi_path: String,
    emit_cargo_directives: bool,
    crds: Vec<PathBuf>,
    crd_texts: Vec<(PathBuf, String)>,
    group_accessors: BTreeMap<String, String>,
    factory_module: Option<String>,
}

impl Default for Config {
    fn default() -> Self {
        Self::new()
    }
}

impl Config {
    /// Informers with inline listers for the built-in resources of the Kubernetes version
    /// k8s-openapi was built for, into `$OUT_DIR/informers.rs`.
    pub fn new() -> Self {
        Self {
            out_dir: None,
            k8s_version: None,
            allow_groups: None,
            deny_groups: BTreeSet::new(),
            groups_from_features: false,
            target: Target::Informers { listers_path: None },
            file_name: "informers.rs".to_owned(),
            runtime_path: "::kube_informers".to_owned(),
            k8s_openapi_path: "::kube_informers::k8s_openapi".to_owned(),
            emit_cargo_directives: true,
            crds: Vec::new(),
            crd_texts: Vec::new(),
            group_accessors: BTreeMap::new(),
            factory_module: None,
        }
    }

    /// Where to write (default: `OUT_DIR`).
    pub fn out_dir(&mut self, dir: impl Into<PathBuf>) -> &mut Self {
        self.out_dir = Some(dir.into());
        self
    }

    /// The Kubernetes version whose built-in table to use (`1.37`); default: the one
    /// k8s-openapi was built for, from `DEP_K8S_OPENAPI_*_VERSION`.
    pub fn k8s_version(&mut self, version: impl Into<String>) -> &mut Self {
        self.k8s_version = Some(version.into());
        self
    }

    /// Generate only these groups (API group names like `apps` or `""`, or accessor names
    /// like `core`, `rbac_authorization`, as renamed by [`Config::group_accessor`]).
    pub fn allow_groups<S: Into<String>>(
        &mut self,
        groups: impl IntoIterator<Item = S>,
    ) -> &mut Self {
        self.allow_groups = Some(groups.into_iter().map(Into::into).collect());
        self
    }

    /// Never generate these groups (names as in [`Config::allow_groups`]).
    pub fn deny_groups<S: Into<String>>(
        &mut self,
        groups: impl IntoIterator<Item = S>,
    ) -> &mut Self {
        self.deny_groups.extend(groups.into_iter().map(Into::into));
        self
    }

    /// Generate only groups whose cargo feature is enabled: the feature named like the
    /// group's accessor (`core`, `apps`, `rbac_authorization`, as renamed by
    /// [`Config::group_accessor`]), seen as `CARGO_FEATURE_<NAME>`.
    pub fn groups_from_cargo_features(&mut self) -> &mut Self {
        self.groups_from_features = true;
        self
    }

    /// Name the accessor of API `group` (`cert-manager.io`; `""` for the core group) `name`
    /// instead of the derived one (`cert_manager`): `factory.certs().v1().certificates()`, and
    /// the group's informer module is `certs`. Built-in groups can be renamed too. Repeatable;
    /// a second call for one group replaces the first.
    ///
    /// [`Config::generate`] fails with [`GenerateError::GroupAccessor`] when `name` is not a
    /// snake_case identifier (keywords are fine, they are escaped as `r#type`), is a method of
    /// the factory (`start`, `new`, ...), is another group's accessor as well, or when no
    /// input defines `group`.
    pub fn group_accessor(
        &mut self,
        group: impl Into<String>,
        name: impl Into<String>,
    ) -> &mut Self {
        self.group_accessors.insert(group.into(), name.into());
        self
    }

    /// The module the generated file is included into, directly under the crate root:
    /// `factory_module("crds")` for
    /// `pub mod crds { include!(concat!(env!("OUT_DIR"), "/informers.rs")); }`, used as
    /// `crds::SharedInformerFactory` and `crds::cert_manager_io::v1::Certificate`.
    ///
    /// Generated CRD code names its own types by absolute path (`crate::crds::...`), so the
    /// default (no module) needs the file included at the crate root. A tree from
    /// [`Config::render_crd_tree`] is declared as this module (`pub mod crds;` with the tree
    /// in `src/crds/`). Built-in output names nothing of its own and can be included
    /// anywhere: there, this only checks the name.
    /// [`Config::generate`] fails with [`GenerateError::FactoryModule`] when `name` is not a
    /// snake_case identifier.
    pub fn factory_module(&mut self, name: impl Into<String>) -> &mut Self {
        self.factory_module = Some(name.into());
        self
    }

    /// Generate typed listers only.
    pub fn listers_only(&mut self) -> &mut Self {
        self.target = Target::Listers;
        self
    }

    /// Generate informers that use the listers generated elsewhere, at `path` (`::listers`).
    pub fn listers_path(&mut self, path: impl Into<String>) -> &mut Self {
        self.target = Target::Informers {
            listers_path: Some(path.into()),
        };
        self
    }

    /// Name of the generated file (default `informers.rs`).
    pub fn file_name(&mut self, name: impl Into<String>) -> &mut Self {
        self.file_name = name.into();
        self
    }

    /// Path of the runtime crate in generated code (default `::kube_informers`, the facade crate).
    pub fn runtime_path(&mut self, path: impl Into<String>) -> &mut Self {
        self.runtime_path = path.into();
        self
    }

    /// Path of k8s-openapi in generated code (default `::kube_informers::k8s_openapi`).
    pub fn k8s_openapi_path(&mut self, path: impl Into<String>) -> &mut Self {
        self.k8s_openapi_path = path.into();
        self
    }

    /// Whether to print `cargo:rerun-if-*` lines (default: yes; turn off outside build scripts).
    pub fn emit_cargo_directives(&mut self, on: bool) -> &mut Self {
        self.emit_cargo_directives = on;
        self
    }

    /// The built-in table of the configured Kubernetes version (or the one k8s-openapi
    /// was built for, see [`Config::k8s_version`]).
    pub fn builtin_table(&self) -> Result<table::Table, GenerateError> {
        let version = self.kubernetes_version()?;
        Ok(table::builtin(&version)?)
    }

    /// Generate for CustomResourceDefinitions instead of the built-in resources: a YAML or
    /// JSON manifest (multi-document is fine) or a directory of them; repeatable. The output
    /// holds typed resources (`cert_manager_io::v1::Certificate`) next to their informers,
    /// listers and a `SharedInformerFactory`; include it at the crate root (or in the module
    /// named by [`Config::factory_module`]), in a crate that depends on kube-informers: generated code
    /// reaches the runtime, k8s-openapi, serde and serde_json through it (at
    /// [`Config::runtime_path`]).
    pub fn crd(&mut self, path: impl Into<PathBuf>) -> &mut Self {
        self.crds.push(path.into());
        self
    }

    /// Like [`Config::crd`] for a manifest given as text (read from standard input, fetched
    /// from a cluster): `name` stands for its file in errors (`<stdin>`). Repeatable.
    pub fn crd_manifest(&mut self, name: impl Into<PathBuf>, text: impl Into<String>) -> &mut Self {
        self.crd_texts.push((name.into(), text.into()));
        self
    }

    /// The CRD types, informers, listers and factory for the manifests given to
    /// [`Config::crd`] and [`Config::crd_manifest`] as [`Config::generate`] writes them: one file, named as by
    /// [`Config::file_name`]; plus every file read.
    pub fn render_crds(&self) -> Result<(GeneratedFiles, Vec<PathBuf>), GenerateError> {
        self.render_crds_as(Layout::SingleFile {
            file_name: self.file_name.clone(),
        })
    }

    /// [`Config::render_crds`] as a module tree, for checked-in code: `root_file` (`mod.rs`,
    /// or `lib.rs` for a crate root) with the factory and `MetadataGroups`, a directory per
    /// informer group and version with a file per resource, and a directory per group of
    /// types with a file per version. Generated code names its own types as in one file, so
    /// the tree's root is the crate root, or the module named by [`Config::factory_module`].
    pub fn render_crd_tree(
        &self,
        root_file: &str,
    ) -> Result<(GeneratedFiles, Vec<PathBuf>), GenerateError> {
        self.render_crds_as(Layout::Tree {
            root_file: root_file.to_owned(),
        })
    }

    fn render_crds_as(
        &self,
        layout: Layout,
    ) -> Result<(GeneratedFiles, Vec<PathBuf>), GenerateError> {
        let base = self.self_path()?;
        let (model, files) = crate::read::crd::read_sources(&self.crds, &self.crd_texts)?;
        if model.modules.is_empty() {
            let inputs: Vec<String> = self
                .crds
                .iter()
                .map(|p| format!("`{}`", p.display()))
                .chain(
                    self.crd_texts
                        .iter()
                        .map(|(name, _)| format!("`{}`", name.display())),
                )
                .collect();
            return Err(GenerateError::NoCrds(inputs.join(", ")));
        }
        let defs = model.resource_defs();
        let description = "CustomResourceDefinitions";
        // The types modules sit next to the informer modules: derived group names avoid them.
        let types_modules = model.group_modules();
        let api = self.api(Api::with_reserved_modules(
            description,
            &defs,
            types_modules,
        )?)?;
        for types in &model.modules {
            if let Some(informers) = api
                .groups
                .iter()
                .find(|g| escape_ident(&g.module) == types.group_module)
            {
                return Err(GenerateError::CrdModuleClash(format!(
                    "group `{}`: its types module `{}` is also the informer module of group `{}` \
                     (choose another name with `group_accessor`)",
                    types.group, types.group_module, informers.name
                )));
            }
        }
        let options = EmitOptions {
            target: self.target.clone(),
            layout,
            runtime_path: self.runtime_path.clone(),
            k8s_openapi_path: self.k8s_openapi_path.clone(),
            source_description: description.to_owned(),
        };
        Ok((emit::generate_crds(&api, &model, &base, &options)?, files))
    }

    /// Generates from the built-in table, or from the CRDs given to [`Config::crd`];
    /// returns the written file. Nothing is written when anything fails.
    pub fn generate(&self) -> Result<PathBuf, GenerateError> {
        if !self.crds.is_empty() || !self.crd_texts.is_empty() {
            return self.generate_crds();
        }
        let table = self.builtin_table()?;
        let description = format!("Kubernetes {} ({})", table.kubernetes_version, table.source);
        self.generate_from(&description, &table.resources)
    }

    /// Generates from `defs` (described as `source_description` in docs and errors);
    /// returns the written file. Other readers (CRDs) end here.
    pub fn generate_from(
        &self,
        source_description: &str,
        defs: &[ResourceDef],
    ) -> Result<PathBuf, GenerateError> {
        // Built-in code never names itself, but a bad module name is still an error, so that
        // switching to CRDs later does not reveal it.
        self.self_path()?;
        let api = self.api(Api::new(source_description, defs)?)?;
        let options = EmitOptions {
            target: self.target.clone(),
            layout: Layout::SingleFile {
                file_name: self.file_name.clone(),
            },
            runtime_path: self.runtime_path.clone(),
            k8s_openapi_path: self.k8s_openapi_path.clone(),
            source_description: source_description.to_owned(),
        };
        let files = emit::generate(&api, &options)?;
        let out_dir = self.output_dir()?;
        files.write_files_into(&out_dir)?;
        Ok(out_dir.join(&self.file_name))
    }

    fn generate_crds(&self) -> Result<PathBuf, GenerateError> {
        for path in &self.crds {
            // A directory too, so that adding a manifest to it regenerates.
            self.rerun_if_changed(path);
        }
        let (generated, files) = self.render_crds()?;
        for file in &files {
            self.rerun_if_changed(file);
        }
        let out_dir = self.output_dir()?;
        generated.write_files_into(&out_dir)?;
        Ok(out_dir.join(&self.file_name))
    }

    /// Writes the protobuf decoders (`impl Message` for every k8s-openapi struct that
    /// decodes faithfully, see [`crate::read::protobuf_table`]) of the Kubernetes version
    /// k8s-openapi was built for (or [`Config::k8s_version`]) to [`Config::file_name`];
    /// [`Config::runtime_path`] names the decoding runtime (`informer-protobuf`).
    ///
    /// With a group filter ([`Config::allow_groups`], [`Config::deny_groups`],
    /// [`Config::groups_from_cargo_features`]), only the kept groups' resources get decoders,
    /// with the structs they reach and the `apimachinery` ones lists and watches need: a
    /// binary that watches Pods does not compile a decoder for every struct of Kubernetes.
    pub fn generate_protobuf_decoders(&self) -> Result<PathBuf, GenerateError> {
        let decoders_table = ProtobufTable::builtin()?;
        let filtered = self.allow_groups.is_some()
            || !self.deny_groups.is_empty()
            || self.groups_from_features;
        let (minor, decodable) = if filtered {
            let table = self.builtin_table()?;
            let minor = known_minor(&table.kubernetes_version)?;
            let description = format!("Kubernetes {} ({})", table.kubernetes_version, table.source);
            let api = self.api(Api::new(&description, &table.resources)?)?;
            let roots: Vec<String> = api
                .resources()
                .filter_map(|(_, _, r)| r.def.ty.k8s_openapi_dotted())
                .collect();
            let decodable = decoders_table.reached_from(minor, roots.iter().map(String::as_str));
            (minor, decodable)
        } else {
            let minor = known_minor(&self.kubernetes_version()?)?;
            (minor, decoders_table.faithful(minor))
        };
        let text = crate::emit::protobuf::decoders(
            &decoders_table,
            minor,
            &decodable,
            &self.runtime_path,
            &self.k8s_openapi_path,
        )?;
        let out_dir = self.output_dir()?;
        let mut files = GeneratedFiles::default();
        files.insert(self.file_name.clone().into(), text);
        files.write_files_into(&out_dir)?;
        let path = out_dir.join(&self.file_name);
        Ok(path)
    }

    /// Writes the apply configurations (`DeploymentApply`, `PodSpecApply`, …, see
    /// [`crate::emit::apply`]) of the built-in resources of the kept API groups, and of every
    /// struct they reach, for the Kubernetes version k8s-openapi was built for (or
    /// [`Config::k8s_version`]) to [`Config::file_name`]. The file is to be included as the
    /// crate's module `module` (`apply`: `pub mod apply { include!(...); }`), which is how
    /// configurations of one module name those of another; [`Config::runtime_path`] names
    /// the runtime they use.
    pub fn generate_apply_configurations(&self, module: &str) -> Result<PathBuf, GenerateError> {
        if !is_snake_case_ident(module) {
            return Err(GenerateError::FactoryModule(module.to_owned()));
        }
        let table = self.builtin_table()?;
        let minor = known_minor(&table.kubernetes_version)?;
        let description = format!("Kubernetes {} ({})", table.kubernetes_version, table.source);
        let api = self.api(Api::new(&description, &table.resources)?)?;
        let resources: Vec<ResourceDef> = api.resources().map(|(_, _, r)| r.def.clone()).collect();
        let root = format!("crate::{}", escape_ident(module));
        let text = crate::emit::apply::apply_configurations(
            &ProtobufTable::builtin()?,
            minor,
            &resources,
            &crate::emit::apply::ApplyPaths {
                runtime: &self.runtime_path,
                k8s_openapi: &self.k8s_openapi_path,
                root: &root,
            },
        )?;
        let out_dir = self.output_dir()?;
        let mut files = GeneratedFiles::default();
        files.insert(self.file_name.clone().into(), text);
        files.write_files_into(&out_dir)?;
        Ok(out_dir.join(&self.file_name))
    }

    /// Tells cargo to rerun the build script when `path` changes (for inputs read from files).
    pub fn rerun_if_changed(&self, path: &Path) {
        self.directive(&format!("rerun-if-changed={}", path.display()));
    }

    /// `api` with the configured group accessors and filters applied.
    fn api(&self, mut api: Api) -> Result<Api, GenerateError> {
        // Renamed before filtering: an unknown group is one no input defines, and the derived
        // names stay the same whatever the filters keep.
        api.rename_groups(&self.group_accessors)?;
        api.retain_groups(|g| self.keeps(&g.name, &g.module));
        Ok(api)
    }

    /// The path generated code names its own root by: `crate`, or `crate::<factory module>`.
    fn self_path(&self) -> Result<String, GenerateError> {
        match &self.factory_module {
            None => Ok("crate".to_owned()),
            Some(name) if is_snake_case_ident(name) => Ok(format!("crate::{}", escape_ident(name))),
            Some(name) => Err(GenerateError::FactoryModule(name.clone())),
        }
    }

    fn keeps(&self, name: &str, module: &str) -> bool {
        let named = |set: &BTreeSet<String>| set.contains(name) || set.contains(module);
        if named(&self.deny_groups) {
            return false;
        }
        if let Some(allow) = &self.allow_groups {
            if !named(allow) {
                return false;
            }
        }
        if self.groups_from_features {
            let var = format!("CARGO_FEATURE_{}", module.to_uppercase());
            return std::env::var_os(var).is_some();
        }
        true
    }

    /// Where generated files go: [`Config::out_dir`], else `OUT_DIR`.
    fn output_dir(&self) -> Result<PathBuf, GenerateError> {
        match &self.out_dir {
            Some(d) => Ok(d.clone()),
            None => std::env::var_os("OUT_DIR")
                .map(PathBuf::from)
                .ok_or(GenerateError::NoOutDir),
        }
    }

    /// [`Config::k8s_version`], else the version k8s-openapi was built for.
    fn kubernetes_version(&self) -> Result<String, GenerateError> {
        match &self.k8s_version {
            Some(v) => Ok(v.clone()),
            None => self.version_from_env(),
        }
    }

    fn version_from_env(&self) -> Result<String, GenerateError> {
        self.directive("rerun-if-env-changed=K8S_OPENAPI_ENABLED_VERSION");
        let mut found: Vec<(String, String)> = std::env::vars()
            .filter(|(k, _)| k.starts_with("DEP_K8S_OPENAPI_") && k.ends_with("_VERSION"))
            .collect();
        found.sort();
        if let Some((var, value)) = found.into_iter().next() {
            self.directive(&format!("rerun-if-env-changed={var}"));
            return version_from_metadata(&value)
                .ok_or(GenerateError::BadK8sVersion { var, value });
        }
        std::env::var("K8S_OPENAPI_ENABLED_VERSION").map_err(|_| GenerateError::NoK8sVersion)
    }

    fn directive(&self, text: &str) {
        if self.emit_cargo_directives {
            // The build-script protocol is stdout: this is how cargo hears it.
            let _ = writeln!(std::io::stdout().lock(), "cargo:{text}");
        }
    }
}

/// Decodes k8s-openapi's `version` build metadata: `0x00_01_00_00 | (minor << 8)`, printed
/// in decimal (`75008` is Kubernetes 1.37).
fn version_from_metadata(value: &str) -> Option<String> {
    let number: u32 = value.trim().parse().ok()?;
    let (major, minor) = (number >> 16, (number >> 8) & 0xff);
    (major == 1).then(|| format!("{major}.{minor}"))
}

/// The minor of `version` (`1.37` → 37), if the built-in tables know it.
fn known_minor(version: &str) -> Result<u32, GenerateError> {
    table::minor_of(version).ok_or_else(|| {
        GenerateError::Read(ReadError::UnknownVersion {
            version: version.to_owned(),
            known: table::builtin_versions().join(", "),
        })
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn k8s_openapi_metadata_decodes_to_a_kubernetes_version() {
        assert_eq!(version_from_metadata("75008").as_deref(), Some("1.37"));
        assert_eq!(version_from_metadata("73984").as_deref(), Some("1.33"));
        assert_eq!(version_from_metadata("v1_37"), None);
        assert_eq!(version_from_metadata("0"), None);
    }

    #[test]
    fn generate_from_writes_only_the_allowed_groups() {
        let dir = tempfile::tempdir().unwrap();
        let table = table::builtin("1.37").unwrap();
        let path = Config::new()
            .out_dir(dir.path())
            .emit_cargo_directives(false)
            .allow_groups(["", "apps", "rbac.authorization.k8s.io"])
            .deny_groups(["rbac_authorization"])
            .generate_from("test", &table.resources)
            .unwrap();
        assert_eq!(path, dir.path().join("informers.rs"));
        let text = std::fs::read_to_string(path).unwrap();
        assert!(text.contains("pub mod core {"));
        assert!(text.contains("pub mod apps {"));
        assert!(!text.contains("pub mod rbac_authorization {"));
        assert!(!text.contains("pub mod batch {"));
    }

    #[test]
    fn protobuf_decoders_follow_the_kept_groups() {
        let dir = tempfile::tempdir().unwrap();
        let decoders_of = |groups: Option<&[&str]>| {
            let mut config = Config::new();
            config
                .out_dir(dir.path())
                .emit_cargo_directives(false)
                .k8s_version("1.36")
                .k8s_openapi_path("::k8s_openapi");
            if let Some(groups) = groups {
                config.allow_groups(groups.iter().copied());
            }
            let path = config.generate_protobuf_decoders().unwrap();
            std::fs::read_to_string(path).unwrap()
        };
        // `impl Message` and `impl Described`, each emitted for every decodable struct.
        let message = |ty: &str| format!("for {ty} {{");
        let apps = decoders_of(Some(&["apps"]));
        // A Deployment reaches the core group's PodSpec, and the `apimachinery` structs (the
        // metadata, discovery) always stay; a Pod itself and other groups' resources go.
        for kept in [
            "::k8s_openapi::api::apps::v1::Deployment",
            "::k8s_openapi::api::core::v1::PodSpec",
            "::k8s_openapi::apimachinery::pkg::apis::meta::v1::ObjectMeta",
            "::k8s_openapi::apimachinery::pkg::apis::meta::v1::APIGroupList",
        ] {
            assert!(apps.contains(&message(kept)), "{kept} missing");
        }
        for left in [
            "::k8s_openapi::api::core::v1::Pod",
            "::k8s_openapi::api::core::v1::ConfigMap",
            "::k8s_openapi::api::batch::v1::Job",
        ] {
            assert!(!apps.contains(&message(left)), "{left} kept");
        }
        let everything = decoders_of(None);
        assert!(everything.contains(&message("::k8s_openapi::api::core::v1::Pod")));
        assert!(everything.len() > 2 * apps.len());
    }

    #[test]
    fn errors_debug_print_as_their_message() {
        let dir = tempfile::tempdir().unwrap();
        let missing = dir.path().join("crds");
        let err = Config::new()
            .out_dir(dir.path())
            .emit_cargo_directives(false)
            .crd(&missing)
            .generate()
            .unwrap_err();
        // What `fn main() -> Result<(), Box<dyn Error>>` prints for a build script.
        let printed = format!("{:?}", Box::<dyn std::error::Error>::from(err));
        assert!(
            printed.starts_with(&missing.display().to_string()),
            "{printed}"
        );
        assert!(printed.contains("check the path"), "{printed}");

        std::fs::create_dir(&missing).unwrap();
        let err = Config::new()
            .out_dir(dir.path())
            .emit_cargo_directives(false)
            .crd(&missing)
            .generate()
            .unwrap_err();
        assert!(matches!(err, GenerateError::NoCrds(_)), "{err}");
        assert!(
            format!("{err:?}").contains("no CustomResourceDefinition in `"),
            "{err:?}"
        );
        assert!(!dir.path().join("informers.rs").exists());
    }

    #[test]
    fn an_explicit_unknown_version_is_an_error() {
        let err = Config::new()
            .k8s_version("1.99")
            .emit_cargo_directives(false)
            .builtin_table()
            .unwrap_err();
        assert!(err.to_string().contains("1.99"), "{err}");
    }
}
