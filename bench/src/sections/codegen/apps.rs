//! The apps whose builds the codegen section times, written as a new user would write them
//! (outside the workspace, depending on the facade by path), and the cargo driver that
//! builds each one clean and then again after an edit of `main.rs`.

use std::path::Path;
use std::process::Stdio;
use std::time::Instant;

use crate::error::BenchError;

/// The workspace whose crates the apps depend on.
const WORKSPACE: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/..");

/// The line every app's `main.rs` carries so an edit changes code, not just a comment: in
/// debug builds rustc's incremental cache would otherwise reuse nearly everything.
const REVISION: &str = "const REVISION: u32 = ";

/// Below this much free space on the disk holding the builds, the section stops rather than
/// fill the disk other work shares.
const MIN_FREE_BYTES: u64 = 10_000_000_000;

const OPENAPI_ONLY_MAIN: &str = r##"use k8s_openapi::api::core::v1::Pod;

const REVISION: u32 = 0;

fn main() {
    let pod: Pod = serde_json::from_str(r#"{"metadata":{"name":"web-0"}}"#).unwrap_or_default();
    println!("revision {REVISION}: {:?}", pod.metadata.name);
}
"##;

const PODS_MAIN: &str = r#"use kube_informers::client::Config;
use kube_informers::informers::SharedInformerFactory;
use kube_informers::{Client, InformerFactory};

const REVISION: u32 = 0;

#[tokio::main(flavor = "current_thread")]
async fn main() {
    let url = std::env::args().nth(1).unwrap_or_else(|| "http://127.0.0.1:8080".into());
    let Ok(client) = Client::new(Config::new(url)) else { return };
    let factory = SharedInformerFactory::builder(client).build();
    let pods = factory.core().v1().pods();
    factory.start();
    if factory.wait_for_cache_sync().await.is_ok() {
        println!("revision {REVISION}: {} pods", pods.lister().list(&Default::default()).len());
    }
    factory.shutdown().await;
}
"#;

const PODS_DEPLOYMENTS_MAIN: &str = r#"use kube_informers::client::Config;
use kube_informers::informers::SharedInformerFactory;
use kube_informers::{Client, InformerFactory};

const REVISION: u32 = 0;

#[tokio::main(flavor = "current_thread")]
async fn main() {
    let url = std::env::args().nth(1).unwrap_or_else(|| "http://127.0.0.1:8080".into());
    let Ok(client) = Client::new(Config::new(url)) else { return };
    let factory = SharedInformerFactory::builder(client).build();
    let pods = factory.core().v1().pods();
    let deployments = factory.apps().v1().deployments();
    factory.start();
    if factory.wait_for_cache_sync().await.is_ok() {
        let everything = Default::default();
        println!(
            "revision {REVISION}: {} pods, {} deployments",
            pods.lister().list(&everything).len(),
            deployments.lister().list(&everything).len()
        );
    }
    factory.shutdown().await;
}
"#;

/// The issue's trial app: Pods, ConfigMaps and one CRD, whose informers `build.rs` generates.
const CRD_APP_MAIN: &str = r#"use kube_informers::client::Config;
use kube_informers::informers::SharedInformerFactory;
use kube_informers::{Client, InformerFactory};

mod crds {
    include!(concat!(env!("OUT_DIR"), "/informers.rs"));
}

const REVISION: u32 = 0;

#[tokio::main(flavor = "current_thread")]
async fn main() {
    let url = std::env::args().nth(1).unwrap_or_else(|| "http://127.0.0.1:8080".into());
    let Ok(client) = Client::new(Config::new(url)) else { return };
    let builtins = SharedInformerFactory::builder(client.clone()).build();
    let custom = crds::SharedInformerFactory::builder(client).build();
    let pods = builtins.core().v1().pods();
    let config_maps = builtins.core().v1().config_maps();
    let widgets = custom.example().v1().widgets();
    builtins.start();
    custom.start();
    if builtins.wait_for_cache_sync().await.is_ok() && custom.wait_for_cache_sync().await.is_ok() {
        let everything = Default::default();
        println!(
            "revision {REVISION}: {} pods, {} config maps, {} widgets",
            pods.lister().list(&everything).len(),
            config_maps.lister().list(&everything).len(),
            widgets.lister().list(&everything).len()
        );
    }
    builtins.shutdown().await;
    custom.shutdown().await;
}
"#;

const CRD_APP_BUILD: &str = r#"fn main() -> Result<(), Box<dyn std::error::Error>> {
    informer_gen::Config::new()
        .crd("widgets.yaml")
        .factory_module("crds")
        .generate()?;
    Ok(())
}
"#;

