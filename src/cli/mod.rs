//! Command-line interface: clap types stay in this module; each subcommand
//! parses its flags into library values and calls the library.

mod chart;
mod check_bot;
mod compare;
mod head_to_head;
mod input;
mod job;
mod play;
mod progress;
mod replay;
mod rules;
mod run;
mod showdown;
mod solve;
mod strategies;
mod study;
mod tournament;
mod tune;

use std::fmt::Display;
use std::io::{self, Write as _};
use std::process::ExitCode;

use clap::{Parser, Subcommand};
use ginlab::strategy::Profile;

/// Gin Rummy research harness: meld solver, showdowns and self-play.
#[derive(Debug, Parser)]
#[command(name = "ginlab", version, about, long_about = None)]
// The bots' flags are also read before the command's name (`ginlab
// --sandbox off match ...`, as when they were global), but shown only in
// the help of the commands that play bots.
#[command(
    mut_arg("sandbox", |a| a.hide(true)),
    mut_arg("handshake_ms", |a| a.hide(true)),
    mut_arg("first_move_ms", |a| a.hide(true)),
)]
pub struct Cli {
    #[command(subcommand)]
    command: Command,
    #[command(flatten)]
    bots: BotArgs,
}

/// The flags of the commands that play external bots: they win over the
/// bots' profiles.
#[derive(Clone, Copy, Debug, Default, clap::Args)]
pub struct BotArgs {
    /// External bots' sandbox: auto (enforce what the system allows, say once what it cannot), strict (refuse to run without it), off; wins over a profile's `sandbox` (docs/PROTOCOL.md).
    #[arg(long, value_name = "MODE", value_parser = sandbox_mode)]
    sandbox: Option<ginlab::strategy::SandboxMode>,
    /// Milliseconds an external bot has to start and answer hello (default 30000, or the bot's timeout_ms if longer); wins over a profile's `handshake_ms`.
    #[arg(long, value_name = "MS", value_parser = clap::value_parser!(u64).range(1..=3_600_000))]
    handshake_ms: Option<u64>,
    /// Milliseconds a fresh bot process has for its first decision (default: the handshake limit; never less than timeout_ms); wins over a profile's `first_move_ms`.
    #[arg(long, value_name = "MS", value_parser = clap::value_parser!(u64).range(1..=3_600_000))]
    first_move_ms: Option<u64>,
}

impl BotArgs {
    /// These flags, each one given here or else in `outer` (before the
    /// command's name).
    fn or(self, outer: BotArgs) -> BotArgs {
        BotArgs {
            sandbox: self.sandbox.or(outer.sandbox),
            handshake_ms: self.handshake_ms.or(outer.handshake_ms),
            first_move_ms: self.first_move_ms.or(outer.first_move_ms),
        }
    }

    /// The flags given, as they are written, for messages.
    fn given(self) -> Vec<&'static str> {
        let mut given = Vec::new();
        if self.sandbox.is_some() {
            given.push("--sandbox");
        }
        if self.handshake_ms.is_some() {
            given.push("--handshake-ms");
        }
        if self.first_move_ms.is_some() {
            given.push("--first-move-ms");
        }
        given
    }
}

/// `--sandbox MODE`.
fn sandbox_mode(text: &str) -> Result<ginlab::strategy::SandboxMode, String> {
    text.parse()
        .map_err(|_| format!("the sandbox is {}", ginlab::strategy::SANDBOX_MODES))
}

