//! `ginlab sweep` (one strategy parameter over a grid against a fixed
//! opponent) and `ginlab balance` (one strategy against itself across rule
//! variants), both built on the job runner, so shards and resume work too.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use clap::Args;
use ginlab::report::chart::{Point, Series, line_chart};
use ginlab::report::{Manifest, VariantRules, csv_bytes, r6};
use ginlab::rules::Rules;
use ginlab::sim::{Plan, Tallies, Work};
use ginlab::stats::{Z95, elo_interval, rate, wilson};
use ginlab::strategy::Profile;
use serde::Serialize;

use super::job::{self, Row, Shard};
use super::rules::RulesArgs;
use super::strategies::{resolve, strategy_help};
use super::{Failure, write_stdout};

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
}

/// What a study runs from, whether given as flags or as an experiment spec.
#[derive(Clone)]
pub struct StudyConfig {
    pub variants: Vec<(String, Rules)>,
    pub work: Work,
    pub seed: u64,
    pub duplicate: bool,
    pub out: Option<PathBuf>,
    pub threads: usize,
    pub shard: Shard,
    pub resume: bool,
    pub quiet: bool,
    /// Where to write the game records, if anywhere.
    pub record: Option<PathBuf>,
    /// The experiment spec, when run from one.
    pub spec: Option<String>,
}

impl StudyArgs {
    fn config(&self) -> Result<StudyConfig, Failure> {
        Ok(StudyConfig {
            variants: self.variants()?,
            work: self.work(),
            seed: self.seed,
            duplicate: !self.no_duplicate,
            out: self.out.clone(),
            threads: self.threads,
            shard: self.shard.unwrap_or(Shard::ALL),
            resume: self.resume,
            quiet: self.quiet,
            record: None,
            spec: None,
        })
    }

    fn variants(&self) -> Result<Vec<(String, Rules)>, Failure> {
        let names = if self.variants.is_empty() {
            vec!["standard".to_owned()]
        } else {
            self.variants.clone()
        };
        let variants: Vec<(String, Rules)> = names
            .iter()
            .map(|name| {
                let rules = RulesArgs {
                    rules: name.clone(),
                    overrides: self.overrides.clone(),
                }
                .resolve()?;
                let stem = Path::new(name)
                    .file_stem()
                    .map_or(name.clone(), |s| s.to_string_lossy().into_owned());
                Ok((stem, rules))
            })
            .collect::<Result<_, Failure>>()?;
        // Rows, charts and histograms are named by the variant: two of one
        // name would give duplicate rows whose files overwrite each other.
        let stems: Vec<String> = variants.iter().map(|(stem, _)| stem.clone()).collect();
        given_once("--rules", &names, &stems, "variant")?;
        Ok(variants)
    }

    fn work(&self) -> Work {
        match (self.hands, self.games) {
            (Some(n), _) => Work::Hands(n),
            (_, Some(n)) => Work::Games(n),
            _ => unreachable!("clap requires --hands or --games"),
        }
    }
}

impl StudyConfig {
    fn manifest(&self, rows: &[Row], players: Vec<String>, profiles: Vec<String>) -> Manifest {
        let (work, count) = match self.work {
            Work::Hands(n) => ("hands", n),
            Work::Games(n) => ("games", n),
            Work::Decks { .. } => unreachable!(),
        };
        let mut variants: Vec<VariantRules> = Vec::new();
        for r in rows {
            if !variants.iter().any(|v| v.name == r.variant) {
                variants.push(VariantRules {
                    name: r.variant.clone(),
                    rules: r.plan.rules.to_toml(),
                });
            }
        }
        Manifest {
            ginlab_version: Manifest::VERSION,
            git_commit: Manifest::COMMIT,
            command: std::env::args().collect(),
            seed: self.seed,
            players,
            profiles,
            work: work.into(),
            count,
            duplicate: self.duplicate,
            variants,
            experiment: self.spec.clone(),
        }
    }

    /// Plays `rows` into `dir` with this config's shard, resume, threads
    /// and record file.
    fn play(
        &self,
        rows: &[Row],
        dir: &Path,
        manifest: &Manifest,
    ) -> Result<job::Finished, Failure> {
        let options = job::Options {
            shard: self.shard,
            resume: self.resume,
            threads: self.threads,
            quiet: self.quiet,
            record: self.record.clone(),
        };
        job::play(rows, dir, manifest, &options)
    }

