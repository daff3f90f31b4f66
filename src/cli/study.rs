//! `ginlab sweep` (one strategy parameter over a grid against a fixed
//! opponent) and `ginlab balance` (one strategy against itself across rule
//! variants): flags into a job request; the job layer plays them, so
//! shards, resume and merge work too.

use std::path::{Path, PathBuf};
use std::time::Instant;

use clap::Args;
use ginlab::experiment::Sweep;
use ginlab::job::{self, JobRequest, JobSpec, Layout, Outcome, Shard, StudyKind};
use ginlab::lab::Lab;
use ginlab::report::{
    Objective, StudyRows, Summary, balance_table, json_report, ratings_table, summary_table,
    sweep_table, table_ratings_table, tables_report,
};
use ginlab::rules::Rules;
use ginlab::sim::Work;

use super::job::{command, on_progress, resolver};
use super::strategies::strategy_help;
use super::{Failure, progress, write_stdout};

/// Flags shared by the studies.
#[derive(Debug, Args)]
#[command(group(super::amount_group()))]
pub struct StudyArgs {
    /// Rule variants to run, each a preset or a rules file (repeatable;
    /// default standard). Every --rule override applies to all of them.
    #[arg(long = "rules", value_name = "NAME|FILE")]
    variants: Vec<String>,
    /// Override one knob in every variant (repeatable).
    #[arg(long = "rule", value_name = "KNOB=VALUE")]
    overrides: Vec<String>,
    /// Hands per grid point and variant.
    #[arg(long, value_parser = super::count, allow_negative_numbers = true, group = "amount")]
    hands: Option<u64>,
    /// Whole games per grid point and variant.
    #[arg(long, value_parser = super::count, allow_negative_numbers = true, group = "amount")]
    games: Option<u64>,
    /// Master seed (default 1; every row uses it, so rows share their deals).
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Play every deal once instead of twice with the seats swapped.
    #[arg(long)]
    no_duplicate: bool,
    /// Output folder (default: results/<study name>).
    #[arg(long, value_name = "DIR")]
    out: Option<PathBuf>,
    /// Worker threads (default: one per core).
    #[arg(long, default_value_t = 0, value_parser = super::threads)]
    threads: usize,
    /// Play only the K-th of N slices (merge with `ginlab merge`).
    #[arg(long, value_name = "K/N")]
    shard: Option<Shard>,
    /// Continue an interrupted run from its checkpoint.
    #[arg(long)]
    resume: bool,
    /// No progress bar.
    #[arg(long, short)]
    quiet: bool,
    /// Print the result as one line of JSON (the CSV files' rows; see
    /// README) instead of the table.
    #[arg(long)]
    json: bool,
}

impl StudyArgs {
    fn variants(&self) -> Result<Vec<(String, Rules)>, Failure> {
        Ok(job::study_variants(&self.variants, &self.overrides)?)
    }

    /// Plays the study laid out by `layout` (a rating list anchored at
    /// `anchor`, when it makes one) and prints its table.
    pub(super) fn play(
        &self,
        lab: &Lab,
        layout: Layout,
        anchor: Option<String>,
    ) -> Result<(), Failure> {
        let spec = JobRequest {
            variants: self.variants()?,
            layout,
            work: match (self.hands, self.games) {
                (Some(n), _) => Work::Hands(n),
                (_, Some(n)) => Work::Games(n),
                _ => unreachable!("clap requires --hands or --games"),
            },
            seed: self.seed,
            duplicate: !self.no_duplicate,
            out: self.out.clone(),
            name: None,
            default_folder: true,
            command: command(),
            experiment: None,
            anchor,
            budget_ms: None,
        }
        .build(&resolver(lab))?;
        super::job::warn_fixed_seed(&spec, "--seed");
        let options = job::Options {
            shard: self.shard,
            resume: self.resume,
            threads: self.threads,
            record: None,
            stop: None,
            block: None,
            abort: None,
        };
        let start = Instant::now();
        let bar = progress::bar(self.quiet);
        let outcome = job::run(&spec, &options, &on_progress(&bar, None));
        bar.finish_and_clear();
        print_outcome(&spec, &outcome?, start.elapsed().as_secs_f64(), self.json)
    }
}

