//! `ginlab run experiments/NAME.toml`: every (variant, pairing) of an
//! experiment, written to `results/NAME/` (or `--out DIR`); and `ginlab
//! merge`.

use std::path::PathBuf;
use std::time::Instant;

use clap::Args;
use ginlab::experiment::Experiment;
use ginlab::job::{self, JobRequest, Shard};
use ginlab::report::{summary_table, tables_report};

use super::input::SPEC_FILE;
use super::job::{command, on_progress, resolver};
use super::study::print_outcome;
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
    /// `ginlab replay`. The file appears whole at the end of the run.
    #[arg(long, value_name = "FILE", conflicts_with_all = ["shard", "resume"])]
    record: Option<PathBuf>,
}

pub fn run(args: RunArgs) -> Result<(), Failure> {
    let text = SPEC_FILE.read_file(&args.spec)?;
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
    let spec = JobRequest::from_experiment(experiment, &name, text, args.out.clone(), command())
        .build(&resolver)?;
    super::job::warn_fixed_seed(&spec, "the spec's seed");
    let options = job::Options {
        shard: args.shard,
        resume: args.resume,
        threads: args.threads,
        record: args.record.clone(),
        stop: None,
        block: None,
    };
    let start = Instant::now();
    let bar = progress::bar(args.quiet);
    let outcome = job::run(&spec, &options, &on_progress(&bar));
    bar.finish_and_clear();
    print_outcome(&spec, &outcome?, start.elapsed().as_secs_f64())
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
}

pub fn merge(args: MergeArgs) -> Result<(), Failure> {
    let start = Instant::now();
    let outcome = job::merge(&args.shards, &args.out, &command())?;
    super::job::print_notes(&outcome);
    let seconds = start.elapsed().as_secs_f64();
    let text = if outcome.sides.is_empty() {
        summary_table(&outcome.summary, seconds, &args.out)
    } else {
        tables_report(&outcome.sides, &outcome.seats, seconds, &args.out)
    };
    write_stdout(text.as_bytes())
}
