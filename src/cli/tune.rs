//! `ginlab tune` (flags) and a spec's `[tune]` table (`ginlab run`): both
//! fill in a [`TuneRequest`]; the library searches, confirms and writes.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use clap::Args;
use ginlab::job::Player;
use ginlab::report::Objective;
use ginlab::tune::spec::TuneSpec;
use ginlab::tune::{Method, TuneOutcome, TuneRequest, tune};

use super::job::{command, resolver};
use super::{Failure, write_stdout};
use ginlab::lab::Lab;

/// `ginlab tune`.
#[derive(Debug, Args)]
#[command(group(super::amount_group()))]
pub struct TuneArgs {
    /// The strategy to tune (a kind, an inline profile or a profile file);
    /// the parameters not tuned keep its values.
    #[arg(long, value_name = "STRATEGY")]
    strategy: String,
    /// A parameter to tune and its values: NAME=LO..=HI (integers),
    /// NAME=LO..HI (numbers), NAME=A,B,C, or schedule@STOCK=LO..=HI for a
    /// step of greedy's knock schedule (repeatable).
    #[arg(long = "param", value_name = "NAME=VALUES", required = true)]
    params: Vec<String>,
    /// An opponent, with an optional weight in a pool: STRATEGY or
    /// STRATEGY*W (repeatable; default simple).
    #[arg(long = "vs", value_name = "STRATEGY[*W]")]
    vs: Vec<String>,
    /// Rule variants, each tuned on its own: a preset or a rules file
    /// (repeatable; default standard).
    #[arg(long = "rules", value_name = "NAME|FILE")]
    variants: Vec<String>,
    /// Override one knob in every variant (repeatable).
    #[arg(long = "rule", value_name = "KNOB=VALUE")]
    overrides: Vec<String>,
    /// The search's budget per variant in hands (every arm and opponent counted).
    #[arg(long, value_parser = super::count, allow_negative_numbers = true, group = "amount")]
    hands: Option<u64>,
    /// The search's budget per variant in whole games.
    #[arg(long, value_parser = super::count, allow_negative_numbers = true, group = "amount")]
    games: Option<u64>,
    /// What to maximise: games, hands, points or elo (default: games with
    /// --games, points per hand with --hands).
    #[arg(long, value_parser = objective)]
    objective: Option<Objective>,
    /// race (a grid) or spsa (ranges); default: racing for a grid of at
    /// most 64 settings, else SPSA.
    #[arg(long, value_parser = method)]
    method: Option<Method>,
    /// Master seed (the search's blocks and the confirmation derive theirs).
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Racing: the confidence that no arm as good as the leader is dropped.
    #[arg(long, default_value_t = 0.95)]
    confidence: f64,
    /// Deals per block (each played twice, seats swapped).
    #[arg(long, default_value_t = 256, value_parser = super::count)]
    block: u64,
    /// Games (hands with --hands) per row of the confirmation on fresh
    /// deals; 0 skips it.
    #[arg(long, default_value_t = 20_000)]
    confirm: u64,
    /// The setting the answer is compared with (default: --strategy as given).
    #[arg(long, value_name = "STRATEGY")]
    baseline: Option<String>,
    /// SPSA's gain a (default 1 for scores, 0.03 for points per hand).
    #[arg(long)]
    spsa_a: Option<f64>,
    /// SPSA's perturbation c, a fraction of each range.
    #[arg(long, default_value_t = 0.15)]
    spsa_c: f64,
    /// Output folder (default: results/tune-STRATEGY).
    #[arg(long, value_name = "DIR")]
    out: Option<PathBuf>,
    /// Worker threads (default: one per core). The output does not depend on it.
    #[arg(long, default_value_t = 0, value_parser = super::threads)]
    threads: usize,
    /// Continue an interrupted run from the state in the output folder.
    #[arg(long)]
    resume: bool,
    /// No status lines.
    #[arg(long, short)]
    quiet: bool,
    /// Print the answer as one line of JSON instead of the table.
    #[arg(long)]
    json: bool,
}

fn objective(text: &str) -> Result<Objective, String> {
    match text {
        "games" => Ok(Objective::Games),
        "hands" => Ok(Objective::Hands),
        "points" => Ok(Objective::Points),
        "elo" => Ok(Objective::Elo),
        _ => Err(format!("the objective is {}", Objective::NAMES)),
    }
}

fn method(text: &str) -> Result<Method, String> {
    match text {
        "race" => Ok(Method::Race),
        "spsa" => Ok(Method::Spsa),
        _ => Err(format!("the method is {}", Method::NAMES)),
    }
}

/// `STRATEGY*W` → the player and its weight.
fn opponent(text: &str, resolve: &ginlab::job::Resolve<'_>) -> Result<(Player, u32), Failure> {
    let (spec, weight) = match text.rsplit_once('*') {
        Some((spec, w)) => {
            let w = w
                .trim()
                .parse::<u32>()
                .ok()
                .filter(|&w| w > 0)
                .ok_or_else(|| {
                    Failure::input(format!(
                        "--vs {}: the weight after * is a positive whole number",
                        ginlab::echo::echo(text)
                    ))
                })?;
            (spec, w)
        }
        None => (text, 1),
    };
    Ok((resolve(spec, "--vs")?, weight))
}