    fn plan(&self, rules: &Rules, a: Profile, b: Profile) -> Plan {
        Plan {
            rules: rules.clone(),
            profiles: [a, b],
            work: self.work.clone(),
            duplicate: self.duplicate,
            seed: self.seed,
        }
    }
}

/// A's score per game (games) or per hand, with its Wilson interval.
fn score(t: &Tallies) -> (f64, f64, f64) {
    let (wins, n) = if t.games > 0 {
        (t.a_game_wins, t.games)
    } else {
        (t.a_hand_wins, t.hands)
    };
    let (lo, hi) = wilson(wins, n, Z95);
    (rate(wins, n), lo, hi)
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
    #[command(flatten)]
    study: StudyArgs,
}

/// One row of `sweep.csv`.
#[derive(Serialize)]
struct SweepRow {
    variant: String,
    parameter: String,
    value: String,
    player_a: String,
    player_b: String,
    games: u64,
    hands: u64,
    score: f64,
    score_lo: f64,
    score_hi: f64,
    a_points_per_hand: f64,
    a_points_per_hand_lo: f64,
    a_points_per_hand_hi: f64,
    elo: f64,
    elo_lo: f64,
    elo_hi: f64,
}

/// The first item equal to an earlier one, as (earlier, later) indices.
fn first_repeat<T: PartialEq>(items: &[T]) -> Option<(usize, usize)> {
    items
        .iter()
        .enumerate()
        .find_map(|(j, b)| items[..j].iter().position(|a| a == b).map(|i| (i, j)))
}

/// Refuses a study input given twice: `given` as written, `keys` what names
/// each one's rows (a player, a variant).
fn given_once(flag: &str, given: &[String], keys: &[String], what: &str) -> Result<(), Failure> {
    match first_repeat(keys) {
        None => Ok(()),
        Some((i, j)) if given[i] == given[j] => Err(Failure::input(format!(
            "{flag} {} is given twice: give each once",
            given[i]
        ))),
        Some((i, j)) => Err(Failure::input(format!(
            "{flag} {} and {} make the same {what} `{}`: give each once",
            given[i], given[j], keys[i]
        ))),
    }
}

fn parse_values(text: &str) -> Result<Vec<String>, Failure> {
    ginlab::experiment::sweep_values(text).map_err(|e| Failure::input(format!("--values {e}")))
}

pub fn sweep(args: SweepArgs) -> Result<(), Failure> {
    let config = args.study.config()?;
    run_sweep(&config, &args.strategy, &args.param, &args.values, &args.vs)
}

