//! Coverage of ginlab's 95 % intervals (issue 16 item 5): repeats a short
//! match many times with independent seeds and counts how often each
//! interval holds the value a long reference run gives.
//!
//! ```sh
//! nice cargo run --release --example coverage -- --reps 1000 --games 2000 --reference 10000000
//! ```
//!
//! Prints one Markdown table per pairing (greedy vs simple under standard,
//! tracker vs greedy under eaai, duplicate deals; `--pairing 1` or `2` runs
//! one of them): per figure the share of
//! intervals that cover the reference, its Monte Carlo error, the mean
//! width, and for comparison the coverage of the intervals ginlab printed
//! before they were built from the scoring units (Wilson on games or hands,
//! t on hands, as if every game and hand were independent).
//!
//! With `--reference 0` the reference is the matches pooled (their merged
//! tallies: one run of reps × games games). It is then not independent of
//! each match, but a match is one part in `reps` of it, which moves the
//! coverage by well under the Monte Carlo error.

use std::time::Instant;

use ginlab::report::{End, SummaryRow};
use ginlab::rules::Rules;
use ginlab::seed::{Stream, seed_for};
use ginlab::sim::{Plan, Tallies, Work};
use ginlab::stats::{Z95, elo, wilson};
use rayon::prelude::*;

/// One reported figure: its name, how to read it (and its interval) from a
/// row, and the interval that treats games and hands as independent.
struct Figure {
    name: &'static str,
    read: fn(&SummaryRow) -> (f64, End, End),
    naive: fn(&Tallies) -> (f64, f64),
}

fn figures() -> Vec<Figure> {
    vec![
        Figure {
            name: "game win rate",
            read: |r| (r.a_game_win_rate, r.a_game_win_lo, r.a_game_win_hi),
            naive: |t| wilson(t.a_game_wins, t.games, Z95),
        },
        Figure {
            name: "hand win rate",
            read: |r| (r.a_hand_win_rate, r.a_hand_win_lo, r.a_hand_win_hi),
            naive: |t| wilson(t.a_hand_wins, t.hands, Z95),
        },
        Figure {
            name: "points per hand",
            read: |r| {
                (
                    r.a_points_per_hand,
                    r.a_points_per_hand_lo,
                    r.a_points_per_hand_hi,
                )
            },
            naive: |t| {
                let (_, lo, hi) = t.a_net_points.t_interval(0.95);
                (lo, hi)
            },
        },
        Figure {
            name: "margin per game",
            read: |r| {
                (
                    r.a_margin_per_game,
                    r.a_margin_per_game_lo,
                    r.a_margin_per_game_hi,
                )
            },
            naive: |t| {
                let (_, lo, hi) = t.a_margin.t_interval(0.95);
                (lo, hi)
            },
        },
        Figure {
            name: "non-dealer share",
            read: |r| {
                (
                    r.non_dealer_win_rate,
                    r.non_dealer_win_lo,
                    r.non_dealer_win_hi,
                )
            },
            naive: |t| wilson(t.non_dealer_wins, t.decided(), Z95),
        },
        Figure {
            name: "Elo",
            read: |r| (r.elo, r.elo_lo, r.elo_hi),
            naive: |t| {
                // Before: the pairs' standard error with the normal quantile.
                let (score, se) = t.score();
                let at = |p: f64| elo(p.clamp(1e-9, 1.0 - 1e-9));
                (at(score - Z95 * se), at(score + Z95 * se))
            },
        },
    ]
}

fn arg(args: &[String], name: &str, default: u64) -> u64 {
    args.iter()
        .position(|a| a == name)
        .and_then(|i| args.get(i + 1))
        .map_or(default, |v| {
            v.parse()
                .unwrap_or_else(|_| panic!("{name} takes a whole number, not {v}"))
        })
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let reps = arg(&args, "--reps", 1000);
    let games = arg(&args, "--games", 2000);
    let reference = arg(&args, "--reference", 10_000_000);
    let seed = arg(&args, "--seed", 16);
    let only = arg(&args, "--pairing", 0);
    let pairings = [
        ("standard", Rules::standard(), "greedy", "simple"),
        ("eaai", Rules::eaai(), "tracker", "greedy"),
    ];
    println!(
        "{reps} matches of {games} games (duplicate deals) per pairing against a reference of {reference} games; seed {seed}\n"
    );
    for (index, (variant, rules, a, b)) in pairings.into_iter().enumerate() {
        if only != 0 && only != index as u64 + 1 {
            continue;
        }
        let plan = |work: Work, seed: u64| Plan {
            rules: rules.clone(),
            profiles: [a.parse().unwrap(), b.parse().unwrap()],
            work,
            duplicate: true,
            seed,
        };
        let started = Instant::now();
        let long = plan(
            Work::Games(reference),
            seed_for(seed, index as u64, Stream::SeatA),
        );
        let mut truth_tallies = long.run(0..long.deals(), 0, &|_| {}).unwrap();
        let reference_seconds = started.elapsed().as_secs_f64();
        let started = Instant::now();
        let runs: Vec<Tallies> = (0..reps)
            .into_par_iter()
            .map(|rep| {
                let short = plan(
                    Work::Games(games),
                    seed_for(seed, ((index as u64) << 32) + rep, Stream::Deal),
                );
                let mut t = Tallies::default();
                for deal in 0..short.deals() {
                    short.play_deal(deal, &mut t).unwrap();
                }
                t
            })
            .collect();
        let seconds = started.elapsed().as_secs_f64();
        if reference == 0 {
            runs.iter().for_each(|t| truth_tallies.merge(t));
        }
        let truth = SummaryRow::new(variant, a, b, &truth_tallies, long.seed);
        let pooled = if reference == 0 {
            format!("the {} games pooled", truth_tallies.games)
        } else {
            format!("{reference} games, {reference_seconds:.0} s")
        };
        println!("{a} vs {b} under {variant} (reference: {pooled}; matches {seconds:.0} s)\n");
        println!(
            "| figure | reference | coverage | ± (MC) | no interval | mean width | coverage before |"
        );
        println!("|---|---|---|---|---|---|---|");
        let mc = (0.95 * 0.05 / reps as f64).sqrt();
        for figure in figures() {
            let (value, _, _) = (figure.read)(&truth);
            let (mut covered, mut covered_before, mut missing, mut width) = (0, 0, 0, 0.0);
            for t in &runs {
                let row = SummaryRow::new(variant, a, b, t, 0);
                match (figure.read)(&row) {
                    (_, Some(lo), Some(hi)) => {
                        covered += u64::from(lo <= value && value <= hi);
                        width += hi - lo;
                    }
                    _ => missing += 1,
                }
                let (lo, hi) = (figure.naive)(t);
                covered_before += u64::from(lo <= value && value <= hi);
            }
            let share = |n: u64| 100.0 * n as f64 / reps as f64;
            println!(
                "| {} | {value:.4} | {:.1} % | {:.1} | {missing} | {:.4} | {:.1} % |",
                figure.name,
                share(covered),
                100.0 * mc,
                width / (reps - missing).max(1) as f64,
                share(covered_before),
            );
        }
        println!();
    }
}
