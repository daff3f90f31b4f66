//! `ginlab match A B`: a quick single-threaded match with a short summary.
//! (`match` is a Rust keyword, hence the module name.)

use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::time::Instant;

use clap::Args;
use ginlab::engine::{Deck, Seat};
use ginlab::report::{Manifest, VariantRules};
use ginlab::sim::{Labels, Plan, Tallies, Work};
use ginlab::stats::{Sprt, SprtDecision, Z95, elo_interval, wilson};

use super::input::DECKS_FILE;
use super::job::{self, Recorder, Row, Shard};
use super::rules::RulesArgs;
use super::strategies::{resolve, strategy_help};
use super::{Failure, progress, write_stdout};

#[derive(Debug, Args)]
#[command(group(super::amount_group()))]
pub struct MatchArgs {
    #[arg(help = strategy_help("Strategy of player A"))]
    a: String,
    #[arg(help = strategy_help("Strategy of player B"))]
    b: String,
    /// Play this many independent hands (dealers alternate, scores 0–0). With
    /// duplicate deals an odd count is rounded up: every deal is played twice.
    #[arg(long, value_parser = super::count, allow_negative_numbers = true, group = "amount")]
    hands: Option<u64>,
    /// Play this many whole games to the target (rounded up to even with
    /// duplicate deals, as for --hands).
    #[arg(long, value_parser = super::count, allow_negative_numbers = true, group = "amount")]
    games: Option<u64>,
    /// Play one hand per deck order in FILE: one line each, 52 cards top first
    /// (blank lines and `#` lines skipped).
    #[arg(long, value_name = "FILE", group = "amount")]
    decks: Option<PathBuf>,
    /// With --decks: who deals every hand (a or b; default b).
    #[arg(long, value_parser = ["a", "b"])]
    dealer: Option<String>,
    /// Master seed; every deck and random choice derives from it (default:
    /// random, from the operating system, printed so the run can be repeated).
    #[arg(long)]
    seed: Option<u64>,
    /// Worker threads (default: one per core). The output does not depend on it.
    #[arg(long, default_value_t = 0, value_parser = super::threads)]
    threads: usize,
    /// Play every deal once instead of twice with the seats swapped.
    #[arg(long)]
    no_duplicate: bool,
    /// Write summary.csv, distribution.csv, manifest.toml and tallies.json
    /// into DIR (created if needed; existing files are replaced whole).
    #[arg(long, value_name = "DIR")]
    out: Option<PathBuf>,
    /// Play only the K-th of N slices of the deals (needs --out); combine the
    /// N outputs with `ginlab merge`.
    #[arg(long, value_name = "K/N", requires = "out")]
    shard: Option<Shard>,
    /// Continue an interrupted run from the checkpoint in --out.
    #[arg(long, requires = "out")]
    resume: bool,
    /// No progress bar.
    #[arg(long, short)]
    quiet: bool,
    /// Stop as soon as a sequential test decides between A being `elo0` and
    /// `elo1` stronger than B: `elo0=0,elo1=10,alpha=0.05,beta=0.05`, with
    /// -3600 <= elo0 < elo1 <= 3600 and 0 < alpha, beta < 0.5 (each 0.05 if
    /// left out). The --games or --hands count is then the most that will be
    /// played. Checked every 1024 deals, so the stopping point does not
    /// depend on --threads. With --out, the files cover the deals played.
    #[arg(long, value_name = "SPEC", conflicts_with_all = ["shard", "resume"])]
    sprt: Option<Sprt>,
    /// Also write every game (every hand with --hands or --decks) as one
    /// JSON line to FILE: seed, rules, players, each hand's deck, actions
    /// and result, and the game result. Lines are in deal order, the same
    /// bytes for any --threads; the file appears whole at the end of the
    /// run. Check and read it with `ginlab replay FILE`.
    #[arg(long, value_name = "FILE", conflicts_with_all = ["shard", "resume"])]
    record: Option<PathBuf>,
    #[command(flatten)]
    rules: RulesArgs,
}