#[derive(Debug, Subcommand)]
enum Command {
    /// Solve a hand: optimal melds, deadwood, and for 11 cards the best discard.
    Solve(solve::SolveArgs),
    /// Resolve a knock: both arrangements, the optimal lay-offs and the hand score.
    Showdown(showdown::ShowdownArgs),
    /// Play strategy A against strategy B (or three players, or two teams) and print a short summary.
    Match {
        #[command(flatten)]
        args: head_to_head::MatchArgs,
        #[command(flatten)]
        bots: BotArgs,
    },
    /// Run an experiment spec (experiments/NAME.toml) into results/NAME/.
    Run {
        #[command(flatten)]
        args: run::RunArgs,
        #[command(flatten)]
        bots: BotArgs,
    },
    /// Combine the outputs of --shard K/N runs into the result one run would give.
    Merge(run::MergeArgs),
    /// Vary one strategy parameter over a grid against a fixed opponent, per variant.
    Sweep {
        #[command(flatten)]
        args: study::SweepArgs,
        #[command(flatten)]
        bots: BotArgs,
    },
    /// One strategy in both seats across rule variants: how balanced each variant is.
    #[command(
        mut_arg("hands", |a| a.help("Hands per variant")),
        mut_arg("games", |a| a.help("Whole games per variant")),
        mut_arg("no_duplicate", |a| a.hide(true)),
    )]
    Balance {
        #[command(flatten)]
        args: study::BalanceArgs,
        #[command(flatten)]
        bots: BotArgs,
    },
    /// Play a game to the target against a strategy, in the terminal.
    ///
    /// Your hand is shown sorted with melds in brackets and its deadwood; each
    /// decision is a prompt with its legal answers, and a bad answer is
    /// explained and asked again. The opponent's actions are told as they
    /// happen; its cards show only at the showdown, which is explained with the
    /// score. Exit code 0 at the end of the game or on `quit`, 2 if the input
    /// ends first.
    #[command(after_help = play::ANSWERS)]
    Play {
        #[command(flatten)]
        args: play::PlayArgs,
        #[command(flatten)]
        bots: BotArgs,
    },
    /// Print a rule set's every knob as TOML (a preset, or a file plus overrides).
    Rules(rules::PrintRulesArgs),
    /// Check that a bot speaks the protocol of docs/PROTOCOL.md: `ginlab check-bot -- CMD...`.
    CheckBot {
        #[command(flatten)]
        args: check_bot::CheckBotArgs,
        #[command(flatten)]
        bots: BotArgs,
    },
    /// Re-simulate game records (from --record), check every result, print transcripts.
    Replay(replay::ReplayArgs),
    /// Compare two records of the same deals with one player changed: the
    /// difference in games won, paired by deal, with its 95 % interval.
    Compare(compare::CompareArgs),
    /// A round robin of three or more players (or a gauntlet: the first
    /// against each other) with the rating list: `ginlab tournament A B C D --games N`.
    #[command(
        mut_arg("hands", |a| a.help("Hands per pairing and variant")),
        mut_arg("games", |a| a.help("Whole games per pairing and variant")),
        mut_arg("out", |a| a.help("Write the result files into DIR (default: none)")),
    )]
    Tournament {
        #[command(flatten)]
        args: tournament::TournamentArgs,
        #[command(flatten)]
        bots: BotArgs,
    },
    /// Re-make a result folder's charts (every row's histograms, the headline
    /// chart) and distribution.csv from its tallies.json.
    Chart(chart::ChartArgs),
    /// Tune a strategy's parameters per variant: racing on duplicate deals
    /// for a grid, SPSA for ranges; the answer confirmed on fresh deals.
    #[command(
        mut_arg("hands", |a| a.help("The search's budget per variant in hands")),
        mut_arg("games", |a| a.help("The search's budget per variant in whole games")),
    )]
    Tune {
        #[command(flatten)]
        args: tune::TuneArgs,
        #[command(flatten)]
        bots: BotArgs,
    },
}

impl Command {
    /// The bots' flags of a command that plays bots.
    fn bot_args(&self) -> Option<BotArgs> {
        match self {
            Command::Match { bots, .. }
            | Command::Run { bots, .. }
            | Command::Sweep { bots, .. }
            | Command::Balance { bots, .. }
            | Command::Play { bots, .. }
            | Command::CheckBot { bots, .. }
            | Command::Tournament { bots, .. }
            | Command::Tune { bots, .. } => Some(*bots),
            Command::Solve(_)
            | Command::Showdown(_)
            | Command::Rules(_)
            | Command::Merge(_)
            | Command::Replay(_)
            | Command::Compare(_)
            | Command::Chart(_) => None,
        }
    }
}

/// The commands that take the bots' flags, for messages.
const BOT_COMMANDS: &str = "match, run, sweep, balance, play, check-bot, tournament and tune";

/// Runs the parsed command line, its players sharing `lab`.
pub fn run(cli: Cli, lab: &ginlab::lab::Lab) -> Result<(), Failure> {
    let Some(bots) = cli.command.bot_args() else {
        let given = cli.bots.given();
        if given.is_empty() {
            return run_command(cli.command, lab);
        }
        return Err(Failure::input(format!(
            "{} applies only to the commands that play bots ({BOT_COMMANDS})",
            given.join(" and ")
        )));
    };
    let bots = bots.or(cli.bots);
    lab.bots().set_bot_options(ginlab::strategy::BotOptions {
        sandbox: bots.sandbox,
        handshake_ms: bots.handshake_ms,
        first_move_ms: bots.first_move_ms,
    });
    run_command(cli.command, lab)
}

/// Runs one command.
fn run_command(command: Command, lab: &ginlab::lab::Lab) -> Result<(), Failure> {
    match command {
        Command::Solve(args) => solve::run(args),
        Command::Showdown(args) => showdown::run(args),
        Command::Rules(args) => rules::run(args),
        Command::Match { args, .. } => head_to_head::run(args, lab),
        Command::Run { args, .. } => run::run(args, lab),
        Command::Merge(args) => run::merge(args),
        Command::Sweep { args, .. } => study::sweep(args, lab),
        Command::Balance { args, .. } => study::balance(args, lab),
        Command::CheckBot { args, .. } => check_bot::run(args, lab),
        Command::Play { args, .. } => play::run(args, lab),
        Command::Replay(args) => replay::run(args),
        Command::Compare(args) => compare::run(args),
        Command::Chart(args) => chart::run(args),
        Command::Tournament { args, .. } => tournament::run(args, lab),
        Command::Tune { args, .. } => tune::run(args, lab),
    }
}