const WIDGET_CRD: &str = r#"apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: widgets.example.com
spec:
  group: example.com
  names:
    kind: Widget
    listKind: WidgetList
    plural: widgets
    singular: widget
  scope: Namespaced
  versions:
    - name: v1
      served: true
      storage: true
      subresources:
        status: {}
      schema:
        openAPIV3Schema:
          type: object
          properties:
            spec:
              type: object
              properties:
                size:
                  type: integer
                color:
                  type: string
            status:
              type: object
              properties:
                ready:
                  type: boolean
"#;

const KUBE_RS_MAIN: &str = r#"use futures_util::StreamExt;
use k8s_openapi::api::core::v1::Pod;
use kube::runtime::{reflector, watcher, WatchStreamExt};
use kube::{Api, Client, Config};

const REVISION: u32 = 0;

#[tokio::main(flavor = "current_thread")]
async fn main() {
    let url = std::env::args().nth(1).unwrap_or_else(|| "http://127.0.0.1:8080".into());
    let Ok(uri) = url.parse() else { return };
    let Ok(client) = Client::try_from(Config::new(uri)) else { return };
    let api: Api<Pod> = Api::all(client);
    let (store, writer) = reflector::store();
    let stream = reflector::reflector(writer, watcher(api, watcher::Config::default()));
    let task = tokio::spawn(stream.applied_objects().for_each(|_| std::future::ready(())));
    if store.wait_until_ready().await.is_ok() {
        println!("revision {REVISION}: {} pods", store.state().len());
    }
    task.abort();
}
"#;

const K8S_OPENAPI: &str = "k8s-openapi = { version = \"0.29\", features = [\"latest\"] }\n";
const TOKIO: &str = "tokio = { version = \"1\", features = [\"rt\", \"macros\"] }\n";

/// The facade as a user names it: `features` is `None` for its default features (every API
/// group), or the features to turn on without the defaults.
fn facade(features: Option<&[&str]>) -> String {
    match features {
        None => format!(
            "kube-informers = {{ path = \"{WORKSPACE}/kube-informers\", features = [\"latest\"] }}\n"
        ),
        Some(features) => format!(
            "kube-informers = {{ path = \"{WORKSPACE}/kube-informers\", default-features = false, features = [{}] }}\n",
            features
                .iter()
                .map(|f| format!("\"{f}\""))
                .collect::<Vec<_>>()
                .join(", ")
        ),
    }
}

/// One app: its sources and dependencies.
#[derive(Clone, Debug)]
pub struct App {
    /// Package and directory name.
    pub name: &'static str,
    dependencies: String,
    build_dependencies: String,
    main: &'static str,
    /// Other files next to `Cargo.toml` (`build.rs`, a CRD).
    files: Vec<(&'static str, &'static str)>,
}

impl App {
    /// k8s-openapi alone: decodes one Pod.
    pub fn openapi_only() -> Self {
        Self::new(
            "openapi-only",
            format!("{K8S_OPENAPI}serde_json = \"1\"\n"),
            OPENAPI_ONLY_MAIN,
        )
    }

    /// `factory.core().v1().pods()` through the facade, with only the `core` group (or, with
    /// `all_groups`, the facade's default features).
    pub fn pods(all_groups: bool) -> Self {
        let (name, features): (_, Option<&[&str]>) = if all_groups {
            ("pods-all-groups", None)
        } else {
            ("pods-core", Some(&["core", "latest"]))
        };
        Self::new(name, format!("{}{TOKIO}", facade(features)), PODS_MAIN)
    }

    /// Pods and Deployments through the facade, with the `core` and `apps` groups (or, with
    /// `all_groups`, the facade's default features).
    pub fn pods_deployments(all_groups: bool) -> Self {
        let (name, features): (_, Option<&[&str]>) = if all_groups {
            ("pods-deployments-all-groups", None)
        } else {
            ("pods-deployments", Some(&["core", "apps", "latest"]))
        };
        Self::new(
            name,
            format!("{}{TOKIO}", facade(features)),
            PODS_DEPLOYMENTS_MAIN,
        )
    }

