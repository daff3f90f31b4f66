//! The `ginlab` command line: parse, call the library, print. Exit code 0 on
//! success, 2 on bad input, 1 on a failure while running.

mod cli;

use std::process::ExitCode;

use clap::Parser;

fn main() -> ExitCode {
    // External bots run in process groups of their own, which a terminal's
    // Ctrl-C does not reach: end them before exiting as the signal would.
    let _ = ctrlc::set_handler(|| {
        ginlab::strategy::end_running_bots();
        std::process::exit(130);
    });
    let args = cli::Cli::parse();
    match cli::run(args) {
        Ok(()) => ExitCode::SUCCESS,
        Err(failure) => failure.report(),
    }
}