/// Why a command failed, which decides the exit code.
#[derive(Debug)]
pub enum Failure {
    /// Bad input (cards, flags, files): exit code 2.
    Input(anyhow::Error),
    /// A failure while running: exit code 1.
    Run(anyhow::Error),
}

impl Failure {
    /// Bad input described by `message`.
    pub fn input(message: impl Display) -> Failure {
        Failure::Input(anyhow::anyhow!("{message}"))
    }

    /// Prints the error with its causes and returns the exit code. A closed
    /// stdout (`ginlab ... | head`) is not an error.
    pub fn report(self) -> ExitCode {
        let (error, code) = match self {
            Failure::Input(e) => (e, 2),
            Failure::Run(e) => (e, 1),
        };
        let broken_pipe = error.chain().any(|cause| {
            cause
                .downcast_ref::<io::Error>()
                .is_some_and(|e| e.kind() == io::ErrorKind::BrokenPipe)
        });
        if broken_pipe {
            return ExitCode::SUCCESS;
        }
        // Not eprintln!, which panics when stderr cannot be written (a full
        // disk, /dev/full): the exit code still says what happened.
        let _ = writeln!(io::stderr(), "error: {error:#}");
        ExitCode::from(code)
    }
}

/// `--hands N`, `--games N`: a positive whole number. Negative numbers
/// reach this parser too (`allow_negative_numbers`), so `--hands -5` gets
/// this message rather than clap's tip to write `-- -5`.
fn count(text: &str) -> Result<u64, String> {
    match text.trim().parse::<u64>() {
        Ok(n) if n > 0 => Ok(n),
        _ => Err("must be a positive whole number, e.g. 1000".to_owned()),
    }
}

/// The group of the flags that say how much to play: exactly one is
/// required, and a missing one is reported as "one of them".
fn amount_group() -> clap::ArgGroup {
    clap::ArgGroup::new("amount").required(true).multiple(false)
}

/// The master seed of a run: the one given, else 64 bits from the
/// operating system (callers print it, so the run can be repeated).
fn master_seed(given: Option<u64>) -> Result<u64, Failure> {
    match given {
        Some(seed) => Ok(seed),
        None => ginlab::seed::random_master().map_err(|e| Failure::Run(anyhow::anyhow!(e))),
    }
}

/// Warns once when a seed the user chose meets an external bot, which could
/// guess it and rebuild every deal.
fn warn_chosen_seed(given: Option<u64>, profiles: &[Profile]) {
    let Some(seed) = given else { return };
    warn_guessable_seed(
        &format!("--seed {seed}"),
        "leave --seed out for a secret random seed",
        profiles,
    );
}

/// Warns once when `seed` (as the user gave it) meets an external bot;
/// `remedy` says how to avoid it.
fn warn_guessable_seed(seed: &str, remedy: &str, profiles: &[Profile]) {
    if profiles.iter().any(|p| p.bot().is_some()) {
        let _ = writeln!(
            io::stderr(),
            "warning: {seed} with an external bot: a bot that guesses the seed can \
             rebuild every deal; {remedy} (fair play, see docs/PROTOCOL.md)"
        );
    }
}

/// The most worker threads `--threads` may ask for.
/// `--threads N`: 0 (one per core) to [`ginlab::job::MAX_THREADS`].
fn threads(text: &str) -> Result<usize, String> {
    match text.trim().parse::<usize>() {
        Ok(n) if n <= ginlab::job::MAX_THREADS => Ok(n),
        _ => Err(format!(
            "threads are 0 (one per core) to {}",
            ginlab::job::MAX_THREADS
        )),
    }
}

impl From<anyhow::Error> for Failure {
    fn from(error: anyhow::Error) -> Failure {
        Failure::Run(error)
    }
}

impl From<io::Error> for Failure {
    fn from(error: io::Error) -> Failure {
        Failure::Run(error.into())
    }
}

impl From<csv::Error> for Failure {
    fn from(error: csv::Error) -> Failure {
        Failure::Run(error.into())
    }
}

/// Writes `bytes` to stdout in one go, so a run that fails early writes nothing.
fn write_stdout(bytes: &[u8]) -> Result<(), Failure> {
    let mut out = io::stdout().lock();
    out.write_all(bytes)?;
    out.flush()?;
    Ok(())
}
