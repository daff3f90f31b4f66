//! Coverage of ginlab's 95 % intervals (issue 16 item 5): repeats a short
//! match many times with independent seeds and counts how often each
//! interval holds the value a long reference run gives.
//!
//! ```sh
//! nice cargo run --release --example coverage -- --reps 1000 --games 2000 --reference 10000000
//! ```
//!
//! Prints one Markdown table per pairing (greedy vs simple under standard,
//! tracker vs greedy under eaai, duplicate deals; and three players,
//! greedy, simple and tracker under standard with seat rotation;
//! `--pairing 1`, `2` or `3` runs one of them; `--pairing 4` the edges
//! `ginlab tune` prints): per figure the share of
//! intervals that cover the reference, its Monte Carlo error, the mean
//! width, and for comparison the coverage of the intervals ginlab printed
//! before they were built from the scoring units (Wilson on games or hands,
//! t on hands, as if every game and hand were independent).
//!
//! The three-player table has a line per figure of each player's and
//! each seat's row (`summary.csv`, `seats.csv`) and the void rate; its
//! "before" is the interval ginlab printed before format 3 (games won:
//! Wilson over games widened to the t interval over deals; score: t over
//! deals; hands won: Wilson over hands; no interval for points per hand
//! and voids), and "independent" Wilson's over games or hands alone.
//!
//! With `--reference 0` the reference is the matches pooled (their merged
//! tallies: one run of reps × games games). It is then not independent of
//! each match, but a match is one part in `reps` of it, which moves the
//! coverage by well under the Monte Carlo error.

#[path = "common/args.rs"]
mod args;
use args::arg;

use std::time::Instant;

use ginlab::report::{End, SideRow, SummaryRow, side_rows};
use ginlab::rules::Rules;
use ginlab::seed::{Stream, seed_for};
use ginlab::sim::{Format, Plan, SideTally, TablePlan, TableTallies, Tallies, Work};
use ginlab::stats::{Moments, UnitSums, Z95, elo, wilson};
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

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let reps: u64 = arg(&args, "--reps", 1000);
    let games: u64 = arg(&args, "--games", 2000);
    let reference: u64 = arg(&args, "--reference", 10_000_000);
    let seed: u64 = arg(&args, "--seed", 16);
    let only: u64 = arg(&args, "--pairing", 0);
    let pairings = [
        ("standard", Rules::standard(), "greedy", "simple"),
        ("eaai", Rules::eaai(), "tracker", "greedy"),
    ];
    println!(
        "{reps} matches of {games} games (duplicate deals) per pairing against a reference of {reference} games; seed {seed}\n"
    );
    if only == 0 || only == 3 {
        three_players(reps, games, reference, seed);
    }
    if only == 0 || only == 4 {
        tuner_edges(reps, games, reference, seed);
    }
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

/// A figure of a three-player row: its name, how to read it (and its
/// interval) from the row, the interval ginlab printed before format 3
/// (`None`: none) and Wilson's over games or hands as if independent.
struct TableFigure {
    name: &'static str,
    read: fn(&SideRow) -> (f64, End, End),
    before: OtherInterval,
    independent: OtherInterval,
}

/// An interval of a row's figure from its tally and the variant's, if any.
type OtherInterval = fn(&SideTally, &TableTallies) -> Option<(f64, f64)>;

/// The t interval over the units of a per-unit sum, per game of a unit:
/// how format 2 read its per-deal moments.
fn t_over_deals(s: &UnitSums, t: &TableTallies) -> (f64, f64) {
    let moments = Moments {
        n: s.units,
        sum: s.x,
        sum_sq: s.xx,
    };
    let (_, lo, hi) = moments.t_interval(0.95);
    let size = t.unit_size.max(1) as f64;
    (lo / size, hi / size)
}

fn table_figures() -> [TableFigure; 5] {
    [
        TableFigure {
            name: "games won",
            read: |r| (r.win_rate, r.win_lo, r.win_hi),
            before: |s, t| {
                let (lo, hi) = wilson(s.wins, s.games, Z95);
                let (tlo, thi) = t_over_deals(&s.units.wins, t);
                Some((lo.min(tlo.max(0.0)), hi.max(thi.min(1.0))))
            },
            independent: |s, _| Some(wilson(s.wins, s.games, Z95)),
        },
        TableFigure {
            name: "score per game",
            read: |r| (r.score_per_game, r.score_lo, r.score_hi),
            before: |s, t| Some(t_over_deals(&s.units.score, t)),
            independent: |_, _| None,
        },
        TableFigure {
            name: "hands won",
            read: |r| (r.hand_win_rate, r.hand_win_lo, r.hand_win_hi),
            before: |s, _| Some(wilson(s.hands_won, s.hands, Z95)),
            independent: |s, _| Some(wilson(s.hands_won, s.hands, Z95)),
        },
        TableFigure {
            name: "points per hand",
            read: |r| {
                (
                    r.points_per_hand,
                    r.points_per_hand_lo,
                    r.points_per_hand_hi,
                )
            },
            before: |_, _| None,
            independent: |_, _| None,
        },
        TableFigure {
            name: "void rate",
            read: |r| (r.void_rate, r.void_lo, r.void_hi),
            before: |_, _| None,
            independent: |_, t| Some(wilson(t.voids, t.hands, Z95)),
        },
    ]
}