    /// The issue's trial: Pods, ConfigMaps and one CRD generated by `informer-gen` in
    /// `build.rs`.
    pub fn pods_config_maps_crd() -> Self {
        Self {
            build_dependencies: format!("informer-gen = {{ path = \"{WORKSPACE}/codegen\" }}\n"),
            files: vec![("build.rs", CRD_APP_BUILD), ("widgets.yaml", WIDGET_CRD)],
            ..Self::new(
                "pods-config-maps-crd",
                format!("{}{TOKIO}", facade(Some(&["core", "latest"]))),
                CRD_APP_MAIN,
            )
        }
    }

    /// A Pod reflector with kube-rs (`kube::runtime::reflector` over `watcher`), the same
    /// kube features as the bench's own baseline.
    pub fn kube_rs() -> Self {
        Self::new(
            "kube-rs-pods",
            format!(
                "kube = {{ version = \"5\", default-features = false, features = [\"client\", \"runtime\", \"rustls-tls\", \"ring\"] }}\n\
                 {K8S_OPENAPI}{TOKIO}futures-util = \"0.3\"\n"
            ),
            KUBE_RS_MAIN,
        )
    }

    fn new(name: &'static str, dependencies: String, main: &'static str) -> Self {
        Self {
            name,
            dependencies,
            build_dependencies: String::new(),
            main,
            files: Vec::new(),
        }
    }

    fn manifest(&self) -> String {
        let mut text = format!(
            "[package]\nname = \"{}\"\nversion = \"0.1.0\"\nedition = \"2021\"\npublish = false\n\n\
             [workspace]\n\n[dependencies]\n{}",
            self.name, self.dependencies
        );
        if !self.build_dependencies.is_empty() {
            text.push_str("\n[build-dependencies]\n");
            text.push_str(&self.build_dependencies);
        }
        text
    }
}

/// Which cargo profile a build uses.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Profile {
    /// `--release`.
    Release,
    /// The dev profile (incremental compilation on).
    Debug,
}

/// One timed `cargo build`.
#[derive(Clone, Debug)]
pub struct Timing {
    /// Wall-clock seconds of the whole command.
    pub secs: f64,
    /// `(crate, seconds)` from cargo's timing report.
    pub units: Vec<(String, f64)>,
}

impl Timing {
    /// Seconds cargo reported for the crate `name` (every unit of it, build script included).
    pub fn crate_secs(&self, name: &str) -> f64 {
        self.units
            .iter()
            .filter(|(n, _)| n == name)
            .map(|(_, d)| d)
            .sum()
    }
}

/// A clean build and, optionally, the rebuild after an edit of `main.rs`.
#[derive(Clone, Debug)]
pub struct Builds {
    /// The clean build.
    pub clean: Timing,
    /// The fastest of [`REBUILDS`] rebuilds, each after bumping `REVISION` in `main.rs`.
    pub incremental: Option<Timing>,
}

/// What to build of an app.
#[derive(Clone, Copy, Debug)]
pub struct Plan {
    /// Rebuild in release after an edit of `main.rs`.
    pub incremental: bool,
    /// Also build clean in debug, and rebuild in debug after an edit.
    pub debug: bool,
}

/// The measured builds of one app.
#[derive(Clone, Debug)]
pub struct Measured {
    /// Release builds.
    pub release: Builds,
    /// Debug builds, when planned.
    pub debug: Option<Builds>,
}

/// A scratch directory holding the apps; each app builds into its own target directory,
/// removed once the app is measured.
pub struct Workbench {
    root: tempfile::TempDir,
    lock: String,
}

impl Workbench {
    /// A fresh scratch directory; the apps get the workspace's `Cargo.lock`, so they build the
    /// same versions of every dependency as the workspace (and as each other).
    pub fn new() -> Result<Self, BenchError> {
        let root = tempfile::tempdir().map_err(|e| BenchError::Io {
            action: "create temporary directory",
            path: std::env::temp_dir().display().to_string(),
            source: e,
        })?;
        let lock = Path::new(WORKSPACE).join("Cargo.lock");
        let lock = std::fs::read_to_string(&lock).map_err(|e| BenchError::Io {
            action: "read",
            path: lock.display().to_string(),
            source: e,
        })?;
        Ok(Self { root, lock })
    }

