//! The `ginlab` command line: parse, call the library, print. Exit code 0 on
//! success, 2 on bad input, 1 on a failure while running.

mod cli;

use std::process::ExitCode;

use clap::Parser;

fn main() -> ExitCode {
    // The sandbox launcher (src/strategy/external/launcher.rs): restricts
    // itself and becomes a bot; it must come before anything else starts.
    let args: Vec<std::ffi::OsString> = std::env::args_os().collect();
    if args
        .get(1)
        .is_some_and(|a| a == ginlab::strategy::LAUNCHER_ARG)
    {
        return ExitCode::from(ginlab::strategy::launcher::run(&args[2..]));
    }
    // What every player of this command shares: the bots' host (this
    // program is their sandbox launcher) and mc's tables.
    let lab = ginlab::lab::Lab::new();
    if let Ok(me) = std::env::current_exe() {
        lab.bots().set_launcher(vec![me.into()]);
    }
    // Orphans of the bots (a helper that double-forked) are adopted by this
    // process, so that they end with it (Linux).
    ginlab::strategy::adopt_orphans();
    on_signals(&lab);
    let args = cli::Cli::parse();
    let code = match cli::run(args, &lab) {
        Ok(()) => ExitCode::SUCCESS,
        Err(failure) => failure.report(),
    };
    // The bots' default log folder goes unless a bot failed (an
    // interrupted run keeps it: the handler above exits first).
    lab.bots().finish_logs();
    lab.bots().end_orphans();
    let dropped = lab.bots().stderr_dropped();
    if dropped > 0 {
        let _ = std::io::Write::write_all(
            &mut std::io::stderr(),
            format!(
                "note: bots wrote {dropped} bytes of stderr over their logs' cap \
                 (max_log_bytes); dropped, and counted in each bot-N.log\n"
            )
            .as_bytes(),
        );
    }
    code
}

/// On Ctrl-C, SIGTERM or SIGHUP: end the external bots (they run in process
/// groups of their own, which a terminal's Ctrl-C does not reach) and remove
/// the temporary files of outputs being written (their targets are
/// untouched; a checkpoint stays, for --resume); then exit with 128 plus the
/// signal's number, as a shell reports a process the signal ended: 130 for
/// SIGINT, 143 for SIGTERM, 129 for SIGHUP.
#[cfg(unix)]
fn on_signals(lab: &ginlab::lab::Lab) {
    let lab = lab.clone();
    use signal_hook::consts::{SIGHUP, SIGINT, SIGTERM};
    let Ok(mut signals) = signal_hook::iterator::Signals::new([SIGINT, SIGTERM, SIGHUP]) else {
        return;
    };
    std::thread::spawn(move || {
        if let Some(signal) = signals.forever().next() {
            interrupted(&lab, 128 + signal);
        }
    });
}

/// Ctrl-C: exit code 130, as on Unix.
#[cfg(not(unix))]
fn on_signals(lab: &ginlab::lab::Lab) {
    let lab = lab.clone();
    let _ = ctrlc::set_handler(move || interrupted(&lab, 130));
}

/// Ends `lab`'s bots, removes temporary files and exits with `code`.
fn interrupted(lab: &ginlab::lab::Lab, code: i32) {
    lab.bots().end_running_bots();
    lab.bots().end_orphans();
    ginlab::report::remove_temporary_files();
    std::process::exit(code);
}
