//! `ginlab run experiments/NAME.toml`: every (variant, pairing) of an
//! experiment, written to `results/NAME/` (or `--out DIR`); and `ginlab
//! merge`.

use std::path::PathBuf;
use std::time::Instant;

use clap::Args;
use ginlab::experiment::Experiment;
use ginlab::job::{self, JobRequest, Shard};
use ginlab::lab::Lab;

use super::input::SPEC_FILE;
use super::job::{command, on_progress, resolver, status_block};
use super::study::{outcome_json, print_outcome, summary_text};
use super::{Failure, progress, write_stdout};

#[derive(Debug, Args)]
pub struct RunArgs {
    /// The experiment spec (TOML; see experiments/README.md).
    spec: PathBuf,
    /// Where to write the results (default: results/NAME, NAME from the spec
    /// or the file's stem).
    #[arg(long, value_name = "DIR")]
    out: Option<PathBuf>,
    /// Worker threads (default: one per core). The output does not depend on it.
    #[arg(long, default_value_t = 0, value_parser = super::threads)]
    threads: usize,
    /// No progress bar.
    #[arg(long, short)]
    quiet: bool,
    /// Play only the K-th of N slices of every row's deals; combine the N
    /// outputs with `ginlab merge`.
    #[arg(long, value_name = "K/N")]
    shard: Option<Shard>,
    /// Continue an interrupted run from the checkpoint in the output folder.
    #[arg(long)]
    resume: bool,
    /// Also write every game (every hand when playing hands) as one JSON
    /// line to FILE, rows in spec order, deals in order; replay it with
    /// `ginlab replay`. The file appears whole at the end of the run. A
    /// shard writes its part (`ginlab merge --record` combines them);
    /// --resume continues the record the checkpoint names.
    #[arg(long, value_name = "FILE")]
    record: Option<PathBuf>,
    /// The player rated 0 in the rating list of three or more players
    /// (default: the spec's `anchor`, else simple when it plays, else the
    /// first player).
    #[arg(long, value_name = "PLAYER")]
    anchor: Option<String>,
    /// Print the result as one line of JSON (the CSV files' rows; see
    /// README) instead of the table.
    #[arg(long)]
    json: bool,
    /// Print a status line to standard error every N games (hands when
    /// playing hands): wins-losses, Elo with its interval, the pair counts.
    /// Checkpoints then come as often. (`run` has no stopping rule: the
    /// SPRT's LLR is `match --sprt`'s.)
    #[arg(long, value_name = "N", value_parser = super::count, allow_negative_numbers = true)]
    status: Option<u64>,
}

pub fn run(args: RunArgs, lab: &Lab) -> Result<(), Failure> {
    let text = SPEC_FILE.read_file(&args.spec)?;
    if ginlab::tune::spec::is_tune_spec(&text) {
        return super::tune::run_spec(
            &args.spec,
            text,
            args.out,
            &super::tune::Playing {
                threads: args.threads,
                resume: args.resume,
                quiet: args.quiet,
                json: args.json,
            },
            lab,
        );
    }
    let experiment = Experiment::from_toml(&text)
        .map_err(|e| Failure::input(format!("experiment {}: {e}", args.spec.display())))?;
    // The spec's validated folder name (its `name`, or a file stem that is
    // a safe folder name); only needed without --out.
    let name = match &args.out {
        Some(_) => String::new(),
        None => experiment
            .folder_name(&args.spec)
            .map_err(|e| Failure::input(format!("experiment {}: {e}", args.spec.display())))?,
    };
    let mut request =
        JobRequest::from_experiment(experiment, &name, text, args.out.clone(), command());
    if args.anchor.is_some() {
        request.anchor.clone_from(&args.anchor);
    }
    let spec = request.build(&resolver(lab))?;
    super::job::warn_fixed_seed(&spec, "the spec's seed");
    let options = job::Options {
        shard: args.shard,
        resume: args.resume,
        threads: args.threads,
        record: args.record.clone(),
        stop: None,
        block: status_block(args.status, &spec),
        abort: None,
    };
    let start = Instant::now();
    let bar = progress::bar(args.quiet);
    progress::lines_for_logs(args.quiet);
    let outcome = job::run(&spec, &options, &on_progress(&bar, args.status));
    bar.finish_and_clear();
    print_outcome(&spec, &outcome?, start.elapsed().as_secs_f64(), args.json)
}

/// `ginlab merge DIR... --out DIR`
#[derive(Debug, Args)]
pub struct MergeArgs {
    /// The shard output folders (each with tallies.json and manifest.toml).
    #[arg(required = true, num_args = 1..)]
    shards: Vec<PathBuf>,
    /// Where to write the merged result.
    #[arg(long, value_name = "DIR")]
    out: PathBuf,
    /// Also combine the shards' game records (each shard run with
    /// --record) into FILE: the record the unsharded run writes, byte for
    /// byte.
    #[arg(long, value_name = "FILE")]
    record: Option<PathBuf>,
    /// Print the result as one line of JSON (the CSV files' rows; see
    /// README) instead of the table.
    #[arg(long)]
    json: bool,
    /// Taken as every job command takes it; `merge` draws no progress bar.
    #[arg(long, short)]
    quiet: bool,
}

pub fn merge(args: MergeArgs) -> Result<(), Failure> {
    // Merging draws no bar: -q has nothing to hide.
    let _quiet = args.quiet;
    let start = Instant::now();
    let outcome = job::merge(&args.shards, &args.out, args.record.as_deref(), &command())?;
    super::job::print_notes(&outcome);
    let seconds = start.elapsed().as_secs_f64();
    let text = if args.json {
        outcome_json(&outcome)
    } else {
        summary_text(&outcome, seconds, Some(&args.out))
    };
    write_stdout(text.as_bytes())
}