fn read_decks(path: &Path) -> Result<Vec<Deck>, Failure> {
    let text = DECKS_FILE.read_file(path)?;
    let mut decks = Vec::new();
    for (number, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let deck: Deck = line
            .parse()
            .map_err(|e| Failure::input(format!("{} line {}: {e}", path.display(), number + 1)))?;
        decks.push(deck);
    }
    if decks.is_empty() {
        return Err(Failure::input(format!(
            "{}: no deck orders in the file",
            path.display()
        )));
    }
    Ok(decks)
}

fn percent(k: u64, n: u64) -> String {
    let (lo, hi) = wilson(k, n, Z95);
    let p = if n == 0 { 0.0 } else { k as f64 / n as f64 };
    format!("{:.1}% [{:.1}–{:.1}]", 100.0 * p, 100.0 * lo, 100.0 * hi)
}

pub fn run(args: MatchArgs) -> Result<(), Failure> {
    // Checked here: clap's `requires` does not fire for a member of the
    // `amount` group.
    if args.dealer.is_some() && args.decks.is_none() {
        return Err(Failure::input(
            "--dealer goes with --decks only: hands dealt from the seed alternate dealers by deal",
        ));
    }
    let rules = args.rules.resolve()?;
    let (mut a, mut b) = (resolve(&args.a, "A")?, resolve(&args.b, "B")?);
    super::strategies::tell_apart(&mut a, &mut b);
    let names = [a.name, b.name];
    let (a, b) = (a.profile, b.profile);
    let work = match (args.hands, args.games, &args.decks) {
        (Some(n), _, _) => Work::Hands(n),
        (_, Some(n), _) => Work::Games(n),
        (_, _, Some(path)) => Work::Decks {
            decks: read_decks(path)?,
            dealer: if args.dealer.as_deref() == Some("a") {
                Seat::A
            } else {
                Seat::B
            },
        },
        _ => unreachable!("clap requires one of --hands, --games, --decks"),
    };
    let seed = super::master_seed(args.seed, &[&a, &b])?;
    let mut plan = Plan {
        rules,
        profiles: [a, b],
        work,
        duplicate: !args.no_duplicate,
        seed,
    };
    let variant = variant_name(&args.rules);
    let labels = Labels {
        variant: variant.clone(),
        names: names.clone(),
    };
    let start = Instant::now();
    let mut sprt_line = None;
    let tallies = match (&args.out, args.sprt) {
        (Some(dir), None) => {
            let manifest = manifest(&variant, &plan, &names, &args);
            let rows = [Row {
                variant: variant.clone(),
                players: names.clone(),
                plan,
            }];
            let options = job::Options {
                shard: args.shard.unwrap_or(Shard::ALL),
                resume: args.resume,
                threads: args.threads,
                quiet: args.quiet,
                record: args.record.clone(),
            };
            let mut tallies = job::play(&rows, dir, &manifest, &options)?.commit()?;
            let [row] = rows;
            plan = row.plan;
            tallies.remove(0)
        }
        (out, Some(sprt)) => {
            if let Some(dir) = out {
                job::prepare_dir(dir)?;
            }
            let mut recorder = args.record.as_deref().map(Recorder::create).transpose()?;
            let record = recorder.as_mut().map(|r| (r, &labels));
            let (tallies, decision, played) =
                run_sprt(&plan, &sprt, args.threads, args.quiet, record)?;
            if let Some(recorder) = recorder {
                recorder.commit()?;
            }
            sprt_line = Some(sprt_report(&sprt, &tallies, decision));
            if let Some(dir) = out {
                let manifest = manifest(&variant, &plan, &names, &args);
                let row = Row {
                    variant: variant.clone(),
                    players: names.clone(),
                    plan,
                };
                job::write_partial(&row, tallies.clone(), played, dir, &manifest)?;
                plan = row.plan;
            }
            tallies
        }
        (None, None) => {
            let mut recorder = args.record.as_deref().map(Recorder::create).transpose()?;
            let bar = progress::bar(plan.deals(), args.quiet);
            let tallies = job::play_deals(
                &plan,
                0..plan.deals(),
                args.threads,
                &|done| bar.set_position(done),
                recorder.as_mut().map(|r| (r, &labels)),
            )?;
            bar.finish_and_clear();
            if let Some(recorder) = recorder {
                recorder.commit()?;
            }
            tallies
        }
    };
    let seconds = start.elapsed().as_secs_f64();
    let threads = if args.threads == 0 {
        rayon_threads()
    } else {
        args.threads
    };
    let mut text = report(&tallies, &plan, &names, &variant, seconds, threads);
    if let Some(line) = sprt_line {
        text.push_str(&line);
    }
    text.push_str(&bot_lines(&plan));
    if args.record.as_deref() == Some(std::path::Path::new("-")) {
        // The records took standard output; the report goes beside it.
        let _ = std::io::Write::write_all(&mut std::io::stderr(), text.as_bytes());
        return Ok(());
    }
    write_stdout(text.as_bytes())
}