/// Coverage of the three-player rows: `reps` matches of `games` games of
/// greedy, simple and tracker under standard, seat rotation on.
fn three_players(reps: u64, games: u64, reference: u64, seed: u64) {
    const INDEX: u64 = 2;
    let players: Vec<String> = ["greedy", "simple", "tracker"].map(String::from).to_vec();
    let plan = |games: u64, seed: u64| TablePlan {
        format: Format::Three,
        rules: Rules::standard(),
        profiles: players.iter().map(|p| p.parse().unwrap()).collect(),
        games,
        rotate: true,
        seed,
    };
    let started = Instant::now();
    let long = plan(reference, seed_for(seed, INDEX, Stream::SeatA));
    let mut truth = long.run(0..long.deals(), 0, &|_| {}).unwrap();
    let reference_seconds = started.elapsed().as_secs_f64();
    let started = Instant::now();
    let runs: Vec<TableTallies> = (0..reps)
        .into_par_iter()
        .map(|rep| {
            let short = plan(games, seed_for(seed, (INDEX << 32) + rep, Stream::Deal));
            let mut t = TableTallies::new(Format::Three);
            for deal in 0..short.deals() {
                short.play_deal(deal, &mut t).unwrap();
            }
            t
        })
        .collect();
    let seconds = started.elapsed().as_secs_f64();
    if reference == 0 {
        runs.iter().for_each(|t| truth.merge(t));
    }
    let rows = |t: &TableTallies| {
        let (sides, seats) = side_rows("standard", Format::Three, &players, t);
        // Each row with its tally: the players', then the seats'.
        sides
            .into_iter()
            .zip(t.sides.clone())
            .chain(seats.into_iter().zip(t.positions.clone()))
            .collect::<Vec<_>>()
    };
    let pooled = if reference == 0 {
        format!("the {} games pooled", truth.games)
    } else {
        format!("{reference} games, {reference_seconds:.0} s")
    };
    println!(
        "greedy, simple, tracker under standard, seat rotation (reference: {pooled}; matches {seconds:.0} s)\n"
    );
    println!(
        "| row | figure | reference | coverage | ± (MC) | no interval | mean width | before | before width | independent |"
    );
    println!("|---|---|---|---|---|---|---|---|---|---|");
    let mc = (0.95 * 0.05 / reps as f64).sqrt();
    let truth_rows = rows(&truth);
    let matches: Vec<_> = runs.iter().map(|t| (rows(t), t)).collect();
    let share = |n: u64| format!("{:.1} %", 100.0 * n as f64 / reps as f64);
    for (at, (truth_row, _)) in truth_rows.iter().enumerate() {
        for figure in table_figures() {
            // The void rate is the variant's: one line, on the first row.
            if figure.name == "void rate" && at > 0 {
                continue;
            }
            let (value, _, _) = (figure.read)(truth_row);
            let (mut covered, mut missing, mut width) = (0, 0, 0.0);
            let (mut before, mut before_width, mut independent) = (0, 0.0, 0);
            for (rows, t) in &matches {
                let (row, side) = &rows[at];
                match (figure.read)(row) {
                    (_, Some(lo), Some(hi)) => {
                        covered += u64::from(lo <= value && value <= hi);
                        width += hi - lo;
                    }
                    _ => missing += 1,
                }
                if let Some((lo, hi)) = (figure.before)(side, t) {
                    before += u64::from(lo <= value && value <= hi);
                    before_width += hi - lo;
                }
                if let Some((lo, hi)) = (figure.independent)(side, t) {
                    independent += u64::from(lo <= value && value <= hi);
                }
            }
            let had = |f: OtherInterval| f(&truth.sides[0], &truth).is_some();
            let (before_text, before_width_text) = if had(figure.before) {
                (share(before), format!("{:.4}", before_width / reps as f64))
            } else {
                ("none".to_owned(), "–".to_owned())
            };
            let independent_text = if had(figure.independent) {
                share(independent)
            } else {
                "–".to_owned()
            };
            // The void rate belongs to the variant, not to the row.
            let row_name = if at == 0 && figure.name == "void rate" {
                "(variant)"
            } else {
                &truth_row.side
            };
            println!(
                "| {row_name} | {} | {value:.4} | {} | {:.1} | {missing} | {:.4} | {before_text} | {before_width_text} | {independent_text} |",
                figure.name,
                share(covered),
                100.0 * mc,
                width / (reps - missing).max(1) as f64,
            );
        }
    }
    println!();
}

