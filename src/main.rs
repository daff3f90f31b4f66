//! The `ginlab` command line: parse, call the library, print. Exit code 0 on
//! success, 2 on bad input, 1 on a failure while running.

mod cli;

use std::process::ExitCode;

use clap::Parser;

fn main() -> ExitCode {
    let args = cli::Cli::parse();
    match cli::run(args) {
        Ok(()) => ExitCode::SUCCESS,
        Err(failure) => failure.report(),
    }
}