/// For each external bot: processes started, failures, where its logs are.
fn bot_lines(plan: &Plan) -> String {
    let mut out = String::new();
    for (seat, profile) in ["A", "B"].iter().zip(&plan.profiles) {
        if let ginlab::strategy::Profile::External(bot) = profile {
            writeln!(
                out,
                "bot {seat}         {} processes started, {} failed games; {}",
                bot.processes_started(),
                bot.failures(),
                super::check_bot::where_logs_are(bot)
            )
            .unwrap();
        }
    }
    out
}

/// Deals between SPRT checks: fixed, so the result does not depend on threads.
const SPRT_BLOCK: u64 = 1024;

/// Plays blocks of deals until the SPRT decides or the deals run out;
/// returns the tallies, the decision and the number of deals played.
fn run_sprt(
    plan: &Plan,
    sprt: &Sprt,
    threads: usize,
    quiet: bool,
    mut record: Option<(&mut Recorder, &Labels)>,
) -> Result<(Tallies, SprtDecision, u64), Failure> {
    let bar = progress::bar(plan.deals(), quiet);
    let mut tallies = Tallies::default();
    let mut next = 0;
    let mut decision = SprtDecision::Continue;
    while next < plan.deals() && decision == SprtDecision::Continue {
        let block = next..(next + SPRT_BLOCK).min(plan.deals());
        let offset = next;
        let part = job::play_deals(
            plan,
            block.clone(),
            threads,
            &|done| bar.set_position(offset + done),
            record.as_mut().map(|(r, labels)| (&mut **r, *labels)),
        )?;
        tallies.merge(&part);
        next = block.end;
        decision = sprt.decide(sprt.llr(&tallies.unit_scores, tallies.unit_size));
    }
    bar.finish_and_clear();
    Ok((tallies, decision, next))
}

fn sprt_report(sprt: &Sprt, t: &Tallies, decision: SprtDecision) -> String {
    let llr = sprt.llr(&t.unit_scores, t.unit_size);
    let (lower, upper) = sprt.bounds();
    let verdict = match decision {
        SprtDecision::AcceptH1 => format!("H1 accepted: A is at least {} Elo stronger", sprt.elo1),
        SprtDecision::AcceptH0 => format!("H0 accepted: A is not {} Elo stronger", sprt.elo1),
        SprtDecision::Continue => "undecided: the game or hand limit came first".to_owned(),
    };
    format!(
        "SPRT          elo0 {} elo1 {} alpha {} beta {}: LLR {llr:.2} in [{lower:.2}, {upper:.2}] after {} units: {verdict}\n",
        sprt.elo0, sprt.elo1, sprt.alpha, sprt.beta, t.unit_scores.n
    )
}

fn rayon_threads() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get())
}

/// The variant's name: the preset or file, plus any `--rule` overrides.
fn variant_name(rules: &RulesArgs) -> String {
    let base = Path::new(&rules.rules)
        .file_stem()
        .map_or(rules.rules.clone(), |s| s.to_string_lossy().into_owned());
    std::iter::once(base)
        .chain(rules.overrides.iter().cloned())
        .collect::<Vec<_>>()
        .join("+")
}

