//! Code generation and compile time: generating every built-in informer, and timed builds
//! of small apps written as a user would (outside the workspace, one dependency on the
//! facade): `factory.core().v1().pods()` with only the `core` group and with every group,
//! Pods and Deployments with `core` and `apps` and with every group, the issue's trial app
//! (Pods, ConfigMaps and one generated CRD), a kube-rs Pod reflector and k8s-openapi alone.
//! Each is built clean in release (per-crate times from `cargo build --timings`); the
//! Pods app, the trial app and kube-rs are rebuilt after an edit of `main.rs`, in release
//! and in debug.

mod apps;

use std::time::Instant;

use super::Ctx;
use crate::error::BenchError;
use crate::results::{Record, Target};
use apps::{App, Measured, Plan, Timing, Workbench};

const SECTION: &str = "codegen";

/// The issue's release rebuild of its trial app (Pods, ConfigMaps, one CRD) after touching
/// only `main.rs`, measured on `main` before this wave.
const ISSUE_INCREMENTAL_RELEASE_SECS: f64 = 27.0;
/// The same rebuild in debug, from the issue.
const ISSUE_INCREMENTAL_DEBUG_SECS: f64 = 3.0;

/// Every figure the builds produce, in the order they are reported.
const BUILD_RECORDS: [&str; 16] = [
    "codegen.build.k8s_openapi_app",
    "codegen.build.kube_rs_app",
    "codegen.build.informers_app",
    "codegen.build.informers_listers_crates",
    "codegen.build.informers_app_core",
    "codegen.build.informers_app_core_vs_all_groups",
    "codegen.build.pods_deployments_app",
    "codegen.build.crd_app",
    "codegen.build.debug.kube_rs_app",
    "codegen.build.debug.informers_app_core",
    "codegen.incremental.release.kube_rs_app",
    "codegen.incremental.release.informers_app_core",
    "codegen.incremental.release.crd_app",
    "codegen.incremental.debug.kube_rs_app",
    "codegen.incremental.debug.informers_app_core",
    "codegen.incremental.debug.crd_app",
];

/// Runs the section.
pub async fn run(ctx: Ctx) -> Result<Vec<Record>, BenchError> {
    let mut records = generation()?;
    if ctx.quick {
        records.extend(BUILD_RECORDS.iter().map(|name| {
            Record::skipped(
                SECTION,
                *name,
                "s",
                "app builds are skipped in --quick mode",
            )
        }));
        return Ok(records);
    }
    records.extend(build_records(&measure_apps().await?));
    Ok(records)
}

/// The measured builds of every app.
struct AppBuilds {
    openapi: Measured,
    kube_rs: Measured,
    pods_core: Measured,
    pods_all_groups: Measured,
    pods_deployments: Measured,
    pods_deployments_all_groups: Measured,
    crd: Measured,
}

async fn measure_apps() -> Result<AppBuilds, BenchError> {
    let bench = Workbench::new()?;
    let clean_only = Plan {
        incremental: false,
        debug: false,
    };
    let everything = Plan {
        incremental: true,
        debug: true,
    };
    Ok(AppBuilds {
        openapi: bench.measure(&App::openapi_only(), clean_only).await?,
        kube_rs: bench.measure(&App::kube_rs(), everything).await?,
        pods_core: bench.measure(&App::pods(false), everything).await?,
        pods_all_groups: bench.measure(&App::pods(true), clean_only).await?,
        pods_deployments: bench
            .measure(&App::pods_deployments(false), clean_only)
            .await?,
        pods_deployments_all_groups: bench
            .measure(&App::pods_deployments(true), clean_only)
            .await?,
        crd: bench
            .measure(&App::pods_config_maps_crd(), everything)
            .await?,
    })
}

/// The incremental release or debug rebuild of `m`, when it was measured.
fn rebuild(m: &Measured, debug: bool) -> Option<&Timing> {
    if debug {
        m.debug.as_ref()?.incremental.as_ref()
    } else {
        m.release.incremental.as_ref()
    }
}

fn clean_debug(m: &Measured) -> Option<&Timing> {
    m.debug.as_ref().map(|b| &b.clean)
}

/// A record of `timing`, or a skipped one when the plan did not build it.
fn figure(name: &str, timing: Option<&Timing>) -> Record {
    match timing {
        Some(t) => Record::new(SECTION, name, t.secs, "s"),
        None => Record::skipped(SECTION, name, "s", "not built"),
    }
}

