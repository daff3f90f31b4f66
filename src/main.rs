//! The `ginlab` command line: parse, call the library, print. Exit code 0 on
//! success, 2 on bad input, 1 on a failure while running.

mod cli;

use std::process::ExitCode;

use clap::Parser;

fn main() -> ExitCode {
    // On Ctrl-C or SIGTERM: end the external bots (they run in process
    // groups of their own, which a terminal's Ctrl-C does not reach) and
    // remove the temporary files of outputs being written (their targets are
    // untouched; a checkpoint stays, for --resume).
    let _ = ctrlc::set_handler(|| {
        ginlab::strategy::end_running_bots();
        ginlab::report::remove_temporary_files();
        std::process::exit(130);
    });
    let args = cli::Cli::parse();
    match cli::run(args) {
        Ok(()) => ExitCode::SUCCESS,
        Err(failure) => failure.report(),
    }
}
