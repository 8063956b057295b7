//! Command line: `bench <all|sync|memory|watch|listers|server|writes|codegen|workqueue|kube|sharding|soak>... [--quick] [--minutes M] [--out DIR]`,
//! and the internal `bench serve` child mode.

use std::path::PathBuf;

use crate::error::BenchError;

/// A benchmark section.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Section {
    /// Initial sync vs kube-rs and the decode floor.
    Sync,
    /// Heap per cached object, steady and during a relist.
    Memory,
    /// Watch events/s and latency, 1 and 10 handlers.
    Watch,
    /// Lister reads.
    Listers,
    /// The test server's own list and watch throughput.
    Server,
    /// The test server's writes per second, admission on vs off.
    Writes,
    /// Generation time and compile time.
    Codegen,
    /// Controller work queue throughput and event-to-reconcile latency.
    Workqueue,
    /// Initial sync through a kube::Client vs our own transport vs kube-rs.
    Kube,
    /// Sharded informers: one replica's heap, sync time and decode CPU, server- and
    /// client-side filtering.
    Sharding,
    /// Protobuf against JSON: list size, decode time and informer sync.
    Protobuf,
    /// Minutes of random writes and faults: caches exact, heap flat, queues bounded.
    Soak,
}

impl Section {
    /// Every section, in run order.
    pub const ALL: [Section; 12] = [
        Section::Sync,
        Section::Memory,
        Section::Watch,
        Section::Listers,
        Section::Server,
        Section::Writes,
        Section::Codegen,
        Section::Workqueue,
        Section::Kube,
        Section::Sharding,
        Section::Protobuf,
        Section::Soak,
    ];

    /// The section's name on the command line and in results.
    pub fn name(self) -> &'static str {
        match self {
            Section::Sync => "sync",
            Section::Memory => "memory",
            Section::Watch => "watch",
            Section::Listers => "listers",
            Section::Server => "server",
            Section::Writes => "writes",
            Section::Codegen => "codegen",
            Section::Workqueue => "workqueue",
            Section::Kube => "kube",
            Section::Sharding => "sharding",
            Section::Protobuf => "protobuf",
            Section::Soak => "soak",
        }
    }

    /// A one-line title for tables and charts.
    pub fn title(self) -> &'static str {
        match self {
            Section::Sync => "Initial sync (time to has_synced)",
            Section::Memory => "Heap per cached Pod, and peak during a relist",
            Section::Watch => "Watch throughput and latency",
            Section::Listers => "Lister reads",
            Section::Server => "Test API server throughput",
            Section::Writes => "Test API server writes, admission on vs off",
            Section::Codegen => "Code generation and compile time",
            Section::Workqueue => "Controller work queue",
            Section::Kube => "Initial sync through a kube::Client",
            Section::Sharding => "Sharded informers: one replica of N",
            Section::Protobuf => {
                "Protobuf against JSON (list size, decode, sync, heap, CPU, watch)"
            }
            Section::Soak => {
                "Soak: random writes and every fault, heap and handler queues over time"
            }
        }
    }

    fn parse(s: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|x| x.name() == s)
    }
}

/// Options of a benchmark run.
#[derive(Clone, Debug, PartialEq)]
pub struct RunArgs {
    /// Sections to run, in order.
    pub sections: Vec<Section>,
    /// Small sizes, no clean builds (what CI runs, in `bench/tests/quick.rs`).
    pub quick: bool,
    /// How long the soak runs, in minutes.
    pub soak_minutes: Option<f64>,
    /// Output directory.
    pub out: PathBuf,
}

/// Options of the child server.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ServeArgs {
    /// Pods to seed.
    pub pods: usize,
    /// Namespaces they spread over.
    pub namespaces: usize,
    /// Watch history window.
    pub history: usize,
    /// Serve KEP-5866 sharded lists and watches (`--no-sharding`: ignore the selector).
    pub sharding: bool,
}

/// Options of the cold-sync child: one sync of our Pod informer in a process of its own.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SyncChildArgs {
    /// The server to sync from.
    pub url: String,
    /// Pods the cache must hold once synced.
    pub pods: usize,
    /// What the child builds.
    pub build: ChildBuild,
}