/// A sweep of `param` over `values` for `strategy` against `vs`.
pub fn run_sweep(
    config: &StudyConfig,
    strategy: &str,
    param: &str,
    values: &str,
    vs: &str,
) -> Result<(), Failure> {
    let base = resolve(strategy, "being swept")?;
    let opponent = resolve(vs, "--vs")?;
    let values = parse_values(values)?;
    let profiles: Vec<Profile> = values
        .iter()
        .map(|v| {
            base.profile
                .with_param(param, v)
                .map_err(|e| Failure::input(format!("--param {param} --values {v}: {e}")))
        })
        .collect::<Result<_, _>>()?;
    // One row per value: a value given twice (or two spellings of one,
    // such as 1 and 01) would give duplicate rows and chart points.
    let players: Vec<String> = profiles.iter().map(ToString::to_string).collect();
    given_once("--values", &values, &players, "player")?;
    let variants = config.variants.clone();
    let mut rows = Vec::new();
    for (variant, rules) in &variants {
        for profile in &profiles {
            rows.push(Row {
                variant: variant.clone(),
                players: [profile.to_string(), opponent.name.clone()],
                plan: config.plan(rules, profile.clone(), opponent.profile.clone()),
            });
        }
    }
    let dir = config.out.clone().unwrap_or_else(|| {
        PathBuf::from("results").join(format!(
            "sweep-{}-{}",
            base.name.replace([':', '=', ',', '/'], "_"),
            param
        ))
    });
    let manifest = config.manifest(
        &rows,
        profiles
            .iter()
            .map(ToString::to_string)
            .chain([opponent.name.clone()])
            .collect(),
        profiles
            .iter()
            .map(ToString::to_string)
            .chain([opponent.profile.to_string()])
            .collect(),
    );
    let mut finished = config.play(&rows, &dir, &manifest)?;
    let tallies = std::mem::take(&mut finished.tallies);
    let mut table = Vec::new();
    let mut series: Vec<Series> = Vec::new();
    let numeric = values.iter().all(|v| v.parse::<f64>().is_ok());
    for (row, t) in rows.iter().zip(&tallies) {
        let value = &values[table.len() % values.len()];
        let (s, lo, hi) = score(t);
        let (pph, pph_lo, pph_hi) = t.a_net_points.t_interval(0.95);
        let (sc, se) = t.score();
        let (elo, elo_lo, elo_hi) = elo_interval(sc, se);
        let finite = |x: f64| {
            if x.is_finite() {
                r6(x)
            } else {
                x.signum() * 9999.0
            }
        };
        table.push(SweepRow {
            variant: row.variant.clone(),
            parameter: param.to_owned(),
            value: value.clone(),
            player_a: row.players[0].clone(),
            player_b: row.players[1].clone(),
            games: t.games,
            hands: t.hands,
            score: r6(s),
            score_lo: r6(lo),
            score_hi: r6(hi),
            a_points_per_hand: r6(pph),
            a_points_per_hand_lo: r6(pph_lo),
            a_points_per_hand_hi: r6(pph_hi),
            elo: finite(elo),
            elo_lo: finite(elo_lo),
            elo_hi: finite(elo_hi),
        });
        if numeric {
            if series.last().is_none_or(|s| s.label != row.variant) {
                series.push(Series {
                    label: row.variant.clone(),
                    points: Vec::new(),
                });
            }
            let x = value.parse::<f64>().expect("numeric");
            series
                .last_mut()
                .expect("a series")
                .points
                .push(Point { x, y: s, lo, hi });
        }
    }
    finished.add(
        "sweep.csv",
        &csv_bytes(&table).map_err(|e| Failure::Run(e.into()))?,
    )?;
    let unit = if matches!(config.work, Work::Games(_)) {
        "games"
    } else {
        "hands"
    };
    if numeric {
        let title = format!("{} {} vs {}", base.name, param, opponent.name);
        let y = format!("share of {unit} won by {} (95 % Wilson)", base.name);
        finished.add(
            "sweep.svg",
            line_chart(&title, param, &y, &series, Some(0.5)).as_bytes(),
        )?;
    }
    let mut out = String::new();
    writeln!(
        out,
        "{:<14} {:>8} {:>24} {:>26}",
        "variant",
        &param,
        format!("{unit} won %"),
        "A Elo"
    )
    .unwrap();
    for r in &table {
        writeln!(
            out,
            "{:<14} {:>8} {:>24} {:>26}",
            r.variant,
            r.value,
            format!(
                "{:.1} [{:.1}–{:.1}]",
                100.0 * r.score,
                100.0 * r.score_lo,
                100.0 * r.score_hi
            ),
            format!("{:+.1} [{:+.1} {:+.1}]", r.elo, r.elo_lo, r.elo_hi)
        )
        .unwrap();
    }
    finished.commit()?;
    writeln!(out, "written to {}", dir.display()).unwrap();
    write_stdout(out.as_bytes())
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

/// One row of `balance.csv`: how a rule variant plays with one strategy in
/// both seats.
#[derive(Serialize)]
struct BalanceRow {
    variant: String,
    strategy: String,
    hands: u64,
    games: u64,
    non_dealer_win_rate: f64,
    non_dealer_win_lo: f64,
    non_dealer_win_hi: f64,
    gin_rate: f64,
    gin_lo: f64,
    gin_hi: f64,
    undercut_rate: f64,
    undercut_lo: f64,
    undercut_hi: f64,
    knock_rate: f64,
    knock_lo: f64,
    knock_hi: f64,
    void_rate: f64,
    void_lo: f64,
    void_hi: f64,
    mean_turns: f64,
    mean_turns_lo: f64,
    mean_turns_hi: f64,
    hand_score_sd: f64,
    mean_points_per_decided_hand: f64,
}

pub fn balance(args: BalanceArgs) -> Result<(), Failure> {
    if args.study.no_duplicate {
        return Err(Failure::input(
            "--no-duplicate: a balance study plays every deal once already (one strategy in \
             both seats, so a seat-swapped replay would repeat the hand)",
        ));
    }
    let config = args.study.config()?;
    run_balance(&config, &args.strategy)
}

/// `strategy` against itself under every variant of `config` (the job runner
/// writes each variant's hand-score histogram).
///
/// Every deal is played once, whatever `config.duplicate` says: with one
/// strategy in both seats a seat-swapped replay of a deal repeats the hand
/// (exactly, for a deterministic strategy), so counting both would count
/// one hand twice and make every interval √2 too narrow.
pub fn run_balance(config: &StudyConfig, strategy: &str) -> Result<(), Failure> {
    let config = &StudyConfig {
        duplicate: false,
        ..config.clone()
    };
    let strategy = resolve(strategy, "for balance")?;
    let variants = config.variants.clone();
    let rows: Vec<Row> = variants
        .iter()
        .map(|(variant, rules)| Row {
            variant: variant.clone(),
            players: [strategy.name.clone(), strategy.name.clone()],
            plan: config.plan(rules, strategy.profile.clone(), strategy.profile.clone()),
        })
        .collect();
    let dir = config.out.clone().unwrap_or_else(|| {
        PathBuf::from("results").join(format!(
            "balance-{}",
            strategy.name.replace([':', '=', ',', '/'], "_")
        ))
    });
    let manifest = config.manifest(
        &rows,
        vec![strategy.name.clone()],
        vec![strategy.profile.to_string()],
    );
    let mut finished = config.play(&rows, &dir, &manifest)?;
    let tallies = std::mem::take(&mut finished.tallies);
    let w = |k: u64, n: u64| {
        let (lo, hi) = wilson(k, n, Z95);
        (r6(rate(k, n)), r6(lo), r6(hi))
    };
    let mut table = Vec::new();
    for (row, t) in rows.iter().zip(&tallies) {
        let (non_dealer_win_rate, non_dealer_win_lo, non_dealer_win_hi) =
            w(t.non_dealer_wins, t.decided());
        let (gin_rate, gin_lo, gin_hi) = w(t.gins + t.big_gins, t.hands);
        let (undercut_rate, undercut_lo, undercut_hi) = w(t.undercuts, t.hands);
        let (knock_rate, knock_lo, knock_hi) = w(t.knocks, t.hands);
        let (void_rate, void_lo, void_hi) = w(t.voids, t.hands);
        let (turns, turns_lo, turns_hi) = t.turns.t_interval(0.95);
        let points: i64 = t.hand_score.iter().map(|(v, n)| v.abs() * *n as i64).sum();
        table.push(BalanceRow {
            variant: row.variant.clone(),
            strategy: strategy.name.clone(),
            hands: t.hands,
            games: t.games,
            non_dealer_win_rate,
            non_dealer_win_lo,
            non_dealer_win_hi,
            gin_rate,
            gin_lo,
            gin_hi,
            undercut_rate,
            undercut_lo,
            undercut_hi,
            knock_rate,
            knock_lo,
            knock_hi,
            void_rate,
            void_lo,
            void_hi,
            mean_turns: r6(turns),
            mean_turns_lo: r6(turns_lo),
            mean_turns_hi: r6(turns_hi),
            hand_score_sd: r6(t.a_net_points.variance().sqrt()),
            mean_points_per_decided_hand: r6(points as f64 / t.decided().max(1) as f64),
        });
    }
    finished.add(
        "balance.csv",
        &csv_bytes(&table).map_err(|e| Failure::Run(e.into()))?,
    )?;
    let pct = |x: f64| format!("{:.1}", 100.0 * x);
    let mut out = String::new();
    writeln!(
        out,
        "{:<12} {:>22} {:>6} {:>6} {:>6} {:>6} {:>7} {:>8}",
        "variant", "non-dealer wins %", "gin%", "uc%", "knock%", "void%", "turns", "score sd"
    )
    .unwrap();
    for r in &table {
        writeln!(
            out,
            "{:<12} {:>22} {:>6} {:>6} {:>6} {:>6} {:>7.1} {:>8.1}",
            r.variant,
            format!(
                "{} [{}–{}]",
                pct(r.non_dealer_win_rate),
                pct(r.non_dealer_win_lo),
                pct(r.non_dealer_win_hi)
            ),
            pct(r.gin_rate),
            pct(r.undercut_rate),
            pct(r.knock_rate),
            pct(r.void_rate),
            r.mean_turns,
            r.hand_score_sd
        )
        .unwrap();
    }
    finished.commit()?;
    writeln!(out, "written to {}", dir.display()).unwrap();
    write_stdout(out.as_bytes())
}
