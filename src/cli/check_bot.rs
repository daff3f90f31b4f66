//! `ginlab check-bot -- CMD...`: the protocol compliance check of a bot.

use std::fmt::Write as _;
use std::io::Write as _;
use std::path::PathBuf;

use clap::Args;
use ginlab::strategy::botcheck::{CheckReport, check_bot};
use ginlab::strategy::{Bot, BotSpec, DEFAULT_TIMEOUT_MS};

use super::{Failure, write_stdout};

#[derive(Debug, Args)]
pub struct CheckBotArgs {
    /// Milliseconds the bot has for each answer.
    #[arg(long, default_value_t = DEFAULT_TIMEOUT_MS, value_parser = clap::value_parser!(u64).range(1..=3_600_000))]
    timeout_ms: u64,
    /// JSON object sent to the bot in hello as `options`.
    #[arg(long, value_name = "JSON")]
    options: Option<String>,
    /// Milliseconds the bot has to exit after quit (default: the longer of 2000 and the time it took to start and answer hello).
    #[arg(long, value_name = "MS", value_parser = clap::value_parser!(u64).range(1..=3_600_000))]
    quit_ms: Option<u64>,
    /// Folder for the bot's stderr logs (default: a folder in the system's temp directory).
    #[arg(long, value_name = "DIR")]
    log_dir: Option<PathBuf>,
    /// The bot's working directory, as a profile's `cwd` (for a bot that reads a data file by a relative name; default: ginlab's).
    #[arg(long, value_name = "DIR")]
    cwd: Option<PathBuf>,
    /// The bot's command and arguments, after `--`.
    #[arg(required = true, last = true, value_name = "CMD")]
    command: Vec<String>,
}

pub fn run(args: CheckBotArgs, lab: &ginlab::lab::Lab) -> Result<(), Failure> {
    let mut spec = BotSpec::new(args.command);
    spec.timeout_ms = args.timeout_ms;
    spec.log_dir = args.log_dir;
    spec.quit_ms = args.quit_ms;
    spec.cwd = args.cwd;
    if let Some(text) = &args.options {
        spec.options = ginlab::protocol::options_from_json(text).map_err(|e| {
            Failure::input(format!(
                "--options `{text}`: {e}; give a JSON object, e.g. '{{\"depth\": 2}}'"
            ))
        })?;
    }
    let command = spec.command_line();
    let bot = ginlab::strategy::Bot::new(spec.clone(), lab.bots());
    // Progress on stderr; a stderr that cannot be written must not panic.
    let note = |line: std::fmt::Arguments<'_>| {
        let _ = writeln!(std::io::stderr(), "{line}");
    };
    note(format_args!("checking `{command}`"));
    let report = check_bot(lab.bots(), spec, |name, outcome| match outcome {
        Ok(decisions) => note(format_args!("  ok    {name} ({decisions} decisions)")),
        Err(_) => note(format_args!("  FAIL  {name}")),
    });
    super::strategies::note_sandbox(lab);
    // A command that cannot start is bad input, not a finding about a bot.
    if let Some(e) = &report.start_error {
        return Err(Failure::input(format!("check-bot: {e}")));
    }
    if !report.passed() {
        lab.bots().keep_logs();
    }
    let text = render(&report, &command, &where_logs_are(&bot));
    write_stdout(text.as_bytes())?;
    if report.passed() {
        Ok(())
    } else {
        Err(Failure::Run(anyhow::anyhow!(
            "`{command}` is not compliant: {} violation(s)",
            report.violations.len() + usize::from(report.quit_cleanly == Some(false))
        )))
    }
}

fn render(report: &CheckReport, command: &str, logs: &str) -> String {
    let mut out = String::new();
    let name = report.name.as_deref().unwrap_or("(no valid hello)");
    writeln!(out, "bot        `{command}`, hello name \"{name}\"").unwrap();
    writeln!(
        out,
        "scenarios  {} passed, {} failed",
        report.played.len(),
        report.violations.len()
    )
    .unwrap();
    for v in &report.violations {
        writeln!(out, "VIOLATION  in \"{}\":", v.scenario).unwrap();
        for line in v.detail.lines() {
            writeln!(out, "    {line}").unwrap();
        }
    }
    let reached: Vec<String> = CheckReport::ALL_DECISIONS
        .iter()
        .map(|d| {
            let mark = if report.decisions.contains(d) {
                "yes"
            } else {
                "NOT REACHED"
            };
            format!("{d}: {mark}")
        })
        .collect();
    writeln!(out, "decisions  {}", reached.join(", ")).unwrap();
    let results: Vec<&str> = report.results.iter().map(String::as_str).collect();
    writeln!(out, "results    {}", results.join(", ")).unwrap();
    let quit = match report.quit_cleanly {
        Some(true) => "exited by itself",
        Some(false) => {
            "VIOLATION: did not exit in time (killed; it has the longer of 2 s and its start-up \
             time, or --quit-ms)"
        }
        None => "not checked (no process left running)",
    };
    writeln!(out, "quit       {quit}").unwrap();
    writeln!(out, "logs       {logs}").unwrap();
    writeln!(
        out,
        "verdict    {}",
        if report.passed() {
            "COMPLIANT"
        } else {
            "NOT COMPLIANT"
        }
    )
    .unwrap();
    out
}

/// Where `bot`'s stderr logs are, for the end of a report: the folder, or
/// that the default folder is removed at exit because nothing failed.
pub fn where_logs_are(bot: &Bot) -> String {
    match bot.log_dir() {
        Ok(dir) if bot.spec().log_dir.is_some() || bot.host().logs_kept() => {
            format!("stderr logs in {}", dir.display())
        }
        Ok(_) => "stderr logs removed at exit (nothing failed; a profile's log_dir keeps them)"
            .to_owned(),
        Err(e) => e.to_string(),
    }
}