/// What a cold-sync child builds in its fresh process.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ChildBuild {
    /// Our informer's cache, asking for protobuf (the default).
    Protobuf,
    /// Our informer's cache, asking for JSON only (`Config::disable_protobuf`; `--json`).
    Json,
    /// The memory floor (`--memory-floor`): the same Pods, each in its `Arc`, cloned from a
    /// few fetched first, so that nothing is read or parsed while it is timed.
    MemoryFloor,
}

/// What to do.
#[derive(Clone, Debug, PartialEq)]
pub enum Command {
    /// Run benchmarks.
    Run(RunArgs),
    /// Be the test server child.
    Serve(ServeArgs),
    /// Be a cold-sync child: sync once, print the figures, exit.
    SyncChild(SyncChildArgs),
    /// Redraw the table and charts from a results directory.
    Report(PathBuf),
    /// Print usage.
    Help,
}

/// Usage text.
pub const USAGE: &str = "\
bench <all | sync | memory | watch | listers | server | writes | codegen | workqueue | kube | sharding | soak>... [--quick] [--minutes M] [--out DIR]
bench report [--out DIR]

  all          every section (sync, memory, watch, listers, server, writes, codegen, workqueue, kube, sharding, soak)
  --quick      small sizes and no clean release builds (what CI runs); a 30 s soak
  --minutes M  how long the soak runs (default 10; decimals allowed)
  --out DIR    where results.json, the charts and the table go (default: target/bench)

Writes DIR/results.json (records of sections run replace earlier ones), DIR/<section>.svg,
DIR/table.md, and prints the table. `report` redraws the charts and table.md from
DIR/results.json.";

fn number(flag: &str, value: Option<String>) -> Result<usize, BenchError> {
    let v = value.ok_or_else(|| BenchError::Usage(format!("{flag} needs a number")))?;
    v.parse()
        .map_err(|_| BenchError::Usage(format!("{flag} {v:?}: not a non-negative integer")))
}

