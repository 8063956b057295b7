//! The `build.rs` API: a prost-build-style [`Config`] that generates informers (or listers)
//! into `OUT_DIR` and tells cargo when to run again.
//!
//! ```no_run
//! // build.rs of a crate depending on k8s-openapi (no version feature) and informer-runtime
//! fn main() -> Result<(), Box<dyn std::error::Error>> {
//!     informer_gen::Config::new()
//!         .allow_groups(["", "apps"])
//!         .generate()?;
//!     Ok(())
//! }
//! // src/lib.rs: include!(concat!(env!("OUT_DIR"), "/informers.rs"));
//! ```

use std::collections::BTreeSet;
use std::io::Write;
use std::path::{Path, PathBuf};

use crate::emit::{self, EmitOptions, Layout, Target};
use crate::model::{Api, ResourceDef};
use crate::read::{self, table};

/// Why [`Config::generate`] failed.
#[derive(Debug, thiserror::Error)]
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
            runtime_path: "::informer_runtime".to_owned(),
            k8s_openapi_path: "::informer_runtime::k8s_openapi".to_owned(),
            emit_cargo_directives: true,
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
    /// like `core`, `rbac_authorization`).
    pub fn allow_groups<S: Into<String>>(&mut self, groups: impl IntoIterator<Item = S>) -> &mut Self {
        self.allow_groups = Some(groups.into_iter().map(Into::into).collect());
        self
    }

    /// Never generate these groups (names as in [`Config::allow_groups`]).
    pub fn deny_groups<S: Into<String>>(&mut self, groups: impl IntoIterator<Item = S>) -> &mut Self {
        self.deny_groups.extend(groups.into_iter().map(Into::into));
        self
    }

    /// Generate only groups whose cargo feature is enabled: the feature named like the
    /// group's accessor (`core`, `apps`, `rbac_authorization`), seen as `CARGO_FEATURE_<NAME>`.
    pub fn groups_from_cargo_features(&mut self) -> &mut Self {
        self.groups_from_features = true;
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

    /// Path of the runtime crate in generated code (default `::informer_runtime`).
    pub fn runtime_path(&mut self, path: impl Into<String>) -> &mut Self {
        self.runtime_path = path.into();
        self
    }

    /// Path of k8s-openapi in generated code (default `::informer_runtime::k8s_openapi`).
    pub fn k8s_openapi_path(&mut self, path: impl Into<String>) -> &mut Self {
        self.k8s_openapi_path = path.into();
        self
    }

    /// Whether to print `cargo:rerun-if-*` lines (default: yes; turn off outside build scripts).
    pub fn emit_cargo_directives(&mut self, on: bool) -> &mut Self {
        self.emit_cargo_directives = on;
        self
    }

    /// Generates from the built-in table; returns the written file.
    pub fn generate(&self) -> Result<PathBuf, GenerateError> {
        let version = match &self.k8s_version {
            Some(v) => v.clone(),
            None => self.version_from_env()?,
        };
        let table = table::builtin(&version)?;
        let description = format!(
            "Kubernetes {} ({})",
            table.kubernetes_version, table.source
        );
        self.generate_from(&description, &table.resources)
    }

    /// Generates from `defs` (described as `source_description` in docs and errors);
    /// returns the written file. Other readers (CRDs) end here.
    pub fn generate_from(
        &self,
        source_description: &str,
        defs: &[ResourceDef],
    ) -> Result<PathBuf, GenerateError> {
        let mut api = Api::new(source_description, defs)?;
        api.retain_groups(|g| self.keeps(&g.name, &g.module));
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
        let out_dir = match &self.out_dir {
            Some(d) => d.clone(),
            None => std::env::var_os("OUT_DIR")
                .map(PathBuf::from)
                .ok_or(GenerateError::NoOutDir)?,
        };
        files.write_files_into(&out_dir)?;
        Ok(out_dir.join(&self.file_name))
    }

    /// Tells cargo to rerun the build script when `path` changes (for inputs read from files).
    pub fn rerun_if_changed(&self, path: &Path) {
        self.directive(&format!("rerun-if-changed={}", path.display()));
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

    fn version_from_env(&self) -> Result<String, GenerateError> {
        self.directive("rerun-if-env-changed=K8S_OPENAPI_ENABLED_VERSION");
        let mut found: Vec<(String, String)> = std::env::vars()
            .filter(|(k, _)| k.starts_with("DEP_K8S_OPENAPI_") && k.ends_with("_VERSION"))
            .collect();
        found.sort();
        if let Some((var, value)) = found.into_iter().next() {
            self.directive(&format!("rerun-if-env-changed={var}"));
            // k8s-openapi prints 0x00_01_00_00 | (minor << 8), in decimal.
            let number: u32 = value.trim().parse().map_err(|_| GenerateError::BadK8sVersion {
                var: var.clone(),
                value: value.clone(),
            })?;
            return Ok(format!("{}.{}", number >> 16, (number >> 8) & 0xff));
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
