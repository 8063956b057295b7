//! The `informer-gen` command line: extract resource tables from k8s-openapi, list what
//! would be generated, generate informers or listers into a directory, generate everything
//! for CRDs (from files, standard input or a cluster), print shell completions.

mod cli;

use std::io::Write;
use std::process::ExitCode;

use clap::Parser;

fn main() -> ExitCode {
    let args = match cli::Cli::try_parse() {
        Ok(args) => args,
        Err(e) => return cli::parse_failure(&e),
    };
    match cli::run(args) {
        Ok(output) => {
            // A closed pipe (`informer-gen list | head`) is not an error worth a panic.
            let _ = std::io::stdout().write_all(output.as_bytes());
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("informer-gen: error: {e}");
            ExitCode::from(2)
        }
    }
}
