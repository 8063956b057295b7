//! `bench`: measures our informers side by side with kube-rs on the same test server
//! and the same data, and writes `results.json`, one SVG chart per section and a table.
//! Protocol: DESIGN.md section 6; sizes and targets: issue 6.

mod alloc;
mod chart;
mod cli;
mod cpu;
mod error;
mod kube_baseline;
mod ours;
mod output;
mod projection;
mod raw_http;
mod results;
mod sections;
mod serve;
mod server_process;
mod store_designs;
mod table;

use std::path::Path;
use std::process::ExitCode;

use cli::{Command, RunArgs, Section};
use error::BenchError;
use results::Record;

#[global_allocator]
static ALLOCATOR: alloc::CountingAllocator = alloc::CountingAllocator;

fn main() -> ExitCode {
    tracing_subscriber::fmt()
        .with_writer(std::io::stderr)
        .with_ansi(false)
        .with_env_filter(
            tracing_subscriber::EnvFilter::try_from_default_env()
                .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new("error,bench=warn")),
        )
        .init();
    let command = match cli::parse(std::env::args().skip(1)) {
        Ok(c) => c,
        Err(e) => {
            eprintln!("bench: {e}");
            return ExitCode::from(2);
        }
    };
    let runtime = match tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
    {
        Ok(r) => r,
        Err(e) => {
            eprintln!("bench: start the tokio runtime: {e}");
            return ExitCode::FAILURE;
        }
    };
    let outcome = match command {
        Command::Help => {
            println!("{}", cli::USAGE);
            Ok(())
        }
        Command::Serve(args) => runtime.block_on(serve::serve(args)),
        Command::SyncChild(args) => runtime.block_on(sections::protobuf::sync_child(args)),
        Command::Report(out) => report(&out),
        Command::Run(args) => runtime.block_on(run(args)),
    };
    match outcome {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("bench: {e}");
            ExitCode::FAILURE
        }
    }
}

/// Runs the sections one after another; a failed section is reported and recorded, and
/// the others still run. Fails at the end if any section failed.
async fn run(args: RunArgs) -> Result<(), BenchError> {
    let ctx = sections::Ctx {
        quick: args.quick,
        soak_minutes: args.soak_minutes,
    };
    let mut all: Vec<Record> = Vec::new();
    let mut failed = Vec::new();
    for section in &args.sections {
        eprintln!("bench: running {} ({})", section.name(), section.title());
        let records = match sections::run(*section, ctx).await {
            Ok(r) => r,
            Err(e) => {
                eprintln!("bench: section {} failed: {e}", section.name());
                failed.push(section.name());
                vec![Record::skipped(
                    section.name(),
                    format!("{}.failed", section.name()),
                    "",
                    e.to_string(),
                )]
            }
        };
        print!("\n## {}\n{}", section.title(), table::render(&records));
        all.extend(records);
    }
    let json = args.out.join("results.json");
    let merged = results::write_merged(&json, &all)?;
    draw(&args.out, &merged)?;
    eprintln!("bench: wrote {}", json.display());
    if failed.is_empty() {
        Ok(())
    } else {
        Err(BenchError::Informer {
            who: "benchmark run".into(),
            reason: format!("sections failed: {}", failed.join(", ")),
        })
    }
}

/// Redraws `DIR/table.md` and the charts from `DIR/results.json`.
fn report(out: &Path) -> Result<(), BenchError> {
    let json = out.join("results.json");
    let bytes = std::fs::read(&json).map_err(|source| BenchError::Io {
        action: "read",
        path: json.display().to_string(),
        source,
    })?;
    let records: Vec<Record> = serde_json::from_slice(&bytes).map_err(|e| BenchError::Decode {
        what: json.display().to_string(),
        source: e,
    })?;
    draw(out, &records)
}

/// Writes `DIR/table.md` and one chart per section, `DIR/<section>.svg`, for `records`.
fn draw(out: &Path, records: &[Record]) -> Result<(), BenchError> {
    for section in Section::ALL {
        let of_section: Vec<Record> = records
            .iter()
            .filter(|r| r.section == section.name())
            .cloned()
            .collect();
        let svg = match section {
            Section::Soak => sections::soak::chart(section.title(), &of_section),
            _ => chart::section_svg(section.name(), section.title(), &of_section),
        };
        if let Some(svg) = svg {
            output::write_file(&out.join(format!("{}.svg", section.name())), svg.as_bytes())?;
        }
    }
    output::write_file(&out.join("table.md"), table::markdown(records).as_bytes())
}
