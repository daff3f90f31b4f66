//! `ginlab run experiments/NAME.toml`: every (variant, pairing) of an
//! experiment, written to `results/NAME/` (or `--out DIR`).

use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::time::Instant;

use clap::Args;
use ginlab::experiment::{Amount, Experiment, Study};
use ginlab::report::{Manifest, SummaryRow, VariantRules};
use ginlab::sim::{Plan, Work};

use super::input::SPEC_FILE;
use super::job::{self, Row, Shard};
use super::strategies::{Named, resolve};
use super::study::{StudyConfig, run_balance, run_sweep};
use super::{Failure, write_stdout};

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

impl RunArgs {
    /// How the job runs, from the flags.
    fn options(&self) -> job::Options {
        job::Options {
            shard: self.shard.unwrap_or(Shard::ALL),
            resume: self.resume,
            threads: self.threads,
            quiet: self.quiet,
            record: self.record.clone(),
        }
    }
}

pub fn run(args: RunArgs) -> Result<(), Failure> {
    let text = SPEC_FILE.read_file(&args.spec)?;
    let experiment = Experiment::from_toml(&text)
        .map_err(|e| Failure::input(format!("experiment {}: {e}", args.spec.display())))?;
    if experiment.study != Study::Match {
        return run_study(&args, experiment, text);
    }
    let dir = results_dir(&args, &experiment)?;
    let players: Vec<Named> = experiment
        .players
        .iter()
        .map(|p| resolve(p, p))
        .collect::<Result<_, _>>()?;
    if dir.exists() && !dir.is_dir() {
        return Err(Failure::input(format!(
            "{}: exists and is not a directory",
            dir.display()
        )));
    }
    let (work, count) = match experiment.amount {
        Amount::Hands(n) => (Work::Hands(n), n),
        Amount::Games(n) => (Work::Games(n), n),
    };
    let rows: Vec<Row> = experiment
        .variants
        .iter()
        .flat_map(|(variant, rules)| {
            let work = work.clone();
            let players = &players;
            experiment.pairings().into_iter().map(move |(a, b)| Row {
                variant: variant.clone(),
                players: [players[a].name.clone(), players[b].name.clone()],
                plan: Plan {
                    rules: rules.clone(),
                    profiles: [players[a].profile.clone(), players[b].profile.clone()],
                    work: work.clone(),
                    duplicate: experiment.duplicate,
                    seed: experiment.seed,
                },
            })
        })
        .collect();
    let manifest = Manifest {
        ginlab_version: Manifest::VERSION,
        git_commit: Manifest::COMMIT,
        command: std::env::args().collect(),
        seed: experiment.seed,
        players: players.iter().map(|p| p.name.clone()).collect(),
        profiles: players.iter().map(|p| p.profile.to_string()).collect(),
        work: match experiment.amount {
            Amount::Hands(_) => "hands".into(),
            Amount::Games(_) => "games".into(),
        },
        count,
        duplicate: experiment.duplicate,
        variants: experiment
            .variants
            .iter()
            .map(|(name, rules)| VariantRules {
                name: name.clone(),
                rules: rules.to_toml(),
            })
            .collect(),
        experiment: Some(text),
    };
    let start = Instant::now();
    let tallies = job::play(&rows, &dir, &manifest, &args.options())?.commit()?;
    let seconds = start.elapsed().as_secs_f64();
    let summary: Vec<SummaryRow> = rows
        .iter()
        .zip(&tallies)
        .map(|(r, t)| SummaryRow::new(&r.variant, &r.players[0], &r.players[1], t, r.plan.seed))
        .collect();
    write_stdout(table(&summary, seconds, &dir).as_bytes())
}

/// A readable table of the summary rows.
pub fn table(rows: &[SummaryRow], seconds: f64, dir: &Path) -> String {
    let mut out = String::new();
    let pct = |x: f64| format!("{:.1}", 100.0 * x);
    writeln!(
        out,
        "{:<14} {:<16} {:<16} {:>8} {:>20} {:>20} {:>22} {:>6} {:>6} {:>6}",
        "variant",
        "A",
        "B",
        "hands",
        "A hands won %",
        "A games won %",
        "A Elo",
        "gin%",
        "uc%",
        "void%"
    )
    .unwrap();
    for r in rows {
        let games = if r.games == 0 {
            "-".to_owned()
        } else {
            format!(
                "{} [{}–{}]",
                pct(r.a_game_win_rate),
                pct(r.a_game_win_lo),
                pct(r.a_game_win_hi)
            )
        };
        writeln!(
            out,
            "{:<14} {:<16} {:<16} {:>8} {:>20} {:>20} {:>22} {:>6} {:>6} {:>6}",
            r.variant,
            r.player_a,
            r.player_b,
            r.hands,
            format!(
                "{} [{}–{}]",
                pct(r.a_hand_win_rate),
                pct(r.a_hand_win_lo),
                pct(r.a_hand_win_hi)
            ),
            games,
            format!("{:+.0} [{:+.0} {:+.0}]", r.elo, r.elo_lo, r.elo_hi),
            pct(r.gin_rate),
            pct(r.undercut_rate),
            pct(r.void_rate),
        )
        .unwrap();
    }
    writeln!(
        out,
        "{} rows in {seconds:.1} s; written to {}",
        rows.len(),
        dir.display()
    )
    .unwrap();
    out
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
    let summary = job::merge(&args.shards, &args.out)?;
    write_stdout(table(&summary, start.elapsed().as_secs_f64(), &args.out).as_bytes())
}

/// Where the run writes: `--out`, or `results/NAME` with the spec's
/// validated folder name.
fn results_dir(args: &RunArgs, experiment: &Experiment) -> Result<PathBuf, Failure> {
    match &args.out {
        Some(dir) => Ok(dir.clone()),
        None => experiment
            .folder_name(&args.spec)
            .map(|name| Path::new("results").join(name))
            .map_err(|e| Failure::input(format!("experiment {}: {e}", args.spec.display()))),
    }
}

/// An experiment that is a sweep or a balance study.
fn run_study(args: &RunArgs, experiment: Experiment, text: String) -> Result<(), Failure> {
    let out = results_dir(args, &experiment)?;
    let config = StudyConfig {
        variants: experiment.variants,
        work: match experiment.amount {
            Amount::Hands(n) => Work::Hands(n),
            Amount::Games(n) => Work::Games(n),
        },
        seed: experiment.seed,
        duplicate: experiment.duplicate,
        out: Some(out),
        threads: args.threads,
        shard: args.shard.unwrap_or(Shard::ALL),
        resume: args.resume,
        quiet: args.quiet,
        record: args.record.clone(),
        spec: Some(text),
    };
    match experiment.study {
        Study::Sweep {
            strategy,
            param,
            values,
            vs,
        } => run_sweep(&config, &strategy, &param, &values, &vs),
        Study::Balance { strategy } => run_balance(&config, &strategy),
        Study::Match => unreachable!("handled by run"),
    }
}