pub fn run(args: TuneArgs, lab: &Lab) -> Result<(), Failure> {
    let resolve = resolver(lab);
    let variants = ginlab::job::study_variants(&args.variants, &args.overrides)?;
    let strategy = resolve(&args.strategy, "--strategy")?;
    let vs = if args.vs.is_empty() {
        vec!["simple".to_owned()]
    } else {
        args.vs.clone()
    };
    let opponents = vs
        .iter()
        .map(|v| opponent(v, &resolve))
        .collect::<Result<Vec<_>, _>>()?;
    let baseline = match &args.baseline {
        Some(b) => resolve(b, "--baseline")?,
        None => strategy.clone(),
    };
    let games = args.games.is_some();
    let out = args.out.clone().unwrap_or_else(|| {
        let safe: String = strategy
            .name
            .chars()
            .map(|c| {
                if c.is_ascii_alphanumeric() || c == '-' {
                    c
                } else {
                    '_'
                }
            })
            .collect();
        Path::new("results").join(format!("tune-{safe}"))
    });
    let request = TuneRequest {
        strategy,
        params: args.params.clone(),
        opponents,
        variants,
        objective: args.objective.unwrap_or(Objective::default_for(games)),
        games,
        budget: args
            .games
            .or(args.hands)
            .expect("clap requires --games or --hands"),
        method: args.method,
        seed: args.seed,
        confidence: args.confidence,
        block: args.block,
        spsa_a: args.spsa_a,
        spsa_c: args.spsa_c,
        baseline,
        confirm: args.confirm,
        out,
        command: command(),
        spec: None,
    };
    let how = Playing {
        threads: args.threads,
        resume: args.resume,
        quiet: args.quiet,
        json: args.json,
    };
    play(&request, &how)
}

/// How a tuning run is played and reported (the flags `tune` and `run`
/// share).
pub struct Playing {
    /// Worker threads (0: one per core).
    pub threads: usize,
    /// Continue from the folder's `tune.json`.
    pub resume: bool,
    /// No status lines.
    pub quiet: bool,
    /// The answer as one JSON line.
    pub json: bool,
}

/// `ginlab run SPEC` for a spec with a `[tune]` table.
pub fn run_spec(
    spec_path: &Path,
    text: String,
    out: Option<PathBuf>,
    how: &Playing,
    lab: &Lab,
) -> Result<(), Failure> {
    let named = |e: String| Failure::input(format!("tuning spec {}: {e}", spec_path.display()));
    let spec = TuneSpec::from_toml(&text).map_err(named)?;
    let out = match out {
        Some(out) => out,
        None => {
            let name = match &spec.name {
                Some(name) => name.clone(),
                None => spec_path
                    .file_stem()
                    .map(|s| s.to_string_lossy().into_owned())
                    .unwrap_or_default(),
            };
            if name.is_empty()
                || name.starts_with('.')
                || !name
                    .chars()
                    .all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.'))
            {
                return Err(named(format!(
                    "`{}` is not a folder name (letters, digits, - _ .): give `name` or --out",
                    ginlab::echo::echo(&name)
                )));
            }
            Path::new("results").join(name)
        }
    };
    let request = spec
        .request(&resolver(lab), out, command(), text)
        .map_err(|e| match e {
            ginlab::job::JobError::Input(m) => named(m),
            other => other.into(),
        })?;
    play(&request, how)
}

fn play(request: &TuneRequest, how: &Playing) -> Result<(), Failure> {
    let status = |line: &str| {
        if !how.quiet {
            eprintln!("{line}");
        }
    };
    let outcome = tune(request, how.threads, how.resume, &status)?;
    for note in &outcome.notes {
        eprintln!("note: {note}");
    }
    let text = if how.json {
        let mut line = serde_json::to_string(&outcome).map_err(|e| Failure::Run(e.into()))?;
        line.push('\n');
        line
    } else {
        answer_text(&outcome, &request.out)
    };
    write_stdout(text.as_bytes())
}

fn answer_text(outcome: &TuneOutcome, out: &Path) -> String {
    let mut text = String::new();
    let figure = |v: f64, lo: Option<f64>, hi: Option<f64>| match (lo, hi) {
        (Some(lo), Some(hi)) => format!("{v:.4} [{lo:.4}, {hi:.4}]"),
        _ => format!("{v:.4} (no interval)"),
    };
    for a in &outcome.answers {
        let _ = writeln!(
            text,
            "{} vs {}: best {} ({}, {} games or hands searched, {} hands)",
            a.variant,
            a.opponent.as_deref().unwrap_or("-"),
            a.best,
            a.method,
            a.search_played,
            a.search_hands
        );
        if let Some(left) = a.arms_left.filter(|&n| n > 1) {
            let _ = writeln!(
                text,
                "  the budget ended the race with {left} settings that could not be told apart; the best is the leader by its estimate"
            );
        }
        for f in &a.confirmed {
            let _ = writeln!(
                text,
                "  confirmed {}: {}",
                f.player,
                figure(f.value, f.lo, f.hi)
            );
        }
        for e in &a.edges {
            let _ = writeln!(
                text,
                "  edge over {}: {:+.4}{}",
                e.over,
                e.edge,
                match (e.lo, e.hi) {
                    (Some(lo), Some(hi)) => format!(" [{lo:+.4}, {hi:+.4}]"),
                    _ => String::new(),
                }
            );
        }
    }
    let _ = writeln!(text, "wrote {}", out.display());
    text
}