    /// Writes `app`, builds it as `plan` says, and removes its target directory.
    pub async fn measure(&self, app: &App, plan: Plan) -> Result<Measured, BenchError> {
        let dir = self.root.path().join(app.name);
        ensure_free_space(self.root.path())?;
        write(&dir.join("Cargo.toml"), &app.manifest())?;
        write(&dir.join("Cargo.lock"), &self.lock)?;
        for (name, text) in &app.files {
            write(&dir.join(name), text)?;
        }
        let main = dir.join("src").join("main.rs");
        write(&main, app.main)?;
        let result = async {
            let release = builds(&dir, &main, Profile::Release, plan.incremental).await?;
            let debug = if plan.debug {
                Some(builds(&dir, &main, Profile::Debug, true).await?)
            } else {
                None
            };
            Ok(Measured { release, debug })
        }
        .await;
        let target = dir.join("target");
        if let Err(e) = std::fs::remove_dir_all(&target) {
            tracing::warn!(path = %target.display(), error = %e, "could not remove an app's target directory");
        }
        result
    }
}

async fn builds(
    dir: &Path,
    main: &Path,
    profile: Profile,
    incremental: bool,
) -> Result<Builds, BenchError> {
    let clean = cargo_build(dir, profile).await?;
    let rebuilds = if incremental { REBUILDS } else { 0 };
    let mut fastest: Option<Timing> = None;
    for _ in 0..rebuilds {
        let text = read(main)?;
        let Some(edited) = bump_revision(&text) else {
            return Err(BenchError::Command {
                command: format!("edit {}", main.display()),
                reason: format!("no `{REVISION}N;` line to bump"),
            });
        };
        write(main, &edited)?;
        let rebuild = cargo_build(dir, profile).await?;
        if fastest.as_ref().is_none_or(|f| rebuild.secs < f.secs) {
            fastest = Some(rebuild);
        }
    }
    Ok(Builds {
        clean,
        incremental: fastest,
    })
}

/// Rebuilds after an edit per app and profile, the fastest counting: a rebuild is seconds
/// long, and one on this shared machine read 16.6 s where the same code rebuilt in 13.2–13.6 s
/// by hand right after.
pub const REBUILDS: usize = 3;

/// `text` with the number of its `const REVISION: u32 = N;` line increased by one; `None`
/// without such a line.
pub fn bump_revision(text: &str) -> Option<String> {
    let start = text.find(REVISION)? + REVISION.len();
    let len = text[start..].find(';')?;
    let n: u32 = text[start..start + len].trim().parse().ok()?;
    Some(format!(
        "{}{}{}",
        &text[..start],
        n.checked_add(1)?,
        &text[start + len..]
    ))
}

/// Seconds for `cargo build --timings` of the app in `dir` into its own `target`, and the
/// per-crate durations cargo reported.
async fn cargo_build(dir: &Path, profile: Profile) -> Result<Timing, BenchError> {
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    let mut args = vec!["build", "--timings", "--quiet"];
    if profile == Profile::Release {
        args.push("--release");
    }
    let command = format!("{cargo} {} (in {})", args.join(" "), dir.display());
    let start = Instant::now();
    let out = tokio::process::Command::new(&cargo)
        .args(&args)
        .current_dir(dir)
        .env("CARGO_TARGET_DIR", dir.join("target"))
        // Every build is a user's: no flags inherited from whoever runs the bench.
        .env_remove("RUSTFLAGS")
        .env_remove("CARGO_ENCODED_RUSTFLAGS")
        .env_remove("CARGO_BUILD_RUSTFLAGS")
        .stdin(Stdio::null())
        .output()
        .await
        .map_err(|e| BenchError::Command {
            command: command.clone(),
            reason: e.to_string(),
        })?;
    let secs = start.elapsed().as_secs_f64();
    if !out.status.success() {
        return Err(BenchError::Command {
            command,
            reason: format!("{}: {}", out.status, String::from_utf8_lossy(&out.stderr)),
        });
    }
    // cargo rewrites `cargo-timing.html` on every `--timings` build: it is this build's.
    let report = dir
        .join("target")
        .join("cargo-timings")
        .join("cargo-timing.html");
    Ok(Timing {
        secs,
        units: unit_durations(&read(&report)?),
    })
}