/// What the app's own crate took of a build, as cargo reports it.
fn own_crate(timing: Option<&Timing>, package: &str) -> String {
    timing.map_or_else(String::new, |t| {
        format!("; the app crate itself {:.1} s", t.crate_secs(package))
    })
}

fn build_records(b: &AppBuilds) -> Vec<Record> {
    let openapi = b.openapi.release.clean.secs;
    let openapi_crate = b.openapi.release.clean.crate_secs("k8s-openapi");
    let kube_rs = b.kube_rs.release.clean.secs;
    let all_groups = b.pods_all_groups.release.clean.secs;
    let core = b.pods_core.release.clean.secs;
    let generated = b.pods_all_groups.release.clean.crate_secs("informers")
        + b.pods_all_groups.release.clean.crate_secs("listers");
    let crd_app = App::pods_config_maps_crd().name;
    let kube_app = App::kube_rs().name;
    let core_app = App::pods(false).name;
    let mut records = vec![
        Record::new(SECTION, BUILD_RECORDS[0], openapi, "s").note(format!(
            "clean release build of an app decoding one Pod with k8s-openapi alone; k8s-openapi itself {openapi_crate:.1} s"
        )),
        Record::new(SECTION, BUILD_RECORDS[1], kube_rs, "s")
            .against("k8s-openapi app", openapi)
            .note("clean release build: a Pod reflector (kube::runtime::reflector over watcher), kube 5 with client, runtime, rustls-tls, ring"),
        Record::new(SECTION, BUILD_RECORDS[2], all_groups, "s")
            .against("k8s-openapi app", openapi)
            .note("clean release build of factory.core().v1().pods() through kube-informers with its default features (every API group)"),
        Record::new(SECTION, BUILD_RECORDS[3], generated, "s")
            .against("k8s-openapi crate", openapi_crate)
            .target(Target::ratio_at_most(0.5))
            .note("per-crate times from cargo --timings in the every-group app (informers + listers, build scripts included when reported)"),
        Record::new(SECTION, BUILD_RECORDS[4], core, "s")
            .against("kube-rs app", kube_rs)
            .target(Target::ratio_at_most(0.8))
            .note("clean release build of factory.core().v1().pods() through kube-informers with features core + latest, against the kube-rs Pod reflector"),
        Record::new(SECTION, BUILD_RECORDS[5], core, "s")
            .against("same app, every API group", all_groups)
            .note(format!(
                "what the per-group features save on the Pods app: {:.1} s",
                all_groups - core
            )),
        Record::new(SECTION, BUILD_RECORDS[6], b.pods_deployments.release.clean.secs, "s")
            .against(
                "same app, every API group",
                b.pods_deployments_all_groups.release.clean.secs,
            )
            .target(Target::ratio_at_most(1.0))
            .note(format!(
                "clean release build watching Pods and Deployments with features core + apps + latest; saves {:.1} s",
                b.pods_deployments_all_groups.release.clean.secs
                    - b.pods_deployments.release.clean.secs
            )),
        Record::new(SECTION, BUILD_RECORDS[7], b.crd.release.clean.secs, "s")
            .against("k8s-openapi app", openapi)
            .note("clean release build of the issue's trial app: Pods, ConfigMaps and one CRD whose informers build.rs generates with informer-gen (features core + latest)"),
    ];
    let kube_debug = clean_debug(&b.kube_rs);
    records.push(figure(BUILD_RECORDS[8], kube_debug).note("clean debug build"));
    let mut core_debug =
        figure(BUILD_RECORDS[9], clean_debug(&b.pods_core)).note("clean debug build");
    if let Some(k) = kube_debug {
        core_debug = core_debug.against("kube-rs app", k.secs);
    }
    records.push(core_debug);
    for (debug, names, issue) in [
        (
            false,
            &BUILD_RECORDS[10..13],
            ISSUE_INCREMENTAL_RELEASE_SECS,
        ),
        (true, &BUILD_RECORDS[13..16], ISSUE_INCREMENTAL_DEBUG_SECS),
    ] {
        let profile = if debug { "debug" } else { "release" };
        let kube = rebuild(&b.kube_rs, debug);
        records.push(figure(names[0], kube).note(format!(
            "{profile} rebuild of the kube-rs app after an edit of main.rs, fastest of {}{}",
            apps::REBUILDS,
            own_crate(kube, kube_app)
        )));
        let ours = rebuild(&b.pods_core, debug);
        let mut record = figure(names[1], ours).note(format!(
            "{profile} rebuild of the core-only Pods app after an edit of main.rs, fastest of {}{}",
            apps::REBUILDS,
            own_crate(ours, core_app)
        ));
        if let Some(k) = kube {
            record = record.against("kube-rs app", k.secs);
        }
        records.push(record);
        let crd = rebuild(&b.crd, debug);
        let mut record = figure(names[2], crd)
            .against("the issue's figure on main before this wave", issue)
            .note(format!(
                "{profile} rebuild of the trial app (Pods, ConfigMaps, one CRD) after an edit of main.rs, fastest of {}; the baseline is the issue's figure ({issue} s), not measured in this run{}",
                apps::REBUILDS,
                own_crate(crd, crd_app)
            ));
        if !debug {
            record = record.target(Target::ratio_at_most(0.5));
        }
        records.push(record);
    }
    records
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
    use super::apps::Builds;
    use super::*;

    fn timing(secs: f64, units: &[(&str, f64)]) -> Timing {
        Timing {
            secs,
            units: units.iter().map(|(n, d)| ((*n).to_owned(), *d)).collect(),
        }
    }

    fn clean(secs: f64) -> Measured {
        Measured {
            release: Builds {
                clean: timing(secs, &[]),
                incremental: None,
            },
            debug: None,
        }
    }

    fn full(secs: f64, rebuild: f64) -> Measured {
        let builds = |clean: f64, again: f64| Builds {
            clean: timing(clean, &[]),
            incremental: Some(timing(again, &[])),
        };
        Measured {
            release: builds(secs, rebuild),
            debug: Some(builds(secs / 2.0, rebuild / 10.0)),
        }
    }

    #[test]
    fn every_build_figure_is_reported_with_its_baseline() {
        let mut openapi = clean(50.0);
        openapi.release.clean = timing(50.0, &[("k8s-openapi", 30.0)]);
        let mut all_groups = clean(180.0);
        all_groups.release.clean = timing(180.0, &[("informers", 20.0), ("listers", 4.0)]);
        let builds = AppBuilds {
            openapi,
            kube_rs: full(100.0, 20.0),
            pods_core: full(80.0, 12.0),
            pods_all_groups: all_groups,
            pods_deployments: clean(90.0),
            pods_deployments_all_groups: clean(180.0),
            crd: full(120.0, 13.5),
        };
        let records = build_records(&builds);
        let names: Vec<&str> = records.iter().map(|r| r.name.as_str()).collect();
        assert_eq!(names, BUILD_RECORDS);
        let by_name = |name: &str| records.iter().find(|r| r.name == name).unwrap();
        assert_eq!(
            by_name("codegen.build.informers_listers_crates").ratio,
            Some(0.8)
        );
        let core = by_name("codegen.build.informers_app_core");
        assert_eq!((core.ratio, core.met), (Some(0.8), Some(true)));
        assert_eq!(
            by_name("codegen.build.pods_deployments_app").ratio,
            Some(0.5)
        );
        let trial = by_name("codegen.incremental.release.crd_app");
        assert_eq!((trial.ratio, trial.met), (Some(0.5), Some(true)));
        assert_eq!(
            by_name("codegen.incremental.debug.informers_app_core").ratio,
            Some(0.6)
        );
        assert_eq!(
            by_name("codegen.incremental.debug.crd_app").value,
            Some(1.35)
        );
        assert_eq!(
            by_name("codegen.build.debug.informers_app_core").ratio,
            Some(0.8)
        );
    }

    #[test]
    fn builds_left_out_of_the_plan_are_reported_as_skipped() {
        let builds = AppBuilds {
            openapi: clean(50.0),
            kube_rs: clean(100.0),
            pods_core: clean(80.0),
            pods_all_groups: clean(180.0),
            pods_deployments: clean(90.0),
            pods_deployments_all_groups: clean(180.0),
            crd: clean(120.0),
        };
        let records = build_records(&builds);
        let rebuild = records
            .iter()
            .find(|r| r.name == "codegen.incremental.release.crd_app")
            .unwrap();
        assert_eq!(
            (rebuild.value, rebuild.ratio, rebuild.met),
            (None, None, None)
        );
        assert_eq!(records.len(), BUILD_RECORDS.len());
    }
}