/// Parses the arguments after the program name.
pub fn parse(args: impl IntoIterator<Item = String>) -> Result<Command, BenchError> {
    let mut args = args.into_iter();
    let Some(first) = args.next() else {
        return Err(BenchError::Usage(format!("no section given\n{USAGE}")));
    };
    match first.as_str() {
        "-h" | "--help" | "help" => return Ok(Command::Help),
        "serve" => {
            let mut serve = ServeArgs {
                pods: 1000,
                namespaces: 10,
                history: 10_000,
                sharding: true,
            };
            while let Some(flag) = args.next() {
                match flag.as_str() {
                    "--pods" => serve.pods = number(&flag, args.next())?,
                    "--namespaces" => serve.namespaces = number(&flag, args.next())?.max(1),
                    "--history" => serve.history = number(&flag, args.next())?,
                    "--no-sharding" => serve.sharding = false,
                    other => {
                        return Err(BenchError::Usage(format!("serve: unknown flag {other:?}")))
                    }
                }
            }
            return Ok(Command::Serve(serve));
        }
        "sync-child" => {
            let (mut url, mut pods, mut build) = (None, None, ChildBuild::Protobuf);
            while let Some(flag) = args.next() {
                match flag.as_str() {
                    "--url" => url = args.next(),
                    "--pods" => pods = Some(number(&flag, args.next())?),
                    "--json" => build = ChildBuild::Json,
                    "--memory-floor" => build = ChildBuild::MemoryFloor,
                    other => {
                        return Err(BenchError::Usage(format!(
                            "sync-child: unknown flag {other:?}"
                        )))
                    }
                }
            }
            let (Some(url), Some(pods)) = (url, pods) else {
                return Err(BenchError::Usage(
                    "sync-child --url URL --pods N [--json | --memory-floor]".into(),
                ));
            };
            return Ok(Command::SyncChild(SyncChildArgs { url, pods, build }));
        }
        "report" => {
            let out = match (args.next().as_deref(), args.next()) {
                (None, _) => crate::output::default_dir(),
                (Some("--out"), Some(dir)) => PathBuf::from(dir),
                _ => return Err(BenchError::Usage(format!("report [--out DIR]\n{USAGE}"))),
            };
            if args.next().is_some() {
                return Err(BenchError::Usage(format!("report [--out DIR]\n{USAGE}")));
            }
            return Ok(Command::Report(out));
        }
        _ => {}
    }
    let mut run = RunArgs {
        sections: Vec::new(),
        quick: false,
        soak_minutes: None,
        out: crate::output::default_dir(),
    };
    let mut rest = std::iter::once(first).chain(args);
    while let Some(arg) = rest.next() {
        match arg.as_str() {
            "--quick" => run.quick = true,
            "--minutes" => {
                let v = rest
                    .next()
                    .ok_or_else(|| BenchError::Usage("--minutes needs a number".into()))?;
                match v.parse::<f64>() {
                    Ok(m) if m.is_finite() && m > 0.0 => run.soak_minutes = Some(m),
                    _ => {
                        return Err(BenchError::Usage(format!(
                            "--minutes {v:?}: not a positive number"
                        )))
                    }
                }
            }
            "--out" => {
                run.out = rest
                    .next()
                    .map(PathBuf::from)
                    .ok_or_else(|| BenchError::Usage("--out needs a directory".into()))?
            }
            "-h" | "--help" => return Ok(Command::Help),
            "all" => run.sections.extend(Section::ALL),
            name => match Section::parse(name) {
                Some(s) => run.sections.push(s),
                None => {
                    return Err(BenchError::Usage(format!(
                        "unknown section or flag {name:?}\n{USAGE}"
                    )))
                }
            },
        }
    }
    if run.sections.is_empty() {
        return Err(BenchError::Usage(format!("no section given\n{USAGE}")));
    }
    run.sections.dedup();
    Ok(Command::Run(run))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args(s: &str) -> Vec<String> {
        s.split_whitespace().map(String::from).collect()
    }

    #[test]
    fn all_quick() {
        let Command::Run(r) = parse(args("all --quick")).unwrap() else {
            panic!("not a run")
        };
        assert!(r.quick);
        assert_eq!(r.sections, Section::ALL);
    }

    #[test]
    fn one_section_with_out() {
        let Command::Run(r) = parse(args("memory --out /tmp/x")).unwrap() else {
            panic!("not a run")
        };
        assert_eq!(r.sections, [Section::Memory]);
        assert_eq!(r.out, PathBuf::from("/tmp/x"));
        assert!(!r.quick);
    }

    #[test]
    fn soak_minutes() {
        let Command::Run(r) = parse(args("soak --minutes 2.5")).unwrap() else {
            panic!("not a run")
        };
        assert_eq!(r.sections, [Section::Soak]);
        assert_eq!(r.soak_minutes, Some(2.5));
    }

    #[test]
    fn serve_flags() {
        assert_eq!(
            parse(args("serve --pods 5 --namespaces 0 --history 9")).unwrap(),
            Command::Serve(ServeArgs {
                pods: 5,
                namespaces: 1,
                history: 9,
                sharding: true
            })
        );
    }

    #[test]
    fn sync_child_flags() {
        assert_eq!(
            parse(args("sync-child --url http://127.0.0.1:1 --pods 7 --json")).unwrap(),
            Command::SyncChild(SyncChildArgs {
                url: "http://127.0.0.1:1".into(),
                pods: 7,
                build: ChildBuild::Json
            })
        );
        assert_eq!(
            parse(args("sync-child --pods 7 --memory-floor --url u")).unwrap(),
            Command::SyncChild(SyncChildArgs {
                url: "u".into(),
                pods: 7,
                build: ChildBuild::MemoryFloor
            })
        );
        assert!(parse(args("sync-child --url u")).is_err());
    }

    #[test]
    fn report_reads_a_directory() {
        assert_eq!(
            parse(args("report --out /tmp/r")).unwrap(),
            Command::Report(PathBuf::from("/tmp/r"))
        );
    }

    #[test]
    fn bad_input_is_a_usage_error() {
        for bad in [
            "",
            "nope",
            "--quick",
            "sync --out",
            "serve --pods x",
            "serve --what 1",
            "sync-child --pods 1",
            "sync-child --url u",
            "sync-child --url u --pods 1 --what",
            "report --out",
            "report x",
            "report --out d e",
            "soak --minutes",
            "soak --minutes -1",
            "soak --minutes x",
        ] {
            let e = parse(args(bad)).unwrap_err();
            assert!(matches!(e, BenchError::Usage(_)), "{bad:?}: {e}");
        }
    }
}