/// Coverage of the edges `ginlab tune` prints between two settings
/// confirmed on the same deals (greedy with knock_at 10 and with 6, each
/// against simple under standard, duplicate games): its paired interval
/// over the deals, played by the tuner's own confirmation, against the
/// interval that combines the two rows' errors as if independent.
fn tuner_edges(reps: u64, games: u64, reference: u64, seed: u64) {
    use std::sync::Arc;

    use ginlab::report::Objective;
    use ginlab::stats::paired_interval;
    use ginlab::stats::t_quantile;
    use ginlab::tune::confirm::{Rows, play};

    const INDEX: u64 = 3;
    let settings = ["greedy:knock_at=10", "greedy:knock_at=6"];
    let plans = |games: u64, seed: u64| -> Vec<Arc<Plan>> {
        settings
            .iter()
            .map(|s| {
                Arc::new(Plan {
                    rules: Rules::standard(),
                    profiles: [s.parse().unwrap(), "simple".parse().unwrap()],
                    work: Work::Games(games),
                    duplicate: true,
                    seed,
                })
            })
            .collect()
    };
    let groups = [vec![0, 1]];
    let confirm = |games: u64, seed: u64, threads: usize| {
        let plans = plans(games, seed);
        let rows = Rows {
            plans: &plans,
            groups: &groups,
            objective: Objective::Games,
        };
        play(&rows, None, threads, &|_| Ok(()), &|_| {}).unwrap()
    };
    let started = Instant::now();
    let scores =
        |c: &ginlab::tune::confirm::Confirmation| (c.rows[0].units.score, c.rows[1].units.score);
    let reference_run =
        (reference > 0).then(|| confirm(reference, seed_for(seed, INDEX, Stream::SeatA), 0));
    let reference_seconds = started.elapsed().as_secs_f64();
    let started = Instant::now();
    // One match at a time, its deals on every core (each match builds its
    // own pool, as the tuner does).
    let runs: Vec<_> = (0..reps)
        .map(|rep| confirm(games, seed_for(seed, (INDEX << 32) + rep, Stream::Deal), 0))
        .collect();
    let seconds = started.elapsed().as_secs_f64();
    let truth = match &reference_run {
        Some(run) => {
            let (a, b) = scores(run);
            a.value() - b.value()
        }
        None => {
            let (mut a, mut b) = (UnitSums::default(), UnitSums::default());
            for run in &runs {
                let (x, y) = scores(run);
                a.merge(&x);
                b.merge(&y);
            }
            a.value() - b.value()
        }
    };
    let pooled = if reference == 0 {
        format!("the {} matches pooled", reps)
    } else {
        format!("{reference} games a setting, {reference_seconds:.0} s")
    };
    println!(
        "tune's edge: {} over {} against simple under standard, {games} games each on the same deals (reference: {pooled}; matches {seconds:.0} s)\n",
        settings[0], settings[1]
    );
    println!("| interval | reference edge | coverage | ± (MC) | mean width |");
    println!("|---|---|---|---|---|");
    let mc = (0.95 * 0.05 / reps as f64).sqrt();
    let (mut paired, mut paired_width) = (0, 0.0);
    let (mut independent, mut independent_width) = (0, 0.0);
    for run in &runs {
        let (a, b) = scores(run);
        if let Some((_, lo, hi)) = paired_interval(&a, &b, &run.cross[0][0], 0.95) {
            paired += u64::from(lo <= truth && truth <= hi);
            paired_width += hi - lo;
        }
        if let (Some(x), Some(y)) = (a.standard_error(), b.standard_error()) {
            let d = a.value() - b.value();
            let half = t_quantile(0.975, a.units.min(b.units) - 1) * (x * x + y * y).sqrt();
            independent += u64::from(d - half <= truth && truth <= d + half);
            independent_width += 2.0 * half;
        }
    }
    let share = |n: u64| 100.0 * n as f64 / reps as f64;
    println!(
        "| paired over deals (printed) | {truth:+.4} | {:.1} % | {:.1} | {:.4} |",
        share(paired),
        100.0 * mc,
        paired_width / reps as f64
    );
    println!(
        "| rows combined as independent (before) | {truth:+.4} | {:.1} % | {:.1} | {:.4} |",
        share(independent),
        100.0 * mc,
        independent_width / reps as f64
    );
    println!();
}
