//! `ginlab match A B`: a quick single-threaded match with a short summary.
//! (`match` is a Rust keyword, hence the module name.)

use std::fmt::Write as _;
use std::path::PathBuf;
use std::time::Instant;

use clap::Args;
use ginlab::engine::{Deck, Seat};
use ginlab::sim::{Summary, Work, run_match};
use ginlab::stats::wilson;
use ginlab::strategy::Profile;

use super::rules::RulesArgs;
use super::{Failure, write_stdout};

#[derive(Debug, Args)]
pub struct MatchArgs {
    /// Strategy of seat A: a built-in kind (random, simple, greedy) or inline
    /// `kind:key=value,...` such as `greedy:knock_at=7`.
    a: String,
    /// Strategy of seat B, as for A.
    b: String,
    /// Play this many independent hands (dealers alternate, scores 0–0).
    #[arg(long, conflicts_with_all = ["games", "decks"], required_unless_present_any = ["games", "decks"])]
    hands: Option<u64>,
    /// Play this many whole games to the target.
    #[arg(long, conflicts_with = "decks")]
    games: Option<u64>,
    /// Play one hand per deck order in FILE: one line each, 52 cards top first
    /// (blank lines and `#` lines skipped).
    #[arg(long, value_name = "FILE")]
    decks: Option<PathBuf>,
    /// With --decks: who deals every hand (a or b).
    #[arg(long, default_value = "b", value_parser = ["a", "b"])]
    dealer: String,
    /// Master seed; every deck and random choice derives from it (default:
    /// from the clock, printed so the run can be repeated).
    #[arg(long)]
    seed: Option<u64>,
    #[command(flatten)]
    rules: RulesArgs,
}

fn read_decks(path: &PathBuf) -> Result<Vec<Deck>, Failure> {
    let text = std::fs::read_to_string(path)
        .map_err(|e| Failure::input(format!("reading decks file {}: {e}", path.display())))?;
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
    let (lo, hi) = wilson(k, n, 1.959_964);
    let p = if n == 0 { 0.0 } else { k as f64 / n as f64 };
    format!("{:.1}% [{:.1}–{:.1}]", 100.0 * p, 100.0 * lo, 100.0 * hi)
}

pub fn run(args: MatchArgs) -> Result<(), Failure> {
    let rules = args.rules.resolve()?;
    let parse = |text: &str, seat: &str| {
        text.parse::<Profile>()
            .map_err(|e| Failure::input(format!("strategy {seat}: {e}")))
    };
    let (a, b) = (parse(&args.a, "A")?, parse(&args.b, "B")?);
    let work = match (args.hands, args.games, &args.decks) {
        (Some(n), _, _) => Work::Hands(n),
        (_, Some(n), _) => Work::Games(n),
        (_, _, Some(path)) => Work::Decks {
            decks: read_decks(path)?,
            dealer: if args.dealer == "a" { Seat::A } else { Seat::B },
        },
        _ => unreachable!("clap requires one of --hands, --games, --decks"),
    };
    let seed = args.seed.unwrap_or_else(|| {
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_nanos() as u64)
    });
    let start = Instant::now();
    let summary = run_match(&rules, [&a, &b], &work, seed).map_err(|e| Failure::Run(e.into()))?;
    let seconds = start.elapsed().as_secs_f64();
    let text = report(&summary, &a, &b, &args.rules.rules, seed, seconds);
    write_stdout(text.as_bytes())
}

fn report(s: &Summary, a: &Profile, b: &Profile, rules: &str, seed: u64, seconds: f64) -> String {
    let mut out = String::new();
    let n = s.hands;
    let rate = n as f64 / seconds.max(1e-9);
    writeln!(out, "A = {a}, B = {b}, rules {rules}, seed {seed}").unwrap();
    writeln!(
        out,
        "{n} hands in {seconds:.2} s ({rate:.0} hands/s, 1 thread)"
    )
    .unwrap();
    writeln!(
        out,
        "hands won     A {}   B {}",
        percent(s.hand_wins[0], n),
        percent(s.hand_wins[1], n)
    )
    .unwrap();
    let decided = s.hand_wins[0] + s.hand_wins[1];
    writeln!(
        out,
        "non-dealer    won {} of {decided} decided hands: {}",
        s.non_dealer_wins,
        percent(s.non_dealer_wins, decided)
    )
    .unwrap();
    writeln!(out, "knock won     {}", percent(s.knocks, n)).unwrap();
    writeln!(out, "gin           {}", percent(s.gins, n)).unwrap();
    if s.big_gins > 0 {
        writeln!(out, "big gin       {}", percent(s.big_gins, n)).unwrap();
    }
    writeln!(out, "undercut      {}", percent(s.undercuts, n)).unwrap();
    if s.ties > 0 {
        writeln!(out, "tie           {}", percent(s.ties, n)).unwrap();
    }
    writeln!(out, "void          {}", percent(s.voids, n)).unwrap();
    let per = |k: u64| if n == 0 { 0.0 } else { k as f64 / n as f64 };
    writeln!(
        out,
        "points/hand   A {:.2}   B {:.2}",
        per(s.hand_points[0]),
        per(s.hand_points[1])
    )
    .unwrap();
    writeln!(out, "turns/hand    {:.1}", per(s.turns)).unwrap();
    if s.games > 0 {
        let g = s.games;
        writeln!(
            out,
            "games won     A {}   B {}",
            percent(s.game_wins[0], g),
            percent(s.game_wins[1], g)
        )
        .unwrap();
        writeln!(out, "A margin/game {:.1}", s.a_margin as f64 / g as f64).unwrap();
    }
    out
}