fn manifest(variant: &str, plan: &Plan, names: &[String; 2], args: &MatchArgs) -> Manifest {
    let (work, count) = match (&plan.work, args.hands, args.games) {
        (Work::Hands(n), ..) => ("hands", *n),
        (Work::Games(n), ..) => ("games", *n),
        (Work::Decks { decks, .. }, ..) => ("decks", decks.len() as u64),
    };
    Manifest {
        ginlab_version: Manifest::VERSION,
        git_commit: Manifest::COMMIT,
        command: std::env::args().collect(),
        seed: plan.seed,
        players: names.to_vec(),
        profiles: plan.profiles.iter().map(ToString::to_string).collect(),
        work: work.to_owned(),
        count,
        duplicate: plan.duplicate,
        variants: vec![VariantRules {
            name: variant.to_owned(),
            rules: plan.rules.to_toml(),
        }],
        experiment: None,
    }
}

fn report(
    t: &Tallies,
    plan: &Plan,
    names: &[String; 2],
    variant: &str,
    seconds: f64,
    threads: usize,
) -> String {
    let [a, b] = names;
    let mut out = String::new();
    let n = t.hands;
    let rate = n as f64 / seconds.max(1e-9);
    let duplicate = if plan.duplicate {
        "duplicate deals"
    } else {
        "single deals"
    };
    writeln!(
        out,
        "A = {a}, B = {b}, rules {variant}, seed {}, {duplicate}",
        plan.seed
    )
    .unwrap();
    writeln!(
        out,
        "{n} hands in {seconds:.2} s ({rate:.0} hands/s, {threads} threads)"
    )
    .unwrap();
    writeln!(
        out,
        "hands won     A {}   B {}",
        percent(t.a_hand_wins, n),
        percent(t.b_hand_wins, n)
    )
    .unwrap();
    let decided = t.decided();
    writeln!(
        out,
        "non-dealer    won {} of {decided} decided hands: {}",
        t.non_dealer_wins,
        percent(t.non_dealer_wins, decided)
    )
    .unwrap();
    writeln!(out, "knock won     {}", percent(t.knocks, n)).unwrap();
    writeln!(out, "gin           {}", percent(t.gins, n)).unwrap();
    if t.big_gins > 0 {
        writeln!(out, "big gin       {}", percent(t.big_gins, n)).unwrap();
    }
    writeln!(out, "undercut      {}", percent(t.undercuts, n)).unwrap();
    if t.ties > 0 {
        writeln!(out, "tie           {}", percent(t.ties, n)).unwrap();
    }
    writeln!(out, "void          {}", percent(t.voids, n)).unwrap();
    let (mean, lo, hi) = t.a_net_points.t_interval(0.95);
    writeln!(out, "A net points  {mean:.2} per hand [{lo:.2}–{hi:.2}]").unwrap();
    writeln!(out, "turns/hand    {:.1}", t.turns.mean()).unwrap();
    if t.games > 0 {
        let g = t.games;
        writeln!(
            out,
            "games won     A {}   B {}",
            percent(t.a_game_wins, g),
            percent(g - t.a_game_wins, g)
        )
        .unwrap();
        let (mean, lo, hi) = t.a_margin.t_interval(0.95);
        writeln!(out, "A margin      {mean:.1} per game [{lo:.1}–{hi:.1}]").unwrap();
    }
    let unit = if t.games > 0 { "games" } else { "hands" };
    if t.a_forfeits + t.b_forfeits > 0 {
        writeln!(
            out,
            "forfeits      A {}   B {} ({unit} lost by forfeit)",
            t.a_forfeits, t.b_forfeits
        )
        .unwrap();
    }
    let (score, se) = t.score();
    let (elo, lo, hi) = elo_interval(score, se);
    writeln!(
        out,
        "A Elo         {elo:+.1} [{lo:+.1} {hi:+.1}] (score {:.1}% over {unit})",
        100.0 * score
    )
    .unwrap();
    out
}