/// The `(crate name, seconds)` pairs of cargo's timing report (its `UNIT_DATA` table).
pub fn unit_durations(html: &str) -> Vec<(String, f64)> {
    #[derive(serde::Deserialize)]
    struct Unit {
        name: String,
        duration: f64,
    }
    let Some(start) = html.find("UNIT_DATA = ") else {
        return Vec::new();
    };
    let rest = &html[start + "UNIT_DATA = ".len()..];
    let mut de = serde_json::Deserializer::from_str(rest);
    let units: Vec<Unit> = match serde::Deserialize::deserialize(&mut de) {
        Ok(u) => u,
        Err(e) => {
            tracing::warn!(error = %e, "cargo timing report has an unexpected UNIT_DATA shape");
            Vec::new()
        }
    };
    units.into_iter().map(|u| (u.name, u.duration)).collect()
}

fn ensure_free_space(path: &Path) -> Result<(), BenchError> {
    let Some(free) = free_bytes(path) else {
        return Ok(());
    };
    if free < MIN_FREE_BYTES {
        return Err(BenchError::Command {
            command: format!("build apps in {}", path.display()),
            reason: format!(
                "only {:.1} GB free there; clean builds need room above {:.0} GB",
                free as f64 / 1e9,
                MIN_FREE_BYTES as f64 / 1e9
            ),
        });
    }
    Ok(())
}

/// Bytes an unprivileged process may still write on the filesystem holding `path`.
fn free_bytes(path: &Path) -> Option<u64> {
    use std::os::unix::ffi::OsStrExt;
    let c_path = std::ffi::CString::new(path.as_os_str().as_bytes()).ok()?;
    let mut stat = std::mem::MaybeUninit::<libc::statvfs>::uninit();
    // SAFETY: `c_path` is a NUL-terminated string and `stat` is writable memory of the
    // struct's size; statvfs only writes into it, and only on success is it read.
    let stat = unsafe {
        if libc::statvfs(c_path.as_ptr(), stat.as_mut_ptr()) != 0 {
            return None;
        }
        stat.assume_init()
    };
    // The field types are platform aliases (u32 on some targets): widen, never narrow.
    Some((stat.f_bavail as u64).saturating_mul(stat.f_frsize as u64))
}

fn write(path: &Path, text: &str) -> Result<(), BenchError> {
    crate::output::write_file(path, text.as_bytes())
}

fn read(path: &Path) -> Result<String, BenchError> {
    std::fs::read_to_string(path).map_err(|e| BenchError::Io {
        action: "read",
        path: path.display().to_string(),
        source: e,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unit_durations_are_read_from_the_timing_report() {
        let html = r#"<script>
const UNIT_DATA = [{"i":0,"name":"k8s-openapi","version":"0.29.0","duration":31.5,"rmeta_time":20.0},
{"i":1,"name":"informers","version":"0.1.0","duration":4.25}];
const CONCURRENCY_DATA = [];</script>"#;
        let timing = Timing {
            secs: 40.0,
            units: unit_durations(html),
        };
        assert_eq!(timing.crate_secs("k8s-openapi"), 31.5);
        assert_eq!(timing.crate_secs("informers"), 4.25);
        assert!(unit_durations("<html></html>").is_empty());
    }

    #[test]
    fn the_revision_is_bumped_in_every_app() {
        for app in [
            App::openapi_only(),
            App::pods(false),
            App::pods_deployments(true),
            App::pods_config_maps_crd(),
            App::kube_rs(),
        ] {
            let once = bump_revision(app.main).expect(app.name);
            assert!(once.contains("const REVISION: u32 = 1;"), "{}", app.name);
            let twice = bump_revision(&once).expect(app.name);
            assert!(twice.contains("const REVISION: u32 = 2;"), "{}", app.name);
            assert_eq!(twice.len(), app.main.len(), "{}", app.name);
        }
        assert_eq!(bump_revision("fn main() {}"), None);
        assert_eq!(bump_revision("const REVISION: u32 = x;"), None);
        assert_eq!(bump_revision("const REVISION: u32 = 4294967295;"), None);
    }

    #[test]
    fn the_facade_is_named_as_a_user_would() {
        let core = App::pods(false).manifest();
        assert!(
            core.contains("default-features = false, features = [\"core\", \"latest\"]"),
            "{core}"
        );
        let all = App::pods(true).manifest();
        assert!(all.contains("features = [\"latest\"] }"), "{all}");
        assert!(!all.contains("default-features"), "{all}");
        let crd = App::pods_config_maps_crd().manifest();
        assert!(crd.contains("[build-dependencies]\ninformer-gen"), "{crd}");
    }
}
