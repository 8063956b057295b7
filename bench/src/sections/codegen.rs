//! Code generation and compile time: generating every built-in informer, and a clean
//! release build of a minimal app using `factory.core().v1().pods()` against the same
//! app using k8s-openapi alone, with per-crate times from `cargo build --timings`.

use std::path::Path;
use std::process::Stdio;
use std::time::Instant;

use super::Ctx;
use crate::error::BenchError;
use crate::results::{Record, Target};

const SECTION: &str = "codegen";

/// Runs the section.
pub async fn run(ctx: Ctx) -> Result<Vec<Record>, BenchError> {
    let mut records = generation()?;
    if ctx.quick {
        for name in [
            "k8s_openapi_app",
            "informers_app",
            "informers_listers_crates",
        ] {
            records.push(Record::skipped(
                SECTION,
                format!("codegen.build.{name}"),
                "s",
                "clean release builds are skipped in --quick mode",
            ));
        }
        return Ok(records);
    }
    records.extend(builds().await?);
    Ok(records)
}

const WORKSPACE: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/..");

const OPENAPI_ONLY_MAIN: &str = r##"use k8s_openapi::api::core::v1::Pod;

fn main() {
    let pod: Pod = serde_json::from_str(r#"{"metadata":{"name":"web-0"}}"#).unwrap_or_default();
    println!("{:?}", pod.metadata.name);
}
"##;

const INFORMERS_MAIN: &str = r#"use informer_runtime::client::Config;
use informer_runtime::{Client, InformerFactory};

#[tokio::main(flavor = "current_thread")]
async fn main() {
    let url = std::env::args().nth(1).unwrap_or_else(|| "http://127.0.0.1:8080".into());
    let Ok(client) = Client::new(Config::new(url)) else { return };
    let factory = informers::SharedInformerFactory::builder(client).build();
    let pods = factory.core().v1().pods();
    factory.start();
    if factory.wait_for_cache_sync().await.is_ok() {
        println!("{}", pods.lister().list(&Default::default()).len());
    }
    factory.shutdown().await;
}
"#;

fn manifest(name: &str, deps: &str) -> String {
    format!(
        "[package]\nname = \"{name}\"\nversion = \"0.1.0\"\nedition = \"2021\"\npublish = false\n\n\
         [workspace]\n\n[dependencies]\n{deps}"
    )
}

fn write(path: &Path, text: &str) -> Result<(), BenchError> {
    crate::output::write_file(path, text.as_bytes())
}

/// Seconds for a clean `cargo build --release --timings` of the app in `dir`, and the
/// per-crate durations cargo reported.
async fn clean_build(dir: &Path) -> Result<(f64, Vec<(String, f64)>), BenchError> {
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    let command = format!("{cargo} build --release --timings (in {})", dir.display());
    let start = Instant::now();
    let out = tokio::process::Command::new(&cargo)
        .args(["build", "--release", "--timings", "--quiet"])
        .current_dir(dir)
        .env("CARGO_TARGET_DIR", dir.join("target"))
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
    let html_path = dir
        .join("target")
        .join("cargo-timings")
        .join("cargo-timing.html");
    let html = std::fs::read_to_string(&html_path).map_err(|e| BenchError::Io {
        action: "read",
        path: html_path.display().to_string(),
        source: e,
    })?;
    Ok((secs, unit_durations(&html)))
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

fn crate_secs(units: &[(String, f64)], name: &str) -> f64 {
    units
        .iter()
        .filter(|(n, _)| n == name)
        .map(|(_, d)| d)
        .sum()
}

async fn builds() -> Result<Vec<Record>, BenchError> {
    let tmp = tempfile::tempdir().map_err(|e| BenchError::Io {
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
    let plain = tmp.path().join("openapi-only");
    write(
        &plain.join("Cargo.toml"),
        &manifest(
            "openapi-only",
            "k8s-openapi = { version = \"0.29\", features = [\"latest\"] }\nserde_json = \"1\"\n",
        ),
    )?;
    write(&plain.join("src/main.rs"), OPENAPI_ONLY_MAIN)?;
    // Same versions as the workspace, so both apps build the same dependency graph.
    write(&plain.join("Cargo.lock"), &lock)?;
    let app = tmp.path().join("with-informers");
    write(
        &app.join("Cargo.toml"),
        &manifest(
            "with-informers",
            &format!(
                "informers = {{ path = \"{w}/informers\" }}\ninformer-runtime = {{ path = \"{w}\" }}\n\
                 k8s-openapi = {{ version = \"0.29\", features = [\"latest\"] }}\n\
                 tokio = {{ version = \"1\", features = [\"rt\", \"macros\"] }}\n",
                w = WORKSPACE
            ),
        ),
    )?;
    write(&app.join("src/main.rs"), INFORMERS_MAIN)?;
    write(&app.join("Cargo.lock"), &lock)?;

    let (plain_secs, plain_units) = clean_build(&plain).await?;
    let (app_secs, app_units) = clean_build(&app).await?;
    let openapi = crate_secs(&plain_units, "k8s-openapi");
    let ours = crate_secs(&app_units, "informers") + crate_secs(&app_units, "listers");
    Ok(vec![
        Record::new(SECTION, "codegen.build.k8s_openapi_app", plain_secs, "s")
            .note(format!("clean release build; k8s-openapi itself {openapi:.1} s")),
        Record::new(SECTION, "codegen.build.informers_app", app_secs, "s").against("k8s-openapi app", plain_secs),
        Record::new(SECTION, "codegen.build.informers_listers_crates", ours, "s")
            .against("k8s-openapi crate", openapi)
            .target(Target::ratio_at_most(0.5))
            .note("per-crate times from cargo --timings (informers + listers, build scripts included when reported)"),
    ])
}

/// The Kubernetes version whose built-in table is generated (the newest).
const K8S_VERSION: &str = "1.37";

/// Best of 5 seconds to generate every built-in informer and lister, as the two build
/// scripts do, into a scratch directory.
fn generation() -> Result<Vec<Record>, BenchError> {
    let tmp = tempfile::tempdir().map_err(|e| BenchError::Io {
        action: "create temporary directory",
        path: std::env::temp_dir().display().to_string(),
        source: e,
    })?;
    let gen_err = |e: informer_gen::GenerateError| BenchError::Command {
        command: format!("informer-gen generate (Kubernetes {K8S_VERSION})"),
        reason: e.to_string(),
    };
    let mut best = f64::INFINITY;
    let mut bytes = 0u64;
    for _ in 0..5 {
        let start = Instant::now();
        let informers = informer_gen::Config::new()
            .out_dir(tmp.path())
            .k8s_version(K8S_VERSION)
            .emit_cargo_directives(false)
            .listers_path("::listers")
            .file_name("informers.rs")
            .generate()
            .map_err(gen_err)?;
        let listers = informer_gen::Config::new()
            .out_dir(tmp.path())
            .k8s_version(K8S_VERSION)
            .emit_cargo_directives(false)
            .listers_only()
            .file_name("listers.rs")
            .generate()
            .map_err(gen_err)?;
        best = best.min(start.elapsed().as_secs_f64());
        bytes = [informers, listers]
            .iter()
            .filter_map(|p| std::fs::metadata(p).ok())
            .map(|m| m.len())
            .sum();
    }
    Ok(vec![Record::new(SECTION, "codegen.generate_all_builtins", best, "s").note(format!(
        "informers + listers for every listable type of Kubernetes {K8S_VERSION}: {:.0} KB of Rust, best of 5",
        bytes as f64 / 1e3
    ))])
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
        let units = unit_durations(html);
        assert_eq!(crate_secs(&units, "k8s-openapi"), 31.5);
        assert_eq!(crate_secs(&units, "informers"), 4.25);
        assert!(unit_durations("<html></html>").is_empty());
    }
}