/// Prints a finished job's table (the study's, or the summary's and the
/// rating list), or with `json` its JSON report.
pub fn print_outcome(
    spec: &JobSpec,
    outcome: &Outcome,
    seconds: f64,
    json: bool,
) -> Result<(), Failure> {
    super::job::print_notes(outcome);
    if json {
        return write_stdout(outcome_json(outcome).as_bytes());
    }
    let dir = spec.dir.as_deref();
    let text = match (&outcome.study, &spec.study) {
        (Some(StudyRows::Sweep(rows)), StudyKind::Sweep { param, .. }) => {
            let objective = spec.study.objective().expect("a sweep");
            sweep_table(
                rows,
                param,
                spec.unit(),
                objective,
                dir.unwrap_or(Path::new(".")),
            )
        }
        (Some(StudyRows::Balance(rows)), _) => balance_table(rows, dir.unwrap_or(Path::new("."))),
        _ => summary_text(outcome, seconds, dir),
    };
    write_stdout(text.as_bytes())
}

/// A job's JSON report (no stopping rule: `match` adds its own).
pub fn outcome_json(outcome: &Outcome) -> String {
    json_report(
        &outcome.summary,
        outcome.ratings.as_deref(),
        outcome.study.as_ref(),
        None,
    )
}

/// The summary table, and the rating list when there is one; a
/// three-player or partnership job's side and seat tables.
pub fn summary_text(outcome: &Outcome, seconds: f64, dir: Option<&Path>) -> String {
    let summary = match &outcome.summary {
        Summary::Sides { sides, seats } => {
            let mut text = tables_report(sides, seats, seconds, dir);
            if let Some(ratings) = &outcome.ratings {
                text.push_str(&table_ratings_table(ratings));
            }
            return text;
        }
        Summary::Pairs(rows) => rows,
    };
    let mut text = summary_table(summary, seconds, dir);
    if let Some(ratings) = &outcome.ratings {
        text.push_str(&ratings_table(ratings));
    }
    text
}

#[derive(Debug, Args)]
pub struct SweepArgs {
    #[arg(help = strategy_help("The strategy to vary"))]
    strategy: String,
    /// The parameter to vary, e.g. knock_at.
    #[arg(long)]
    param: String,
    /// The values: `A..=B` (integers) or a comma list.
    #[arg(long)]
    values: String,
    #[arg(long, value_name = "STRATEGY", help = strategy_help("The fixed opponent"))]
    vs: String,
    /// What the chart and table show: games (share of games won), hands
    /// (share of hands won), points (net points per hand) or elo. Default:
    /// games when playing games, points when playing hands.
    #[arg(long, value_name = "OBJECTIVE")]
    objective: Option<Objective>,
    #[command(flatten)]
    study: StudyArgs,
}

pub fn sweep(args: SweepArgs, lab: &Lab) -> Result<(), Failure> {
    args.study.play(
        lab,
        Layout::Sweep(Sweep {
            strategy: args.strategy.clone(),
            param: args.param.clone(),
            values: args.values.clone(),
            vs: args.vs.clone(),
            objective: args.objective,
        }),
        None,
    )
}

#[derive(Debug, Args)]
pub struct BalanceArgs {
    // Every deal is played once (a seat-swapped replay would repeat the
    // hand), so --no-duplicate is refused here (see `balance`).
    #[arg(help = strategy_help("The strategy in both seats"))]
    strategy: String,
    #[command(flatten)]
    study: StudyArgs,
}

pub fn balance(args: BalanceArgs, lab: &Lab) -> Result<(), Failure> {
    if args.study.no_duplicate {
        return Err(Failure::input(
            "--no-duplicate: a balance study plays every deal once already (one strategy in \
             both seats, so a seat-swapped replay would repeat the hand)",
        ));
    }
    args.study.play(
        lab,
        Layout::Balance {
            strategy: args.strategy.clone(),
        },
        None,
    )
}
